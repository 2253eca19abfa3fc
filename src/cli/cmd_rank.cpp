// amdahl rank PROFILE: which single target is worth it, by saving, saving per effort or ceiling.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/rank.hpp"
#include "amdahl/replay.hpp"
#include "cli/candidate_options.hpp"
#include "cli/commands.hpp"
#include "cli/fleet_options.hpp"
#include "cli/mix_options.hpp"
#include "cli/ranks_options.hpp"
#include "cli/uncertainty_options.hpp"
#include "report/mix.hpp"

namespace amdahl::cli {

namespace {

struct RankOptions {
    ProfileOptions profile;
    CandidateOptions candidates;
    std::string by = "saving";
    std::optional<std::size_t> top;
    std::vector<std::string> grid;
    bool explain = false;
    std::string model = "amdahl";
    FleetFlags fleet;
    std::vector<std::string> mix;
    bool names_given = false;  // --names: --mix tables print names whole
    bool conservative = false;
    bool by_given = false;
    std::vector<std::string> ranks;
};

int run_rank_mix(const RankOptions& options, Context& context) {
    refuse_with_mix(options.model);
    if (options.names_given) throw Error("--names", "does not apply with --mix: its tables print names whole");
    MixRankResult result;
    const Workloads loaded = load_workloads(options.mix, options.profile, context, result.notes);
    result.workloads = loaded.workloads;
    if (options.conservative) throw Error("--conservative", "is not supported with --mix yet");
    CandidateSet set;
    const auto candidates = point_mix_candidates(loaded, options.candidates, set, result.notes, context);
    result.from_proposals = set.from_proposals;
    result.factor = set.factor;
    result.effort_unit = set.effort_unit;
    result.by = options.by == "effort" ? RankBy::effort : options.by == "ceiling" ? RankBy::ceiling : RankBy::saving;
    if (result.by == RankBy::effort && !result.from_proposals)
        throw Error("--by", "effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT)");
    for (const auto& text : options.grid) result.grid.push_back(parse_option("--grid", parse_factor, text).value);
    std::vector<double> totals, shares;
    for (const MixWorkload& w : result.workloads) {
        totals.push_back(w.profile->total());
        shares.push_back(w.time_share);
    }
    result.ranked = parse_option("--by effort", rank_mix, candidates, totals, shares, result.by, result.grid);
    bool efforts = false;
    for (const MixTarget& t : result.ranked) efforts = efforts || t.effort;
    if (options.top && *options.top < result.ranked.size()) result.ranked.resize(*options.top);
    std::vector<std::string> fleet_notes;
    result.fleet = mix_fleet(options.fleet, result.workloads, result.effort_unit, efforts, fleet_notes);
    print_notes(context, fleet_notes);
    result.notes.insert(result.notes.end(), fleet_notes.begin(), fleet_notes.end());
    if (result.fleet)
        for (const MixTarget& t : result.ranked)
            result.fleet_figures.push_back(fleet_figures(*result.fleet, t.fleet.speedup, t.effort));
    emit(context, result, options.profile.output, report_options(options.profile.output, options.explain));
    return exit_ok;
}

// Each target's bounds when a factor is a range or a phase time has a range or spread, and
// --conservative's order: by the speedup's low end.
void add_uncertainty(RankResult& result, const RankOptions& options, bool replay) {
    const Profile& profile = *result.profile;
    if (replay || options.fleet.gpus) {
        const char* with = replay ? "--model replay" : "--fleet";
        refuse_factor_ranges(result.set.candidates, with);
        refuse_time_spreads(profile, with);
    }
    const auto uncertainties = each_candidate_uncertainty(profile, result.set.candidates);
    for (RankedTarget& target : result.ranked)
        if (!uncertainties.empty()) target.uncertainty = uncertainties[target.candidate];
    if (!options.conservative) return;
    if (options.by_given)
        throw Error("--conservative", "orders by each speedup's low end; --by sets another order: give one of them");
    const bool ranges = std::any_of(uncertainties.begin(), uncertainties.end(),
                                    [](const std::optional<Uncertainty>& u) { return u && u->any_range(); });
    if (!ranges)
        throw Error("--conservative",
                    "orders by the low end of each speedup's range, and no factor or phase time here is a range "
                    "(give -k 8..12, -s NAME=8..12, or times such as \"19..23 ms\")");
    result.conservative = true;
    std::stable_sort(result.ranked.begin(), result.ranked.end(), [](const RankedTarget& a, const RankedTarget& b) {
        return a.uncertainty->speedup.low > b.uncertainty->speedup.low;
    });
}

int run_rank(const RankOptions& given, const CLI::App& command, Context& context) {
    RankOptions options = given;
    if (!options.ranks.empty()) {
        reject_with_ranks(command, {"--total", "--model", "--queue-gap", "--by", "--conservative", "--grid",
                                    "--explain", "-k", "-s", "--names", "--effort-unit", "--only", "--mix", "--fleet",
                                    "--hours-per-year", "--cost-per-gpu-hour", "--currency", "--cost-per-effort"});
        return run_rank_ranks(options.ranks, options.profile, options.top, context);
    }
    if (!options.mix.empty()) return run_rank_mix(options, context);
    if (options.profile.path.empty())
        throw Error("rank", "PROFILE is required (or --ranks FILES, a profile per rank, or --mix FILE=WEIGHT)");
    const bool replay = options.model == "replay";
    if (replay && options.explain)
        throw Error("--explain", "shows Amdahl's arithmetic; --model replay has no closed form to show");
    options.profile.import.dependencies = replay;
    const Profile profile = load_profile(options.profile, context);
    RankResult result;
    result.profile = &profile;
    result.set = build_candidates(profile, options.candidates);
    if (!replay)
        if (auto note = overlapped_targets_note(profile, result.set.candidates)) result.set.notes.push_back(*note);
    print_notes(context, result.set.notes);
    result.by = options.by == "effort" ? RankBy::effort : options.by == "ceiling" ? RankBy::ceiling : RankBy::saving;
    if (result.by == RankBy::effort && !result.set.from_proposals)
        throw Error("--by",
                    "effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT or \"proposals\" in the profile)");
    for (const auto& text : options.grid) result.grid.push_back(parse_option("--grid", parse_factor, text).value);
    result.baseline_time = profile.total();
    result.phase_table_time = result.baseline_time;
    std::optional<ReplayedCandidates> replayed;
    if (replay) {
        replayed = replay_candidates(profile, result.set.candidates, result.grid);
        result.baseline_time = replayed->baseline;
        result.replayed = true;
        result.on_critical_path = replayed->on_critical_path;
    }
    result.ranked = parse_option("--by effort", rank_candidates, result.set.candidates, result.baseline_time, result.by,
                                 result.grid);
    if (replayed) {
        for (RankedTarget& target : result.ranked) {
            target.ceiling = replayed->ceiling[target.candidate];
            target.grid = replayed->grid[target.candidate];
        }
        if (result.by == RankBy::ceiling) {
            std::stable_sort(result.ranked.begin(), result.ranked.end(),
                             [](const RankedTarget& a, const RankedTarget& b) { return a.ceiling > b.ceiling; });
        }
    }
    add_uncertainty(result, options, replay);
    if (options.top && *options.top < result.ranked.size()) result.ranked.resize(*options.top);
    result.fleet = fleet_option(options.fleet, result.set.effort_unit, any_effort(result.set));
    if (result.fleet)
        for (const RankedTarget& target : result.ranked)
            result.fleet_figures.push_back(
                fleet_figures(*result.fleet, target.speedup, result.set.candidates[target.candidate].effort));
    emit(context, result, options.profile.output, report_options(options.profile.output, options.explain));
    return exit_ok;
}

}  // namespace

void setup_rank(CLI::App& app, Action& action) {
    auto options = std::make_shared<RankOptions>();
    CLI::App* command = app.add_subcommand("rank", "Rank targets: which phase (or proposal) is worth speeding up");
    add_profile_options(*command, options->profile);
    add_candidate_options(*command, options->candidates);
    command->add_option("--by", options->by, "Order by saving (default), effort (saved per unit of effort) or ceiling")
        ->check(CLI::IsMember({"saving", "effort", "ceiling"}));
    command->add_option("--top", options->top, "Show only the first N")->check(positive_number());
    command
        ->add_option("--grid", options->grid, "Also show each target's end-to-end speedup at these factors: 2,4,8,inf")
        ->delimiter(',')
        ->allow_extra_args(false);
    command->add_flag("--explain", options->explain, "Show the arithmetic behind each row");
    add_model_options(*command, options->model, options->profile, "evaluate each target alone");
    add_fleet_options(*command, options->fleet, true);
    add_mix_option(*command, options->mix);
    add_ranks_option(*command, options->ranks);
    command->add_flag(
        "--conservative", options->conservative,
        "Order by each target's end-to-end speedup at its ranges' low end (needs a factor or time range)");
    command->callback([options, command, &action] {
        if (options->ranks.empty()) check_profile_or_mix(options->profile, options->mix);
        options->names_given = command->count("--names") > 0;
        options->by_given = command->count("--by") > 0;
        action = [options, command](Context& c) { return run_rank(*options, *command, c); };
    });
}

}  // namespace amdahl::cli
