#pragma once
/// \file How sure an end-to-end speedup is when local factors are ranges ("8..12") or phase times
/// are ranges ("19..23 ms") or carry a run-to-run spread ("21 ms ± 1.5"). Pure math.
#include <optional>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/profile.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl {

/// A closed interval [low, high].
struct Interval {
    double low = 1;
    double high = 1;
};

/// Phases that take one local factor, with their times summed: the bounds need no more than
/// that, since phases that share a factor move S the same way.
struct PhaseGroup {
    double factor = 1;  ///< the point factor k (1 for phases left alone; may be infinite or a slowdown)
    FactorRange range;  ///< the factor's range; {factor, factor} for a point
    double time = 0;    ///< the phases' point times, summed
    double time_low = 0;
    double time_high = 0;
    double variance = 0;  ///< sum of the phases' sd^2
    /// The group holds the phase 'unattributed' of a declared total (its time in `time`, not in
    /// time_low and time_high): the total less every other phase at every end of their ranges, so
    /// it moves against them and the baseline stays the total.
    bool holds_rest = false;
};

/// A corner of the box of ranges: the baseline T and the new time T' there.
struct Corner {
    double baseline = 0;
    double new_time = 0;
    /// S = T / T'; infinite when T' = 0.
    double speedup() const;
};

/// One group's share of a ratio of linear functions: c = 1/k (0 for an infinite k) and the
/// group's time range.
struct RatioTerm {
    double inverse_factor = 1;
    double time_low = 0;
    double time_high = 0;
};

/// The corners where S(t) = sum_g t_g / sum_g c_g t_g is least and greatest over the box
/// t_g in [low_g, high_g]: exact, found among m + 1 corners after one sort rather than 2^m (the
/// proof is at the definition). S is infinite at a corner where the denominator reaches 0.
struct RatioExtremes {
    Corner low, high;
};
RatioExtremes ratio_extremes(std::vector<RatioTerm> terms);

/// What the ranges and spreads make of an end-to-end speedup and its saving.
struct Uncertainty {
    bool factor_ranges = false;  ///< some factor is a range
    bool time_ranges = false;    ///< some phase time is a range
    bool spreads = false;        ///< some phase time carries a standard deviation
    /// Exact bounds over every range (factor ends and time ends at once); the point without ranges.
    Interval speedup;
    Interval time_saved;
    /// Exact bounds of the new time T' (a --target-time gate must hold at the high end, where the
    /// baseline may be longer than at the low end of the speedup).
    Interval new_time;
    Corner slowest, fastest;  ///< where speedup.low and speedup.high are reached
    /// The sped-up phases also ran overlapped with others: these bounds count their exclusive
    /// time only (Evaluation::overlap_range spans the active time too).
    bool exclusive_only = false;
    bool total_fixed = false;  ///< a declared total is the baseline at every corner ('unattributed' takes up the rest)
    /// First-order propagation of the phase times' standard deviations, at the point (phases
    /// independent); none without spreads or when S is infinite.
    std::optional<double> speedup_sd;
    std::optional<double> time_saved_sd;
    bool any_range() const { return factor_ranges || time_ranges; }
};

/// The uncertainty of S = sum time / sum time / k over `groups`; none when no factor is a range
/// and no time is a range or has a spread (the point answer is then all there is).
std::optional<Uncertainty> speedup_uncertainty(const std::vector<PhaseGroup>& groups);

/// Adds `phase` of `profile` to `group`: its times (point, range ends, variance), or, when it is
/// the 'unattributed' phase of a declared total, its point time alone (PhaseGroup::holds_rest).
void add_phase(PhaseGroup& group, const Profile& profile, const Phase& phase);

/// True when some phase of `profile` has a run-to-run range or spread.
bool has_spread(const Profile& profile);

/// The uncertainty of doing `chosen` candidates together (none of them sharing a phase; the
/// phases outside them at their times); none when nothing is uncertain.
std::optional<Uncertainty> candidates_uncertainty(const Profile& profile, const std::vector<Candidate>& candidates,
                                                  const std::vector<std::size_t>& chosen);

/// The uncertainty of each candidate done alone, parallel to `candidates`; empty when nothing is
/// uncertain. Linear in the phases and the candidates' phases, however many candidates.
std::vector<std::optional<Uncertainty>> each_candidate_uncertainty(const Profile& profile,
                                                                   const std::vector<Candidate>& candidates);

}  // namespace amdahl
