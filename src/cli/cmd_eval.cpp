// amdahl eval PROFILE -s SELECTOR=FACTOR ...: the end-to-end effect of proposed local speedups.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/replay.hpp"
#include "cli/commands.hpp"
#include "cli/ranks_options.hpp"

namespace amdahl::cli {

namespace {

struct EvalOptions {
    ProfileOptions profile;
    std::vector<std::string> speedups;
    bool explain = false;
    std::optional<double> require_speedup;
    std::string model = "amdahl";
    bool critical_path = false;
    std::vector<std::string> ranks;
};

int run_eval(const EvalOptions& given, const CLI::App& command, Context& context) {
    EvalOptions options = given;
    if (!options.ranks.empty()) {
        reject_with_ranks(command, {"--model", "--critical-path", "--queue-gap", "--phases", "--names"});
        return run_eval_ranks(options.ranks, options.profile, options.speedups, options.explain,
                              options.require_speedup, context);
    }
    if (options.profile.path.empty()) throw Error("eval", "PROFILE is required (or --ranks FILES, a profile per rank)");
    const bool replay = options.model == "replay";
    if (options.critical_path && !replay) throw Error("--critical-path", "applies to --model replay only");
    options.profile.import.dependencies = replay;
    const Profile profile = load_profile(options.profile, context);
    EvalResult result;
    result.profile = &profile;
    result.speedups.reserve(options.speedups.size());
    for (const auto& text : options.speedups) result.speedups.push_back(parse_option("--speedup", parse_speedup, text));
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
    result.required_speedup = options.require_speedup;
    result.gate_passed = !options.require_speedup || result.speedup() >= *options.require_speedup;

    const ReportOptions report = report_options(options.profile.output, options.explain);
    emit(context, result, options.profile.output, report);
    context.out.flush();
    if (!result.gate_passed) {
        context.err << fmt::format("gate failed: {}speedup {} is below the required {}\n", replay ? "replayed " : "",
                                   format_speedup(result.speedup(), report.numbers),
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
    add_ranks_option(*command, options->ranks);
    command->callback([options, command, &action] {
        action = [options, command](Context& c) { return run_eval(*options, *command, c); };
    });
}

}  // namespace amdahl::cli
