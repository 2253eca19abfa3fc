// amdahl manual [COMMAND] (hidden): the man page of amdahl or of one command, in roff, generated
// from the same definitions the command line parses with (cli/manual.cpp); the build writes every
// page with --directory and installs them.
#include <filesystem>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "cli/commands.hpp"
#include "cli/manual.hpp"

namespace amdahl::cli {

namespace {

struct ManualOptions {
    std::string command;
    std::string directory;
};

int run_manual(const ManualOptions& options, Context& context) {
    CLI::App app;
    Action unused;
    define_program(app, unused);
    const CommandDefinition program = describe(app);
    if (!options.directory.empty()) {
        std::error_code error;
        std::filesystem::create_directories(options.directory, error);
        const auto page = [&](const std::string& name, const CommandDefinition* command) {
            write_file((std::filesystem::path(options.directory) / (name + ".1")).string(),
                       [&](std::ostream& out) { out << manual_page(program, command, AMDAHL_VERSION); });
        };
        page(program.name, nullptr);
        for (const CommandDefinition& command : program.commands) page(program.name + "-" + command.name, &command);
        return exit_ok;
    }
    if (options.command.empty()) {
        context.out << manual_page(program, nullptr, AMDAHL_VERSION);
        return exit_ok;
    }
    for (const CommandDefinition& command : program.commands) {
        if (command.name == options.command) {
            context.out << manual_page(program, &command, AMDAHL_VERSION);
            return exit_ok;
        }
    }
    std::string names;
    for (const CommandDefinition& command : program.commands) names += (names.empty() ? "" : ", ") + command.name;
    throw Error("manual", "no command '" + printable(options.command) + "' (commands: " + names + ")");
}

}  // namespace

void setup_manual(CLI::App& app, Action& action) {
    auto options = std::make_shared<ManualOptions>();
    CLI::App* command = app.add_subcommand("manual", "Print the man page of amdahl, or of COMMAND, in roff");
    command->group("");  // for the build, which installs the pages: `man amdahl-eval` is what people run
    command->add_option("COMMAND", options->command, "The command whose page to print (default: amdahl's own)");
    command->add_option("--directory", options->directory,
                        "Write every page to DIR instead: amdahl.1 and amdahl-COMMAND.1 for each command");
    command->callback([options, &action] { action = [options](Context& c) { return run_manual(*options, c); }; });
}

}  // namespace amdahl::cli
