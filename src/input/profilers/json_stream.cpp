#include "input/profilers/json_stream.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "amdahl/error.hpp"
#include "input/read_chunk.hpp"

namespace amdahl::detail {

namespace {
bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

unsigned hex4(std::string_view text, std::size_t at) {
    if (at + 4 > text.size()) throw std::invalid_argument("short \\u escape");
    unsigned value = 0;
    for (std::size_t i = at; i < at + 4; ++i) {
        const char c = text[i];
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= static_cast<unsigned>(c - '0');
        else if (c >= 'a' && c <= 'f')
            value |= static_cast<unsigned>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            value |= static_cast<unsigned>(c - 'A' + 10);
        else
            throw std::invalid_argument("bad \\u escape");
    }
    return value;
}
}  // namespace

void unescape_json(std::string_view body, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i == body.size()) throw std::invalid_argument("a string ends in a backslash");
        switch (body[i]) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned code = hex4(body, i + 1);
                i += 4;
                if (code >= 0xD800 && code < 0xDC00 && i + 6 < body.size() + 0 && body[i + 1] == '\\' &&
                    body[i + 2] == 'u') {
                    const unsigned low = hex4(body, i + 3);
                    if (low >= 0xDC00 && low < 0xE000) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        i += 6;
                    }
                }
                append_utf8(out, code);
                break;
            }
            default:
                throw std::invalid_argument(std::string("bad escape \\") + body[i]);
        }
    }
}

JsonStream::JsonStream(std::string_view prefix, std::istream* in, std::string source)
    : buffer_(prefix), in_(in), source_(std::move(source)) {}

bool JsonStream::fill() {
    if (!in_ || !*in_) return false;
    // Drop what has been read, keeping line numbers right.
    if (pos_ > 0) {
        count_lines_to(pos_);
        if (newlines_ > 0) {
            lines_before_ += newlines_;
            column_base_ = pos_ - last_newline_;
        } else {
            column_base_ += pos_;
        }
        buffer_.erase(0, pos_);
        dropped_ += pos_;
        pos_ = 0;
        counted_to_ = newlines_ = 0;
        last_newline_ = std::string::npos;
    }
    // Read into a reused chunk and append: the chunk keeps its capacity, zeroed only as it grows
    // (next_chunk_size: 64 KiB first, up to 1 MiB).
    const std::size_t chunk = next_chunk_size(dropped_ + buffer_.size());
    chunk_.resize(chunk);
    in_->read(chunk_.data(), static_cast<std::streamsize>(chunk));
    const auto got = static_cast<std::size_t>(in_->gcount());
    if (in_->bad()) throw Error(source_, "read error");
    if (std::memchr(chunk_.data(), 0, got)) throw Error(source_, "binary data (a NUL byte) in a JSON trace");
    buffer_.append(chunk_.data(), got);
    return got > 0;
}

char JsonStream::peek() {
    for (;;) {
        while (pos_ < buffer_.size() && is_space(buffer_[pos_])) ++pos_;
        if (pos_ < buffer_.size()) return buffer_[pos_];
        if (!fill()) return '\0';
    }
}

// Resumes the count where the last one stopped: a reader that keeps the position of every event
// would otherwise count the buffer's lines again for each (quadratic in the 1 MB chunk).
void JsonStream::count_lines_to(std::size_t at) {
    if (at < counted_to_) {
        counted_to_ = newlines_ = 0;
        last_newline_ = std::string::npos;
    }
    const char* data = buffer_.data();
    for (const char* p = data + counted_to_;
         (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(data + at - p)))); ++p) {
        ++newlines_;
        last_newline_ = static_cast<std::size_t>(p - data);
    }
    counted_to_ = at;
}

JsonStream::Position JsonStream::position(std::size_t back) {
    const std::size_t at = pos_ >= back ? pos_ - back : 0;
    count_lines_to(at);
    if (newlines_ > 0) return {lines_before_ + newlines_, at - last_newline_};
    return {lines_before_, column_base_ + at};
}

std::string JsonStream::location(std::size_t back) {
    const Position at = position(back);
    return source_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
}

std::string_view JsonStream::read_value(std::string_view what) {
    if (peek() == '\0') throw Error(location(), "the file ends where " + std::string(what) + " should be");
    std::size_t start = pos_;
    std::size_t i = pos_;
    int depth = 0;
    bool in_string = false;
    const char first = buffer_[start];
    const bool scalar = first != '{' && first != '[' && first != '"';
    const auto finish = [&](std::size_t end) {
        pos_ = end;
        return std::string_view(buffer_).substr(start, end - start);
    };
    for (;;) {
        while (i < buffer_.size()) {
            if (in_string) {
                // Jump to the next quote, stepping over escapes.
                const char* data = buffer_.data();
                const void* quote = std::memchr(data + i, '"', buffer_.size() - i);
                const std::size_t q =
                    quote ? static_cast<std::size_t>(static_cast<const char*>(quote) - data) : buffer_.size();
                const void* slash = std::memchr(data + i, '\\', q - i);
                if (slash) {
                    i = static_cast<std::size_t>(static_cast<const char*>(slash) - data) + 2;
                    continue;
                }
                i = q;
                if (q == buffer_.size()) break;
                ++i;
                in_string = false;
                if (depth == 0) return finish(i);
                continue;
            }
            const char c = buffer_[i];
            if (scalar) {
                if (c == ',' || c == '}' || c == ']' || is_space(c)) return finish(i);
                ++i;
                continue;
            }
            if (c == '"') {
                in_string = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return finish(i + 1);
            }
            ++i;
        }
        // The value continues past the buffer: read more. fill() drops everything before `start`.
        pos_ = start;
        const std::size_t scanned = i - start;
        const bool more = fill();
        start = pos_;
        i = start + scanned;
        if (!more) {
            if (scalar && i <= buffer_.size() && i > start) return finish(i);
            throw Error(location(), "truncated JSON: the file ends in the middle of " + std::string(what));
        }
    }
}

void JsonStream::throw_truncated(std::string_view what) {
    throw Error(location(), "truncated JSON: the file ends in the middle of " + std::string(what));
}

void JsonStream::read_string(std::string& out) {
    const std::string_view token = read_value("a string");
    if (token.size() < 2 || token.front() != '"') throw Error(location(token.size()), "expected a string");
    try {
        unescape_json(token.substr(1, token.size() - 2), out);
    } catch (const std::invalid_argument& e) {
        throw Error(location(token.size()), std::string("bad string: ") + e.what());
    }
}

}  // namespace amdahl::detail
