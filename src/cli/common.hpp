#pragma once
// What every subcommand shares: the streams, the common options and the number formats people read.
#include <CLI/CLI.hpp>

#include <functional>
#include <iosfwd>
#include <optional>
#include <sstream>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/profile.hpp"
#include "amdahl/report.hpp"
#include "cli/terminal.hpp"
#include "report/chart.hpp"
#include "report/report.hpp"

namespace amdahl::cli {

struct Context {
    std::istream& in;
    std::ostream& out;
    std::ostream& err;
    std::vector<std::string> arguments;  ///< the command line after the program's name, for reports
    std::vector<std::string> inputs;     ///< the files read so far, which no output may replace
    bool out_is_terminal = false;        ///< `out` is a terminal: --color and --bars auto draw
    bool err_is_terminal = false;        ///< `err` is a terminal: a large input's progress line is drawn
    bool quiet = false;                  ///< --quiet: no notes, progress or "wrote" lines on `err`
};

/// A subcommand's work once its options are parsed; returns the exit code.
using Action = std::function<int(Context&)>;

/// Options shared by the commands that read a profile and print a report.
/// How profiler output becomes a profile (see amdahl/import.hpp), as typed on the command line.
struct ImportFlags {
    std::string lane = "auto";
    std::string window, group_by = "name", sample_period, timeunit, total;
    std::vector<std::string> renames, rename_patterns;
    std::optional<int> depth;
    bool leaf = false;
    bool window_any = false, keep_partial_steps = false, keep_profiler_events = false;
    std::string step;
    std::vector<std::string> exclude, pids, tids, streams, devices, categories;
    bool dependencies = false;             ///< --model replay (eval): keep the trace's events and their links
    std::optional<std::string> queue_gap;  ///< --queue-gap (eval and rank, with --model replay)
};

/// How a command writes its report: the format on stdout, more files in other formats (like
/// hyperfine's --export-*), how numbers read, and which phase rows a report carries.
struct OutputOptions {
    std::string format = "table";
    std::optional<int> precision;
    bool no_grouping = false;
    std::string phases = "all";
    std::string names = "short";
    std::string output_json, output_markdown, output_csv, summary_csv;
    std::string plot;         ///< --plot FILE.svg: the result's chart
    std::string color, bars;  ///< --color, --bars; empty: not given (auto)
};

struct ProfileOptions {
    std::string path;
    std::string input_format;
    std::string unit;
    OutputOptions output;
    ImportFlags import;
};

/// Adds PROFILE, --input-format, --unit, the output options and the profiler-input options; with
/// `phase_rows` (eval, whose rows are the profile's phases), --phases too.
void add_profile_options(CLI::App& command, ProfileOptions& options, bool phase_rows = false);
/// Adds --model amdahl|replay (`what`: what replay does in this command) and --queue-gap, which
/// sets options.import.queue_gap (eval, rank and plan).
void add_model_options(CLI::App& command, std::string& model, ProfileOptions& options, const std::string& what);
/// Adds the profiler-input options (--lane, --window, --group-by, --rename, --depth, ...).
/// The options that say how profiler output becomes a profile. `per_profile`: also --rename and
/// --total, which compare leaves out (its --rename matches BEFORE with AFTER, and one total cannot
/// be both sides').
void add_import_options(CLI::App& command, ImportFlags& flags, bool per_profile = true);
/// Checks and converts them. Throws amdahl::Error naming the option.
ImportOptions import_options(const ImportFlags& flags);
/// The --input-format value, checked.
std::optional<InputFormat> input_format(const std::string& name);
/// A time > 0 an option gives ("250ms"); throws amdahl::Error naming the option.
Quantity time_option(const std::string& text, const std::string& option);
/// The unit an option names (--unit, --assume-unit); throws amdahl::Error naming the option.
Unit unit_option(const char* option, const std::string& text);
/// Adds --format, --precision, --no-grouping, --output-json/-md/-csv and --summary-csv; with
/// `phase_rows`, --phases too.
void add_output_options(CLI::App& command, OutputOptions& options, bool phase_rows = false);

/// Adds --names short|full, for the commands whose rows are named phases.
void add_names_option(CLI::App& command, OutputOptions& options);

/// Loads the profile named by the options (converted to --unit) and prints its notes on stderr.
Profile load_profile(const ProfileOptions& options, Context& context);
OutputFormat output_format(const std::string& name);
/// The reporters' options from the command line's.
ReportOptions report_options(const OutputOptions& options, bool explain);

/// Calls a library parser on an option's value; its error gains the option's name, here only.
template <class Parse, class... Args>
auto parse_option(std::string_view option, Parse&& parse, Args&&... args) {
    try {
        return parse(std::forward<Args>(args)...);
    } catch (const Error& e) {
        throw Error(std::string(option), e.message());
    }
}

/// Each note on stderr as "note: ...", made safe for a terminal; nothing under --quiet.
void print_notes(Context& context, const std::vector<std::string>& notes);

/// A CLI11 check that a value is a number > 0, with a message a person can read.
CLI::Validator positive_number();

/// Writes `text` to `path` through a temporary file renamed into place, so a failure never
/// leaves half a file. Throws amdahl::Error naming the path and the system's reason.
void write_file(const std::string& path, const std::function<void(std::ostream&)>& write);

/// True when paths `a` and `b` name one file: the same text, or the same inode ("-", stdin, only itself).
bool same_file(const std::string& a, const std::string& b);

/// Throws amdahl::Error when an --output-* or --summary-csv path names an input read (`context.inputs`,
/// by inode) or another of those outputs: one would replace the other.
void check_output_paths(const Context& context, const OutputOptions& options);

/// True when `path` is not a regular file and opens the file this process's stdout writes to
/// (/dev/stdout, /dev/fd/1, a FIFO or terminal stdout is attached to).
bool names_standard_output(const std::string& path);

/// --plot's chart of `result` (report/chart.hpp); throws amdahl::Error for a result that has none.
template <class Result>
std::string chart(const Result& result, const ReportOptions& report) {
    if constexpr (requires { plot_svg(result, report.numbers); })
        return plot_svg(result, report.numbers);
    else
        throw Error("--plot",
                    "this report has no chart: charts are drawn by eval, law, rank, plan, scale, fit and compare of "
                    "two profiles (not with --mix or --ranks, nor by queue or compare of benchmark results)");
}

/// Writes a command's result: stdout in --format (CSV's summary on stderr), then each
/// --output-* file, --summary-csv and --plot's chart.
template <class Result>
void emit(Context& context, const Result& result, const OutputOptions& options, const ReportOptions& report) {
    check_output_paths(context, options);
    // The chart first: a result it cannot draw is an error before anything is written.
    const std::string svg = options.plot.empty() ? std::string() : chart(result, report);
    ReportOptions for_stdout = report;
    for_stdout.terminal = terminal_style(options, context);
    if (options.bars == "always") {
        const Document document = layout(result, report);
        check_bars_drawn(options, document.table ? &*document.table : nullptr);
    }
    write_report(context.out, context.err, result, output_format(options.format), for_stdout);
    if (!options.plot.empty()) write_file(options.plot, [&](std::ostream& out) { out << svg; });
    if (options.output_json.empty() && options.output_markdown.empty() && options.output_csv.empty() &&
        options.summary_csv.empty())
        return;                  // the usual case: no stream to build (start-up counts in CI loops)
    std::ostringstream discard;  // CSV's talk goes to stderr once, for stdout
    // --summary-csv /dev/stdout goes after the report on stdout's own stream: opening the path
    // would truncate a redirected file and write ahead of what the stream still buffers.
    const auto write_to = [&](const std::string& path, const std::function<void(std::ostream&)>& write) {
        if (names_standard_output(path))
            write(context.out);
        else
            write_file(path, write);
    };
    const auto file = [&](const std::string& path, OutputFormat format) {
        if (!path.empty())
            write_to(path, [&](std::ostream& out) { write_report(out, discard, result, format, report); });
    };
    file(options.output_json, OutputFormat::json);
    file(options.output_markdown, OutputFormat::markdown);
    file(options.output_csv, OutputFormat::csv);
    if (!options.summary_csv.empty())
        write_to(options.summary_csv, [&](std::ostream& out) { write_summary_csv(out, layout(result, report)); });
}

}  // namespace amdahl::cli
