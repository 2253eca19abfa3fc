#pragma once
// The arithmetic behind an answer, line by line, the way a worked solution writes it.
#include <string>
#include <vector>

#include "amdahl/evaluate.hpp"
#include "amdahl/law.hpp"
#include "amdahl/results.hpp"
#include "report/numbers.hpp"

namespace amdahl {

std::vector<std::string> explain_eval(const Profile& profile, const std::vector<SpeedupSpec>& specs,
                                      const Evaluation& result, const NumberStyle& style);

/// With --group-by class: per class phase (in the profile's order), each rule and the kernels it
/// put there, by short name: "gemm: 'gemm' in the base name: ampere_sgemm_128x64_tn, gemmk1_kernel".
std::vector<std::string> explain_classes(const Profile& profile);

std::vector<std::string> explain_law(const LawResult& result, const NumberStyle& style);

/// Per target: saved, S = T / (T - saved), the ceiling, and the saving per unit of effort.
std::vector<std::string> explain_rank(const RankResult& result, const NumberStyle& style);

/// The time to save, then the running total step by step.
std::vector<std::string> explain_plan(const PlanReport& result, const NumberStyle& style);

/// Per state (before, after): ρ, Erlang C, W, T and each percentile's equation, numbers substituted;
/// then each --slo search.
std::vector<std::string> explain_queue(const QueueResult& result, const NumberStyle& style);

}  // namespace amdahl
