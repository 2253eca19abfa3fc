#pragma once
/// \file Evaluating proposed speedups on a profile. Pure math on validated values.
#include <optional>
#include <vector>

#include "amdahl/profile.hpp"
#include "amdahl/speedup.hpp"
#include "amdahl/uncertainty.hpp"

namespace amdahl {

struct PhaseOutcome {
    /// Local speedup applied (1 when untouched; may be infinite). For the `overlapped` phase, whose
    /// time shrinks where only sped-up phases ran (spec -1): its time / new_time.
    double factor = 1;
    double new_time = 0;  ///< time / factor
    double saved = 0;     ///< time - new_time (negative for a slowdown)
    int spec = -1;        ///< index of the speedup that touched it, or -1
    /// The `overlapped` phase, part of whose time ran only sped-up phases and shrinks with them.
    bool shrinks_with_others = false;
    /// Sped up by a spec, or shrinking with the phases that are.
    bool changed() const { return spec >= 0 || shrinks_with_others; }
};

/// For profiles imported from traces, where sped-up phases also ran overlapped with others: the
/// saving lies between the exclusive-time estimate and the active-time one.
struct OverlapRange {
    double low_saved = 0;   ///< sum of exclusive time * (1 - 1/k): only the time the phase ran alone shrinks
    double high_saved = 0;  ///< sum of active time * (1 - 1/k), at most the affected and overlapped time
    double low_speedup = 1;
    double high_speedup = 1;
    /// Some factor is a range: the low end is at every range's low end, the high end at every high end.
    bool factor_ends = false;
    bool low_is_active = false;   ///< the low end is the active-time estimate (a slowdown), not the exclusive one
    bool high_is_active = false;  ///< the high end is the active-time estimate (a speedup)
};

struct Evaluation {
    double baseline_time = 0;
    double new_time = 0;
    double time_saved = 0;
    double speedup = 1;            ///< baseline / new; infinite when new_time == 0
    double saved_fraction = 0;     ///< time_saved / baseline
    double affected_fraction = 0;  ///< f: share of the baseline in phases that were sped up
    /// Of the `overlapped` phase, the time when only sped-up phases ran (CoveredOverlap): part of f.
    double covered_overlap_time = 0;
    double ceiling = 1;                         ///< 1 / (1 - f); infinite when f == 1
    std::optional<double> headroom_captured;    ///< time_saved / (f * baseline); none when f == 0
    std::vector<PhaseOutcome> phases;           ///< parallel to Profile::phases
    std::optional<OverlapRange> overlap_range;  ///< when an affected phase has overlapped time
    std::vector<std::string> notes;             ///< what the selectors assumed (an exact name over a glob)
    /// When a factor is a range or a phase time has a run-to-run range or spread: the bounds
    /// (and sd) of speedup and time_saved, which are then the point's (midpoints) figures.
    std::optional<Uncertainty> uncertainty;
};

/// Resolves each spec to phases; throws amdahl::Error when a spec selects nothing or two specs
/// select the same phase. Returns, per phase, the spec index or -1.
std::vector<int> assign_speedups(const Profile& profile, const std::vector<SpeedupSpec>& specs,
                                 std::vector<std::string>* notes = nullptr);

/// Applies `specs` to `profile`.
Evaluation evaluate(const Profile& profile, const std::vector<SpeedupSpec>& specs);

}  // namespace amdahl
