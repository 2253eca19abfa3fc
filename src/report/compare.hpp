#pragma once
// The reports of `amdahl compare`: one comparison and its gate results, in each output format.
#include <string>
#include <vector>

#include "amdahl/compare.hpp"
#include "amdahl/report.hpp"
#include "amdahl/results.hpp"

namespace amdahl {

/// The "interval" line of a comparison with one run a side: there is none, and what a status is then.
std::string no_interval_text();
/// "all 3 gates passed", "1 of 3 gates failed".
std::string gates_summary(const std::vector<GateResult>& gates);
/// The run's metadata in a JSON report: amdahl_version, arguments, labels {before, after}.
void write_run_json(JsonWriter& json, const std::string& version, const std::vector<std::string>& arguments,
                    const std::string& label_before, const std::string& label_after);
/// "gates": [...] as compare's JSON writes them; returns whether all passed.
bool write_gates_json(JsonWriter& json, const std::vector<GateResult>& gates);
/// A compare report's last keys: "gates", "passed", "notes", and the object's end.
void write_verdict_json(JsonWriter& json, const std::vector<GateResult>& gates, const std::vector<std::string>& notes);
/// One "gate failed: GATE: DETAIL" line per failed gate.
std::vector<std::string> gate_failures(const std::vector<GateResult>& gates);
/// The closing line: "verdict: pass, ..." or "verdict: FAIL, ...".
std::string gate_verdict(const std::vector<GateResult>& gates);

}  // namespace amdahl
