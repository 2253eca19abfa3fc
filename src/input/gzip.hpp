#pragma once
// gzip input (Kineto's `.json.gz`, HTA's sample data), inflated as it is read: the readers see the
// uncompressed text through an std::istream and never hold more of it than they would of a plain
// file. isa-l's igzip inflates (bench/gzip.sh measured it against zlib and libdeflate).
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace amdahl::detail {

/// A stream buffer that inflates the gzip data read from `compressed`: every member, one after
/// another, as `gzip -d` does. Damaged, truncated or trailing data throws amdahl::Error naming
/// `source` (an std::istream reading from it passes that on when its exceptions() has badbit).
class GzipInflater : public std::streambuf {
public:
    /// `already_read`: the bytes of `compressed` taken before (the magic bytes, when sniffed).
    GzipInflater(std::istream& compressed, std::string source, std::string_view already_read);
    ~GzipInflater() override;
    GzipInflater(const GzipInflater&) = delete;
    GzipInflater& operator=(const GzipInflater&) = delete;

protected:
    int_type underflow() override;
    std::streamsize xsgetn(char* out, std::streamsize count) override;

private:
    // Each inflating library's own (gzip.cpp: isa-l; gzip_zlib.cpp: zlib):
    std::size_t inflate_into(char* out, std::size_t size);  // 0 at the end of the data
    bool fill();                                            // false at the end of the compressed input
    // Shared (gzip_stream.cpp):
    bool read_input();  // the next chunk into input_; false at the end of the compressed input
    // After a member's end, at `next` (`avail` bytes of input left): true when another member
    // starts there (after reading more input if need be), false at the end of the input; throws
    // on anything else.
    bool start_next_member(std::uint8_t*& next, std::size_t& avail);
    [[noreturn]] void truncated() const;
    [[noreturn]] void fail(const std::string& what) const;

    struct State;
    std::unique_ptr<State> state_;
    std::istream& compressed_;
    std::string source_;
    std::vector<unsigned char> input_;
    std::vector<char> output_;
    void check_header_flags();  // RFC 1952's reserved flag bits, which igzip does not check

    std::uint64_t compressed_read_ = 0;  // bytes taken from the input so far
    std::uint64_t input_offset_ = 0;     // where input_[0] is in the compressed input
    std::uint64_t member_start_ = 0;     // where the current member starts in it
    std::uint64_t member_ = 1;           // the member being inflated, from 1
    bool flags_checked_ = false;
    bool finished_ = false;
};

/// gzip's magic bytes, 1f 8b.
constexpr unsigned char gzip_magic[2] = {0x1f, 0x8b};

}  // namespace amdahl::detail
