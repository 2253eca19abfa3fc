#pragma once
// How every command writes an end-to-end speedup's uncertainty (amdahl/uncertainty.hpp): summary
// lines, a JSON object, the assumptions in words and the arithmetic of both ends.
#include <string>
#include <vector>

#include "amdahl/report.hpp"
#include "amdahl/uncertainty.hpp"
#include "report/document.hpp"

namespace amdahl {

/// What the interval assumes, in one sentence: which point, which method.
std::string uncertainty_assumption(const Uncertainty& u);
/// "speedup range", "time saved range", "speedup spread" lines (keys speedup_interval_low, ...).
void add_uncertainty_summary(std::vector<SummaryLine>& summary, const Uncertainty& u, const std::string& unit,
                             const NumberStyle& style);
/// "uncertainty": {speedup_low, speedup_high, time_saved_low, ...}.
void write_uncertainty_json(JsonWriter& json, const Uncertainty& u);
/// The arithmetic of both ends (and of the spread), for --explain.
std::vector<std::string> explain_uncertainty(const Uncertainty& u, const std::string& unit, const NumberStyle& style);
/// "1.35x .. 1.49x": the interval in a table cell.
std::string format_speedup_interval(const Uncertainty& u, const NumberStyle& style);

}  // namespace amdahl
