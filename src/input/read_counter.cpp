#include "input/read_counter.hpp"

#include <algorithm>
#include <cstring>

namespace amdahl::detail {

namespace {
constexpr std::size_t chunk_size = 1 << 16;
}

CountingBuffer::CountingBuffer(std::streambuf* source, std::shared_ptr<ReadCounter> counter)
    : source_(source), counter_(std::move(counter)), chunk_(chunk_size) {
    setg(chunk_.data(), chunk_.data(), chunk_.data());
}

CountingBuffer::int_type CountingBuffer::underflow() {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const std::streamsize got = source_->sgetn(chunk_.data(), static_cast<std::streamsize>(chunk_.size()));
    if (got <= 0) return traits_type::eof();
    counter_->add(static_cast<std::uint64_t>(got));
    setg(chunk_.data(), chunk_.data(), chunk_.data() + got);
    return traits_type::to_int_type(*gptr());
}

std::streamsize CountingBuffer::xsgetn(char* out, std::streamsize count) {
    // What is left of the last chunk first; then a large read goes to the source directly.
    const std::streamsize buffered = std::min<std::streamsize>(count, egptr() - gptr());
    std::memcpy(out, gptr(), static_cast<std::size_t>(buffered));
    gbump(static_cast<int>(buffered));
    std::streamsize done = buffered;
    if (done < count && count - done >= static_cast<std::streamsize>(chunk_.size())) {
        const std::streamsize got = source_->sgetn(out + done, count - done);
        if (got > 0) {
            counter_->add(static_cast<std::uint64_t>(got));
            done += got;
        }
        return done;
    }
    while (done < count && underflow() != traits_type::eof()) {
        const std::streamsize more = std::min<std::streamsize>(count - done, egptr() - gptr());
        std::memcpy(out + done, gptr(), static_cast<std::size_t>(more));
        gbump(static_cast<int>(more));
        done += more;
    }
    return done;
}

namespace {
// An istream that owns the stream it reads through a counting buffer.
class CountedStream : public std::istream {
public:
    CountedStream(std::unique_ptr<std::istream> inner, std::shared_ptr<ReadCounter> counter)
        : std::istream(nullptr), inner_(std::move(inner)), buffer_(inner_->rdbuf(), std::move(counter)) {
        rdbuf(&buffer_);
    }

private:
    std::unique_ptr<std::istream> inner_;
    CountingBuffer buffer_;
};
}  // namespace

std::unique_ptr<std::istream> counted(std::unique_ptr<std::istream> inner, std::shared_ptr<ReadCounter> counter) {
    if (!inner) return inner;
    return std::make_unique<CountedStream>(std::move(inner), std::move(counter));
}

}  // namespace amdahl::detail
