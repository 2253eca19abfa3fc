
#include "cli/candidate_options.hpp"

#include "cli/common.hpp"
#include "cli/fleet_options.hpp"

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "report/numbers.hpp"

namespace amdahl::cli {

void add_candidate_options(CLI::App& command, CandidateOptions& options) {
    command
        .add_option("--only", options.only,
                    "Candidate phases: a name, glob, kind:KIND or * (repeatable; default every phase)")
        ->allow_extra_args(false);
    options.factor_option =
        command
            .add_option("-k,--factor", options.factor,
                        "Local speedup each candidate phase gets: 10, 10x, inf, -30% or a range 8..12")
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
        SpeedupSpec spec = parse_option("--speedup", parse_speedup, text);
        proposals.push_back({spec.text, std::move(spec)});
    }
    if (proposals.empty()) proposals = profile_proposals(profile);
    // --effort-unit weeks or @3w: "1 week", "3 weeks".
    set.effort_unit = effort_unit_of(proposals, options.effort_unit);
    for (std::size_t i = 0; i < proposals.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (proposals[i].name == proposals[j].name)
                throw Error(options.proposals.empty() ? profile.source : "--speedup",
                            "proposal '" + printable(proposals[i].name) + "' is given twice");
    if (!proposals.empty()) {
        if (!options.only.empty())
            throw Error("--only", "choose candidates with --only or with proposals (-s), not both");
        // Proposals carry their own factors: a -k beside them would be silently unused.
        if (options.factor_option && options.factor_option->count() > 0) {
            throw Error("--factor",
                        std::string("applies to the phases --only picks (or every phase); the proposals ") +
                            (options.proposals.empty() ? "in the profile's \"proposals\"" : "given with -s") +
                            " carry their own factors (-s NAME=FACTOR)");
        }
        set.from_proposals = true;
        try {
            set.candidates = proposal_candidates(profile, proposals, &set.notes);
        } catch (const Error& e) {
            throw Error(profile.source, e.message());
        }
        return set;
    }
    // -k 8..12: every candidate's factor lies in the range; its point is the geometric midpoint.
    const auto [factor, range] = parse_option("--factor", parse_ranged_factor, options.factor);
    set.factor = factor.value;
    std::vector<Selector> only;
    for (const auto& text : options.only) only.push_back(parse_option("--only", parse_selector, text));
    try {
        set.candidates = phase_candidates(profile, only, factor, &set.notes);
        for (Candidate& candidate : set.candidates) candidate.factor_range = range;
    } catch (const Error& e) {
        throw Error(profile.source, "--only: " + e.message());
    }
    return set;
}

}  // namespace amdahl::cli
