// `amdahl scale`: the lesson's table through the command line, weak scaling, times, profiles,
// overheads and the best N, --effective, the output formats, and every input error (exit 2).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::string temp(const std::string& name, const std::string& content) {
    return amdahl::test::write_temp("scale_cli_" + name, content);
}

RunResult scale(std::vector<std::string> args) {
    args.insert(args.begin(), "scale");
    return run_cli(args);
}

// Exit 2, nothing on stdout, one "error: ..." line on stderr holding every part.
void check_input_error(const RunResult& r, const std::vector<std::string>& parts) {
    INFO("exit code: " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, StartsWith("error: "));
    CHECK_THAT(r.err, !Contains("internal error"));
    for (const auto& part : parts) CHECK_THAT(r.err, Contains(part));
}

// A JSON number after `"key": `.
double json_number(const std::string& json, const std::string& key) {
    const auto pos = json.find("\"" + key + "\": ");
    REQUIRE(pos != std::string::npos);
    return std::stod(json.substr(pos + key.size() + 4));
}

// The data line of the table whose first field is `n`.
std::string row(const std::string& table, const std::string& n) {
    std::size_t pos = 0;
    while (pos < table.size()) {
        const std::size_t end = table.find('\n', pos);
        const std::string line = table.substr(pos, end - pos);
        const std::size_t first = line.find_first_not_of(' ');
        if (first != std::string::npos && line.compare(first, n.size() + 1, n + " ") == 0) return line;
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return {};
}

}  // namespace

TEST_CASE("scale: the lesson's strong-scaling table", "[scale][seeds]") {
    const RunResult r = scale({"-p", "0.95", "-n", "5,10,100"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    // 1 / 0.24 = 4.1667, 1 / 0.145 = 6.8966, 1 / 0.0595 = 16.8067; efficiency S / N.
    CHECK_THAT(row(r.out, "5"), Contains("4.1667x") && Contains("83.3%"));
    CHECK_THAT(row(r.out, "10"), Contains("6.8966x") && Contains("69.0%"));
    CHECK_THAT(row(r.out, "100"), Contains("16.8067x") && Contains("16.8%"));
    CHECK_THAT(r.out, Contains("ceiling:           20.0000x"));
    CHECK_THAT(r.out, Contains("Amdahl (strong scaling)") && Contains("how much sooner"));
    // The same with the lesson's two decimals, and P written as a percentage.
    const RunResult two = scale({"-p", "95%", "-n", "5,10,100", "--precision", "2"});
    CHECK_THAT(two.out, Contains(" 4.17x") && Contains(" 6.90x") && Contains("16.81x") && Contains("20.00x"));
}

TEST_CASE("scale: --weak is Gustafson's law and says which question it answers", "[scale][seeds]") {
    const RunResult r = scale({"-p", "0.95", "-n", "100", "--weak"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(row(r.out, "100"), Contains("95.0500x") && Contains("95.0%"));
    CHECK_THAT(r.out, Contains("Gustafson (weak scaling)") && Contains("how much more work in the same time"));
    CHECK_THAT(r.out, Contains("S = (1 - P) + P * N"));
    CHECK_THAT(r.out, Contains("ceiling:           none"));
    const RunResult json = scale({"-p", "0.95", "-n", "100", "--weak", "--format", "json"});
    CHECK_THAT(json.out,
               Contains("\"law\": \"gustafson\"") && Contains("\"speedup\": 95.05") && Contains("\"ceiling\": null"));
}

TEST_CASE("scale: --time adds the time in the given unit", "[scale]") {
    const RunResult r = scale({"-p", "0.95", "-n", "1,5,10", "--time", "900ms"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("time (ms)"));
    CHECK_THAT(row(r.out, "5"), Contains("216.0"));   // 900 * 0.24
    CHECK_THAT(row(r.out, "10"), Contains("130.5"));  // 900 * 0.145
    CHECK_THAT(r.out, Contains("baseline:          900.0 ms on one processor"));
    const RunResult weak =
        scale({"-p", "0.95", "-n", "1,8", "--time", "2s", "--weak", "--overhead", "const:0.1", "--format", "csv"});
    // Weak scaling: the 8-times-larger job on 8 processors takes T (1 + O) = 2.2 s.
    CHECK_THAT(weak.out, Contains("n,speedup,efficiency,time_s,overhead\n1,1,1,2,0\n8,"));
    CHECK_THAT(weak.out, Contains(",2.2,0.1\n"));
}

TEST_CASE("scale: ranges and the default list", "[scale]") {
    const RunResult powers = scale({"-p", "0.9", "-n", "1..1024", "--format", "csv"});
    REQUIRE(powers.exit_code == 0);
    CHECK(std::count(powers.out.begin(), powers.out.end(), '\n') == 12);  // header + 11 rows
    const RunResult stepped = scale({"-p", "0.9", "-n", "1:64:8", "-n", "64", "--format", "csv"});
    CHECK_THAT(stepped.out, Contains("\n1,1,") && Contains("\n9,") && Contains("\n57,") && Contains("\n64,"));
    const RunResult fallback = scale({"-p", "0.9", "--format", "csv"});
    CHECK_THAT(fallback.out, Contains("\n1024,"));
}

TEST_CASE("scale: P from a profile's phases", "[scale]") {
    // The transformer step: kernels are 34 + 21 + 12 + 6 + 4 = 77 of 100 ms.
    const RunResult r =
        scale({source_path("examples/transformer_step.json"), "--parallel", "kind:kernel", "-n", "1,4"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("77.0% (P: 77.0 of 100.0 ms in the phases --parallel picks)"));
    CHECK_THAT(row(r.out, "4"), Contains("2.3669x"));  // 1 / (0.23 + 0.77 / 4)
    CHECK_THAT(row(r.out, "4"), Contains("42.25"));    // 23 + 77 / 4 ms
    const RunResult two = scale({source_path("examples/transformer_step.json"), "--parallel", "gemm_*", "--parallel",
                                 "attention_softmax", "-n", "2", "--format", "json"});
    CHECK_THAT(two.out, Contains("\"parallel_fraction\": 0.67"));
}

TEST_CASE("scale: log overhead, the best N and a brute-force check", "[scale][best]") {
    const RunResult r = scale({"-p", "0.95", "-n", "1..1024", "--overhead", "log:0.005", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    long long best = 1;
    double best_speedup = 1;
    for (long long n = 1; n <= 1024; ++n) {
        const double s = 1 / (0.05 + 0.95 / static_cast<double>(n) + 0.005 * std::log2(static_cast<double>(n)));
        if (s > best_speedup) {
            best = n;
            best_speedup = s;
        }
    }
    CHECK_THAT(r.out, Contains("\"best_n\": " + std::to_string(best) + ","));
    CHECK_THAT(r.out, Contains("\"overhead\": {\n    \"model\": \"log\",\n    \"coefficient\": 0.005\n  }"));
    const RunResult table = scale({"-p", "0.95", "-n", "1..1024", "--overhead", "log:0.005"});
    CHECK_THAT(
        table.out,
        Contains(
            "best N:            N = 132 gives 10.8203x (of 1 to 1024); past it, more processors make the run slower"));
    CHECK_THAT(table.out, Contains("O(N) = 0.005 * log2 N"));
    // Below the peak, the best N is the largest asked for, and the output says so.
    const RunResult short_range = scale({"-p", "0.95", "-n", "1..64", "--overhead", "log:0.005"});
    CHECK_THAT(short_range.out, Contains("N = 64 gives") && Contains("still rising"));
}

TEST_CASE("scale: overhead models and a measured overhead file", "[scale]") {
    for (const char* model : {"linear:0.001", "sqrt:0.01", "const:0.02", "const:2%"}) {
        INFO(model);
        const RunResult r = scale({"-p", "0.95", "-n", "1,16", "--overhead", model});
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("best N:"));
    }
    // The file's all-reduce costs, linear between the measured N.
    const std::string file = source_path("examples/allreduce_overhead.csv");
    const RunResult measured =
        scale({"-p", "0.95", "-n", "1,8,12,64", "--overhead", "file:" + file, "--format", "csv"});
    INFO(measured.err);
    REQUIRE(measured.exit_code == 0);
    CHECK_THAT(measured.out, Contains("\n8," + std::string("5.50206327372764")));  // 1 / (0.05 + 0.95/8 + 0.013)
    CHECK_THAT(measured.out, Contains(",0.0165\n"));                               // halfway between 0.013 and 0.02
    const RunResult bare = scale({"-p", "0.95", "-n", "64", "--overhead", file});  // a path without file:
    CHECK(bare.exit_code == 0);
    const RunResult piped = run_cli({"scale", "-p", "0.95", "-n", "4", "--overhead", "file:-"}, "n,overhead\n4,0.1\n");
    CHECK(piped.exit_code == 0);
}

TEST_CASE("scale: --effective uses the measured local speedup", "[scale][seeds]") {
    // The lesson: 8 GPUs give the parallel part 5x, not 8x. With P = 0.95: 1 / (0.05 + 0.95 / 5).
    const RunResult r = scale({"-p", "0.95", "-n", "4,16", "--effective", "8=5"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(row(r.out, "8"), Contains("4.1667x") && Contains("5x (effective)"));
    CHECK_THAT(row(r.out, "4"), Contains("4x") && !Contains("effective"));
    CHECK_THAT(r.out, Contains("on 8 processors the parallel part runs 5x faster, not 8x: 4.1667x instead of 5.9259x"));
    const RunResult superlinear = scale({"-p", "0.95", "-n", "4", "--effective", "2=3"});
    CHECK(superlinear.exit_code == 0);
    CHECK_THAT(superlinear.err, Contains("note: --effective 2=3: 3x on 2 processors is superlinear"));
}

TEST_CASE("scale: JSON and CSV carry every point", "[scale]") {
    const RunResult json = scale({"-p", "0.95", "-n", "5", "--time", "1s", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    for (const char* key : {"\"schema_version\": 1", "\"command\": \"scale\"", "\"law\": \"amdahl\"",
                            "\"parallel_fraction\": 0.95", "\"best_n\": 5", "\"points\": [", "\"n\": 5",
                            "\"unit\": \"s\"", "\"baseline_time\": 1,", "\"overhead\": null"})
        CHECK_THAT(json.out, Contains(key));
    CHECK(json_number(json.out, "ceiling") == Approx(20));
    CHECK(json_number(json.out, "efficiency") == Approx(1 / 0.24 / 5));
    CHECK(json_number(json.out, "time") == Approx(0.24));
    const RunResult md = scale({"-p", "0.95", "-n", "5", "--format", "md"});
    // Markdown carries the summary too: a heading, the headline table, then the points.
    CHECK_THAT(md.out, StartsWith("### amdahl scale: 4.1667x at N = 5\n\n| result | value |\n"));
    CHECK_THAT(md.out, Contains("| ceiling | 20.0000x (1 / (1 - P): no number of processors passes it) |\n"));
    CHECK_THAT(md.out, Contains("| N | speedup | efficiency |\n| ---: | ---: | ---: |\n| 5 | 4.1667x | 83.3% |\n"));
}

TEST_CASE("scale errors: where P comes from", "[scale][errors]") {
    const std::string profile = source_path("examples/transformer_step.json");
    check_input_error(
        scale({"-n", "4"}),
        {"error: scale: give the parallel fraction with -p (0.95 or 95%), or a PROFILE and --parallel SELECTOR"});
    check_input_error(scale({profile, "-p", "0.9"}), {"error: -p: give -p or a PROFILE, not both"});
    check_input_error(scale({profile}), {"error: --parallel: a PROFILE needs --parallel SELECTOR"});
    check_input_error(
        scale({"-p", "0.9", "-n", "5", "10"}),
        {"error: scale: '10' is not a profile; processor counts go after -n, separated by commas: -n 5,10,100"});
    check_input_error(scale({"-p", "0.9", "--parallel", "kind:kernel"}),
                      {"error: --parallel: picks the parallel phases of a PROFILE"});
    check_input_error(
        scale({profile, "--parallel", "atention_softmax"}),
        {"error: " + profile + ": selector 'atention_softmax' matches no phase; did you mean 'attention_softmax'?"});
    check_input_error(scale({"/nonexistent/profile.json", "--parallel", "*"}),
                      {"error: /nonexistent/profile.json: no such file"});
}

TEST_CASE("scale errors: bad -p", "[scale][errors]") {
    check_input_error(scale({"-p", "most"}),
                      {"error: -p: expected a parallel fraction such as 0.95 or 95% (got 'most')"});
    check_input_error(scale({"-p", "1.5"}), {"error: -p: must be between 0 and 1 (or 0% and 100%) (got '1.5')"});
    check_input_error(scale({"-p", "120%"}), {"error: -p: must be between 0 and 1 (or 0% and 100%) (got '120%')"});
    check_input_error(scale({"-p", "-0.1"}), {"error: -p: must be between 0 and 1"});
    check_input_error(scale({"-p", "5ms"}), {"error: -p: must be between 0 and 1 (or 0% and 100%) (got '5ms')"});
}

TEST_CASE("scale errors: bad -n", "[scale][errors]") {
    const auto n = [](const std::string& list) { return scale({"-p", "0.9", "-n", list}); };
    check_input_error(n(""),
                      {"error: -n: expected processor counts such as 5,10,100, 1..1024 or 1:64:8 (got an empty list)"});
    check_input_error(n("5,,10"), {"error: -n: empty item in '5,,10'"});
    check_input_error(n("0"), {"error: -n: N must be at least 1 (got '0')"});
    check_input_error(n("-8"), {"error: -n: N must be at least 1 (got '-8')"});
    check_input_error(n("2.5"), {"error: -n: N must be a whole number (got '2.5')"});
    check_input_error(n("eight"), {"error: -n: 'eight' is not a processor count"});
    check_input_error(n("64..8"), {"error: -n: range '64..8' runs backwards"});
    check_input_error(n("1.."), {"error: -n: '1..' is not a range"});
    check_input_error(n("1:2:3:4"), {"error: -n: '1:2:3:4' is not a range"});
    check_input_error(n("1:64:0"), {"error: -n: the step must be at least 1 (got '0')"});
    check_input_error(n("1:200000"),
                      {"error: -n: '1:200000' expands to 200,000 processor counts; at most 100,000 are allowed"});
    check_input_error(n("5000000000000"), {"error: -n: N must be at most 1,000,000,000,000"});
    check_input_error(scale({"-p", "0.9", "-n", "1:60000", "-n", "60001:120000"}),
                      {"error: -n: the lists give 120,000 processor counts; at most 100,000 are allowed"});
}

TEST_CASE("scale errors: bad --time", "[scale][errors]") {
    for (const char* time : {"soon", "0ms", "-5ms", "50%"}) {
        INFO(time);
        check_input_error(scale({"-p", "0.9", "-n", "4", "--time", time}),
                          {"error: --time: expected a time > 0 such as 900ms (got '" + std::string(time) + "')"});
    }
}

TEST_CASE("scale errors: bad --overhead model or coefficient", "[scale][errors]") {
    const auto o = [](const std::string& text) { return scale({"-p", "0.9", "-n", "4", "--overhead", text}); };
    check_input_error(
        o("lin:0.1"),
        {"error: --overhead: unknown overhead model 'lin' (expected linear:C, log:C, sqrt:C or const:C, or file:PATH"});
    check_input_error(o("cubic:1"), {"error: --overhead: unknown overhead model 'cubic'"});
    check_input_error(o("log"), {"error: --overhead: log needs a coefficient: log:C, such as log:0.01"});
    check_input_error(o("linear:"), {"error: --overhead: linear needs a coefficient"});
    check_input_error(o("log:-0.01"), {"error: --overhead: the coefficient of log must be a number >= 0 in units of "
                                       "the one-processor time, such as 0.01 or 1% (got '-0.01')"});
    check_input_error(o("sqrt:lots"),
                      {"error: --overhead: the coefficient of sqrt must be a number >= 0", "(got 'lots')"});
    check_input_error(o("const:5ms"),
                      {"error: --overhead: the coefficient of const must be a number >= 0", "(got '5ms')"});
}

TEST_CASE("scale errors: unreadable or bad overhead files", "[scale][errors]") {
    const auto o = [](const std::string& text, const std::string& n = "4") {
        return scale({"-p", "0.9", "-n", n, "--overhead", text});
    };
    check_input_error(o("file:/nonexistent/overhead.csv"),
                      {"error: --overhead: /nonexistent/overhead.csv: no such file"});
    check_input_error(o("/nonexistent/overhead.csv"), {"error: --overhead: /nonexistent/overhead.csv: no such file"});
    const std::string dir = source_path("examples");
    check_input_error(o("file:" + dir), {"error: --overhead: " + dir + ": is a directory"});
    const auto no_column = temp("no_column.csv", "n,cost\n2,0.1\n");
    check_input_error(o("file:" + no_column),
                      {"error: --overhead: " + no_column + ":1: no overhead column in the header (found 'n', 'cost')"});
    const auto n1 = temp("n1.csv", "n,overhead\n1,0.05\n4,0.1\n");
    check_input_error(o("file:" + n1), {"error: --overhead: " + n1 + ":2: the overhead at N = 1 must be 0"});
    const auto negative = temp("negative.csv", "n,overhead\n4,-0.1\n");
    check_input_error(o("file:" + negative),
                      {"error: --overhead: " + negative + ":2: overhead must be >= 0 (got '-0.1')"});
    const auto zero_n = temp("zero_n.csv", "n,overhead\n0,0.1\n");
    check_input_error(o("file:" + zero_n), {"error: --overhead: " + zero_n + ":2: N must be at least 1 (got '0')"});
    const auto twice = temp("twice.csv", "n,overhead\n4,0.1\n4,0.2\n");
    check_input_error(o("file:" + twice),
                      {"error: --overhead: " + twice + ":3: N = 4 appears twice (also at " + twice + ":2)"});
    const auto short_file = temp("short.csv", "n,overhead\n2,0.01\n64,0.1\n");
    check_input_error(
        o("file:" + short_file, "1..128"),
        {"error: --overhead: " + short_file +
         " covers N = 1 to 64; N = 128 is beyond it (measured overheads are interpolated, never extrapolated)"});
}

TEST_CASE("scale errors: bad --effective", "[scale][errors]") {
    const auto e = [](const std::string& text) { return scale({"-p", "0.9", "-n", "4", "--effective", text}); };
    check_input_error(
        e("8"),
        {"error: --effective: expected N=K, such as 8=5: on 8 processors the parallel part runs 5x faster (got '8')"});
    check_input_error(e("x=5"), {"error: --effective: N must be a whole number >= 1 (got 'x' in 'x=5')"});
    check_input_error(e("0=5"), {"error: --effective: N must be a whole number >= 1 (got '0' in '0=5')"});
    check_input_error(e("2.5=2"), {"error: --effective: N must be a whole number >= 1 (got '2.5' in '2.5=2')"});
    check_input_error(e("8=0"), {"error: --effective: ", "in '8=0'"});
    check_input_error(e("8=fast"), {"error: --effective: ", "in '8=fast'"});
    check_input_error(e("8=inf"), {"error: --effective: K must be a finite speedup > 0 (got 'inf' in '8=inf')"});
    check_input_error(scale({"-p", "0.9", "--effective", "8=5", "--effective", "8=6"}),
                      {"error: --effective: N = 8 is given twice"});
    check_input_error(
        scale({"-p", "0.9", "--effective", "8=5", "--overhead", "log:0.01"}),
        {"error: --effective: already includes the overhead at its N; give --effective or --overhead, not both"});
    check_input_error(scale({"-p", "0.9", "--effective", "8=5", "--weak"}),
                      {"error: --effective: is a measured speedup for a fixed problem (strong scaling); it does not "
                       "apply with --weak"});
}

TEST_CASE("scale: --effective prints the formula it used", "[scale]") {
    const RunResult r = scale({"-p", "0.95", "-n", "4", "--effective", "8=5"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("formula:           S = 1 / ((1 - P) + P / k), k = N, or K where --effective N=K "
                               "measured it (N = 8: k = 5)\n"));
    // Without --effective, k is N.
    CHECK_THAT(scale({"-p", "0.95", "-n", "4"}).out, Contains("formula:           S = 1 / ((1 - P) + P / N)\n"));
}
