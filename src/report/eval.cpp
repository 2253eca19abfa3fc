// How `amdahl eval` reads for people: the phase table and the summary (the JSON is in json.cpp).
#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "report/explain.hpp"
#include "report/fleet.hpp"
#include "report/report.hpp"
#include "report/uncertainty.hpp"
#include "report/verdict.hpp"

namespace amdahl {

namespace {

// The phases a report carries under --phases, as indices; none means every phase.
std::shared_ptr<const std::vector<std::size_t>> chosen_phases(const EvalResult& r, PhaseRows rows) {
    if (rows == PhaseRows::all) return nullptr;
    auto chosen = std::make_shared<std::vector<std::size_t>>();
    if (rows == PhaseRows::changed)
        for (std::size_t i = 0; i < r.evaluation.phases.size(); ++i)
            if (r.evaluation.phases[i].changed()) chosen->push_back(i);
    return chosen;
}

Table phase_table(const EvalResult& r, const ReportOptions& options) {
    const Profile& profile = *r.profile;
    const std::string unit(unit_name(profile.unit));
    Table table;
    table.columns = {{"phase", "name", false, true},
                     {"kind", "kind"},
                     {"time (" + unit + ")", "time_" + unit, true},
                     {"share", "share_pct", true},
                     {"factor", "factor", true},
                     {"new time (" + unit + ")", "new_time_" + unit, true},
                     {"saved (" + unit + ")", "saved_" + unit, true}};
    // How many calls each phase made, when the input says: many short calls is launch-bound work.
    const bool calls = any_calls(profile);
    if (calls) table.columns.insert(table.columns.begin() + 2, Column{"calls", "calls", true});
    const auto chosen = chosen_phases(r, options.phases);
    // The names as printed: short names never alike within the table (--names short).
    std::vector<std::string_view> full;
    if (chosen) {
        for (std::size_t i : *chosen) full.push_back(profile.phases[i].name);
    } else {
        full.reserve(profile.phases.size());
        for (const auto& phase : profile.phases) full.push_back(phase.name);
    }
    auto shown = std::make_shared<const std::vector<std::string>>(displayed_names(full, options, &profile));
    // One row per phase, made as it is written: a million phases need not sit in memory twice.
    table.generated_rows = chosen ? chosen->size() : profile.phases.size();
    table.make_row = [&r, &profile, chosen, calls, shown, style = options.numbers](std::size_t row_index,
                                                                                   std::vector<Cell>& row) {
        const std::size_t i = chosen ? (*chosen)[row_index] : row_index;
        const Phase& phase = profile.phases[i];
        const PhaseOutcome& outcome = r.evaluation.phases[i];
        const double share = phase.time / r.evaluation.baseline_time;
        std::string factor_text = outcome.changed() ? format_factor(outcome.factor, style) : "-";
        if (outcome.changed() && outcome.factor < 1) factor_text += " (slower)";
        row.emplace_back(printable(shown->empty() ? phase.name : (*shown)[row_index]), phase.name);
        row.emplace_back(printable(phase.kind), phase.kind);
        if (calls) row.push_back(calls_cell(phase.calls));
        row.emplace_back(format_time(phase.time, style), shortest(phase.time));
        row.emplace_back(format_share(share, style), shortest(phase.time * 100 / r.evaluation.baseline_time));
        row.emplace_back(std::move(factor_text), machine_number(outcome.factor));
        row.emplace_back(format_time(outcome.new_time, style), shortest(outcome.new_time));
        row.emplace_back(format_time(outcome.saved, style), shortest(outcome.saved));
    };
    return table;
}

// Why the replayed figure and the phase table's differ, in words a person can act on.
std::string replay_reason(const EvalResult& r, const NumberStyle& style) {
    const ReplayOutcome& p = *r.replay;
    const Evaluation& e = r.evaluation;
    const double low = e.overlap_range ? e.overlap_range->low_speedup : e.speedup;
    const double high = e.overlap_range ? e.overlap_range->high_speedup : e.speedup;
    const std::string unit(unit_name(r.profile->unit));
    // Did the speedups touch GPU work? Only then can the GPU's idle time be the reason.
    bool gpu_work = false;
    for (std::size_t i = 0; i < e.phases.size(); ++i) {
        const std::string& kind = r.profile->phases[i].kind;
        gpu_work = gpu_work || (e.phases[i].spec >= 0 && (kind == "kernel" || kind == "copy" || kind == "memset"));
    }
    const bool slower = p.speedup < 1 || e.speedup < 1;
    bool none_slower = true;  // no factor makes work slower
    for (const PhaseOutcome& phase : e.phases) none_slower = none_slower && (phase.spec < 0 || phase.factor >= 1);
    // With --window: the replayed steps whose CPU span sets their new time, and the mean new CPU
    // span and GPU copy.
    std::size_t set_by_cpu = 0;
    Summation cpu_span, gpu_copy;
    for (const ReplayedStep& step : p.steps) {
        set_by_cpu += step.set_by_cpu() ? 1 : 0;
        cpu_span.add(step.new_cpu_time);
        gpu_copy.add(step.new_gpu_time);
    }
    const auto per_step = [&](const Summation& sum) {
        return format_time(sum.value() / static_cast<double>(p.steps.size()), style);
    };
    // "nccl_allreduce on stream 13 (device 0) runs as long as before and holds 80% of ...": what
    // still sets the end, named with its track.
    std::string holder;
    if (p.holder) {
        holder = "'" + printable(p.holder->name) + "'" +
                 (p.holder->track.empty() ? std::string() : " on " + printable(p.holder->track)) +
                 " runs as long as before and holds " + format_share(p.holder->share, style) +
                 " of the replayed critical path";
    }
    // The replay's step is the whole trace and the phase table's a narrower boundary: when both
    // save the same time, the speedups differ only in what they divide by, and work left alone is
    // not to blame.
    const bool other_step = p.steps.empty() && std::fabs(p.before - e.baseline_time) > 1e-9 * p.before;
    const double replay_saved = p.before - p.after;
    if (other_step && std::isfinite(p.speedup) && std::isfinite(e.speedup) &&
        std::fabs(p.speedup - e.speedup) > 0.005 * e.speedup &&
        std::fabs(replay_saved - e.time_saved) <= 0.005 * std::fabs(e.time_saved)) {
        return fmt::format(
            "the same time saved ({} {}), over another step: the replay's is every event of the trace ({} {}), the "
            "phase table's is {}",
            format_time(replay_saved, style), unit, format_time(p.before, style), unit, r.profile->boundary);
    }
    // Agreement is of the speedups and of the time saved: 1.0000x beside 1.0050x is within 0.5%, yet
    // one saves nothing and the other 0.5% of the step.
    const bool same_saving =
        std::fabs(replay_saved - e.time_saved) <= 0.1 * std::max(std::fabs(replay_saved), std::fabs(e.time_saved));
    std::string reason;
    if ((std::isinf(p.speedup) && std::isinf(e.speedup)) ||
        (std::fabs(p.speedup - e.speedup) <= 0.005 * e.speedup && same_saving)) {
        reason = "none worth telling: the replay agrees with Amdahl's law on the phase table";
    } else if (p.speedup < 1 && none_slower && !p.steps.empty() && p.makespan_after <= p.makespan_before) {
        // No event ends later, yet the steps are longer: a step spans its copies on every stream,
        // and the sped-up streams' copies move earlier than the others'.
        reason = fmt::format(
            "the steps' GPU copies drift apart: the sped-up work moves earlier on its streams while the same steps' "
            "work on other streams does not, and a step spans its copies on every stream; no event ends later (the "
            "whole trace: {} -> {} {})",
            format_time(p.makespan_before, style), format_time(p.makespan_after, style), unit);
    } else if (slower) {
        reason = p.speedup > high ? "the replay loses less: other work still running hides part of the slower work"
                 : p.speedup < low
                     ? "the replay loses more: the slower work also holds back the work that depends on it"
                     : "the replay lies within the phase table's range: part of the slower work ran alongside other "
                       "work";
    } else if (p.speedup < low && gpu_work && !p.steps.empty() && set_by_cpu == p.steps.size()) {
        reason = fmt::format(
            "host-bound: every replayed step lasts as long as its CPU span ({} {} per step), longer than its GPU "
            "copy ({} {}); faster GPU work shortens the GPU copies, not the host's work that now sets the step",
            per_step(cpu_span), unit, per_step(gpu_copy), unit);
    } else if (p.speedup < low && gpu_work && p.gpu_busy_before > 0 && p.gpu_busy_before < 0.5 * p.makespan_before) {
        reason = fmt::format(
            "host-bound: the GPU is idle {} of the recorded step, waiting for the CPU's launches "
            "and work; faster GPU work mostly becomes more idle time ({} after)",
            format_share(1 - p.gpu_busy_before / p.makespan_before, style),
            format_share(p.makespan_after > 0 ? 1 - p.gpu_busy_after / p.makespan_after : 0, style));
    } else if (p.speedup < low && p.touched_time > 0 && p.touched_on_path < 0.8 * p.touched_time) {
        // Most of the sped-up work ran alongside other work: only its share of the critical path
        // can move the end of the trace.
        reason = fmt::format(
            "hidden by overlap: of the sped-up work's {} {}{}, only {} {} ({}) lies on the recorded critical "
            "path; the rest ran alongside other work, which still takes as long{} (--critical-path shows what "
            "sets the end)",
            format_time(p.touched_time, style), unit, p.steps.empty() ? "" : " per step",
            format_time(p.touched_on_path, style), unit, format_share(p.touched_on_path / p.touched_time, style),
            holder.empty() ? "" : ": " + holder);
    } else if (p.speedup < low) {
        reason = "the replay gains less: work the speedups do not touch " +
                 (holder.empty() ? "(on other streams, the CPU's launches, or what a synchronization waits for) "
                                   "still sets when the trace ends"
                                 : "still sets when the trace ends: " + holder);
    } else if (p.speedup > high) {
        reason = "the replay gains more: shorter work lets the work that depends on it start earlier";
    } else {
        reason = "the replay lies within the phase table's range: part of the sped-up work ran alongside other work";
    }
    if (other_step) {
        reason += fmt::format("; its step is every event of the trace ({} {}), the phase table's is {}",
                              format_time(p.before, style), unit, r.profile->boundary);
    }
    return reason;
}

// "recorded, 150.0 us: 67% gemm, 33% delays (...)": the longest entries, then the rest summed.
std::string path_line(const char* which, const std::vector<PathShare>& path, double total, const std::string& unit,
                      const NumberStyle& style) {
    std::string line = fmt::format("{}, {} {}:", which, format_time(total, style), unit);
    constexpr std::size_t shown = 6;
    double rest = 0;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (i >= shown) {
            rest += path[i].time;
            continue;
        }
        const std::string name = path[i].name.empty() ? "delays (untraced host work, launch latency, queue gaps)"
                                 : path[i].phase      ? printable(path[i].name)
                                                      : printable(path[i].name) + " (no phase)";
        line += fmt::format("{} {} {}", i ? "," : "", format_share(total > 0 ? path[i].time / total : 0, style), name);
    }
    if (path.size() > shown)
        line +=
            fmt::format(", {} in {} others", format_share(total > 0 ? rest / total : 0, style), path.size() - shown);
    return line;
}

// The replayed figures, first: they are the answer; the phase table's follow as a comparison.
void add_replay(Document& doc, const EvalResult& r, const NumberStyle& style) {
    const ReplayOutcome& p = *r.replay;
    const Evaluation& e = r.evaluation;
    const std::string unit(unit_name(r.profile->unit));
    const auto t = [&](double v) { return format_time(v, style) + " " + unit; };
    doc.headline = format_speedup(p.speedup, style) + " end to end, replayed over the trace's dependencies, " +
                   t(p.before - p.after) + " saved";
    auto& s = doc.summary;
    s.push_back({"model", "replay: every event of the trace replayed over its dependencies (docs/replay.md)", "model",
                 "replay"});
    const std::string span = p.steps.empty() ? "the trace's first to last event"
                             : p.steps.size() == 1
                                 ? "1 step, the longer of its CPU span and GPU copy, which move with the events they "
                                   "enclose"
                                 : fmt::format(
                                       "the mean of {} steps, each the longer of its CPU span and GPU copy, which "
                                       "move with the events they enclose",
                                       p.steps.size());
    s.push_back(
        {"step time", t(p.before) + " -> " + t(p.after) + " (" + span + ")", "step_time_" + unit, shortest(p.before)});
    s.push_back({"", "", "new_step_time_" + unit, shortest(p.after)});
    std::string replayed = format_speedup(p.speedup, style);
    if (p.speedup < 1) replayed += " (a slowdown: the run gets slower)";
    s.push_back({"replayed speedup", replayed, "replayed_speedup", machine_number(p.speedup)});
    s.push_back({"", "", "amdahl_speedup", machine_number(e.speedup)});
    s.push_back({"why it differs", replay_reason(r, style) + " (the phase table's figures follow)", "", ""});
    std::vector<std::string> lines = p.assumptions;
    if (!p.not_events.empty()) {
        std::string names;
        for (const std::string& name : p.not_events) names += (names.empty() ? "'" : ", '") + printable(name) + "'";
        const bool one = p.not_events.size() == 1;
        lines.push_back(names + (one ? " is no event" : " are no events") +
                        " the replay moves (annotations, or time the sweep adds: overlapped, idle): " +
                        (one ? "it stays as it is" : "they stay as they are"));
    }
    doc.sections.push_back({"What the replay took from the trace", lines, false, false});
    if (!p.path_after.empty() || !p.path_before.empty()) {
        doc.sections.push_back({"Critical path (what sets the step's end)",
                                {path_line("recorded", p.path_before, p.makespan_before, unit, style),
                                 path_line("replayed", p.path_after, p.makespan_after, unit, style)},
                                false,
                                false});
    }
}

}  // namespace

Document layout(const EvalResult& r, const ReportOptions& options) {
    const Evaluation& e = r.evaluation;
    const NumberStyle& style = options.numbers;
    const std::string unit(unit_name(r.profile->unit));
    const auto t = [&](double v) { return format_time(v, style) + " " + unit; };
    Document doc;
    doc.command = "eval";
    doc.headline = format_speedup(e.speedup, style) + " " + whole_run(*r.profile) + ", " + t(e.time_saved) + " saved";
    if (options.verdict) {  // --verdict: the sentence alone
        doc.sections.push_back({"", {eval_verdict(r, style)}, false, false});
        return doc;
    }
    if (options.phases != PhaseRows::none) doc.table = phase_table(r, options);
    if (options.explain)
        doc.sections.push_back({"The arithmetic", explain_eval(*r.profile, r.speedups, e, style), true, true});
    if (options.explain && e.uncertainty)
        doc.sections.push_back({"Both ends", explain_uncertainty(*e.uncertainty, unit, style), true, true});
    if (options.explain && !r.profile->class_members.empty())
        doc.sections.push_back(
            {"Kernel classes (--group-by class, the first rule that holds)", explain_classes(*r.profile), true, true});

    auto& s = doc.summary;
    if (r.replay) add_replay(doc, r, style);
    // With replay, what follows is the phase table's Amdahl figure, for comparison.
    const std::string table = r.replay ? "phase-table " : "";
    s.push_back({table + "baseline", t(e.baseline_time), "baseline_" + unit, shortest(e.baseline_time)});
    s.push_back({table + "new time", t(e.new_time), "new_time_" + unit, shortest(e.new_time)});
    std::string speedup = format_speedup(e.speedup, style);
    if (e.speedup < 1) speedup += " (a slowdown: the run gets slower)";
    if (std::isinf(e.speedup)) speedup += " (every phase takes no time)";
    s.push_back({r.replay ? "Amdahl speedup" : "speedup", speedup, "speedup", machine_number(e.speedup)});
    if (e.overlap_range) {
        const OverlapRange& o = *e.overlap_range;
        // With factor ranges, which estimate each end is, at which end of the ranges.
        std::string ends;
        if (o.factor_ends)
            ends = fmt::format(
                "; low: {} time, every factor at its range's low end; high: {} time, every factor at "
                "its range's high end",
                o.low_is_active ? "active" : "exclusive", o.high_is_active ? "active" : "exclusive");
        s.push_back({"with overlap",
                     fmt::format("between {} and {} (saving {} to {}{}): the sped-up phases also ran alongside "
                                 "others, and only the time they ran alone surely changes",
                                 format_speedup(o.low_speedup, style), format_speedup(o.high_speedup, style),
                                 format_time(o.low_saved, style), t(o.high_saved), ends),
                     "", ""});
        s.push_back({"", "", "speedup_low", machine_number(o.low_speedup)});
        s.push_back({"", "", "speedup_high", machine_number(o.high_speedup)});
    }
    s.push_back({"time saved", t(e.time_saved) + " (" + format_share(e.saved_fraction, style) + " of baseline)",
                 "time_saved_" + unit, shortest(e.time_saved)});
    if (e.uncertainty) add_uncertainty_summary(s, *e.uncertainty, unit, style);
    s.push_back({"affected fraction", format_share(e.affected_fraction, style) + " (f)", "affected_fraction",
                 shortest(e.affected_fraction)});
    s.push_back({"ceiling",
                 std::isinf(e.ceiling)
                     ? "none (every phase is sped up: no untouched time limits it)"
                     : format_speedup(e.ceiling, style) + " (1 / (1 - f): the affected phases at no time)",
                 "ceiling", machine_number(e.ceiling)});
    if (e.headroom_captured) {
        s.push_back({"headroom captured",
                     format_share(*e.headroom_captured, style) + " of the ceiling's saving (" +
                         format_time(e.time_saved, style) + " of " + t(e.affected_fraction * e.baseline_time) + ")",
                     "headroom_captured", shortest(*e.headroom_captured)});
    }
    add_boundary(s, r.profile->boundary, r.profile->summary_only);
    if (!r.replay) s.push_back({"verdict", eval_verdict(r, style), "", ""});
    if (r.fleet) add_fleet(doc, *r.fleet, options);
    if (r.required_speedup) {
        doc.gates.push_back(
            {r.gate_passed, "--require-speedup " + format_plain(*r.required_speedup, style),
             fmt::format("{}{} {}{}: {} the required {}", r.replay ? "replayed, " : "", whole_run(*r.profile),
                         format_speedup(r.speedup(), style),
                         r.gate_at_low_end()
                             ? ", at the low end of the range " + format_speedup(r.gate_speedup(), style)
                             : std::string(),
                         r.gate_passed ? "at least" : "below", format_speedup(*r.required_speedup, style))});
        doc.verdict = r.gate_passed ? "the gate passed" : "the gate failed";
        s.push_back({"", "", "gate_passed", r.gate_passed ? "true" : "false"});
    }
    doc.notes = r.profile->notes;
    doc.notes.insert(doc.notes.end(), r.evaluation.notes.begin(), r.evaluation.notes.end());
    return doc;
}

}  // namespace amdahl
