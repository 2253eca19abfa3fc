#pragma once
// The reports of `amdahl compare`: one comparison and its gate results, in each output format.
#include <string>
#include <vector>

#include "amdahl/compare.hpp"

namespace amdahl::cli {

struct CompareReport {
    const Comparison& comparison;
    const std::vector<GateResult>& gates;
    std::vector<std::string> before_sources;  ///< the files each side was read from
    std::vector<std::string> after_sources;
    std::vector<std::string> notes;  ///< what went to stderr
    int precision = 4;
};

/// The phase table, the summary and the gates, for a terminal.
std::string compare_text(const CompareReport& report);
/// One row per phase, full precision; no total row and no gates (they go to stderr).
std::string compare_csv(const CompareReport& report);
/// For a pull-request comment or $GITHUB_STEP_SUMMARY: a heading, a summary line, the table, the gates.
std::string compare_markdown(const CompareReport& report);
/// Versioned JSON (schema_version 1), full precision.
std::string compare_json(const CompareReport& report);

/// "all 3 gates passed", "1 of 3 gates failed".
std::string gates_summary(const std::vector<GateResult>& gates);
/// One "gate failed: GATE: DETAIL" line per failed gate.
std::vector<std::string> gate_failures(const std::vector<GateResult>& gates);
/// The closing line: "verdict: pass, ..." or "verdict: FAIL, ...".
std::string gate_verdict(const std::vector<GateResult>& gates);

}  // namespace amdahl::cli
