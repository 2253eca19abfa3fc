#pragma once
/// \file Ranking candidates: which single target is worth it.
#include <optional>
#include <string>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/uncertainty.hpp"

namespace amdahl {

enum class RankBy { saving, effort, ceiling };

struct RankedTarget {
    std::size_t candidate = 0;  ///< index into the candidates
    double speedup = 1;         ///< end-to-end, this candidate alone at its factor
    double ceiling = 1;         ///< end-to-end, this candidate alone at infinity: T / (T - time)
    std::optional<double> saved_per_effort;
    std::vector<double> grid;  ///< end-to-end speedup at each grid factor
    /// With a factor range or phase times with a range or spread: the bounds of speedup and saving.
    std::optional<Uncertainty> uncertainty;
};

/// Ranks candidates by `by` (largest first; ties keep input order). `by == effort` needs every
/// candidate to have an effort (throws amdahl::Error naming the first without).
std::vector<RankedTarget> rank_candidates(const std::vector<Candidate>& candidates, double baseline, RankBy by,
                                          const std::vector<double>& grid);

/// Rank's figures count the time a target ran alone. When the profile has overlapped time and
/// some targets ran mostly beside other work (a phase's active time is over twice that, and the
/// rest is at least 1% of the profile), a note naming the largest three, with the time they ran
/// and ran alone; else nothing.
std::optional<std::string> overlapped_targets_note(const Profile& profile, const std::vector<Candidate>& candidates);

}  // namespace amdahl
