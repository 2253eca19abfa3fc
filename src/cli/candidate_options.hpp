#pragma once
// The candidates rank and plan work on: proposals (-s or the profile's "proposals"), else the
// phases picked by --only at factor -k.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "amdahl/candidate.hpp"
#include "amdahl/results.hpp"

namespace amdahl::cli {

struct CandidateOptions {
    std::vector<std::string> only;
    std::string factor = "10";
    const CLI::Option* factor_option = nullptr;  ///< to tell a -k given from the default
    std::vector<std::string> proposals;
    std::string effort_unit = "effort";
};

void add_candidate_options(CLI::App& command, CandidateOptions& options);

CandidateSet build_candidates(const Profile& profile, const CandidateOptions& options);

}  // namespace amdahl::cli
