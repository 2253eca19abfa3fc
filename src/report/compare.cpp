#include "report/compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

#include "report/numbers.hpp"
#include "report/report.hpp"

namespace amdahl {

namespace {

// GitHub refuses a comment longer than this many characters.
constexpr std::size_t github_comment_limit = 65536;

bool several_runs(const Comparison& c) { return c.before_total.runs > 1 || c.after_total.runs > 1; }

// Phases have intervals only when a side is several profiles (a "runs" array times the total only).
bool phase_intervals(const Comparison& c) {
    for (const PhaseChange& row : c.phases)
        if (row.before.runs > 1 || row.after.runs > 1) return true;
    return false;
}

std::string unit_of(const Comparison& c) { return std::string(unit_name(c.unit)); }

// How the change's interval was found, as JSON says it.
const char* interval_method(const Comparison& c) {
    if (!several_runs(c)) return "none";
    return c.shift.paired ? "paired-hodges-lehmann" : "hodges-lehmann";
}

// ... and as people read it.
std::string interval_method_text(const Comparison& c) {
    if (c.shift.paired)
        return fmt::format(
            "Hodges-Lehmann estimate of the {} pairs' differences with its Wilcoxon signed-rank interval",
            c.shift.runs_before);
    return "Hodges-Lehmann shift with its Mann-Whitney interval";
}

std::string local_speedup_text(double k, const NumberStyle& style) {
    if (std::isnan(k) || k == 0) return "-";  // undefined, or a phase that took no time before
    return format_speedup(k, style);
}

// The names of a comparison as printed, before and after alike (--names): full name -> shown.
std::map<std::string_view, std::string> shown_names(const Comparison& c, const ReportOptions& options) {
    std::vector<std::string_view> full;
    std::set<std::string_view> seen;
    for (const PhaseChange& row : c.phases)
        for (std::string_view name : {std::string_view(row.before_name), std::string_view(row.name)})
            if (!name.empty() && seen.insert(name).second) full.push_back(name);
    const std::vector<std::string> shown = displayed_names(full, options);
    std::map<std::string_view, std::string> out;
    for (std::size_t i = 0; i < full.size(); ++i) out.emplace(full[i], shown.empty() ? std::string(full[i]) : shown[i]);
    return out;
}

std::string display_name(const PhaseChange& row, const std::map<std::string_view, std::string>& shown) {
    const auto name = [&](const std::string& full) {
        const auto found = shown.find(full);
        return printable(found == shown.end() ? full : found->second);
    };
    if (!row.before_name.empty() && row.before_name != row.name)
        return name(row.before_name) + " \xe2\x86\x92 " + name(row.name);  // →
    return name(row.name);
}

std::string result_text(const Comparison& c) {
    if (c.result == PhaseStatus::noise) {
        if (std::fabs(c.change) < c.noise * c.before_total.median)
            return "no clear change: within --noise " + shortest(c.noise * 100) + "%";
        return "no clear change: the interval includes no change";
    }
    return status_name(c.result);
}

std::string interval_text(double low, double high, const NumberStyle& style) {
    return format_signed_time(low, style) + " .. " + format_signed_time(high, style);
}

// The phase table people read: `rows` (indices into the comparison's phases) in the order given,
// and when `with_total` the total row closes it.
Table human_table(const CompareReport& report, const ReportOptions& options, const std::vector<std::size_t>& rows,
                  bool with_total) {
    const NumberStyle& p = options.numbers;
    const Comparison& c = report.comparison;
    const auto shown = shown_names(c, options);
    const std::string unit = unit_of(c);
    const bool intervals = phase_intervals(c);
    Table table;
    table.columns = {{"phase", "name", false, true},
                     {"status", "status"},
                     {"before (" + unit + ")", "before", true},
                     {"after (" + unit + ")", "after", true},
                     {"change (" + unit + ")", "change", true},
                     {"% of phase", "change_pct_of_phase", true},
                     {"local speedup", "local_speedup", true},
                     {"% of total", "contribution_pct_of_total", true}};
    if (intervals) table.columns.push_back({"change interval (" + unit + ")", "change_interval", true});
    for (const std::size_t r : rows) {
        const PhaseChange& row = c.phases[r];
        std::vector<Cell> cells{Cell(display_name(row, shown)),
                                Cell(status_name(row.status)),
                                Cell(row.status == PhaseStatus::added ? "-" : format_time(row.before.median, p)),
                                Cell(row.status == PhaseStatus::removed ? "-" : format_time(row.after.median, p)),
                                Cell(format_signed_time(row.change, p)),
                                Cell(format_signed_share(row.change_of_phase, p)),
                                Cell(local_speedup_text(row.local_speedup, p)),
                                Cell(format_signed_share(row.contribution_of_total, p))};
        if (intervals) cells.push_back(Cell(interval_text(row.change_low, row.change_high, p)));
        table.rows.push_back(std::move(cells));
    }
    if (!with_total) return table;
    std::vector<Cell> total{Cell("total"),
                            Cell(status_name(c.result)),
                            Cell(format_time(c.before_total.median, p)),
                            Cell(format_time(c.after_total.median, p)),
                            Cell(format_signed_time(c.change, p)),
                            Cell(format_signed_share(c.change_of_total, p)),
                            Cell(format_speedup(c.speedup, p)),
                            Cell(format_signed_share(c.change_of_total, p))};
    if (intervals) total.push_back(Cell(interval_text(c.change_low, c.change_high, p)));
    table.rows.push_back(std::move(total));
    return table;
}

// Every phase row in BEFORE's order, as the text table shows them.
std::vector<std::size_t> all_rows(const Comparison& c) {
    std::vector<std::size_t> rows(c.phases.size());
    for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = r;
    return rows;
}

// A pull-request comment: the `top` rows that moved the total most in the table, largest
// |contribution| first (ties in BEFORE's order), the rest in a collapsed block, under GitHub's
// comment limit.
void add_markdown_rows(Document& doc, const CompareReport& report, const ReportOptions& options) {
    const Comparison& c = report.comparison;
    if (report.top == 0) return;  // the text table's rows and order
    std::vector<std::size_t> rows = all_rows(c);
    std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) {
        return std::fabs(c.phases[a].change) > std::fabs(c.phases[b].change);
    });
    const std::size_t shown = std::min(report.top, rows.size());
    doc.markdown_table =
        human_table(report, options, {rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(shown)}, true);
    if (shown == rows.size()) return;
    doc.details_table =
        human_table(report, options, {rows.begin() + static_cast<std::ptrdiff_t>(shown), rows.end()}, false);
    const std::size_t more = rows.size() - shown;
    doc.details_summary = fmt::format("{} more {}, smaller changes", more, more == 1 ? "phase" : "phases");
}

std::string sources_text(const std::vector<std::string>& sources) {
    if (sources.size() == 1) return printable(sources.front());
    std::string text = std::to_string(sources.size()) + " files: ";
    for (std::size_t i = 0; i < sources.size() && i < 3; ++i) text += (i > 0 ? ", " : "") + printable(sources[i]);
    if (sources.size() > 3) text += ", ...";
    return text;
}

std::string side_text(const Spread& total, const std::vector<std::string>& sources, const std::string& unit,
                      const NumberStyle& p) {
    std::string text = format_time(total.median, p) + " " + unit;
    if (total.runs <= 1) return text + " (" + sources_text(sources) + ")";
    return text + fmt::format(", median of {} runs ({}); interval {} .. {}, {} confidence for the median", total.runs,
                              sources_text(sources), format_time(total.low, p), format_time(total.high, p),
                              format_share(total.confidence, p));
}

std::string prediction_text(const Comparison& c, const NumberStyle& p) {
    std::string text = format_speedup(c.predicted_speedup, p) +
                       " by Amdahl's law from the local speedups, 1 / (f_0 + \xce\xa3 f_i / k_i): ";  // Σ
    if (c.consistent) return text + "consistent with the totals";
    return text + "INCONSISTENT with the measured " + format_speedup(c.speedup, p) +
           " (the time outside the phases changed: see the row '" + outside_phases_row + "')";
}

std::vector<SummaryLine> summary_lines(const CompareReport& report, const NumberStyle& p) {
    const Comparison& c = report.comparison;
    const std::string unit = unit_of(c);
    std::vector<SummaryLine> lines;
    const auto labelled = [](const std::string& label, std::string text) {
        return label.empty() ? text : printable(label) + ": " + text;
    };
    lines.push_back({"before", labelled(report.label_before, side_text(c.before_total, report.before_sources, unit, p)),
                     "before_total_" + unit, shortest(c.before_total.median)});
    lines.push_back({"after", labelled(report.label_after, side_text(c.after_total, report.after_sources, unit, p)),
                     "after_total_" + unit, shortest(c.after_total.median)});
    std::string change = format_signed_time(c.change, p) + " " + unit + " (" +
                         format_signed_share(c.change_of_total, p) +
                         " of the before total; the phases' changes add up to it)";
    std::string speedup = format_speedup(c.speedup, p) + " " + whole_run(report.summary_only) + " (before / after)";
    if (several_runs(c)) {
        change += fmt::format(", interval {} {} ({} confidence)", interval_text(c.change_low, c.change_high, p), unit,
                              format_share(c.confidence, p));
        speedup += ", interval " + format_speedup(c.speedup_low, p) + " .. " + format_speedup(c.speedup_high, p);
    }
    lines.push_back({"change", change, "change_" + unit, shortest(c.change)});
    lines.push_back({"speedup", speedup, "speedup", machine_number(c.speedup)});
    if (several_runs(c)) {
        lines.push_back({"interval",
                         interval_method_text(c) + "; gates check its one-sided " +
                             format_share(c.shift.bound_confidence, p) + " bounds (" +
                             interval_text(c.shift.bound_low, c.shift.bound_high, p) + " " + unit + ")",
                         "interval_method", interval_method(c)});
        std::string spread = fmt::format("CV {} before, {} after (MAD {} / {} {})", format_share(c.before_total.cv, p),
                                         format_share(c.after_total.cv, p), format_time(c.before_total.mad, p),
                                         format_time(c.after_total.mad, p), unit);
        if (std::isfinite(c.min_detectable_change))
            spread += "; the smallest change these runs detect 80% of the time is " +
                      format_share(c.min_detectable_change, p) + " of the before total";
        lines.push_back({"spread", spread, "min_detectable_change", machine_number(c.min_detectable_change)});
    } else {
        lines.push_back({"interval", no_interval_text(), "interval_method", interval_method(c)});
    }
    lines.push_back({"result", result_text(c), "result", std::string(status_name(c.result))});
    lines.push_back({"predicted", prediction_text(c, p), "predicted_speedup", machine_number(c.predicted_speedup)});
    return lines;
}

std::string headline(const Comparison& c, const NumberStyle& p, bool summary_only) {
    const std::string whole = whole_run(summary_only);
    const std::string of_total = format_signed_share(c.change_of_total, p) + " of the before total";
    if (c.result == PhaseStatus::faster)
        return format_speedup(c.speedup, p) + " faster " + whole + " (" + of_total + ")";
    if (c.result == PhaseStatus::slower)
        return "slower " + whole + " by " + of_total + " (" + format_speedup(c.speedup, p) + ")";
    if (c.result == PhaseStatus::noise)
        return "no clear change " + whole + " (" + format_speedup(c.speedup, p) + ", " + of_total + ")";
    return "no change " + whole;
}

// CSV's rows: one per phase, every number at full precision, no total row.
Table data_table(const Comparison& c) {
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
        table.rows.push_back({Cell(row.name), Cell(row.before_name), Cell(row.kind),
                              Cell(std::string(status_name(row.status))), Cell(machine_number(row.before.median)),
                              Cell(machine_number(row.after.median)), Cell(machine_number(row.change)),
                              Cell(machine_number(row.change_of_phase * 100)), Cell(machine_number(row.local_speedup)),
                              Cell(machine_number(row.change)), Cell(machine_number(row.contribution_of_total * 100)),
                              Cell(machine_number(row.before.low)), Cell(machine_number(row.before.high)),
                              Cell(machine_number(row.after.low)), Cell(machine_number(row.after.high)),
                              Cell(machine_number(row.change_low)), Cell(machine_number(row.change_high))});
    }
    return table;
}

}  // namespace

std::string no_interval_text() {
    return "none: one run a side, so no noise is measured and each status is the change alone (more runs give an "
           "interval; --noise PCT calls a smaller change noise)";
}

std::string gates_summary(const std::vector<GateResult>& gates) {
    std::size_t failed = 0, skipped = 0;
    for (const GateResult& gate : gates) {
        failed += gate.passed ? 0 : 1;
        skipped += gate.skipped ? 1 : 0;
    }
    const std::string skips = skipped == 0 ? "" : fmt::format(" ({} skipped)", skipped);
    if (gates.size() == 1)
        return skipped ? "the gate was skipped" : failed == 0 ? "the gate passed" : "the gate failed";
    if (failed == 0) return fmt::format("all {} gates passed{}", gates.size(), skips);
    return fmt::format("{} of {} gates failed{}", failed, gates.size(), skips);
}

Document layout(const CompareReport& report, const ReportOptions& options) {
    const Comparison& c = report.comparison;
    const NumberStyle& p = options.numbers;
    Document doc;
    doc.command = "compare";
    doc.headline = headline(c, p, report.summary_only);
    doc.table = human_table(report, options, all_rows(c), true);
    add_markdown_rows(doc, report, options);
    doc.marker = "<!-- amdahl-compare -->";
    doc.max_chars = github_comment_limit - 536;  // room for what a workflow adds around it
    doc.csv_table = data_table(c);
    doc.summary = summary_lines(report, p);
    add_boundary(doc.summary, report.boundary, report.summary_only);
    for (const GateResult& gate : report.gates)
        doc.gates.push_back({gate.passed, gate.gate, gate.detail, gate.skipped});
    if (!report.gates.empty()) doc.verdict = gates_summary(report.gates);
    doc.summary.push_back(
        {"", "", "gates_passed",
         std::all_of(report.gates.begin(), report.gates.end(), [](const GateResult& g) { return g.passed; })
             ? "true"
             : "false"});
    doc.notes = report.notes;
    return doc;
}

void write_json(std::ostream& out, const CompareReport& report, const ReportOptions&) {
    const Comparison& c = report.comparison;
    JsonWriter json;
    json.begin_object().field("schema_version", 1).field("command", "compare");
    write_run_json(json, report.version, report.arguments, report.label_before, report.label_after);
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
    json.field("before_mad", c.before_total.mad).field("before_cv", c.before_total.cv);
    json.field("after_mad", c.after_total.mad).field("after_cv", c.after_total.cv);
    json.field("interval_method", interval_method(c));
    json.field("change_estimate", c.shift.estimate);
    json.field("change_low", c.change_low).field("change_high", c.change_high);
    json.field("speedup_low", c.speedup_low).field("speedup_high", c.speedup_high);
    json.field("interval_confidence", c.confidence);
    json.field("change_bound_low", c.shift.bound_low).field("change_bound_high", c.shift.bound_high);
    json.field("speedup_bound_low", c.speedup_bound_low);
    json.field("bound_confidence", c.shift.bound_confidence);
    json.field("min_detectable_change", c.min_detectable_change);
    json.field("predicted_speedup", c.predicted_speedup).field("consistent", c.consistent);
    json.field("noise", c.noise);
    if (!report.boundary.empty()) json.field("boundary", report.boundary);
    json.field("summary_only", report.summary_only);
    ReportOptions short_names;
    const auto shown = shown_names(c, short_names);
    json.key("phases").begin_array();
    for (const PhaseChange& row : c.phases) {
        json.begin_object().field("name", row.name);
        const auto found = shown.find(row.name);
        json.field("short_name", found == shown.end() ? row.name : found->second);
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
        json.field("change_bound_low", row.change_bound_low).field("change_bound_high", row.change_bound_high);
        json.end_object();
    }
    json.end_array();
    write_verdict_json(json, report.gates, report.notes);
    out << json.str();
}

void write_run_json(JsonWriter& json, const std::string& version, const std::vector<std::string>& arguments,
                    const std::string& label_before, const std::string& label_after) {
    json.field("amdahl_version", version);
    json.key("arguments").begin_array();
    for (const auto& argument : arguments) json.value(argument);
    json.end_array();
    json.key("labels").begin_object();
    for (const auto& [side, label] : {std::pair{"before", &label_before}, {"after", &label_after}}) {
        if (label->empty())
            json.key(side).null();
        else
            json.field(side, *label);
    }
    json.end_object();
}

void write_verdict_json(JsonWriter& json, const std::vector<GateResult>& gates, const std::vector<std::string>& notes) {
    json.field("passed", write_gates_json(json, gates));
    json.key("notes").begin_array();
    for (const auto& note : notes) json.value(note);
    json.end_array().end_object();
}

bool write_gates_json(JsonWriter& json, const std::vector<GateResult>& gates) {
    json.key("gates").begin_array();
    bool passed = true;
    for (const GateResult& gate : gates) {
        json.begin_object().field("gate", gate.gate).field("kind", gate.kind);
        if (gate.selector.empty())
            json.key("selector").null();
        else
            json.field("selector", gate.selector);
        json.field("threshold", gate.threshold).field("observed", gate.observed);
        json.key("interval").begin_array().value(gate.low).value(gate.high).end_array();
        json.field("bound", gate.bound);
        json.key("phases").begin_array();
        for (const GatePhase& phase : gate.phases) {
            json.begin_object().field("name", phase.name).field("observed", phase.observed);
            json.key("interval").begin_array().value(phase.low).value(phase.high).end_array();
            json.field("bound", phase.bound).field("passed", phase.passed).end_object();
        }
        json.end_array();
        json.field("passed", gate.passed).field("skipped", gate.skipped).field("detail", gate.detail).end_object();
        passed = passed && gate.passed;
    }
    json.end_array();
    return passed;
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

}  // namespace amdahl
