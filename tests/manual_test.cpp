// The man pages: generated from the CLI11 definitions (amdahl manual), rendered by groff without a
// warning, and installed by the build (tests/install_consumer.sh checks the installed files).
//
// groff is Debian's groff-base, installed by scripts/setup. Without it the rendering tests fail,
// unless AMDAHL_ALLOW_MISSING_TOOLS=1, when they are reported as skipped.
#include <catch2/catch.hpp>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>

#include "cli/definition.hpp"
#include "cli/manual.hpp"
#include "support.hpp"

namespace {

using amdahl::cli::CommandDefinition;
using amdahl::cli::describe;
using amdahl::cli::manual_page;
using amdahl::cli::roff_escape;
using amdahl::test::read_file;
using amdahl::test::required_tool;
using amdahl::test::run_binary;
using amdahl::test::run_cli;
using amdahl::test::run_shell;
using amdahl::test::TempDir;
using Catch::Matchers::Contains;

const char* const commands[] = {"eval", "law",   "rank",   "plan",   "compare",    "scale",
                                "fit",  "queue", "import", "report", "completions"};

}  // namespace

TEST_CASE("describe reads options, choices, defaults and hidden parts from CLI11", "[manual][definition]") {
    CLI::App app{"A tool", "tool"};
    CLI::App* sub = app.add_subcommand("run", "Run it");
    std::string path, format = "table", hidden;
    std::vector<std::string> speedups;
    bool explain = false;
    sub->add_option("FILE", path, "The input")->required();
    sub->add_flag("--explain", explain, "Show the arithmetic");
    sub->add_option("-s,--speedup", speedups, "SELECTOR=FACTOR (repeatable)")->allow_extra_args(false);
    sub->add_option("--format", format, "Output format")
        ->check(CLI::IsMember({"table", "json"}))
        ->default_str("table")
        ->group("Output");
    sub->add_option("--secret", hidden, "Not shown")->group("");
    app.add_subcommand("internal", "Not shown either")->group("");
    sub->footer("More words.");

    const CommandDefinition tool = describe(app);
    REQUIRE(tool.commands.size() == 1);
    const CommandDefinition& run = tool.commands[0];
    CHECK(run.name == "run");
    CHECK(run.description == "Run it");
    CHECK(run.footer == "More words.");
    REQUIRE(run.options.size() == 5);  // FILE first, then --help, --explain, -s/--speedup, --format
    CHECK(run.options[0].positional == "FILE");
    CHECK(run.options[0].names.empty());
    CHECK(run.options[0].required);
    CHECK(run.options[1].names == std::vector<std::string>{"-h", "--help"});
    CHECK_FALSE(run.options[1].takes_value);
    CHECK(run.options[2].names == std::vector<std::string>{"--explain"});
    CHECK_FALSE(run.options[2].takes_value);
    CHECK(run.options[3].names == std::vector<std::string>{"-s", "--speedup"});
    CHECK(run.options[3].takes_value);
    CHECK(run.options[3].repeatable);
    CHECK(amdahl::cli::value_name(run.options[3]) == "SPEEDUP");
    CHECK(run.options[4].choices == std::vector<std::string>{"table", "json"});
    CHECK(run.options[4].default_value == "table");
    CHECK(run.options[4].group == "Output");
    CHECK_FALSE(run.options[4].repeatable);
}

TEST_CASE("roff_escape: dashes, backslashes, requests and UTF-8", "[manual]") {
    CHECK(roff_escape("--format a-b") == "\\-\\-format a\\-b");
    CHECK(roff_escape("glob:k(float\\*)") == "glob:k(float\\e*)");
    CHECK(roff_escape(".hidden\n'quoted\nfine.") == "\\&.hidden\n\\&'quoted\nfine.");
    CHECK(roff_escape("Host\xe2\x86\x92"
                      "device, 5 \xc2\xb5s") == "Host\\[u2192]device, 5 \\[u00B5]s");
    CHECK(roff_escape("cut \xe2\x86") == "cut \\[uFFFD]\\[uFFFD]");
}

TEST_CASE("manual: amdahl eval's page, from its definitions", "[manual][cli]") {
    const auto r = run_cli({"manual", "eval"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(
        r.out.starts_with(".TH AMDAHL\\-EVAL 1 \"\" \"amdahl 0.1.0\" \"User Commands\"\n"
                          ".SH NAME\n"
                          "amdahl\\-eval \\- End\\-to\\-end effect of proposed local speedups on a profile\n"
                          ".SH SYNOPSIS\n"
                          ".B amdahl eval\n"
                          "[\\fIOPTIONS\\fR] [\\fIPROFILE\\fR]\n"  // optional: --mix or --ranks replaces it
                          ".SH DESCRIPTION\n"));
    CHECK_THAT(r.out, Contains(".TP\n"
                               "\\fB\\-\\-format\\fR \\fIFORMAT\\fR\n"
                               "Output format: table, json, csv or md\n"
                               ".br\n"
                               "Values: table, text, json, csv, md, markdown. Default: table.\n"));
    CHECK_THAT(r.out, Contains(".TP\n\\fB\\-s\\fR, \\fB\\-\\-speedup\\fR \\fISPEEDUP\\fR\n"
                               "SELECTOR=FACTOR: a phase name, glob (gemm_*), kind:KIND or *; factor 10, 10x, inf or "
                               "\\-30%\n"
                               ".br\n"
                               "Repeatable.\n"));
    // A help text that says it already: no second "Repeatable."
    CHECK_THAT(r.out, Contains("(repeatable)\n.TP\n"));
    CHECK_THAT(r.out, Contains(".SS Profiler input\n"));
    CHECK_THAT(r.out, Contains(".SH EXIT STATUS\n.TP\n.B 0\n"));
    CHECK_THAT(r.out, Contains(".TP\n.B 3\nInternal error: a bug; please report it.\n"));
    CHECK_THAT(r.out, Contains(".SH SEE ALSO\n.BR amdahl (1),\n.BR amdahl\\-law (1),\n"));
    CHECK_FALSE(r.out.find("amdahl\\-eval (1)") != std::string::npos);
}

TEST_CASE("manual: amdahl's own page lists every command but the hidden manual", "[manual][cli]") {
    const auto r = run_cli({"manual"});
    REQUIRE(r.exit_code == 0);
    CHECK(
        r.out.starts_with(".TH AMDAHL 1 \"\" \"amdahl 0.1.0\" \"User Commands\"\n.SH NAME\n"
                          "amdahl \\- if I make this part faster, how much faster does the whole thing get?\n"));
    for (const char* command : commands) CHECK_THAT(r.out, Contains(std::string(".TP\n.B ") + command + "\n"));
    CHECK_THAT(r.out, Contains("\\fB\\-\\-version\\fR\nPrint the version and the git commit built from, and exit\n"));
    CHECK(r.out.find("manual") == std::string::npos);
}

TEST_CASE("manual: a command that does not exist", "[manual][cli][errors]") {
    const auto r = run_cli({"manual", "evil"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "error: manual: no command 'evil' (commands: eval, law, rank, plan, compare, scale, fit, queue, import, "
          "report, "
          "completions)\n");
}

TEST_CASE("manual is hidden from --help and from the list of commands", "[manual][cli]") {
    const auto help = run_cli({"--help"});
    CHECK(help.exit_code == 0);
    CHECK_THAT(help.out, Contains("completions"));
    CHECK(help.out.find("manual") == std::string::npos);
    const auto unknown = run_cli({"frobnicate"});
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err ==
          "error: unknown command 'frobnicate' (commands: eval, law, rank, plan, compare, scale, fit, queue, import, "
          "report, "
          "completions)\n");
}

TEST_CASE("manual --directory: every page, rendered by groff without a warning", "[manual][binary]") {
    const auto groff = required_tool("groff", "groff-base");
    TempDir dir;
    const auto written = run_binary("manual --directory '" + dir.string() + "'");
    REQUIRE(written.exit_code == 0);
    CHECK(written.out.empty());
    std::vector<std::string> pages{"amdahl"};
    for (const char* command : commands) pages.push_back(std::string("amdahl-") + command);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.string())) ++files;
    CHECK(files == pages.size());
    if (!groff) return;
    for (const std::string& page : pages) {
        INFO(page);
        const std::string path = dir / (page + ".1");
        REQUIRE(std::filesystem::exists(path));
        CHECK(read_file(path) == run_cli(page == "amdahl" ? std::vector<std::string>{"manual"}
                                                          : std::vector<std::string>{"manual", page.substr(7)})
                                     .out);
        // -ww: every warning; -rLL: lines long enough that a help text is one line; -P-cbou: plain
        // text, no bold or underlining by overstriking.
        const auto rendered =
            run_shell("LC_ALL=C.UTF-8 '" + *groff + "' -man -Tutf8 -P-cbou -ww -rLL=250n '" + path + "'");
        CHECK(rendered.exit_code == 0);
        CHECK(rendered.err.empty());
        CHECK_THAT(rendered.out, Contains("EXIT STATUS"));
    }
    const auto eval = run_shell("LC_ALL=C.UTF-8 '" + *groff + "' -man -Tutf8 -P-cbou -ww -rLL=250n '" +
                                (dir / "amdahl-eval.1") + "'");
    CHECK_THAT(eval.out, Contains("Output format: table, json, csv or md"));
}

TEST_CASE("man -l reads amdahl eval's page", "[manual][binary]") {
    const auto man = required_tool("man", "man-db");
    if (!man) return;
    const auto page = run_cli({"manual", "eval"});
    REQUIRE(page.exit_code == 0);
    const std::string path = amdahl::test::write_temp("amdahl-eval.1", page.out);
    const auto shown = run_shell("(MANWIDTH=250 LC_ALL=C.UTF-8 '" + *man + "' --warnings -l '" + path + "' | col -b)");
    CHECK(shown.exit_code == 0);
    CHECK(shown.err.empty());
    CHECK_THAT(shown.out, Contains("amdahl-eval - End-to-end effect of proposed local speedups on a profile"));
    CHECK_THAT(shown.out, Contains("Output format: table, json, csv or md"));
}
