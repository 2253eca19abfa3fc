// amdahl completions bash|zsh|fish: a completion script for the shell, generated from the same
// definitions the command line parses with (cli/completions.cpp), so it cannot drift.
#include <memory>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/completions.hpp"

namespace amdahl::cli {

namespace {

struct CompletionsOptions {
    std::string shell;
};

int run_completions(const CompletionsOptions& options, Context& context) {
    CLI::App program;
    Action unused;
    define_program(program, unused);
    context.out << completion_script(describe(program), parse_shell(options.shell).value_or(Shell::bash));
    return exit_ok;
}

}  // namespace

void setup_completions(CLI::App& app, Action& action) {
    auto options = std::make_shared<CompletionsOptions>();
    CLI::App* command = app.add_subcommand(
        "completions", "Print a completion script for bash, zsh or fish (installed packages already have one)");
    command
        ->add_option("SHELL", options->shell,
                     "bash (source it, or put it in ~/.local/share/bash-completion/completions/amdahl), zsh (a file "
                     "_amdahl in a directory of $fpath) or fish (~/.config/fish/completions/amdahl.fish)")
        ->required()
        ->check(CLI::IsMember({"bash", "zsh", "fish"}));
    command->callback([options, &action] { action = [options](Context& c) { return run_completions(*options, c); }; });
}

}  // namespace amdahl::cli
