#pragma once
/// \file `plan --mix`: the cheapest set of targets that brings a workload mix to a fleet speedup.
/// Pure math on validated values.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/fleet.hpp"
#include "amdahl/mix.hpp"
#include "amdahl/plan.hpp"
#include "amdahl/profile.hpp"

namespace amdahl {

/// A plan over a mix. Fleet time is counted in shares of the fleet's time before (1 in all): a
/// target saves Σ_i w_i s_i of it (s_i the share of workload i's time it saves there), and the
/// savings of targets that share no phase add up, so the fleet's time after a set is
/// 1 - Σ_c Σ_i w_i s_{c,i} and its speedup 1 / that.
struct MixPlan {
    std::vector<MixTarget> targets;           ///< each candidate joined by name across the workloads
    std::vector<Candidate> fleet_candidates;  ///< parallel to targets, in fleet shares: time Σ w_i t_i, saved Σ w_i s_i
    PlanResult plan;                          ///< indices into targets; cost and saving in fleet shares
    std::vector<PlanStep> steps;              ///< running fleet time after (a share of before) and fleet speedup
    std::vector<double> workload_saved;       ///< per workload: the share of its own time the plan saves, s_i
    std::vector<double> workload_speedup;     ///< per workload: S_i = 1 / (1 - s_i)
    FleetOutcome outcome;                     ///< the plan's speedup on each workload, weighed
    double best_possible = 1;                 ///< the fleet speedup with every target at its factor
    double ceiling = 1;                       ///< the fleet speedup with every target at no time
    double time_outside = 1;                  ///< the share of fleet time no target touches
};

/// Joins each workload's candidates by name (as rank_mix does; `candidates[i]` are the
/// candidates of `profiles[i]`) and finds the cheapest set whose fleet speedup reaches
/// `target_speedup`. Targets that share a phase in any workload are alternatives. With
/// `by_effort` every target must carry an effort. Throws amdahl::Error as plan() does.
MixPlan plan_mix(const std::vector<std::vector<Candidate>>& candidates, const std::vector<const Profile*>& profiles,
                 const std::vector<double>& time_shares, double target_speedup, bool by_effort);

/// `amdahl plan --mix`: the plan, and what it buys each workload and the fleet.
struct MixPlanResult {
    std::vector<MixWorkload> workloads;
    bool from_proposals = false;
    double factor = 10;  ///< -k, when the targets are phases
    std::string effort_unit = "effort";
    bool by_effort = false;
    double target_speedup = 1;  ///< the fleet speedup wanted
    MixPlan mix;
    bool required = false;  ///< --require: a gate on reachability
    /// --fleet: what the plan's fleet speedup frees (none when no plan reaches the target).
    std::optional<FleetFigures> fleet;
    bool fleet_given = false;
    std::vector<std::string> notes;
};

}  // namespace amdahl
