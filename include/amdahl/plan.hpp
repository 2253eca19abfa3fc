#pragma once
/// \file The cheapest set of candidates that reaches a target: an exact search.
#include <cstddef>
#include <vector>

#include "amdahl/candidate.hpp"

namespace amdahl {

struct PlanRequest {
    double baseline = 0;     ///< end-to-end time T
    double target_time = 0;  ///< the plan must reach a new time <= this
    bool by_effort = false;  ///< minimise total effort (else the number of candidates)
    /// Search budget in nodes (not seconds, so the answer never depends on the machine's load);
    /// past it the answer is the best plan found, with a proven lower bound. A node costs
    /// 25-80 ns here, so the default stops a search after about 2 s (bench/plan_bench measures it).
    std::size_t node_limit = 50'000'000;
    std::size_t max_alternatives = 5;  ///< other plans of the same cost to report
};

struct PlanResult {
    bool reachable = false;
    std::vector<std::size_t> chosen;  ///< candidate indices, largest saving first
    double cost = 0;                  ///< count or total effort
    double saved = 0;
    bool proven_optimal = true;  ///< false when the node limit stopped the search
    /// A proven lower bound on the optimal cost: the cost itself when proven optimal; else the
    /// least bound of the nodes the search did not reach (at least the root's bound).
    double lower_bound = 0;
    std::vector<std::vector<std::size_t>> alternatives;  ///< other plans of the same cost
    std::size_t nodes = 0;                               ///< nodes visited, at most PlanRequest::node_limit
    double best_possible_saved = 0;  ///< every candidate at its factor (one per set of alternatives)
};

/// Finds the set of candidates of least cost whose savings bring the time to `target_time` or
/// below; among sets of equal cost, the one that saves most. Candidates that share a phase are
/// alternatives: a plan takes at most one of them. Exact (branch and bound over the groups of
/// overlapping candidates, bounded by the fractional relaxation over each group's efficient
/// frontier) unless the node limit is hit. Throws amdahl::Error when more than 12 candidates overlap.
PlanResult plan(const std::vector<Candidate>& candidates, const PlanRequest& request);

/// One step of a plan: the running total after doing its candidate.
struct PlanStep {
    std::size_t candidate = 0;  ///< index into the candidates
    double new_time = 0;        ///< end-to-end time after this and every earlier step
    double speedup = 1;         ///< end-to-end speedup after this and every earlier step
};

/// The chosen candidates in order with running totals: T - (saved so far), T / that.
std::vector<PlanStep> plan_steps(const std::vector<Candidate>& candidates, const std::vector<std::size_t>& chosen,
                                 double baseline);

}  // namespace amdahl
