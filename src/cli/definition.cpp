#include "cli/definition.hpp"

#include <CLI/CLI.hpp>

#include <cctype>

namespace amdahl::cli {

namespace {

// CLI11 2.1 keeps a check's values only inside the check; the type name --help prints carries
// them as "TEXT:{table,text,json}", and a set in braces is what CLI::IsMember alone writes there
// (CLI::Range writes "INT in [0 - 12]").
std::vector<std::string> choices_of(const CLI::Option& option) {
    const std::string type = option.get_type_name();
    const auto open = type.find(":{");
    const auto close = type.find('}', open);
    if (open == std::string::npos || close == std::string::npos) return {};
    std::vector<std::string> choices;
    std::string choice;
    for (std::size_t i = open + 2; i < close; ++i) {
        if (type[i] == ',') {
            choices.push_back(choice);
            choice.clear();
        } else {
            choice += type[i];
        }
    }
    choices.push_back(choice);
    return choices;
}

OptionDefinition describe(const CLI::Option& option) {
    OptionDefinition definition;
    for (const std::string& name : option.get_snames()) definition.names.push_back("-" + name);
    for (const std::string& name : option.get_lnames()) definition.names.push_back("--" + name);
    if (option.get_positional()) definition.positional = option.get_name();
    definition.help = option.get_description();
    definition.group = option.get_group();
    definition.default_value = option.get_default_str();
    definition.choices = choices_of(option);
    definition.takes_value = option.get_expected_max() != 0;  // add_flag makes it 0
    definition.required = option.get_required();
    definition.repeatable = option.get_items_expected_max() > 1;
    return definition;
}

}  // namespace

CommandDefinition describe(const CLI::App& app) {
    CommandDefinition command;
    command.name = app.get_name();
    command.description = app.get_description();
    command.footer = app.get_footer();
    // An option or command in the group "" is hidden from --help, and so from the manual too.
    const auto visible = [](const CLI::Option* option) { return !option->get_group().empty(); };
    for (const bool positional : {true, false}) {
        for (const CLI::Option* option : app.get_options(visible)) {
            if (option->get_positional() == positional) command.options.push_back(describe(*option));
        }
    }
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App* c) { return !c->get_group().empty(); }))
        command.commands.push_back(describe(*sub));
    return command;
}

std::string value_name(const OptionDefinition& option) {
    if (!option.positional.empty()) return option.positional;
    std::string name = option.names.empty() ? "VALUE" : option.names.back();
    name.erase(0, name.find_first_not_of('-'));
    for (char& c : name) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return name;
}

}  // namespace amdahl::cli
