#include "input/gzip.hpp"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "amdahl/error.hpp"

namespace amdahl::detail {

namespace {
// 1 MiB of compressed input at a time; the output goes straight into the reader's own buffer
// (JsonStream asks for 1 MiB), through output_ only for single characters.
constexpr std::size_t input_chunk = 1 << 20;
constexpr std::size_t output_chunk = 1 << 16;

std::string reason(int status) {
    switch (status) {
        case ISAL_INVALID_BLOCK:
            return "an invalid deflate block";
        case ISAL_INVALID_SYMBOL:
            return "an invalid deflate code";
        case ISAL_INVALID_LOOKBACK:
            return "a back-reference to before the start of the data";
        case ISAL_INVALID_WRAPPER:
            return "an invalid gzip header";
        case ISAL_UNSUPPORTED_METHOD:
            return "a compression method other than deflate";
        case ISAL_INCORRECT_CHECKSUM:
            return "its CRC-32 or length does not match the inflated data";
        case ISAL_NEED_DICT:
            return "it needs a preset dictionary";
        default:
            return "inflate error " + std::to_string(status);
    }
}
}  // namespace

struct GzipInflater::State {
    inflate_state isal;
};

GzipInflater::GzipInflater(std::istream& compressed, std::string source, std::string_view already_read)
    : state_(std::make_unique<State>()), compressed_(compressed), source_(std::move(source)) {
    isal_inflate_init(&state_->isal);
    state_->isal.crc_flag = ISAL_GZIP;  // parse the gzip header, check the trailer's CRC-32 and size
    input_.reserve(std::max(input_chunk, already_read.size()));
    input_.assign(already_read.begin(), already_read.end());
    state_->isal.next_in = input_.data();
    state_->isal.avail_in = static_cast<std::uint32_t>(input_.size());
    compressed_read_ = input_.size();
}

GzipInflater::~GzipInflater() = default;

void GzipInflater::fail(const std::string& what) const { throw Error(source_, what); }

bool GzipInflater::fill() {
    input_.resize(input_chunk);
    compressed_.read(reinterpret_cast<char*>(input_.data()), static_cast<std::streamsize>(input_chunk));
    const auto got = static_cast<std::size_t>(compressed_.gcount());
    if (compressed_.bad()) fail("read error");
    input_.resize(got);
    input_offset_ = compressed_read_;
    compressed_read_ += got;
    state_->isal.next_in = input_.data();
    state_->isal.avail_in = static_cast<std::uint32_t>(got);
    return got > 0;
}

std::size_t GzipInflater::inflate_into(char* out, std::size_t size) {
    inflate_state& isal = state_->isal;
    if (finished_ || size == 0) return 0;
    isal.next_out = reinterpret_cast<std::uint8_t*>(out);
    isal.avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(size, std::numeric_limits<std::uint32_t>::max()));
    const std::uint32_t asked = isal.avail_out;
    while (isal.avail_out > 0) {
        if (isal.block_state == ISAL_BLOCK_FINISH) {
            // A member ended: the input ends too, or another member follows (gzip -d reads them all).
            if (isal.avail_in == 0 && !fill()) {
                finished_ = true;
                break;
            }
            const std::uint64_t member_end = compressed_read_ - isal.avail_in;
            if (isal.avail_in == 1 && isal.next_in[0] == gzip_magic[0]) {
                // The next magic bytes straddle a chunk: keep the first, read the rest.
                const unsigned char first = isal.next_in[0];
                if (!fill())
                    fail("data after the end of the gzip data (at byte " + std::to_string(member_end) +
                         ") is not another gzip member");
                input_.insert(input_.begin(), first);
                --input_offset_;
                isal.next_in = input_.data();
                isal.avail_in = static_cast<std::uint32_t>(input_.size());
            }
            if (isal.avail_in < 2 || isal.next_in[0] != gzip_magic[0] || isal.next_in[1] != gzip_magic[1])
                fail("data after the end of the gzip data (at byte " + std::to_string(member_end) +
                     ") is not another gzip member");
            std::uint8_t* next = isal.next_in;
            const std::uint32_t avail = isal.avail_in;
            isal_inflate_reset(&isal);
            isal.crc_flag = ISAL_GZIP;
            isal.next_in = next;
            isal.avail_in = avail;
            ++member_;
            member_start_ = member_end;
            flags_checked_ = false;
        }
        if (isal.avail_in == 0 && !fill()) {
            fail("truncated gzip data: the input ends inside gzip member " + std::to_string(member_) + " (after " +
                 std::to_string(compressed_read_) + " bytes)");
        }
        if (!flags_checked_) check_header_flags();
        const int status = isal_inflate(&isal);
        if (status != ISAL_DECOMP_OK)
            fail("corrupt gzip data in member " + std::to_string(member_) + ": " + reason(status));
    }
    return asked - isal.avail_out;
}

// FLG, the fourth byte of a member's header: its top three bits are reserved, and RFC 1952 asks a
// reader to refuse a member that sets them (zlib does; igzip reads on). Looked at in whichever
// chunk of input holds it, before igzip consumes that chunk.
void GzipInflater::check_header_flags() {
    const std::uint64_t at = member_start_ + 3;
    if (at < input_offset_ || at >= input_offset_ + input_.size()) return;
    flags_checked_ = true;
    if (input_[static_cast<std::size_t>(at - input_offset_)] & 0xe0)
        fail("corrupt gzip data in member " + std::to_string(member_) +
             ": an invalid gzip header (reserved flags set)");
}

GzipInflater::int_type GzipInflater::underflow() {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    output_.resize(output_chunk);
    const std::size_t got = inflate_into(output_.data(), output_.size());
    if (got == 0) return traits_type::eof();
    setg(output_.data(), output_.data(), output_.data() + got);
    return traits_type::to_int_type(*gptr());
}

std::streamsize GzipInflater::xsgetn(char* out, std::streamsize count) {
    // What underflow() buffered first, then inflate straight into the caller's buffer.
    std::streamsize done = std::min<std::streamsize>(count, egptr() - gptr());
    if (done > 0) {
        std::memcpy(out, gptr(), static_cast<std::size_t>(done));
        gbump(static_cast<int>(done));
    }
    while (done < count) {
        const std::size_t got = inflate_into(out + done, static_cast<std::size_t>(count - done));
        if (got == 0) break;
        done += static_cast<std::streamsize>(got);
    }
    return done;
}

}  // namespace amdahl::detail
