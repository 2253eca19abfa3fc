// Share bars and colour in the text table (report/bars.hpp, cli/terminal.hpp): bars of the right
// length, colour only when asked or on a terminal without NO_COLOR, and output to a pipe unchanged.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run.hpp"
#include "report/bars.hpp"
#include "support.hpp"

namespace {

using amdahl::share_bar;
using amdahl::test::run_binary;
using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;

std::string example() { return source_path("examples/transformer_step.json"); }

// The eighths a bar holds: █ is 8, ▏..▉ are 1..7; -1 when it holds anything else.
int eighths(const std::string& bar) {
    static const std::vector<std::string> blocks = {"\u258F", "\u258E", "\u258D", "\u258C",
                                                    "\u258B", "\u258A", "\u2589", "\u2588"};
    int total = 0;
    for (std::size_t i = 0; i < bar.size();) {
        bool found = false;
        for (std::size_t b = 0; b < blocks.size() && !found; ++b) {
            if (bar.compare(i, blocks[b].size(), blocks[b]) == 0) {
                total += static_cast<int>(b) + 1;
                i += blocks[b].size();
                found = true;
            }
        }
        if (!found) return -1;
    }
    return total;
}

// The bar in a table line: the block characters in it, in order.
std::string bar_in(const std::string& line) {
    std::string bar;
    for (std::size_t i = 0; i + 2 < line.size(); ++i) {
        // U+2588..U+258F are E2 96 88..8F in UTF-8.
        if (line.compare(i, 2, "\xE2\x96") == 0 && static_cast<unsigned char>(line[i + 2]) >= 0x88 &&
            static_cast<unsigned char>(line[i + 2]) <= 0x8F) {
            bar += line.substr(i, 3);
            i += 2;
        }
    }
    return bar;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// Runs the CLI in-process as if stdout were a terminal.
RunResult run_on_terminal(const std::vector<std::string>& args) {
    std::vector<const char*> argv{"amdahl"};
    for (const auto& a : args) argv.push_back(a.c_str());
    std::istringstream in;
    std::ostringstream out, err;
    RunResult result;
    result.exit_code = amdahl::cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err, true);
    result.out = out.str();
    result.err = err.str();
    return result;
}

// Sets an environment variable for a scope, and restores it.
class Environment {
public:
    Environment(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~Environment() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("share_bar draws eighths of a column: round(fraction x columns x 8)", "[bars]") {
    std::string full;
    for (int i = 0; i < 20; ++i) full += "\u2588";
    CHECK(share_bar(1.0) == full);
    CHECK(eighths(share_bar(1.0)) == 160);
    CHECK(share_bar(0.21) == "\u2588\u2588\u2588\u2588\u258E");  // 33.6 -> 34 eighths: 4 full and 2/8
    CHECK(share_bar(0.5, 1) == "\u258C");
    CHECK(share_bar(1.0 / 160) == "\u258F");
    CHECK(share_bar(0.0).empty());
    CHECK(share_bar(-0.5).empty());
    CHECK(share_bar(std::nan("")).empty());
    CHECK(share_bar(2.5) == full);    // clamped: a bar never runs past its column
    CHECK(share_bar(0.001).empty());  // 0.16 eighths rounds to none
}

TEST_CASE("eval --bars always draws each phase's share in eighths beside its share", "[bars][cli]") {
    const RunResult r = run_cli({"eval", example(), "-s", "attention_softmax=10", "--bars", "always"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find('\x1b') == std::string::npos);  // bars, no colour: not a terminal
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() > 9);
    // Shares 18, 34, 21, 12, 6, 4 and 5% of 20 columns, in eighths: round(share x 160).
    const std::vector<int> expected = {29, 54, 34, 19, 10, 6, 8};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO(lines[2 + i]);
        CHECK(eighths(bar_in(lines[2 + i])) == expected[i]);
    }
    // The bar sits right after the share, and the columns after it stay aligned.
    CHECK(lines[3] ==
          "gemm_qkv                               kernel         34.0  34.0%  "
          "\u2588\u2588\u2588\u2588\u2588\u2588\u258A       -           34.0         0.0");
    CHECK(lines[1].substr(0, 5) == "-----");
}

TEST_CASE("without a terminal the text is unchanged, byte for byte, and so with bars never", "[bars][cli]") {
    const RunResult plain = run_cli({"eval", example(), "-s", "attention_softmax=10"});
    REQUIRE(plain.exit_code == 0);
    CHECK(bar_in(plain.out).empty());
    CHECK(run_cli({"eval", example(), "-s", "attention_softmax=10", "--bars", "auto", "--color", "auto"}).out ==
          plain.out);
    CHECK(
        run_on_terminal({"eval", example(), "-s", "attention_softmax=10", "--bars", "never", "--color", "never"}).out ==
        plain.out);
}

TEST_CASE("on a terminal: bars and colour, and NO_COLOR or color never drop every escape", "[bars][cli]") {
    const std::vector<std::string> args = {"eval", example(), "-s", "attention_softmax=10"};
    {
        const Environment no_color("NO_COLOR", nullptr);
        const Environment term("TERM", "xterm");
        const RunResult r = run_on_terminal(args);
        REQUIRE(r.exit_code == 0);
        CHECK(eighths(bar_in(lines_of(r.out)[3])) == 54);
        CHECK(r.out.find("\x1b[1mphase\x1b[0m") != std::string::npos);  // the header bold
        CHECK(r.out.find("\x1b[1mspeedup\x1b[0m:") != std::string::npos);
        CHECK(r.out.find("\x1b[36m\u2588") != std::string::npos);  // the bars cyan
    }
    {
        const Environment no_color("NO_COLOR", "1");
        const RunResult r = run_on_terminal(args);
        CHECK(r.out.find('\x1b') == std::string::npos);
        CHECK(eighths(bar_in(lines_of(r.out)[3])) == 54);  // bars are no colour
        // An empty NO_COLOR is unset (no-color.org).
        const Environment empty("NO_COLOR", "");
        const Environment term("TERM", "xterm");
        CHECK(run_on_terminal(args).out.find('\x1b') != std::string::npos);
    }
    {
        const Environment no_color("NO_COLOR", nullptr);
        const Environment term("TERM", "dumb");
        CHECK(run_on_terminal(args).out.find('\x1b') == std::string::npos);
    }
    {
        const Environment no_color("NO_COLOR", nullptr);
        const Environment term("TERM", "xterm");
        auto never = args;
        never.insert(never.end(), {"--color", "never"});
        const RunResult r = run_on_terminal(never);
        CHECK(r.out.find('\x1b') == std::string::npos);
        CHECK(!bar_in(r.out).empty());
    }
    {
        // A flag on the command line beats the environment, as no-color.org has it.
        const Environment no_color("NO_COLOR", "1");
        auto always = args;
        always.insert(always.end(), {"--color", "always"});
        CHECK(run_cli(always).out.find("\x1b[1m") != std::string::npos);
    }
}

TEST_CASE("rank --bars always draws each target's share", "[bars][cli]") {
    const RunResult r = run_cli({"rank", example(), "-k", "10", "--bars", "always"});
    REQUIRE(r.exit_code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() > 3);
    CHECK(eighths(bar_in(lines[2])) == 54);  // gemm_qkv, 34%, ranks first
}

TEST_CASE("the colour of gates: pass green, FAIL red", "[bars][cli]") {
    const RunResult r =
        run_cli({"compare", source_path("examples/compare/before.json"), source_path("examples/compare/after.json"),
                 "--fail-if-slower", "50%", "--color", "always"});
    INFO(r.out << r.err);
    CHECK(r.out.find("  \x1b[32mpass\x1b[0m  --fail-if-slower 50%") != std::string::npos);
}

TEST_CASE("color and bars options are for the text table: an error with another format", "[bars][cli]") {
    for (const std::string format : {"json", "csv", "md"}) {
        const RunResult r = run_cli({"eval", example(), "-s", "gemm_qkv=2", "--format", format, "--color", "never"});
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "error: --color: applies to --format table only (" + format + " is data, never coloured)\n");
    }
    const RunResult bars = run_cli({"law", "-f", "0.5", "-k", "2", "--format", "json", "--bars", "always"});
    CHECK(bars.exit_code == 2);
    CHECK(bars.err == "error: --bars: applies to --format table only (json is data, never coloured)\n");
}

TEST_CASE("bars always on a report without shares is an error, not a table without bars", "[bars][cli]") {
    const std::string message =
        "error: --bars: this report has no table with a share column to draw bars beside (eval's and rank's tables "
        "have one)\n";
    const RunResult law = run_cli({"law", "-f", "0.5", "-k", "2", "--bars", "always"});
    CHECK(law.exit_code == 2);
    CHECK(law.out.empty());
    CHECK(law.err == message);
    const RunResult verdict = run_cli({"eval", example(), "-s", "gemm_qkv=2", "--verdict", "--bars", "always"});
    CHECK(verdict.exit_code == 2);
    CHECK(verdict.err == message);
    // --bars never says there are none: nothing to refuse.
    CHECK(run_cli({"law", "-f", "0.5", "-k", "2", "--bars", "never"}).exit_code == 0);
    const RunResult bad = run_cli({"eval", example(), "--color", "sometimes"});
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Matchers::StartsWith("error: --color: sometimes not in {always,never,auto}"));
}

TEST_CASE("the binary on a pseudo-terminal draws bars, piped it does not", "[bars][binary]") {
    const auto script = amdahl::test::required_tool("script", "bsdutils");
    if (!script) return;
    const std::string command = "eval " + example() + " -s attention_softmax=10";
    const RunResult piped = run_binary(command);
    CHECK(bar_in(piped.out).empty());
    const RunResult tty =
        amdahl::test::run_shell("NO_COLOR=1 script -qec '" AMDAHL_BINARY " " + command + "' /dev/null");
    CHECK(tty.exit_code == 0);
    CHECK(eighths(bar_in(tty.out)) > 0);
    CHECK(tty.out.find('\x1b') == std::string::npos);
}
