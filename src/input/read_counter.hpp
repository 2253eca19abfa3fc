#pragma once
// Counts the bytes an input gives as it is read, for a progress indicator
// (ImportOptions::on_read): a stream buffer that passes another's bytes through and reports, at
// each chunk it hands on, how many bytes have been read in all. Reads of a chunk or more go
// straight to the source, so counting copies nothing.
#include <atomic>
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <streambuf>
#include <vector>

namespace amdahl::detail {

/// What several counting buffers over one input (a trace read by two threads) add to.
struct ReadCounter {
    std::function<void(std::uint64_t read, std::uint64_t size)> on_read;
    std::uint64_t size = 0;  ///< the input's size in bytes; 0: unknown
    std::atomic<std::uint64_t> read{0};
    void add(std::uint64_t bytes) {
        const std::uint64_t total = read.fetch_add(bytes, std::memory_order_relaxed) + bytes;
        if (on_read) on_read(total, size);
    }
};

class CountingBuffer : public std::streambuf {
public:
    CountingBuffer(std::streambuf* source, std::shared_ptr<ReadCounter> counter);

protected:
    int_type underflow() override;
    std::streamsize xsgetn(char* out, std::streamsize count) override;

private:
    std::streambuf* source_;
    std::shared_ptr<ReadCounter> counter_;
    std::vector<char> chunk_;
};

/// A stream over `inner` that counts what is read from it, and owns it.
std::unique_ptr<std::istream> counted(std::unique_ptr<std::istream> inner, std::shared_ptr<ReadCounter> counter);

}  // namespace amdahl::detail
