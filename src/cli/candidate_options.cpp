
#include "cli/candidate_options.hpp"

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"

namespace amdahl::cli {

void add_candidate_options(CLI::App& command, CandidateOptions& options) {
    command
        .add_option("--only", options.only,
                    "Candidate phases: a name, glob, kind:KIND or * (repeatable; default every phase)")
        ->allow_extra_args(false);
    command.add_option("-k,--factor", options.factor, "Local speedup each candidate phase gets: 10, 10x, inf or -30%")
        ->default_str("10");
    command
        .add_option("-s,--speedup", options.proposals,
                    "A proposal SELECTOR=FACTOR[@EFFORT] (repeatable); replaces the profile's \"proposals\"")
        ->allow_extra_args(false);
    command.add_option("--effort-unit", options.effort_unit, "What effort is counted in, e.g. engineer-weeks")
        ->default_str("effort");
}

CandidateSet build_candidates(const Profile& profile, const CandidateOptions& options) {
    CandidateSet set;
    std::vector<Proposal> proposals;
    for (const auto& text : options.proposals) {
        try {
            SpeedupSpec spec = parse_speedup(text);
            proposals.push_back({spec.text, std::move(spec)});
        } catch (const Error& e) {
            throw Error("--speedup", e.message());
        }
    }
    if (proposals.empty()) proposals = profile_proposals(profile);
    if (!proposals.empty()) {
        if (!options.only.empty())
            throw Error("--only", "choose candidates with --only or with proposals (-s), not both");
        set.from_proposals = true;
        try {
            set.candidates = proposal_candidates(profile, proposals);
        } catch (const Error& e) {
            throw Error(profile.source, e.message());
        }
        return set;
    }
    Factor factor;
    try {
        factor = parse_factor(options.factor);
    } catch (const Error& e) {
        throw Error("--factor", e.message());
    }
    set.factor = factor.value;
    std::vector<Selector> only;
    for (const auto& text : options.only) {
        try {
            only.push_back(parse_selector(text));
        } catch (const Error& e) {
            throw Error("--only", e.message());
        }
    }
    try {
        set.candidates = phase_candidates(profile, only, factor);
    } catch (const Error& e) {
        throw Error(profile.source, "--only: " + e.message());
    }
    return set;
}

double candidate_time(const Profile& profile, const std::vector<Candidate>& candidates) {
    std::vector<bool> touched(profile.phases.size(), false);
    for (const auto& c : candidates)
        for (std::size_t p : c.phases) touched[p] = true;
    Summation time;
    for (std::size_t i = 0; i < touched.size(); ++i)
        if (touched[i]) time.add(profile.phases[i].time);
    return time.value();
}

}  // namespace amdahl::cli
