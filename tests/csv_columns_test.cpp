// Table columns that are not durations (issue 12): start, end and timestamp columns, per-call
// averages and statistics, and calls columns, in CSV, TSV, Markdown and pasted text.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "support.hpp"

using namespace amdahl;
using amdahl::test::run_cli;
using amdahl::test::write_temp;

namespace {

Profile read(const std::string& content, InputFormat format = InputFormat::csv) {
    return parse_profile(content, "t.csv", format, {});
}

using Table = std::vector<std::pair<std::string, double>>;

Table table(const Profile& profile) {
    Table out;
    for (const auto& p : profile.phases) out.emplace_back(p.name, p.time);
    return out;
}

}  // namespace

TEST_CASE("csv columns: a start column is never read as a duration", "[csv-columns]") {
    const Profile p = read("name,start_ms,duration_ms\na,100,5\nb,105,7\n");
    CHECK(table(p) == Table{{"a", 5}, {"b", 7}});
    CHECK(p.unit == Unit::ms);
    REQUIRE(p.notes.size() == 1);
    CHECK(p.notes[0] ==
          "t.csv:1: column 'start_ms' holds start times, not durations; the phase time is column "
          "'duration_ms'");
}

TEST_CASE("csv columns: timestamp, begin and 'Start Time' columns are start times", "[csv-columns]") {
    for (const char* header : {"timestamp", "ts", "Start Time", "begin_us", "StartNs", "Start (ns)", "Begin"}) {
        INFO(header);
        const Profile p = read(std::string("name,") + header + ",time (ms)\na,1000,5\nb,2000,7\n");
        CHECK(table(p) == Table{{"a", 5}, {"b", 7}});
    }
}

TEST_CASE("csv columns: end minus start when there is no duration column", "[csv-columns]") {
    const Profile p = read("name,start_us,end_us\na,100,150\nb,150,400\n");
    CHECK(p.unit == Unit::us);
    CHECK(table(p) == Table{{"a", 50}, {"b", 250}});
    REQUIRE(p.notes.size() == 1);
    CHECK(p.notes[0] == "t.csv:1: the phase time is column 'end_us' minus column 'start_us'");
    // CamelCase headers (legacy rocprof's BeginNs/EndNs), read as a plain CSV.
    CHECK(table(read("Name,BeginNs,EndNs\nk,1000,1600\n")) == Table{{"k", 600}});
    // End before start is an error naming the row.
    CHECK(test::parse_error("name,start_us,end_us\na,100,150\nb,300,200\n") ==
          "t.csv:3: phase 'b': end 200 is before start 300");
}

TEST_CASE("csv columns: an end-to-end latency is a duration, not an end time", "[csv-columns]") {
    CHECK(table(read("name,End-to-end latency (ms)\na,5\nb,7\n")) == Table{{"a", 5}, {"b", 7}});
    CHECK(table(read("name,end to end time\na,5\n")) == Table{{"a", 5}});
}

TEST_CASE("csv columns: nsys cuda_gpu_trace exported as CSV takes Duration, never Start", "[csv-columns]") {
    // Rows of one kernel are summed per name; two streams overlap, which a note says.
    const std::string trace =
        "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),"
        "Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n"
        "1000000,2000,120,,,,,,,,,,4.194,2097.0,Pageable,Device,NVIDIA A100 (0),1,,7,[CUDA memcpy Host-to-Device]\n"
        "1003000,5000,125,256,1,1,256,1,1,32,0.000,0.000,,,,,NVIDIA A100 (0),1,,7,gemm_kernel\n"
        "1006000,1500,130,64,1,1,128,1,1,16,0.000,0.000,,,,,NVIDIA A100 (0),1,,13,softmax_kernel\n"
        "1008000,5000,135,256,1,1,256,1,1,32,0.000,0.000,,,,,NVIDIA A100 (0),1,,7,gemm_kernel\n";
    const Profile p = read(trace);
    CHECK(p.unit == Unit::ns);
    CHECK(table(p) == Table{{"[CUDA memcpy Host-to-Device]", 2000}, {"gemm_kernel", 10000}, {"softmax_kernel", 1500}});
    REQUIRE(p.notes.size() == 3);
    CHECK(p.notes[0] ==
          "t.csv:1: column 'Start (ns)' holds start times, not durations; the phase time is column 'Duration (ns)'");
    CHECK(p.notes[1] ==
          "t.csv: 1 name is on more than one row (first 'gemm_kernel', lines 3 and 5): each name's rows "
          "are added up into one phase");
    CHECK(p.notes[2] ==
          "t.csv: rows overlap in time (line 4 starts at 1,006,000.0 ns, before line 3 ends at "
          "1,008,000.0 ns): the phases are summed as if they ran one after another, so their sum "
          "(13,500.0 ns) is not wall time (the rows span 13,000.0 ns); import a trace to measure it");
}

TEST_CASE("csv columns: rows with start times that do not overlap say what the gaps are", "[csv-columns]") {
    const Profile p = read("name,start_ms,duration_ms\na,0,5\nb,10,5\n");
    CHECK(table(p) == Table{{"a", 5}, {"b", 5}});
    REQUIRE(p.notes.size() == 2);
    CHECK(p.notes[1] ==
          "t.csv: the rows span 15.0 ms from the first start to the last end; 5.0 ms of it is in no row "
          "and is not counted (give --total 15ms to count it as 'unattributed')");
}

TEST_CASE("csv columns: total is preferred over average", "[csv-columns]") {
    const Profile p = read("kernel,calls,avg_ms,total_ms\ngemm,10,2,20\nsoftmax,100,0.05,5\n");
    CHECK(table(p) == Table{{"gemm", 20}, {"softmax", 5}});
    CHECK(p.notes.empty());
    // Whatever the order of the columns.
    CHECK(table(read("kernel,total_ms,avg_ms\ngemm,20,2\n")) == Table{{"gemm", 20}});
    CHECK(table(read("kernel,Avg (ms),Total Time (ms)\ngemm,2,20\n")) == Table{{"gemm", 20}});
}

TEST_CASE("csv columns: average times calls when there is no total", "[csv-columns]") {
    const Profile p = read("kernel,calls,avg_ms,min_ms,max_ms\ngemm,10,2,1.5,2.5\nsoftmax,100,0.05,0.04,0.07\n");
    CHECK(table(p) == Table{{"gemm", 20}, {"softmax", 5}});
    REQUIRE(p.notes.size() == 1);
    CHECK(p.notes[0] == "t.csv:1: the phase time is column 'avg_ms' x column 'calls' (no total column)");
    CHECK(test::parse_error("kernel,calls,avg_ms\ngemm,,2\n") ==
          "t.csv:2: phase 'gemm': no calls to multiply the average 'avg_ms' by");
}

TEST_CASE("csv columns: an average without calls is a per-call time, and says so", "[csv-columns]") {
    for (const char* header : {"avg_ms", "Average (ms)", "mean time (ms)", "time per call (ms)", "time (avg)"}) {
        INFO(header);
        const Profile p = read(std::string("kernel,") + header + "\ngemm,2\nsoftmax,0.05\n");
        CHECK(table(p) == Table{{"gemm", 2}, {"softmax", 0.05}});
        // "time (avg)" says no unit: a second note says its times were read as ms.
        REQUIRE(p.notes.size() == (std::string(header) == "time (avg)" ? 2u : 1u));
        CHECK(p.notes[0] == "t.csv:1: column '" + std::string(header) +
                                "' holds per-call averages and there is no calls or total column: each phase's time "
                                "is one call, not its total, and the sum is not a run's time");
    }
}

TEST_CASE("csv columns: only start times, or only per-call extremes, is an error", "[csv-columns]") {
    CHECK(test::parse_error("name,start_ms\na,100\n") ==
          "t.csv:1: column 'start_ms' holds start times, not durations, and there is no duration or end column");
    CHECK(test::parse_error("name,timestamp,end\na,100,110\n") == "no error");
    CHECK(test::parse_error("kernel,min_ms,max_ms\ngemm,1,2\n") ==
          "t.csv:1: columns 'min_ms', 'max_ms' are per-call statistics (min, max, spread), not durations; give a "
          "total column, or an average and a calls column");
}

TEST_CASE("csv columns: a minutes column is not a minimum", "[csv-columns]") {
    CHECK(table(read("name,time (min)\na,2\n")) == Table{{"a", 2}});
    CHECK(read("name,time (min)\na,2\n").unit == Unit::min);
    CHECK(table(read("name,Min (ns),Total Time (ns)\na,2,40\n")) == Table{{"a", 40}});
}

TEST_CASE("csv columns: Markdown, TSV and pasted text read the same columns", "[csv-columns]") {
    CHECK(table(read("| kernel | calls | avg (ms) | total (ms) |\n|---|---|---|---|\n| gemm | 10 | 2 | 20 |\n",
                     InputFormat::markdown)) == Table{{"gemm", 20}});
    CHECK(table(read("name\tstart_ms\tduration_ms\na\t100\t5\n", InputFormat::tsv)) == Table{{"a", 5}});
    CHECK(table(read("Kernel Calls Avg(ms)\ngemm 10 2\nsoftmax 100 0.05\n", InputFormat::text)) ==
          Table{{"gemm", 20}, {"softmax", 5}});
}

TEST_CASE("csv columns: the CLI reads start and duration from the command line", "[csv-columns]") {
    const std::string path = write_temp("start_duration.csv", "name,start_ms,duration_ms\na,100,5\nb,105,5\n");
    const auto r = run_cli({"eval", path, "-s", "a=5", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    // Each row is one call of its phase.
    CHECK(r.out == "name,kind,calls,time_ms,share_pct,factor,new_time_ms,saved_ms\na,,1,5,50,5,1,4\nb,,1,5,50,1,5,0\n");
    const std::string bad = write_temp("start_only.csv", "name,start_ms\na,100\n");
    const auto e = run_cli({"eval", bad});
    CHECK(e.exit_code == 2);
    CHECK(e.err == "error: " + bad +
                       ":1: column 'start_ms' holds start times, not durations, and there is no duration or end "
                       "column\n");
}

TEST_CASE("csv columns: real rocprof traces read as plain CSV take end - start or the duration", "[csv-columns]") {
    std::istringstream no_stdin;
    const auto plain = [&](const std::string& relative) {
        return load_profile(test::source_path("tests/data/profilers/" + relative), no_stdin, InputFormat::csv, {});
    };
    // rocprofv3 kernel_trace.csv: Start_Timestamp and End_Timestamp (no unit in the header: ms),
    // the same per-kernel sums as the rocprof-trace reader's (34,040 ns of addition_kernel).
    const Profile v3 = plain("rocprofv3/rocm-systems-2025/kernel_trace.csv");
    CHECK(table(v3) == Table{{"void addition_kernel<float>(float*, float const*, float const*, int, int)", 34040},
                             {"divide_kernel(float*, float const*, float const*, int, int)", 23640},
                             {"multiply_kernel(float*, float const*, float const*, int, int)", 21080},
                             {"subtract_kernel(float*, float const*, float const*, int, int)", 17400}});
    CHECK(v3.phases[0].calls == 3u);
    CHECK(v3.notes[0] == test::source_path("tests/data/profilers/rocprofv3/rocm-systems-2025/kernel_trace.csv") +
                             ":1: the phase time is column 'End_Timestamp' minus column 'Start_Timestamp'");
    // Legacy results.csv: DispatchNs and CompleteNs name only a unit (they are time stamps);
    // DurationNs is the time. The laplacian total matches results.stats.csv: 2,608,618,986 ns
    // in 1,001 calls.
    const Profile legacy = plain("rocprof-legacy/finite-difference_results.csv");
    REQUIRE(legacy.phases.size() == 4);
    CHECK(legacy.unit == Unit::ns);
    CHECK(legacy.phases[1].name ==
          "void laplacian_kernel<double>(double*, double const*, int, int, int, double, double, double, double) "
          "[clone .kd]");
    CHECK(legacy.phases[1].time == 2608618986);
    CHECK(legacy.phases[1].calls == 1001u);
}

TEST_CASE("csv columns: a spread column beside a mean is never the phase time", "[csv-columns]") {
    // A benchmark table: the mean is the phase time; sd, iqr, sem, ci95 ... are spreads. The sd
    // column used to be read as the time (baseline 1.9 ms, 1.4615x for -s inference=2; right: 50 ms).
    for (const char* spread : {"sd_ms", "sd (ms)", "iqr_ms", "sem_ms", "err_ms", "error_ms", "ci95_ms", "mad_ms",
                               "margin_ms", "range_ms", "rsd_ms", "stderr_ms"}) {
        INFO(spread);
        const Profile p = read(std::string("name,mean_ms,") + spread +
                               "\npreprocess,10.0,0.4\ninference,30.0,1.2\npostprocess,10.0,0.3\n");
        CHECK(table(p) == Table{{"preprocess", 10}, {"inference", 30}, {"postprocess", 10}});
        CHECK(p.unit == Unit::ms);
        bool said = false;
        for (const auto& note : p.notes)
            said = said || note == "t.csv:1: column '" + std::string(spread) +
                                       "' is a spread, not a time, and is not read: amdahl takes a run-to-run "
                                       "spread of the time only from a column named time_sd";
        CHECK(said);
    }
    // Markdown and pasted text alike.
    const Profile md =
        read("| name | mean (ms) | sd (ms) |\n|---|---|---|\n| a | 10 | 1 |\n| b | 30 | 2 |\n", InputFormat::markdown);
    CHECK(table(md) == Table{{"a", 10}, {"b", 30}});
    const Profile text = read("Name Mean (ms) SD (ms)\na 10 1\nb 30 2\n", InputFormat::text);
    CHECK(table(text) == Table{{"a", 10}, {"b", 30}});
}

TEST_CASE("csv columns: a units column, however it is spelled, gives each row's unit", "[csv-columns]") {
    // a is 10 s, b 5,000 ms: 15 s in all. "units" used to be ignored (a read as 10 ms).
    for (const char* header : {"units", "Units", "unit", "timeunit", "time_unit", "Time Unit", "uom", "unit(s)"}) {
        INFO(header);
        const Profile p = read(std::string("name,duration,") + header + "\na,10,s\nb,5000,ms\n");
        REQUIRE(p.phases.size() == 2);
        CHECK(p.total() == Approx(p.unit == Unit::s ? 15 : 15000));
        CHECK(p.phases[0].time * 500 == Approx(p.phases[1].time * 1000));  // a is twice b
    }
    const Profile md =
        read("| name | time | units |\n|---|---|---|\n| a | 10 | s |\n| b | 5000 | ms |\n", InputFormat::markdown);
    CHECK(md.phases[0].time == Approx(2 * md.phases[1].time));
}

TEST_CASE("csv columns: a time_sd column may carry its own unit", "[csv-columns]") {
    // time in ms, its spread in us: 1,000 us is 1 ms.
    const std::pair<const char*, const char*> cases[] = {{"name,time (ms),time_sd (us)\n", "1000"},
                                                         {"name,time_ms,time_sd_us\n", "1000"},
                                                         {"name,time_ms,time_ms_sd\n", "1"},
                                                         {"name,time_ms,time_sd\n", "1"}};
    for (const auto& [header, sd] : cases) {
        INFO(header);
        const Profile p = read(std::string(header) + "a,10," + sd + "\nb,20,0\n");
        REQUIRE(p.phases.size() == 2);
        REQUIRE(p.phases[0].spread.has_value());
        CHECK(p.phases[0].spread->sd == Approx(1));
        CHECK(p.phases[0].time == Approx(10));
    }
}
