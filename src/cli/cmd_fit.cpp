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

namespace amdahl::cli {

namespace {

struct FitOptions {
    std::string path;
    std::string overhead;
    std::vector<std::string> predict;
    std::string format = "table";
    int precision = 4;
};

struct Prediction {
    long long n = 1;
    double speedup = 1;
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

std::string model_formula(Overhead::Model model) {
    switch (model) {
        case Overhead::Model::linear:
            return "1/S = (1 - P) + P / N + c * N";
        case Overhead::Model::log:
            return "1/S = (1 - P) + P / N + c * log2 N";
        case Overhead::Model::sqrt:
            return "1/S = (1 - P) + P / N + c * sqrt(N)";
        case Overhead::Model::constant:
            return "1/S = (1 - P) + P / N + c (N > 1)";
        default:
            return "1/S = (1 - P) + P / N";
    }
}

std::string model_name(Overhead::Model model) {
    return model == Overhead::Model::none ? "amdahl" : "amdahl+" + std::string(overhead_model_name(model));
}

std::string trend_name(SerialTrend trend) {
    switch (trend) {
        case SerialTrend::flat:
            return "flat";
        case SerialTrend::rising:
            return "rising";
        case SerialTrend::falling:
            return "falling";
        case SerialTrend::unknown:
            break;
    }
    return "unknown";
}

std::string e_text(double e) { return fmt::format("{:.4f}", e); }

// `sorted`: the points in order of N.
std::string trend_text(const KarpFlattTrend& t, const std::vector<ScalingPoint>& sorted, bool fitted_overhead) {
    const auto second = std::find_if(sorted.begin(), sorted.end(), [](const auto& p) { return p.n > 1; });
    const std::string range = second == sorted.end() ? ""
                                                     : fmt::format("{} at N = {} to {} at N = {}", e_text(t.first),
                                                                   second->n, e_text(t.last), sorted.back().n);
    switch (t.trend) {
        case SerialTrend::rising:
            return "rises from " + range +
                   ": overhead grows with N (synchronization, communication, stragglers); the serial part alone "
                   "does not explain the scaling" +
                   (fitted_overhead ? "" : " (fit it with --overhead log, linear or sqrt)");
        case SerialTrend::falling:
            return "falls from " + range +
                   ": superlinear effects (the data fits in cache or memory once split) or a slow baseline run";
        case SerialTrend::flat:
            return "flat, " + range + ": the serial part is the limit, as Amdahl's law assumes";
        case SerialTrend::unknown:
            break;
    }
    return "one run with N > 1: no trend to read";
}

int run_fit(const FitOptions& options, Context& context) {
    const Overhead::Model model = parse_model(options.overhead);
    std::vector<long long> predict;
    for (const auto& text : options.predict) {
        try {
            const auto counts = parse_processor_counts(text);
            predict.insert(predict.end(), counts.begin(), counts.end());
        } catch (const Error& e) {
            throw Error("--predict", e.message());
        }
    }
    std::sort(predict.begin(), predict.end());
    predict.erase(std::unique(predict.begin(), predict.end()), predict.end());

    Measurements runs =
        load_measurements(options.path, context.in, {MeasuredQuantity::time, MeasuredQuantity::speedup});
    if (runs.runs.size() < 2)
        throw Error(runs.source, fmt::format("too few runs: a fit needs at least 2 (got {})", runs.runs.size()));
    std::sort(runs.runs.begin(), runs.runs.end(), [](const auto& a, const auto& b) { return a.n < b.n; });
    const std::vector<ScalingPoint> points = measured_speedups(runs);
    ScalingFit fit;
    try {
        fit = fit_scaling(points, model);
    } catch (const Error& e) {
        throw Error(runs.source, e.message());
    }
    const KarpFlattTrend trend = karp_flatt_trend(points);
    const double p = fit.parallel_fraction;
    const double ceiling = p < 1 ? amdahl_ceiling(p) : INFINITY;
    // A fitted overhead that grows makes the speedup peak; find where (over any N amdahl accepts).
    std::optional<BestProcessorCount> best;
    if (model != Overhead::Model::none && fit.coefficient > 0 && p > 0 && p <= 1) {
        const auto found = best_processor_count(ScalingLaw::amdahl, p, fit.overhead(), max_processor_count);
        if (found.n < max_processor_count) best = found;
    }
    const std::optional<double> t1 = baseline_time(runs);
    const std::string unit = runs.unit ? std::string(unit_name(*runs.unit)) : "";
    if (p < 0 || p > 1)
        context.err << fmt::format("note: the fitted P = {} is outside 0..1: these runs do not follow Amdahl's law\n",
                                   shortest(p));
    if (model != Overhead::Model::none && fit.coefficient < 0)
        context.err << fmt::format(
            "note: the fitted overhead coefficient is negative ({}): the runs scale better than "
            "the {} overhead model allows\n",
            shortest(fit.coefficient), overhead_model_name(model));

    const int precision = options.precision;
    const OutputFormat format = output_format(options.format);
    if (format == OutputFormat::json) {
        JsonWriter json;
        json.begin_object().field("schema_version", 1).field("command", "fit");
        json.field("source", runs.source).field("input", runs.quantity == MeasuredQuantity::time ? "time" : "speedup");
        if (runs.unit)
            json.field("unit", unit);
        else
            json.key("unit").null();
        json.field("serial_fraction", 1 - p).field("parallel_fraction", p);
        json.key("karp_flatt").begin_array();
        for (const auto& point : points) {
            if (point.n < 2) continue;
            json.begin_object().field("n", point.n).field("speedup", point.speedup);
            json.field("e", karp_flatt(point.speedup, point.n)).end_object();
        }
        json.end_array();
        json.field("trend", trend_name(trend.trend));
        json.key("fit").begin_object().field("model", model_name(model));
        json.key("parameters").begin_object().field("parallel_fraction", p);
        if (model != Overhead::Model::none) json.field("overhead_coefficient", fit.coefficient);
        json.end_object().field("rmse", fit.rmse).field("runs_used", fit.used).end_object();
        json.key("runs").begin_array();
        for (std::size_t i = 0; i < points.size(); ++i) {
            json.begin_object().field("n", points[i].n);
            if (t1) json.field("time", runs.runs[i].value);
            json.field("speedup", points[i].speedup).field("model_speedup", fit.speedup(points[i].n));
            json.field("residual", points[i].speedup - fit.speedup(points[i].n)).end_object();
        }
        json.end_array();
        json.field("ceiling", ceiling);
        if (best)
            json.field("best_n", best->n).field("best_speedup", best->speedup);
        else
            json.key("best_n").null().key("best_speedup").null();
        json.key("predictions").begin_array();
        for (long long n : predict) {
            const double s = fit.speedup(n);
            json.begin_object().field("n", n).field("speedup", s).field("efficiency", s / static_cast<double>(n));
            if (t1)
                json.field("time", *t1 / s);
            else
                json.key("time").null();
            json.end_object();
        }
        json.end_array().end_object();
        context.out << json.str();
        return exit_ok;
    }

    Table table;
    table.columns = {{"N", "n", true}, {"run", "run"}};
    if (t1)
        table.columns.push_back(
            {unit.empty() ? "time" : "time (" + unit + ")", unit.empty() ? "time" : "time_" + unit, true});
    table.columns.insert(table.columns.end(), {{"speedup", "speedup", true},
                                               {"Karp-Flatt e", "karp_flatt_e", true},
                                               {"model", "model_speedup", true},
                                               {"residual", "residual", true}});
    const Cell none("-", "");
    for (std::size_t i = 0; i < points.size(); ++i) {
        const ScalingPoint& point = points[i];
        const double modelled = fit.speedup(point.n), residual = point.speedup - modelled;
        std::vector<Cell> row{Cell(std::to_string(point.n)), Cell("measured")};
        if (t1) row.emplace_back(format_time(runs.runs[i].value, precision), shortest(runs.runs[i].value));
        row.emplace_back(format_speedup(point.speedup, precision), shortest(point.speedup));
        if (point.n > 1)
            row.emplace_back(e_text(karp_flatt(point.speedup, point.n)), shortest(karp_flatt(point.speedup, point.n)));
        else
            row.push_back(none);
        row.emplace_back(format_speedup(modelled, precision), shortest(modelled));
        // "+0.0000", never "-0.0000", for a residual that rounds to nothing.
        const double shown = std::round(residual * std::pow(10.0, precision)) == 0 ? 0.0 : residual;
        row.emplace_back(fmt::format("{:+.{}f}", shown, precision), shortest(residual));
        table.rows.push_back(std::move(row));
    }
    for (long long n : predict) {
        const double s = fit.speedup(n);
        std::vector<Cell> row{Cell(std::to_string(n)), Cell("predicted")};
        if (t1) row.emplace_back(format_time(*t1 / s, precision), shortest(*t1 / s));
        row.insert(row.end(), {none, none, Cell(format_speedup(s, precision), shortest(s)), none});
        table.rows.push_back(std::move(row));
    }
    context.out << render(table, format);
    if (format != OutputFormat::table) return exit_ok;

    std::vector<std::pair<std::string, std::string>> items;
    items.emplace_back("runs",
                       fmt::format("{} runs, N = {} to {} ({}{})", runs.runs.size(), points.front().n, points.back().n,
                                   t1 ? "times" : "speedups", t1 ? "; N = 1 is the baseline" : ""));
    items.emplace_back("Karp-Flatt e", trend_text(trend, points, model != Overhead::Model::none));
    items.emplace_back(
        "fit", fmt::format("{} (least squares on 1/S over {} runs with N > 1)", model_formula(model), fit.used));
    items.emplace_back("parallel fraction", fmt::format("{:.4f} ({}, P)", p, format_percent(p)));
    items.emplace_back("serial fraction", fmt::format("{:.4f} ({}, 1 - P)", 1 - p, format_percent(1 - p)));
    if (model != Overhead::Model::none)
        items.emplace_back("overhead", fmt::format("c = {:.4g} (in units of the one-processor time)", fit.coefficient));
    items.emplace_back("rmse", fmt::format("{:.{}f} (speedup residuals)", fit.rmse, precision));
    items.emplace_back("ceiling", std::isinf(ceiling)
                                      ? "none (P >= 1)"
                                      : format_speedup(ceiling, precision) + " (1 / (1 - P): the serial part alone)");
    if (best) {
        items.emplace_back("best N", fmt::format("N = {} gives {}; past it, more processors make the run slower",
                                                 best->n, format_speedup(best->speedup, precision)));
    }
    context.out << '\n' << render_summary(items);
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
    add_format_options(*command, options->format, options->precision);
    command->callback([options, &action] { action = [options](Context& c) { return run_fit(*options, c); }; });
}

}  // namespace amdahl::cli
