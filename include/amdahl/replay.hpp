#pragma once
/// \file Replay of a trace over its dependencies (docs/replay.md): the end-to-end effect of
/// speedups when phases overlap, the CPU launches ahead of the GPU and synchronizations wait.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/plan.hpp"
#include "amdahl/profile.hpp"

namespace amdahl {

/// One entry of a critical path: the time an event label spends on it.
struct PathShare {
    std::string name;    ///< a phase's name, or an event's of no phase; empty: the delays between events
    bool phase = false;  ///< `name` is a phase of the profile
    double time = 0;     ///< in the profile's unit
};

/// The work left as it was that holds most of a replayed critical path: what still sets the end.
struct PathHolder {
    std::string name;   ///< a phase's name, or an event's of no phase
    std::string track;  ///< the track it ran on ("stream 7 (device 0)"); empty when unknown
    double time = 0;    ///< its time on the replayed critical path, in the profile's unit
    double share = 0;   ///< of the replayed critical path (0 to 1)
};

/// A step of a trace cut with --window, recorded and replayed: the longer of its CPU span and
/// its GPU copy, each moved with the events it encloses.
struct ReplayedStep {
    std::string name;
    double time = 0, new_time = 0;  ///< in the profile's unit
    /// The new time's parts, in the profile's unit: the step's replayed CPU span and GPU copy
    /// (0 for the one it lacks); `new_time` is the longer of the two.
    double new_cpu_time = 0, new_gpu_time = 0;
    /// The replayed CPU span sets the new time: the step is host-bound after the speedups.
    bool set_by_cpu() const { return new_cpu_time > 0 && new_cpu_time >= new_gpu_time; }
};

struct ReplayOutcome {
    /// The trace's makespan, first start to last end of every event, in the profile's unit; with
    /// --window, the mean time of the steps used (`steps`).
    double before = 0;
    double after = 0;                 ///< the same after the speedups
    std::vector<ReplayedStep> steps;  ///< with --window: each step used
    double speedup = 1;               ///< before / after; infinite when after is 0
    std::size_t events = 0, edges = 0, waits = 0;
    /// Time some GPU event runs, recorded and replayed, over the whole trace, whose makespans
    /// (first start to last end) these are: the rest of it the GPU is idle.
    double gpu_busy_before = 0, gpu_busy_after = 0;
    double makespan_before = 0, makespan_after = 0;
    /// What the model took from the trace and what it assumed, in words.
    std::vector<std::string> assumptions;
    /// Sped-up phases that are no events (overlapped, idle, unattributed): replay leaves them.
    std::vector<std::string> not_events;
    /// With the critical path asked for: the time on it per phase (or event of no phase), and the
    /// delays between events (untraced host work, launch latency, gaps), longest first; for the
    /// recorded trace and for the replayed one. Each adds up to `before` or `after`.
    std::vector<PathShare> path_before, path_after;
    /// replay_evaluation: of the sped-up phases' time (their events' self time, in the profile's
    /// unit; per step with --window), how much the recorded trace's critical path holds. The rest ran alongside other
    /// work, so speeding it up moves the end of the trace only as far as the path's share.
    double touched_time = 0, touched_on_path = 0;
    /// replay_evaluation: the untouched event label and track that hold most of the replayed
    /// critical path (none when the path is delays and sped-up work only).
    std::optional<PathHolder> holder;
};

/// Replays `evaluation`'s factors (per phase of `profile`) over the profile's dependencies.
/// Throws amdahl::Error when the profile has none (it was not read from a trace with them).
ReplayOutcome replay_evaluation(const Profile& profile, const Evaluation& evaluation, bool with_critical_path = false);

/// Per phase of `profile`: whether some event of its dependencies is of that phase (a replay
/// can move it); all false without dependencies.
std::vector<bool> phases_with_events(const Profile& profile);

/// The same with a factor per phase of `profile` (parallel to Profile::phases; 1: untouched);
/// `touched` says which phases were sped up (else: those whose factor is not 1). Without
/// `with_busy_time` the GPU busy times stay 0 (they cost a sort of the events: rank does not need them).
ReplayOutcome replay_phases(const Profile& profile, const std::vector<double>& factors, bool with_critical_path = false,
                            const std::vector<bool>* touched = nullptr, bool with_busy_time = true);

/// `rank --model replay`: each candidate alone, replayed at its factor (its `saved` is set to the
/// replayed saving), at infinity and at each grid factor; candidates with no events to move are
/// not replayed (they gain nothing).
struct ReplayedCandidates {
    double baseline = 0;                    ///< the trace's makespan, in the profile's unit
    std::vector<double> ceiling;            ///< per candidate: the replayed speedup at infinity
    std::vector<std::vector<double>> grid;  ///< per candidate: at each grid factor
    std::vector<bool> on_critical_path;     ///< per candidate: the recorded critical path runs through it
};
/// The replays run on `threads` workers (0: two, or one on a one-core machine); the result is the
/// same, to the bit, whatever their number.
ReplayedCandidates replay_candidates(const Profile& profile, std::vector<Candidate>& candidates,
                                     const std::vector<double>& grid, unsigned threads = 0);

/// `plan --model replay`: the cheapest set of candidates whose replay together reaches
/// `request.target_time`. Replayed savings do not add up, so sets are tried in order of cost
/// (count or effort), each replayed whole; a set is skipped unreplayed when even the time its
/// events lose (the sum over its phases' events of d - d / k, additive, and never less than what
/// the replay saves) falls short. Exact when every set up to the answer's cost was replayed or
/// skipped so; past `max_replays` replays (or 1M sets) the answer is the best set found, with the
/// cost of the first set not tried (or the least cost that could lose enough) as a lower bound; the
/// search starts from a first plan (the shortest reaching prefix of the best-possible set), so it
/// answers whenever that set reaches. Unreachable is proven when the best-possible set does not
/// reach and no candidates are alternatives. Each chosen candidate's `saved` becomes what it adds
/// to the steps before it.
struct ReplayedPlan {
    double baseline = 0;          ///< the trace's makespan (the mean step with --window), in the profile's unit
    PlanResult plan;              ///< `saved` replayed; `nodes`: the sets replayed
    std::vector<PlanStep> steps;  ///< the chosen candidates, largest saving first, each prefix replayed
    double best_possible = 1;     ///< replayed speedup with every candidate at its factor (the best of alternatives)
    double ceiling = 1;           ///< replayed speedup with every candidate's phases at no time
    std::size_t sets = 0;         ///< sets taken in cost order: replayed, or skipped by their bound
    std::size_t max_replays = 0;  ///< the budget the search had
};
ReplayedPlan plan_replayed(const Profile& profile, std::vector<Candidate>& candidates, const PlanRequest& request);

}  // namespace amdahl
