// The hostile tester's findings, each a wrong answer once given with exit 0: fit reading time
// stamps as run times, a compare gate below --noise, a -n range dropping its end, a shares-only
// table's Total row, --version after a command and options given twice, and law near its ceiling.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/measurements.hpp"
#include "amdahl/scaling.hpp"
#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using Catch::Matchers::Contains;

std::string temp(const std::string& name, const std::string& content) {
    return amdahl::test::write_temp("hostile_fixes_" + name, content);
}

RunResult fit(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), "fit");
    return run_cli(args, input);
}

// Exit 2, nothing on stdout, exactly `message` on stderr.
void check_input_error(const RunResult& r, const std::string& message) {
    INFO("stdout: " << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
}

std::string last_line(const std::string& text) {
    const auto end = text.find_last_not_of('\n');
    const auto start = text.rfind('\n', end);
    const std::size_t from = start == std::string::npos ? 0 : start + 1;
    return text.substr(from, end + 1 - from);
}

struct Sides {
    std::string before = temp("before.json", R"({"unit":"ms","phases":{"a":50,"b":50}})");
    std::string after = temp("after.json", R"({"unit":"ms","phases":{"a":52,"b":49.5}})");
};

}  // namespace

TEST_CASE("fit: a timestamp, start or end column alone is not a run time", "[fit][stamps]") {
    const auto stamp = temp("timestamp.csv", "n,timestamp\n1,100\n2,155\n4,187\n");
    check_input_error(fit({stamp}),
                      "error: " + stamp +
                          ":1: column 'timestamp' holds start times, not durations, and there is no duration "
                          "or end column\n");
    const auto end = temp("end.csv", "n,end_ms\n1,100\n2,155\n4,187\n");
    check_input_error(fit({end}), "error: " + end +
                                      ":1: column 'end_ms' holds end times, not durations, and there is no duration or "
                                      "start column\n");
    const auto start = temp("start.json", R"({"runs": [{"n": 1, "start_ms": 0}, {"n": 2, "start_ms": 100}]})");
    check_input_error(fit({start}),
                      "error: " + start +
                          ": runs[0].start_ms: \"start_ms\" holds a start time, not a duration, and the run "
                          "has no duration or end\n");
}

TEST_CASE("fit: start and end columns give the run time end - start", "[fit][stamps]") {
    const std::string note =
        "note: " + std::string("<stdin>") + ":1: the run time is column 'end_ms' minus column 'start_ms'\n";
    const RunResult r = fit({"-", "--format", "csv"}, "n,start_ms,end_ms\n1,0,100\n2,100,155\n4,155,187\n");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Catch::Matchers::StartsWith(note));
    // 100, 55 and 32 ms: speedups 1, 100/55 and 100/32.
    CHECK_THAT(r.out, Catch::Matchers::StartsWith("n,run,time_ms,speedup,karp_flatt_e,model_speedup,residual\n"
                                                  "1,measured,100,1,,"));
    CHECK_THAT(r.out, Contains("\n2,measured,55,1.8181818181818181,"));
    CHECK_THAT(r.out, Contains("\n4,measured,32,3.125,"));
}

TEST_CASE("measurements: end - start converts units and refuses an end not after its start", "[measurements][stamps]") {
    using namespace amdahl;
    const std::vector<MeasuredQuantity> times{MeasuredQuantity::time};
    // The start in s, the end in ms: the run time in the start's unit.
    const Measurements mixed = parse_measurements("n,start (s),end (ms)\n1,1,3000\n2,10,11000\n", "runs.csv", times);
    REQUIRE(mixed.unit);
    CHECK(*mixed.unit == Unit::s);
    REQUIRE(mixed.runs.size() == 2);
    CHECK(mixed.runs[0].value == Approx(2));
    CHECK(mixed.runs[1].value == Approx(1));
    REQUIRE(mixed.notes.size() == 1);
    CHECK(mixed.notes[0] == "runs.csv:1: the run time is column 'end (ms)' minus column 'start (s)'");
    // A duration column wins over time stamps, and the note says so.
    const Measurements both = parse_measurements("n,timestamp,time_ms\n1,5,100\n2,7,60\n", "runs.csv", times);
    CHECK(both.runs[1].value == Approx(60));
    REQUIRE(both.notes.size() == 1);
    CHECK(both.notes[0] ==
          "runs.csv:1: column 'timestamp' holds start times, not durations; the run time is column "
          "'time_ms'");
    // JSON runs with start and end keys.
    const Measurements json = parse_measurements(R"({"unit": "ms", "runs": [{"n": 1, "start": 0, "end": 90},)"
                                                 R"( {"n": 3, "start": "1 s", "end": "1040 ms"}]})",
                                                 "runs.json", times);
    REQUIRE(json.runs.size() == 2);
    CHECK(json.runs[0].value == Approx(90));
    CHECK(json.runs[1].value == Approx(40));
    CHECK_THROWS_WITH(parse_measurements("n,start,end\n1,0,100\n2,100,100\n", "runs.csv", times),
                      "runs.csv:3: the run time end - start must be > 0 (end '100', start '100')");
    CHECK_THROWS_WITH(parse_measurements("n,start,end\n1,0,100\n2,soon,100\n", "runs.csv", times),
                      "runs.csv:3: start must be a time stamp: a number with an optional unit, such as 532.4 or "
                      "532.4 ms (got 'soon')");
}

TEST_CASE("compare: a slowdown gate below --noise is an error naming both", "[compare][noise]") {
    const Sides sides;
    check_input_error(
        run_cli({"compare", sides.before, sides.after, "--fail-if-slower", "1%", "--noise", "5%"}),
        "error: --fail-if-slower: 1% is below --noise 5%: a change within the noise never fails a gate, so "
        "this gate could fail only above 5%; give a threshold of at least 5%, or a smaller --noise\n");
    check_input_error(
        run_cli({"compare", sides.before, sides.after, "--fail-if-phase-slower", "a=3%", "--noise", "5%"}),
        "error: --fail-if-phase-slower: a=3% is below --noise 5%: a change within the noise never fails a "
        "gate, so this gate could fail only above 5%; give a threshold of at least 5%, or a smaller --noise\n");
}

TEST_CASE("compare: a slowdown gate at or above --noise still fails", "[compare][noise]") {
    const Sides sides;
    // a: +4% of phase, the total +1.5%: both over their gates and over the 1% noise.
    const RunResult total = run_cli({"compare", sides.before, sides.after, "--fail-if-slower", "1%", "--noise", "1%"});
    CHECK(total.exit_code == 1);
    const RunResult phase =
        run_cli({"compare", sides.before, sides.after, "--fail-if-phase-slower", "a=3%", "--noise", "3%"});
    CHECK(phase.exit_code == 1);
    CHECK_THAT(phase.err,
               Contains("gate failed: --fail-if-phase-slower a=3%: a +4.0% of phase (50.0 → 52.0 ms): more than 3%\n"));
}

TEST_CASE("N lists: a range's end is a count even when its steps miss it", "[scaling][nlist]") {
    using V = std::vector<long long>;
    CHECK(amdahl::parse_processor_counts("1..1000") == V{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000});
    CHECK(amdahl::parse_processor_counts("2:10:4") == V{2, 6, 10});
    CHECK(amdahl::parse_processor_counts("2:11:4") == V{2, 6, 10, 11});
}

TEST_CASE("scale: -n 1..1000 has a row at N = 1000 and searches for the best N up to it", "[scale][nlist]") {
    const auto csv = amdahl::test::run_cli({"scale", "-p", "0.9", "-n", "1..1000", "--format", "csv"});
    REQUIRE(csv.exit_code == 0);
    // S = 1 / (0.1 + 0.9 / 1000)
    CHECK_THAT(last_line(csv.out), Catch::Matchers::StartsWith("1000,9.910802775024779,"));
    const auto text = amdahl::test::run_cli({"scale", "-p", "0.9", "-n", "1..1000"});
    CHECK_THAT(text.out, Contains("\n1000  9.9108x"));
}

TEST_CASE("shares-only table: a Total row with a time is the total", "[table][shares]") {
    const std::string csv = "name,share\na,25%\nb,75%\nTotal,200 ms\n";
    const amdahl::Profile profile = amdahl::parse_profile(csv, "shares.csv", amdahl::InputFormat::csv);
    REQUIRE(profile.phases.size() == 2);
    CHECK(profile.unit == amdahl::Unit::ms);
    CHECK(profile.phases[0].time == Approx(50));
    CHECK(profile.phases[1].time == Approx(150));
    CHECK(profile.total() == Approx(200));

    const std::string path = temp("share_total_row.csv", csv);
    const auto r = run_cli({"eval", path, "-s", "a=2", "--format", "csv"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // 50 ms at 2x: 200 -> 175 ms, 200 / 175 = 1.142857...
    const auto json = run_cli({"eval", path, "-s", "a=2", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    CHECK_THAT(json.out, Contains("\"baseline_time\": 200,"));
    CHECK_THAT(json.out, Contains("\"new_time\": 175,"));
    CHECK_THAT(json.out, Contains("\"speedup\": 1.1428571428571428,"));
    // The same as --total on the table without the row.
    const std::string bare = temp("share_total_bare.csv", "name,share\na,25%\nb,75%\n");
    const auto given = run_cli({"eval", bare, "-s", "a=2", "--total", "200ms", "--format", "json"});
    CHECK_THAT(given.out, Contains("\"speedup\": 1.1428571428571428,"));
}

TEST_CASE("cli: --version after a command prints the version", "[cli][version]") {
    const auto top = run_cli({"--version"});
    for (const char* command : {"eval", "law", "queue", "compare"}) {
        INFO(command);
        const auto r = run_cli({command, "--version"});
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
        CHECK(r.out == top.out);
    }
    // After `--` it is an argument, not the flag.
    const auto literal = run_cli({"eval", "--", "--version"});
    CHECK(literal.exit_code == 2);
    CHECK(literal.err == "error: --version: no such file\n");
}

TEST_CASE("cli: an option given twice that takes one value names itself", "[cli][errors]") {
    const std::string usage = "\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n";
    const auto rate = run_cli({"queue", "--service", "50ms", "--rate", "16/s", "--rate", "20/s", "-s", "1.43"});
    CHECK(rate.exit_code == 2);
    CHECK(rate.out.empty());
    CHECK(rate.err == "error: --rate was given twice; give it once" + usage);
    const auto thrice = run_cli({"law", "-f", "0.5", "-k", "2", "--time", "1s", "--time", "2s", "--time", "3s"});
    CHECK(thrice.exit_code == 2);
    CHECK(thrice.err == "error: --time was given 3 times; give it once" + usage);
}

TEST_CASE("law: a target within 1e-9 of the ceiling says k grows without bound there", "[law][cli]") {
    const auto r = run_cli({"law", "-f", "0.6", "--target", "2.4999999999"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nnear the ceiling: the target 2.4999999999x is within 1e-9 of the ceiling 2.5000x = "
                               "1 / (1 - 0.6), where k grows without bound: the solved k is exact arithmetic, but a "
                               "change in the target's last digits changes it by orders of magnitude\n"));
    const auto json = run_cli({"law", "-f", "0.6", "--target", "2.4999999999", "--format", "json"});
    CHECK_THAT(json.out, Contains("\"note\": \"the target 2.4999999999x is within 1e-9 of the ceiling"));
    // Far enough from it: no note.
    const auto far = run_cli({"law", "-f", "0.6", "--target", "2.49"});
    CHECK_THAT(far.out, !Contains("near the ceiling"));
}

TEST_CASE("law: with --time the part's time is printed, solved or given", "[law][cli]") {
    // k = 4, S = 2: f = (1 - 1/S) / (1 - 1/k) = 2/3 of 100 ms.
    const auto r = run_cli({"law", "-k", "4", "--target", "2", "--time", "100ms"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out ==
          "fraction f: 66.7% (solved) (66.6667 of 100.0 ms)\n"
          "factor k:   4x\n"
          "target S:   2.0000x\n"
          "ceiling:    3.0000x (1 / (1 - f))\n"
          "old time:   100.0 ms\n"
          "new time:   50.0 ms\n"
          "time saved: 50.0 ms (50.0% of the time)\n");
    const auto json = run_cli({"law", "-k", "4", "--target", "2", "--time", "100ms", "--format", "json"});
    CHECK_THAT(json.out, Contains("\"part_time\": 66.66666666666666,"));
}

TEST_CASE("plan: an unreachable target with no ceiling says nothing caps it", "[plan]") {
    const std::string profile = temp("plan_no_ceiling.json", R"({"unit": "ms", "phases": {"a": 60, "b": 40}})");
    const auto r = run_cli({"plan", profile, "--target", "11", "-k", "10"});
    INFO(r.out << r.err);
    CHECK_THAT(r.out, Contains("why: with every candidate at its factor the run reaches only 10.0000x; 11.0000x needs "
                               "larger factors (the candidates are the whole run, so no ceiling caps it: every speedup "
                               "is reachable with factors large enough).\n"));
    CHECK_THAT(r.out, !Contains("outside the candidates cap it"));
}

TEST_CASE("trace: the boundary's wall time is written as every other time", "[import][trace]") {
    // Two kernels 8,999,999 s apart: once "8.9999991e+12"-style, now grouped with one decimal.
    const std::string trace = temp("far_apart.json", R"({"traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "first", "pid": 0, "tid": 7, "ts": 0, "dur": 100},
      {"ph": "X", "cat": "kernel", "name": "last", "pid": 0, "tid": 7, "ts": 8999999000, "dur": 100}
    ]})");
    const auto r = run_cli({"eval", trace});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("boundary:          wall time from the first to the last event on the lane: "
                               "8,999,999,100.0 us\n"));
    CHECK_THAT(r.err, Contains("; boundary: wall time from the first to the last event on the lane: "
                               "8,999,999,100.0 us\n"));
}

TEST_CASE("trace: a bad \"tdur\" is an input error named as \"tdur\", exit code 2", "[import][trace][cli]") {
    // The event has no "dur": its thread time is its duration, so a bad one is named for what it is.
    const std::string trace = temp("bad_tdur.json", R"([{"ph":"X","name":"a","ts":0,"tdur":-5,"pid":1,"tid":1}])");
    const auto r = run_cli({"eval", trace});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains("bad_tdur.json:1:"));
    CHECK_THAT(r.err, Contains("event 'a': \"tdur\" must be a number >= 0 (got '-5')"));
    CHECK_THAT(r.err, !Contains("\"dur\" must"));
}

TEST_CASE("rename: merging phases of different kinds says the merged phase has no kind", "[rename][cli]") {
    const std::string profile = temp("kinds.json", R"({"unit": "ms", "phases": [
        {"name": "a", "kind": "kernel", "time": 6}, {"name": "b", "kind": "memcpy", "time": 2},
        {"name": "c", "kind": "kernel", "time": 2}]})");
    const RunResult r = run_cli({"eval", profile, "--rename", "a=x", "--rename", "b=x", "-s", "kind:kernel=2"});
    CHECK(r.exit_code == 0);
    CHECK(r.err ==
          "note: --rename: 'a' (kind kernel) and 'b' (kind memcpy) are one phase 'x' now, which has no kind: kind: "
          "selectors do not pick it\n");
    CHECK_THAT(r.out, Contains("1.1111x"));  // only c (2 of 10 ms) is a kernel now: 10 / 9
    // The same kinds merge without a word, and keep their kind.
    const RunResult same = run_cli({"eval", profile, "--rename", "a=x", "--rename", "c=x", "-s", "kind:kernel=2"});
    CHECK(same.exit_code == 0);
    CHECK(same.err.empty());
    CHECK_THAT(same.out, Contains("1.6667x"));
}

TEST_CASE("compare: renamed_from that fuses two BEFORE phases says how to compare their sum", "[compare][rename]") {
    const std::string before = temp("fuse_before.json", R"({"unit": "ms", "phases": [
        {"name": "qk", "time": 4}, {"name": "softmax", "time": 3}, {"name": "rest", "time": 3}]})");
    const std::string after = temp("fuse_after.json", R"({"unit": "ms", "phases": [
        {"name": "flash", "time": 2, "renamed_from": ["qk", "softmax"]}, {"name": "rest", "time": 3}]})");
    check_input_error(run_cli({"compare", before, after}),
                      "error: renamed_from: 'qk' and 'softmax' of BEFORE are both renamed to 'flash': compare matches "
                      "one phase with one; to compare their sum, merge them in BEFORE first (amdahl import BEFORE "
                      "--rename 'qk=flash' --rename 'softmax=flash' -o FILE)\n");
    // Which is what the message says to do: merged, the two compare as one.
    const std::string merged = temp("fuse_merged.json", "");
    REQUIRE(run_cli({"import", before, "--rename", "qk=flash", "--rename", "softmax=flash", "-o", merged}).exit_code ==
            0);
    const RunResult r = run_cli({"compare", merged, after});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("2.0000x"));  // 10 ms before, 5 ms after
}

TEST_CASE("table: amdahl rank's own CSV read back is a ranking, not ranks of a job", "[table][rank]") {
    const RunResult ranking =
        run_cli({"rank", amdahl::test::source_path("examples/transformer_step.json"), "-k", "2", "--format", "csv"});
    REQUIRE(ranking.exit_code == 0);
    const std::string path = temp("ranking.csv", ranking.out);
    check_input_error(run_cli({"eval", path, "-s", "gemm_qkv=2"}),
                      "error: " + path +
                          ":1: this is a ranking (columns 'rank' and speedup or ceiling), such as amdahl rank --format "
                          "csv writes, not a profile: give rank the profile it ranked\n");
    // A rank column beside times alone is still the ranks of a job.
    const std::string ranks = temp("ranks.csv", "rank,phase,time_ms\n0,a,1\n1,a,2\n");
    const RunResult r = run_cli({"eval", ranks, "-s", "a=2"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("gives each row's rank"));
}

TEST_CASE("messages: calls too large, a number beyond a double, a spread in percent", "[errors][json][table]") {
    const std::string json_calls =
        temp("calls.json", "{\"unit\": \"ms\", \"phases\": [\n {\"name\": \"a\", \"time\": 1, \"calls\": 1e20}]}");
    check_input_error(run_cli({"eval", json_calls, "-s", "a=2"}),
                      "error: " + json_calls + ": phases[0].calls: calls must be at most 9e15 (got 1e+20)\n");
    const std::string csv_calls = temp("calls.csv", "name,time,calls\na,1,1e20\n");
    check_input_error(run_cli({"eval", csv_calls, "-s", "a=2"}),
                      "error: " + csv_calls + ":2: phase 'a': calls must be at most 9e15 (got '1e20')\n");
    // Where the number is: line and column.
    const std::string huge =
        temp("huge.json", "{\"unit\": \"ms\", \"phases\": [\n {\"name\": \"a\", \"time\": 1e999}]}");
    check_input_error(run_cli({"eval", huge, "-s", "a=2"}),
                      "error: " + huge + ":2:28: number too large for a double: '1e999'\n");
    // "± 5%" is a relative spread: the message says what the time would be.
    const std::string spread =
        temp("spread.json", R"({"unit": "ms", "phases": [{"name": "a", "time": "21 ms ± 5%"}]})");
    check_input_error(run_cli({"eval", spread, "-s", "a=2"}),
                      "error: " + spread +
                          ": phases[0].time: time '21 ms ± 5%': the spread is a percentage; give the standard "
                          "deviation as a time, such as \"21 ms ± 1.05\"\n");
}

TEST_CASE("messages: a spread or active time in percent is no share, and calls above 9e15 as integers",
          "[errors][json]") {
    const std::string sd = temp("sd_percent.json", R"({"phases": [{"name": "a", "time": 21, "time_sd": "5%"}]})");
    const RunResult r = run_cli({"eval", sd, "-s", "a=2"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("time_sd is a percentage ('5%'); give it as a time, in the time's unit"));
    const std::string time = temp("time_percent.json", R"({"phases": [{"name": "a", "time": "21%"}]})");
    CHECK_THAT(run_cli({"eval", time, "-s", "a=2"}).err, Contains("time is a percentage ('21%'); give it as a share"));
    const std::string calls =
        temp("calls_integer.json", R"({"phases": [{"name": "a", "time": 1, "calls": 9007199254740993}]})");
    check_input_error(run_cli({"eval", calls, "-s", "a=2"}),
                      "error: " + calls + ": phases[0].calls: calls must be at most 9e15 (got 9007199254740993)\n");
}
