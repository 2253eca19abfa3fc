// Inputs that once made a fuzz target fail (tests/data/fuzz-regressions/<target>/) stay fixed:
// each goes through the same entry points and checks as in its libFuzzer target (fuzz/harness.cpp),
// where only a result or an amdahl::Error is acceptable.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness.hpp"
#include "support.hpp"

namespace {

std::string slurp(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream content;
    content << file.rdbuf();
    return content.str();
}

}  // namespace

TEST_CASE("every fuzz regression input replays without a finding", "[fuzz]") {
    const std::filesystem::path root = amdahl::test::source_path("tests/data/fuzz-regressions");
    const auto& targets = amdahl::fuzz::target_names();
    std::size_t replayed = 0;
    for (const auto& dir : std::filesystem::directory_iterator(root)) {
        if (!dir.is_directory()) continue;
        const std::string target = dir.path().filename().string();
        INFO("directory " << dir.path());
        REQUIRE(std::find(targets.begin(), targets.end(), target) != targets.end());
        for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
            INFO("input " << file.path());
            CHECK_NOTHROW(amdahl::fuzz::check_input(target, slurp(file.path())));
            ++replayed;
        }
    }
    CHECK(replayed > 0);
}

TEST_CASE("the fuzz harness reports a finding rather than swallowing it", "[fuzz]") {
    // An unknown target is the harness's own mistake, never an amdahl::Error.
    CHECK_THROWS_AS(amdahl::fuzz::check_input("fuzz_nothing", ""), std::invalid_argument);
    // Input errors are expected outcomes: an empty profile and a bad command line pass quietly.
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_json", ""));
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "eval\n--no-such-option"));
}

TEST_CASE("import refuses phase names that JSON cannot tell apart", "[fuzz]") {
    // Found by fuzz_csv: both names are written as "a\uFFFD", so the profile would not read back.
    const std::string path = amdahl::test::write_temp("utf8-alike.csv", "name,time\na\xff,1\na\xfe,2\n");
    const auto r = amdahl::test::run_cli({"import", path});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Matchers::Contains("phases 'a\\xFF' and 'a\\xFE' differ only in bytes that are not UTF-8, "
                                                "which JSON cannot hold; rename one"));
    CHECK(r.out.empty());
}

TEST_CASE("trace import: a zero-length window and events named like amdahl's own phases are errors", "[fuzz]") {
    using Catch::Matchers::Contains;
    // Found by fuzz_chrome_trace: the window holds no time, and the profile had no phases at all.
    const std::string window = amdahl::test::write_temp(
        "zero-window.json", R"([{"ph": "X", "ts": 2, "dur": 2}, {"ph": "X", "name": "Step#1", "ts": 87}])");
    auto r = amdahl::test::run_cli({"import", window, "--window", "Step"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("zero-window.json: --window 'Step' matches only events of zero length: there is no "
                               "time to attribute"));
    // Found by fuzz_chrome_trace: an event phase 'overlapped' next to amdahl's 'overlapped' phase.
    const std::string overlapped =
        amdahl::test::write_temp("overlapped.json", R"([{"ph": "X", "name": "overlapped", "ts": 0, "dur": 4, "tid": 1},
                              {"ph": "X", "name": "b", "ts": 1, "dur": 1, "tid": 2}])");
    r = amdahl::test::run_cli({"import", overlapped});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err,
               Contains("overlapped.json: events are named 'overlapped', the phase amdahl adds for time when "
                        "several phases run at once; rename them, e.g. --rename '^overlapped$=overlapped event'"));
    // The suggested rename works.
    r = amdahl::test::run_cli({"import", overlapped, "--rename", "^overlapped$=overlapped event"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\"overlapped event\""));
    const std::string idle = amdahl::test::write_temp(
        "idle.json",
        R"([{"ph": "X", "name": "idle", "ts": 0, "dur": 1}, {"ph": "X", "name": "b", "ts": 5, "dur": 1}])");
    r = amdahl::test::run_cli({"import", idle});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("idle.json: events are named 'idle', the phase amdahl adds for time when nothing runs"));
}

TEST_CASE("trace import: timestamps no int64 holds, or too far apart to subtract, are errors", "[fuzz]") {
    using Catch::Matchers::Contains;
    // Found by fuzz_chrome_trace (UBSan): 1e308 converted to int64, and an int64 subtraction overflowed.
    const std::string huge =
        amdahl::test::write_temp("huge-ts.json", R"([{"ph": "X", "name": "a", "ts": 1e308, "dur": 1}])");
    auto r = amdahl::test::run_cli({"import", huge});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("event 'a' (ph X): \"ts\" must be a number (got '1e308')"));
    const std::string apart =
        amdahl::test::write_temp("far-ts.json", R"([{"ph": "X", "name": "a", "ts": -9000000000000000000, "dur": 1},
                           {"ph": "X", "name": "b", "ts": 9000000000000000000, "dur": 1}])");
    r = amdahl::test::run_cli({"import", apart});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("event 'b': \"ts\" is too far from the first event's (got '9000000000000000000')"));
}
