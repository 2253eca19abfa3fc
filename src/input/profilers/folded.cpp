// Folded stacks, one sample group per line: `frame;frame;...;leaf COUNT` (stackcollapse-perf.pl,
// `perf script | stackcollapse`, speedscope, py-spy --raw). Frames may hold spaces; the count is
// the last space-separated field and may be decimal. `#` and `//` lines are comments.
//
// Phases partition the samples, so they add up to the whole:
//   --depth N  each stack cut after its first N frames, joined with ';' (a shorter stack is its
//              own phase: the self time of its last frame on that path, "<stack> (self)" when a
//              longer stack runs through it);
//   --leaf     the last frame: each function's self time, summed over every path to it;
//   default    the first frame where the stacks differ: the frames every sample starts with (the
//              process, `main`, ...) are dropped from the names, and samples that end inside that
//              common part become "<frame> (self)". Without a common part this is --depth 1.
// Lines with no count are skipped with a note, as flamegraph.pl does (perf output has stray
// lines); a count that is a number but negative is an error. A stack ending in an empty frame
// (`a;b;  3`) counts for its parent frame, with a note.
//
// Times are sample counts, or count x --sample-period in the period's unit. A profile needs a time
// unit, so without a period the counts are shown as ms (1 sample = 1 ms) and a note says so: the
// shares and speedups do not depend on it, the absolute times do. stackcollapse-perf.pl adds up
// perf's sample period when perf script prints one (10101010 ns per cpu-clock sample at 99 Hz);
// counts that are all multiples of a large number are said to look like periods.
//
// Samples are CPU time: samples of threads that ran at the same time add up, and the boundary says
// so. When the first frames name threads as stackcollapse-perf.pl --tid writes them
// ("comm-PID/TID"), a note counts them, and two or more make the profile summary_only: the rows
// may have run at the same time.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/naming.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/text_table.hpp"
#include "input/raw_profile.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

struct Sample {
    std::string_view stack;
    double count = 0;
    std::size_t line = 0;
};

// The frames of a stack: split at ';'.
std::vector<std::string_view> frames_of(std::string_view stack) {
    std::vector<std::string_view> frames;
    std::size_t begin = 0;
    while (true) {
        const auto semicolon = stack.find(';', begin);
        frames.push_back(
            stack.substr(begin, semicolon == std::string_view::npos ? std::string_view::npos : semicolon - begin));
        if (semicolon == std::string_view::npos) return frames;
        begin = semicolon + 1;
    }
}

// The first `depth` frames of a stack, as written (joined with ';').
std::string_view cut(std::string_view stack, std::size_t depth) {
    std::size_t pos = 0;
    for (std::size_t d = 0; d < depth; ++d) {
        pos = stack.find(';', pos);
        if (pos == std::string_view::npos) return stack;
        if (d + 1 < depth) ++pos;
    }
    return stack.substr(0, pos);
}

// A first frame as stackcollapse-perf.pl --tid writes it: "comm-PID/TID", the PID "?" when perf
// script did not print it. Only this form is read: "comm-PID" (--pid) looks like a numbered name
// ("stage-1", Java's "pool-1-thread-2"), so it is not taken for a process.
struct Task {
    std::string_view pid, tid;
};

bool all_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<Task> task_of(std::string_view frame) {
    const auto slash = frame.rfind('/');
    if (slash == std::string_view::npos) return std::nullopt;
    const auto dash = frame.rfind('-', slash);
    if (dash == std::string_view::npos || dash == 0) return std::nullopt;
    const std::string_view pid = frame.substr(dash + 1, slash - dash - 1), tid = frame.substr(slash + 1);
    if ((!all_digits(pid) && pid != "?") || !all_digits(tid)) return std::nullopt;
    return Task{pid, tid};
}

// The threads the stacks come from, in words, when every stack with samples names its thread as
// --tid does and two or more threads have samples; else "". `boundary` gets the short form.
std::string tasks_note(const std::vector<Sample>& samples, std::string& boundary) {
    std::unordered_set<std::string_view> pids, tids;
    bool unknown_pid = false;
    std::string_view example;
    for (const Sample& s : samples) {
        if (!(s.count > 0)) continue;  // a thread without samples did not run
        const std::string_view first = s.stack.substr(0, s.stack.find(';'));
        const auto task = task_of(first);
        if (!task) return "";
        if (example.empty()) example = first;
        unknown_pid = unknown_pid || task->pid == "?";
        pids.insert(task->pid);
        tids.insert(task->tid);
    }
    if (tids.size() < 2) return "";
    boundary = "CPU time summed over " + count_of(tids.size(), "thread") + ", not wall time";
    return "the stacks come from " + count_of(tids.size(), "thread") +
           (unknown_pid ? "" : " of " + count_of(pids.size(), "process")) + " (first frames like '" +
           printable(example) +
           "', as stackcollapse-perf.pl --tid names them): their samples add up as CPU time, as if the threads ran "
           "one after another. Where threads ran at the same time, speeding up one thread saves less wall time "
           "than shown, or none; for end-to-end figures profile the thread that holds up the run, or use a trace";
}

// The largest whole number every count is a multiple of, when the counts are whole; else 0.
// Needs two stacks with samples: one count is a multiple of itself.
std::uint64_t common_factor(const std::vector<Sample>& samples) {
    std::uint64_t factor = 0;
    std::size_t counted = 0;
    for (const Sample& s : samples) {
        if (s.count != std::floor(s.count) || s.count > 9007199254740992.0) return 0;
        if (s.count > 0) ++counted;
        factor = std::gcd(factor, static_cast<std::uint64_t>(s.count));
    }
    return counted >= 2 ? factor : 0;
}

}  // namespace

Profile read_folded(std::string_view content, const std::string& source, const ImportOptions& options) {
    if (options.depth && options.leaf) throw Error("--depth", "choose --depth N or --leaf, not both");
    if (options.depth && *options.depth < 1)
        throw Error("--depth", "must be 1 or more (got " + std::to_string(*options.depth) + ")");
    double period = 1;
    Unit unit = Unit::ms;
    if (options.sample_period) {
        const Quantity& p = *options.sample_period;
        if (p.percent || !p.unit || !(p.value > 0)) {
            throw Error("--sample-period", "must be a time > 0 with its unit, such as 1ms or 250us");
        }
        period = p.value;
        unit = *p.unit;
    }

    std::vector<Sample> samples;
    std::size_t skipped = 0, first_skipped = 0, empty_leaves = 0, first_empty_leaf = 0;
    LineReader lines(content);
    std::string_view line;
    while (lines.next(line)) {
        const std::string_view text = trim(line);
        if (text.empty() || text.starts_with('#') || text.starts_with("//")) continue;
        const auto space = text.find_last_of(" \t");
        double count = 0;
        if (space == std::string_view::npos || !parse_double(text.substr(space + 1), count) ||
            trim(text.substr(0, space)).empty()) {
            if (skipped++ == 0) first_skipped = lines.number();
            continue;
        }
        const std::string where = source + ":" + std::to_string(lines.number());
        if (count < 0) {
            throw Error(where, "the sample count must be >= 0 (got '" + printable(text.substr(space + 1)) + "')");
        }
        std::string_view stack = trim(text.substr(0, space));
        // perf writes a frame it could not name as nothing: `...;write0_[j];  3`. Its samples
        // belong to the frame above it, not to a phase without a name.
        if (stack.ends_with(';')) {
            while (stack.size() > 1 && stack.ends_with(';')) stack = trim(stack.substr(0, stack.size() - 1));
            if (empty_leaves++ == 0) first_empty_leaf = lines.number();
        }
        samples.push_back(Sample{stack, count, lines.number()});
    }
    if (samples.empty()) {
        throw Error(source + ":" + std::to_string(first_skipped ? first_skipped : 1),
                    "expected folded stacks: lines like 'main;parse;tokenize 12' (frames joined by ';', then a "
                    "space and the sample count)");
    }

    // How each stack becomes a phase name.
    std::string how;
    std::size_t common = 0;  // default: frames every stack starts with
    if (!options.depth && !options.leaf) {
        std::vector<std::string_view> prefix = frames_of(samples.front().stack);
        std::size_t longest = prefix.size();
        common = prefix.size();
        for (const Sample& s : samples) {
            const auto frames = frames_of(s.stack);
            longest = std::max(longest, frames.size());
            std::size_t same = 0;
            while (same < common && same < frames.size() && frames[same] == prefix[same]) ++same;
            common = same;
        }
        // Keep at least one frame below the common part, so identical stacks still name their leaf.
        common = std::min(common, longest - 1);
        if (common == 0) {
            how =
                "the first frame of each stack (no frame is common to every sample; give --depth N or --leaf "
                "to choose). stackcollapse-perf.pl writes the command as the first frame: commands that ran at the "
                "same time add up as CPU time";
        } else {
            std::string shared;
            for (std::size_t i = 0; i < common; ++i) shared += (i ? ";" : "") + std::string(prefix[i]);
            how = "the first frame below '" + printable(shared) + "', which every sample starts with (--depth " +
                  std::to_string(common + 1) + " without the common part; give --depth N or --leaf to choose)";
        }
    } else if (options.leaf) {
        how = "the leaf frames: each function's self time (--leaf)";
    } else {
        how = "the stacks cut at depth " + std::to_string(*options.depth) + " (--depth)";
    }

    const PhaseNamer namer(options);
    std::unordered_map<std::string, std::size_t> index;
    std::unordered_map<std::string, std::string> named;  // raw phase -> name after --rename/--group-by
    std::vector<RawPhase> phases;
    std::vector<std::vector<double>> counts;
    double total_samples = 0;
    Summation all;
    // For --depth: the cut stacks that are a proper prefix of another cut stack ("a;b" beside
    // "a;b;c"). Such a phase is "a;b (self)": "a;b" alone reads as all of a;b's samples.
    // Found in the sorted cuts: the first one at or after "a;b;" starts with it when one does.
    std::unordered_set<std::string_view> extended;
    if (options.depth) {
        std::vector<std::string_view> cuts;
        cuts.reserve(samples.size());
        for (const Sample& s : samples) cuts.push_back(cut(s.stack, static_cast<std::size_t>(*options.depth)));
        std::sort(cuts.begin(), cuts.end());
        cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
        std::string deeper;
        for (std::string_view c : cuts) {
            deeper.assign(c).push_back(';');
            const auto next = std::lower_bound(cuts.begin(), cuts.end(), std::string_view(deeper));
            if (next != cuts.end() && next->substr(0, deeper.size()) == deeper) extended.insert(c);
        }
    }
    for (const Sample& s : samples) {
        std::string raw;
        if (options.leaf) {
            const auto semicolon = s.stack.rfind(';');
            raw = std::string(semicolon == std::string_view::npos ? s.stack : s.stack.substr(semicolon + 1));
        } else if (options.depth) {
            // A stack that another one runs deeper than holds its last frame's self time there.
            raw = std::string(cut(s.stack, static_cast<std::size_t>(*options.depth)));
            if (extended.count(raw)) raw += " (self)";
        } else {
            const auto frames = frames_of(s.stack);
            raw = frames.size() > common ? std::string(frames[common]) : std::string(frames.back()) + " (self)";
        }
        auto found = named.find(raw);
        if (found == named.end()) found = named.emplace(raw, namer(raw, "")).first;
        auto [it, inserted] = index.try_emplace(found->second, phases.size());
        if (inserted) {
            RawPhase phase;
            phase.name = found->second;
            phase.at = s.line;
            phases.push_back(std::move(phase));
            counts.emplace_back();
        }
        counts[it->second].push_back(s.count);
        all.add(s.count);
    }
    total_samples = all.value();

    RawProfile raw;
    raw.source = source;
    raw.unit = unit;
    raw.origin = Origin::line;
    for (std::size_t i = 0; i < phases.size(); ++i) {
        phases[i].time = RawTime{exact_sum(counts[i]) * period, std::nullopt};
        raw.add(std::move(phases[i]));
    }
    raw.notes.push_back(source + ": phases are " + how);
    // Sample counts are small; counts that are all multiples of a large number are perf's periods.
    const std::uint64_t factor = common_factor(samples);
    // cpu-clock at perf's highest default rate, 10 kHz, is 100000 ns a sample; cycles far more.
    const bool periods = factor >= 10000;
    const std::string looks = source + ": every count is a multiple of " + std::to_string(factor) +
                              ", so they look like perf sample periods (stackcollapse-perf.pl adds up the period "
                              "perf recorded), not sample counts";
    if (periods && !options.sample_period) {
        raw.notes.push_back(looks +
                            ": 1 count is shown as 1 ms, so absolute times are not real; give --sample-period as "
                            "the time of one count (1ns for cpu-clock or task-clock periods) for real times. "
                            "Shares and speedups do not depend on it");
    } else if (periods) {
        raw.notes.push_back(looks +
                            ": --sample-period is taken as the time of one count (1ns for cpu-clock or "
                            "task-clock periods), not of one sample");
    } else if (!options.sample_period) {
        raw.notes.push_back(source +
                            ": times are sample counts, shown as ms (1 sample = 1 ms) so absolute times are "
                            "not real; give --sample-period (e.g. 10ms for perf record -F 100) for real times. "
                            "Shares and speedups do not depend on it");
    }
    std::string cpu_time = "CPU time: samples of threads that ran at once add up";
    // Threads that ran at once overlap: their sum is not the run's wall time, as for a kernel
    // summary, so the reports say "over the summed rows", never "end to end".
    if (const std::string tasks = tasks_note(samples, cpu_time); !tasks.empty()) {
        raw.notes.push_back(source + ": " + tasks);
        raw.summary_only = true;
    }
    if (skipped > 0) {
        raw.notes.push_back(source + ":" + std::to_string(first_skipped) + ": skipped " + count_of(skipped, "line") +
                            " without a trailing sample count");
    }
    if (empty_leaves > 0) {
        raw.notes.push_back(source + ":" + std::to_string(first_empty_leaf) + ": " + count_of(empty_leaves, "stack") +
                            (empty_leaves == 1 ? " ends" : " end") +
                            " in an empty frame (';' before the count: a frame perf could not name); " +
                            (empty_leaves == 1 ? "its" : "their") + " samples are attributed to the frame above it");
    }
    const std::string each = periods ? "count" : "sample";
    raw.boundary = "all " + shortest(total_samples) + " " + each + "s in the file" +
                   (options.sample_period ? " x " + shortest(period) + " " + std::string(unit_name(unit))
                                          : " (1 " + each + " shown as 1 ms: no --sample-period)") +
                   "; " + cpu_time;
    Profile profile = finish_profile(std::move(raw));
    profile.format = "folded";
    profile.class_members = namer.class_members();
    return profile;
}

}  // namespace amdahl::detail
