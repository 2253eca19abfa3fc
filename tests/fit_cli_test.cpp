// `amdahl fit`: the serial fraction from measured runs (Karp-Flatt, least squares, predictions),
// on data generated here from known parameters and on the examples, and every input error.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::string temp(const std::string& name, const std::string& content) {
    return amdahl::test::write_temp("fit_cli_" + name, content);
}

RunResult fit(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), "fit");
    return run_cli(args, input);
}

void check_input_error(const RunResult& r, const std::vector<std::string>& parts) {
    INFO("exit code: " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, StartsWith("error: "));
    CHECK_THAT(r.err, !Contains("internal error"));
    for (const auto& part : parts) CHECK_THAT(r.err, Contains(part));
}

// A JSON number after `"key": ` (the first occurrence at or after `from`).
double json_number(const std::string& json, const std::string& key, std::size_t from = 0) {
    const auto pos = json.find("\"" + key + "\": ", from);
    REQUIRE(pos != std::string::npos);
    return std::stod(json.substr(pos + key.size() + 4));
}

// Times of a 1,000 ms job: T(N) = 1000 ((1 - P) + P / N + c log2 N), printed with 6 decimals.
std::string generated_times(double p, double c, const std::vector<int>& counts) {
    std::string csv = "n,time_ms\n";
    for (int n : counts) {
        const double t = 1000 * ((1 - p) + p / n + c * std::log2(static_cast<double>(n)));
        csv += fmt::format("{},{:.6f}\n", n, t);
    }
    return csv;
}

}  // namespace

TEST_CASE("fit: runs from a known P give back P, with flat Karp-Flatt e", "[fit]") {
    const auto path = temp("known_p.csv", generated_times(0.9, 0, {1, 2, 4, 8, 16, 32}));
    const RunResult r = fit({path, "--format", "json", "--predict", "64,1024"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(json_number(r.out, "parallel_fraction") == Approx(0.9).epsilon(1e-6));
    CHECK(json_number(r.out, "serial_fraction") == Approx(0.1).epsilon(1e-5));
    CHECK_THAT(r.out, Contains("\"trend\": \"flat\""));
    CHECK_THAT(r.out, Contains("\"model\": \"amdahl\""));
    // Every e is 1 - P.
    for (std::size_t pos = r.out.find("\"e\": "); pos != std::string::npos; pos = r.out.find("\"e\": ", pos + 1))
        CHECK(std::stod(r.out.substr(pos + 5)) == Approx(0.1).epsilon(1e-5));
    // Predictions: 1 / (0.1 + 0.9 / 1024) and the ceiling 10.
    const auto predictions = r.out.find("\"predictions\"");
    CHECK(json_number(r.out, "speedup", r.out.find("\"n\": 1024", predictions)) ==
          Approx(1 / (0.1 + 0.9 / 1024)).epsilon(1e-5));
    CHECK(json_number(r.out, "ceiling") == Approx(10).epsilon(1e-5));
    CHECK_THAT(r.out, Contains("\"best_n\": null"));
    const RunResult table = fit({path});
    CHECK_THAT(table.out, Contains("Karp-Flatt e:      flat") && Contains("the serial part is the limit"));
}

TEST_CASE("fit: runs from a known overhead show rising e, and --overhead recovers P and c", "[fit]") {
    const auto path = temp("known_overhead.csv", generated_times(0.95, 0.005, {1, 2, 4, 8, 16, 32, 64}));
    const RunResult plain = fit({path});
    REQUIRE(plain.exit_code == 0);
    CHECK_THAT(plain.out,
               Contains("Karp-Flatt e:      rises from 0.0600 at N = 2 to 0.0805 at N = 64: overhead grows with N"));
    CHECK_THAT(plain.out, Contains("fit it with --overhead log, linear or sqrt"));
    const RunResult json = fit({path, "--overhead", "log", "--format", "json", "--predict", "256"});
    REQUIRE(json.exit_code == 0);
    CHECK(json_number(json.out, "parallel_fraction") == Approx(0.95).epsilon(1e-6));
    CHECK(json_number(json.out, "overhead_coefficient") == Approx(0.005).epsilon(1e-5));
    CHECK(json_number(json.out, "rmse") < 1e-4);
    CHECK_THAT(json.out, Contains("\"trend\": \"rising\"") && Contains("\"model\": \"amdahl+log\""));
    CHECK(json_number(json.out, "best_n") == 132);  // the peak of 1 / (0.05 + 0.95 / N + 0.005 log2 N)
    const double at_256 = 1 / (0.05 + 0.95 / 256 + 0.005 * 8);
    CHECK(json_number(json.out, "speedup", json.out.find("\"n\": 256")) == Approx(at_256).epsilon(1e-5));
    CHECK(json_number(json.out, "time", json.out.find("\"n\": 256")) == Approx(1000 / at_256).epsilon(1e-5));
}

TEST_CASE("fit: the example runs", "[fit]") {
    const RunResult r = fit({source_path("examples/scaling_runs.csv"), "--overhead", "log", "--predict", "256,1024"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("parallel fraction: 0.9500 (95.0%, P)"));
    CHECK_THAT(r.out, Contains("best N:            N = 132"));
    CHECK_THAT(r.out, Contains(" 256  predicted") && Contains("1024  predicted"));
    const RunResult speedups = fit({source_path("examples/scaling_speedups.json")});
    REQUIRE(speedups.exit_code == 0);
    CHECK_THAT(speedups.out, Contains("parallel fraction: 0.9002"));
    CHECK_THAT(speedups.out, Contains("(speedups)"));
    const RunResult csv = fit({source_path("examples/scaling_runs.csv"), "--format", "csv", "--predict", "128"});
    CHECK_THAT(csv.out, StartsWith("n,run,time_ms,speedup,karp_flatt_e,model_speedup,residual\n1,measured,1200,1,,"));
    CHECK_THAT(csv.out, Contains("\n128,predicted,"));
}

TEST_CASE("fit: stdin, speedup columns and every overhead model", "[fit]") {
    const RunResult piped = fit({"-"}, "N,speedup\n2,1.8\n4,3.1\n8,4.7\n");
    REQUIRE(piped.exit_code == 0);
    CHECK_THAT(piped.out, Contains("3 runs, N = 2 to 8 (speedups)"));
    for (const char* model : {"linear", "log", "sqrt", "const"}) {
        INFO(model);
        CHECK(fit({source_path("examples/scaling_runs.csv"), "--overhead", model}).exit_code == 0);
    }
    const RunResult negative = fit({"-", "--overhead", "linear"}, "n,speedup\n2,2\n4,4.1\n8,8.3\n");
    CHECK(negative.exit_code == 0);
    CHECK_THAT(negative.err, Contains("note: the fitted P = ") && Contains("outside 0..1"));
}

TEST_CASE("fit errors: too few runs, N < 1, times <= 0, no baseline, repeats", "[fit][errors]") {
    const auto one = temp("one.csv", "n,time\n1,900\n");
    check_input_error(fit({one}), {"error: " + one + ": too few runs: a fit needs at least 2 (got 1)"});
    const auto zero = temp("zero_n.csv", "n,time\n1,900\n0,500\n");
    check_input_error(fit({zero}), {"error: " + zero + ":3: N must be at least 1 (got '0')"});
    const auto negative_n = temp("negative_n.csv", "n,time\n1,900\n-2,500\n");
    check_input_error(fit({negative_n}), {"error: " + negative_n + ":3: N must be at least 1 (got '-2')"});
    const auto fraction = temp("fraction_n.csv", "n,time\n1,900\n1.5,500\n");
    check_input_error(fit({fraction}), {"error: " + fraction + ":3: N must be a whole number (got '1.5')"});
    const auto zero_time = temp("zero_time.csv", "n,time\n1,900\n2,0\n");
    check_input_error(fit({zero_time}), {"error: " + zero_time + ":3: time must be > 0 (got '0')"});
    const auto negative_time = temp("negative_time.csv", "n,time_ms\n1,900\n2,-450\n");
    check_input_error(fit({negative_time}), {"error: " + negative_time + ":3: time must be > 0 (got '-450')"});
    const auto zero_speedup = temp("zero_speedup.csv", "n,speedup\n2,0\n4,3\n");
    check_input_error(fit({zero_speedup}), {"error: " + zero_speedup + ":2: speedup must be > 0 (got '0')"});
    const auto no_baseline = temp("no_baseline.csv", "n,time\n2,500\n4,300\n");
    check_input_error(fit({no_baseline}),
                      {"error: " + no_baseline +
                       ": no run at N = 1: speedups from times need the one-processor time as the baseline"});
    const auto twice = temp("twice.csv", "n,time\n1,900\n2,500\n2,480\n");
    check_input_error(fit({twice}), {"error: " + twice + ":4: N = 2 appears twice (also at " + twice + ":3)"});
    const auto only_baseline = temp("only_baseline.csv", "n,speedup\n1,1\n1,1\n");
    check_input_error(fit({only_baseline}), {"error: " + only_baseline + ":3: N = 1 appears twice"});
    const auto no_parallel = temp("no_parallel.json", "[{\"n\": 1, \"speedup\": 1}, {\"n\": 1, \"speedup\": 1}]");
    check_input_error(fit({no_parallel}), {"error: " + no_parallel + ": [1]: N = 1 appears twice"});
}

TEST_CASE("fit errors: the file's shape", "[fit][errors]") {
    check_input_error(fit({"/nonexistent/runs.csv"}), {"error: /nonexistent/runs.csv: no such file"});
    const auto empty = temp("empty.csv", "");
    check_input_error(fit({empty}), {"error: " + empty + ": empty input: no runs"});
    const auto header_only = temp("header_only.csv", "n,time\n");
    check_input_error(fit({header_only}), {"error: " + header_only + ": no runs"});
    const auto no_n = temp("no_n.csv", "size,time\n1,2\n");
    check_input_error(fit({no_n}), {"error: " + no_n + ":1: no N column in the header"});
    const auto no_time = temp("no_time.csv", "n,memory\n1,2\n");
    check_input_error(
        fit({no_time}),
        {"error: " + no_time + ":1: no time column (time, time_ms, 'time (s)') or speedup column in the header"});
    const auto ragged = temp("ragged.csv", "n,time\n1,2\n2,1,0\n");
    check_input_error(fit({ragged}), {"error: " + ragged + ":3: row has 3 fields, the header has 2"});
    const auto malformed = temp("malformed.json", "{\"runs\": [");
    check_input_error(fit({malformed}), {"error: " + malformed + ":1:", "malformed JSON"});
    const auto no_time_key = temp("no_time_key.json", "{\"runs\": [{\"n\": 1}]}");
    check_input_error(fit({no_time_key}), {"error: " + no_time_key + ": runs[0]: run has no \"time\" or \"speedup\""});
    const auto bad_time = temp("bad_time.csv", "n,time\n1,slow\n2,1\n");
    check_input_error(fit({bad_time}), {"error: " + bad_time + ":2: time must be a number > 0 with an optional unit"});
}

TEST_CASE("fit errors: bad --overhead and --predict", "[fit][errors]") {
    const std::string runs = source_path("examples/scaling_runs.csv");
    check_input_error(fit({runs, "--overhead", "cubic"}),
                      {"error: --overhead: unknown overhead model 'cubic' (expected linear, log, sqrt or const)"});
    check_input_error(fit({runs, "--overhead", "log:0.01"}),
                      {"error: --overhead: fit estimates the coefficient: give the model alone, such as --overhead log "
                       "(got 'log:0.01')"});
    check_input_error(fit({runs, "--overhead", "file:x.csv"}),
                      {"error: --overhead: unknown overhead model 'file:x.csv'"});
    const auto two = temp("two_runs.csv", "n,time\n1,900\n4,300\n");
    check_input_error(fit({two, "--overhead", "log"}),
                      {"error: " + two + ": fitting P and a log overhead needs runs at two or more N > 1 (got 1)"});
    check_input_error(fit({runs, "--predict", "0"}), {"error: --predict: N must be at least 1 (got '0')"});
    check_input_error(fit({runs, "--predict", ""}), {"error: --predict: expected processor counts"});
    check_input_error(fit({runs, "--predict", "256..64"}), {"error: --predict: range '256..64' runs backwards"});
}

TEST_CASE("fit: speedups without N = 1 say the model assumes S = 1 there", "[fit]") {
    const std::string note =
        "note: the runs have no N = 1: the speedups are taken as over one processor, and the model assumes S = 1 "
        "at N = 1\n";
    const RunResult speedups = fit({"-"}, "N,speedup\n2,1.8\n4,3.1\n8,4.7\n");
    CHECK(speedups.exit_code == 0);
    CHECK(speedups.err == note);
    // With N = 1 among them, or with times (N = 1 is then required), nothing is assumed.
    CHECK(fit({"-"}, "N,speedup\n1,1\n2,1.8\n4,3.1\n").err.empty());
    CHECK(fit({source_path("examples/scaling_runs.csv")}).err.empty());
}

TEST_CASE("fit: superlinear runs (negative Karp-Flatt e) are said to be superlinear, not growing overhead",
          "[fit][silent]") {
    // Speedup above N at every N: e = -0.100, -0.040, -0.017. Before: "rises ... overhead grows
    // with N (synchronization, communication, stragglers)".
    const std::string path = amdahl::test::write_temp("superlinear.csv", "n,time_ms\n1,1000\n2,450\n4,220\n8,110\n");
    const RunResult r = run_cli({"fit", path});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("Karp-Flatt e:      negative, -0.1000 at N = 2 to -0.0171 at N = 8: the speedup is "
                               "above N (superlinear: the data fits in cache or memory once split), which Amdahl's "
                               "law cannot produce; its P does not describe these runs\n"));
    CHECK_THAT(r.out, !Contains("overhead grows"));
    CHECK_THAT(r.err, Contains("note: the speedup is above N at N = 2, 4, 8 (Karp-Flatt e < 0): superlinear scaling, "
                               "which Amdahl's law cannot produce (it allows at most N); the fitted P and ceiling do "
                               "not describe these runs\n"));
    const RunResult j = run_cli({"fit", path, "--format", "json"});
    REQUIRE(j.exit_code == 0);
    CHECK_THAT(j.out, Contains("\"trend\": \"superlinear\""));
}
