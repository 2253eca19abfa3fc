#include "input/gzip.hpp"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <limits>

#include "amdahl/error.hpp"

namespace amdahl::detail {

namespace {
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
    input_.assign(already_read.begin(), already_read.end());
    state_->isal.next_in = input_.data();
    state_->isal.avail_in = static_cast<std::uint32_t>(input_.size());
    compressed_read_ = input_.size();
}

GzipInflater::~GzipInflater() = default;

bool GzipInflater::fill() {
    const bool more = read_input();
    state_->isal.next_in = input_.data();
    state_->isal.avail_in = static_cast<std::uint32_t>(input_.size());
    return more;
}

std::size_t GzipInflater::inflate_into(char* out, std::size_t size) {
    inflate_state& isal = state_->isal;
    if (finished_ || size == 0) return 0;
    isal.next_out = reinterpret_cast<std::uint8_t*>(out);
    isal.avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(size, std::numeric_limits<std::uint32_t>::max()));
    const std::uint32_t asked = isal.avail_out;
    while (isal.avail_out > 0) {
        if (isal.block_state == ISAL_BLOCK_FINISH) {
            std::uint8_t* next = isal.next_in;
            std::size_t avail = isal.avail_in;
            if (!start_next_member(next, avail)) {
                finished_ = true;
                break;
            }
            isal_inflate_reset(&isal);
            isal.crc_flag = ISAL_GZIP;
            isal.next_in = next;
            isal.avail_in = static_cast<std::uint32_t>(avail);
        }
        if (isal.avail_in == 0 && !fill()) truncated();
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

}  // namespace amdahl::detail
