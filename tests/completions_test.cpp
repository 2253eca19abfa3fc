// Shell completions (amdahl completions bash|zsh|fish), generated from the CLI11 definitions: bash's
// is run in a real bash the way readline calls it; zsh's and fish's parse, and fish's completes.
//
// zsh and fish are installed by scripts/setup. Without them those tests fail, unless
// AMDAHL_ALLOW_MISSING_TOOLS=1, when they are reported as skipped.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::required_tool;
using amdahl::test::run_cli;
using amdahl::test::run_shell;
using amdahl::test::TempDir;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::string script(const std::string& shell) {
    const auto r = run_cli({"completions", shell});
    REQUIRE(r.exit_code == 0);
    REQUIRE(r.err.empty());
    return r.out;
}

// What bash's completion offers for the words typed so far, the last one being completed: the
// script is sourced in a non-interactive bash and _amdahl called as readline would.
std::string complete_in_bash(const std::string& script_path, const std::vector<std::string>& words) {
    std::string array;
    for (const std::string& word : words) array += " '" + word + "'";
    const auto r = run_shell(
        "bash --norc --noprofile -c 'source \"$0\"; COMP_WORDS=(\"${@}\"); "
        "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=\"${COMP_WORDS[*]}\"; _amdahl; "
        "printf \"%s\\n\" \"${COMPREPLY[@]}\"' '" +
        script_path + "'" + array);
    REQUIRE(r.err.empty());
    REQUIRE(r.exit_code == 0);
    return r.out;
}

}  // namespace

TEST_CASE("completions bash: commands, options and option values in a real bash", "[completions][binary]") {
    const std::string path = write_temp("amdahl.bash", script("bash"));
    CHECK(complete_in_bash(path, {"amdahl", "ev"}) == "eval\n");
    CHECK(complete_in_bash(path, {"amdahl", "c"}) == "compare\ncompletions\n");
    CHECK(complete_in_bash(path, {"amdahl", ""}) ==
          "eval\nlaw\nrank\nplan\ncompare\nscale\nfit\nqueue\nimport\nreport\ncompletions\n");
    CHECK(complete_in_bash(path, {"amdahl", "-"}) == "-h\n--help\n--version\n");
    CHECK(complete_in_bash(path, {"amdahl", "--v"}) == "--version\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "--form"}) == "--format\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "profile.json", "-s", "x=2", "--form"}) == "--format\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "--format", "m"}) == "md\nmarkdown\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "--format", "=", ""}) == "table\ntext\njson\ncsv\nmd\nmarkdown\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "--format", "=", "j"}) == "json\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "--model", ""}) == "amdahl\nreplay\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "--lane", "g"}) == "gpu\n");
    CHECK(complete_in_bash(path, {"amdahl", "law", "--fr"}) == "--fraction\n");
    CHECK(complete_in_bash(path, {"amdahl", "rank", "--by", ""}) == "saving\neffort\nceiling\n");
    CHECK(complete_in_bash(path, {"amdahl", "completions", "z"}) == "zsh\n");
    // A value amdahl cannot list (a selector, a file) offers nothing, so bash falls back to file names.
    CHECK(complete_in_bash(path, {"amdahl", "eval", "--output-json", ""}) == "\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "-s", "--f"}) == "\n");
    CHECK(complete_in_bash(path, {"amdahl", "eval", "exa"}) == "\n");
    // The hidden command is never offered, nor its options.
    CHECK(complete_in_bash(path, {"amdahl", "man"}) == "\n");
    CHECK(complete_in_bash(path, {"amdahl", "manual", "--d"}) == "\n");
    const auto registered = run_shell("bash --norc --noprofile -c 'source \"$0\"; complete -p amdahl' '" + path + "'");
    CHECK(registered.out == "complete -o default -F _amdahl amdahl\n");
}

TEST_CASE("completions zsh: a #compdef function that zsh parses", "[completions][binary]") {
    const std::string zsh_script = script("zsh");
    CHECK_THAT(zsh_script, StartsWith("#compdef amdahl\n"));
    CHECK_THAT(zsh_script, Contains("'eval:End-to-end effect of proposed local speedups on a profile'\n"));
    CHECK_THAT(zsh_script, Contains("'--format[Output format\\: table, json, csv or md]:FORMAT:(table text json csv "
                                    "md markdown)'"));
    CHECK_THAT(zsh_script, Contains("'*--speedup[SELECTOR=FACTOR\\: a phase name, glob (gemm_*), kind\\:KIND or *; "
                                    "factor 10, 10x, inf or -30%]:SPEEDUP:_files'"));
    CHECK_THAT(zsh_script, Contains("'1:PROFILE:_files'"));
    CHECK(zsh_script.find("manual") == std::string::npos);
    const auto zsh = required_tool("zsh", "zsh");
    if (!zsh) return;
    const std::string path = write_temp("_amdahl", zsh_script);
    const auto parsed = run_shell("'" + *zsh + "' -n '" + path + "'");
    CHECK(parsed.err.empty());
    CHECK(parsed.exit_code == 0);
}

TEST_CASE("completions fish: complete lines that fish parses and completes with", "[completions][binary]") {
    const std::string fish_script = script("fish");
    CHECK_THAT(fish_script, Contains("complete -c amdahl -n '__fish_seen_subcommand_from eval' -l format -x -a 'table "
                                     "text json csv md markdown' -d 'Output format: table, json, csv or md'\n"));
    CHECK(fish_script.find("manual") == std::string::npos);
    const auto fish = required_tool("fish", "fish");
    if (!fish) return;
    const std::string path = write_temp("amdahl.fish", fish_script);
    const auto parsed = run_shell("'" + *fish + "' --no-config -n '" + path + "'");
    CHECK(parsed.err.empty());
    CHECK(parsed.exit_code == 0);
    const auto complete = [&](const std::string& line) {
        const auto r = run_shell("'" + *fish + "' --no-config -c 'source $argv[1]; complete -C $argv[2]' '" + path +
                                 "' '" + line + "'");
        CHECK(r.err.empty());
        return r.out;
    };
    CHECK(complete("amdahl ev") == "eval\tEnd-to-end effect of proposed local speedups on a profile\n");
    CHECK(complete("amdahl eval --form") == "--format\tOutput format: table, json, csv or md\n");
    CHECK(complete("amdahl eval --format j") == "json\tOutput format: table, json, csv or md\n");
    CHECK(complete("amdahl completions b") == "bash\n");
}

TEST_CASE("completions: an unknown shell is a usage error", "[completions][cli][errors]") {
    const auto r = run_cli({"completions", "tcsh"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "error: SHELL: tcsh not in {bash,zsh,fish}\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n");
    const auto none = run_cli({"completions"});
    CHECK(none.exit_code == 2);
    CHECK(none.err == "error: SHELL is required\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n");
}
