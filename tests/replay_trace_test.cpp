// Replay on traces (src/input/profilers/dependencies.cpp, `eval --model replay`): the graph a
// Chrome/Kineto trace gives, checked on the small cases of docs/replay.md and on the real
// samples in tests/data, which replayed with factor 1 give back every event to the last bit.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>  // only to read the JSON report back

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/io.hpp"
#include "amdahl/replay.hpp"
#include "analysis/replay.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

// One complete ("X") event; `correlation` 0 writes no args.
std::string event(const char* cat, const char* name, int pid, int tid, double ts, double dur, int correlation = 0) {
    std::string text = "{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name +
                       "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
                       ", \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur);
    if (correlation != 0)
        text += ", \"args\": {\"External id\": 7, \"correlation\": " + std::to_string(correlation) + "}";
    return text + "}";
}

std::string trace(const std::vector<std::string>& events) {
    std::string text = "{\"traceEvents\": [\n";
    for (std::size_t i = 0; i < events.size(); ++i) text += (i ? ",\n" : "") + events[i];
    return text + "\n]}\n";
}

Profile read(const std::string& text, Lane lane = Lane::automatic) {
    ImportOptions options;
    options.lane = lane;
    options.dependencies = true;
    return parse_profile(text, "t.json", InputFormat::chrome_trace, options);
}

struct Both {
    Evaluation amdahl;
    ReplayOutcome replay;
};

Both eval(const Profile& profile, const std::vector<std::string>& specs) {
    std::vector<SpeedupSpec> parsed;
    for (const std::string& spec : specs) parsed.push_back(parse_speedup(spec));
    Both out;
    out.amdahl = evaluate(profile, parsed);
    out.replay = replay_evaluation(profile, out.amdahl);
    return out;
}

// Four CPU ops of 45 us, each launching a 5 us kernel at its end: the GPU idles 90% of the time.
std::string host_bound() {
    std::vector<std::string> events;
    for (int i = 0; i < 4; ++i) {
        const double t = i * 50;
        events.push_back(event("cpu_op", "aten::op", 1, 1, t, 45));
        events.push_back(event("cuda_runtime", "cudaLaunchKernel", 1, 1, t + 40, 5, i + 1));
        events.push_back(event("kernel", "k", 0, 7, t + 45, 5, i + 1));
    }
    return trace(events);
}

// A Kineto cuda_sync marker on the device's track (tid: the stream, or -1), sharing its
// correlation id with the runtime call that waited; `extra` are more members of its args.
std::string sync_marker(const char* name, int tid, double ts, double dur, int correlation, const std::string& extra) {
    return "{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"" + std::string(name) +
           "\", \"pid\": 0, \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts) +
           ", \"dur\": " + std::to_string(dur) + ", \"args\": {\"correlation\": " + std::to_string(correlation) +
           (extra.empty() ? "" : ", " + extra) + "}}";
}

// A Kineto ac2g flow point: "s" at a runtime call, "f" at the GPU work it launched.
std::string flow(char ph, int id, int pid, int tid, double ts) {
    return std::string("{\"ph\": \"") + ph +
           "\", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"id\": " + std::to_string(id) +
           ", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
           ", \"ts\": " + std::to_string(ts) + (ph == 'f' ? ", \"bp\": \"e\"}" : "}");
}

bool mentions(const ReplayOutcome& r, const std::string& text) {
    for (const std::string& line : r.assumptions)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("replay: work on another stream that still ends last gains nothing", "[replay]") {
    // The issue's case: gemm [0,100] on stream 7, a copy [50,150] on stream 8.
    const Profile profile = read(trace({
        event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, 1),
        event("cuda_runtime", "cudaMemcpyAsync", 1, 1, 2, 1, 2),
        event("kernel", "gemm", 0, 7, 0, 100, 1),
        event("gpu_memcpy", "copy", 0, 8, 50, 100, 2),
    }));
    const Both r = eval(profile, {"gemm=2"});
    CHECK(r.amdahl.speedup == Approx(1.2));
    REQUIRE(r.amdahl.overlap_range);
    CHECK(r.amdahl.overlap_range->high_speedup == Approx(1.5));
    CHECK(r.replay.before == 150);
    CHECK(r.replay.after == 150);
    CHECK(r.replay.speedup == 1);
    CHECK(mentions(r.replay, "2 GPU events linked to their runtime call (by correlation id)"));
}

TEST_CASE("replay: one stream of queued kernels is Amdahl's law", "[replay]") {
    // Launched far ahead, back to back on one stream: the device-bound case.
    const Profile profile = read(trace({
        event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, 1),
        event("cuda_runtime", "cudaLaunchKernel", 1, 1, 1, 1, 2),
        event("cuda_runtime", "cudaLaunchKernel", 1, 1, 2, 1, 3),
        event("kernel", "k1", 0, 7, 0, 30, 1),
        event("kernel", "k2", 0, 7, 30, 30, 2),
        event("kernel", "k3", 0, 7, 60, 30, 3),
    }));
    for (const char* spec : {"k2=2", "k2=inf", "k1=3", "k3=1.5"}) {
        const Both r = eval(profile, {spec});
        CHECK(r.replay.before == 90);
        CHECK(r.replay.speedup == Approx(r.amdahl.speedup).epsilon(1e-12));
    }
    const Both r = eval(profile, {"k2=2"});
    CHECK(r.replay.after == Approx(75));
    CHECK(mentions(r.replay, "1 held by its launch"));
    CHECK(mentions(r.replay, "2 queued behind earlier work"));
}

TEST_CASE("replay: a host-bound trace gains little from faster kernels, much from faster host work", "[replay]") {
    const Profile profile = read(host_bound(), Lane::all);
    const Both kernels = eval(profile, {"k=inf"});
    CHECK(kernels.replay.before == 200);
    CHECK(kernels.replay.after == Approx(195));  // only the last kernel's 5 us go
    const Both host = eval(profile, {"aten::op=2"});
    CHECK(host.replay.after == Approx(200 - 4 * 20));  // every op's 40 us self time halves
    CHECK(host.replay.speedup > 1.6);
}

TEST_CASE("replay: a device synchronize waits for the work launched before it", "[replay]") {
    // The kernel [5,55] is waited for by cudaDeviceSynchronize [2,60], then host work [60,70].
    const Profile profile = read(trace({
                                     event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, 1),
                                     event("cuda_runtime", "cudaDeviceSynchronize", 1, 1, 2, 58),
                                     event("cpu_op", "aten::after", 1, 1, 60, 10),
                                     event("kernel", "k", 0, 7, 5, 50, 1),
                                 }),
                                 Lane::all);
    const Both r = eval(profile, {"k=2"});
    CHECK(r.replay.before == 70);
    // The kernel ends at 30; the call returns 5 us after it (its tail), the host work follows.
    CHECK(r.replay.after == Approx(45));
    CHECK(mentions(r.replay, "inferred from 1 runtime call that waits"));
    // Without the synchronize the host work would not wait: the replay has the wait edge.
    CHECK(r.replay.waits == 1);
}

TEST_CASE("replay: a blocking copy waits for the copy it launched", "[replay]") {
    const Profile profile = read(trace({
                                     event("cpu_op", "aten::before", 1, 1, 0, 10),
                                     event("cuda_runtime", "cudaMemcpy", 1, 1, 10, 50, 4),
                                     event("cpu_op", "aten::after", 1, 1, 60, 10),
                                     event("gpu_memcpy", "Memcpy DtoH", 0, 7, 15, 40, 4),
                                 }),
                                 Lane::all);
    const Both copy = eval(profile, {"Memcpy DtoH=2"});
    CHECK(copy.replay.before == 70);
    CHECK(copy.replay.after == Approx(50));  // the copy 20 us shorter, and everything after it
    const Both before = eval(profile, {"aten::before=2"});
    CHECK(before.replay.after == Approx(65));  // the call, its copy and the rest move 5 us earlier
}

TEST_CASE("replay: nested CPU events are cut into self-time segments", "[replay]") {
    // An op [0,100] with a child [20,60]: the op's self time is 60 us, the child's 40 us.
    const Profile profile = read(trace({
                                     event("cpu_op", "outer", 1, 1, 0, 100),
                                     event("cpu_op", "inner", 1, 1, 20, 40),
                                 }),
                                 Lane::cpu);
    CHECK(eval(profile, {"outer=2"}).replay.after == Approx(70));
    CHECK(eval(profile, {"inner=2"}).replay.after == Approx(80));
    CHECK(eval(profile, {"inner=inf", "outer=inf"}).replay.after == 0);
}

TEST_CASE("replay: the real samples replayed with factor 1 give back every event exactly", "[replay]") {
    for (const char* sample : {"tests/data/profilers/pytorch-chrome-trace/hta_base.json",
                               "tests/data/profilers/pytorch-chrome-trace/hta_mi250_minitoy_train_ROCm6_2_kineto.json",
                               "tests/data/profilers/pytorch-chrome-trace/hta_triton_example.json",
                               "tests/data/profilers/pytorch-chrome-trace/hta_cuda_event_sync.json",
                               "tests/data/profilers/pytorch-chrome-trace/hta_cuda_event_sync_multi_stream.json",
                               "tests/data/profilers/chrome-trace-generic/speedscope_multiprocess.json",
                               "tests/data/profilers/handmade/replay_sim_3steps.json"}) {
        INFO(sample);
        ImportOptions options;
        options.dependencies = true;
        options.lane = Lane::all;
        std::istringstream none;
        const Profile profile = load_profile(test::source_path(sample), none, std::nullopt, options);
        REQUIRE(profile.dependencies);
        const detail::ReplayGraph& graph = profile.dependencies->graph;
        REQUIRE_FALSE(graph.events.empty());
        const detail::ReplayResult same =
            detail::replay(graph, std::vector<double>(profile.dependencies->phase_names.size(), 1.0));
        for (std::size_t i = 0; i < graph.events.size(); ++i) {
            CHECK(same.start[i] == graph.events[i].start);
            CHECK(same.end[i] == graph.events[i].end);
        }
        CHECK(same.after == same.before);
        // And a speedup of any phases never makes the run longer.
        std::mt19937 random(7);
        std::uniform_real_distribution<double> factor(1, 20);
        for (int round = 0; round < 50; ++round) {
            std::vector<double> factors(profile.dependencies->phase_names.size());
            for (double& f : factors) f = random() % 3 == 0 ? factor(random) : 1.0;
            const detail::ReplayResult faster = detail::replay(graph, factors);
            CHECK(faster.after <= same.before * (1 + 1e-12));
        }
    }
}

TEST_CASE("replay: eval --model replay on the command line", "[replay][cli]") {
    const std::string path =
        test::write_temp("two_streams.json", trace({
                                                 event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, 1),
                                                 event("kernel", "gemm", 0, 7, 0, 100, 1),
                                                 event("gpu_memcpy", "copy", 0, 8, 50, 100),
                                             }));
    const auto text = test::run_cli({"eval", path, "-s", "gemm=2", "--model", "replay"});
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Contains("replayed speedup:     1.0000x"));
    CHECK_THAT(text.out, Contains("Amdahl speedup:       1.2000x"));
    // gemm ran under the copy, which sets the end: none of its time is on the critical path.
    // The reason names what still sets the end, and its stream: the copy, 100 of the path's 150 us
    // (the 50 us before it are its recorded start, a delay).
    CHECK_THAT(text.out, Contains("hidden by overlap: of the sped-up work's 100.0 us, only 0.0 us (0.0%) lies on "
                                  "the recorded critical path; the rest ran alongside other work, which still takes "
                                  "as long: 'copy' on stream 8 (device 0) runs as long as before and holds 66.7% of "
                                  "the replayed critical path"));
    CHECK_THAT(text.out, Contains("1 GPU event has no known launch"));

    const auto json = test::run_cli({"eval", path, "-s", "gemm=2", "--model", "replay", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto report = nlohmann::json::parse(json.out);
    CHECK(report["model"] == "replay");
    CHECK(report["replayed_speedup"].get<double>() == 1);
    CHECK(report["amdahl_speedup"].get<double>() == Approx(1.2));
    CHECK(report["speedup"].get<double>() == Approx(1.2));
    CHECK(report["step_time"].get<double>() == 150);
    CHECK(report["new_step_time"].get<double>() == 150);
    CHECK(report["replay"]["events"].get<int>() == 3);
    CHECK(report["replay"]["sped_up_time"].get<double>() == 100);
    CHECK(report["replay"]["sped_up_on_critical_path"].get<double>() == 0);
    CHECK(report["replay"]["holder"]["name"] == "copy");
    CHECK(report["replay"]["holder"]["track"] == "stream 8 (device 0)");
    CHECK(report["replay"]["holder"]["time"].get<double>() == 100);
    CHECK(report["replay"]["holder"]["share"].get<double>() == Approx(100.0 / 150));

    // The gate is on the replayed figure.
    const auto gate = test::run_cli({"eval", path, "-s", "gemm=2", "--model", "replay", "--require-speedup", "1.1"});
    CHECK(gate.exit_code == 1);
    CHECK_THAT(gate.err, Contains("gate failed: replayed speedup 1.0000x is below the required 1.1000x"));

    // A phase with no event to move (the overlapped time the sweep adds) is said to stay.
    const auto overlapped = test::run_cli({"eval", path, "-s", "overlapped=2", "--model", "replay"});
    CHECK(overlapped.exit_code == 0);
    CHECK_THAT(overlapped.out, Contains("'overlapped' is no event the replay moves"));
    CHECK_THAT(overlapped.out, Contains("replayed speedup:     1.0000x"));

    const auto plain = test::run_cli({"eval", path, "-s", "gemm=2", "--format", "json"});
    CHECK(nlohmann::json::parse(plain.out)["model"] == "amdahl");
}

TEST_CASE("replay: options that do not apply are errors", "[replay][cli]") {
    const std::string table = test::source_path("examples/transformer_step.json");
    const auto phases = test::run_cli({"eval", table, "-s", "attention=2", "--model", "replay"});
    CHECK(phases.exit_code == 2);
    CHECK_THAT(phases.err, Contains("--model replay"));
    CHECK_THAT(phases.err, Contains("this JSON profile has no \"timeline\" to replay; import the trace with "
                                    "`amdahl import TRACE --keep-timeline`, or give the trace itself"));

    const std::string trace_path = test::source_path("tests/data/profilers/pytorch-chrome-trace/hta_base.json");
    const auto gap = test::run_cli({"eval", trace_path, "-s", "kind:kernel=2", "--queue-gap", "5us"});
    CHECK(gap.exit_code == 2);
    CHECK_THAT(gap.err, Contains("--queue-gap: applies to --model replay only"));

    const auto bare =
        test::run_cli({"eval", trace_path, "-s", "kind:kernel=2", "--model", "replay", "--queue-gap", "5"});
    CHECK(bare.exit_code == 2);
    CHECK_THAT(bare.err, Contains("--queue-gap: give the time with its unit"));

    const auto empty =
        test::run_cli({"eval", trace_path, "-s", "kind:kernel=2", "--model", "replay", "--queue-gap", ""});
    CHECK(empty.exit_code == 2);
    CHECK_THAT(empty.err, Contains("--queue-gap: expected a time such as 250ms (got '')"));

    const auto total = test::run_cli({"eval", trace_path, "-s", "kind:kernel=2", "--model", "replay", "--total", "2s"});
    CHECK(total.exit_code == 2);
    CHECK_THAT(total.err, Contains("--model replay: does not take --total: its baseline is the trace's makespan"));

    const auto rank_gap = test::run_cli({"rank", trace_path, "--queue-gap", "5us"});
    CHECK(rank_gap.exit_code == 2);
    CHECK_THAT(rank_gap.err, Contains("--queue-gap: applies to --model replay only"));

    const auto model = test::run_cli({"eval", trace_path, "-s", "kind:kernel=2", "--model", "dag"});
    CHECK(model.exit_code == 2);
    CHECK_THAT(model.err, Contains("--model"));
}

TEST_CASE("replay: predicts a simulated run with faster kernels within 1%", "[replay][ground-truth]") {
    // bench/sim_trace.py simulates one CPU thread launching to two streams, with blocking copies
    // and device synchronizes; --scale reruns the same program with some kernels faster. The truth
    // is that second trace's makespan, read here straight from its events.
    const auto makespan = [](const std::string& path) {
        const auto trace = nlohmann::json::parse(test::read_file(path));
        double first = std::numeric_limits<double>::infinity(), last = -first;
        for (const auto& e : trace["traceEvents"]) {
            first = std::min(first, e["ts"].get<double>());
            last = std::max(last, e["ts"].get<double>() + e["dur"].get<double>());
        }
        return last - first;
    };
    const test::TempDir dir;
    const std::string sim = "python3 " + test::source_path("bench/sim_trace.py");
    for (const std::string seed : {"1", "2"}) {
        const std::string base = dir / ("base" + seed + ".json");
        REQUIRE(test::run_shell(sim + " " + base + " --steps 25 --seed " + seed).exit_code == 0);
        for (const std::string scale : {"gemm=2", "nccl_allreduce=2", "attention=4 --scale layernorm=3"}) {
            INFO("seed " << seed << ", --scale " << scale);
            const std::string truth_path = dir / "truth.json";
            REQUIRE(test::run_shell(sim + " " + truth_path + " --steps 25 --seed " + seed + " --scale " + scale)
                        .exit_code == 0);
            std::string specs = " -s " + scale;
            for (std::size_t at; (at = specs.find("--scale")) != std::string::npos;) specs.replace(at, 7, "-s");
            const auto run = test::run_binary("eval " + base + specs + " --model replay --format json");
            REQUIRE(run.exit_code == 0);
            const auto report = nlohmann::json::parse(run.out);
            const double truth = makespan(truth_path);
            CHECK(report["step_time"].get<double>() == Approx(makespan(base)).epsilon(1e-12));
            CHECK(report["new_step_time"].get<double>() == Approx(truth).epsilon(0.01));
            // The phase table's Amdahl figure is further off than the 1% the replay keeps to.
            const double replayed = report["replayed_speedup"].get<double>();
            CHECK(std::fabs(report["amdahl_speedup"].get<double>() - replayed) > 0.01 * replayed);
        }
    }
}

TEST_CASE("replay: the critical path says what sets the step's end", "[replay][critical-path]") {
    const Profile profile = read(trace({
        event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, 1),
        event("cuda_runtime", "cudaMemcpyAsync", 1, 1, 2, 1, 2),
        event("kernel", "gemm", 0, 7, 0, 100, 1),
        event("gpu_memcpy", "copy", 0, 8, 50, 100, 2),
    }));
    std::vector<SpeedupSpec> specs{parse_speedup("gemm=2")};
    const ReplayOutcome r = replay_evaluation(profile, evaluate(profile, specs), true);
    for (const auto* path : {&r.path_before, &r.path_after}) {
        double sum = 0;
        for (const PathShare& share : *path) sum += share.time;
        CHECK(sum == Approx(150));
        // The copy ends the step: its 100 us, the launch call's 1 us, and 49 us of delays (the
        // copy's launch latency, 48 us, and the 1 us between the two calls); gemm is off the path.
        REQUIRE(path->size() == 3);
        CHECK(((*path)[0].name == "copy" && (*path)[0].phase && (*path)[0].time == 100));
        CHECK(((*path)[1].name.empty() && (*path)[1].time == 49));
        CHECK(((*path)[2].name == "cudaLaunchKernel" && !(*path)[2].phase && (*path)[2].time == 1));
    }

    // A synchronize that waits puts the awaited kernel on the path, and the call's tail after it.
    const Profile synced = read(trace({
                                    event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, 1),
                                    event("cuda_runtime", "cudaDeviceSynchronize", 1, 1, 2, 58),
                                    event("cpu_op", "aten::after", 1, 1, 60, 10),
                                    event("kernel", "k", 0, 7, 5, 50, 1),
                                }),
                                Lane::all);
    specs = {parse_speedup("k=2")};
    const ReplayOutcome s = replay_evaluation(synced, evaluate(synced, specs), true);
    double sum = 0;
    bool kernel = false;
    for (const PathShare& share : s.path_after) {
        sum += share.time;
        if (share.name == "k") kernel = share.time == 25;
    }
    CHECK(sum == Approx(45));
    CHECK(kernel);
}

TEST_CASE("replay: --critical-path on the command line", "[replay][critical-path][cli]") {
    const std::string path = test::source_path("tests/data/profilers/handmade/replay_sim_3steps.json");
    const auto text = test::run_cli({"eval", path, "-s", "gemm=2", "--model", "replay", "--critical-path"});
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Contains("Critical path (what sets the step's end):"));
    CHECK_THAT(text.out, Contains("  recorded, "));
    CHECK_THAT(text.out, Contains("delays (untraced host work, launch latency, queue gaps)"));

    const auto json =
        test::run_cli({"eval", path, "-s", "gemm=2", "--model", "replay", "--critical-path", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto report = nlohmann::json::parse(json.out);
    double sum = 0;
    for (const auto& share : report["critical_path"]["after"]) sum += share["time"].get<double>();
    CHECK(sum == Approx(report["new_step_time"].get<double>()));
    bool flagged = false;
    for (const auto& phase : report["phases"]) flagged = flagged || phase.contains("on_critical_path");
    CHECK(flagged);

    const auto amdahl = test::run_cli({"eval", path, "-s", "gemm=2", "--critical-path"});
    CHECK(amdahl.exit_code == 2);
    CHECK_THAT(amdahl.err, Contains("--critical-path: applies to --model replay only"));
}

TEST_CASE("replay: a host-bound trace is called host-bound", "[replay][cli]") {
    const std::string path = test::write_temp("host_bound.json", host_bound());
    const auto r = test::run_cli({"eval", path, "-s", "k=inf", "--model", "replay"});
    CHECK(r.exit_code == 0);
    // The GPU runs 20 of 200 us; after, 0 of 195.
    CHECK_THAT(r.out, Contains("host-bound: the GPU is idle 90.0% of the recorded step"));
    CHECK_THAT(r.out, Contains("(100.0% after)"));
    const auto json = test::run_cli({"eval", path, "-s", "k=inf", "--model", "replay", "--format", "json"});
    const auto report = nlohmann::json::parse(json.out);
    CHECK(report["replay"]["gpu_busy_time"].get<double>() == 20);
    CHECK(report["replay"]["new_gpu_busy_time"].get<double>() == 0);
}

TEST_CASE("replay: rank --model replay ranks targets by their replayed saving", "[replay][rank][cli]") {
    const std::string path = test::source_path("tests/data/profilers/handmade/replay_sim_3steps.json");
    const auto rank =
        test::run_cli({"rank", path, "--model", "replay", "-k", "2", "--grid", "4,inf", "--format", "json"});
    REQUIRE(rank.exit_code == 0);
    const auto report = nlohmann::json::parse(rank.out);
    CHECK(report["model"] == "replay");
    const auto first = test::run_cli({"eval", path, "-s", "gemm=2", "--model", "replay", "--format", "json"});
    const double makespan = nlohmann::json::parse(first.out)["step_time"].get<double>();
    CHECK(report["baseline_time"].get<double>() == makespan);
    double previous = std::numeric_limits<double>::infinity();
    for (const auto& target : report["targets"]) {
        const std::string name = target["name"];
        INFO(name);
        // Each row is what eval --model replay says of that target alone.
        const auto eval = test::run_cli({"eval", path, "-s", name + "=2", "--model", "replay", "--format", "json"});
        REQUIRE(eval.exit_code == 0);
        const auto e = nlohmann::json::parse(eval.out);
        CHECK(target["speedup"].get<double>() == Approx(e["replayed_speedup"].get<double>()).epsilon(1e-12));
        CHECK(target["time_saved"].get<double>() ==
              Approx(e["step_time"].get<double>() - e["new_step_time"].get<double>()).epsilon(1e-12));
        const auto inf = test::run_cli({"eval", path, "-s", name + "=inf", "--model", "replay", "--format", "json"});
        CHECK(target["ceiling"].get<double>() ==
              Approx(nlohmann::json::parse(inf.out)["replayed_speedup"].get<double>()).epsilon(1e-12));
        CHECK(target["on_critical_path"].is_boolean());
        CHECK(target["time_saved"].get<double>() <= previous);
        previous = target["time_saved"].get<double>();
    }

    const auto text = test::run_cli({"rank", path, "--model", "replay"});
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Contains("on critical path"));
    CHECK_THAT(text.out, Contains("model:"));

    const auto explain = test::run_cli({"rank", path, "--model", "replay", "--explain"});
    CHECK(explain.exit_code == 2);
    CHECK_THAT(explain.err, Contains("--explain: shows Amdahl's arithmetic"));
    const auto table =
        test::run_cli({"rank", test::source_path("examples/transformer_step.json"), "--model", "replay"});
    CHECK(table.exit_code == 2);
    CHECK_THAT(table.err, Contains("--model replay"));
}

// Traces a hostile tester wrote against the first version of the graph builder: each one failed
// (an internal error, or a wrong answer with exit 0) before the fix it names.
TEST_CASE("replay: traces that once broke the graph", "[replay][hostile]") {
    SECTION("a synchronizing call on a GPU stream's track is no host call: it waits for nothing") {
        const Profile profile = read(trace({
            event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, 1),
            event("kernel", "gemm", 0, 7, 5, 50, 1),
            event("cuda_runtime", "cudaStreamSynchronize", 0, 7, 60, 5),
            event("cuda_runtime", "cudaMemcpy", 0, 7, 70, 5, 5),
        }));
        CHECK(eval(profile, {"gemm=2"}).replay.after == Approx(50));  // was: "an edge names its own event"
    }
    SECTION("a launch call whose first instant a child covers launches from its own start") {
        const Profile profile = read(trace({
            event("cuda_runtime", "cudaLaunchKernel", 1, 1, 10, 10, 1),
            event("cpu_op", "aten::inner", 1, 1, 10, 5),
            event("kernel", "gemm", 0, 7, 12, 20, 1),
        }));
        // was: "an edge asks for more delay than the trace recorded"
        CHECK(eval(profile, {"gemm=2"}).replay.after == Approx(12));  // [10, 22]: the kernel ends at 22
    }
    SECTION("a device synchronize waits for work launched before it, however much is launched during it") {
        std::vector<std::string> events{event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 5, 1),
                                        event("kernel", "big", 0, 7, 10, 140, 1),
                                        event("cuda_runtime", "cudaDeviceSynchronize", 1, 1, 100, 900),
                                        event("cpu_op", "aten::after", 1, 1, 1001, 500)};
        for (int i = 0; i < 100; ++i) {  // another thread launches 100 small kernels to the stream meanwhile
            const double t = 200 + 5 * i;
            events.push_back(event("cuda_runtime", "cudaLaunchKernel", 1, 2, t, 1, 100 + i));
            events.push_back(event("kernel", "small", 0, 7, t + 2, 1, 100 + i));
        }
        // big 10x slower ends at 1410: the synchronize returns then (was: it stopped waiting for big
        // once 64 small kernels came after it, and the step ended at 1906).
        CHECK(eval(read(trace(events)), {"big=0.1"}).replay.after == Approx(2761));
    }
    SECTION("correlation ids two processes share link nothing, and say so") {
        std::vector<std::string> events;
        for (int rank = 0; rank < 2; ++rank) {
            const int pid = 100 * (rank + 1);
            const double op = rank == 0 ? 10 : 20;
            events.push_back(event("cpu_op", rank == 0 ? "r0op" : "r1op", pid, pid, 0, op));
            events.push_back(event("cuda_runtime", "cudaLaunchKernel", pid, pid, op, 2, 1));
            events.push_back(event("kernel", "k", rank, 7, op + 5, 50, 1));
        }
        const Both r = eval(read(trace(events), Lane::all), {"r0op=10"});
        // Rank 1 ends the trace whatever rank 0 does (was: its kernel was linked to rank 0's call).
        CHECK(r.replay.speedup == 1);
        CHECK(mentions(r.replay, "1 correlation id is used by several runtime calls"));
    }
    SECTION("a device synchronize waits for its own process's devices only") {
        const Profile profile = read(trace({
            event("cuda_runtime", "cudaLaunchKernel", 100, 100, 0, 3, 1),
            event("kernel", "k0", 0, 7, 5, 100, 1),
            event("cuda_runtime", "cudaDeviceSynchronize", 100, 100, 10, 102),
            event("cpu_op", "aten::after", 100, 100, 112, 400),
            event("cuda_runtime", "cudaLaunchKernel", 200, 200, 1, 2, 2),
            event("kernel", "k1", 1, 7, 6, 104, 2),
        }));
        // k0 ends at 55, the synchronize 7 us later, the host work at 462 (was: it waited for k1 on device 1).
        CHECK(eval(profile, {"k0=2"}).replay.after == Approx(462));
    }
    SECTION("B/E events keep their correlation ids") {
        const auto be = [](const char* ph, const char* cat, const char* name, int pid, int tid, double ts, int id) {
            return "{\"ph\": \"" + std::string(ph) + "\", \"cat\": \"" + cat + "\", \"name\": \"" + name +
                   "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
                   ", \"ts\": " + std::to_string(ts) + ", \"args\": {\"correlation\": " + std::to_string(id) + "}}";
        };
        const std::string x =
            trace({event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 2, 1), event("kernel", "gemm", 0, 7, 10, 40, 1),
                   event("cpu_op", "aten::after", 1, 1, 2, 20)});
        const std::string b_e =
            trace({be("B", "cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1),
                   be("E", "cuda_runtime", "cudaLaunchKernel", 1, 1, 2, 1), be("B", "kernel", "gemm", 0, 7, 10, 1),
                   be("E", "kernel", "gemm", 0, 7, 50, 1), event("cpu_op", "aten::after", 1, 1, 2, 20)});
        const Both from_x = eval(read(x), {"gemm=2"});
        const Both from_b_e = eval(read(b_e), {"gemm=2"});
        CHECK(from_b_e.replay.after == from_x.replay.after);
        CHECK(mentions(from_b_e.replay, "1 GPU event linked to its runtime call"));
    }
    SECTION("a device synchronize waits for work with no known launch that ends inside it") {
        const Profile profile = read(trace({
            event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 3, 11),  // ids that match no GPU work
            event("kernel", "gemm", 0, 7, 5, 100, 1),
            event("cuda_runtime", "cudaLaunchKernel", 1, 1, 10, 3, 12),
            event("kernel", "attn", 0, 7, 106, 100, 2),
            event("cuda_runtime", "cudaLaunchKernel", 1, 1, 20, 3, 13),
            event("kernel", "ln", 0, 7, 207, 10, 3),
            event("cuda_runtime", "cudaDeviceSynchronize", 1, 1, 30, 190),
        }));
        // ln ends at 112 and the synchronize 3 us later (was 170: it waited for gemm only, the
        // one that started before it, and kept the rest of its recorded wait).
        CHECK(eval(profile, {"*=2"}).replay.after == Approx(115));
    }
    SECTION("a blocking copy waits for every copy of its id, and its own part follows its factor") {
        // cudaMemcpy [5, 55] waits for two copies of its id, [10, 25] and [25, 50], then takes 5 us.
        const Profile profile = read(trace({
                                         event("cpu_op", "aten::copy_", 1, 1, 0, 60),
                                         event("cuda_runtime", "cudaMemcpy", 1, 1, 5, 50, 1),
                                         event("gpu_memcpy", "Memcpy DtoH", 0, 7, 10, 15, 1),
                                         event("gpu_memcpy", "Memcpy DtoH", 0, 7, 25, 25, 1),
                                         event("cpu_op", "aten::after", 1, 1, 60, 100),
                                     }),
                                     Lane::all);
        CHECK(eval(profile, {"Memcpy DtoH=2"}).replay.after == Approx(140));
        CHECK(eval(profile, {"Memcpy DtoH=0.1"}).replay.after == Approx(520));  // was 410: it waited for one
        // Its 5 us after the copies become 50 us, or nothing (was: 160 us whatever the factor).
        CHECK(eval(profile, {"cudaMemcpy=0.1"}).replay.after == Approx(205));
        CHECK(eval(profile, {"cudaMemcpy=inf"}).replay.after == Approx(155));
    }
}

TEST_CASE("replay: the reason fits the case", "[replay][hostile][cli]") {
    const std::string cpu_only = test::write_temp(
        "replay_cpu_only.json", trace({event("cpu_op", "opA", 1, 1, 0, 100), event("cpu_op", "opA2", 1, 1, 200, 100),
                                       event("cpu_op", "opB", 1, 2, 100, 50)}));
    const auto cpu = test::run_cli({"eval", cpu_only, "-s", "opB=2", "--model", "replay"});
    CHECK(cpu.exit_code == 0);
    CHECK_THAT(cpu.out, !Contains("host-bound"));  // no GPU at all
    const std::string sim = test::source_path("tests/data/profilers/handmade/replay_sim_3steps.json");
    const auto slower = test::run_cli({"eval", sim, "-s", "gemm=0.5", "--model", "replay"});
    CHECK(slower.exit_code == 0);
    CHECK_THAT(slower.out, Contains("the replay loses less"));
    CHECK_THAT(slower.out, !Contains("gains"));
}

TEST_CASE("replay: steps the CPU spans set are called host-bound, and streams that drift apart are said",
          "[replay][window][cli]") {
    // CPU steps [0, 1000), [1000, 2000), [2000, 3000); GPU copies of 1400, 1100 and 900 us, gemm
    // then relu on one stream. gemm 2x faster: the GPU copies become [100, 1000), [1000, 1700),
    // [1700, 2300): 900, 700 and 600 us, all shorter than the CPU spans, which set every step:
    // 1400 -> 1000, 1100 -> 1000, 1000 -> 1000.
    const auto replay_steps = [](const std::string& file, const std::string& spec) {
        return test::run_cli({"eval", test::source_path("tests/data/profilers/handmade/" + file), "--window",
                              "ProfilerStep#.*", "-s", spec, "--model", "replay", "--phases", "none"});
    };
    const auto r = replay_steps("steps_host_bound_replay.json", "gemm=2");
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("replayed speedup:     1.1667x"));
    CHECK_THAT(r.out, Contains("why it differs:       host-bound: every replayed step lasts as long as its CPU span "
                               "(1,000.0 us per step), longer than its GPU copy (733.3333 us); faster GPU work "
                               "shortens the GPU copies, not the host's work that now sets the step (the phase "
                               "table's figures follow)\n"));
    CHECK_THAT(r.out, !Contains("relu"));  // not "'relu' on stream 7 ... holds 45.5% of the critical path"

    // No event ends later, yet the mean step is longer (see "each stream's copy of a step moves
    // with its own events"): not "the slower work also holds back the work that depends on it".
    const auto d = replay_steps("steps_two_streams_drift.json", "k8=2");
    CHECK(d.exit_code == 0);
    CHECK_THAT(d.out, Contains("step time:            1,116.6667 us -> 1,183.3333 us"));
    CHECK_THAT(d.out, Contains("why it differs:       the steps' GPU copies drift apart: the sped-up work moves "
                               "earlier on its streams while the same steps' work on other streams does not, and a "
                               "step spans its copies on every stream; no event ends later (the whole trace: 2,850.0 "
                               "-> 2,800.0 us) (the phase table's figures follow)\n"));
}

// Kineto's cuda_sync markers say what a synchronizing call waited for; without them, replay
// infers it from the call's name and the GPU work that ended inside the call, which is ambiguous
// when work of several streams ends there. Each case below is one the inference gets wrong.
TEST_CASE("replay: a Stream Sync marker says which stream the call waited for", "[replay][cuda-sync]") {
    // k1 on stream 7 [10,101], k2 on stream 8 [15,100]; cudaStreamSynchronize [12,102] waited for
    // stream 8. Both kernels end inside the call: the inference picks k1, which ended last.
    std::vector<std::string> events = {
        event("cuda_runtime", "cudaLaunchKernel", 100, 100, 0, 5, 1),
        event("cuda_runtime", "cudaLaunchKernel", 100, 100, 5, 5, 2),
        event("cuda_runtime", "cudaStreamSynchronize", 100, 100, 12, 90, 3),
        event("cpu_op", "post", 100, 100, 102, 10),
        event("kernel", "k1", 0, 7, 10, 91, 1),
        event("kernel", "k2", 0, 8, 15, 85, 2),
    };
    const std::string marker = sync_marker("Stream Sync", 8, 100, 2, 3, "\"stream\": 8");
    SECTION("with the marker: k2 2x faster ends the wait at 57.5 + 2, post at 69.5, k1 at 101") {
        events.push_back(marker);
        const Both r = eval(read(trace(events)), {"k2=2"});
        CHECK(r.replay.before == Approx(112));
        CHECK(r.replay.after == Approx(101));
        CHECK(r.replay.speedup == Approx(112.0 / 101.0));
        CHECK(mentions(r.replay, "1 read from the trace's cuda_sync events"));
        CHECK(mentions(r.replay, "0 inferred from runtime calls"));
    }
    SECTION("without it: the call is taken to wait for k1, and nothing is gained") {
        const Both r = eval(read(trace(events)), {"k2=2"});
        CHECK(r.replay.after == Approx(112));
        CHECK(mentions(r.replay, "inferred from 1 runtime call"));
        CHECK(mentions(r.replay, "the trace has no cuda_sync events"));
        CHECK(mentions(r.replay, "1 synchronizing call had work of several streams end inside it"));
    }
}

TEST_CASE("replay: an Event Sync marker waits for the work its event recorded", "[replay][cuda-sync]") {
    // kA on stream 7 [10,50] is recorded by the event (cudaEventRecord, correlation 2); kC on
    // stream 8 [20,51] is not. cudaEventSynchronize [14,52] waited for kA.
    std::vector<std::string> events = {
        event("cuda_runtime", "cudaLaunchKernel", 100, 100, 0, 5, 1),
        event("cuda_runtime", "cudaEventRecord", 100, 100, 5, 3, 2),
        event("cuda_runtime", "cudaLaunchKernel", 100, 100, 8, 4, 3),
        event("cuda_runtime", "cudaEventSynchronize", 100, 100, 14, 38, 4),
        event("cpu_op", "post", 100, 100, 52, 10),
        event("kernel", "kA", 0, 7, 10, 40, 1),
        event("kernel", "kC", 0, 8, 20, 31, 3),
    };
    SECTION("kA 2x faster: the wait ends at 30 + 2, post at 42, kC still at 51") {
        events.push_back(
            sync_marker("Event Sync", -1, 50, 2, 4,
                        "\"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 2, \"stream\": -1"));
        const Both r = eval(read(trace(events)), {"kA=2"});
        CHECK(r.replay.before == Approx(62));
        CHECK(r.replay.after == Approx(51));
        CHECK(r.replay.speedup == Approx(62.0 / 51.0));
    }
    SECTION("an event recorded by a call the trace lacks: the last work on its stream that ended by then, said") {
        events.erase(events.begin() + 1);  // the cudaEventRecord call
        events.push_back(
            sync_marker("Event Sync", -1, 50, 2, 4,
                        "\"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 2, \"stream\": -1"));
        const Both r = eval(read(trace(events)), {"kA=2"});
        CHECK(r.replay.after == Approx(51));
        CHECK(mentions(r.replay, "1 wait on a CUDA event whose cudaEventRecord call is not in the trace"));
    }
    SECTION("an event never recorded: the call waits for nothing and keeps its recorded time, said") {
        events.push_back(sync_marker("Event Sync", -1, 50, 2, 4,
                                     "\"wait_on_stream\": -1, \"wait_on_cuda_event_record_corr_id\": -1"));
        const Both r = eval(read(trace(events)), {"kA=2"});
        CHECK(r.replay.after == Approx(62));
        CHECK(mentions(r.replay, "1 event sync waited on an event never recorded"));
    }
    SECTION("without a marker: the call is taken to wait for kC, which ended last inside it") {
        const Both r = eval(read(trace(events)), {"kA=2"});
        CHECK(r.replay.after == Approx(62));
    }
}

TEST_CASE("replay: a Stream Wait Event marker links work on two streams", "[replay][cuda-sync]") {
    // kA on stream 7 [10,50] is recorded; stream 8 waits for it (cudaStreamWaitEvent), then kD is
    // launched there at 10 and starts at 51, a microsecond after kA ended: the wait held it, not
    // its launch. cudaDeviceSynchronize [16,82] waits for both streams.
    std::vector<std::string> events = {
        event("cuda_runtime", "cudaLaunchKernel", 100, 100, 0, 5, 1),
        event("cuda_runtime", "cudaEventRecord", 100, 100, 5, 3, 2),
        event("cuda_runtime", "cudaStreamWaitEvent", 100, 100, 8, 2, 3),
        event("cuda_runtime", "cudaLaunchKernel", 100, 100, 10, 4, 4),
        event("cuda_runtime", "cudaDeviceSynchronize", 100, 100, 16, 66, 5),
        event("cpu_op", "post", 100, 100, 82, 10),
        event("kernel", "kA", 0, 7, 10, 40, 1),
        event("kernel", "kD", 0, 8, 51, 30, 4),
        sync_marker("Context Sync", -1, 81, 1, 5, "\"stream\": -1"),
    };
    SECTION("kA 2x faster pulls kD in: kD [31,61], the synchronize ends at 62, post at 72") {
        events.push_back(sync_marker("Stream Wait Event", 8, 9, 1, 3,
                                     "\"stream\": 8, \"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 2"));
        const Profile profile = read(trace(events));
        const Both same = eval(profile, {"kA=1"});
        CHECK(same.replay.after == same.replay.before);
        const Both r = eval(profile, {"kA=2"});
        CHECK(r.replay.before == Approx(92));
        CHECK(r.replay.after == Approx(72));
        CHECK(mentions(r.replay, "1 stream wait between streams"));
        CHECK(mentions(r.replay, "1 read from the trace's cuda_sync events"));
    }
    SECTION("without it, kD is taken as held by its launch, and nothing is gained") {
        const Both r = eval(read(trace(events)), {"kA=2"});
        CHECK(r.replay.after == Approx(92));
    }
}

TEST_CASE("replay: Kineto's ac2g flows link launches the args do not", "[replay][cuda-sync]") {
    // prep [0,10] then a launch [10,15] of k [20,30]; cudaDeviceSynchronize [16,31]; post [31,41].
    // No correlation ids: only the flow says which call launched k.
    std::vector<std::string> events = {
        event("cpu_op", "prep", 100, 100, 0, 10),
        event("cuda_runtime", "cudaLaunchKernel", 100, 100, 10, 5),
        event("cuda_runtime", "cudaDeviceSynchronize", 100, 100, 16, 15),
        event("cpu_op", "post", 100, 100, 31, 10),
        event("kernel", "k", 0, 7, 20, 10),
    };
    SECTION("with the flow: prep 2x faster moves the launch, k and the rest 5 us earlier") {
        events.push_back(flow('s', 9, 100, 100, 10));
        events.push_back(flow('f', 9, 0, 7, 20));
        const Both r = eval(read(trace(events), Lane::cpu), {"prep=2"});
        CHECK(r.replay.after == Approx(36));
        CHECK(mentions(r.replay, "launches: 1 GPU event linked to its runtime call (by the trace's ac2g flows"));
    }
    SECTION("without it, k keeps its recorded start and the synchronize still ends at 31") {
        const Both r = eval(read(trace(events), Lane::cpu), {"prep=2"});
        CHECK(r.replay.after == Approx(41));
        CHECK(mentions(r.replay, "launches: none linked"));
    }
    SECTION("a flow that ends on no GPU work links nothing") {
        events.push_back(flow('s', 9, 100, 100, 10));
        events.push_back(flow('f', 9, 0, 7, 21));
        const Both r = eval(read(trace(events), Lane::cpu), {"prep=2"});
        CHECK(r.replay.after == Approx(41));
    }
}

TEST_CASE("replay: cuda_sync markers are never phases", "[replay][cuda-sync][cli]") {
    const std::string path = test::write_temp(
        "sync.json",
        trace({event("cuda_runtime", "cudaStreamSynchronize", 100, 100, 0, 10, 3), event("kernel", "k", 0, 7, 0, 9, 1),
               sync_marker("Stream Sync", 7, 8, 2, 3, "\"stream\": 7")}));
    const test::RunResult r = test::run_cli({"import", path, "--lane", "all"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, !Contains("Stream Sync"));
    CHECK_THAT(r.err, Contains("1 event (cat cuda_sync) marks where the CPU waited for the GPU"));
}

// Two steps of 100 us, each: prep [0,40], a launch, a synchronize that waits for k [45,95], post
// [96,100]; then 200 us of teardown outside every step. With k twice as fast a step takes 75 us.
std::string two_steps() {
    std::vector<std::string> events;
    for (int i = 0; i < 2; ++i) {
        const double o = 100.0 * i;
        const std::string step = "ProfilerStep#" + std::to_string(i + 1);
        events.push_back(event("user_annotation", step.c_str(), 100, 100, o, 100));
        events.push_back(event("gpu_user_annotation", step.c_str(), 0, 7, o + 45, 50));
        events.push_back(event("cpu_op", "prep", 100, 100, o, 40));
        events.push_back(event("cuda_runtime", "cudaLaunchKernel", 100, 100, o + 40, 2, i + 1));
        events.push_back(event("cuda_runtime", "cudaDeviceSynchronize", 100, 100, o + 42, 54));
        events.push_back(event("cpu_op", "post", 100, 100, o + 96, 4));
        events.push_back(event("kernel", "k", 0, 7, o + 45, 50, i + 1));
    }
    events.push_back(event("cpu_op", "teardown", 100, 100, 200, 200));
    return trace(events);
}

Profile read_steps(const std::string& text, const std::string& step = "") {
    ImportOptions options;
    options.dependencies = true;
    options.window = "ProfilerStep*";
    options.step = step;
    return parse_profile(text, "t.json", InputFormat::chrome_trace, options);
}

TEST_CASE("replay: with --window a step's time is replayed, not the trace's makespan", "[replay][window]") {
    const Profile profile = read_steps(two_steps());
    SECTION("factor 1 gives back every step") {
        const Both same = eval(profile, {"k=1"});
        REQUIRE(same.replay.steps.size() == 2);
        for (const ReplayedStep& step : same.replay.steps) CHECK(step.new_time == step.time);
        CHECK(same.replay.before == Approx(100));
        CHECK(same.replay.after == same.replay.before);
    }
    SECTION("k 2x faster: each step's span moves with its events, 75 us; the makespan only 400 -> 350") {
        const Both r = eval(profile, {"k=2"});
        REQUIRE(r.replay.steps.size() == 2);
        CHECK(r.replay.steps[0].name == "ProfilerStep#1");
        CHECK(r.replay.steps[0].time == Approx(100));
        CHECK(r.replay.steps[0].new_time == Approx(75));
        CHECK(r.replay.steps[1].new_time == Approx(75));
        CHECK(r.replay.speedup == Approx(100.0 / 75.0));
        CHECK(r.replay.makespan_before == Approx(400));
        CHECK(r.replay.makespan_after == Approx(350));
        // The phase table (the GPU lane, per step) agrees: k is all of the lane's busy time.
        CHECK(r.amdahl.baseline_time == Approx(100));
    }
    SECTION("--step picks one step") {
        const Both r = eval(read_steps(two_steps(), "2"), {"k=2"});
        REQUIRE(r.replay.steps.size() == 1);
        CHECK(r.replay.steps[0].name == "ProfilerStep#2");
        CHECK(r.replay.after == Approx(75));
    }
}

TEST_CASE("replay: each stream's copy of a step moves with its own events, the step spans their hull",
          "[replay][window]") {
    // Stream 7 runs k7 in [100, 900), [1100, 1900), [2100, 2900); stream 8 runs k8 in [200, 1500),
    // [1500, 2200), [2200, 2950), each kernel the copy of its step on its stream. No launches: each
    // kernel after the first on its stream keeps its gap (0) to the one before it.
    const std::string path = test::source_path("tests/data/profilers/handmade/steps_two_streams_drift.json");
    const Profile profile = read_steps(test::read_file(path));
    const Both same = eval(profile, {"k8=1"});
    REQUIRE(same.replay.steps.size() == 3);
    for (const ReplayedStep& step : same.replay.steps) CHECK(step.new_time == step.time);
    // k8 2x faster: stream 8 runs [200, 850), [850, 1200), [1200, 1575); stream 7 is unchanged.
    // Step 1: [100, 900) (not 1400: stream 7's copy, ended at 900, is not stretched to stream 8's
    // recorded end). Step 2: [850, 1900). Step 3: [1200, 2900), longer than its recorded [2100,
    // 2950): stream 8's copy moved earlier and stream 7's did not, and the step spans both.
    const Both r = eval(profile, {"k8=2"});
    REQUIRE(r.replay.steps.size() == 3);
    CHECK(r.replay.steps[0].time == Approx(1400));
    CHECK(r.replay.steps[0].new_time == Approx(800));
    CHECK(r.replay.steps[1].time == Approx(1100));
    CHECK(r.replay.steps[1].new_time == Approx(1050));
    CHECK(r.replay.steps[2].time == Approx(850));
    CHECK(r.replay.steps[2].new_time == Approx(1700));
    CHECK(r.replay.makespan_before == Approx(2850));
    CHECK(r.replay.makespan_after == Approx(2800));
    // The same through a timeline kept by import (each stream's copy is written with the step).
    const test::TempDir dir;
    const std::string kept = dir / "drift_timeline.json";
    const test::RunResult imported =
        test::run_cli({"import", path, "--keep-timeline", "--window", "ProfilerStep#.*", "-o", kept});
    REQUIRE(imported.exit_code == 0);
    const test::RunResult json = test::run_cli({"eval", kept, "-s", "k8=2", "--model", "replay", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto doc = nlohmann::json::parse(json.out);
    REQUIRE(doc["replay"]["steps"].size() == 3);
    CHECK(doc["replay"]["steps"][0]["new_time"].get<double>() == Approx(800));
    CHECK(doc["replay"]["steps"][2]["new_time"].get<double>() == Approx(1700));
}

TEST_CASE("replay: a stream's copy of a step that encloses no event stays where it was", "[replay][window]") {
    // Step 1's copy on stream 7, [100, 900), encloses no kernel; stream 8's, [200, 1500), encloses
    // k8. The step lasts 1400 us (the hull of both). Found by fuzz_chrome_trace: the empty copy was
    // left out of the replay, so every factor 1 gave step 1 1300 us (stream 8's copy alone).
    const std::string text = R"({"traceEvents": [
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7, "ts": 100, "dur": 800},
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#2", "pid": 0, "tid": 7, "ts": 1600, "dur": 800},
{"ph": "X", "cat": "kernel", "name": "k7", "pid": 0, "tid": 7, "ts": 1600, "dur": 800},
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 8, "ts": 200, "dur": 1300},
{"ph": "X", "cat": "kernel", "name": "k8", "pid": 0, "tid": 8, "ts": 200, "dur": 1300},
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#2", "pid": 0, "tid": 8, "ts": 1600, "dur": 700},
{"ph": "X", "cat": "kernel", "name": "k8", "pid": 0, "tid": 8, "ts": 1600, "dur": 700}
]})";
    const Profile profile = read_steps(text);
    const Both same = eval(profile, {"k8=1"});
    REQUIRE(same.replay.steps.size() == 2);
    CHECK(same.replay.steps[0].time == Approx(1400));
    CHECK(same.replay.steps[0].new_time == Approx(1400));
    CHECK(same.replay.steps[1].new_time == Approx(same.replay.steps[1].time));
    CHECK(same.replay.speedup == Approx(1.0));
    // k8 2x faster: stream 8's copy of step 1 becomes [200, 850); stream 7's stays [100, 900).
    const Both faster = eval(profile, {"k8=2"});
    CHECK(faster.replay.steps[0].new_time == Approx(800));
    // The same through a timeline kept by import: the copy that stays is written with the step.
    const test::TempDir dir;
    const std::string path = test::write_temp("empty_copy.json", text);
    const std::string kept = dir / "empty_copy_timeline.json";
    REQUIRE(test::run_cli({"import", path, "--keep-timeline", "--window", "ProfilerStep#.*", "-o", kept}).exit_code ==
            0);
    for (const char* factor : {"k8=1", "k8=2"}) {
        const test::RunResult json =
            test::run_cli({"eval", kept, "-s", factor, "--model", "replay", "--format", "json"});
        REQUIRE(json.exit_code == 0);
        const auto doc = nlohmann::json::parse(json.out);
        REQUIRE(doc["replay"]["steps"].size() == 2);
        CHECK(doc["replay"]["steps"][0]["new_time"].get<double>() ==
              Approx(factor == std::string("k8=1") ? 1400 : 800));
    }
    // A damaged list of copies is an error that names the place.
    const auto doc = nlohmann::json::parse(test::read_file(kept));
    REQUIRE(doc["timeline"]["steps"][0]["gpu"]["still"] ==
            nlohmann::json::parse("[[0, 800]]"));  // from the first event, 100 us
    const auto damaged = [&](const std::function<void(nlohmann::json&)>& damage) {
        nlohmann::json copy = doc;
        damage(copy["timeline"]["steps"][0]["gpu"]);
        const std::string file = test::write_temp("damaged_still.json", copy.dump());
        return test::run_cli({"eval", file, "-s", "k8=2", "--model", "replay"});
    };
    const auto backwards = damaged([](nlohmann::json& gpu) { gpu["still"][0] = {800, 0}; });
    CHECK(backwards.exit_code == 2);
    CHECK_THAT(backwards.err, Contains(": timeline.steps[0].gpu.still[0]: ends before it starts"));
    const auto form = damaged([](nlohmann::json& gpu) { gpu["still"] = 5; });
    CHECK(form.exit_code == 2);
    CHECK_THAT(form.err, Contains(": timeline.steps[0].gpu.still: expected an array"));
    const auto outside = damaged([](nlohmann::json& gpu) { gpu["still"][0] = {-1e6, 800}; });
    CHECK(outside.exit_code == 2);
    CHECK_THAT(outside.err, Contains(": timeline.steps[0].gpu.still[0]: lies outside the step's span [0, 1400]"));
    const auto copy_outside = damaged([](nlohmann::json& gpu) { gpu["copies"][0] = {100, 1e300}; });
    CHECK(copy_outside.exit_code == 2);
    CHECK_THAT(copy_outside.err, Contains(": timeline.steps[0].gpu.copies[0]: lies outside the step's span"));
    auto cpu_still = doc;
    cpu_still["timeline"]["steps"][0]["cpu"] = {
        {"span", {0, 100}}, {"enclosed", nlohmann::json::array()}, {"still", {{0, 100}}}};
    const auto on_cpu = test::run_cli(
        {"eval", test::write_temp("cpu_still.json", cpu_still.dump()), "-s", "k8=2", "--model", "replay"});
    CHECK(on_cpu.exit_code == 2);
    CHECK_THAT(on_cpu.err, Contains(": timeline.steps[0].cpu.still: a CPU span is one thread's: only the GPU copy "
                                    "has streams' copies"));
    // A timeline kept before the still copies were written: refused, not replayed as 1.0476x.
    const auto old = damaged([](nlohmann::json& gpu) { gpu.erase("still"); });
    CHECK(old.exit_code == 2);
    CHECK_THAT(old.err, Contains(": timeline.steps[0].gpu: the streams' copies cover [100, 1400], not the step's "
                                 "span [0, 1400] (a timeline kept by an amdahl before 2026-12-04 leaves out the "
                                 "copies that enclose no event, \"still\": import the trace again)"));
    const auto count = damaged([](nlohmann::json& gpu) { gpu["copies"].push_back({1, 2}); });
    CHECK(count.exit_code == 2);
    CHECK_THAT(count.err, Contains(": timeline.steps[0].gpu.copies: expected one [start, end] per enclosed pair (1), "
                                   "got 2"));
    // And on the command line: no change, no speedup.
    const test::RunResult cli = test::run_cli(
        {"eval", path, "-s", "k8=1", "--model", "replay", "--phases", "none", "--window", "ProfilerStep"});
    CHECK(cli.exit_code == 0);
    CHECK_THAT(cli.out, Contains("step time:            1,100.0 us -> 1,100.0 us"));
    CHECK_THAT(cli.out, Contains("replayed speedup:     1.0000x"));
}

TEST_CASE("replay: a copy that starts inside a kernel ending inside it moves with that kernel", "[replay][window]") {
    // Stream 7: ka [100, 600), its copy of step 1 [400, 900) starts inside ka, which ends inside
    // the copy, and no kernel starts in it. Stream 8: kb [100, 300) and its copy [100, 300). Found
    // by a hostile test: the copy was taken to enclose nothing, so ka 100x left the step at 800 us.
    // ka 100x: ka runs [100, 105); the copy starts as far into ka as it did (at most to its end:
    // 105) and keeps its 300 us tail after ka: [105, 405). Step 1: the hull [100, 405), 305 us.
    const std::string text = R"({"traceEvents": [
{"ph": "X", "cat": "kernel", "name": "ka", "pid": 0, "tid": 7, "ts": 100, "dur": 500},
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7, "ts": 400, "dur": 500},
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 8, "ts": 100, "dur": 200},
{"ph": "X", "cat": "kernel", "name": "kb", "pid": 0, "tid": 8, "ts": 100, "dur": 200}
]})";
    const Profile profile = read_steps(text);
    const Both same = eval(profile, {"ka=1"});
    REQUIRE(same.replay.steps.size() == 1);
    CHECK(same.replay.steps[0].new_time == Approx(800));
    const Both faster = eval(profile, {"ka=100"});
    CHECK(faster.replay.steps[0].time == Approx(800));
    CHECK(faster.replay.steps[0].new_time == Approx(305));
}

TEST_CASE("replay: a stream that holds a step's copy and no kernel at all keeps that copy in the step",
          "[replay][window]") {
    // Stream 9 holds only its copy of step 1, [0, 1000); stream 8 runs kb [100, 300) in its copy
    // [100, 300). The step lasts 1000 us whatever kb does: nothing on stream 9 moves.
    const std::string text = R"({"traceEvents": [
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 9, "ts": 0, "dur": 1000},
{"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 8, "ts": 100, "dur": 200},
{"ph": "X", "cat": "kernel", "name": "kb", "pid": 0, "tid": 8, "ts": 100, "dur": 200}
]})";
    const Profile profile = read_steps(text);
    for (const char* spec : {"kb=1", "kb=4"}) {
        INFO(spec);
        const Both r = eval(profile, {spec});
        REQUIRE(r.replay.steps.size() == 1);
        CHECK(r.replay.steps[0].time == Approx(1000));
        CHECK(r.replay.steps[0].new_time == Approx(1000));
    }
}

TEST_CASE("replay: on random traces a faster kernel never makes the run longer, nor a step on one stream",
          "[replay][window]") {
    std::mt19937 rng(21);
    const auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    for (int round = 0; round < 80; ++round) {
        const int steps = pick(1, 4), streams = pick(1, 3);
        const bool empty = round % 2 == 1;  // some steps' copies enclose no kernel
        const std::string text = test::random_stream_steps(rng, steps, streams, false, empty);
        INFO("round " << round << ": " << text);
        if (text.find("\"kernel\"") == std::string::npos) continue;  // every copy empty: nothing to replay
        const Profile profile = read_steps(text);
        std::vector<std::string> kernels;
        for (const Phase& phase : profile.phases)
            if (phase.kind == "kernel") kernels.push_back(phase.name);
        REQUIRE(!kernels.empty());
        const std::string kernel = kernels[static_cast<std::size_t>(pick(0, static_cast<int>(kernels.size()) - 1))];
        const Both same = eval(profile, {kernel + "=1"});
        for (const ReplayedStep& step : same.replay.steps) CHECK(step.new_time == step.time);
        const std::string spec = kernel + "=" + std::to_string(pick(2, 4));
        INFO(spec);
        const Both r = eval(profile, {spec});
        CHECK(r.replay.makespan_after <= r.replay.makespan_before);
        // One stream: its kernels keep their order and gaps, so no step gets longer. (Over several
        // streams a step's copies can drift apart and the step with them; see above.)
        if (streams == 1)
            for (const ReplayedStep& step : r.replay.steps) CHECK(step.new_time <= Approx(step.time));
    }
}

TEST_CASE("replay: --window on the command line", "[replay][window][cli]") {
    const std::string path = test::write_temp("two_steps.json", two_steps());
    const test::RunResult text = test::run_cli(
        {"eval", path, "-s", "k=2", "--model", "replay", "--window", "ProfilerStep*", "--phases", "none"});
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out,
               Contains("step time:            100.0 us -> 75.0 us (the mean of 2 steps, each the longer of its "
                        "CPU span and GPU copy"));
    CHECK_THAT(text.out, Contains("replayed speedup:     1.3333x"));
    const test::RunResult json = test::run_cli(
        {"eval", path, "-s", "k=2", "--model", "replay", "--window", "ProfilerStep*", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto doc = nlohmann::json::parse(json.out);
    CHECK(doc["step_time"].get<double>() == Approx(100));
    CHECK(doc["new_step_time"].get<double>() == Approx(75));
    CHECK(doc["replay"]["makespan"].get<double>() == Approx(400));
    REQUIRE(doc["replay"]["steps"].size() == 2);
    CHECK(doc["replay"]["steps"][1]["name"] == "ProfilerStep#2");
    CHECK(doc["replay"]["steps"][1]["new_time"].get<double>() == Approx(75));
    const test::RunResult rank =
        test::run_cli({"rank", path, "--model", "replay", "--window", "ProfilerStep*", "-k", "2"});
    CHECK(rank.exit_code == 0);
    CHECK_THAT(rank.out, Contains("are over the mean step, 100.0 us"));
}

TEST_CASE("replay: plan --model replay replays each set together", "[replay][plan][cli]") {
    // gemm on stream 7 [0,100], a copy on stream 8 [50,150]: only the copy moves the end.
    const std::string path =
        test::write_temp("two_streams_plan.json",
                         trace({event("kernel", "gemm", 0, 7, 0, 100), event("gpu_memcpy", "copy", 0, 8, 50, 100)}));
    SECTION("the copy alone reaches 1.4x (150 -> 100 us); gemm alone gains nothing") {
        const test::RunResult r =
            test::run_cli({"plan", path, "--model", "replay", "--target", "1.4", "-k", "2", "--format", "json"});
        REQUIRE(r.exit_code == 0);
        const auto doc = nlohmann::json::parse(r.out);
        CHECK(doc["model"] == "replay");
        CHECK(doc["baseline_time"].get<double>() == Approx(150));
        CHECK(doc["reachable"] == true);
        CHECK(doc["optimal"] == true);
        REQUIRE(doc["chosen"].size() == 1);
        CHECK(doc["chosen"][0] == "copy");
        CHECK(doc["new_time"].get<double>() == Approx(100));
        CHECK(doc["speedup"].get<double>() == Approx(1.5));
        CHECK(doc["steps"][0]["saved"].get<double>() == Approx(50));
    }
    SECTION("1.6x is out of reach: both at 2x end at 100 us, 1.5x") {
        const test::RunResult r = test::run_cli({"plan", path, "--model", "replay", "--target", "1.6", "-k", "2"});
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("unreachable"));
        CHECK_THAT(r.out, Contains("best possible: 1.5000x (every candidate at its factor)"));
        const test::RunResult gate =
            test::run_cli({"plan", path, "--model", "replay", "--target", "1.6", "-k", "2", "--require"});
        CHECK(gate.exit_code == 1);
    }
    SECTION("proposals on one phase are alternatives: the cheaper that reaches, never both") {
        const test::RunResult r =
            test::run_cli({"plan", path, "--model", "replay", "--target", "1.4", "-s", "copy=2@1", "-s", "copy=4@3",
                           "-s", "gemm=8@1", "--by", "effort", "--format", "json"});
        REQUIRE(r.exit_code == 0);
        const auto doc = nlohmann::json::parse(r.out);
        REQUIRE(doc["chosen"].size() == 1);
        CHECK(doc["chosen"][0] == "copy=2@1");
        CHECK(doc["cost"].get<double>() == Approx(1));
        CHECK(doc["optimal"] == true);
        // Best possible takes one of the two copy proposals, the one whose events lose most (4x:
        // the copy [50,75]), and gemm at 8x ([0,12.5]): 150 -> 75 us.
        CHECK(doc["best_possible"].get<double>() == Approx(2.0));
    }
    SECTION("--explain has no closed form to show") {
        const test::RunResult r =
            test::run_cli({"plan", path, "--model", "replay", "--target", "1.4", "-k", "2", "--explain"});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("--explain: shows Amdahl's arithmetic; --model replay has no closed form to show"));
    }
}

TEST_CASE("replay: a replayed plan's time is what eval --model replay gives for its set", "[replay][plan][cli]") {
    const std::string sim = test::source_path("tests/data/profilers/handmade/replay_sim_3steps.json");
    const test::RunResult r =
        test::run_cli({"plan", sim, "--model", "replay", "--target", "1.05", "-k", "2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    REQUIRE(doc["reachable"] == true);
    // The phase table's Amdahl plan reaches 1.05x with gemm alone; replayed, gemm alone is 1.034x.
    CHECK(doc["chosen"].size() == 2);
    std::vector<std::string> args = {"eval", sim, "--model", "replay", "--format", "json"};
    for (const auto& name : doc["chosen"]) {
        args.push_back("-s");
        args.push_back(name.get<std::string>() + "=2");
    }
    const test::RunResult eval = test::run_cli(args);
    REQUIRE(eval.exit_code == 0);
    const auto replayed = nlohmann::json::parse(eval.out);
    CHECK(replayed["new_step_time"].get<double>() == Approx(doc["new_time"].get<double>()));
    const auto& steps = doc["steps"];
    CHECK(steps[steps.size() - 1]["new_time"].get<double>() == Approx(doc["new_time"].get<double>()));
    CHECK(steps[0]["new_time"].get<double>() >= steps[1]["new_time"].get<double>());
}

// Found by a hostile tester: each was a wrong number or a wrong word with exit 0.
TEST_CASE("replay: hostile cases of cuda_sync, flows, steps and plans", "[replay][hostile][cuda-sync]") {
    SECTION("a plan the budget cannot prove still answers, and a bound that meets it proves it") {
        // 25 kernels of 10 us back to back: 1.3x needs 12 of them at 2x (250 -> 190 us).
        std::vector<std::string> events;
        for (int i = 0; i < 25; ++i)
            events.push_back(event("kernel", ("k" + std::to_string(100 + i)).c_str(), 0, 7, 10.0 * i, 10));
        const std::string path = test::write_temp("p25flat.json", trace(events));
        const test::RunResult r =
            test::run_cli({"plan", path, "--model", "replay", "--target", "1.3", "-k", "2", "--format", "json"});
        REQUIRE(r.exit_code == 0);
        const auto doc = nlohmann::json::parse(r.out);
        CHECK(doc["reachable"] == true);
        CHECK(doc["chosen"].size() == 12);
        CHECK(doc["optimal"] == true);
        CHECK(doc["new_time"].get<double>() == Approx(190));
    }
    SECTION("a replayed plan's steps say what each adds") {
        const std::string path = test::write_temp(
            "two50.json", trace({event("kernel", "a", 0, 7, 0, 50), event("kernel", "b", 0, 8, 0, 50)}));
        const test::RunResult r =
            test::run_cli({"plan", path, "--model", "replay", "--target", "1.5", "-k", "2", "--format", "json"});
        REQUIRE(r.exit_code == 0);
        const auto doc = nlohmann::json::parse(r.out);
        REQUIRE(doc["steps"].size() == 2);
        CHECK(doc["steps"][0]["saved"].get<double>() == Approx(0));
        CHECK(doc["steps"][1]["saved"].get<double>() == Approx(25));
        CHECK(doc["steps"][1]["new_time"].get<double>() == Approx(25));
    }
    SECTION("a step boundary inside an event moves with it: a faster op is no slowdown") {
        const std::string text = trace({
            event("user_annotation", "ProfilerStep#1", 1, 1, 0, 30),
            event("cuda_runtime", "cudaLaunchKernel", 1, 1, 1, 4, 1),
            event("kernel", "gemm", 0, 7, 6, 100, 1),
            event("cpu_op", "aten::mm", 1, 1, 20, 50),
            event("user_annotation", "ProfilerStep#2", 1, 1, 30, 80),
            event("cuda_runtime", "cudaStreamSynchronize", 1, 1, 72, 35, 2),
            sync_marker("Stream Sync", 7, 100, 6, 2, "\"stream\": 7"),
        });
        ImportOptions options;
        options.dependencies = true;
        options.lane = Lane::all;
        options.window = "ProfilerStep*";
        const Profile profile = parse_profile(text, "t.json", InputFormat::chrome_trace, options);
        const Both r = eval(profile, {"aten::mm=2"});
        CHECK(r.replay.speedup >= 1.0);
        REQUIRE(r.replay.steps.size() == 2);
        CHECK(r.replay.steps[1].new_time == Approx(80));
    }
    SECTION("flow ids that several launches share link nothing, and say so") {
        const Both r = eval(
            read(trace({event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 5), event("cpu_op", "host", 1, 1, 5, 55),
                        event("cuda_runtime", "cudaLaunchKernel", 1, 1, 60, 5), event("kernel", "a", 0, 7, 5, 10),
                        event("kernel", "gemm", 0, 7, 65, 50), flow('s', 1, 1, 1, 0), flow('s', 1, 1, 1, 60),
                        flow('f', 1, 0, 7, 5), flow('f', 1, 0, 7, 65)}),
                 Lane::all),
            {"host=2"});
        CHECK(mentions(r.replay, "1 flow id is used by several ac2g flows"));
        CHECK(mentions(r.replay, "launches: none linked"));
    }
    SECTION("a Stream Sync on a stream the trace lacks falls back to inference, said") {
        std::vector<std::string> events = {
            event("cpu_op", "step", 1, 1, 0, 125),     event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 5, 1),
            event("kernel", "gemm", 0, 7, 10, 100, 1), event("cuda_runtime", "cudaStreamSynchronize", 1, 1, 10, 105, 2),
            event("cpu_op", "post", 1, 1, 115, 10),    sync_marker("Stream Sync", 99, 100, 5, 2, "\"stream\": 99"),
        };
        const Both r = eval(read(trace(events)), {"gemm=2"});
        CHECK(r.replay.after == Approx(75));
        CHECK(mentions(r.replay, "the trace's cuda_sync event is not read"));
    }
    SECTION("a marker of no runtime call is counted as not read, and the trace has cuda_sync events") {
        const Both r = eval(read(trace({event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 5, 1),
                                        event("kernel", "gemm", 0, 7, 10, 100, 1),
                                        sync_marker("Stream Sync", 7, 100, 5, 999, "\"stream\": 7")})),
                            {"gemm=2"});
        CHECK(mentions(r.replay, "the trace's cuda_sync event is not read"));
        CHECK_FALSE(mentions(r.replay, "the trace has no cuda_sync events"));
    }
    SECTION("one of each is said in the singular") {
        const Both r = eval(read(trace({event("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 5, 1),
                                        event("kernel", "gemm", 0, 7, 10, 100, 1)})),
                            {"gemm=2"});
        CHECK(mentions(r.replay,
                       "launches: 1 GPU event linked to its runtime call (by correlation id); 1 held by "
                       "its launch (first on its stream"));
        CHECK((mentions(r.replay, "(2 self-time segments of CPU events, 1 GPU event)") ||
               mentions(r.replay, "(1 self-time segment of CPU events, 1 GPU event)")));
    }
    SECTION("rank's share is the phase table's, as it says") {
        const std::string sim = test::source_path("tests/data/profilers/handmade/replay_sim_3steps.json");
        const test::RunResult r = test::run_cli({"rank", sim, "--model", "replay", "-k", "2", "--format", "json"});
        REQUIRE(r.exit_code == 0);
        const auto doc = nlohmann::json::parse(r.out);
        CHECK(doc["targets"][0]["name"] == "gemm");
        CHECK(doc["targets"][0]["share"].get<double>() == Approx(123.127 / 653.101));
    }
}

TEST_CASE("replay: import --keep-timeline writes what replay needs", "[replay][keep-timeline][cli]") {
    const std::string sim = test::source_path("tests/data/profilers/handmade/replay_sim_3steps.json");
    const test::TempDir dir;
    const std::string kept = dir / "sim.json";
    const test::RunResult imported = test::run_cli({"import", sim, "--keep-timeline", "-o", kept});
    REQUIRE(imported.exit_code == 0);
    const auto eval_json = [](const std::vector<std::string>& args) {
        const test::RunResult r = test::run_cli(args);
        REQUIRE(r.exit_code == 0);
        return nlohmann::json::parse(r.out);
    };
    SECTION("replaying the file gives what replaying the trace gives, to the last bit") {
        const auto from_trace = eval_json({"eval", sim, "-s", "gemm=2", "--model", "replay", "--format", "json"});
        const auto from_file = eval_json({"eval", kept, "-s", "gemm=2", "--model", "replay", "--format", "json"});
        CHECK(from_file["step_time"].get<double>() == from_trace["step_time"].get<double>());
        CHECK(from_file["new_step_time"].get<double>() == from_trace["new_step_time"].get<double>());
        CHECK(from_file["replay"]["assumptions"] == from_trace["replay"]["assumptions"]);
        // Without --model replay the file is the phase table: Amdahl's answer, as before.
        const auto table = eval_json({"eval", kept, "-s", "gemm=2", "--format", "json"});
        CHECK(table["speedup"].get<double>() == Approx(from_trace["amdahl_speedup"].get<double>()));
    }
    SECTION("with --window, the steps too") {
        const std::string windowed = dir / "steps.json";
        REQUIRE(
            test::run_cli({"import", sim, "--keep-timeline", "--window", "ProfilerStep*", "-o", windowed}).exit_code ==
            0);
        const auto from_trace = eval_json(
            {"eval", sim, "-s", "gemm=2", "--model", "replay", "--window", "ProfilerStep*", "--format", "json"});
        const auto from_file = eval_json({"eval", windowed, "-s", "gemm=2", "--model", "replay", "--format", "json"});
        CHECK(from_file["new_step_time"].get<double>() == from_trace["new_step_time"].get<double>());
        CHECK(from_file["replay"]["steps"] == from_trace["replay"]["steps"]);
    }
    SECTION("rank and plan replay the file too") {
        const test::RunResult rank = test::run_cli({"rank", kept, "--model", "replay", "-k", "2", "--top", "1"});
        CHECK(rank.exit_code == 0);
        CHECK_THAT(rank.out, Contains("gemm"));
        const auto plan =
            eval_json({"plan", kept, "--model", "replay", "--target", "1.05", "-k", "2", "--format", "json"});
        CHECK(plan["chosen"].size() == 2);
    }
    SECTION("what cannot apply is an error") {
        const test::RunResult gap =
            test::run_cli({"eval", kept, "-s", "gemm=2", "--model", "replay", "--queue-gap", "9us"});
        CHECK(gap.exit_code == 2);
        CHECK_THAT(gap.err, Contains("--queue-gap: does not apply to a JSON profile: its timeline was built when the "
                                     "trace was imported"));
        const test::RunResult rename =
            test::run_cli({"eval", kept, "-s", "matmul=2", "--model", "replay", "--rename", "gemm=matmul"});
        CHECK(rename.exit_code == 2);
        CHECK_THAT(rename.err, Contains("--rename: does not apply to --model replay of a JSON profile"));
        const test::RunResult csv =
            test::run_cli({"import", test::source_path("examples/transformer_step.csv"), "--keep-timeline"});
        CHECK(csv.exit_code == 2);
        CHECK_THAT(csv.err, Contains("--keep-timeline: does not apply to a CSV profile"));
        const test::RunResult bare_gap = test::run_cli({"import", sim, "--queue-gap", "9us"});
        CHECK(bare_gap.exit_code == 2);
        CHECK_THAT(bare_gap.err, Contains("--queue-gap: applies with --keep-timeline only"));
    }
    SECTION("a damaged timeline is an error that names the place") {
        auto doc = nlohmann::json::parse(test::read_file(kept));
        const auto damaged = [&](const std::function<void(nlohmann::json&)>& damage) {
            nlohmann::json copy = doc;
            damage(copy["timeline"]);
            const std::string path = test::write_temp("damaged.json", copy.dump());
            return test::run_cli({"eval", path, "-s", "gemm=2", "--model", "replay"});
        };
        const auto range = damaged([](nlohmann::json& t) { t["edges"][0][1] = 100000; });
        CHECK(range.exit_code == 2);
        CHECK_THAT(range.err, Contains(": timeline.edges[0][1]: expected a whole number from 0 to"));
        const auto backwards = damaged([](nlohmann::json& t) { t["events"][3][1] = -1.0; });
        CHECK(backwards.exit_code == 2);
        CHECK_THAT(backwards.err, Contains(": timeline.events[3]: ends before it starts"));
        const auto cycle = damaged([](nlohmann::json& t) {
            t["edges"].push_back({5, 4, 0.0, 1});
            t["edges"].push_back({4, 5, 0.0, 1});
        });
        CHECK(cycle.exit_code == 2);
        CHECK_THAT(cycle.err, Contains(": timeline: is no graph a trace gives: "));
        REQUIRE(doc["timeline"]["tracks"].size() >= 2);
        const auto tracks = damaged([](nlohmann::json& t) { t["tracks"][1]["first_event"] = 0; });
        CHECK(tracks.exit_code == 2);
        CHECK_THAT(tracks.err, Contains(": timeline.tracks[1].first_event: must be after the previous track's"));
        const auto track_form = damaged([](nlohmann::json& t) { t["tracks"][0] = "stream 7"; });
        CHECK(track_form.exit_code == 2);
        CHECK_THAT(track_form.err, Contains(": timeline.tracks[0]: expected {\"name\": N, \"first_event\": I}"));
        // The tracks are optional (a file written before them replays as well, naming no stream).
        const auto without = damaged([](nlohmann::json& t) { t.erase("tracks"); });
        CHECK(without.exit_code == 0);
        const auto missing = damaged([](nlohmann::json& t) { t.erase("waits"); });
        CHECK(missing.exit_code == 2);
        CHECK_THAT(missing.err, Contains(": timeline: has no \"waits\""));
    }
}

TEST_CASE("replay: 'why it differs' never says the models agree when their savings differ", "[replay][cli]") {
    // hta_base, --window ProfilerStep*, Memcpy* at 10x: the replay saves nothing (1.0000x), the phase table 553.95
    // us (1.0050x). The speedups are within 0.5% of each other, but the savings are not: the steps are host-bound.
    const std::string trace = test::source_path("tests/data/profilers/pytorch-chrome-trace/hta_base.json");
    const auto r =
        test::run_cli({"eval", trace, "--window", "ProfilerStep*", "-s", "glob:Memcpy*=10", "--model", "replay"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, !Contains("none worth telling"));
    CHECK_THAT(r.out, Contains("why it differs:       host-bound"));
}
