// Replay on nsys and rocprof trace CSVs (`eval --model replay` on a CSV or a run's folder): the
// correlation ids the readers keep, the API names nsys and rocprofv3 give synchronizing calls,
// the no-launch rules of a GPU-only trace, and the real samples replayed with factor 1.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>  // only to read the JSON report back

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "amdahl/evaluate.hpp"
#include "amdahl/io.hpp"
#include "amdahl/replay.hpp"
#include "analysis/replay.hpp"
#include "input/profilers/dependencies.hpp"
#include "input/profilers/text_table.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

const std::string handmade = "tests/data/profilers/handmade/";
// Two kernels back to back on one stream, launched by two calls, then a device synchronize
// (nsys API names with their version suffix): cuda_gpu_trace.csv and cuda_api_trace.csv.
const std::string nsys_run = handmade + "replay_nsys_run";
// A host-bound run: four 2 us kernels launched 10 us apart, a hipDeviceSynchronize, then a
// blocking hipMemcpy whose 6 us copy is linked to it (kernel, memory copy and HIP API traces).
const std::string rocprof_run = handmade + "replay_rocprofv3_run";

Profile load(const std::string& relative, Lane lane = Lane::automatic) {
    ImportOptions options;
    options.dependencies = true;
    options.lane = lane;
    std::istringstream none;
    return load_profile(test::source_path(relative), none, std::nullopt, options);
}

ReplayOutcome replay_with(const Profile& profile, const std::vector<std::string>& specs) {
    std::vector<SpeedupSpec> parsed;
    for (const std::string& spec : specs) parsed.push_back(parse_speedup(spec));
    return replay_evaluation(profile, evaluate(profile, parsed));
}

bool mentions(const ReplayOutcome& r, const std::string& text) {
    for (const std::string& line : r.assumptions)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("replay csv: nsys version suffixes are no part of an API call's name", "[replay][nsys]") {
    CHECK(detail::api_base_name("cudaDeviceSynchronize_v3020") == "cudaDeviceSynchronize");
    CHECK(detail::api_base_name("cudaMemcpyAsync_v3020") == "cudaMemcpyAsync");
    CHECK(detail::api_base_name("cuMemcpyHtoD_v2") == "cuMemcpyHtoD");
    CHECK(detail::api_base_name("hipStreamSynchronize") == "hipStreamSynchronize");
    CHECK(detail::api_base_name("hipGetDevicePropertiesR0600") == "hipGetDevicePropertiesR0600");
    CHECK(detail::api_base_name("cudaLaunchKernel_v") == "cudaLaunchKernel_v");
    CHECK(detail::api_base_name("_v2") == "_v2");
    CHECK(detail::api_base_name("kernel_v12x") == "kernel_v12x");
}

TEST_CASE("replay csv: correlation id cells", "[replay]") {
    CHECK(detail::parse_correlation_id("1451") == 1451);
    CHECK(detail::parse_correlation_id(" 7 ") == 7);
    CHECK(detail::parse_correlation_id("") == 0);
    CHECK(detail::parse_correlation_id("N/A") == 0);
    CHECK(detail::parse_correlation_id("-1") == 0);
    CHECK(detail::parse_correlation_id("12x") == 0);
}

TEST_CASE("replay csv: an nsys run's folder: queued kernels on one stream are Amdahl's law", "[replay][nsys]") {
    const Profile profile = load(nsys_run);
    REQUIRE(profile.dependencies);
    // The step (in ns, the traces' unit): the first launch's start (1 us) to the synchronize's end (27.5 us).
    const ReplayOutcome gemm = replay_with(profile, {"gemm_kernel=2"});
    CHECK(gemm.before == Approx(26500));
    // gemm_kernel (10 us) is on the critical path: the run is 5 us shorter, Amdahl's law over the step.
    CHECK(gemm.after == Approx(21500));
    CHECK(gemm.speedup == Approx(26500 / (26500 - 10000 + 10000 / 2.0)));
    CHECK(gemm.waits == 1);  // cudaDeviceSynchronize_v3020 waits for softmax_kernel
    CHECK(mentions(gemm,
                   "launches: 2 GPU events linked to their runtime call (by correlation id); 1 held by its launch"));
    CHECK(mentions(gemm, "1 queued behind earlier work"));
    CHECK(mentions(gemm, "synchronizations: inferred from 1 runtime call that waits"));

    const ReplayOutcome softmax = replay_with(profile, {"softmax_kernel=inf"});
    CHECK(softmax.after == Approx(16500));  // the synchronize returns 2.5 us after the work it waits for
    const ReplayOutcome launches = replay_with(load(nsys_run, Lane::all), {"cudaLaunchKernel_v7000=inf"});
    CHECK(launches.after == Approx(26500));  // device-bound: faster launches change nothing
}

TEST_CASE("replay csv: the same saving over another step is no fault of untouched work", "[replay][nsys]") {
    // Both models save gemm's 5 us: the replay over the whole trace (26.5 us, launches and the
    // synchronize included), the phase table over the GPU lane's 20 us. The speedups differ only
    // in what they divide by, and the reason says so rather than blaming untouched work.
    const auto run = test::run_cli(
        {"eval", test::source_path(nsys_run), "-s", "gemm_kernel=2", "--model", "replay", "--unit", "us"});
    REQUIRE(run.exit_code == 0);
    CHECK_THAT(run.out, Catch::Matchers::Contains(
                            "why it differs:       the same time saved (5.0 us), over another step: the replay's is "
                            "every event of the trace (26.5 us), the phase table's is wall time from the first to "
                            "the last event on the lane: "));
    CHECK_THAT(run.out, Catch::Matchers::Contains("replayed speedup:     1.2326x"));
    CHECK_THAT(run.out, Catch::Matchers::Contains("Amdahl speedup:       1.3333x"));
}

TEST_CASE("replay csv: a rocprofv3 run's folder: host-bound kernels gain nothing", "[replay][rocprof]") {
    const Profile profile = load(rocprof_run);
    REQUIRE(profile.dependencies);
    const ReplayOutcome kernels = replay_with(profile, {"small_kernel=inf"});
    CHECK(kernels.before == Approx(50000));
    CHECK(kernels.after == Approx(50000));  // the CPU launches them 10 us apart and waits for none
    CHECK(kernels.speedup == Approx(1));
    // hipDeviceSynchronize waits for the last kernel, hipMemcpy for its copy (Correlation_Id 6).
    CHECK(kernels.waits == 2);
    CHECK(mentions(kernels, "launches: 5 GPU events linked to their runtime call (by correlation id); 5 held"));
    CHECK(mentions(kernels, "synchronizations: inferred from 2 runtime calls"));

    // The blocking copy is on the path: 3 us saved, the call returns 1 us after its copy as before.
    const ReplayOutcome copy = replay_with(profile, {"MEMORY_COPY_DEVICE_TO_HOST=2"});
    CHECK(copy.after == Approx(47000));
    CHECK(copy.speedup == Approx(50000.0 / 47000));

    // Faster launches move everything after them earlier (the host is the bottleneck).
    const ReplayOutcome launches = replay_with(load(rocprof_run, Lane::all), {"hipLaunchKernel=inf"});
    CHECK(launches.after == Approx(46000));
}

TEST_CASE("replay csv: one CSV of GPU work replays by the no-launch rules", "[replay][rocprof][nsys]") {
    SECTION("rocprofv3 kernel trace: ids but no calls") {
        const Profile profile = load(handmade + "rocprofv3_kernel_trace_two_streams.csv");
        const ReplayOutcome same = replay_with(profile, {"softmax_kernel=1"});
        CHECK(same.after == same.before);
        CHECK(mentions(same,
                       "launches: none linked (the trace has no runtime calls): of the 4 GPU events, the first "
                       "on each stream keeps its recorded start, each after it its recorded gap to the work "
                       "before it"));
        CHECK(mentions(same, "synchronizations: none known: the trace has no runtime calls"));
        // Each kernel keeps its gap to the one before it on its stream: softmax (100 ns on stream 1)
        // at no time moves the last gemm, 50 ns after it, 100 ns earlier (reduce, on stream 2, still ends 20 ns before
        // it).
        const ReplayOutcome faster = replay_with(profile, {"softmax_kernel=inf"});
        CHECK(faster.after == Approx(same.before - 100));
    }
    SECTION("legacy rocprof results.csv: no ids at all") {
        const Profile profile = load("tests/data/profilers/rocprof-legacy/finite-difference_results.csv");
        const ReplayOutcome same = replay_with(profile, {"kind:kernel=1"});
        CHECK(same.after == same.before);
        CHECK(mentions(same, "launches: none linked (the trace has no runtime calls and no correlation ids)"));
    }
    SECTION("an nsys cuda_gpu_trace export") {
        const Profile profile = load(handmade + "nsys_cuda_gpu_trace.csv");
        const ReplayOutcome all = replay_with(profile, {"kind:kernel=inf", "kind:copy=inf", "kind:memset=inf"});
        CHECK(all.before == Approx(22000));
        CHECK(mentions(all, "launches: none linked (the trace has no runtime calls)"));
    }
}

TEST_CASE("replay csv: nsys and rocprofv3 API names that wait for the GPU", "[replay][nsys][rocprof]") {
    ImportOptions options;
    options.dependencies = true;
    std::istringstream none;
    SECTION("nsys: version suffixes") {
        test::TempDir run;
        std::ofstream(run / "cuda_api_trace.csv")
            << "Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name\n"
               "0,1000,cudaLaunchKernel_v7000,0,1,1,1,0,main\n"
               "2000,10000,cudaStreamSynchronize_v3020,0,2,1,1,0,main\n"
               "13000,1000,cudaMemcpyAsync_v3020,0,4,1,1,0,main\n"
               "18000,8000,cudaMemcpy_v3020,0,3,1,1,0,main\n";
        std::ofstream(run / "cuda_gpu_trace.csv") << "Start (ns),Duration (ns),CorrId,Device,Strm,Name\n"
                                                     "3000,8000,1,GPU 0,7,k\n"
                                                     "15000,2000,4,GPU 0,7,[CUDA memcpy Host-to-Device]\n"
                                                     "20000,5000,3,GPU 0,7,[CUDA memcpy Device-to-Host]\n";
        const Profile profile = load_profile(run.string(), none, std::nullopt, options);
        // The stream synchronize waits for k, the blocking copy for its copy; the async copy waits for nothing.
        const ReplayOutcome r = replay_with(profile, {"k=2"});
        CHECK(r.waits == 2);
        CHECK(mentions(r, "synchronizations: inferred from 2 runtime calls"));
        CHECK(r.before == Approx(26000));
        CHECK(r.after == Approx(22000));  // the synchronize returns 4 us sooner, and all after it
    }
    SECTION("rocprofv3: HIP names") {
        test::TempDir run;
        std::ofstream(run / "hip_api_trace.csv")
            << "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\",\"Start_Timestamp\","
               "\"End_Timestamp\"\n"
               "\"HIP_RUNTIME_API\",\"hipExtLaunchKernel\",1,1,1,0,1000\n"
               "\"HIP_RUNTIME_API\",\"hipStreamSynchronize\",1,1,2,2000,12000\n"
               "\"HIP_RUNTIME_API\",\"hipMemcpyAsync\",1,1,3,13000,14000\n"
               "\"HIP_RUNTIME_API\",\"hipLaunchKernel\",1,1,4,18000,19000\n"
               "\"HIP_RUNTIME_API\",\"hipDeviceSynchronize\",1,1,5,19500,26000\n";
        std::ofstream(run / "kernel_trace.csv")
            << "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_"
               "Timestamp\",\"End_Timestamp\"\n"
               "\"KERNEL_DISPATCH\",\"Agent 4\",1,1,\"k\",1,3000,11000\n"
               "\"KERNEL_DISPATCH\",\"Agent 4\",1,1,\"k2\",4,20000,25000\n";
        std::ofstream(run / "memory_copy_trace.csv")
            << "\"Kind\",\"Direction\",\"Stream_Id\",\"Source_Agent_Id\",\"Destination_Agent_Id\",\"Correlation_"
               "Id\",\"Start_Timestamp\",\"End_Timestamp\"\n"
               "\"MEMORY_COPY\",\"MEMORY_COPY_HOST_TO_DEVICE\",1,\"Agent 0\",\"Agent 4\",3,15000,17000\n";
        const Profile profile = load_profile(run.string(), none, std::nullopt, options);
        // hipStreamSynchronize waits for k; hipDeviceSynchronize for k2 and the copy (each stream's last work).
        const ReplayOutcome r = replay_with(profile, {"k2=5"});
        CHECK(r.waits == 3);
        CHECK(mentions(r, "launches: 3 GPU events linked to their runtime call (by correlation id)"));
        CHECK(mentions(r, "synchronizations: inferred from 2 runtime calls"));
        CHECK(r.before == Approx(26000));
        CHECK(r.after == Approx(22000));  // k2 takes 1 us, and the synchronize returns 1 us after it
    }
}

TEST_CASE("replay csv: correlation ids two processes share link nothing", "[replay][rocprof]") {
    test::TempDir run;
    // Two processes each count their calls from 1: kernel 1's launch is unknown.
    std::ofstream(run / "hip_api_trace.csv")
        << "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\",\"Start_Timestamp\","
           "\"End_Timestamp\"\n"
           "\"HIP_RUNTIME_API\",\"hipLaunchKernel\",1,1,1,1000,2000\n"
           "\"HIP_RUNTIME_API\",\"hipLaunchKernel\",2,2,1,1500,2500\n";
    std::ofstream(run / "kernel_trace.csv")
        << "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\","
           "\"End_Timestamp\"\n"
           "\"KERNEL_DISPATCH\",\"Agent 4\",1,1,\"k\",1,3000,9000\n";
    ImportOptions options;
    options.dependencies = true;
    std::istringstream none;
    const Profile profile = load_profile(run.string(), none, std::nullopt, options);
    const ReplayOutcome r = replay_with(profile, {"k=2"});
    CHECK(mentions(r, "1 correlation id is used by several runtime calls"));
    CHECK(mentions(r, "launches: none linked (no correlation id that matches a runtime call)"));
    CHECK(r.after == Approx(r.before - 3000));
}

TEST_CASE("replay csv: the real samples replayed with factor 1 give back every event exactly", "[replay]") {
    for (const std::string& sample : {
             std::string("tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/hip_runtime_trace.csv"),
             std::string("tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/kernel_trace.csv"),
             std::string("tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/memory_copy_trace.csv"),
             std::string("tests/data/profilers/rocprofv3/rocm-systems-2025/kernel_trace.csv"),
             std::string("tests/data/profilers/rocprofv3/rocm-systems-2025/rocpd-to-csv.csv"),
             std::string("tests/data/profilers/rocprof-legacy/finite-difference_results.csv"),
             handmade + "rocprofv3_kernel_trace_two_streams.csv",
             handmade + "nsys_cuda_gpu_trace.csv",
             nsys_run,
             rocprof_run,
         }) {
        INFO(sample);
        const Profile profile = load(sample, Lane::all);
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
        std::mt19937 random(7);
        std::uniform_real_distribution<double> factor(1, 20);
        for (int round = 0; round < 50; ++round) {
            std::vector<double> factors(profile.dependencies->phase_names.size());
            for (double& f : factors) f = random() % 3 == 0 ? factor(random) : 1.0;
            CHECK(detail::replay(graph, factors).after <= same.before * (1 + 1e-12));
        }
    }
}

TEST_CASE("replay csv: eval and rank --model replay on a run's folder, end to end", "[replay][cli]") {
    const std::string folder = test::source_path(nsys_run);
    const auto eval = test::run_binary("eval '" + folder + "' -s gemm_kernel=2 --model replay");
    CHECK(eval.exit_code == 0);
    CHECK_THAT(eval.out, Contains("replayed speedup:     1.2326x\n"));
    CHECK_THAT(eval.out,
               Contains("step time:            26,500.0 ns -> 21,500.0 ns (the trace's first to last event)\n"));
    CHECK_THAT(eval.out, Contains("  synchronizations: inferred from 1 runtime call that waits for the GPU"));

    const auto json = test::run_cli({"eval", folder, "-s", "gemm_kernel=2", "--model", "replay", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto report = nlohmann::json::parse(json.out);
    CHECK(report["model"] == "replay");
    CHECK(report["replayed_speedup"].get<double>() == Approx(26500.0 / 21500));
    CHECK(report["replay"]["waits"].get<int>() == 1);

    const auto rank = test::run_cli({"rank", test::source_path(rocprof_run), "--model", "replay", "--format", "json"});
    REQUIRE(rank.exit_code == 0);
    const auto ranked = nlohmann::json::parse(rank.out);
    CHECK(ranked["model"] == "replay");
    CHECK(ranked["baseline_time"].get<double>() == Approx(50000));

    const auto gpu_only = test::run_cli(
        {"eval", test::source_path(handmade + "nsys_cuda_gpu_trace.csv"), "-s", "kind:kernel=2", "--model", "replay"});
    CHECK(gpu_only.exit_code == 0);
    CHECK_THAT(gpu_only.out, Contains("  launches: none linked (the trace has no runtime calls)"));
}

TEST_CASE("replay csv: --model replay on input that is no trace is an error", "[replay][cli]") {
    const auto table = test::run_binary("eval '" + test::source_path("examples/transformer_step.csv") +
                                        "' -s attention=2 --model replay");
    CHECK(table.exit_code == 2);
    CHECK(table.out.empty());
    CHECK(table.err ==
          "error: --model replay: does not apply to a CSV profile (it replays the events of a trace (chrome-trace, "
          "rocprof-trace or nsys-trace input), or a JSON profile imported with --keep-timeline)\n");

    const std::string summary =
        test::source_path("tests/data/profilers/nsys/llm-perf-opt_projector_summary_cuda_gpu_kern_sum.csv");
    const auto nsys_summary = test::run_cli({"rank", summary, "--model", "replay"});
    CHECK(nsys_summary.exit_code == 2);
    CHECK(nsys_summary.err ==
          "error: --model replay: does not apply to a nsys profile (it replays the events of a trace (chrome-trace, "
          "rocprof-trace or nsys-trace input), or a JSON profile imported with --keep-timeline)\n");

    // A run's folder is checked before it is read, as one file is.
    const auto window = test::run_cli(
        {"eval", test::source_path(nsys_run), "-s", "gemm_kernel=2", "--model", "replay", "--window", "step.*"});
    CHECK(window.exit_code == 2);
    // --window is read (replay takes it), and this folder has no step annotations.
    CHECK(window.err ==
          "error: " + test::source_path(nsys_run) + ": --window 'step.*' matches no event with a duration\n");
    const auto total = test::run_cli(
        {"eval", test::source_path(rocprof_run), "-s", "small_kernel=2", "--model", "replay", "--total", "1ms"});
    CHECK(total.exit_code == 2);
    CHECK(total.err == "error: --model replay: does not take --total: its baseline is the trace's makespan\n");
}
