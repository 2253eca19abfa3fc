#pragma once
// --color and --bars: what the text report adds when stdout is a terminal (report/bars.hpp).
#include <CLI/CLI.hpp>

#include <string>

#include "report/bars.hpp"

namespace amdahl::cli {

struct Context;
struct OutputOptions;

/// Adds --color always|never|auto and --bars always|never|auto (every command with text output).
void add_terminal_options(CLI::App& command, OutputOptions& options);

/// The style stdout's text report takes. auto: bars when stdout is a terminal; colour when it is
/// one, NO_COLOR is unset or empty (no-color.org) and TERM is not "dumb". always/never: as said,
/// whatever stdout is (--color always beats NO_COLOR, as no-color.org has a flag do). Throws
/// amdahl::Error when either is given with a --format other than table: the other formats are data.
TerminalStyle terminal_style(const OutputOptions& options, const Context& context);

/// With --bars always: throws amdahl::Error when `report_table` (the text report's rows) has no
/// share column to draw bars beside, rather than drawing none unsaid.
void check_bars_drawn(const OutputOptions& options, const Table* report_table);

}  // namespace amdahl::cli
