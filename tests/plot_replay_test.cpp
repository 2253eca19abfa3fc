// eval --model replay --plot (src/report/plot_replay.cpp, src/analysis/replay_timeline.cpp): one
// row per track, recorded above and replayed below on one time axis. The rectangles sit where the
// events ran, the sped-up phases' events and the critical path are told apart, events narrower
// than a pixel are merged so a million events give a small file, and tracks beyond the cap are
// counted in the footer.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "amdahl/evaluate.hpp"
#include "amdahl/io.hpp"
#include "amdahl/replay.hpp"
#include "amdahl/replay_timeline.hpp"
#include "amdahl/results.hpp"
#include "amdahl/speedup.hpp"
#include "analysis/replay.hpp"
#include "report/chart.hpp"
#include "support.hpp"
#include "svg_reading.hpp"

using namespace amdahl;
using namespace amdahl::test::svg_reading;
using amdahl::test::read_file;
using amdahl::test::run_cli;
using amdahl::test::source_path;
using amdahl::test::TempDir;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

// Three launches on thread 1, and their kernels back to back on stream 7: k1 [0,30], k2 [30,60],
// k3 [60,90] us. Halving k2 ends the trace at 75 us.
const char* one_stream = R"({"traceEvents": [
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 1, "args": {"correlation": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"correlation": 3}},
{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 0, "dur": 30, "args": {"correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 30, "dur": 30, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "k3", "pid": 0, "tid": 7, "ts": 60, "dur": 30, "args": {"correlation": 3}}
]})";

// A profile of one phase, "k", whose `events` events lie on `tracks` GPU streams, each event
// `duration` long with `gap` before the next on its stream; every third is of the phase.
Profile many_events(std::size_t events, std::uint32_t tracks, double duration, double gap) {
    auto deps = std::make_shared<Dependencies>();
    deps->unit = Unit::us;
    deps->phase_names = {"k"};
    deps->has_events = {true};
    deps->labels = {{"k", true}, {"other", false}};
    const std::size_t per_track = events / tracks;
    double phase_time = 0;
    for (std::uint32_t t = 0; t < tracks; ++t) {
        deps->tracks.push_back({"stream " + std::to_string(t), static_cast<std::uint32_t>(deps->graph.events.size())});
        for (std::size_t i = 0; i < per_track; ++i) {
            const double start = static_cast<double>(i) * (duration + gap);
            const bool of_phase = i % 3 == 0;
            const auto v = static_cast<std::uint32_t>(deps->graph.events.size());
            deps->graph.events.push_back({start, start + duration, of_phase ? 0 : detail::no_phase, i == 0});
            deps->label.push_back(of_phase ? 0 : 1);
            if (i > 0) deps->graph.edges.push_back({v - 1, v, gap, false});
            if (of_phase) phase_time += duration;
        }
    }
    Profile profile;
    profile.source = "many.json";
    profile.unit = Unit::us;
    profile.phases.push_back(amdahl::test::phase("k", "kernel", phase_time));
    profile.phases.push_back(amdahl::test::phase("rest", "kernel", phase_time * 2));
    profile.dependencies = deps;
    return profile;
}

}  // namespace

TEST_CASE("plot replay: the strips sit where the events ran, recorded and replayed", "[plot][replay][cli]") {
    TempDir dir;
    const std::string trace = write_temp("one_stream.json", one_stream);
    const std::string chart = dir / "replay.svg";
    const auto r = run_cli({"eval", trace, "-s", "k2=2", "--model", "replay", "--plot", chart});
    REQUIRE(r.exit_code == 0);
    CHECK(xml_check(chart) == "ok");
    const std::string svg = read_file(chart);

    // k2, sped up: recorded [30,60], replayed [30,45], on one time axis that starts at 0 us.
    const auto sped_up = elements(svg, "rect", "sped-up");
    REQUIRE(sped_up.size() == 2);
    const double pixels_per_us = number(sped_up[0], "width") / 30;
    const double origin = number(sped_up[0], "x") - 30 * pixels_per_us;
    CHECK_THAT(number(sped_up[1], "x"), WithinAbs(origin + 30 * pixels_per_us, 0.02));
    CHECK_THAT(number(sped_up[1], "width"), WithinAbs(15 * pixels_per_us, 0.02));
    // The rest: three launches and k1, k3 in each panel; k3 replayed starts at 45 us.
    const auto others = elements(svg, "rect", "event");
    REQUIRE(others.size() == 10);
    std::vector<double> wide_x;  // k1 and k3, recorded then replayed
    for (const auto& rect : others)
        if (number(rect, "width") > 20 * pixels_per_us) wide_x.push_back(number(rect, "x"));
    REQUIRE(wide_x.size() == 4);
    CHECK_THAT(wide_x[0], WithinAbs(origin, 0.02));
    CHECK_THAT(wide_x[1], WithinAbs(origin + 60 * pixels_per_us, 0.02));
    CHECK_THAT(wide_x[3], WithinAbs(origin + 45 * pixels_per_us, 0.02));
    // Each panel's end, and the recorded end again (dashed) in the replayed panel.
    const auto ends = elements(svg, "line", "end");
    REQUIRE(ends.size() == 2);
    CHECK_THAT(number(ends[0], "x1"), WithinAbs(origin + 90 * pixels_per_us, 0.02));
    CHECK_THAT(number(ends[1], "x1"), WithinAbs(origin + 75 * pixels_per_us, 0.02));
    REQUIRE(elements(svg, "line", "recorded-end").size() == 1);
    // The critical path runs through the three kernels, back to back: one bar under the stream
    // in each panel, [0,90] and [0,75].
    const auto critical = elements(svg, "rect", "critical");
    REQUIRE(critical.size() >= 2);
    bool recorded_path = false, replayed_path = false;
    for (const auto& bar : critical) {
        if (std::abs(number(bar, "x") - origin) > 0.02) continue;
        recorded_path = recorded_path || std::abs(number(bar, "width") - 90 * pixels_per_us) < 0.02;
        replayed_path = replayed_path || std::abs(number(bar, "width") - 75 * pixels_per_us) < 0.02;
    }
    CHECK(recorded_path);
    CHECK(replayed_path);
    CHECK(texts(svg, "track") == std::vector<std::string>{"thread 1 (process 1)", "stream 7 (device 0)",
                                                          "thread 1 (process 1)", "stream 7 (device 0)"});
    CHECK(texts(svg, "panel-title") ==
          std::vector<std::string>{"recorded: the events end at 90.0 us",
                                   "replayed: the events end at 75.0 us (saved 15.0 us; dashed: the recorded end)"});
    CHECK(texts(svg, "axis-title") == std::vector<std::string>{"time since the first event (us)"});
    const auto footer = texts(svg, "footer");
    REQUIRE_FALSE(footer.empty());
    CHECK_THAT(footer[0], Contains("Model: replay: every event of the trace replayed over its dependencies"));
    CHECK(texts(svg, "subtitle") == std::vector<std::string>{"saved 15.0 us; sped up: k2 2x"});
    // The report on stdout is the one without --plot.
    CHECK(r.out == run_cli({"eval", trace, "-s", "k2=2", "--model", "replay"}).out);
}

TEST_CASE("plot replay: the example trace in the README draws", "[plot][replay][cli]") {
    TempDir dir;
    const std::string chart = dir / "replay.svg";
    const auto r = run_cli({"eval", source_path("tests/data/profilers/handmade/replay_sim_3steps.json"), "-s", "gemm=2",
                            "--model", "replay", "--plot", chart});
    REQUIRE(r.exit_code == 0);
    CHECK(xml_check(chart) == "ok");
    const std::string svg = read_file(chart);
    CHECK_FALSE(elements(svg, "rect", "sped-up").empty());
    CHECK_FALSE(elements(svg, "rect", "critical").empty());
    CHECK(texts(svg, "subtitle") == std::vector<std::string>{"saved 22.4815 us; sped up: gemm 2x"});
}

TEST_CASE("replay timeline: events narrower than the resolution merge into runs", "[replay][plot]") {
    // 12 events of 1 us on one stream, 1 us apart: k [0,1], other [2,3], other [4,5], k [6,7], ...
    const Profile profile = many_events(12, 1, 1, 1);
    const Evaluation evaluation = evaluate(profile, {parse_speedup("k=2")});
    SECTION("at a resolution finer than the events, each is its own run") {
        const ReplayTimeline timeline = replay_timeline(profile, evaluation, 1000, 16);
        REQUIRE(timeline.tracks.size() == 1);
        const auto& runs = timeline.tracks[0].recorded.runs;
        REQUIRE(runs.size() == 12);
        CHECK(runs[3].start == Approx(6));
        CHECK(runs[3].end == Approx(7));
        CHECK(runs[3].name == "k");
        CHECK(runs[3].sped_up == Approx(1));
        CHECK(runs[4].name == "other");
        CHECK(runs[4].sped_up == 0);
        // Replayed, each k takes 0.5 us; the gaps stay.
        CHECK(timeline.tracks[0].replayed.runs[3].end - timeline.tracks[0].replayed.runs[3].start == Approx(0.5));
        CHECK(timeline.recorded_end == Approx(23));
        CHECK(timeline.replayed_end == Approx(21));
        REQUIRE(timeline.sped_up.size() == 1);
        CHECK(timeline.sped_up[0].name == "k");
        CHECK(timeline.sped_up[0].factor == 2);
    }
    SECTION("at 3 cells across 23 us, events and gaps shorter than 7.67 us merge") {
        const ReplayTimeline timeline = replay_timeline(profile, evaluation, 3, 16);
        const auto& runs = timeline.tracks[0].recorded.runs;
        REQUIRE(runs.size() == 1);
        CHECK(runs[0].start == 0);
        CHECK(runs[0].end == Approx(23));
        CHECK(runs[0].events == 12);
        CHECK(runs[0].busy == Approx(12));
        CHECK(runs[0].sped_up == Approx(4));
        CHECK(runs[0].name.empty());  // of several names
        // The chain of events on the one stream is the critical path, merged the same way.
        REQUIRE(timeline.tracks[0].recorded.critical.size() == 1);
        CHECK(timeline.tracks[0].recorded.critical[0].end == Approx(23));
    }
}

TEST_CASE("replay timeline: tracks beyond the cap are counted, not drawn", "[replay][plot]") {
    const Profile profile = many_events(40, 5, 1, 1);
    const Evaluation evaluation = evaluate(profile, {parse_speedup("k=2")});
    const ReplayTimeline timeline = replay_timeline(profile, evaluation, 100, 3);
    CHECK(timeline.tracks.size() == 3);
    CHECK(timeline.tracks_left_out == 2);
    CHECK(timeline.events_left_out == 16);
}

TEST_CASE("plot replay: a million events give a file of bounded size", "[plot][replay]") {
    // 1,000,000 events of 1 us, 1 us apart, on 20 streams: each stream 100 ms long, far more
    // events than pixels.
    const Profile profile = many_events(1'000'000, 20, 1, 1);
    EvalResult result;
    result.profile = &profile;
    result.speedups = {parse_speedup("k=2")};
    result.evaluation = evaluate(profile, result.speedups);
    result.replay = replay_evaluation(profile, result.evaluation);
    const std::string svg = plot_svg(result, NumberStyle{});
    // 12 tracks drawn, the 8 others counted; each strip at most one run per pixel column.
    CHECK(texts(svg, "track").size() == 24);
    CHECK(elements(svg, "rect", "merged").size() <= 24 * 700);
    CHECK(svg.size() < 1'500'000);
    bool counted = false;
    for (const std::string& line : texts(svg, "footer"))
        counted = counted || line.find("8 more tracks (400,000 events) not shown") != std::string::npos;
    CHECK(counted);
}
