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
};

/// The median and order-statistic interval of `values` (not empty, finite).
Spread median_interval(std::vector<double> values);

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
    Spread before;                     ///< all zero when the phase is not in BEFORE
    Spread after;                      ///< all zero when the phase is not in AFTER
    double change = 0;                 ///< after - before (medians): also the phase's contribution to the total change
    double change_low = 0;             ///< after.low - before.high
    double change_high = 0;            ///< after.high - before.low
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
    double change_low = 0;       ///< after_total.low - before_total.high
    double change_high = 0;      ///< after_total.high - before_total.low
    double change_of_total = 0;  ///< change / before_total
    double speedup = 1;          ///< before_total / after_total
    double speedup_low = 1;      ///< before_total.low / after_total.high
    double speedup_high = 1;     ///< before_total.high / after_total.low
    /// Joint coverage of the change and speedup intervals: both sides' intervals hold at once with
    /// probability >= before.confidence * after.confidence (independent runs). 0 with single runs.
    double confidence = 0;
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

struct GateResult {
    std::string gate;  ///< as the user wrote it
    bool passed = true;
    std::string detail;    ///< what was measured, in words
    bool skipped = false;  ///< checked nothing (--on-missing-gate skip): passed, and said so everywhere
};

/// Checks the gates. A gate fails only when every value in the interval fails it (the point value
/// with single runs), and a change within the noise threshold also admits "no change". Throws
/// amdahl::Error (location "--fail-if-phase-slower") for a selector that matches no phase.
/// `notes` gains what the selectors assumed (an exact name over a glob).
std::vector<GateResult> check_gates(const Comparison& comparison, const std::vector<Gate>& gates,
                                    const NumberStyle& style = {}, std::vector<std::string>* notes = nullptr);

}  // namespace amdahl
