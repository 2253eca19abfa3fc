#pragma once
// How `eval --ranks` and `rank --ranks` read: one layout each for text, Markdown and CSV, their
// JSON, and the notes that say when a speedup gains nothing because its ranks wait anyway.
#include <ostream>
#include <string>
#include <vector>

#include "amdahl/ranks.hpp"
#include "report/report.hpp"

namespace amdahl {

/// What the barrier model assumes, in words: every format states it.
std::vector<std::string> barrier_assumptions();

/// One note per speedup that sped up busy time but no step time: its ranks were never critical
/// where it applies, so they only wait longer at the barriers.
std::vector<std::string> no_gain_notes(const RanksEvalResult& result, const NumberStyle& style);

Document layout(const RanksEvalResult& result, const ReportOptions& options);
Document layout(const StragglerResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const RanksEvalResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const StragglerResult& result, const ReportOptions& options);

}  // namespace amdahl
