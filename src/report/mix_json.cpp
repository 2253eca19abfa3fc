// The JSON of `eval --mix` (schemas/eval_mix.schema.json), `rank --mix`
// (schemas/rank_mix.schema.json) and `plan --mix` (schemas/plan_mix.schema.json). Infinite
// numbers are written as null.
#include <algorithm>

#include "report/fleet.hpp"
#include "report/mix.hpp"

namespace amdahl {

namespace {

void write_workload(JsonWriter& json, const MixWorkload& w) {
    const Profile& profile = *w.profile;
    json.field("name", w.name).field("profile", profile.name).field("source", profile.source);
    json.field("unit", unit_name(profile.unit)).field("weight", w.weight.text).field("weight_value", w.weight.value);
    json.field("time_share", w.time_share);
    if (profile.boundary.empty())
        json.key("boundary").null();
    else
        json.field("boundary", profile.boundary);
    json.field("summary_only", profile.summary_only);
}

void begin_mix(JsonWriter& json, const char* command, const std::vector<MixWorkload>& workloads) {
    json.begin_object().field("schema_version", 1).field("command", command);
    json.field("weights",
               mix_weight_kind_name(workloads.empty() ? MixWeightKind::share : workloads.front().weight.kind));
    json.field("weights_basis", weights_basis(workloads));
}

// A list of strings as one array value.
void write_lines_value(JsonWriter& json, const std::vector<std::string>& lines) {
    json.begin_array();
    for (const auto& line : lines) json.value(line);
    json.end_array();
}

void write_lines(JsonWriter& json, const char* key, const std::vector<std::string>& lines) {
    json.key(key);
    write_lines_value(json, lines);
}

}  // namespace

void write_json(std::ostream& out, const MixEvalResult& r, const ReportOptions& options) {
    JsonWriter json(&out);
    begin_mix(json, "eval", r.workloads);
    json.field("speedup", r.fleet.speedup).field("saved_fraction", r.fleet.saved_fraction);
    json.field("ceiling", r.ceiling.speedup).field("ceiling_saved_fraction", r.ceiling.saved_fraction);
    if (r.fleet.win_share.empty()) {
        json.key("main_workload").null();
    } else {
        json.field("main_workload", r.workloads[carrying_workload(r.fleet.saved, r.fleet.saved_fraction)].name);
    }
    json.key("speedups").begin_array();
    for (std::size_t s = 0; s < r.speedups.size(); ++s) {
        json.begin_object().field("spec", r.speedups[s].text).field("selector", r.speedups[s].selector.text);
        json.field("factor", r.speedups[s].factor.value).key("workloads").begin_array(true);
        for (std::size_t w = 0; w < r.workloads.size(); ++w) {
            const auto& picked = r.evaluations[w].speedups;
            if (std::find(picked.begin(), picked.end(), s) != picked.end()) json.value(r.workloads[w].name);
        }
        json.end_array().end_object();
    }
    json.end_array();
    json.key("workloads").begin_array();
    for (std::size_t w = 0; w < r.workloads.size(); ++w) {
        const Evaluation& e = r.evaluations[w].evaluation;
        json.begin_object();
        write_workload(json, r.workloads[w]);
        json.field("baseline_time", e.baseline_time).field("new_time", e.new_time).field("speedup", e.speedup);
        json.field("saved_fraction", e.saved_fraction).field("affected_fraction", e.affected_fraction);
        json.field("ceiling", e.ceiling);
        if (e.overlap_range) {
            json.key("speedup_range").begin_object().field("low", e.overlap_range->low_speedup);
            json.field("high", e.overlap_range->high_speedup).end_object();
        } else {
            json.key("speedup_range").null();
        }
        json.field("fleet_saved_fraction", r.fleet.saved[w]);
        if (r.fleet.win_share.empty())
            json.key("win_share").null();
        else
            json.field("win_share", r.fleet.win_share[w]);
        json.end_object();
    }
    json.end_array();
    if (r.worth) write_fleet_json(json, *r.worth, options);
    if (r.required_speedup) {
        json.key("gate").begin_object().field("required_speedup", *r.required_speedup);
        json.field("passed", r.gate_passed).end_object();
    }
    write_lines(json, "notes", r.notes);
    if (options.explain) write_lines(json, "explanation", explain_mix(r, options.numbers));
    json.end_object();
    out << json.str();
}

void write_json(std::ostream& out, const MixRankResult& r, const ReportOptions& options) {
    JsonWriter json(&out);
    begin_mix(json, "rank", r.workloads);
    json.field("by", r.by == RankBy::effort ? "effort" : r.by == RankBy::ceiling ? "ceiling" : "saving");
    if (r.from_proposals)
        json.key("factor").null();
    else
        json.field("factor", r.factor);
    json.field("effort_unit", r.effort_unit);
    if (r.fleet) {
        json.key("fleet").begin_object();
        write_fleet_inputs_json(json, *r.fleet);
        json.end_object();
    }
    json.key("workloads").begin_array();
    for (const MixWorkload& w : r.workloads) {
        json.begin_object(true);
        write_workload(json, w);
        json.field("baseline_time", w.profile->total()).end_object();
    }
    json.end_array();
    json.key("targets").begin_array();
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        const MixTarget& t = r.ranked[i];
        json.begin_object().field("rank", i + 1).field("name", t.name).field("kind", t.kind);
        json.field("factor", t.factor).field("effort", t.effort).field("fleet_share", t.fleet_share);
        json.field("saved_fraction", t.fleet.saved_fraction).field("speedup", t.fleet.speedup);
        json.field("ceiling", t.ceiling).field("saved_per_effort", t.saved_per_effort);
        if (t.fleet.saved_fraction != 0)
            json.field("main_workload", r.workloads[t.main_workload].name);
        else
            json.key("main_workload").null();
        json.key("workloads").begin_array();
        for (std::size_t w = 0; w < r.workloads.size(); ++w) {
            json.begin_object(true).field("name", r.workloads[w].name).field("share", t.time_fraction[w]);
            json.field("saved_fraction", t.saved_fraction[w]).field("fleet_saved_fraction", t.fleet.saved[w]);
            json.end_object();
        }
        json.end_array();
        if (r.fleet) {
            json.key("fleet").begin_object(true);
            write_fleet_figures_json(json, r.fleet_figures[i]);
            json.end_object();
        }
        if (!r.grid.empty()) {
            json.key("grid").begin_array();
            for (std::size_t g = 0; g < r.grid.size(); ++g)
                json.begin_object(true).field("factor", r.grid[g]).field("speedup", t.grid[g]).end_object();
            json.end_array();
        }
        json.end_object();
    }
    json.end_array();
    write_lines(json, "notes", r.notes);
    if (options.explain) write_lines(json, "explanation", explain_mix_rank(r, options.numbers));
    json.end_object();
    out << json.str();
}

void write_json(std::ostream& out, const MixPlanResult& r, const ReportOptions& options) {
    const MixPlan& m = r.mix;
    const PlanResult& plan = m.plan;
    const auto names = [&](const std::vector<std::size_t>& chosen) {
        std::vector<std::string> list;
        for (std::size_t c : chosen) list.push_back(m.targets[c].name);
        return list;
    };
    JsonWriter json(&out);
    begin_mix(json, "plan", r.workloads);
    json.field("objective", r.by_effort ? "effort" : "count");
    if (r.from_proposals)
        json.key("factor").null();
    else
        json.field("factor", r.factor);
    json.field("effort_unit", r.effort_unit);
    json.field("target", r.target_speedup).field("target_time_fraction", 1 / r.target_speedup);
    json.field("reachable", plan.reachable).field("optimal", plan.reachable && plan.proven_optimal);
    write_lines(json, "chosen", names(plan.chosen));
    json.key("steps").begin_array();
    for (const PlanStep& step : m.steps) {
        const MixTarget& t = m.targets[step.candidate];
        json.begin_object().field("name", t.name).field("kind", t.kind).field("factor", t.factor);
        json.field("effort", t.effort).field("fleet_share", t.fleet_share);
        json.field("saved_fraction", t.fleet.saved_fraction).field("time_after_fraction", step.new_time);
        json.field("speedup", step.speedup).key("workloads").begin_array();
        for (std::size_t w = 0; w < r.workloads.size(); ++w) {
            json.begin_object(true).field("name", r.workloads[w].name).field("share", t.time_fraction[w]);
            json.field("saved_fraction", t.saved_fraction[w]).end_object();
        }
        json.end_array().end_object();
    }
    json.end_array();
    if (plan.reachable) {
        json.field("speedup", speedup_from_saving(1, plan.saved)).field("saved_fraction", plan.saved);
        json.field("cost", plan.cost);
    } else {
        json.key("speedup").null().key("saved_fraction").null().key("cost").null();
    }
    if (r.by_effort && plan.reachable)
        json.field("total_effort", plan.cost);
    else
        json.key("total_effort").null();
    json.field("lower_bound", plan.lower_bound).field("nodes", plan.nodes);
    json.key("alternatives").begin_array();
    for (const auto& alternative : plan.alternatives) write_lines_value(json, names(alternative));
    json.end_array();
    json.field("best_possible", m.best_possible).field("ceiling", m.ceiling);
    json.field("time_outside_fraction", m.time_outside);
    if (plan.reachable && !m.outcome.win_share.empty())
        json.field("main_workload", r.workloads[carrying_workload(m.outcome.saved, m.outcome.saved_fraction)].name);
    else
        json.key("main_workload").null();
    json.key("workloads").begin_array();
    for (std::size_t w = 0; w < r.workloads.size(); ++w) {
        json.begin_object();
        write_workload(json, r.workloads[w]);
        json.field("baseline_time", r.workloads[w].profile->total());
        std::size_t here = 0;
        for (std::size_t c : plan.chosen) here += m.targets[c].candidate[w] ? 1 : 0;
        json.field("steps", here).field("saved_fraction", m.workload_saved[w]);
        json.field("speedup", m.workload_speedup[w]).field("fleet_saved_fraction", m.outcome.saved[w]);
        if (m.outcome.win_share.empty())
            json.key("win_share").null();
        else
            json.field("win_share", m.outcome.win_share[w]);
        json.end_object();
    }
    json.end_array();
    if (r.fleet)
        write_fleet_json(json, *r.fleet, options);
    else if (r.fleet_given)
        json.key("fleet").null();
    write_lines(json, "notes", r.notes);
    if (options.explain) write_lines(json, "explanation", explain_mix_plan(r, options.numbers));
    if (r.required)
        json.key("gate").begin_object().field("required", true).field("passed", plan.reachable).end_object();
    json.end_object();
    out << json.str();
}

}  // namespace amdahl
