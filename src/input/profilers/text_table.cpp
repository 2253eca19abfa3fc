#include "input/profilers/text_table.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "model/text.hpp"

namespace amdahl::detail {

bool LineReader::next(std::string_view& line) {
    if (pos_ >= content_.size()) return false;
    auto end = content_.find('\n', pos_);
    if (end == std::string_view::npos) end = content_.size();
    line = content_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

bool split_csv(std::string_view line, std::vector<std::string>& fields) {
    fields.clear();
    std::size_t i = 0;
    while (true) {
        std::string& field = fields.emplace_back();
        if (i < line.size() && line[i] == '"') {
            ++i;
            if (!read_quoted(line, i, field)) {
                fields.pop_back();
                return false;
            }
        }
        // Up to the comma at once; after a closing quote (`"a"b`) the text is kept, as spreadsheets do.
        const std::size_t comma = std::min(line.find(',', i), line.size());
        field.append(line.substr(i, comma - i));
        i = comma;
        if (i >= line.size()) return true;
        ++i;  // the comma
    }
}

namespace {

// A simple field (no commas inside): surrounding quotes removed.
std::string simple_field(std::string_view text) {
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
    return std::string(text);
}

// rocprof writes names between quotes without doubling the quotes inside. A name that does double
// them all (a future or converted file) is unescaped; anything else is kept as written.
std::string free_field(std::string_view text) {
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"') {
            if (i + 1 < text.size() && text[i + 1] == '"') {
                out += '"';
                ++i;
                continue;
            }
            return std::string(text);  // an unescaped quote: not RFC 4180, keep the text as is
        }
        out += text[i];
    }
    return out;
}

}  // namespace

bool split_csv_free_field(std::string_view line, std::size_t count, std::size_t free_index,
                          std::vector<std::string>& fields) {
    fields.assign(count, std::string());
    std::size_t begin = 0;
    for (std::size_t f = 0; f < free_index; ++f) {
        const auto comma = line.find(',', begin);
        if (comma == std::string_view::npos) return false;
        fields[f] = simple_field(line.substr(begin, comma - begin));
        begin = comma + 1;
    }
    std::size_t end = line.size();
    for (std::size_t f = count; f-- > free_index + 1;) {
        const auto comma = line.rfind(',', end == 0 ? 0 : end - 1);
        if (comma == std::string_view::npos || comma < begin || end == 0) return false;
        fields[f] = simple_field(line.substr(comma + 1, end - comma - 1));
        end = comma;
    }
    fields[free_index] = free_field(line.substr(begin, end - begin));
    return true;
}

// The readers try every line as a header, with a dozen column names each: no lower-case copies.
std::optional<std::size_t> find_column(const std::vector<std::string>& header, std::string_view name) {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (equals_ignoring_case(header[i], name)) return i;
    return std::nullopt;
}

std::optional<std::size_t> find_column_prefix(const std::vector<std::string>& header, std::string_view prefix) {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (starts_with_ignoring_case(header[i], prefix)) return i;
    return std::nullopt;
}

std::optional<Unit> unit_in_parentheses(std::string_view column) {
    const auto open = column.rfind('(');
    const auto close = column.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
    return parse_unit(trim(column.substr(open + 1, close - open - 1)));
}

std::optional<Unit> time_column_unit(std::optional<Unit> in_header, std::optional<Unit> option, std::string_view column,
                                     const std::string& where) {
    if (in_header && option && *in_header != *option) {
        throw Error(where, "--timeunit " + std::string(unit_name(*option)) + " contradicts column '" +
                               printable(column) + "', which says its unit is " + std::string(unit_name(*in_header)) +
                               " (--timeunit is for columns that do not say)");
    }
    return in_header ? in_header : option;
}

double parse_duration_cell(std::string_view text, const std::string& where, std::string_view column) {
    const std::string_view cell = trim(text);
    double value = 0;
    bool ok = parse_double(cell, value);
    if (!ok) {
        // Thousands separators ("3,481,709"), as nsys writes in its console tables.
        try {
            const Quantity q = parse_quantity(cell);
            ok = !q.unit && !q.percent;
            value = q.value;
        } catch (const Error&) {
            ok = false;
        }
    }
    if (!ok) {
        throw Error(where, "column '" + printable(column) + "' must be a number (got '" + printable(cell) + "')");
    }
    if (value < 0)
        throw Error(where, "column '" + printable(column) + "' must be >= 0 (got '" + printable(cell) + "')");
    return value;
}

std::optional<std::uint64_t> parse_calls_cell(std::string_view text, const std::string& where,
                                              std::string_view column) {
    const std::string_view cell = trim(text);
    if (cell.empty()) return std::nullopt;
    std::string digits;
    for (const char c : cell)
        if (c != ',') digits += c;
    double value = 0;
    if (!parse_double(digits, value) || value < 0 || value != std::floor(value) || value > 9.0e15)
        throw Error(where,
                    "column '" + printable(column) + "' must be a whole number >= 0 (got '" + printable(cell) + "')");
    return static_cast<std::uint64_t>(value);
}

std::uint64_t parse_correlation_id(std::string_view text) {
    text = trim(text);
    std::uint64_t id = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    return ec == std::errc() && ptr == text.data() + text.size() ? id : 0;
}

}  // namespace amdahl::detail
