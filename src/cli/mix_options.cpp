#include "cli/mix_options.hpp"

#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "amdahl/error.hpp"
#include "cli/fleet_options.hpp"
#include "cli/uncertainty_options.hpp"
#include "report/numbers.hpp"

namespace amdahl::cli {

void add_mix_option(CLI::App& command, std::vector<std::string>& mix) {
    command
        .add_option("--mix", mix,
                    "PATH=WEIGHT: a workload of a fleet instead of PROFILE (repeatable): WEIGHT is its share of fleet "
                    "time (0.7 or 70%), its GPUs (120gpus) or its requests per second (15/s)")
        ->allow_extra_args(false);
    if (CLI::Option* profile = command.get_option_no_throw("PROFILE")) profile->required(false);
}

void refuse_with_mix(const std::string& model) {
    if (model == "replay")
        throw Error("--model replay",
                    "does not apply with --mix: the fleet is weighed from each workload's phase table");
}

std::optional<Fleet> mix_fleet(const FleetFlags& flags, const std::vector<MixWorkload>& workloads,
                               const std::string& effort_unit, bool any_effort, std::vector<std::string>& notes) {
    std::optional<Fleet> fleet = fleet_option(flags, effort_unit, any_effort);
    if (!fleet) return fleet;
    if (workloads.front().weight.kind == MixWeightKind::gpus) {  // one kind in a mix
        double gpus = 0;
        for (const MixWorkload& w : workloads) gpus += w.weight.value;
        if (std::fabs(gpus - fleet->gpus) > 1e-9 * gpus)
            throw Error("--fleet", fmt::format("{} GPUs, but the --mix weights count {} GPUs: give --fleet {} or "
                                               "leave it out",
                                               shortest(fleet->gpus), shortest(gpus), shortest(gpus)));
    }
    notes.push_back(
        fmt::format("--fleet: the {} GPUs split among the workloads as their shares of fleet time, each workload's "
                    "at its own speedup: GPUs freed = {} × Σ w_i (1 - 1/S_i)",
                    shortest(fleet->gpus), shortest(fleet->gpus)));
    return fleet;
}

void check_profile_or_mix(const ProfileOptions& profile, const std::vector<std::string>& mix) {
    if (profile.path.empty() && mix.empty()) throw CLI::RequiredError("PROFILE");
    if (!profile.path.empty() && !mix.empty())
        throw CLI::ValidationError("--mix", "replaces PROFILE: give the profile '" + printable(profile.path) +
                                                "' as --mix " + printable(profile.path) + "=WEIGHT too, or drop --mix");
}

std::vector<std::string> Workloads::names() const {
    std::vector<std::string> out;
    for (const MixWorkload& w : workloads) out.push_back(w.name);
    return out;
}

std::vector<const Profile*> Workloads::pointers() const {
    std::vector<const Profile*> out;
    for (const Profile& p : profiles) out.push_back(&p);
    return out;
}

Workloads load_workloads(const std::vector<std::string>& mix, const ProfileOptions& options, Context& context,
                         std::vector<std::string>& notes) {
    if (!options.import.total.empty())
        throw Error("--total", "is one profile's end-to-end time; with --mix give each workload's in its profile");
    Workloads out;
    out.profiles.reserve(mix.size());
    std::vector<MixWeight> weights;
    for (const std::string& text : mix) {
        // The last '=': paths may hold one.
        const auto eq = text.rfind('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
            throw Error("--mix", "expected PATH=WEIGHT, such as A.json=0.7, B.json=120gpus or C.json=15/s (got '" +
                                     printable(text) + "')");
        MixWorkload workload;
        workload.name = text.substr(0, eq);
        // One file under two spellings (k.json, ./k.json) is one workload given twice too.
        for (const MixWorkload& other : out.workloads)
            if (same_file(other.name, workload.name))
                throw Error("--mix", "workload '" + printable(workload.name) + "' is given twice" +
                                         (other.name == workload.name ? "" : " (as '" + printable(other.name) + "')"));
        workload.weight = parse_option("--mix " + printable(text), parse_mix_weight, text.substr(eq + 1));
        weights.push_back(workload.weight);
        ProfileOptions one = options;
        one.path = workload.name;
        // Each note names its workload: "note: B.json: ...".
        std::ostringstream talk;
        Context quiet{context.in, context.out, talk, context.arguments, {}, context.out_is_terminal};
        out.profiles.push_back(load_profile(one, quiet));
        context.inputs.push_back(workload.name);
        std::vector<std::string> said;
        std::string line;
        for (std::istringstream lines(talk.str()); std::getline(lines, line);)
            said.push_back(workload.name + ": " + (line.starts_with("note: ") ? line.substr(6) : line));
        print_notes(context, said);
        out.workloads.push_back(std::move(workload));
    }
    std::vector<double> request_seconds;
    for (std::size_t i = 0; i < out.profiles.size(); ++i) {
        const Profile& profile = out.profiles[i];
        out.workloads[i].profile = &profile;
        request_seconds.push_back(convert(profile.total(), profile.unit, Unit::s));
        if (weights[i].kind == MixWeightKind::rate && profile.summary_only)
            notes.push_back(out.workloads[i].name +
                            " is a summary: its time per request is the sum of its rows, which may overlap");
    }
    const std::vector<double> shares = parse_option("--mix", fleet_time_shares, weights, request_seconds);
    for (std::size_t i = 0; i < shares.size(); ++i) out.workloads[i].time_share = shares[i];
    return out;
}

std::vector<std::vector<Candidate>> mix_candidates(const Workloads& loaded, const CandidateOptions& options,
                                                   CandidateSet& set) {
    const std::vector<const Profile*> profiles = loaded.pointers();
    const std::vector<std::string> names = loaded.names();
    std::vector<std::vector<Candidate>> out(profiles.size());
    if (options.proposals.empty()) {
        for (std::size_t w = 0; w < profiles.size(); ++w)
            if (!profiles[w]->proposals.empty())
                throw Error(names[w],
                            "has proposals in the profile; with --mix give the proposals with -s (each "
                            "applies to every workload whose phases it picks)");
    }
    std::vector<Proposal> proposals;
    for (const auto& text : options.proposals) {
        SpeedupSpec spec = parse_option("--speedup", parse_speedup, text);
        for (const Proposal& other : proposals)
            if (other.name == spec.text)
                throw Error("--speedup", "proposal '" + printable(spec.text) + "' is given twice");
        proposals.push_back({spec.text, std::move(spec)});
    }
    set.effort_unit = effort_unit_of(proposals, options.effort_unit);
    if (!proposals.empty() && !options.only.empty())
        throw Error("--only", "choose candidates with --only or with proposals (-s), not both");
    std::vector<Selector> selectors;
    for (const Proposal& proposal : proposals) selectors.push_back(proposal.spec.selector);
    for (const auto& text : options.only) selectors.push_back(parse_option("--only", parse_selector, text));
    const auto picked = select_in_workloads(profiles, names, selectors, set.notes);
    if (!proposals.empty()) set.from_proposals = true;
    // Proposals carry their own factors: a -k beside them would be silently unused.
    if (set.from_proposals && options.factor_option && options.factor_option->count() > 0)
        throw Error("--factor",
                    "applies to the phases --only picks (or every phase); the proposals given with -s "
                    "carry their own factors (-s NAME=FACTOR)");
    const auto [factor, range] = parse_option("--factor", parse_ranged_factor, options.factor);
    if (range)
        throw Error("--factor", "'" + printable(options.factor) +
                                    "': a factor range is not supported with --mix yet (give a point factor)");
    set.factor = factor.value;
    for (std::size_t w = 0; w < profiles.size(); ++w) {
        std::vector<std::string> notes;
        try {
            if (set.from_proposals) {
                std::vector<Proposal> here;
                for (std::size_t s : picked[w]) here.push_back(proposals[s]);
                out[w] = proposal_candidates(*profiles[w], here, &notes);
            } else if (selectors.empty() || !picked[w].empty()) {
                std::vector<Selector> only;
                for (std::size_t s : picked[w]) only.push_back(selectors[s]);
                out[w] = phase_candidates(*profiles[w], only, factor, &notes);
            }
        } catch (const Error& e) {
            throw Error(names[w], e.message());
        }
        for (const std::string& note : notes) set.notes.push_back(names[w] + ": " + note);
    }
    return out;
}

std::vector<std::vector<Candidate>> point_mix_candidates(const Workloads& loaded, const CandidateOptions& options,
                                                         CandidateSet& set, std::vector<std::string>& notes,
                                                         Context& context) {
    auto candidates = mix_candidates(loaded, options, set);
    for (const auto& workload : candidates) refuse_factor_ranges(workload, "--mix");
    for (const Profile& workload : loaded.profiles) refuse_time_spreads(workload, "--mix");
    notes.insert(notes.end(), set.notes.begin(), set.notes.end());
    print_notes(context, notes);
    return candidates;
}

}  // namespace amdahl::cli
