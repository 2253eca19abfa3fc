#pragma once
// --mix PATH=WEIGHT (eval, rank, plan): several profiles, each a share of a fleet's time.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "amdahl/mix.hpp"
#include "cli/candidate_options.hpp"
#include "cli/common.hpp"
#include "cli/fleet_options.hpp"

namespace amdahl::cli {

/// Adds --mix; PROFILE is then optional (check_profile_or_mix says when neither is given).
void add_mix_option(CLI::App& command, std::vector<std::string>& mix);
/// For a command's callback (during parsing): CLI11's "PROFILE is required" when neither is
/// given; an error when both are.
/// The option eval, rank and plan --mix refuse: --model replay (a mix is weighed from each
/// workload's phase table).
void refuse_with_mix(const std::string& model);

void check_profile_or_mix(const ProfileOptions& profile, const std::vector<std::string>& mix);

/// The workloads of --mix, loaded as PROFILE is (the same per-profile options), their notes on
/// stderr named by workload.
struct Workloads {
    std::vector<Profile> profiles;
    std::vector<MixWorkload> workloads;  ///< parallel to profiles, each pointing to its profile
    std::vector<std::string> names() const;
    std::vector<const Profile*> pointers() const;
};
Workloads load_workloads(const std::vector<std::string>& mix, const ProfileOptions& options, Context& context,
                         std::vector<std::string>& notes);

/// --fleet with --mix: the fleet the flags describe (none without --fleet), split among the
/// workloads as their shares of fleet time, with a note on `notes` that says so. Weights in GPUs
/// count the fleet already: --fleet must be their sum. Throws amdahl::Error naming the option.
std::optional<Fleet> mix_fleet(const FleetFlags& flags, const std::vector<MixWorkload>& workloads,
                               const std::string& effort_unit, bool any_effort, std::vector<std::string>& notes);

/// Each workload's candidates for rank --mix: the proposals (-s) on the workloads whose phases
/// they pick, else the phases --only picks (every phase without it) at -k. `set` gets what the
/// candidates are (proposals, factor, effort unit) and the notes.
std::vector<std::vector<Candidate>> mix_candidates(const Workloads& workloads, const CandidateOptions& options,
                                                   CandidateSet& set);
/// mix_candidates for rank --mix and plan --mix, which work on point figures: factor ranges and
/// time spreads are errors; the set's notes join `notes`, all printed on stderr.
std::vector<std::vector<Candidate>> point_mix_candidates(const Workloads& workloads, const CandidateOptions& options,
                                                         CandidateSet& set, std::vector<std::string>& notes,
                                                         Context& context);

}  // namespace amdahl::cli
