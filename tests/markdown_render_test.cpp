// The Markdown reports through a real CommonMark + GFM renderer, Debian's cmark-gfm (what GitHub
// runs, as a C library): tables come out as tables with every row as wide as its header, and names
// from code come out literally, never as emphasis, links or HTML.
//
// cmark-gfm is installed by scripts/setup. Without it the test fails, unless
// AMDAHL_ALLOW_MISSING_TOOLS=1, when it is reported as skipped.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
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

std::optional<std::string> find_on_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error)) return candidate.string();
    }
    return std::nullopt;
}

// cmark-gfm's path; without it, fails the test or (AMDAHL_ALLOW_MISSING_TOOLS=1) returns nothing
// after a warning ctest reads as a skip (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt).
std::optional<std::string> renderer() {
    if (auto found = find_on_path("cmark-gfm")) return found;
    const char* allow = std::getenv("AMDAHL_ALLOW_MISSING_TOOLS");
    if (allow && std::string(allow) == "1") {
        WARN("SKIPPED: cmark-gfm is not on PATH and AMDAHL_ALLOW_MISSING_TOOLS=1");
        return std::nullopt;
    }
    FAIL(
        "cmark-gfm is not on PATH: scripts/setup installs it (Debian package cmark-gfm); "
        "set AMDAHL_ALLOW_MISSING_TOOLS=1 to skip this test instead");
    return std::nullopt;
}

// `markdown` as HTML, through `cmark-gfm -e table`; `raw_html` keeps HTML blocks (<details>), as
// GitHub does for the few tags it allows.
std::string render(const std::string& cmark, const std::string& markdown, bool raw_html = false) {
    TempDir dir;
    const std::string input = dir / "report.md";
    {
        std::FILE* file = std::fopen(input.c_str(), "wb");
        REQUIRE(file != nullptr);
        std::fwrite(markdown.data(), 1, markdown.size(), file);
        std::fclose(file);
    }
    const std::string command = "'" + cmark + "' -e table " + (raw_html ? "--unsafe '" : "'") + input + "'";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string html;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) html.append(buffer, n);
    const int status = ::pclose(pipe);
    INFO(command);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return html;
}

std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
    return n;
}

// The pieces of `text` between each `open` and the next `close`.
std::vector<std::string> between(const std::string& text, const std::string& open, const std::string& close) {
    std::vector<std::string> pieces;
    for (auto at = text.find(open); at != std::string::npos; at = text.find(open, at)) {
        const auto end = text.find(close, at);
        if (end == std::string::npos) break;
        pieces.push_back(text.substr(at + open.size(), end - at - open.size()));
        at = end + close.size();
    }
    return pieces;
}

struct HtmlTable {
    std::size_t columns = 0;                ///< cells in the header row
    std::vector<std::size_t> row_cells;     ///< cells in each body row
    std::vector<std::string> first_column;  ///< each body row's first cell, as HTML
};

std::vector<HtmlTable> tables_of(const std::string& html) {
    std::vector<HtmlTable> tables;
    for (const auto& table : between(html, "<table>", "</table>")) {
        HtmlTable t;
        for (const auto& head : between(table, "<thead>", "</thead>")) t.columns = count(head, "<th");
        for (const auto& body : between(table, "<tbody>", "</tbody>")) {
            for (const auto& row : between(body, "<tr>", "</tr>")) {
                t.row_cells.push_back(count(row, "<td"));
                const auto cell = between(row, ">", "</td>");
                t.first_column.push_back(cell.empty() ? "" : cell.front());
            }
        }
        tables.push_back(std::move(t));
    }
    return tables;
}

// Every body row has as many cells as the header: no escaping slip split or merged a cell.
void check_rectangular(const std::vector<HtmlTable>& tables) {
    for (std::size_t t = 0; t < tables.size(); ++t) {
        INFO("table " << t);
        CHECK(tables[t].columns > 0);
        for (std::size_t cells : tables[t].row_cells) CHECK(cells == tables[t].columns);
    }
}

const char* const awkward_profile = R"json({
  "unit": "ms",
  "total": 100,
  "phases": [
    {"name": "void k<float>(float*)", "time": 30, "kind": "kernel", "share": 0.5},
    {"name": "__init__", "time": 20, "kind": "host_side"},
    {"name": "*ptr*", "time": 15, "kind": "kernel"},
    {"name": "[x](y)", "time": 10, "kind": "kernel"},
    {"name": "a|b", "time": 10, "kind": "kernel"},
    {"name": "tick`tock", "time": 5, "kind": "kernel"}
  ]
})json";

}  // namespace

TEST_CASE("markdown render: eval's report renders as tables with names literal", "[markdown][render]") {
    const auto cmark = renderer();
    if (!cmark) return;
    TempDir dir;
    const std::string profile = dir / "awkward_names.json";
    std::FILE* file = std::fopen(profile.c_str(), "wb");
    REQUIRE(file != nullptr);
    std::fputs(awkward_profile, file);
    std::fclose(file);

    const RunResult r = run_cli({"eval", profile, "-s", "__init__=2", "--format", "md", "--names", "full"});
    REQUIRE(r.exit_code == 0);
    const std::string html = render(*cmark, r.out);
    INFO(html);

    CHECK_THAT(html, Contains("<h3>amdahl eval: 1.1111x end to end, 10.0 ms saved</h3>"));
    const auto tables = tables_of(html);
    REQUIRE(tables.size() == 2);
    check_rectangular(tables);
    // The result table: baseline, new time, speedup, time saved, affected fraction, ceiling,
    // headroom captured.
    CHECK(tables[0].columns == 2);
    CHECK(tables[0].first_column == std::vector<std::string>{"baseline", "new time", "speedup", "time saved",
                                                             "affected fraction", "ceiling", "headroom captured",
                                                             "verdict"});
    // The phases, each name a code span holding exactly the name.
    CHECK(tables[1].columns == 7);
    CHECK(tables[1].first_column == std::vector<std::string>{"<code>void k&lt;float&gt;(float*)</code>",
                                                             "<code>__init__</code>", "<code>*ptr*</code>",
                                                             "<code>[x](y)</code>", "<code>a|b</code>",
                                                             "<code>tick`tock</code>", "<code>unattributed</code>"});
    CHECK_THAT(html, Contains("<td>host_side</td>"));
    // Nothing became emphasis, a link or raw HTML.
    CHECK(count(html, "<em>") == 0);
    CHECK(count(html, "<strong>") == 0);
    CHECK(count(html, "<a ") == 0);
    CHECK(count(html, "<float>") == 0);
    // The notes, escaped text in a list, read as written.
    CHECK_THAT(html, Contains("<h4>Notes</h4>"));
    CHECK_THAT(html, Contains("/awkward_names.json: phases[0]: phase 'void k&lt;float&gt;(float*)': share 50% "
                              "disagrees with its time (30.0 ms is 30% of 100.0 ms)</li>"));
    CHECK_THAT(html, Contains("/awkward_names.json: the phases add up to 90.0 ms of the total 100.0 ms; the other "
                              "10.0 ms is phase 'unattributed'</li>"));
}

TEST_CASE("markdown render: compare's report renders its tables, gates and verdict", "[markdown][render]") {
    const auto cmark = renderer();
    if (!cmark) return;

    SECTION("the README's example, a failed gate") {
        const RunResult r =
            run_cli({"compare", source_path("examples/compare/before.json"), source_path("examples/compare/after.json"),
                     "--rename", "attention_softmax=flash_attention", "--noise", "1%", "--fail-if-slower", "2%",
                     "--fail-if-phase-slower", "layernorm=5%", "--format", "md"});
        REQUIRE(r.exit_code == 1);
        const std::string html = render(*cmark, r.out);
        INFO(html);
        CHECK_THAT(html, Contains("<h3>amdahl compare: 1.1806x faster end to end (-15.3% of the before total)</h3>"));
        const auto tables = tables_of(html);
        REQUIRE(tables.size() == 2);
        check_rectangular(tables);
        CHECK(tables[0].first_column ==
              std::vector<std::string>{"before", "after", "change", "speedup", "interval", "result", "predicted"});
        CHECK(tables[1].columns == 8);
        CHECK(tables[1].first_column ==
              // Largest change first (-16, +0.6, +0.1), then the unchanged in BEFORE's order.
              std::vector<std::string>{"<code>attention_softmax → flash_attention</code>", "<code>layernorm</code>",
                                       "<code>gemm_qkv</code>", "<code>Host→device input copy</code>",
                                       "<code>gemm_proj</code>", "<code>elementwise_gelu</code>",
                                       "<code>Host launch gaps / framework overhead</code>", "<code>total</code>"});
        // The formula's subscripts stay underscores, not emphasis.
        CHECK_THAT(html, Contains("1 / (f_0 + Σ f_i / k_i): consistent with the totals"));
        CHECK(count(html, "<em>") == 0);
        CHECK_THAT(html, Contains("<p><strong>Gates</strong></p>\n<ul>\n"
                                  "<li>✅ <code>--fail-if-slower 2%</code>: end to end -15.3% of the before total "
                                  "(100.0 → 84.7 ms): not more than 2%</li>\n"
                                  "<li>❌ <code>--fail-if-phase-slower layernorm=5%</code>: layernorm +10.0% of phase "
                                  "(6.0 → 6.6 ms): more than 5%</li>\n</ul>\n"
                                  "<p><strong>Verdict: ❌ 1 of 2 gates failed</strong></p>\n"));
    }
    SECTION("awkward names in the rows and in the gates") {
        TempDir dir;
        const std::string profile = dir / "awkward_names.json";
        std::FILE* file = std::fopen(profile.c_str(), "wb");
        REQUIRE(file != nullptr);
        std::fputs(awkward_profile, file);
        std::fclose(file);
        const RunResult r = run_cli({"compare", profile, profile, "--fail-if-phase-slower", "a|b=5%",
                                     "--fail-if-phase-slower", "tick`tock=5%", "--format", "md"});
        REQUIRE(r.exit_code == 0);
        const std::string html = render(*cmark, r.out);
        INFO(html);
        const auto tables = tables_of(html);
        REQUIRE(tables.size() == 2);
        check_rectangular(tables);
        CHECK(tables[1].first_column.size() == 8);  // six phases, unattributed, total
        CHECK_THAT(html, Contains("<li>✅ <code>--fail-if-phase-slower a|b=5%</code>: a|b 0.0% of phase"));
        CHECK_THAT(html, Contains("<li>✅ <code>--fail-if-phase-slower tick`tock=5%</code>: tick`tock 0.0% of phase"));
    }
}

TEST_CASE("markdown render: a 1,000-kernel comparison is a pull-request comment under GitHub's limit",
          "[markdown][render][compare]") {
    const auto cmark = renderer();
    if (!cmark) return;
    // 1,000 kernels with long templated names (about 150 characters each), every one a little slower.
    TempDir dir;
    const auto write = [&](const std::string& name, double scale, std::size_t name_length) {
        std::string json = R"({"unit": "us", "phases": {)";
        for (int i = 0; i < 1000; ++i) {
            std::string kernel = "void gemm_kernel_" + std::to_string(i) + "<float, 128, 64>(";
            kernel += std::string(name_length, 'x') + ")";
            json += (i ? ", " : "") + std::string("\"") + kernel +
                    "\": " + std::to_string((100.0 + i) * (1 + scale * (i % 7 + 1) / 100));
        }
        const std::string path = dir / name;
        std::FILE* file = std::fopen(path.c_str(), "wb");
        REQUIRE(file != nullptr);
        std::fputs((json + "}}").c_str(), file);
        std::fclose(file);
        return path;
    };
    SECTION("the top 15 in the table, the rest collapsed, cut to fit") {
        const RunResult r = run_cli({"compare", write("before.json", 0, 100), write("after.json", 1, 100), "--format",
                                     "md", "--fail-if-phase-slower", "*=50%"});
        REQUIRE(r.exit_code == 0);
        CHECK(r.out.size() < 65536);
        CHECK(r.out.rfind("<!-- amdahl-compare -->\n", 0) == 0);
        const std::string html = render(*cmark, r.out, true);
        const auto tables = tables_of(html);
        REQUIRE(tables.size() == 3);  // the summary, the top 15 and total, the collapsed rest
        check_rectangular(tables);
        CHECK(tables[1].first_column.size() == 16);
        // The largest change first: kernel 993 grew 7% of 1,093 us.
        CHECK(tables[1].first_column.front() == "<code>gemm_kernel_993</code>");
        CHECK_THAT(html, Contains("<details>\n<summary>985 more phases, smaller changes</summary>"));
        // Not all 985 fit: the block says how many rows it left out, and the JSON has them.
        const std::size_t kept = tables[2].first_column.size();
        CHECK(kept > 100);
        CHECK(kept < 985);
        CHECK_THAT(html, Contains("<em>" + std::to_string(985 - kept) +
                                  " more rows left out to stay under GitHub's 65,536-character comment limit; "
                                  "<code>--format json</code> has every one.</em>"));
        CHECK_THAT(html, Contains("</details>"));
        CHECK_THAT(html, Contains("<strong>Verdict: ✅ the gate passed</strong>"));
    }
    SECTION("--top 0: every row in the table in BEFORE's order, cut at a whole row to fit") {
        const RunResult r =
            run_cli({"compare", write("b.json", 0, 1), write("a.json", 1, 1), "--format", "md", "--top", "0"});
        REQUIRE(r.exit_code == 0);
        CHECK(r.out.size() < 65536);
        const std::string html = render(*cmark, r.out, true);
        const auto tables = tables_of(html);
        REQUIRE(tables.size() == 2);
        check_rectangular(tables);
        CHECK(tables[1].first_column.size() > 500);
        CHECK(tables[1].first_column.size() < 1001);
        CHECK(tables[1].first_column.front() == "<code>gemm_kernel_0</code>");
        CHECK_THAT(html, Contains("to stay under GitHub's 65,536-character comment limit; <code>--format json</code> "
                                  "has everything.</em>"));
    }
    SECTION("names too long for even the top rows: cut at a line, blocks closed") {
        const RunResult r = run_cli({"compare", write("b2.json", 0, 6000), write("a2.json", 1, 6000), "--format", "md",
                                     "--top", "15", "--names", "full"});
        REQUIRE(r.exit_code == 0);
        CHECK(r.out.size() < 65536);
        const std::string html = render(*cmark, r.out, true);
        CHECK_THAT(html, Contains("to stay under GitHub's 65,536-character comment limit; <code>--format json</code> "
                                  "has everything.</em>"));
        check_rectangular(tables_of(html));
        CHECK(count(html, "<details>") == count(html, "</details>"));
    }
}

TEST_CASE("markdown render: every command's Markdown has rectangular tables", "[markdown][render]") {
    const auto cmark = renderer();
    if (!cmark) return;
    const std::string profile = source_path("examples/transformer_step.json");
    const std::vector<std::vector<std::string>> commands{
        {"eval", profile, "-s", "attention_softmax=10", "--explain"},
        {"law", "-f", "0.6", "--target", "3"},
        {"rank", profile, "-s", "attention_softmax=10@3", "-s", "layernorm=10@2", "--by", "effort"},
        {"plan", profile, "--target", "2", "-k", "10", "--only", "kind:kernel"},
        {"plan", profile, "--target", "4", "-k", "10", "--only", "kind:kernel"},
        {"scale", "-p", "0.95", "-n", "1..1024", "--overhead", "log:0.005", "--time", "900ms"},
        {"fit", source_path("examples/scaling_runs.csv"), "--overhead", "log", "--predict", "256,1024"},
        {"queue", "--service", "50ms", "--rate", "16/s", "-s", "1.43", "--slo", "p99=1s", "--explain"},
    };
    for (auto args : commands) {
        args.insert(args.end(), {"--format", "md"});
        INFO("amdahl " << args.front() << " " << args[1]);
        const RunResult r = run_cli(args);
        REQUIRE(r.exit_code == 0);
        const std::string html = render(*cmark, r.out);
        INFO(html);
        CHECK_THAT(html, Contains("<h3>amdahl " + args.front() + ": "));
        const auto tables = tables_of(html);
        REQUIRE_FALSE(tables.empty());
        check_rectangular(tables);
        CHECK(tables.front().columns == 2);  // | result | value |
        CHECK(count(html, "<em>") == 0);
    }
}

TEST_CASE("markdown render: a name with a newline stays in its heading, row and note", "[markdown][render]") {
    const auto cmark = renderer();
    if (!cmark) return;
    TempDir dir;
    const std::string profile = dir / "newline_name.json";
    std::FILE* file = std::fopen(profile.c_str(), "wb");
    REQUIRE(file != nullptr);
    std::fputs(R"({"unit": "ms", "total": 100, "phases": [{"name": "line1\nline2 *x*", "time": 60, "share": 0.5},
                   {"name": "b|`c`", "time": 40}]})",
               file);
    std::fclose(file);
    // rank's heading names the winner: a raw newline in it used to end the heading mid-name.
    const RunResult r = run_cli({"rank", profile, "--format", "md"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.substr(0, r.out.find('\n')) == "### amdahl rank: line1\\\\x0Aline2 \\*x\\* first (2.1739x end to end)");
    const std::string html = render(*cmark, r.out);
    INFO(html);
    CHECK_THAT(html, Contains("<h3>amdahl rank: line1\\x0Aline2 *x* first (2.1739x end to end)</h3>"));
    const auto tables = tables_of(html);
    REQUIRE(tables.size() == 2);
    check_rectangular(tables);
    CHECK(tables[1].first_column == std::vector<std::string>{"1", "2"});
    CHECK_THAT(html, Contains("<td><code>line1\\x0Aline2 *x*</code></td>"));
    CHECK_THAT(html, Contains("<td><code>b|`c`</code></td>"));
    CHECK_THAT(html, Contains("<li>" + profile + ": phases[0]: phase 'line1\\x0Aline2 *x*': share 50% disagrees"));
    CHECK(count(html, "<em>") == 0);
}

TEST_CASE("markdown render: a comment cut to fit keeps its gates and verdict", "[markdown][render][compare]") {
    const auto cmark = renderer();
    if (!cmark) return;
    // Three phases with names of 70,000 characters: even the top rows do not fit.
    TempDir dir;
    const auto write = [&](const std::string& name, double scale) {
        std::string json = R"({"unit": "ms", "phases": {)";
        for (int i = 0; i < 3; ++i)
            json += (i ? ", " : "") + std::string("\"") + std::string(70000, static_cast<char>('a' + i)) +
                    "\": " + std::to_string(10 * scale);
        const std::string path = dir / name;
        std::FILE* file = std::fopen(path.c_str(), "wb");
        REQUIRE(file != nullptr);
        std::fputs((json + "}}").c_str(), file);
        std::fclose(file);
        return path;
    };
    const RunResult r = run_cli({"compare", write("b.json", 1), write("a.json", 1.2), "--fail-if-slower", "1%",
                                 "--names", "full", "--format", "md"});
    REQUIRE(r.exit_code == 1);
    CHECK(r.out.size() < 65536);
    const std::string html = render(*cmark, r.out, true);
    CHECK_THAT(html, Contains("<p><strong>Gates</strong></p>"));
    CHECK_THAT(html, Contains("<strong>Verdict: ❌ the gate failed</strong>"));
    CHECK_THAT(html, Contains("has everything.</em>"));
}
