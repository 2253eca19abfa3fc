// The workload mix's library logic: weights, fleet time shares, the fleet's speedup and the share
// of the win each workload carries, selectors that miss some workloads, and rank_mix. The numbers
// are worked by hand in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "amdahl/error.hpp"
#include "amdahl/mix.hpp"
#include "support.hpp"

namespace {

using namespace amdahl;
using amdahl::test::phase;
using Catch::Matchers::WithinRel;

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

Profile profile_of(std::vector<Phase> phases) {
    Profile p;
    p.unit = Unit::ms;
    p.phases = std::move(phases);
    return p;
}

}  // namespace

TEST_CASE("mix: weights are shares, GPU counts or request rates", "[mix]") {
    CHECK(parse_mix_weight("0.7").kind == MixWeightKind::share);
    CHECK_THAT(parse_mix_weight("0.7").value, WithinRel(0.7));
    CHECK_THAT(parse_mix_weight("70%").value, WithinRel(0.7));
    CHECK(parse_mix_weight("120gpus").kind == MixWeightKind::gpus);
    CHECK_THAT(parse_mix_weight("120gpu").value, WithinRel(120.0));
    CHECK(parse_mix_weight("15/s").kind == MixWeightKind::rate);
    CHECK_THAT(parse_mix_weight("15/s").value, WithinRel(15.0));
    CHECK(parse_mix_weight("15/s").text == "15/s");
    const std::string forms =
        "is not a share of fleet time (0.7 or 70%), a GPU count (120gpus) or a request rate (15/s)";
    CHECK(error_of([] { parse_mix_weight("heavy"); }) == "weight 'heavy' " + forms);
    CHECK(error_of([] { parse_mix_weight("gpus"); }) == "weight 'gpus' " + forms);
    CHECK(error_of([] { parse_mix_weight("inf"); }) == "weight 'inf' " + forms);
    CHECK(error_of([] { parse_mix_weight("0"); }) == "weight '0' must be > 0");
    CHECK(error_of([] { parse_mix_weight("-3gpus"); }) == "weight '-3gpus' must be > 0");
    CHECK(error_of([] { parse_mix_weight("1.5"); }) ==
          "weight '1.5' is a share of fleet time above 1 (write 0.7 or 70%; 120gpus for a GPU count, 15/s for a rate)");
}

TEST_CASE("mix: weights become shares of fleet time", "[mix]") {
    const auto shares = [](std::vector<std::string> texts, std::vector<double> seconds) {
        std::vector<MixWeight> weights;
        for (const auto& t : texts) weights.push_back(parse_mix_weight(t));
        return fleet_time_shares(weights, seconds);
    };
    // Shares as given: 0.7 and 30% sum to 1.
    auto w = shares({"0.7", "30%"}, {1, 1});
    CHECK_THAT(w[0], WithinRel(0.7));
    CHECK_THAT(w[1], WithinRel(0.3));
    // GPUs: 900 / (900 + 100) = 0.9.
    w = shares({"900gpus", "100gpus"}, {1, 1});
    CHECK_THAT(w[0], WithinRel(0.9));
    CHECK_THAT(w[1], WithinRel(0.1));
    // Rates: 15/s x 0.1 s = 1.5 and 5/s x 0.2 s = 1.0 of busy time per second: 1.5 / 2.5 = 0.6.
    w = shares({"15/s", "5/s"}, {0.1, 0.2});
    CHECK_THAT(w[0], WithinRel(0.6));
    CHECK_THAT(w[1], WithinRel(0.4));
    CHECK(error_of([&] {
              shares({"0.7", "0.2"}, {1, 1});
          }) ==
          "the shares of fleet time sum to 0.9 (0.7 + 0.2), not 1: give every workload's share so that they add up "
          "to 1, or GPU counts (=120gpus) or request rates (=15/s), which are normalised");
    CHECK(error_of([&] {
              shares({"0.7", "120gpus"}, {1, 1});
          }) ==
          "weights '0.7' and '120gpus' are of different kinds (a share of fleet time and a GPU count): give every "
          "workload the same kind of weight");
    CHECK(error_of([&] {
              shares({"1/s", "2/s"}, {0, 0});
          }) == "the workloads take no time per request: request rates cannot weigh them (give shares or GPUs)");
}

TEST_CASE("mix: the fleet's speedup is 1 / sum of w_i / S_i", "[mix]") {
    // w = 0.9, 0.1; S = 50/49.1, 10/6.4 = 1.5625.
    // after = 0.9 x 49.1/50 + 0.1 / 1.5625 = 0.8838 + 0.064 = 0.9478; S = 1 / 0.9478 = 1.055075...
    // saved = 0.9 x 0.018 + 0.1 x 0.36 = 0.0162 + 0.036 = 0.0522; win = 0.0162 / 0.0522, 0.036 / 0.0522.
    const FleetOutcome fleet = fleet_outcome({0.9, 0.1}, {50 / 49.1, 1.5625});
    CHECK_THAT(fleet.speedup, WithinRel(1 / 0.9478, 1e-12));
    CHECK_THAT(fleet.saved_fraction, WithinRel(0.0522, 1e-12));
    CHECK_THAT(fleet.saved[0], WithinRel(0.0162, 1e-12));
    CHECK_THAT(fleet.new_time[1], WithinRel(0.064, 1e-12));
    REQUIRE(fleet.win_share.size() == 2);
    CHECK_THAT(fleet.win_share[0], WithinRel(0.0162 / 0.0522, 1e-12));
    CHECK_THAT(fleet.win_share[1], WithinRel(0.036 / 0.0522, 1e-12));
    // 1 - 1/S is the saving, both ways.
    CHECK_THAT(1 - 1 / fleet.speedup, WithinRel(fleet.saved_fraction, 1e-12));

    // A workload at no time: it drops out of the sum. 1 / (0.5 / 2) = 4.
    const double inf = std::numeric_limits<double>::infinity();
    CHECK_THAT(fleet_outcome({0.5, 0.5}, {inf, 2}).speedup, WithinRel(4.0));
    CHECK(std::isinf(fleet_outcome({0.5, 0.5}, {inf, inf}).speedup));
    // Nothing saved: no win to share.
    CHECK(fleet_outcome({0.5, 0.5}, {1, 1}).win_share.empty());
    // A slowdown on one workload: 1 / (0.5 / 2 + 0.5 / 0.5) = 1 / 1.25 = 0.8.
    CHECK_THAT(fleet_outcome({0.5, 0.5}, {2, 0.5}).speedup, WithinRel(0.8));
}

TEST_CASE("mix: a selector missing in some workloads is 1x there, with a note", "[mix]") {
    const Profile a = profile_of({phase("gemm", "kernel", 30), phase("topk", "kernel", 1), phase("host", "", 19)});
    const Profile b = profile_of({phase("topk", "kernel", 4), phase("lookup", "kernel", 6)});
    std::vector<std::string> notes;
    const auto specs = std::vector<SpeedupSpec>{parse_speedup("topk=10"), parse_speedup("gemm=2")};
    const auto result = evaluate_workloads({&a, &b}, {"a.json", "b.json"}, specs, notes);
    REQUIRE(result.size() == 2);
    CHECK(result[0].speedups == std::vector<std::size_t>{0, 1});
    CHECK(result[1].speedups == std::vector<std::size_t>{0});
    // a: 50 -> 19 + 15 + 0.1 = 34.1; b: 10 -> 0.4 + 6 = 6.4.
    CHECK_THAT(result[0].evaluation.new_time, WithinRel(34.1));
    CHECK_THAT(result[1].evaluation.speedup, WithinRel(1.5625));
    CHECK(notes ==
          std::vector<std::string>{"selector 'gemm' picks no phase in b.json: that workload stays at 1x there"});

    notes.clear();
    CHECK(error_of([&] {
              evaluate_workloads({&a, &b}, {"a.json", "b.json"}, {parse_speedup("gemn=2")}, notes);
          }) == "selector 'gemn' matches no phase in any workload (a.json: did you mean 'gemm'?)");
}

TEST_CASE("mix: rank_mix joins targets by name and weighs their savings", "[mix]") {
    const Profile a = profile_of({phase("gemm", "kernel", 30), phase("topk", "kernel", 1), phase("host", "", 19)});
    const Profile b = profile_of({phase("topk", "kernel", 4), phase("lookup", "kernel", 6)});
    const std::vector<std::vector<Candidate>> candidates = {phase_candidates(a, {}, Factor{10}),
                                                            phase_candidates(b, {}, Factor{10})};
    const auto ranked = rank_mix(candidates, {50, 10}, {0.9, 0.1}, RankBy::saving, {2});
    REQUIRE(ranked.size() == 4);
    // gemm: 0.9 x 27/50 = 0.486; host: 0.9 x 17.1/50 = 0.3078; lookup: 0.1 x 5.4/10 = 0.054;
    // topk: 0.9 x 0.9/50 + 0.1 x 3.6/10 = 0.0162 + 0.036 = 0.0522.
    CHECK(ranked[0].name == "gemm");
    CHECK_THAT(ranked[0].fleet.saved_fraction, WithinRel(0.486, 1e-12));
    CHECK(ranked[1].name == "host");
    CHECK(ranked[2].name == "lookup");
    const MixTarget& topk = ranked[3];
    CHECK(topk.name == "topk");
    CHECK_THAT(topk.fleet.saved_fraction, WithinRel(0.0522, 1e-12));
    CHECK_THAT(topk.fleet.speedup, WithinRel(1 / (1 - 0.0522), 1e-12));
    // Its share of fleet time: 0.9 x 0.02 + 0.1 x 0.4 = 0.058; ceiling 1 / (1 - 0.058).
    CHECK_THAT(topk.fleet_share, WithinRel(0.058, 1e-12));
    CHECK_THAT(topk.ceiling, WithinRel(1 / 0.942, 1e-12));
    CHECK(topk.main_workload == 1);
    CHECK_THAT(topk.time_fraction[1], WithinRel(0.4));
    // At 2x: 0.9 x 0.01 + 0.1 x 0.2 = 0.029 saved.
    CHECK_THAT(topk.grid.at(0), WithinRel(1 / (1 - 0.029), 1e-12));
    // By ceiling: the fleet share orders them (gemm 0.54, host 0.342, lookup 0.06, topk 0.058).
    CHECK(rank_mix(candidates, {50, 10}, {0.9, 0.1}, RankBy::ceiling, {})[2].name == "lookup");
    CHECK(error_of([&] {
              rank_mix(candidates, {50, 10}, {0.9, 0.1}, RankBy::effort, {});
          }) == "'gemm' has no effort; --by effort needs one on every proposal (SELECTOR=FACTOR@EFFORT)");
}
