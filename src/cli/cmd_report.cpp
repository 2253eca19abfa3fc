// amdahl report PROFILE [-s SELECTOR=FACTOR ...] [-o report.html]: one self-contained HTML page with
// the eval of the speedups given and the ranking of every phase (report/html.hpp).
#include <filesystem>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/rank.hpp"
#include "cli/candidate_options.hpp"
#include "cli/commands.hpp"
#include "report/html.hpp"

namespace amdahl::cli {

namespace {

struct ReportCommandOptions {
    ProfileOptions profile;
    std::vector<std::string> speedups;
    std::string factor = "10";
    std::string output = "-";
};

int run_report(const ReportCommandOptions& options, Context& context) {
    std::error_code same_error;
    if (options.output != "-" && options.profile.path != "-" &&
        std::filesystem::equivalent(options.profile.path, options.output, same_error))
        throw Error(options.output, "-o names the input itself; write the report to another file");
    EvalResult eval;
    for (const auto& text : options.speedups) eval.speedups.push_back(parse_option("--speedup", parse_speedup, text));
    CandidateOptions candidates;
    candidates.factor = options.factor;
    const Profile profile = load_profile(options.profile, context);
    eval.profile = &profile;
    try {
        eval.evaluation = evaluate(profile, eval.speedups);
    } catch (const Error& e) {
        throw Error(profile.source, e.message());
    }
    print_notes(context, eval.evaluation.notes);
    RankResult rank;
    rank.profile = &profile;
    rank.set = build_candidates(profile, candidates);
    print_notes(context, rank.set.notes);
    rank.baseline_time = profile.total();
    rank.phase_table_time = rank.baseline_time;
    rank.ranked = rank_candidates(rank.set.candidates, rank.baseline_time, RankBy::saving, rank.grid);

    HtmlReport report;
    report.eval = &eval;
    report.rank = &rank;
    report.generator = version_line();
    report.arguments = context.arguments;
    const ReportOptions style = report_options(options.profile.output, false);
    report.eval_chart = eval_chart(eval, style.numbers);
    if (options.output == "-") {
        write_html(context.out, report, style);
        return exit_ok;
    }
    write_file(options.output, [&](std::ostream& file) { write_html(file, report, style); });
    if (!context.quiet) context.err << "wrote " << printable(options.output) << '\n';
    return exit_ok;
}

}  // namespace

void setup_report(CLI::App& app, Action& action) {
    auto options = std::make_shared<ReportCommandOptions>();
    CLI::App* command = app.add_subcommand(
        "report", "A self-contained HTML page: the eval of the speedups given and the ranking of every phase");
    command
        ->add_option("PROFILE", options->profile.path,
                     "Profile file (JSON, CSV, TSV, Markdown, a pasted table or profiler output); - for stdin")
        ->required();
    command
        ->add_option("-s,--speedup", options->speedups,
                     "SELECTOR=FACTOR for the eval: a phase name, glob (gemm_*), kind:KIND or *; factor 10, 10x, inf")
        ->allow_extra_args(false);
    command->add_option("-k,--factor", options->factor, "The factor every phase gets in the ranking: 10, 10x or inf")
        ->default_str("10");
    command->add_option("-o,--output", options->output, "Where to write the page (default: stdout)");
    command->add_option("--input-format", options->profile.input_format,
                        "Force a format (default: recognised from the content)");
    command->add_option("--unit", options->profile.unit,
                        "Time unit for the output: ns, us, ms, s, min or h (default: the profile's)");
    command
        ->add_option("--precision", options->profile.output.precision,
                     "Decimals of speedups (times use up to this many) and significant digits of shares")
        ->check(CLI::Range(0, 12));
    add_names_option(*command, options->profile.output);
    add_import_options(*command, options->profile.import);
    command->callback([options, &action] { action = [options](Context& c) { return run_report(*options, c); }; });
}

}  // namespace amdahl::cli
