// How `amdahl fit` reads for people: each run against the fitted model, and what the fit says.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/report.hpp"

namespace amdahl {

namespace {

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
        case SerialTrend::superlinear:
            return "superlinear";
        case SerialTrend::unknown:
            break;
    }
    return "unknown";
}

std::string trend_text(const FitResult& r, const NumberStyle& style) {
    const KarpFlattTrend& t = r.trend;
    const auto& sorted = r.points;
    const auto second = std::find_if(sorted.begin(), sorted.end(), [](const auto& p) { return p.n > 1; });
    const std::string range = second == sorted.end()
                                  ? ""
                                  : fmt::format("{} at N = {} to {} at N = {}", format_fixed(t.first, style), second->n,
                                                format_fixed(t.last, style), sorted.back().n);
    switch (t.trend) {
        case SerialTrend::rising:
            return "rises from " + range +
                   ": overhead grows with N (synchronization, communication, stragglers); the serial part alone "
                   "does not explain the scaling" +
                   (r.model != Overhead::Model::none ? "" : " (fit it with --overhead log, linear or sqrt)");
        case SerialTrend::falling:
            return "falls from " + range +
                   ": superlinear effects (the data fits in cache or memory once split) or a slow baseline run";
        case SerialTrend::superlinear:
            return "negative, " + range +
                   ": the speedup is above N (superlinear: the data fits in cache or memory once split), which "
                   "Amdahl's law cannot produce; its P does not describe these runs";
        case SerialTrend::flat:
            return "flat, " + range + ": the serial part is the limit, as Amdahl's law assumes";
        case SerialTrend::unknown:
            break;
    }
    return "one run with N > 1: no trend to read";
}

}  // namespace

Document layout(const FitResult& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    const double p = r.fit.parallel_fraction;
    const std::string unit = r.unit ? std::string(unit_name(*r.unit)) : "";
    Document doc;
    doc.command = "fit";
    Table table;
    table.columns = {{"N", "n", true}, {"run", "run"}};
    if (r.baseline_time)
        table.columns.push_back(
            {unit.empty() ? "time" : "time (" + unit + ")", unit.empty() ? "time" : "time_" + unit, true});
    table.columns.insert(table.columns.end(), {{"speedup", "speedup", true},
                                               {"Karp-Flatt e", "karp_flatt_e", true},
                                               {"model", "model_speedup", true},
                                               {"residual", "residual", true}});
    const Cell none("-", "");
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const ScalingPoint& point = r.points[i];
        const double modelled = r.fit.speedup(point.n), residual = point.speedup - modelled;
        std::vector<Cell> row{Cell(std::to_string(point.n)), Cell("measured")};
        if (r.baseline_time) row.emplace_back(format_time(r.times[i], style), shortest(r.times[i]));
        row.emplace_back(format_speedup(point.speedup, style), shortest(point.speedup));
        if (point.n > 1) {
            const double e = karp_flatt(point.speedup, point.n);
            row.emplace_back(format_fixed(e, style), shortest(e));
        } else {
            row.push_back(none);
        }
        row.emplace_back(format_speedup(modelled, style), shortest(modelled));
        row.emplace_back(format_fixed(residual, style, true), shortest(residual));
        table.rows.push_back(std::move(row));
    }
    for (long long n : r.predict) {
        const double s = r.fit.speedup(n);
        std::vector<Cell> row{Cell(std::to_string(n)), Cell("predicted")};
        if (r.baseline_time) row.emplace_back(format_time(*r.baseline_time / s, style), shortest(*r.baseline_time / s));
        row.insert(row.end(), {none, none, Cell(format_speedup(s, style), shortest(s)), none});
        table.rows.push_back(std::move(row));
    }
    doc.table = std::move(table);

    auto& lines = doc.summary;
    lines.push_back(
        {"runs",
         fmt::format("{}, N = {} to {} ({}{})", count_of(r.points.size(), "run"), r.points.front().n, r.points.back().n,
                     r.baseline_time ? "times" : "speedups", r.baseline_time ? "; N = 1 is the baseline" : ""),
         "runs", std::to_string(r.points.size())});
    lines.push_back({"Karp-Flatt e", trend_text(r, style), "karp_flatt_trend", trend_name(r.trend.trend)});
    lines.push_back({"fit",
                     fmt::format("{} (least squares on 1/S over {} with N > 1)", model_formula(r.model),
                                 count_of(r.fit.used, "run")),
                     "model", model_name(r.model)});
    lines.push_back({"parallel fraction", fmt::format("{} ({}, P)", format_fixed(p, style), format_share(p, style)),
                     "parallel_fraction", shortest(p)});
    lines.push_back({"serial fraction",
                     fmt::format("{} ({}, 1 - P)", format_fixed(1 - p, style), format_share(1 - p, style)),
                     "serial_fraction", shortest(1 - p)});
    if (r.model != Overhead::Model::none)
        lines.push_back(
            {"overhead",
             fmt::format("c = {} (in units of the one-processor time)", format_plain(r.fit.coefficient, style)),
             "overhead_coefficient", shortest(r.fit.coefficient)});
    lines.push_back({"rmse", format_fixed(r.fit.rmse, style) + " (speedup residuals)", "rmse", shortest(r.fit.rmse)});
    lines.push_back({"ceiling",
                     std::isinf(r.ceiling) ? "none (P >= 1)"
                                           : format_speedup(r.ceiling, style) + " (1 / (1 - P): the serial part alone)",
                     "ceiling", machine_number(r.ceiling)});
    if (r.best)
        lines.push_back({"best N",
                         fmt::format("N = {} gives {}; past it, more processors make the run slower", r.best->n,
                                     format_speedup(r.best->speedup, style)),
                         "best_n", std::to_string(r.best->n)});
    doc.headline = fmt::format("P = {} ({}), ceiling {}", format_fixed(p, style), format_share(p, style),
                               format_speedup(r.ceiling, style));
    doc.notes = r.notes;
    return doc;
}

void write_json(std::ostream& out, const FitResult& r, const ReportOptions&) {
    const double p = r.fit.parallel_fraction;
    JsonWriter json;
    json.begin_object().field("schema_version", 1).field("command", "fit");
    json.field("source", r.source).field("input", r.input_is_time ? "time" : "speedup");
    if (r.unit)
        json.field("unit", unit_name(*r.unit));
    else
        json.key("unit").null();
    json.field("serial_fraction", 1 - p).field("parallel_fraction", p);
    json.key("karp_flatt").begin_array();
    for (const ScalingPoint& point : r.points) {
        if (point.n <= 1) continue;
        json.begin_object().field("n", point.n).field("speedup", point.speedup);
        json.field("e", karp_flatt(point.speedup, point.n)).end_object();
    }
    json.end_array();
    json.field("trend", trend_name(r.trend.trend));
    json.key("fit").begin_object().field("model", model_name(r.model));
    json.key("parameters").begin_object().field("parallel_fraction", p);
    if (r.model != Overhead::Model::none) json.field("overhead_coefficient", r.fit.coefficient);
    json.end_object().field("rmse", r.fit.rmse).field("runs_used", r.fit.used).end_object();
    json.key("runs").begin_array();
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        json.begin_object().field("n", r.points[i].n);
        if (r.baseline_time) json.field("time", r.times[i]);
        json.field("speedup", r.points[i].speedup).field("model_speedup", r.fit.speedup(r.points[i].n));
        json.field("residual", r.points[i].speedup - r.fit.speedup(r.points[i].n)).end_object();
    }
    json.end_array();
    json.field("ceiling", r.ceiling);
    if (r.best)
        json.field("best_n", r.best->n).field("best_speedup", r.best->speedup);
    else
        json.key("best_n").null().key("best_speedup").null();
    json.key("predictions").begin_array();
    for (long long n : r.predict) {
        const double s = r.fit.speedup(n);
        json.begin_object().field("n", n).field("speedup", s).field("efficiency", s / static_cast<double>(n));
        if (r.baseline_time)
            json.field("time", *r.baseline_time / s);
        else
            json.key("time").null();
        json.end_object();
    }
    json.end_array().end_object();
    out << json.str();
}

}  // namespace amdahl
