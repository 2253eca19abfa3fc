#pragma once
/// \file Candidates for rank and plan: a set of phases, a local factor and an optional effort.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/profile.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl {

struct Candidate {
    std::string name;                 ///< the phase name, or the proposal's name
    std::string kind;                 ///< the phase's kind; for several phases, their common kind or ""
    std::vector<std::size_t> phases;  ///< indices into Profile::phases
    double time = 0;                  ///< baseline time of those phases (and of covered_overlaps)
    /// Overlap sets (indices into Profile::overlaps) all of whose phases are these: the time they
    /// ran only with one another is in `time`, and shrinks with them.
    std::vector<std::size_t> covered_overlaps;
    double factor = 1;                        ///< local speedup k (may be infinite)
    std::optional<FactorRange> factor_range;  ///< "8..12": k lies in it (factor is its midpoint)
    std::optional<double> effort;             ///< in the user's effort unit
    double saved = 0;                         ///< time - time / k
    /// The profile's time outside these phases, T - time to the last digit (the other phases'
    /// sum); NaN when not known (a hand-made candidate, or a replayed saving).
    double outside = std::numeric_limits<double>::quiet_NaN();
};

/// A proposal as rank and plan take it: a speedup spec and a display name.
struct Proposal {
    std::string name;
    SpeedupSpec spec;
};

/// Every phase picked by `only` (every phase but the bookkeeping ones when empty), each at `factor`.
/// Throws amdahl::Error for a selector that matches nothing.
std::vector<Candidate> phase_candidates(const Profile& profile, const std::vector<Selector>& only, Factor factor,
                                        std::vector<std::string>* notes = nullptr);

/// One candidate per proposal, on the phases its selector picks.
/// `notes` gains what the selectors assumed (an exact name over a glob).
std::vector<Candidate> proposal_candidates(const Profile& profile, const std::vector<Proposal>& proposals,
                                           std::vector<std::string>* notes = nullptr);

/// The proposals stored in the profile, parsed. Throws amdahl::Error naming the proposal.
std::vector<Proposal> profile_proposals(const Profile& profile);

/// Time of the phases any candidate touches, each phase counted once.
double candidate_time(const Profile& profile, const std::vector<Candidate>& candidates);
/// Time of the phases no candidate touches: their own sum, to the last digit (not the total minus
/// candidate_time, which keeps the total's rounding).
double time_outside_candidates(const Profile& profile, const std::vector<Candidate>& candidates);
/// End-to-end speedup T / (T - saved) for a baseline T.
double speedup_from_saving(double baseline, double saved);
/// End-to-end speedup T / T' from the time before and after; infinite when nothing is left.
double speedup_of_times(double baseline, double remaining);

}  // namespace amdahl
