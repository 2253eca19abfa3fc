// Calls per phase (issue 12): read from tables, JSON profiles and profiler summaries, written by
// import so they read back, and shown as a calls column in eval and rank when any phase has them.
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
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

Profile read(const std::string& content, InputFormat format = InputFormat::csv) {
    return parse_profile(content, "t.csv", format, {});
}

Profile load(const std::string& path) {
    std::istringstream no_stdin;
    return load_profile(path, no_stdin, std::nullopt, {});
}

std::string data(const std::string& relative) { return source_path("tests/data/profilers/" + relative); }

using Calls = std::vector<std::pair<std::string, std::optional<std::uint64_t>>>;

Calls calls_of(const Profile& profile) {
    Calls out;
    for (const auto& p : profile.phases) out.emplace_back(p.name, p.calls);
    return out;
}

}  // namespace

TEST_CASE("calls: a calls column of a table is kept per phase", "[calls]") {
    for (const char* header : {"calls", "Calls", "count", "Instances", "num calls", "Num Calls", "# calls"}) {
        INFO(header);
        const Profile p = read(std::string("kernel,") + header + ",total_ms\ngemm,10,20\nsoftmax,1000,5\n");
        CHECK(calls_of(p) == Calls{{"gemm", 10}, {"softmax", 1000}});
        CHECK(p.phases[0].time == 20);
    }
    // An empty cell says nothing; thousands separators are fine.
    CHECK(calls_of(read("kernel,calls,time\ngemm,,20\nsoftmax,\"1,000\",5\n")) ==
          Calls{{"gemm", std::nullopt}, {"softmax", 1000}});
    CHECK(calls_of(read("| kernel | calls | time (ms) |\n|---|---|---|\n| gemm | 3 | 5 |\n", InputFormat::markdown)) ==
          Calls{{"gemm", 3}});
    CHECK(calls_of(read("Kernel Calls Time(ms)\ngemm 3 5\n", InputFormat::text)) == Calls{{"gemm", 3}});
    CHECK(test::parse_error("kernel,calls,time\ngemm,1.5,20\n") ==
          "t.csv:2: phase 'gemm': calls must be a whole number >= 0 (got '1.5')");
    CHECK(test::parse_error("kernel,calls,time\ngemm,-1,20\n") ==
          "t.csv:2: phase 'gemm': calls must be a whole number >= 0 (got '-1')");
    CHECK(test::parse_error("kernel,calls,time\ngemm,many,20\n") ==
          "t.csv:2: phase 'gemm': calls must be a whole number >= 0 (got 'many')");
}

TEST_CASE("calls: a JSON profile's \"calls\" is read by both JSON paths and checked", "[calls]") {
    // Plain JSON (the fast path) and JSON with an escape in a name (the full reader).
    CHECK(calls_of(read(R"({"phases": [{"name": "a", "time": 1, "calls": 3}, {"name": "b", "time": 2}]})",
                        InputFormat::json)) == Calls{{"a", 3}, {"b", std::nullopt}});
    CHECK(calls_of(read(R"({"phases": [{"name": "a\u0041", "time": 1, "calls": 3e3}]})", InputFormat::json)) ==
          Calls{{"aA", 3000}});
    CHECK(calls_of(read(R"({"phases": {"a": {"time": 1, "calls": 7}}})", InputFormat::json)) == Calls{{"a", 7}});
    CHECK(test::parse_error(R"({"phases": [{"name": "a", "time": 1, "calls": 2.5}]})", InputFormat::json) ==
          "t.csv: phases[0].calls: calls must be a whole number >= 0 (got 2.5)");
    CHECK(test::parse_error(R"({"phases": [{"name": "a", "time": 1, "calls": "3"}]})", InputFormat::json) ==
          "t.csv: phases[0].calls: calls must be a whole number >= 0 (got \"3\")");
    CHECK(test::parse_error(R"({"phases": [{"name": "a", "time": 1, "calls": -1}]})", InputFormat::json) ==
          "t.csv: phases[0].calls: calls must be a whole number >= 0 (got -1)");
}

TEST_CASE("calls: nsys and rocprof summaries keep Instances and Calls", "[calls]") {
    const Profile projector = load(data("nsys/llm-perf-opt_projector_summary_cuda_gpu_kern_sum.csv"));
    REQUIRE(projector.phases.size() == 2);
    CHECK(projector.phases[0].calls == 1u);
    CHECK(projector.phases[1].calls == 1u);
    const Profile decode = load(data("nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv"));
    CHECK(decode.phases[0].calls == 16448u);  // 61.6 ms in 16,448 launches: 3.7 us each
    CHECK(decode.phases[0].time == 61602133);
    const Profile stats = load(data("rocprof-legacy/finite-difference_results.stats.csv"));
    REQUIRE(stats.phases.size() == 4);
    CHECK(stats.phases[0].calls == 1001u);
    CHECK(stats.phases[3].calls == 1u);
    const Profile summary = load(data("handmade/rocprofv3_summary_usec.txt"));
    for (const Phase& phase : summary.phases) {
        INFO(phase.name);
        if (phase.name == "relu_kernel") CHECK(phase.calls == 8u);
        if (phase.name == "MEMORY_COPY_HOST_TO_DEVICE") CHECK(phase.calls == 2u);
    }
    // Rows grouped into one phase add their calls up.
    ImportOptions grouped;
    grouped.rename_patterns.emplace_back("kernel", "kernels");
    std::istringstream no_stdin;
    const Profile merged =
        load_profile(data("rocprof-legacy/finite-difference_results.stats.csv"), no_stdin, std::nullopt, grouped);
    CHECK(calls_of(merged) == Calls{{"kernels", 1003}, {"__amd_rocclr_fillBufferAligned.kd", 1}});
}

TEST_CASE("calls: import writes them and they read back", "[calls]") {
    const std::string csv = write_temp("calls_import.csv", "kernel,calls,total_ms\ngemm,10,20\nsoftmax,1000,5\n");
    const auto imported = run_cli({"import", csv});
    REQUIRE(imported.exit_code == 0);
    CHECK_THAT(imported.out, Contains(R"({"name": "gemm", "time": 20, "calls": 10})"));
    CHECK_THAT(imported.out, Contains(R"({"name": "softmax", "time": 5, "calls": 1000})"));
    const std::string json = write_temp("calls_import.json", imported.out);
    CHECK(calls_of(load(json)) == Calls{{"gemm", 10}, {"softmax", 1000}});
}

TEST_CASE("calls: eval shows a calls column in every format when a phase has calls", "[calls]") {
    const std::string csv =
        write_temp("calls_eval.csv", "kernel,calls,total_ms\ngemm,10,20\nsoftmax,1000,5\nTotal,,50\n");
    auto r = run_cli({"eval", csv, "-s", "softmax=2", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out ==
          "name,kind,calls,time_ms,share_pct,factor,new_time_ms,saved_ms\n"
          "gemm,,10,20,40,1,20,0\n"
          "softmax,,1000,5,10,2,2.5,2.5\n"
          "unattributed,unattributed,,25,50,1,25,0\n");
    r = run_cli({"eval", csv, "-s", "softmax=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out,
               Contains("phase         kind          calls  time (ms)  share  factor  new time (ms)  saved (ms)\n"
                        "------------  ------------  -----  ---------  -----  ------  -------------  ----------\n"
                        "gemm                           10       20.0  40.0%       -           20.0         0.0\n"
                        "softmax                     1,000        5.0  10.0%      2x            2.5         2.5\n"
                        "unattributed  unattributed      -       25.0  50.0%       -           25.0         0.0\n"));
    r = run_cli({"eval", csv, "-s", "softmax=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out,
               Contains(R"({"name": "softmax", "short_name": "softmax", "kind": "", "calls": 1000, "time": 5,)"));
    CHECK_THAT(
        r.out,
        Contains(
            R"({"name": "unattributed", "short_name": "unattributed", "kind": "unattributed", "calls": null, "time": 25,)"));
    r = run_cli({"eval", csv, "-s", "softmax=2", "--format", "md"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("| phase | kind | calls | time (ms) |"));
    CHECK_THAT(r.out, Contains("| `softmax` |  | 1,000 | 5.0 |"));
    // Without calls in the input, no column.
    r = run_cli({"eval", source_path("examples/transformer_step.csv"), "--format", "csv"});
    CHECK_THAT(r.out, !Contains("calls"));
}

TEST_CASE("calls: rank shows the calls of each target, summed over its phases", "[calls]") {
    const std::string csv = write_temp("calls_rank.csv",
                                       "kernel,kind,calls,total_ms\ngemm,kernel,10,20\nsoftmax,kernel,1000,5\n"
                                       "copy,copy,,25\n");
    auto r = run_cli({"rank", csv, "-s", "kind:kernel=2", "-s", "gemm=2", "-s", "*=2", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, StartsWith("rank,name,kind,calls,time_ms,"));
    CHECK_THAT(r.out, Contains("\n1,*=2,,,50,"));                      // copy does not say
    CHECK_THAT(r.out, Contains("\n2,kind:kernel=2,kernel,1010,25,"));  // 10 + 1000
    CHECK_THAT(r.out, Contains("\n3,gemm=2,kernel,10,20,"));
    r = run_cli({"rank", csv, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\"kind\": \"kernel\",\n      \"calls\": 1000,\n      \"time\": 5,"));
    CHECK_THAT(r.out, Contains("\"kind\": \"copy\",\n      \"calls\": null,\n      \"time\": 25,"));
}

TEST_CASE("calls: a trace's spans are its phases' calls", "[calls][trace]") {
    // gemm runs three times, once nested in an annotation; copy once; a zero-length gemm takes no
    // time and is no call.
    const std::string trace = write_temp("calls_trace.json", R"({"traceEvents": [
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 0, "dur": 10},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 20, "dur": 10},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 8, "ts": 40, "dur": 5},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 8, "ts": 50, "dur": 0},
{"ph": "X", "cat": "gpu_memcpy", "name": "copy", "pid": 0, "tid": 7, "ts": 60, "dur": 4}
]})");
    const Profile profile = load(trace);
    CHECK(calls_of(profile) == Calls{{"gemm", 3}, {"copy", 1}, {"idle", std::nullopt}});
    const auto eval = run_cli({"eval", trace, "-s", "gemm=2"});
    REQUIRE(eval.exit_code == 0);
    CHECK_THAT(eval.out, Contains("calls"));
    // Grouped, a group's calls are its spans.
    ImportOptions by_kind;
    by_kind.group_by = "cat";
    std::istringstream no_stdin;
    CHECK(calls_of(load_profile(trace, no_stdin, std::nullopt, by_kind)) ==
          Calls{{"kernel", 3}, {"gpu_memcpy", 1}, {"idle", std::nullopt}});
}

TEST_CASE("calls: per step (--window) a trace's phases have no calls", "[calls][trace]") {
    // Two steps; spans shared out among steps are no count of calls: none is claimed.
    std::string events;
    for (int i = 0; i < 4; ++i) {
        const std::string at = std::to_string(100 * i);
        events += std::string(i ? ",\n" : "") + R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" +
                  std::to_string(i) + R"(", "pid": 0, "tid": 1, "ts": )" + at + R"(, "dur": 100},
{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 0, "tid": 1, "ts": )" +
                  std::to_string(100 * i + 10) + R"(, "dur": 50})";
    }
    const std::string trace = write_temp("calls_steps.json", "{\"traceEvents\": [\n" + events + "\n]}");
    ImportOptions steps;
    steps.window = "ProfilerStep#.*";
    steps.lane = Lane::cpu;
    std::istringstream no_stdin;
    const Profile profile = load_profile(trace, no_stdin, std::nullopt, steps);
    REQUIRE_FALSE(profile.steps.empty());
    REQUIRE_FALSE(profile.phases.empty());
    for (const auto& phase : profile.phases) CHECK_FALSE(phase.calls);
}

TEST_CASE("classes: import --group-by class writes each kernel's class and rule, and --explain reads them back",
          "[kernel_class][import]") {
    const std::string trace = write_temp("classes_trace.json", R"({"traceEvents": [
{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 0, "dur": 10},
{"ph": "X", "cat": "kernel", "name": "flash_fwd_kernel", "pid": 0, "tid": 7, "ts": 10, "dur": 5}
]})");
    const auto direct = run_cli({"eval", trace, "--group-by", "class", "-s", "gemm=2", "--explain"});
    REQUIRE(direct.exit_code == 0);
    const auto imported = run_cli({"import", trace, "--group-by", "class"});
    REQUIRE(imported.exit_code == 0);
    CHECK_THAT(imported.out,
               Contains(R"({"class": "gemm", "name": "ampere_sgemm_128x64_tn", "rule": "'gemm' in the name"})"));
    const std::string json = write_temp("classes_profile.json", imported.out);
    const auto again = run_cli({"eval", json, "-s", "gemm=2", "--explain"});
    REQUIRE(again.exit_code == 0);
    // The same explanation of the classes, read from the profile instead of the trace.
    CHECK_THAT(direct.out, Contains("gemm: 'gemm' in the name: ampere_sgemm_128x64_tn"));
    CHECK_THAT(again.out, Contains("gemm: 'gemm' in the name: ampere_sgemm_128x64_tn"));
    CHECK_THAT(again.out, Contains("attention: 'flash' in the name: flash_fwd_kernel"));
    CHECK(load(json).class_members.size() == 2);
    // A malformed entry names its JSON path.
    const std::string bad =
        write_temp("classes_bad.json", R"({"phases": [{"name": "gemm", "time": 1}], "classes": [{"class": "gemm"}]})");
    const auto refused = run_cli({"eval", bad});
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.err, Contains("classes[0]"));
}

TEST_CASE("tables: start and end columns with no unit are read as ms, and a note says so", "[table][units]") {
    const Profile bare = read("kernel,start,end\ngemm,100,130\ncopy,130,135\n");
    CHECK(bare.phases.at(0).time == Approx(30));
    bool said = false;
    for (const auto& note : bare.notes)
        said = said || note.find("name no unit: the times are read as ms") != std::string::npos;
    CHECK(said);
    const Profile named = read("kernel,start_ns,end_ns\ngemm,100,130\n");
    for (const auto& note : named.notes) CHECK(note.find("name no unit") == std::string::npos);
}
