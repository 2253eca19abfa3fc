#pragma once
// The one CSV/TSV record reader (RFC 4180 quoting) and the one reader of units in column headers,
// shared by the profile tables (table.cpp) and the measured runs (measurements.cpp).
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "amdahl/units.hpp"

namespace amdahl::detail {

/// The unit a header names: "Time (ms)", "duration [ns]", "time_ms", "Duration ns", "TotalDurationNs".
std::optional<Unit> header_unit(std::string_view header);
/// The same, and the first two units its words name when they name two ("time_ms_per_s": no unit).
struct HeaderUnits {
    std::optional<Unit> unit;
    std::optional<std::pair<Unit, Unit>> conflict;
};
HeaderUnits header_units(std::string_view header);
/// What a header holds in its last (...) or [...]: "ps" for "Duration (ps)", "" when nothing.
std::string bracketed_text(std::string_view header);

/// One record's fields: views into the text, or into `quoted` for fields that had quotes to undo.
struct Record {
    std::vector<std::string_view> cells;
    std::deque<std::string> quoted;  // a deque: its strings stay where they are as it grows

    void clear() {
        cells.clear();
        quoted.clear();
    }
    std::vector<std::string> strings() const { return {cells.begin(), cells.end()}; }
};

/// Splits one RFC 4180 record starting at `pos`; advances `pos` and `line` past it. Throws
/// amdahl::Error at "source:line" for an unterminated quoted field.
void read_record(std::string_view content, std::size_t& pos, std::size_t& line, char delimiter, Record& record,
                 const std::string& source);

}  // namespace amdahl::detail
