#pragma once
// Reading the text tables profilers write: lines with their numbers, CSV fields (RFC 4180, and
// rocprof's variant that leaves quotes inside names unescaped) and duration cells.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/units.hpp"
#include "model/text.hpp"

namespace amdahl::detail {

/// Walks `content` line by line (LF or CRLF), counting from 1.
class LineReader {
public:
    explicit LineReader(std::string_view content) : content_(content) {}
    /// The next line without its line break; false at the end.
    bool next(std::string_view& line);
    /// The number of the line `next` returned last.
    std::size_t number() const { return number_; }

private:
    std::string_view content_;
    std::size_t pos_ = 0;
    std::size_t number_ = 0;
};

bool is_blank(std::string_view line);

/// Splits an RFC 4180 CSV line into `fields` (quotes removed, "" unescaped). False when a quoted
/// field is not closed on the line.
bool split_csv(std::string_view line, std::vector<std::string>& fields);

/// Splits a line of `count` fields in which the field at `free_index` is free text that may hold
/// commas and quotes rocprof leaves unescaped (`"void k<"a">(int, int)"`); the other fields hold
/// none. Fields before it are read from the left, fields after it from the right, and the rest
/// is the free field. False when the line has fewer than `count` fields.
bool split_csv_free_field(std::string_view line, std::size_t count, std::size_t free_index,
                          std::vector<std::string>& fields);

/// Reads `lines` up to the first CSV line that `recognise` takes for a header (console output
/// may come first) and returns what it made of it, the line in `header`. Throws amdahl::Error
/// `expected`, at the first line with text, when no line is one.
template <class Recognise>
auto read_csv_header(LineReader& lines, std::vector<std::string>& header, const std::string& source,
                     const char* expected, Recognise&& recognise) {
    std::string_view line;
    std::size_t first_text_line = 0;
    while (lines.next(line)) {
        if (is_blank(line)) continue;
        if (first_text_line == 0) first_text_line = lines.number();
        if (!split_csv(line, header)) continue;
        if (auto found = recognise(header)) return *found;
    }
    throw Error(source + ":" + std::to_string(first_text_line ? first_text_line : 1), expected);
}

/// The index of the column named `name` (case-insensitive, surrounding spaces ignored).
std::optional<std::size_t> find_column(const std::vector<std::string>& header, std::string_view name);
/// The index of the first column whose name starts with `prefix` (case-insensitive).
std::optional<std::size_t> find_column_prefix(const std::vector<std::string>& header, std::string_view prefix);

/// The unit in a column name's parentheses: "Total Time (ns)" -> ns, "DURATION (usec)" -> us.
std::optional<Unit> unit_in_parentheses(std::string_view column);

/// The unit of a profiler's time column: the header's, else --timeunit (`option`). A --timeunit
/// that contradicts the header is an error at `where` (the profiler wrote the unit it used), never
/// silently ignored. nullopt when neither says.
std::optional<Unit> time_column_unit(std::optional<Unit> in_header, std::optional<Unit> option, std::string_view column,
                                     const std::string& where);

/// Parses a duration cell: "61602133", "3745.3", "7.002e+07", "3,481,709". Throws amdahl::Error
/// at `where` naming `column` when it is not a finite number >= 0.
double parse_duration_cell(std::string_view text, const std::string& where, std::string_view column);

/// Parses a count of calls ("1024", "3,481"); none for an empty cell. Throws amdahl::Error at
/// `where` naming `column` when it is not a whole number >= 0.
std::optional<std::uint64_t> parse_calls_cell(std::string_view text, const std::string& where, std::string_view column);

/// Parses a correlation id cell (nsys CorrId, rocprofv3 Correlation_Id): a whole number; 0 for
/// anything else ("", "N/A", "-1"), which links nothing, as 0 itself does.
std::uint64_t parse_correlation_id(std::string_view text);

}  // namespace amdahl::detail
