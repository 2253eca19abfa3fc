#pragma once
// One setup function per subcommand: it registers the subcommand and its options, and sets
// `action` to run it when the subcommand is the one parsed.
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

}  // namespace amdahl::cli
