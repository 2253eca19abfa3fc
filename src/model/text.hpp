#pragma once
// Small text helpers every parser needs, written once.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace amdahl::detail {

/// `text` without leading and trailing whitespace.
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/// `text` without leading and trailing whitespace (ASCII, as std::isspace in the C locale).
inline std::string_view trim(std::string_view text) {
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    return text;
}

/// Reads the body of a quoted CSV field: `pos` is just past the opening quote; `""` is a quote.
/// Appends the body to `out` and leaves `pos` past the closing quote; false when none comes.
inline bool read_quoted(std::string_view text, std::size_t& pos, std::string& out) {
    while (pos < text.size()) {
        // The text up to the next quote at once (a byte at a time cost a check and a growth each).
        const std::size_t quote = std::min(text.find('"', pos), text.size());
        out.append(text.substr(pos, quote - pos));
        pos = quote;
        if (pos == text.size()) break;
        if (pos + 1 < text.size() && text[pos + 1] == '"') {
            out += '"';
            pos += 2;
            continue;
        }
        ++pos;
        return true;
    }
    return false;
}

/// `c` in ASCII lower case.
inline char lower_char(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// `text` in ASCII lower case.
inline std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = lower_char(c);
    return out;
}

/// Whether `text` starts with `prefix`, ignoring ASCII case; builds no lower-case copies.
inline bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (lower_char(text[i]) != lower_char(prefix[i])) return false;
    return true;
}

/// Whether `a` and `b` are equal, ignoring ASCII case; builds no lower-case copies.
inline bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && starts_with_ignoring_case(a, b);
}

/// Length of the valid UTF-8 sequence that starts at text[i], or 0 when none starts there.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char c = byte(0);
    const std::size_t length = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (length == 0 || i + length > text.size()) return 0;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF
    // (Unicode Table 3-7): JSON readers reject them, and they are no text to show.
    const unsigned char low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (byte(1) < low || byte(1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if ((byte(k) & 0xC0) != 0x80) return 0;
    return length;
}

}  // namespace amdahl::detail
