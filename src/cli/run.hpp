#pragma once
#include <iosfwd>

namespace amdahl::cli {

/// Exit codes, part of the interface.
enum ExitCode : int { exit_ok = 0, exit_gate_failed = 1, exit_input_error = 2, exit_internal_error = 3 };

/// Runs the amdahl command line: parses `argv`, runs the subcommand, writes data to `out` and
/// messages to `err`. Never throws; returns the exit code. `out_is_terminal`: `out` is a terminal,
/// where --color and --bars auto draw; `err_is_terminal`: `err` is one, where a large input's
/// progress line is drawn (main() asks isatty).
int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err,
        bool out_is_terminal = false, bool err_is_terminal = false);

}  // namespace amdahl::cli
