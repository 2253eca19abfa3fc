#pragma once
// Man pages (roff, section 1) generated from the command line's definition.
#include <string>
#include <string_view>

#include "cli/definition.hpp"

namespace amdahl::cli {

/// The page amdahl(1) when `command` is null (the synopsis, every command, the global options),
/// else the page amdahl-NAME(1) of that command of `program`. `version` goes in the page's header.
std::string manual_page(const CommandDefinition& program, const CommandDefinition* command, std::string_view version);

/// `text` as roff running text: backslashes and dashes escaped, a line starting with '.' or '\''
/// kept from being read as a request, and other than ASCII written as \[uXXXX] so the page is
/// plain ASCII whatever the reader's locale.
std::string roff_escape(std::string_view text);

}  // namespace amdahl::cli
