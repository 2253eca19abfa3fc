#pragma once
// Where ranges and spreads are not carried yet: a factor range is refused (never read as its
// midpoint unseen), and phase times' ranges or spreads get a note that the point is used.
#include <string>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/profile.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl::cli {

/// Throws a usage error (naming the speedup) when one of `specs` is a factor range: `with`
/// ("--mix", "--model replay") does not bound its figures by ranges yet.
void refuse_factor_ranges(const std::vector<SpeedupSpec>& specs, const std::string& with);
/// The same for candidates (rank, plan): proposals or -k.
void refuse_factor_ranges(const std::vector<Candidate>& candidates, const std::string& with);
/// Throws a usage error when a phase of `profile` has a run-to-run range or spread.
void refuse_time_spreads(const Profile& profile, const std::string& with);

}  // namespace amdahl::cli
