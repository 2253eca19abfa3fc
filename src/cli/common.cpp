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
    command.add_option("PROFILE", options.path, "Profile file (JSON, CSV, TSV, Markdown or a pasted table); - for stdin")
        ->required();
    command.add_option("--input-format", options.input_format, "Input format: json, csv, tsv, md or text (default: from the extension, then the content)")
        ->check(CLI::IsMember({"json", "csv", "tsv", "md", "markdown", "text", "txt"}));
    command.add_option("--unit", options.unit, "Time unit for the output: ns, us, ms, s, min or h (default: the profile's)");
    add_format_options(command, options.format, options.precision);
}

Profile load_profile(const ProfileOptions& options, Context& context) {
    std::optional<InputFormat> format;
    if (!options.input_format.empty()) format = parse_input_format(options.input_format);
    std::optional<Unit> unit;
    if (!options.unit.empty()) {
        unit = parse_unit(options.unit);
        if (!unit) throw Error("--unit", "unknown unit '" + printable(options.unit) + "' (expected ns, us, ms, s, min or h)");
    }
    Profile profile = amdahl::load_profile(options.path, context.in, format);
    for (const auto& note : profile.notes) context.err << "note: " << note << '\n';
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

std::string render(const Table& table, OutputFormat format) {
    switch (format) {
        case OutputFormat::csv: return render_csv(table);
        case OutputFormat::markdown: return render_markdown(table);
        default: return render_text(table);
    }
}

}  // namespace amdahl::cli
