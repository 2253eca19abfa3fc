#include "cli/terminal.hpp"

#include <cstdlib>
#include <string_view>

#include "amdahl/error.hpp"
#include "cli/common.hpp"

namespace amdahl::cli {

void add_terminal_options(CLI::App& command, OutputOptions& options) {
    command
        .add_option("--color", options.color,
                    "Colour in the text table (bold headers, bars, gates): always, never or auto (default: on a "
                    "terminal, unless NO_COLOR is set or TERM=dumb); --format table only")
        ->check(CLI::IsMember({"always", "never", "auto"}));
    command
        .add_option("--bars", options.bars,
                    "Share bars (Unicode blocks) beside each row of a table with a share: always, never or auto "
                    "(default: when stdout is a terminal); --format table only")
        ->check(CLI::IsMember({"always", "never", "auto"}));
}

namespace {

bool environment_says_no_color() {
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return (no_color && *no_color) || (term && std::string_view(term) == "dumb");
}

}  // namespace

TerminalStyle terminal_style(const OutputOptions& options, const Context& context) {
    if (output_format(options.format) != OutputFormat::table) {
        for (const auto& [name, value] : {std::pair{"--color", &options.color}, std::pair{"--bars", &options.bars}})
            if (!value->empty())
                throw Error(name, "applies to --format table only (" + options.format + " is data, never coloured)");
    }
    TerminalStyle style;
    style.bars = options.bars == "always" || (options.bars != "never" && context.out_is_terminal);
    style.color = options.color == "always" ||
                  (options.color != "never" && context.out_is_terminal && !environment_says_no_color());
    return style;
}

void check_bars_drawn(const OutputOptions& options, const Table* report_table) {
    if (options.bars == "always" && !(report_table && bar_source(*report_table)))
        throw Error("--bars",
                    "this report has no table with a share column to draw bars beside (eval's and rank's "
                    "tables have one)");
}

}  // namespace amdahl::cli
