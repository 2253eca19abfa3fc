// How `eval --ranks` and `rank --ranks` read for people (one layout each for text, Markdown and
// CSV), their JSON, and their arithmetic (--explain).
#include "report/ranks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

namespace amdahl {

namespace {

constexpr const char* barrier_model =
    "barriers: each segment lasts as long as its slowest rank; step = Σ_s max_r t(s, r)";

// Rank names for a cell: the first three and how many more for people, all of them for scripts.
Cell ranks_cell(const RankSet& set, const std::vector<std::size_t>& ranks) {
    std::string human, machine;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const std::string& name = set.ranks[ranks[i]];
        machine += (i == 0 ? "" : ";") + name;
        if (i < 3) human += (i == 0 ? "" : ", ") + printable(name);
    }
    if (ranks.size() > 3) human += fmt::format(" +{} more", ranks.size() - 3);
    return Cell(human, machine);
}

std::string segments_text(const RankSet& set) {
    return count_of(set.segments.size(), "segment") +
           (set.named_segments ? ", from the phases' segment fields" : ": every phase its own, matched by name");
}

// The ranks' busy and waiting time before and after, one row a rank.
Table slack_table(const RanksEvalResult& r, const NumberStyle& style) {
    const RankSet& set = *r.set;
    const RanksEvaluation& e = r.evaluation;
    const std::string unit(unit_name(set.unit));
    Table table;
    table.columns = {{"rank", "rank"},
                     {"busy before (" + unit + ")", "busy_before_" + unit, true},
                     {"busy after", "busy_after_" + unit, true},
                     {"slack before", "slack_before_" + unit, true},
                     {"slack after", "slack_after_" + unit, true}};
    const auto t = [&](double v) { return Cell(format_time(v, style), shortest(v)); };
    for (std::size_t i = 0; i < set.ranks.size(); ++i)
        table.rows.push_back({Cell(printable(set.ranks[i]), set.ranks[i]), t(e.busy_before[i]), t(e.busy_after[i]),
                              t(e.slack_before[i]), t(e.slack_after[i])});
    return table;
}

std::vector<std::string> explain_ranks(const RanksEvalResult& r, const NumberStyle& style) {
    const RankSet& set = *r.set;
    const RanksEvaluation& e = r.evaluation;
    const std::string unit(unit_name(set.unit));
    std::vector<std::string> lines;
    const auto t = [&](double v) { return format_time(v, style); };
    for (std::size_t s = 0; s < set.segments.size(); ++s) {
        const SegmentOutcome& o = e.segments[s];
        lines.push_back(fmt::format("{}: max over {} ranks = {} ({}) → {} ({})", printable(set.segments[s]),
                                    set.ranks.size(), t(o.before), ranks_cell(set, o.critical_before).human, t(o.after),
                                    ranks_cell(set, o.critical_after).human));
    }
    std::string before, after;
    for (std::size_t s = 0; s < set.segments.size(); ++s) {
        before += (s == 0 ? "" : " + ") + t(e.segments[s].before);
        after += (s == 0 ? "" : " + ") + t(e.segments[s].after);
    }
    lines.push_back(fmt::format("step  = Σ_s max_r t(s, r)  = {} = {} {}", before, t(e.baseline_time), unit));
    lines.push_back(fmt::format("step' = Σ_s max_r t'(s, r) = {} = {} {}", after, t(e.new_time), unit));
    lines.push_back(fmt::format("S = step / step' = {} / {} = {}", t(e.baseline_time), t(e.new_time),
                                format_speedup(e.speedup, style)));
    return lines;
}

}  // namespace

std::vector<std::string> barrier_assumptions() {
    return {"a barrier ends every segment: no rank starts the next segment before the slowest one ends it",
            "segments do not overlap, and every rank runs them in the same order",
            "a phase's time is its rank's busy time in its segment; waiting at the barrier is not in it",
            "a segment a rank does not have takes 0 time on that rank"};
}

std::vector<std::string> no_gain_notes(const RanksEvalResult& r, const NumberStyle& style) {
    const RankSet& set = *r.set;
    const RanksEvaluation& e = r.evaluation;
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < r.speedups.size(); ++i) {
        const RankSpeedupOutcome& o = e.speedups[i];
        if (!(o.busy_time_saved > 0) || o.critical_anywhere) continue;
        std::string phases;
        for (std::size_t p = 0; p < o.phases.size() && p < 3; ++p)
            phases += (p == 0 ? "" : ", ") + printable(o.phases[p]);
        if (o.phases.size() > 3) phases += fmt::format(" and {} more", o.phases.size() - 3);
        const std::string ranks = ranks_cell(set, o.ranks).human;
        notes.push_back(fmt::format(
            "'{}': {} on {} was sped up {} but {} not critical in any segment it touches: no gain ({} of busy time "
            "saved becomes waiting at the barriers)",
            printable(r.speedups[i].text), phases, ranks, format_factor(r.speedups[i].spec.factor.value, style),
            o.ranks.size() == 1 ? ranks + " was" : "none of them was",
            format_duration(o.busy_time_saved, set.unit, style)));
    }
    return notes;
}

Document layout(const RanksEvalResult& r, const ReportOptions& options) {
    const RankSet& set = *r.set;
    const RanksEvaluation& e = r.evaluation;
    const NumberStyle& style = options.numbers;
    const std::string unit(unit_name(set.unit));
    const auto t = [&](double v) { return format_time(v, style) + " " + unit; };
    Document doc;
    doc.command = "eval";
    doc.headline = format_speedup(e.speedup, style) + " step time over " + count_of(set.ranks.size(), "rank") + ", " +
                   t(e.time_saved) + " saved";
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_ranks(r, style), true, true});

    Table table;
    table.columns = {{"segment", "segment", false, true},
                     {"before (" + unit + ")", "time_before_" + unit, true},
                     {"after", "time_after_" + unit, true},
                     {"critical before", "critical_before"},
                     {"critical after", "critical_after"}};
    for (std::size_t s = 0; s < set.segments.size(); ++s) {
        const SegmentOutcome& o = e.segments[s];
        table.rows.push_back({Cell(printable(set.segments[s]), set.segments[s]),
                              Cell(format_time(o.before, style), shortest(o.before)),
                              Cell(format_time(o.after, style), shortest(o.after)), ranks_cell(set, o.critical_before),
                              ranks_cell(set, o.critical_after)});
    }
    // CSV: the segments' rows, then the ranks' (a `row` column says which).
    Table csv;
    const Table slack = slack_table(r, style);
    csv.columns = {{"row", "row"}, {"name", "name"}};
    for (std::size_t c = 1; c < table.columns.size(); ++c) csv.columns.push_back(table.columns[c]);
    for (std::size_t c = 1; c < slack.columns.size(); ++c) csv.columns.push_back(slack.columns[c]);
    for (const auto& row : table.rows) {
        std::vector<Cell> cells{Cell("segment"), row[0]};
        cells.insert(cells.end(), row.begin() + 1, row.end());
        cells.resize(csv.columns.size(), Cell(""));
        csv.rows.push_back(std::move(cells));
    }
    for (const auto& row : slack.rows) {
        std::vector<Cell> cells{Cell("rank"), row[0]};
        cells.resize(table.columns.size() + 1, Cell(""));
        cells.insert(cells.end(), row.begin() + 1, row.end());
        csv.rows.push_back(std::move(cells));
    }
    doc.table = std::move(table);
    doc.csv_table = std::move(csv);
    doc.sections.push_back(
        {"Busy and waiting time per rank (slack: waiting at the barriers)", table_lines(slack), false, true});

    auto& s = doc.summary;
    s.push_back({"model", barrier_model, "model", "barriers"});
    s.push_back({"ranks", std::to_string(set.ranks.size()), "ranks", std::to_string(set.ranks.size())});
    s.push_back({"segments", segments_text(set), "segments", std::to_string(set.segments.size())});
    s.push_back(
        {"step time", t(e.baseline_time) + " → " + t(e.new_time), "baseline_" + unit, shortest(e.baseline_time)});
    s.push_back({"", "", "new_time_" + unit, shortest(e.new_time)});
    std::string speedup = format_speedup(e.speedup, style);
    if (e.speedup < 1) speedup += " (a slowdown: the step gets slower)";
    s.push_back({"speedup", speedup, "speedup", machine_number(e.speedup)});
    s.push_back({"time saved",
                 t(e.time_saved) + " (" + format_share(e.time_saved / e.baseline_time, style) + " of the step)",
                 "time_saved_" + unit, shortest(e.time_saved)});
    for (std::size_t i = 0; i < r.speedups.size(); ++i) {
        const RankSpeedupOutcome& o = e.speedups[i];
        s.push_back({"'" + printable(r.speedups[i].text) + "'",
                     fmt::format("{} of busy time saved on {}, {} of step time alone", t(o.busy_time_saved),
                                 count_of(o.ranks.size(), "rank"), t(o.step_time_saved)),
                     "", ""});
    }
    const auto assumptions = barrier_assumptions();
    for (std::size_t i = 0; i < assumptions.size(); ++i)
        s.push_back({i == 0 ? "assumptions" : "", assumptions[i], "", ""});
    if (r.required_speedup) {
        doc.gates.push_back(
            {r.gate_passed, "--require-speedup " + format_plain(*r.required_speedup, style),
             fmt::format("step {}: {} the required {}", format_speedup(e.speedup, style),
                         r.gate_passed ? "at least" : "below", format_speedup(*r.required_speedup, style))});
        doc.verdict = r.gate_passed ? "the gate passed" : "the gate failed";
        s.push_back({"", "", "gate_passed", r.gate_passed ? "true" : "false"});
    }
    doc.notes = set.notes;
    doc.notes.insert(doc.notes.end(), e.notes.begin(), e.notes.end());
    for (auto& note : no_gain_notes(r, style)) doc.notes.push_back(std::move(note));
    return doc;
}

void write_json(std::ostream& out, const RanksEvalResult& r, const ReportOptions& options) {
    const RankSet& set = *r.set;
    const RanksEvaluation& e = r.evaluation;
    JsonWriter json(&out);
    json.begin_object().field("schema_version", 1).field("command", "eval").field("model", "barriers");
    json.field("unit", unit_name(set.unit));
    json.field("segments_from", set.named_segments ? "segment_field" : "phase_name");
    json.field("baseline_time", e.baseline_time).field("new_time", e.new_time);
    json.field("time_saved", e.time_saved).field("speedup", e.speedup);
    json.key("speedups").begin_array();
    for (std::size_t i = 0; i < r.speedups.size(); ++i) {
        const RankSpeedup& given = r.speedups[i];
        const RankSpeedupOutcome& o = e.speedups[i];
        json.begin_object(true).field("spec", given.text);
        if (given.rank)
            json.field("rank", *given.rank);
        else
            json.key("rank").null();
        json.field("factor", given.spec.factor.value);
        json.key("phases").begin_array();
        for (const auto& name : o.phases) json.value(name);
        json.end_array();
        json.field("busy_time_saved", o.busy_time_saved).field("step_time_saved", o.step_time_saved);
        json.field("critical", o.critical_anywhere).end_object();
    }
    json.end_array();
    json.key("segments").begin_array();
    const auto names = [&](const std::vector<std::size_t>& ranks) {
        json.begin_array();
        for (std::size_t rank : ranks) json.value(set.ranks[rank]);
        json.end_array();
    };
    for (std::size_t s = 0; s < set.segments.size(); ++s) {
        const SegmentOutcome& o = e.segments[s];
        json.begin_object(true).field("segment", set.segments[s]).field("time_before", o.before);
        json.field("time_after", o.after);
        json.key("critical_before");
        names(o.critical_before);
        json.key("critical_after");
        names(o.critical_after);
        json.end_object();
    }
    json.end_array();
    json.key("ranks").begin_array();
    for (std::size_t i = 0; i < set.ranks.size(); ++i) {
        json.begin_object(true).field("rank", set.ranks[i]).field("source", set.profiles[i].source);
        json.field("busy_before", e.busy_before[i]).field("busy_after", e.busy_after[i]);
        json.field("slack_before", e.slack_before[i]).field("slack_after", e.slack_after[i]).end_object();
    }
    json.end_array();
    json.key("assumptions").begin_array();
    for (const auto& line : barrier_assumptions()) json.value(line);
    json.end_array();
    if (r.required_speedup) {
        json.key("gate").begin_object().field("required_speedup", *r.required_speedup);
        json.field("passed", r.gate_passed).end_object();
    }
    json.key("notes").begin_array();
    for (const auto& note : layout(r, ReportOptions{}).notes) json.value(note);
    json.end_array();
    if (options.explain) {
        json.key("explanation").begin_array();
        for (const auto& line : explain_ranks(r, options.numbers)) json.value(line);
        json.end_array();
    }
    json.end_object();
    out << json.str();
}

Document layout(const StragglerResult& r, const ReportOptions& options) {
    const RankSet& set = *r.set;
    const NumberStyle& style = options.numbers;
    const std::string unit(unit_name(set.unit));
    Document doc;
    doc.command = "rank";
    const double held = r.stragglers.empty() ? 0 : r.stragglers.front().held;
    doc.headline = r.stragglers.empty()
                       ? "no segments"
                       : fmt::format("the top straggler holds {} {} of the {} {} step", format_time(held, style), unit,
                                     format_time(r.step_time, style), unit);
    Table table;
    table.columns = {{"#", "position", true},
                     {"segment", "segment", false, true},
                     {"critical", "critical"},
                     {"time (" + unit + ")", "time_" + unit, true},
                     {"next slowest", "next_slowest"},
                     {"its time", "next_time_" + unit, true},
                     {"held (" + unit + ")", "held_" + unit, true},
                     {"share", "held_share", true}};
    for (std::size_t i = 0; i < r.stragglers.size(); ++i) {
        const Straggler& g = r.stragglers[i];
        const auto t = [&](double v) { return Cell(format_time(v, style), shortest(v)); };
        const double share = r.step_time > 0 ? g.held / r.step_time : 0;
        table.rows.push_back({Cell(std::to_string(i + 1)),
                              Cell(printable(set.segments[g.segment]), set.segments[g.segment]),
                              ranks_cell(set, g.ranks), t(g.time),
                              g.next ? Cell(printable(set.ranks[*g.next]), set.ranks[*g.next]) : Cell("-", ""),
                              t(g.next_time), t(g.held), Cell(format_share(share, style), shortest(share))});
    }
    doc.table = std::move(table);
    auto& s = doc.summary;
    s.push_back({"model", barrier_model, "model", "barriers"});
    s.push_back({"ranks", std::to_string(set.ranks.size()), "ranks", std::to_string(set.ranks.size())});
    s.push_back({"segments", segments_text(set), "segments", std::to_string(set.segments.size())});
    s.push_back(
        {"step time", format_time(r.step_time, style) + " " + unit, "step_time_" + unit, shortest(r.step_time)});
    s.push_back({"held",
                 "what the step would lose if the critical rank of the segment were as fast as the next slowest "
                 "(0 for a tie: the other critical rank still holds the barrier)",
                 "", ""});
    const auto assumptions = barrier_assumptions();
    for (std::size_t i = 0; i < assumptions.size(); ++i)
        s.push_back({i == 0 ? "assumptions" : "", assumptions[i], "", ""});
    doc.notes = set.notes;
    return doc;
}

void write_json(std::ostream& out, const StragglerResult& r, const ReportOptions&) {
    const RankSet& set = *r.set;
    JsonWriter json(&out);
    json.begin_object().field("schema_version", 1).field("command", "rank").field("model", "barriers");
    json.field("unit", unit_name(set.unit)).field("ranks", set.ranks.size());
    json.field("segments", set.segments.size());
    json.field("segments_from", set.named_segments ? "segment_field" : "phase_name");
    json.field("step_time", r.step_time);
    json.key("stragglers").begin_array();
    for (const Straggler& g : r.stragglers) {
        json.begin_object(true).field("segment", set.segments[g.segment]);
        json.key("critical").begin_array();
        for (std::size_t rank : g.ranks) json.value(set.ranks[rank]);
        json.end_array();
        json.field("time", g.time);
        if (g.next)
            json.field("next_slowest", set.ranks[*g.next]);
        else
            json.key("next_slowest").null();
        json.field("next_time", g.next_time).field("held", g.held);
        json.field("held_share", r.step_time > 0 ? g.held / r.step_time : 0.0).end_object();
    }
    json.end_array();
    json.key("assumptions").begin_array();
    for (const auto& line : barrier_assumptions()) json.value(line);
    json.end_array();
    json.key("notes").begin_array();
    for (const auto& note : set.notes) json.value(note);
    json.end_array();
    json.end_object();
    out << json.str();
}

}  // namespace amdahl
