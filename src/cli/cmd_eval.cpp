// amdahl eval PROFILE -s SELECTOR=FACTOR ...: the end-to-end effect of proposed local speedups.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "cli/commands.hpp"
#include "model/side_by_side.hpp"
#include "report/explain.hpp"

namespace amdahl::cli {

namespace {

struct EvalOptions {
    ProfileOptions profile;
    std::vector<std::string> speedups;
    bool explain = false;
    std::optional<double> require_speedup;
};

Table phase_table(const Profile& profile, const Evaluation& result, int precision) {
    const std::string unit(unit_name(profile.unit));
    Table table;
    table.columns = {{"phase", "name"},
                     {"kind", "kind"},
                     {"time (" + unit + ")", "time_" + unit, true},
                     {"share", "share_pct", true},
                     {"factor", "factor", true},
                     {"new time (" + unit + ")", "new_time_" + unit, true},
                     {"saved (" + unit + ")", "saved_" + unit, true}};
    // One row per phase, made as it is written: a million phases need not sit in memory twice.
    table.generated_rows = profile.phases.size();
    table.make_row = [&profile, &result, precision](std::size_t i, std::vector<Cell>& row) {
        const Phase& phase = profile.phases[i];
        const PhaseOutcome& outcome = result.phases[i];
        const double share_pct = phase.time * 100 / result.baseline_time;
        std::string factor_text = outcome.spec < 0 ? "-" : format_factor(outcome.factor);
        if (outcome.spec >= 0 && outcome.factor < 1) factor_text += " (slower)";
        row.emplace_back(printable(phase.name), phase.name);
        row.emplace_back(printable(phase.kind), phase.kind);
        row.emplace_back(format_time(phase.time, precision), shortest(phase.time));
        row.emplace_back(format_percent(share_pct / 100), shortest(share_pct));
        row.emplace_back(std::move(factor_text), machine_factor(outcome.factor));
        row.emplace_back(format_time(outcome.new_time, precision), shortest(outcome.new_time));
        row.emplace_back(format_time(outcome.saved, precision), shortest(outcome.saved));
    };
    return table;
}

std::string summary_text(const Profile& profile, const Evaluation& r, int precision) {
    const std::string unit = " " + std::string(unit_name(profile.unit));
    const auto t = [&](double v) { return format_time(v, precision) + unit; };
    std::vector<std::pair<std::string, std::string>> items;
    items.emplace_back("baseline", t(r.baseline_time));
    items.emplace_back("new time", t(r.new_time));
    std::string speedup = format_speedup(r.speedup, precision);
    if (r.speedup < 1) speedup += " (a slowdown: the run gets slower)";
    if (std::isinf(r.speedup)) speedup += " (every phase takes no time)";
    items.emplace_back("speedup", speedup);
    if (r.overlap_range) {
        items.emplace_back("with overlap",
                           fmt::format("between {} and {} (saving {} to {}{}): the sped-up phases also ran "
                                       "alongside others, and only the time they ran alone surely changes",
                                       format_speedup(r.overlap_range->low_speedup, precision),
                                       format_speedup(r.overlap_range->high_speedup, precision),
                                       format_time(r.overlap_range->low_saved, precision),
                                       format_time(r.overlap_range->high_saved, precision), unit));
    }
    items.emplace_back("time saved", t(r.time_saved) + " (" + format_percent(r.saved_fraction) + " of baseline)");
    items.emplace_back("affected fraction", format_percent(r.affected_fraction) + " (f)");
    items.emplace_back("ceiling", std::isinf(r.ceiling) ? "none (every phase is sped up: no untouched time limits it)"
                                                        : format_speedup(r.ceiling, precision) +
                                                              " (1 / (1 - f): the affected phases at no time)");
    if (r.headroom_captured) {
        items.emplace_back("headroom captured", format_percent(*r.headroom_captured) + " of the ceiling's saving (" +
                                                    format_time(r.time_saved, precision) + " of " +
                                                    format_time(r.affected_fraction * r.baseline_time, precision) +
                                                    unit + ")");
    }
    return render_summary(items);
}

void write_json_report(std::ostream& out, const Profile& profile, const std::vector<SpeedupSpec>& specs,
                       const Evaluation& r, const std::vector<std::string>& explanation) {
    JsonWriter json(&out);
    json.begin_object();
    json.field("schema_version", 1).field("command", "eval");
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
    if (!profile.boundary.empty()) json.field("boundary", profile.boundary);
    json.field("summary_only", profile.summary_only);
    std::vector<std::vector<std::size_t>> phases_of_spec(specs.size());
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        if (r.phases[i].spec >= 0) phases_of_spec[static_cast<std::size_t>(r.phases[i].spec)].push_back(i);
    }
    json.key("speedups").begin_array();
    for (std::size_t s = 0; s < specs.size(); ++s) {
        json.begin_object().field("spec", specs[s].text).field("selector", specs[s].selector.text);
        json.field("factor", specs[s].factor.value).key("phases").begin_array();
        for (std::size_t i : phases_of_spec[s]) json.value(profile.phases[i].name);
        json.end_array().end_object();
    }
    json.end_array();
    json.key("phases").begin_array();
    const auto write_phases = [&](JsonWriter& writer, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const Phase& phase = profile.phases[i];
            writer.begin_object(true).field("name", phase.name).field("kind", phase.kind);
            writer.field("time", phase.time).field("share", phase.time / r.baseline_time);
            writer.field("factor", r.phases[i].factor).field("new_time", r.phases[i].new_time);
            writer.field("saved", r.phases[i].saved).end_object();
        }
    };
    // A long list is written in blocks, two at a time: the second on another thread, so a
    // million phases take about half the time to format on two cores.
    constexpr std::size_t block = 1 << 15;
    const std::size_t count = profile.phases.size();
    write_phases(json, 0, std::min(count, block));
    for (std::size_t start = block; start < count; start += 2 * block) {
        const std::size_t middle = std::min(count, start + block), end = std::min(count, start + 2 * block);
        JsonWriter first = JsonWriter::continuing_list(2), second = JsonWriter::continuing_list(2);
        detail::side_by_side([&] { write_phases(first, start, middle); }, [&] { write_phases(second, middle, end); });
        json.append_elements(first).append_elements(second);
    }
    json.end_array();
    json.key("notes").begin_array();
    for (const auto& note : profile.notes) json.value(note);
    if (std::isinf(r.speedup)) json.value("every phase takes no time: speedup is infinite (null)");
    if (std::isinf(r.ceiling)) json.value("every phase is sped up: the ceiling is infinite (null)");
    json.end_array();
    if (!explanation.empty()) {
        json.key("explanation").begin_array();
        for (const auto& line : explanation) json.value(line);
        json.end_array();
    }
    json.end_object();
    out << json.str();
}

int run_eval(const EvalOptions& options, Context& context) {
    const Profile profile = load_profile(options.profile, context);
    std::vector<SpeedupSpec> specs;
    specs.reserve(options.speedups.size());
    for (const auto& text : options.speedups) {
        try {
            specs.push_back(parse_speedup(text));
        } catch (const Error& e) {
            throw Error("--speedup", e.message());
        }
    }
    Evaluation result;
    try {
        result = evaluate(profile, specs);
    } catch (const Error& e) {
        throw Error(profile.source, e.message());
    }
    if (!std::isfinite(result.new_time) || !std::isfinite(result.baseline_time))
        throw Error(profile.source, "the result is not a finite number (times too large to add)");

    const int precision = options.profile.precision;
    const OutputFormat format = output_format(options.profile.format);
    const std::vector<std::string> explanation =
        options.explain ? explain_eval(profile, specs, result, precision) : std::vector<std::string>{};
    if (format == OutputFormat::json) {
        write_json_report(context.out, profile, specs, result, explanation);
    } else {
        write(context.out, phase_table(profile, result, precision), format);
        // CSV and Markdown are the bare phase table (data); the arithmetic then goes to stderr.
        std::ostream& talk = format == OutputFormat::table ? context.out : context.err;
        if (options.explain) {
            talk << (format == OutputFormat::table ? "\n" : "") << "The arithmetic:\n";
            for (const auto& line : explanation) talk << "  " << line << '\n';
        }
        if (format == OutputFormat::table) context.out << '\n' << summary_text(profile, result, precision);
    }
    context.out.flush();
    if (options.require_speedup && !(result.speedup >= *options.require_speedup)) {
        context.err << fmt::format("gate failed: speedup {} is below the required {}\n",
                                   format_speedup(result.speedup, precision),
                                   format_speedup(*options.require_speedup, precision));
        return exit_gate_failed;
    }
    return exit_ok;
}

}  // namespace

void setup_eval(CLI::App& app, Action& action) {
    auto options = std::make_shared<EvalOptions>();
    CLI::App* command = app.add_subcommand("eval", "End-to-end effect of proposed local speedups on a profile");
    add_profile_options(*command, options->profile);
    command
        ->add_option("-s,--speedup", options->speedups,
                     "SELECTOR=FACTOR: a phase name, glob (gemm_*), kind:KIND or *; factor 10, 10x, inf or -30%")
        ->allow_extra_args(false);
    command->add_flag("--explain", options->explain, "Show the arithmetic line by line");
    command
        ->add_option("--require-speedup", options->require_speedup,
                     "Exit 1 when the end-to-end speedup is below this (a CI gate)")
        ->check(positive_number());
    command->callback([options, &action] { action = [options](Context& c) { return run_eval(*options, c); }; });
}

}  // namespace amdahl::cli
