// Evaluating speedups on a profile (src/analysis/evaluate.cpp): which spec owns which phase, the
// new times, speedup, ceiling and headroom, and the overlap range of phases from traces.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

namespace {

using amdahl::test::phase;

// examples/transformer_step.json: 100 ms.
Profile step() {
    Profile profile;
    profile.source = "step.json";
    profile.phases = {
        phase("Host\xe2\x86\x92"
              "device input copy",
              "copy", 18),
        phase("gemm_qkv", "kernel", 34),
        phase("attention_softmax", "kernel", 21),
        phase("gemm_proj", "kernel", 12),
        phase("layernorm", "kernel", 6),
        phase("elementwise_gelu", "kernel", 4),
        phase("Host launch gaps / framework overhead", "overhead", 5),
    };
    return profile;
}

std::vector<SpeedupSpec> specs(std::initializer_list<const char*> texts) {
    std::vector<SpeedupSpec> out;
    for (const char* text : texts) out.push_back(parse_speedup(text));
    return out;
}

}  // namespace

TEST_CASE("evaluate: one phase sped up, the README's first example", "[evaluate]") {
    const Evaluation e = evaluate(step(), specs({"attention_softmax=10"}));
    CHECK(e.baseline_time == Approx(100));
    CHECK(e.new_time == Approx(81.1));
    CHECK(e.time_saved == Approx(18.9));
    CHECK(e.speedup == Approx(100 / 81.1));
    CHECK(e.saved_fraction == Approx(0.189));
    CHECK(e.affected_fraction == Approx(0.21));
    CHECK(e.ceiling == Approx(100.0 / 79));
    REQUIRE(e.headroom_captured);
    CHECK(*e.headroom_captured == Approx(0.9));
    CHECK_FALSE(e.overlap_range);
    REQUIRE(e.phases.size() == 7);
    CHECK(e.phases[2].spec == 0);
    CHECK(e.phases[2].factor == Approx(10));
    CHECK(e.phases[2].new_time == Approx(2.1));
    CHECK(e.phases[2].saved == Approx(18.9));
    for (std::size_t i : {0u, 1u, 3u, 4u, 5u, 6u}) {
        INFO("phase " << i);
        CHECK(e.phases[i].spec == -1);
        CHECK(e.phases[i].factor == Approx(1));
        CHECK(e.phases[i].new_time == Approx(step().phases[i].time));
        CHECK(e.phases[i].saved == Approx(0));
    }
}

TEST_CASE("evaluate: several specs, each on its own phases", "[evaluate]") {
    const Evaluation e = evaluate(step(), specs({"gemm_*=4", "kind:copy=2"}));
    CHECK(e.phases[0].spec == 1);
    CHECK(e.phases[0].new_time == Approx(9));
    CHECK(e.phases[1].spec == 0);
    CHECK(e.phases[1].new_time == Approx(8.5));
    CHECK(e.phases[3].spec == 0);
    CHECK(e.phases[3].new_time == Approx(3));
    CHECK(e.time_saved == Approx(43.5));
    CHECK(e.new_time == Approx(56.5));
    CHECK(e.speedup == Approx(100 / 56.5));
    CHECK(e.affected_fraction == Approx(0.64));
    CHECK(e.ceiling == Approx(100.0 / 36));
    CHECK(*e.headroom_captured == Approx(43.5 / 64));
}

TEST_CASE("evaluate: no specs, every phase at infinity, and a slowdown", "[evaluate]") {
    Evaluation e = evaluate(step(), {});
    CHECK(e.new_time == Approx(100));
    CHECK(e.speedup == Approx(1));
    CHECK(e.time_saved == Approx(0));
    CHECK(e.affected_fraction == Approx(0));
    CHECK(e.ceiling == Approx(1));
    CHECK_FALSE(e.headroom_captured);

    e = evaluate(step(), specs({"*=inf"}));
    CHECK(e.new_time == Approx(0));
    CHECK(std::isinf(e.speedup));
    CHECK(e.affected_fraction == Approx(1));
    CHECK(std::isinf(e.ceiling));
    CHECK(*e.headroom_captured == Approx(1));
    CHECK(e.phases[4].new_time == Approx(0));
    CHECK(std::isinf(e.phases[4].factor));

    e = evaluate(step(), specs({"layernorm=0.5"}));  // twice as slow
    CHECK(e.phases[4].new_time == Approx(12));
    CHECK(e.phases[4].saved == Approx(-6));
    CHECK(e.new_time == Approx(106));
    CHECK(e.time_saved == Approx(-6));
    CHECK(e.speedup == Approx(100.0 / 106));
    CHECK(e.saved_fraction == Approx(-0.06));
    CHECK(e.ceiling == Approx(100.0 / 94));
    CHECK(*e.headroom_captured == Approx(-1));
}

TEST_CASE("evaluate: bookkeeping phases take only a speedup that names them", "[evaluate]") {
    Profile profile = step();
    profile.phases.push_back(phase("unattributed", "unattributed", 25));
    Evaluation e = evaluate(profile, specs({"*=2"}));
    CHECK(e.phases[7].spec == -1);
    CHECK(e.baseline_time == Approx(125));
    CHECK(e.new_time == Approx(75));
    CHECK(e.ceiling == Approx(125.0 / 25));
    e = evaluate(profile, specs({"unattributed=5"}));
    CHECK(e.phases[7].spec == 0);
    CHECK(e.new_time == Approx(105));
}

TEST_CASE("evaluate: assign_speedups gives each phase the index of its spec", "[evaluate]") {
    CHECK(assign_speedups(step(), specs({"layernorm=2", "kind:copy=3", "gemm_p*=4"})) ==
          std::vector<int>{1, -1, -1, 2, 0, -1, -1});
    CHECK(assign_speedups(step(), {}) == std::vector<int>(7, -1));
}

TEST_CASE("evaluate: a phase with two speedups, or a spec that picks nothing, is an error", "[evaluate]") {
    CHECK_THROWS_MATCHES(evaluate(step(), specs({"gemm_*=4", "gemm_qkv=2"})), Error,
                         Message("speedups 'gemm_*=4' and 'gemm_qkv=2' both apply to phase 'gemm_qkv' (a phase can "
                                 "take only one speedup)"));
    CHECK_THROWS_MATCHES(evaluate(step(), specs({"kind:kernel=2", "*=3"})), Error,
                         Message("speedups 'kind:kernel=2' and '*=3' both apply to phase 'gemm_qkv' (a phase can "
                                 "take only one speedup)"));
    CHECK_THROWS_MATCHES(evaluate(step(), specs({"layernorm=2", "atention_softmax=10"})), Error,
                         Message("selector 'atention_softmax' matches no phase; did you mean 'attention_softmax'?"));
}

TEST_CASE("evaluate: many name specs are looked up by name, with the same answers and errors", "[evaluate]") {
    // More than 8 specs take the name index.
    Profile profile;
    for (int i = 0; i < 20; ++i) profile.phases.push_back(phase("p" + std::to_string(i), "", i + 1.0));
    std::vector<SpeedupSpec> many;
    for (int i = 0; i < 10; ++i) many.push_back(parse_speedup("p" + std::to_string(i) + "=2"));
    const Evaluation e = evaluate(profile, many);
    CHECK(e.baseline_time == Approx(210));
    CHECK(e.time_saved == Approx(27.5));  // half of 1 + ... + 10
    for (int i = 0; i < 20; ++i) CHECK(e.phases[static_cast<std::size_t>(i)].spec == (i < 10 ? i : -1));

    many.push_back(parse_speedup("p3=4"));
    CHECK_THROWS_MATCHES(
        evaluate(profile, many), Error,
        Message("speedups 'p3=2' and 'p3=4' both apply to phase 'p3' (a phase can take only one speedup)"));
    many.back() = parse_speedup("p20=4");
    CHECK_THROWS_MATCHES(evaluate(profile, many), Error,
                         Message("selector 'p20' matches no phase; did you mean 'p0', 'p10' or 'p2'?"));
}

TEST_CASE("evaluate: a phase that also ran overlapped saves between its exclusive and active time", "[evaluate]") {
    // From a trace: a ran 15 us, 5 of them alongside b (the 'overlapped' phase).
    Profile profile;
    profile.phases = {phase("a", "kernel", 10, 15.0), phase("b", "kernel", 5, 10.0),
                      phase("overlapped", "overlapped", 5)};
    Evaluation e = evaluate(profile, specs({"a=2"}));
    CHECK(e.time_saved == Approx(5));
    CHECK(e.speedup == Approx(20.0 / 15));
    REQUIRE(e.overlap_range);
    CHECK(e.overlap_range->low_saved == Approx(5));
    CHECK(e.overlap_range->high_saved == Approx(7.5));  // 15 * (1 - 1/2)
    CHECK(e.overlap_range->low_speedup == Approx(20.0 / 15));
    CHECK(e.overlap_range->high_speedup == Approx(20.0 / 12.5));

    // At infinity the active time is the most it can save: its own and the overlapped time.
    e = evaluate(profile, specs({"a=inf"}));
    CHECK(e.overlap_range->low_saved == Approx(10));
    CHECK(e.overlap_range->high_saved == Approx(15));
    CHECK(e.overlap_range->high_speedup == Approx(4));

    // Both at infinity: the saving is capped at the affected plus the overlapped time, the run.
    e = evaluate(profile, specs({"a=inf", "b=inf"}));
    CHECK(e.overlap_range->low_saved == Approx(15));
    CHECK(e.overlap_range->high_saved == Approx(20));
    CHECK(std::isinf(e.overlap_range->high_speedup));

    // A slowdown: the active-time estimate is the low end.
    e = evaluate(profile, specs({"a=0.5"}));
    CHECK(e.time_saved == Approx(-10));
    CHECK(e.overlap_range->low_saved == Approx(-15));
    CHECK(e.overlap_range->high_saved == Approx(-10));
    CHECK(e.overlap_range->low_speedup == Approx(20.0 / 35));
    CHECK(e.overlap_range->high_speedup == Approx(20.0 / 30));

    // No sped-up phase ran overlapped: no range.
    profile.phases.push_back(phase("c", "copy", 4));
    CHECK_FALSE(evaluate(profile, specs({"c=2"})).overlap_range);
}
