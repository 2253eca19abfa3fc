// OverlapCover: which of a profile's overlap sets a choice of phases covers.
#include <catch2/catch.hpp>

#include "amdahl/candidate.hpp"
#include "amdahl/covered_overlap.hpp"
#include "amdahl/evaluate.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

// a, b, c alone; a+b at once 4, a+b+c at once 2, a+c at once 1: overlapped 7.
Profile three_streams(double listed_extra = 0) {
    Profile p;
    p.source = "streams.json";
    p.unit = Unit::us;
    p.phases = {test::phase("a", "kernel", 5, 12), test::phase("b", "kernel", 3, 9), test::phase("c", "copy", 2, 5),
                test::phase("overlapped", "overlapped", 7), test::phase("idle", "idle", 1)};
    p.overlaps = {{{"a", "b"}, 4 + listed_extra}, {{"a", "b", "c"}, 2}, {{"a", "c"}, 1}};
    return p;
}

std::vector<std::size_t> indices(const std::vector<CoveredOverlap>& sets) {
    std::vector<std::size_t> out;
    for (const auto& s : sets) out.push_back(s.index);
    return out;
}

}  // namespace

TEST_CASE("covered overlap: a set is covered when every one of its phases is given", "[overlap]") {
    const Profile p = three_streams();
    const OverlapCover cover(p);
    CHECK_FALSE(cover.note());
    CHECK(indices(cover.covered({0})).empty());  // one phase covers no set
    CHECK(indices(cover.covered({0, 1})) == std::vector<std::size_t>{0});
    CHECK(indices(cover.covered({1, 0})) == std::vector<std::size_t>{0});  // any order
    CHECK(indices(cover.covered({0, 2})) == std::vector<std::size_t>{2});
    CHECK(indices(cover.covered({0, 1, 2})) == (std::vector<std::size_t>{0, 1, 2}));
    CHECK(cover.covered({0, 1, 2})[1].time == 2);
    CHECK(indices(cover.covered({1, 2})).empty());
    // The overlapped phase itself given: its whole time is sped up as a phase, no set on top.
    CHECK(indices(cover.covered({0, 1, 3})).empty());
}

TEST_CASE("covered overlap: sets that add up to more than the overlapped phase are not used", "[overlap]") {
    // Within the rounding a profile may carry (0.5%), they are.
    CHECK(OverlapCover(three_streams(0.03)).covered({0, 1}).size() == 1);
    const Profile p = three_streams(1);  // 8 listed against 7
    const OverlapCover cover(p);
    CHECK(cover.covered({0, 1}).empty());
    REQUIRE(cover.note());
    CHECK_THAT(*cover.note(), Contains("streams.json: the profile's overlaps add up to 8.0 us, more than the "
                                       "'overlapped' phase holds (7.0 us)"));
    // eval says so, and counts no shared time as sped up.
    const Evaluation e = evaluate(p, {parse_speedup("a=2"), parse_speedup("b=2")});
    CHECK(e.new_time == Approx(5 / 2.0 + 3 / 2.0 + 2 + 7 + 1));
    CHECK_THAT(e.notes.back(), Contains("more than the 'overlapped' phase holds"));
}

TEST_CASE("covered overlap: a set naming a phase the profile lacks is never covered", "[overlap]") {
    Profile p = three_streams(-0.5);
    p.overlaps.push_back({{"a", "gone"}, 0.5});  // still 7 in all
    const OverlapCover cover(p);
    CHECK(indices(cover.covered({0, 1, 2})) == (std::vector<std::size_t>{0, 1, 2}));
}

TEST_CASE("covered overlap: eval shrinks each covered set at its smallest factor", "[overlap][evaluate]") {
    const Profile p = three_streams();
    // a 4x, b 2x, c untouched: a+b (4) at 2x; a+b+c and a+c ran beside c and stay.
    const Evaluation e = evaluate(p, {parse_speedup("a=4"), parse_speedup("b=2")});
    CHECK(e.covered_overlap_time == Approx(4));
    CHECK(e.phases[3].shrinks_with_others);
    CHECK(e.phases[3].spec == -1);
    CHECK(e.phases[3].new_time == Approx(3 + 2));
    CHECK(e.phases[3].factor == Approx(7.0 / 5));
    CHECK(e.new_time == Approx(1.25 + 1.5 + 2 + 5 + 1));
    CHECK(e.affected_fraction == Approx((5 + 3 + 4) / 18.0));
    CHECK(e.ceiling == Approx(18.0 / (2 + 3 + 1)));
    // An infinite factor with a finite one: the shared time lasts as long as the finite one's part.
    const Evaluation inf = evaluate(p, {parse_speedup("a=inf"), parse_speedup("b=4")});
    CHECK(inf.phases[3].new_time == Approx(3 + 1));
    // Every phase at infinity: only idle is left.
    const Evaluation all = evaluate(p, {parse_speedup("*=inf")});
    CHECK(all.new_time == Approx(1));
    CHECK(all.ceiling == Approx(18));
}

TEST_CASE("covered overlap: a candidate's time includes the sets only its phases ran in", "[overlap][candidate]") {
    const Profile p = three_streams();
    std::vector<std::string> notes;
    const auto c = proposal_candidates(p, {{"ab", parse_speedup("glob:[ab]=2")}, {"a", parse_speedup("a=2")}}, &notes);
    REQUIRE(c.size() == 2);
    CHECK(c[0].time == Approx(5 + 3 + 4));
    CHECK(c[0].saved == Approx(6));
    CHECK(c[0].outside == Approx(18 - 12));
    CHECK(c[0].covered_overlaps == std::vector<std::size_t>{0});
    CHECK(c[1].time == Approx(5));
    CHECK(c[1].covered_overlaps.empty());
    REQUIRE(notes.size() == 1);
    CHECK_THAT(notes[0], Contains("4.0 us of the 'overlapped' time ran only the phases of 'ab'"));
    CHECK(candidate_time(p, c) == Approx(12));
    CHECK(time_outside_candidates(p, c) == Approx(6));
}
