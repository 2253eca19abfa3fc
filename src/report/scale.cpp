// How `amdahl scale` reads for people: speedup and efficiency per N, the law and its ceiling.
#include <fmt/format.h>

#include <cmath>

#include "report/report.hpp"

namespace amdahl {

namespace {

std::string formula(const ScaleResult& r) {
    const bool with = r.overhead.model != Overhead::Model::none;
    if (r.law == ScalingLaw::gustafson) return with ? "S = ((1 - P) + P * N) / (1 + O(N))" : "S = (1 - P) + P * N";
    if (!r.effective.empty()) {
        // --effective: the measured local speedup K stands in for N where it was measured.
        std::string measured;
        for (const auto& [n, k] : r.effective)
            measured += fmt::format("{}N = {}: k = {}", measured.empty() ? "" : ", ", n, shortest(k));
        return "S = 1 / ((1 - P) + P / k), k = N, or K where --effective N=K measured it (" + measured + ")";
    }
    return with ? "S = 1 / ((1 - P) + P / N + O(N))" : "S = 1 / ((1 - P) + P / N)";
}

std::string overhead_text(const Overhead& overhead, const std::string& source) {
    const std::string c = shortest(overhead.coefficient);
    switch (overhead.model) {
        case Overhead::Model::linear:
            return "O(N) = " + c + " * N";
        case Overhead::Model::log:
            return "O(N) = " + c + " * log2 N";
        case Overhead::Model::sqrt:
            return "O(N) = " + c + " * sqrt(N)";
        case Overhead::Model::constant:
            return "O(N) = " + c + " for N > 1";
        case Overhead::Model::measured:
            return fmt::format("measured in {} up to N = {}, linear between the rows (0 at N = 1)", printable(source),
                               overhead.max_n());
        case Overhead::Model::none:
            break;
    }
    return "none";
}

}  // namespace

Document layout(const ScaleResult& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    const bool has_overhead = r.overhead.model != Overhead::Model::none;
    const std::string unit(unit_name(r.unit));
    Document doc;
    doc.command = "scale";
    Table table;
    table.columns = {{"N", "n", true}, {"speedup", "speedup", true}, {"efficiency", "efficiency", true}};
    if (r.baseline_time) table.columns.push_back({"time (" + unit + ")", "time_" + unit, true});
    if (has_overhead) table.columns.push_back({"overhead", "overhead", true});
    if (!r.effective.empty()) table.columns.push_back({"parallel part", "parallel_speedup", true});
    for (const ScaleRow& row : r.rows) {
        std::vector<Cell> cells{Cell(std::to_string(row.n)),
                                Cell(format_speedup(row.speedup, style), machine_number(row.speedup)),
                                Cell(format_share(row.efficiency(), style), shortest(row.efficiency()))};
        if (r.baseline_time) {
            const double time = scaled_time(r.law, *r.baseline_time, row);
            cells.emplace_back(format_time(time, style), shortest(time));
        }
        if (has_overhead) cells.emplace_back(format_time(row.overhead, style), shortest(row.overhead));
        if (!r.effective.empty())
            cells.emplace_back(format_factor(row.parallel_speedup, style) + (row.effective ? " (effective)" : ""),
                               shortest(row.parallel_speedup));
        table.rows.push_back(std::move(cells));
    }
    doc.table = std::move(table);

    auto& s = doc.summary;
    if (r.law == ScalingLaw::amdahl) {
        s.push_back({"law", "Amdahl (strong scaling): a fixed job on N processors; how much sooner does it finish?",
                     "law", "amdahl"});
        s.push_back({"", "(--weak: Gustafson, a job that grows with N; how much more work in the same time?)", "", ""});
    } else {
        s.push_back({"law", "Gustafson (weak scaling): the job grows with N; how much more work in the same time?",
                     "law", "gustafson"});
        s.push_back({"", "(without --weak: Amdahl, a fixed job; how much sooner does it finish?)", "", ""});
    }
    s.push_back({"formula", formula(r), "", ""});
    std::string fraction = format_share(r.parallel_fraction, style) + " (P)";
    if (r.parallel_time)
        fraction = fmt::format("{} (P: {} of {} {} in the phases --parallel picks)",
                               format_share(r.parallel_fraction, style), format_time(*r.parallel_time, style),
                               format_time(*r.profile_time, style), unit_name(r.profile_unit));
    s.push_back({"parallel fraction", fraction, "parallel_fraction", shortest(r.parallel_fraction)});
    if (has_overhead)
        s.push_back({"overhead", overhead_text(r.overhead, r.overhead_source) + " (in units of the one-processor time)",
                     "", ""});
    if (r.baseline_time)
        s.push_back({"baseline", format_time(*r.baseline_time, style) + " " + unit + " on one processor",
                     "baseline_" + unit, shortest(*r.baseline_time)});
    if (r.law == ScalingLaw::gustafson)
        s.push_back({"ceiling", "none: the scaled speedup grows by P for every processor added", "ceiling", "inf"});
    else if (std::isinf(r.ceiling))
        s.push_back({"ceiling", "none (P = 1: nothing is serial)", "ceiling", "inf"});
    else
        s.push_back({"ceiling", format_speedup(r.ceiling, style) + " (1 / (1 - P): no number of processors passes it)",
                     "ceiling", shortest(r.ceiling)});
    if (has_overhead) {
        const std::string at = fmt::format("N = {} gives {}", r.best.n, format_speedup(r.best.speedup, style));
        s.push_back({"best N",
                     r.best.n < r.largest_n
                         ? at + fmt::format(" (of 1 to {}); past it, more processors make the run slower", r.largest_n)
                         : at + " (the largest N asked for): the speedup is still rising there",
                     "best_n", std::to_string(r.best.n)});
    }
    bool first = true;
    for (const auto& [n, k] : r.effective) {
        s.push_back(
            {first ? "effective" : "",
             fmt::format("on {} processors the parallel part runs {} faster, not {}x: {} instead of {}", n,
                         format_factor(k, style), n, format_speedup(strong_speedup(r.parallel_fraction, k), style),
                         format_speedup(strong_speedup(r.parallel_fraction, static_cast<double>(n)), style)),
             "", ""});
        first = false;
    }
    doc.headline = fmt::format("{} at N = {}", format_speedup(r.rows.back().speedup, style), r.rows.back().n);
    return doc;
}

void write_json(std::ostream& out, const ScaleResult& r, const ReportOptions&) {
    JsonWriter json;
    json.begin_object().field("schema_version", 1).field("command", "scale");
    json.field("law", r.law == ScalingLaw::amdahl ? "amdahl" : "gustafson");
    json.field("parallel_fraction", r.parallel_fraction).field("ceiling", r.ceiling);
    json.field("best_n", r.best.n).field("best_speedup", r.best.speedup);
    json.key("overhead");
    if (r.overhead.model != Overhead::Model::none) {
        json.begin_object().field("model", overhead_model_name(r.overhead.model));
        if (r.overhead.model == Overhead::Model::measured)
            json.field("source", r.overhead_source);
        else
            json.field("coefficient", r.overhead.coefficient);
        json.end_object();
    } else {
        json.null();
    }
    if (r.baseline_time)
        json.field("unit", unit_name(r.unit)).field("baseline_time", *r.baseline_time);
    else
        json.key("unit").null().key("baseline_time").null();
    json.key("points").begin_array();
    for (const ScaleRow& row : r.rows) {
        json.begin_object().field("n", row.n).field("speedup", row.speedup).field("efficiency", row.efficiency());
        if (r.baseline_time)
            json.field("time", scaled_time(r.law, *r.baseline_time, row));
        else
            json.key("time").null();
        json.field("overhead", row.overhead).field("parallel_speedup", row.parallel_speedup);
        json.end_object();
    }
    json.end_array().end_object();
    out << json.str();
}

}  // namespace amdahl
