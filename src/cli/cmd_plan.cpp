// amdahl plan PROFILE --target S: the cheapest set of candidates that reaches a goal.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/plan.hpp"
#include "amdahl/replay.hpp"
#include "cli/candidate_options.hpp"
#include "cli/commands.hpp"
#include "cli/fleet_options.hpp"
#include "cli/mix_options.hpp"
#include "cli/uncertainty_options.hpp"
#include "report/mix.hpp"

namespace amdahl::cli {

namespace {

struct PlanOptions {
    ProfileOptions profile;
    CandidateOptions candidates;
    std::string target, target_time;
    std::string by = "count";
    bool require = false;
    bool explain = false;
    std::string model = "amdahl";
    FleetFlags fleet;
    std::vector<std::string> mix;
    bool names_given = false;  // --names: --mix tables print names whole
};

double parse_target_speedup(const std::string& text) {
    std::string number = text;
    if (!number.empty() && (number.back() == 'x' || number.back() == 'X')) number.pop_back();
    Quantity q;
    bool ok = true;
    try {
        q = parse_quantity(number);
    } catch (const Error&) {
        ok = false;
    }
    if (!ok || q.unit || q.percent || !(q.value > 1))
        throw Error("--target",
                    "must be an end-to-end speedup above 1, such as 2 or 2x (got '" + printable(text) + "')");
    return q.value;
}

double parse_target_time(const std::string& text, const Profile& profile) {
    Quantity q;
    bool ok = true;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        ok = false;
    }
    if (!ok || q.percent || !(q.value > 0))
        throw Error("--target-time", "must be a time > 0 such as 50ms (got '" + printable(text) + "')");
    return q.unit ? convert(q.value, *q.unit, profile.unit) : q.value;
}

// --cost-per-effort weighs the plan's effort, the sum of its steps': any candidate may be a step, so
// each must carry one, as eval's speedups must (else the payback would vanish unsaid).
void require_efforts_for_payback(const Fleet& fleet, const std::vector<Candidate>& candidates) {
    if (!fleet.cost_per_effort) return;
    for (const Candidate& c : candidates)
        if (!c.effort)
            throw Error("--cost-per-effort", "proposal '" + printable(c.name) +
                                                 "' has no effort: the plan's payback needs every step's (write "
                                                 "SELECTOR=FACTOR@EFFORT)");
}

// The plan's effort: the sum of its steps' (`effort_of(step)`), when each has one.
template <class EffortOf>
std::optional<double> plan_effort(const std::vector<std::size_t>& chosen, const EffortOf& effort_of) {
    std::optional<double> effort = 0.0;
    for (std::size_t c : chosen) {
        const std::optional<double>& step = effort_of(c);
        effort = effort && step ? std::optional(*effort + *step) : std::nullopt;
    }
    return effort;
}

// plan --mix: the cheapest set of targets whose weighted fleet speedup reaches --target.
int run_plan_mix(const PlanOptions& options, Context& context) {
    refuse_with_mix(options.model);
    if (options.names_given) throw Error("--names", "does not apply with --mix: its tables print names whole");
    if (!options.target_time.empty())
        throw Error("--target-time", "is one profile's time; with --mix give --target S, the fleet's speedup");
    if (options.target.empty()) throw Error("plan", "give --target S, the fleet speedup to reach");
    MixPlanResult result;
    result.target_speedup = parse_target_speedup(options.target);
    const Workloads loaded = load_workloads(options.mix, options.profile, context, result.notes);
    result.workloads = loaded.workloads;
    CandidateSet set;
    const auto candidates = point_mix_candidates(loaded, options.candidates, set, result.notes, context);
    result.from_proposals = set.from_proposals;
    result.factor = set.factor;
    result.effort_unit = set.effort_unit;
    result.by_effort = options.by == "effort";
    if (result.by_effort) {
        if (!result.from_proposals)
            throw Error("--by", "effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT)");
        for (const auto& workload : candidates)
            for (const Candidate& c : workload)
                if (!c.effort)
                    throw Error("--by effort",
                                "proposal '" + printable(c.name) + "' has no effort (write SELECTOR=FACTOR@EFFORT)");
    }
    std::vector<double> shares;
    for (const MixWorkload& w : result.workloads) shares.push_back(w.time_share);
    result.mix =
        parse_option("--mix", plan_mix, candidates, loaded.pointers(), shares, result.target_speedup, result.by_effort);
    result.required = options.require;
    bool efforts = false;
    for (const auto& workload : candidates)
        for (const Candidate& c : workload) efforts = efforts || c.effort;
    std::vector<std::string> fleet_notes;
    if (const std::optional<Fleet> fleet =
            mix_fleet(options.fleet, result.workloads, result.effort_unit, efforts, fleet_notes)) {
        result.fleet_given = true;
        for (const auto& workload : candidates) require_efforts_for_payback(*fleet, workload);
        const std::optional<double> effort =
            plan_effort(result.mix.plan.chosen, [&](std::size_t c) { return result.mix.targets[c].effort; });
        if (result.mix.plan.reachable)
            result.fleet = fleet_figures(*fleet, speedup_from_saving(1, result.mix.plan.saved), effort);
    }
    print_notes(context, fleet_notes);
    result.notes.insert(result.notes.end(), fleet_notes.begin(), fleet_notes.end());
    const ReportOptions report = report_options(options.profile.output, options.explain);
    emit(context, result, options.profile.output, report);
    context.out.flush();
    if (options.require && !result.mix.plan.reachable) {
        context.err << fmt::format("gate failed: no plan reaches {} for the fleet\n",
                                   format_speedup(result.target_speedup, report.numbers));
        return exit_gate_failed;
    }
    return exit_ok;
}

int run_plan(const PlanOptions& given, Context& context) {
    PlanOptions options = given;
    if (!options.mix.empty()) return run_plan_mix(options, context);
    if (options.target.empty() == options.target_time.empty())
        throw Error("plan", "give exactly one of --target S (an end-to-end speedup) and --target-time T");
    const bool replay = options.model == "replay";
    if (replay && options.explain)
        throw Error("--explain", "shows Amdahl's arithmetic; --model replay has no closed form to show");
    options.profile.import.dependencies = replay;
    const Profile profile = load_profile(options.profile, context);
    PlanReport result;
    result.profile = &profile;
    result.set = build_candidates(profile, options.candidates);
    print_notes(context, result.set.notes);
    const std::vector<Candidate>& candidates = result.set.candidates;
    result.by_effort = options.by == "effort";
    if (result.by_effort) {
        if (!result.set.from_proposals)
            throw Error(
                "--by",
                "effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT or \"proposals\" in the profile)");
        for (const auto& c : candidates)
            if (!c.effort)
                throw Error("--by effort",
                            "proposal '" + printable(c.name) + "' has no effort (write SELECTOR=FACTOR@EFFORT)");
    }
    result.baseline_time = profile.total();
    if (replay) {
        const std::vector<double> ones(profile.phases.size(), 1.0);
        result.baseline_time = replay_phases(profile, ones, false, nullptr, false).before;
    }
    if (!options.target.empty()) {
        result.target_speedup = parse_target_speedup(options.target);
        result.target_time = result.baseline_time / result.target_speedup;
    } else {
        result.target_time = parse_target_time(options.target_time, profile);
        result.target_is_time = true;
        result.target_speedup = result.baseline_time / result.target_time;
    }
    PlanRequest request;
    request.baseline = result.baseline_time;
    request.by_effort = result.by_effort;
    request.target_time = result.target_time;
    if (replay) {
        ReplayedPlan replayed = plan_replayed(profile, result.set.candidates, request);
        result.plan = std::move(replayed.plan);
        result.steps = std::move(replayed.steps);
        result.best_possible = replayed.best_possible;
        result.ceiling = replayed.ceiling;
        result.time_outside = result.baseline_time / replayed.ceiling;
        result.replayed = true;
        result.sets = replayed.sets;
        result.max_replays = replayed.max_replays;
    } else {
        try {
            result.plan = plan(candidates, request);
        } catch (const Error& e) {
            throw Error(profile.source, e.message());
        }
        result.steps = plan_steps(candidates, result.plan.chosen, result.baseline_time);
        result.best_possible = speedup_from_saving(result.baseline_time, result.plan.best_possible_saved);
        result.time_outside = time_outside_candidates(profile, candidates);
        result.ceiling = speedup_of_times(result.baseline_time, result.time_outside);
    }
    if (replay) {
        refuse_factor_ranges(candidates, "--model replay");
        refuse_time_spreads(profile, "--model replay");
    } else {
        // The plan is chosen at the point factors and times; the ranges bound what it reaches.
        result.uncertainty = candidates_uncertainty(profile, candidates, result.plan.chosen);
    }
    result.required = options.require;
    if (const std::optional<Fleet> fleet =
            fleet_option(options.fleet, result.set.effort_unit, any_effort(result.set))) {
        result.fleet_given = true;
        require_efforts_for_payback(*fleet, candidates);
        refuse_factor_ranges(candidates, "--fleet");
        refuse_time_spreads(profile, "--fleet");
        const std::optional<double> effort =
            plan_effort(result.plan.chosen, [&](std::size_t c) { return candidates[c].effort; });
        if (result.plan.reachable)
            result.fleet = fleet_figures(*fleet, speedup_from_saving(result.baseline_time, result.plan.saved), effort);
    }

    const ReportOptions report = report_options(options.profile.output, options.explain);
    emit(context, result, options.profile.output, report);
    context.out.flush();
    if (options.require && !result.gate_passed()) {
        if (result.plan.reachable && result.target_is_time)
            context.err << fmt::format(
                "gate failed: at the ranges' worst end the plan's new time is {} {}, over the "
                "target {} {}\n",
                format_time(result.uncertainty->new_time.high, report.numbers), unit_name(profile.unit),
                format_time(result.target_time, report.numbers), unit_name(profile.unit));
        else if (result.plan.reachable)
            context.err << fmt::format(
                "gate failed: the plan reaches only {} at the low end of the range, short of {}\n",
                format_speedup(result.uncertainty->speedup.low, report.numbers),
                format_speedup(result.target_speedup, report.numbers));
        else
            context.err << fmt::format("gate failed: no plan reaches {}\n",
                                       format_speedup(result.target_speedup, report.numbers));
        return exit_gate_failed;
    }
    return exit_ok;
}

}  // namespace

void setup_plan(CLI::App& app, Action& action) {
    auto options = std::make_shared<PlanOptions>();
    CLI::App* command = app.add_subcommand("plan", "The smallest set of targets that reaches an end-to-end speedup");
    add_profile_options(*command, options->profile);
    add_candidate_options(*command, options->candidates);
    command->add_option("--target", options->target, "End-to-end speedup to reach: 2 or 2x");
    command->add_option("--target-time", options->target_time, "End-to-end time to reach instead: 50ms");
    command->add_option("--by", options->by, "Minimise the number of targets (count, default) or their total effort")
        ->check(CLI::IsMember({"count", "effort"}));
    command->add_flag("--require", options->require, "Exit 1 when no plan reaches the target (a CI gate)");
    command->add_flag("--explain", options->explain, "Show the running arithmetic");
    add_model_options(*command, options->model, options->profile, "try each set of targets together");
    add_fleet_options(*command, options->fleet, true);
    add_mix_option(*command, options->mix);
    command->callback([options, command, &action] {
        check_profile_or_mix(options->profile, options->mix);
        options->names_given = command->count("--names") > 0;
        action = [options](Context& c) { return run_plan(*options, c); };
    });
}

}  // namespace amdahl::cli
