#include "report/compare.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cli/common.hpp"

namespace amdahl::cli {

namespace {

bool several_runs(const Comparison& c) { return c.before_total.runs > 1 || c.after_total.runs > 1; }

// Phases have intervals only when a side is several profiles (a "runs" array times the total only).
bool phase_intervals(const Comparison& c) {
    for (const PhaseChange& row : c.phases)
        if (row.before.runs > 1 || row.after.runs > 1) return true;
    return false;
}

std::string unit_of(const Comparison& c) { return std::string(unit_name(c.unit)); }

// "+0.6", "-16.0", "0.0": a change reads with its sign.
std::string signed_time(double value, int precision) {
    std::string text = format_time(value, precision);
    if (value > 0 && text != "0.0") text = "+" + text;
    return text;
}

// "+10.0%", "-76.2%", "0.0%"; "new" for a phase that took no time before; "-" when undefined.
std::string signed_percent(double fraction) {
    if (std::isnan(fraction)) return "-";
    if (std::isinf(fraction)) return fraction > 0 ? "new" : "-";
    const double percent = fraction * 100;
    if (std::fabs(percent) < 0.05) return "0.0%";
    return fmt::format("{:+.1f}%", percent);
}

std::string percent_of(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

std::string local_speedup_text(double k, int precision) {
    if (std::isnan(k) || k == 0) return "-";  // undefined, or a phase that took no time before
    return format_speedup(k, precision);
}

std::string machine(double value) {
    if (std::isnan(value)) return "";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return shortest(value);
}

std::string display_name(const PhaseChange& row) {
    if (!row.before_name.empty() && row.before_name != row.name)
        return printable(row.before_name) + " \xe2\x86\x92 " + printable(row.name);  // →
    return printable(row.name);
}

std::string result_text(const Comparison& c) {
    if (c.result == PhaseStatus::noise) {
        if (std::fabs(c.change) < c.noise * c.before_total.median)
            return "no clear change: within --noise " + shortest(c.noise * 100) + "%";
        return "no clear change: the interval includes no change";
    }
    return status_name(c.result);
}

std::string interval_text(double low, double high, int precision) {
    return signed_time(low, precision) + " .. " + signed_time(high, precision);
}

// The phase table people read (text and Markdown): the total row closes it.
Table human_table(const CompareReport& report) {
    const Comparison& c = report.comparison;
    const int p = report.precision;
    const std::string unit = unit_of(c);
    const bool intervals = phase_intervals(c);
    Table table;
    table.columns = {{"phase", "name"},
                     {"status", "status"},
                     {"before (" + unit + ")", "before", true},
                     {"after (" + unit + ")", "after", true},
                     {"change (" + unit + ")", "change", true},
                     {"% of phase", "change_pct_of_phase", true},
                     {"local speedup", "local_speedup", true},
                     {"% of total", "contribution_pct_of_total", true}};
    if (intervals) table.columns.push_back({"change interval (" + unit + ")", "change_interval", true});
    for (const PhaseChange& row : c.phases) {
        std::vector<Cell> cells{Cell(display_name(row)),
                                Cell(status_name(row.status)),
                                Cell(row.status == PhaseStatus::added ? "-" : format_time(row.before.median, p)),
                                Cell(row.status == PhaseStatus::removed ? "-" : format_time(row.after.median, p)),
                                Cell(signed_time(row.change, p)),
                                Cell(signed_percent(row.change_of_phase)),
                                Cell(local_speedup_text(row.local_speedup, p)),
                                Cell(signed_percent(row.contribution_of_total))};
        if (intervals) cells.push_back(Cell(interval_text(row.change_low, row.change_high, p)));
        table.rows.push_back(std::move(cells));
    }
    std::vector<Cell> total{Cell("total"),
                            Cell(status_name(c.result)),
                            Cell(format_time(c.before_total.median, p)),
                            Cell(format_time(c.after_total.median, p)),
                            Cell(signed_time(c.change, p)),
                            Cell(signed_percent(c.change_of_total)),
                            Cell(format_speedup(c.speedup, p)),
                            Cell(signed_percent(c.change_of_total))};
    if (intervals) total.push_back(Cell(interval_text(c.change_low, c.change_high, p)));
    table.rows.push_back(std::move(total));
    return table;
}

std::string sources_text(const std::vector<std::string>& sources) {
    if (sources.size() == 1) return printable(sources.front());
    std::string text = std::to_string(sources.size()) + " files: ";
    for (std::size_t i = 0; i < sources.size() && i < 3; ++i) text += (i > 0 ? ", " : "") + printable(sources[i]);
    if (sources.size() > 3) text += ", ...";
    return text;
}

std::string side_text(const Spread& total, const std::vector<std::string>& sources, const std::string& unit, int p) {
    std::string text = format_time(total.median, p) + " " + unit;
    if (total.runs <= 1) return text + " (" + sources_text(sources) + ")";
    return text + fmt::format(", median of {} runs ({}); interval {} .. {}, {} confidence for the median", total.runs,
                              sources_text(sources), format_time(total.low, p), format_time(total.high, p),
                              percent_of(total.confidence));
}

std::string prediction_text(const Comparison& c, int p) {
    std::string text = format_speedup(c.predicted_speedup, p) +
                       " by Amdahl's law from the local speedups, 1 / (f_0 + \xce\xa3 f_i / k_i): ";  // Σ
    if (c.consistent) return text + "consistent with the totals";
    return text + "INCONSISTENT with the measured " + format_speedup(c.speedup, p) +
           " (the time outside the phases changed: see the row '" + outside_phases_row + "')";
}

std::vector<std::pair<std::string, std::string>> summary_items(const CompareReport& report) {
    const Comparison& c = report.comparison;
    const int p = report.precision;
    const std::string unit = unit_of(c);
    std::vector<std::pair<std::string, std::string>> items;
    items.emplace_back("before", side_text(c.before_total, report.before_sources, unit, p));
    items.emplace_back("after", side_text(c.after_total, report.after_sources, unit, p));
    std::string change = signed_time(c.change, p) + " " + unit + " (" + signed_percent(c.change_of_total) +
                         " of the before total; the phases' changes add up to it)";
    std::string speedup = format_speedup(c.speedup, p) + " end to end (before / after)";
    if (several_runs(c)) {
        change += fmt::format(", interval {} {} (confidence at least {})",
                              interval_text(c.change_low, c.change_high, p), unit, percent_of(c.confidence));
        speedup += ", interval " + format_speedup(c.speedup_low, p) + " .. " + format_speedup(c.speedup_high, p);
    }
    items.emplace_back("change", change);
    items.emplace_back("speedup", speedup);
    items.emplace_back("result", result_text(c));
    items.emplace_back("predicted", prediction_text(c, p));
    return items;
}

}  // namespace

std::string gates_summary(const std::vector<GateResult>& gates) {
    std::size_t failed = 0;
    for (const GateResult& gate : gates) failed += gate.passed ? 0 : 1;
    if (gates.size() == 1) return failed == 0 ? "the gate passed" : "the gate failed";
    if (failed == 0) return fmt::format("all {} gates passed", gates.size());
    return fmt::format("{} of {} gates failed", failed, gates.size());
}

std::string compare_text(const CompareReport& report) {
    std::string out = render_text(human_table(report)) + "\n" + render_summary(summary_items(report));
    if (!report.gates.empty()) {
        out += "\ngates:\n";
        for (const GateResult& gate : report.gates)
            out += (gate.passed ? "  pass  " : "  FAIL  ") + printable(gate.gate) + ": " + gate.detail + "\n";
    }
    return out;
}

std::string compare_csv(const CompareReport& report) {
    const Comparison& c = report.comparison;
    const std::string unit = unit_of(c);
    Table table;
    for (const char* key : {"name", "before_name", "kind", "status"}) table.columns.push_back({key, key});
    for (const char* key : {"before_", "after_", "change_"}) table.columns.push_back({"", key + unit});
    for (const char* key : {"change_pct_of_phase", "local_speedup"}) table.columns.push_back({"", key});
    table.columns.push_back({"", "contribution_" + unit});
    table.columns.push_back({"", "contribution_pct_of_total"});
    for (const char* key : {"before_low_", "before_high_", "after_low_", "after_high_", "change_low_", "change_high_"})
        table.columns.push_back({"", key + unit});
    for (const PhaseChange& row : c.phases) {
        table.rows.push_back(
            {Cell(row.name), Cell(row.before_name), Cell(row.kind), Cell(status_name(row.status)),
             Cell(machine(row.before.median)), Cell(machine(row.after.median)), Cell(machine(row.change)),
             Cell(machine(row.change_of_phase * 100)), Cell(machine(row.local_speedup)), Cell(machine(row.change)),
             Cell(machine(row.contribution_of_total * 100)), Cell(machine(row.before.low)),
             Cell(machine(row.before.high)), Cell(machine(row.after.low)), Cell(machine(row.after.high)),
             Cell(machine(row.change_low)), Cell(machine(row.change_high))});
    }
    return render_csv(table);
}

std::string compare_markdown(const CompareReport& report) {
    const Comparison& c = report.comparison;
    const int p = report.precision;
    const std::string unit = unit_of(c);
    std::string heading;
    if (c.result == PhaseStatus::faster)
        heading = format_speedup(c.speedup, p) + " faster end to end";
    else if (c.result == PhaseStatus::slower)
        heading = signed_percent(c.change_of_total) + " slower end to end (" + format_speedup(c.speedup, p) + ")";
    else if (c.result == PhaseStatus::noise)
        heading = "no clear change end to end (" + format_speedup(c.speedup, p) + ")";
    else
        heading = "no change end to end";
    std::string out = "### amdahl compare: " + heading + "\n\n";
    out += fmt::format("**{} {} \xe2\x86\x92 {} {}**: {} {} ({} of the before total), speedup **{}**",
                       format_time(c.before_total.median, p), unit, format_time(c.after_total.median, p), unit,
                       signed_time(c.change, p), unit, signed_percent(c.change_of_total), format_speedup(c.speedup, p));
    if (several_runs(c)) {
        out += fmt::format(" (medians of {} and {} runs; change interval {} {}, confidence at least {})",
                           c.before_total.runs, c.after_total.runs, interval_text(c.change_low, c.change_high, p), unit,
                           percent_of(c.confidence));
    }
    out += ". Amdahl's law from the local speedups predicts " + format_speedup(c.predicted_speedup, p) +
           (c.consistent ? " (consistent)." : " (**inconsistent** with the totals).") + "\n\n";
    out += render_markdown(human_table(report));
    if (!report.gates.empty()) {
        out += "\n**Gates**\n\n";
        std::size_t failed = 0;
        for (const GateResult& gate : report.gates) {
            out += std::string(gate.passed ? "- \xe2\x9c\x85 `" : "- \xe2\x9d\x8c `") + printable(gate.gate) +
                   "`: " + gate.detail + "\n";
            if (!gate.passed) ++failed;
        }
        out += fmt::format("\n**Verdict: {} {}**\n", failed == 0 ? "\xe2\x9c\x85" : "\xe2\x9d\x8c",
                           gates_summary(report.gates));
    }
    return out;
}

std::string compare_json(const CompareReport& report) {
    const Comparison& c = report.comparison;
    JsonWriter json;
    json.begin_object().field("schema_version", 1).field("command", "compare");
    json.field("unit", unit_name(c.unit));
    json.key("before_sources").begin_array();
    for (const auto& s : report.before_sources) json.value(s);
    json.end_array().key("after_sources").begin_array();
    for (const auto& s : report.after_sources) json.value(s);
    json.end_array();
    json.field("before_total", c.before_total.median).field("after_total", c.after_total.median);
    json.field("speedup", c.speedup).field("change", c.change).field("change_fraction_of_total", c.change_of_total);
    json.field("result", status_name(c.result));
    json.field("before_runs", c.before_total.runs).field("after_runs", c.after_total.runs);
    json.field("before_total_low", c.before_total.low).field("before_total_high", c.before_total.high);
    json.field("before_confidence", c.before_total.confidence);
    json.field("after_total_low", c.after_total.low).field("after_total_high", c.after_total.high);
    json.field("after_confidence", c.after_total.confidence);
    json.field("change_low", c.change_low).field("change_high", c.change_high);
    json.field("speedup_low", c.speedup_low).field("speedup_high", c.speedup_high);
    json.field("interval_confidence", c.confidence);
    json.field("predicted_speedup", c.predicted_speedup).field("consistent", c.consistent);
    json.field("noise", c.noise);
    json.key("phases").begin_array();
    for (const PhaseChange& row : c.phases) {
        json.begin_object().field("name", row.name);
        if (row.before_name.empty())
            json.key("before_name").null();
        else
            json.field("before_name", row.before_name);
        json.field("kind", row.kind).field("status", status_name(row.status));
        json.field("before", row.before.median).field("after", row.after.median).field("change", row.change);
        json.field("change_fraction_of_phase", row.change_of_phase).field("local_speedup", row.local_speedup);
        json.field("contribution", row.change).field("contribution_fraction_of_total", row.contribution_of_total);
        json.field("before_low", row.before.low).field("before_high", row.before.high);
        json.field("after_low", row.after.low).field("after_high", row.after.high);
        json.field("change_low", row.change_low).field("change_high", row.change_high);
        json.end_object();
    }
    json.end_array().key("gates").begin_array();
    bool passed = true;
    for (const GateResult& gate : report.gates) {
        json.begin_object()
            .field("gate", gate.gate)
            .field("passed", gate.passed)
            .field("detail", gate.detail)
            .end_object();
        passed = passed && gate.passed;
    }
    json.end_array().field("passed", passed);
    json.key("notes").begin_array();
    for (const auto& note : report.notes) json.value(note);
    json.end_array().end_object();
    return json.str();
}

std::vector<std::string> gate_failures(const std::vector<GateResult>& gates) {
    std::vector<std::string> lines;
    for (const GateResult& gate : gates)
        if (!gate.passed) lines.push_back("gate failed: " + printable(gate.gate) + ": " + gate.detail);
    return lines;
}

std::string gate_verdict(const std::vector<GateResult>& gates) {
    for (const GateResult& gate : gates)
        if (!gate.passed) return "verdict: FAIL, " + gates_summary(gates);
    return "verdict: pass, " + gates_summary(gates);
}

}  // namespace amdahl::cli
