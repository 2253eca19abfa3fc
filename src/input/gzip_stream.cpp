// What the gzip readers share (input/gzip.hpp), whichever library inflates: reading the compressed
// input in chunks, finding the next member, the messages, and the std::streambuf side.
#include <algorithm>
#include <cstring>

#include "amdahl/error.hpp"
#include "input/gzip.hpp"
#include "input/read_chunk.hpp"

namespace amdahl::detail {

namespace {
// The compressed input is read in chunks of next_chunk_size(); the output goes straight into the
// reader's own buffer (JsonStream's chunks), through output_ only for single characters.
constexpr std::size_t output_chunk = 1 << 16;
}  // namespace

void GzipInflater::fail(const std::string& what) const { throw Error(source_, what); }

void GzipInflater::truncated() const {
    fail("truncated gzip data: the input ends inside gzip member " + std::to_string(member_) + " (after " +
         std::to_string(compressed_read_) + " bytes)");
}

bool GzipInflater::read_input() {
    const std::size_t chunk = next_chunk_size(compressed_read_);
    input_.resize(chunk);
    compressed_.read(reinterpret_cast<char*>(input_.data()), static_cast<std::streamsize>(chunk));
    const auto got = static_cast<std::size_t>(compressed_.gcount());
    if (compressed_.bad()) fail("read error");
    input_.resize(got);
    input_offset_ = compressed_read_;
    compressed_read_ += got;
    return got > 0;
}

bool GzipInflater::start_next_member(std::uint8_t*& next, std::size_t& avail) {
    // The input ends too, or another member follows (gzip -d reads them all).
    if (avail == 0) {
        if (!fill()) return false;
        next = input_.data();
        avail = input_.size();
    }
    const std::uint64_t member_end = compressed_read_ - avail;
    const auto not_a_member = [&] {
        fail("data after the end of the gzip data (at byte " + std::to_string(member_end) +
             ") is not another gzip member");
    };
    if (avail == 1 && next[0] == gzip_magic[0]) {
        // The next magic bytes straddle a chunk: keep the first, read the rest.
        const unsigned char first = next[0];
        if (!fill()) not_a_member();
        input_.insert(input_.begin(), first);
        --input_offset_;
        next = input_.data();
        avail = input_.size();
    }
    if (avail < 2 || next[0] != gzip_magic[0] || next[1] != gzip_magic[1]) not_a_member();
    ++member_;
    member_start_ = member_end;
    flags_checked_ = false;
    return true;
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
