// Benchmark harnesses' JSON (hyperfine, google/benchmark, pytest-benchmark) read as runs, and
// compare on it: benchmark by benchmark, --sum, --higher-is-better. Samples: tests/data/harness.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>  // only to read the JSON report back

#include <algorithm>
#include <cmath>

#include "amdahl/error.hpp"
#include "amdahl/harness.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

std::string data(const std::string& name) { return test::source_path("tests/data/harness/" + name); }

HarnessFile read(const std::string& name, bool higher_is_better = false) {
    const std::string path = data(name);
    const std::string content = test::read_file(path);
    const auto harness = detect_harness(content);
    REQUIRE(harness.has_value());
    return read_harness(content, path, *harness, higher_is_better);
}

const BenchmarkRuns& benchmark(const HarnessFile& file, const std::string& name) {
    const auto found = std::find_if(file.benchmarks.begin(), file.benchmarks.end(),
                                    [&](const BenchmarkRuns& b) { return b.name == name; });
    INFO("benchmark " << name);
    REQUIRE(found != file.benchmarks.end());
    return *found;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

TEST_CASE("harness: each format is recognised by its content, and nothing else is", "[harness]") {
    CHECK(detect_harness(test::read_file(data("hyperfine_before.json"))) == Harness::hyperfine);
    CHECK(detect_harness(test::read_file(data("gbench_before.json"))) == Harness::google_benchmark);
    CHECK(detect_harness(test::read_file(data("pytest_before.json"))) == Harness::pytest_benchmark);
    CHECK_FALSE(detect_harness(test::read_file(test::source_path("examples/transformer_step.json"))));
    CHECK_FALSE(detect_harness(test::read_file(test::source_path("examples/pytorch_trace.json"))));
    // A profile that happens to have phases named like a harness's keys is a profile.
    CHECK_FALSE(detect_harness(R"({"phases": {"results": 1, "command": 2}})"));
    CHECK(parse_harness_name("google-benchmark") == Harness::google_benchmark);
    CHECK_FALSE(parse_harness_name("json"));
}

TEST_CASE("harness: hyperfine's times are the runs, in ms", "[harness]") {
    const HarnessFile file = read("hyperfine_before.json");
    REQUIRE(file.benchmarks.size() == 2);
    const BenchmarkRuns& parse = benchmark(file, "./build/release/app parse data/large.json");
    REQUIRE(parse.values.size() == 10);
    CHECK(parse.unit == Unit::ms);
    CHECK(parse.values[0] == Approx(1000 * 0.24295981722211654));
    // Without "times" (hyperfine before 1.11): the mean is one run, and a note says so.
    const HarnessFile old =
        read_harness(R"({"results": [{"command": "sleep 1", "mean": 1.002}]})", "old.json", Harness::hyperfine, false);
    CHECK(old.benchmarks[0].values == std::vector<double>{1.002});  // 1,002 ms is 1.002 s
    CHECK(old.benchmarks[0].unit == Unit::s);
    CHECK_THAT(old.notes.front(), Contains("has no \"times\""));
    // No throughput to compare.
    CHECK_THROWS_WITH(
        read_harness(R"({"results": [{"command": "a", "times": [1]}]})", "h.json", Harness::hyperfine, true),
        Contains("hyperfine's output, which has times only"));
}

TEST_CASE("harness: google/benchmark's repetitions are the runs, the aggregates left out", "[harness]") {
    const HarnessFile file = read("gbench_before.json");
    REQUIRE(file.benchmarks.size() == 2);
    const BenchmarkRuns& attention = benchmark(file, "BM_Attention/1024");
    REQUIRE(attention.values.size() == 5);  // not the mean, median, stddev and cv entries
    CHECK(attention.unit == Unit::ms);      // 2,850 us reads as 2.85 ms
    CHECK(attention.values[0] == Approx(2.8501222279167623));
    const BenchmarkRuns& gemm = benchmark(file, "BM_Gemm/512");
    CHECK(gemm.unit == Unit::ms);  // written in ns
    CHECK_THAT(file.notes.front(), Contains("real_time per iteration"));
    // Throughputs with --higher-is-better; a benchmark without one is an error that names it.
    const HarnessFile memcpy = read("gbench_throughput.json", true);
    CHECK(memcpy.metric == "bytes_per_second");
    CHECK(benchmark(memcpy, "BM_Memcpy/4096").values[0] > 1e10);
    CHECK_THROWS_WITH(read("gbench_before.json", true),
                      Contains("'BM_Gemm/512' reports no items_per_second or bytes_per_second"));
    // Failed repetitions are left out, and said; aggregates alone are not runs.
    const HarnessFile failed = read_harness(
        R"({"context": {"num_cpus": 2}, "benchmarks": [
            {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "real_time": 10, "time_unit": "ns"},
            {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "error_occurred": true,
             "error_message": "out of memory", "real_time": 0, "time_unit": "ns"}]})",
        "failed.json", Harness::google_benchmark, false);
    CHECK(failed.benchmarks[0].values.size() == 1);
    CHECK_THAT(failed.notes.front(), Contains("('BM_a') failed: out of memory; it is left out"));
    CHECK_THROWS_WITH(read_harness(R"({"context": {}, "benchmarks": [{"name": "BM_a_mean", "run_type": "aggregate",
                        "real_time": 1, "time_unit": "ns"}]})",
                                   "agg.json", Harness::google_benchmark, false),
                      Contains("has only aggregates"));
    // Bad values name their JSON path.
    CHECK_THROWS_WITH(read_harness(R"({"context": {}, "benchmarks": [{"name": "BM_a", "real_time": -1,
                                      "time_unit": "ns"}]})",
                                   "bad.json", Harness::google_benchmark, false),
                      "bad.json: benchmarks[0].real_time: expected a finite number >= 0 (got -1)");
    CHECK_THROWS_WITH(read_harness(R"({"context": {}, "benchmarks": [{"name": "BM_a", "real_time": 1,
                                      "time_unit": "fortnights"}]})",
                                   "bad.json", Harness::google_benchmark, false),
                      "bad.json: benchmarks[0].time_unit: unknown unit 'fortnights'");
}

TEST_CASE("harness: pytest-benchmark's rounds are the runs, in us - ops with --higher-is-better", "[harness]") {
    const HarnessFile file = read("pytest_before.json");
    REQUIRE(file.benchmarks.size() == 2);
    const BenchmarkRuns& parse = benchmark(file, "tests/bench/test_parse.py::test_parse_json[large]");
    REQUIRE(parse.values.size() == 20);
    CHECK(parse.unit == Unit::ms);  // 10.8 ms a call
    CHECK(parse.values[0] == Approx(10.837679308424922));
    const HarnessFile ops = read("pytest_before.json", true);
    CHECK(ops.metric == "ops");
    CHECK(benchmark(ops, "tests/bench/test_parse.py::test_parse_json[large]").values[0] ==
          Approx(1 / 0.010837679308424922));
    // Without per-round data: the median, one run, said.
    const HarnessFile nodata = read("pytest_nodata.json");
    CHECK(nodata.benchmarks[0].values.size() == 1);
    CHECK_THAT(nodata.notes.front(), Contains("has no per-round \"data\""));
}

TEST_CASE("harness: compare benchmark by benchmark", "[harness][compare][cli]") {
    auto r = test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--format", "json",
                            "--fail-if-slower", "2%"});
    CHECK(r.exit_code == 1);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["mode"] == "benchmarks");
    CHECK(report["harness"] == "hyperfine");
    REQUIRE(report["benchmarks"].size() == 2);
    // Each benchmark's median and status from its own runs.
    const HarnessFile before = read("hyperfine_before.json"), after = read("hyperfine_after.json");
    const auto& parse = report["benchmarks"][0];
    CHECK(parse["before"].get<double>() == Approx(median(before.benchmarks[0].values)));
    CHECK(parse["after"].get<double>() == Approx(median(after.benchmarks[0].values)));
    CHECK(parse["status"] == "slower");
    CHECK(parse["worse_fraction"].get<double>() ==
          Approx(median(after.benchmarks[0].values) / median(before.benchmarks[0].values) - 1));
    CHECK(report["benchmarks"][1]["status"] == "faster");
    CHECK(report["gates"][0]["passed"] == false);
    CHECK(report["gates"][0]["phases"].size() == 2);
    CHECK_THAT(r.err, Contains("gate failed: --fail-if-slower 2%: './build/release/app parse data/large.json' +4.86% "
                               "slower (one-sided bound +3."));
    // A gate on the benchmarks a selector picks; one that picks the faster one passes.
    r = test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--fail-if-phase-slower",
                       "*render*=2%"});
    CHECK(r.exit_code == 0);
    // Text: a row per benchmark and what the model is.
    r = test::run_cli({"compare", data("gbench_before.json"), data("gbench_after.json")});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nBM_Attention/1024  slower  ms    2.8501"));
    CHECK_THAT(r.out, Contains("model:    each benchmark on its own: an alternative, not a phase of one job"));
    // Throughputs: a drop is the regression.
    r = test::run_cli({"compare", data("pytest_before.json"), data("pytest_after.json"), "--higher-is-better",
                       "--fail-if-slower", "3%", "--format", "json"});
    const auto ops = nlohmann::json::parse(r.out);
    CHECK(ops["metric"] == "ops");
    CHECK(ops["benchmarks"][0]["status"] == "slower");  // fewer ops a second
    CHECK(ops["benchmarks"][0]["worse_fraction"].get<double>() > 0.04);
    CHECK(ops["benchmarks"][1]["status"] == "faster");
    CHECK(r.exit_code == 1);
}

TEST_CASE("harness: --sum makes the benchmarks phases of one job", "[harness][compare][cli]") {
    auto r = test::run_cli(
        {"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--sum", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["before_runs"] == 10);
    // The two benchmarks, and the median of the sums beside the sum of the medians.
    REQUIRE(report["phases"].size() == 3);
    CHECK(report["phases"][2]["name"] == "(outside the phases)");
    // Run i of a side is the sum of every benchmark's run i (parse in ms, render in s): the median
    // of those sums is the total, in the first benchmark's unit.
    const HarnessFile before = read("hyperfine_before.json");
    REQUIRE(before.benchmarks[0].unit == Unit::ms);
    REQUIRE(before.benchmarks[1].unit == Unit::s);
    std::vector<double> sums;
    for (std::size_t i = 0; i < 10; ++i)
        sums.push_back(before.benchmarks[0].values[i] + 1000 * before.benchmarks[1].values[i]);
    CHECK(report["before_total"].get<double>() == Approx(median(sums)));
    CHECK_THAT(r.err, Contains("note: --sum: the benchmarks are steps of one job"));
    // Runs of different counts, and throughputs, do not add up.
    r = test::run_cli({"compare", data("pytest_before.json"), data("pytest_after.json"), "--sum"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("error: --sum: makes run i of BEFORE the sum of every benchmark's run i, but "));
    r = test::run_cli(
        {"compare", data("gbench_throughput.json"), data("gbench_throughput.json"), "--sum", "--higher-is-better"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("throughputs do not add up"));
}

TEST_CASE("harness: options and inputs that do not fit are errors", "[harness][compare][cli]") {
    const std::string profile = test::source_path("examples/compare/before.json");
    auto r = test::run_cli({"compare", data("hyperfine_before.json"), profile});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + profile + ": is not benchmark-harness output, but the other side is hyperfine's\n");
    r = test::run_cli({"compare", data("hyperfine_before.json"), data("gbench_after.json")});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("is google-benchmark output, but "));
    r = test::run_cli({"compare", profile, profile, "--sum"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("error: --sum: applies to benchmark harnesses' output"));
    r = test::run_cli({"compare", profile, profile, "--higher-is-better"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("error: --higher-is-better: applies to benchmark harnesses' throughputs"));
    for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
             {"--missing", "zero"}, {"--min-share", "1%"}, {"--unit", "s"}, {"--assume-unit", "ms"}}) {
        std::vector<std::string> args{"compare", data("hyperfine_before.json"), data("hyperfine_after.json")};
        args.insert(args.end(), extra.begin(), extra.end());
        if (extra.front() == "--min-share") args.insert(args.end(), {"--fail-if-phase-slower", "*=5%"});
        r = test::run_cli(args);
        INFO(extra.front());
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("error: " + extra.front() + ": does not apply to benchmark harnesses' output"));
    }
    r = test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--window", "x"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("do not apply to benchmark harnesses' output"));
    r = test::run_cli(
        {"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--fail-if-phase-costs", "*=1%"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("error: --fail-if-phase-costs: measures a phase against the job's total"));
    // --input-format names a harness: standard input, or a file whose start says nothing.
    r = test::run_cli({"compare", "-", data("hyperfine_after.json"), "--input-format", "hyperfine"},
                      test::read_file(data("hyperfine_before.json")));
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("parse data/large.json  slower"));
    const auto broken = test::write_temp("broken_gbench.json", R"({"context": {}, "benchmarks": [NaN]})");
    r = test::run_cli({"compare", broken, broken, "--input-format", "google-benchmark"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("not valid JSON (google-benchmark output?)"));
}

TEST_CASE("harness: what a hostile tester found", "[harness][compare][cli]") {
    const auto hyperfine = [](const std::vector<std::pair<std::string, std::vector<double>>>& commands) {
        std::string json = R"({"results": [)";
        for (std::size_t i = 0; i < commands.size(); ++i) {
            json += (i ? ", " : "") + std::string(R"({"command": ")") + commands[i].first + R"(", "times": [)";
            for (std::size_t r = 0; r < commands[i].second.size(); ++r)
                json += (r ? ", " : "") + std::to_string(commands[i].second[r]);
            json += "]}";
        }
        return json + "]}";
    };
    SECTION("a phase gate whose benchmark is gone from AFTER is an error, or skipped when asked") {
        const auto before = test::write_temp("gone_b.json", hyperfine({{"A", {1.0, 1.01, 0.99}}, {"B", {2.0, 2.01}}}));
        const auto after = test::write_temp("gone_a.json", hyperfine({{"B", {2.0, 2.01}}}));
        auto r = test::run_cli({"compare", before, after, "--fail-if-phase-slower", "A=1%"});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("error: --fail-if-phase-slower A=1%: every benchmark it selects is gone from AFTER "
                                   "('A'), so it checks nothing"));
        r = test::run_cli({"compare", before, after, "--fail-if-phase-slower", "A=1%", "--on-missing-gate", "skip",
                           "--format", "json"});
        CHECK(r.exit_code == 0);
        CHECK(nlohmann::json::parse(r.out)["gates"][0]["skipped"] == true);
        // An end-to-end gate says what it could not check.
        r = test::run_cli({"compare", before, after, "--fail-if-slower", "5%"});
        CHECK_THAT(r.out, Contains("(gone from AFTER, not checked: 'A')"));
    }
    SECTION("a whole-run gate with no benchmark on both sides is an error, not a pass") {
        // Every command renamed: --require-speedup 1.1 checked nothing and passed with exit 0
        // ("pass ... skipped: every benchmark it selects is gone"), while --fail-if-slower failed.
        const auto before = test::write_temp("renamed_b.json", hyperfine({{"A", {1.0, 1.01}}, {"B", {2.0, 2.01}}}));
        const auto after = test::write_temp("renamed_a.json", hyperfine({{"A2", {0.5, 0.51}}, {"B2", {1.0, 1.01}}}));
        for (const std::vector<std::string>& gate :
             {std::vector<std::string>{"--require-speedup", "1.1"}, {"--fail-if-slower", "5%"}}) {
            std::vector<std::string> args{"compare", before, after};
            args.insert(args.end(), gate.begin(), gate.end());
            const auto r = test::run_cli(args);
            INFO(r.err);
            CHECK(r.exit_code == 2);
            CHECK_THAT(r.err, Contains("error: " + gate[0] + " " + gate[1] +
                                       ": no benchmark is on both sides ('A', 'B' only in BEFORE; 'A2', 'B2' only in "
                                       "AFTER), so it checks nothing; if they were renamed, give --rename OLD=NEW\n"));
        }
        // Renamed, it checks them.
        const auto r = test::run_cli(
            {"compare", before, after, "--rename", "A=A2", "--rename", "B=B2", "--require-speedup", "1.1"});
        CHECK(r.exit_code == 0);
    }
    SECTION("the gates' bounds say which benchmarks have too few runs for 95%") {
        // 2 and 2 runs: the widest one-sided bound covers 1 - 1/6 = 83.3%; 1 and 1: no bound at all.
        std::vector<double> ten_before, ten_after;
        for (int r = 0; r < 10; ++r) {
            ten_before.push_back(2.0 + 0.001 * r);
            ten_after.push_back(2.0 + 0.001 * r);
        }
        const auto before =
            test::write_temp("few_b.json", hyperfine({{"A", {1.0, 1.01}}, {"B", ten_before}, {"C", {3.0}}}));
        const auto after =
            test::write_temp("few_a.json", hyperfine({{"A", {1.2, 1.21}}, {"B", ten_after}, {"C", {3.3}}}));
        const auto r = test::run_cli({"compare", before, after, "--fail-if-slower", "5%"});
        CHECK_THAT(r.out, Contains("gates check one-sided 95% bounds where the runs allow; fewer give less: 'A' "
                                   "83.3% (2 and 2 runs), 'C' none (1 and 1 run: the change itself)"));
        const auto enough = test::write_temp("few_ten.json", hyperfine({{"B", ten_before}}));
        const auto plain = test::run_cli({"compare", enough, enough});
        CHECK_THAT(plain.out, Contains("per benchmark; gates check one-sided 95% bounds\n"));
    }
    SECTION("a file of hundreds of runs compared with itself is no change (fuzz_harness)") {
        // From 150 runs a side the exact interval lost every digit and swapped its ends: 270 runs
        // compared with themselves were "faster", interval +2e16 .. -2e16.
        for (const int runs : {150, 270}) {
            INFO(runs << " runs");
            std::vector<double> times;
            for (int r = 0; r < runs; ++r) times.push_back(1.0 + 0.001 * ((r * 37) % runs));
            const auto file = test::write_temp("self.json", hyperfine({{"S", times}}));
            const auto r = test::run_cli({"compare", file, file, "--format", "json"});
            REQUIRE(r.exit_code == 0);
            const auto row = nlohmann::json::parse(r.out)["benchmarks"][0];
            CHECK(row["status"] == "noise");
            CHECK(row["change"].get<double>() == 0);
            CHECK(row["change_low"].get<double>() < 0);
            CHECK(row["change_high"].get<double>() > 0);
            CHECK(row["interval_confidence"].get<double>() == Approx(0.95).margin(0.001));
            const auto gate = test::run_cli({"compare", file, file, "--fail-if-slower", "0.1%"});
            CHECK(gate.exit_code == 0);
        }
    }
    SECTION("a benchmark that grew from 0 is infinitely slower, and fails the gate") {
        const auto before = test::write_temp("zero_b.json", hyperfine({{"Z", {0, 0, 0}}}));
        const auto after = test::write_temp("zero_a.json", hyperfine({{"Z", {0.005, 0.0051, 0.0049}}}));
        const auto r = test::run_cli({"compare", before, after, "--fail-if-slower", "1%", "--format", "json"});
        CHECK(r.exit_code == 1);
        const auto report = nlohmann::json::parse(r.out);
        CHECK(report["benchmarks"][0]["status"] == "slower");
        CHECK(report["benchmarks"][0]["worse_fraction"].is_null());  // +infinity
    }
    SECTION("the Markdown of 5,000 benchmarks stays under GitHub's limit, gates and verdict whole") {
        std::vector<std::pair<std::string, std::vector<double>>> many, slower;
        for (int i = 0; i < 5000; ++i) {
            const std::string name = "./bench --case=" + std::to_string(i) + " --with-a-long-flag-name";
            many.push_back({name, {1.0, 1.01, 0.99}});
            slower.push_back({name, {1.1, 1.11, 1.09}});
        }
        const auto before = test::write_temp("many_b.json", hyperfine(many));
        const auto after = test::write_temp("many_a.json", hyperfine(slower));
        const auto r = test::run_cli({"compare", before, after, "--fail-if-slower", "5%", "--format", "md"});
        CHECK(r.exit_code == 1);
        CHECK(r.out.size() < 65536);
        CHECK(r.out.rfind("<!-- amdahl-compare -->\n", 0) == 0);
        CHECK_THAT(r.out, Contains("<summary>4985 more benchmarks, smaller changes</summary>"));
        CHECK_THAT(r.out, Contains("more rows left out to stay under GitHub's 65,536-character comment limit"));
        CHECK_THAT(r.out, Contains("**Gates**"));
        CHECK_THAT(r.out, Contains("**Verdict: \xe2\x9d\x8c the gate failed**"));
    }
    SECTION("compare --rename splits at the last '=', as eval's does") {
        const auto before = test::write_temp("eq_b.json", hyperfine({{"./app --frames=120", {1.0, 1.01, 0.99}}}));
        const auto after = test::write_temp("eq_a.json", hyperfine({{"./app2", {1.0, 1.01, 0.99}}}));
        const auto r = test::run_cli({"compare", before, after, "--rename", "./app --frames=120=./app2"});
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("./app --frames=120 \xe2\x86\x92 ./app2"));
    }
    SECTION("a harness file with phases is refused; a named format is the format") {
        const auto both = test::write_temp("both.json", R"({"results": [{"command": "a", "times": [1, 2]}],
                                                            "phases": {"x": 1}})");
        auto r = test::run_cli({"compare", both, both});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("has \"phases\", as an amdahl profile does, beside hyperfine's results"));
        r = test::run_cli(
            {"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--input-format", "json"});
        CHECK(r.exit_code == 2);  // read as a profile, as asked: it has no phases
        CHECK_THAT(r.err, Contains("phases"));
    }
    SECTION("standard input beside a harness's file says how to name its format") {
        const auto r = test::run_cli({"compare", "-", data("hyperfine_after.json")},
                                     test::read_file(data("hyperfine_before.json")));
        CHECK(r.exit_code == 2);
        CHECK(r.err ==
              "error: -: standard input is read as a profile, but the other side is hyperfine's output; if "
              "standard input is too, say so with --input-format hyperfine\n");
    }
}

TEST_CASE("harness: errors that say what is wrong", "[harness]") {
    // Every repetition failed: not "only aggregates".
    CHECK_THROWS_WITH(read_harness(R"({"context": {}, "benchmarks": [
                          {"name": "BM_a", "run_type": "iteration", "error_occurred": true, "real_time": 0,
                           "time_unit": "ns"},
                          {"name": "BM_a_mean", "run_type": "aggregate", "real_time": 0, "time_unit": "ns"}]})",
                                   "failed.json", Harness::google_benchmark, false),
                      "failed.json: every repetition failed or was skipped (1): there is no run to compare");
    // An empty hyperfine export is hyperfine's, with nothing in it.
    CHECK(detect_harness(R"({"results": []})") == Harness::hyperfine);
    CHECK_THROWS_WITH(read_harness(R"({"results": []})", "empty.json", Harness::hyperfine, false),
                      "empty.json: has no benchmarks (hyperfine)");
    CHECK_THROWS_WITH(read_harness(R"({"results": [{"times": [1, 2]}]})", "nameless.json", Harness::hyperfine, false),
                      "nameless.json: results[0]: has no \"command\"");
    // Two commands alike: both places named.
    CHECK_THROWS_WITH(read_harness(R"({"results": [{"command": "dup", "times": [1]}, {"command": "x", "times": [1]},
                                                   {"command": "dup", "times": [2]}]})",
                                   "dup.json", Harness::hyperfine, false),
                      "dup.json: results[2]: a second benchmark named 'dup' (the first is [0])");
    // Optional fields of the wrong type were an uncaught exception (found by fuzz_harness).
    CHECK_THROWS_WITH(read_harness(R"({"context": {}, "benchmarks": [{"name": "BM_a", "run_type": 5,
                                       "real_time": 1, "time_unit": "ns"}]})",
                                   "type.json", Harness::google_benchmark, false),
                      "type.json: benchmarks[0].run_type: expected a string");
    CHECK_THROWS_WITH(read_harness(R"({"context": {}, "benchmarks": [{"name": "BM_a", "error_occurred": "yes",
                                       "real_time": 1, "time_unit": "ns"}]})",
                                   "flag.json", Harness::google_benchmark, false),
                      "flag.json: benchmarks[0].error_occurred: expected true or false");
}

TEST_CASE("harness: a google/benchmark field of the wrong type is exit 2 from the CLI", "[harness][compare][cli]") {
    const std::string bad = test::write_temp(
        "gbench_bad_type.json",
        R"({"context": {}, "benchmarks": [{"name": "BM_a", "run_type": 5, "real_time": 1, "time_unit": "ns"}]})");
    const auto r = test::run_cli({"compare", bad, data("gbench_after.json")});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + bad + ": benchmarks[0].run_type: expected a string\n");
}

TEST_CASE("harness: one run a side says it has no interval and no measure of noise", "[harness][compare][cli]") {
    const auto one_run = [](const std::string& name, const std::string& s) {
        return test::write_temp(name, R"({"results":[{"command":"a","mean":)" + s + R"(,"stddev":null,"median":)" + s +
                                          R"(,"min":)" + s + R"(,"max":)" + s + R"(,"times":[)" + s + "]}]}");
    };
    const std::string before = one_run("one_run_before.json", "1.0"), after = one_run("one_run_after.json", "0.8");
    auto r = test::run_cli({"compare", before, after});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out,
               Contains("\ninterval: none: one run a side, so no noise is measured and each status is the "
                        "change alone (more runs give an interval; --noise PCT calls a smaller change noise)\n"));
    r = test::run_cli({"compare", before, after, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["interval_method"] == "none");
    // With runs, the interval line names its method and JSON too.
    r = test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_after.json")});
    CHECK_THAT(r.out, !Contains("one run a side"));
    r = test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--format", "json"});
    CHECK(nlohmann::json::parse(r.out)["interval_method"] == "hodges-lehmann");
}

TEST_CASE("harness: a benchmark on one side only has no change, no speedup and no bounds in JSON and CSV",
          "[harness][compare][cli]") {
    // A --threads scan against the plain commands: no benchmark on both sides. The reports wrote
    // change 0, worse 0 and speedup 1 for each row, a "no change" a script would read as measured.
    const std::vector<std::string> comparison_keys{
        "change",      "change_low", "change_high", "change_bound_low", "change_bound_high", "worse_fraction",
        "worse_bound", "speedup",    "speedup_low", "speedup_high",     "speedup_bound"};
    auto r =
        test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_param.json"), "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    REQUIRE(report["benchmarks"].size() == 6);
    for (const auto& row : report["benchmarks"]) {
        INFO(row.dump());
        for (const auto& key : comparison_keys) CHECK(row.at(key).is_null());
        CHECK(row.at("worse_interval").is_null());
        CHECK(row.at("interval_confidence") == 0);
    }
    // The side it has keeps its median and runs.
    CHECK(report["benchmarks"][0]["status"] == "removed");
    CHECK(report["benchmarks"][0]["before_runs"] == 10);
    CHECK(report["benchmarks"][0]["before"].get<double>() > 0);
    CHECK(report["benchmarks"][2]["status"] == "added");
    CHECK(report["benchmarks"][2]["after"].get<double>() > 0);

    r = test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_param.json"), "--format", "csv"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\n./build/release/app parse data/large.json,./build/release/app parse "
                               "data/large.json,removed,ms,243.60661282320183,0,10,0,,,,,,,,,\n"));
    CHECK_THAT(r.out, Contains("\n./build/release/app render --frames 120 --threads 4,,added,ms,0,353.577598173476,0,"
                               "10,,,,,,,,,\n"));

    // A benchmark on both sides keeps its figures beside one that is new.
    r = test::run_cli({"compare", data("hyperfine_before.json"), data("hyperfine_after.json"), "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto both = nlohmann::json::parse(r.out)["benchmarks"][0];
    for (const auto& key : comparison_keys) CHECK(both.at(key).is_number());
}
