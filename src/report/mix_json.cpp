// The JSON of `eval --mix` (schemas/eval_mix.schema.json) and `rank --mix`
// (schemas/rank_mix.schema.json). Infinite numbers are written as null.
#include <algorithm>

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

void write_lines(JsonWriter& json, const char* key, const std::vector<std::string>& lines) {
    json.key(key).begin_array();
    for (const auto& line : lines) json.value(line);
    json.end_array();
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

}  // namespace amdahl
