#include "cli/run.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "cli/commands.hpp"
#include "model/suggest.hpp"

namespace amdahl::cli {

namespace {

struct Command {
    const char* name;
    void (*setup)(CLI::App&, Action&);
};

// Every subcommand, in the order `amdahl --help` lists them (manual is hidden).
constexpr Command commands[] = {
    {"eval", setup_eval},
    {"law", setup_law},
    {"rank", setup_rank},
    {"plan", setup_plan},
    {"compare", setup_compare},
    {"scale", setup_scale},
    {"fit", setup_fit},
    {"queue", setup_queue},
    {"import", setup_import},
    {"report", setup_report},
    {"completions", setup_completions},
    {"manual", setup_manual},
};

// The names an app's options go by: "-k", "--factor", ...
std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::Option* option : app.get_options()) {
        for (const auto& name : option->get_snames()) names.push_back("-" + name);
        for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    }
    return names;
}

// "law, rank and plan"
std::string and_list(const std::vector<std::string>& words) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
    return out;
}

// For an option COMMAND does not have (CLI11 says only "The following arguments were not
// expected"): the commands that have it ("-p is an option of scale, not law"), or the nearest
// option COMMAND has. Nothing when every option-like argument is the command's own.
std::optional<std::string> unknown_option_message(int argc, const char* const* argv) {
    if (argc < 3) return std::nullopt;
    const std::string command = argv[1];
    if (std::none_of(std::begin(commands), std::end(commands), [&](const Command& c) { return command == c.name; }))
        return std::nullopt;
    // Every command's options, as --help would list them: only on this error path, and built once
    // per process (they never change; a fuzzer meets this path on most of its inputs).
    static const std::map<std::string, std::vector<std::string>, std::less<>> options_of = [] {
        CLI::App all;
        Action unused;
        define_program(all, unused);
        std::map<std::string, std::vector<std::string>, std::less<>> names;
        for (const Command& c : commands) names[c.name] = option_names(*all.get_subcommand(c.name));
        return names;
    }();
    const std::vector<std::string>& own = options_of.find(command)->second;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") break;
        const bool long_option = arg.size() > 2 && arg.starts_with("--");
        const bool short_option = arg.size() > 1 && arg[0] == '-' && std::isalpha(static_cast<unsigned char>(arg[1]));
        if (!long_option && !short_option) continue;
        // "--target=2" is --target; "-f0.5" is -f.
        const std::string name(long_option ? arg.substr(0, arg.find('=')) : arg.substr(0, 2));
        if (std::find(own.begin(), own.end(), name) != own.end()) continue;
        const std::string help = " (see 'amdahl " + command + " --help')";
        std::vector<std::string> others;
        for (const Command& c : commands) {
            const std::vector<std::string>& names = options_of.find(c.name)->second;
            if (c.name != command && std::find(names.begin(), names.end(), name) != names.end())
                others.emplace_back(c.name);
        }
        if (!others.empty())
            return printable(name) + " is an option of " + and_list(others) + ", not " + command + help;
        // Only a long option has a nearest one worth naming ("-x" is one letter from every short
        // option), and only among long ones ("-f" is in "--frobnicate").
        std::vector<std::string_view> known;
        for (const auto& option : own)
            if (long_option && option.starts_with("--")) known.emplace_back(option);
        const Suggestions nearest = nearest_names(name, known, 1);
        return command + " has no option " + printable(name) +
               (nearest.names.empty() ? "" : "; did you mean " + std::string(nearest.names.front()) + "?") + help;
    }
    return std::nullopt;
}

// CLI11's words for an option given more often than it takes values ("--rate: At Most 1 required
// but received 2"), in the user's: "--rate was given twice; give it once".
std::string parse_error_message(const CLI::ParseError& e) {
    const std::string text = e.what();
    const std::string_view marker = ": At Most ";
    const auto at = text.find(marker);
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) == nullptr || at == std::string::npos) return printable(text);
    const std::string name = text.substr(0, at);
    const std::string_view rest = std::string_view(text).substr(at + marker.size());
    const auto received = rest.rfind(' ');
    const std::string_view most = rest.substr(0, rest.find(' ')), count = rest.substr(received + 1);
    if (most != "1") return printable(text);
    return printable(name) + " was given " + (count == "2" ? std::string("twice") : std::string(count) + " times") +
           "; give it once";
}

}  // namespace

void define_program(CLI::App& app, Action& action, std::string_view only, bool* quiet) {
    app.name("amdahl");
    app.description("amdahl: if I make this part faster, how much faster does the whole thing get?");
    app.require_subcommand(1);
    app.set_version_flag("--version", version_line(), "Print the version and the git commit built from, and exit");
    // Start-up cost matters to CI loops: register only the command being run (all of them for
    // --help, for messages about unknown commands, and for the generators that walk them all).
    const bool known =
        std::any_of(std::begin(commands), std::end(commands), [&](const Command& c) { return only == c.name; });
    for (const Command& c : commands) {
        if (!known || only == c.name) c.setup(app, action);
    }
    // One flag every command shares; the generators see it on each command's page.
    static bool unused_quiet = false;
    for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
        const std::string name = command->get_name();
        if (name == "completions" || name == "manual") continue;
        command->add_flag("-q,--quiet", quiet != nullptr ? *quiet : unused_quiet,
                          "No notes, progress or 'wrote FILE' lines on stderr (errors and failed gates still print)");
    }
}

std::string version_line() { return "amdahl " AMDAHL_VERSION " (git " AMDAHL_GIT_COMMIT ")"; }

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err, bool out_is_terminal,
        bool err_is_terminal) {
    Context context{in, out, err, {}, {}, out_is_terminal, err_is_terminal};
    for (int i = 1; i < argc; ++i) context.arguments.emplace_back(argv[i]);
    try {
        CLI::App app;
        Action action;
        define_program(app, action, argc > 1 ? std::string_view(argv[1]) : std::string_view(), &context.quiet);
        // Bare `amdahl`: what it can do, as --help says it.
        if (argc <= 1) {
            out << app.help();
            return exit_ok;
        }
        // CLI11 reports both of these as "A subcommand is required"; name what the user typed.
        if (argc > 1) {
            const std::string first = argv[1];
            const bool known_flag = first == "-h" || first == "--help" || first == "--version";
            if (first.starts_with("-") && !known_flag) {
                err << "error: unknown option '" << printable(first) << "' (options come after the command: "
                    << "amdahl COMMAND [OPTIONS]; see 'amdahl --help')\n";
                return exit_input_error;
            }
            if (!first.starts_with("-") &&
                app.get_subcommands([&](CLI::App* c) { return c->get_name() == first; }).empty()) {
                std::string names;
                for (const CLI::App* c : app.get_subcommands([](CLI::App* c) { return !c->get_group().empty(); }))
                    names += (names.empty() ? "" : ", ") + c->get_name();
                err << "error: unknown command '" << printable(first) << "' (commands: " << names << ")\n";
                return exit_input_error;
            }
        }
        // `amdahl eval --version` is `amdahl --version` (CLI11 would first ask for eval's PROFILE).
        for (int i = 2; i < argc && std::string_view(argv[i]) != "--"; ++i) {
            if (std::string_view(argv[i]) == "--version") {
                out << version_line() << '\n';
                return exit_ok;
            }
        }
        try {
            app.parse(argc, argv);
        } catch (const CLI::CallForHelp& e) {
            return app.exit(e, out, err);
        } catch (const CLI::CallForAllHelp& e) {
            return app.exit(e, out, err);
        } catch (const CLI::CallForVersion& e) {
            return app.exit(e, out, err);
        } catch (const CLI::ExtrasError& e) {
            if (const auto message = unknown_option_message(argc, argv)) {
                err << "error: " << *message << "\n";
                return exit_input_error;
            }
            err << "error: " << printable(e.what()) << "\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n";
            return exit_input_error;
        } catch (const CLI::ParseError& e) {
            err << "error: " << parse_error_message(e)
                << "\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n";
            return exit_input_error;
        }
        if (!action) {
            err << "error: no command given\n";
            return exit_input_error;
        }
        const int code = action(context);
        // Output that could not be written is an error: CI must never get an empty file and 0.
        out.flush();
        if (out.fail()) {
            err << "error: cannot write the output: " << (errno != 0 ? std::strerror(errno) : "the stream refused it")
                << '\n';
            return code == exit_ok ? exit_input_error : code;
        }
        return code;
    } catch (const Error& e) {
        out.flush();
        err << "error: " << printable(e.what()) << '\n';
        return exit_input_error;
    } catch (const std::bad_alloc&) {
        err << "error: out of memory\n";
        return exit_internal_error;
    } catch (const std::exception& e) {
        err << "internal error: " << printable(e.what()) << " (please report this)\n";
        return exit_internal_error;
    }
}

}  // namespace amdahl::cli
