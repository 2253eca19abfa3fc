// Reading measured runs: CSV/TSV headers and units, JSON forms, and the checks on N and values.
#include <catch2/catch.hpp>

#include <sstream>

#include "amdahl/error.hpp"
#include "amdahl/measurements.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

const std::vector<MeasuredQuantity> times_or_speedups{MeasuredQuantity::time, MeasuredQuantity::speedup};

Measurements parse(const std::string& content, const std::vector<MeasuredQuantity>& accepted = times_or_speedups) {
    return parse_measurements(content, "runs.csv", accepted);
}

}  // namespace

TEST_CASE("measurements: CSV with a unit in the header", "[measurements]") {
    const Measurements m = parse("n,time_ms\n1,900\n2,480.5\n4,\"260\"\n");
    CHECK(m.quantity == MeasuredQuantity::time);
    REQUIRE(m.unit);
    CHECK(*m.unit == Unit::ms);
    REQUIRE(m.runs.size() == 3);
    CHECK(m.runs[1].n == 2);
    CHECK(m.runs[1].value == Approx(480.5));
    CHECK(m.runs[2].where == "runs.csv:4");
    const auto points = measured_speedups(m);
    CHECK(points[1].speedup == Approx(900 / 480.5));
    CHECK(baseline_time(m) == Approx(900));
}

TEST_CASE("measurements: units in the cells are converted to one unit", "[measurements]") {
    const Measurements m = parse("GPUs,Time\n1,1.2 s\n2,640ms\n4,330 ms\n");
    REQUIRE(m.unit);
    CHECK(*m.unit == Unit::s);
    CHECK(m.runs[1].value == Approx(0.64));
    CHECK(m.runs[2].value == Approx(0.33));
    // A bare number among times with units is not read in another row's unit (330 was taken as 330 s).
    CHECK_THROWS_WITH(parse("GPUs,Time\n1,1.2 s\n2,640ms\n4,330\n"),
                      Catch::Matchers::Contains(":4: this time has no unit while others have one"));
    const Measurements header = parse("n,time (s)\n1,2\n2,1100 ms\n");
    CHECK(header.runs[1].value == Approx(1.1));
    CHECK_FALSE(parse("n,time\n1,2\n2,1.1\n").unit);
}

TEST_CASE("measurements: TSV, comments, blank lines, extra columns, speedups", "[measurements]") {
    const Measurements tsv = parse("# machine: 8x H100\nprocessors\tnote\tspeedup\n\n2\tfirst\t1.9x\n8\t\t6.1\n");
    CHECK(tsv.quantity == MeasuredQuantity::speedup);
    REQUIRE(tsv.runs.size() == 2);
    CHECK(tsv.runs[0].value == Approx(1.9));
    CHECK(tsv.runs[1].n == 8);
    const auto points = measured_speedups(tsv);  // speedups need no N = 1 run
    CHECK(points[1].speedup == Approx(6.1));
    CHECK_FALSE(baseline_time(tsv));
}

TEST_CASE("measurements: JSON forms", "[measurements]") {
    const Measurements object =
        parse("{\"unit\": \"ms\", \"runs\": [{\"n\": 1, \"time\": 900}, {\"n\": 2, \"time\": \"0.5 s\"}]}");
    CHECK(object.runs[1].value == Approx(500));
    CHECK(object.runs[1].where == "runs.csv: runs[1]");
    const Measurements array = parse("[{\"n\": 1, \"time_s\": 2}, {\"n\": 4, \"time_s\": 0.6}]");
    REQUIRE(array.unit);
    CHECK(*array.unit == Unit::s);
    CHECK(array.runs[1].value == Approx(0.6));
    const Measurements speedups =
        parse("{\"runs\": [{\"n\": 2, \"speedup\": 1.9}, {\"N\": 4, \"speedup\": \"3.5x\"}]}");
    CHECK(speedups.quantity == MeasuredQuantity::speedup);
    CHECK(speedups.runs[1].value == Approx(3.5));
}

TEST_CASE("measurements: overhead rows", "[measurements]") {
    const std::vector<MeasuredQuantity> overhead{MeasuredQuantity::overhead};
    const Overhead o = measured_overhead(parse("n,overhead\n8,0.04\n2,1%\n", overhead));
    REQUIRE(o.points.size() == 3);
    CHECK(o.points[0] == std::pair<long long, double>{1, 0.0});
    CHECK(o.points[1].second == Approx(0.01));
    CHECK(o.points[2].first == 8);
    CHECK_THROWS_WITH(measured_overhead(parse("n,overhead\n1,0.1\n2,0.2\n", overhead)),
                      Contains("runs.csv:2: the overhead at N = 1 must be 0"));
    CHECK_THROWS_WITH(parse("n,overhead\n2,-0.1\n", overhead),
                      Contains("runs.csv:2: overhead must be >= 0 (got '-0.1')"));
    CHECK_THROWS_WITH(parse("n,overhead\n2,3ms\n", overhead),
                      Contains("overhead must be a fraction of the one-processor time"));
}

TEST_CASE("measurements: errors name the file and line", "[measurements]") {
    CHECK_THROWS_WITH(parse(""), Contains("runs.csv: empty input: no runs"));
    CHECK_THROWS_WITH(parse("n,time\n"), Contains("runs.csv: no runs"));
    CHECK_THROWS_WITH(parse("gpus,note\n1,a\n"), Contains("runs.csv:1: no time column (time, time_ms, 'time (s)') or "
                                                          "speedup column in the header (found 'gpus', 'note')"));
    CHECK_THROWS_WITH(
        parse("run,time\n1,2\n"),
        Contains("runs.csv:1: no N column in the header (expected n, processors or gpus; found 'run', 'time')"));
    CHECK_THROWS_WITH(parse("n,time\n1,2,3\n"), Contains("runs.csv:2: row has 3 fields, the header has 2"));
    CHECK_THROWS_WITH(parse("n,time\n\"1,2\n"), Contains("runs.csv:2: unterminated quoted field"));
    CHECK_THROWS_WITH(parse("n,time\n0,2\n"), Contains("runs.csv:2: N must be at least 1 (got '0')"));
    CHECK_THROWS_WITH(parse("n,time\n1,2\n2.5,1\n"), Contains("runs.csv:3: N must be a whole number (got '2.5')"));
    CHECK_THROWS_WITH(parse("n,time\nfour,2\n"), Contains("runs.csv:2: N must be a whole number >= 1 (got 'four')"));
    CHECK_THROWS_WITH(parse("n,time\n1,0\n"), Contains("runs.csv:2: time must be > 0 (got '0')"));
    CHECK_THROWS_WITH(parse("n,time\n1,-3 ms\n"), Contains("runs.csv:2: time must be > 0 (got '-3 ms')"));
    CHECK_THROWS_WITH(parse("n,time\n1,fast\n"), Contains("runs.csv:2: time must be a number > 0"));
    CHECK_THROWS_WITH(parse("n,time\n1,\n"), Contains("runs.csv:2: time must be a number > 0"));
    CHECK_THROWS_WITH(parse("n,speedup\n2,0\n"), Contains("runs.csv:2: speedup must be > 0 (got '0')"));
    CHECK_THROWS_WITH(parse("n,speedup\n2,3 ms\n"), Contains("runs.csv:2: speedup must be a number > 0"));
    CHECK_THROWS_WITH(parse("n,time\n1,2\n4,1\n1,2.1\n"),
                      Contains("runs.csv:4: N = 1 appears twice (also at runs.csv:2)"));
    CHECK_THROWS_WITH(measured_speedups(parse("n,time\n2,2\n4,1\n")),
                      Contains("runs.csv: no run at N = 1: speedups from times need the one-processor time"));
}

TEST_CASE("measurements: JSON errors name the path", "[measurements]") {
    CHECK_THROWS_WITH(parse("{\"runs\": [{\"n\": 1, \"time\": 2},]}"), Contains("runs.csv:1:"));
    CHECK_THROWS_WITH(parse("{\"runs\": [{\"n\": 1, \"time\": 2},]}"), Contains("malformed JSON"));
    CHECK_THROWS_WITH(parse("{\"runs\": [{\"n\": 1, \"time\": 1e999}]}"), Contains("runs.csv: malformed JSON"));
    CHECK_THROWS_WITH(parse(std::string(100, '[')), Contains("runs.csv:1:65: JSON nested deeper than 64 levels"));
    CHECK_THROWS_WITH(parse("{\"data\": []}"), Contains("runs.csv: no \"runs\" in the JSON"));
    CHECK_THROWS_WITH(parse("{\"runs\": 3}"), Contains("runs.csv: runs: expected an array of runs"));
    CHECK_THROWS_WITH(parse("{\"runs\": [3]}"), Contains("runs.csv: runs[0]: a run must be an object"));
    CHECK_THROWS_WITH(parse("{\"runs\": [{\"time\": 3}]}"), Contains("runs.csv: runs[0]: run has no \"n\""));
    CHECK_THROWS_WITH(parse("[{\"n\": 3}]"), Contains("runs.csv: [0]: run has no \"time\" or \"speedup\""));
    CHECK_THROWS_WITH(parse("[{\"n\": 1, \"time\": 3}, {\"n\": 2, \"speedup\": 2}]"),
                      Contains("runs.csv: [1].speedup: this run gives a speedup but the first gives a time"));
    CHECK_THROWS_WITH(parse("[{\"n\": true, \"time\": 3}]"),
                      Contains("runs.csv: [0].n: expected a number or a string (got true)"));
    CHECK_THROWS_WITH(parse("{\"unit\": \"parsec\", \"runs\": []}"),
                      Contains("runs.csv: unit: unknown unit \"parsec\""));
    CHECK_THROWS_WITH(parse("{\"runs\": [{\"n\": 0, \"time\": 3}]}"),
                      Contains("runs.csv: runs[0]: N must be at least 1 (got '0')"));
    CHECK_THROWS_WITH(parse("{\"runs\": []}"), Contains("runs.csv: no runs"));
}

TEST_CASE("measurements: load from a file, a .json file and stdin", "[measurements]") {
    std::istringstream none;
    const Measurements csv = load_measurements(test::source_path("examples/scaling_runs.csv"), none, times_or_speedups);
    CHECK(csv.runs.size() == 7);
    const Measurements json =
        load_measurements(test::source_path("examples/scaling_speedups.json"), none, times_or_speedups);
    CHECK(json.quantity == MeasuredQuantity::speedup);
    std::istringstream in("n,time\n1,4\n2,2.5\n");
    const Measurements piped = load_measurements("-", in, times_or_speedups);
    CHECK(piped.source == "<stdin>");
    CHECK(piped.runs[1].where == "<stdin>:3");
    CHECK_THROWS_WITH(load_measurements("/nonexistent/runs.csv", none, times_or_speedups),
                      Contains("/nonexistent/runs.csv: no such file"));
}
