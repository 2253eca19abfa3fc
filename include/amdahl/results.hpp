#pragma once
/// \file What each command computes, before any formatting: one result per command. The
/// reporters (text, JSON, CSV, Markdown) write these; commands never format. Times are in the
/// profile's unit (`unit`) unless a field's name says otherwise.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/compare.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/fleet.hpp"
#include "amdahl/harness.hpp"
#include "amdahl/law.hpp"
#include "amdahl/plan.hpp"
#include "amdahl/profile.hpp"
#include "amdahl/queue.hpp"
#include "amdahl/rank.hpp"
#include "amdahl/replay.hpp"
#include "amdahl/scaling.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl {

/// `amdahl eval`: proposed local speedups applied to a profile.
struct EvalResult {
    const Profile* profile = nullptr;        ///< the profile evaluated (its phases, unit, notes, boundary)
    std::vector<SpeedupSpec> speedups;       ///< as given, in order; PhaseOutcome::spec indexes them
    Evaluation evaluation;                   ///< baseline, new time, speedup, f, ceiling, per-phase outcomes
    std::optional<double> required_speedup;  ///< --require-speedup: the gate's threshold (a speedup)
    bool gate_passed = true;                 ///< gate_speedup() >= required_speedup, or no gate
    /// --model replay: the speedups replayed over the trace's dependencies; the headline then
    /// (and the gate's figure), with `evaluation` as the phase-table Amdahl figure beside it.
    std::optional<ReplayOutcome> replay;
    std::optional<FleetFigures> fleet;  ///< --fleet: what speedup() frees on the fleet
    /// The figure the command answers with: the replayed speedup, or Amdahl's.
    double speedup() const { return replay ? replay->speedup : evaluation.speedup; }
    /// True when the gate checks the low end of a range (a factor or time range), not the point.
    bool gate_at_low_end() const { return !replay && evaluation.uncertainty && evaluation.uncertainty->any_range(); }
    /// What --require-speedup compares: the range's low end (a CI gate must not pass on a
    /// midpoint), else the point.
    double gate_speedup() const { return gate_at_low_end() ? evaluation.uncertainty->speedup.low : speedup(); }
};

/// `amdahl law`: the closed form solved for the quantity not given.
struct LawResult {
    enum class Solved { speedup, factor, fraction };
    Solved solved_for = Solved::speedup;
    LawSolution solution;        ///< f, k, S (the target when not solved for) and the ceiling
    std::optional<double> time;  ///< --time, or the whole of -f PART/WHOLE: the baseline time, in `time_unit`
    Unit time_unit = Unit::ms;
    /// Several parts (-f F -k K given in pairs): each part as given; `solution` then holds
    /// f = sum f_i and the parts' combined k. Empty for one part.
    std::vector<LawPart> parts;
    /// The time of each part (-f PART/WHOLE, --part), in `time_unit`; one per part, or empty.
    std::vector<double> part_times;
    /// --fleet: what S frees on the fleet; none when S is impossible (`fleet_given` says it was asked).
    std::optional<FleetFigures> fleet;
    bool fleet_given = false;
    /// -k 8..12 (solving for the speedup): S with every factor at its range's low and high end;
    /// `solution` then holds the point (each range's geometric midpoint).
    std::optional<Interval> speedup_range;
    double new_time() const { return time && solution.possible ? *time / solution.speedup : 0; }
    /// The time saved, the time x saved_fraction() (negative for a slowdown); 0 without a time.
    double time_saved() const { return time && solution.possible ? *time * saved_fraction() : 0; }
    /// The time of part `part` (as given, else f_i x time); none without a time or an f (an
    /// impossible solve for f). Without `part`: all the parts together, f x time.
    std::optional<double> part_time(std::optional<std::size_t> part = std::nullopt) const {
        if (!time) return std::nullopt;
        if (part && *part < part_times.size()) return part_times[*part];
        if (part && *part < parts.size()) return parts[*part].fraction * *time;  // f_i T
        if (part && *part > 0) return std::nullopt;
        if (solved_for == Solved::fraction && !solution.possible) return std::nullopt;
        return solution.fraction * *time;  // f T
    }
    /// 1 - 1/S: the fraction of the time saved (negative for a slowdown). Given f and k it is
    /// f (k - 1) / k, and else (S - 1) / S: no 1 - 1/S, which loses the digits of a small saving
    /// (f = 1e-9 sped up 1e300x saved 1.00000008e-9 of the time).
    double saved_fraction() const {
        const LawSolution& s = solution;
        if (solved_for == Solved::speedup)
            return std::isinf(s.factor) ? s.fraction : s.fraction * ((s.factor - 1) / s.factor);
        return std::isinf(s.speedup) ? 1 : (s.speedup - 1) / s.speedup;
    }
};

/// `amdahl queue`: a queueing station before and after its service time is sped up.
struct QueueResult {
    QueueModel before;            ///< as given (service time in seconds, rate per second)
    QueueModel after;             ///< the same with the service time divided by `speedup`
    QueueMetrics before_metrics;  ///< at the given arrival rate
    QueueMetrics after_metrics;
    double speedup = 1;          ///< k, the service-time speedup (below 1: a slowdown)
    std::string speedup_source;  ///< the eval report it was read from (--speedup-from); empty: -s
    Unit unit = Unit::ms;        ///< the unit times are shown in: the one --service was given in
    /// --slo: each objective as written, and the highest arrival rate (per second) meeting it
    /// before and after; none when even an idle station misses it.
    struct Objective {
        std::string text;
        LatencyObjective objective;
        std::optional<double> max_rate_before, max_rate_after;
    };
    std::vector<Objective> objectives;
    /// T_before / T_after: how many times lower the mean latency gets; set when both are stable.
    std::optional<double> mean_latency_speedup() const {
        if (!before_metrics.mean_latency || !after_metrics.mean_latency) return std::nullopt;
        return *before_metrics.mean_latency / *after_metrics.mean_latency;
    }
};

/// The candidates rank and plan choose among: proposals, or phases at one factor.
struct CandidateSet {
    std::vector<Candidate> candidates;
    bool from_proposals = false;
    double factor = 10;                  ///< -k, the factor of every candidate when they are phases
    std::string effort_unit = "effort";  ///< the word efforts are counted in ("engineer-week")
    std::vector<std::string> notes;      ///< what the selectors assumed (an exact name over a glob)
};

/// `amdahl rank`: single targets in order of what each buys alone.
struct RankResult {
    const Profile* profile = nullptr;
    CandidateSet set;
    RankBy by = RankBy::saving;
    double baseline_time = 0;          ///< T, the profile's total
    double phase_table_time = 0;       ///< the profile's total: what a target's share is of
    std::vector<double> grid;          ///< --grid factors (local speedups)
    std::vector<RankedTarget> ranked;  ///< best first, cut to --top
    /// --model replay: each target's speedup, saving, ceiling and grid are replayed over the
    /// trace's dependencies, and baseline_time is the trace's makespan (time and share stay the
    /// phase table's); `on_critical_path` says, per candidate, whether the recorded step's
    /// critical path runs through one of its phases.
    bool replayed = false;
    std::vector<bool> on_critical_path;
    std::optional<Fleet> fleet;               ///< --fleet
    std::vector<FleetFigures> fleet_figures;  ///< with --fleet: one per ranked target, in order
    bool conservative = false;                ///< --conservative: ordered by the speedup's lower bound
};

/// `amdahl plan`: the cheapest set of candidates that reaches a target.
struct PlanReport {
    const Profile* profile = nullptr;
    CandidateSet set;
    bool by_effort = false;       ///< objective: total effort (else the number of candidates)
    double baseline_time = 0;     ///< T
    double target_speedup = 1;    ///< S wanted
    double target_time = 0;       ///< T / S: the new time must be at most this
    bool target_is_time = false;  ///< given as --target-time (the gate is then on the time)
    PlanResult plan;              ///< chosen candidates, cost, optimality, alternatives
    std::vector<PlanStep> steps;  ///< the chosen candidates in order, with running totals
    double best_possible = 1;     ///< end-to-end speedup with every candidate at its factor
    double ceiling = 1;           ///< end-to-end speedup with every candidate at no time
    double time_outside = 0;      ///< time of the phases no candidate touches
    bool required = false;        ///< --require: a gate on reachability
    /// --model replay: the sets were replayed over the trace's dependencies (amdahl/replay.hpp,
    /// plan_replayed); `sets` were taken in cost order, `replays` of them replayed, of at most
    /// `max_replays`.
    bool replayed = false;
    std::size_t sets = 0, max_replays = 0;
    /// --fleet: what the plan's speedup frees, with its total effort when every step has one;
    /// none when no plan reaches the target (`fleet_given` says it was asked).
    std::optional<FleetFigures> fleet;
    bool fleet_given = false;
    /// With a factor range or phase times with a range or spread: the bounds of the plan's
    /// speedup and saving (the plan itself is chosen at the point factors and times).
    std::optional<Uncertainty> uncertainty;
    /// True when --require checks the low end of a range: the plan must reach the target there.
    bool gate_at_low_end() const { return plan.reachable && uncertainty && uncertainty->any_range(); }
    /// --require: a plan reaches the target, at the low end of the ranges when there are ranges
    /// (a CI gate must not pass on a midpoint).
    /// With --target-time the gate is on the time: the new time at the ranges' worst end must be
    /// at most the target (the baseline there may be longer than the one the target was divided by).
    bool gate_passed() const {
        if (!plan.reachable || !gate_at_low_end()) return plan.reachable;
        return target_is_time ? meets_threshold(target_time, uncertainty->new_time.high)
                              : meets_threshold(uncertainty->speedup.low, target_speedup);
    }
};

/// `amdahl compare`: two sides, the change attributed to each phase, and the gates.
struct CompareReport {
    const Comparison& comparison;             ///< totals, intervals, per-phase changes (times in comparison.unit)
    const std::vector<GateResult>& gates;     ///< each gate as written, passed or not, and what was measured
    std::vector<std::string> before_sources;  ///< the files each side was read from
    std::vector<std::string> after_sources;
    std::vector<std::string> notes;         ///< what went to stderr
    std::string boundary;                   ///< what the totals are, in words, when the profiles say it
    bool summary_only = false;              ///< a side came from a summary: its totals are sums, not wall times
    std::string label_before, label_after;  ///< what each side is (--label-before main@abc123); empty: not said
    std::string version;                    ///< amdahl's version, for the JSON report's run metadata
    std::vector<std::string> arguments;     ///< the command line after "amdahl"
    /// Markdown: the phases with the largest |contribution| in the table, the rest in a collapsed
    /// block (0: every phase in the table, in BEFORE's order).
    std::size_t top = 15;
};

/// `amdahl compare` of benchmark harnesses' results, benchmark by benchmark.
struct BenchmarkCompareReport {
    const BenchmarkComparison& comparison;
    const std::vector<GateResult>& gates;
    std::vector<std::string> before_sources, after_sources;
    std::vector<std::string> notes;         ///< what went to stderr
    std::string label_before, label_after;  ///< --label-before / --label-after; empty: not said
    std::string version;                    ///< amdahl's version
    std::vector<std::string> arguments;     ///< the command line after "amdahl"
    /// Markdown: the benchmarks that got most worse or better in the table, the rest collapsed (0: all).
    std::size_t top = 15;
};

/// `amdahl scale`: speedup against the number of processors.
struct ScaleResult {
    ScalingLaw law = ScalingLaw::amdahl;
    double parallel_fraction = 0;  ///< P
    /// When P came from a profile: the time of the phases --parallel picks, and the profile's total.
    std::optional<double> parallel_time, profile_time;
    Unit profile_unit = Unit::ms;
    Overhead overhead;                    ///< O(N), in units of the one-processor time; model none without
    std::string overhead_source;          ///< the file a measured overhead came from
    std::optional<double> baseline_time;  ///< --time (or the profile's total): one processor, in `unit`
    Unit unit = Unit::ms;
    std::vector<std::pair<long long, double>> effective;  ///< --effective N=K, by N
    std::vector<ScaleRow> rows;                           ///< every N asked for, ascending
    long long largest_n = 1;                              ///< the largest N of -n: best N is searched in 1..largest_n
    BestProcessorCount best;                              ///< the N with the largest speedup (with an overhead)
    double ceiling = 1;                                   ///< 1 / (1 - P) for Amdahl; infinite for Gustafson
};

/// `amdahl fit`: the serial fraction from measured runs, and what it predicts.
struct FitResult {
    std::string source;                             ///< the file the runs came from
    bool input_is_time = true;                      ///< the runs gave times (else speedups)
    std::optional<Unit> unit;                       ///< of the times
    std::vector<ScalingPoint> points;               ///< measured speedups, ascending N
    std::vector<double> times;                      ///< the measured times, parallel to points (when times)
    std::optional<double> baseline_time;            ///< the N = 1 time, in `unit`
    Overhead::Model model = Overhead::Model::none;  ///< the model fitted (--overhead)
    ScalingFit fit;                                 ///< P, the overhead coefficient, the RMSE of the speedups
    KarpFlattTrend trend;                           ///< how e(N) moves with N
    std::vector<long long> predict;                 ///< --predict counts, ascending
    double ceiling = 1;                             ///< 1 / (1 - P); infinite for P >= 1
    std::optional<BestProcessorCount> best;         ///< where a growing fitted overhead makes S peak
    std::vector<std::string> notes;                 ///< caveats about the fit (P outside 0..1, c < 0)
};

}  // namespace amdahl
