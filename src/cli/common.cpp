#include "cli/common.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"

namespace amdahl::cli {

void add_format_options(CLI::App& command, std::string& format, int& precision) {
    command.add_option("--format", format, "Output format: table, json, csv or md")
        ->check(CLI::IsMember({"table", "text", "json", "csv", "md", "markdown"}))
        ->default_str("table");
    command.add_option("--precision", precision, "Decimals shown for speedups in tables (times use up to this many)")
        ->check(CLI::Range(0, 12))
        ->default_str("4");
}

void add_profile_options(CLI::App& command, ProfileOptions& options) {
    command
        .add_option("PROFILE", options.path, "Profile file (JSON, CSV, TSV, Markdown or a pasted table); - for stdin")
        ->required();
    command.add_option("--input-format", options.input_format,
                       "json, csv, tsv, md, text, chrome-trace, nsys, rocprof-stats, rocprof-trace, rocprof-summary or "
                       "folded (default: recognised from the content)");
    command.add_option("--unit", options.unit,
                       "Time unit for the output: ns, us, ms, s, min or h (default: the profile's)");
    add_format_options(command, options.format, options.precision);
    add_import_options(command, options.import);
}

void add_import_options(CLI::App& command, ImportFlags& flags) {
    const std::string group = "Profiler input";
    command
        .add_option("--lane", flags.lane,
                    "Trace events that become phases: gpu, cpu, all (default: gpu if the trace has device events)")
        ->check(CLI::IsMember({"auto", "gpu", "cpu", "all"}))
        ->group(group);
    command
        .add_option("--window", flags.window,
                    "Only the spans of events matching REGEX (e.g. 'ProfilerStep#.*'), averaged per span")
        ->group(group);
    command.add_option("--group-by", flags.group_by, "Phase per event name (name), category (cat) or regex:PATTERN")
        ->group(group);
    command
        .add_option("--rename", flags.renames,
                    "REGEX=NAME: events matching REGEX become phase NAME (repeatable, first match wins)")
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
    command
        .add_option("--total", flags.total,
                    "Summary formats: the real end-to-end time, e.g. 250ms (the rest is unattributed)")
        ->group(group);
}

namespace {
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
}  // namespace

ImportOptions import_options(const ImportFlags& flags) {
    ImportOptions out;
    out.lane = flags.lane == "gpu"   ? Lane::gpu
               : flags.lane == "cpu" ? Lane::cpu
               : flags.lane == "all" ? Lane::all
                                     : Lane::automatic;
    out.window = flags.window;
    out.group_by = flags.group_by;
    for (const auto& rename : flags.renames) {
        const auto eq = rename.rfind('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == rename.size())
            throw Error("--rename", "expected REGEX=NAME (got '" + printable(rename) + "')");
        out.renames.emplace_back(rename.substr(0, eq), rename.substr(eq + 1));
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
    return out;
}

std::optional<InputFormat> input_format(const std::string& name) {
    if (name.empty()) return std::nullopt;
    const auto format = parse_input_format(name);
    if (!format) {
        throw Error("--input-format", "unknown format '" + printable(name) +
                                          "' (expected json, csv, tsv, md, text, chrome-trace, "
                                          "nsys, rocprof-stats, rocprof-trace, rocprof-summary or folded)");
    }
    return format;
}

Profile load_profile(const ProfileOptions& options, Context& context) {
    const std::optional<InputFormat> format = input_format(options.input_format);
    const ImportOptions import = import_options(options.import);
    std::optional<Unit> unit;
    if (!options.unit.empty()) {
        unit = parse_unit(options.unit);
        if (!unit)
            throw Error("--unit", "unknown unit '" + printable(options.unit) + "' (expected ns, us, ms, s, min or h)");
    }
    Profile profile = amdahl::load_profile(options.path, context.in, format, import);
    for (const auto& note : profile.notes) context.err << "note: " << printable(note) << '\n';
    if (unit && *unit != profile.unit) profile = convert_profile(profile, *unit);
    return profile;
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

std::string format_time(double value, int precision) {
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    std::string text = fmt::format("{:.{}f}", value, std::max(precision, 1));
    // Trim trailing zeros, keeping one decimal ("18.0").
    if (const auto dot = text.find('.'); dot != std::string::npos) {
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text += '0';
        // Group the integer part in thousands for values a person has to count digits in.
        const std::size_t int_end = text.find('.') == std::string::npos ? text.size() : text.find('.');
        const std::size_t int_start = text[0] == '-' ? 1 : 0;
        if (int_end - int_start > 4) {
            for (std::size_t pos = int_end; pos > int_start + 3;) {
                pos -= 3;
                text.insert(pos, ",");
            }
        }
    }
    return text == "-0.0" ? "0.0" : text;
}

std::string format_speedup(double value, int precision) {
    if (std::isinf(value)) return "\xe2\x88\x9e";  // ∞
    return fmt::format("{:.{}f}x", value, precision);
}

std::string format_factor(double value) {
    if (std::isinf(value)) return "inf";
    std::string text = fmt::format("{:.4f}", value);
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text + "x";
}

std::string format_percent(double fraction) {
    if (!std::isfinite(fraction)) return "-";
    return fmt::format("{:.1f}%", fraction * 100);
}

std::string machine_factor(double value) { return std::isinf(value) ? "inf" : shortest(value); }

void write(std::ostream& out, const Table& table, OutputFormat format) {
    switch (format) {
        case OutputFormat::csv:
            return write_csv(out, table);
        case OutputFormat::markdown:
            return write_markdown(out, table);
        default:
            return write_text(out, table);
    }
}

std::string render(const Table& table, OutputFormat format) {
    switch (format) {
        case OutputFormat::csv:
            return render_csv(table);
        case OutputFormat::markdown:
            return render_markdown(table);
        default:
            return render_text(table);
    }
}

}  // namespace amdahl::cli
