#pragma once
// What every subcommand shares: the streams, the common options and the number formats people read.
#include <CLI/CLI.hpp>

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "amdahl/io.hpp"
#include "amdahl/profile.hpp"
#include "amdahl/report.hpp"

namespace amdahl::cli {

struct Context {
    std::istream& in;
    std::ostream& out;
    std::ostream& err;
};

/// A subcommand's work once its options are parsed; returns the exit code.
using Action = std::function<int(Context&)>;

/// Options shared by the commands that read a profile and print a report.
/// How profiler output becomes a profile (see amdahl/import.hpp), as typed on the command line.
struct ImportFlags {
    std::string lane = "auto";
    std::string window, group_by = "name", sample_period, timeunit, total;
    std::vector<std::string> renames;
    std::optional<int> depth;
    bool leaf = false;
};

struct ProfileOptions {
    std::string path;
    std::string input_format;
    std::string unit;
    std::string format = "table";
    int precision = 4;
    ImportFlags import;
};

/// Adds PROFILE, --input-format, --unit, --format, --precision and the profiler-input options.
void add_profile_options(CLI::App& command, ProfileOptions& options);
/// Adds the profiler-input options (--lane, --window, --group-by, --rename, --depth, ...).
void add_import_options(CLI::App& command, ImportFlags& flags);
/// Checks and converts them. Throws amdahl::Error naming the option.
ImportOptions import_options(const ImportFlags& flags);
/// The --input-format value, checked.
std::optional<InputFormat> input_format(const std::string& name);
/// Adds --format and --precision only.
void add_format_options(CLI::App& command, std::string& format, int& precision);

/// Loads the profile named by the options (converted to --unit) and prints its notes on stderr.
Profile load_profile(const ProfileOptions& options, Context& context);
OutputFormat output_format(const std::string& name);

/// A CLI11 check that a value is a number > 0, with a message a person can read.
CLI::Validator positive_number();

/// Numbers for people.
std::string format_time(double value, int precision);     ///< "18.0", "2.1", "2,357,053"
std::string format_speedup(double value, int precision);  ///< "1.2330x", "∞"
std::string format_factor(double value);                  ///< "10x", "1.4286x", "inf"
std::string format_percent(double fraction);              ///< "18.9%"
/// A factor as a script reads it: the shortest number, or "inf".
std::string machine_factor(double value);

/// Writes a table in the chosen format: text/markdown/csv.
std::string render(const Table& table, OutputFormat format);
/// The same, written to `out` as it is made (tables of a million rows).
void write(std::ostream& out, const Table& table, OutputFormat format);

}  // namespace amdahl::cli
