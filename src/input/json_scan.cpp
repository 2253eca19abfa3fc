#include "input/json_scan.hpp"

#include <charconv>
#include <cmath>

#include "model/text.hpp"

namespace amdahl::detail {

namespace {

// Bytes that may appear in JSON outside strings: structure, whitespace, numbers and literals.
bool plain_byte(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '{' || c == '}' ||
           c == '[' || c == ']' || c == ',' || c == ':' || c == '-' || c == '+' || c == '.' || c == ' ' || c == '\n' ||
           c == '\t' || c == '\r';
}

}  // namespace

bool JsonScan::string(std::string_view& out) {
    if (peek() != '"') return false;
    const std::size_t start = ++pos_;
    while (pos_ < text_.size()) {
        const auto c = static_cast<unsigned char>(text_[pos_]);
        if (c == '"') {
            out = text_.substr(start, pos_ - start);
            ++pos_;
            return true;
        }
        if (c < 0x20 || c >= 0x7F || c == '\\') return false;
        ++pos_;
    }
    return false;
}

bool JsonScan::string(std::string& out) {
    if (peek() != '"') return false;
    out.clear();
    std::size_t pos = pos_ + 1;
    while (pos < text_.size()) {
        // Printable ASCII up to the next quote, escape or other byte, at once.
        std::size_t run = pos;
        while (run < text_.size()) {
            const auto c = static_cast<unsigned char>(text_[run]);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7F) break;
            ++run;
        }
        out.append(text_.substr(pos, run - pos));
        pos = run;
        if (pos == text_.size()) return false;
        const auto c = static_cast<unsigned char>(text_[pos]);
        if (c == '"') {
            pos_ = pos + 1;
            return true;
        }
        if (c >= 0x80) {
            const std::size_t length = utf8_sequence_length(text_, pos);
            if (length == 0) return false;
            out.append(text_.substr(pos, length));
            pos += length;
            continue;
        }
        if (c != '\\' || pos + 1 == text_.size()) return false;  // a control byte or DEL, or a cut escape
        const char escaped = text_[pos + 1];
        pos += 2;
        switch (escaped) {
            case '"':
            case '\\':
            case '/':
                out += escaped;
                continue;
            case 'b':
                out += '\b';
                continue;
            case 'f':
                out += '\f';
                continue;
            case 'n':
                out += '\n';
                continue;
            case 'r':
                out += '\r';
                continue;
            case 't':
                out += '\t';
                continue;
            case 'u':
                break;
            default:
                return false;
        }
        if (text_.size() - pos < 4) return false;
        unsigned code = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const char h = text_[pos + k];
            const unsigned digit = h >= '0' && h <= '9'   ? static_cast<unsigned>(h - '0')
                                   : h >= 'a' && h <= 'f' ? static_cast<unsigned>(h - 'a' + 10)
                                   : h >= 'A' && h <= 'F' ? static_cast<unsigned>(h - 'A' + 10)
                                                          : 16u;
            if (digit == 16) return false;
            code = code * 16 + digit;
        }
        pos += 4;
        if (code >= 0xD800 && code <= 0xDFFF) return false;
        // UTF-8 for a code point below U+10000.
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }
    return false;
}

bool JsonScan::number(double& out) {
    peek();
    // JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    std::size_t i = pos_;
    const auto digit = [&](std::size_t k) { return k < text_.size() && text_[k] >= '0' && text_[k] <= '9'; };
    if (i < text_.size() && text_[i] == '-') ++i;
    if (!digit(i)) return false;
    if (text_[i] == '0') {
        ++i;
    } else {
        while (digit(i)) ++i;
    }
    if (i < text_.size() && text_[i] == '.') {
        if (!digit(++i)) return false;
        while (digit(i)) ++i;
    }
    if (i < text_.size() && (text_[i] == 'e' || text_[i] == 'E')) {
        ++i;
        if (i < text_.size() && (text_[i] == '+' || text_[i] == '-')) ++i;
        if (!digit(i)) return false;
        while (digit(i)) ++i;
    }
    const auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + i, out);
    if (ec != std::errc() || end != text_.data() + i || !std::isfinite(out)) return false;
    pos_ = i;
    return true;
}

bool JsonScan::skip_value(std::string_view& out) {
    peek();
    const std::size_t start = pos_;
    std::size_t depth = 0;
    while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (c == '"') {
            for (++pos_; pos_ < text_.size() && text_[pos_] != '"'; ++pos_) {
                if (static_cast<unsigned char>(text_[pos_]) < 0x20) return false;  // not JSON
                if (text_[pos_] == '\\') ++pos_;
            }
            if (pos_ >= text_.size()) return false;
            ++pos_;
        } else if (!plain_byte(c)) {
            return false;  // a byte JSON has no place for outside strings (a NUL, say)
        } else if (c == '{' || c == '[') {
            ++depth;
            ++pos_;
        } else if (c == '}' || c == ']') {
            if (depth == 0) break;  // the end of the container this value sits in
            --depth;
            ++pos_;
        } else if (c == ',' && depth == 0) {
            break;
        } else {
            ++pos_;
        }
        if (depth == 0 && (c == '"' || c == '}' || c == ']')) break;
    }
    if (depth != 0 || pos_ == start) return false;
    out = text_.substr(start, pos_ - start);
    return true;
}

}  // namespace amdahl::detail
