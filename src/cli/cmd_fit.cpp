// amdahl fit RUNS: the serial fraction from measured runs of a fixed-size job (Karp-Flatt and a
// least-squares fit of P, optionally with an overhead model), and the speedup it predicts.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/measurements.hpp"
#include "amdahl/scaling.hpp"
#include "cli/commands.hpp"
#include "report/numbers.hpp"

namespace amdahl::cli {

namespace {

struct FitOptions {
    std::string path;
    std::string overhead;
    std::vector<std::string> predict;
    OutputOptions output;
};

Overhead::Model parse_model(const std::string& text) {
    if (text.empty()) return Overhead::Model::none;
    if (text.find(':') != std::string::npos &&
        parse_overhead_model(text.substr(0, text.find(':'))) != Overhead::Model::none)
        throw Error("--overhead", "fit estimates the coefficient: give the model alone, such as --overhead " +
                                      text.substr(0, text.find(':')) + " (got '" + printable(text) + "')");
    const Overhead::Model model = parse_overhead_model(text);
    if (model == Overhead::Model::none)
        throw Error("--overhead",
                    "unknown overhead model '" + printable(text) + "' (expected linear, log, sqrt or const)");
    return model;
}

int run_fit(const FitOptions& options, Context& context) {
    FitResult result;
    result.model = parse_model(options.overhead);
    for (const auto& text : options.predict) {
        const auto counts = parse_option("--predict", parse_processor_counts, text);
        result.predict.insert(result.predict.end(), counts.begin(), counts.end());
    }
    std::sort(result.predict.begin(), result.predict.end());
    result.predict.erase(std::unique(result.predict.begin(), result.predict.end()), result.predict.end());

    Measurements runs =
        load_measurements(options.path, context.in, {MeasuredQuantity::time, MeasuredQuantity::speedup});
    context.inputs.push_back(options.path);
    if (runs.runs.size() < 2)
        throw Error(runs.source, fmt::format("too few runs: a fit needs at least 2 (got {})", runs.runs.size()));
    std::sort(runs.runs.begin(), runs.runs.end(), [](const auto& a, const auto& b) { return a.n < b.n; });
    result.source = runs.source;
    result.notes = runs.notes;
    result.input_is_time = runs.quantity == MeasuredQuantity::time;
    result.unit = runs.unit;
    result.points = measured_speedups(runs);
    for (const auto& run : runs.runs) result.times.push_back(run.value);
    result.baseline_time = baseline_time(runs);
    try {
        result.fit = fit_scaling(result.points, result.model);
    } catch (const Error& e) {
        throw Error(runs.source, e.message());
    }
    result.trend = karp_flatt_trend(result.points);
    const double p = result.fit.parallel_fraction;
    result.ceiling = p < 1 ? amdahl_ceiling(p) : INFINITY;
    // A fitted overhead that grows makes the speedup peak; find where (over any N amdahl accepts).
    if (result.model != Overhead::Model::none && result.fit.coefficient > 0 && p > 0 && p <= 1) {
        const auto found = best_processor_count(ScalingLaw::amdahl, p, result.fit.overhead(), max_processor_count);
        if (found.n < max_processor_count) result.best = found;
    }
    // Speedups are over one processor: the model's S(1) = 1 is assumed, not measured, without that run.
    if (!result.input_is_time &&
        std::none_of(runs.runs.begin(), runs.runs.end(), [](const auto& run) { return run.n == 1; }))
        result.notes.emplace_back(
            "the runs have no N = 1: the speedups are taken as over one processor, and the model assumes S = 1 at "
            "N = 1");
    if (result.trend.trend == SerialTrend::superlinear) {
        std::string above;
        for (const auto& point : result.points)
            if (point.n > 1 && karp_flatt(point.speedup, point.n) < 0)
                above += (above.empty() ? "" : ", ") + std::to_string(point.n);
        result.notes.push_back("the speedup is above N at N = " + above +
                               " (Karp-Flatt e < 0): superlinear scaling, which Amdahl's law cannot produce (it "
                               "allows at most N); the fitted P and ceiling do not describe these runs");
    }
    if (p < 0 || p > 1)
        result.notes.push_back(
            fmt::format("the fitted P = {} is outside 0..1: these runs do not follow Amdahl's law", shortest(p)));
    if (result.model != Overhead::Model::none && result.fit.coefficient < 0)
        result.notes.push_back(fmt::format(
            "the fitted overhead coefficient is negative ({}): the runs scale better than the {} overhead model allows",
            shortest(result.fit.coefficient), overhead_model_name(result.model)));
    print_notes(context, result.notes);
    emit(context, result, options.output, report_options(options.output, false));
    return exit_ok;
}

}  // namespace

void setup_fit(CLI::App& app, Action& action) {
    auto options = std::make_shared<FitOptions>();
    CLI::App* command =
        app.add_subcommand("fit", "The serial fraction from measured runs of a fixed-size job (N,time or N,speedup)");
    command
        ->add_option("RUNS", options->path,
                     "Measured runs: CSV/TSV with n and time (or speedup) columns, or JSON; - for stdin")
        ->required();
    command->add_option("--overhead", options->overhead,
                        "Also fit an overhead coefficient: linear, log, sqrt or const");
    command
        ->add_option("--predict", options->predict, "Processor counts to predict the speedup at: 256,1024 or 128..1024")
        ->allow_extra_args(false);
    add_output_options(*command, options->output);
    command->callback([options, &action] { action = [options](Context& c) { return run_fit(*options, c); }; });
}

}  // namespace amdahl::cli
