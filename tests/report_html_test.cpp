// amdahl report: one self-contained HTML page. Structural checks: well-formed (every element
// closed in order), nothing from outside (no URL, script or font), every name escaped.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "report/html.hpp"
#include "support.hpp"

namespace {

using amdahl::test::read_file;
using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::TempDir;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;

std::string example() { return source_path("examples/transformer_step.json"); }

// The first problem with the page's element structure, or "" when every element opened is closed
// in order (void elements excepted) and every '<' starts a tag.
std::string structure_problem(const std::string& html) {
    static const std::vector<std::string> void_elements = {"meta", "br",   "hr",       "img",    "link",    "path",
                                                           "rect", "line", "polyline", "circle", "!DOCTYPE"};
    std::vector<std::string> open;
    for (std::size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
        const std::size_t end = html.find('>', at);
        if (end == std::string::npos) return "an unclosed '<' at " + std::to_string(at);
        const std::string tag = html.substr(at + 1, end - at - 1);
        if (tag.empty()) return "an empty tag at " + std::to_string(at);
        if (tag.back() == '/') continue;  // <rect ... />
        const bool closing = tag.front() == '/';
        const std::string name = tag.substr(closing ? 1 : 0, tag.find_first_of(" \n") - (closing ? 1 : 0));
        if (std::find(void_elements.begin(), void_elements.end(), name) != void_elements.end()) continue;
        if (!closing) {
            open.push_back(name);
            if (name == "style") at = html.find("</style>", at) - 1;  // CSS may hold '>'
            continue;
        }
        if (open.empty() || open.back() != name)
            return "</" + name + "> closes <" + (open.empty() ? "nothing" : open.back()) + ">";
        open.pop_back();
    }
    return open.empty() ? "" : "<" + open.back() + "> is never closed";
}

}  // namespace

TEST_CASE("html_escape turns the five special characters into references", "[report_html]") {
    CHECK(amdahl::html_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(amdahl::html_escape("Host→device") == "Host→device");
}

TEST_CASE("amdahl report writes one well-formed page with the eval, the model and the ranking", "[report_html]") {
    const RunResult r = run_cli({"report", example(), "-s", "attention_softmax=10"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    const std::string& html = r.out;
    CHECK(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">\n", 0) == 0);
    CHECK(structure_problem(html).empty());
    INFO(structure_problem(html));
    // Nothing from outside: no URL, script, external style sheet or font. The one "http" is the
    // inline SVG's namespace name, which nothing fetches.
    for (const char* outside : {"src=", "href=", "<script", "<link", "@import", "@font-face", "url("})
        CHECK_THAT(html, !Contains(outside));
    std::string without_namespace = html;
    const std::string svg_namespace = "xmlns=\"http://www.w3.org/2000/svg\"";
    for (auto at = without_namespace.find(svg_namespace); at != std::string::npos;
         at = without_namespace.find(svg_namespace))
        without_namespace.erase(at, svg_namespace.size());
    CHECK_THAT(without_namespace, !Contains("http"));
    CHECK_THAT(html, Contains("<h2>eval: 1.2330x end to end, 18.9 ms saved</h2>"));
    CHECK_THAT(html, Contains("<tr><th>speedup</th><td>1.2330x</td></tr>"));
    CHECK_THAT(html,
               Contains("<tr><th>ceiling</th><td>1.2658x (1 / (1 - f): the affected phases at no time)</td></tr>"));
    // The phase table, a bar beside each share.
    CHECK_THAT(html, Contains("<td><code>attention_softmax</code></td><td>kernel</td><td class=\"num\">21.0</td>"
                              "<td class=\"num\">21.0%</td><td class=\"bar\"><span style=\"width:21%\"></span></td>"));
    CHECK_THAT(html, Contains("<h2>The model and its assumptions</h2>"));
    CHECK_THAT(html, Contains("<h2>rank: every phase at 10x, largest saving first</h2>"));
    CHECK_THAT(html, Contains("<tr><th>largest saving</th><td>gemm_qkv (10x, 30.6 ms saved, 1.4409x end to end)</td>"));
}

TEST_CASE("amdahl report escapes every name from the profile", "[report_html]") {
    const std::string profile = write_temp("report_html_names.csv",
                                           "phase,time_ms\n"
                                           "\"<script>alert('x')</script>\",60\n"
                                           "a&b \"quoted\",40\n");
    const RunResult r = run_cli({"report", profile, "-s", "a&b \"quoted\"=2", "--names", "full"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, !Contains("<script"));
    CHECK_THAT(r.out, Contains("<code>&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;</code>"));
    CHECK_THAT(r.out, Contains("<code>a&amp;b &quot;quoted&quot;</code>"));
    CHECK(structure_problem(r.out).empty());
}

TEST_CASE("amdahl report -o FILE writes the page there", "[report_html]") {
    const TempDir dir;
    const std::string path = dir / "report.html";
    const RunResult r = run_cli({"report", example(), "-o", path});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(r.err == "wrote " + path + "\n");
    // The page is stdout's, but for the command line it shows.
    const std::string page = read_file(path), shown = run_cli({"report", example()}).out;
    const auto after_command = [](const std::string& html) { return html.substr(html.find("</code></p>")); };
    CHECK_THAT(page, Contains("<code>amdahl report " + example() + " -o " + path + "</code>"));
    CHECK(after_command(page) == after_command(shown));
}

TEST_CASE("amdahl report: errors name the input and exit 2", "[report_html]") {
    const std::string copy = write_temp("report_html_self.csv", "phase,time_ms\na,1\n");
    const RunResult self = run_cli({"report", copy, "-o", copy});
    CHECK(self.exit_code == 2);
    CHECK(self.err == "error: " + copy + ": -o names the input itself; write the report to another file\n");
    const RunResult selector = run_cli({"report", example(), "-s", "atention_softmax=10"});
    CHECK(selector.exit_code == 2);
    CHECK(selector.out.empty());
    CHECK(selector.err == "error: " + example() +
                              ": selector 'atention_softmax' matches no phase; did you mean 'attention_softmax'?\n");
    const RunResult format = run_cli({"report", example(), "--format", "json"});
    CHECK(format.exit_code == 2);
    CHECK(format.err ==
          "error: --format is an option of eval, law, rank, plan, compare, scale, fit and queue, not "
          "report (see 'amdahl report --help')\n");
}

TEST_CASE("amdahl report's chart: bar lengths proportional to the times, the ceiling at the untouched time",
          "[report_html]") {
    const std::string html = run_cli({"report", example(), "-s", "attention_softmax=10"}).out;
    // The width of the rect after each <g class="CLASS">, in order.
    const auto widths = [&](const std::string& css_class) {
        std::vector<double> found;
        const std::string group = "<g class=\"" + css_class + "\">";
        for (auto at = html.find(group); at != std::string::npos; at = html.find(group, at + 1)) {
            const auto width = html.find("width=\"", html.find("<rect", at)) + 7;
            found.push_back(std::stod(html.substr(width, html.find('"', width) - width)));
        }
        return found;
    };
    const auto untouched = widths("untouched"), sped_up = widths("sped-up");
    REQUIRE(untouched.size() == 2);
    REQUIRE(sped_up.size() == 2);
    // Before: 79 ms untouched, 21 ms sped up; after: the same 79 ms and 21 / 10 = 2.1 ms.
    CHECK(sped_up[0] / untouched[0] == Approx(21.0 / 79).epsilon(0.01));
    CHECK(untouched[1] == Approx(untouched[0]));
    CHECK(sped_up[1] / sped_up[0] == Approx(0.1).epsilon(0.01));
    CHECK_THAT(html, Contains("<title>sped-up phases: 2.1 ms</title>"));
    CHECK_THAT(html, Contains("<line class=\"ceiling\""));
    CHECK_THAT(html, Contains("ceiling 1.2658x: sped-up at no time"));
}
