#pragma once
// The command line's definition read back from CLI11, in standard types: what the man pages and
// the shell completions are generated from, so neither can drift from what `run` parses.
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace amdahl::cli {

struct OptionDefinition {
    std::vector<std::string> names;    ///< "-s", "--speedup": short names first; empty for a positional
    std::string positional;            ///< "PROFILE" for a positional argument, else empty
    std::string help;                  ///< the help text, as --help prints it
    std::string group;                 ///< the heading --help lists it under ("Options", "Profiler input")
    std::string default_value;         ///< the default --help shows ("table"), else empty
    std::vector<std::string> choices;  ///< the values a CLI::IsMember check allows, in its order
    bool takes_value = false;          ///< false for a flag
    bool required = false;
    bool repeatable = false;
};

struct CommandDefinition {
    std::string name;                         ///< "amdahl", "eval", ...
    std::string description;                  ///< one line
    std::string footer;                       ///< more text after the options in --help, else empty
    std::vector<OptionDefinition> options;    ///< in the order --help lists them; hidden ones left out
    std::vector<CommandDefinition> commands;  ///< the subcommands; hidden ones left out
};

/// Reads `app`'s definition: its options and, recursively, its visible subcommands.
CommandDefinition describe(const CLI::App& app);

/// The name a value is shown with in a synopsis: the positional's name, else the long name in
/// capitals (--format FORMAT).
std::string value_name(const OptionDefinition& option);

}  // namespace amdahl::cli
