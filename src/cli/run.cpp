#include "cli/run.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <ostream>
#include <string_view>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "cli/commands.hpp"

namespace amdahl::cli {

namespace {

struct Command {
    const char* name;
    void (*setup)(CLI::App&, Action&);
};

// Every subcommand, in the order `amdahl --help` lists them.
constexpr Command commands[] = {
    {"eval", setup_eval}, {"law", setup_law},         {"rank", setup_rank},
    {"plan", setup_plan}, {"compare", setup_compare}, {"scale", setup_scale},
    {"fit", setup_fit},   {"queue", setup_queue},     {"import", setup_import},
};

}  // namespace

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
    Context context{in, out, err, {}};
    for (int i = 1; i < argc; ++i) context.arguments.emplace_back(argv[i]);
    try {
        CLI::App app{"amdahl: if I make this part faster, how much faster does the whole thing get?", "amdahl"};
        app.require_subcommand(1);
        app.set_version_flag("--version", "amdahl " AMDAHL_VERSION);
        Action action;
        // Start-up cost matters to CI loops: register only the command being run (all of them
        // for --help and for messages about unknown commands).
        const std::string_view requested = argc > 1 ? std::string_view(argv[1]) : std::string_view();
        const bool known = std::any_of(std::begin(commands), std::end(commands),
                                       [&](const Command& c) { return requested == c.name; });
        for (const Command& c : commands) {
            if (!known || requested == c.name) c.setup(app, action);
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
                for (const CLI::App* c : app.get_subcommands([](CLI::App*) { return true; }))
                    names += (names.empty() ? "" : ", ") + c->get_name();
                err << "error: unknown command '" << printable(first) << "' (commands: " << names << ")\n";
                return exit_input_error;
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
        } catch (const CLI::ParseError& e) {
            err << "error: " << printable(e.what()) << "\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n";
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
