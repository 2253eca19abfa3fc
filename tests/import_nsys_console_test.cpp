// nsys's console tables: what `nsys profile --stats=true` and `nsys stats` print by default, one
// space-aligned table per report under "[6/8] Executing 'cuda_gpu_kern_sum' stats report" (or
// "Processing [...] with [.../cuda_gpu_kern_sum.py]..."), with dash separator lines that give the
// columns. tests/data/profilers/handmade/nsys_stats_console.txt copies that layout exactly.
#include <catch2/catch.hpp>

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

namespace {

const std::string console_path = source_path("tests/data/profilers/handmade/nsys_stats_console.txt");

Profile load(const std::string& path, const ImportOptions& options = {}) {
    std::istringstream no_stdin;
    return amdahl::load_profile(path, no_stdin, std::nullopt, options);
}

std::vector<std::string> names(const Profile& profile) {
    std::vector<std::string> out;
    for (const auto& p : profile.phases) out.push_back(p.name);
    return out;
}

std::vector<double> times(const Profile& profile) {
    std::vector<double> out;
    for (const auto& p : profile.phases) out.push_back(p.time);
    return out;
}

std::string temp(const std::string& name, const std::string& content) {
    return write_temp("nsys_console_" + name, content);
}

void check_eval_error(const std::string& path, const std::string& message) {
    const auto r = run_cli({"eval", path}, "");
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + message + "\n");
}

// One kernel table as nsys 2023-2024 prints it (thousands separators, centred headers).
const std::string kernel_table =
    " Time (%)  Total Time (ns)  Instances   Avg (ns)     Med (ns)    Min (ns)   Max (ns)   StdDev (ns)   "
    "             Name               \n"
    " --------  ---------------  ---------  -----------  -----------  ---------  ---------  -----------  "
    "---------------------------------\n"
    "     75.0        3,000,000          1  3,000,000.0  3,000,000.0  3,000,000  3,000,000          0.0  "
    "matmul_gpu(float *, float *, int)\n"
    "     25.0        1,000,000          4    250,000.0    250,000.0    250,000    250,000          0.0  "
    "add(int, float *, float *)       \n";

}  // namespace

TEST_CASE("nsys console: --stats=true output, the GPU sections by default", "[import][nsys][console]") {
    const Profile p = load(console_path);
    CHECK(p.format == "nsys");
    CHECK(p.summary_only);
    CHECK(p.unit == Unit::ns);
    REQUIRE(names(p) == std::vector<std::string>{"void gemm_kernel<float, 128>(const float *, float *, int)",
                                                 "matmul_gpu(float *, float *, float *, int, int, int)",
                                                 "add(int, float *, float *)", "[CUDA memcpy Host-to-Device]",
                                                 "[CUDA memset]"});
    CHECK(times(p) == std::vector<double>{6000000, 3000000, 1000000, 1500000, 500000});
    CHECK(p.phases[0].kind == "kernel");
    CHECK(p.phases[3].kind == "copy");
    CHECK(p.phases[4].kind == "memset");
    CHECK(p.where(p.phases[0]) == console_path + ":27");
    CHECK(p.where(p.phases[4]) == console_path + ":36");
    CHECK(p.boundary ==
          "the sum of the kernel and memory-operation times in the nsys summary (not a measured wall time: give "
          "--total for that)");
    REQUIRE(p.notes.size() == 3);
    CHECK(p.notes[0] == console_path +
                            ": summary only (nsys): per-name totals carry no timing overlap information, so the rows "
                            "are summed as if they ran one after another; give --total with the measured end-to-end "
                            "time to account for the rest");
    CHECK(p.notes[1] == console_path +
                            ": phases from cuda_gpu_kern_sum (line 25), cuda_gpu_mem_time_sum (line 33); left out: "
                            "osrt_sum (line 10), cuda_api_sum (line 17) (choose with --lane gpu or --lane cpu)");
    CHECK(p.notes[2] == console_path +
                            ": sections that hold no phases: nvtx_sum (line 7: nsys skipped it, no data), "
                            "cuda_gpu_mem_size_sum (line 40: no Total Time column, not a time summary)");
}

TEST_CASE("nsys console: --lane cpu takes the CUDA API section", "[import][nsys][console]") {
    ImportOptions options;
    options.lane = Lane::cpu;
    const Profile p = load(console_path, options);
    REQUIRE(names(p) == std::vector<std::string>{"cudaMalloc", "cudaMemcpy", "cudaLaunchKernel"});
    CHECK(times(p) == std::vector<double>{80000000, 15000000, 5000000});
    CHECK(p.phases[0].kind == "runtime");
}

TEST_CASE("nsys console: eval from the command line, the summary-only note on stderr", "[import][nsys][console][cli]") {
    const auto r = run_cli({"eval", console_path, "-s", "glob:void gemm_kernel*=2", "--format", "csv"}, "");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out ==
          "name,kind,calls,time_ns,share_pct,factor,new_time_ns,saved_ns\n"
          "\"void gemm_kernel<float, 128>(const float *, float *, int)\",kernel,3,6000000,50,2,3000000,3000000\n"
          "\"matmul_gpu(float *, float *, float *, int, int, int)\",kernel,1,3000000,25,1,3000000,0\n"
          "\"add(int, float *, float *)\",kernel,4,1000000,8.333333333333334,1,1000000,0\n"
          "[CUDA memcpy Host-to-Device],copy,2,1500000,12.5,1,1500000,0\n"
          "[CUDA memset],memset,1,500000,4.166666666666667,1,500000,0\n");
    CHECK(r.err.find("note: " + console_path + ": summary only (nsys)") != std::string::npos);
}

TEST_CASE("nsys console: from standard input too", "[import][nsys][console][cli]") {
    const auto r = run_cli({"eval", "-", "--format", "csv"}, test::read_file(console_path));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\"add(int, float *, float *)\",kernel,4,1000000,") != std::string::npos);
}

TEST_CASE("nsys console: an excerpt that starts at the report line is not JSON", "[import][nsys][console]") {
    const std::string path = temp("excerpt.txt", "[6/8] Executing 'cuda_gpu_kern_sum' stats report\n\n" + kernel_table +
                                                     "\n[7/8] Executing 'cuda_gpu_mem_time_sum' stats report\n");
    const Profile p = load(path);
    CHECK(p.format == "nsys");
    REQUIRE(names(p) == std::vector<std::string>{"matmul_gpu(float *, float *, int)", "add(int, float *, float *)"});
    CHECK(times(p) == std::vector<double>{3000000, 1000000});
    // cuda_gpu_mem_time_sum was announced and the text ends before its table.
    REQUIRE(p.notes.size() == 2);
    CHECK(p.notes[1] == path + ": sections that hold no phases: cuda_gpu_mem_time_sum (line 8: no time table follows)");
}

TEST_CASE("nsys console: `nsys stats` with Processing lines and report titles", "[import][nsys][console]") {
    const std::string path =
        temp("processing.txt",
             "Processing [report1.sqlite] with [/opt/nvidia/nsight-systems/2023.2.3/host-linux-x64/reports/"
             "cuda_gpu_kern_sum.py]... \n\n ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n\n" +
                 kernel_table +
                 "\nProcessing [report1.sqlite] with [/opt/nvidia/nsight-systems/2023.2.3/host-linux-x64/reports/"
                 "openmp_sum.py]... \nSKIPPED: report1.sqlite does not contain OpenMP event data.\n\n");
    const Profile p = load(path);
    REQUIRE(names(p) == std::vector<std::string>{"matmul_gpu(float *, float *, int)", "add(int, float *, float *)"});
    REQUIRE(p.notes.size() == 2);
    CHECK(p.notes[1] == path + ": sections that hold no phases: openmp_sum (line 11: nsys skipped it, no data)");
}

TEST_CASE("nsys console: the 2021 layout without thousands separators", "[import][nsys][console]") {
    const std::string path =
        temp("2021.txt",
             " Time(%)  Total Time (ns)  Instances  Average  Minimum  Maximum         Name        \n"
             " -------  ---------------  ---------  -------  -------  -------  -------------------\n"
             "    80.0             8000          2   4000.0     3900     4100  scale kernel<float>\n"
             "    20.0             2000          1   2000.0     2000     2000  reduce               \n");
    const Profile p = load(path);
    CHECK(p.format == "nsys");
    REQUIRE(names(p) == std::vector<std::string>{"scale kernel<float>", "reduce"});
    CHECK(times(p) == std::vector<double>{8000, 2000});
    CHECK(p.notes.size() == 1);  // one table: no note on sections
}

TEST_CASE("nsys console: NVTX ranges under Style and Range columns", "[import][nsys][console]") {
    const std::string path = temp(
        "nvtx.txt",
        "[3/8] Executing 'nvtx_sum' stats report\n\n"
        " Time (%)  Total Time (ns)  Instances   Avg (ns)     Med (ns)    Min (ns)   Max (ns)   StdDev (ns)   Style  "
        "     Range    \n"
        " --------  ---------------  ---------  -----------  -----------  ---------  ---------  -----------  -------  "
        "------------\n"
        "     95.0        3,481,709          1  3,481,709.0  3,481,709.0  3,481,709  3,481,709          0.0  PushPop  "
        "Profile Loop\n"
        "      5.0          182,472          1    182,472.0    182,472.0    182,472    182,472          0.0  PushPop  "
        "Warmup      \n");
    const Profile p = load(path);
    REQUIRE(names(p) == std::vector<std::string>{"Profile Loop", "Warmup"});
    CHECK(times(p) == std::vector<double>{3481709, 182472});
    CHECK(p.phases[0].kind == "annotation");
}

TEST_CASE("nsys console: rows that do not fit the columns are errors naming the line",
          "[import][nsys][console][errors]") {
    const std::string header =
        "[6/8] Executing 'cuda_gpu_kern_sum' stats report\n\n" + kernel_table.substr(0, kernel_table.find("     75.0"));
    SECTION("a value across a column gap") {
        const std::string path =
            temp("shifted.txt", header +
                                    "     75.0          3,000,000       1  3,000,000.0  3,000,000.0  3,000,000  "
                                    "3,000,000          0.0  matmul\n");
        check_eval_error(path, path +
                                   ":5: the row does not line up with the columns of the header on line 3 (text at "
                                   "column 27, between 'Total Time (ns)' and 'Instances')");
    }
    SECTION("a row that ends before the name column") {
        const std::string path = temp("short.txt", header + "     75.0        3,000,000          1\n");
        check_eval_error(path, path + ":5: the row ends before the 'Name' column of the header on line 3");
    }
    SECTION("a total that is not a number") {
        const std::string path =
            temp("nan.txt", header +
                                "     75.0             lots          1  3,000,000.0  3,000,000.0  3,000,000  "
                                "3,000,000          0.0  matmul\n");
        check_eval_error(path, path + ":5: column 'Total Time (ns)' must be a number (got 'lots')");
    }
    SECTION("a row with an empty name") {
        const std::string path =
            temp("noname.txt", header +
                                   "     75.0        3,000,000          1  3,000,000.0  3,000,000.0  3,000,000  "
                                   "3,000,000          0.0     \n");
        check_eval_error(path, path + ":5: the 'Name' column is empty");
    }
    SECTION("a header and no rows") {
        const std::string path = temp("norows.txt", header + "\n");
        check_eval_error(path, path + ":3: the nsys table has no rows after its header");
    }
}
