// --plot FILE.svg (src/report/plot_*.cpp): the charts say what the reports say. The bars' lengths
// are proportional to the times, the ceilings sit where 1/(1-f) is on the axis, names from code
// are escaped, every chart is well-formed XML, and --plot where there is no chart, or to a path
// that cannot be written, is an error (exit 2) that leaves stdout empty.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support.hpp"
#include "svg_reading.hpp"

namespace {

using amdahl::test::read_file;
using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::TempDir;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using namespace amdahl::test::svg_reading;

// The data value at page y, read back from the y axis: its tick labels (right-aligned at the
// tick's y + 4) give two points of the linear scale.
double y_value(const std::string& svg, double page_y) {
    std::vector<std::pair<double, double>> ticks;  // (page y, value)
    for (const Attributes& tick : elements(svg, "text", "tick")) {
        if (!tick.count("text-anchor") || tick.at("text-anchor") != "end") continue;
        ticks.emplace_back(number(tick, "y") - 4, 0);
    }
    const std::vector<std::string> labels = texts(svg, "tick");
    std::size_t label = 0;
    std::vector<double> values;
    for (const std::string& text : labels) {
        std::string plain;
        for (char c : text)
            if (c != ',') plain += c;
        values.push_back(std::stod(plain));
    }
    // The y-axis labels come after the x axis's: the last ticks.size() labels.
    label = values.size() - ticks.size();
    for (auto& tick : ticks) tick.second = values[label++];
    REQUIRE(ticks.size() >= 2);
    const auto [y0, v0] = ticks.front();
    const auto [y1, v1] = ticks.back();
    return v0 + (page_y - y0) * (v1 - v0) / (y1 - y0);
}

}  // namespace

TEST_CASE("plot: eval's bars are proportional to the phase times before and after", "[plot][cli]") {
    TempDir dir;
    const std::string chart = dir / "eval.svg";
    const RunResult r = run_cli({"eval", source_path("examples/transformer_step.json"), "-s", "attention_softmax=10",
                                 "-s", "gemm_qkv=2", "--plot", chart});
    REQUIRE(r.exit_code == 0);
    const std::string svg = read_file(chart);
    CHECK(xml_check(chart) == "ok");
    // Profile order: copy 18, gemm_qkv 34, attention_softmax 21, gemm_proj 12, layernorm 6, gelu 4, gaps 5.
    const std::vector<double> before = {18, 34, 21, 12, 6, 4, 5};
    const std::vector<double> after = {18, 17, 2.1, 12, 6, 4, 5};
    const auto before_bars = elements(svg, "rect", "before");
    const auto after_bars = elements(svg, "rect", "after");
    REQUIRE(before_bars.size() == before.size());
    REQUIRE(after_bars.size() == after.size());
    const double pixels_per_ms = number(before_bars[0], "width") / 18;
    for (std::size_t i = 0; i < before.size(); ++i) {
        CHECK_THAT(number(before_bars[i], "width"), WithinAbs(before[i] * pixels_per_ms, 0.02));
        CHECK_THAT(number(after_bars[i], "width"), WithinAbs(after[i] * pixels_per_ms, 0.02));
    }
    // The bars start together at 0 ms; the saving, 100 - 64.1 = 35.9 ms, is the dashed box after the after bar.
    const double origin = number(before_bars[0], "x");
    CHECK_THAT(number(after_bars[0], "x"), WithinAbs(origin, 0.01));
    const auto saved = elements(svg, "rect", "saved");
    REQUIRE(saved.size() == 1);
    CHECK_THAT(number(saved[0], "x"), WithinAbs(origin + 64.1 * pixels_per_ms, 0.02));
    CHECK_THAT(number(saved[0], "width"), WithinAbs(35.9 * pixels_per_ms, 0.02));
    // The ceiling: f = 55%, T (1 - f) = 45 ms, 1/(1-f) = 2.2222x.
    const auto ceiling = elements(svg, "line", "ceiling");
    REQUIRE(ceiling.size() == 1);
    CHECK_THAT(number(ceiling[0], "x1"), WithinAbs(origin + 45 * pixels_per_ms, 0.02));
    CHECK(texts(svg, "ceiling-label") == std::vector<std::string>{"ceiling 2.2222x (45.0 ms)"});
    // Numbers on the bars, the totals beside them, and the axis titled with its unit.
    CHECK(texts(svg, "total") == std::vector<std::string>{"100.0 ms", "64.1 ms \xc2\xb7 1.5601x"});
    CHECK(texts(svg, "axis-title") == std::vector<std::string>{"time (ms)"});
    const auto values = texts(svg, "value");
    CHECK(std::find(values.begin(), values.end(), "34.0") != values.end());
    CHECK(std::find(values.begin(), values.end(), "17.0") != values.end());
    // The report on stdout is the one without --plot.
    CHECK(r.out == run_cli({"eval", source_path("examples/transformer_step.json"), "-s", "attention_softmax=10", "-s",
                            "gemm_qkv=2"})
                       .out);
}

TEST_CASE("plot: names from code are escaped in the chart", "[plot][cli]") {
    TempDir dir;
    const std::string profile = dir / "names.csv";
    { std::ofstream(profile) << "name,time_ms\n\"matmul<float> & \"\"x\"\"\",60\n'quoted',40\n"; }
    const std::string chart = dir / "names.svg";
    const RunResult r = run_cli({"eval", profile, "-s", "matmul<float> & \"x\"=2", "--plot", chart});
    REQUIRE(r.err == "");
    REQUIRE(r.exit_code == 0);
    const std::string svg = read_file(chart);
    CHECK(svg.find("matmul&lt;float&gt; &amp; &quot;x&quot;") != std::string::npos);
    CHECK(svg.find("&apos;quoted&apos;") != std::string::npos);
    CHECK(svg.find("<float>") == std::string::npos);
    CHECK(xml_check(chart) == "ok");
}

TEST_CASE("plot: law's curve approaches the ceiling 1/(1-f), drawn at its value on the axis", "[plot][cli]") {
    TempDir dir;
    const std::string chart = dir / "law.svg";
    const RunResult r = run_cli({"law", "-f", "0.6", "-k", "4", "--plot", chart});
    REQUIRE(r.exit_code == 0);
    const std::string svg = read_file(chart);
    CHECK(xml_check(chart) == "ok");
    const auto asymptote = elements(svg, "line", "asymptote");
    REQUIRE(asymptote.size() == 1);
    CHECK_THAT(y_value(svg, number(asymptote[0], "y1")), WithinRel(2.5, 1e-3));  // 1 / (1 - 0.6)
    CHECK(texts(svg, "asymptote-label") == std::vector<std::string>{"ceiling 1/(1-f) = 2.5000x"});
    // The given k is marked at S = 1 / (0.4 + 0.6 / 4) = 1.8182x.
    const auto callout = elements(svg, "circle", "callout");
    REQUIRE(callout.size() == 1);
    CHECK_THAT(y_value(svg, number(callout[0], "cy")), WithinRel(1 / 0.55, 1e-3));
    CHECK(texts(svg, "callout-label") == std::vector<std::string>{"k = 4x \xe2\x86\x92 S = 1.8182x"});
    CHECK(texts(svg, "axis-title") ==
          std::vector<std::string>{"local speedup k of the part (x, log scale)", "end-to-end speedup S (x)"});

    // A target above the ceiling: no k is marked; the target is drawn above the asymptote.
    const std::string impossible = dir / "impossible.svg";
    REQUIRE(run_cli({"law", "-f", "0.6", "--target", "3", "--plot", impossible}).exit_code == 0);
    const std::string impossible_svg = read_file(impossible);
    CHECK(xml_check(impossible) == "ok");
    CHECK(elements(impossible_svg, "circle", "callout").empty());
    CHECK(texts(impossible_svg, "asymptote-label") ==
          std::vector<std::string>{"ceiling 1/(1-f) = 2.5000x", "target 3.0000x: above the ceiling"});
}

TEST_CASE("plot: rank draws each target's curve, ceiling and chosen k", "[plot][cli]") {
    TempDir dir;
    const std::string chart = dir / "rank.svg";
    const RunResult r = run_cli(
        {"rank", source_path("examples/transformer_step.json"), "-k", "10", "--only", "kind:kernel", "--plot", chart});
    REQUIRE(r.exit_code == 0);
    const std::string svg = read_file(chart);
    CHECK(xml_check(chart) == "ok");
    // Five kernels, best first: gemm_qkv (34%), attention_softmax (21%), gemm_proj, layernorm, gelu.
    CHECK(elements(svg, "polyline", "series").size() == 5);
    const auto asymptotes = elements(svg, "line", "asymptote");
    REQUIRE(asymptotes.size() == 5);
    CHECK_THAT(y_value(svg, number(asymptotes[0], "y1")), WithinRel(1 / 0.66, 1e-3));
    CHECK_THAT(y_value(svg, number(asymptotes[1], "y1")), WithinRel(1 / 0.79, 1e-3));
    const auto callouts = elements(svg, "circle", "callout");
    REQUIRE(callouts.size() == 5);
    CHECK_THAT(y_value(svg, number(callouts[0], "cy")), WithinRel(1 / (0.66 + 0.034), 1e-3));
}

TEST_CASE("plot: plan steps up to the target, and shows the gap when it is out of reach", "[plot][cli]") {
    TempDir dir;
    const std::string reached = dir / "plan.svg";
    REQUIRE(run_cli({"plan", source_path("examples/transformer_step.json"), "--target", "2", "-k", "10", "--only",
                     "kind:kernel", "--plot", reached})
                .exit_code == 0);
    const std::string svg = read_file(reached);
    CHECK(xml_check(reached) == "ok");
    const auto target = elements(svg, "line", "target");
    REQUIRE(target.size() == 1);
    CHECK_THAT(y_value(svg, number(target[0], "y1")), WithinRel(2.0, 1e-3));
    CHECK(elements(svg, "rect", "gap").empty());
    CHECK_FALSE(elements(svg, "rect", "step").empty());

    const std::string unreachable = dir / "unreachable.svg";
    REQUIRE(run_cli({"plan", source_path("examples/transformer_step.json"), "--target", "4", "-k", "10", "--only",
                     "kind:kernel", "--plot", unreachable})
                .exit_code == 0);
    const std::string gap_svg = read_file(unreachable);
    CHECK(xml_check(unreachable) == "ok");
    const auto gap = elements(gap_svg, "rect", "gap");
    REQUIRE(gap.size() == 1);
    // The gap spans from the best possible (every kernel at 10x: 1 / (0.23 + 0.077) = 3.2573x) to 4x.
    const double top = number(gap[0], "y"), bottom = top + number(gap[0], "height");
    CHECK_THAT(y_value(gap_svg, top), WithinRel(4.0, 1e-3));
    CHECK_THAT(y_value(gap_svg, bottom), WithinRel(1 / 0.307, 1e-3));
}

TEST_CASE("plot: scale, fit and compare draw their charts", "[plot][cli]") {
    TempDir dir;
    const std::string scale = dir / "scale.svg";
    REQUIRE(run_cli({"scale", "-p", "0.95", "-n", "5,10,100", "--plot", scale}).exit_code == 0);
    const std::string scale_svg = read_file(scale);
    CHECK(xml_check(scale) == "ok");
    const auto asymptote = elements(scale_svg, "line", "asymptote");
    REQUIRE(asymptote.size() == 1);
    CHECK(texts(scale_svg, "asymptote-label") == std::vector<std::string>{"ceiling 1/(1-P) = 20.0000x"});
    CHECK(elements(scale_svg, "circle", "point").size() == 6);  // 3 speedups, 3 efficiencies

    const std::string fit = dir / "fit.svg";
    REQUIRE(run_cli({"fit", source_path("examples/scaling_runs.csv"), "--plot", fit}).exit_code == 0);
    CHECK(xml_check(fit) == "ok");
    CHECK(elements(read_file(fit), "circle", "point").size() == 14);  // 7 runs, twice

    const std::string compare = dir / "compare.svg";
    REQUIRE(run_cli({"compare", source_path("examples/compare/before.json"), source_path("examples/compare/after.json"),
                     "--plot", compare})
                .exit_code == 0);
    const std::string compare_svg = read_file(compare);
    CHECK(xml_check(compare) == "ok");
    // The end-to-end row first, then the phases by |change|, largest first; widths proportional.
    const auto total = elements(compare_svg, "rect", "total");
    const auto rows = elements(compare_svg, "rect", "contribution");
    REQUIRE(total.size() == 1);
    REQUIRE(rows.size() >= 2);
    for (std::size_t i = 1; i < rows.size(); ++i) CHECK(number(rows[i - 1], "width") >= number(rows[i], "width"));
}

TEST_CASE("plot: a line of more points than pixels is drawn at the page's resolution", "[plot][cli]") {
    // scale -n 14:94222 drew 94,209 points twice, each a dot: a 15.7 MB SVG that took seconds to
    // write. Points closer than a pixel are one to the eye: the line keeps, of each pixel column,
    // its first, lowest, highest and last point, and a dot is drawn only a pixel or more away from
    // the last one drawn.
    TempDir dir;
    const std::string many = dir / "many.svg", few = dir / "few.svg";
    REQUIRE(run_cli({"scale", "-p", "0.9", "-n", "14:94222", "--plot", many}).exit_code == 0);
    REQUIRE(run_cli({"scale", "-p", "0.9", "-n", "14,100,1000,10000,94222", "--plot", few}).exit_code == 0);
    const std::string many_svg = read_file(many), few_svg = read_file(few);
    CHECK(xml_check(many) == "ok");
    CHECK(many_svg.size() < 400 * 1024);
    const auto dots = elements(many_svg, "circle", "point");
    CHECK(dots.size() > 100);   // still a dot wherever the points are a pixel apart
    CHECK(dots.size() < 4000);  // two charts, each at most one dot per pixel along its line
    // The same first and last points, the same best-N callout and axes as a plot of a few of them.
    const auto lines = elements(many_svg, "polyline", "series");
    const auto few_lines = elements(few_svg, "polyline", "series");
    REQUIRE(lines.size() == few_lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& points = lines[i].at("points");
        const std::string& few_points = few_lines[i].at("points");
        CHECK(points.substr(0, points.find(' ')) == few_points.substr(0, few_points.find(' ')));
        CHECK(points.substr(points.rfind(' ') + 1) == few_points.substr(few_points.rfind(' ') + 1));
    }
    CHECK(texts(many_svg, "tick") == texts(few_svg, "tick"));
    CHECK(elements(many_svg, "circle", "callout").size() == 1);
}

TEST_CASE("plot: a report without a chart is an error, and so is a path that cannot be written", "[plot][cli]") {
    TempDir dir;
    const std::string message =
        "error: --plot: this report has no chart: charts are drawn by eval, law, rank, plan, scale, fit and compare "
        "of two profiles (not with --mix or --ranks, nor by queue or compare of benchmark results)\n";
    RunResult r = run_cli({"queue", "--service", "50ms", "--rate", "16/s", "-s", "1.43", "--plot", dir / "q.svg"});
    CHECK(r.exit_code == 2);
    CHECK(r.out == "");
    CHECK(r.err == message);
    r = run_cli({"eval", "--mix", source_path("examples/mix/chat_decode.json") + "=900gpus", "--mix",
                 source_path("examples/mix/ranker.json") + "=100gpus", "-s", "topk_sampling=10", "--plot",
                 dir / "mix.svg"});
    CHECK(r.exit_code == 2);
    CHECK(r.out == "");
    CHECK(r.err == message);
    CHECK_FALSE(std::filesystem::exists(dir / "mix.svg"));

    // --model replay: rank's and plan's curves would be the phase table's, not the replay's
    // (eval's timeline is tests/plot_replay_test.cpp's).
    const std::string trace = source_path("tests/data/profilers/handmade/replay_sim_3steps.json");
    r = run_cli({"rank", trace, "-k", "2", "--model", "replay", "--plot", dir / "replay.svg"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Matchers::EndsWith(
                          "error: --plot: rank --model replay has no chart yet (its curves would be the phase table's "
                          "law, not the replayed trace's); drop --model replay to chart the law\n"));
    r = run_cli({"plan", trace, "--target", "1.05", "-k", "2", "--model", "replay", "--plot", dir / "replay.svg"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Matchers::EndsWith("error: --plot: plan --model replay has no chart yet; drop --model "
                                                "replay to chart the phase table's plan\n"));
    CHECK_FALSE(std::filesystem::exists(dir / "replay.svg"));

    const std::string missing = dir / "no/such/dir/eval.svg";
    r = run_cli({"eval", source_path("examples/transformer_step.json"), "-s", "layernorm=2", "--plot", missing});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: " + missing + ": cannot write here: " + std::strerror(ENOENT) + "\n");
}
