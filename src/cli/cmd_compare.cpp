// amdahl compare BEFORE AFTER: the end-to-end change between two profiles, attributed to each phase,
// with gates for CI.
#include <glob.h>
#include <sys/stat.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <set>
#include <tuple>
#include <utility>

#include "amdahl/compare.hpp"
#include "amdahl/error.hpp"
#include "amdahl/harness.hpp"
#include "amdahl/numbers.hpp"
#include "cli/commands.hpp"
#include "cli/uncertainty_options.hpp"
#include "input/raw_profile.hpp"
#include "report/numbers.hpp"

namespace amdahl::cli {

namespace {

struct CompareCommandOptions {
    std::string before, after;
    std::vector<std::string> extra;  // more positional arguments: a glob the shell expanded
    std::string input_format, unit;
    OutputOptions output;
    std::vector<std::string> renames, rename_files;
    std::optional<std::string> fail_if_slower;
    std::vector<std::string> fail_if_phase_slower, fail_if_phase_costs;
    std::optional<std::string> min_share, min_time;
    std::optional<std::string> require_speedup;
    std::optional<std::string> noise;
    std::string missing = "error";
    std::string assume_unit;
    std::string on_missing_gate = "error";
    bool paired = false;
    bool sum = false, higher_is_better = false;  // benchmark harnesses' output
    ImportFlags import;                          // how profiler output (traces, summaries) becomes each side's profiles
    std::string label_before, label_after;
    std::optional<std::size_t> top;
};

constexpr const char* interval_help =
    "Several runs per side (a quoted glob such as 'before/*.json', or a JSON profile with \"runs\": [...]\n"
    "end-to-end times) give each side's median with an order-statistic interval, its spread (MAD, CV), and\n"
    "an interval for the change: the Hodges-Lehmann shift of after - before with its Mann-Whitney\n"
    "confidence interval (distribution-free; 95% where the runs allow, its coverage reported), or with\n"
    "--paired the Wilcoxon signed-rank interval of the pairs' differences. Gates check one-sided 95%\n"
    "bounds: a slowdown gate fails only when the lower bound is past its threshold, --require-speedup\n"
    "passes only when the speedup's lower bound reaches it; a change within --noise also admits \"no\n"
    "change\". A note warns when a gate's threshold is below the smallest change the runs can detect.\n"
    "Details, a CI example and the power table: docs/ci.md.";

double parse_required_speedup(const std::string& text) {
    std::string number = text;
    if (!number.empty() && (number.back() == 'x' || number.back() == 'X')) number.pop_back();
    double value = 0;
    if (!parse_double(number, value) || !(value > 0))
        throw Error("--require-speedup", "expected a speedup > 0 such as 1.1 or 1.1x (got '" + printable(text) + "')");
    return value;
}

// The phase gates' floors; the time in `unit`, the comparison's.
void set_floors(const CompareCommandOptions& options, std::vector<Gate>& gates, Unit unit) {
    double min_share = 0, min_time = 0;
    std::string text;
    if (options.min_share) {
        min_share = parse_option("--min-share", parse_percentage, *options.min_share);
        text = "--min-share " + *options.min_share;
    }
    if (options.min_time) {
        const Quantity q = time_option(*options.min_time, "--min-time");
        if (!q.unit) throw Error("--min-time", "give the time with its unit, e.g. 1us");
        min_time = convert(q.value, *q.unit, unit);
        text += (text.empty() ? "" : ", ") + std::string("--min-time ") + *options.min_time;
    }
    for (Gate& gate : gates) {
        if (gate.type != Gate::Type::phase_slower && gate.type != Gate::Type::phase_costs) continue;
        gate.min_share = min_share;
        gate.min_time = min_time;
        gate.floor_text = text;
    }
}

std::vector<Gate> parse_gates(const CompareCommandOptions& options) {
    if (options.on_missing_gate != "error" && options.fail_if_phase_slower.empty())
        throw Error("--on-missing-gate", "applies to --fail-if-phase-slower gates, and none is given");
    if ((options.min_share || options.min_time) && options.fail_if_phase_slower.empty() &&
        options.fail_if_phase_costs.empty())
        throw Error(options.min_share ? "--min-share" : "--min-time",
                    "applies to phase gates (--fail-if-phase-slower, --fail-if-phase-costs), and none is given");
    std::vector<Gate> gates;
    if (options.fail_if_slower) {
        Gate gate;
        gate.type = Gate::Type::slower;
        gate.threshold = parse_option("--fail-if-slower", parse_percentage, *options.fail_if_slower);
        gate.text = "--fail-if-slower " + *options.fail_if_slower;
        gates.push_back(std::move(gate));
    }
    for (const auto& text : options.fail_if_phase_slower) {
        Gate gate = parse_option("--fail-if-phase-slower", parse_phase_gate, text);
        gate.text = "--fail-if-phase-slower " + text;
        gate.skip_when_gone = options.on_missing_gate == "skip";
        gates.push_back(std::move(gate));
    }
    for (const auto& text : options.fail_if_phase_costs) {
        Gate gate = parse_option("--fail-if-phase-costs", parse_phase_gate, text);
        gate.type = Gate::Type::phase_costs;
        gate.text = "--fail-if-phase-costs " + text;
        gates.push_back(std::move(gate));
    }
    if (options.require_speedup) {
        Gate gate;
        gate.type = Gate::Type::speedup;
        gate.threshold = parse_required_speedup(*options.require_speedup);
        gate.text = "--require-speedup " + *options.require_speedup;
        gates.push_back(std::move(gate));
    }
    return gates;
}

// A change within --noise never fails a gate, so a slowdown gate (a change of the same base: the
// total, or the phase's own time) below the noise could fail only above it: refused, never raised.
void refuse_gates_below_noise(const std::vector<Gate>& gates, double noise, const std::optional<std::string>& text) {
    if (!text) return;
    for (const Gate& gate : gates) {
        if (gate.type != Gate::Type::slower && gate.type != Gate::Type::phase_slower) continue;
        if (!(gate.threshold < noise)) continue;
        const auto space = gate.text.find(' ');
        throw Error(gate.text.substr(0, space),
                    gate.text.substr(space + 1) + " is below --noise " + *text +
                        ": a change within the noise never fails a gate, so this gate could fail only above " + *text +
                        "; give a threshold of at least " + *text + ", or a smaller --noise");
    }
}

CompareOptions parse_compare_options(const CompareCommandOptions& options) {
    CompareOptions out;
    // OLD=NEW, from --rename or a line of a --renames file (`where` names it in errors).
    // Split at the last '=', as eval's --rename: names hold one (`--frames=120`), new names rarely.
    const auto add_rename = [&](const std::string& text, const std::string& where) {
        const auto eq = text.rfind('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
            throw Error(where,
                        "expected OLD=NEW, a BEFORE phase name and its AFTER name (got '" + printable(text) + "')");
        out.renames.emplace_back(text.substr(0, eq), text.substr(eq + 1));
    };
    for (const auto& text : options.renames) add_rename(text, "--rename");
    // --renames FILE: one OLD=NEW a line; blank lines and lines starting with # are skipped.
    for (const auto& path : options.rename_files) {
        std::ifstream file(path, std::ios::binary);
        if (!file) throw Error(path, std::string("cannot open the --renames file: ") + std::strerror(errno));
        std::string line;
        for (std::size_t number = 1; std::getline(file, line); ++number) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty() || line.front() == '#') continue;
            add_rename(line, path + ":" + std::to_string(number));
        }
        if (file.bad()) throw Error(path, "read error");
    }
    if (options.noise) {
        out.noise = parse_option("--noise", parse_percentage, *options.noise);
    }
    out.paired = options.paired;
    out.missing = options.missing == "zero"   ? MissingPhases::zero
                  : options.missing == "skip" ? MissingPhases::skip
                                              : MissingPhases::error;
    return out;
}

// The files a side names: "-", a path, or a glob amdahl expands itself (CI shells may pass it quoted).
std::vector<std::string> expand_side(const std::string& pattern, const char* side) {
    std::error_code ec;
    if (pattern == "-" || pattern.find_first_of("*?[") == std::string::npos || std::filesystem::exists(pattern, ec))
        return {pattern};
    glob_t found{};
    const int status = glob(pattern.c_str(), 0, nullptr, &found);
    std::vector<std::string> paths;
    if (status == 0) paths.assign(found.gl_pathv, found.gl_pathv + found.gl_pathc);
    globfree(&found);
    if (status == GLOB_NOMATCH || (status == 0 && paths.empty()))
        throw Error(pattern, std::string("no file matches this pattern (") + side + ")");
    if (status != 0) throw Error(pattern, std::string("cannot expand this pattern (") + side + ")");
    return paths;
}

// A file on both sides of patterns that overlap ('before_*' also matches 'before_after_*') compares
// runs with themselves, and the change reads smaller than it is: an error. One file named as both
// sides is no change by construction: a note says so.
std::optional<std::string> refuse_shared_files(const std::string& before_argument, const std::string& after_argument) {
    const auto identity = [](const std::string& path) -> std::optional<std::pair<dev_t, ino_t>> {
        struct stat st {};
        if (path == "-" || ::stat(path.c_str(), &st) != 0) return std::nullopt;  // reading it says why
        return std::pair{st.st_dev, st.st_ino};
    };
    const std::vector<std::string> before_files = expand_side(before_argument, "BEFORE");
    const std::vector<std::string> after_files = expand_side(after_argument, "AFTER");
    std::set<std::pair<dev_t, ino_t>> before;
    for (const std::string& path : before_files)
        if (const auto id = identity(path)) before.insert(*id);
    for (const std::string& path : after_files) {
        const auto id = identity(path);
        if (!id || !before.contains(*id)) continue;
        if (before_files.size() == 1 && after_files.size() == 1)
            return printable(path) + " is both BEFORE and AFTER: compared with itself, it shows no change";
        throw Error(path, "is both a BEFORE and an AFTER profile (BEFORE '" + printable(before_argument) +
                              "', AFTER '" + printable(after_argument) +
                              "'): the patterns overlap; make each match only its own side's files");
    }
    return std::nullopt;
}

struct LoadedSide {
    CompareSide side;
    std::vector<std::string> sources;
};

LoadedSide load_side(const std::string& argument, const char* label, std::optional<InputFormat> format,
                     const ImportOptions& import, Context& context, std::vector<std::string>& notes) {
    LoadedSide loaded;
    loaded.sources = expand_side(argument, label);
    for (const auto& path : loaded.sources) {
        Profile profile = amdahl::load_profile(path, context.in, format, import);
        // compare's intervals come from repeated runs (several profiles, or "runs"), not ranges.
        refuse_time_spreads(profile, "compare");
        context.inputs.push_back(path);
        for (const auto& note : profile.notes) notes.push_back(note);
        loaded.side.profiles.push_back(std::move(profile));
    }
    return loaded;
}

// Profiles that say no unit anywhere were read as ms. Beside profiles that do say theirs, that
// guess could turn a unit slip into a 1000x speedup or regression: an error, unless --assume-unit
// says what the bare numbers are (they are relabelled, not converted: they were never ms).
void settle_assumed_units(std::vector<CompareSide*> sides, const std::string& assume_unit,
                          std::vector<std::string>& notes) {
    const Profile* assumed = nullptr;
    const Profile* known = nullptr;
    for (const CompareSide* side : sides) {
        for (const Profile& profile : side->profiles) {
            if (profile.unit_assumed && !assumed) assumed = &profile;
            if (!profile.unit_assumed && !known) known = &profile;
        }
    }
    if (assume_unit.empty()) {
        if (assumed && known) {
            throw Error(assumed->source,
                        "says no unit for its times (they would be read as ms), but " + printable(known->source) +
                            " says its unit (" + std::string(unit_name(known->unit)) +
                            "): a wrong guess would pass as a 1000x change; write the unit in the file (a time_ms "
                            "header, \"unit\": \"ms\"), or give --assume-unit UNIT");
        }
        return;
    }
    const Unit unit = unit_option("--assume-unit", assume_unit);
    if (!assumed) throw Error("--assume-unit", "every profile says its unit; there is nothing to assume");
    for (CompareSide* side : sides) {
        for (Profile& profile : side->profiles) {
            if (!profile.unit_assumed) continue;
            profile.unit = unit;
            std::erase(notes, detail::unit_assumed_note(profile.source));  // not ms after all
            notes.push_back(printable(profile.source) + " says no unit: its times are read as " +
                            std::string(unit_name(unit)) + " (--assume-unit)");
        }
    }
}

// A total's 'unattributed' time on one side, and on the other a plain profile that says no end-to-end
// time: the time outside that profile's phases is unknown, not zero, and comparing would count
// all of it as saved (or as added).
void check_totals_comparable(const LoadedSide& before, const LoadedSide& after) {
    const auto declares = [](const Profile& p) {
        const bool plain =
            p.format == "json" || p.format == "csv" || p.format == "tsv" || p.format == "md" || p.format == "text";
        return !plain || p.total_declared || !p.runs.empty();
    };
    const auto outside = [](const Profile& p) -> const Phase* {
        if (!p.total_declared) return nullptr;
        for (const Phase& phase : p.phases)
            if (phase.name == unattributed_phase && phase.kind == unattributed_phase) return &phase;
        return nullptr;
    };
    for (const auto& [with, without, label] : {std::tuple{&before, &after, "BEFORE"}, {&after, &before, "AFTER"}}) {
        for (const Profile& known : with->side.profiles) {
            const Phase* rest = outside(known);
            if (!rest) continue;
            for (const Profile& other : without->side.profiles) {
                if (declares(other)) continue;
                throw Error(other.source,
                            "declares no end-to-end time (no \"total\", Total row or runs), but the " +
                                std::string(label) + " profile " + printable(known.source) + " does (" +
                                format_duration(rest->time, known.unit) +
                                " of it outside its phases): the time outside this profile's phases is unknown, and "
                                "comparing would count it as saved or added; give both a total, or neither");
            }
        }
    }
}

// Every profile in `unit`; a note for each file that was in another unit (unless --unit asked).
void convert_side(CompareSide& side, Unit unit, bool asked, std::vector<std::string>& notes) {
    for (Profile& profile : side.profiles) {
        if (profile.unit == unit) continue;
        if (!asked) {
            notes.push_back(fmt::format("{} is in {}; its times are converted to {}, the unit of BEFORE",
                                        printable(profile.source), unit_name(profile.unit), unit_name(unit)));
        }
        profile = convert_profile(profile, unit);
    }
}

// After the report: the failed gates and the verdict on stderr, and the exit code they make.
int gates_exit(const std::vector<GateResult>& results, Context& context) {
    context.out.flush();
    if (results.empty()) return exit_ok;
    for (const auto& line : gate_failures(results)) context.err << line << '\n';
    context.err << gate_verdict(results) << '\n';
    for (const GateResult& gate : results)
        if (!gate.passed) return exit_gate_failed;
    return exit_ok;
}

// A side of benchmark harnesses' output: every file the argument names, or none of them.
struct HarnessSide {
    std::vector<HarnessFile> files;
    std::vector<std::string> sources;
};

std::optional<HarnessSide> load_harness_side(const std::string& argument, const char* label,
                                             std::optional<Harness> forced, bool higher_is_better, bool detect,
                                             Context& context) {
    HarnessSide side;
    side.sources = expand_side(argument, label);
    std::string other;  // a file of the side that is no harness output
    for (const auto& path : side.sources) {
        if (auto file = load_harness(path, context.in, forced, higher_is_better, detect))
            side.files.push_back(std::move(*file));
        else if (other.empty())
            other = path;
    }
    if (side.files.empty()) return std::nullopt;
    if (!other.empty())
        throw Error(other, std::string("is not benchmark-harness output, but ") + side.files.front().source + " is " +
                               harness_name(side.files.front().harness) + "'s: a side is one kind of file");
    return side;
}

// Benchmark by benchmark: the options that shape phases and totals have nothing to act on.
void refuse_phase_options(const CompareCommandOptions& options) {
    const auto refuse = [](bool given, const char* option) {
        if (given)
            throw Error(option,
                        "does not apply to benchmark harnesses' output compared benchmark by benchmark "
                        "(give --sum if the benchmarks are steps of one job)");
    };
    refuse(options.missing != "error", "--missing");
    refuse(!options.assume_unit.empty(), "--assume-unit");
    refuse(options.min_share.has_value(), "--min-share");
    refuse(options.min_time.has_value(), "--min-time");
    refuse(!options.unit.empty(), "--unit");
}

void refuse_import_options(const ImportFlags& flags) {
    const bool any = flags.lane != "auto" || !flags.window.empty() || flags.group_by != "name" ||
                     !flags.rename_patterns.empty() || flags.window_any || flags.keep_partial_steps ||
                     flags.keep_profiler_events || !flags.step.empty() || !flags.exclude.empty() ||
                     !flags.pids.empty() || !flags.tids.empty() || !flags.streams.empty() || !flags.devices.empty() ||
                     !flags.categories.empty() || flags.depth || flags.leaf || !flags.sample_period.empty() ||
                     !flags.timeunit.empty();
    if (any)
        throw Error("compare",
                    "the profiler-input options (--window, --lane, --group-by, ...) do not apply to "
                    "benchmark harnesses' output");
}

int run_benchmarks(const CompareCommandOptions& options, const HarnessSide& before, const HarnessSide& after,
                   const std::vector<Gate>& gates, const CompareOptions& compare_options, Context& context) {
    refuse_phase_options(options);
    const BenchmarkComparison comparison = compare_benchmarks(before.files, after.files, compare_options);
    const ReportOptions report_style = report_options(options.output, false);
    const std::vector<GateResult> results = check_benchmark_gates(comparison, gates, report_style.numbers);
    print_notes(context, comparison.notes);
    const BenchmarkCompareReport report{comparison,          results,
                                        before.sources,      after.sources,
                                        comparison.notes,    options.label_before,
                                        options.label_after, AMDAHL_VERSION,
                                        context.arguments,   options.top.value_or(15)};
    emit(context, report, options.output, report_style);
    return gates_exit(results, context);
}

int run_compare(const CompareCommandOptions& options, Context& context) {
    if (!options.extra.empty()) {
        throw Error("compare", fmt::format("expects two profiles, BEFORE and AFTER (got {}); quote a glob such as "
                                           "'before/*.json' so that amdahl expands it, not the shell",
                                           2 + options.extra.size()));
    }
    if (options.before.empty() || options.after.empty())
        throw Error("compare",
                    "needs two profiles, BEFORE and AFTER (got " +
                        std::string(options.before.empty() ? "none" : "only '" + printable(options.before) + "'") +
                        ")");
    if (options.before == "-" && options.after == "-")
        throw Error("compare", "only one of BEFORE and AFTER can be read from standard input (-)");
    const std::optional<std::string> same_file = refuse_shared_files(options.before, options.after);
    const bool markdown =
        options.output.format == "md" || options.output.format == "markdown" || !options.output.output_markdown.empty();
    if (options.top && !markdown)
        throw Error("--top", "applies to the Markdown report (--format md or --output-md), whose table it shortens");
    std::vector<Gate> gates = parse_gates(options);
    const CompareOptions compare_options = parse_compare_options(options);
    refuse_gates_below_noise(gates, compare_options.noise, options.noise);
    const std::optional<Harness> harness = parse_harness_name(options.input_format);
    std::optional<InputFormat> format;
    if (!options.input_format.empty() && !harness) format = input_format(options.input_format);
    std::optional<Unit> unit;
    if (!options.unit.empty()) unit = unit_option("--unit", options.unit);

    std::vector<std::string> notes;
    if (same_file) notes.push_back(*same_file);
    const ImportOptions import = import_options(options.import);
    // Benchmark harnesses' output (hyperfine, google/benchmark, pytest-benchmark): by content, or
    // as --input-format says.
    // A format the user named is the format: --input-format json reads a profile, whatever it looks like.
    const bool detect = options.input_format.empty();
    auto harness_before =
        load_harness_side(options.before, "BEFORE", harness, options.higher_is_better, detect, context);
    auto harness_after = load_harness_side(options.after, "AFTER", harness, options.higher_is_better, detect, context);
    if (harness_before.has_value() != harness_after.has_value()) {
        const HarnessSide& one = harness_before ? *harness_before : *harness_after;
        const std::string& other = harness_before ? options.after : options.before;
        const std::string name = harness_name(one.files.front().harness);
        if (other == "-")
            throw Error(other, "standard input is read as a profile, but the other side is " + name +
                                   "'s output; if standard input is too, say so with --input-format " + name);
        throw Error(other, "is not benchmark-harness output, but the other side is " + name + "'s");
    }
    LoadedSide before, after;
    if (harness_before) {
        refuse_import_options(options.import);
        if (!options.sum) {
            if (same_file) harness_after->files.front().notes.push_back(*same_file);
            return run_benchmarks(options, *harness_before, *harness_after, gates, compare_options, context);
        }
        before = {summed_side(harness_before->files, "BEFORE"), harness_before->sources};
        after = {summed_side(harness_after->files, "AFTER"), harness_after->sources};
        for (const auto* side : {&*harness_before, &*harness_after})
            for (const HarnessFile& file : side->files) notes.insert(notes.end(), file.notes.begin(), file.notes.end());
        notes.push_back(
            "--sum: the benchmarks are steps of one job; run i of a side is the sum of every "
            "benchmark's run i");
    } else {
        if (options.sum)
            throw Error("--sum",
                        "applies to benchmark harnesses' output (hyperfine, google-benchmark, "
                        "pytest-benchmark), whose benchmarks it adds up");
        if (options.higher_is_better)
            throw Error("--higher-is-better",
                        "applies to benchmark harnesses' throughputs (google-benchmark's "
                        "items_per_second, pytest-benchmark's ops)");
        before = load_side(options.before, "BEFORE", format, import, context, notes);
        after = load_side(options.after, "AFTER", format, import, context, notes);
    }
    settle_assumed_units({&before.side, &after.side}, options.assume_unit, notes);
    check_totals_comparable(before, after);
    const Unit common = unit.value_or(before.side.profiles.front().unit);
    convert_side(before.side, common, unit.has_value(), notes);
    convert_side(after.side, common, unit.has_value(), notes);

    const Comparison comparison = compare(before.side, after.side, compare_options);
    set_floors(options, gates, comparison.unit);
    const ReportOptions report_style = report_options(options.output, false);
    const NumberStyle& p = report_style.numbers;
    const std::vector<GateResult> results = check_gates(comparison, gates, p, &notes);
    notes.insert(notes.end(), comparison.notes.begin(), comparison.notes.end());
    if (!comparison.consistent) {
        double outside_before = 0, outside_after = 0;
        for (const PhaseChange& row : comparison.phases) {
            if (row.status != PhaseStatus::residual) continue;
            outside_before = row.before.median;
            outside_after = row.after.median;
        }
        const std::string unit_text(unit_name(comparison.unit));
        notes.push_back(fmt::format(
            "the local speedups predict {} end to end by Amdahl's law, but the totals measure {}: the time outside "
            "the phases went from {} to {} {}; do the phases overlap, or leave out something that changed?",
            format_speedup(comparison.predicted_speedup, p), format_speedup(comparison.speedup, p),
            format_time(outside_before, p), format_time(outside_after, p), unit_text));
    }
    print_notes(context, notes);

    CompareReport report{comparison,
                         results,
                         before.sources,
                         after.sources,
                         notes,
                         "",
                         false,
                         options.label_before,
                         options.label_after,
                         AMDAHL_VERSION,
                         context.arguments,
                         options.top.value_or(15)};
    // What the totals are: a summary's are sums of rows, not wall times, and every output says so.
    for (const LoadedSide* side : {&before, &after}) {
        for (const Profile& profile : side->side.profiles) {
            report.summary_only = report.summary_only || profile.summary_only;
            if (report.boundary.empty()) report.boundary = profile.boundary;
        }
    }
    emit(context, report, options.output, report_style);
    return gates_exit(results, context);
}

}  // namespace

void setup_compare(CLI::App& app, Action& action) {
    auto options = std::make_shared<CompareCommandOptions>();
    CLI::App* command = app.add_subcommand(
        "compare", "Before/after profiles: the end-to-end change attributed to each phase, with CI gates");
    command->add_option("BEFORE", options->before,
                        "Profile before the change; a quoted glob ('before/*.json') for several runs; - for stdin");
    command->add_option("AFTER", options->after, "Profile after the change; a quoted glob for several runs");
    command->add_option("extra", options->extra)->group("");
    command->add_option("--input-format", options->input_format,
                        "Input format of every file: json, csv, tsv, md, text, chrome-trace, nsys, nsys-trace, "
                        "rocprof-stats, rocprof-trace, rocprof-summary, folded, or a benchmark harness's JSON: "
                        "hyperfine, google-benchmark, pytest-benchmark (default: from the content)");
    command->add_option("--unit", options->unit,
                        "Time unit for the output: ns, us, ms, s, min or h (default: BEFORE's)");
    add_output_options(*command, options->output);
    add_names_option(*command, options->output);
    add_import_options(*command, options->import, false);
    command
        ->add_option("--renames", options->rename_files,
                     "FILE: one OLD=NEW a line, as --rename (blank lines and # comments skipped; repeatable)")
        ->allow_extra_args(false);
    command->add_option("--rename", options->renames, "OLD=NEW: phase OLD in BEFORE is phase NEW in AFTER (repeatable)")
        ->allow_extra_args(false);
    command->add_option("--fail-if-slower", options->fail_if_slower,
                        "Exit 1 when the end-to-end time grows by more than this: 2%");
    command
        ->add_option(
            "--fail-if-phase-slower", options->fail_if_phase_slower,
            "SELECTOR=PERCENT: exit 1 when a phase the selector picks (name, glob, kind:KIND or *) grows by more "
            "than PERCENT of its own time; a phase only in AFTER fails it (repeatable)")
        ->allow_extra_args(false);
    command
        ->add_option("--fail-if-phase-costs", options->fail_if_phase_costs,
                     "SELECTOR=PERCENT: exit 1 when a phase the selector picks adds more than PERCENT of BEFORE's "
                     "end-to-end time (its change, not its own growth: a new 1 ns kernel costs nothing) (repeatable)")
        ->allow_extra_args(false);
    command->add_option("--min-share", options->min_share,
                        "Phase gates leave out phases below this share of their side's total on both sides (0.1%), "
                        "and say how many");
    command->add_option("--min-time", options->min_time,
                        "Phase gates leave out phases shorter than this on both sides (1us), and say how many");
    command->add_option("--require-speedup", options->require_speedup,
                        "Exit 1 when the end-to-end speedup is below this: 1.1");
    command->add_option(
        "--noise", options->noise,
        "Changes smaller than this percentage of their own time are noise: marked, and never fail a gate");
    command
        ->add_option("--missing", options->missing,
                     "A phase some runs of a side lack: error (the default), zero (it took no time there) or skip "
                     "(its median over the runs that have it)")
        ->check(CLI::IsMember({"error", "zero", "skip"}));
    command->add_option("--assume-unit", options->assume_unit,
                        "The unit of profiles that say none (bare numbers), when others say theirs: ns, us, ms, s, "
                        "min or h; without it such a mix is an error");
    command
        ->add_option("--on-missing-gate", options->on_missing_gate,
                     "A phase gate whose phases are all gone from AFTER: error (the default: it would check "
                     "nothing) or skip (a note, and the gate listed as skipped)")
        ->check(CLI::IsMember({"error", "skip"}));
    command->add_option("--label-before", options->label_before,
                        "What BEFORE is, for the report and its JSON: main@abc123");
    command->add_option("--label-after", options->label_after, "What AFTER is: pr-42@def456");
    command->add_option("--top", options->top,
                        "Markdown: the N phases that changed the total most in the table, the rest in a collapsed "
                        "block (default 15; 0: all in the table)");
    command->add_flag("--sum", options->sum,
                      "Benchmark harnesses' output: the benchmarks are steps of one job, added up run by run and "
                      "compared as phases (default: each benchmark on its own)");
    command->add_flag("--higher-is-better", options->higher_is_better,
                      "Benchmark harnesses' output: compare the throughput each benchmark reports (items/s, "
                      "bytes/s, ops), where a drop is the regression");
    command->add_flag("--paired", options->paired,
                      "Run i of BEFORE and run i of AFTER were measured together (alternating runs): intervals over "
                      "the pairs' differences, which cancels drift the two runs share; needs as many runs a side");
    command->footer(interval_help);
    command->callback([options, &action] { action = [options](Context& c) { return run_compare(*options, c); }; });
}

}  // namespace amdahl::cli
