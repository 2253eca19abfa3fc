// How `amdahl plan` reads for people: the steps with running totals, the plan, and why not.
#include <fmt/format.h>

#include <cmath>
#include <functional>

#include "report/explain.hpp"
#include "report/fleet.hpp"
#include "report/report.hpp"
#include "report/uncertainty.hpp"

namespace amdahl {

std::string exact_search_optimality(const PlanResult& plan, const NumberStyle& style) {
    return plan.proven_optimal
               ? fmt::format("yes, proven (exact search, {})", count_of(plan.nodes, "node"))
               : fmt::format("not proven: the search stopped after {}; the optimum costs at least {} (gap {})",
                             count_of(plan.nodes, "node"), format_plain(plan.lower_bound, style),
                             format_plain(plan.cost - plan.lower_bound, style));
}

void add_plan_search(std::vector<SummaryLine>& summary, const PlanResult& plan, const std::string& optimal,
                     const std::function<std::string(std::size_t)>& name_of) {
    summary.push_back({"optimal", optimal, "optimal", plan.proven_optimal ? "true" : "false"});
    for (std::size_t a = 0; a < plan.alternatives.size(); ++a) {
        std::string list;
        for (std::size_t c : plan.alternatives[a]) list += (list.empty() ? "" : ", ") + name_of(c);
        summary.push_back({a == 0 ? "same cost" : "", list, "", ""});
    }
}

Document layout(const PlanReport& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    const CandidateSet& set = r.set;
    const PlanResult& plan = r.plan;
    const std::string unit(unit_name(r.profile->unit));
    const auto t = [&](double v) { return format_time(v, style) + " " + unit; };
    Document doc;
    doc.command = "plan";
    Table table;
    table.columns = {{"step", "step", true},
                     {"target", "name", false, true},
                     {"kind", "kind"},
                     {"time (" + unit + ")", "time_" + unit, true},
                     {"factor", "factor", true},
                     {"saved (" + unit + ")", "saved_" + unit, true},
                     {"new time (" + unit + ")", "new_time_" + unit, true},
                     {"speedup", "speedup", true}};
    if (r.by_effort) table.columns.push_back({"effort (" + plural(set.effort_unit) + ")", "effort", true});
    // The names as printed, over every candidate (the steps and the plans of the same cost).
    std::vector<std::string_view> full;
    for (const Candidate& c : set.candidates) full.push_back(c.name);
    const std::vector<std::string> shown = displayed_names(full, options, r.profile);
    const auto name_of = [&](std::size_t c) { return printable(shown.empty() ? full[c] : shown[c]); };
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
        const PlanStep& step = r.steps[i];
        const Candidate& c = set.candidates[step.candidate];
        std::vector<Cell> row{Cell(std::to_string(i + 1)),
                              Cell(name_of(step.candidate), c.name),
                              Cell(printable(c.kind), c.kind),
                              Cell(format_time(c.time, style), shortest(c.time)),
                              Cell(format_factor(c.factor, style), machine_number(c.factor)),
                              Cell(format_time(c.saved, style), shortest(c.saved)),
                              Cell(format_time(step.new_time, style), shortest(step.new_time)),
                              Cell(format_speedup(step.speedup, style), machine_number(step.speedup))};
        if (r.by_effort) row.push_back(Cell(format_plain(*c.effort, style), shortest(*c.effort)));
        table.rows.push_back(std::move(row));
    }
    doc.table = std::move(table);
    doc.table_when_empty = false;
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_plan(r, style), true, true});

    auto& s = doc.summary;
    s.push_back({"target",
                 fmt::format("{} (new time at most {} of {})", format_speedup(r.target_speedup, style),
                             t(r.target_time), t(r.baseline_time)),
                 "target", machine_number(r.target_speedup)});
    s.push_back({"", "", "target_time_" + unit, shortest(r.target_time)});
    const double new_time = r.baseline_time - plan.saved;
    const double reached = speedup_from_saving(r.baseline_time, plan.saved);
    if (plan.reachable) {
        const std::string cost = r.by_effort ? "total effort " + format_plain(plan.cost, style) + " " +
                                                   (plan.cost == 1 ? set.effort_unit : plural(set.effort_unit))
                                             : count_of(plan.chosen.size(), set.from_proposals ? "proposal" : "phase");
        s.push_back({"plan",
                     plan.chosen.empty() ? "nothing to do: the profile already meets the target"
                                         : fmt::format("{}, reaching {} (new time {})", cost,
                                                       format_speedup(reached, style), t(new_time)),
                     "reached_speedup", machine_number(reached)});
        std::string optimal;
        if (r.replayed) {
            optimal = plan.proven_optimal
                          ? fmt::format(
                                "yes, proven: every cheaper set was replayed or could not save enough ({} "
                                "replayed of {} taken in order of cost)",
                                plan.nodes, count_of(r.sets, "set"))
                          : fmt::format(
                                "not proven: the search stopped after {} (its budget: a replay takes time "
                                "linear in the trace's events); the optimum costs at least {} (gap {})",
                                count_of(plan.nodes, "replay"), format_plain(plan.lower_bound, style),
                                format_plain(plan.cost - plan.lower_bound, style));
        } else {
            optimal = exact_search_optimality(plan, style);
        }
        add_plan_search(s, plan, optimal, name_of);
        doc.headline = plan.chosen.empty() ? "nothing to do" : cost + ", reaching " + format_speedup(reached, style);
    } else if (!plan.proven_optimal) {
        s.push_back({"plan",
                     fmt::format("none found: the search stopped after {} without a set that reaches the target; "
                                 "whether one exists is not known",
                                 count_of(plan.nodes, r.replayed ? "replay" : "node")),
                     "reached_speedup", ""});
        doc.headline = "no plan found (search stopped)";
    } else {
        s.push_back({"plan", "unreachable: no set of candidates reaches the target", "reached_speedup", ""});
        doc.headline = "unreachable";
    }
    s.push_back({"", "", "reachable", plan.reachable ? "true" : "false"});
    if (r.uncertainty) {
        add_uncertainty_summary(s, *r.uncertainty, unit, style);
        // A --target-time holds at the ranges' worst end when the longest new time is within it.
        const double worst_time = r.uncertainty->new_time.high;
        if (r.uncertainty->any_range() && r.target_is_time)
            s.push_back({"at the low end",
                         meets_threshold(r.target_time, worst_time)
                             ? fmt::format("the plan's new time is at most {} at every range's worst end, within "
                                           "the target {}",
                                           t(worst_time), t(r.target_time))
                             : fmt::format("the plan misses the target time at the ranges' worst end ({} > {})",
                                           t(worst_time), t(r.target_time)),
                         "", ""});
        else if (r.uncertainty->any_range())
            s.push_back({"at the low end",
                         r.uncertainty->speedup.low >= r.target_speedup
                             ? "the plan reaches the target at every range's worst end too"
                             : fmt::format("the plan misses the target at the ranges' worst end ({} < {})",
                                           format_speedup(r.uncertainty->speedup.low, style),
                                           format_speedup(r.target_speedup, style)),
                         "", ""});
        if (options.explain)
            doc.sections.push_back({"Both ends", explain_uncertainty(*r.uncertainty, unit, style), true, true});
    }
    if (r.replayed) {
        s.push_back(
            {"model",
             fmt::format("replay: each set of targets replayed together over the trace's dependencies "
                         "(docs/replay.md); times, savings and speedups are over {}, {}, but a target's time "
                         "is the phase table's; a set is replayed only when the time its events lose could "
                         "reach the target",
                         r.profile->steps.empty() ? "the trace's makespan" : "the mean step", t(r.baseline_time)),
             "model", "replay"});
    }
    add_boundary(s, r.profile->boundary, r.profile->summary_only);
    if (r.fleet)
        add_fleet(doc, *r.fleet, options);
    else if (r.fleet_given)
        s.push_back({"fleet", "no figures: no plan reaches the target", "", ""});
    s.push_back({"best possible", format_speedup(r.best_possible, style) + " (every candidate at its factor)",
                 "best_possible", machine_number(r.best_possible)});
    s.push_back({"ceiling",
                 r.replayed ? fmt::format("{} (every candidate at no time, replayed: {} remain)",
                                          format_speedup(r.ceiling, style), t(r.time_outside))
                            : fmt::format("{} (every candidate at no time: {} outside the candidates remain)",
                                          format_speedup(r.ceiling, style), t(r.time_outside)),
                 "ceiling", machine_number(r.ceiling)});
    if (!plan.reachable && plan.proven_optimal) {
        std::string why;
        // Beyond the ceiling by more than the planner's 1e-12, which every-candidate-at-no-time
        // would reach (0.1 + 0.2 is 0.30000000000000004: a ceiling a unit in the last place short).
        if (r.target_speedup > r.ceiling * (1 + 1e-12)) {
            why = fmt::format(
                "the phases outside the candidates take {}; even if every candidate took no time, the run could not "
                "beat {}, short of {}.",
                t(r.time_outside), format_speedup(r.ceiling, style), format_speedup(r.target_speedup, style));
        } else if (std::isinf(r.ceiling)) {
            why = fmt::format(
                "with every candidate at its factor the run reaches only {}; {} needs larger factors (the candidates "
                "are the whole run, so no ceiling caps it: every speedup is reachable with factors large enough).",
                format_speedup(r.best_possible, style), format_speedup(r.target_speedup, style));
        } else {
            why = fmt::format(
                "with every candidate at its factor the run reaches only {}; {} needs larger factors (the ceiling, "
                "every candidate at no time, is {}: the {} outside the candidates cap it).",
                format_speedup(r.best_possible, style), format_speedup(r.target_speedup, style),
                format_speedup(r.ceiling, style), t(r.time_outside));
        }
        doc.sections.push_back({"why", {why}});
    }
    if (r.required) {
        std::string detail = plan.reachable ? "a plan reaches " + format_speedup(r.target_speedup, style)
                                            : "no plan reaches " + format_speedup(r.target_speedup, style);
        if (r.gate_at_low_end() && r.target_is_time)
            detail =
                fmt::format("the plan's new time at the ranges' worst end is {}: {} the target {}",
                            t(r.uncertainty->new_time.high), r.gate_passed() ? "within" : "over", t(r.target_time));
        else if (r.gate_at_low_end())
            detail = fmt::format("the plan reaches {} at its point; at the low end of the range {}: {} the target {}",
                                 format_speedup(reached, style), format_speedup(r.uncertainty->speedup.low, style),
                                 r.gate_passed() ? "at least" : "below", format_speedup(r.target_speedup, style));
        doc.gates.push_back({r.gate_passed(), "--require", detail});
        doc.verdict = r.gate_passed() ? "the gate passed" : "the gate failed";
    }
    doc.notes = r.profile->notes;
    doc.notes.insert(doc.notes.end(), r.set.notes.begin(), r.set.notes.end());
    return doc;
}

}  // namespace amdahl
