// How `plan --mix` reads for people: the steps with the fleet's running totals, what the plan
// buys each workload, and why a target is out of reach.
#include <fmt/format.h>

#include <cmath>

#include "report/fleet.hpp"
#include "report/mix.hpp"

namespace amdahl {

namespace {

// "1 phase", "total effort 5 engineer-weeks": what the plan costs.
std::string cost_text(const MixPlanResult& r, const NumberStyle& style) {
    const PlanResult& plan = r.mix.plan;
    if (r.by_effort) return "total effort " + amount_of(plan.cost, r.effort_unit, style);
    return count_of(plan.chosen.size(), r.from_proposals ? "proposal" : "phase");
}

// A share of fleet time, in words: "49.6% of fleet time".
std::string of_fleet(double fraction, const NumberStyle& style) {
    return format_share(fraction, style) + " of fleet time";
}

// Per workload: its share of fleet time, how many of the plan's steps apply there, the share of
// its own time they save, its speedup and its part of the fleet's win.
Table workloads_table(const MixPlanResult& r, const NumberStyle& style) {
    const MixPlan& m = r.mix;
    Table table;
    table.columns = {{"workload", "workload", false, true}, {"time share", "time_share_pct", true},
                     {"steps here", "steps", true},         {"saved (of its time)", "saved_pct", true},
                     {"speedup", "speedup", true},          {"share of the win", "win_share_pct", true}};
    const std::vector<std::string> labels = workload_labels(r.workloads);
    for (std::size_t w = 0; w < r.workloads.size(); ++w) {
        std::size_t here = 0;
        for (std::size_t c : m.plan.chosen) here += m.targets[c].candidate[w] ? 1 : 0;
        table.rows.push_back(
            {Cell(labels[w], r.workloads[w].name),
             Cell(format_share(r.workloads[w].time_share, style), shortest(r.workloads[w].time_share * 100)),
             Cell(std::to_string(here)),
             Cell(format_share(m.workload_saved[w], style), shortest(m.workload_saved[w] * 100)),
             Cell(format_speedup(m.workload_speedup[w], style), machine_number(m.workload_speedup[w])),
             m.outcome.win_share.empty()
                 ? Cell("-", "")
                 : Cell(format_share(m.outcome.win_share[w], style), shortest(m.outcome.win_share[w] * 100))});
    }
    return table;
}

}  // namespace

std::vector<std::string> explain_mix_plan(const MixPlanResult& r, const NumberStyle& style) {
    const MixPlan& m = r.mix;
    const auto p = [&](double v) { return format_plain(v, style); };
    std::vector<std::string> lines;
    std::vector<std::string> shares;
    for (const MixWorkload& w : r.workloads) shares.push_back(printable(w.name) + " " + p(w.time_share));
    lines.push_back("w_i (share of fleet time): " + fmt::format("{}", fmt::join(shares, ", ")));
    std::vector<std::string> saved_terms;
    for (std::size_t c : m.plan.chosen) {
        const MixTarget& t = m.targets[c];
        std::vector<std::string> terms;
        for (std::size_t w = 0; w < r.workloads.size(); ++w)
            terms.push_back(fmt::format("{} x {}", p(r.workloads[w].time_share), p(t.saved_fraction[w])));
        lines.push_back(fmt::format("{}: saved = Σ w_i s_i = {} = {}", printable(t.name), fmt::join(terms, " + "),
                                    p(t.fleet.saved_fraction)));
        saved_terms.push_back(p(t.fleet.saved_fraction));
    }
    const double saved = m.plan.saved;
    lines.push_back(fmt::format("fleet time after = 1 - {} = {}",
                                saved_terms.empty() ? "0" : fmt::format("{}", fmt::join(saved_terms, " - ")),
                                p(1 - saved)));
    lines.push_back(fmt::format("S = 1 / {} = {} (target {}: fleet time at most 1 / {} = {})", p(1 - saved),
                                format_speedup(speedup_from_saving(1, saved), style),
                                format_speedup(r.target_speedup, style), p(r.target_speedup), p(1 / r.target_speedup)));
    for (std::size_t w = 0; w < r.workloads.size(); ++w)
        lines.push_back(fmt::format("{}: s_i = {}, S_i = 1 / (1 - s_i) = {}", printable(r.workloads[w].name),
                                    p(m.workload_saved[w]), format_speedup(m.workload_speedup[w], style)));
    return lines;
}

Document layout(const MixPlanResult& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    const MixPlan& m = r.mix;
    const PlanResult& plan = m.plan;
    Document doc;
    doc.command = "plan";
    Table table;
    table.columns = {{"step", "step", true},
                     {"target", "name", false, true},
                     {"kind", "kind"},
                     {"factor", "factor", true},
                     {"fleet share", "fleet_share_pct", true},
                     {"fleet saved", "fleet_saved_pct", true},
                     {"fleet time after", "fleet_time_after_pct", true},
                     {"fleet speedup", "speedup", true}};
    if (r.by_effort) table.columns.push_back({"effort (" + plural(r.effort_unit) + ")", "effort", true});
    for (std::size_t i = 0; i < m.steps.size(); ++i) {
        const PlanStep& step = m.steps[i];
        const Candidate& c = m.fleet_candidates[step.candidate];
        std::vector<Cell> row{Cell(std::to_string(i + 1)),
                              Cell(printable(c.name), c.name),
                              Cell(printable(c.kind), c.kind),
                              Cell(format_factor(c.factor, style), machine_number(c.factor)),
                              Cell(format_share(c.time, style), shortest(c.time * 100)),
                              Cell(format_share(c.saved, style), shortest(c.saved * 100)),
                              Cell(format_share(step.new_time, style), shortest(step.new_time * 100)),
                              Cell(format_speedup(step.speedup, style), machine_number(step.speedup))};
        if (r.by_effort) row.push_back(Cell(format_plain(*c.effort, style), shortest(*c.effort)));
        table.rows.push_back(std::move(row));
    }
    doc.table = std::move(table);
    doc.table_when_empty = false;
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_mix_plan(r, style), true, true});

    auto& s = doc.summary;
    s.push_back({"target",
                 fmt::format("{} for the fleet (fleet time at most {} of before)",
                             format_speedup(r.target_speedup, style), format_share(1 / r.target_speedup, style)),
                 "target", machine_number(r.target_speedup)});
    const double reached = speedup_from_saving(1, plan.saved);
    const auto name_of = [&](std::size_t c) { return printable(m.targets[c].name); };
    if (plan.reachable) {
        const std::string cost = cost_text(r, style);
        s.push_back({"plan",
                     plan.chosen.empty()
                         ? "nothing to do: the fleet already meets the target"
                         : fmt::format("{}, reaching {} for the fleet (fleet time {} of before)", cost,
                                       format_speedup(reached, style), format_share(1 - plan.saved, style)),
                     "reached_speedup", machine_number(reached)});
        add_plan_search(s, plan, exact_search_optimality(plan, style), name_of);
        if (!m.outcome.win_share.empty()) {
            const std::size_t top = carrying_workload(m.outcome.saved, m.outcome.saved_fraction);
            s.push_back({"carried by",
                         fmt::format("{} ({} of the fleet's saving)", printable(r.workloads[top].name),
                                     format_share(m.outcome.win_share[top], style)),
                         "main_workload", r.workloads[top].name});
        }
        doc.headline = plan.chosen.empty() ? "nothing to do"
                                           : cost + ", reaching " + format_speedup(reached, style) + " for the fleet";
    } else if (!plan.proven_optimal) {
        s.push_back({"plan",
                     fmt::format("none found: the search stopped after {} without a set that reaches the target; "
                                 "whether one exists is not known",
                                 count_of(plan.nodes, "node")),
                     "reached_speedup", ""});
        doc.headline = "no plan found (search stopped)";
    } else {
        s.push_back({"plan", "unreachable: no set of candidates reaches the target", "reached_speedup", ""});
        doc.headline = "unreachable";
    }
    s.push_back({"", "", "reachable", plan.reachable ? "true" : "false"});
    // Each workload's speedup under the plan, for scripts (the people's table is the section below).
    if (plan.reachable)
        for (std::size_t w = 0; w < r.workloads.size(); ++w)
            s.push_back({"", "", "speedup_workload_" + std::to_string(w + 1), machine_number(m.workload_speedup[w])});
    s.push_back(
        {"weights", weights_basis(r.workloads), "weights", std::string(mix_weight_kind_name(kind_of(r.workloads)))});
    s.push_back({"workloads", shares_line(r.workloads, style), "", ""});
    add_workload_boundaries(s, r.workloads);
    if (r.fleet)
        add_fleet(doc, *r.fleet, options);
    else if (r.fleet_given)
        s.push_back({"fleet", "no figures: no plan reaches the target", "", ""});
    s.push_back({"best possible",
                 format_speedup(m.best_possible, style) + " for the fleet (every candidate at its factor)",
                 "best_possible", machine_number(m.best_possible)});
    s.push_back({"ceiling",
                 fmt::format("{} for the fleet (every candidate at no time: {} outside the candidates remain)",
                             format_speedup(m.ceiling, style), of_fleet(m.time_outside, style)),
                 "ceiling", machine_number(m.ceiling)});
    if (plan.reachable && !plan.chosen.empty())
        doc.sections.push_back(
            {"What the plan buys each workload", table_lines(workloads_table(r, style)), false, true});
    if (!plan.reachable && plan.proven_optimal) {
        const std::string why =
            r.target_speedup > m.ceiling
                ? fmt::format(
                      "the phases outside the candidates take {}; even if every candidate took no time, the "
                      "fleet could not beat {}, short of {}.",
                      of_fleet(m.time_outside, style), format_speedup(m.ceiling, style),
                      format_speedup(r.target_speedup, style))
                : fmt::format(
                      "with every candidate at its factor the fleet reaches only {}; {} needs larger factors "
                      "(the ceiling, every candidate at no time, is {}).",
                      format_speedup(m.best_possible, style), format_speedup(r.target_speedup, style),
                      format_speedup(m.ceiling, style));
        doc.sections.push_back({"why", {why}});
    }
    if (r.required) {
        doc.gates.push_back({plan.reachable, "--require",
                             (plan.reachable ? "a plan reaches " : "no plan reaches ") +
                                 format_speedup(r.target_speedup, style) + " for the fleet"});
        doc.verdict = plan.reachable ? "the gate passed" : "the gate failed";
    }
    doc.notes = r.notes;
    return doc;
}

}  // namespace amdahl
