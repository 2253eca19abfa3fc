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
