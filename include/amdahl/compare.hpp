#pragma once
/// \file Comparing a profile before and after a change: phases matched by name, the end-to-end
/// change attributed to each phase, Amdahl's prediction from the measured local speedups, run-to-run
/// intervals and CI gates. Pure math on loaded profiles.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "amdahl/numbers.hpp"
#include "amdahl/profile.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl {

/// The median of repeated measurements and an interval for it.
///
/// The interval is the distribution-free confidence interval for the median from order statistics:
/// with the n values sorted, [x_(j), x_(n+1-j)] holds the true median with probability
/// 1 - 2 P(B <= j - 1), B ~ Binomial(n, 1/2). `j` is the largest index whose coverage is at least
/// 95%; when even the whole range falls short (n <= 5) the interval is the range, min to max, and
/// `confidence` says what it covers (1 - 2^(1-n): 87.5% for 4 runs). One value: no interval.
struct Spread {
    double median = 0;
    double low = 0;         ///< lower end of the interval
    double high = 0;        ///< upper end of the interval
    std::size_t runs = 0;   ///< how many values
    double confidence = 0;  ///< probability the interval holds the true median (0 for one value)
    double mad = 0;         ///< median absolute deviation from the median (0 for one value)
    double cv = 0;          ///< coefficient of variation: sample standard deviation / mean (0 for one value)
};

/// The median and order-statistic interval of `values` (not empty, finite), with their spread.
Spread median_interval(std::vector<double> values);

/// The change from BEFORE's runs to AFTER's (after - before), with distribution-free intervals.
///
/// Unpaired (the default): the Hodges-Lehmann shift, the median of the n*m differences
/// after_j - before_i, with the Mann-Whitney confidence interval [D_(k), D_(nm+1-k)] of the sorted
/// differences, k the largest index with P(U <= k - 1) <= 2.5% (U the Mann-Whitney statistic with no
/// shift; exact while min(n, m) * n * m <= 5e7, so also for one or two runs beside thousands; its normal
/// approximation beyond, where both samples are large). Paired (`--paired`, run i of each
/// side together): the Hodges-Lehmann estimate of the differences d_i = after_i - before_i, the
/// median of the Walsh averages (d_i + d_j)/2, i <= j, with the Wilcoxon signed-rank interval (exact
/// up to 200 pairs). When even the widest interval falls short of 95% (few runs) it is the widest,
/// and `confidence` says what it covers.
struct ShiftInterval {
    double estimate = 0;          ///< Hodges-Lehmann estimate of the change
    double low = 0, high = 0;     ///< two-sided interval, 95% where the runs allow
    double confidence = 0;        ///< coverage of [low, high]; 0 with one run a side (a point)
    double bound_low = 0;         ///< one-sided lower bound: the change is above it with `bound_confidence`
    double bound_high = 0;        ///< one-sided upper bound: the change is below it with `bound_confidence`
    double bound_confidence = 0;  ///< coverage of each one-sided bound, 95% where the runs allow
    std::size_t runs_before = 0, runs_after = 0;  ///< runs (pairs, when paired) the interval is over
    bool paired = false;
};

/// The unpaired interval for after - before. Values finite; an empty side gives all zeros.
ShiftInterval shift_interval(const std::vector<double>& before, const std::vector<double>& after);
/// The paired interval: before[i] and after[i] are one pair (the shorter length counts).
ShiftInterval paired_shift_interval(const std::vector<double>& before, const std::vector<double>& after);

/// The median of |x - median(x)|: a spread that one slow outlier cannot inflate. 0 for no values.
double median_absolute_deviation(std::vector<double> values);
/// Sample standard deviation / mean; 0 for fewer than two values or a mean that is not positive.
double coefficient_of_variation(const std::vector<double>& values);
/// A standard deviation one slow run cannot inflate: 1.4826 MAD (exact for normal data), or the
/// sample standard deviation when the MAD is 0 (half the values equal, as a coarse timer gives).
double robust_sigma(const std::vector<double>& values);
/// The smallest true change that the one-sided 95% bound tells from no change 80% of the time, given
/// each side's standard deviation (sigma) and runs, or, paired, the standard deviation of the pairs'
/// differences: (z_0.95 + z_0.80) * standard error / sqrt(3/pi) (the rank tests' efficiency). NaN
/// with fewer than two runs a side.
double minimum_detectable_change(double sigma_before, std::size_t n, double sigma_after, std::size_t m, bool paired,
                                 double sigma_differences);

/// One side of a comparison: one or more runs of the same program, all in one unit.
struct CompareSide {
    /// One profile per run; a profile with `runs` (end-to-end totals) counts each of them as a run.
    std::vector<Profile> profiles;
};

/// What a phase that some runs of a side lack means (--missing).
enum class MissingPhases : std::uint8_t {
    error,  ///< refuse: a phase that comes and goes has no meaningful median
    zero,   ///< it took no time in those runs
    skip,   ///< its median is over the runs that have it
};

struct CompareOptions {
    std::vector<std::pair<std::string, std::string>> renames;  ///< BEFORE name -> AFTER name
    double noise = 0;  ///< changes smaller than this fraction of their base are noise
    MissingPhases missing = MissingPhases::error;
    /// Run i of BEFORE and run i of AFTER were measured together (alternating runs): the intervals
    /// are over the pairs' differences. Needs the same number of runs on both sides.
    bool paired = false;
};

enum class PhaseStatus {
    faster,     ///< less time after
    slower,     ///< more time after
    unchanged,  ///< exactly the same time
    noise,      ///< a change smaller than the noise threshold, or within the run-to-run interval
    added,      ///< only in AFTER
    removed,    ///< only in BEFORE
    residual,   ///< end-to-end time the phases do not account for (runs measured apart from phases)
};

/// "faster", "slower", ... as written in reports.
const char* status_name(PhaseStatus status);

/// The name of the row that holds end-to-end time outside the phases.
inline constexpr const char* outside_phases_row = "(outside the phases)";

struct PhaseChange {
    std::string name;         ///< the AFTER name (the BEFORE name for a removed phase)
    std::string before_name;  ///< the BEFORE name; empty for an added phase; differs when renamed
    std::string kind;
    PhaseStatus status = PhaseStatus::unchanged;
    Spread before;          ///< all zero when the phase is not in BEFORE
    Spread after;           ///< all zero when the phase is not in AFTER
    double change = 0;      ///< after - before (medians): also the phase's contribution to the total change
    double change_low = 0;  ///< two-sided interval for the change (see ShiftInterval)
    double change_high = 0;
    double change_bound_low = 0;  ///< one-sided 95% bounds for the change: what phase gates check
    double change_bound_high = 0;
    double bound_confidence = 0;       ///< coverage of each bound (0 when they are the point value)
    double change_of_phase = 0;        ///< change / before (+inf for an added phase; 0 when both are 0)
    double local_speedup = 1;          ///< k = before / after (inf when after is 0, 0 when before is 0)
    double contribution_of_total = 0;  ///< change / before total
};

struct Comparison {
    Unit unit = Unit::ms;
    std::vector<PhaseChange> phases;  ///< BEFORE's order, added phases where AFTER has them
    Spread before_total;              ///< end-to-end: the profiles' totals, or their `runs`
    Spread after_total;
    double change = 0;           ///< Σ contributions (compensated): after_total - before_total
    ShiftInterval shift;         ///< the end-to-end change's estimate and intervals, from the runs' totals
    double change_low = 0;       ///< shift.low: two-sided interval for the change
    double change_high = 0;      ///< shift.high
    double change_of_total = 0;  ///< change / before_total
    double speedup = 1;          ///< before_total / after_total
    double speedup_low = 1;      ///< before_total / (before_total + change_high)
    double speedup_high = 1;     ///< before_total / (before_total + change_low)
    /// One-sided 95% lower bound of the speedup, before_total / (before_total + shift.bound_high):
    /// what --require-speedup checks.
    double speedup_bound_low = 1;
    double confidence = 0;  ///< coverage of the two-sided change and speedup intervals; 0 with single runs
    /// The smallest end-to-end change (a fraction of before_total) these runs tell from no change
    /// 80% of the time (see minimum_detectable_change); NaN with fewer than two runs a side.
    double min_detectable_change = 0;
    /// The same for one run a side (one pair): with N runs a side it is this / sqrt(N), which says
    /// how many runs a smaller change needs. NaN with fewer than two runs a side.
    double detectable_change_one_run = 0;
    /// Amdahl's law with the measured local speedups: 1 / (f_0 + Σ f_i / k_i), f_i = T_i / T_before,
    /// f_0 the fraction outside the phases (taken as unchanged).
    double predicted_speedup = 1;
    bool consistent = true;                       ///< predicted_speedup within the speedup interval (± 0.5% rounding)
    bool change_is_noise = false;                 ///< below the noise threshold or within the interval
    PhaseStatus result = PhaseStatus::unchanged;  ///< end to end: faster, slower, unchanged or noise
    double noise = 0;
    std::vector<std::string> notes;  ///< things to tell the user (phases missing from some runs)
};

/// Matches the phases of `before` and `after` by name (after `renames`) and attributes the end-to-end
/// change. Both sides must be in the same unit. Throws amdahl::Error (location "--rename") for a
/// rename whose names are not phases.
Comparison compare(const CompareSide& before, const CompareSide& after, const CompareOptions& options);

/// A CI gate.
struct Gate {
    /// phase_costs: a phase's change may add at most `threshold` of BEFORE's total.
    enum class Type { slower, phase_slower, speedup, phase_costs };
    Type type = Type::slower;
    double threshold = 0;  ///< a fraction (slower, phase_slower) or a speedup
    Selector selector;     ///< phase_slower only
    std::string text;      ///< as the user wrote it: "--fail-if-slower 2%"
    /// phase_slower: when every phase it selects is gone from AFTER, skip the gate (with a
    /// note) instead of refusing the comparison (--on-missing-gate skip).
    bool skip_when_gone = false;
    /// Phase gates: phases smaller than these on both sides (a share of their side's total, a
    /// time in the comparison's unit) are left out of the gate, and the gate says how many.
    double min_share = 0, min_time = 0;
    std::string floor_text;  ///< the floors as the user wrote them: "--min-share 0.1%"
};

/// "2%" -> 0.02. Throws amdahl::Error (no location) for anything but a percentage >= 0.
double parse_percentage(std::string_view text);
/// "--fail-if-phase-slower NAME=5%": a selector and a percentage.
Gate parse_phase_gate(std::string_view text);

/// value >= threshold, but for binary rounding in the 16th digit: 2.1 / 1.4 = 1.4999999999999998
/// meets a required 1.5. Every gate (--require-speedup, compare's gates) decides with this.
bool meets_threshold(double value, double threshold);

/// One phase a phase gate checked. Values as in GateResult: fractions of the phase's own before
/// time (--fail-if-phase-slower; +inf for a phase new in AFTER) or of BEFORE's total (--fail-if-phase-costs).
struct GatePhase {
    std::string name;
    double observed = 0;       ///< the point value
    double low = 0, high = 0;  ///< its two-sided interval
    double bound = 0;          ///< the one-sided lower bound the verdict rests on
    bool passed = true;
};

struct GateResult {
    std::string gate;  ///< as the user wrote it
    bool passed = true;
    std::string detail;    ///< what was measured, in words
    bool skipped = false;  ///< checked nothing (--on-missing-gate skip): passed, and said so everywhere
    /// For scripts: which gate ("fail_if_slower", "fail_if_phase_slower", "fail_if_phase_costs",
    /// "require_speedup"), its selector as written (phase gates), its threshold (a fraction, or a
    /// speedup), and what was observed: the end-to-end change as a fraction of BEFORE's total, the
    /// speedup, or for a phase gate the phase with the largest value. NaN where nothing was measured.
    std::string kind;
    std::string selector;
    double threshold = 0;
    double observed = 0;
    double low = 0, high = 0;       ///< the observed value's two-sided interval
    double bound = 0;               ///< the one-sided bound the verdict rests on (lower; a speedup's lower too)
    std::vector<GatePhase> phases;  ///< phase gates: every phase checked, above the floors
};

/// Checks the gates. A gate fails only when every value in the interval fails it (the point value
/// with single runs), and a change within the noise threshold also admits "no change". Throws
/// amdahl::Error (location "--fail-if-phase-slower") for a selector that matches no phase.
/// `notes` gains what the selectors assumed (an exact name over a glob).
std::vector<GateResult> check_gates(const Comparison& comparison, const std::vector<Gate>& gates,
                                    const NumberStyle& style = {}, std::vector<std::string>* notes = nullptr);

}  // namespace amdahl
