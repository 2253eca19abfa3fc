// -q/--quiet on every command that reads or computes: no notes, progress or "wrote FILE" lines on
// stderr; the report on stdout is unchanged, the notes stay in the JSON report, and errors and
// failed gates still print with their exit codes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "support.hpp"

namespace {

using amdahl::test::read_file;
using amdahl::test::run_binary;
using amdahl::test::source_path;
using amdahl::test::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

// A trace whose reading says what it assumed (notes on stderr).
const std::string trace = source_path("examples/pytorch_trace.json");

}  // namespace

TEST_CASE("quiet: eval says nothing on stderr, and its report is the same", "[quiet][cli]") {
    const auto loud = run_binary("eval '" + trace + "' -s 'kind:kernel=2'");
    REQUIRE(loud.exit_code == 0);
    REQUIRE_THAT(loud.err, StartsWith("note: "));
    for (const char* flag : {"-q", "--quiet"}) {
        INFO(flag);
        const auto quiet = run_binary("eval '" + trace + "' -s 'kind:kernel=2' " + flag);
        CHECK(quiet.exit_code == 0);
        CHECK(quiet.err.empty());
        CHECK(quiet.out == loud.out);
    }
    // The notes are still in the report a script reads.
    const auto json = run_binary("eval '" + trace + "' -s 'kind:kernel=2' --format json --quiet");
    REQUIRE(json.exit_code == 0);
    CHECK(json.err.empty());
    const auto report = nlohmann::json::parse(json.out);
    REQUIRE(report.contains("notes"));
    CHECK_FALSE(report["notes"].empty());
}

TEST_CASE("quiet: import writes its file without the 'wrote' line", "[quiet][cli]") {
    TempDir dir;
    const std::string out = dir / "profile.json";
    const auto loud = run_binary("import '" + trace + "' -o '" + out + "'");
    REQUIRE(loud.exit_code == 0);
    CHECK_THAT(loud.err, Contains("wrote " + out));
    const std::string first = read_file(out);
    const auto quiet = run_binary("import '" + trace + "' -o '" + out + "' -q");
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.err.empty());
    CHECK(read_file(out) == first);
}

TEST_CASE("quiet: errors and failed gates still print, with their exit codes", "[quiet][cli]") {
    const auto missing = run_binary("eval no-such-profile.json -s a=2 --quiet");
    CHECK(missing.exit_code == 2);
    CHECK_THAT(missing.err, StartsWith("error: "));
    CHECK_THAT(missing.err, Contains("no-such-profile.json"));

    const auto gate = run_binary("eval '" + source_path("examples/transformer_step.json") +
                                 "' -s attention_softmax=2 "
                                 "--require-speedup 5 -q");
    CHECK(gate.exit_code == 1);
    CHECK_THAT(gate.err, StartsWith("gate failed: speedup "));

    // A note of the command itself (law's bare time) is quiet too.
    const auto law = run_binary("law -f 0.5 -k 2 --time 100 -q");
    CHECK(law.exit_code == 0);
    CHECK(law.err.empty());
}

TEST_CASE("quiet: every command that reads or computes has it, and --help says so", "[quiet][cli]") {
    for (const char* command :
         {"eval", "law", "rank", "plan", "compare", "scale", "fit", "queue", "import", "report"}) {
        INFO(command);
        const auto help = run_binary(std::string(command) + " --help");
        CHECK(help.exit_code == 0);
        CHECK_THAT(help.out, Contains("-q,--quiet"));
    }
    // completions and manual print their output and nothing else: no such flag.
    const auto completions = run_binary("completions bash --quiet");
    CHECK(completions.exit_code == 2);
}

TEST_CASE("quiet: --ranks says nothing on stderr either", "[quiet][ranks][cli]") {
    const std::string table = source_path("examples/ranks/all_ranks.csv");
    const auto loud = run_binary("rank --ranks '" + table + "'");
    REQUIRE(loud.exit_code == 0);
    REQUIRE_THAT(loud.err, StartsWith("note: "));
    const auto quiet = run_binary("rank --ranks '" + table + "' -q");
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.err.empty());
    CHECK(quiet.out == loud.out);
}
