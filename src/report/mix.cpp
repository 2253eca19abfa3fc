// How `eval --mix` and `rank --mix` read for people: a row per workload (or target), the fleet.
#include "report/mix.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/explain.hpp"
#include "report/fleet.hpp"

namespace amdahl {

MixWeightKind kind_of(const std::vector<MixWorkload>& workloads) {
    return workloads.empty() ? MixWeightKind::share : workloads.front().weight.kind;
}

// "A.json 70.0%, B.json 30.0%": each workload's share of fleet time.
std::string shares_line(const std::vector<MixWorkload>& workloads, const NumberStyle& style) {
    std::string line;
    for (const MixWorkload& w : workloads)
        line += (line.empty() ? "" : ", ") + printable(w.name) + " " + format_share(w.time_share, style);
    return line + " of fleet time";
}

// Each workload's boundary and summary caveat, as its own eval states them.
void add_workload_boundaries(std::vector<SummaryLine>& summary, const std::vector<MixWorkload>& workloads) {
    for (const MixWorkload& w : workloads) {
        std::vector<SummaryLine> lines;
        add_boundary(lines, w.profile->boundary, w.profile->summary_only);
        for (SummaryLine& line : lines)
            summary.push_back({line.label + " (" + printable(w.name) + ")", line.text, "", ""});
    }
}

// The workloads as a wide table's headers name them: their file names when those differ, else
// the paths as given.
std::vector<std::string> workload_labels(const std::vector<MixWorkload>& workloads) {
    std::vector<std::string> labels;
    for (const MixWorkload& w : workloads) labels.push_back(printable(w.name.substr(w.name.rfind('/') + 1)));
    for (std::size_t i = 0; i < labels.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (labels[i] == labels[j] || labels[i].empty()) {
                labels.clear();
                for (const MixWorkload& w : workloads) labels.push_back(printable(w.name));
                return labels;
            }
    return labels;
}

std::string weights_basis(const std::vector<MixWorkload>& workloads) {
    switch (kind_of(workloads)) {
        case MixWeightKind::gpus:
            return "GPU counts, normalised: GPUs run continuously, so a workload's share of the GPUs is its share of "
                   "fleet time";
        case MixWeightKind::rate:
            return "request rates: a workload's share of fleet time is its rate x its time per request (its "
                   "profile's total), normalised";
        case MixWeightKind::share:
            break;
    }
    return "shares of fleet time, as given";
}

std::vector<std::string> explain_mix(const MixEvalResult& r, const NumberStyle& style) {
    std::vector<std::string> lines;
    const auto p = [&](double v) { return format_plain(v, style); };
    std::vector<std::string> terms, values;
    // w_i, from the weights
    if (kind_of(r.workloads) != MixWeightKind::share) {
        Summation total;
        std::vector<std::string> parts;
        std::vector<double> raw;
        for (const MixWorkload& w : r.workloads) {
            if (w.weight.kind == MixWeightKind::rate) {
                const double seconds = convert(w.profile->total(), w.profile->unit, Unit::s);
                parts.push_back(fmt::format("{} x {} s", p(w.weight.value), p(seconds)));
                raw.push_back(w.weight.value * seconds);
            } else {
                parts.push_back(p(w.weight.value));
                raw.push_back(w.weight.value);
            }
            total.add(raw.back());
        }
        lines.push_back(fmt::format("w_i = {} / Σ = ({}) / {}",
                                    kind_of(r.workloads) == MixWeightKind::rate ? "r_i T_i" : "n_i",
                                    fmt::join(parts, ", "), p(total.value())));
    }
    std::vector<std::string> shares, speedups;
    for (std::size_t i = 0; i < r.workloads.size(); ++i) {
        shares.push_back(printable(r.workloads[i].name) + " " + p(r.workloads[i].time_share));
        speedups.push_back(printable(r.workloads[i].name) + " " +
                           format_speedup(r.evaluations[i].evaluation.speedup, style));
        terms.push_back(fmt::format("{} / {}", p(r.workloads[i].time_share),
                                    std::isinf(r.evaluations[i].evaluation.speedup)
                                        ? std::string("inf")
                                        : p(r.evaluations[i].evaluation.speedup)));
        values.push_back(p(r.fleet.new_time[i]));
    }
    lines.push_back("w_i (share of fleet time): " + fmt::format("{}", fmt::join(shares, ", ")));
    lines.push_back("S_i (each workload's eval, below): " + fmt::format("{}", fmt::join(speedups, ", ")));
    const double after = std::isinf(r.fleet.speedup) ? 0 : 1 / r.fleet.speedup;
    lines.push_back(fmt::format("fleet time after = Σ w_i / S_i = {} = {} = {}", fmt::join(terms, " + "),
                                fmt::join(values, " + "), p(after)));
    lines.push_back(fmt::format("S = 1 / Σ w_i / S_i = 1 / {} = {}", p(after), format_speedup(r.fleet.speedup, style)));
    std::vector<std::string> saved;
    for (double part : r.fleet.saved) saved.push_back(p(part));
    lines.push_back(fmt::format("saved = Σ w_i (1 - 1/S_i) = {} = {} of fleet time", fmt::join(saved, " + "),
                                format_share(r.fleet.saved_fraction, style)));
    for (std::size_t i = 0; i < r.fleet.win_share.size(); ++i)
        lines.push_back(fmt::format("win share of {} = {} / {} = {}", printable(r.workloads[i].name),
                                    p(r.fleet.saved[i]), p(r.fleet.saved_fraction),
                                    format_share(r.fleet.win_share[i], style)));
    lines.push_back(fmt::format("ceiling = 1 / Σ w_i / ceiling_i = {}", format_speedup(r.ceiling.speedup, style)));
    for (std::size_t i = 0; i < r.workloads.size(); ++i) {
        lines.push_back(printable(r.workloads[i].name) + ":");
        for (const std::string& line :
             explain_eval(*r.workloads[i].profile, r.evaluations[i].applied, r.evaluations[i].evaluation, style))
            lines.push_back("  " + line);
    }
    return lines;
}

std::vector<std::string> explain_mix_rank(const MixRankResult& r, const NumberStyle& style) {
    std::vector<std::string> lines;
    for (const MixTarget& t : r.ranked) {
        std::vector<std::string> terms;
        for (std::size_t w = 0; w < r.workloads.size(); ++w)
            terms.push_back(fmt::format("{} x {}", format_plain(r.workloads[w].time_share, style),
                                        format_plain(t.saved_fraction[w], style)));
        lines.push_back(
            fmt::format("{}: saved = Σ w_i s_i = {} = {}; S = 1 / (1 - saved) = {}; share = Σ w_i t_i = "
                        "{}; ceiling = 1 / (1 - share) = {}",
                        printable(t.name), fmt::join(terms, " + "), format_plain(t.fleet.saved_fraction, style),
                        format_speedup(t.fleet.speedup, style), format_plain(t.fleet_share, style),
                        format_speedup(t.ceiling, style)));
    }
    return lines;
}

Document layout(const MixEvalResult& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    Document doc;
    doc.command = "eval";
    doc.headline = fmt::format("{} for the fleet, {} of fleet time saved", format_speedup(r.fleet.speedup, style),
                               format_share(r.fleet.saved_fraction, style));
    Table table;
    table.columns = {{"workload", "workload", false, true},      {"weight", "weight"},
                     {"time share", "time_share_pct", true},     {"speedup", "speedup", true},
                     {"saved (of its time)", "saved_pct", true}, {"share of the win", "win_share_pct", true}};
    const auto win = [&](std::size_t i) {
        return r.fleet.win_share.empty()
                   ? Cell("-", "")
                   : Cell(format_share(r.fleet.win_share[i], style), shortest(r.fleet.win_share[i] * 100));
    };
    // File names in the table (the paths are in the summary below), so its width is the data's.
    const std::vector<std::string> labels = workload_labels(r.workloads);
    for (std::size_t i = 0; i < r.workloads.size(); ++i) {
        const MixWorkload& w = r.workloads[i];
        const Evaluation& e = r.evaluations[i].evaluation;
        table.rows.push_back({Cell(labels[i], w.name), Cell(printable(w.weight.text), w.weight.text),
                              Cell(format_share(w.time_share, style), shortest(w.time_share * 100)),
                              Cell(format_speedup(e.speedup, style), machine_number(e.speedup)),
                              Cell(format_share(e.saved_fraction, style), shortest(e.saved_fraction * 100)), win(i)});
    }
    table.rows.push_back({Cell("fleet"), Cell("-", ""), Cell(format_share(1, style), "100"),
                          Cell(format_speedup(r.fleet.speedup, style), machine_number(r.fleet.speedup)),
                          Cell(format_share(r.fleet.saved_fraction, style), shortest(r.fleet.saved_fraction * 100)),
                          r.fleet.win_share.empty() ? Cell("-", "") : Cell(format_share(1, style), "100")});
    doc.table = std::move(table);
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_mix(r, style), true, true});

    auto& s = doc.summary;
    s.push_back(
        {"weights", weights_basis(r.workloads), "weights", std::string(mix_weight_kind_name(kind_of(r.workloads)))});
    s.push_back({"workloads", shares_line(r.workloads, style), "", ""});
    std::string speedup = format_speedup(r.fleet.speedup, style) + " (1 / Σ w_i / S_i)";
    if (r.fleet.speedup < 1) speedup += " (a slowdown: the fleet gets slower)";
    s.push_back({"fleet speedup", speedup, "speedup", machine_number(r.fleet.speedup)});
    s.push_back({"fleet time saved", format_share(r.fleet.saved_fraction, style) + " (Σ w_i (1 - 1/S_i))",
                 "saved_fraction", shortest(r.fleet.saved_fraction)});
    if (!r.fleet.win_share.empty()) {
        const std::size_t top = carrying_workload(r.fleet.saved, r.fleet.saved_fraction);
        s.push_back(
            {"carried by",
             fmt::format("{} ({} of the fleet's {})", printable(r.workloads[top].name),
                         format_share(r.fleet.win_share[top], style), r.fleet.saved_fraction < 0 ? "loss" : "saving"),
             "main_workload", r.workloads[top].name});
    }
    s.push_back({"fleet ceiling",
                 std::isinf(r.ceiling.speedup)
                     ? "none (every workload's time is sped up)"
                     : format_speedup(r.ceiling.speedup, style) + " (every workload's sped-up phases at no time)",
                 "ceiling", machine_number(r.ceiling.speedup)});
    add_workload_boundaries(s, r.workloads);
    if (r.worth) add_fleet(doc, *r.worth, options);
    if (r.required_speedup) {
        doc.gates.push_back(
            {r.gate_passed, "--require-speedup " + format_plain(*r.required_speedup, style),
             fmt::format("fleet {}: {} the required {}", format_speedup(r.fleet.speedup, style),
                         r.gate_passed ? "at least" : "below", format_speedup(*r.required_speedup, style))});
        doc.verdict = r.gate_passed ? "the gate passed" : "the gate failed";
        s.push_back({"", "", "gate_passed", r.gate_passed ? "true" : "false"});
    }
    doc.notes = r.notes;
    return doc;
}

Document layout(const MixRankResult& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    Document doc;
    doc.command = "rank";
    const bool any_effort = r.from_proposals && std::any_of(r.ranked.begin(), r.ranked.end(),
                                                            [](const MixTarget& t) { return t.effort.has_value(); });
    Table table;
    table.columns = {{"rank", "rank", true},
                     {"target", "name", false, true},
                     {"kind", "kind"},
                     {"factor", "factor", true},
                     {"fleet share", "fleet_share_pct", true}};
    const std::vector<std::string> labels = workload_labels(r.workloads);
    for (std::size_t w = 0; w < r.workloads.size(); ++w)
        table.columns.push_back({"share in " + labels[w], "share_pct_workload_" + std::to_string(w + 1), true});
    for (Column column : std::vector<Column>{{"fleet saved", "fleet_saved_pct", true},
                                             {"fleet speedup", "speedup", true},
                                             {"ceiling", "ceiling", true},
                                             {"mostly from", "main_workload", false, true}})
        table.columns.push_back(std::move(column));
    if (any_effort) {
        table.columns.push_back({"effort (" + plural(r.effort_unit) + ")", "effort", true});
        table.columns.push_back({"saved per " + r.effort_unit, "saved_pct_per_effort", true});
    }
    for (double k : r.grid)
        table.columns.push_back({"at " + format_factor(k, style), "speedup_at_" + machine_number(k), true});
    if (r.fleet) add_fleet_columns(table, *r.fleet);
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        const MixTarget& t = r.ranked[i];
        std::vector<Cell> row{Cell(std::to_string(i + 1)), Cell(printable(t.name), t.name),
                              Cell(printable(t.kind), t.kind),
                              Cell(format_factor(t.factor, style), machine_number(t.factor)),
                              Cell(format_share(t.fleet_share, style), shortest(t.fleet_share * 100))};
        for (double share : t.time_fraction) row.emplace_back(format_share(share, style), shortest(share * 100));
        const std::string& main = r.workloads[t.main_workload].name;
        const std::string& main_label = labels[t.main_workload];
        row.emplace_back(format_share(t.fleet.saved_fraction, style), shortest(t.fleet.saved_fraction * 100));
        row.emplace_back(format_speedup(t.fleet.speedup, style), machine_number(t.fleet.speedup));
        row.emplace_back(format_speedup(t.ceiling, style), machine_number(t.ceiling));
        row.emplace_back(t.fleet.saved_fraction != 0 ? main_label : "-", t.fleet.saved_fraction != 0 ? main : "");
        if (any_effort) {
            row.push_back(t.effort ? Cell(format_plain(*t.effort, style), shortest(*t.effort)) : Cell("-", ""));
            row.push_back(t.saved_per_effort
                              ? Cell(format_share(*t.saved_per_effort, style), shortest(*t.saved_per_effort * 100))
                              : Cell("-", ""));
        }
        for (double speedup : t.grid) row.emplace_back(format_speedup(speedup, style), machine_number(speedup));
        if (r.fleet) add_fleet_cells(row, r.fleet_figures[i], style);
        table.rows.push_back(std::move(row));
    }
    doc.table = std::move(table);
    if (options.explain)
        doc.sections.push_back({"The arithmetic (s_i, t_i: the share of workload i's time the target saves, takes)",
                                explain_mix_rank(r, style), true, true});
    if (options.explain && r.fleet && !r.fleet_figures.empty())
        doc.sections.push_back({"The fleet's arithmetic, for " + printable(r.ranked.front().name),
                                explain_fleet(r.fleet_figures.front(), style), false, true});
    auto& s = doc.summary;
    if (!r.ranked.empty()) {
        const MixTarget& top = r.ranked.front();
        const char* what = r.by == RankBy::effort    ? "most fleet time saved per unit of effort"
                           : r.by == RankBy::ceiling ? "highest fleet ceiling"
                                                     : "largest fleet saving";
        s.push_back(
            {what,
             fmt::format("{} ({}, {} of fleet time saved, {} for the fleet, mostly from {})", printable(top.name),
                         format_factor(top.factor, style), format_share(top.fleet.saved_fraction, style),
                         format_speedup(top.fleet.speedup, style),
                         top.fleet.saved_fraction != 0 ? printable(r.workloads[top.main_workload].name)
                                                       : std::string("no workload: it changes nothing")),
             "top", top.name});
        doc.headline =
            fmt::format("{} first ({} for the fleet)", printable(top.name), format_speedup(top.fleet.speedup, style));
    }
    s.push_back(
        {"weights", weights_basis(r.workloads), "weights", std::string(mix_weight_kind_name(kind_of(r.workloads)))});
    s.push_back({"workloads", shares_line(r.workloads, style), "", ""});
    add_workload_boundaries(s, r.workloads);
    if (r.fleet) {
        add_fleet_inputs_summary(s, *r.fleet, style);
        add_fleet_assumption(s, *r.fleet);
    }
    s.push_back({"", "", "targets", std::to_string(r.ranked.size())});
    doc.notes = r.notes;
    return doc;
}

}  // namespace amdahl
