// The reports of `amdahl compare` on benchmark harnesses' results: one row per benchmark, no total.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "model/quoted_name.hpp"
#include "report/compare.hpp"
#include "report/numbers.hpp"
#include "report/report.hpp"

namespace amdahl {

namespace {

// "ms" for times; "items/s" for a throughput.
std::string value_unit(const BenchmarkComparison& c, Unit unit) {
    if (!c.higher_is_better) return std::string(unit_name(unit));
    if (c.metric == "items_per_second") return "items/s";
    if (c.metric == "bytes_per_second") return "bytes/s";
    return "ops/s";
}

// A time as tables print times; a throughput in four significant digits with an SI prefix
// (67.00 G bytes/s reads, 67,000,411,621.3262 does not).
std::string value_text(const BenchmarkComparison& c, double value, const NumberStyle& style) {
    if (!c.higher_is_better) return format_time(value, style);
    constexpr std::pair<double, const char*> prefixes[] = {{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}};
    for (const auto& [scale, prefix] : prefixes)
        if (std::fabs(value) >= scale) return fmt::format("{:.4g}{}", value / scale, prefix);
    return fmt::format("{:.4g}", value);
}

// Whether a benchmark ran on both sides, so that its change, bounds and speedup compare something.
bool on_both_sides(const BenchmarkChange& row) {
    return row.status != PhaseStatus::added && row.status != PhaseStatus::removed;
}

bool any_intervals(const BenchmarkComparison& c) {
    return std::any_of(c.rows.begin(), c.rows.end(),
                       [](const BenchmarkChange& row) { return row.shift.confidence > 0; });
}

// What the gates' one-sided bounds cover: 95% where the runs allow; the benchmarks whose runs give
// less are named (the first three), with their coverage, so no bound claims more than it has.
std::string bounds_text(const BenchmarkComparison& c, const NumberStyle& style) {
    std::string out = "gates check one-sided 95% bounds";
    std::vector<std::string> short_of;
    std::size_t more = 0;
    for (const BenchmarkChange& row : c.rows) {
        if (!on_both_sides(row)) continue;
        if (row.shift.bound_confidence >= 0.95 - 1e-12) continue;
        if (short_of.size() == 3) {
            ++more;
            continue;
        }
        const std::string runs =
            c.paired ? count_of(row.shift.runs_before, "pair")
                     : fmt::format("{} and {}", row.shift.runs_before, count_of(row.shift.runs_after, "run"));
        short_of.push_back(
            row.shift.bound_confidence > 0
                ? fmt::format("{} {} ({})", printable(quoted_name(row.name)),
                              format_share(row.shift.bound_confidence, style), runs)
                : fmt::format("{} none ({}: the change itself)", printable(quoted_name(row.name)), runs));
    }
    if (short_of.empty()) return out;
    out += " where the runs allow; fewer give less: ";
    for (std::size_t k = 0; k < short_of.size(); ++k) out += (k ? ", " : "") + short_of[k];
    if (more > 0) out += fmt::format(" and {} more", format_count(more));
    return out;
}

std::string row_name(const BenchmarkChange& row) {
    if (!row.before_name.empty() && row.before_name != row.name)
        return printable(row.before_name) + " \xe2\x86\x92 " + printable(row.name);  // →
    return printable(row.name);
}

std::string headline(const BenchmarkComparison& c) {
    std::size_t better = 0, worse = 0, unclear = 0;
    for (const BenchmarkChange& row : c.rows) {
        better += row.status == PhaseStatus::faster ? 1 : 0;
        worse += row.status == PhaseStatus::slower ? 1 : 0;
        unclear += row.status == PhaseStatus::noise ? 1 : 0;
    }
    const char* worse_word = c.higher_is_better ? "lower" : "slower";
    const char* better_word = c.higher_is_better ? "higher" : "faster";
    return fmt::format("{} benchmark{}: {} {}, {} {}, {} no clear change", c.rows.size(), c.rows.size() == 1 ? "" : "s",
                       better, better_word, worse, worse_word, unclear);
}

}  // namespace

Document layout(const BenchmarkCompareReport& report, const ReportOptions& options) {
    const BenchmarkComparison& c = report.comparison;
    const NumberStyle& p = options.numbers;
    Document doc;
    doc.command = "compare";
    doc.headline = headline(c);
    const bool intervals = any_intervals(c);
    Table table;
    table.columns = {{"benchmark", "name", false, true},
                     {"status", "status"},
                     {"unit", "unit"},
                     {"before", "before", true},
                     {"after", "after", true},
                     {c.higher_is_better ? "throughput change" : "change", "regression_pct", true},
                     {"speedup", "speedup", true}};
    if (intervals) table.columns.push_back({"interval", "interval", true});
    Table csv;
    for (const char* key : {"name", "before_name", "status", "unit"}) csv.columns.push_back({key, key});
    for (const char* key :
         {"before", "after", "before_runs", "after_runs", "change", "worse_pct", "worse_low_pct", "worse_high_pct",
          "worse_bound_pct", "speedup", "speedup_low", "speedup_high", "speedup_bound"})
        csv.columns.push_back({"", key});
    for (const BenchmarkChange& row : c.rows) {
        const bool both = on_both_sides(row);
        // A CSV cell of a figure that compares the sides: empty for a benchmark on one side only.
        const auto compared = [&](double value) { return Cell(both ? machine_number(value) : std::string()); };
        // A throughput's change is shown as it moved (+ is more); a time's too (+ is slower).
        const double shown = c.higher_is_better ? -row.regression : row.regression;
        std::vector<Cell> cells{Cell(row_name(row)),
                                Cell(status_name(row.status)),
                                Cell(value_unit(c, row.unit)),
                                Cell(row.status == PhaseStatus::added ? "-" : value_text(c, row.before.median, p)),
                                Cell(row.status == PhaseStatus::removed ? "-" : value_text(c, row.after.median, p)),
                                Cell(both ? format_signed_share(shown, p) : "-"),
                                Cell(both ? format_speedup(row.speedup, p) : "-")};
        if (intervals) {
            const double low = c.higher_is_better ? -row.regression_high : row.regression_low;
            const double high = c.higher_is_better ? -row.regression_low : row.regression_high;
            cells.push_back(Cell(both && row.shift.confidence > 0
                                     ? format_signed_share(low, p) + " .. " + format_signed_share(high, p)
                                     : "-"));
        }
        table.rows.push_back(std::move(cells));
        csv.rows.push_back({Cell(row.name), Cell(row.before_name), Cell(std::string(status_name(row.status))),
                            Cell(value_unit(c, row.unit)), Cell(machine_number(row.before.median)),
                            Cell(machine_number(row.after.median)), Cell(std::to_string(row.before.runs)),
                            Cell(std::to_string(row.after.runs)), compared(row.change), compared(row.regression * 100),
                            compared(row.regression_low * 100), compared(row.regression_high * 100),
                            compared(row.regression_bound * 100), compared(row.speedup), compared(row.speedup_low),
                            compared(row.speedup_high), compared(row.speedup_bound)});
    }
    // A pull-request comment: the `top` benchmarks that moved most first, the rest collapsed, the
    // whole under GitHub's limit (see the phase comparison's).
    if (report.top > 0) {
        std::vector<std::size_t> order(c.rows.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        const auto moved = [&](std::size_t i) {
            const double worse = std::fabs(c.rows[i].regression);
            return std::isnan(worse) ? 0.0 : worse;
        };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return moved(a) > moved(b); });
        const std::size_t shown = std::min(report.top, order.size());
        Table top{table.columns, {}, 0, {}};
        for (std::size_t i = 0; i < shown; ++i) top.rows.push_back(table.rows[order[i]]);
        doc.markdown_table = std::move(top);
        if (shown < order.size()) {
            Table rest{table.columns, {}, 0, {}};
            for (std::size_t i = shown; i < order.size(); ++i) rest.rows.push_back(table.rows[order[i]]);
            doc.details_table = std::move(rest);
            const std::size_t more = order.size() - shown;
            doc.details_summary =
                fmt::format("{} more {}, smaller changes", more, more == 1 ? "benchmark" : "benchmarks");
        }
    }
    doc.max_chars = 65000;  // under GitHub's 65,536-character comment limit
    doc.table = std::move(table);
    doc.csv_table = std::move(csv);
    const auto side = [](const std::string& label, const std::vector<std::string>& sources) {
        std::string text = (label.empty() ? "" : printable(label) + ": ") + std::to_string(sources.size()) +
                           (sources.size() == 1 ? " file (" : " files (") + printable(sources.front());
        return text + (sources.size() > 1 ? ", ...)" : ")");
    };
    doc.summary.push_back(
        {"harness",
         std::string(harness_name(c.harness)) + ", " +
             (c.higher_is_better ? c.metric + " (higher is better)" : std::string("time (lower is better)")),
         "harness", harness_name(c.harness)});
    doc.summary.push_back({"before", side(report.label_before, report.before_sources), "", ""});
    doc.summary.push_back({"after", side(report.label_after, report.after_sources), "", ""});
    doc.summary.push_back({"model",
                           "each benchmark on its own: an alternative, not a phase of one job (no end-to-end total; "
                           "--sum adds them up as steps of one job)",
                           "", ""});
    if (intervals)
        doc.summary.push_back(
            {"interval",
             std::string(c.paired ? "Hodges-Lehmann estimate of the pairs' differences with its Wilcoxon signed-rank "
                                    "interval"
                                  : "Hodges-Lehmann shift with its Mann-Whitney interval") +
                 ", per benchmark; " + bounds_text(c, p),
             "", ""});
    else if (std::none_of(c.rows.begin(), c.rows.end(), on_both_sides))
        doc.summary.push_back({"interval", "none: no benchmark is on both sides, so nothing is compared", "", ""});
    else
        doc.summary.push_back({"interval", no_interval_text(), "", ""});
    for (const GateResult& gate : report.gates)
        doc.gates.push_back({gate.passed, gate.gate, gate.detail, gate.skipped});
    if (!report.gates.empty()) doc.verdict = gates_summary(report.gates);
    doc.notes = report.notes;
    doc.marker = "<!-- amdahl-compare -->";
    return doc;
}

void write_json(std::ostream& out, const BenchmarkCompareReport& report, const ReportOptions&) {
    const BenchmarkComparison& c = report.comparison;
    JsonWriter json;
    json.begin_object().field("schema_version", 1).field("command", "compare").field("mode", "benchmarks");
    write_run_json(json, report.version, report.arguments, report.label_before, report.label_after);
    json.field("harness", harness_name(c.harness)).field("metric", c.metric);
    json.field("higher_is_better", c.higher_is_better);
    json.field("interval_method", !any_intervals(c) ? "none" : c.paired ? "paired-hodges-lehmann" : "hodges-lehmann");
    json.key("before_sources").begin_array();
    for (const auto& s : report.before_sources) json.value(s);
    json.end_array().key("after_sources").begin_array();
    for (const auto& s : report.after_sources) json.value(s);
    json.end_array();
    json.field("noise", c.noise);
    json.key("benchmarks").begin_array();
    for (const BenchmarkChange& row : c.rows) {
        json.begin_object().field("name", row.name);
        if (row.before_name.empty())
            json.key("before_name").null();
        else
            json.field("before_name", row.before_name);
        json.field("status", status_name(row.status)).field("unit", value_unit(c, row.unit));
        json.field("before", row.before.median).field("after", row.after.median);
        json.field("before_runs", row.before.runs).field("after_runs", row.after.runs);
        json.field("before_low", row.before.low).field("before_high", row.before.high);
        json.field("after_low", row.after.low).field("after_high", row.after.high);
        // A benchmark on one side only is compared with nothing: no change, bound or speedup.
        const bool both = on_both_sides(row);
        const auto compared = [&](double value) { return both ? std::optional<double>(value) : std::nullopt; };
        json.field("change", compared(row.change));
        json.field("change_low", compared(row.shift.low)).field("change_high", compared(row.shift.high));
        json.field("change_bound_low", compared(row.shift.bound_low));
        json.field("change_bound_high", compared(row.shift.bound_high));
        json.field("interval_confidence", row.shift.confidence).field("bound_confidence", row.shift.bound_confidence);
        json.field("worse_fraction", compared(row.regression));
        if (both)
            json.key("worse_interval").begin_array().value(row.regression_low).value(row.regression_high).end_array();
        else
            json.key("worse_interval").null();
        json.field("worse_bound", compared(row.regression_bound));
        json.field("speedup", compared(row.speedup)).field("speedup_low", compared(row.speedup_low));
        json.field("speedup_high", compared(row.speedup_high)).field("speedup_bound", compared(row.speedup_bound));
        json.end_object();
    }
    json.end_array();
    write_verdict_json(json, report.gates, report.notes);
    out << json.str();
}

}  // namespace amdahl
