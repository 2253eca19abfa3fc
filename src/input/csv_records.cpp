#include "input/csv_records.hpp"

#include <algorithm>
#include <cctype>

#include "amdahl/error.hpp"
#include "model/text.hpp"

namespace amdahl::detail {

HeaderUnits header_units(std::string_view header) {
    const std::string_view h = trim(header);  // a view: every column of every header line comes here
    for (auto [open, close] : {std::pair{'(', ')'}, std::pair{'[', ']'}}) {
        const auto start = h.rfind(open);
        const auto end = h.rfind(close);
        if (start != std::string_view::npos && end != std::string_view::npos && end > start) {
            if (auto unit = parse_unit(h.substr(start + 1, end - start - 1))) return {unit, {}};
        }
    }
    // Outside brackets "min" is as often a minimum as minutes ("time_ms_min", "TimeMin", a "min"
    // column beside "mean" and "max"): it names no unit there, so such a column reads as a minimum.
    const auto unit_word = [](std::string_view word) -> std::optional<Unit> {
        if (equals_ignoring_case(word, "min")) return std::nullopt;
        return parse_unit(word);
    };
    if (auto unit = unit_word(h)) return {unit, {}};
    // The header's words, split at '_', ' ', '-', '/' and where camelCase starts one: the one unit
    // they name ("duration_ns", "TotalDurationNs", "duration_ns_total"); none when they name two
    // ("time_ms_per_s"), which are then both said.
    HeaderUnits out;
    std::size_t word_start = 0;
    for (std::size_t i = 1; i <= h.size(); ++i) {
        const bool separator = i < h.size() && (h[i] == '_' || h[i] == ' ' || h[i] == '-' || h[i] == '/');
        const bool camel = i < h.size() && std::isupper(static_cast<unsigned char>(h[i])) &&
                           std::islower(static_cast<unsigned char>(h[i - 1]));
        if (i < h.size() && !separator && !camel) continue;
        if (const auto unit = unit_word(h.substr(word_start, i - word_start))) {
            if (!out.unit) {
                out.unit = unit;
            } else if (*out.unit != *unit && !out.conflict) {
                out.conflict = std::pair{*out.unit, *unit};
            }
        }
        word_start = separator ? i + 1 : i;
    }
    if (out.conflict) out.unit.reset();
    return out;
}

std::optional<Unit> header_unit(std::string_view header) { return header_units(header).unit; }

std::string bracketed_text(std::string_view header) {
    const std::string h(trim(header));
    for (auto [open, close] : {std::pair{'(', ')'}, std::pair{'[', ']'}}) {
        const auto start = h.rfind(open);
        const auto end = h.rfind(close);
        if (start != std::string::npos && end != std::string::npos && end > start)
            return std::string(trim(std::string_view(h).substr(start + 1, end - start - 1)));
    }
    return {};
}

void read_record(std::string_view content, std::size_t& pos, std::size_t& line, char delimiter, Record& record,
                 const std::string& source) {
    record.clear();
    const std::size_t start_line = line;
    while (true) {
        // A field: plain bytes up to the delimiter or the end of the line, or a quoted one.
        std::size_t end = pos;
        while (end < content.size() && content[end] != delimiter && content[end] != '\n' && content[end] != '\r' &&
               content[end] != '"')
            ++end;
        if (end < content.size() && content[end] == '"' && trim(content.substr(pos, end - pos)).empty()) {
            std::string& field = record.quoted.emplace_back();
            pos = end + 1;
            if (!read_quoted(content, pos, field))
                throw Error(source + ":" + std::to_string(start_line), "unterminated quoted field");
            line += static_cast<std::size_t>(std::count(field.begin(), field.end(), '\n'));  // a field may span lines
            // Text after the closing quote belongs to the field, as before the quote would not.
            end = pos;
            while (end < content.size() && content[end] != delimiter && content[end] != '\n' && content[end] != '\r')
                ++end;
            field.append(content.substr(pos, end - pos));
            record.cells.push_back(field);
        } else {
            while (end < content.size() && content[end] != delimiter && content[end] != '\n' && content[end] != '\r')
                ++end;
            record.cells.push_back(content.substr(pos, end - pos));
        }
        pos = end;
        if (pos >= content.size()) {
            ++line;
            return;
        }
        const char c = content[pos];
        if (c == delimiter) {
            ++pos;
            continue;
        }
        if (c == '\r' && pos + 1 < content.size() && content[pos + 1] == '\n') ++pos;
        ++pos;
        ++line;
        return;
    }
}

}  // namespace amdahl::detail
