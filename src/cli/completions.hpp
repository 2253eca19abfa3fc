#pragma once
// Shell completion scripts generated from the command line's definition.
#include <optional>
#include <string>
#include <string_view>

#include "cli/definition.hpp"

namespace amdahl::cli {

enum class Shell { bash, zsh, fish };

/// The shells completion_script writes for, by name ("bash", "zsh", "fish").
std::optional<Shell> parse_shell(std::string_view name);

/// A script that completes `program`'s commands, their options, and the values of options (and
/// arguments) that take one of a fixed set; other values complete as file names.
///   bash: defines _amdahl and registers it (complete -F); zsh: an autoloadable #compdef function;
///   fish: complete -c lines.
std::string completion_script(const CommandDefinition& program, Shell shell);

}  // namespace amdahl::cli
