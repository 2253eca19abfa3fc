// The summary readers: nsys stats CSVs, rocprof stats CSVs and rocprofv3 --summary tables, on the
// real samples in tests/data/profilers and on hand-made edge cases, plus the naming options they
// share with the trace readers (--rename, --group-by) and every input error they report.
#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "input/profilers/naming.hpp"
#include "support.hpp"

using namespace amdahl;
using amdahl::test::run_cli;
using amdahl::test::source_path;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

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

std::vector<std::string> names(const Profile& profile) {
    std::vector<std::string> out;
    for (const auto& p : profile.phases) out.push_back(p.name);
    return out;
}

bool has_note(const Profile& profile, const std::string& part) {
    for (const auto& note : profile.notes)
        if (note.find(part) != std::string::npos) return true;
    return false;
}

std::string temp(const std::string& name, const std::string& content) {
    return write_temp("import_summary_" + name, content);
}

// `amdahl eval PATH` fails with exit 2, nothing on stdout and exactly this message.
void check_eval_error(const std::string& path, const std::string& message) {
    const auto r = run_cli({"eval", path}, "");
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + message + "\n");
}

std::string error_of(const std::string& path, std::optional<InputFormat> format, const ImportOptions& options = {}) {
    try {
        load(path, format, options);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// nsys

TEST_CASE("nsys: real cuda_gpu_kern_sum (2022+ header), detected by its header", "[import][nsys]") {
    const std::string path = data("nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv");
    const Profile p = load(path);
    CHECK(p.format == "nsys");
    CHECK(p.summary_only);
    CHECK(p.unit == Unit::ns);
    REQUIRE(p.phases.size() == 46);  // 46 rows, all names distinct
    CHECK(p.total() == Approx(179072697));
    CHECK(p.phases[0].time == Approx(61602133));
    CHECK(p.phases[0].kind == "kernel");
    CHECK(p.where(p.phases[0]) == path + ":2");
    // The Time (%) column sums to 100.2; shares come from the totals instead.
    CHECK(p.phases[0].time / p.total() == Approx(61602133.0 / 179072697.0));
    CHECK_THAT(p.boundary, Contains("the sum of the kernel times in the nsys summary"));
    CHECK(has_note(p, "summary only (nsys): per-name totals carry no timing overlap information"));
    CHECK(has_note(p, "give --total"));
}

TEST_CASE("nsys: names with commas keep them (RFC 4180 quoting)", "[import][nsys]") {
    const Profile p = load(data("nsys/llm-perf-opt_projector_summary_cuda_gpu_kern_sum.csv"));
    REQUIRE(p.phases.size() == 2);
    CHECK(
        phase(p,
              "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_64x1_tn_align8>(T1::Params)")
            .time == Approx(33696));
    CHECK(phase(p,
                "void at::native::vectorized_elementwise_kernel<(int)4, at::native::bfloat16_copy_kernel_cuda("
                "at::TensorIteratorBase &)::[lambda(float) (instance 1)], std::array<char *, (unsigned long)2>>(int, "
                "T2, T3)")
              .time == Approx(1792));
}

TEST_CASE("nsys: eval on the real summary from the command line", "[import][nsys][cli]") {
    const std::string path = data("nsys/llm-perf-opt_projector_summary_cuda_gpu_kern_sum.csv");
    const auto r = run_cli({"eval", path, "-s", "void cutlass*=2", "--format", "json"}, "");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("note: " + path + ": summary only (nsys)"));
    // 33696 ns halved, 1792 ns unchanged: 35488 / (16848 + 1792).
    CHECK_THAT(r.out, Contains("\"speedup\": " + std::to_string(35488.0 / 18640.0).substr(0, 6)));
}

TEST_CASE("nsys: the 2020 header after console lines, quotes, commas, rounded percentages", "[import][nsys]") {
    const Profile p = load(data("handmade/nsys_gpukernsum_2020.csv"));
    CHECK(p.format == "nsys");
    REQUIRE(names(p) == std::vector<std::string>{"void gemm<float, 128>(const float*, float*, int)",
                                                 "kernel \"quoted\", with comma", "softmax_kernel"});
    CHECK(p.phases[0].time == Approx(6000));
    CHECK(p.phases[1].time == Approx(3333));
    CHECK(p.phases[2].time == Approx(666));
    CHECK(p.where(p.phases[1]) == data("handmade/nsys_gpukernsum_2020.csv") + ":7");
    // 60.1 + 33.4 + 6.6 = 100.1 in the file; the totals say 6000 / 9999.
    CHECK(p.phases[0].time / p.total() == Approx(6000.0 / 9999.0));
    CHECK(p.notes.size() == 1);  // "summary only", and no note about the rounded percentages
}

TEST_CASE("nsys: the ~2021 header with Average (ns) and StdDev (ns)", "[import][nsys]") {
    const Profile p = load(data("handmade/nsys_gpukernsum_2021.csv"));
    REQUIRE(names(p) == std::vector<std::string>{"gemm_kernel", "relu_kernel"});
    CHECK(p.phases[0].time == Approx(7500));
    CHECK(p.phases[1].time == Approx(2500));
}

TEST_CASE("summaries: a name on several rows is added up, and said", "[import][nsys][rocprof]") {
    // A plain CSV refuses a repeated name; a summary may repeat one legitimately (nvtx_sum per
    // range style, kern_exec_sum per API), or hold one report twice, which counts it twice. Either
    // way the rows are added, and a note says which names and where.
    const std::string header =
        "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n";
    const std::string once = temp("dup_once.csv", header +
                                                      "60.0,600,1,600,600,600,600,0,gemm\n"
                                                      "20.0,200,1,200,200,200,200,0,relu\n"
                                                      "40.0,400,2,200,200,200,200,0,gemm\n");
    const Profile p = load(once);
    REQUIRE(names(p) == std::vector<std::string>{"gemm", "relu"});
    CHECK(phase(p, "gemm").time == Approx(1000));
    CHECK(phase(p, "gemm").calls == 3u);
    CHECK(std::find(p.notes.begin(), p.notes.end(),
                    once + ": 'gemm' is on 2 rows (lines 2 and 4): their times are added into one phase (a file "
                           "that holds a report twice counts it twice)") != p.notes.end());
    // The phase it went into, when --rename names it otherwise.
    ImportOptions renamed;
    renamed.renames = {{"gemm", "matmul"}};
    CHECK(has_note(load(once, std::nullopt, renamed), once + ": 'gemm' (phase 'matmul') is on 2 rows (lines 2 and 4)"));
    // Several names: each said once, the first few by name.
    std::string rows = header;
    for (int copy = 0; copy < 3; ++copy)
        for (int k = 0; k < 7; ++k) rows += "1.0,10,1,10,10,10,10,0,k" + std::to_string(k) + "\n";
    const std::string many = temp("dup_many.csv", rows);
    const Profile q = load(many);
    CHECK(q.phases.size() == 7);
    CHECK(phase(q, "k0").time == Approx(30));
    CHECK(has_note(q, many + ": 7 names are each on more than one row, their rows' times added into one phase each "
                             "(a file that holds a report twice counts it twice): 'k0' on 3 rows (lines 2, 9, ...), "
                             "'k1' on 3 rows (lines 3, 10, ...), 'k2' on 3 rows (lines 4, 11, ...), 'k3' on 3 rows "
                             "(lines 5, 12, ...), 'k4' on 3 rows (lines 6, 13, ...) and 2 more"));
    // Names that --group-by or --rename join on purpose are no repeat.
    ImportOptions grouped;
    grouped.renames = {{"relu", "gemm"}};
    const std::string joined = temp("dup_none.csv", header +
                                                        "60.0,600,1,600,600,600,600,0,gemm\n"
                                                        "20.0,200,1,200,200,200,200,0,relu\n");
    const Profile r = load(joined, std::nullopt, grouped);
    CHECK(phase(r, "gemm").time == Approx(800));
    CHECK_FALSE(has_note(r, "more than one row"));
    CHECK_FALSE(has_note(r, "rows ("));
    // rocprof's stats: the same rule.
    const std::string stats = temp("dup_stats.csv",
                                   "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\"\n"
                                   "\"gemm\",1,600,600,60.0\n"
                                   "\"gemm\",1,400,400,40.0\n");
    const Profile s = load(stats);
    CHECK(phase(s, "gemm").time == Approx(1000));
    CHECK(has_note(s, stats + ": 'gemm' is on 2 rows (lines 2 and 3): their times are added into one phase"));
}

TEST_CASE("nsys: the unit comes from the Total Time header", "[import][nsys]") {
    const Profile p = load(data("handmade/nsys_cuda_gpu_kern_sum_us.csv"));
    CHECK(p.unit == Unit::us);
    CHECK(phase(p, "gemm_kernel").time == Approx(1.2));
    CHECK(phase(p, "relu_kernel").time == Approx(0.3));
}

TEST_CASE("nsys: a header without a unit uses --timeunit, else ns", "[import][nsys]") {
    const std::string path = temp("no_unit.csv",
                                  "Time(%),Total Time,Instances,Average,Minimum,Maximum,Name\n"
                                  "100.0,250,1,250.0,250,250,k\n");
    const Profile defaulted = load(path);
    CHECK(defaulted.unit == Unit::ns);
    // Read as ns, nsys's default, and said.
    CHECK(std::find(defaulted.notes.begin(), defaulted.notes.end(),
                    path + ":1: the time column does not say its unit: read as ns, nsys stats's default (give "
                           "--timeunit if it was run with another)") != defaulted.notes.end());
    ImportOptions options;
    options.timeunit = Unit::us;
    const Profile p = load(path, std::nullopt, options);
    CHECK(p.unit == Unit::us);
    CHECK(phase(p, "k").time == Approx(250));
}

TEST_CASE("nsys: the 2020 memory summary (Operations, Operation) read as nsys", "[import][nsys]") {
    const Profile p = load(data("handmade/nsys_gpumemtimesum_2020.csv"), InputFormat::nsys);
    REQUIRE(names(p) == std::vector<std::string>{"[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]", "[CUDA memset]"});
    CHECK(p.phases[0].kind == "copy");
    CHECK(p.phases[1].kind == "copy");
    CHECK(p.phases[2].kind == "memset");
    CHECK(p.phases[2].time == Approx(1000));
    CHECK_THAT(p.boundary, Contains("memory-operation times"));
}

TEST_CASE("nsys: every report in one stream, the lane picks the tables", "[import][nsys]") {
    const std::string path = data("handmade/nsys_stats_all_reports.txt");
    SECTION("automatic: the GPU tables (kernels and memory operations)") {
        const Profile p = load(path);
        CHECK(p.format == "nsys");
        REQUIRE(names(p) == std::vector<std::string>{"ampere_sgemm_128x64_nn(int, float*)", "relu_kernel",
                                                     "[CUDA memcpy Host-to-Device]", "[CUDA memset]"});
        CHECK(p.total() == Approx(15000 + 5000 + 8000 + 2000));
        CHECK(p.phases[3].kind == "memset");
        CHECK_THAT(p.boundary, Contains("kernel and memory-operation times"));
        CHECK(has_note(p,
                       "phases from cuda_gpu_kern_sum (line 29), cuda_gpu_mem_time_sum (line 37); left out: "
                       "nvtx_sum (line 6), osrt_sum (line 13), cuda_api_sum (line 20)"));
    }
    SECTION("--lane cpu: the CUDA API calls") {
        ImportOptions options;
        options.lane = Lane::cpu;
        const Profile p = load(path, std::nullopt, options);
        REQUIRE(names(p) == std::vector<std::string>{"cudaMemcpy", "cudaLaunchKernel", "cudaDeviceSynchronize"});
        CHECK(p.phases[0].kind == "runtime");
        CHECK(p.total() == Approx(40000));
        CHECK_THAT(p.boundary, Contains("CUDA API call times"));
    }
    SECTION("--lane all: refused, the reports overlap") {
        ImportOptions options;
        options.lane = Lane::all;
        CHECK(error_of(path, std::nullopt, options) ==
              "--lane: all: the file holds several nsys reports (nvtx_sum, osrt_sum, cuda_api_sum, cuda_gpu_kern_sum, "
              "cuda_gpu_mem_time_sum) and a summary cannot tell how they overlap; choose --lane gpu or --lane cpu");
    }
    SECTION("renaming across tables sums the rows; mixed kinds are 'mixed'") {
        ImportOptions options;
        options.rename_patterns = {{"sgemm|memcpy", "gemm+copy"}};
        const Profile p = load(path, std::nullopt, options);
        CHECK(phase(p, "gemm+copy").time == Approx(15000 + 8000));
        CHECK(phase(p, "gemm+copy").kind == "mixed");
        CHECK(phase(p, "relu_kernel").kind == "kernel");
    }
}

TEST_CASE("nsys: NVTX ranges say that they nest", "[import][nsys]") {
    const std::string path =
        temp("nvtx.csv",
             "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range\n"
             "70.0,700,1,700.0,700.0,700,700,0.0,PushPop,forward\n"
             "30.0,300,1,300.0,300.0,300,300,0.0,PushPop,backward\n");
    const Profile p = load(path);
    REQUIRE(names(p) == std::vector<std::string>{"forward", "backward"});
    CHECK(p.phases[0].kind == "annotation");
    CHECK(has_note(p, "NVTX ranges nest and overlap one another"));
}

TEST_CASE("summaries: --total turns the rest into 'unattributed'", "[import][nsys]") {
    const std::string path = data("handmade/nsys_gpukernsum_2021.csv");  // 7500 + 2500 ns
    ImportOptions options;
    SECTION("a total above the sum") {
        options.total = parse_quantity("20us");
        const Profile p = load(path, std::nullopt, options);
        CHECK(p.unit == Unit::ns);
        CHECK(phase(p, unattributed_phase).time == Approx(10000));
        CHECK(p.total() == Approx(20000));
        CHECK(p.boundary ==
              "the end-to-end time given with --total (20,000.0 ns); the kernel times in the nsys summary cover "
              "10,000.0 ns of it");
        CHECK(!has_note(p, "give --total"));
    }
    SECTION("a total below the sum: the rows overlapped") {
        options.total = parse_quantity("5us");
        CHECK(error_of(path, std::nullopt, options) ==
              "--total: the kernel times in the nsys summary add up to 10,000.0 ns, more than the end-to-end time "
              "5,000.0 ns: "
              "they overlapped (concurrent streams or threads), which a summary cannot show; import a trace instead");
    }
    SECTION("a total without a unit") {
        options.total = parse_quantity("20000");
        CHECK(error_of(path, std::nullopt, options) ==
              "--total: give the measured end-to-end time with its unit, e.g. 250ms (the file's times are in ns)");
    }
}

TEST_CASE("nsys: bad input names the file, the line and what was expected", "[import][nsys][errors]") {
    const std::string header =
        "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n";
    SECTION("a ragged row") {
        const std::string path =
            temp("ragged.csv", header + "60.0,600,1,600.0,600.0,600,600,0.0,a\n40.0,400,1,400.0,400,400,0.0,b\n");
        check_eval_error(path, path + ":3: expected 9 fields as in the header on line 1, got 8");
    }
    SECTION("a duration that is not a number") {
        const std::string path = temp("nan.csv", header + "60.0,lots,1,600.0,600.0,600,600,0.0,a\n");
        check_eval_error(path, path + ":2: column 'Total Time (ns)' must be a number (got 'lots')");
    }
    SECTION("a negative duration") {
        const std::string path = temp("negative.csv", header + "60.0,-600,1,600.0,600.0,600,600,0.0,a\n");
        check_eval_error(path, path + ":2: column 'Total Time (ns)' must be >= 0 (got '-600')");
    }
    SECTION("a header and no rows") {
        const std::string path = temp("empty.csv", "Processing [r.sqlite]...\n\n" + header);
        check_eval_error(path, path + ":3: the nsys table has no rows after its header");
    }
    SECTION("a quoted name left open") {
        const std::string path = temp("open_quote.csv", header + "60.0,600,1,600.0,600.0,600,600,0.0,\"a, b\n");
        check_eval_error(path, path + ":2: a quoted field is not closed on its line");
    }
    SECTION("--input-format nsys on a CSV with none of its headers") {
        const std::string path = temp("not_nsys.csv", "phase,time\nload,3\n");
        CHECK(error_of(path, InputFormat::nsys) ==
              path +
                  ":1: expected an nsys stats CSV header like 'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),"
                  "Min (ns),Max (ns),StdDev (ns),Name' (from nsys stats --format csv)");
    }
    SECTION("--lane gpu on an API-only file") {
        const std::string path =
            temp("api.csv",
                 "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
                 "100.0,10,1,10.0,10.0,10,10,0.0,cudaMalloc\n");
        ImportOptions options;
        options.lane = Lane::gpu;
        CHECK(error_of(path, std::nullopt, options) ==
              "--lane: gpu: the file holds no GPU report (cuda_gpu_kern_sum, cuda_gpu_mem_time_sum), only the CUDA API "
              "summary");
    }
}

// ---------------------------------------------------------------------------------------------
// rocprof stats

TEST_CASE("rocprof stats: real rocprofv3 hip_api_stats.csv", "[import][rocprof]") {
    const Profile p = load(data("rocprofv3/rocm-systems-2025/hip_api_stats.csv"));
    CHECK(p.format == "rocprof-stats");
    CHECK(p.summary_only);
    CHECK(p.unit == Unit::ns);
    REQUIRE(p.phases.size() == 17);
    CHECK(p.total() == Approx(308269675));
    CHECK(phase(p, "hipStreamCreateWithFlags").time == Approx(262497406));
    CHECK(phase(p, "hipStreamCreateWithFlags").kind == "runtime");
    CHECK(phase(p, "__hipRegisterFatBinary").kind == "runtime");
    CHECK_THAT(p.boundary, Contains("API call times in the rocprof stats"));
    CHECK(has_note(p, "summary only (rocprof-stats)"));
}

TEST_CASE("rocprof stats: the 2024 sample and the domain totals", "[import][rocprof]") {
    CHECK(load(data("rocprofv3/rocprofiler-sdk-2024/hip_api_stats.csv")).phases.size() == 17);
    const Profile domains = load(data("rocprofv3/rocm-systems-2025/hip_domain_stats.csv"));
    REQUIRE(names(domains) == std::vector<std::string>{"HIP_API"});
    CHECK(domains.phases[0].time == Approx(458514859));
    CHECK(domains.phases[0].kind == "runtime");
}

TEST_CASE("rocprof stats: legacy results.stats.csv, shares from the totals", "[import][rocprof]") {
    const Profile p = load(data("rocprof-legacy/finite-difference_results.stats.csv"));
    CHECK(p.format == "rocprof-stats");
    REQUIRE(p.phases.size() == 4);
    CHECK(p.total() == Approx(2610787312));
    const Phase& laplacian = phase(p,
                                   "void laplacian_kernel<double>(double*, double const*, int, int, int, double, "
                                   "double, double, double) [clone .kd]");
    CHECK(laplacian.kind == "kernel");
    CHECK(laplacian.time / p.total() == Approx(2608618986.0 / 2610787312.0));
    CHECK(phase(p, "__amd_rocclr_fillBufferAligned.kd").time == Approx(5440));
}

TEST_CASE("rocprof stats: unescaped quotes, commas and scientific notation", "[import][rocprof]") {
    const std::string path = data("handmade/rocprofv3_kernel_stats_quotes.csv");
    const Profile p = load(path);
    REQUIRE(names(p) == std::vector<std::string>{"void gemm<\"tile\", 64>(float const*, float*, int)",
                                                 "copy_kernel(char*, char const*)", "tiny_kernel"});
    CHECK(p.phases[0].time == Approx(6000));
    CHECK(p.phases[2].time == Approx(1000));  // written 1.0e+03
    CHECK(p.where(p.phases[0]) == path + ":2");
    // The Percentage column sums to 100.02: ignored.
    CHECK(p.phases[0].time / p.total() == Approx(0.6));
    CHECK(p.notes.size() == 1);  // "summary only", and no note about the percentages
}

TEST_CASE("rocprof stats: legacy header with CRLF line ends, copies", "[import][rocprof]") {
    const Profile p = load(data("handmade/rocprof_copy_stats_crlf.csv"));
    REQUIRE(names(p) == std::vector<std::string>{"MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST"});
    CHECK(p.phases[0].kind == "copy");
    CHECK(p.phases[0].time == Approx(2500));
    CHECK(p.phases[1].time == Approx(500));
    CHECK_THAT(p.boundary, Contains("memory copy times in the rocprof stats"));
}

TEST_CASE("rocprof stats: bad input", "[import][rocprof][errors]") {
    const std::string header = "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\"\n";
    SECTION("a row with too few fields") {
        const std::string path = temp("rocprof_ragged.csv", header + "\"a\",1,10,10,50.0\n\"b\",1,10\n");
        check_eval_error(path, path + ":3: expected 5 fields as in the header on line 1, got 3");
    }
    SECTION("a duration that is not a number") {
        const std::string path = temp("rocprof_nan.csv", header + "\"a\",1,ten,10,100.0\n");
        check_eval_error(path, path + ":2: column 'TotalDurationNs' must be a number (got 'ten')");
    }
    SECTION("a negative duration") {
        const std::string path = temp("rocprof_negative.csv", header + "\"a\",1,-1e3,10,100.0\n");
        check_eval_error(path, path + ":2: column 'TotalDurationNs' must be >= 0 (got '-1e3')");
    }
    SECTION("no rows") {
        const std::string path = temp("rocprof_empty.csv", header);
        check_eval_error(path, path + ":1: the rocprof stats table has no rows after its header");
    }
    SECTION("--input-format rocprof-stats on another CSV") {
        const std::string path = temp("rocprof_not.csv", "# exported\nName,Time\na,1\n");
        CHECK(error_of(path, InputFormat::rocprof_stats) ==
              path +
                  ":1: expected a rocprof stats header like \"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\","
                  "\"Percentage\" (rocprofv3 *_stats.csv or rocprof results.stats.csv)");
    }
}

// ---------------------------------------------------------------------------------------------
// rocprofv3 --summary

TEST_CASE("rocprof summary: real summary.txt, GPU domains by default", "[import][rocprof-summary]") {
    const std::string path = data("rocprofv3/rocm-systems-2025/summary.txt");
    const Profile p = load(path);
    CHECK(p.format == "rocprof-summary");
    CHECK(p.summary_only);
    CHECK(p.unit == Unit::ns);
    REQUIRE(names(p) ==
            std::vector<std::string>{"void addition_kernel<float>(float*, float const*, float const*, int, int)",
                                     "divide_kernel(float*, float const*, float const*, int, int)",
                                     "multiply_kernel(float*, float const*, float const*, int, int)",
                                     "subtract_kernel(float*, float const*, float const*, int, int)",
                                     "MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST"});
    CHECK(p.phases[0].time == Approx(184324));
    CHECK(p.phases[0].kind == "kernel");
    CHECK(p.phases[4].time == Approx(3691929));
    CHECK(p.phases[4].kind == "copy");
    CHECK(p.total() == Approx(184324 + 94482 + 91763 + 82521 + 3691929 + 626417));
    CHECK(has_note(p, path + ": phases from the KERNEL_DISPATCH and MEMORY_COPY domains (--lane gpu); left out: "
                             "HSA_API, HIP_API and MEMORY_ALLOCATION (choose with --lane gpu or --lane cpu)"));
    CHECK_THAT(p.boundary, Contains("KERNEL_DISPATCH and MEMORY_COPY times in the rocprof summary"));
}

TEST_CASE("rocprof summary: --lane cpu takes the HIP calls, not the HSA calls inside them",
          "[import][rocprof-summary]") {
    ImportOptions options;
    options.lane = Lane::cpu;
    const Profile p = load(data("rocprofv3/rocm-systems-2025/summary.txt"), std::nullopt, options);
    REQUIRE(p.phases.size() == 17);
    CHECK(phase(p, "hipStreamCreateWithFlags").time == Approx(406507215));
    CHECK(phase(p, "hipStreamCreateWithFlags").kind == "runtime");
    CHECK(!p.find("hsa_queue_create"));
    CHECK(has_note(p, "phases from the HIP_API domain (--lane cpu; HSA calls are made inside HIP calls)"));

    options.lane = Lane::all;
    CHECK_THAT(error_of(data("rocprofv3/rocm-systems-2025/summary.txt"), std::nullopt, options),
               Contains("--lane: all: the rocprof summary's domains nest and overlap"));
}

TEST_CASE("rocprof summary: -u usec, one combined section, a group section, '|' in a name",
          "[import][rocprof-summary]") {
    const std::string path = data("handmade/rocprofv3_summary_usec.txt");
    const Profile p = load(path);
    CHECK(p.unit == Unit::us);
    REQUIRE(names(p) == std::vector<std::string>{"gemm|fused (int, int)", "relu_kernel", "MEMORY_COPY_HOST_TO_DEVICE"});
    CHECK(p.phases[0].time == Approx(600));
    CHECK(p.phases[2].time == Approx(150));
    CHECK(p.where(p.phases[0]) == path + ":10");
    CHECK(has_note(p, "left out the --summary-groups section GEMM"));

    ImportOptions cpu;
    cpu.lane = Lane::cpu;
    const Profile host = load(path, std::nullopt, cpu);
    REQUIRE(names(host) == std::vector<std::string>{"hipMemcpy"});
    CHECK(host.phases[0].time == Approx(1200));
}

TEST_CASE("rocprof summary: domain names in notes never carry raw terminal escapes", "[import][rocprof-summary]") {
    const std::string path = temp("summary_escape.txt",
                                  "ROCPROFV3 SUMMARY:\n\n"
                                  "| NAME | DOMAIN | CALLS | DURATION (nsec) |\n"
                                  "| k | KERNEL_DISPATCH | 1 | 10 |\n"
                                  "| f | HIP\x1b[2J_API | 1 | 10 |\n");
    const auto r = run_cli({"eval", path}, "");
    CHECK(r.exit_code == 0);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK_THAT(r.err, Contains("left out: HIP\\x1B[2J_API"));
}

TEST_CASE("rocprof summary: bad input", "[import][rocprof-summary][errors]") {
    const std::string head =
        "ROCPROFV3 KERNEL_DISPATCH SUMMARY:\n\n"
        "| NAME | DOMAIN | CALLS | DURATION (nsec) | AVERAGE (nsec) |\n"
        "|------|--------|-------|-----------------|----------------|\n";
    SECTION("a row with too few columns") {
        const std::string path = temp("summary_ragged.txt", head + "| k | KERNEL_DISPATCH | 1 | 10 |\n");
        check_eval_error(path, path + ":5: expected 5 columns as in the header on line 3, got 4");
    }
    SECTION("a duration that is not a number") {
        const std::string path = temp("summary_nan.txt", head + "| k | KERNEL_DISPATCH | 1 | n/a | 10 |\n");
        check_eval_error(path, path + ":5: column 'DURATION (nsec)' must be a number (got 'n/a')");
    }
    SECTION("a header and no rows") {
        const std::string path = temp("summary_empty.txt", head);
        check_eval_error(path, path + ":3: the summary table has no rows after its header");
    }
    SECTION("--input-format rocprof-summary on something else") {
        const std::string path = temp("summary_not.txt", "load 3 ms\nsolve 5 ms\n");
        CHECK(error_of(path, InputFormat::rocprof_summary) ==
              path +
                  ":1: expected rocprofv3 --summary tables: 'ROCPROFV3 <DOMAIN> SUMMARY:' sections with a "
                  "'| NAME | DOMAIN | CALLS | DURATION (nsec) | ...' header");
    }
}

// ---------------------------------------------------------------------------------------------
// Naming: --rename and --group-by

TEST_CASE("naming: --rename-regex in order, first match wins, --group-by", "[import][naming]") {
    ImportOptions options;
    options.rename_patterns = {{"gemm|cutlass", "gemm"}, {"gemm_.*", "never"}, {"^void ", "void-kernels"}};
    const detail::PhaseNamer namer(options);
    CHECK(namer("void cutlass::Kernel2<...>", "kernel") == "gemm");
    CHECK(namer("ampere_sgemm_128x64", "kernel") == "gemm");
    CHECK(namer("void softmax<float>", "kernel") == "void-kernels");
    CHECK(namer("relu", "kernel") == "relu");

    options.rename_patterns.clear();
    options.group_by = "cat";
    CHECK(detail::phase_name("relu", "kernel", options) == "kernel");
    CHECK(detail::phase_name("relu", "", options) == "relu");

    options.group_by = "regex:at::native::(\\w+)<";
    CHECK(detail::phase_name("void at::native::vectorized_elementwise_kernel<(int)4>", "", options) ==
          "vectorized_elementwise_kernel");
    CHECK(detail::phase_name("gemm", "", options) == "gemm");  // no match: the name itself
    options.group_by = "regex:[a-z]+_kernel";
    CHECK(detail::phase_name("void relu_kernel<float>", "", options) == "relu_kernel");  // no group: the match
}

TEST_CASE("naming: --group-by regex on the real nsys kernels", "[import][naming][nsys]") {
    ImportOptions options;
    options.group_by = "regex:(\\w+)_kernel";
    const Profile p = load(data("nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv"), std::nullopt, options);
    CHECK(p.phases.size() == 25);
    CHECK(p.total() == Approx(179072697));
    CHECK(phase(p, "vectorized_elementwise").time == Approx(33450611));

    options.group_by = "name";
    options.rename_patterns = {{"gemvx", "gemv"}, {"elementwise", "elementwise"}};
    const Profile renamed = load(data("nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv"), std::nullopt, options);
    CHECK(phase(renamed, "gemv").time == Approx(88030004));
    CHECK(phase(renamed, "elementwise").time == Approx(58871636));
    CHECK(renamed.total() == Approx(179072697));
}

TEST_CASE("naming: bad patterns name the option", "[import][naming][errors]") {
    ImportOptions options;
    options.rename_patterns = {{"gemm(", "gemm"}};
    CHECK_THROWS_WITH(detail::PhaseNamer(options),
                      StartsWith("--rename-regex: 'gemm(=gemm' is not a valid regular expression ("));
    options.rename_patterns = {{"gemm", ""}};
    CHECK_THROWS_WITH(detail::PhaseNamer(options), "--rename-regex: 'gemm=': the name after '=' is empty");
    options.rename_patterns.clear();
    options.group_by = "regex:[";
    CHECK_THROWS_WITH(detail::PhaseNamer(options),
                      StartsWith("--group-by: 'regex:[' is not a valid regular expression ("));
    options.group_by = "kernel";
    CHECK_THROWS_WITH(detail::PhaseNamer(options),
                      "--group-by: expected name, cat, class or regex:PATTERN (got 'kernel')");
    options.group_by = "regex:";
    CHECK_THROWS_WITH(detail::PhaseNamer(options), "--group-by: 'regex:': the regular expression is empty");
}

TEST_CASE("summaries: the command-line options", "[import][cli]") {
    SECTION("--input-format nsys on a CSV with none of its headers") {
        const std::string path = temp("cli_not_nsys.csv", "phase,time\nload,3\n");
        const auto r = run_cli({"eval", path, "--input-format", "nsys"}, "");
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "error: " + path +
                           ":1: expected an nsys stats CSV header like 'Time (%),Total Time (ns),Instances,"
                           "Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name' (from nsys stats --format csv)\n");
    }
    SECTION("--input-format rocprof-stats and rocprof-summary on other files") {
        const std::string path = temp("cli_not_rocprof.csv", "phase,time\nload,3\n");
        auto r = run_cli({"eval", path, "--input-format", "rocprof-stats"}, "");
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains(path + ":1: expected a rocprof stats header like"));
        r = run_cli({"eval", path, "--input-format", "rocprof-summary"}, "");
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains(path + ":1: expected rocprofv3 --summary tables"));
    }
    SECTION("--lane cpu picks the API table") {
        const auto r =
            run_cli({"eval", data("handmade/nsys_stats_all_reports.txt"), "--lane", "cpu", "--format", "csv"}, "");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\ncudaMemcpy,runtime,2,24000,60,"));  // 2 calls (Num Calls)
        CHECK_THAT(r.out, !Contains("relu_kernel"));
    }
    SECTION("--total and a speedup") {
        // 7500 + 2500 ns of kernels in 20 us: gemm_kernel 2x saves 3750 ns of 20000.
        const auto r = run_cli({"eval", data("handmade/nsys_gpukernsum_2021.csv"), "--total", "20us", "-s",
                                "gemm_kernel=2", "--format", "json"},
                               "");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\"speedup\": 1.23076923076923"));
        CHECK_THAT(r.err, Contains("is phase 'unattributed'"));
    }
    SECTION("--total without a unit") {
        const auto r = run_cli({"eval", data("handmade/nsys_gpukernsum_2021.csv"), "--total", "20000"}, "");
        CHECK(r.exit_code == 2);
        CHECK(r.err ==
              "error: --total: give the measured end-to-end time with its unit, e.g. 250ms (the file's times are in "
              "ns)\n");
    }
    SECTION("--rename-regex and --group-by") {
        auto r = run_cli({"eval", data("nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv"), "--rename-regex",
                          "gemvx=gemv", "--format", "csv"},
                         "");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\ngemv,kernel,18752,88030004,"));  // 16448 + 2304 calls
        r = run_cli(
            {"eval", data("nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv"), "--group-by", "regex:(bad"}, "");
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, StartsWith("error: --group-by: 'regex:(bad' is not a valid regular expression ("));
    }
    SECTION("--timeunit for a header without a unit") {
        const std::string path = temp("cli_no_unit.csv",
                                      "Time(%),Total Time,Instances,Average,Minimum,Maximum,Name\n"
                                      "100.0,250,1,250.0,250,250,k\n");
        const auto r = run_cli({"eval", path, "--timeunit", "us", "--format", "csv"}, "");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("time_us"));
        CHECK_THAT(r.out, Contains("\nk,kernel,1,250,"));
    }
    SECTION("--lane cpu on the rocprof summary") {
        const auto r =
            run_cli({"eval", data("rocprofv3/rocm-systems-2025/summary.txt"), "--lane", "cpu", "--format", "csv"}, "");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\nhipStreamCreateWithFlags,runtime,8,406507215,"));
        CHECK_THAT(r.out, !Contains("hsa_queue_create"));
    }
}

TEST_CASE("naming: patterns that make a backtracking engine explode run in linear time", "[import][naming]") {
    // (a|aa)*c on a run of a's backtracks exponentially in std::regex (and overflowed its stack
    // on long names); RE2 answers at once. A regression here hangs the test.
    ImportOptions options;
    options.rename_patterns = {{"(a|aa)*c", "never"}};
    options.group_by = "regex:(x+x+)+y";
    const detail::PhaseNamer namer(options);
    const std::string long_name(20000, 'a');
    CHECK(namer(long_name, "kernel") == long_name);
    const std::string xs = std::string(5000, 'x') + "y";
    CHECK(namer(xs, "kernel") == std::string(5000, 'x'));  // one iteration takes every x (leftmost-first, greedy)
}

TEST_CASE("nsys trace CSVs are timelines: a start is never a duration", "[import][nsys]") {
    // cuda_gpu_trace: copy 0-4 us, gemm 4-14 us on stream 7, memset 8-14 us on stream 13, softmax
    // 20-22 us. Read as a summary it summed starts; read as a CSV it took Start for a duration.
    const std::string path = data("handmade/nsys_cuda_gpu_trace.csv");
    std::istringstream none;
    const Profile profile = load_profile(path, none, std::nullopt, {});
    CHECK(profile.format == "nsys-trace");
    CHECK(profile.unit == Unit::ns);
    std::map<std::string, double> t;
    for (const auto& phase : profile.phases) t[phase.name] = phase.time;
    CHECK(t.at("[CUDA memcpy Host-to-Device]") == Approx(4000));
    CHECK(t.at("void gemm_kernel<float, 128>(float const*, float*, int)") == Approx(4000));  // alone 4-8 us
    CHECK(t.at("overlapped") == Approx(6000));                                               // gemm and memset
    CHECK(t.at("idle") == Approx(6000));
    CHECK(t.at("softmax_kernel") == Approx(2000));
    CHECK(profile.total() == Approx(22000));
    for (const auto& phase : profile.phases) {
        if (phase.name == "[CUDA memset]") CHECK(phase.kind == "memset");
        if (phase.name == "[CUDA memcpy Host-to-Device]") CHECK(phase.kind == "copy");
    }
    // --stream picks one stream; --input-format nsys-trace forces the reader.
    ImportOptions stream;
    stream.streams = {"13"};
    const Profile only = load_profile(path, none, InputFormat::nsys_trace, stream);
    REQUIRE(only.phases.size() == 1);
    CHECK(only.phases[0].time == Approx(6000));

    // A header without units needs --timeunit.
    const std::string bare = test::write_temp("nsys_trace_bare.csv", "Start,Duration,CorrId,Strm,Name\n0,5,1,7,k\n");
    auto r = run_cli({"eval", bare});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("nsys_trace_bare.csv:1: column 'Start' does not say its unit; give --timeunit"));
    r = run_cli({"eval", bare, "--timeunit", "us", "--format", "csv"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nk,kernel,1,5000,"));
    // A --timeunit that contradicts the header's unit is an error, not ignored.
    const std::string with_units =
        test::write_temp("nsys_trace_units.csv", "Start (us),Duration (us),CorrId,Strm,Name\n5,10,11,7,gemm_kernel\n");
    r = run_cli({"eval", with_units, "--timeunit", "ns"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("nsys_trace_units.csv:1: --timeunit ns contradicts column 'Start (us)', which says "
                               "its unit is us (--timeunit is for columns that do not say)"));
    CHECK(run_cli({"eval", with_units, "--timeunit", "us"}).exit_code == 0);
    const std::string summary =
        test::write_temp("nsys_sum_units.csv", "Time (%),Total Time (ns),Instances,Name\n100.0,250,1,k\n");
    r = run_cli({"eval", summary, "--timeunit", "us"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("nsys_sum_units.csv:1: --timeunit us contradicts column 'Total Time (ns)', which says "
                               "its unit is ns"));
}
