// plan --mix: the targets of a workload mix in shares of fleet time, planned as one profile's.
#include "amdahl/mix_plan.hpp"

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"

namespace amdahl {

MixPlan plan_mix(const std::vector<std::vector<Candidate>>& candidates, const std::vector<const Profile*>& profiles,
                 const std::vector<double>& time_shares, double target_speedup, bool by_effort) {
    const std::size_t workloads = profiles.size();
    std::vector<double> totals;
    for (const Profile* profile : profiles) totals.push_back(profile->total());
    MixPlan out;
    out.targets = rank_mix(candidates, totals, time_shares, RankBy::saving, {});
    // A phase is (workload, index): numbered past the phases of the workloads before it, so that
    // targets sharing a phase in any workload are alternatives to plan().
    std::vector<std::size_t> first_phase(workloads, 0);
    for (std::size_t w = 1; w < workloads; ++w) first_phase[w] = first_phase[w - 1] + profiles[w - 1]->phases.size();
    for (const MixTarget& target : out.targets) {
        Candidate fleet;
        fleet.name = target.name;
        fleet.kind = target.kind;
        fleet.factor = target.factor;
        fleet.effort = target.effort;
        fleet.time = target.fleet_share;            // Σ w_i t_i
        fleet.saved = target.fleet.saved_fraction;  // Σ w_i s_i
        for (std::size_t w = 0; w < workloads; ++w)
            if (target.candidate[w])
                for (std::size_t p : candidates[w][*target.candidate[w]].phases)
                    fleet.phases.push_back(first_phase[w] + p);
        out.fleet_candidates.push_back(std::move(fleet));
    }
    PlanRequest request;
    request.baseline = 1;
    request.target_time = 1 / target_speedup;
    request.by_effort = by_effort;
    out.plan = plan(out.fleet_candidates, request);
    out.steps = plan_steps(out.fleet_candidates, out.plan.chosen, 1);
    // s_i = Σ_c s_{c,i} over the chosen targets: the plan's saving in workload i's own time.
    for (std::size_t w = 0; w < workloads; ++w) {
        Summation saved;
        for (std::size_t c : out.plan.chosen) saved.add(out.targets[c].saved_fraction[w]);
        out.workload_saved.push_back(saved.value());
        out.workload_speedup.push_back(speedup_from_saving(1, saved.value()));  // S_i = 1 / (1 - s_i)
    }
    out.outcome = fleet_outcome(time_shares, out.workload_speedup);
    out.best_possible = speedup_from_saving(1, out.plan.best_possible_saved);
    // The share of fleet time any target touches, each phase once: Σ_i w_i touched_i / T_i.
    Summation touched;
    for (std::size_t w = 0; w < workloads; ++w)
        if (totals[w] > 0) touched.add(time_shares[w] * candidate_time(*profiles[w], candidates[w]) / totals[w]);
    out.ceiling = speedup_from_saving(1, touched.value());
    out.time_outside = 1 - touched.value();
    return out;
}

}  // namespace amdahl
