// amdahl --version: the version and the git commit CMake read when configuring; the JSON reports'
// amdahl_version stays the version alone (compare_test checks it).
#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include "support.hpp"

using amdahl::test::run_cli;
using amdahl::test::run_shell;
using amdahl::test::source_path;

TEST_CASE("version: --version prints the version and the commit built from", "[cli][version]") {
    const auto r = run_cli({"--version"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    std::smatch match;
    REQUIRE(std::regex_match(r.out, match, std::regex("amdahl 0\\.1\\.0 \\(git ([0-9a-f]{7,40}|unknown)\\)\n")));
    const std::string commit = match[1];
    // Built from a git checkout (as the tests are), the commit is one of the repository's.
    if (run_shell("git -C '" + source_path("") + "' rev-parse --git-dir").exit_code == 0) {
        CHECK(commit != "unknown");
        CHECK(run_shell("git -C '" + source_path("") + "' cat-file -e '" + commit + "^{commit}'").exit_code == 0);
    }
}
