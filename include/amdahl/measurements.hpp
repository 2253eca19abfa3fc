#pragma once
/// \file Measured runs at several processor counts: "n,time_ms" / "N,speedup" / "n,overhead"
/// tables (CSV or TSV with a header) or JSON ({"runs": [{"n": 1, "time": "900 ms"}]} or a bare
/// array of such objects).
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/scaling.hpp"
#include "amdahl/units.hpp"

namespace amdahl {

/// What the value column holds.
enum class MeasuredQuantity {
    time,      ///< wall time of a run, > 0, with an optional unit
    speedup,   ///< speedup over one processor, > 0
    overhead,  ///< O(N) in units of the one-processor time, >= 0 (a fraction or a percentage)
};

struct Measurement {
    long long n = 1;
    double value = 0;   ///< in Measurements::unit for times
    std::string where;  ///< "runs.csv:3" or "runs.json: runs[2]", for messages
};

struct Measurements {
    std::string source;  ///< the file name or "<stdin>"
    MeasuredQuantity quantity = MeasuredQuantity::time;
    std::optional<Unit> unit;        ///< times only: the unit of every value (none when the file names none)
    std::vector<Measurement> runs;   ///< in the order read; every N appears once
    std::vector<std::string> notes;  ///< how the times were read ("the run time is column 'end' minus 'start'")
};

/// Parses measured runs. The value column is the first whose header (or JSON key) names one of
/// `accepted`: "time", "time_ms", "Time (s)", "duration", "elapsed" for times; "speedup";
/// "overhead". The N column is "n", "processors", "gpus", "workers", "ranks", "threads",
/// "nodes", "devices" or "cores". Times may be time stamps instead: start and end columns (or keys)
/// give end - start; a start, end or timestamp column alone is an error, never a duration. Throws amdahl::Error naming
/// the file and line (or JSON path) for a missing column, N that is not a whole number >= 1, a time or speedup <= 0, a
/// negative overhead, a repeated N, and a file with no runs.
Measurements parse_measurements(std::string_view content, const std::string& source,
                                const std::vector<MeasuredQuantity>& accepted);

/// Reads `path` ("-" for `stdin_stream`) and parses it: JSON by a .json extension or a leading
/// '{' or '[', else CSV (TSV when the header holds a tab).
Measurements load_measurements(const std::string& path, std::istream& stdin_stream,
                               const std::vector<MeasuredQuantity>& accepted);

/// Speedups from measured times (S = T(1) / T(N)) or as given. Throws amdahl::Error when times
/// have no N = 1 run to be the baseline.
std::vector<ScalingPoint> measured_speedups(const Measurements& measurements);

/// The time of the N = 1 run, when the measurements are times and have one.
std::optional<double> baseline_time(const Measurements& measurements);

/// A measured overhead model from "n,overhead" rows: sorted by N and starting at (1, 0).
/// Throws amdahl::Error when the N = 1 row is not 0.
Overhead measured_overhead(const Measurements& measurements);

}  // namespace amdahl
