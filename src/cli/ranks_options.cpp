#include "cli/ranks_options.hpp"
#include "cli/uncertainty_options.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "amdahl/compare.hpp"
#include "amdahl/error.hpp"
#include "input/rank_table.hpp"
#include "report/ranks.hpp"

namespace amdahl::cli {

namespace {

bool is_glob(const std::string& text) { return text.find_first_of("*?[") != std::string::npos; }

// What loading the ranks said on stderr, each wording once: 1,024 ranks read alike would repeat a
// note 1,024 times. Two lines are alike when they differ only in their rank's file name.
class RankNotes {
public:
    void add(const std::string& file, const std::string& said) {
        std::istringstream lines(said);
        for (std::string line; std::getline(lines, line);) {
            std::string wording = line;
            for (auto at = wording.find(file); !file.empty() && at != std::string::npos; at = wording.find(file, at))
                wording.replace(at, file.size(), "\x01");
            const auto alike =
                std::find_if(notes_.begin(), notes_.end(), [&](const Note& note) { return note.wording == wording; });
            if (alike == notes_.end())
                notes_.push_back({std::move(wording), std::move(line), 0});
            else
                ++alike->more_ranks;
        }
    }
    /// The notes, each wording once, and forgets them.
    std::vector<std::string> take() {
        std::vector<std::string> lines;
        for (const Note& note : notes_) {
            std::string line = note.first.starts_with("note: ") ? note.first.substr(6) : note.first;
            if (note.more_ranks > 0)
                line += fmt::format(" (the same in {} more rank{})", note.more_ranks, note.more_ranks == 1 ? "" : "s");
            lines.push_back(std::move(line));
        }
        notes_.clear();
        return lines;
    }

private:
    struct Note {
        std::string wording;  ///< the line with its file's name taken out
        std::string first;    ///< the line as the first rank that said it said it
        std::size_t more_ranks;
    };
    std::vector<Note> notes_;
};

}  // namespace

void add_ranks_option(CLI::App& command, std::vector<std::string>& ranks) {
    CLI::Option* profile = command.get_option("PROFILE");
    profile->required(false);
    command
        .add_option("--ranks", ranks,
                    "A profile per rank instead of PROFILE: files or globs (rank*.json); each barrier segment lasts "
                    "as long as its slowest rank (docs/ranks.md)")
        ->allow_extra_args(true);
}

std::vector<std::string> expand_rank_files(const std::vector<std::string>& patterns) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (const std::string& pattern : patterns) {
        if (!is_glob(pattern)) {
            files.push_back(pattern);
            continue;
        }
        const fs::path path(pattern);
        const std::string directory = path.parent_path().string(), name = path.filename().string();
        if (is_glob(directory))
            throw Error("--ranks",
                        "'" + printable(pattern) + "': only the file name may be a pattern, not a directory");
        std::vector<std::string> matches;
        std::error_code error;
        for (fs::directory_iterator it(directory.empty() ? fs::path(".") : fs::path(directory), error), end;
             !error && it != end; it.increment(error)) {
            const std::string file = it->path().filename().string();
            if (fnmatch(name.c_str(), file.c_str(), FNM_PERIOD) == 0 && !it->is_directory())
                matches.push_back(directory.empty() ? file : (fs::path(directory) / file).string());
        }
        if (matches.empty())
            throw Error("--ranks", "no file matches '" + printable(pattern) + "'" +
                                       (error ? " (" + error.message() + ")" : std::string()));
        std::sort(matches.begin(), matches.end(), detail::natural_less);
        files.insert(files.end(), matches.begin(), matches.end());
    }
    return files;
}

std::string rank_name(const std::string& path) {
    std::filesystem::path file = std::filesystem::path(path).filename();
    if (file.extension() == ".gz") file = file.stem();
    return file.stem().string();
}

namespace {

// A CSV or TSV file with a `rank` column: each rank's rows are its profile (detail::split_by_rank).
// False, having read nothing, for any other file.
bool load_rank_table(const std::string& file, const ProfileOptions& options, Context& context,
                     std::vector<RankProfile>& ranks, RankNotes& notes) {
    const std::optional<InputFormat> named = input_format(options.input_format);
    // table.csv, table.tsv.gz, or another name with --input-format csv or tsv; not standard input,
    // which a table without a rank column would then have used up.
    std::filesystem::path path(file);
    if (path.extension() == ".gz") path = path.stem();
    std::string extension = path.extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool tsv = named ? named == InputFormat::tsv : extension == ".tsv";
    const bool csv = named ? named == InputFormat::csv : extension == ".csv";
    if (file == "-" || (!tsv && !csv)) return false;
    const std::string content = read_input(file, context.in);
    const auto split = detail::split_by_rank(content, file, tsv ? '\t' : ',');
    if (!split) return false;
    std::string said = "note: " + file + ": " + std::to_string(split->size()) + " rank" +
                       (split->size() == 1 ? "" : "s") + " from its 'rank' column, each rank's rows its profile\n";
    const ImportOptions reading = import_options(options.import);
    const std::optional<Unit> unit =
        options.unit.empty() ? std::nullopt : std::optional(unit_option("--unit", options.unit));
    for (const detail::RankRows& rows : *split) {
        Profile profile;
        try {
            profile = parse_profile(rows.content, file, tsv ? InputFormat::tsv : InputFormat::csv, reading);
        } catch (const Error& e) {
            throw detail::at_file_line(e, rows, file);
        }
        for (const std::string& note : profile.notes) said += "note: " + detail::at_file_line(note, rows, file) + '\n';
        if (unit && *unit != profile.unit) profile = convert_profile(profile, *unit);
        ranks.push_back({rows.rank, std::move(profile), true});
    }
    context.inputs.push_back(file);
    notes.add(file, said);
    return true;
}

// A last row read as one rank's total for its time alone ("all" = the sum of the rows above) that is
// a phase on another rank: one name read two ways across the ranks, its time counted on some
// ranks only. An error: the user says which it is.
void check_totals_by_sum(const RankSet& set) {
    std::unordered_map<std::string_view, std::size_t> total_on;  // the name -> the first rank it totals
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        if (!set.profiles[r].total_by_sum.empty()) total_on.emplace(set.profiles[r].total_by_sum, r);
    if (total_on.empty()) return;
    for (std::size_t phase_on = 0; phase_on < set.ranks.size(); ++phase_on) {
        for (const Phase& phase : set.profiles[phase_on].phases) {
            const auto it = total_on.find(phase.name);
            if (it == total_on.end()) continue;
            throw Error("--ranks", "row '" + printable(phase.name) + "' is read as " +
                                       printable(set.ranks[it->second]) +
                                       "'s total (its time is the sum of the rows before it) but is a phase of " +
                                       printable(set.ranks[phase_on]) +
                                       ": name the total 'Total' on every rank, or, if it is a phase, add a row "
                                       "'Total' after it");
        }
    }
}

}  // namespace

RankSet load_ranks(const std::vector<std::string>& patterns, const ProfileOptions& options, Context& context) {
    std::vector<RankProfile> ranks;
    RankNotes notes;
    try {
        for (const std::string& file : expand_rank_files(patterns)) {
            if (load_rank_table(file, options, context, ranks, notes)) continue;
            ProfileOptions one = options;
            one.path = file;
            std::ostringstream said;
            Context rank_context{context.in, context.out, said, context.arguments, {}, context.out_is_terminal};
            ranks.push_back({rank_name(file), load_profile(one, rank_context)});
            context.inputs.push_back(file);
            notes.add(file, said.str());
        }
    } catch (const Error&) {
        print_notes(context, notes.take());
        throw;
    }
    // What loading said goes to the report's notes too (JSON notes[]), before the segments'.
    const std::vector<std::string> loading = notes.take();
    print_notes(context, loading);
    RankSet set = group_segments(std::move(ranks));
    check_totals_by_sum(set);
    print_notes(context, set.notes);
    set.notes.insert(set.notes.begin(), loading.begin(), loading.end());
    return set;
}

void reject_with_ranks(const CLI::App& command, std::initializer_list<const char*> options) {
    if (const CLI::Option* profile = command.get_option("PROFILE"); profile->count() > 0)
        throw Error("--ranks", "reads every rank's profile, so PROFILE ('" + printable(profile->results().front()) +
                                   "') cannot be given beside it; list it after --ranks if it is a rank");
    for (const char* name : options)
        if (command.count(name) > 0) throw Error(name, "does not apply to --ranks");
}

int run_eval_ranks(const std::vector<std::string>& ranks, const ProfileOptions& options,
                   const std::vector<std::string>& speedups, bool explain, std::optional<double> require_speedup,
                   Context& context) {
    const RankSet set = load_ranks(ranks, options, context);
    RanksEvalResult result;
    result.set = &set;
    for (const auto& text : speedups) {
        result.speedups.push_back(parse_option("--speedup", parse_rank_speedup, text));
        refuse_factor_ranges({result.speedups.back().spec}, "--ranks");
    }
    for (const Profile& rank : set.profiles) refuse_time_spreads(rank, "--ranks");
    result.evaluation = evaluate_ranks(set, result.speedups);
    const ReportOptions report = report_options(options.output, explain);
    print_notes(context, result.evaluation.notes);
    print_notes(context, no_gain_notes(result, report.numbers));
    result.required_speedup = require_speedup;
    result.gate_passed = !require_speedup || meets_threshold(result.evaluation.speedup, *require_speedup);
    emit(context, result, options.output, report);
    context.out.flush();
    if (!result.gate_passed) {
        context.err << fmt::format("gate failed: step speedup {} is below the required {}\n",
                                   format_speedup(result.evaluation.speedup, report.numbers),
                                   format_speedup(*require_speedup, report.numbers));
        return exit_gate_failed;
    }
    return exit_ok;
}

int run_rank_ranks(const std::vector<std::string>& ranks, const ProfileOptions& options, std::optional<std::size_t> top,
                   Context& context) {
    const RankSet set = load_ranks(ranks, options, context);
    StragglerResult result;
    result.set = &set;
    result.stragglers = rank_stragglers(set);
    for (const Straggler& straggler : result.stragglers) result.step_time += straggler.time;
    if (top && *top < result.stragglers.size()) result.stragglers.resize(*top);
    emit(context, result, options.output, report_options(options.output, false));
    return exit_ok;
}

}  // namespace amdahl::cli
