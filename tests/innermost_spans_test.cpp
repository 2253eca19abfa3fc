// InnermostSpans (src/input/profilers/innermost_spans.hpp), the trace sweep's record of which span
// runs on each track: the same answer as a scan of the running spans, for a bounded amount of work.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "input/profilers/innermost_spans.hpp"

using namespace amdahl::detail;

namespace {

struct TestSpan {
    long start, end;
    std::uint32_t track;
};

// The sweep's order: the latest start, then the earliest end, then the later span. Counts its calls.
struct Inner {
    const std::vector<TestSpan>* spans;
    std::size_t* comparisons;
    bool operator()(std::uint32_t a, std::uint32_t b) const {
        ++*comparisons;
        const TestSpan& x = (*spans)[a];
        const TestSpan& y = (*spans)[b];
        if (x.start != y.start) return x.start > y.start;
        if (x.end != y.end) return x.end < y.end;
        return a > b;
    }
};

struct Boundary {
    long time;
    bool start;
    std::uint32_t span;
};

// Runs the spans through InnermostSpans in time order (ends before starts at a tie, as the sweep
// does), checking each track's top against a scan of its running spans after every boundary.
// Returns the comparisons InnermostSpans made.
std::size_t sweep_and_check(const std::vector<TestSpan>& spans, bool check) {
    std::size_t comparisons = 0, scan_comparisons = 0;
    std::vector<Boundary> boundaries;
    for (std::uint32_t i = 0; i < spans.size(); ++i) {
        boundaries.push_back({spans[i].start, true, i});
        boundaries.push_back({spans[i].end, false, i});
    }
    std::stable_sort(boundaries.begin(), boundaries.end(), [](const Boundary& a, const Boundary& b) {
        return a.time != b.time ? a.time < b.time : a.start < b.start;
    });
    InnermostSpans<Inner> innermost(Inner{&spans, &comparisons});
    const Inner scan_inner{&spans, &scan_comparisons};
    std::vector<bool> running(spans.size(), false);
    for (const Boundary& b : boundaries) {
        const std::uint32_t track = spans[b.span].track;
        running[b.span] = b.start;
        if (b.start)
            innermost.start(track, b.span);
        else
            innermost.end(track, b.span);
        const std::uint32_t top = innermost.top(track);
        if (!check) continue;
        std::uint32_t expected = InnermostSpans<Inner>::none;
        for (std::uint32_t s = 0; s < spans.size(); ++s) {
            if (!running[s] || spans[s].track != track) continue;
            if (expected == InnermostSpans<Inner>::none || scan_inner(s, expected)) expected = s;
        }
        REQUIRE(top == expected);
    }
    return comparisons;
}

}  // namespace

TEST_CASE("innermost spans: each track's top is its innermost running span", "[trace][innermost]") {
    std::mt19937_64 rng(2024);
    for (int round = 0; round < 300; ++round) {
        INFO("round " << round);
        std::uniform_int_distribution<int> count(1, 40), track(0, 3);
        std::uniform_int_distribution<long> time(0, 30);
        std::vector<TestSpan> spans(static_cast<std::size_t>(count(rng)));
        for (TestSpan& s : spans) {  // nested, overlapping and identical spans alike (the sweep drops empty ones)
            long a = time(rng), b = time(rng);
            if (a > b) std::swap(a, b);
            if (a == b) ++b;
            s = {a, b, static_cast<std::uint32_t>(track(rng))};
        }
        sweep_and_check(spans, true);
    }
}

TEST_CASE("innermost spans: deep nesting and crossed spans take O(n log n) comparisons", "[trace][innermost]") {
    // A scan of the running spans after every boundary takes n^2 / 2 comparisons per half: 2e8 here.
    constexpr long n = 20000;
    const double bound = 8.0 * n * std::log2(n);  // about 2.3 million
    std::vector<TestSpan> nested, crossed;
    for (long i = 0; i < n; ++i) {
        nested.push_back({i, 2 * n - i, 0});  // each inside the one before
        crossed.push_back({i, n + i, 0});     // each starts inside the one before and ends after it
    }
    CHECK(static_cast<double>(sweep_and_check(nested, false)) < bound);
    CHECK(static_cast<double>(sweep_and_check(crossed, false)) < bound);
}
