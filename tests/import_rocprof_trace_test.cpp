// rocprof traces (rocprofv3 kernel/memory-copy/API traces, both column sets, legacy results.csv):
// each row a span, swept into phases that add up to the wall time, with `overlapped` and `idle`.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "support.hpp"

using namespace amdahl;
using amdahl::test::run_cli;
using amdahl::test::source_path;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;

namespace {

std::string data(const std::string& relative) { return source_path("tests/data/profilers/" + relative); }

Profile load(const std::string& path, std::optional<InputFormat> format = std::nullopt,
             const ImportOptions& options = {}) {
    std::istringstream no_stdin;
    return amdahl::load_profile(path, no_stdin, format, options);
}

const Phase& phase(const Profile& profile, const std::string& name) {
    const auto index = profile.find(name);
    INFO("phase '" << name << "'");
    REQUIRE(index.has_value());
    return profile.phases[*index];
}

double time_of(const Profile& profile, const std::string& name) {
    const auto index = profile.find(name);
    return index ? profile.phases[*index].time : 0.0;
}

std::string error_of(const std::string& path, std::optional<InputFormat> format = std::nullopt) {
    try {
        load(path, format);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

void check_eval_error(const std::string& path, const std::string& message) {
    const auto r = run_cli({"eval", path}, "");
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + message + "\n");
}

std::string temp(const std::string& name, const std::string& content) {
    return write_temp("import_rocprof_trace_" + name, content);
}

const std::string kernel_header =
    "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\",\"Kernel_Name\","
    "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n";

}  // namespace

TEST_CASE("rocprof trace: two streams overlap by exact amounts", "[import][rocprof-trace]") {
    // Relative to the first start (ns): stream 1 runs gemm [0,100), softmax [150,250), gemm
    // [300,320); stream 2 runs reduce [50,200). So: gemm alone 50 + 20, gemm+reduce 50, reduce
    // alone 50, reduce+softmax 50, softmax alone 50, nothing [250,300).
    const Profile p = load(data("handmade/rocprofv3_kernel_trace_two_streams.csv"));
    const std::string gemm = "void gemm<\"tile\", 64>(float const*, float*, int)";
    CHECK(p.format == "rocprof-trace");
    CHECK(!p.summary_only);
    CHECK(p.unit == Unit::ns);
    CHECK(phase(p, gemm).time == Approx(70));
    CHECK(phase(p, gemm).active_time.value_or(-1) == Approx(120));
    CHECK(phase(p, gemm).kind == "kernel");
    CHECK(phase(p, "reduce_kernel(float*, int)").time == Approx(50));
    CHECK(phase(p, "reduce_kernel(float*, int)").active_time.value_or(-1) == Approx(150));
    CHECK(phase(p, "softmax_kernel").time == Approx(50));
    CHECK(phase(p, overlapped_phase).time == Approx(100));
    CHECK(phase(p, idle_phase).time == Approx(50));
    CHECK(p.total() == Approx(320));  // the wall time from the first start to the last end
    REQUIRE(p.overlaps.size() == 2);
    for (const Overlap& overlap : p.overlaps) {
        CHECK(overlap.time == Approx(50));
        CHECK(overlap.phases.size() == 2);
    }
}

TEST_CASE("rocprof trace: 2025 column set (Stream_Id, \"Agent N\")", "[import][rocprof-trace]") {
    const Profile p = load(data("rocprofv3/rocm-systems-2025/kernel_trace.csv"));
    CHECK(p.format == "rocprof-trace");
    CHECK(p.total() == Approx(144400));  // last end - first start
    CHECK(time_of(p, idle_phase) == Approx(48240));
    CHECK(!p.find(overlapped_phase));  // one stream
    CHECK(phase(p, "divide_kernel(float*, float const*, float const*, int, int)").kind == "kernel");

    const Profile truncated = load(data("rocprofv3/rocm-systems-2025/kernel_trace_truncated.csv"));
    CHECK(truncated.total() == Approx(60840));
    CHECK(time_of(truncated, idle_phase) == Approx(16000));
    CHECK(truncated.find("addition_kernel"));
}

TEST_CASE("rocprof trace: 2024 column set, kernels on four queues", "[import][rocprof-trace]") {
    const Profile p = load(data("rocprofv3/rocprofiler-sdk-2024/kernel_trace.csv"));
    CHECK(p.total() == Approx(301795));
    CHECK(time_of(p, idle_phase) == Approx(2370));
    // Busy 299425 ns while the kernels add up to 795453 ns: most of it ran at once.
    CHECK(time_of(p, overlapped_phase) > 0);
    double active = 0;
    for (const Phase& ph : p.phases)
        if (ph.active_time) active += *ph.active_time;
    CHECK(active >= 299425 - 1);
}

TEST_CASE("rocprof trace: memory copies, both column sets", "[import][rocprof-trace]") {
    const Profile v2025 = load(data("rocprofv3/rocm-systems-2025/memory_copy_trace.csv"));
    CHECK(v2025.total() == Approx(161713274));
    CHECK(time_of(v2025, idle_phase) == Approx(161384112));
    CHECK(phase(v2025, "MEMORY_COPY_HOST_TO_DEVICE").kind == "copy");
    CHECK(time_of(v2025, "MEMORY_COPY_HOST_TO_DEVICE") + time_of(v2025, "MEMORY_COPY_DEVICE_TO_HOST") +
              time_of(v2025, overlapped_phase) ==
          Approx(329162));

    const Profile v2024 = load(data("rocprofv3/rocprofiler-sdk-2024/memory_copy_trace.csv"));
    CHECK(v2024.total() == Approx(3639722));
    CHECK(time_of(v2024, "MEMORY_COPY_HOST_TO_DEVICE") == Approx(14955950239443 - 14955949675563));
    CHECK(time_of(v2024, "MEMORY_COPY_DEVICE_TO_HOST") == Approx(14955953315285 - 14955952733485));
}

TEST_CASE("rocprof trace: legacy results.csv (BeginNs/EndNs)", "[import][rocprof-trace]") {
    const Profile p = load(data("rocprof-legacy/finite-difference_results.csv"));
    CHECK(p.format == "rocprof-trace");
    CHECK(p.total() == Approx(2649034656.0));
    CHECK(time_of(p, idle_phase) == Approx(38247344));
    CHECK(time_of(p,
                  "void laplacian_kernel<double>(double*, double const*, int, int, int, double, double, double, "
                  "double) [clone .kd]") == Approx(2608618986.0));
}

TEST_CASE("rocprof trace: API and marker traces are host spans", "[import][rocprof-trace]") {
    const Profile hip = load(data("rocprofv3/rocprofiler-sdk-2024/hip_runtime_trace.csv"));
    CHECK(hip.total() == Approx(988144367));
    CHECK(time_of(hip, idle_phase) == Approx(15966723));
    CHECK(phase(hip, "hipMemcpy").kind == "runtime");

    const Profile markers = load(data("rocprofv3/rocprofiler-sdk-2024/marker_api_trace.csv"));
    CHECK(phase(markers, "hipLaunchKernel range").kind == "annotation");

    const Profile rocpd = load(data("rocprofv3/rocm-systems-2025/rocpd-to-csv.csv"));  // extra Guid column
    CHECK(phase(rocpd, "hipMemcpy").kind == "runtime");
    CHECK(rocpd.total() == Approx(184564141));
}

TEST_CASE("rocprof trace: eval reports from the command line", "[import][rocprof-trace][cli]") {
    const std::string path = data("handmade/rocprofv3_kernel_trace_two_streams.csv");
    const auto r = run_cli({"eval", path}, "");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("overlapped"));
    CHECK_THAT(r.out, Contains("idle"));
}

TEST_CASE("rocprof trace: bad input", "[import][rocprof-trace][errors]") {
    SECTION("an end before its start") {
        const std::string path =
            temp("negative.csv", kernel_header + "\"KERNEL_DISPATCH\",\"Agent 4\",1,1,9,1,1,\"k\",1,2000,1000\n");
        check_eval_error(path, path + ":2: 'End_Timestamp' 1000 is before 'Start_Timestamp' 2000: a negative duration");
    }
    SECTION("a timestamp that is not a number") {
        const std::string path =
            temp("nan.csv", kernel_header + "\"KERNEL_DISPATCH\",\"Agent 4\",1,1,9,1,1,\"k\",1,soon,1000\n");
        check_eval_error(path, path + ":2: column 'Start_Timestamp' must be a timestamp in ns (got 'soon')");
    }
    SECTION("a row with too few fields") {
        const std::string path =
            temp("ragged.csv", kernel_header + "\"KERNEL_DISPATCH\",\"Agent 4\",1,1,9,\"k\",1000,2000\n");
        check_eval_error(path, path + ":2: expected 11 fields as in the header on line 1, got 8");
    }
    SECTION("a header and no rows") {
        const std::string path = temp("empty.csv", kernel_header);
        check_eval_error(path, path + ":1: the rocprof trace has no rows after its header");
    }
    SECTION("--input-format rocprof-trace on another CSV") {
        const std::string path = temp("other.csv", "\"Name\",\"Calls\",\"TotalDurationNs\"\n\"k\",1,10\n");
        CHECK(
            error_of(path, InputFormat::rocprof_trace) ==
            path +
                ":1: expected a rocprof trace header with Start_Timestamp and End_Timestamp (rocprofv3 "
                "kernel_trace.csv, memory_copy_trace.csv, *_api_trace.csv) or BeginNs and EndNs (rocprof results.csv)");
    }
}

TEST_CASE("rocprof trace: the command-line options", "[import][rocprof-trace][cli]") {
    const std::string other = temp("cli_other.csv", "\"Name\",\"Calls\",\"TotalDurationNs\"\n\"k\",1,10\n");
    auto r = run_cli({"eval", other, "--input-format", "rocprof-trace"}, "");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "error: " + other +
              ":1: expected a rocprof trace header with Start_Timestamp and End_Timestamp (rocprofv3 "
              "kernel_trace.csv, memory_copy_trace.csv, *_api_trace.csv) or BeginNs and EndNs (rocprof results.csv)\n");

    // --rename-regex folds gemm and softmax (stream 1) into one phase: alone for 50 + 50 + 20 ns, and
    // still overlapping reduce (stream 2) for 100 ns.
    r = run_cli({"eval", data("handmade/rocprofv3_kernel_trace_two_streams.csv"), "--rename-regex",
                 "gemm|softmax=fused", "--format", "csv"},
                "");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nfused,kernel,3,120,"));
    CHECK_THAT(r.out, Contains("\noverlapped,overlapped,,100,"));
}

TEST_CASE("rocprofv3: one run's folder is one timeline", "[import][rocprof]") {
    test::TempDir dir;
    std::filesystem::create_directories(dir / "host/1234");
    const auto write = [&](const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; };
    // Kernels 1000-1400 and 1600-1700 ns; a copy 1300-1500 ns on its own track; a summary beside them.
    write("host/1234/1234_kernel_trace.csv",
          "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\",\"Kernel_Name\","
          "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n"
          "\"KERNEL_DISPATCH\",1,1,69,1,16,\"gemm\",1,1000,1400\n"
          "\"KERNEL_DISPATCH\",1,1,69,2,17,\"softmax\",2,1600,1700\n");
    write("host/1234/1234_memory_copy_trace.csv",
          "\"Kind\",\"Direction\",\"Source_Agent_Id\",\"Destination_Agent_Id\",\"Correlation_Id\","
          "\"Start_Timestamp\",\"End_Timestamp\"\n"
          "\"MEMORY_COPY\",\"MEMORY_COPY_HOST_TO_DEVICE\",0,1,3,1300,1500\n");
    write("host/1234/1234_kernel_stats.csv",
          "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n"
          "\"gemm\",1,400,400,80,400,400,0\n");
    std::istringstream none;
    const Profile profile = load_profile(dir.string(), none, std::nullopt, {});
    CHECK(profile.format == "rocprof-trace");
    std::map<std::string, double> t;
    for (const auto& phase : profile.phases) t[phase.name] = phase.time;
    CHECK(t.at("gemm") == Approx(300));  // alone 1000-1300
    CHECK(t.at("overlapped") == Approx(100));
    CHECK(t.at("MEMORY_COPY_HOST_TO_DEVICE") == Approx(100));
    CHECK(t.at("idle") == Approx(100));
    CHECK(t.at("softmax") == Approx(100));
    CHECK(profile.total() == Approx(700));
    bool said = false;
    for (const auto& note : profile.notes)
        said = said || note.find(
                           "left out 1 file holding no trace (summaries hold the traces' time again): "
                           "host/1234/1234_kernel_stats.csv") != std::string::npos;
    CHECK(said);

    // A folder without traces, and a format that reads one file.
    test::TempDir empty;
    std::ofstream(empty / "kernel_names.csv") << "Kernel_Name\ngemm\n";
    auto r = test::run_cli({"eval", empty.string()});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("is a folder with no trace files (rocprofv3 kernel_trace.csv, memory_copy_trace.csv, "
                               "*_api_trace.csv; nsys cuda_gpu_trace and cuda_api_trace CSV exports); it holds "
                               "kernel_names.csv"));
    r = test::run_cli({"eval", dir.string(), "--input-format", "csv"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("is a folder: only rocprof-trace and nsys-trace read one run's folder"));
}

TEST_CASE("rocprofv3: files of different runs in one folder are refused, not read as idle time", "[import][rocprof]") {
    // Found by a hostile tester: two processes' kernel traces, 9e12 ns apart, read as one timeline
    // whose "idle" was 100% of a 2.5-hour step and whose speedups were all 1.0000x, with exit 0.
    test::TempDir dir;
    const std::string header =
        "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\",\"Kernel_Name\","
        "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n";
    std::ofstream(dir / "111_kernel_trace.csv") << header
                                                << "\"KERNEL_DISPATCH\",1,1,69,1,16,\"gemm\",1,1000000,1060000\n"
                                                   "\"KERNEL_DISPATCH\",1,1,69,2,17,\"softmax\",2,1060000,1100000\n";
    std::ofstream(dir / "222_kernel_trace.csv")
        << header
        << "\"KERNEL_DISPATCH\",1,1,70,1,16,\"gemm\",1,9000000000000,9000000060000\n"
           "\"KERNEL_DISPATCH\",1,1,70,2,17,\"softmax\",2,9000000060000,9000000100000\n";
    const auto r = test::run_cli({"eval", dir.string(), "-s", "gemm=2"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains("111_kernel_trace.csv' and '"));
    CHECK_THAT(r.err, Contains("222_kernel_trace.csv' are 8,999,998,900,000.0 ns apart, more than all the files' "
                               "events cover (200,000.0 ns): files of different runs? give one run's folder, or read "
                               "the files one at a time"));
    // Each file alone is one run: 100 us, gemm 60% of it, 2x gives 1/(0.4 + 0.3) = 1.4286x.
    const auto one = test::run_cli({"eval", dir / "111_kernel_trace.csv", "-s", "gemm=2"});
    CHECK(one.exit_code == 0);
    CHECK_THAT(one.out, Contains("speedup:           1.4286x"));
    // The real sample folders hold files of several runs (rocprofiler-sdk-2024: processes 238 and
    // 717, days apart), gathered as samples: each file replays alone (replay_csv_test.cpp).
    for (const char* folder : {"rocprofiler-sdk-2024", "rocm-systems-2025"}) {
        const auto sample =
            test::run_cli({"eval", source_path(std::string("tests/data/profilers/rocprofv3/") + folder)});
        CHECK(sample.exit_code == 2);
        CHECK_THAT(sample.err, Contains("files of different runs?"));
    }
}

TEST_CASE("rocprofv3: files without timing are errors that name the file to read", "[import][rocprof]") {
    const std::string counters = write_temp(
        "counter_collection.csv",
        "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Kernel_Name\",\"Counter_Name\",\"Counter_Value\"\n"
        "1,1,1,\"gemm\",\"SQ_WAVES\",512\n");
    auto r = run_cli({"eval", counters});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("counter_collection.csv: is a rocprofv3 counter collection (counter values per "
                               "dispatch, no timestamps): it holds no time; read kernel_trace.csv of the same run"));
    // It used to read the execution mask as 100 ms of a phase named 0xff.
    const std::string samples = write_temp("pc_sampling_host_trap.csv",
                                           "\"Sample_Timestamp\",\"Exec_Mask\",\"Dispatch_Id\",\"Instruction\","
                                           "\"Instruction_Comment\",\"Correlation_Id\"\n100,0xff,1,\"s_load\",,1\n");
    r = run_cli({"eval", samples});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("is a rocprofv3 PC sampling file"));
    CHECK(r.out.empty());
    // API calls alone on the gpu lane.
    r = run_cli({"eval", source_path("tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/hip_runtime_trace.csv"),
                 "--lane", "gpu"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("holds only API calls and annotations, no kernels or copies, so the gpu lane is empty: "
                               "read the kernel trace of the same run"));
}
