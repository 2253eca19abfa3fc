#include <charconv>
#include <cmath>
#include <iterator>

#include "amdahl/report.hpp"
#include "model/text.hpp"
#include "report/numbers.hpp"

namespace amdahl {

using detail::utf8_sequence_length;

void JsonWriter::newline() {
    out_ += '\n';
    out_.append(levels_.size() * 2, ' ');
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (levels_.empty()) return;
    Level& level = levels_.back();
    if (!level.first) out_ += level.one_line ? ", " : ",";
    if (!level.one_line) newline();
    level.first = false;
}

JsonWriter& JsonWriter::begin_object(bool one_line) {
    before_value();
    out_ += '{';
    levels_.push_back({true, one_line || (!levels_.empty() && levels_.back().one_line)});
    return *this;
}

JsonWriter& JsonWriter::end_object() { return close('}'); }

JsonWriter& JsonWriter::close(char bracket) {
    const Level level = levels_.back();
    levels_.pop_back();
    if (!level.first && !level.one_line) newline();
    out_ += bracket;
    if (out_.size() > (1 << 16)) flush();
    return *this;
}

void JsonWriter::flush() {
    if (!sink_) return;
    sink_->write(out_.data(), static_cast<std::streamsize>(out_.size()));
    out_.clear();
}

JsonWriter JsonWriter::continuing_list(std::size_t depth) {
    JsonWriter writer;
    writer.levels_.assign(depth, Level{false, false});
    return writer;
}

JsonWriter& JsonWriter::append_elements(JsonWriter& elements) {
    if (elements.out_.empty()) return *this;
    levels_.back().first = false;
    if (!sink_) {
        out_ += elements.out_;
    } else {  // straight to the sink: a block of a long list is megabytes, not worth a copy
        flush();
        sink_->write(elements.out_.data(), static_cast<std::streamsize>(elements.out_.size()));
    }
    elements.out_.clear();
    return *this;
}

JsonWriter& JsonWriter::begin_array(bool one_line) {
    before_value();
    out_ += '[';
    levels_.push_back({true, one_line || (!levels_.empty() && levels_.back().one_line)});
    return *this;
}

JsonWriter& JsonWriter::end_array() { return close(']'); }

JsonWriter& JsonWriter::key(std::string_view name) {
    // Keys are amdahl's own snake_case names: nothing to escape.
    before_value();
    out_ += '"';
    out_ += name;
    out_ += "\": ";
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(double number) {
    before_value();
    if (!std::isfinite(number)) {
        out_ += "null";
    } else if (number == 0) {
        out_ += '0';  // no "-0"
    } else {
        if (last_size_ == 0 || number != last_number_) {
            char* end = exact_ ? write_round_trip(last_text_, number) : write_shortest(last_text_, number);
            last_size_ = static_cast<std::size_t>(end - last_text_);
            last_number_ = number;
        }
        out_.append(last_text_, last_size_);
    }
    return *this;
}

JsonWriter& JsonWriter::value(int number) {
    before_value();
    out_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(long long number) {
    before_value();
    out_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(std::size_t number) {
    before_value();
    out_ += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    before_value();
    out_ += flag ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    before_value();
    out_ += '"';
    for (std::size_t i = 0; i < text.size(); ++i) {
        // Copy runs of plain ASCII at once; escape the rest one byte at a time.
        std::size_t run = i;
        while (run < text.size()) {
            const auto b = static_cast<unsigned char>(text[run]);
            if (b < 0x20 || b >= 0x7F || b == '"' || b == '\\') break;
            ++run;
        }
        if (run > i) {
            out_.append(text.data() + i, run - i);
            i = run;
            if (i == text.size()) break;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        switch (c) {
            case '"':
                out_ += "\\\"";
                break;
            case '\\':
                out_ += "\\\\";
                break;
            case '\n':
                out_ += "\\n";
                break;
            case '\r':
                out_ += "\\r";
                break;
            case '\t':
                out_ += "\\t";
                break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    // By hand: fmt::format built and freed a string per byte, which made a
                    // name full of control bytes (binary junk in a column) slow to write.
                    constexpr char hex[] = "0123456789abcdef";
                    const char escaped[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
                    out_.append(escaped, sizeof escaped);
                } else if (c >= 0x80) {
                    // JSON is UTF-8: a byte that does not start a valid sequence becomes U+FFFD.
                    const std::size_t length = utf8_sequence_length(text, i);
                    if (length == 0) {
                        out_ += "\xEF\xBF\xBD";
                    } else {
                        out_.append(text.substr(i, length));
                        i += length - 1;
                    }
                } else {
                    out_ += static_cast<char>(c);
                }
        }
    }
    out_ += '"';
    return *this;
}

}  // namespace amdahl
