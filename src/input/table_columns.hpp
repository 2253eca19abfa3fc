#pragma once
// What a table's column holds, read from its header's words: a phase's time ("Total Time (ns)",
// "duration_ms"), a typical call ("avg_ms", "Med (ns)"), a call's extreme ("MaxNs"), a time stamp
// ("Start (ns)", "BeginNs", "timestamp") or a number of calls ("Instances", "calls"). A time stamp
// or a per-call figure is never a phase's time.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/units.hpp"

namespace amdahl::detail {

enum class ColumnRole : std::uint8_t {
    other,      ///< no time: a name, an id, a size
    duration,   ///< a phase's time: time, duration, latency, elapsed, total, inclusive
    self,       ///< a phase's own time, its callees' left out: self, exclusive ("Self CPU")
    unit_only,  ///< only a unit says it is a time ("ms", "DispatchNs"): a duration unless better is there
    per_call,   ///< one typical call: avg, average, mean, median, p50, "per call"
    statistic,  ///< a call's extreme or spread: min, max, stddev, p90, p99
    start,      ///< a time stamp: start, begin, timestamp, ts
    end,        ///< end, stop, finish (but "end to end" is a duration)
    calls,      ///< how many calls: calls, count, instances, num calls
};

/// The words of a header, lowercased, split at anything not a letter or a digit and at camel
/// case: "TotalDurationNs" -> {"total", "duration", "ns"}, "Start (ns)" -> {"start", "ns"}.
std::vector<std::string> header_words(std::string_view header);
/// The same words joined by single spaces: "Kernel_Name" -> "kernel name".
std::string header_key(std::string_view header);

/// What the column under `header` holds. Name, kind, share and unit columns are the caller's to
/// recognise first; here they are `other` (or, for a share that names a time, `duration`).
ColumnRole column_role(std::string_view header);

/// A run-to-run spread of a value (sd, iqr, sem, ci95, error, margin ...): a `statistic` that a
/// reader must say it left unread, since a spread beside a mean is no time of its own.
bool is_spread_header(std::string_view header);

/// A column of each row's unit: "unit", "units", "time unit", "uom", "unit(s)".
bool is_unit_header(std::string_view header);

/// A run-to-run standard deviation of the phase time: the words time and sd (or std, stddev,
/// stdev) in any order, with at most a unit besides ("time_sd (us)", "time_ms_sd"). `unit` gets
/// the unit the header names, if any.
bool is_time_sd_header(std::string_view header, std::optional<Unit>& unit);

/// Which timeline a time column is on, when its header says: "host" ("Self CPU", "cpu_ms"),
/// "device" ("Self CUDA", "GPU time"), else empty.
std::string_view column_timeline(std::string_view header);

}  // namespace amdahl::detail
