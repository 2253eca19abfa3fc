#include "cli/common.hpp"

#include <fmt/format.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "cli/progress.hpp"

namespace amdahl::cli {

void add_output_options(CLI::App& command, OutputOptions& options, bool phase_rows) {
    command.add_option("--format", options.format, "Output format: table, json, csv or md")
        ->check(CLI::IsMember({"table", "text", "json", "csv", "md", "markdown"}))
        ->default_str("table");
    command
        .add_option("--precision", options.precision,
                    "Decimals of speedups (times use up to this many) and significant digits of shares")
        ->check(CLI::Range(0, 12));
    command.add_flag("--no-grouping", options.no_grouping, "No thousands separators in times (4424.2, not 4,424.2)");
    add_terminal_options(command, options);
    if (phase_rows) {
        command.add_option("--phases", options.phases, "Phase rows in the report: all, changed (sped up) or none")
            ->check(CLI::IsMember({"all", "changed", "none"}))
            ->default_str("all");
    }
    command.add_option("--output-json", options.output_json, "Also write the report as JSON to FILE");
    command.add_option("--output-md", options.output_markdown, "Also write the report as Markdown to FILE");
    command.add_option("--output-csv", options.output_csv, "Also write the report's rows as CSV to FILE");
    command.add_option("--summary-csv", options.summary_csv, "Write the summary as key,value CSV to FILE");
    command.add_option("--plot", options.plot,
                       "Also draw the result as a chart, an SVG file, to FILE (README: Charts)");
}

void add_model_options(CLI::App& command, std::string& model, ProfileOptions& options, const std::string& what) {
    command
        .add_option("--model", model,
                    "amdahl: the phase table's law (default); replay: " + what +
                        " by replaying a trace's events (Chrome/Kineto, nsys or rocprof trace CSVs, a run's folder "
                        "of them) over their dependencies (launches, synchronizations, stream order), docs/replay.md")
        ->check(CLI::IsMember({"amdahl", "replay"}));
    // A function, not a variable: "--queue-gap ''" is a mistake to report, not the default.
    command.add_option_function<std::string>(
        "--queue-gap", [&options](const std::string& text) { options.import.queue_gap = text; },
        "With --model replay: a GPU event starting more than this after its stream was free was held "
        "by its launch (default 5us)");
}

void add_profile_options(CLI::App& command, ProfileOptions& options, bool phase_rows) {
    command
        .add_option("PROFILE", options.path, "Profile file (JSON, CSV, TSV, Markdown or a pasted table); - for stdin")
        ->required();
    command.add_option(
        "--input-format", options.input_format,
        "json, csv, tsv, md, text, chrome-trace, nsys, nsys-trace, rocprof-stats, rocprof-trace, rocprof-summary or "
        "folded (default: recognised from the content)");
    command.add_option("--unit", options.unit,
                       "Time unit for the output: ns, us, ms, s, min or h (default: the profile's)");
    add_output_options(command, options.output, phase_rows);
    add_names_option(command, options.output);
    add_import_options(command, options.import);
}

void add_names_option(CLI::App& command, OutputOptions& options) {
    command
        .add_option("--names", options.names,
                    "Names in tables: short (C++ signatures as base names, never two alike) or full (whole, as "
                    "selectors take them); JSON has both")
        ->check(CLI::IsMember({"short", "full"}))
        ->default_str("short");
}

void add_import_options(CLI::App& command, ImportFlags& flags, bool per_profile) {
    const std::string group = "Profiler input";
    command
        .add_option("--lane", flags.lane,
                    "Trace events that become phases: gpu, cpu, all (default: gpu if the trace has device events)")
        ->check(CLI::IsMember({"auto", "gpu", "cpu", "all"}))
        ->group(group);
    command
        .add_option("--window", flags.window,
                    "Steps: the annotations matching REGEX (e.g. 'ProfilerStep#.*'), CPU and GPU copies paired; "
                    "the mean per complete step")
        ->group(group);
    command.add_flag("--window-any", flags.window_any, "--window may match any event, not only annotations")
        ->group(group);
    command
        .add_option("--step", flags.step,
                    "With --window: one step instead of the mean: N (from 1), first, last "
                    "or median")
        ->group(group);
    command
        .add_flag("--keep-partial-steps", flags.keep_partial_steps,
                  "With --window: keep a first or last step the profiler cut short")
        ->group(group);
    command
        .add_flag("--keep-profiler-events", flags.keep_profiler_events,
                  "Traces: keep the profiler's own bookkeeping events (e.g. 'PyTorch Profiler (0)')")
        ->group(group);
    command.add_option("--exclude", flags.exclude, "Traces: leave out events whose name matches REGEX (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
    command.add_option("--pid", flags.pids, "Traces: only events of this process (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
    command.add_option("--tid", flags.tids, "Traces: only events of this thread or track (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
    command.add_option("--stream", flags.streams, "Traces: only GPU events of this stream (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
    command.add_option("--device", flags.devices, "Traces: only GPU events of this device (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
    command.add_option("--cat", flags.categories, "Traces: only events of this category (repeatable)")
        ->allow_extra_args(false)
        ->group(group);
    command
        .add_option(
            "--group-by", flags.group_by,
            "Phase per event name (name), category (cat), kernel class (class: gemm, attention, ...) or regex:PATTERN")
        ->group(group);
    if (per_profile) {
        command
            .add_option("--rename", flags.renames,
                        "OLD=NEW: the phase or event named exactly OLD becomes NEW (split at the last '='; repeatable)")
            ->allow_extra_args(false)
            ->group(group);
    }
    command
        .add_option("--rename-regex", flags.rename_patterns,
                    "REGEX=NAME: names in which REGEX is found become NAME (repeatable, first match wins)")
        ->allow_extra_args(false)
        ->group(group);
    command.add_option("--depth", flags.depth, "Folded stacks: phases are stack prefixes of N frames")
        ->check(CLI::Range(1, 1000))
        ->group(group);
    command.add_flag("--leaf", flags.leaf, "Folded stacks: phases are leaf frames (self time)")->group(group);
    command
        .add_option("--sample-period", flags.sample_period,
                    "Folded stacks: time per sample, e.g. 1ms (default: counts)")
        ->group(group);
    command.add_option("--timeunit", flags.timeunit, "nsys stats: the unit of columns without one (nsys --timeunit)")
        ->group(group);
    if (per_profile) {
        command
            .add_option(
                "--total", flags.total,
                "The real end-to-end time, e.g. 250ms (what the phases or the trace do not cover is unattributed)")
            ->group(group);
    }
}

Quantity time_option(const std::string& text, const std::string& option) {
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        throw Error(option, "expected a time such as 250ms (got '" + printable(text) + "')");
    }
    if (q.percent || !(q.value > 0))
        throw Error(option, "expected a time > 0 such as 250ms (got '" + printable(text) + "')");
    return q;
}

ImportOptions import_options(const ImportFlags& flags) {
    ImportOptions out;
    out.lane = flags.lane == "gpu"   ? Lane::gpu
               : flags.lane == "cpu" ? Lane::cpu
               : flags.lane == "all" ? Lane::all
                                     : Lane::automatic;
    out.window = flags.window;
    out.group_by = flags.group_by;
    // Both split at the last '=': names may hold one (`k<N=4>`), the new name rarely does.
    for (const auto& rename : flags.renames) {
        const auto eq = rename.rfind('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == rename.size())
            throw Error("--rename", "expected OLD=NEW, an exact name and its new name (got '" + printable(rename) +
                                        "'; --rename-regex REGEX=NAME folds every name a pattern matches)");
        out.renames.emplace_back(rename.substr(0, eq), rename.substr(eq + 1));
    }
    for (const auto& rename : flags.rename_patterns) {
        const auto eq = rename.rfind('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == rename.size())
            throw Error("--rename-regex", "expected REGEX=NAME (got '" + printable(rename) + "')");
        out.rename_patterns.emplace_back(rename.substr(0, eq), rename.substr(eq + 1));
    }
    out.depth = flags.depth;
    out.leaf = flags.leaf;
    if (out.depth && out.leaf) throw Error("--depth", "choose --depth N or --leaf, not both");
    if (!flags.sample_period.empty()) out.sample_period = time_option(flags.sample_period, "--sample-period");
    if (!flags.timeunit.empty()) {
        out.timeunit = parse_unit(flags.timeunit);
        if (!out.timeunit)
            throw Error("--timeunit", "unknown unit '" + printable(flags.timeunit) + "' (expected ns, us, ms or s)");
    }
    if (!flags.total.empty()) out.total = time_option(flags.total, "--total");
    out.dependencies = flags.dependencies;
    if (flags.queue_gap) {
        if (!flags.dependencies) throw Error("--queue-gap", "applies to --model replay only");
        const Quantity gap = time_option(*flags.queue_gap, "--queue-gap");
        if (!gap.unit) throw Error("--queue-gap", "give the time with its unit, e.g. 5us");
        out.queue_gap_us = convert(gap.value, *gap.unit, Unit::us);
        out.queue_gap_set = true;
        if (!std::isfinite(out.queue_gap_us)) throw Error("--queue-gap", "is too large");
    }
    out.window_any = flags.window_any;
    out.keep_partial_steps = flags.keep_partial_steps;
    out.keep_profiler_events = flags.keep_profiler_events;
    out.step = flags.step;
    out.exclude = flags.exclude;
    out.pids = flags.pids;
    out.tids = flags.tids;
    out.streams = flags.streams;
    out.devices = flags.devices;
    out.categories = flags.categories;
    return out;
}

Unit unit_option(const char* option, const std::string& text) {
    const auto unit = parse_unit(text);
    if (!unit) throw Error(option, "unknown unit '" + printable(text) + "' (expected ns, us, ms, s, min or h)");
    return *unit;
}

std::optional<InputFormat> input_format(const std::string& name) {
    if (name.empty()) return std::nullopt;
    const auto format = parse_input_format(name);
    if (!format) {
        throw Error("--input-format", "unknown format '" + printable(name) +
                                          "' (expected json, csv, tsv, md, text, chrome-trace, "
                                          "nsys, nsys-trace, rocprof-stats, rocprof-trace, rocprof-summary or folded)");
    }
    return format;
}

Profile load_profile(const ProfileOptions& options, Context& context) {
    const std::optional<InputFormat> format = input_format(options.input_format);
    ImportOptions reading = import_options(options.import);
    std::optional<Unit> unit;
    if (!options.unit.empty()) unit = unit_option("--unit", options.unit);
    std::optional<ProgressLine> progress;  // erased when the reading ends, before any message
    if (!context.quiet && progress_allowed(context.err_is_terminal, std::getenv("CI"), std::getenv("TERM"))) {
        progress.emplace(context.err, printable(options.path == "-" ? "<stdin>" : options.path));
        reading.on_read = [&progress](std::uint64_t read, std::uint64_t size) { progress->on_read(read, size); };
    }
    Profile profile = amdahl::load_profile(options.path, context.in, format, reading);
    progress.reset();
    context.inputs.push_back(options.path);
    print_notes(context, profile.notes);
    if (unit && *unit != profile.unit) profile = convert_profile(profile, *unit);
    return profile;
}

void print_notes(Context& context, const std::vector<std::string>& notes) {
    if (context.quiet) return;
    for (const auto& note : notes) context.err << "note: " << printable(note) << '\n';
}

CLI::Validator positive_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            double value = 0;
            if (parse_double(text, value) && value > 0) return {};
            return "must be a number > 0 (got '" + printable(text) + "')";
        },
        "NUMBER > 0");
}

OutputFormat output_format(const std::string& name) { return parse_output_format(name).value_or(OutputFormat::table); }

ReportOptions report_options(const OutputOptions& options, bool explain) {
    ReportOptions report;
    if (options.precision) {
        report.numbers.decimals = *options.precision;
        report.numbers.significant = std::max(*options.precision, 1);
    }
    report.numbers.grouping = !options.no_grouping;
    report.phases = options.phases == "none"      ? PhaseRows::none
                    : options.phases == "changed" ? PhaseRows::changed
                                                  : PhaseRows::all;
    report.explain = explain;
    report.full_names = options.names == "full";
    return report;
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ignored;
    return a == b || (a != "-" && b != "-" && std::filesystem::equivalent(a, b, ignored));
}

void check_output_paths(const Context& context, const OutputOptions& options) {
    const std::pair<const char*, const std::string*> outputs[] = {{"--output-json", &options.output_json},
                                                                  {"--output-md", &options.output_markdown},
                                                                  {"--output-csv", &options.output_csv},
                                                                  {"--summary-csv", &options.summary_csv},
                                                                  {"--plot", &options.plot}};
    for (std::size_t i = 0; i < std::size(outputs); ++i) {
        const auto& [option, path] = outputs[i];
        if (path->empty() || *path == "-" || names_standard_output(*path)) continue;
        for (const std::string& input : context.inputs)
            if (same_file(*path, input))
                throw Error(option,
                            "'" + printable(*path) + "' is an input of this run; write the report to another file");
        for (std::size_t j = 0; j < i; ++j)
            if (!outputs[j].second->empty() && same_file(*path, *outputs[j].second))
                throw Error(option, "'" + printable(*path) + "' is also " + outputs[j].first +
                                        "'s file; one would replace the other");
    }
}

bool names_standard_output(const std::string& path) {
    struct stat link = {}, target = {}, out = {};
    if (::lstat(path.c_str(), &link) != 0 || S_ISREG(link.st_mode)) return false;
    return ::stat(path.c_str(), &target) == 0 && ::fstat(STDOUT_FILENO, &out) == 0 && target.st_dev == out.st_dev &&
           target.st_ino == out.st_ino;
}

void write_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    // A rename replaces whatever the path names. That suits a regular file (a reader sees the old
    // report or the new one, never half of one), but a symbolic link would become a file
    // (/dev/stdout is one) and a FIFO or device would be replaced (root's --output-json /dev/null
    // made /dev/null a file): those are written in place, as a shell redirect writes them.
    std::error_code status_error;
    const fs::file_status status = fs::symlink_status(target, status_error);
    if (!status_error && fs::exists(status) && !fs::is_regular_file(status) && !fs::is_directory(status)) {
        std::ofstream file(target, std::ios::binary);
        if (!file) throw Error(path, std::string("cannot write here: ") + std::strerror(errno));
        write(file);
        file.flush();
        if (!file) throw Error(path, std::string("write failed: ") + std::strerror(errno));
        return;
    }
    fs::path temporary = target;
    temporary += fmt::format(".amdahl-{}.tmp", static_cast<long>(::getpid()));
    {
        std::ofstream file(temporary, std::ios::binary);
        if (!file) throw Error(path, std::string("cannot write here: ") + std::strerror(errno));
        write(file);
        file.flush();
        if (!file) {
            const int error = errno;
            std::error_code ignored;
            fs::remove(temporary, ignored);
            throw Error(path, std::string("write failed: ") + std::strerror(error));
        }
    }
    std::error_code error;
    fs::rename(temporary, target, error);
    if (error) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw Error(path, "cannot write here: " + error.message());
    }
}

}  // namespace amdahl::cli
