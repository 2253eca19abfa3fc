#pragma once
/// \file Time when only sped-up phases ran at once: the overlap sets whose phases are all picked.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/profile.hpp"

namespace amdahl {

/// An overlap set (Profile::overlaps) every one of whose phases is picked: in its time nothing
/// else ran, so it shrinks with them, at the smallest of their factors.
struct CoveredOverlap {
    double time = 0;
    std::vector<std::size_t> phases;  ///< indices into Profile::phases
    std::size_t index = 0;            ///< into Profile::overlaps
};

/// A profile's overlap sets by their phases, made once, for the sets a choice of phases covers.
class OverlapCover {
public:
    explicit OverlapCover(const Profile& profile);

    /// The sets all of whose phases are among `phases` (indices, each at most once). None when the
    /// `overlapped` phase is among them (its whole time is then sped up as a phase), or when the
    /// listed sets add up to more than that phase holds (see note()). Time linear in the phases
    /// given and the sets they are in.
    std::vector<CoveredOverlap> covered(const std::vector<std::size_t>& phases) const;

    /// Why no set is ever covered: the profile's overlaps add up to more than the `overlapped`
    /// phase holds (a hand-written profile that contradicts itself).
    const std::optional<std::string>& note() const { return note_; }

private:
    std::vector<CoveredOverlap> sets_;               // the listed sets whose phases all exist
    std::vector<std::vector<std::size_t>> sets_of_;  // per phase, the sets it is in
    std::optional<std::size_t> overlapped_;          // the `overlapped` phase's index
    std::optional<std::string> note_;
};

/// What a covered overlap assumed, for the output: `time` of the `overlapped` phase ran only
/// `whose` (e.g. "sped-up phases") and shrinks with them.
std::string covered_overlap_note(const Profile& profile, double time, const std::string& whose);

}  // namespace amdahl
