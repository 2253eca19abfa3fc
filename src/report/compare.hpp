#pragma once
// The reports of `amdahl compare`: one comparison and its gate results, in each output format.
#include <string>
#include <vector>

#include "amdahl/compare.hpp"
#include "amdahl/results.hpp"

namespace amdahl {

/// "all 3 gates passed", "1 of 3 gates failed".
std::string gates_summary(const std::vector<GateResult>& gates);
/// One "gate failed: GATE: DETAIL" line per failed gate.
std::vector<std::string> gate_failures(const std::vector<GateResult>& gates);
/// The closing line: "verdict: pass, ..." or "verdict: FAIL, ...".
std::string gate_verdict(const std::vector<GateResult>& gates);

}  // namespace amdahl
