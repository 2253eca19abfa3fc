// How `amdahl rank` reads for people: the targets, best first, and the winner in one line.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "report/explain.hpp"
#include "report/fleet.hpp"
#include "report/report.hpp"
#include "report/uncertainty.hpp"

namespace amdahl {

Document layout(const RankResult& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    const CandidateSet& set = r.set;
    const std::string unit(unit_name(r.profile->unit));
    const std::string& effort_unit = set.effort_unit;
    const bool any_effort = std::any_of(set.candidates.begin(), set.candidates.end(),
                                        [](const Candidate& c) { return c.effort.has_value(); });
    Document doc;
    doc.command = "rank";
    Table table;
    table.columns = {{"rank", "rank", true},
                     {"target", "name", false, true},
                     {"kind", "kind"},
                     {"time (" + unit + ")", "time_" + unit, true},
                     {"share", "share_pct", true},
                     {"factor", "factor", true},
                     {"speedup", "speedup", true},
                     {"saved (" + unit + ")", "time_saved_" + unit, true},
                     {"ceiling", "ceiling", true}};
    if (any_effort) {
        table.columns.push_back({"effort (" + plural(effort_unit) + ")", "effort", true});
        table.columns.push_back({"saved per " + effort_unit + " (" + unit + ")", "saved_per_effort_" + unit, true});
    }
    // How many calls each target made, when the input says: many short calls is launch-bound work.
    const bool calls = any_calls(*r.profile);
    if (calls) table.columns.insert(table.columns.begin() + 3, Column{"calls", "calls", true});
    for (double k : r.grid)
        table.columns.push_back({"at " + format_factor(k, style), "speedup_at_" + machine_number(k), true});
    // With ranges or spreads: each target's bounds beside its point speedup.
    // What any target is unsure of (every target has bounds when one has).
    std::optional<Uncertainty> uncertain;
    for (const RankedTarget& t : r.ranked) {
        if (!t.uncertainty) continue;
        if (!uncertain) uncertain = Uncertainty{};
        uncertain->factor_ranges = uncertain->factor_ranges || t.uncertainty->factor_ranges;
        uncertain->time_ranges = uncertain->time_ranges || t.uncertainty->time_ranges;
        uncertain->spreads = uncertain->spreads || t.uncertainty->spreads;
    }
    const bool ranges = uncertain && uncertain->any_range();
    const bool spreads = uncertain && uncertain->spreads;
    if (ranges) {
        table.columns.push_back({"speedup low", "speedup_low", true});
        table.columns.push_back({"speedup high", "speedup_high", true});
    }
    if (spreads) table.columns.push_back({"speedup sd", "speedup_sd", true});
    if (r.fleet) add_fleet_columns(table, *r.fleet);
    if (r.replayed) table.columns.push_back({"on critical path", "on_critical_path"});
    // The names as printed: short names never alike within the table (--names short).
    std::vector<std::string_view> full;
    full.reserve(r.ranked.size());
    for (const RankedTarget& t : r.ranked) full.push_back(set.candidates[t.candidate].name);
    auto shown = std::make_shared<const std::vector<std::string>>(displayed_names(full, options, r.profile));
    const auto shown_name = [shown, &full](std::size_t i) -> std::string_view {
        return shown->empty() ? full[i] : std::string_view((*shown)[i]);
    };
    // Rows made as they are written: ranking a million phases must not hold them as text too.
    table.generated_rows = r.ranked.size();
    table.make_row = [&r, any_effort, calls, style, shown, ranges, spreads](std::size_t i, std::vector<Cell>& row) {
        const RankedTarget& t = r.ranked[i];
        const Candidate& c = r.set.candidates[t.candidate];
        row.emplace_back(std::to_string(i + 1));
        row.emplace_back(printable(shown->empty() ? c.name : (*shown)[i]), c.name);
        row.emplace_back(printable(c.kind), c.kind);
        if (calls) row.push_back(calls_cell(total_calls(*r.profile, c.phases)));
        row.emplace_back(format_time(c.time, style), shortest(c.time));
        row.emplace_back(format_share(c.time / r.phase_table_time, style), shortest(c.time * 100 / r.phase_table_time));
        row.emplace_back(format_factor(c.factor, style), machine_number(c.factor));
        row.emplace_back(format_speedup(t.speedup, style), machine_number(t.speedup));
        row.emplace_back(format_time(c.saved, style), shortest(c.saved));
        row.emplace_back(format_speedup(t.ceiling, style), machine_number(t.ceiling));
        if (any_effort) {
            row.push_back(c.effort ? Cell(format_plain(*c.effort, style), shortest(*c.effort)) : Cell("-", ""));
            row.push_back(t.saved_per_effort
                              ? Cell(format_time(*t.saved_per_effort, style), shortest(*t.saved_per_effort))
                              : Cell("-", ""));
        }
        for (double s : t.grid) row.emplace_back(format_speedup(s, style), machine_number(s));
        if (ranges) {
            row.emplace_back(format_speedup(t.uncertainty->speedup.low, style),
                             machine_number(t.uncertainty->speedup.low));
            row.emplace_back(format_speedup(t.uncertainty->speedup.high, style),
                             machine_number(t.uncertainty->speedup.high));
        }
        if (spreads) {
            const std::optional<double> sd = t.uncertainty->speedup_sd;
            row.push_back(sd ? Cell(format_speedup(*sd, style), machine_number(*sd)) : Cell("-", ""));
        }
        if (r.fleet) add_fleet_cells(row, r.fleet_figures[i], style);
        if (r.replayed) {
            const bool on_path = r.on_critical_path[t.candidate];
            row.emplace_back(on_path ? "yes" : "no (faster gains little)", on_path ? "true" : "false");
        }
    };
    doc.table = std::move(table);
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_rank(r, style), true, true});
    if (!r.ranked.empty()) {
        const RankedTarget& top = r.ranked.front();
        const Candidate& first = set.candidates[top.candidate];
        const char* what = r.conservative            ? "highest speedup at its range's low end"
                           : r.by == RankBy::effort  ? "most time saved per unit of effort"
                           : r.by == RankBy::ceiling ? "highest ceiling"
                                                     : "largest saving";
        std::string text = fmt::format("{} ({}, {} {} saved, {} {}", printable(shown_name(0)),
                                       format_factor(first.factor, style), format_time(first.saved, style), unit,
                                       format_speedup(top.speedup, style), whole_run(*r.profile));
        if (top.saved_per_effort)
            text += fmt::format(", {} {} per {}", format_time(*top.saved_per_effort, style), unit, effort_unit);
        doc.summary.push_back({what, text + ")", "top", first.name});
        doc.headline = fmt::format("{} first ({} {})", printable(shown_name(0)), format_speedup(top.speedup, style),
                                   whole_run(*r.profile));
    }
    if (r.replayed) {
        doc.summary.push_back({"model",
                               fmt::format("replay: each target alone replayed over the trace's dependencies "
                                           "(docs/replay.md); speedups, savings and ceilings are over {}, {} {}; "
                                           "time and share are the phase table's",
                                           r.profile->steps.empty() ? "the trace's makespan" : "the mean step",
                                           format_time(r.baseline_time, style), unit),
                               "model", "replay"});
    }
    if (uncertain) {
        doc.summary.push_back({"uncertainty", uncertainty_assumption(*uncertain), "", ""});
        if (options.explain && r.ranked.front().uncertainty)
            doc.sections.push_back({"Both ends, for " + printable(shown_name(0)),
                                    explain_uncertainty(*r.ranked.front().uncertainty, unit, style), false, true});
    }
    if (r.conservative)
        doc.summary.push_back(
            {"order", "--conservative: by each target's speedup at its ranges' low end", "order", "conservative"});
    add_boundary(doc.summary, r.profile->boundary, r.profile->summary_only);
    if (r.fleet) {
        add_fleet_inputs_summary(doc.summary, *r.fleet, style);
        add_fleet_assumption(doc.summary, *r.fleet);
        if (options.explain && !r.fleet_figures.empty())
            doc.sections.push_back({"The fleet's arithmetic, for " + printable(shown_name(0)),
                                    explain_fleet(r.fleet_figures.front(), style), false, true});
    }
    doc.summary.push_back({"", "", "targets", std::to_string(r.ranked.size())});
    doc.summary.push_back({"", "", "baseline_" + unit, shortest(r.baseline_time)});
    doc.notes = r.profile->notes;
    doc.notes.insert(doc.notes.end(), r.set.notes.begin(), r.set.notes.end());
    return doc;
}

}  // namespace amdahl
