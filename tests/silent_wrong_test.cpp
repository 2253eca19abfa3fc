// Plausible inputs that amdahl used to read the wrong way while exiting 0 (issue: no silent wrong
// answer). Each case failed before its fix.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string line_starting_with(const std::string& text, const std::string& start) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        const std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (line.rfind(start, 0) == 0) return line;
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return {};
}

}  // namespace

TEST_CASE("silent wrong: a bare number never takes another row's unit", "[silent]") {
    // c is written first without a unit, a in seconds: c is 3 ms (the default), not 3 s.
    const std::string path = test::write_temp("bare_units.csv", "name,time\nc,3\na,1 s\n");
    const auto r = test::run_cli({"eval", path, "-s", "a=2", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "c,") == "c,,0.003,0.29910269192422734,1,0.003,0");
    CHECK_THAT(r.err, Contains("times without a unit are read as ms"));
    // A declared unit is the unit of bare numbers.
    const std::string json = test::write_temp("bare_units.json", R"({"unit": "us", "phases": {"c": 3, "a": "1 ms"}})");
    const auto j = test::run_cli({"eval", json, "-s", "a=2", "--format", "csv"});
    REQUIRE(j.exit_code == 0);
    CHECK(line_starting_with(j.out, "c,") == "c,,3,0.29910269192422734,1,3,0");
}

TEST_CASE("silent wrong: times with no unit anywhere are read as ms, and the output says so", "[silent]") {
    // No "unit", no unit in a header or on a value: the speedup does not depend on it, but every
    // time printed does, so the assumption is a note on stderr and in the JSON's notes.
    const std::string csv = test::write_temp("no_unit.csv", "name,time\na,3\nb,1\n");
    const auto r = test::run_cli({"eval", csv, "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("no_unit.csv: the times carry no unit (none declared, none in a header or on a value): "
                               "read as ms; declare one to be sure"));
    const auto j = test::run_cli({"eval", csv, "-s", "a=2", "--format", "json"});
    REQUIRE(j.exit_code == 0);
    CHECK_THAT(j.out, Contains("the times carry no unit"));
    // A unit in the header, in the profile or on a value: no such note.
    for (const std::string& text :
         {std::string("name,time (us)\na,3\nb,1\n"), std::string("name,time\na,3 us\nb,1 us\n")}) {
        const auto k = test::run_cli({"eval", test::write_temp("with_unit.csv", text), "-s", "a=2"});
        REQUIRE(k.exit_code == 0);
        CHECK_THAT(k.err, !Contains("carry no unit"));
    }
    const auto d = test::run_cli(
        {"eval", test::write_temp("declared.json", R"({"unit": "ms", "phases": {"a": 3, "b": 1}})"), "-s", "a=2"});
    CHECK_THAT(d.err, !Contains("carry no unit"));
}

TEST_CASE("silent wrong: plan's best possible counts no slowdown as a saving", "[silent]") {
    const std::string path = test::write_temp("plan_slowdown.json", R"({"phases": {"a": 50, "b": 30, "c": 20}})");
    const auto r = test::run_cli({"plan", path, "--target", "1.2", "-s", "a=2", "-s", "b=0.5", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    // a alone reaches 100 / 75 = 1.333x; b is a slowdown no plan would take.
    CHECK_THAT(r.out, Contains("\"best_possible\": 1.3333333333333333"));
}

TEST_CASE("silent wrong: a write that fails is an error, not an empty file with success", "[silent][cli]") {
    if (!std::filesystem::exists("/dev/full")) return;
    // A subshell, so that /dev/full (not run_shell's capture file) is amdahl's stdout.
    const auto r =
        test::run_shell("( '" + std::string(AMDAHL_BINARY) + "' eval " +
                        test::source_path("examples/transformer_step.json") + " -s attention_softmax=10 >/dev/full )");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, StartsWith("error: cannot write the output: "));
}

TEST_CASE("silent wrong: import -o onto its own input is refused", "[silent][cli]") {
    const std::string path = test::write_temp("import_self.json", R"({"traceEvents": [
        {"name": "k", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1}]})");
    const std::string before = [&] {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    const auto r = test::run_cli({"import", path, "-o", path});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + path + ": -o names the input itself; write the profile to another file\n");
    std::ifstream in(path);
    CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == before);
}

TEST_CASE("silent wrong: --unit converts every time, the overlap range too", "[silent]") {
    const std::string trace = test::source_path("examples/pytorch_trace.json");
    const auto ms = test::run_cli({"eval", trace, "-s", "*=2", "--unit", "ms", "--format", "json"});
    REQUIRE(ms.exit_code == 0);
    // Every phase 2x faster saves 795 us: the 1,590 us of kernels, copies and their overlap, each
    // instant 2x shorter (the overlap ran only sped-up phases, so there is no range).
    const auto report = nlohmann::json::parse(ms.out);
    CHECK(report["speedup"].get<double>() == Approx(1810.0 / 1015).epsilon(1e-12));
    CHECK(report["time_saved"].get<double>() == Approx(0.795).epsilon(1e-12));
    CHECK(report["speedup_range"].is_null());
    // One phase that shared time with others has a range; in ms it is the range in us (it was
    // 1.69x to 8.23x where the truth was 1.69x to 1.78x, before every time was converted).
    const auto in_unit = [&](const char* unit) {
        const auto r = test::run_cli({"eval", trace, "-s", "kind:kernel=2", "--unit", unit, "--format", "json"});
        REQUIRE(r.exit_code == 0);
        return nlohmann::json::parse(r.out);
    };
    const auto us = in_unit("us"), milli = in_unit("ms");
    REQUIRE(us["speedup_range"].is_object());
    CHECK(milli["speedup_range"]["low"].get<double>() == Approx(us["speedup_range"]["low"].get<double>()));
    CHECK(milli["speedup_range"]["high"].get<double>() == Approx(us["speedup_range"]["high"].get<double>()));
    CHECK(milli["time_saved_range"]["high"].get<double>() * 1000 ==
          Approx(us["time_saved_range"]["high"].get<double>()));
    CHECK(us["speedup_range"]["high"].get<double>() > us["speedup_range"]["low"].get<double>());
}

TEST_CASE("silent wrong: an option that does not apply to the input is an error", "[silent][cli]") {
    const std::string json = test::source_path("examples/transformer_step.json");
    const std::string csv = test::source_path("examples/transformer_step.csv");
    const std::string trace = test::source_path("examples/pytorch_trace.json");
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"eval", json, "--window", "ProfilerStep#.*"},
         "error: --window: does not apply to a JSON profile (it picks the steps of a trace: chrome-trace, "
         "rocprof-trace or nsys-trace input)\n"},
        {{"eval", csv, "--lane", "gpu"},
         "error: --lane: does not apply to a CSV profile (it picks the events of a trace or the tables of a "
         "summary: chrome-trace, rocprof-trace, nsys-trace, nsys or rocprof-summary input)\n"},
        {{"eval", csv, "--depth", "2"},
         "error: --depth: does not apply to a CSV profile (it cuts folded stacks: folded input)\n"},
        {{"eval", json, "--leaf"},
         "error: --leaf: does not apply to a JSON profile (it cuts folded stacks: folded input)\n"},
        {{"eval", trace, "--sample-period", "1ms"},
         "error: --sample-period: does not apply to a chrome-trace profile (it times folded stacks: folded input)\n"},
        {{"eval", trace, "--timeunit", "us"},
         "error: --timeunit: does not apply to a chrome-trace profile (it is the unit of nsys stats columns: nsys "
         "or nsys-trace input)\n"},
        {{"eval", json, "--group-by", "cat"},
         "error: --group-by: does not apply to a JSON profile (it groups the events or rows of profiler output)\n"},
    };
    for (const auto& c : cases) {
        INFO(c.args[1] + " " + c.args[2]);
        const auto r = test::run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK(r.err == c.message);
        CHECK(r.out.empty());
    }
}

TEST_CASE("silent wrong: --rename and --total work on every profile", "[silent][cli]") {
    const std::string json = test::source_path("examples/transformer_step.json");
    auto r = test::run_cli({"eval", json, "--rename", "gemm_qkv=matmul", "-s", "matmul=2", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "matmul,") == "matmul,kernel,34,34,2,17,17");
    const std::string no_total = test::write_temp("no_total.json", R"({"phases": {"a": 60, "b": 40}})");
    r = test::run_cli({"eval", no_total, "--total", "200ms", "-s", "a=2", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "unattributed,") == "unattributed,unattributed,100,50,1,100,0");
    // A declared total and --total that disagree: the user's end-to-end time is checked, not ignored.
    const std::string declared = test::write_temp("declared_total.json", R"({"total": 120, "phases": {"a": 100}})");
    r = test::run_cli({"eval", declared, "--total", "200ms"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --total: 200 ms disagrees with the profile's total (120.0 ms)\n");
    // Compared in the profile's unit: in ns, 1e306 ms and 2e306 ms both overflowed to infinity and
    // agreed.
    const std::string huge =
        test::write_temp("huge_total.json", R"({"total": 2e306, "phases": {"a": 1e306, "b": 1e306}})");
    r = test::run_cli({"eval", huge, "--total", "1e306ms"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("error: --total: 1e+306 ms disagrees with the profile's total"));
}

TEST_CASE("silent wrong: 'unattributed' beside phases whose times are ranges is not renamed", "[silent][cli]") {
    // Found by fuzz_markdown. 'unattributed' is the declared total less the other phases: with a of
    // 10..20 ms and b of 30 ms in 100 ms it is 50..60 ms, moving against a. Merged into one phase x
    // with a, the sum was read as an independent range of 65..75 ms where x is 70 ms exactly, and
    // import's JSON did not read back (its high ends add up to 105 ms of a total of 100).
    const std::string ranged =
        test::write_temp("rename_rest.json",
                         R"({"unit":"ms","total":100,"phases":[{"name":"a","time":"10..20"},{"name":"b","time":30}]})");
    auto r = test::run_cli({"import", ranged, "--rename-regex", "^(a|unattributed)$=x"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: --rename-regex: " + ranged +
                       ": would rename 'unattributed' (to 'x'): it is the declared total less the other phases, "
                       "whose times are ranges, so its time moves with theirs, which a phase of its own cannot carry; "
                       "leave it as it is (a selector can pick it beside others)\n");
    r = test::run_cli({"eval", ranged, "--rename", "unattributed=rest"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("would rename 'unattributed' (to 'rest')"));
    // Merged with a phase of one time while a has its range: the same (b + rest is 80..90 ms,
    // against a).
    r = test::run_cli({"eval", ranged, "--rename-regex", "^(b|unattributed)$=x"});
    CHECK(r.exit_code == 2);
    // Without ranges, the rest is one number and merges as any phase does.
    const std::string exact =
        test::write_temp("rename_rest_exact.json",
                         R"({"unit":"ms","total":100,"phases":[{"name":"a","time":15},{"name":"b","time":30}]})");
    r = test::run_cli({"eval", exact, "--rename-regex", "^(a|unattributed)$=x", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "x,") == "x,,70,70,1,70,0");
    // Selected beside a, the rest moves against a's range as before: the speedup is one number.
    r = test::run_cli({"eval", ranged, "-s", "a=inf", "-s", "unattributed=inf", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["baseline_time"].get<double>() == Approx(100));
}

TEST_CASE("silent wrong: --rename is an exact name, --rename-regex a pattern", "[silent][cli]") {
    // gemm_qkv and gemm_proj both contain "gemm": read as a pattern, --rename gemm=matmul folded
    // both into one phase of 46 ms and -s matmul=2 sped up the two.
    const std::string json = test::source_path("examples/transformer_step.json");
    auto r = test::run_cli({"eval", json, "--rename", "gemm_qkv=matmul", "--rename", "gemm=x", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "matmul,") == "matmul,kernel,34,34,1,34,0");
    CHECK(line_starting_with(r.out, "gemm_proj,") == "gemm_proj,kernel,12,12,1,12,0");
    // 'gemm' names no phase: a note, nothing renamed, with the names it may have meant.
    CHECK_THAT(r.err, Contains("note: --rename gemm=x: nothing is named 'gemm', so nothing was renamed; did you mean "
                               "'gemm_proj'"));
    // The pattern form folds every name it is found in, first match wins.
    r = test::run_cli({"eval", json, "--rename-regex", "^gemm_=gemm", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "gemm,") == "gemm,kernel,46,46,1,46,0");
    r = test::run_cli({"eval", json, "--rename-regex", "^cutlass=gemm"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("note: --rename-regex ^cutlass=gemm: '^cutlass' is found in no name, so nothing was "
                               "renamed"));
    // Split at the last '=': a name may hold one.
    const std::string eq = test::write_temp("eq_name.json", R"({"phases": {"k<N=4>": 3, "b": 1}})");
    r = test::run_cli({"eval", eq, "--rename", "k<N=4>=k4", "-s", "k4=3", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "k4,") == "k4,,3,75,3,1,2");
    // One name renamed twice is an error.
    r = test::run_cli({"eval", json, "--rename", "layernorm=a", "--rename", "layernorm=b"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --rename: 'layernorm' is renamed twice, to 'a' and to 'b'\n");
}

TEST_CASE("silent wrong: --input-format forces the format over what the content looks like", "[silent][cli]") {
    // A JSON profile with a phase named traceEvents is a profile when the user says so.
    const std::string path = test::write_temp("trace_named_phase.json", R"({"phases": {"traceEvents": 10, "b": 30}})");
    auto r = test::run_cli({"eval", path, "--input-format", "json", "-s", "traceEvents=2", "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "traceEvents,") == "traceEvents,,10,25,2,5,5");
    // An nsys summary read as the plain CSV the user asked for is not summed as nsys rows.
    const std::string nsys =
        test::source_path("tests/data/profilers/nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv");
    r = test::run_cli({"import", nsys, "--input-format", "csv"});
    if (r.exit_code == 0) {
        CHECK_THAT(r.out, Contains("\"format\": \"csv\""));
    } else {
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, !Contains("nsys"));
    }
}

TEST_CASE("silent wrong: a key given twice in a JSON profile is an error naming it", "[silent]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"total": 100, "total": 200, "phases": {"a": 60}})", ": total: key given twice\n"},
        {R"({"unit": "ms", "phases": [{"name": "a", "time": 1}], "unit": "s"})", ": unit: key given twice\n"},
        {R"({"phases": [{"name": "a", "time": 1}, {"name": "b", "time": 2, "time": 3}]})",
         ": phases[1].time: key given twice\n"},
        {R"({"phases": {"a": {"time": 1, "time": 5}}})", ": phases.a.time: key given twice\n"},
    };
    for (const auto& [json, message] : cases) {
        INFO(json);
        const std::string path = test::write_temp("twice.json", json);
        const auto r = test::run_cli({"eval", path});
        CHECK(r.exit_code == 2);
        CHECK(r.err == "error: " + path + message);
    }
}

TEST_CASE("silent wrong: a trace with text after it, or an event type that is not one letter", "[silent]") {
    const std::string events = R"([{"name": "k", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1}])";
    auto path = test::write_temp("garbage_after.json", "{\"traceEvents\": " + events + "} {\"more\": 1}");
    auto r = test::run_cli({"eval", path});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, StartsWith("error: " + path + ":1:"));
    CHECK_THAT(r.err, Contains("unexpected text after the trace"));
    // Keys after traceEvents are read, not skipped: a second traceEvents is an error.
    path = test::write_temp("twice_events.json", "{\"traceEvents\": " + events + ", \"traceEvents\": []}");
    r = test::run_cli({"eval", path});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("\"traceEvents\" appears twice"));
    // "Xyz" is not an X event: the k2 kernel is no phase.
    path = test::write_temp("ph_xyz.json", R"({"traceEvents": [
        {"name": "k", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1},
        {"name": "k2", "ph": "Xyz", "ts": 20, "dur": 10, "pid": 1, "tid": 1}]})");
    r = test::run_cli({"eval", path, "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, !Contains("k2"));
    // A trace cut short (a process that died) is still read.
    path = test::write_temp("cut_short.json",
                            "{\"traceEvents\": [{\"name\": \"k\", \"ph\": \"X\", \"ts\": 0, "
                            "\"dur\": 10, \"pid\": 1, \"tid\": 1},");
    CHECK(test::run_cli({"eval", path}).exit_code == 0);
}

TEST_CASE("silent wrong: control bytes and bidi overrides never reach a terminal or a CSV raw", "[silent]") {
    const std::string path = test::write_temp(
        "control_names.json", R"({"phases": {"a\u001b[31mred": 10, "b\u0007": 10, "c\u202eevil": 10}})");
    const auto csv = test::run_cli({"eval", path, "--format", "csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK(csv.out.find('\x1b') == std::string::npos);
    CHECK(csv.out.find('\x07') == std::string::npos);
    CHECK_THAT(csv.out, Contains("\na\\x1B[31mred,"));
    const auto table = test::run_cli({"eval", path});
    REQUIRE(table.exit_code == 0);
    CHECK(table.out.find("\xe2\x80\xae") == std::string::npos);  // U+202E
    CHECK_THAT(table.out, Contains("c\\xE2\\x80\\xAEevil"));
}

TEST_CASE("silent wrong: numbers at the edges are finite and honest, or refused with a reason", "[silent]") {
    auto r = test::run_cli({"rank", test::source_path("examples/transformer_step.json"), "-k", "1e-320"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --factor: bad factor '1e-320': too small (a slowdown factor must be at least 1e-300)\n");
    r = test::run_cli({"law", "-f", "0", "--target", "1", "--explain"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, !Contains("0 / 0 ="));
    CHECK_THAT(r.out, Contains("S = 1 holds for every k"));
    // A long number in a table is never cut with an ellipsis.
    const std::string path = test::write_temp("huge_time.json", R"({"phases": {"a": 1e60, "b": 1}})");
    r = test::run_cli({"eval", path});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, !Contains("\xe2\x80\xa6"));
}

TEST_CASE("silent wrong: nonsense that used to be accepted", "[silent]") {
    auto r = test::run_cli({"scale", "-p", "0.9", "-n", "4", "--effective", "1=2"});
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "error: --effective: on 1 processor the parallel part runs as it does: N = 1 takes K = 1 (got '1=2')\n");
    const std::string speedups = test::write_temp("speedup_at_one.csv", "n,speedup\n1,2\n2,3\n4,5\n");
    r = test::run_cli({"fit", speedups});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + speedups + ":2: a speedup at N = 1 is the baseline and must be 1 (got 2)\n");
    const std::string times = test::write_temp("mixed_run_units.csv", "n,time\n1,1 s\n2,600\n");
    r = test::run_cli({"fit", times});
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "error: " + times +
              ":3: this time has no unit while others have one; write a unit on every time, or in the header\n");
    r = test::run_cli(
        {"rank", test::source_path("examples/transformer_step.json"), "-s", "gemm_qkv=2@1", "-s", "gemm_qkv=2@1"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --speedup: proposal 'gemm_qkv=2@1' is given twice\n");
}

TEST_CASE("silent wrong: header units are read or refused, never taken for ms", "[silent]") {
    const auto first_time = [](const std::string& header, const std::string& row) {
        const std::string path = test::write_temp("header_units.csv", "name," + header + "\na," + row + "\nb,1\n");
        return test::run_cli({"eval", path, "--format", "json", "--unit", "ns"});
    };
    struct Case {
        std::string header;
        double a_in_ns;
    };
    for (const Case& c :
         {Case{"TotalDurationNs", 5}, Case{"DurationNs", 5}, Case{"TimeUs", 5000}, Case{"time/us", 5000},
          Case{"Time (\xc2\xb5sec)", 5000}, Case{"Time (microsec)", 5000}, Case{"Time (msecs)", 5e6}}) {
        INFO(c.header);
        const auto r = first_time(c.header, "5");
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\"name\": \"a\", \"short_name\": \"a\", \"kind\": \"\", \"time\": " +
                                   std::string(c.a_in_ns == 5      ? "5"
                                               : c.a_in_ns == 5000 ? "5000"
                                                                   : "5000000") +
                                   ","));
    }
    for (const char* header : {"Duration (ps)", "time (cycles)"}) {
        INFO(header);
        const auto r = first_time(header, "5");
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("' is not a time unit amdahl knows (ns, us, ms, s, min or h)"));
    }
    // A unit column gives each row's unit.
    const std::string path = test::write_temp("unit_column.csv", "name,time,unit\na,2,s\nb,500,ms\n");
    const auto r = test::run_cli({"eval", path, "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK(line_starting_with(r.out, "a,") == "a,,2,80,1,2,0");
}

TEST_CASE("silent wrong: a second time column is an error, a second Markdown table is said", "[silent]") {
    // (A start column is no time at all: tests/csv_columns_test.cpp.) Two timelines: which to analyse is the
    // user's choice.
    const std::string csv = test::write_temp("two_times.csv", "name,cpu_ms,gpu_ms\na,100,5\nb,105,5\n");
    auto r = test::run_cli({"eval", csv});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + csv +
                       ":1: columns 'cpu_ms' and 'gpu_ms' are times on two timelines (the host's and the device's): "
                       "keep the column of the one to analyse and remove the other\n");
    // 'time' beside 'duration' (time stamps beside durations): -s a=2 gave 1.3311x from the stamps, where the
    // durations give (10 + 20) / (5 + 20) = 1.2x.
    const std::string stamps = test::write_temp("stamps.csv", "name,time,duration\na,1000,10\nb,1010,20\n");
    r = test::run_cli({"eval", stamps, "-s", "a=2"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + stamps +
                       ":1: columns 'time' and 'duration' both look like times, and which is each phase's duration "
                       "cannot be told (a 'time' may be a time stamp): keep that column and remove the other\n");
    const std::string kept = test::write_temp("durations.csv", "name,duration\na,10\nb,20\n");
    r = test::run_cli({"eval", kept, "-s", "a=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["speedup"].get<double>() == Approx(1.2));
    const std::string md = test::write_temp("two_tables.md",
                                            "| phase | time (ms) |\n| --- | --- |\n| a | 5 |\n\ntext\n\n"
                                            "| phase | time (ms) |\n| --- | --- |\n| b | 7 |\n");
    r = test::run_cli({"eval", md});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains(":7: another table starts here; only the first table (line 1) is read"));
}

TEST_CASE("silent wrong: an active time far above the time without an overlapped phase is said", "[silent]") {
    const std::string path =
        test::write_temp("active_no_overlap.json",
                         R"({"phases": [{"name": "a", "time": 10, "active_time": 50}, {"name": "b", "time": 90}]})");
    auto r = test::run_cli({"eval", path, "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains(": phases[0]: phase 'a': active_time 50.0 ms exceeds its time 10.0 ms by more than the "
                               "'overlapped' phase holds (0.0 ms)"));
    // With the overlapped time held by its phase, nothing to say.
    const std::string ok =
        test::write_temp("active_overlap.json", R"({"phases": [{"name": "a", "time": 10, "active_time": 50},
        {"name": "b", "time": 50}, {"name": "overlapped", "kind": "overlapped", "time": 40}]})");
    r = test::run_cli({"eval", ok, "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, !Contains("exceeds its time"));
}

TEST_CASE("silent wrong: an active time below the time is said, and read as the time, shares too", "[silent]") {
    // Found by fuzz_json: a share-only phase kept an active time below the time its share gives, and
    // the overlap range took it: saved 33.1..45 ms (1.49x..1.82x), silently. Read as the time, e's
    // active-time estimate is 25 ms and the range 45..50 ms (the cap: half of e, f and overlapped).
    const std::string share = test::write_temp("active_below_share.json", R"({"total": "100 ms", "phases": [
        {"name": "e", "share": 0.5, "active_time": 16.2}, {"name": "f", "time": 40, "active_time": 50},
        {"name": "overlapped", "kind": "overlapped", "time": 10}]})");
    auto r = test::run_cli({"eval", share, "-s", "e=2", "-s", "f=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains(": phases[0]: phase 'e': active_time 16.2 ms is less than its time 50.0 ms; read as "
                               "50.0 ms (a phase is active at least as long as its own time)"));
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["time_saved_range"]["low"].get<double>() == Approx(45));
    CHECK(report["time_saved_range"]["high"].get<double>() == Approx(50));
    CHECK(report["speedup_range"]["low"].get<double>() == Approx(100.0 / 55));
    CHECK(report["speedup_range"]["high"].get<double>() == Approx(2));
    const std::string timed =
        test::write_temp("active_below_time.json",
                         R"({"phases": [{"name": "a", "time": 10, "active_time": 4}, {"name": "b", "time": 90}]})");
    r = test::run_cli({"eval", timed, "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains(": phases[0]: phase 'a': active_time 4.0 ms is less than its time 10.0 ms; read as "
                               "10.0 ms"));
    // Equal, or below by rounding only: nothing to say.
    const std::string equal = test::write_temp(
        "active_equal.json",
        R"({"phases": [{"name": "a", "time": 10, "active_time": 9.9999}, {"name": "b", "time": 90}]})");
    r = test::run_cli({"eval", equal, "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, !Contains("is less than its time"));
}

TEST_CASE("silent wrong: a unit column with a word that is no unit is an error", "[silent]") {
    const std::string path = test::write_temp("bad_unit_column.csv", "name,time,unit\na,2,s\nb,500,cycles\n");
    const auto r = test::run_cli({"eval", path});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + path + ":3: phase 'b': unknown unit 'cycles' (expected ns, us, ms, s, min or h)\n");
}

TEST_CASE("silent wrong: a summary's caveat survives import into eval, rank, plan and compare", "[silent][cli]") {
    // A kernel-time sum is not a wall time; every command says so in every format, and no
    // headline calls the sum "end to end".
    test::TempDir dir;
    const std::string summary =
        test::source_path("tests/data/profilers/nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv");
    const std::string imported = dir / "summary.json";
    REQUIRE(test::run_cli({"import", summary, "-o", imported}).exit_code == 0);
    const std::string caveat = "rows may overlap: the sum of the rows is not wall time";
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"eval", imported, "-s", "kind:kernel=2"}, std::vector<std::string>{"rank", imported},
          std::vector<std::string>{"plan", imported, "--target", "1.1"},
          std::vector<std::string>{"compare", imported, imported}}) {
        INFO(command[0]);
        for (const char* format : {"table", "md", "json"}) {
            INFO(format);
            auto args = command;
            args.insert(args.end(), {"--format", format});
            const auto r = test::run_cli(args);
            REQUIRE(r.exit_code == 0);
            if (std::string(format) == "json") {
                const auto json = nlohmann::json::parse(r.out);
                CHECK(json["summary_only"] == true);
                CHECK_THAT(json["boundary"].get<std::string>(), Contains("the sum of the kernel times"));
            } else {
                CHECK_THAT(r.out, Contains(caveat));
                CHECK_THAT(r.out, Contains("the sum of the kernel times in the nsys summary"));
                CHECK_THAT(r.out, !Contains("end to end"));
            }
        }
    }
}

TEST_CASE("silent wrong: an --output-* file never replaces an input or another output", "[silent][cli]") {
    test::TempDir dir;
    const std::string profile = dir / "p.json", other = dir / "q.json", same = dir / "same.out";
    const std::string content = R"({"unit": "ms", "phases": {"a": 60, "b": 40}})";
    std::ofstream(profile) << content;
    std::ofstream(other) << R"({"unit": "ms", "phases": {"a": 30, "b": 40}})";
    auto r = test::run_cli({"eval", profile, "-s", "a=2", "--output-json", profile});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "error: --output-json: '" + profile + "' is an input of this run; write the report to another file\n");
    CHECK(test::read_file(profile) == content);
    r = test::run_cli({"eval", profile, "-s", "a=2", "--output-json", same, "--output-md", same});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --output-md: '" + same + "' is also --output-json's file; one would replace the other\n");
    CHECK_FALSE(std::filesystem::exists(same));
    // compare reads two inputs; either is protected.
    r = test::run_cli({"compare", profile, other, "--summary-csv", other});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --summary-csv: '" + other + "' is an input of this run; write the report to another file\n");
}

TEST_CASE("silent wrong: --summary-csv /dev/stdout follows the report, it does not overwrite it", "[silent][cli]") {
    if (!std::filesystem::exists("/dev/stdout")) return;
    test::TempDir dir;
    const std::string out = dir / "out.txt";
    const auto r = test::run_shell("( '" + std::string(AMDAHL_BINARY) + "' eval " +
                                   test::source_path("examples/transformer_step.json") +
                                   " -s attention_softmax=2 --summary-csv /dev/stdout > '" + out + "' )");
    REQUIRE(r.exit_code == 0);
    const std::string written = test::read_file(out);
    // The table first, then the key,value rows, both whole (opening /dev/stdout truncated the file).
    CHECK_THAT(written, StartsWith("phase "));
    CHECK_THAT(written, Contains("verdict:"));
    CHECK_THAT(written, Contains("\nspeedup,1.11731843575418"));
    CHECK(written.find("verdict:") < written.find("speedup,"));
}

TEST_CASE("silent wrong: --require-speedup met exactly, but for binary rounding, passes", "[silent][cli]") {
    // 2.1 / (0.7 + 0.7) is 1.5 by hand and 1.4999999999999998 in doubles; compare's gates passed it,
    // eval's failed it.
    const std::string path = test::write_temp("gate_exact.json", R"({"phases": {"a": 0.7, "b": 1.4}})");
    auto r = test::run_cli({"eval", path, "-s", "b=2", "--require-speedup", "1.5"});
    CHECK(r.exit_code == 0);
    r = test::run_cli({"eval", "--mix", path + "=1", "-s", "b=2", "--require-speedup", "1.5"});
    CHECK(r.exit_code == 0);
    r = test::run_cli({"eval", "--ranks", path, "-s", "b=2", "--require-speedup", "1.5"});
    CHECK(r.exit_code == 0);
    r = test::run_cli({"eval", path, "-s", "b=2", "--require-speedup", "1.5000001"});
    CHECK(r.exit_code == 1);
}

TEST_CASE("silent wrong: a pasted row's numbers must fit the header's number columns", "[silent][text_rows]") {
    // Numbers with their digits grouped by spaces were read as a name and a number: phases '2',
    // '1' and '44' of 357, 205 and 242 ns.
    const std::string grouped = test::write_temp("grouped.txt",
                                                 "Device activity Duration (ns)\n"
                                                 "MEMORY_COPY_HOST_TO_DEVICE 2 357 053\n"
                                                 "MEMORY_COPY_DEVICE_TO_HOST 1 205 206\n"
                                                 "vector_add kernel dispatch 44 242\n");
    const auto g = test::run_cli({"eval", grouped});
    CHECK(g.exit_code == 2);
    CHECK(g.out.empty());
    CHECK(g.err == "error: " + grouped +
                       ":2: the row has 3 numbers ('2 357 053') and the header has 1 number column ('Duration "
                       "(ns)'); if they are one number with its digits grouped by spaces, write it without the "
                       "spaces (2357053) or with commas (2,357,053)\n");
    // Before: alpha = 1 ms, the rest dropped.
    const std::string dropped = test::write_temp("dropped.txt", "Phase Time (ms)\nalpha 1 234 567\nbeta 2 345 678\n");
    const auto d = test::run_cli({"eval", dropped});
    CHECK(d.exit_code == 2);
    CHECK(d.err == "error: " + dropped +
                       ":2: the row has 3 numbers ('1 234 567') and the header has 1 number column ('Time (ms)'); "
                       "if they are one number with its digits grouped by spaces, write it without the spaces "
                       "(1234567) or with commas (1,234,567)\n");
    // A row that leaves out a column: 'stage 2 60' was read as phase 'stage' = 2 ms at 60%.
    const std::string missing = test::write_temp("missing.txt", "Phase Time (ms) Share\nstage 1 40 40%\nstage 2 60\n");
    const auto m = test::run_cli({"eval", missing, "-s", "stage 1=2"});
    CHECK(m.exit_code == 2);
    CHECK(m.err == "error: " + missing +
                       ":3: the row has 2 numbers ('2 60') and the header has 2 number columns ('Time (ms)', "
                       "'Share'), but line 2 reads 'stage 1' as a name that ends in a number: is this 'stage 2' "
                       "with a column left out? Give every row every column\n");
    // A row with fewer numbers than the header has columns is not padded.
    const std::string short_row = test::write_temp("short_row.txt", "Phase Time (ms) Share\na 30 30%\nb 70\n");
    const auto s = test::run_cli({"eval", short_row});
    CHECK(s.exit_code == 2);
    CHECK(s.err == "error: " + short_row +
                       ":3: the row has 1 number ('70') and the header has 2 number columns ('Time (ms)', "
                       "'Share'); give every row every column\n");
    // A header without the words to label every number is not padded with empty labels.
    const std::string unlabelled = test::write_temp("unlabelled.txt", "Phase x\na 1 2 3\nb 4 5 6\n");
    const auto u = test::run_cli({"eval", unlabelled});
    CHECK(u.exit_code == 2);
    CHECK(u.err == "error: " + unlabelled +
                       ":1: the header 'Phase x' has too few words to label the name and 3 numbers of line 2\n");
    // Rows that differ in how many numbers they have, under a header that cannot say which is which.
    const std::string ragged = test::write_temp("ragged.txt", "Kernel Grid Block Time\na 1 2 3\nb 4 5\n");
    const auto rg = test::run_cli({"eval", ragged});
    CHECK(rg.exit_code == 2);
    CHECK(rg.err ==
          "error: " + ragged + ":3: the row has 2 numbers ('4 5') and line 2 has 3; give every row every column\n");
}

TEST_CASE("silent wrong: a last row that is the sum of the others is the total whatever its name", "[silent][totals]") {
    // 'Grand total' was a phase: baseline 200 ms and 1.1765x; the truth is 100 / 70 = 1.4286x.
    for (const std::string last : {"Grand total", "Step total", "Σ", "Wall clock"}) {
        INFO(last);
        const std::string path =
            test::write_temp("grand_total.csv", "name,time_ms\ngemm,60\nattn,30\nother,10\n" + last + ",100\n");
        const auto r = test::run_cli({"eval", path, "-s", "gemm=2", "--format", "json"});
        REQUIRE(r.exit_code == 0);
        const auto report = nlohmann::json::parse(r.out);
        CHECK(report["baseline_time"].get<double>() == Approx(100));
        CHECK(report["speedup"].get<double>() == Approx(100.0 / 70));
        CHECK(r.err == "note: " + path + ":5: row '" + last +
                           "' is read as the total: its time is the sum of the rows before it (name it 'Total' to "
                           "say so; if it is a phase, add a row 'Total' after it)\n");
        // Pasted as text, the same.
        const std::string pasted =
            test::write_temp("grand_total.txt", "Phase Time (ms)\ngemm 60\nattn 30\nother 10\n" + last + " 100\n");
        const auto t = test::run_cli({"eval", pasted, "-s", "gemm=2", "--format", "json"});
        REQUIRE(t.exit_code == 0);
        CHECK(nlohmann::json::parse(t.out)["speedup"].get<double>() == Approx(100.0 / 70));
    }
    // At the precision the numbers were written: 33.3 x 3 is 99.9, and '100' is 99.5 to 100.5.
    const std::string rounded =
        test::write_temp("rounded_total.csv", "name,time_ms\na,33.3\nb,33.3\nc,33.3\nStep,100\n");
    const auto r = test::run_cli({"eval", rounded, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["baseline_time"].get<double>() == Approx(100));
    // Not the sum: a phase, as before.
    const std::string phase = test::write_temp("not_total.csv", "name,time_ms\na,60\nb,30\nStep,91\n");
    const auto p = test::run_cli({"eval", phase, "--format", "json"});
    REQUIRE(p.exit_code == 0);
    CHECK(nlohmann::json::parse(p.out)["baseline_time"].get<double>() == Approx(181));
}

TEST_CASE("silent wrong: a JSON phase named like a total that is the sum of the others is an error",
          "[silent][totals]") {
    const std::string path = test::write_temp("json_total.json", R"({"phases":{"gemm":60,"attn":40,"Total":100}})");
    const auto r = test::run_cli({"eval", path});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + path +
                       ": phases.Total: phase 'Total' is named like a total and its time is the sum of the other "
                       "phases: give it as the profile's \"total\" field, or rename it if it is a phase\n");
    const std::string listed =
        test::write_temp("json_total_list.json",
                         R"({"phases":[{"name":"a","time":30},{"name":"b","time":20},{"name":"Sum","time":50}]})");
    const auto l = test::run_cli({"eval", listed});
    CHECK(l.exit_code == 2);
    CHECK(l.err == "error: " + listed +
                       ": phases[2]: phase 'Sum' is named like a total and its time is the sum of the other "
                       "phases: give it as the profile's \"total\" field, or rename it if it is a phase\n");
    // A total-like name that is not the sum is a phase, as before.
    const std::string phase = test::write_temp("json_sum_phase.json", R"({"phases":{"a":30,"b":20,"sum_kernel":5}})");
    CHECK(test::run_cli({"eval", phase}).exit_code == 0);
    // A name that only contains a total-like word is the sum when it equals it as written, as a
    // table's last row is (found by fuzz_text: a table's phase 'osrt_sum' of 1500 beside 1499 did
    // not read back from amdahl's own JSON, which allowed 0.5% rounding).
    const std::string exact =
        test::write_temp("json_osrt_exact.json", R"({"unit":"ms","phases":{"a":1000,"b":500,"osrt_sum":1500}})");
    CHECK(test::run_cli({"eval", exact}).exit_code == 2);
    const std::string near =
        test::write_temp("json_osrt_near.json", R"({"unit":"ms","phases":{"a":999,"b":500,"osrt_sum":1500}})");
    const auto n = test::run_cli({"eval", near, "--format", "json"});
    CHECK(n.exit_code == 0);
    CHECK(nlohmann::json::parse(n.out)["baseline_time"].get<double>() == Approx(2999));
    const std::string table = test::write_temp("osrt.txt", "Stage Time\na 999 ms\nb 500 ms\nosrt_sum 1500 ms\n");
    CHECK(test::run_cli({"eval", table}).exit_code == 0);
    // A time written with more than 9 decimals is that precise: 8.9e-49 is not the sum of zeros
    // (found by fuzz_folded: a frame 'x_sum' of 8.9e-49 samples beside frames of none did not read
    // back from amdahl's own JSON, whose "total" it equals).
    const std::string tiny =
        test::write_temp("json_tiny_sum.json", R"({"unit":"ms","phases":{"a":0,"b":0,"x_sum":8.9e-49}})");
    CHECK(test::run_cli({"eval", tiny}).exit_code == 0);
    // Whether amdahl's JSON of folded stacks reads back.
    const auto folded_reads_back = [](const std::string& name, const std::string& stacks) {
        const std::string folded = test::write_temp(name + ".folded", stacks);
        const auto imported = test::run_cli({"import", "--input-format", "folded", folded});
        REQUIRE(imported.exit_code == 0);
        return test::run_cli({"eval", test::write_temp(name + ".json", imported.out)}).exit_code == 0;
    };
    CHECK(folded_reads_back("tiny_sum", "a 0\nb 0\nx_sum 8.9e-49\n"));
    const std::string tiny_near =
        test::write_temp("json_tiny_near.json", R"({"unit":"ms","phases":{"a":1e-20,"b":0,"x_sum":8.9e-49}})");
    CHECK(test::run_cli({"eval", tiny_near}).exit_code == 0);
    // Still the sum when it is, to the digits written.
    const std::string tiny_equal = test::write_temp(
        "json_tiny_equal.json", R"({"unit":"ms","phases":{"a":4.45e-49,"b":4.45e-49,"x_sum":8.9e-49}})");
    CHECK(test::run_cli({"eval", tiny_equal}).exit_code == 2);
    // Times are compared in the profile's own unit: 4.4e306 ms is no sum of 1 and 48 ms, though
    // in ns both it and the whole overflow to infinity, which compared equal (found by
    // fuzz_folded: a frame 'Total ...' of 4.4e306 samples did not read back from amdahl's JSON).
    const std::string huge = test::write_temp(
        "json_huge_total_name.json",
        R"({"unit":"ms","phases":[{"name":"a","time":1},{"name":"b","time":48},{"name":"Total x","time":4.4e306}]})");
    const auto h = test::run_cli({"eval", huge, "--format", "json"});
    CHECK(h.err == "");
    CHECK(h.exit_code == 0);
    CHECK(folded_reads_back("huge_total_name", "a 1\nb 48\nTotal x 4.4e306\n"));
    // A last row named like a total but above the rows' sum is read as a phase, with a note, at
    // that size too (in ns the comparison of two infinities said nothing).
    const std::string huge_table =
        test::write_temp("huge_last_sum.txt", "Stage Time\na 1e306 ms\nb 1e306 ms\nsum 3e306 ms\n");
    const auto t = test::run_cli({"eval", huge_table});
    CHECK(t.exit_code == 0);
    CHECK_THAT(t.err, Contains("huge_last_sum.txt:4: row 'sum' is read as a phase: it is not the sum of the rows"));
    // The sum is still found at that size.
    const std::string huge_sum =
        test::write_temp("json_huge_sum.json", R"({"unit":"ms","phases":{"a":2e306,"b":2.4e306,"Total":4.4e306}})");
    CHECK(test::run_cli({"eval", huge_sum}).exit_code == 2);
}

TEST_CASE("silent wrong: a table row named like a total that is the sum of the others is refused, as in JSON",
          "[silent][totals][fuzz-finding]") {
    // Found by fuzz_text: a row 'gemm_sum' in the middle of a table, its time the sum of all the
    // other rows, was read as a phase (doubling the baseline, had it been the total), and with a
    // range among the times `import` wrote a profile without a "total" field that did not read
    // back: the JSON reader refuses such a phase. The table refuses it the same way now.
    const std::string ranged = test::write_temp("mid_sum_range.csv", "name,time (ms)\na,10..20\ngemm_sum,45\nb,30\n");
    const auto r = test::run_cli({"import", ranged});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + ranged +
                       ":3: phase 'gemm_sum' is named like a total and its time is the sum of the other rows: name "
                       "it 'Total' if it is the total, or rename it if it is a phase\n");
    // Without a range, the same: a row is no total and a phase at once.
    const std::string plain = test::write_temp("mid_sum.txt", "Stage Time\na 10 ms\nstep total 30 ms\nb 20 ms\n");
    const auto p = test::run_cli({"eval", plain});
    CHECK(p.exit_code == 2);
    CHECK_THAT(p.err, Contains("mid_sum.txt:3: phase 'step total' is named like a total and its time is the sum of "
                               "the other rows"));
    // Not the sum of the others (a subtotal): a phase, and import's JSON reads back.
    const std::string subtotal = test::write_temp("mid_subtotal.csv", "name,time (ms)\na,10..20\ngemm_sum,44\nb,30\n");
    const auto s = test::run_cli({"import", subtotal});
    REQUIRE(s.exit_code == 0);
    const std::string back = test::write_temp("mid_subtotal.json", s.out);
    const auto b = test::run_cli({"eval", back, "--format", "json"});
    REQUIRE(b.exit_code == 0);
    CHECK(nlohmann::json::parse(b.out)["baseline_time"].get<double>() == Approx(89));
}

TEST_CASE("totals: many phases named like a total are screened in one pass, and the sum among them is still found",
          "[silent][totals]") {
    // Each phase named like a total summed all the others: 50,000 rows named 'k_sum_N' took 18 s
    // (bench/total_names.sh times it). The others' sum is the whole less the phase now.
    std::string csv = "name,time (ms)\n";
    for (int i = 0; i < 20000; ++i) csv += "k_sum_" + std::to_string(i) + ",1\n";
    const std::string many = test::write_temp("many_sums.csv", csv);
    const auto r = test::run_cli({"eval", many, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["baseline_time"].get<double>() == Approx(20000));
    // One of them the sum of all the others, in the middle: refused, as with three rows.
    std::string with_sum = "name,time (ms)\n";
    for (int i = 0; i < 10000; ++i) with_sum += "k_sum_" + std::to_string(i) + ",1\n";
    with_sum += "all_sum,20000\n";
    for (int i = 10000; i < 20000; ++i) with_sum += "k_sum_" + std::to_string(i) + ",1\n";
    const std::string summed = test::write_temp("many_sums_one_total.csv", with_sum);
    const auto s = test::run_cli({"eval", summed});
    CHECK(s.exit_code == 2);
    CHECK_THAT(s.err, Contains("many_sums_one_total.csv:10002: phase 'all_sum' is named like a total and its time is "
                               "the sum of the other rows"));
    // All zero: the first is the sum of the others (zero), as before.
    const std::string zeros =
        test::write_temp("zero_sums.json", R"({"unit":"ms","phases":{"a_sum":0,"b_sum":0,"c_sum":0}})");
    const auto z = test::run_cli({"eval", zeros});
    CHECK(z.exit_code == 2);
    CHECK_THAT(z.err, Contains("phases.a_sum: phase 'a_sum' is named like a total"));
}

TEST_CASE("silent wrong: a JSON phase named like a total under a declared total it is not is a phase",
          "[silent][totals]") {
    // The file's "total" says what the total is: a phase of another time is not that total, even
    // when its time happens to equal the other phases' sum (found by fuzz_folded: a frame named
    // '...total...' of 5 samples beside 1 and 4 did not read back from amdahl's own JSON).
    const std::string declared = test::write_temp("json_declared_total.json",
                                                  R"({"unit":"ms","total":10,"phases":{"a":1,"b":4,"grand total":5}})");
    const auto d = test::run_cli({"eval", declared, "--format", "json"});
    CHECK(d.exit_code == 0);
    CHECK(d.err.empty());
    CHECK(nlohmann::json::parse(d.out)["baseline_time"].get<double>() == Approx(10));
    // Declared as the same time as the phase: that phase is the total written twice.
    const std::string twice =
        test::write_temp("json_total_twice.json", R"({"unit":"ms","total":5,"phases":{"a":1,"b":4,"grand total":5}})");
    const auto t = test::run_cli({"eval", twice});
    CHECK(t.exit_code == 2);
    CHECK(t.err == "error: " + twice +
                       ": phases.grand total: phase 'grand total' is named like a total and its time is the sum "
                       "of the other phases: give it as the profile's \"total\" field, or rename it if it is a "
                       "phase\n");
}

TEST_CASE("silent wrong: a self time column wins over an inclusive one", "[silent][self_time]") {
    // 'CPU total' holds inclusive times (linear's 800 us includes addmm's): baseline 1,800 us and
    // 1.2x; the self times give 1,000 us and 1000 / 750 = 1.3333x.
    const std::string path = test::write_temp(
        "self_cpu.csv",
        "name,Self CPU (us),CPU total (us),# of Calls\nlinear,100,800,10\naddmm,500,600,10\nrelu,400,400,10\n");
    const auto r = test::run_cli({"eval", path, "-s", "addmm=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["baseline_time"].get<double>() == Approx(1000));
    CHECK(report["speedup"].get<double>() == Approx(1000.0 / 750));
    CHECK(r.err == "note: " + path +
                       ":1: column 'Self CPU (us)' (self time) is read as the phase time, not 'CPU total (us)' "
                       "(inclusive: a nested op's time is in its caller's too, so their sum counts it twice)\n");
    // In either order, and exclusive beside inclusive.
    const std::vector<std::pair<std::string, bool>> headers{{"name,self_ms,total_ms", true},
                                                            {"name,total_ms,self_ms", false},
                                                            {"name,exclusive_ms,inclusive_ms", true},
                                                            {"name,inclusive_ms,exclusive_ms", false},
                                                            {"name,self time (ms),time (ms)", true}};
    for (const auto& [header, self_first] : headers) {
        INFO(header);
        const std::string csv = self_first ? "a,100,800\nb,500,600\nc,400,400\n" : "a,800,100\nb,600,500\nc,400,400\n";
        const std::string file = test::write_temp("self_order.csv", header + "\n" + csv);
        const auto e = test::run_cli({"eval", file, "-s", "b=2", "--format", "json"});
        REQUIRE(e.exit_code == 0);
        CHECK(nlohmann::json::parse(e.out)["baseline_time"].get<double>() == Approx(1000));
        CHECK_THAT(e.err, Contains("(self time) is read as the phase time"));
    }
}

TEST_CASE("silent wrong: PyTorch's CPU and CUDA self times are two timelines, refused", "[silent][self_time]") {
    const std::string path = test::write_temp("pytorch_table.csv",
                                              "Name,Self CPU %,Self CPU,CPU total %,CPU total,CPU time avg,Self CUDA,"
                                              "Self CUDA %,CUDA total,CUDA time avg,# of Calls\n"
                                              "aten::addmm,40%,4ms,50%,5ms,0.5ms,8ms,80%,8ms,0.8ms,10\n"
                                              "aten::relu,60%,6ms,50%,5ms,0.5ms,2ms,20%,2ms,0.2ms,10\n");
    const auto r = test::run_cli({"eval", path});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + path +
                       ":1: columns 'Self CPU' and 'Self CUDA' are self times on two timelines (the host's and the "
                       "device's): keep the columns of the one to analyse and remove the other's\n");
    // With one timeline's columns kept, its self time is read.
    const std::string cuda = test::write_temp("pytorch_cuda.csv",
                                              "Name,Self CUDA,Self CUDA %,CUDA total,CUDA time avg,# of Calls\n"
                                              "aten::addmm,8ms,80%,8ms,0.8ms,10\naten::relu,2ms,20%,2ms,0.2ms,10\n");
    const auto c = test::run_cli({"eval", cuda, "--format", "json"});
    REQUIRE(c.exit_code == 0);
    CHECK(nlohmann::json::parse(c.out)["baseline_time"].get<double>() == Approx(10));
}

TEST_CASE("silent wrong: --rename never merges phases of two barrier segments", "[silent][ranks]") {
    // gemm_fwd (forward) and gemm_bwd (backward) renamed to one 'gemm' moved the backward segment's
    // time into forward: 1.4182x where 1.4286x is right.
    const std::string ranks = test::source_path("examples/ranks") + "/rank*.csv";
    const auto r = test::run_cli({"eval", "--ranks", ranks, "--rename-regex", "gemm=gemm", "-s", "gemm=2"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains("would make 'gemm_fwd' (segment 'forward') and 'gemm_bwd' (segment 'backward') one "
                               "phase 'gemm'"));
    // Without the rename, a glob selects both and keeps the segments: 40 ms -> 28 ms.
    const auto g = test::run_cli({"eval", "--ranks", ranks, "-s", "gemm*=2", "--format", "json"});
    REQUIRE(g.exit_code == 0);
    const auto report = nlohmann::json::parse(g.out);
    CHECK(report["speedup"].get<double>() == Approx(40.0 / 28));
}

TEST_CASE("silent wrong: phases merged by --rename add their ranges and spreads", "[silent][uncertainty]") {
    // g1 10..30 and g2 5..15 are g 15..45: -s g=2 on 15..45 of 20 ms more gives 35/27.5 to 65/42.5.
    const std::string ranged = test::write_temp(
        "merge_ranges.json",
        R"({"unit": "ms", "phases": [{"name": "g1", "time": "10..30"}, {"name": "g2", "time": "5..15"}, {"name": "o", "time": 20}]})");
    const auto r = test::run_cli({"eval", ranged, "--rename-regex", "g=g", "-s", "g=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["uncertainty"]["speedup_low"].get<double>() == Approx(35 / 27.5));
    CHECK(report["uncertainty"]["speedup_high"].get<double>() == Approx(65 / 42.5));
    // The glob without a rename says the same.
    const auto g = test::run_cli({"eval", ranged, "-s", "g*=2", "--format", "json"});
    const auto glob = nlohmann::json::parse(g.out);
    CHECK(glob["uncertainty"]["speedup_low"].get<double>() == Approx(35 / 27.5));
    CHECK(glob["uncertainty"]["speedup_high"].get<double>() == Approx(65 / 42.5));
    // Spreads of independent phases add in quadrature: sd 3 and 4 are sd 5.
    const std::string spread = test::write_temp(
        "merge_spreads.json",
        R"({"unit": "ms", "phases": [{"name": "g1", "time": "10 ± 3"}, {"name": "g2", "time": "10 ± 4"}, {"name": "o", "time": 20}]})");
    const auto s = test::run_cli({"eval", spread, "--rename-regex", "g=g", "-s", "g=2", "--format", "json"});
    REQUIRE(s.exit_code == 0);
    const auto spread_report = nlohmann::json::parse(s.out);
    // S = (g + 20) / (g/2 + 20): dS/dg = 10 / (g/2 + 20)^2 = 10 / 900 at g = 20; sd(S) = 5 x 10 / 900.
    CHECK(spread_report["uncertainty"]["speedup_sd"].get<double>() == Approx(5 * 10.0 / 900));
}

TEST_CASE("silent wrong: compare never counts a total's unattributed time as removed when AFTER says no total",
          "[silent][compare]") {
    // BEFORE: a 50 + b 40 of a 100 ms total (10 ms unattributed); AFTER: a 40 + b 40, no total. The
    // time outside AFTER's phases is unknown, not zero: 100 -> 80 ms (1.25x) was a guess.
    const std::string before =
        test::write_temp("cmp_total_before.json", R"({"unit": "ms", "total": 100, "phases": {"a": 50, "b": 40}})");
    const std::string after =
        test::write_temp("cmp_total_after.json", R"({"unit": "ms", "phases": {"a": 40, "b": 40}})");
    auto r = test::run_cli({"compare", before, after});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains("cmp_total_after.json: declares no end-to-end time (no \"total\", Total row or runs), "
                               "but the BEFORE profile " +
                               before + " does (10.0 ms of it outside its phases)"));
    // The other way round too.
    r = test::run_cli({"compare", after, before});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("cmp_total_after.json: declares no end-to-end time"));
    // With a total on both sides, or on neither, compare answers.
    const std::string after_total =
        test::write_temp("cmp_total_after2.json", R"({"unit": "ms", "total": 90, "phases": {"a": 40, "b": 40}})");
    r = test::run_cli({"compare", before, after_total, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["speedup"].get<double>() == Approx(100.0 / 90));
    const std::string before_plain =
        test::write_temp("cmp_total_before2.json", R"({"unit": "ms", "phases": {"a": 50, "b": 40}})");
    r = test::run_cli({"compare", before_plain, after, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["speedup"].get<double>() == Approx(90.0 / 80));
}

TEST_CASE("silent wrong: a JSON key amdahl does not read is an error, not dropped", "[silent][json]") {
    // A phase's "unit" was dropped: -s a=2 gave 1.2x, where a is 10 us and the answer 1.00025x.
    const std::string unit =
        test::write_temp("json_phase_unit.json",
                         R"({"unit":"ms","phases":[{"name":"a","time":10,"unit":"us"},{"name":"b","time":20}]})");
    const auto u = test::run_cli({"eval", unit, "-s", "a=2"});
    CHECK(u.exit_code == 2);
    CHECK(u.out.empty());
    CHECK(u.err == "error: " + unit +
                       ": phases[0].unit: unknown key 'unit' (the keys here are name, time, time_sd, share, kind, "
                       "active_time, calls, segment and renamed_from; a key starting with _ is a comment); give a "
                       "phase's unit with its time (\"time\": \"10 us\")\n");
    // A misspelled "total" skipped the check against the phases.
    const std::string totl = test::write_temp("json_totl.json", R"({"unit":"ms","totl":100,"phases":{"a":10,"b":20}})");
    const auto t = test::run_cli({"eval", totl});
    CHECK(t.exit_code == 2);
    CHECK(t.err == "error: " + totl +
                       ": totl: unknown key 'totl' (the keys here are schema_version, name, unit, total, phases, "
                       "proposals, runs, overlaps, steps, classes, timeline, boundary, summary_only, format and "
                       "notes; a key starting with _ is a comment)\n");
    // The shorthand form's phase objects, and "time_ms" beside "time".
    const std::string shorthand =
        test::write_temp("json_time_ms.json", R"({"phases":{"a":{"time":10,"time_ms":12},"b":20}})");
    const auto s = test::run_cli({"eval", shorthand});
    CHECK(s.exit_code == 2);
    CHECK_THAT(s.err, Catch::Matchers::StartsWith("error: " + shorthand + ": phases.a.time_ms: unknown key 'time_ms'"));
    // Comments are allowed.
    const std::string comments = test::write_temp(
        "json_comments.json",
        R"({"$schema":"x","_note":"from the 12 May run","unit":"ms","phases":[{"name":"a","time":10,"_src":"nsys"}]})");
    CHECK(test::run_cli({"eval", comments}).exit_code == 0);
}

TEST_CASE("silent wrong: a bare time_sd beside a time written with its unit is an error", "[silent][uncertainty]") {
    // "10 ms" with time_sd 500 was read as a 500 ms spread: speedup spread +/- 11.1x, no note.
    const std::string csv = test::write_temp("bare_sd.csv", "name,time,time_sd\na,10 ms,500\nb,10 ms,\n");
    const auto c = test::run_cli({"eval", csv, "-s", "a=2"});
    CHECK(c.exit_code == 2);
    CHECK(c.err ==
          "error: " + csv + ":2: phase 'a': time_sd has no unit and the time has one: give both a unit, or neither\n");
    const std::string json = test::write_temp(
        "bare_sd.json", R"({"phases":[{"name":"a","time":"10 ms","time_sd":500},{"name":"b","time":"10 ms"}]})");
    const auto j = test::run_cli({"eval", json, "-s", "a=2"});
    CHECK(j.exit_code == 2);
    CHECK(j.err == "error: " + json +
                       ": phases[0].time_sd: time_sd has no unit and the time has one: give both a unit, or neither\n");
    // Both with units, or both bare under a unit header, read as before.
    const std::string both = test::write_temp("both_sd.csv", "name,time,time_sd\na,10 ms,0.5 ms\nb,10 ms,\n");
    CHECK(test::run_cli({"eval", both, "-s", "a=2"}).exit_code == 0);
    const std::string header = test::write_temp("header_sd.csv", "name,time_ms,time_sd\na,10,0.5\nb,10,\n");
    CHECK(test::run_cli({"eval", header, "-s", "a=2"}).exit_code == 0);
}

TEST_CASE("silent wrong: a last row the others exceed is a phase, and a total row's error names it",
          "[silent][totals]") {
    // 10.2 + 20.2 + 0.1 = 30.5: 'optimizer,30' was the sum "to its precision", then 1.6% short of it: an error
    // with no word of the row. It is a phase: 60.5 ms, and -s optimizer=2 gives 60.5 / 45.5.
    const std::string path =
        test::write_temp("opt_phase.csv", "name,time_ms\nforward,10.2\nbackward,20.2\nloss,0.1\noptimizer,30\n");
    const auto r = test::run_cli({"eval", path, "-s", "optimizer=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["speedup"].get<double>() == Approx(60.5 / 45.5));
    // A row named like a total in the middle: the error says which row is the total, and why.
    const std::string named =
        test::write_temp("e2e_row.csv", "name,time_ms\nforward,10\nend-to-end eval harness,5\nbackward,20\n");
    const auto n = test::run_cli({"eval", named});
    CHECK(n.exit_code == 2);
    CHECK(n.err == "error: " + named +
                       ":3: phases add up to 30.0 ms, more than the total 5.0 ms (row 'end-to-end eval harness' is "
                       "read as the total by its name; rename it if it is a phase)\n");
}

// key_averages().table() of a run profiled with profile_memory=True and with_flops=True: memory
// columns ("CPU Mem", "Self CPU Mem", sizes such as "94.79 Mb") and a FLOPs column ("Total MFLOPs",
// "--" where an op has none) are no times; "Self CPU Mem" was taken for a second time column and
// the table refused. Self CPU is read, as without them: 12.5 / 9.5.
TEST_CASE("pasted tables: PyTorch key_averages with memory and FLOPs columns", "[silent][text]") {
    const std::string rule =
        "-----------  ---------  --------  ---------  ---------  ------------  ------------  "
        "----------\n";
    const std::string path = test::write_temp(
        "key_averages_mem.txt",
        rule + "       Name  Self CPU %  Self CPU  CPU total  CPU Mem  Self CPU Mem  Total MFLOPs  # of Calls\n" +
            rule +
            "aten::addmm      48.00%   6.000ms    8.000ms  94.79 Mb          0 b      1024.000           4\n"
            " aten::relu      24.00%   3.000ms    3.000ms       0 b    -94.79 Mb            --           3\n"
            "aten::empty       8.00%   1.000ms    1.000ms  94.84 Mb     94.84 Mb            --          10\n" +
            rule + "Self CPU time total: 12.500ms\n");
    const auto r = test::run_cli({"eval", path, "-s", "aten::addmm=2", "--format", "json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK_THAT(report["speedup"].get<double>(), Catch::Matchers::WithinRel(12.5 / 9.5, 1e-12));
    CHECK(report["phases"][0]["calls"] == 4);
}

// PyTorch's prof.key_averages().table(), pasted: rules above and below, labels of several words
// aligned by two or more spaces, times with their units, and a "Self CPU time total" line under it.
// Self CPU is the phase time; the total line is the end-to-end time (rows the table's row_limit
// left out included): aten::addmm 6 ms of 12.5 at 2x saves 3 ms, 12.5 / 9.5 = 1.3158x.
TEST_CASE("pasted tables: PyTorch key_averages with rules, labels of several words and its total line",
          "[silent][text]") {
    const std::string rule =
        "-------------------  ------------  ------------  ------------  ------------  ------------\n";
    const std::string path =
        test::write_temp("key_averages.txt", rule +
                                                 "               Name    Self CPU %      Self CPU   CPU total %     "
                                                 "CPU total    # of Calls\n" +
                                                 rule +
                                                 "        aten::addmm        48.00%       6.000ms        64.00%      "
                                                 " 8.000ms             4\n"
                                                 "         aten::relu        24.00%       3.000ms        24.00%      "
                                                 " 3.000ms             3\n"
                                                 "        aten::empty         8.00%       1.000ms         8.00%      "
                                                 " 1.000ms            10\n" +
                                                 rule + "Self CPU time total: 12.500ms\n");
    const auto r = test::run_cli({"eval", path, "-s", "aten::addmm=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK_THAT(report["speedup"].get<double>(), Catch::Matchers::WithinRel(12.5 / 9.5, 1e-12));
    CHECK(report["phases"][0]["name"] == "aten::addmm");
    CHECK(report["phases"][0]["calls"] == 4);
    CHECK(report["phases"][2]["calls"] == 10);
    CHECK_THAT(r.err, Contains("key_averages.txt:8: 'Self CPU time total: 12.500ms' is read as the end-to-end time: "
                               "the total of column 'Self CPU'"));
    CHECK_THAT(r.err, Contains("the other 2.5 ms is phase 'unattributed'"));
    // A total line of another column is said and left.
    const std::string other = test::write_temp("key_averages_cuda.txt",
                                               "Name  Self CPU\n----  --------\naten::mm  4.000ms\naten::add  "
                                               "1.000ms\nSelf CUDA time total: 9.000ms\n");
    const auto o = test::run_cli({"eval", other, "-s", "aten::mm=2", "--format", "json"});
    REQUIRE(o.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(o.out)["speedup"].get<double>(), Catch::Matchers::WithinRel(5.0 / 3.0, 1e-12));
    CHECK_THAT(o.err, Contains("key_averages_cuda.txt:5: 'Self CUDA time total: 9.000ms' is not used: it does not "
                               "total the time column read ('Self CPU')"));
}

TEST_CASE("pasted tables: a dashed rule under the header is not the header", "[silent][text]") {
    const std::string path =
        test::write_temp("ruled.txt", "name  time_ms\n----  -------\ngemm  20\nattn  30\nnorm  10\n");
    const auto r = test::run_cli({"eval", path, "-s", "gemm=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(r.out)["speedup"].get<double>(), Catch::Matchers::WithinRel(60.0 / 50.0, 1e-12));
}

TEST_CASE("semicolon-separated files are refused, not read with their decimal commas", "[silent][csv]") {
    const std::string why =
        " (a semicolon file, as a spreadsheet with decimal commas writes, would have its numbers "
        "misread); save it with commas and decimal points\n";
    struct Case {
        std::string name, content, message;
    };
    const std::vector<Case> cases{
        {"semicolons.csv", "name;time_ms\ngemm;1,5\nattn;30\n",
         ":1: the header 'name;time_ms' is divided by semicolons: amdahl reads commas"},
        {"semicolons.tsv", "name;time_ms\ngemm;1,5\nattn;30\n",
         ":1: the header 'name;time_ms' is divided by semicolons: amdahl reads tabs"},
        {"semicolons.txt", "name;time (ms)\ngemm;1,5\nattn;30\n",
         ":1: the header 'name;time (ms)' is divided by semicolons: amdahl reads columns apart by spaces"},
        // Once read as phases 'gemm;' and 'attn;': the names kept the semicolons.
        {"semicolons_spaced.txt", "name; time_ms\ngemm; 34\nattn; 21\n",
         ":1: the header 'name; time_ms' is divided by semicolons: amdahl reads columns apart by spaces"},
        {"quoted_semicolons.csv", "\"name\";\"time_ms\"\n\"gemm\";34\n",
         ":1: the header '\"name\";\"time_ms\"' is divided by semicolons: amdahl reads commas"},
        // A comma header over semicolon rows: once phase 'gemm;34' of 5 ms.
        {"comma_header.csv", "name,time_ms\ngemm;34,5\nattn;21,0\n",
         ":2: line 'gemm;34,5' is divided by semicolons: amdahl reads commas"},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        const std::string path = test::write_temp(c.name, c.content);
        const auto r = test::run_cli({"eval", path});
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "error: " + path + c.message + why);
    }
    // Semicolons inside a comma file's names are names.
    const std::string names = test::write_temp("semicolon_names.csv", "name,time_ms\nload;parse,10\n\"a;b\",30\n");
    const auto r = test::run_cli({"eval", names, "-s", "load;parse=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(r.out)["speedup"].get<double>(), Catch::Matchers::WithinRel(40.0 / 35.0, 1e-12));
    // So are semicolons in a later column: pytest-benchmark's CSV writes its outliers as "1;2".
    const std::string pytest = test::write_temp("pytest_outliers.csv",
                                                "name,min,max,mean,stddev,median,iqr,outliers,ops,rounds,iterations\n"
                                                "test_a,0.001,0.003,0.002,0.0001,0.002,0.0001,1;2,500,100,1\n"
                                                "test_b,0.004,0.006,0.005,0.0001,0.005,0.0001,0;1,200,100,1\n");
    const auto p = test::run_cli({"eval", pytest, "-s", "test_a=2"});
    CHECK(p.exit_code != 2);
    CHECK_THAT(p.err, !Contains("semicolons"));
}

// A console table's columns are where two or more spaces part the header and every row: a name that
// ends in a number stays whole under a label of several words. Once "conv 1" was phase "conv" of
// 1 ms, and "relu 2" of 2 ms, with a made-up note about a column 'Self'.
TEST_CASE("pasted tables: names ending in a number under labels of several words", "[silent][text]") {
    const std::string path = test::write_temp(
        "several_words.txt", "Op           Self time (ms)\nconv 1           40.0\nrelu 2           60.0\n");
    const auto r = test::run_cli({"eval", path, "-s", "relu 2=10", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["phases"][0]["name"] == "conv 1");
    CHECK(report["phases"][0]["time"] == 40.0);
    CHECK_THAT(report["speedup"].get<double>(), Catch::Matchers::WithinRel(1 / (0.4 + 0.06), 1e-12));
    // A name with wide gaps of its own keeps them; the values are the last columns.
    const std::string gaps = test::write_temp("name_gaps.txt",
                                              "Name        Self CPU    # of Calls\nmy  op  with  gaps   250.000us   2\n"
                                              "block 1     750.000us   4\n");
    const auto g = test::run_cli({"eval", gaps, "--format", "json"});
    REQUIRE(g.exit_code == 0);
    const auto phases = nlohmann::json::parse(g.out)["phases"];
    CHECK(phases[0]["name"] == "my  op  with  gaps");
    CHECK(phases[0]["calls"] == 2);
    CHECK(phases[1]["name"] == "block 1");
    CHECK(phases[1]["time"] == 750.0);
}

TEST_CASE("pasted tables: PyTorch's inclusive CPU total alone is read with a note", "[silent][text]") {
    const std::string path =
        test::write_temp("inclusive.txt",
                         "Name               CPU total    # of Calls\nmodel_inference     10.000ms   "
                         "          1\naten::linear         6.000ms             2\n");
    const auto r = test::run_cli({"eval", path});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("column 'CPU total' holds inclusive times (an op's time includes the ops it calls), "
                               "so nested ops count twice in the sum; a self-time column ('Self CPU') would give "
                               "exclusive times"));
}

TEST_CASE("a selector that misses a name only by a no-break space says which character it is", "[silent][selector]") {
    const std::string path = test::write_temp("nbsp.csv",
                                              "name,time_ms\ngemm\xC2\xA0"
                                              "a,20\nattn,30\n");
    const auto r = test::run_cli({"eval", path, "-s", "gemm a=2"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("holds U+00A0, which a terminal shows as a space but is not one"));
    // Typed with the no-break space, it matches.
    CHECK(test::run_cli({"eval", path, "-s",
                         "gemm\xC2\xA0"
                         "a=2"})
              .exit_code == 0);
    // The other way round: the selector holds it, the name a plain space.
    const std::string plain = test::write_temp("plain_space.csv", "name,time_ms\ngemm a,20\nattn,30\n");
    const auto other = test::run_cli({"eval", plain, "-s",
                                      "gemm\xC2\xA0"
                                      "a=2"});
    CHECK(other.exit_code == 2);
    CHECK_THAT(other.err, Contains("(the selector holds U+00A0, which a terminal shows as a space but is not one: "
                                   "retype it with plain spaces)"));
    // In a mix, the workload the selector misses says why in its note (it stays at 1x there).
    const std::string a = test::write_temp("nbsp_a.csv", "name,time_ms\nhost overhead,50\ngemm,50\n");
    const std::string b = test::write_temp("nbsp_b.csv",
                                           "name,time_ms\nhost\xC2\xA0"
                                           "overhead,50\ngemm,50\n");
    const auto mix = test::run_cli({"eval", "--mix", a + "=0.5", "--mix", b + "=0.5", "-s", "host overhead=2"});
    REQUIRE(mix.exit_code == 0);
    CHECK_THAT(mix.err, Contains("that workload stays at 1x there (" + b + ": did you mean"));
    CHECK_THAT(mix.err, Contains("holds U+00A0"));
}

TEST_CASE("a spread or active time too large for the profile's unit is refused, not written as null",
          "[silent][fuzz-finding]") {
    // Found by fuzz_csv: a time_sd in ms beside a time in ns, 2.3e304 ms, is past the largest double
    // in ns. It became infinite, was written as "time_sd": null, and that file did not read back.
    const std::string csv = test::write_temp("sd_overflow.csv", "name,time (ns),time sd (ms)\na,11,1e304\nb,5,1\n");
    for (const char* command : {"eval", "import"}) {
        const auto r = test::run_cli({command, csv});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("sd_overflow.csv:2: phase 'a': time_sd is too large"));
        CHECK(r.out.empty());
    }
    const std::string json =
        test::write_temp("sd_overflow.json", R"({"unit": "ns", "phases": [{"name": "a", "time": "1 h ± 1e304 h"}]})");
    const auto j = test::run_cli({"import", json});
    CHECK(j.exit_code == 2);
    CHECK_THAT(j.err, Contains("phases[0]: phase 'a': time_sd is too large"));
    const std::string active = test::write_temp(
        "active_overflow.json",
        R"({"unit": "ns", "phases": [{"name": "a", "time": "1 h", "active_time": "1e304 h"}, {"name": "overlapped", "time": 0}]})");
    const auto a = test::run_cli({"import", active});
    CHECK(a.exit_code == 2);
    CHECK_THAT(a.err, Contains("phases[0]: phase 'a': active_time is too large"));
}

TEST_CASE("calls that add up past 9e15 when rows or phases become one are refused, not written unreadable",
          "[silent][fuzz-finding]") {
    // Found by fuzz_rocprof: two rows of one kernel, each with 8.8e15 calls (each within the 9e15 a
    // reader takes), became one phase of 1.76e16 calls, and the JSON import wrote did not read back.
    const std::string stats = test::write_temp(
        "calls_sum_stats.csv",
        "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n"
        "\"k\",8800000000000000,6000,1,60,1,2,0\n"
        "\"k\",8800000000000000,4000,1,40,1,2,0\n");
    const auto r = test::run_cli({"import", stats});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("calls_sum_stats.csv:3: phase 'k': its rows' calls add up to more than 9e15"));
    CHECK(r.out.empty());

    // Rows with time stamps are events: one name's rows become one phase.
    const std::string csv = test::write_temp(
        "calls_sum.csv", "name,start (ms),duration (ms),calls\nk,0,1,8800000000000000\nk,1,2,8800000000000000\n");
    const auto c = test::run_cli({"import", csv});
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.err, Contains("calls_sum.csv:3: phase 'k': its rows' calls add up to more than 9e15"));

    const std::string json = test::write_temp(
        "calls_sum.json",
        R"({"unit": "ms", "phases": [{"name": "a", "time": 1, "calls": 8800000000000000}, {"name": "b", "time": 2, "calls": 8800000000000000}]})");
    const auto j = test::run_cli({"import", json, "--rename", "b=a"});
    CHECK(j.exit_code == 2);
    CHECK_THAT(j.err, Contains("--rename: " + json + ": phase 'a': its parts' calls add up to more than 9e15"));
    // Within the limit, the calls add up as before.
    const std::string small = test::write_temp(
        "calls_sum_small.json",
        R"({"unit": "ms", "phases": [{"name": "a", "time": 1, "calls": 3}, {"name": "b", "time": 2, "calls": 4}]})");
    const auto fine = test::run_cli({"import", small, "--rename", "b=a"});
    CHECK(fine.exit_code == 0);
    CHECK_THAT(fine.out, Contains("\"calls\": 7"));
}

TEST_CASE("a total past the slowest run is refused: from --total or from the file", "[silent][fuzz-finding]") {
    // Found by the fuzz smoke: --total 1s on a profile whose runs are ~100 ms added a 910 ms
    // 'unattributed' phase, and import wrote a profile that its own reader refused (the phases
    // then added up to more than the slowest run).
    const std::string runs = test::write_temp(
        "total_past_runs.json",
        R"({"unit": "ms", "runs": [99.9, 100.6], "phases": [{"name": "a", "time": 60}, {"name": "b", "time": 30}]})");
    for (const char* command : {"import", "eval"}) {
        const auto r = test::run_cli({command, runs, "--total", "1s"});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("--total: the total 1,000.0 ms is more than the slowest run 100.6 ms (runs are "
                                   "end-to-end times of the whole program)"));
        CHECK(r.out.empty());
    }
    const std::string field = test::write_temp(
        "total_field_past_runs.json",
        R"({"unit": "ms", "total": 1000, "runs": [99.9, 100.6], "phases": [{"name": "a", "time": 60}]})");
    const auto f = test::run_cli({"import", field});
    CHECK(f.exit_code == 2);
    CHECK_THAT(f.err, Contains("total_field_past_runs.json: total: the total 1,000.0 ms is more than the slowest run"));
    // A total within the runs stays fine.
    const auto fine = test::run_cli({"import", runs, "--total", "100ms"});
    CHECK(fine.exit_code == 0);
    CHECK_THAT(fine.out, Contains("\"total\": 100"));
}

TEST_CASE("silent wrong: a profiler summary's row named like a total that is the sum of the others is refused",
          "[silent][totals]") {
    // An nsys or rocprof summary has no total row; one added by hand (a spreadsheet's "Total") was
    // read as a kernel, doubling the baseline (9,000 ns for 4,500 ns of kernels), with exit 0.
    const std::string header =
        "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n";
    const std::string nsys =
        test::write_temp("nsys_total_row.csv", header +
                                                   "40.0,3000,1,3000.0,3000.0,3000,3000,0.0,gemm\n"
                                                   "20.0,1500,1,1500.0,1500.0,1500,1500,0.0,softmax\n"
                                                   "40.0,4500,1,4500.0,4500.0,4500,4500,0.0,Total\n");
    const auto r = test::run_cli({"eval", nsys});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + nsys +
                       ":4: phase 'Total' is named like a total and its time is the sum of the other rows: a summary "
                       "has no total row; remove it (give --total for the measured end-to-end time), or rename it if "
                       "it is a kernel\n");
    // --total is the measured end-to-end time, not a row: it does not make the row a kernel.
    const auto t = test::run_cli({"eval", nsys, "--total", "10us"});
    CHECK(t.exit_code == 2);
    CHECK_THAT(t.err, Contains(":4: phase 'Total' is named like a total"));
    const std::string rocprof = test::write_temp("rocprof_total_row.stats.csv",
                                                 "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\"\n"
                                                 "\"k1\",1,300,300,25\n\"k2\",1,300,300,25\n\"Sum\",2,600,300,50\n");
    const auto s = test::run_cli({"eval", rocprof});
    CHECK(s.exit_code == 2);
    CHECK_THAT(s.err, Contains(rocprof + ":4: phase 'Sum' is named like a total and its time is the sum of the other "
                                         "rows: a summary has no total row"));
    // A kernel named like a total that is not the others' sum is a kernel.
    const std::string kernel =
        test::write_temp("nsys_total_kernel.csv", header +
                                                      "40.0,3000,1,3000.0,3000.0,3000,3000,0.0,gemm\n"
                                                      "20.0,1500,1,1500.0,1500.0,1500,1500,0.0,softmax\n"
                                                      "40.0,4400,1,4400.0,4400.0,4400,4400,0.0,reduce_sum\n");
    const auto k = test::run_cli({"eval", kernel, "--format", "json"});
    REQUIRE(k.exit_code == 0);
    CHECK(nlohmann::json::parse(k.out)["baseline_time"].get<double>() == Approx(8900));
}

TEST_CASE("silent wrong: a min column is a minimum, not a time in minutes", "[silent][units]") {
    // "time_ms_min" was read as the time column in minutes (a 1.2x answer, "time (min)" in the
    // header) while the times are mean x calls in ms: a is 50 of 90 ms, so a=2 gives 90 / 65.
    for (const std::string& header :
         {std::string("name,calls,time_ms_mean,time_ms_min,time_ms_max"), std::string("name,calls,mean,min,max"),
          std::string("name,calls,TimeMsMean,TimeMsMin,TimeMsMax")}) {
        INFO(header);
        const std::string path = test::write_temp("stats_min.csv", header + "\na,10,5,1,9\nb,10,4,2,8\n");
        const auto r = test::run_cli({"eval", path, "-s", "a=2", "--format", "json"});
        REQUIRE(r.exit_code == 0);
        const auto report = nlohmann::json::parse(r.out);
        CHECK(report["unit"] == "ms");
        CHECK(report["baseline_time"].get<double>() == Approx(90));
        CHECK(report["speedup"].get<double>() == Approx(90.0 / 65));
    }
    // Alone, "time_min" may be either: it reads as a minimum, which is no time to add up.
    const auto alone = test::run_cli({"eval", test::write_temp("time_min.csv", "name,time_min\na,1\nb,2\n")});
    CHECK(alone.exit_code == 2);
    CHECK_THAT(alone.err, Contains("column 'time_min' is per-call statistics (min, max, spread), not durations"));
    // Minutes said plainly still are minutes.
    for (const std::string& header :
         {std::string("time (min)"), std::string("time [min]"), std::string("time_mins"), std::string("minutes")}) {
        INFO(header);
        const auto r = test::run_cli(
            {"eval", test::write_temp("minutes.csv", "name," + header + "\na,1\nb,2\n"), "--format", "json"});
        REQUIRE(r.exit_code == 0);
        CHECK(nlohmann::json::parse(r.out)["unit"] == "min");
    }
}

TEST_CASE("silent wrong: 0,500 is no thousands grouping and is refused, not read as 500", "[silent][units]") {
    const std::pair<std::string, std::string> inputs[] = {
        {"zero_comma.md", "| Phase | Time (ms) |\n|---|---:|\n| a | 0,500 |\n| b | 2 |\n"},
        {"zero_comma.json", R"({"phases": {"a": "0,500 ms", "b": "2 ms"}})"},
        {"zero_comma.csv", "name,time_ms\na,\"0,500\"\nb,2\n"},
    };
    for (const auto& [name, text] : inputs) {
        INFO(name);
        const auto r = test::run_cli({"eval", test::write_temp(name, text)});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err,
                   Contains(name) && Contains("'0,500") &&
                       Contains("commas must group digits in threes, as in 1,234.5 (a decimal comma is not read)"));
    }
    // Grouping that is one still reads.
    const auto r = test::run_cli(
        {"eval", test::write_temp("grouped.csv", "name,time_ms\na,\"1,500\"\nb,2\n"), "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["baseline_time"].get<double>() == Approx(1502));
}

TEST_CASE("silent wrong: a complete trace event without a duration is refused, not read as zero", "[silent][trace]") {
    // "a" has no "dur": it was dropped as a zero-length event under a note that both events had a
    // duration, and the boundary began at b.
    for (const std::string& dur : {std::string(""), std::string(R"("dur": "", )")}) {
        INFO(dur);
        const std::string trace = R"({"traceEvents": [
{"name": "a", "ph": "X", "ts": 1000, )" +
                                  dur + R"("pid": 1, "tid": 1},
{"name": "b", "ph": "X", "ts": 1100, "dur": 50, "pid": 1, "tid": 1}
]})";
        const auto r = test::run_cli({"eval", test::write_temp("no_dur.json", trace)});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err,
                   Contains("no_dur.json:2:") && Contains("event 'a': an \"X\" (complete) event has no \"dur\""));
    }
    // "dur": 0 says the event takes no time.
    const auto zero = test::run_cli({"eval", test::write_temp("zero_dur.json", R"({"traceEvents": [
{"name": "a", "ph": "X", "ts": 1000, "dur": 0, "pid": 1, "tid": 1},
{"name": "b", "ph": "X", "ts": 1100, "dur": 50, "pid": 1, "tid": 1}]})")});
    CHECK(zero.exit_code == 0);
}

TEST_CASE("silent wrong: the overlap range's high end saves no more than the fastest factor allows",
          "[silent][trace]") {
    // A and B run at the same time on two streams, then C: 200 us. With A and B 2x faster the
    // shared 100 us becomes 50 at best, so the most saved is 50 us (1.3333x); adding each one's
    // active time counted the shared time twice (2x). With every phase 2x faster the step is 2x
    // faster at best, not 4x.
    const std::string trace = test::write_temp("shared_overlap.json", R"({"traceEvents": [
{"ph": "X", "cat": "kernel", "name": "A", "pid": 0, "tid": 1, "ts": 0, "dur": 100, "args": {"device": 0, "stream": 1}},
{"ph": "X", "cat": "kernel", "name": "B", "pid": 0, "tid": 2, "ts": 0, "dur": 100, "args": {"device": 0, "stream": 2}},
{"ph": "X", "cat": "kernel", "name": "C", "pid": 0, "tid": 1, "ts": 100, "dur": 100, "args": {"device": 0, "stream": 1}}
]})");
    // When A and B are both sped up, the shared time ran only sped-up phases and shrinks at the
    // smaller factor: that is the speedup itself, and with equal factors there is no range.
    const std::pair<std::vector<std::string>, double> cases[] = {
        {{"-s", "A=2", "-s", "B=2"}, 200.0 / 150},
        {{"-s", "*=2"}, 2.0},
        {{"-s", "A=4", "-s", "B=2"}, 200.0 / 125},  // the fastest factor bounds the shared time
    };
    for (const auto& [speedups, high] : cases) {
        std::vector<std::string> args{"eval", trace, "--format", "json"};
        args.insert(args.end(), speedups.begin(), speedups.end());
        INFO(speedups[1]);
        const auto r = test::run_cli(args);
        REQUIRE(r.exit_code == 0);
        const auto report = nlohmann::json::parse(r.out);
        const double most = report["speedup_range"].is_object() ? report["speedup_range"]["high"].get<double>()
                                                                : report["speedup"].get<double>();
        CHECK(most == Approx(high));
    }
    const auto unequal =
        nlohmann::json::parse(test::run_cli({"eval", trace, "--format", "json", "-s", "A=4", "-s", "B=2"}).out);
    CHECK(unequal["speedup"].get<double>() == Approx(200.0 / 150));  // the shared 100 us at 2x
    CHECK(unequal["speedup_range"]["low"].get<double>() == Approx(200.0 / 150));
    // A slowdown's range is as before: its active-time estimate is the low end.
    const auto slow = test::run_cli({"eval", trace, "--format", "json", "-s", "A=0.5"});
    REQUIRE(slow.exit_code == 0);
    CHECK(nlohmann::json::parse(slow.out)["speedup_range"]["low"].get<double>() == Approx(200.0 / 300));
}

TEST_CASE("silent wrong: a share column that says no scale is read with a note that says which", "[silent][share]") {
    // No % in the header or after the numbers: the numbers decide, and a note says how. Before,
    // adding the row c,1.5 turned a from 50 ms (a fraction, 0.5) into 0.5 ms (a percentage) silently.
    const std::string fractions = test::write_temp("bare_share_fractions.csv", "name,share\na,0.5\nb,0.3\n");
    auto r = test::run_cli({"eval", fractions, "--total", "100ms", "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains(fractions + ":1: column 'share' says neither % nor fraction: its numbers are read as "
                                           "fractions of the total, as none is above 1"));
    const std::string percents = test::write_temp("bare_share_percents.csv", "name,share\na,0.5\nb,0.3\nc,1.5\n");
    r = test::run_cli({"eval", percents, "--total", "100ms", "-s", "a=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["phases"][0]["time"].get<double>() == Approx(0.5));
    CHECK_THAT(json["notes"].dump(), Contains("its numbers are read as percentages, as 1.5 (line 4) is above 1"));
    // A header that says the scale needs no note.
    const std::string said = test::write_temp("said_share.csv", "name,share (%)\na,0.5\nb,0.3\n");
    r = test::run_cli({"eval", said, "--total", "100ms", "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, !Contains("says neither"));
    // Nor numbers written with %.
    const std::string signs = test::write_temp("signed_share.csv", "name,share\na,50%\nb,30%\n");
    r = test::run_cli({"eval", signs, "--total", "100ms", "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, !Contains("says neither"));
}

TEST_CASE("silent wrong: a file on both sides of compare is refused", "[silent][compare]") {
    // 'before_*' also matches before_after_*: each side held the same files, and compare said "no
    // clear change" where AFTER is 1.14x faster.
    test::TempDir dir;
    for (int i = 0; i < 2; ++i) {
        std::ofstream(dir / ("before_" + std::to_string(i) + ".json")) << R"({"unit": "ms", "phases": {"a": 100}})";
        std::ofstream(dir / ("before_after_" + std::to_string(i) + ".json"))
            << R"({"unit": "ms", "phases": {"a": 88}})";
    }
    auto r = test::run_cli({"compare", dir / "before_*.json", dir / "before_after_*.json"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains((dir / "before_after_0.json") + ": is both a BEFORE and an AFTER profile"));
    CHECK_THAT(r.err, Contains("the patterns overlap"));
    // Benchmark harnesses' output too.
    const std::string hyperfine = test::source_path("tests/data/harness/hyperfine_after.json");
    test::TempDir runs;
    for (const char* name : {"hf_1.json", "hf_2.json"}) std::filesystem::copy_file(hyperfine, runs / name);
    r = test::run_cli({"compare", runs / "hf_*.json", runs / "hf_2.json"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains((runs / "hf_2.json") + ": is both a BEFORE and an AFTER profile"));
    // One file as both sides is no change by construction, and a note says so, in every format; two
    // spellings of one file are that file.
    r = test::run_cli({"compare", dir / "before_0.json", dir.string() + "/./before_0.json", "--format", "json"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(r.out)["notes"].dump(),
               Contains("before_0.json is both BEFORE and AFTER: compared with itself, it shows no change"));
    r = test::run_cli({"compare", hyperfine, hyperfine, "--format", "json"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(r.out)["notes"].dump(), Contains("is both BEFORE and AFTER"));
    // Patterns that do not overlap still compare.
    r = test::run_cli({"compare", dir / "before_[0-9].json", dir / "before_after_*.json", "--format", "json"});
    CHECK(r.exit_code == 0);
}

namespace {

// hyperfine's JSON for one command with these run times (s) and exit codes (null: killed by a signal).
std::string hyperfine_json(const std::string& command, const std::string& times, const std::string& exit_codes) {
    return R"({"results": [{"command": ")" + command + R"(", "mean": 0.1, "times": [)" + times +
           R"(], "exit_codes": [)" + exit_codes + "]}]}";
}

}  // namespace

TEST_CASE("silent wrong: hyperfine runs that exited non-zero are no timings", "[silent][compare][harness]") {
    const std::string before = test::write_temp("hf_ok.json", hyperfine_json("app", "0.100, 0.101, 0.099", "0, 0, 0"));
    // Every AFTER run failed (fast): before, compare called it 20x faster.
    const std::string failed =
        test::write_temp("hf_failed.json", hyperfine_json("app", "0.005, 0.005, 0.005", "1, 1, 1"));
    auto r = test::run_cli({"compare", before, failed});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(failed + ": results[0]: every run of 'app' exited non-zero (exit code 1)"));
    // Some runs failed: they are left out, with a note that says so.
    const std::string some =
        test::write_temp("hf_some.json", hyperfine_json("app", "0.090, 0.005, 0.004, 0.089", "0, 1, null, 0"));
    r = test::run_cli({"compare", before, some, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains(some + ": results[0]: 2 of 4 runs of 'app' exited non-zero (exit code 1, killed by a "
                                      "signal); they are left out"));
    const auto json = nlohmann::json::parse(r.out);
    // The median of the two runs that exited 0 (90 and 89 ms), not of all four (47 ms).
    CHECK(json["benchmarks"][0]["after"].get<double>() == Approx(89.5));
    // exit_codes that do not match the times are malformed.
    const std::string short_codes = test::write_temp("hf_short.json", hyperfine_json("app", "0.1, 0.1", "0"));
    r = test::run_cli({"compare", before, short_codes});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(short_codes + ": results[0].exit_codes: has 1 exit code for 2 times"));
}

TEST_CASE("silent wrong: fit checks a speedup column against the times it sits beside", "[silent][fit]") {
    // The speedups say P = 0.95, the times P = 0.80: fit read the times and dropped the speedups.
    const std::string disagree =
        test::write_temp("fit_disagree.csv", "n,time_ms,speedup\n1,1000,1\n2,600,1.9\n4,400,3.48\n8,300,6.4\n");
    auto r = test::run_cli({"fit", disagree});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(disagree + ":3: speedup 1.9 disagrees with the times: 1000 ms at N = 1 / 600 ms at "
                                          "N = 2 = 1.6667x"));
    // Speedups that agree (within rounding) are a note, and the fit reads the times.
    const std::string agree =
        test::write_temp("fit_agree.csv", "n,time_ms,speedup\n1,1000,1\n2,600,1.67\n4,400,2.5\n8,300,3.33\n");
    r = test::run_cli({"fit", agree});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("column 'speedup' agrees with the times"));
    // JSON runs with both: the same check (JSON keys come sorted, so "speedup" was read and "time" dropped).
    const std::string json =
        test::write_temp("fit_disagree.json",
                         R"({"runs": [{"n": 1, "time": 1000, "speedup": 1}, {"n": 2, "time": 600, "speedup": 1.9}]})");
    r = test::run_cli({"fit", json});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("runs[1]: speedup 1.9 disagrees with the times"));
}

TEST_CASE("silent wrong: a --rename-regex name with a backreference is refused, not taken literally",
          "[silent][rename]") {
    // Before: every gemm_ phase became one phase named 'g_\1', their times added, exit 0.
    const std::string path = test::write_temp("rename_groups.csv", "name,time_ms\ngemm_fp16,10\ngemm_fp32,20\nio,5\n");
    for (const std::string name : {R"(g_\1)", "g_$1", "g_${1}", R"(\0)", R"(g_\g<1>)"}) {
        CAPTURE(name);
        const auto r = test::run_cli({"eval", path, "--rename-regex", "gemm_(.*)=" + name, "-s", "io=2"});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("--rename-regex: 'gemm_(.*)=" + name + "': the name holds a backreference"));
        CHECK_THAT(r.err, Contains("--group-by 'regex:PATTERN'"));
    }
    // A name with a backslash or a dollar that is no backreference is a name.
    const auto r = test::run_cli({"eval", path, "--rename-regex", "gemm_=gemm$x", "-s", "gemm$x=2"});
    CHECK(r.exit_code == 0);
}

TEST_CASE("silent wrong: --explain shows times to the digits that make its subtraction add up", "[silent][explain]") {
    // Was "saved = T_old - T_new = 100.0001 - 100.0001 = 0.00005 ms": the terms rounded to one value.
    const std::string path =
        test::write_temp("tiny_phase.json", R"({"unit": "ms", "phases": {"a": 0.0001, "b": 100}})");
    const auto r = test::run_cli({"eval", path, "-s", "a=2", "--explain"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("saved = T_old - T_new = 100.0001 - 100.00005 = 0.00005 ms"));
    CHECK_THAT(r.out, Contains("      = 0.00005 + 100.0 = 100.00005 ms"));
    // Ordinary times keep the precision's digits.
    const auto plain = test::run_cli(
        {"eval", test::source_path("examples/transformer_step.json"), "-s", "attention_softmax=2", "--explain"});
    REQUIRE(plain.exit_code == 0);
    CHECK_THAT(plain.out, Contains("saved = T_old - T_new = "));
    CHECK_THAT(plain.out, !Contains("00000"));
}

// Two kernels that ran at the same time on two streams: when both are sped up, the time they
// shared ran only sped-up work, so it shrinks too (by the smaller factor). It was kept whole:
// eight parallel events all 2x faster gave 1.0000x.
namespace {
const char* two_streams_trace = R"({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1000.5, "dur": 10},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 8, "ts": 1006.5, "dur": 6},
  {"ph": "X", "cat": "kernel", "name": "softmax", "pid": 0, "tid": 7, "ts": 1015.5, "dur": 2.25}
]})";
}  // namespace

TEST_CASE("silent wrong: time when only sped-up phases ran at once shrinks with them", "[silent][overlap]") {
    test::TempDir dir;
    const std::string trace = dir / "streams.json";
    std::ofstream(trace) << two_streams_trace;
    // gemm alone 6, copy alone 2, both 4 (overlapped), idle 3, softmax 2.25: 17.25 us.
    const auto r = test::run_binary("eval " + trace + " -s gemm=2 -s 'Memcpy HtoD=4' --format json");
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    // 3 + 0.5 + 4/2 + 3 + 2.25 = 10.75 (the shared 4 us at the smaller factor, 2x).
    CHECK(j["new_time"].get<double>() == Approx(10.75));
    CHECK(j["speedup"].get<double>() == Approx(17.25 / 10.75));
    CHECK(j["affected_fraction"].get<double>() == Approx(12.0 / 17.25));
    CHECK(j["ceiling"].get<double>() == Approx(17.25 / 5.25));
    bool said = false;
    for (const auto& note : j["notes"])
        said = said || note.get<std::string>().find("only sped-up phases") != std::string::npos;
    CHECK(said);

    const auto text = test::run_binary("eval " + trace + " -s gemm=2 -s 'Memcpy HtoD=4'");
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(line_starting_with(text.out, "overlapped"), Contains("2x") && Contains("2.0"));
    CHECK_THAT(text.err, Contains("only sped-up phases"));

    // Eight events in parallel, every one 2x faster: the whole run is 2x faster.
    std::string eight = R"({"traceEvents": [)";
    for (int i = 0; i < 8; ++i)
        eight += (i ? "," : "") + std::string(R"({"ph": "X", "cat": "kernel", "name": "k)") + std::to_string(i) +
                 R"(", "pid": 0, "tid": )" + std::to_string(10 + i) + R"(, "ts": 0, "dur": 1})";
    eight += "]}";
    const std::string parallel = dir / "parallel.json";
    std::ofstream(parallel) << eight;
    const auto all = test::run_binary("eval " + parallel + " -s '*=2' --format json");
    REQUIRE(all.exit_code == 0);
    CHECK(nlohmann::json::parse(all.out)["speedup"].get<double>() == Approx(2));

    // One sped up, the other not: the shared time is not counted as sped up (as before).
    const auto one = test::run_binary("eval " + trace + " -s gemm=2 --format json");
    REQUIRE(one.exit_code == 0);
    CHECK(nlohmann::json::parse(one.out)["new_time"].get<double>() == Approx(14.25));

    // rank and plan: a proposal that covers both gets the shared time too.
    const auto rank = test::run_binary("rank " + trace + " -s '*e*=2' --format json");
    INFO(rank.err);
    REQUIRE(rank.exit_code == 0);
    const auto target = nlohmann::json::parse(rank.out)["targets"][0];
    // gemm 6 + copy 2 + shared 4 = 12 at 2x: 17.25 / 11.25.
    CHECK(target["time"].get<double>() == Approx(12));
    CHECK(target["speedup"].get<double>() == Approx(17.25 / 11.25));
    CHECK(target["ceiling"].get<double>() == Approx(17.25 / 5.25));
    const auto plan = test::run_binary("plan " + trace + " -s '*e*=2' --target 1.5");
    INFO(plan.err);
    CHECK(plan.exit_code == 0);
    CHECK_THAT(plan.out, Contains("1.5333x"));
}

TEST_CASE("silent wrong: with --total, a summary's shares are of the total, and the words say so", "[silent][nsys]") {
    // 7500 + 2500 ns of kernels in a 20 us run: the sped-up kernel is 37.5% of the total (75% of
    // the summed rows). The verdict said "37.5% of the summed rows", rank "over the summed rows".
    const std::string path = test::source_path("tests/data/profilers/handmade/nsys_gpukernsum_2021.csv");
    const auto eval = test::run_binary("eval " + path + " --total 20us -s 'kind:kernel=2'");
    REQUIRE(eval.exit_code == 0);
    const std::string verdict = line_starting_with(eval.out, "verdict:");
    CHECK_THAT(verdict, Contains("50.0% of the declared total"));
    CHECK_THAT(verdict, !Contains("summed rows"));
    const auto rank = test::run_binary("rank " + path + " --total 20us");
    REQUIRE(rank.exit_code == 0);
    CHECK_THAT(rank.out, Contains("end to end") && !Contains("over the summed rows"));
    // Without --total the shares are of the summed rows, and the words say that.
    const auto rows = test::run_binary("eval " + path + " -s 'kind:kernel=2'");
    CHECK_THAT(line_starting_with(rows.out, "verdict:"), Contains("of the summed rows"));
}

TEST_CASE("silent wrong: rank says when its targets ran mostly beside other work", "[silent][overlap][rank]") {
    // rocprofv3's kernel trace: subtract_kernel ran 242,384 ns of 301,795 (80.3%), never alone.
    // rank counts the time a target ran alone, so it ranked last at "ceiling 1.0000x" with no
    // word that the figure leaves out four fifths of the run.
    const std::string trace = test::source_path("tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/kernel_trace.csv");
    const auto text = test::run_binary("rank " + trace);
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(text.err, Contains("3 targets ran mostly beside other work, and rank counts only the time a target "
                                  "ran alone (the time that surely shrinks)"));
    CHECK_THAT(text.err, Contains("'subtract_kernel(float*, float const*, float const*, int, int)' ran 242,384.0 ns "
                                  "(80.3% of the time), 0.0 ns alone"));
    CHECK_THAT(text.err, Contains("eval -s TARGET=K shows a target's range, --model replay one figure"));
    // The note is in every format: JSON's notes carry it.
    const auto json = test::run_binary("rank " + trace + " --format json");
    REQUIRE(json.exit_code == 0);
    const auto notes = nlohmann::json::parse(json.out)["notes"];
    bool said = false;
    for (const auto& note : notes)
        said = said || note.get<std::string>().find("ran mostly beside other work") != std::string::npos;
    CHECK(said);
    // --model replay weighs the overlap itself: no such note.
    const auto replay = test::run_binary("rank " + trace + " --model replay");
    INFO(replay.err);
    REQUIRE(replay.exit_code == 0);
    CHECK_THAT(replay.err, !Contains("ran mostly beside other work"));
    // A profile without overlap: no such note.
    const auto plain = test::run_binary("rank " + test::source_path("examples/transformer_step.json"));
    REQUIRE(plain.exit_code == 0);
    CHECK_THAT(plain.err, !Contains("beside other work"));
    // An active time with no overlapped phase: eval shows no range, so the note points to none.
    test::TempDir dir;
    const std::string lone = dir / "lone.json";
    std::ofstream(lone) << R"({"unit": "ms", "phases": [{"name": "a", "time": 10, "active_time": 200},
                                                        {"name": "b", "time": 290}]})";
    const auto no_overlap = test::run_binary("rank " + lone);
    INFO(no_overlap.err);
    REQUIRE(no_overlap.exit_code == 0);
    CHECK_THAT(no_overlap.err, !Contains("beside other work"));
}

TEST_CASE("silent wrong: rank's note holds an active time to what the 'overlapped' phase can hold",
          "[silent][overlap][rank]") {
    // A hand-written active_time of 1,000,000 ms in a 390 ms run was said as "ran 1,000,000.0 ms
    // (256410.3% of the time)". eval's range holds the extra to the 'overlapped' phase (100 ms), and
    // so does the note: 'a' ran up to 110 ms, 28.2% of the run.
    test::TempDir dir;
    const std::string huge = dir / "huge.json";
    std::ofstream(huge) << R"({"unit": "ms", "phases": [{"name": "a", "time": 10, "active_time": 1000000},
        {"name": "b", "time": 280}, {"name": "overlapped", "kind": "overlapped", "time": 100}]})";
    const auto r = test::run_binary("rank " + huge);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("1 target ran mostly beside other work"));
    CHECK_THAT(r.err, Contains("'a' ran up to 110.0 ms (28.2% of the time), 10.0 ms alone."));
    CHECK_THAT(r.err, !Contains("1,000,000.0 ms (") && !Contains("256410"));
    // eval's range agrees: at most 10 + 100 ms saved at an infinite factor.
    const auto eval = test::run_binary("eval " + huge + " -s a=inf");
    REQUIRE(eval.exit_code == 0);
    CHECK_THAT(eval.out, Contains("(saving 10.0 to 110.0 ms)"));
    // An extra the 'overlapped' phase holds only a little of is no longer "mostly beside".
    const std::string small = dir / "small.json";
    std::ofstream(small) << R"({"unit": "ms", "phases": [{"name": "a", "time": 10, "active_time": 1000000},
        {"name": "b", "time": 280}, {"name": "overlapped", "kind": "overlapped", "time": 10}]})";
    const auto held = test::run_binary("rank " + small);
    REQUIRE(held.exit_code == 0);
    CHECK_THAT(held.err, !Contains("beside other work"));
}

TEST_CASE("silent wrong: rank's note holds a target to its phases' own times, not their covered overlap twice",
          "[silent][overlap][rank]") {
    // k1 and k2 ran 10 ms only with each other (a covered overlap), which is in the target's time
    // (30 ms) and in 'overlapped' (60 ms) both: held to 30 + 60 the note said "up to 90.0 ms",
    // though c ran alone for 20 of the 100 ms. eval holds it to 10 + 10 + 60 = 80.
    test::TempDir dir;
    const std::string profile = dir / "covered.json";
    std::ofstream(profile) << R"({"unit": "ms", "phases": [{"name": "k1", "time": 10, "active_time": 200},
        {"name": "k2", "time": 10}, {"name": "c", "time": 20}, {"name": "overlapped", "time": 60}],
        "overlaps": [{"phases": ["k1", "k2"], "time": 10}]})";
    const auto r = test::run_binary("rank " + profile + " -s 'k*=inf'");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("'k*=inf' ran up to 80.0 ms (80.0% of the time), 30.0 ms alone."));
    const auto eval = test::run_binary("eval " + profile + " -s 'k*=inf'");
    REQUIRE(eval.exit_code == 0);
    CHECK_THAT(eval.out, Contains("(saving 30.0 to 80.0 ms)"));
}

TEST_CASE("silent wrong: for a slowdown rank's note says its figure is the least the slowdown costs",
          "[silent][overlap][rank]") {
    // At -k 0.5 nothing shrinks: the time alone is the least a slowdown costs, and the kernel that
    // ran 80% of the run beside others ranked first at 1.0000x under "the time that surely shrinks".
    const std::string trace = test::source_path("tests/data/profilers/rocprofv3/rocprofiler-sdk-2024/kernel_trace.csv");
    const auto slow = test::run_binary("rank " + trace + " -k 0.5");
    INFO(slow.err);
    REQUIRE(slow.exit_code == 0);
    CHECK_THAT(slow.err, Contains("3 targets ran mostly beside other work, and rank counts only the time a target "
                                  "ran alone (for a slowdown the least it costs: the time beside other work may grow "
                                  "too)"));
    CHECK_THAT(slow.err, !Contains("surely shrinks"));
    // eval agrees that the time alone is the best case of a slowdown.
    const auto eval =
        test::run_binary("eval " + trace + " -s 'subtract_kernel(float*, float const*, float const*, int, int)=0.5'");
    REQUIRE(eval.exit_code == 0);
    CHECK_THAT(eval.out, Contains("between 0.5546x and 1.0000x"));
    // A speedup and a slowdown side by side: both readings.
    const auto both = test::run_binary("rank " + trace +
                                       " -s 'subtract_kernel*=0.5' -s '*addition_kernel*=2' -s 'multiply_kernel*=2'");
    INFO(both.err);
    REQUIRE(both.exit_code == 0);
    CHECK_THAT(both.err, Contains("(for a speedup the time that surely shrinks, for a slowdown the least it costs)"));
    // At 1x nothing changes: no target is named as worth more than its place.
    const auto still = test::run_binary("rank " + trace + " -k 1");
    REQUIRE(still.exit_code == 0);
    CHECK_THAT(still.err, !Contains("beside other work"));
}

TEST_CASE("silent wrong: a slowdown's time is not held in rank's note, as eval does not hold it",
          "[silent][overlap][rank]") {
    // eval holds an active time to what 'overlapped' holds only for a speedup's saving; a slowdown's
    // cost runs over the whole active time. rank's note held both, and said 'a' ran up to 40.0 ms
    // where eval's range costs the whole 100 ms at 0.5x.
    test::TempDir dir;
    const std::string profile = dir / "slow.json";
    std::ofstream(profile) << R"({"unit": "ms", "phases": [{"name": "a", "time": 10, "active_time": 100},
        {"name": "b", "time": 60}, {"name": "overlapped", "time": 30}]})";
    const auto r = test::run_binary("rank " + profile + " -k 0.5");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("'a' ran 100.0 ms (100.0% of the time), 10.0 ms alone"));
    const auto eval = test::run_binary("eval " + profile + " -s a=0.5");
    REQUIRE(eval.exit_code == 0);
    CHECK_THAT(eval.out, Contains("(saving -100.0 to -10.0 ms)"));
    // A speedup is held: 10 + 30 ms at most.
    const auto fast = test::run_binary("rank " + profile + " -k 2");
    REQUIRE(fast.exit_code == 0);
    CHECK_THAT(fast.err, Contains("'a' ran up to 40.0 ms (40.0% of the time), 10.0 ms alone"));
}
