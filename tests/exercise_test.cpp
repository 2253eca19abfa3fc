// The exercise's questions that Part 1 and 2's tests (seeds_test.cpp) do not cover: Part 2 Q3 and
// Q4, and Part 3 with the numbers the README's "The exercise, answered" chooses. Each figure is
// worked by hand in the comments.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support.hpp"

using amdahl::test::run_cli;
using amdahl::test::source_path;
using Catch::Matchers::Contains;

namespace {

nlohmann::json json_of(std::vector<std::string> args) {
    args.insert(args.end(), {"--format", "json"});
    const auto r = run_cli(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("exercise part 2 q3: a kernel at 0.014% of captured time is worth at most 1.00014x", "[exercise]") {
    // S = 1 / (1 - 0.00014) = 1.000140020...
    const auto law = json_of({"law", "-f", "0.014%", "-k", "inf"});
    CHECK(law["speedup"].get<double>() == Approx(1 / (1 - 0.00014)).epsilon(1e-12));
}

TEST_CASE("exercise part 2 q4: the design-review sentence is built from the numbers", "[exercise]") {
    const auto r = run_cli(
        {"eval", source_path("examples/vector_add_rocprofv3.txt"), "-s", "vector_add kernel dispatch=10", "--verdict"});
    REQUIRE(r.exit_code == 0);
    // 44,242 of 3,606,501 ns is 1.23%; 10x saves 39,817.8 ns, 1.1%; S = 3,606,501 / 3,566,683.2.
    CHECK(r.out ==
          "A 10x speedup of vector_add kernel dispatch, 1.23% of the total, buys 1.1% of it (1.0112x); even an "
          "infinitely fast one would buy only 1.23%: more time is in MEMORY_COPY_HOST_TO_DEVICE (65.4%) and "
          "MEMORY_COPY_DEVICE_TO_HOST (33.4%).\n");
}

TEST_CASE("eval --verdict: what the sentence alone would drop is refused", "[exercise][verdict]") {
    const std::string step = source_path("examples/transformer_step.json");
    auto r = run_cli({"eval", step, "-s", "layernorm=2", "--verdict", "--explain"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --verdict: prints the sentence alone, without --explain's arithmetic: give one of them\n");
    r = run_cli({"eval", step, "-s", "layernorm=2", "--verdict", "--fleet", "100"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --verdict: prints the sentence alone, without --fleet's figures: give one of them\n");
}

TEST_CASE("exercise part 3 q1: a kernel 2% of one model and 40% of another, on 900 and 100 GPUs", "[exercise]") {
    const auto mix = json_of({"eval", "--mix", source_path("examples/mix/chat_decode.json") + "=900gpus", "--mix",
                              source_path("examples/mix/ranker.json") + "=100gpus", "-s", "topk_sampling=10"});
    // chat: 1 of 50 ms, 10x saves 0.9 ms = 1.8%; ranker: 40%, 10x saves 36%. Weights 0.9 and 0.1:
    // the fleet saves 0.9 x 0.018 + 0.1 x 0.36 = 0.0522, S = 1 / (1 - 0.0522) = 1.05507; the
    // ranker carries 0.036 / 0.0522 = 69.0% of the win.
    CHECK(mix["saved_fraction"].get<double>() == Approx(0.0522).epsilon(1e-12));
    CHECK(mix["speedup"].get<double>() == Approx(1 / (1 - 0.0522)).epsilon(1e-12));
    CHECK(mix["main_workload"].get<std::string>().find("ranker.json") != std::string::npos);
    CHECK(mix["workloads"][1]["win_share"].get<double>() == Approx(0.036 / 0.0522).epsilon(1e-12));
}

TEST_CASE("exercise part 3 q2: a 5% win on 20,000 GPUs running continuously", "[exercise]") {
    // 5% of the time saved: S = 1 / 0.95, GPUs freed = 20,000 x (1 - 0.95) = 1,000, and
    // 1,000 x 8,760 h = 8.76 million GPU-hours a year. 5% faster: 20,000 x (1 - 1/1.05) = 952.38.
    const auto saved = json_of({"law", "-f", "1", "-k", "-5%", "--fleet", "20000"});
    CHECK(saved["fleet"]["gpus_freed"].get<double>() == Approx(1000).epsilon(1e-12));
    CHECK(saved["fleet"]["gpu_hours_per_year"].get<double>() == Approx(8.76e6).epsilon(1e-12));
    const auto faster = json_of({"law", "-f", "1", "-k", "1.05", "--fleet", "20000"});
    CHECK(faster["fleet"]["gpus_freed"].get<double>() == Approx(20000 * (1 - 1 / 1.05)).epsilon(1e-12));
}

TEST_CASE("exercise part 3 q4: a speedup on a rank that waits at the barrier gains nothing", "[exercise]") {
    const std::string ranks = source_path("examples/ranks") + "/rank*.csv";
    // Segments' slowest ranks: forward 15 (rank2), attention 9 (rank3), backward 13 (rank3),
    // sync 3 (all): the step is 40 ms.
    const auto waits = json_of({"eval", "--ranks", ranks, "-s", "@rank1:attention=2"});
    CHECK(waits["baseline_time"].get<double>() == Approx(40));
    CHECK(waits["new_time"].get<double>() == Approx(40));  // rank1's attention 5 -> 2.5: it waited for 9
    CHECK(waits["speedups"][0]["busy_time_saved"].get<double>() == Approx(2.5));
    CHECK(waits["speedups"][0]["critical"] == false);
    // On rank3 attention 9 -> 4.5: the segment now lasts rank0's and rank2's 6 ms, the step 37 ms.
    const auto critical = json_of({"eval", "--ranks", ranks, "-s", "@rank3:attention=2"});
    CHECK(critical["new_time"].get<double>() == Approx(37));
    CHECK(critical["speedup"].get<double>() == Approx(40.0 / 37));
    CHECK(critical["segments"][1]["critical_after"] == nlohmann::json::array({"rank0", "rank2"}));
    const auto text = run_cli({"eval", "--ranks", ranks, "-s", "@rank1:attention=2"});
    CHECK_THAT(text.err, Contains("rank1 was not critical in any segment it touches: no gain"));
}
