#pragma once
// The reports of `eval --mix` and `rank --mix` (results in amdahl/mix.hpp): their layouts for
// text, CSV and Markdown (mix.cpp) and their JSON (mix_json.cpp).
#include <ostream>
#include <string>
#include <vector>

#include "amdahl/mix.hpp"
#include "amdahl/mix_plan.hpp"
#include "report/report.hpp"

namespace amdahl {

Document layout(const MixEvalResult& result, const ReportOptions& options);
Document layout(const MixRankResult& result, const ReportOptions& options);
Document layout(const MixPlanResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const MixEvalResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const MixRankResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const MixPlanResult& result, const ReportOptions& options);

// What the mix layouts share (mix.cpp), for plan --mix's (mix_plan.cpp).
MixWeightKind kind_of(const std::vector<MixWorkload>& workloads);
/// "A.json 70.0%, B.json 30.0% of fleet time".
std::string shares_line(const std::vector<MixWorkload>& workloads, const NumberStyle& style);
/// Each workload's boundary and summary caveat, as its own eval states them.
void add_workload_boundaries(std::vector<SummaryLine>& summary, const std::vector<MixWorkload>& workloads);
/// The workloads as a table names them: their file names when those differ, else the paths.
std::vector<std::string> workload_labels(const std::vector<MixWorkload>& workloads);
/// plan --mix's arithmetic: each step's Σ w_i s_i, the fleet's time after, each workload's S_i.
std::vector<std::string> explain_mix_plan(const MixPlanResult& result, const NumberStyle& style);

/// What the weights are and how they became shares of fleet time, in words.
std::string weights_basis(const std::vector<MixWorkload>& workloads);
/// The fleet's arithmetic: w_i from the weights, Σ w_i / S_i with the numbers, the win shares.
std::vector<std::string> explain_mix(const MixEvalResult& result, const NumberStyle& style);

/// Per target of rank --mix: Σ w_i s_i with the numbers, the fleet speedup, share and ceiling.
std::vector<std::string> explain_mix_rank(const MixRankResult& result, const NumberStyle& style);

}  // namespace amdahl
