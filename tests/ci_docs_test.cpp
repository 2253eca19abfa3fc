// docs/ci.md's shell script and profile example, run as written: a throwaway git repository whose
// `make bench` does nothing and whose `bench/step --profile-json` prints the page's profile; the
// script benchmarks the base and HEAD alternately and gates with the built binary. No change
// passes; a 20% regression fails the gate (exit 1), as the page says.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "support.hpp"

using amdahl::test::read_file;
using amdahl::test::run_shell;
using amdahl::test::source_path;
using Catch::Matchers::Contains;

namespace {

// The body of the first fenced block of `language` in `text` ("" when there is none).
std::string fenced(const std::string& text, const std::string& language) {
    const std::string open = "```" + language + "\n";
    const auto start = text.find(open);
    if (start == std::string::npos) return {};
    const auto body = start + open.size();
    const auto end = text.find("\n```", body);
    return text.substr(body, end - body + 1);
}

void write(const std::string& path, const std::string& content) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << content;
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

}  // namespace

TEST_CASE("docs/ci.md: the shell script and the profile work as written", "[compare][docs]") {
    const std::string page = read_file(source_path("docs/ci.md"));
    const std::string script = fenced(page, "sh");
    const std::string profile = fenced(page, "json");
    REQUIRE_THAT(script, Contains("amdahl compare"));
    REQUIRE_THAT(profile, Contains("\"phases\""));
    const auto parsed = nlohmann::json::parse(profile);  // the example is valid JSON

    amdahl::test::TempDir dir;
    const std::string repo = dir / "repo";
    write(repo + "/Makefile", "bench:\n\t@true\n");
    write(repo + "/bench/step", "#!/bin/sh\ncat \"$(dirname \"$0\")/profile.json\"\n");
    std::filesystem::permissions(repo + "/bench/step", std::filesystem::perms::owner_all);
    write(repo + "/bench/profile.json", profile);
    write(dir / "perf-gate.sh", script);
    const std::string amdahl_dir = std::filesystem::path(AMDAHL_BINARY).parent_path().string();
    // The page's script, from the repository, with the built amdahl first on the PATH.
    const auto perf_gate = [&](const std::string& base) {
        return run_shell("cd " + quoted(repo) + " && PATH=" + quoted(amdahl_dir) + ":\"$PATH\" sh " +
                         quoted(dir / "perf-gate.sh") + " " + base + " 3");
    };
    const std::string git = "git -c user.name=amdahl -c user.email=amdahl@example.com -c init.defaultBranch=main";
    auto r = run_shell("cd " + quoted(repo) + " && " + git + " init -q && " + git + " add -A && " + git +
                       " commit -q -m base");
    REQUIRE(r.exit_code == 0);
    SECTION("no change passes") {
        // HEAD is the base: the same profile on both sides.
        r = run_shell("cd " + quoted(repo) + " && " + git + " commit -q --allow-empty -m 'no change'");
        REQUIRE(r.exit_code == 0);
        r = perf_gate("HEAD~1");
        INFO(r.err);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("result:    unchanged"));
    }
    SECTION("a 20% regression fails the gate") {
        nlohmann::json slower = parsed;
        for (auto& phase : slower["phases"]) phase["time"] = phase["time"].get<double>() * 1.2;
        write(repo + "/bench/profile.json", slower.dump());
        r = run_shell("cd " + quoted(repo) + " && " + git + " commit -q -am 'slower'");
        REQUIRE(r.exit_code == 0);
        r = perf_gate("HEAD~1");
        INFO(r.err);
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Contains("gate failed: --fail-if-slower 2%"));
        CHECK_THAT(r.err, Contains("gate failed: --fail-if-phase-slower kind:kernel=5%"));
    }
}
