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

/// A header cell's words, found once for every question below (a table's header pass asks each
/// column several): lowercased, split at anything not a letter or a digit and at camel case.
/// "TotalDurationNs" -> key "total duration ns", words {"total", "duration", "ns"}. The words are
/// views of the key, so a HeaderWords is neither copied nor moved; it views `header`, which must
/// outlive it.
class HeaderWords {
public:
    explicit HeaderWords(std::string_view header);
    HeaderWords(const HeaderWords&) = delete;
    HeaderWords& operator=(const HeaderWords&) = delete;

    std::string_view header() const { return header_; }  ///< as written: "TotalDurationNs"
    const std::string& key() const { return key_; }      ///< the words joined by single spaces
    const std::vector<std::string_view>& words() const { return words_; }

private:
    std::string_view header_;
    std::string key_;
    std::vector<std::string_view> words_;
};

/// What the column under `header` holds. Name, kind, share and unit columns are the caller's to
/// recognise first; here they are `other` (or, for a share that names a time, `duration`).
ColumnRole column_role(const HeaderWords& header);
ColumnRole column_role(std::string_view header);

/// A run-to-run spread of a value (sd, iqr, sem, ci95, error, margin ...): a `statistic` that a
/// reader must say it left unread, since a spread beside a mean is no time of its own.
bool is_spread_header(const HeaderWords& header);

/// A column of each row's unit: "unit", "units", "time unit", "uom", "unit(s)".
bool is_unit_header(const HeaderWords& header);

/// A run-to-run standard deviation of the phase time: the words time and sd (or std, stddev,
/// stdev) in any order, with at most a unit besides ("time_sd (us)", "time_ms_sd"). `unit` gets
/// the unit the header names, if any.
bool is_time_sd_header(const HeaderWords& header, std::optional<Unit>& unit);

/// Which timeline a time column is on, when its header says: "host" ("Self CPU", "cpu_ms"),
/// "device" ("Self CUDA", "GPU time"), else empty.
std::string_view column_timeline(const HeaderWords& header);

}  // namespace amdahl::detail
