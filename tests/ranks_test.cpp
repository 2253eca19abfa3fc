// Barrier segments across ranks (amdahl/ranks.hpp): grouping phases into segments, the step before
// and after speedups on some ranks, critical ranks and ties, slack, stragglers, and the errors.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/ranks.hpp"
#include "support.hpp"

namespace {

using amdahl::Error;
using amdahl::Profile;
using amdahl::RankProfile;
using Catch::Matchers::WithinRel;

// A rank's profile: (name, segment, time) phases.
RankProfile rank(const std::string& name, const std::vector<std::tuple<std::string, std::string, double>>& phases) {
    RankProfile out;
    out.rank = name;
    out.profile.source = name + ".csv";
    for (const auto& [phase, segment, time] : phases) {
        out.profile.phases.push_back(amdahl::test::phase(phase, "", time));
        out.profile.phases.back().segment = segment;
        out.profile.phases.back().at = out.profile.phases.size() + 1;
    }
    out.profile.origin = amdahl::Origin::line;
    return out;
}

std::vector<RankProfile> example() {
    return {rank("rank0", {{"embed", "fwd", 4}, {"gemm", "fwd", 10}, {"attention", "attn", 6}, {"ar", "sync", 3}}),
            rank("rank1", {{"embed", "fwd", 4}, {"gemm", "fwd", 10}, {"attention", "attn", 5}, {"ar", "sync", 3}}),
            rank("rank2", {{"embed", "fwd", 4}, {"gemm", "fwd", 11}, {"attention", "attn", 6}, {"ar", "sync", 3}}),
            rank("rank3", {{"embed", "fwd", 4}, {"gemm", "fwd", 10}, {"attention", "attn", 9}, {"ar", "sync", 3}})};
}

std::string error_of(std::vector<RankProfile> ranks) {
    try {
        amdahl::group_segments(std::move(ranks));
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("ranks: each segment lasts as long as its slowest rank", "[ranks]") {
    const amdahl::RankSet set = amdahl::group_segments(example());
    CHECK(set.segments == std::vector<std::string>{"fwd", "attn", "sync"});
    CHECK(set.named_segments);
    CHECK(set.missing == 0);
    const auto e = amdahl::evaluate_ranks(set, {amdahl::parse_rank_speedup("@rank3:attention=2")});
    CHECK_THAT(e.baseline_time, WithinRel(15.0 + 9 + 3, 1e-12));
    // rank3's attention 9 -> 4.5: rank0 and rank2 (6) now hold the barrier.
    CHECK_THAT(e.new_time, WithinRel(15.0 + 6 + 3, 1e-12));
    CHECK_THAT(e.speedup, WithinRel(27.0 / 24.0, 1e-12));
    CHECK(e.segments[1].critical_before == std::vector<std::size_t>{3});
    CHECK(e.segments[1].critical_after == std::vector<std::size_t>{0, 2});
    CHECK(e.segments[2].critical_before == std::vector<std::size_t>{0, 1, 2, 3});  // a tie: all of them
    // slack(r) = Σ_s (max - t(s, r)): rank1 waits 1 in fwd and 4 in attn.
    CHECK_THAT(e.slack_before[1], WithinRel(5.0, 1e-12));
    CHECK_THAT(e.slack_after[3], WithinRel(1.0 + 1.5, 1e-12));
    CHECK_THAT(e.speedups[0].busy_time_saved, WithinRel(4.5, 1e-12));
    CHECK_THAT(e.speedups[0].step_time_saved, WithinRel(3.0, 1e-12));
    CHECK(e.speedups[0].critical_anywhere);
}

TEST_CASE("ranks: a speedup on a rank that waits gains nothing", "[ranks]") {
    const amdahl::RankSet set = amdahl::group_segments(example());
    const auto e = amdahl::evaluate_ranks(set, {amdahl::parse_rank_speedup("@rank1:attention=2")});
    CHECK(e.new_time == e.baseline_time);
    CHECK_THAT(e.speedups[0].busy_time_saved, WithinRel(2.5, 1e-12));
    CHECK(e.speedups[0].step_time_saved == 0);
    CHECK_FALSE(e.speedups[0].critical_anywhere);
    // No prefix: every rank, so the critical rank3 too.
    const auto all = amdahl::evaluate_ranks(set, {amdahl::parse_rank_speedup("attention=inf")});
    CHECK_THAT(all.new_time, WithinRel(18.0, 1e-12));
    CHECK(all.speedups[0].ranks.size() == 4);
}

TEST_CASE("ranks: a selector's own colon is no rank prefix", "[ranks]") {
    const auto kind = amdahl::parse_rank_speedup("kind:kernel=2");
    CHECK_FALSE(kind.rank);
    CHECK(kind.spec.selector.type == amdahl::Selector::Type::kind);
    const auto named = amdahl::parse_rank_speedup("@rank2:name:a:b=3");
    CHECK(*named.rank == "rank2");
    CHECK(named.spec.selector.pattern == "a:b");
    CHECK_THROWS_WITH(amdahl::parse_rank_speedup("@rank2=2"),
                      "speedup '@rank2=2': expected @RANK:SELECTOR=FACTOR (e.g. @rank3:attention=2)");
}

TEST_CASE("ranks: without segment fields every phase is its own segment - a missing one takes 0", "[ranks]") {
    std::vector<RankProfile> ranks = {rank("a", {{"x", "", 2}, {"y", "", 3}}), rank("b", {{"x", "", 4}})};
    const amdahl::RankSet set = amdahl::group_segments(std::move(ranks));
    CHECK_FALSE(set.named_segments);
    CHECK(set.segments == std::vector<std::string>{"x", "y"});
    CHECK(set.missing == 1);
    CHECK(set.notes.at(1) ==
          "1 (segment, rank) pair is absent (first: 'y' on b): a rank without a segment spends 0 in it and waits at "
          "its barrier");
    const auto stragglers = amdahl::rank_stragglers(set);
    REQUIRE(stragglers.size() == 2);
    CHECK(stragglers[0].segment == 1);  // y: a holds 3 over b's 0
    CHECK(stragglers[0].held == 3);
    CHECK(stragglers[1].held == 2);
}

TEST_CASE("ranks: input errors name the files", "[ranks]") {
    CHECK(error_of({rank("a", {{"x", "s", 1}}), rank("a", {{"x", "s", 1}})}) ==
          "--ranks: two ranks are named 'a' (a.csv, by its file name, and a.csv, by its file name): give each rank "
          "once");
    // One named by a table's rank column says so.
    std::vector<RankProfile> mixed{rank("a", {{"x", "s", 1}}), rank("a", {{"x", "s", 1}})};
    mixed[1].from_column = true;
    CHECK(error_of(mixed) ==
          "--ranks: two ranks are named 'a' (a.csv, by its file name, and a.csv, by its 'rank' "
          "column): give each rank once");
    CHECK(error_of({rank("a", {{"x", "s", 1}, {"y", "t", 1}}), rank("b", {{"y", "t", 1}, {"x", "s", 1}})}) ==
          "--ranks: ranks order segments differently: b.csv runs 't' before 's', a.csv runs 's' first");
    CHECK(error_of({rank("a", {{"x", "s", 1}, {"y", "t", 1}, {"z", "s", 1}})}) ==
          "a.csv:4: segment 's' is split: phase 'x' is in it, then segment 't', then phase 'z'; a rank runs each "
          "segment once, its phases together");
    CHECK(error_of({rank("a", {{"x", "s", 1}}), rank("b", {{"x", "", 1}})}) ==
          "b.csv:2: phase 'x' has no segment, but phases of a.csv name theirs; give every phase a segment, or none");
    const amdahl::RankSet set = amdahl::group_segments(example());
    CHECK_THROWS_WITH(amdahl::evaluate_ranks(set, {amdahl::parse_rank_speedup("@rank9:attention=2")}),
                      "speedup '@rank9:attention=2': no rank is named 'rank9' (the ranks: 'rank0', 'rank1', 'rank2', "
                      "'rank3')");
    CHECK_THROWS_WITH(amdahl::evaluate_ranks(set, {amdahl::parse_rank_speedup("attention=2"),
                                                   amdahl::parse_rank_speedup("@rank1:attention=3")}),
                      "speedups 'attention=2' and '@rank1:attention=3' both pick phase 'attention' on rank1");
}
