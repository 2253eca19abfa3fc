// The SVG writer (src/report/svg.cpp): escaping, coordinates, ticks, scales, and documents that
// an XML parser reads back.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "report/svg.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::WithinRel;

namespace {

// Parses `document` with Python's XML parser: "ok", or its complaint.
std::string xml_check(const std::string& document) {
    const auto result = test::run_shell(
        "python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.buffer.read()); print(\"ok\")'",
        document);
    return result.exit_code == 0 ? "ok" : result.err;
}

}  // namespace

TEST_CASE("svg: names from code are escaped, control bytes and broken UTF-8 replaced", "[svg]") {
    CHECK(svg::escape_xml("matmul<float>") == "matmul&lt;float&gt;");
    CHECK(svg::escape_xml("a & b") == "a &amp; b");
    CHECK(svg::escape_xml("say \"hi\" it's") == "say &quot;hi&quot; it&apos;s");
    CHECK(svg::escape_xml(std::string("nul\0here", 8)) == "nul\xef\xbf\xbdhere");
    CHECK(svg::escape_xml("bell\x07 del\x7f") == "bell\xef\xbf\xbd del\xef\xbf\xbd");
    CHECK(svg::escape_xml("tab\tline\n") == "tab\tline\n");
    CHECK(svg::escape_xml("\xc2\xb5s \xe2\x88\x9e \xf0\x9f\x9a\x80") == "\xc2\xb5s \xe2\x88\x9e \xf0\x9f\x9a\x80");
    // A lone continuation byte, a truncated sequence, an overlong '/', a surrogate.
    CHECK(svg::escape_xml("a\x80z") == "a\xef\xbf\xbdz");
    CHECK(svg::escape_xml("a\xe2\x88") == "a\xef\xbf\xbd\xef\xbf\xbd");
    CHECK(svg::escape_xml("\xc0\xaf") == "\xef\xbf\xbd\xef\xbf\xbd");
    CHECK(svg::escape_xml("\xed\xa0\x80") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

TEST_CASE("svg: text on a fill is black on light colours and white on dark ones", "[svg]") {
    CHECK(svg::ink_on("#0072B2") == "#FFFFFF");
    CHECK(svg::ink_on("#D55E00") == "#000000");  // vermillion: black contrasts more
    CHECK(svg::ink_on("#F0E442") == "#000000");
    CHECK(svg::ink_on("#E69F00") == "#000000");
    CHECK(svg::ink_on("#000000") == "#FFFFFF");
    CHECK(svg::ink_on("#BBBBBB") == "#000000");
    CHECK(svg::ink_on("none") == "#000000");
}

TEST_CASE("svg: coordinates have at most two decimals and are always numbers", "[svg]") {
    CHECK(svg::coordinate(12) == "12");
    CHECK(svg::coordinate(12.5) == "12.5");
    CHECK(svg::coordinate(1.0 / 3) == "0.33");
    CHECK(svg::coordinate(-0.001) == "0");
    CHECK(svg::coordinate(std::numeric_limits<double>::infinity()) == "0");
    CHECK(svg::coordinate(std::numeric_limits<double>::quiet_NaN()) == "0");
}

TEST_CASE("svg: nice ticks are 1, 2 or 5 times a power of ten and cover the interval", "[svg]") {
    CHECK(svg::nice_ticks(0, 100, 5) == std::vector<double>{0, 20, 40, 60, 80, 100});
    CHECK(svg::nice_ticks(0, 118.9, 5) == std::vector<double>{0, 20, 40, 60, 80, 100, 120});
    const auto small = svg::nice_ticks(0, 1.7, 4);
    REQUIRE(small.size() == 5);
    CHECK_THAT(small.back(), WithinRel(2.0, 1e-12));
    CHECK_THAT(small[1], WithinRel(0.5, 1e-12));
    const auto negative = svg::nice_ticks(-3, 7, 5);
    CHECK(negative.front() <= -3);
    CHECK(negative.back() >= 7);
    CHECK(svg::nice_ticks(5, 5) == std::vector<double>{5});
    CHECK(svg::nice_ticks(1, 0).empty());
    CHECK(svg::nice_ticks(0, std::numeric_limits<double>::infinity()).empty());
}

TEST_CASE("svg: log ticks are the decades, with 2 and 5 between them over a short range", "[svg]") {
    CHECK(svg::log_ticks(1, 100) == std::vector<double>{1, 2, 5, 10, 20, 50, 100});
    CHECK(svg::log_ticks(1, 10000) == std::vector<double>{1, 10, 100, 1000, 10000});
    CHECK(svg::log_ticks(1.5, 30).front() == 1);
    CHECK(svg::log_ticks(0, 10).empty());
    // Hundreds of decades (a 1e300x slowdown's curve) take every 50th decade, not 303 ticks.
    CHECK(svg::log_ticks(1e-300, 100) == std::vector<double>{1e-300, 1e-250, 1e-200, 1e-150, 1e-100, 1e-50, 1});
    CHECK(svg::log_ticks(1, 1e30).size() <= 11);
}

TEST_CASE("svg: tick labels carry as many decimals as the step needs", "[svg]") {
    CHECK(svg::tick_labels({0, 20, 40}) == std::vector<std::string>{"0", "20", "40"});
    CHECK(svg::tick_labels({0, 0.5, 1}) == std::vector<std::string>{"0.0", "0.5", "1.0"});
    CHECK(svg::tick_labels({0, 0.25, 0.5}) == std::vector<std::string>{"0.00", "0.25", "0.50"});
    CHECK(svg::tick_labels({0, 2000, 4000}) == std::vector<std::string>{"0", "2,000", "4,000"});
    CHECK(svg::tick_labels({1, 2, 5, 10}) == std::vector<std::string>{"1", "2", "5", "10"});
    // Beyond what 12 decimals show: the number in scientific form, never "0.000000000000".
    CHECK(svg::tick_labels({1e-300, 1e-250, 1}) == std::vector<std::string>{"1e-300", "1e-250", "1"});
}

TEST_CASE("svg: a scale maps the domain onto the range, linearly or by logarithm", "[svg]") {
    const svg::Scale linear{.domain_low = 0, .domain_high = 10, .range_low = 100, .range_high = 300};
    CHECK_THAT(linear(0), WithinRel(100.0, 1e-12));
    CHECK_THAT(linear(5), WithinRel(200.0, 1e-12));
    const svg::Scale upward{.domain_low = 0, .domain_high = 4, .range_low = 400, .range_high = 0};
    CHECK_THAT(upward(1), WithinRel(300.0, 1e-12));
    const svg::Scale logarithmic{
        .domain_low = 1, .domain_high = 100, .range_low = 0, .range_high = 200, .logarithmic = true};
    CHECK_THAT(logarithmic(10), WithinRel(100.0, 1e-12));
    // An empty domain maps everything to the start, never to NaN.
    const svg::Scale empty{.domain_low = 3, .domain_high = 3, .range_low = 7, .range_high = 9};
    CHECK(empty(3) == 7);
}

TEST_CASE("svg: a document is well-formed XML whatever names it is given", "[svg]") {
    svg::Document document(400, 200, "eval <before & after>");
    document.begin_group("phase \"matmul<float>\" & co\x01");
    document.rect(10, 20, 30.456, 40, {.fill = svg::palette[0], .css_class = "bar"});
    document.end_group();
    document.line(0, 0, 100, 100, {.stroke = svg::ink, .dash = "6 4"});
    document.polyline({{0, 0}, {1, 1}, {2, 4}}, {.stroke = svg::palette[1], .stroke_width = 2});
    document.circle(5, 5, 3, {.fill = svg::palette[2]});
    document.text(10, 10, "a<b>&'c'\xff", {.anchor = svg::Anchor::middle, .bold = true, .rotate = -90});
    document.begin_group();  // left open: finish() closes it
    const std::string text = document.finish();
    CHECK(text.starts_with(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"200\" viewBox=\"0 0 400 200\""));
    CHECK(text.find("<title>eval &lt;before &amp; after&gt;</title>") != std::string::npos);
    CHECK(text.find("<rect class=\"bar\" fill=\"#0072B2\" x=\"10\" y=\"20\" width=\"30.46\" height=\"40\"/>") !=
          std::string::npos);
    CHECK(text.find("stroke-dasharray=\"6 4\"") != std::string::npos);
    CHECK(text.find("points=\"0,0 1,1 2,4\"") != std::string::npos);
    CHECK(text.find(">a&lt;b&gt;&amp;&apos;c&apos;\xef\xbf\xbd</text>") != std::string::npos);
    CHECK(text.find("transform=\"rotate(-90 10 10)\"") != std::string::npos);
    CHECK(text.ends_with("</g>\n</svg>\n"));
    CHECK(xml_check(text) == "ok");
}

TEST_CASE("svg: axes draw a tick and a label per value and a title with its unit", "[svg]") {
    svg::Document document(300, 200, "axes");
    const svg::PlotArea area{.left = 60, .top = 10, .width = 200, .height = 140};
    const std::vector<double> ticks = svg::nice_ticks(0, 100, 5);
    const svg::Scale x{.domain_low = 0, .domain_high = 100, .range_low = area.left, .range_high = area.right()};
    svg::x_axis(document, area, x, ticks, svg::tick_labels(ticks), "time (ms)");
    const svg::Scale y{.domain_low = 0, .domain_high = 100, .range_low = area.bottom(), .range_high = area.top};
    svg::y_axis(document, area, y, ticks, svg::tick_labels(ticks), "speedup (x)");
    svg::legend(document, 200, 20, {{"before", svg::palette[0]}, {"ceiling", svg::ink, true, "6 4"}});
    const std::string text = document.finish();
    CHECK(text.find(">time (ms)</text>") != std::string::npos);
    CHECK(text.find(">speedup (x)</text>") != std::string::npos);
    CHECK(text.find("class=\"tick\" x=\"180\" y=\"168\" font-size=\"12\" text-anchor=\"middle\">60</text>") !=
          std::string::npos);
    CHECK(text.find(">ceiling</text>") != std::string::npos);
    CHECK(xml_check(text) == "ok");
}
