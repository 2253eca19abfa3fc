// Every worked number in the exercise and the lesson (shared seeds) that eval or law answers.
#include <catch2/catch.hpp>

#include "amdahl/evaluate.hpp"
#include "amdahl/io.hpp"
#include "amdahl/law.hpp"
#include "support.hpp"

#include <sstream>

using Catch::Matchers::Contains;
using namespace amdahl;

namespace {

Profile load(const std::string& relative) {
    std::istringstream none;
    return load_profile(test::source_path(relative), none);
}

Evaluation eval(const Profile& profile, std::initializer_list<const char*> specs) {
    std::vector<SpeedupSpec> parsed;
    for (const char* s : specs) parsed.push_back(parse_speedup(s));
    return evaluate(profile, parsed);
}

}  // namespace

TEST_CASE("exercise part 1 q1-q2: attention_softmax 10x", "[seeds]") {
    // The same table as JSON, CSV, Markdown and the pasted plain text loads the same.
    for (const char* file : {"examples/transformer_step.json", "examples/transformer_step.csv",
                             "examples/transformer_step.md", "examples/transformer_step.txt"}) {
        INFO(file);
        const Profile profile = load(file);
        REQUIRE(profile.phases.size() == 7);  // the Total row is a check, not a phase
        CHECK(profile.unit == Unit::ms);
        const Evaluation r = eval(profile, {"attention_softmax=10"});
        CHECK(r.baseline_time == Approx(100.0));
        CHECK(r.new_time == Approx(81.1));
        CHECK(r.speedup == Approx(1.2330).epsilon(1e-4));
        CHECK(r.time_saved == Approx(18.9));
        CHECK(r.saved_fraction == Approx(0.189));
        CHECK(r.affected_fraction == Approx(0.21));
        CHECK(r.ceiling == Approx(1.2658).epsilon(1e-4));
        REQUIRE(r.headroom_captured);
        CHECK(*r.headroom_captured == Approx(0.9));
    }
}

TEST_CASE("exercise part 1 q2: infinitely fast attention is the ceiling", "[seeds]") {
    const Evaluation r = eval(load("examples/transformer_step.json"), {"attention_softmax=inf"});
    CHECK(r.speedup == Approx(1 / 0.79));
    CHECK(r.speedup == Approx(r.ceiling));
}

TEST_CASE("exercise part 1 q3: layernorm 10x and saving per engineer-week", "[seeds]") {
    const Profile profile = load("examples/transformer_step.json");
    const Evaluation layernorm = eval(profile, {"layernorm=10"});
    CHECK(layernorm.speedup == Approx(1 / 0.946));
    CHECK(layernorm.time_saved == Approx(5.4));
    const Evaluation attention = eval(profile, {"attention_softmax=10"});
    CHECK(attention.time_saved / 3 == Approx(6.3));  // ms per engineer-week
    CHECK(layernorm.time_saved / 2 == Approx(2.7));
}

TEST_CASE("exercise part 1 q4: gemm_qkv is the best single 10x kernel", "[seeds]") {
    const Profile profile = load("examples/transformer_step.json");
    double best = 0;
    std::string best_name;
    for (const auto& phase : profile.phases) {
        if (phase.kind != "kernel") continue;
        const Evaluation r = eval(profile, {(phase.name + "=10").c_str()});
        if (r.speedup > best) {
            best = r.speedup;
            best_name = phase.name;
        }
    }
    CHECK(best_name == "gemm_qkv");
    CHECK(best == Approx(1 / 0.694));  // 1.441x, saves 30.6 ms
    CHECK(eval(profile, {"gemm_qkv=10"}).time_saved == Approx(30.6));
}

TEST_CASE("exercise part 1 q5: three kernels reach 2x, all five reach only 3.257x", "[seeds]") {
    const Profile profile = load("examples/transformer_step.json");
    CHECK(eval(profile, {"gemm_qkv=10"}).new_time == Approx(69.4));
    CHECK(eval(profile, {"gemm_qkv=10", "attention_softmax=10"}).new_time == Approx(50.5));
    const Evaluation three = eval(profile, {"gemm_qkv=10", "attention_softmax=10", "gemm_proj=10"});
    CHECK(three.new_time == Approx(39.7));
    CHECK(three.speedup == Approx(2.519).epsilon(1e-3));
    const Evaluation all = eval(profile, {"kind:kernel=10"});
    CHECK(all.speedup == Approx(3.257).epsilon(1e-3));
    CHECK(all.ceiling == Approx(100.0 / 23));  // 4.348x: copy and launch gaps are 23 ms
}

TEST_CASE("exercise part 2: vector_add over rocprofv3 device activity (ns)", "[seeds]") {
    const Profile profile = load("examples/vector_add_rocprofv3.txt");
    REQUIRE(profile.phases.size() == 3);
    CHECK(profile.unit == Unit::ns);
    CHECK(profile.phases[0].time == 2357053);  // "2,357,053" with thousands separators, exact
    const Evaluation r = eval(profile, {"vector_add kernel dispatch=10"});
    CHECK(r.baseline_time == 3606501);
    CHECK(r.affected_fraction == Approx(44242.0 / 3606501));  // p = 1.23%
    CHECK(r.speedup == Approx(1.01117).epsilon(1e-5));
    CHECK(r.time_saved == Approx(39817.8));  // ns: 39.8 us saved
    // q3: the kernel is 0.014% of captured time: the best case from any kernel work.
    CHECK(amdahl_ceiling(0.00014) == Approx(1.00014).epsilon(1e-6));
}

TEST_CASE("lesson: training iteration, matmul 4x", "[seeds]") {
    const Evaluation r = eval(load("examples/training_iteration.tsv"), {"GPU matrix multiplications=4"});
    CHECK(r.baseline_time == Approx(1000));
    CHECK(r.new_time == Approx(550));
    CHECK(r.speedup == Approx(1 / 0.55));  // 1.82x
    CHECK(r.time_saved == Approx(450));
    CHECK(r.ceiling == Approx(2.5));
}

TEST_CASE("lesson: LLM request, decode 2x", "[seeds]") {
    const Profile profile = load("examples/llm_request.tsv");
    REQUIRE(profile.phases.size() == 5);  // "End-to-end latency" is the total row
    const Evaluation r = eval(profile, {"Autoregressive decode=2"});
    CHECK(r.affected_fraction == Approx(0.6));
    CHECK(r.speedup == Approx(1 / 0.7));  // 1.43x
    CHECK(r.new_time == Approx(1050));
    CHECK(r.saved_fraction == Approx(0.30));
    CHECK(r.ceiling == Approx(2.5));
}

TEST_CASE("lesson: closed-form examples", "[seeds]") {
    // Strong scaling, P = 0.95.
    CHECK(amdahl_speedup(0.95, 5) == Approx(4.17).epsilon(1e-3));
    CHECK(amdahl_speedup(0.95, 10) == Approx(6.90).epsilon(1e-3));
    CHECK(amdahl_speedup(0.95, 100) == Approx(16.81).epsilon(1e-3));
    CHECK(amdahl_ceiling(0.95) == Approx(20));
    CHECK(amdahl_ceiling(0.90) == Approx(10));
    CHECK(amdahl_ceiling(0.99) == Approx(100));
    // Kernel fusion: 30% of a 600 ms iteration, 2x.
    CHECK(amdahl_speedup(0.30, 2) == Approx(1.18).epsilon(1e-2));
    // Interview answer: 55% at 2.5x on a 900 ms iteration -> 1.49x, ~604 ms, ceiling 2.22x.
    const double s = amdahl_speedup(0.55, 2.5);
    CHECK(s == Approx(1.49).epsilon(1e-2));
    CHECK(900 / s == Approx(603).epsilon(2e-3));
    CHECK(amdahl_ceiling(0.55) == Approx(2.22).margin(0.005));  // "2.22x" is rounded
    // Common mistakes: 80% accelerated -> ceiling 5; 10x on 10% -> 1.10x.
    CHECK(amdahl_ceiling(0.80) == Approx(5));
    CHECK(amdahl_speedup(0.10, 10) == Approx(1 / 0.91));
    // Effective speedup: 8 GPUs giving 5x.
    CHECK(amdahl_speedup(0.6, 5) == Approx(1 / (0.4 + 0.12)));
}

TEST_CASE("lesson: two speedups compose by summing new times, not by adding speedups", "[seeds]") {
    Profile profile;
    profile.phases = {{"a", "", 30, std::nullopt, 0, std::nullopt},
                      {"b", "", 20, std::nullopt, 0, std::nullopt},
                      {"rest", "", 50, std::nullopt, 0, std::nullopt}};
    const Evaluation r = eval(profile, {"a=2", "b=3"});
    // T_new = (1 - f1 - f2) + f1/k1 + f2/k2 = 0.5 + 0.15 + 0.0667
    CHECK(r.speedup == Approx(1 / (0.5 + 0.3 / 2 + 0.2 / 3)));
    CHECK(r.speedup < 5);
}

TEST_CASE("law solves for the third quantity", "[seeds][law]") {
    const LawSolution fk = solve_for_speedup(0.6, 4);
    CHECK(fk.speedup == Approx(1 / 0.55));
    CHECK(fk.ceiling == Approx(2.5));
    const LawSolution fs = solve_for_factor(0.6, 2);
    CHECK(fs.possible);
    CHECK(fs.factor == Approx(6));
    const LawSolution impossible = solve_for_factor(0.6, 3);
    CHECK_FALSE(impossible.possible);
    CHECK(impossible.ceiling == Approx(2.5));
    const LawSolution ks = solve_for_fraction(4, 1.0 / 0.55);
    CHECK(ks.possible);
    CHECK(ks.fraction == Approx(0.6));
    CHECK_FALSE(solve_for_fraction(2, 3).possible);  // S cannot exceed k
}

TEST_CASE("eval and law on the command line give the exercise's numbers", "[seeds][cli]") {
    const auto r = test::run_cli(
        {"eval", test::source_path("examples/transformer_step.json"), "--speedup", "attention_softmax=10"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("new time:          81.1 ms"));
    CHECK_THAT(r.out, Contains("speedup:           1.2330x"));
    CHECK_THAT(r.out, Contains("time saved:        18.9 ms (18.9% of baseline)"));
    CHECK_THAT(r.out, Contains("ceiling:           1.2658x"));
    CHECK_THAT(r.out, Contains("headroom captured: 90.0%"));

    const auto law = test::run_cli({"law", "-f", "0.6", "--target", "2"});
    CHECK(law.exit_code == 0);
    CHECK_THAT(law.out, Contains("factor k:   6x (solved)"));
    const auto impossible = test::run_cli({"law", "-f", "0.6", "--target", "3"});
    CHECK(impossible.exit_code == 0);
    CHECK_THAT(impossible.out, Contains("impossible"));
    CHECK_THAT(impossible.out, Contains("2.5000x"));
}
