// amdahl eval PROFILE -s SELECTOR=FACTOR ...: the end-to-end effect of proposed local speedups.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/compare.hpp"
#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/replay.hpp"
#include "cli/commands.hpp"
#include "cli/fleet_options.hpp"
#include "cli/mix_options.hpp"
#include "cli/ranks_options.hpp"
#include "cli/uncertainty_options.hpp"
#include "report/mix.hpp"

namespace amdahl::cli {

namespace {

struct EvalOptions {
    ProfileOptions profile;
    std::vector<std::string> speedups;
    bool explain = false;
    std::optional<double> require_speedup;
    std::string model = "amdahl";
    bool critical_path = false;
    FleetFlags fleet;
    std::vector<std::string> mix;
    bool verdict = false;
    bool phases_given = false, names_given = false;  // --phases, --names: rows of phases, which --mix has not
    std::vector<std::string> ranks;
};

int run_eval_mix(const EvalOptions& options, Context& context) {
    refuse_with_mix(options.model);
    if (options.verdict) throw Error("--verdict", "is not supported with --mix yet");
    if (options.phases_given) throw Error("--phases", "does not apply with --mix: its rows are workloads, not phases");
    if (options.names_given) throw Error("--names", "does not apply with --mix: its rows are workloads, not phases");
    MixEvalResult result;
    for (const auto& text : options.speedups) result.speedups.push_back(parse_option("--speedup", parse_speedup, text));
    bool any_effort = false;
    std::vector<const SpeedupSpec*> specs;
    for (const SpeedupSpec& spec : result.speedups) {
        any_effort = any_effort || spec.effort;
        specs.push_back(&spec);
    }
    const Workloads loaded = load_workloads(options.mix, options.profile, context, result.notes);
    result.workloads = loaded.workloads;
    const std::optional<Fleet> fleet =
        mix_fleet(options.fleet, result.workloads, effort_unit_of(specs, options.fleet.effort_unit.value_or("")),
                  any_effort, result.notes);
    refuse_factor_ranges(result.speedups, "--mix");
    for (const Profile& workload : loaded.profiles) refuse_time_spreads(workload, "--mix");
    result.evaluations = evaluate_workloads(loaded.pointers(), loaded.names(), result.speedups, result.notes);
    for (std::size_t w = 0; w < result.workloads.size(); ++w) {
        const std::string& name = result.workloads[w].name;
        const Evaluation& e = result.evaluations[w].evaluation;
        for (const std::string& note : e.notes) result.notes.push_back(name + ": " + note);
        if (!std::isfinite(e.new_time) || !std::isfinite(e.baseline_time))
            throw Error(name, "the result is not a finite number (times too large to add)");
        if (e.overlap_range)
            result.notes.push_back(fmt::format(
                "{}: the sped-up phases also ran alongside others: its speedup lies between {} and {}; the fleet "
                "uses the phase table's {}",
                name, format_speedup(e.overlap_range->low_speedup), format_speedup(e.overlap_range->high_speedup),
                format_speedup(e.speedup)));
    }
    add_fleet_outcomes(result);
    if (fleet) result.worth = fleet_figures(*fleet, result.fleet.speedup, speedups_effort(result.speedups, fleet));
    print_notes(context, result.notes);
    result.required_speedup = options.require_speedup;
    result.gate_passed = !options.require_speedup || meets_threshold(result.fleet.speedup, *options.require_speedup);
    const ReportOptions report = report_options(options.profile.output, options.explain);
    emit(context, result, options.profile.output, report);
    context.out.flush();
    if (!result.gate_passed) {
        context.err << fmt::format("gate failed: fleet speedup {} is below the required {}\n",
                                   format_speedup(result.fleet.speedup, report.numbers),
                                   format_speedup(*options.require_speedup, report.numbers));
        return exit_gate_failed;
    }
    return exit_ok;
}

int run_eval(const EvalOptions& given, const CLI::App& command, Context& context) {
    EvalOptions options = given;
    if (!options.ranks.empty()) {
        reject_with_ranks(command, {"--total", "--model", "--critical-path", "--queue-gap", "--phases", "--names",
                                    "--mix", "--verdict", "--fleet", "--hours-per-year", "--cost-per-gpu-hour",
                                    "--currency", "--cost-per-effort", "--effort-unit"});
        return run_eval_ranks(options.ranks, options.profile, options.speedups, options.explain,
                              options.require_speedup, context);
    }
    if (options.profile.path.empty() && options.mix.empty())
        throw Error("eval", "PROFILE is required (or --ranks FILES, a profile per rank, or --mix FILE=WEIGHT)");
    const bool replay = options.model == "replay";
    if (options.critical_path && !replay) throw Error("--critical-path", "applies to --model replay only");
    if (!options.mix.empty()) return run_eval_mix(options, context);
    // --verdict prints the sentence alone: what else was asked for would be dropped unseen.
    if (options.verdict && options.explain)
        throw Error("--verdict", "prints the sentence alone, without --explain's arithmetic: give one of them");
    if (options.verdict && options.fleet.gpus)
        throw Error("--verdict", "prints the sentence alone, without --fleet's figures: give one of them");
    if (options.verdict && replay)
        throw Error("--verdict", "is built from the phase table's law; --model replay has no such sentence yet");
    if (options.verdict && output_format(options.profile.output.format) == OutputFormat::csv)
        throw Error("--verdict", "is a sentence; --format csv writes rows (use table, md or json)");
    options.profile.import.dependencies = replay;
    EvalResult result;
    for (const auto& text : options.speedups) result.speedups.push_back(parse_option("--speedup", parse_speedup, text));
    bool any_effort = false;
    for (const SpeedupSpec& spec : result.speedups) any_effort = any_effort || spec.effort;
    std::vector<const SpeedupSpec*> specs;
    for (const SpeedupSpec& spec : result.speedups) specs.push_back(&spec);
    const std::optional<Fleet> fleet =
        fleet_option(options.fleet, effort_unit_of(specs, options.fleet.effort_unit.value_or("")), any_effort);
    const std::optional<double> effort = speedups_effort(result.speedups, fleet);
    const Profile profile = load_profile(options.profile, context);
    result.profile = &profile;
    for (const auto& [refused, with] : {std::pair{replay, "--model replay"}, std::pair{fleet.has_value(), "--fleet"}}) {
        if (!refused) continue;
        refuse_factor_ranges(result.speedups, with);
        refuse_time_spreads(profile, with);
    }
    try {
        result.evaluation = evaluate(profile, result.speedups);
    } catch (const Error& e) {
        throw Error(profile.source, e.message());
    }
    const Evaluation& e = result.evaluation;
    print_notes(context, e.notes);
    if (!std::isfinite(e.new_time) || !std::isfinite(e.baseline_time))
        throw Error(profile.source, "the result is not a finite number (times too large to add)");
    if (replay) {
        try {
            result.replay = replay_evaluation(profile, e, options.critical_path);
        } catch (const Error& error) {
            throw Error(profile.source, "--model replay: " + error.message());
        }
    }
    if (fleet) result.fleet = fleet_figures(*fleet, result.speedup(), effort);
    result.required_speedup = options.require_speedup;
    result.gate_passed = !options.require_speedup || meets_threshold(result.gate_speedup(), *options.require_speedup);

    ReportOptions report = report_options(options.profile.output, options.explain);
    report.verdict = options.verdict;
    emit(context, result, options.profile.output, report);
    context.out.flush();
    if (!result.gate_passed) {
        context.err << fmt::format("gate failed: {}speedup {}{} is below the required {}\n", replay ? "replayed " : "",
                                   format_speedup(result.gate_speedup(), report.numbers),
                                   result.gate_at_low_end() ? " at the low end of the range" : "",
                                   format_speedup(*options.require_speedup, report.numbers));
        return exit_gate_failed;
    }
    return exit_ok;
}

}  // namespace

void setup_eval(CLI::App& app, Action& action) {
    auto options = std::make_shared<EvalOptions>();
    CLI::App* command = app.add_subcommand("eval", "End-to-end effect of proposed local speedups on a profile");
    add_profile_options(*command, options->profile, true);
    command
        ->add_option("-s,--speedup", options->speedups,
                     "SELECTOR=FACTOR: a phase name, glob (gemm_*), kind:KIND or *; factor 10, 10x, inf or -30%")
        ->allow_extra_args(false);
    command->add_flag("--explain", options->explain, "Show the arithmetic line by line");
    add_model_options(*command, options->model, options->profile, "evaluate the speedups");
    command->add_flag("--critical-path", options->critical_path,
                      "With --model replay: what the recorded and the replayed step spend their critical path on");
    command
        ->add_option("--require-speedup", options->require_speedup,
                     "Exit 1 when the end-to-end speedup is below this (a CI gate)")
        ->check(positive_number());
    add_fleet_options(*command, options->fleet, true, true);
    add_mix_option(*command, options->mix);
    command->add_flag(
        "--verdict", options->verdict,
        "Print only the one-sentence verdict (what it buys, its ceiling, where the time is); JSON adds it");
    add_ranks_option(*command, options->ranks);
    command->callback([options, command, &action] {
        if (options->ranks.empty()) check_profile_or_mix(options->profile, options->mix);
        options->phases_given = command->count("--phases") > 0;
        options->names_given = command->count("--names") > 0;
        action = [options, command](Context& c) { return run_eval(*options, *command, c); };
    });
}

}  // namespace amdahl::cli
