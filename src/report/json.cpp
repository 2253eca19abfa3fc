// The JSON reporter: every command's result with full-precision numbers and a schema_version
// (schemas/<command>.schema.json documents each key). Infinite numbers are written as null.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_set>

#include "model/side_by_side.hpp"
#include "report/explain.hpp"
#include "report/fleet.hpp"
#include "report/profile_json.hpp"
#include "report/report.hpp"
#include "report/uncertainty.hpp"
#include "report/verdict.hpp"

namespace amdahl {

namespace {

void begin_report(JsonWriter& json, const char* command) {
    json.begin_object().field("schema_version", 1).field("command", command);
}

void write_lines(JsonWriter& json, const char* key, const std::vector<std::string>& lines) {
    json.key(key).begin_array();
    for (const auto& line : lines) json.value(line);
    json.end_array();
}

std::vector<std::string> all_notes(const std::vector<std::string>& first, const std::vector<std::string>& second) {
    std::vector<std::string> notes = first;
    notes.insert(notes.end(), second.begin(), second.end());
    return notes;
}

// "calls": a whole number, or null for a phase that does not say.
void write_calls(JsonWriter& json, std::optional<std::uint64_t> calls) {
    if (calls)
        json.field("calls", *calls);
    else
        json.key("calls").null();
}

bool phase_row_wanted(const PhaseOutcome& outcome, PhaseRows rows) {
    return rows == PhaseRows::all || (rows == PhaseRows::changed && outcome.changed());
}

}  // namespace

void write_json(std::ostream& out, const EvalResult& result, const ReportOptions& options) {
    const Profile& profile = *result.profile;
    const Evaluation& r = result.evaluation;
    JsonWriter json(&out);
    begin_report(json, "eval");
    json.field("profile", profile.name).field("source", profile.source);
    json.field("unit", unit_name(profile.unit));
    json.field("baseline_time", r.baseline_time).field("new_time", r.new_time);
    json.field("speedup", r.speedup).field("time_saved", r.time_saved);
    json.field("saved_fraction", r.saved_fraction).field("affected_fraction", r.affected_fraction);
    json.field("ceiling", r.ceiling).field("headroom_captured", r.headroom_captured);
    if (r.overlap_range) {
        json.key("speedup_range").begin_object().field("low", r.overlap_range->low_speedup);
        json.field("high", r.overlap_range->high_speedup).end_object();
        json.key("time_saved_range").begin_object().field("low", r.overlap_range->low_saved);
        json.field("high", r.overlap_range->high_saved).end_object();
    } else {
        json.key("speedup_range").null().key("time_saved_range").null();
    }
    if (r.uncertainty) write_uncertainty_json(json, *r.uncertainty);
    json.field("model", result.replay ? "replay" : "amdahl");
    if (result.replay) {
        const ReplayOutcome& p = *result.replay;
        json.field("replayed_speedup", p.speedup).field("amdahl_speedup", r.speedup);
        json.field("step_time", p.before).field("new_step_time", p.after);
        json.key("replay").begin_object().field("events", p.events).field("edges", p.edges).field("waits", p.waits);
        json.field("gpu_busy_time", p.gpu_busy_before).field("new_gpu_busy_time", p.gpu_busy_after);
        json.field("sped_up_time", p.touched_time).field("sped_up_on_critical_path", p.touched_on_path);
        json.field("makespan", p.makespan_before).field("new_makespan", p.makespan_after);
        json.key("holder");
        if (p.holder) {
            json.begin_object(true).field("name", p.holder->name);
            if (p.holder->track.empty())
                json.key("track").null();
            else
                json.field("track", p.holder->track);
            json.field("time", p.holder->time).field("share", p.holder->share).end_object();
        } else {
            json.null();
        }
        json.key("steps").begin_array();
        for (const ReplayedStep& step : p.steps) {
            json.begin_object(true).field("name", step.name).field("time", step.time);
            json.field("new_time", step.new_time).end_object();
        }
        json.end_array();
        json.key("assumptions").begin_array();
        for (const std::string& line : p.assumptions) json.value(line);
        json.end_array().key("not_events").begin_array();
        for (const std::string& name : p.not_events) json.value(name);
        json.end_array().end_object();
        if (!p.path_before.empty() || !p.path_after.empty()) {
            json.key("critical_path").begin_object();
            for (const auto& [key, path, total] : {std::tuple{"before", &p.path_before, p.makespan_before},
                                                   std::tuple{"after", &p.path_after, p.makespan_after}}) {
                json.key(key).begin_array();
                for (const PathShare& share : *path) {
                    json.begin_object(true);
                    if (share.name.empty())
                        json.key("name").null();
                    else
                        json.field("name", share.name);
                    json.field("phase", share.phase).field("time", share.time);
                    json.field("share", total > 0 ? share.time / total : 0.0).end_object();
                }
                json.end_array();
            }
            json.end_object();
        }
    }
    write_boundary(json, profile);
    if (result.fleet) write_fleet_json(json, *result.fleet, options);
    if (options.verdict) json.field("verdict", eval_verdict(result, options.numbers));
    if (result.required_speedup) {
        json.key("gate").begin_object().field("required_speedup", *result.required_speedup);
        json.field("passed", result.gate_passed).end_object();
    }
    std::vector<std::vector<std::size_t>> phases_of_spec(result.speedups.size());
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        if (r.phases[i].spec >= 0) phases_of_spec[static_cast<std::size_t>(r.phases[i].spec)].push_back(i);
    }
    json.key("speedups").begin_array();
    for (std::size_t s = 0; s < result.speedups.size(); ++s) {
        const SpeedupSpec& spec = result.speedups[s];
        json.begin_object().field("spec", spec.text).field("selector", spec.selector.text);
        json.field("factor", spec.factor.value).key("phases").begin_array();
        for (std::size_t i : phases_of_spec[s]) json.value(profile.phases[i].name);
        json.end_array().end_object();
    }
    json.end_array();
    json.field("phase_rows", options.phases == PhaseRows::all       ? "all"
                             : options.phases == PhaseRows::changed ? "changed"
                                                                    : "none");
    json.key("phases").begin_array();
    const bool calls = any_calls(profile);
    std::vector<std::string_view> full;
    full.reserve(profile.phases.size());
    for (const auto& phase : profile.phases) full.push_back(phase.name);
    const std::vector<std::string> shown = json_short_names(full, &profile);
    // With --critical-path: which phases the replayed step's critical path runs through.
    const bool with_path = result.replay && !result.replay->path_after.empty();
    std::unordered_set<std::string_view> on_path;
    if (with_path)
        for (const PathShare& share : result.replay->path_after)
            if (share.phase) on_path.insert(share.name);
    const auto write_phases = [&](JsonWriter& writer, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (!phase_row_wanted(r.phases[i], options.phases)) continue;
            const Phase& phase = profile.phases[i];
            writer.begin_object(true).field("name", phase.name);
            writer.field("short_name", shown.empty() ? std::string_view(phase.name) : std::string_view(shown[i]));
            writer.field("kind", phase.kind);
            if (calls) write_calls(writer, phase.calls);
            writer.field("time", phase.time).field("share", phase.time / r.baseline_time);
            writer.field("factor", r.phases[i].factor).field("new_time", r.phases[i].new_time);
            writer.field("saved", r.phases[i].saved);
            if (with_path) writer.field("on_critical_path", on_path.count(phase.name) > 0);
            writer.end_object();
        }
    };
    const std::size_t count = options.phases == PhaseRows::none ? 0 : profile.phases.size();
    if (options.phases != PhaseRows::all) {
        write_phases(json, 0, count);
    } else {
        // A long list is written in blocks, two at a time: the second on another thread, so a
        // million phases take about half the time to format on two cores.
        constexpr std::size_t block = 1 << 15;
        write_phases(json, 0, std::min(count, block));
        for (std::size_t start = block; start < count; start += 2 * block) {
            const std::size_t middle = std::min(count, start + block), end = std::min(count, start + 2 * block);
            JsonWriter first = JsonWriter::continuing_list(2), second = JsonWriter::continuing_list(2);
            detail::side_by_side([&] { write_phases(first, start, middle); },
                                 [&] { write_phases(second, middle, end); });
            json.append_elements(first).append_elements(second);
        }
    }
    json.end_array();
    json.key("notes").begin_array();
    for (const auto& note : profile.notes) json.value(note);
    for (const auto& note : r.notes) json.value(note);
    if (std::isinf(r.speedup)) json.value("every phase takes no time: speedup is infinite (null)");
    if (std::isinf(r.ceiling)) json.value("every phase is sped up: the ceiling is infinite (null)");
    json.end_array();
    if (options.explain) {
        std::vector<std::string> lines = explain_eval(profile, result.speedups, r, options.numbers);
        for (auto& line : explain_classes(profile)) lines.push_back("class " + line);
        write_lines(json, "explanation", lines);
    }
    json.end_object();
    out << json.str();
}

void write_json(std::ostream& out, const LawResult& result, const ReportOptions& options) {
    const LawSolution& s = result.solution;
    const auto solved = result.solved_for;
    JsonWriter json;
    begin_report(json, "law");
    json.field("solved_for", solved == LawResult::Solved::speedup  ? "speedup"
                             : solved == LawResult::Solved::factor ? "factor"
                                                                   : "fraction");
    if (solved != LawResult::Solved::fraction || s.possible)
        json.field("fraction", s.fraction);
    else
        json.key("fraction").null();
    if (solved != LawResult::Solved::factor || s.possible)
        json.field("factor", s.factor);
    else
        json.key("factor").null();
    json.field(solved == LawResult::Solved::speedup ? "speedup" : "target", s.speedup);
    json.field("ceiling", s.ceiling).field("possible", s.possible).field("at_ceiling", s.at_ceiling);
    if (const auto note = law_note(result, options.numbers)) json.field("note", note->text);
    if (!s.possible) json.field("reason", s.reason);
    if (s.possible) json.field("saved_fraction", result.saved_fraction());
    if (result.speedup_range)
        json.field("speedup_low", result.speedup_range->low).field("speedup_high", result.speedup_range->high);
    if (result.parts.size() > 1) {
        json.key("parts").begin_array();
        for (std::size_t i = 0; i < result.parts.size(); ++i) {
            json.begin_object().field("fraction", result.parts[i].fraction).field("factor", result.parts[i].factor);
            if (i < result.part_times.size()) json.field("time", result.part_times[i]);
            json.end_object();
        }
        json.end_array();
    }
    if (result.time) {
        json.field("unit", unit_name(result.time_unit)).field("old_time", *result.time);
        if (const auto part = result.part_time()) json.field("part_time", *part);
        if (s.possible) json.field("new_time", result.new_time()).field("time_saved", result.time_saved());
    }
    if (result.fleet)
        write_fleet_json(json, *result.fleet, options);
    else if (result.fleet_given)
        json.key("fleet").null();
    if (options.explain) write_lines(json, "explanation", explain_law(result, options.numbers));
    json.end_object();
    out << json.str();
}

void write_json(std::ostream& out, const RankResult& result, const ReportOptions& options) {
    const Profile& profile = *result.profile;
    const CandidateSet& set = result.set;
    JsonWriter json(&out);
    begin_report(json, "rank");
    json.field("unit", unit_name(profile.unit)).field("baseline_time", result.baseline_time);
    json.field("by", result.by == RankBy::effort ? "effort" : result.by == RankBy::ceiling ? "ceiling" : "saving");
    if (result.conservative) json.field("conservative", true);
    json.field("model", result.replayed ? "replay" : "amdahl");
    if (set.from_proposals)
        json.key("factor").null();
    else
        json.field("factor", set.factor);
    json.field("effort_unit", set.effort_unit);
    write_boundary(json, profile);
    if (result.fleet) {
        json.key("fleet").begin_object();
        write_fleet_inputs_json(json, *result.fleet);
        json.end_object();
    }
    const bool calls = any_calls(profile);
    std::vector<std::string_view> full;
    for (const RankedTarget& target : result.ranked) full.push_back(set.candidates[target.candidate].name);
    const std::vector<std::string> shown = json_short_names(full, &profile);
    json.key("targets").begin_array();
    for (std::size_t r = 0; r < result.ranked.size(); ++r) {
        const RankedTarget& target = result.ranked[r];
        const Candidate& c = set.candidates[target.candidate];
        json.begin_object().field("rank", r + 1).field("name", c.name);
        json.field("short_name", shown.empty() ? full[r] : std::string_view(shown[r]));
        json.key("phases").begin_array();
        for (std::size_t ph : c.phases) json.value(profile.phases[ph].name);
        json.end_array();
        json.field("kind", c.kind);
        if (calls) write_calls(json, total_calls(profile, c.phases));
        json.field("time", c.time).field("share", c.time / result.phase_table_time);
        json.field("factor", c.factor).field("speedup", target.speedup).field("time_saved", c.saved);
        json.field("ceiling", target.ceiling).field("effort", c.effort);
        if (result.replayed)
            json.field("on_critical_path", static_cast<bool>(result.on_critical_path[target.candidate]));
        json.field("saved_per_effort", target.saved_per_effort);
        if (target.uncertainty) write_uncertainty_json(json, *target.uncertainty);
        if (result.fleet) {
            json.key("fleet").begin_object(true);
            write_fleet_figures_json(json, result.fleet_figures[r]);
            json.end_object();
        }
        if (!result.grid.empty()) {
            json.key("grid").begin_array();
            for (std::size_t g = 0; g < result.grid.size(); ++g)
                json.begin_object().field("factor", result.grid[g]).field("speedup", target.grid[g]).end_object();
            json.end_array();
        }
        json.end_object();
    }
    json.end_array();
    write_lines(json, "notes", all_notes(profile.notes, set.notes));
    if (options.explain) write_lines(json, "explanation", explain_rank(result, options.numbers));
    json.end_object();
    out << json.str();
}

void write_json(std::ostream& out, const PlanReport& result, const ReportOptions& options) {
    const CandidateSet& set = result.set;
    const PlanResult& plan = result.plan;
    const auto names = [&](const std::vector<std::size_t>& chosen) {
        std::vector<std::string> list;
        for (std::size_t c : chosen) list.push_back(set.candidates[c].name);
        return list;
    };
    JsonWriter json;
    begin_report(json, "plan");
    json.field("unit", unit_name(result.profile->unit)).field("baseline_time", result.baseline_time);
    json.field("target", result.target_speedup).field("target_time", result.target_time);
    json.field("objective", result.by_effort ? "effort" : "count").field("reachable", plan.reachable);
    json.field("optimal", plan.reachable && plan.proven_optimal);
    write_boundary(json, *result.profile, false);
    write_lines(json, "chosen", names(plan.chosen));
    std::vector<std::string_view> full;
    for (const Candidate& c : set.candidates) full.push_back(c.name);
    const std::vector<std::string> shown = json_short_names(full, result.profile);
    json.key("steps").begin_array();
    for (const PlanStep& s : result.steps) {
        const Candidate& c = set.candidates[s.candidate];
        json.begin_object().field("name", c.name);
        json.field("short_name", shown.empty() ? full[s.candidate] : std::string_view(shown[s.candidate]));
        json.field("saved", c.saved).field("new_time", s.new_time).field("speedup", s.speedup);
        json.field("effort", c.effort).end_object();
    }
    json.end_array();
    if (plan.reachable) {
        json.field("new_time", result.baseline_time - plan.saved);
        json.field("speedup", speedup_from_saving(result.baseline_time, plan.saved));
        json.field("cost", plan.cost);
    } else {
        json.key("new_time").null().key("speedup").null().key("cost").null();
    }
    if (result.by_effort && plan.reachable)
        json.field("total_effort", plan.cost);
    else
        json.key("total_effort").null();
    json.field("effort_unit", set.effort_unit);
    if (result.fleet)
        write_fleet_json(json, *result.fleet, options);
    else if (result.fleet_given)
        json.key("fleet").null();
    json.field("lower_bound", plan.lower_bound).field("nodes", plan.nodes);
    json.field("model", result.replayed ? "replay" : "amdahl");
    if (result.replayed)
        json.field("sets", result.sets).field("max_replays", result.max_replays);
    else
        json.key("sets").null().key("max_replays").null();
    json.key("alternatives").begin_array();
    for (const auto& alternative : plan.alternatives) {
        json.begin_array();
        for (const auto& n : names(alternative)) json.value(n);
        json.end_array();
    }
    json.end_array();
    json.field("best_possible", result.best_possible).field("ceiling", result.ceiling);
    json.field("time_outside_candidates", result.time_outside);
    if (result.uncertainty) write_uncertainty_json(json, *result.uncertainty);
    write_lines(json, "notes", all_notes(result.profile->notes, set.notes));
    if (options.explain) write_lines(json, "explanation", explain_plan(result, options.numbers));
    if (result.required) {
        json.key("gate").begin_object().field("required", true).field("passed", result.gate_passed()).end_object();
    }
    json.end_object();
    out << json.str();
}

}  // namespace amdahl
