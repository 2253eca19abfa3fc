// Steps of a trace (--window): the CPU and GPU copies of a ProfilerStep paired by name, a step's
// time the longer of the two, partial steps dropped, per-step figures, one step picked; and the
// filters that choose which events count (profiler bookkeeping, --exclude, tracks, categories).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <random>
#include <sstream>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

Profile load_text(const std::string& name, const std::string& text, ImportOptions options = {}) {
    std::istringstream none;
    return load_profile(test::write_temp(name, text), none, std::nullopt, options);
}

std::map<std::string, double> times(const Profile& profile) {
    std::map<std::string, double> out;
    for (const auto& phase : profile.phases) out[phase.name] = phase.time;
    return out;
}

bool has_note(const Profile& profile, const std::string& text) {
    for (const auto& note : profile.notes)
        if (note.find(text) != std::string::npos) return true;
    return false;
}

std::string event(const std::string& name, const std::string& cat, int pid, int tid, double ts, double dur) {
    std::ostringstream out;
    out << R"({"ph": "X", "name": ")" << name << R"(", "cat": ")" << cat << R"(", "pid": )" << pid << R"(, "tid": )"
        << tid << R"(, "ts": )" << ts << R"(, "dur": )" << dur << "}";
    return out.str();
}

std::string trace(const std::vector<std::string>& events) {
    std::string out = "{\"traceEvents\": [\n";
    for (std::size_t i = 0; i < events.size(); ++i) out += (i ? ",\n" : "") + events[i];
    return out + "\n]}";
}

// Five asynchronous steps: the CPU copy of ProfilerStep#k is [1000k, 1000k+1000), its GPU copy
// 100 us later, [1000k+100, 1000k+1100), so each GPU copy overlaps the next CPU copy. In each GPU
// copy: gemm for 600 us, 100 us idle, softmax for 300 us.
std::string async_steps() {
    std::vector<std::string> events;
    for (int k = 1; k <= 5; ++k) {
        const std::string step = "ProfilerStep#" + std::to_string(k);
        events.push_back(event(step, "user_annotation", 1, 1, 1000 * k, 1000));
        events.push_back(event(step, "gpu_user_annotation", 0, 7, 1000 * k + 100, 1000));
        events.push_back(event("gemm", "kernel", 0, 7, 1000 * k + 100, 600));
        events.push_back(event("softmax", "kernel", 0, 7, 1000 * k + 800, 300));
    }
    return trace(events);
}

}  // namespace

TEST_CASE("steps: CPU and GPU copies of a step are paired by name, never merged", "[import][trace][steps]") {
    ImportOptions options;
    options.window = "ProfilerStep#.*";
    const Profile profile = load_text("async.json", async_steps(), options);
    const auto t = times(profile);
    CHECK(t.at("gemm") == Approx(600));
    CHECK(t.at("softmax") == Approx(300));
    CHECK(t.at("idle") == Approx(100));
    CHECK(profile.total() == Approx(1000));  // not 5,100 us from one merged span
    REQUIRE(profile.steps.size() == 5);
    CHECK(profile.steps[0].name == "ProfilerStep#1");
    CHECK(profile.steps[0].time == Approx(1000));
    CHECK(profile.steps[0].dropped.empty());
    CHECK(profile.boundary ==
          "the mean of 5 steps matching 'ProfilerStep#.*' (CPU and GPU copies paired by name; a step lasts the "
          "longer of the two): 1,000.0 us per step (min 1,000.0 us, median 1,000.0 us, max 1,000.0 us)");
}

TEST_CASE("steps: a host-bound step lasts as long as its CPU span, the GPU idle most of it", "[import][trace][steps]") {
    std::vector<std::string> events;
    for (int k = 0; k < 3; ++k) {
        const std::string step = "ProfilerStep#" + std::to_string(k);
        events.push_back(event(step, "user_annotation", 1, 1, 9300 * k, 9300));
        events.push_back(event(step, "gpu_user_annotation", 0, 7, 9300 * k + 200, 1000));
        events.push_back(event("gemm", "kernel", 0, 7, 9300 * k + 200, 1000));
    }
    ImportOptions options;
    options.window = "ProfilerStep#.*";
    const Profile profile = load_text("host_bound.json", trace(events), options);
    const auto t = times(profile);
    CHECK(t.at("gemm") == Approx(1000));
    CHECK(t.at("idle") == Approx(8300));
    CHECK(profile.total() == Approx(9300));  // not the 1.0 ms of the GPU copy
}

TEST_CASE("steps: a repeated name pairs by order, GPU copies on several streams make one span",
          "[import][trace][steps]") {
    std::vector<std::string> events;
    for (int k = 0; k < 3; ++k) {
        const double at = 100 * k;
        events.push_back(event("Optimizer.step#SGD.step", "user_annotation", 1, 1, at, 50));
        events.push_back(event("Optimizer.step#SGD.step", "gpu_user_annotation", 0, 7, at + 10, 30));
        events.push_back(event("Optimizer.step#SGD.step", "gpu_user_annotation", 0, 8, at + 20, 50));
        events.push_back(event("a", "kernel", 0, 7, at + 10, 30));
        events.push_back(event("b", "kernel", 0, 8, at + 20, 50));
    }
    ImportOptions options;
    options.window = "Optimizer";
    const Profile profile = load_text("repeated.json", trace(events), options);
    const auto t = times(profile);
    // GPU copy: [10, 70) across both streams, 60 us, longer than the CPU's 50.
    CHECK(t.at("a") == Approx(10));
    CHECK(t.at("b") == Approx(30));
    CHECK(t.at("overlapped") == Approx(20));
    CHECK(t.count("idle") == 0);
    CHECK(profile.total() == Approx(60));
    CHECK(profile.steps.size() == 3);
}

TEST_CASE("steps: where steps' windows overlap, each step counts the time: the mean is the mean of the steps",
          "[import][trace][steps]") {
    // Two streams, each step's copy on a stream enclosing one kernel: stream 7 runs k7 in [100,
    // 900), [1100, 1900), [2100, 2900); stream 8 runs k8 in [200, 1500), [1500, 2200), [2200, 2950).
    // The GPU is busy from 100 to 2950 without a gap. The steps' GPU copies, [100, 1500), [1100,
    // 2200) and [2100, 2950), overlap each other.
    const std::string path = test::source_path("tests/data/profilers/handmade/steps_two_streams_drift.json");
    std::istringstream none;
    ImportOptions options;
    options.window = "ProfilerStep#.*";
    // Step by step (k8, k7, overlapped): step 1 [100, 1500): k7 alone 100-200, both 200-900, k8
    // alone 900-1100, both 1100-1500: (200, 100, 1100). Step 2 [1100, 2200): (200, 0, 900). Step 3
    // [2100, 2950): (50, 0, 800). No step has idle time.
    const std::map<std::string, double> step_times[] = {
        {{"k8", 200}, {"k7", 100}, {"overlapped", 1100}},
        {{"k8", 200}, {"k7", 0}, {"overlapped", 900}},
        {{"k8", 50}, {"k7", 0}, {"overlapped", 800}},
    };
    for (int k = 1; k <= 3; ++k) {
        INFO("step " << k);
        options.step = std::to_string(k);
        const auto t = times(load_profile(path, none, std::nullopt, options));
        CHECK(t.count("idle") == 0);
        for (const auto& [name, time] : step_times[k - 1]) CHECK((t.count(name) ? t.at(name) : 0.0) == Approx(time));
    }
    options.step.clear();
    const Profile profile = load_profile(path, none, std::nullopt, options);
    const auto t = times(profile);
    CHECK(t.at("k8") == Approx(150));
    CHECK(t.at("k7") == Approx(100.0 / 3));
    CHECK(t.at("overlapped") == Approx(2800.0 / 3));  // not 766.67: [1100, 1500) and [2100, 2200) count twice
    CHECK(t.count("idle") == 0);                      // not 166.67: the GPU never waits
    CHECK(profile.total() == Approx(3350.0 / 3));
}

TEST_CASE("steps: on random multi-stream traces the mean table is the mean of the --step tables",
          "[import][trace][steps]") {
    std::mt19937 rng(12);
    const auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    for (int round = 0; round < 60; ++round) {
        const int steps = pick(1, 4), streams = pick(1, 3);
        const std::string text = test::random_stream_steps(rng, steps, streams, pick(0, 1) == 1);
        INFO("round " << round << ": " << text);
        ImportOptions options;
        options.window = "ProfilerStep#.*";
        options.keep_partial_steps = true;
        const auto mean = times(load_text("random_steps.json", text, options));
        std::map<std::string, double> sum;
        for (int k = 1; k <= steps; ++k) {
            options.step = std::to_string(k);
            for (const auto& [name, time] : times(load_text("random_steps.json", text, options))) sum[name] += time;
        }
        for (const auto& [name, time] : sum) {
            INFO("phase " << name);
            CHECK((mean.count(name) ? mean.at(name) : 0.0) == Approx(time / steps).margin(1e-9));
        }
        for (const auto& [name, time] : mean) {
            INFO("phase " << name);
            CHECK(sum.count(name) == 1);
        }
    }
}

TEST_CASE("steps: a window nested in a window of the same name is part of it", "[import][trace][steps]") {
    const std::string text =
        trace({event("step", "user_annotation", 1, 1, 0, 100), event("step", "user_annotation", 1, 1, 10, 40),
               event("k", "kernel", 0, 7, 0, 100)});
    ImportOptions options;
    options.window = "^step$";
    const Profile profile = load_text("nested.json", text, options);
    CHECK(profile.steps.size() == 1);
    CHECK(profile.total() == Approx(100));
}

TEST_CASE("steps: partial steps are dropped, said, and kept on request", "[import][trace][steps]") {
    // A ROCm-like capture: the profiler stopped 49 us into ProfilerStep#2, before its GPU copy.
    const std::string stub =
        trace({event("ProfilerStep#1", "user_annotation", 1, 1, 0, 9288),
               event("ProfilerStep#1", "gpu_user_annotation", 0, 7, 100, 9100), event("k", "kernel", 0, 7, 100, 9100),
               event("ProfilerStep#2", "user_annotation", 1, 1, 9288, 49)});
    ImportOptions options;
    options.window = "ProfilerStep#.*";
    Profile profile = load_text("stub.json", stub, options);
    CHECK(profile.total() == Approx(9288));
    REQUIRE(profile.steps.size() == 2);
    CHECK(profile.steps[1].dropped == "it has no GPU copy, which the other steps have");
    CHECK(has_note(profile,
                   "dropped step 'ProfilerStep#2' (49.0 us): it has no GPU copy, which the other steps have "
                   "(a partial step where the profiler started or stopped; --keep-partial-steps keeps it)"));
    options.keep_partial_steps = true;
    profile = load_text("stub.json", stub, options);
    CHECK(profile.total() == Approx((9288 + 49) / 2.0));

    // By length: with three or more steps, a first or last step under a fifth of the median of the
    // steps between them.
    const std::string short_ends =
        trace({event("s1", "user_annotation", 1, 1, 0, 100), event("s2", "user_annotation", 1, 1, 100, 1000),
               event("s3", "user_annotation", 1, 1, 1100, 1000), event("s4", "user_annotation", 1, 1, 2100, 150),
               event("k", "kernel", 0, 7, 0, 2250)});
    options = {};
    options.window = "^s";
    profile = load_text("short_ends.json", short_ends, options);
    CHECK(profile.total() == Approx(1000));
    CHECK(has_note(profile, "dropped step 's1' (100.0 us): shorter than a fifth of the median step (1,000.0 us)"));
    CHECK(has_note(profile, "dropped step 's4' (150.0 us): shorter than a fifth of the median step (1,000.0 us)"));
    // Zero-length spans are no steps at all; one step alone is kept.
    const std::string one = trace({event("s1", "user_annotation", 1, 1, 0, 0),
                                   event("s2", "user_annotation", 1, 1, 0, 80), event("k", "kernel", 0, 7, 0, 80)});
    profile = load_text("one.json", one, options);
    CHECK(profile.total() == Approx(80));
    CHECK(profile.steps.size() == 1);
}

TEST_CASE("steps: per-step figures, a warning for a long step, and --step", "[import][trace][steps]") {
    const std::string text =
        trace({event("s1", "user_annotation", 1, 1, 0, 1700), event("s2", "user_annotation", 1, 1, 1700, 1000),
               event("s3", "user_annotation", 1, 1, 2700, 1000), event("s4", "user_annotation", 1, 1, 3700, 1200),
               event("k", "kernel", 0, 7, 0, 4900)});
    ImportOptions options;
    options.window = "^s";
    Profile profile = load_text("cold.json", text, options);
    CHECK(profile.total() == Approx(4900 / 4.0));
    CHECK(profile.boundary ==
          "the mean of 4 steps matching '^s' (CPU spans; the trace has no GPU copies of them): 1,225.0 us per step "
          "(min 1,000.0 us, median 1,100.0 us, max 1,700.0 us)");
    CHECK(has_note(profile,
                   "the longest step, 's1' (1,700.0 us), is 1.55x the median (1,100.0 us): a cold first "
                   "step or a lazy kernel load? --step median picks a typical one"));
    options.step = "first";
    profile = load_text("cold.json", text, options);
    CHECK(profile.total() == Approx(1700));
    CHECK(profile.boundary == "step 's1', the first of 4 steps matching '^s': 1,700.0 us");
    options.step = "median";  // the lower middle one of an even count, said as such
    profile = load_text("cold.json", text, options);
    CHECK(profile.total() == Approx(1000));
    CHECK(profile.boundary == "step 's3', the shorter middle one of 4 steps matching '^s': 1,000.0 us");
    options.step = "last";
    CHECK(load_text("cold.json", text, options).total() == Approx(1200));
    options.step = "4";
    CHECK(load_text("cold.json", text, options).total() == Approx(1200));
    options.step = "5";
    CHECK_THROWS_WITH(load_text("cold.json", text, options),
                      "--step: there are 4 steps; give 1 to 4, first, last or median");

    // The CLI: --step needs --window, and the JSON lists the steps.
    const std::string path = test::write_temp("cold_cli.json", text);
    auto r = test::run_cli({"eval", path, "--step", "first"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --step: picks one of the steps --window finds; give --window too\n");
    r = test::run_cli({"eval", path, "--window", "^s", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.out);
    REQUIRE(json["steps"].size() == 4);
    CHECK(json["steps"][0]["name"] == "s1");
    CHECK(json["steps"][0]["start"].get<double>() == Approx(0));
    CHECK(json["steps"][0]["time"].get<double>() == Approx(1700));
    CHECK(json["steps"][0]["used"] == true);
}

TEST_CASE("steps: --window takes annotations unless --window-any says otherwise", "[import][trace][steps]") {
    ImportOptions options;
    options.window = "gemm";
    CHECK_THROWS_WITH(load_text("async.json", async_steps(), options),
                      Contains("--window 'gemm' matches only events that are no annotations (5 of them, e.g. 'gemm', "
                               "kernel): steps are taken from annotations (user and GPU annotations, NVTX ranges, "
                               "ProfilerStep); give --window-any to take any event"));
    options.window_any = true;
    const Profile profile = load_text("async.json", async_steps(), options);
    CHECK(profile.steps.size() == 5);
    CHECK(profile.total() == Approx(600));
}

TEST_CASE("filters: profiler bookkeeping is dropped and said", "[import][trace][filters]") {
    const std::string text =
        trace({R"ev({"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans",
                                        "tid": "PyTorch Profiler", "ts": 0, "dur": 1000})ev",
               event("aten::mm", "cpu_op", 1, 1, 100, 300), event("aten::add", "cpu_op", 1, 1, 500, 100)});
    ImportOptions options;
    options.lane = Lane::cpu;
    Profile profile = load_text("bookkeeping.json", text, options);
    auto t = times(profile);
    CHECK(t.count("PyTorch Profiler (0)") == 0);
    CHECK(t.at("aten::mm") == Approx(300));
    CHECK(t.at("aten::add") == Approx(100));
    CHECK(has_note(profile,
                   "left out 1 event of the profiler's own bookkeeping ('PyTorch Profiler (0)', cat Trace); "
                   "--keep-profiler-events keeps them"));
    options.keep_profiler_events = true;
    t = times(load_text("bookkeeping.json", text, options));
    CHECK(t.at("PyTorch Profiler (0)") == Approx(600));
    CHECK(t.at("aten::mm") == Approx(0).margin(1e-9));  // under the profiler's span, on another track: overlapped
}

TEST_CASE("filters: --exclude, tracks and categories pick the events", "[import][trace][filters]") {
    const std::string text = trace({event("gemm", "kernel", 0, 7, 0, 100), event("copy", "gpu_memcpy", 0, 8, 0, 50),
                                    event("gemm", "kernel", 1, 7, 200, 100), event("nccl", "kernel", 0, 9, 400, 10)});
    ImportOptions options;
    options.exclude = {"^nccl"};
    auto t = times(load_text("tracks.json", text, options));
    CHECK(t.count("nccl") == 0);
    CHECK(t.at("gemm") == Approx(150));
    options = {};
    options.devices = {"1"};
    t = times(load_text("tracks.json", text, options));
    CHECK(t.at("gemm") == Approx(100));
    CHECK(t.size() == 1);
    options = {};
    options.streams = {"8"};
    t = times(load_text("tracks.json", text, options));
    CHECK(t.at("copy") == Approx(50));
    CHECK(t.size() == 1);
    options = {};
    options.categories = {"gpu_memcpy"};
    t = times(load_text("tracks.json", text, options));
    CHECK(t.size() == 1);
    options = {};
    options.pids = {"0"};
    options.tids = {"7", "9"};
    t = times(load_text("tracks.json", text, options));
    CHECK(t.at("gemm") == Approx(100));
    CHECK(t.at("nccl") == Approx(10));
    options = {};
    options.streams = {"42"};
    CHECK_THROWS_WITH(load_text("tracks.json", text, options),
                      Contains("no events left after --stream 42 (streams: 7, 8, 9)"));
    // Not for formats without tracks.
    const auto r = test::run_cli({"eval", test::source_path("examples/transformer_step.json"), "--exclude", "x"});
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "error: --exclude: does not apply to a JSON profile (it filters the events of a trace: "
          "chrome-trace, rocprof-trace or nsys-trace input)\n");
}

TEST_CASE("steps: a real ROCm training trace's stub step is dropped, the step host-bound", "[import][trace][steps]") {
    // HTA's mi250 sample: ProfilerStep#1 9,288.291 us on the CPU, its GPU copy 1,031.368 us; then a
    // 49.073 us ProfilerStep#2 with no GPU copy. Before: 2 merged spans averaged to 4,668.682 us.
    ImportOptions options;
    options.window = "ProfilerStep#.*";
    std::istringstream none;
    const Profile profile = load_profile(
        test::source_path("tests/data/profilers/pytorch-chrome-trace/hta_mi250_minitoy_train_ROCm6_2_kineto.json"),
        none, std::nullopt, options);
    CHECK(profile.total() == Approx(9288.291));
    REQUIRE(profile.steps.size() == 2);
    CHECK(profile.steps[0].dropped.empty());
    CHECK(profile.steps[1].name == "ProfilerStep#2");
    CHECK(profile.steps[1].time == Approx(49.073));
    CHECK(profile.steps[1].dropped == "it has no GPU copy, which the other steps have");
}

TEST_CASE("steps: two steps that each lack a copy are both kept: one step alone is never dropped",
          "[import][trace][steps]") {
    const std::string text =
        trace({event("ProfilerStep#1", "user_annotation", 1, 1, 0, 100),
               event("ProfilerStep#2", "gpu_user_annotation", 0, 7, 150, 100), event("k", "kernel", 0, 7, 150, 100)});
    ImportOptions options;
    options.window = "ProfilerStep#.*";
    const Profile profile = load_text("lacking.json", text, options);
    REQUIRE(profile.steps.size() == 2);
    CHECK(profile.steps[0].dropped.empty() != profile.steps[1].dropped.empty());  // one of them stays
    CHECK(profile.total() == Approx(100));
}

TEST_CASE("steps: a --window that is an annotation's whole name takes that annotation only, with a note",
          "[import][trace][steps]") {
    // ProfilerStep#1 is 1,000 us of gemm; #10 to #12 are 100 us each. As a regex matched anywhere, 'ProfilerStep#1'
    // averaged 4 steps: (1000 + 3 x 100) / 4 = 325 us, where step 1 is 1,000 us.
    std::vector<std::string> events;
    double ts = 0;
    for (int k = 1; k <= 12; ++k) {
        const double dur = k == 1 ? 1000 : 100;
        events.push_back(event("ProfilerStep#" + std::to_string(k), "user_annotation", 1, 1, ts, dur));
        events.push_back(event("gemm", "cpu_op", 1, 1, ts, dur));
        ts += dur;
    }
    ImportOptions options;
    options.window = "ProfilerStep#1";
    const Profile profile = load_text("exact_window.json", trace(events), options);
    CHECK(profile.total() == Approx(1000));
    CHECK(has_note(profile,
                   "--window 'ProfilerStep#1' is the exact name of an annotation and takes only it; as a "
                   "regex, matched anywhere in a name, it would also take 'ProfilerStep#10', "
                   "'ProfilerStep#11' and 'ProfilerStep#12' (write 'ProfilerStep#1.*' for those)"));
    // The regex form takes all four.
    options.window = "ProfilerStep#1.*";
    CHECK(load_text("regex_window.json", trace(events), options).total() == Approx(325));
}

TEST_CASE("steps: two steps have no median (it is their mean), one step no spread at all", "[import][trace][steps]") {
    ImportOptions options;
    options.window = "^s";
    const std::string two =
        trace({event("s1", "user_annotation", 1, 1, 0, 3000), event("s2", "user_annotation", 1, 1, 3000, 1000),
               event("k", "kernel", 0, 7, 0, 4000)});
    const Profile profile = load_text("two.json", two, options);
    CHECK(profile.total() == Approx(2000));
    CHECK(profile.boundary ==
          "the mean of 2 steps matching '^s' (CPU spans; the trace has no GPU copies of them): 2,000.0 us per step "
          "(min 1,000.0 us, max 3,000.0 us)");
    CHECK(has_note(profile,
                   "of the 2 steps, 's1' (3,000.0 us) is 3.00x the other (1,000.0 us): a cold first step or "
                   "a lazy kernel load? --step N picks one"));
    CHECK_FALSE(has_note(profile, "the median"));

    const std::string one = trace({event("s1", "user_annotation", 1, 1, 0, 1000), event("k", "kernel", 0, 7, 0, 1000)});
    CHECK(load_text("one.json", one, options).boundary ==
          "the only step matching '^s' (CPU spans; the trace has no GPU copies of them): 1,000.0 us");
}

TEST_CASE("steps: GPU work in CPU-only steps is taken by when it ran, and a note says so",
          "[import][trace][steps][silent]") {
    // s1's CPU span is 0-1000; the kernel it launched runs 900-1200, partly after it. Without
    // Kineto's GPU copy of the step, the step is its CPU span: 100 us of the kernel are left out,
    // and the kernel in s2 (1000-2000) counts for s2 whoever launched it. Said, not assumed.
    ImportOptions options;
    options.window = "^s";
    const std::string cpu_only =
        trace({event("s1", "user_annotation", 1, 1, 0, 1000), event("s2", "user_annotation", 1, 1, 1000, 1000),
               event("launch", "cuda_runtime", 1, 1, 800, 50), event("k", "kernel", 0, 7, 900, 300)});
    const Profile profile = load_text("cpu_only_steps.json", cpu_only, options);
    CHECK(profile.total() == Approx(1000));
    CHECK(has_note(profile,
                   "each step is its CPU span (the trace has no GPU copies of the steps): GPU work counts in the "
                   "step it ran in, not the step that launched it, and work that ran outside every step is "
                   "left out"));
    // On the CPU lane the CPU span is the step itself: no such note.
    options.lane = Lane::cpu;
    CHECK_FALSE(has_note(load_text("cpu_only_steps.json", cpu_only, options), "GPU work counts"));
    // With Kineto's GPU copies of the steps, the GPU lane measures in them: no such note.
    options.lane = Lane::gpu;
    const std::string paired =
        trace({event("s1", "user_annotation", 1, 1, 0, 1000), event("s1", "gpu_user_annotation", 0, 7, 900, 300),
               event("k", "kernel", 0, 7, 900, 300)});
    CHECK_FALSE(has_note(load_text("paired_steps.json", paired, options), "GPU work counts"));
    // On --lane all a step is always its CPU span, copies or not: said when the trace has GPU work.
    options.lane = Lane::all;
    CHECK(has_note(load_text("paired_steps.json", paired, options),
                   "on --lane all each step is its CPU span: GPU work counts in the step it ran in"));
}

TEST_CASE("steps: a step without a GPU copy among steps with one is measured on its CPU span, said",
          "[import][trace][steps][silent]") {
    // s1 and s3 have GPU copies, s2 has none: s2 is its CPU span, where a kernel launched in s1 ran.
    ImportOptions options;
    options.window = "^s";
    const std::string mixed =
        trace({event("s1", "user_annotation", 1, 1, 0, 1000), event("s1", "gpu_user_annotation", 0, 7, 100, 1000),
               event("s2", "user_annotation", 1, 1, 1000, 1000), event("s3", "user_annotation", 1, 1, 2000, 1000),
               event("s3", "gpu_user_annotation", 0, 7, 2100, 900), event("k", "kernel", 0, 7, 100, 1500)});
    const Profile profile = load_text("mixed_steps.json", mixed, options);
    CHECK(has_note(profile,
                   "1 of the 3 steps used has no GPU copy and is measured on its CPU span: GPU work counts in the "
                   "step it ran in, not the step that launched it"));
    options.step = "2";
    CHECK(has_note(load_text("mixed_steps.json", mixed, options),
                   "the step used has no GPU copy and is measured on its CPU span"));
    options.step = "1";
    CHECK_FALSE(has_note(load_text("mixed_steps.json", mixed, options), "GPU work counts"));
}

TEST_CASE("steps: a --window that matches annotations nested on one thread is refused, not counted twice",
          "[import][trace][steps][silent]") {
    // Benchmark regions nest: [param|model] holds [param|warmup] and [param|measure]. 'param'
    // matched all three as steps, so the measure kernels counted twice and the steps added up to
    // more than the trace (a real Kineto trace: 73.5 s of steps in 41.6 s).
    const std::string trace = test::write_temp("nested_regions.json", R"({"traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "[param|model]", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
{"ph": "X", "cat": "user_annotation", "name": "[param|warmup]", "pid": 1, "tid": 1, "ts": 100, "dur": 300},
{"ph": "X", "cat": "user_annotation", "name": "[param|measure]", "pid": 1, "tid": 1, "ts": 500, "dur": 400},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 150, "dur": 100},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 600, "dur": 100}
]})");
    const auto nested = test::run_cli({"import", trace, "--window", "param"});
    CHECK(nested.exit_code == 2);
    CHECK(nested.out.empty());
    CHECK(nested.err == "error: " + trace +
                            ": --window 'param' takes steps that overlap on one thread: '[param|warmup]' (at 100.0 us, "
                            "300.0 us long) runs inside '[param|model]' (at 0.0 us, 1,000.0 us long); steps are "
                            "iterations one after another, so give a pattern that matches one level of them\n");
    // One level: the two regions inside are two steps, each with its kernel.
    const auto level = test::run_cli({"import", trace, "--window", "warmup|measure"});
    INFO(level.err);
    REQUIRE(level.exit_code == 0);
    const auto profile = nlohmann::json::parse(level.out);
    CHECK(profile["total"].get<double>() == Approx(350));  // (300 + 400) / 2
    // Sequential steps of one name that overlap (not nested) are refused the same way.
    const std::string overlapping = test::write_temp("overlapping_steps.json", R"({"traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 600},
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 500, "dur": 600},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 150, "dur": 100}
]})");
    const auto both = test::run_cli({"import", overlapping, "--window", "ProfilerStep#.*"});
    CHECK(both.exit_code == 2);
    CHECK_THAT(
        both.err,
        Contains("'ProfilerStep#2' (at 500.0 us, 600.0 us long) overlaps 'ProfilerStep#1' (at 0.0 us, 600.0 us long)"));
}

TEST_CASE("trace: events that run past Kineto's 'Record Window End' are cut there, with a note",
          "[import][trace][silent]") {
    // The step's record_function closed 13 s after the profiler stopped (a real Kineto trace):
    // nothing after the record window's end was recorded, so the step is the 500 us before it,
    // not 10 ms of "idle" GPU.
    const std::string trace = test::write_temp("record_window.json", R"({"traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 10000},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1050, "dur": 300},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1100, "dur": 100},
{"ph": "i", "cat": "Trace", "name": "Record Window End", "pid": "", "tid": "", "ts": 1500, "s": "g"}
]})");
    const auto step = test::run_cli({"import", trace, "--window", "ProfilerStep#1"});
    INFO(step.err);
    REQUIRE(step.exit_code == 0);
    const auto profile = nlohmann::json::parse(step.out);
    CHECK(profile["total"].get<double>() == Approx(500));
    CHECK_THAT(step.err, Contains(trace + ": 1 event ran past the end of the recording (Kineto's 'Record Window "
                                          "End' at 500.0 us): nothing after it was recorded, so it is cut there: "
                                          "'ProfilerStep#1' (10,000.0 us long, 500.0 us of it recorded)"));
    // The CPU lane's wall time ends there too.
    const auto cpu = test::run_cli({"import", trace, "--lane", "cpu"});
    REQUIRE(cpu.exit_code == 0);
    CHECK(nlohmann::json::parse(cpu.out)["total"].get<double>() == Approx(500));
    // Without the marker nothing is cut.
    const std::string plain = test::write_temp("no_record_window.json", R"({"traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 10000},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1100, "dur": 100}
]})");
    const auto whole = test::run_cli({"import", plain, "--window", "ProfilerStep#1"});
    REQUIRE(whole.exit_code == 0);
    CHECK(nlohmann::json::parse(whole.out)["total"].get<double>() == Approx(10000));
}

TEST_CASE("trace: a CPU op and a GPU kernel of one name on --lane all are one phase, and a note says so",
          "[import][trace][silent]") {
    // Triton names the Python launcher and its kernel alike; on --lane all they share a phase,
    // which then has no kind (kind:kernel no longer picks it). That was silent.
    const std::string trace = test::write_temp("same_name.json", R"({"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "triton_add", "pid": 1, "tid": 1, "ts": 0, "dur": 90},
{"ph": "X", "cat": "kernel", "name": "triton_add", "pid": 0, "tid": 7, "ts": 100, "dur": 2},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 110, "dur": 10}
]})");
    const auto all = test::run_cli({"import", trace, "--lane", "all"});
    REQUIRE(all.exit_code == 0);
    CHECK_THAT(all.err, Contains(trace + ": events of different kinds share a name and are one phase, which has no "
                                         "kind (kind: selectors miss it): 'triton_add' (cpu and kernel)"));
    // On the GPU lane only the kernel is there: no note.
    const auto gpu = test::run_cli({"import", trace});
    REQUIRE(gpu.exit_code == 0);
    CHECK_THAT(gpu.err, !Contains("share a name"));
}
