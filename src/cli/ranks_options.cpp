#include "cli/ranks_options.hpp"
#include "cli/uncertainty_options.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "amdahl/compare.hpp"
#include "amdahl/error.hpp"
#include "report/ranks.hpp"

namespace amdahl::cli {

namespace {

bool is_glob(const std::string& text) { return text.find_first_of("*?[") != std::string::npos; }

// rank2 before rank10: runs of digits compare by their value.
bool natural_less(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ei = i, ej = j;
            while (ei < a.size() && digit(a[ei])) ++ei;
            while (ej < b.size() && digit(b[ej])) ++ej;
            std::string_view x(a.data() + i, ei - i), y(b.data() + j, ej - j);
            while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);
            while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
            if (x.size() != y.size()) return x.size() < y.size();
            if (x != y) return x < y;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

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
    void print(std::ostream& err) {
        for (const Note& note : notes_) {
            err << note.first;
            if (note.more_ranks > 0)
                err << fmt::format(" (the same in {} more rank{})", note.more_ranks, note.more_ranks == 1 ? "" : "s");
            err << '\n';
        }
        notes_.clear();
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
        std::sort(matches.begin(), matches.end(), natural_less);
        files.insert(files.end(), matches.begin(), matches.end());
    }
    return files;
}

std::string rank_name(const std::string& path) {
    std::filesystem::path file = std::filesystem::path(path).filename();
    if (file.extension() == ".gz") file = file.stem();
    return file.stem().string();
}

RankSet load_ranks(const std::vector<std::string>& patterns, const ProfileOptions& options, Context& context) {
    std::vector<RankProfile> ranks;
    RankNotes notes;
    try {
        for (const std::string& file : expand_rank_files(patterns)) {
            ProfileOptions one = options;
            one.path = file;
            std::ostringstream said;
            Context rank_context{context.in, context.out, said, context.arguments, {}, context.out_is_terminal};
            ranks.push_back({rank_name(file), load_profile(one, rank_context)});
            context.inputs.push_back(file);
            notes.add(file, said.str());
        }
    } catch (const Error&) {
        notes.print(context.err);
        throw;
    }
    notes.print(context.err);
    RankSet set = group_segments(std::move(ranks));
    print_notes(context, set.notes);
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
