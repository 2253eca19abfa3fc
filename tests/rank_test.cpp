// Ranking candidates (src/analysis/rank.cpp): by time saved, by ceiling, or by saving per unit of
// effort, largest first and ties in input order, with each candidate's speedup, ceiling and grid.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "amdahl/error.hpp"
#include "amdahl/rank.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

Candidate candidate(std::string name, double time, double factor, std::optional<double> effort = std::nullopt) {
    Candidate c;
    c.name = std::move(name);
    c.time = time;
    c.factor = factor;
    c.effort = effort;
    c.saved = std::isinf(factor) ? time : time - time / factor;
    return c;
}

std::vector<std::size_t> order(const std::vector<RankedTarget>& ranked) {
    std::vector<std::size_t> out;
    for (const RankedTarget& target : ranked) out.push_back(target.candidate);
    return out;
}

using Order = std::vector<std::size_t>;

}  // namespace

TEST_CASE("rank: by time saved, the README's kernels at 10x", "[rank]") {
    const std::vector<Candidate> kernels = {candidate("attention_softmax", 21, 10), candidate("gemm_qkv", 34, 10),
                                            candidate("layernorm", 6, 10), candidate("gemm_proj", 12, 10),
                                            candidate("elementwise_gelu", 4, 10)};
    const auto ranked = rank_candidates(kernels, 100, RankBy::saving, {});
    CHECK(order(ranked) == Order{1, 0, 3, 2, 4});
    CHECK(ranked[0].speedup == Approx(1.4409221902));
    CHECK(ranked[0].ceiling == Approx(1.5151515152));
    CHECK(ranked[1].speedup == Approx(1.2330456227));
    CHECK(ranked[1].ceiling == Approx(1.2658227848));
    CHECK(ranked[4].speedup == Approx(100 / 96.4));
    CHECK(ranked[4].ceiling == Approx(100.0 / 96));
    CHECK_FALSE(ranked[0].saved_per_effort);
    CHECK(ranked[0].grid.empty());
}

TEST_CASE("rank: by ceiling orders by time, whatever the factor", "[rank]") {
    // a: 30 at 2x saves 15; b: 20 at 10x saves 18.
    const std::vector<Candidate> candidates = {candidate("a", 30, 2), candidate("b", 20, 10)};
    CHECK(order(rank_candidates(candidates, 100, RankBy::saving, {})) == Order{1, 0});
    const auto by_ceiling = rank_candidates(candidates, 100, RankBy::ceiling, {});
    CHECK(order(by_ceiling) == Order{0, 1});
    CHECK(by_ceiling[0].ceiling == Approx(100.0 / 70));
    CHECK(by_ceiling[0].speedup == Approx(100.0 / 85));
}

TEST_CASE("rank: by effort orders by time saved per unit of effort", "[rank]") {
    const std::vector<Candidate> proposals = {candidate("attention_softmax=10@3", 21, 10, 3.0),
                                              candidate("layernorm=10@2", 6, 10, 2.0),
                                              candidate("gemm_qkv=2@20", 34, 2, 20.0)};
    const auto ranked = rank_candidates(proposals, 100, RankBy::effort, {});
    CHECK(order(ranked) == Order{0, 1, 2});
    REQUIRE(ranked[0].saved_per_effort);
    CHECK(*ranked[0].saved_per_effort == Approx(6.3));
    CHECK(*ranked[1].saved_per_effort == Approx(2.7));
    CHECK(*ranked[2].saved_per_effort == Approx(0.85));
    // By saving the same proposals order differently, and still carry their saving per effort.
    const auto by_saving = rank_candidates(proposals, 100, RankBy::saving, {});
    CHECK(order(by_saving) == Order{0, 2, 1});
    CHECK(*by_saving[1].saved_per_effort == Approx(0.85));
}

TEST_CASE("rank: by effort needs an effort on every candidate", "[rank]") {
    const std::vector<Candidate> proposals = {candidate("a=2@1", 10, 2, 1.0), candidate("b=4", 10, 4)};
    CHECK_THROWS_MATCHES(
        rank_candidates(proposals, 100, RankBy::effort, {}), Error,
        Message("'b=4' has no effort; --by effort needs one on every proposal (SELECTOR=FACTOR@EFFORT)"));
    CHECK_NOTHROW(rank_candidates(proposals, 100, RankBy::saving, {}));
}

TEST_CASE("rank: ties keep the input order", "[rank]") {
    const std::vector<Candidate> candidates = {candidate("x", 10, 2), candidate("y", 20, 2), candidate("z", 10, 2),
                                               candidate("w", 10, 2)};
    CHECK(order(rank_candidates(candidates, 100, RankBy::saving, {})) == Order{1, 0, 2, 3});
    CHECK(order(rank_candidates(candidates, 100, RankBy::ceiling, {})) == Order{1, 0, 2, 3});
}

TEST_CASE("rank: the grid gives each candidate's speedup at other factors", "[rank]") {
    const std::vector<Candidate> candidates = {candidate("gemm_qkv", 34, 10), candidate("all", 100, 10)};
    const auto ranked = rank_candidates(candidates, 100, RankBy::saving, {2, 4, infinity, 1});
    REQUIRE(ranked.size() == 2);
    CHECK(ranked[0].candidate == 1);
    REQUIRE(ranked[0].grid.size() == 4);
    CHECK(ranked[0].grid[0] == Approx(2));
    CHECK(ranked[0].grid[1] == Approx(4));
    CHECK(std::isinf(ranked[0].grid[2]));  // the whole run at no time
    CHECK(ranked[0].grid[3] == Approx(1));
    REQUIRE(ranked[1].grid.size() == 4);
    CHECK(ranked[1].grid[0] == Approx(100 / 83.0));
    CHECK(ranked[1].grid[1] == Approx(100 / 74.5));
    CHECK(ranked[1].grid[2] == Approx(100 / 66.0));
    CHECK(ranked[1].grid[3] == Approx(1));
    CHECK(rank_candidates({}, 100, RankBy::saving, {2}).empty());
}
