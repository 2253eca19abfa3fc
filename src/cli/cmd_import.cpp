// amdahl import FILE [-o profile.json]: the profile derived from profiler output, as amdahl's JSON
// profile format, to review, edit and version.
#include <filesystem>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "cli/commands.hpp"

namespace amdahl::cli {

namespace {

struct ImportCommandOptions {
    std::string path;
    std::string input_format;
    std::string output = "-";
    ImportFlags import;
    bool keep_timeline = false;
};

int run_import(const ImportCommandOptions& options, Context& context) {
    // The derived profile must never replace the trace it came from (same file, by inode).
    std::error_code same_error;
    if (options.output != "-" && options.path != "-" &&
        std::filesystem::equivalent(options.path, options.output, same_error))
        throw Error(options.output, "-o names the input itself; write the profile to another file");
    ImportFlags flags = options.import;
    flags.dependencies = options.keep_timeline;
    if (flags.queue_gap && !options.keep_timeline)
        throw Error("--queue-gap", "applies with --keep-timeline only (it shapes the timeline replay reads)");
    ImportOptions import = import_options(flags);
    import.keep_timeline = options.keep_timeline;
    const Profile profile = amdahl::load_profile(options.path, context.in, input_format(options.input_format), import);
    print_notes(context, profile.notes);
    const std::string json = profile_to_json(profile, options.keep_timeline);
    if (options.output == "-") {
        context.out << json;
        return exit_ok;
    }
    write_file(options.output, [&](std::ostream& file) { file << json; });
    if (!context.quiet)
        context.err << "wrote " << printable(options.output) << " (" << count_of(profile.phases.size(), "phase") << ", "
                    << unit_name(profile.unit) << ")\n";
    return exit_ok;
}

}  // namespace

void setup_import(CLI::App& app, Action& action) {
    auto options = std::make_shared<ImportCommandOptions>();
    CLI::App* command =
        app.add_subcommand("import", "Turn profiler output into an amdahl JSON profile (to stdout or -o FILE)");
    command
        ->add_option("FILE", options->path,
                     "Profiler output: a Chrome/PyTorch trace, nsys or rocprof CSV, folded stacks, ...; - for stdin")
        ->required();
    command->add_option("-o,--output", options->output, "Where to write the profile (default: stdout)");
    command->add_option("--input-format", options->input_format,
                        "Force a format (default: recognised from the content)");
    add_import_options(*command, options->import);
    command->add_flag("--keep-timeline", options->keep_timeline,
                      "Also write the trace's events and their dependencies, so that eval, rank and plan "
                      "--model replay of the file replay the trace (docs/replay.md)");
    command->add_option_function<std::string>(
        "--queue-gap", [options](const std::string& text) { options->import.queue_gap = text; },
        "With --keep-timeline: a GPU event starting more than this after its stream was free was held "
        "by its launch (default 5us)");
    command->callback([options, &action] { action = [options](Context& c) { return run_import(*options, c); }; });
}

}  // namespace amdahl::cli
