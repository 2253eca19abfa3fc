#include "harness.hpp"

#include <zlib.h>
#include <nlohmann/json.hpp>

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_set>

#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/harness.hpp"
#include "amdahl/io.hpp"
#include "amdahl/replay.hpp"
#include "amdahl/report.hpp"
#include "amdahl/speedup.hpp"
#include "analysis/replay.hpp"
#include "cli/run.hpp"
#include "input/gzip.hpp"
#include "input/profilers/readers.hpp"
#include "input/rank_table.hpp"
#include "input/raw_profile.hpp"

namespace amdahl::fuzz {

namespace {

[[noreturn]] void fail(const std::string& what) { throw Finding(what); }

// The message is a function that builds it, called only when the check fails: built eagerly, the
// messages (names made printable or written as JSON, numbers as text) for every phase of every
// input cost more than the checks themselves.
template <class Message>
void require(bool condition, Message&& what) {
    if (!condition) fail(what());
}

// Import options vary with the input's size, so one corpus reaches the lane, grouping, window,
// rename and folded-stack paths without a header byte that real files lack. Each format gets only
// options that apply to it: one that does not is refused before a byte is read, and when every
// format got every option, 7 in 8 CSV inputs went unread that way (fuzz/RESULTS.md 2026-12-04).
ImportOptions import_options(InputFormat format, std::size_t size) {
    const bool timeline = format == InputFormat::chrome_trace || format == InputFormat::rocprof_trace ||
                          format == InputFormat::nsys_trace;
    const bool lanes = timeline || format == InputFormat::nsys || format == InputFormat::rocprof_summary;
    const bool folded = format == InputFormat::folded;
    const bool grouped = timeline || folded || format == InputFormat::nsys || format == InputFormat::rocprof_stats ||
                         format == InputFormat::rocprof_summary;
    const bool nsys = format == InputFormat::nsys || format == InputFormat::nsys_trace;
    ImportOptions options;
    switch (size % 8) {
        case 0:
            break;
        case 1:
            if (lanes) options.lane = Lane::gpu;
            if (!folded) options.total = Quantity{1, Unit::s, false};
            break;
        case 2:
            if (lanes) options.lane = Lane::cpu;
            if (grouped) options.group_by = "cat";
            options.rename_patterns = {{"[0-9]+$", "N"}};
            break;
        case 3:
            if (lanes) options.lane = Lane::all;
            if (grouped) options.group_by = "regex:^([A-Za-z]+)";
            options.renames = {{"a", "b"}, {"b", "a"}};
            break;
        case 4:
            if (folded) {
                options.leaf = true;
                options.depth = 2;
            } else {
                options.rename_patterns = {{"^(gemm|GEMM)", "gemm"}, {"[aeiou]", "vowel"}};
            }
            break;
        case 5:
            if (folded) {
                options.depth = 1;
                options.sample_period = Quantity{1, Unit::ms, false};
            } else {
                options.total = Quantity{250, Unit::ms, false};
            }
            if (nsys) options.timeunit = Unit::us;
            break;
        case 6:
            if (timeline) {
                options.window = "[Ss]tep|main";
                options.window_any = size % 16 == 14;  // generic traces have no annotation categories
                options.step = size % 32 == 6 ? "median" : "";
            } else {
                options.renames = {{"idle", "gemm"}};
            }
            break;
        case 7:
            options.renames = {{"^(gemm|GEMM).*", "gemm"}, {"a", "A"}};
            if (timeline) {
                options.exclude = {"^[xX]"};
                options.keep_profiler_events = size % 16 == 15;
            }
            break;
    }
    return options;
}

}  // namespace

// What every profile a reader returns must satisfy, whatever it was fed.
void check_profile(const Profile& profile, const std::string& what) {
    require(!profile.phases.empty(), [&] { return what + ": a profile with no phases"; });
    std::unordered_set<std::string_view> names;
    for (const Phase& phase : profile.phases) {
        require(!phase.name.empty(), [&] { return what + ": a phase with an empty name"; });
        require(names.insert(phase.name).second, [&] { return what + ": duplicate phase name '" + phase.name + "'"; });
        require(std::isfinite(phase.time) && phase.time >= 0,
                [&] { return what + ": phase '" + phase.name + "' has time " + std::to_string(phase.time); });
        if (phase.active_time) {
            require(std::isfinite(*phase.active_time),
                    [&] { return what + ": phase '" + phase.name + "' has a non-finite active time"; });
            require(*phase.active_time >= phase.time * (1 - 1e-12),
                    [&] { return what + ": phase '" + phase.name + "' is active for less than its exclusive time"; });
        }
    }
    const double total = profile.total();
    require(std::isfinite(total) && total > 0, [&] { return what + ": total " + std::to_string(total); });
    for (const Overlap& overlap : profile.overlaps)
        require(std::isfinite(overlap.time) && overlap.time >= 0,
                [&] { return what + ": an overlap with time " + std::to_string(overlap.time); });
    for (double run : profile.runs)
        require(std::isfinite(run) && run > 0, [&] { return what + ": a run of " + std::to_string(run); });
}

// The law's invariants on one evaluation: S <= ceiling, no NaN, and no saving from a slowdown.
void check_evaluation(const Profile& profile, const std::vector<SpeedupSpec>& specs) {
    Evaluation result;
    try {
        result = evaluate(profile, specs);
    } catch (const Error&) {
        return;
    }
    const double total = profile.total();
    require(std::fabs(result.baseline_time - total) <= 1e-9 * total,
            [&] { return "evaluate: baseline differs from the profile's total"; });
    require(!std::isnan(result.new_time) && result.new_time >= 0,
            [&] { return "evaluate: new time " + std::to_string(result.new_time); });
    require(!std::isnan(result.speedup) && result.speedup >= 0,
            [&] { return "evaluate: speedup " + std::to_string(result.speedup); });
    require(!std::isnan(result.ceiling) && result.ceiling >= 1 - 1e-12,
            [&] { return "evaluate: ceiling " + std::to_string(result.ceiling); });
    require(result.speedup <= result.ceiling * (1 + 1e-9), [&] {
        return "evaluate: speedup " + std::to_string(result.speedup) + " above the ceiling " +
               std::to_string(result.ceiling);
    });
    require(result.affected_fraction >= 0 && result.affected_fraction <= 1 + 1e-12,
            [&] { return "evaluate: affected fraction out of [0, 1]"; });
    const bool no_slowdown =
        std::all_of(specs.begin(), specs.end(), [](const SpeedupSpec& s) { return s.factor.value >= 1; });
    if (no_slowdown && std::isfinite(result.new_time))
        require(result.new_time <= total * (1 + 1e-12), [&] { return "evaluate: a speedup made the whole slower"; });
    if (result.overlap_range) {
        const OverlapRange& range = *result.overlap_range;
        require(!std::isnan(range.low_saved) && !std::isnan(range.high_saved),
                [&] { return "evaluate: NaN in the overlap range"; });
    }
}

namespace {

std::string as_written(std::string_view text) {
    JsonWriter json;
    json.value(text);
    return json.str();
}

// A written profile reads back as the same phases.
void check_round_trip(const Profile& profile, const std::string& what) {
    std::string json;
    try {
        json = profile_to_json(profile);
    } catch (const Error&) {  // names JSON cannot tell apart
        return;
    }
    Profile back;
    try {
        back = parse_profile(json, "round-trip.json", InputFormat::json);
    } catch (const Error& e) {
        fail(what + ": its JSON does not read back: " + e.what() + "\n" + json);
    }
    require(back.unit == profile.unit, [&] { return what + ": the unit changed in the round trip"; });
    require(back.phases.size() == profile.phases.size(), [&] {
        return what + ": " + std::to_string(profile.phases.size()) + " phases became " +
               std::to_string(back.phases.size());
    });
    for (std::size_t i = 0; i < back.phases.size(); ++i) {
        const Phase& a = profile.phases[i];
        const Phase& b = back.phases[i];
        // JSON holds UTF-8 only: the writer shows an invalid byte as U+FFFD, so compare as written.
        // Equal bytes are equal as written; only names that differ are written out to compare.
        const auto same_as_written = [](const std::string& x, const std::string& y) {
            return x == y || as_written(x) == as_written(y);
        };
        require(same_as_written(a.name, b.name) && same_as_written(a.kind, b.kind), [&] {
            return what + ": phase " + std::to_string(i) + " '" + printable(a.name) + "' (kind '" + printable(a.kind) +
                   "') reads back as '" + printable(b.name) + "' (kind '" + printable(b.kind) + "')";
        });
        require(a.time == b.time, [&] { return what + ": phase '" + a.name + "' changed time in the round trip"; });
        require(a.active_time.value_or(a.time) == b.active_time.value_or(b.time),
                [&] { return what + ": phase '" + a.name + "' changed active time in the round trip"; });
    }
}

// Parsed once: parsing them is fuzz_speedup's business, not every profile's.
const std::vector<SpeedupSpec>& fixed_specs() {
    static const std::vector<SpeedupSpec> specs = [] {
        std::vector<SpeedupSpec> parsed;
        for (const char* text : {"*=2", "*=inf", "kind:*=-30%", "unattributed=10"})
            parsed.push_back(parse_speedup(text));
        return parsed;
    }();
    return specs;
}

// A profile, or the error that reading it gave, as text to compare.
template <class Read>
std::string outcome(Read&& read) {
    try {
        const Profile profile = detail::finish_profile(read());
        std::string text = profile_to_json(profile);
        for (const Phase& phase : profile.phases) text += profile.where(phase) + "\n";
        for (const std::string& note : profile.notes) text += note + "\n";
        return text;
    } catch (const Error& e) {
        return std::string("error: ") + e.what();
    }
}

// The JSON reader's fast path must read what the full path reads, or leave the input to it.
void check_json_paths(std::string_view data) {
    std::optional<detail::RawProfile> plain;
    std::string plain_error;
    try {
        plain = detail::read_plain_json_profile(data, "fuzz");
    } catch (const Error& e) {
        plain_error = std::string("error: ") + e.what();
    }
    if (!plain && plain_error.empty()) return;
    const std::string fast = plain ? outcome([&] { return std::move(*plain); }) : plain_error;
    const std::string full = outcome([&] { return detail::read_json_profile_events(data, "fuzz"); });
    require(fast == full, [&] { return "json: the fast path read\n" + fast + "\nbut the full path read\n" + full; });
}

// The trace reader split over two threads (at a guessed event near the middle) reads what one
// thread reads: the same profile, notes and messages, whatever the guess hits.
void check_trace_split(std::string_view data, const ImportOptions& options) {
    const std::string text(data);
    const auto read = [&](bool split) -> std::string {
        const std::size_t sniffed = std::min<std::size_t>(text.size(), 16);  // read before, as load_profile does
        std::istringstream rest(text.substr(sniffed));
        detail::TraceSplit parts;
        parts.size = text.size();
        parts.min_size = 0;
        parts.open_at = [&text](std::uint64_t offset) -> std::unique_ptr<std::istream> {
            return std::make_unique<std::istringstream>(text.substr(static_cast<std::size_t>(offset)));
        };
        try {
            const Profile profile = detail::read_chrome_trace(std::string_view(text).substr(0, sniffed), &rest, "fuzz",
                                                              options, split ? &parts : nullptr);
            std::string out = profile_to_json(profile);
            for (const std::string& note : profile.notes) out += note + "\n";
            return out;
        } catch (const Error& e) {
            return std::string("error: ") + e.what();
        }
    };
    const std::string one = read(false), two = read(true);
    require(one == two, [&] { return "chrome trace: one thread read\n" + one + "\nbut two threads read\n" + two; });
}

// Replay over the trace's dependencies: the graph is a DAG whose edges the trace recorded, so every
// factor 1 gives back each event exactly, and speeding phases up never makes the run longer.
void check_replay(std::string_view data) {
    ImportOptions options = import_options(InputFormat::chrome_trace, data.size());
    options.total.reset();  // --model replay does not take it
    options.dependencies = true;
    Profile profile;
    try {
        profile = parse_profile(data, "fuzz", InputFormat::chrome_trace, options);
    } catch (const Error&) {
        return;
    }
    require(profile.dependencies != nullptr, [] { return "replay: a trace read with dependencies has none"; });
    const detail::ReplayGraph& graph = profile.dependencies->graph;
    const std::size_t phases = profile.dependencies->phase_names.size();
    detail::ReplayResult same, faster;
    try {
        same = detail::replay(graph, std::vector<double>(phases, 1.0));
        std::vector<double> factors(phases, 1.0);
        for (std::size_t i = 0; i < phases; i += 2)
            factors[i] = i % 4 == 0 ? 3.0 : std::numeric_limits<double>::infinity();
        faster = detail::replay(graph, factors);
    } catch (const Error& e) {
        fail(std::string("replay: the trace's graph is refused: ") + e.what());
    }
    for (std::size_t i = 0; i < graph.events.size(); ++i) {
        require(same.start[i] == graph.events[i].start && same.end[i] == graph.events[i].end,
                [&] { return "replay: factor 1 moved event " + std::to_string(i); });
    }
    require(faster.after <= same.before * (1 + 1e-12) + 1e-9, [&] {
        return "replay: a speedup made the run longer: " + std::to_string(same.before) + " -> " +
               std::to_string(faster.after);
    });
    // With --window, factor 1 gives back every step's time.
    std::vector<double> ones(profile.phases.size(), 1.0);
    const ReplayOutcome outcome = replay_phases(profile, ones);
    for (const ReplayedStep& step : outcome.steps) {
        require(step.new_time == step.time, [&] {
            return "replay: factor 1 changed step '" + step.name + "': " + std::to_string(step.time) + " -> " +
                   std::to_string(step.new_time);
        });
    }
}

void check_profile_input(InputFormat format, std::string_view data) {
    if (format == InputFormat::json) check_json_paths(data);
    if (format == InputFormat::chrome_trace) {
        check_trace_split(data, import_options(InputFormat::chrome_trace, data.size()));
        check_replay(data);
    }
    const std::string what = std::string(input_format_name(format)) + " profile";
    Profile profile;
    try {
        profile = parse_profile(data, "fuzz", format, import_options(format, data.size()));
    } catch (const Error& error) {
        // Options refused before a byte is read would leave the input unread: the harness must
        // pick options that apply to the format. (The location tells an option's refusal from the
        // input's errors, whose text the fuzzer writes.)
        const bool refused = error.location().starts_with("--") && error.message().starts_with("does not apply to");
        require(!refused, [&] {
            return "harness: " + what + " read with options that do not apply: " + error.location() + ": " +
                   error.message();
        });
        return;
    }
    check_profile(profile, what);
    // A name selector that matches no phase is an error whose suggestions (edit distances to every
    // name, up to a budget of 20 million cells for long names) cost more than the evaluations: a
    // quarter of fuzz_nsys's time, all of it on an error path that fuzz_speedup and fuzz_cli reach.
    const auto picks_nothing = [&](const SpeedupSpec& spec) {
        return spec.selector.type == Selector::Type::name && !profile.find(spec.selector.pattern);
    };
    for (const SpeedupSpec& spec : fixed_specs())
        if (!picks_nothing(spec)) check_evaluation(profile, {spec});
    try {
        // Written plainly, so that a name that reads as a glob (`k(float*)`) checks that the exact
        // name wins; one that reads as another name (an '@' or an escape in it) is skipped.
        const SpeedupSpec first = parse_speedup(profile.phases.front().name + "=10");
        if (!picks_nothing(first)) check_evaluation(profile, {first});
    } catch (const Error&) {  // a name such as " " is no selector
    }
    check_round_trip(profile, what);
}

Profile fixed_profile() {
    Profile profile;
    profile.source = "fixed";
    const auto add = [&](std::string name, std::string kind, double time) {
        profile.phases.push_back(Phase{std::move(name), std::move(kind), time, std::nullopt, 0, std::nullopt});
    };
    add("Host\xe2\x86\x92"
        "device input copy",
        "copy", 18);
    add("gemm_qkv", "kernel", 34);
    add("attention_softmax", "kernel", 21);
    add("layernorm", "kernel", 6);
    add("idle", "", 0);
    add(unattributed_phase, unattributed_phase, 5);
    return profile;
}

// Each line is a speedup (up to 8, evaluated together); the whole input also goes to each parser.
void check_speedup_input(std::string_view data) {
    try {
        const Factor factor = parse_factor(data);
        require(factor.value > 0 && !std::isnan(factor.value),
                [&] { return "parse_factor accepted " + std::to_string(factor.value); });
    } catch (const Error&) {
    }
    try {
        (void)parse_selector(data);
    } catch (const Error&) {
    }
    std::vector<SpeedupSpec> specs;
    for (std::size_t pos = 0; pos <= data.size() && specs.size() < 8;) {
        auto end = data.find('\n', pos);
        if (end == std::string_view::npos) end = data.size();
        try {
            SpeedupSpec spec = parse_speedup(data.substr(pos, end - pos));
            require(spec.factor.value > 0 && !std::isnan(spec.factor.value),
                    [&] { return "parse_speedup accepted a factor <= 0 or NaN"; });
            require(!spec.effort || (*spec.effort > 0 && std::isfinite(*spec.effort)),
                    [&] { return "parse_speedup accepted a bad effort"; });
            specs.push_back(std::move(spec));
        } catch (const Error&) {
        }
        pos = end + 1;
    }
    if (!specs.empty()) check_evaluation(fixed_profile(), specs);
}

// Files the command line may name: "@json" in the input becomes examples/transformer_step.json.
// "@name=..." is the file with the rest kept ("@mix1=900gpus" for --mix FILE=WEIGHT). Every
// command's inputs are here: profiles of each format, traces and trace folders that replay, globs
// (per-rank profiles for --ranks, compare's runs), workloads for --mix, benchmark harnesses' output,
// gzipped profiles.
const std::map<std::string, std::string, std::less<>>& cli_files() {
    static const std::map<std::string, std::string, std::less<>> files = {
        {"@json", "examples/transformer_step.json"},
        {"@csv", "examples/transformer_step.csv"},
        {"@md", "examples/transformer_step.md"},
        {"@txt", "examples/transformer_step.txt"},
        {"@tsv", "examples/training_iteration.tsv"},
        {"@ranges", "examples/transformer_step_ranges.json"},
        {"@llm", "examples/llm_request.tsv"},
        {"@allreduce", "examples/allreduce_overhead.csv"},
        {"@keyavg", "examples/pytorch_key_averages.txt"},
        {"@pytorch", "examples/pytorch_trace.json"},
        {"@vadd", "examples/vector_add_rocprofv3.txt"},
        {"@runs", "examples/scaling_runs.csv"},
        {"@speedups", "examples/scaling_speedups.json"},
        {"@before", "examples/compare/before.json"},
        {"@after", "examples/compare/after.json"},
        {"@bare_after", "examples/compare/bare_after.json"},
        {"@before_runs", "examples/compare/before_runs.json"},
        {"@after_runs", "examples/compare/after_runs.json"},
        {"@before_glob", "examples/compare/runs/before/*.json"},
        {"@after_glob", "examples/compare/runs/after/*.json"},
        {"@mix1", "examples/mix/chat_decode.json"},
        {"@mix2", "examples/mix/ranker.json"},
        {"@ranks", "examples/ranks/rank*.csv"},
        {"@rank0", "examples/ranks/rank0.csv"},
        {"@all_ranks", "examples/ranks/all_ranks.csv"},
        {"@hf_before", "tests/data/harness/hyperfine_before.json"},
        {"@hf_after", "tests/data/harness/hyperfine_after.json"},
        {"@hf_param", "tests/data/harness/hyperfine_param.json"},
        {"@gb_before", "tests/data/harness/gbench_before.json"},
        {"@gb_after", "tests/data/harness/gbench_after.json"},
        {"@gb_throughput", "tests/data/harness/gbench_throughput.json"},
        {"@pt_before", "tests/data/harness/pytest_before.json"},
        {"@pt_after", "tests/data/harness/pytest_after.json"},
        {"@trace", "tests/data/profilers/chrome-trace-generic/speedscope_multiprocess.json"},
        {"@kineto", "tests/data/profilers/pytorch-chrome-trace/hta_base.json"},
        {"@replay", "tests/data/profilers/handmade/replay_sim_3steps.json"},
        {"@timeline", "tests/data/profilers/handmade/replay_sim_timeline.json"},
        {"@replay_nsys", "tests/data/profilers/handmade/replay_nsys_run"},
        {"@replay_rocprof", "tests/data/profilers/handmade/replay_rocprofv3_run"},
        {"@folded", "tests/data/profilers/folded-stacks/speedscope_simple.txt"},
        {"@nsys", "tests/data/profilers/nsys/llm-perf-opt_projector_summary_cuda_gpu_kern_sum.csv"},
        {"@rocprof", "tests/data/profilers/rocprofv3/rocm-systems-2025/kernel_trace.csv"},
        {"@summary", "tests/data/profilers/handmade/rocprofv3_summary_usec.txt"},
        {"@gz", "tests/data/gzip/transformer_step.csv.gz"},
        {"@gzjson", "tests/data/gzip/hta_base.json.gz"},
        {"@profile", "tests/data/fuzz-cli/proposals_classes.json"},
        {"@hf_many_before", "tests/data/fuzz-cli/hyperfine_1500_before.json"},
        {"@hf_many_after", "tests/data/fuzz-cli/hyperfine_1500_after.json"},
        {"@pt_nodata", "tests/data/harness/pytest_nodata.json"},
        {"@gz_big", "tests/data/fuzz-cli/layers_4000.csv.gz"},
        {"@gz_cut", "tests/data/fuzz-cli/layers_4000_truncated.csv.gz"},
        {"@gz_bad", "tests/data/fuzz-cli/hta_base_corrupt.json.gz"},
        {"@gz_two", "tests/data/gzip/hta_base_two_members.json.gz"},
        {"@sync", "tests/data/profilers/pytorch-chrome-trace/hta_cuda_event_sync.json"},
        {"@multistream", "tests/data/profilers/pytorch-chrome-trace/hta_cuda_event_sync_multi_stream.json"},
        {"@triton", "tests/data/profilers/pytorch-chrome-trace/hta_triton_example.json"},
        {"@mi250", "tests/data/profilers/pytorch-chrome-trace/hta_mi250_minitoy_train_ROCm6_2_kineto.json"},
        {"@kernel_names", "tests/data/profilers/handmade/kernel_names_trace.json"},
        {"@drift", "tests/data/profilers/handmade/steps_two_streams_drift.json"},
        {"@host_bound", "tests/data/profilers/handmade/steps_host_bound_replay.json"},
        {"@trace_partial", "tests/data/profilers/chrome-trace-generic/speedscope_simple-partial-trailing-comma.json"},
        {"@trace_order", "tests/data/profilers/chrome-trace-generic/speedscope_out-of-order.json"},
        {"@nsys_decode", "tests/data/profilers/nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv"},
        {"@nsys_all", "tests/data/profilers/handmade/nsys_stats_all_reports.txt"},
        {"@nsys_console", "tests/data/profilers/handmade/nsys_stats_console.txt"},
        {"@nsys_trace", "tests/data/profilers/handmade/nsys_cuda_gpu_trace.csv"},
        {"@nsys_2020", "tests/data/profilers/handmade/nsys_gpukernsum_2020.csv"},
        {"@nsys_mem", "tests/data/profilers/handmade/nsys_gpumemtimesum_2020.csv"},
        {"@roc_stats", "tests/data/profilers/handmade/rocprofv3_kernel_stats_quotes.csv"},
        {"@roc_copy_stats", "tests/data/profilers/handmade/rocprof_copy_stats_crlf.csv"},
        {"@roc_legacy_stats", "tests/data/profilers/rocprof-legacy/finite-difference_results.stats.csv"},
        {"@roc_hip_stats", "tests/data/profilers/rocprofv3/rocm-systems-2025/hip_api_stats.csv"},
        {"@roc_domain_stats", "tests/data/profilers/rocprofv3/rocm-systems-2025/hip_domain_stats.csv"},
        {"@roc_summary", "tests/data/profilers/rocprofv3/rocm-systems-2025/summary.txt"},
        {"@rocpd", "tests/data/profilers/rocprofv3/rocm-systems-2025/rocpd-to-csv.csv"},
        {"@roc_copies", "tests/data/profilers/rocprofv3/rocm-systems-2025/memory_copy_trace.csv"},
        {"@roc_two_streams", "tests/data/profilers/handmade/rocprofv3_kernel_trace_two_streams.csv"},
        {"@roc_2024", "tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/kernel_trace.csv"},
        {"@roc_markers", "tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/marker_api_trace.csv"},
        {"@folded_edges", "tests/data/profilers/handmade/folded_edge_cases.txt"},
        {"@folded_tid", "tests/data/profilers/folded-stacks/flamegraph_perf-iperf-stacks-pidtid-01-collapsed-tid.txt"},
        {"@folded_recursion", "tests/data/profilers/folded-stacks/speedscope_recursion.txt"},
    };
    return files;
}

std::string slurp(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream content;
    content << file.rdbuf();
    return content.str();
}

// True when the arguments ask for JSON output (and not for help or the version, which are text).
bool asks_for_json(const std::vector<std::string>& args) {
    for (const std::string& arg : args) {
        if (arg.starts_with("--help") || arg.starts_with("--version")) return false;
        // "-h" also inside a cluster of short options ("-xh").
        if (arg.size() > 1 && arg[0] == '-' && arg[1] != '-' && arg.find('h') != std::string::npos) return false;
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--format=json" || (args[i] == "--format" && i + 1 < args.size() && args[i + 1] == "json"))
            return true;
    }
    return false;
}

// Where the command lines' output files go (--output-json FILE, --plot FILE, import -o FILE...):
// a directory of the run's own, emptied after each input. Written where the fuzzer runs, they
// landed in the source tree, and an @name (cli_files) as the file would have overwritten an example.
const std::filesystem::path& scratch_directory() {
    static const std::filesystem::path directory = [] {
        std::string pattern = (std::filesystem::temp_directory_path() / "amdahl-fuzz-cli-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("fuzz_cli: cannot create a scratch directory " + pattern + ": " +
                                     std::strerror(errno));
        return std::filesystem::path(pattern);
    }();
    static const bool removed_at_exit = std::atexit([] {
                                            std::error_code error;
                                            std::filesystem::remove_all(scratch_directory(), error);
                                        }) == 0;
    (void)removed_at_exit;
    return directory;
}

// An output file's name, moved into the scratch directory: a plain name there, whatever the
// input wrote ('/' and '..' included), and relative to the directory the command runs in
// (working_directory, inside the scratch directory). An absolute path carried the scratch
// directory's random name (mkdtemp) into the command, and into any message or parser that met it:
// a value that changed from run to run. (Coverage still varies by a few edges from run to run, with
// memory addresses: fuzz/README.md.) A long name is cut to 100 bytes and told apart by a hash, so
// that the temporary file amdahl writes beside it ("NAME.amdahl-PID.tmp") never nears the file
// system's limit of 255 bytes, where the process ID's number of digits would decide between a
// report and an error.
std::string in_scratch(std::string_view file) {
    constexpr std::size_t longest = 100;
    std::string name(file);
    // std::hash of a string is the same in every run (libstdc++ hashes its bytes with a fixed seed).
    if (name.size() > longest)
        name = name.substr(0, longest) + "-" + std::to_string(std::hash<std::string_view>{}(file));
    std::replace(name.begin(), name.end(), '/', '_');
    return "../out-" + name;
}

// Inputs the harness writes once into the scratch directory's "inputs" folder, which outlives
// each input's outputs (all named "out-..."): "@eval" is an eval report (`eval --format json`) for
// queue --speedup-from, written by this build's own eval, so its format is always current.
const std::string& eval_report_file() {
    static const std::string path = [] {
        const std::filesystem::path folder = scratch_directory() / "inputs";
        std::filesystem::create_directories(folder);
        const std::string profile = std::string(AMDAHL_SOURCE_DIR) + "/examples/transformer_step.json";
        const std::vector<const char*> argv{"amdahl",   "eval", profile.c_str(), "-s", "attention_softmax=10",
                                            "--format", "json"};
        std::istringstream in;
        std::ostringstream out, err;
        if (cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err) != 0)
            throw std::runtime_error("fuzz_cli: cannot write the eval report for @eval: " + err.str());
        std::ofstream(folder / "eval.json", std::ios::binary) << out.str();
        return std::string("../inputs/eval.json");  // from working_directory(), as in_scratch's names
    }();
    return path;
}

// The path an argument names when it is an @name (cli_files, or "@eval") or starts with one
// followed by '=' ("@mix1=900gpus"); the argument unchanged otherwise.
std::string with_files(std::string arg) {
    if (!arg.starts_with('@')) return arg;
    const std::size_t equals = arg.find('=');
    const std::string_view name = std::string_view(arg).substr(0, equals);
    const std::string rest = equals == std::string::npos ? "" : arg.substr(equals);
    if (name == "@eval") return eval_report_file() + rest;
    if (const auto file = cli_files().find(name); file != cli_files().end())
        return std::string(AMDAHL_SOURCE_DIR) + "/" + file->second + rest;
    return arg;
}

// The directory each command line runs in, inside the scratch directory and empty, so that a
// relative path or a glob the fuzzer writes ("*", "*n*", "runs/a.json") finds nothing, the same on
// every machine. Run where the fuzzer was started (the source tree), "*" read README.md and
// CMakeLists.txt as profiles: coverage that changed with the tree and no other machine reproduced.
const std::filesystem::path& working_directory() {
    static const std::filesystem::path directory = [] {
        std::filesystem::path folder = scratch_directory() / "cwd";
        std::filesystem::create_directories(folder);
        return folder;
    }();
    return directory;
}

// Runs the command line in working_directory() and goes back where it was, whatever happens.
// Only a crash or a timeout inside the command leaves libFuzzer in the other directory, so its
// artifact paths must be absolute (fuzz/run.sh makes them so).
class InWorkingDirectory {
public:
    InWorkingDirectory() : previous_(std::filesystem::current_path()) {
        std::filesystem::current_path(working_directory());
    }
    ~InWorkingDirectory() {
        std::error_code error;
        std::filesystem::current_path(previous_, error);
    }
    InWorkingDirectory(const InWorkingDirectory&) = delete;
    InWorkingDirectory& operator=(const InWorkingDirectory&) = delete;

private:
    std::filesystem::path previous_;
};

void empty_scratch_directory() {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(scratch_directory(), error)) {
        const auto name = entry.path().filename();
        if (name != "inputs" && name != "cwd") std::filesystem::remove_all(entry.path(), error);
    }
    for (const auto& entry : std::filesystem::directory_iterator(working_directory(), error))
        std::filesystem::remove_all(entry.path(), error);
}

// Every option that names a file to write, in the commands that have one.
bool names_output_file(std::string_view option) {
    static const std::vector<std::string_view> options = {
        "--output-json", "--output-md", "--output-csv", "--summary-csv", "--plot", "--output", "-o"};
    return std::find(options.begin(), options.end(), option) != options.end();
}

// Moves every output file the arguments name ("--plot FILE", "--plot=FILE", "-o FILE") into the
// scratch directory.
void redirect_output_files(std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (names_output_file(args[i])) {
            if (i + 1 < args.size()) args[i + 1] = in_scratch(args[i + 1]);
            ++i;
        } else if (const auto equals = args[i].find('=');
                   equals != std::string::npos && args[i].starts_with("--") &&
                   names_output_file(std::string_view(args[i]).substr(0, equals))) {
            args[i] = args[i].substr(0, equals + 1) + in_scratch(std::string_view(args[i]).substr(equals + 1));
        }
    }
}

// True for "-" followed by two or more characters, the first not a dash: what CLI11 reads as a
// cluster of short options ("-qv") or a short option with its value attached ("-oFILE").
bool is_short_cluster(std::string_view arg) { return arg.size() > 2 && arg[0] == '-' && arg[1] != '-'; }

// The input is argv (without the program name), split on NUL or newline; standard input is the
// example JSON profile. The command runs in an empty directory (working_directory), reads only the
// files its @names give, and writes into a scratch directory (redirect_output_files). Inputs that
// could reach other files are skipped: an argument with a path out of the empty directory
// (cli_argument_reaches_outside: "/etc", "--ranks=/x", "../x", which covers devices too), -o inside
// a cluster of short options or "-oFILE", a long option after a cluster ("-q-plot=FILE"), manual
// --directory.
std::optional<std::vector<std::string>> prepared_cli_arguments(std::string_view data) {
    std::vector<std::string> args;
    for (std::size_t pos = 0; pos <= data.size() && args.size() < 256;) {
        auto end = data.find_first_of(std::string_view("\0\n", 2), pos);
        if (end == std::string_view::npos) end = data.size();
        if (pos == end && end == data.size() && !args.empty()) break;  // a final separator ends the list
        args.emplace_back(data.substr(pos, end - pos));
        pos = end + 1;
    }
    if (std::any_of(args.begin(), args.end(), cli_argument_reaches_outside)) return std::nullopt;
    for (std::string& arg : args) arg = with_files(std::move(arg));
    const bool writes_with_o = std::find(args.begin(), args.end(), "import") != args.end() ||
                               std::find(args.begin(), args.end(), "report") != args.end();
    const bool manual = std::find(args.begin(), args.end(), "manual") != args.end();
    for (const std::string& arg : args) {
        if (is_short_cluster(arg)) {
            // import's and report's -o other than alone: in a cluster ("-xo FILE") or with its file
            // attached ("-oFILE").
            if (writes_with_o && arg.find('o') != std::string::npos) return std::nullopt;
            // A long option after a cluster of flags: CLI11 reads "-q-plot=F" as "-q --plot=F".
            const auto past_letters = arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 1);
            if (past_letters != std::string::npos && arg[past_letters] == '-') return std::nullopt;
        }
        // manual --directory DIR writes a man page per command into DIR.
        if (manual && arg.starts_with("--directory")) return std::nullopt;
    }
    redirect_output_files(args);
    return args;
}

void check_cli_input(std::string_view data) {
    const auto prepared = prepared_cli_arguments(data);
    if (!prepared) return;
    const std::vector<std::string>& args = *prepared;
    std::vector<const char*> argv{"amdahl"};
    for (const auto& arg : args) argv.push_back(arg.c_str());
    static const std::string stdin_profile = slurp(std::string(AMDAHL_SOURCE_DIR) + "/examples/transformer_step.json");
    std::istringstream in(stdin_profile);
    std::ostringstream out, err;
    const int code = [&] {
        InWorkingDirectory inside;
        return cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
    }();
    empty_scratch_directory();
    require(code >= 0 && code <= 2,
            [&] { return "cli: exit code " + std::to_string(code) + "\nstderr: " + err.str(); });
    if (code != 2 && asks_for_json(args) && !out.str().empty()) {
        try {
            const auto parsed = nlohmann::json::parse(out.str());  // throws when it is not JSON
            require(!parsed.is_discarded(), [&] { return "cli: --format json output was discarded"; });
        } catch (const nlohmann::json::exception& e) {
            fail(std::string("cli: --format json wrote text that is not JSON: ") + e.what() + "\n" + out.str());
        }
    }
}

const std::map<std::string, std::vector<InputFormat>, std::less<>>& profile_targets() {
    static const std::map<std::string, std::vector<InputFormat>, std::less<>> targets = {
        {"fuzz_json", {InputFormat::json}},
        {"fuzz_csv", {InputFormat::csv, InputFormat::tsv}},
        {"fuzz_markdown", {InputFormat::markdown}},
        {"fuzz_text", {InputFormat::text}},
        {"fuzz_chrome_trace", {InputFormat::chrome_trace}},
        {"fuzz_nsys", {InputFormat::nsys, InputFormat::nsys_trace}},
        {"fuzz_rocprof", {InputFormat::rocprof_stats, InputFormat::rocprof_trace, InputFormat::rocprof_summary}},
        {"fuzz_folded", {InputFormat::folded}},
    };
    return targets;
}

}  // namespace

// zlib's reading of gzip bytes, with amdahl's rules: every member, one after another; anything
// else after a member is an error. nullopt when zlib refuses the data.
std::optional<std::string> zlib_inflate(std::string_view data) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("inflateInit2");
    std::string out;
    char buffer[1 << 14];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    int status = Z_OK;
    for (;;) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        status = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
        if (status == Z_STREAM_END) {
            if (z.avail_in == 0) break;
            if (z.avail_in < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b) {
                status = Z_DATA_ERROR;
                break;
            }
            inflateReset(&z);
            continue;
        }
        if (status != Z_OK || (z.avail_in == 0 && z.avail_out != 0)) {
            status = Z_DATA_ERROR;  // an error, or the input ended inside a member
            break;
        }
    }
    inflateEnd(&z);
    if (status != Z_STREAM_END) return std::nullopt;
    return out;
}

// How many of a rank table's ranks are read with every check (check_rank_table_input).
constexpr std::size_t checked_ranks = 4;

// --ranks FILE with a rank column: the split, and the first ranks' tables read as profiles (the
// same checks as any CSV). Every line of a rank's table is a line of the file, in order.
void check_rank_table_input(std::string_view data, char delimiter, Breadth breadth) {
    std::optional<std::vector<detail::RankRows>> split;
    try {
        split = detail::split_by_rank(data, "fuzz.csv", delimiter);
    } catch (const Error&) {
        return;
    }
    if (!split) return;
    for (std::size_t r = 0; r < split->size(); ++r) {
        const detail::RankRows& rows = (*split)[r];
        require(!rows.rank.empty(), [] { return std::string("ranks: a rank without a name"); });
        const auto lines = static_cast<std::size_t>(std::count(rows.content.begin(), rows.content.end(), '\n'));
        require(lines == rows.file_lines.size() && std::is_sorted(rows.file_lines.begin(), rows.file_lines.end()),
                [&] { return "ranks: rank '" + rows.rank + "' has lines that are not the file's"; });
        // Fuzzing, the first ranks' tables are read with every check; the rest are more tables of the
        // same reader, which the fuzzer feeds it directly. Half the corpus had a rank column, with up
        // to 137 ranks, and checking them all was most of fuzz_csv's time.
        if (r < checked_ranks || breadth == Breadth::every_way)
            check_profile_input(delimiter == ',' ? InputFormat::csv : InputFormat::tsv, rows.content);
    }
}

// The gzip reader against zlib: reading the bytes in pieces of a size the input picks (through
// underflow() one character at a time, or read() in blocks), it must give zlib's text exactly
// whenever zlib reads them, and refuse what zlib refuses. Then the whole path: load_profile on
// the bytes as standard input gives a profile or an amdahl::Error.
void check_gzip_input(std::string_view data) {
    if (data.size() < 2 || static_cast<unsigned char>(data[0]) != 0x1f || static_cast<unsigned char>(data[1]) != 0x8b)
        return;  // not gzip: the other targets read text
    const std::optional<std::string> expected = zlib_inflate(data);
    std::istringstream compressed{std::string(data.substr(1))};
    detail::GzipInflater inflater(compressed, "fuzz", data.substr(0, 1));
    std::istream in(&inflater);
    in.exceptions(std::ios::badbit);
    std::string got;
    std::string error;
    try {
        const std::size_t piece = 1 + data.size() % 4099;
        std::string buffer(piece, '\0');
        if (data.size() % 3 == 0) {
            for (int c; (c = in.get()) != std::char_traits<char>::eof();) got += static_cast<char>(c);
        } else {
            while (in.read(buffer.data(), static_cast<std::streamsize>(piece)) || in.gcount() > 0)
                got.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
        }
    } catch (const Error& e) {
        error = e.what();
    }
    if (expected) {
        require(error.empty(), [&] { return "gzip: zlib reads the data, the reader refuses it: " + error; });
        require(got == *expected, [&] {
            return "gzip: the reader inflated " + std::to_string(got.size()) + " bytes, zlib " +
                   std::to_string(expected->size()) + ", or different ones";
        });
    } else {
        require(!error.empty(), [&] {
            return "gzip: zlib refuses the data, the reader inflated " + std::to_string(got.size()) +
                   " bytes without an error";
        });
    }
    std::istringstream stdin_stream{std::string(data)};
    try {
        // No import options: the format is whatever the inflated bytes are; the profile targets vary them.
        const Profile profile = load_profile("-", stdin_stream, std::nullopt, ImportOptions{});
        check_profile(profile, "gzip profile");
    } catch (const Error&) {
    }
}

// Benchmark harnesses' JSON, read as each harness, times and throughputs: a file, or an
// amdahl::Error. What is read has runs, every value finite and >= 0, and compares with itself
// (benchmark by benchmark, with every gate, and summed) without anything but an amdahl::Error.
void check_harness_input(std::string_view data) {
    (void)detect_harness(data);
    for (const Harness harness : {Harness::hyperfine, Harness::google_benchmark, Harness::pytest_benchmark}) {
        for (const bool higher_is_better : {false, true}) {
            HarnessFile file;
            try {
                file = read_harness(data, "fuzz", harness, higher_is_better);
            } catch (const Error&) {
                continue;
            }
            require(!file.benchmarks.empty(), [] { return std::string("harness: a file with no benchmarks"); });
            for (const BenchmarkRuns& runs : file.benchmarks) {
                require(!runs.values.empty(), [&] { return "harness: benchmark '" + runs.name + "' has no runs"; });
                for (const double value : runs.values)
                    require(std::isfinite(value) && value >= 0, [&] {
                        return "harness: benchmark '" + runs.name + "' has a run of " + std::to_string(value);
                    });
            }
            try {
                CompareOptions options;
                options.paired = data.size() % 2 == 0;
                const BenchmarkComparison comparison = compare_benchmarks({file}, {file}, options);
                for (const BenchmarkChange& row : comparison.rows)
                    require(row.status != PhaseStatus::slower && row.status != PhaseStatus::faster,
                            [&] { return "harness: '" + row.name + "' changed against itself"; });
                // A regression gate never fails a file against itself: its bound is at most 0. (A
                // required speedup may: two noisy runs cannot prove even 1x.)
                std::vector<Gate> gates(2);
                gates[0].type = Gate::Type::slower;
                gates[0].text = "--fail-if-slower 0%";
                gates[1].type = Gate::Type::speedup;
                gates[1].threshold = 1;
                gates[1].text = "--require-speedup 1";
                const std::vector<GateResult> results = check_benchmark_gates(comparison, gates);
                require(results[0].passed,
                        [&] { return "harness: --fail-if-slower 0% failed on itself: " + results[0].detail; });
                (void)summed_side({file}, "BEFORE");
            } catch (const Error&) {
            }
        }
    }
}

bool cli_argument_reaches_outside(std::string_view arg) {
    for (std::size_t slash = arg.find('/'); slash != std::string_view::npos; slash = arg.find('/', slash + 1)) {
        if (slash == 0) return true;
        const auto before = static_cast<unsigned char>(arg[slash - 1]);
        if (std::isalnum(before) == 0) return true;
    }
    return false;
}

std::optional<std::vector<std::string>> cli_arguments(std::string_view data) { return prepared_cli_arguments(data); }

const std::vector<std::string>& target_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all;
        for (const auto& [name, formats] : profile_targets()) all.push_back(name);
        all.push_back("fuzz_speedup");
        all.push_back("fuzz_cli");
        all.push_back("fuzz_gzip");
        all.push_back("fuzz_harness");
        return all;
    }();
    return names;
}

void check_input(std::string_view target, std::string_view data, Breadth breadth) {
    if (const auto found = profile_targets().find(target); found != profile_targets().end()) {
        (void)sniff_format(data);  // once: it does not depend on the format the target reads
        const std::vector<InputFormat>& formats = found->second;
        // Fuzzing, the input's size picks the one format it is read as (size / 8: size % 8 picks the
        // import options, and the two choices must vary independently). Reading every input as each
        // format gave each execution two or three readers' work, most of it a quick refusal.
        std::vector<InputFormat> chosen = formats;
        if (breadth == Breadth::fuzzing) chosen = {formats[data.size() / 8 % formats.size()]};
        for (InputFormat format : chosen) {
            check_profile_input(format, data);
            if (format == InputFormat::csv || format == InputFormat::tsv)
                check_rank_table_input(data, format == InputFormat::csv ? ',' : '\t', breadth);
        }
    } else if (target == "fuzz_speedup") {
        check_speedup_input(data);
    } else if (target == "fuzz_cli") {
        check_cli_input(data);
    } else if (target == "fuzz_gzip") {
        check_gzip_input(data);
    } else if (target == "fuzz_harness") {
        check_harness_input(data);
    } else {
        throw std::invalid_argument("no fuzz target named '" + std::string(target) + "'");
    }
}

}  // namespace amdahl::fuzz
