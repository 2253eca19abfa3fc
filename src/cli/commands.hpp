#pragma once
// One setup function per subcommand: it registers the subcommand and its options, and sets
// `action` to run it when the subcommand is the one parsed.
#include <string>
#include <string_view>

#include "cli/common.hpp"
#include "cli/run.hpp"

namespace amdahl::cli {

void setup_eval(CLI::App& app, Action& action);
void setup_law(CLI::App& app, Action& action);
void setup_rank(CLI::App& app, Action& action);
void setup_plan(CLI::App& app, Action& action);
void setup_import(CLI::App& app, Action& action);
void setup_compare(CLI::App& app, Action& action);
void setup_scale(CLI::App& app, Action& action);
void setup_fit(CLI::App& app, Action& action);
void setup_queue(CLI::App& app, Action& action);
void setup_report(CLI::App& app, Action& action);
void setup_completions(CLI::App& app, Action& action);
void setup_manual(CLI::App& app, Action& action);

/// Defines the whole command line on `app`: its name, description, --version and every command;
/// when `only` names a command, that one alone (start-up cost matters to CI loops). `run` parses
/// with it, and the man pages and completions are generated from it. Every command but completions
/// and manual gets -q/--quiet, which sets `*quiet` (when given).
void define_program(CLI::App& app, Action& action, std::string_view only = {}, bool* quiet = nullptr);

/// What --version prints: "amdahl 0.1.0 (git abc1234)", the commit CMake read when configuring.
std::string version_line();

}  // namespace amdahl::cli
