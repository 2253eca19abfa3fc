#pragma once
// A forward-only reader over a JSON text that arrives in chunks (a file of any size): it keeps
// only the unread part in memory, counts lines for messages, and hands out whole values.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace amdahl::detail {

class JsonStream {
public:
    JsonStream(std::string_view prefix, std::istream* in, std::string source);

    /// The next non-whitespace character, or '\0' at the end of the input.
    char peek();
    void skip(std::size_t count) { pos_ += count; }
    /// Reads a string token (the cursor is on its opening quote) and unescapes it into `out`.
    void read_string(std::string& out);
    /// The text of the complete value starting at the cursor (an object, array, string or
    /// scalar), valid until the next call; the cursor moves past it. Throws at a truncated value.
    std::string_view read_value(std::string_view what);

    /// Thrown by a parser handed to parse_here() when the value runs past the text it was given.
    struct NeedMore {};

    /// Parses the value at the cursor in place: `parse(text)` gets the unread text and returns how
    /// many bytes it consumed, or throws NeedMore to be called again with more text. One pass over
    /// the bytes, no copy. Throws amdahl::Error when the input ends first.
    template <class Parse>
    void parse_here(Parse&& parse, std::string_view what) {
        for (;;) {
            if (peek() == '\0') throw_truncated(what);
            try {
                pos_ += parse(std::string_view(buffer_).substr(pos_));
                return;
            } catch (const NeedMore&) {
                if (!fill()) throw_truncated(what);
            }
        }
    }

    /// Line and column (from 1) of the cursor, or of `back` bytes before it. Positions asked for
    /// in the order of the text cost one pass over it in all.
    struct Position {
        std::uint64_t line = 1, column = 1;
    };
    Position position(std::size_t back = 0);
    /// "file:line:column" of the cursor (or of `back` bytes before it).
    std::string location(std::size_t back = 0);
    const std::string& source() const { return source_; }
    /// Bytes of the text before the cursor (the prefix's first byte is 0).
    std::uint64_t offset() const { return dropped_ + pos_; }

private:
    [[noreturn]] void throw_truncated(std::string_view what);
    bool fill();  // reads another chunk; false at the end of the input
    void count_lines_to(std::size_t at);
    std::string buffer_;
    std::vector<char> chunk_;
    std::size_t pos_ = 0;
    std::uint64_t dropped_ = 0;  // bytes read and dropped before buffer_[0]
    std::istream* in_;
    std::string source_;
    std::size_t lines_before_ = 1;  // line number at buffer_[0]
    std::size_t column_base_ = 1;   // column at buffer_[0] when no newline precedes in the buffer
    // The newlines in buffer_[0, counted_to_), and where the last of them is (npos: none).
    std::size_t counted_to_ = 0, newlines_ = 0, last_newline_ = std::string::npos;
};

/// Unescapes the body of a JSON string (without its quotes); throws std::invalid_argument on a
/// bad escape.
void unescape_json(std::string_view body, std::string& out);

}  // namespace amdahl::detail
