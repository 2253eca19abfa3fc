#include "cli/manual.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "cli/run.hpp"

namespace amdahl::cli {

namespace {

// What each exit code means (run.hpp's ExitCode), for EXIT STATUS.
struct ExitStatus {
    int code;
    const char* meaning;
};
constexpr ExitStatus exit_statuses[] = {
    {exit_ok, "Done (an answer that is \"no\", such as an impossible target in law, is still done)."},
    {exit_gate_failed,
     "A gate asked for failed: eval --require-speedup, plan --require, or a compare gate (--fail-if-slower, "
     "--fail-if-phase-slower, --fail-if-phase-costs, --require-speedup)."},
    {exit_input_error, "Usage or input error: one line on standard error names the file and line and the problem."},
    {exit_internal_error, "Internal error: a bug; please report it."},
};

std::string upper(std::string_view text) {
    std::string result(text);
    for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return result;
}

// One UTF-8 sequence starting at text[i] as a code point; advances i past it. A byte that starts
// no valid sequence is U+FFFD.
char32_t next_code_point(std::string_view text, std::size_t& i) {
    const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
    const unsigned char lead = byte(i);
    const int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    char32_t point = length == 4 ? lead & 0x07u : length == 3 ? lead & 0x0Fu : length == 2 ? lead & 0x1Fu : 0xFFFDu;
    if (length == 1 || i + static_cast<std::size_t>(length) > text.size()) {
        ++i;
        return 0xFFFD;
    }
    for (int k = 1; k < length; ++k) {
        const unsigned char next = byte(i + static_cast<std::size_t>(k));
        if ((next & 0xC0u) != 0x80u) {
            ++i;
            return 0xFFFD;
        }
        point = (point << 6) | (next & 0x3Fu);
    }
    i += static_cast<std::size_t>(length);
    return point;
}

// An option's names and value, bold and italic: \fB\-f\fR, \fB\-\-fraction\fR \fIFRACTION\fR.
std::string option_heading(const OptionDefinition& option) {
    if (!option.positional.empty()) return "\\fI" + roff_escape(option.positional) + "\\fR";
    std::string heading;
    for (const std::string& name : option.names)
        heading += (heading.empty() ? "" : ", ") + ("\\fB" + roff_escape(name) + "\\fR");
    if (option.takes_value) heading += " \\fI" + roff_escape(value_name(option)) + "\\fR";
    return heading;
}

void write_options(std::string& page, const std::vector<OptionDefinition>& options) {
    page += ".SH OPTIONS\n";
    std::vector<std::string> groups;
    for (const OptionDefinition& option : options) {
        const std::string& group = option.positional.empty() ? option.group : "Arguments";
        if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
    }
    for (const std::string& group : groups) {
        if (groups.size() > 1) page += ".SS " + roff_escape(group) + "\n";
        for (const OptionDefinition& option : options) {
            if ((option.positional.empty() ? option.group : "Arguments") != group) continue;
            page += ".TP\n" + option_heading(option) + "\n" + roff_escape(option.help) + "\n";
            std::vector<std::string> facts;
            if (!option.choices.empty()) {
                std::string values;
                for (const std::string& choice : option.choices) values += (values.empty() ? "" : ", ") + choice;
                facts.push_back("Values: " + values + ".");
            }
            if (!option.default_value.empty()) facts.push_back("Default: " + option.default_value + ".");
            if (option.required) facts.push_back("Required.");
            if (option.repeatable && option.positional.empty() && option.help.find("repeatable") == std::string::npos)
                facts.push_back("Repeatable.");
            // On a line of their own: help texts end without a full stop.
            if (!facts.empty()) {
                std::string line;
                for (const std::string& fact : facts) line += (line.empty() ? "" : " ") + fact;
                page += ".br\n" + roff_escape(line) + "\n";
            }
        }
    }
}

void write_exit_status(std::string& page) {
    page += ".SH EXIT STATUS\n";
    for (const ExitStatus& status : exit_statuses)
        page += fmt::format(".TP\n.B {}\n{}\n", status.code, roff_escape(status.meaning));
}

std::string page_header(std::string_view title, std::string_view version) {
    return fmt::format(".TH {} 1 \"\" \"amdahl {}\" \"User Commands\"\n", roff_escape(upper(title)),
                       roff_escape(version));
}

}  // namespace

std::string roff_escape(std::string_view text) {
    std::string escaped;
    bool line_start = true;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (line_start && (c == '.' || c == '\'')) escaped += "\\&";
        line_start = c == '\n';
        if (static_cast<unsigned char>(c) >= 0x80) {
            escaped += fmt::format("\\[u{:04X}]", static_cast<std::uint32_t>(next_code_point(text, i)));
            continue;
        }
        if (c == '\\') {
            escaped += "\\e";
        } else if (c == '-') {
            escaped += "\\-";
        } else {
            escaped += c;
        }
        ++i;
    }
    return escaped;
}

std::string manual_page(const CommandDefinition& program, const CommandDefinition* command, std::string_view version) {
    std::string page;
    if (command == nullptr) {
        // "amdahl: if I make ..." in --help; the page's name line names it already.
        std::string_view summary = program.description;
        if (summary.starts_with(program.name + ": ")) summary.remove_prefix(program.name.size() + 2);
        page += page_header(program.name, version);
        page += ".SH NAME\n" + roff_escape(program.name) + " \\- " + roff_escape(summary) + "\n";
        page += ".SH SYNOPSIS\n.B " + roff_escape(program.name) + "\n.I COMMAND\n[\\fIOPTIONS\\fR]\n.br\n.B " +
                roff_escape(program.name) + "\n\\fB\\-\\-version\\fR\n";
        page += ".SH DESCRIPTION\n" + roff_escape(summary) + "\n";
        page += ".PP\nEach command has its own page: \\fBman " + roff_escape(program.name) +
                "\\-COMMAND\\fR, and \\fB" + roff_escape(program.name) + " COMMAND \\-\\-help\\fR.\n";
        page += ".SH COMMANDS\n";
        for (const CommandDefinition& sub : program.commands) {
            page += ".TP\n.B " + roff_escape(sub.name) + "\n" + roff_escape(sub.description) + "\n";
        }
        write_options(page, program.options);
    } else {
        const std::string name = program.name + "-" + command->name;
        page += page_header(name, version);
        page += ".SH NAME\n" + roff_escape(name) + " \\- " + roff_escape(command->description) + "\n";
        page += ".SH SYNOPSIS\n.B " + roff_escape(program.name + " " + command->name) + "\n[\\fIOPTIONS\\fR]";
        for (const OptionDefinition& option : command->options) {
            if (option.positional.empty()) continue;
            const std::string argument = "\\fI" + roff_escape(option.positional) + "\\fR";
            page += " " + (option.required ? argument : "[" + argument + "]");
            if (option.repeatable) page += "...";
        }
        page += "\n.SH DESCRIPTION\n" + roff_escape(command->description) + "\n";
        if (!command->footer.empty()) page += ".PP\n" + roff_escape(command->footer) + "\n";
        write_options(page, command->options);
    }
    write_exit_status(page);
    page += ".SH SEE ALSO\n";
    std::string see_also;
    if (command != nullptr) see_also += ".BR " + roff_escape(program.name) + " (1)";
    for (const CommandDefinition& sub : program.commands) {
        if (&sub == command) continue;
        see_also += (see_also.empty() ? "" : ",\n") + (".BR " + roff_escape(program.name + "-" + sub.name) + " (1)");
    }
    page += see_also + "\n";
    return page;
}

}  // namespace amdahl::cli
