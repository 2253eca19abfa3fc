// pair_begin_end (src/input/profilers/begin_end.cpp): the Chrome trace's B/E events become spans,
// the same ones a plain search of the open B events gives, for a bounded amount of work.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "input/profilers/begin_end.hpp"
#include "input/profilers/timeline.hpp"

using namespace amdahl;
using namespace amdahl::detail;
using Catch::Matchers::Message;

namespace {

Mark begin(double time, std::uint32_t name, std::uint32_t track = 0, std::uint32_t category = 0) {
    return {time, name, category, track, true, static_cast<std::uint64_t>(time), 3};
}

Mark end(double time, std::uint32_t name, std::uint32_t track = 0) {
    return {time, name, 0, track, false, static_cast<std::uint64_t>(time), 3};
}

bool same(const PairedSpan& a, const PairedSpan& b) {
    return a.start == b.start && a.end == b.end && a.name == b.name && a.category == b.category && a.track == b.track;
}

// The rule stated plainly: per track in time order, an E closes the latest open B of its name (any
// name when it has none), else the first B of its name later at the same instant; the rest run to
// the end. The search scans, so it takes quadratic time; it is the reference, not the reader.
struct Reference {
    std::vector<PairedSpan> spans;
    std::size_t unclosed = 0;
    bool failed = false;
};

Reference reference(std::vector<Mark> marks, double trace_end) {
    std::stable_sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) {
        return a.track != b.track ? a.track < b.track : a.time < b.time;
    });
    Reference out;
    std::vector<bool> used(marks.size(), false);
    std::vector<std::size_t> open;
    const auto close_all = [&] {
        for (std::size_t o : open) {
            out.spans.push_back(
                {marks[o].time, std::max(marks[o].time, trace_end), marks[o].name, marks[o].category, marks[o].track});
            ++out.unclosed;
        }
        open.clear();
    };
    for (std::size_t i = 0; i < marks.size(); ++i) {
        if (i > 0 && marks[i].track != marks[i - 1].track) close_all();
        if (used[i]) continue;
        const Mark& m = marks[i];
        if (m.begin) {
            open.push_back(i);
            continue;
        }
        bool closed = false;
        for (std::size_t k = open.size(); k-- > 0;) {
            const Mark& b = marks[open[k]];
            if (m.name == 0 || b.name == m.name) {
                out.spans.push_back({b.time, m.time, b.name, b.category, m.track});
                open.erase(open.begin() + static_cast<std::ptrdiff_t>(k));
                closed = true;
                break;
            }
        }
        for (std::size_t j = i + 1; !closed && j < marks.size() && marks[j].track == m.track && marks[j].time == m.time;
             ++j) {
            if (marks[j].begin && !used[j] && marks[j].name == m.name) {
                used[j] = closed = true;
                out.spans.push_back({m.time, m.time, m.name, marks[j].category, m.track});
            }
        }
        if (!closed) {
            out.failed = true;
            return out;
        }
    }
    close_all();
    return out;
}

Timeline names() {
    Timeline timeline;  // id 0 is "", the unnamed event
    for (const char* name : {"a", "b", "c"}) timeline.intern(name);
    return timeline;
}

}  // namespace

TEST_CASE("begin/end: nested, crossed, unnamed, same-instant and unclosed pairs", "[trace][begin-end]") {
    const Timeline timeline = names();
    // a 0-10 holds b 1-4; an unnamed E at 6 closes the latest open B (c 5); b 7 never closes.
    std::vector<Mark> marks{begin(0, 1), begin(1, 2), end(4, 2),    begin(5, 3),      end(6, 0),
                            begin(7, 2), end(10, 1),  end(3, 1, 1), begin(3, 1, 1, 2)};
    const Pairing pairing = pair_begin_end(marks, 12, timeline, "t.json");
    const std::vector<PairedSpan> expected{
        {1, 4, 2, 0, 0}, {5, 6, 3, 0, 0}, {0, 10, 1, 0, 0}, {7, 12, 2, 0, 0}, {3, 3, 1, 2, 1}};
    REQUIRE(pairing.spans.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("span " << i);
        CHECK(same(pairing.spans[i], expected[i]));
    }
    CHECK(pairing.unclosed == 1);

    std::vector<Mark> orphan{begin(0, 1), end(2, 2)};
    CHECK_THROWS_MATCHES(
        pair_begin_end(orphan, 2, timeline, "t.json"), Error,
        Message("t.json:2:3: an \"E\" event for 'b' has no matching \"B\" event before it on its thread"));
}

TEST_CASE("begin/end: random marks pair as the plain search does", "[trace][begin-end]") {
    const Timeline timeline = names();
    std::mt19937_64 rng(77);
    int failures = 0;
    for (int round = 0; round < 2000; ++round) {
        INFO("round " << round);
        std::uniform_int_distribution<int> count(1, 30), time(0, 8), name(0, 3), track(0, 2), coin(0, 2);
        std::vector<Mark> marks;
        for (int i = count(rng); i > 0; --i) {
            const auto n = static_cast<std::uint32_t>(name(rng));
            const auto t = static_cast<std::uint32_t>(track(rng));
            const double at = time(rng);
            marks.push_back(coin(rng) > 0 ? begin(at, n, t, n + 7) : end(at, n, t));
        }
        const Reference expected = reference(marks, 9);
        if (expected.failed) {
            ++failures;
            CHECK_THROWS_AS(pair_begin_end(marks, 9, timeline, "t.json"), Error);
            continue;
        }
        const Pairing pairing = pair_begin_end(marks, 9, timeline, "t.json");
        CHECK(pairing.unclosed == expected.unclosed);
        REQUIRE(pairing.spans.size() == expected.spans.size());
        for (std::size_t i = 0; i < expected.spans.size(); ++i) {
            INFO("span " << i);
            CHECK(same(pairing.spans[i], expected.spans[i]));
        }
    }
    CHECK(failures > 100);  // the E without a B is reached too
    CHECK(failures < 1900);
}

TEST_CASE("begin/end: pairs closed out of order take linear work", "[trace][begin-end]") {
    // A search of the open B events from the latest looks at n^2 / 2 of them here: 2e8.
    constexpr std::uint32_t n = 20000;
    Timeline timeline;
    std::vector<Mark> crossed, same_instant;
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t name = timeline.intern("span_" + std::to_string(i));
        crossed.push_back(begin(i, name));
        crossed.push_back(end(n + i, name));     // E i closes the oldest open B
        same_instant.push_back(end(1, name));    // every E listed first at the same instant,
        same_instant.push_back(begin(1, name));  // then every B
    }
    std::stable_partition(same_instant.begin(), same_instant.end(), [](const Mark& m) { return !m.begin; });
    const Pairing a = pair_begin_end(crossed, 2 * n, timeline, "t.json");
    CHECK(a.spans.size() == n);
    CHECK(a.marks_visited <= 4 * n);
    const Pairing b = pair_begin_end(same_instant, 1, timeline, "t.json");
    CHECK(b.spans.size() == n);
    CHECK(b.marks_visited <= 4 * n);
}
