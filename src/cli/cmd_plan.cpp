// amdahl plan PROFILE --target S: the cheapest set of candidates that reaches a goal.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/plan.hpp"
#include "cli/candidate_options.hpp"
#include "cli/commands.hpp"

namespace amdahl::cli {

namespace {

struct PlanOptions {
    ProfileOptions profile;
    CandidateOptions candidates;
    std::string target, target_time;
    std::string by = "count";
    bool require = false;
    bool explain = false;
};

struct Step {
    std::size_t candidate;
    double new_time;
    double speedup;
};

double parse_target_speedup(const std::string& text) {
    std::string number = text;
    if (!number.empty() && (number.back() == 'x' || number.back() == 'X')) number.pop_back();
    Quantity q;
    bool ok = true;
    try {
        q = parse_quantity(number);
    } catch (const Error&) {
        ok = false;
    }
    if (!ok || q.unit || q.percent || !(q.value > 1))
        throw Error("--target",
                    "must be an end-to-end speedup above 1, such as 2 or 2x (got '" + printable(text) + "')");
    return q.value;
}

double parse_target_time(const std::string& text, const Profile& profile) {
    Quantity q;
    bool ok = true;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        ok = false;
    }
    if (!ok || q.percent || !(q.value > 0))
        throw Error("--target-time", "must be a time > 0 such as 50ms (got '" + printable(text) + "')");
    return q.unit ? convert(q.value, *q.unit, profile.unit) : q.value;
}

int run_plan(const PlanOptions& options, Context& context) {
    if (options.target.empty() == options.target_time.empty())
        throw Error("plan", "give exactly one of --target S (an end-to-end speedup) and --target-time T");
    const Profile profile = load_profile(options.profile, context);
    const CandidateSet set = build_candidates(profile, options.candidates);
    const bool by_effort = options.by == "effort";
    if (by_effort) {
        if (!set.from_proposals)
            throw Error(
                "--by",
                "effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT or \"proposals\" in the profile)");
        for (const auto& c : set.candidates)
            if (!c.effort)
                throw Error("--by effort",
                            "proposal '" + printable(c.name) + "' has no effort (write SELECTOR=FACTOR@EFFORT)");
    }
    const double baseline = profile.total();
    PlanRequest request;
    request.baseline = baseline;
    request.by_effort = by_effort;
    double target_speedup = 0;
    if (!options.target.empty()) {
        target_speedup = parse_target_speedup(options.target);
        request.target_time = baseline / target_speedup;
    } else {
        request.target_time = parse_target_time(options.target_time, profile);
        target_speedup = baseline / request.target_time;
    }
    PlanResult result;
    try {
        result = plan(set.candidates, request);
    } catch (const Error& e) {
        throw Error(profile.source, e.message());
    }

    // The running total, in the order a team would do the work (largest saving first).
    std::vector<Step> steps;
    double saved_so_far = 0;
    for (std::size_t c : result.chosen) {
        saved_so_far += set.candidates[c].saved;
        steps.push_back({c, baseline - saved_so_far, speedup_from_saving(baseline, saved_so_far)});
    }
    const double new_time = baseline - result.saved;
    const double best_possible = speedup_from_saving(baseline, result.best_possible_saved);
    const double touched = candidate_time(profile, set.candidates);
    const double ceiling = speedup_from_saving(baseline, touched);
    const double outside = baseline - touched;

    const int p = options.profile.precision;
    const std::string unit(unit_name(profile.unit));
    const std::string& effort_unit = options.candidates.effort_unit;
    const auto names = [&](const std::vector<std::size_t>& plan) {
        std::vector<std::string> out;
        for (std::size_t c : plan) out.push_back(set.candidates[c].name);
        return out;
    };
    const OutputFormat format = output_format(options.profile.format);

    if (format == OutputFormat::json) {
        JsonWriter json;
        json.begin_object().field("schema_version", 1).field("command", "plan");
        json.field("unit", unit).field("baseline_time", baseline);
        json.field("target", target_speedup).field("target_time", request.target_time);
        json.field("objective", by_effort ? "effort" : "count").field("reachable", result.reachable);
        json.field("optimal", result.reachable && result.proven_optimal);
        json.key("chosen").begin_array();
        for (const auto& n : names(result.chosen)) json.value(n);
        json.end_array().key("steps").begin_array();
        for (const Step& s : steps) {
            json.begin_object().field("name", set.candidates[s.candidate].name);
            json.field("saved", set.candidates[s.candidate].saved)
                .field("new_time", s.new_time)
                .field("speedup", s.speedup);
            json.field("effort", set.candidates[s.candidate].effort).end_object();
        }
        json.end_array();
        if (result.reachable) {
            json.field("new_time", new_time).field("speedup", speedup_from_saving(baseline, result.saved));
            json.field("cost", result.cost);
        } else {
            json.key("new_time").null().key("speedup").null().key("cost").null();
        }
        if (by_effort && result.reachable)
            json.field("total_effort", result.cost);
        else
            json.key("total_effort").null();
        json.field("effort_unit", effort_unit);
        json.field("lower_bound", result.lower_bound).field("nodes", result.nodes);
        json.key("alternatives").begin_array();
        for (const auto& alt : result.alternatives) {
            json.begin_array();
            for (const auto& n : names(alt)) json.value(n);
            json.end_array();
        }
        json.end_array();
        json.field("best_possible", best_possible).field("ceiling", ceiling);
        json.field("time_outside_candidates", outside);
        json.end_object();
        context.out << json.str();
    } else {
        Table table;
        table.columns = {{"step", "step", true},
                         {"target", "name"},
                         {"kind", "kind"},
                         {"time (" + unit + ")", "time_" + unit, true},
                         {"factor", "factor", true},
                         {"saved (" + unit + ")", "saved_" + unit, true},
                         {"new time (" + unit + ")", "new_time_" + unit, true},
                         {"speedup", "speedup", true}};
        if (by_effort) table.columns.push_back({"effort (" + effort_unit + ")", "effort", true});
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const Candidate& c = set.candidates[steps[i].candidate];
            std::vector<Cell> row{Cell(std::to_string(i + 1)),
                                  Cell(printable(c.name), c.name),
                                  Cell(printable(c.kind), c.kind),
                                  Cell(format_time(c.time, p), shortest(c.time)),
                                  Cell(format_factor(c.factor), machine_factor(c.factor)),
                                  Cell(format_time(c.saved, p), shortest(c.saved)),
                                  Cell(format_time(steps[i].new_time, p), shortest(steps[i].new_time)),
                                  Cell(format_speedup(steps[i].speedup, p), shortest(steps[i].speedup))};
            if (by_effort) row.push_back(Cell(shortest(*c.effort)));
            table.rows.push_back(std::move(row));
        }
        if (!steps.empty() || format != OutputFormat::table) context.out << render(table, format);
        std::ostream& talk = format == OutputFormat::table ? context.out : context.err;
        if (format == OutputFormat::table && !steps.empty()) talk << '\n';
        const std::string target_text =
            fmt::format("{} (new time at most {} {} of {} {})", format_speedup(target_speedup, p),
                        format_time(request.target_time, p), unit, format_time(baseline, p), unit);
        if (options.explain) {
            talk << "The arithmetic:\n";
            talk << fmt::format("  need to save T - T / S = {} - {} = {} {}\n", format_time(baseline, p),
                                format_time(request.target_time, p), format_time(baseline - request.target_time, p),
                                unit);
            double running = baseline;
            for (const Step& s : steps) {
                const Candidate& c = set.candidates[s.candidate];
                talk << fmt::format("  {} - {} ({}: {} - {} / {}) = {} {}; S = {} / {} = {}\n", format_time(running, p),
                                    format_time(c.saved, p), printable(c.name), format_time(c.time, p),
                                    format_time(c.time, p), machine_factor(c.factor), format_time(s.new_time, p), unit,
                                    format_time(baseline, p), format_time(s.new_time, p), format_speedup(s.speedup, p));
                running = s.new_time;
            }
            talk << '\n';
        }
        std::vector<std::pair<std::string, std::string>> items;
        items.emplace_back("target", target_text);
        if (result.reachable) {
            const std::string cost =
                by_effort ? fmt::format("total effort {} {}", shortest(result.cost), effort_unit)
                          : fmt::format("{} {}", result.chosen.size(), set.from_proposals ? "proposals" : "phases");
            items.emplace_back("plan", fmt::format("{}, reaching {} (new time {} {})", cost,
                                                   format_speedup(speedup_from_saving(baseline, result.saved), p),
                                                   format_time(new_time, p), unit));
            if (result.chosen.empty()) items.back().second = "nothing to do: the profile already meets the target";
            items.emplace_back(
                "optimal",
                result.proven_optimal
                    ? fmt::format("yes, proven (exact search, {} nodes)", result.nodes)
                    : fmt::format(
                          "not proven: the search stopped after {} nodes; the optimum costs at least {} (gap {})",
                          result.nodes, shortest(result.lower_bound), shortest(result.cost - result.lower_bound)));
            for (std::size_t a = 0; a < result.alternatives.size(); ++a) {
                std::string list;
                for (const auto& n : names(result.alternatives[a])) list += (list.empty() ? "" : ", ") + printable(n);
                items.emplace_back(a == 0 ? "same cost" : "", list);
            }
        } else {
            items.emplace_back("plan", "unreachable: no set of candidates reaches the target");
        }
        items.emplace_back("best possible",
                           fmt::format("{} (every candidate at its factor)", format_speedup(best_possible, p)));
        items.emplace_back("ceiling",
                           fmt::format("{} (every candidate at no time: {} {} outside the candidates remain)",
                                       format_speedup(ceiling, p), format_time(outside, p), unit));
        std::string summary = render_summary(items);
        // Continuation lines for further alternatives: "          : a, b" reads badly; indent instead.
        for (std::size_t pos; (pos = summary.find("\n: ")) != std::string::npos;) summary.replace(pos, 3, "\n  ");
        talk << summary;
        if (!result.reachable) {
            if (target_speedup > ceiling) {
                talk << fmt::format(
                    "\nwhy: the phases outside the candidates take {} {}; even if every candidate took no "
                    "time, the run could not beat {}, short of {}.\n",
                    format_time(outside, p), unit, format_speedup(ceiling, p), format_speedup(target_speedup, p));
            } else {
                talk << fmt::format(
                    "\nwhy: with every candidate at its factor the run reaches only {}; {} needs larger "
                    "factors (the ceiling, every candidate at no time, is {}: the {} {} outside the "
                    "candidates cap it).\n",
                    format_speedup(best_possible, p), format_speedup(target_speedup, p), format_speedup(ceiling, p),
                    format_time(outside, p), unit);
            }
        }
    }
    context.out.flush();
    if (options.require && !result.reachable) {
        context.err << fmt::format("gate failed: no plan reaches {}\n", format_speedup(target_speedup, p));
        return exit_gate_failed;
    }
    return exit_ok;
}

}  // namespace

void setup_plan(CLI::App& app, Action& action) {
    auto options = std::make_shared<PlanOptions>();
    CLI::App* command = app.add_subcommand("plan", "The smallest set of targets that reaches an end-to-end speedup");
    add_profile_options(*command, options->profile);
    add_candidate_options(*command, options->candidates);
    command->add_option("--target", options->target, "End-to-end speedup to reach: 2 or 2x");
    command->add_option("--target-time", options->target_time, "End-to-end time to reach instead: 50ms");
    command->add_option("--by", options->by, "Minimise the number of targets (count, default) or their total effort")
        ->check(CLI::IsMember({"count", "effort"}));
    command->add_flag("--require", options->require, "Exit 1 when no plan reaches the target (a CI gate)");
    command->add_flag("--explain", options->explain, "Show the running arithmetic");
    command->callback([options, &action] { action = [options](Context& c) { return run_plan(*options, c); }; });
}

}  // namespace amdahl::cli
