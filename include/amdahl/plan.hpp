#pragma once
/// \file The cheapest set of candidates that reaches a target: an exact search.
#include <cstddef>
#include <vector>

#include "amdahl/candidate.hpp"

namespace amdahl {

struct PlanRequest {
    double baseline = 0;                 ///< end-to-end time T
    double target_time = 0;              ///< the plan must reach a new time <= this
    bool by_effort = false;              ///< minimise total effort (else the number of candidates)
    std::size_t node_limit = 2'000'000;  ///< search budget; past it the answer is the best found
    std::size_t max_alternatives = 5;    ///< other plans of the same cost to report
};

struct PlanResult {
    bool reachable = false;
    std::vector<std::size_t> chosen;  ///< candidate indices, largest saving first
    double cost = 0;                  ///< count or total effort
    double saved = 0;
    bool proven_optimal = true;                          ///< false when the node limit stopped the search
    double lower_bound = 0;                              ///< a proven lower bound on the optimal cost
    std::vector<std::vector<std::size_t>> alternatives;  ///< other plans of the same cost
    std::size_t nodes = 0;
    double best_possible_saved = 0;  ///< every candidate at its factor (one per set of alternatives)
};

/// Finds the set of candidates of least cost whose savings bring the time to `target_time` or
/// below; among sets of equal cost, the one that saves most. Candidates that share a phase are
/// alternatives: a plan takes at most one of them. Exact (branch and bound with a fractional
/// bound) unless the node limit is hit. Throws amdahl::Error when more than 12 candidates overlap.
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
