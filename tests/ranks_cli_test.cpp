// eval --ranks and rank --ranks through the command line: the README's example ranks
// (examples/ranks/rank0..3.csv), every output format, globs, and the errors (exit 2).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinRel;

std::string example_ranks() { return source_path("examples/ranks") + "/rank*.csv"; }

// Exit 2, nothing on stdout, exactly `message` on stderr.
void check_input_error(const std::vector<std::string>& args, const std::string& message) {
    const RunResult r = run_cli(args);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
}

}  // namespace

TEST_CASE("ranks cli: eval --ranks speeds attention up on rank3 alone", "[ranks][cli]") {
    const RunResult r = run_cli({"eval", "--ranks", example_ranks(), "-s", "@rank3:attention=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["model"] == "barriers");
    CHECK(json["segments_from"] == "segment_field");
    CHECK_THAT(json["baseline_time"].get<double>(), WithinRel(40.0, 1e-12));
    CHECK_THAT(json["new_time"].get<double>(), WithinRel(37.0, 1e-12));
    CHECK_THAT(json["speedup"].get<double>(), WithinRel(40.0 / 37.0, 1e-12));
    CHECK(json["segments"][1]["segment"] == "attention");
    CHECK(json["segments"][1]["critical_before"] == nlohmann::json::array({"rank3"}));
    CHECK(json["segments"][1]["critical_after"] == nlohmann::json::array({"rank0", "rank2"}));
    CHECK(json["segments"][3]["critical_before"].size() == 4);
    CHECK(json["ranks"].size() == 4);
    CHECK(json["ranks"][1]["rank"] == "rank1");
    // rank1 waits 1 ms in forward, 4 in attention, 1 in backward.
    CHECK_THAT(json["ranks"][1]["slack_before"].get<double>(), WithinRel(6.0, 1e-12));
    CHECK_THAT(json["speedups"][0]["busy_time_saved"].get<double>(), WithinRel(4.5, 1e-12));
    CHECK_THAT(json["speedups"][0]["step_time_saved"].get<double>(), WithinRel(3.0, 1e-12));
    CHECK(json["speedups"][0]["rank"] == "rank3");
    CHECK(r.err == "note: segments from the phases' \"segment\" fields: 4 segments on 4 ranks\n");
}

TEST_CASE("ranks cli: a speedup on a waiting rank gains nothing, and says so", "[ranks][cli]") {
    const RunResult r = run_cli({"eval", "--ranks", example_ranks(), "-s", "@rank1:attention=2"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("speedup:              1.0000x"));
    CHECK(r.err ==
          "note: segments from the phases' \"segment\" fields: 4 segments on 4 ranks\n"
          "note: '@rank1:attention=2': attention on rank1 was sped up 2x but rank1 was not critical in any segment it "
          "touches: no gain (2.5 ms of busy time saved becomes waiting at the barriers)\n");
}

TEST_CASE("ranks cli: every format carries the segments, the ranks and the assumptions", "[ranks][cli]") {
    const std::vector<std::string> base = {"eval", "--ranks", example_ranks(), "-s", "@rank3:attention=2"};
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> args = base;
        args.insert(args.end(), more.begin(), more.end());
        return run_cli(args);
    };
    const RunResult csv = with({"--format", "csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK_THAT(csv.out, Contains("row,name,time_before_ms,time_after_ms,critical_before,critical_after,busy_before_ms,"
                                 "busy_after_ms,slack_before_ms,slack_after_ms\n"));
    CHECK_THAT(csv.out, Contains("segment,attention,9,6,rank3,rank0;rank2,,,,\n"));
    CHECK_THAT(csv.out, Contains("rank,rank3,,,,,39,34.5,1,2.5\n"));
    const RunResult md = with({"--format", "md", "--explain"});
    REQUIRE(md.exit_code == 0);
    CHECK_THAT(md.out, Contains("a barrier ends every segment"));
    CHECK_THAT(md.out, Contains("step  = Σ_s max_r t(s, r)  = 15.0 + 9.0 + 13.0 + 3.0 = 40.0 ms"));
    const RunResult text = with({});
    CHECK_THAT(text.out, Contains("  rank3              39.0        34.5           1.0          2.5\n"));
    const RunResult gate = with({"--require-speedup", "1.1"});
    CHECK(gate.exit_code == 1);
    CHECK_THAT(gate.err, Contains("gate failed: step speedup 1.0811x is below the required 1.1000x\n"));
}

TEST_CASE("ranks cli: rank --ranks lists the stragglers by the step time they hold", "[ranks][cli]") {
    const RunResult r = run_cli({"rank", "--ranks", example_ranks(), "--format", "json", "--top", "3"});
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK_THAT(json["step_time"].get<double>(), WithinRel(40.0, 1e-12));
    REQUIRE(json["stragglers"].size() == 3);
    CHECK(json["stragglers"][0]["segment"] == "attention");
    CHECK(json["stragglers"][0]["critical"] == nlohmann::json::array({"rank3"}));
    CHECK(json["stragglers"][0]["next_slowest"] == "rank0");
    CHECK_THAT(json["stragglers"][0]["held"].get<double>(), WithinRel(3.0, 1e-12));
    CHECK(json["stragglers"][1]["segment"] == "forward");
    CHECK(json["stragglers"][2]["segment"] == "backward");
}

TEST_CASE("ranks cli: a CSV without segments, and the input errors", "[ranks][cli]") {
    TempDir dir;
    const std::string a = dir / "a.csv", b = dir / "b.csv";
    {
        std::ofstream(a) << "name,time (ms)\nx,2\ny,3\n";
        std::ofstream(b) << "name,time (ms)\ny,1\nx,4\n";
    }
    check_input_error(
        {"eval", "--ranks", a, "--ranks", b, "-s", "x=2"},
        "error: --ranks: ranks order segments differently: " + b + " runs 'y' before 'x', " + a + " runs 'x' first\n");
    check_input_error({"eval", "--ranks", dir / "rank*.csv", "-s", "x=2"},
                      "error: --ranks: no file matches '" + dir / "rank*.csv" + "'\n");
    check_input_error({"eval", "--ranks", dir / "a*.csv", "-s", "@rank9:x=2"},
                      "note: no phase names a segment: every phase is its own barrier segment, matched by name across "
                      "the ranks (1 rank)\n"
                      "error: speedup '@rank9:x=2': no rank is named 'rank9' (the ranks: 'a')\n");
    check_input_error({"eval", "--ranks", a, "--model", "replay"}, "error: --model: does not apply to --ranks\n");
    check_input_error({"rank", "--ranks", a, "--by", "ceiling"}, "error: --by: does not apply to --ranks\n");
    check_input_error({"eval", "-s", "x=2"},
                      "error: PROFILE is required\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n");
    check_input_error({"eval", "--ranks", a, "--mix", b + "=1", "-s", "x=2"},
                      "error: --mix: does not apply to --ranks\n");
    check_input_error({"eval", "--ranks", a, "-s", "x=2", "--fleet", "100"},
                      "error: --fleet: does not apply to --ranks\n");
    check_input_error({"rank", "--ranks", a, "--fleet", "100"}, "error: --fleet: does not apply to --ranks\n");
    // A bare --total was read in each rank's own unit (ms on one, us on another): refused.
    check_input_error({"eval", "--ranks", a, "-s", "x=2", "--total", "40"},
                      "error: --total: does not apply to --ranks\n");
    check_input_error({"rank", "--ranks", a, "--total", "40ms"}, "error: --total: does not apply to --ranks\n");
}

TEST_CASE("ranks cli: a phase name with a colon is a selector, not a rank", "[ranks][cli]") {
    TempDir dir;
    std::ofstream(dir / "r0.json") << R"({"unit": "ms", "phases": [{"name": "kind:x", "time": 4, "kind": "kernel"}]})";
    std::ofstream(dir / "r1.json") << R"({"unit": "ms", "phases": [{"name": "kind:x", "time": 2, "kind": "kernel"}]})";
    const RunResult kind = run_cli({"eval", "--ranks", dir / "r*.json", "-s", "kind:kernel=2", "--format", "json"});
    REQUIRE(kind.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(kind.out)["new_time"].get<double>(), WithinRel(2.0, 1e-12));
    const RunResult named =
        run_cli({"eval", "--ranks", dir / "r*.json", "-s", "@r0:name:kind:x=4", "--format", "json"});
    REQUIRE(named.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(named.out)["new_time"].get<double>(), WithinRel(2.0, 1e-12));
}

TEST_CASE("ranks cli: a glob the shell expanded is every rank, and PROFILE beside --ranks is refused", "[ranks][cli]") {
    const std::string dir = source_path("examples/ranks");
    // `--ranks rank*.csv` unquoted reaches amdahl as four paths: the same four ranks as the quoted glob.
    const RunResult expanded = run_cli({"eval", "--ranks", dir + "/rank0.csv", dir + "/rank1.csv", dir + "/rank2.csv",
                                        dir + "/rank3.csv", "-s", "@rank3:attention=2", "--format", "json"});
    REQUIRE(expanded.exit_code == 0);
    const auto json = nlohmann::json::parse(expanded.out);
    CHECK(json["ranks"].size() == 4);
    CHECK_THAT(json["new_time"].get<double>(), WithinRel(37.0, 1e-12));
    check_input_error({"eval", dir + "/rank0.csv", "--ranks", dir + "/rank1.csv", "-s", "attention=2"},
                      "error: --ranks: reads every rank's profile, so PROFILE ('" + dir +
                          "/rank0.csv') cannot be given beside it; list it after --ranks if it is a rank\n");
    // A bad factor behind a rank prefix names the whole argument, prefix included.
    check_input_error({"eval", "--ranks", example_ranks(), "-s", "@rank3:attention=0"},
                      "note: segments from the phases' \"segment\" fields: 4 segments on 4 ranks\n"
                      "error: --speedup: speedup '@rank3:attention=0': bad factor '0': a speedup factor must be > 0 "
                      "(0.5 is a 2x slowdown)\n");
}

TEST_CASE("ranks cli: a note every rank gives is printed once, with the count of the others", "[ranks][cli]") {
    TempDir dir;
    for (int r = 0; r < 3; ++r)
        std::ofstream(dir / ("r" + std::to_string(r) + ".csv"))
            << "name,time (ms)\na," << r + 1 << "\nb,2\nall," << r + 3 << "\n";
    const RunResult r = run_cli({"eval", "--ranks", dir / "r*.csv", "-s", "a=2"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err == "note: " + dir / "r0.csv" +
                       ":4: row 'all' is read as the total: its time is the sum of the rows before it (name it "
                       "'Total' to say so; if it is a phase, add a row 'Total' after it) (the same in 2 more ranks)\n"
                       "note: no phase names a segment: every phase is its own barrier segment, matched by name "
                       "across the ranks (3 ranks)\n");
    // The report's JSON has them too, as printed, before the segments' note.
    const RunResult json = run_cli({"eval", "--ranks", dir / "r*.csv", "-s", "a=2", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto notes = nlohmann::json::parse(json.out)["notes"];
    REQUIRE(notes.size() == 2);
    CHECK(notes[0] == dir / "r0.csv" +
                          ":4: row 'all' is read as the total: its time is the sum of the rows before it (name it "
                          "'Total' to say so; if it is a phase, add a row 'Total' after it) (the same in 2 more "
                          "ranks)");
    CHECK(notes[1] ==
          "no phase names a segment: every phase is its own barrier segment, matched by name across the "
          "ranks (3 ranks)");
    // A rank that fails to load: the notes so far, then its error.
    std::ofstream(dir / "r3.csv") << "name,time (ms)\na,x\n";
    check_input_error(
        {"eval", "--ranks", dir / "r*.csv", "-s", "a=2"},
        "note: " + dir / "r0.csv" +
            ":4: row 'all' is read as the total: its time is the sum of the rows before it (name it "
            "'Total' to say so; if it is a phase, add a row 'Total' after it) (the same in 2 more ranks)\n"
            "error: " +
            dir / "r3.csv" +
            ":2: phase 'a': time must be a finite number >= 0 with an optional unit (got 'x': not a "
            "number)\n");
}

TEST_CASE("ranks cli: a row read as one rank's total by its time alone may not be another rank's phase",
          "[ranks][cli][silent]") {
    // On r0, 'all' (3) is the sum of a and b, so it is r0's total; on r1 (7 against 4) it is a phase:
    // read so, segment 'all' would count r1's 7 ms and r0's nothing.
    TempDir dir;
    std::ofstream(dir / "r0.csv") << "name,time (ms)\na,1\nb,2\nall,3\n";
    std::ofstream(dir / "r1.csv") << "name,time (ms)\na,2\nb,2\nall,7\n";
    const RunResult r = run_cli({"eval", "--ranks", dir / "r*.csv", "-s", "a=2"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Matchers::EndsWith(
                          "error: --ranks: row 'all' is read as r0's total (its time is the sum of the rows before it) "
                          "but is a phase of r1: name the total 'Total' on every rank, or, if it is a phase, add a "
                          "row 'Total' after it\n"));
    // The same in one table with a rank column.
    std::ofstream(dir / "all.csv") << "rank,name,time_ms\n0,a,1\n0,b,2\n0,all,3\n1,a,2\n1,b,2\n1,all,7\n";
    const RunResult table = run_cli({"eval", "--ranks", dir / "all.csv", "-s", "a=2"});
    CHECK(table.exit_code == 2);
    CHECK_THAT(table.err, Catch::Matchers::EndsWith("error: --ranks: row 'all' is read as rank0's total (its time is "
                                                    "the sum of the rows before it) but is a phase of rank1: name the "
                                                    "total 'Total' on every rank, or, if it is a phase, add a row "
                                                    "'Total' after it\n"));
    // A rank file beside a table that has the same rank: both named, each with where its name is from.
    std::ofstream(dir / "rank0.csv") << "name,time (ms)\na,1\nb,2\n";
    const RunResult clash = run_cli({"eval", "--ranks", dir / "rank0.csv", dir / "all.csv", "-s", "a=2"});
    CHECK(clash.exit_code == 2);
    CHECK(clash.out.empty());
    CHECK_THAT(clash.err, Catch::Matchers::EndsWith("error: --ranks: two ranks are named 'rank0' (" +
                                                    dir / "rank0.csv" + ", by its file name, and " + dir / "all.csv" +
                                                    ", by its 'rank' column): give each rank once\n"));
    // Named 'Total', it is the total everywhere.
    std::ofstream(dir / "r1.csv") << "name,time (ms)\na,2\nb,2\nTotal,7\n";
    std::ofstream(dir / "r0.csv") << "name,time (ms)\na,1\nb,2\nTotal,3\n";
    CHECK(run_cli({"eval", "--ranks", dir / "r*.csv", "-s", "a=2"}).exit_code == 0);
}

TEST_CASE("ranks cli: a table with a rank column is never read as one profile", "[ranks][cli]") {
    // Read as one profile, phase a would be 3 + 4 = 7 ms: the ranks' times summed, where the step
    // waits for the slowest rank (4 ms). That silent wrong answer is an error that points to --ranks.
    const std::string steps =
        amdahl::test::write_temp("steps.csv", "rank,segment,name,time_ms\n0,fwd,a,3\n1,fwd,a,4\n");
    const std::string message = "error: " + steps +
                                ":1: column 'rank' gives each row's rank: read as one profile, the ranks' times "
                                "would add up; give the file to --ranks (eval --ranks FILE), which reads each rank's "
                                "rows as its profile\n";
    check_input_error({"eval", steps, "-s", "a=2"}, message);
    check_input_error({"rank", steps}, message);
    // Whatever its case, and in a tab-separated table too.
    const std::string tsv = amdahl::test::write_temp("steps.tsv", "name\tRank\ttime_ms\na\t0\t3\na\t1\t4\n");
    check_input_error({"eval", tsv, "-s", "a=2"},
                      "error: " + tsv +
                          ":1: column 'Rank' gives each row's rank: read as one profile, the ranks' times would add "
                          "up; give the file to --ranks (eval --ranks FILE), which reads each rank's rows as its "
                          "profile\n");
}

TEST_CASE("ranks cli: --ranks FILE with a rank column reads each rank's rows as its profile", "[ranks][cli]") {
    // The same ranks as examples/ranks/rank*.csv, in one file (rows of ranks interleaved): the same
    // report, the ranks named as those files are.
    std::string all = "rank,name,segment,time (ms)\n";
    std::vector<std::string> files;
    for (int r = 0; r < 4; ++r) files.push_back(source_path("examples/ranks/rank" + std::to_string(r) + ".csv"));
    std::vector<std::vector<std::string>> rows;
    for (const std::string& file : files) {
        std::istringstream lines(amdahl::test::read_file(file));
        std::string line;
        std::getline(lines, line);  // the header
        rows.emplace_back();
        while (std::getline(lines, line))
            if (!line.empty()) rows.back().push_back(line);
    }
    for (std::size_t i = 0; i < rows.front().size(); ++i)
        for (std::size_t r = 0; r < rows.size(); ++r) all += std::to_string(r) + "," + rows[r][i] + "\n";
    const std::string path = amdahl::test::write_temp("all_ranks.csv", all);
    const RunResult one = run_cli({"eval", "--ranks", path, "-s", "@rank3:attention=2"});
    const RunResult many =
        run_cli({"eval", "--ranks", source_path("examples/ranks/rank*.csv"), "-s", "@rank3:attention=2"});
    REQUIRE(many.exit_code == 0);
    CHECK(one.exit_code == 0);
    CHECK(one.out == many.out);
    CHECK_THAT(one.err,
               StartsWith("note: " + path + ": 4 ranks from its 'rank' column, each rank's rows its profile\n"));

    // An error names the line of the file, not of a rank's share of it.
    const std::string bad = amdahl::test::write_temp("bad_ranks.csv", "rank,name,time_ms\n0,a,1\n1,a,2\n1,b,x\n");
    const RunResult r = run_cli({"eval", "--ranks", bad, "-s", "a=2"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, EndsWith(bad + ":4: phase 'b': time must be a finite number >= 0 with an optional unit (got 'x': "
                                     "not a number)\n"));
    // A row without its rank.
    const std::string missing = amdahl::test::write_temp("no_rank.csv", "rank,name,time_ms\n0,a,1\n,a,2\n");
    check_input_error({"eval", "--ranks", missing, "-s", "a=2"},
                      "error: " + missing + ":3: the row has no rank (column 'rank' of the header)\n");
}

TEST_CASE("ranks cli: a gzipped rank table, and a line break in a rank cell keeps the lines right", "[ranks][cli]") {
    TempDir dir;
    const std::string plain = dir / "all.csv";
    { std::ofstream(plain) << amdahl::test::read_file(source_path("examples/ranks/all_ranks.csv")); }
    REQUIRE(amdahl::test::run_shell("gzip -k '" + plain + "'").exit_code == 0);
    const RunResult gz = run_cli({"rank", "--ranks", plain + ".gz"});
    const RunResult csv = run_cli({"rank", "--ranks", plain});
    CHECK(gz.exit_code == 0);
    CHECK(gz.out == csv.out);
    // The rank cell "0\n" spans lines 2-3; rank 0's bad row is line 5 of the file.
    const std::string split =
        amdahl::test::write_temp("rank_cell_break.csv", "rank,name,time (ms)\n\"0\n\",a,5\n1,a,6\n0,b,x\n");
    const RunResult r = run_cli({"rank", "--ranks", split});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(split + ":5: phase 'b'"));
}
