#pragma once
// A scanner for the plain JSON that tools write: strings, numbers, literals. It says "not plain"
// (false) rather than judging anything else, so a caller can take a fast path through most files
// and leave the rest, and every error, to a full parser.
#include <cstddef>
#include <string>
#include <string_view>

namespace amdahl::detail {

class JsonScan {
public:
    explicit JsonScan(std::string_view text) : text_(text) {}

    /// The next character after whitespace, or '\0' at the end.
    char peek() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' || text_[pos_] == '\r'))
            ++pos_;
        return pos_ < text_.size() ? text_[pos_] : '\0';
    }
    /// Consumes `c` if it comes next.
    bool eat(char c) {
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    /// A string of printable ASCII without escapes; false for anything else.
    bool string(std::string_view& out);
    /// A string's value: escapes decoded, UTF-8 as it is. False (leaving the string to the full
    /// parser) for what that parser rejects or decodes with more care: control bytes, DEL,
    /// ill-formed UTF-8, unknown escapes and surrogates (\uD800-\uDFFF, alone or in pairs).
    bool string(std::string& out);
    /// A number in JSON's syntax that a double holds; false for anything else.
    bool number(double& out);
    /// Skips one value of any kind (strings may hold anything) and gives its text; false when
    /// the text ends first or the value is not well formed enough to skip.
    bool skip_value(std::string_view& out);
    bool at_end() { return peek() == '\0' && pos_ == text_.size(); }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace amdahl::detail
