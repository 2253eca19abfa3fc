// The replay engine (src/analysis/replay.cpp) on the small cases of docs/replay.md: factor 1 gives
// back the recorded timeline exactly, a speedup never makes the run longer, one stream of
// back-to-back kernels is Amdahl's law, two independent streams take the longer, and a host-bound
// run gains nothing from faster kernels.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "amdahl/error.hpp"
#include "analysis/replay.hpp"

using namespace amdahl;
using namespace amdahl::detail;
using Catch::Matchers::Contains;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

struct Builder {
    ReplayGraph graph;

    std::uint32_t event(double start, double end, std::uint32_t phase = no_phase, bool released = false) {
        graph.events.push_back({start, end, phase, released});
        return static_cast<std::uint32_t>(graph.events.size() - 1);
    }
    // `to` after `from` with the recorded gap as its delay: a tight edge.
    void after(std::uint32_t from, std::uint32_t to) {
        graph.edges.push_back({from, to, graph.events[to].start - graph.events[from].end, false});
    }
    // `to` launched by `from`: `latency` after its start (the recorded one when not given).
    void launched(std::uint32_t from, std::uint32_t to, double latency = -1) {
        if (latency < 0) latency = graph.events[to].start - graph.events[from].start;
        graph.edges.push_back({from, to, latency, true});
    }
    void waits(std::uint32_t call, std::uint32_t awaited) { graph.waits.push_back({call, awaited}); }
};

// Phases: 0 kernel work, 1 host work.
constexpr std::uint32_t kernel = 0, host = 1;

}  // namespace

TEST_CASE("replay: every factor 1 gives back the recorded timeline, bit for bit", "[replay]") {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> length(0.001, 7.3), gap(0.0, 2.1);
    for (int round = 0; round < 50; ++round) {
        // Three tracks of events with odd times; edges along each track and launches across.
        Builder b;
        std::vector<std::vector<std::uint32_t>> tracks(3);
        double clock[3] = {1.7e9, 1.7e9 + 0.1, 1.7e9 + 0.35};
        for (int i = 0; i < 60; ++i) {
            const int t = i % 3;
            const double start = clock[t] + gap(random);
            const double end = start + length(random);
            clock[t] = end;
            const auto e = b.event(start, end, static_cast<std::uint32_t>(i % 4), tracks[t].empty());
            if (!tracks[t].empty()) b.after(tracks[t].back(), e);
            tracks[t].push_back(e);
        }
        const ReplayResult r = replay(b.graph, {1, 1, 1, 1});
        for (std::size_t i = 0; i < b.graph.events.size(); ++i) {
            CHECK(r.start[i] == b.graph.events[i].start);  // exact, not approximately
            CHECK(r.end[i] == b.graph.events[i].end);
        }
        CHECK(r.after == r.before);
    }
}

TEST_CASE("replay: one stream of back-to-back kernels is Amdahl's law", "[replay]") {
    Builder b;
    const auto a = b.event(0, 30, 2, true);
    const auto gemm = b.event(30, 100, kernel);
    const auto c = b.event(100, 120, 2);
    b.after(a, gemm);
    b.after(gemm, c);
    const ReplayResult r = replay(b.graph, {2});
    CHECK(r.before == Approx(120));
    CHECK(r.after == Approx(120 - 35));  // 1 / ((1 - f) + f / 2) with f = 70 / 120
    CHECK(r.start[c] == Approx(65));
}

TEST_CASE("replay: two independent streams take the longer", "[replay]") {
    // gemm [0,100] on one stream, a copy [50,150] on another: a faster gemm leaves the copy
    // ending at 150, so the run gains nothing (the phase table says 1.2x to 1.5x).
    Builder b;
    const auto gemm = b.event(0, 100, kernel, true);
    const auto copy = b.event(50, 150, 1, true);
    ReplayResult r = replay(b.graph, {2, 1});
    CHECK(r.after == Approx(150));
    CHECK(r.end[gemm] == Approx(50));
    r = replay(b.graph, {1, 2});  // the copy 2x: it ends at 100, with the gemm
    CHECK(r.end[copy] == Approx(100));
    CHECK(r.after == Approx(100));
}

TEST_CASE("replay: a host-bound run gains from faster host work, not from faster kernels", "[replay]") {
    // The CPU launches a kernel at the start of each 10 us op; each kernel takes 2 us, 5 us after
    // its launch; a synchronize at the end waits for the last kernel.
    Builder b;
    std::uint32_t previous_op = 0, last_kernel = 0;
    for (int i = 0; i < 10; ++i) {
        const double t = 10.0 * i;
        const auto op = b.event(t, t + 10, host, i == 0);
        if (i > 0) b.after(previous_op, op);
        const auto k = b.event(t + 5, t + 7, kernel);
        b.launched(op, k);
        previous_op = op;
        last_kernel = k;
    }
    const auto sync = b.event(100, 101);
    b.after(previous_op, sync);
    b.waits(sync, last_kernel);
    CHECK(replay(b.graph, {1, 1}).after == Approx(101));
    CHECK(replay(b.graph, {inf, 1}).after == Approx(101));  // kernels at no time: still 101
    // Ops end at 50, the last kernel at 45 + 5 + 2 = 52, and the synchronize returns its own
    // 1 us after that: 53.
    const ReplayResult faster_host = replay(b.graph, {1, 2});
    CHECK(faster_host.after == Approx(53));
}

TEST_CASE("replay: a device-bound run gains what Amdahl on the GPU's busy time says", "[replay]") {
    // Ten launches of 1 us each queue ten 10 us kernels back to back; a synchronize from 10 to
    // 101 waits for the last one.
    Builder b;
    std::uint32_t previous_op = 0, previous_kernel = 0;
    for (int i = 0; i < 10; ++i) {
        const auto op = b.event(i, i + 1, host, i == 0);
        if (i > 0) b.after(previous_op, op);
        const auto k = b.event(1 + 10.0 * i, 11 + 10.0 * i, kernel);
        b.launched(op, k, i == 0 ? 1.0 : 0.5);  // queued: its launch was early, the stream order holds it
        if (i > 0) b.after(previous_kernel, k);
        previous_op = op;
        previous_kernel = k;
    }
    const auto sync = b.event(10, 101);
    b.after(previous_op, sync);
    b.waits(sync, previous_kernel);
    CHECK(replay(b.graph, {1, 1}).after == Approx(101));
    CHECK(replay(b.graph, {2, 1}).after == Approx(51 + 0));  // kernels 1..51, the sync ends with the last
    CHECK(replay(b.graph, {1, 2}).after == Approx(101));     // faster launches: the GPU still takes 100
}

TEST_CASE("replay: a speedup never makes the run longer", "[replay]") {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> length(0.5, 9.0), gap(0.0, 3.0), speed(1.0, 8.0);
    for (int round = 0; round < 200; ++round) {
        Builder b;
        std::vector<std::uint32_t> cpu, gpu;
        double cpu_clock = 0, gpu_clock = 0;
        for (int i = 0; i < 12; ++i) {
            const double s = cpu_clock + gap(random);
            const auto op = b.event(s, s + length(random), host, cpu.empty());
            if (!cpu.empty()) b.after(cpu.back(), op);
            cpu_clock = b.graph.events[op].end;
            cpu.push_back(op);
            const double ks = std::max(s + 1.0, gpu_clock);
            const auto k = b.event(ks, ks + length(random), kernel);
            if (ks == s + 1.0 || gpu.empty())
                b.launched(op, k);
            else
                b.launched(op, k, 1.0);
            if (!gpu.empty()) b.after(gpu.back(), k);
            gpu_clock = b.graph.events[k].end;
            gpu.push_back(k);
        }
        // The synchronize starts when the last op ends and waits for the last kernel.
        const auto sync = b.event(cpu_clock, std::max(cpu_clock, gpu_clock) + 1);
        b.after(cpu.back(), sync);
        b.waits(sync, gpu.back());
        const double before = replay(b.graph, {1, 1}).after;
        CHECK(before == Approx(b.graph.events[sync].end - b.graph.events[cpu.front()].start));
        CHECK(replay(b.graph, {speed(random), 1}).after <= before + 1e-9);
        CHECK(replay(b.graph, {1, speed(random)}).after <= before + 1e-9);
        CHECK(replay(b.graph, {speed(random), speed(random)}).after <= before + 1e-9);
    }
}

TEST_CASE("replay: graphs that are no replay are refused", "[replay]") {
    Builder b;
    const auto x = b.event(0, 10);
    const auto y = b.event(10, 20);
    b.after(x, y);
    b.graph.edges.push_back({y, x, 0, false});
    CHECK_THROWS_WITH(replay(b.graph, {}), Contains("the trace's dependencies form a cycle"));

    Builder c;
    const auto p = c.event(0, 10);
    const auto q = c.event(12, 20);
    c.graph.edges.push_back({p, q, 5, false});  // 5 us asked, 2 recorded
    CHECK_THROWS_WITH(replay(c.graph, {}), Contains("an edge asks for more delay than the trace recorded"));

    Builder d;
    d.event(5, 4);
    CHECK_THROWS_WITH(replay(d.graph, {}), Contains("ends before it starts"));
}
