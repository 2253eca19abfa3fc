#pragma once
/// \file A workload mix (`eval --mix`, `rank --mix`): several profiles, each carrying a share of a
/// fleet's time, and what proposed speedups buy the fleet. Pure math on validated values.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/fleet.hpp"
#include "amdahl/profile.hpp"
#include "amdahl/rank.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl {

/// How the weights of a mix are given; one kind in a command.
enum class MixWeightKind {
    share,  ///< a share of the fleet's time: 0.7 or 70%
    gpus,   ///< a GPU count (120gpus): GPUs run continuously, so it is a share of fleet time once normalised
    rate,   ///< requests per second (15/s): the share of fleet time is rate x the time per request, normalised
};

/// "share", "gpus" or "rate": the JSON word for a kind.
std::string_view mix_weight_kind_name(MixWeightKind kind);

struct MixWeight {
    MixWeightKind kind = MixWeightKind::share;
    double value = 0;  ///< the share (0..1), the GPU count or the requests per second
    std::string text;  ///< as written: "0.7", "70%", "120gpus", "15/s"
};

/// Parses "0.7", "70%", "120gpu", "120gpus", "15/s". Throws amdahl::Error (no location) for
/// anything else, and for a weight that is not a finite number > 0.
MixWeight parse_mix_weight(std::string_view text);

/// Each workload's share of the fleet's time, w_i. `request_seconds[i]` is workload i's time per
/// request (its profile's total, in seconds): only rates use it. Throws amdahl::Error when the
/// kinds differ or shares do not sum to 1 (within 0.001), giving the sum.
std::vector<double> fleet_time_shares(const std::vector<MixWeight>& weights,
                                      const std::vector<double>& request_seconds);

/// What the fleet gets from per-workload speedups.
struct FleetOutcome {
    double speedup = 1;            ///< S = 1 / Σ w_i / S_i (infinite when every workload's time goes)
    double saved_fraction = 0;     ///< 1 - 1/S = Σ w_i (1 - 1/S_i): the share of fleet time saved
    std::vector<double> saved;     ///< w_i (1 - 1/S_i): each workload's part of the fleet's saving
    std::vector<double> new_time;  ///< w_i / S_i: each workload's fleet time after, as a share of before
    /// w_i (1 - 1/S_i) / Σ_j w_j (1 - 1/S_j): the share of the fleet's win each workload carries;
    /// empty when the fleet saves nothing.
    std::vector<double> win_share;
};

/// The fleet's outcome for time shares w_i and per-workload speedups S_i (infinite: no time left).
FleetOutcome fleet_outcome(const std::vector<double>& time_shares, const std::vector<double>& speedups);

/// The workload that carries most of a fleet's change: of those whose part of it (`saved[i]`,
/// w_i (1 - 1/S_i)) has the sign of the whole (`total`), the largest in size; a loss is carried
/// by the workload that loses most, not by one that loses least.
std::size_t carrying_workload(const std::vector<double>& saved, double total);

/// One workload's evaluation in a mix.
struct WorkloadEvaluation {
    std::vector<std::size_t> speedups;  ///< the specs (indices) whose selectors pick phases here
    std::vector<SpeedupSpec> applied;   ///< those specs; Evaluation::phases[].spec indexes them
    Evaluation evaluation;
};

/// Per profile, the indices of the selectors that pick a phase there. A selector that picks none
/// in some profiles is noted in `notes` (naming them by `names`); none in every profile throws the
/// usual amdahl::Error, with each profile's suggestion.
std::vector<std::vector<std::size_t>> select_in_workloads(const std::vector<const Profile*>& profiles,
                                                          const std::vector<std::string>& names,
                                                          const std::vector<Selector>& selectors,
                                                          std::vector<std::string>& notes);

/// Evaluates `specs` on each profile. A selector that picks no phase in a profile leaves that
/// workload at 1x (a note in `notes` names the workloads, by `names`); one that picks none in
/// any profile throws the usual amdahl::Error (the first profile's message).
std::vector<WorkloadEvaluation> evaluate_workloads(const std::vector<const Profile*>& profiles,
                                                   const std::vector<std::string>& names,
                                                   const std::vector<SpeedupSpec>& specs,
                                                   std::vector<std::string>& notes);

/// A target of `rank --mix`: one name (a phase name, or a proposal) on every workload that has it.
struct MixTarget {
    std::string name;
    std::string kind;  ///< the kind its phases share, or ""
    double factor = 1;
    std::optional<double> effort;
    std::vector<double> time_fraction;       ///< per workload: the target's share of that workload's time (0: absent)
    std::vector<double> saved_fraction;      ///< per workload: the share of that workload's time it saves
    double fleet_share = 0;                  ///< Σ w_i t_i: the target's share of the fleet's time
    FleetOutcome fleet;                      ///< this target alone at its factor
    double ceiling = 1;                      ///< the fleet speedup with the target at no time: 1 / (1 - fleet_share)
    std::optional<double> saved_per_effort;  ///< fleet.saved_fraction / effort
    std::vector<double> grid;                ///< the fleet speedup at each --grid factor
    std::size_t main_workload = 0;           ///< the workload carrying the largest part of its saving
    std::vector<std::optional<std::size_t>> candidate;  ///< per workload: its candidate's index there (none: absent)
};

/// Joins each workload's candidates by name and ranks them by what each saves the fleet alone
/// (`by`: saving, ceiling or saving per effort), largest first; ties keep first-seen order.
/// `candidates[i]` are workload i's, `totals[i]` its profile's total.
std::vector<MixTarget> rank_mix(const std::vector<std::vector<Candidate>>& candidates,
                                const std::vector<double>& totals, const std::vector<double>& time_shares, RankBy by,
                                const std::vector<double>& grid);

/// One workload of a mix as the reports show it.
struct MixWorkload {
    std::string name;                  ///< as given to --mix: the path
    const Profile* profile = nullptr;  ///< its profile (boundary, unit, notes)
    MixWeight weight;                  ///< as given
    double time_share = 0;             ///< w_i, its share of the fleet's time
};

/// `amdahl eval --mix`: the speedups applied to each workload, and the fleet's outcome.
struct MixEvalResult {
    std::vector<MixWorkload> workloads;
    std::vector<SpeedupSpec> speedups;            ///< as given
    std::vector<WorkloadEvaluation> evaluations;  ///< parallel to workloads
    FleetOutcome fleet;                           ///< each workload at its speedup S_i
    FleetOutcome ceiling;                         ///< each workload at its ceiling (its sped-up phases at no time)
    std::optional<FleetFigures> worth;            ///< --fleet: what the fleet speedup is worth (GPUs, money)
    std::optional<double> required_speedup;       ///< --require-speedup: a gate on the fleet speedup
    bool gate_passed = true;
    std::vector<std::string> notes;  ///< which workloads a selector missed, and what the weights assume
};

/// Sets result.fleet and result.ceiling from the workloads' time shares and evaluations.
void add_fleet_outcomes(MixEvalResult& result);

/// `amdahl rank --mix`: targets ranked by what each saves the fleet alone.
struct MixRankResult {
    std::vector<MixWorkload> workloads;
    bool from_proposals = false;
    double factor = 10;  ///< -k, when the targets are phases
    std::string effort_unit = "effort";
    RankBy by = RankBy::saving;
    std::vector<double> grid;                 ///< --grid factors
    std::vector<MixTarget> ranked;            ///< best first, cut to --top
    std::optional<Fleet> fleet;               ///< --fleet
    std::vector<FleetFigures> fleet_figures;  ///< --fleet: parallel to ranked, each target's fleet speedup
    std::vector<std::string> notes;           ///< what the selectors assumed, per workload
};

}  // namespace amdahl
