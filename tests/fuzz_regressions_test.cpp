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
            // Every way: each of the target's formats and every rank, not the one way a fuzzing run
            // picks from the input's size.
            CHECK_NOTHROW(amdahl::fuzz::check_input(target, slurp(file.path()), amdahl::fuzz::Breadth::every_way));
            ++replayed;
        }
    }
    CHECK(replayed > 0);
}

TEST_CASE("the fuzz harness refuses an unknown target and lets input errors pass", "[fuzz]") {
    // An unknown target is the harness's own mistake, never an amdahl::Error.
    CHECK_THROWS_AS(amdahl::fuzz::check_input("fuzz_nothing", ""), std::invalid_argument);
    // Input errors are expected outcomes: an empty profile and a bad command line pass quietly.
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_json", ""));
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "eval\n--no-such-option"));
}

TEST_CASE("fuzz_cli writes the files its command lines name into a scratch directory, never in place", "[fuzz]") {
    const std::string example = amdahl::test::source_path("examples/transformer_step.json");
    // Each command line below does write its file when run as such.
    amdahl::test::TempDir dir;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"eval", example, "-s", "attention_softmax=2", "--output-json", dir / "a.json"},
          std::vector<std::string>{"eval", example, "-s", "attention_softmax=2", "--plot=" + dir / "a.svg"},
          std::vector<std::string>{"import", example, "-o", dir / "a.profile.json"},
          // CLI11 reads a long option glued to a cluster of short flags as both: -q --plot=FILE.
          std::vector<std::string>{"eval", example, "-s", "attention_softmax=2", "-q-plot=" + dir / "b.svg"},
          std::vector<std::string>{"import", example, "-o" + dir / "b.profile.json"}}) {
        INFO(args.back());
        const auto result = amdahl::test::run_cli(args);
        CHECK(result.exit_code == 0);
    }
    CHECK(std::filesystem::exists(dir / "a.json"));
    CHECK(std::filesystem::exists(dir / "a.svg"));
    CHECK(std::filesystem::exists(dir / "a.profile.json"));
    CHECK(std::filesystem::exists(dir / "b.svg"));
    CHECK(std::filesystem::exists(dir / "b.profile.json"));

    // Through the harness, a file named as is would land in the working directory...
    const std::filesystem::path here = "fuzz-cli-output-test.out";
    std::filesystem::remove(here);
    CHECK_NOTHROW(
        amdahl::fuzz::check_input("fuzz_cli", "eval\n@json\n-s\nattention_softmax=2\n--output-json\n" + here.string()));
    CHECK_NOTHROW(
        amdahl::fuzz::check_input("fuzz_cli", "eval\n@json\n-s\nattention_softmax=2\n--plot=" + here.string()));
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "import\n@json\n-o\n" + here.string()));
    CHECK_NOTHROW(
        amdahl::fuzz::check_input("fuzz_cli", "eval\n@json\n-s\nattention_softmax=2\n-q-plot=" + here.string()));
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "import\n@json\n-o" + here.string()));
    CHECK_FALSE(std::filesystem::exists(here));
    std::filesystem::remove(here);
    // ... and an @name is a file of the source tree (here the example profile itself).
    const std::string before = slurp(example);
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "eval\n@csv\n-s\nattention_softmax=2\n--output-md\n@json"));
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "eval\n@csv\n-s\nattention_softmax=2\n--summary-csv\n@json"));
    CHECK(slurp(example) == before);
}

TEST_CASE("fuzz_cli reads only the files its @names give", "[fuzz]") {
    using amdahl::fuzz::cli_argument_reaches_outside;
    // A path that opens with '/' or climbs out: skipped, whatever option carries it.
    CHECK(cli_argument_reaches_outside("/etc/passwd"));
    CHECK(cli_argument_reaches_outside("/*"));
    CHECK(cli_argument_reaches_outside("--ranks=/tmp/*.json"));
    CHECK(cli_argument_reaches_outside("@mix1=/x"));
    CHECK(cli_argument_reaches_outside("a,/x"));
    CHECK(cli_argument_reaches_outside("../x"));
    CHECK(cli_argument_reaches_outside("runs/../../x"));
    CHECK(cli_argument_reaches_outside("./x"));
    // A rate's unit, an @name, a relative path (inside the empty directory the command runs in).
    CHECK_FALSE(cli_argument_reaches_outside("16/s"));
    CHECK_FALSE(cli_argument_reaches_outside("@mix1=900gpus"));
    CHECK_FALSE(cli_argument_reaches_outside("runs/a.json"));
    CHECK_FALSE(cli_argument_reaches_outside("*"));

    // The command runs elsewhere ("*" matches nothing there) and the harness comes back.
    const auto here = std::filesystem::current_path();
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "eval\n--ranks\n*"));
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "import\n@json\n-o\nrelative.profile.json"));
    CHECK(std::filesystem::current_path() == here);
    CHECK_FALSE(std::filesystem::exists(here / "relative.profile.json"));
}

TEST_CASE("fuzz_cli's arguments name no file by the scratch directory's random name", "[fuzz]") {
    // An absolute path into the scratch directory (mkdtemp's "amdahl-fuzz-cli-XXXXXX") made the
    // same input cover other edges in another run, when a parser read the file's name.
    const auto args = amdahl::fuzz::cli_arguments(
        "eval\n@json\n--plot\np.svg\n--output-json=o.json\n-s\n*=2\nqueue\n--speedup-from\n@eval");
    REQUIRE(args);
    REQUIRE(args->size() == 10);
    CHECK((*args)[0] == "eval");
    CHECK((*args)[1].ends_with("/examples/transformer_step.json"));
    CHECK((*args)[3] == "../out-p.svg");
    CHECK((*args)[4] == "--output-json=../out-o.json");
    CHECK((*args)[6] == "*=2");
    CHECK((*args)[9] == "../inputs/eval.json");
    for (const std::string& arg : *args) CHECK(arg.find("amdahl-fuzz-cli-") == std::string::npos);

    // A long output name is cut, told apart from another with the same first 100 bytes by a hash.
    const std::string base(150, 'k');
    const auto one = amdahl::fuzz::cli_arguments("law\n-f\n0.5\n-k\n2\n--plot\n" + base + "1");
    const auto two = amdahl::fuzz::cli_arguments("law\n-f\n0.5\n-k\n2\n--plot\n" + base + "2");
    REQUIRE(one);
    REQUIRE(two);
    CHECK(one->back().starts_with("../out-" + std::string(100, 'k') + "-"));
    CHECK(one->back().size() < 140);
    CHECK(one->back() != two->back());
    CHECK(one == amdahl::fuzz::cli_arguments("law\n-f\n0.5\n-k\n2\n--plot\n" + base + "1"));

    // Skipped inputs: a path out of the empty directory, import's -o joined to its file.
    CHECK_FALSE(amdahl::fuzz::cli_arguments("eval\n/etc/passwd"));
    CHECK_FALSE(amdahl::fuzz::cli_arguments("import\n@json\n-oFILE"));
    // The command still writes where the names say, and leaves nothing behind.
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "eval\n@json\n-s\n*=2\n--plot\np.svg"));
    CHECK_NOTHROW(amdahl::fuzz::check_input("fuzz_cli", "queue\n--service\n50ms\n--rate\n16/s\n--speedup-from\n@eval"));
}

namespace {

amdahl::Profile planted_profile(std::vector<std::pair<std::string, double>> phases) {
    amdahl::Profile profile;
    profile.source = "planted";
    for (auto& [name, time] : phases)
        profile.phases.push_back(amdahl::Phase{std::move(name), "", time, {}, 0, std::nullopt});
    return profile;
}

}  // namespace

TEST_CASE("the fuzz harness's checks throw a Finding for a planted breakage", "[fuzz]") {
    // Every regression input passes when a check is lost (require() a no-op, say): results that
    // no reader or evaluation gives must be reported, each by the check that names it.
    using amdahl::fuzz::check_evaluation;
    using amdahl::fuzz::check_profile;
    using amdahl::fuzz::Finding;
    using Catch::Matchers::Message;
    CHECK_NOTHROW(check_profile(planted_profile({{"a", 1}, {"b", 2}}), "planted"));
    CHECK_THROWS_MATCHES(check_profile(planted_profile({}), "planted"), Finding,
                         Message("planted: a profile with no phases"));
    CHECK_THROWS_MATCHES(check_profile(planted_profile({{"a", 1}, {"a", 2}}), "planted"), Finding,
                         Message("planted: duplicate phase name 'a'"));
    CHECK_THROWS_MATCHES(check_profile(planted_profile({{"a", 1}, {"", 2}}), "planted"), Finding,
                         Message("planted: a phase with an empty name"));
    CHECK_THROWS_MATCHES(check_profile(planted_profile({{"a", 1}, {"b", -1}}), "planted"), Finding,
                         Message("planted: phase 'b' has time -1.000000"));
    CHECK_THROWS_MATCHES(check_profile(planted_profile({{"a", 0}, {"b", 0}}), "planted"), Finding,
                         Message("planted: total 0.000000"));
    amdahl::Profile shorter_active = planted_profile({{"a", 2}, {"b", 1}});
    shorter_active.phases[0].active_time = 1.5;
    CHECK_THROWS_MATCHES(check_profile(shorter_active, "planted"), Finding,
                         Message("planted: phase 'a' is active for less than its exclusive time"));

    // A negative time (which check_profile refuses) gives evaluate() a ceiling below 1.
    CHECK_NOTHROW(check_evaluation(planted_profile({{"a", 1}, {"b", 2}}), {amdahl::parse_speedup("a=2")}));
    CHECK_THROWS_MATCHES(check_evaluation(planted_profile({{"a", -1}, {"b", 2}}), {amdahl::parse_speedup("a=2")}),
                         Finding, Message("evaluate: ceiling 0.500000"));
    // A selector that picks nothing is an amdahl::Error from evaluate(): an accepted outcome.
    CHECK_NOTHROW(check_evaluation(planted_profile({{"a", 1}}), {amdahl::parse_speedup("zzz=2")}));
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
        "zero-window.json", R"([{"ph": "X", "ts": 2, "dur": 2}, {"ph": "X", "name": "Step#1", "ts": 87, "dur": 0}])");
    auto r = amdahl::test::run_cli({"import", window, "--window", "Step", "--window-any"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("zero-window.json: --window 'Step' matches only events of zero length: there is no "
                               "time to attribute"));
    // Found by fuzz_chrome_trace: an event phase 'overlapped' next to amdahl's 'overlapped' phase.
    const std::string overlapped =
        amdahl::test::write_temp("overlapped.json", R"([{"ph": "X", "name": "overlapped", "ts": 0, "dur": 4, "tid": 1},
                              {"ph": "X", "name": "b", "ts": 1, "dur": 1, "tid": 2}])");
    r = amdahl::test::run_cli({"import", overlapped});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("overlapped.json: events are named 'overlapped', the phase amdahl adds for time when "
                               "several phases run at once; rename them, e.g. --rename 'overlapped=overlapped event'"));
    // The suggested rename works.
    r = amdahl::test::run_cli({"import", overlapped, "--rename", "overlapped=overlapped event"});
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
    CHECK_THAT(r.err, Contains("event 'a' (ph X): \"ts\" must be a number of µs within ±9.2e18 (got '1e308')"));
    const std::string apart =
        amdahl::test::write_temp("far-ts.json", R"([{"ph": "X", "name": "a", "ts": -9000000000000000000, "dur": 1},
                           {"ph": "X", "name": "b", "ts": 9000000000000000000, "dur": 1}])");
    r = amdahl::test::run_cli({"import", apart});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("event 'b': \"ts\" is too far from the first event's (got '9000000000000000000')"));
}
