#pragma once
// What the measurement readers (CSV/TSV in measurements.cpp, JSON in json_runs.cpp) hand to
// the common checks: each run's N and value as written, before they are parsed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/measurements.hpp"

namespace amdahl::detail {

/// What a column header or JSON key names: N, a value, or a time stamp (a run's start or end,
/// never its duration by itself).
struct RunColumn {
    enum class Kind { n, value, start, end };
    Kind kind = Kind::n;
    MeasuredQuantity quantity = MeasuredQuantity::time;  ///< for values
    std::optional<Unit> unit;                            ///< for times and stamps: "time_ms", "Time (s)"
};

/// Classifies a header or key: the N column, a value column, or neither.
std::optional<RunColumn> classify_run_column(std::string_view header);

struct RawRun {
    std::string n;      ///< as written ("4", "4.0")
    std::string value;  ///< as written ("532.4", "532.4 ms", "12%"); the end time stamp when `start` is set
    std::optional<std::string> start;    ///< the start time stamp when the run's time is value - start
    std::optional<std::string> speedup;  ///< a speedup written beside the time, checked against the times
    std::string where;
};

struct RawRuns {
    std::string source;
    MeasuredQuantity quantity = MeasuredQuantity::time;
    std::optional<Unit> unit;  ///< the header's unit, or JSON "unit"
    std::vector<RawRun> runs;
    std::vector<std::string> notes;  ///< how the run time was read, when it is not a time column
    std::string speedup_label;       ///< the column or key of the runs' `speedup`, when they have one
};

/// The JSON reader: {"unit": "ms", "runs": [{"n": 1, "time": 900}, ...]} or a bare array.
RawRuns read_json_runs(std::string_view content, const std::string& source,
                       const std::vector<MeasuredQuantity>& accepted);

/// `text` with `unit` after it when it is a number without one ("532.4" -> "532.4 ms").
std::string with_unit(std::string_view text, std::optional<Unit> unit);

/// `text` without surrounding whitespace.
std::string_view trim_view(std::string_view text);

/// "time", "speedup" or "overhead", and what the file needs, for messages.
std::string quantity_name(MeasuredQuantity quantity);
std::string expected_columns(const std::vector<MeasuredQuantity>& accepted);

}  // namespace amdahl::detail
