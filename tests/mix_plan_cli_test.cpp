// `plan --mix` through the command line: the cheapest set of targets that brings the README's
// fleet (examples/mix) to a fleet speedup, worked by hand, in every format, and its input errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using Catch::Matchers::WithinRel;

const std::string chat = source_path("examples/mix/chat_decode.json");
const std::string ranker = source_path("examples/mix/ranker.json");

nlohmann::json json_of(const RunResult& r) {
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
}

// Exit 2, nothing on stdout, exactly `message` on stderr.
void check_input_error(std::vector<std::string> args, const std::string& message) {
    const std::vector<std::string> mix{"plan", "--mix", chat + "=0.5", "--mix", ranker + "=0.5"};
    args.insert(args.begin(), mix.begin(), mix.end());
    const RunResult r = run_cli(args);
    INFO(message);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
}

}  // namespace

TEST_CASE("plan --mix: the fewest targets that reach a fleet speedup, and what each workload gets",
          "[mix][plan][cli]") {
    // w = 0.2, 0.8; -k 10 on the kernels. chat is 50 ms, ranker 10 ms. A target saves Σ w_i s_i:
    //   topk_sampling: 0.2 x 0.9/50 + 0.8 x 3.6/10 = 0.0036 + 0.288 = 0.2916 (S = 1 / 0.7084 = 1.4116x)
    //   gemm:          0.2 x 27/50 + 0.8 x 1.8/10 = 0.108 + 0.144 = 0.252 (1.3369x)
    // --target 1.4: topk_sampling alone; the chat model gets 1 / (1 - 0.018) = 1.0183x, the ranker
    // 1 / (1 - 0.36) = 1.5625x; the ranker carries 0.288 / 0.2916 = 98.8% of the saving.
    // Every kernel at 10x: 0.2 x 0.9 x 43/50 + 0.8 x 0.9 x 9/10 = 0.8028 (5.0710x); at no time
    // 0.2 x 0.86 + 0.8 x 0.9 = 0.892: 10.8% of fleet time is outside, the ceiling 1 / 0.108 = 9.2593x.
    const RunResult r =
        run_cli({"plan", "--mix", chat + "=0.2", "--mix", ranker + "=0.8", "--only", "kind:kernel", "--target", "1.4"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "step  target         kind    factor  fleet share  fleet saved  fleet time after  fleet speedup\n"
          "----  -------------  ------  ------  -----------  -----------  ----------------  -------------\n"
          "   1  topk_sampling  kernel     10x        32.4%        29.2%             70.8%        1.4116x\n"
          "\n"
          "target:        1.4000x for the fleet (fleet time at most 71.4% of before)\n"
          "plan:          1 phase, reaching 1.4116x for the fleet (fleet time 70.8% of before)\n"
          "optimal:       yes, proven (exact search, 3 nodes)\n"
          "carried by:    " +
              ranker +
              " (98.8% of the fleet's saving)\n"
              "weights:       shares of fleet time, as given\n"
              "workloads:     " +
              chat + " 20.0%, " + ranker +
              " 80.0% of fleet time\n"
              "best possible: 5.0710x for the fleet (every candidate at its factor)\n"
              "ceiling:       9.2593x for the fleet (every candidate at no time: 10.8% of fleet time outside the "
              "candidates remain)\n"
              "\n"
              "What the plan buys each workload:\n"
              "  workload          time share  steps here  saved (of its time)  speedup  share of the win\n"
              "  ----------------  ----------  ----------  -------------------  -------  ----------------\n"
              "  chat_decode.json       20.0%           1                 1.8%  1.0183x             1.23%\n"
              "  ranker.json            80.0%           1                36.0%  1.5625x             98.8%\n");

    // The same fleet weighted by GPUs (0.9, 0.1) needs more: topk_sampling saves only 0.0522
    // there, so gemm (0.9 x 0.54 + 0.1 x 0.18 = 0.504, 2.0161x) is the plan.
    const auto gpus = json_of(run_cli({"plan", "--mix", chat + "=900gpus", "--mix", ranker + "=100gpus", "--only",
                                       "kind:kernel", "--target", "1.4", "--format", "json"}));
    CHECK(gpus["chosen"] == nlohmann::json::array({"gemm"}));
    CHECK_THAT(gpus["speedup"].get<double>(), WithinRel(1 / 0.496, 1e-9));
    CHECK(gpus["main_workload"] == chat);

    const auto json = json_of(run_cli({"plan", "--mix", chat + "=0.2", "--mix", ranker + "=0.8", "--only",
                                       "kind:kernel", "--target", "1.4", "--format", "json", "--explain"}));
    CHECK(json["command"] == "plan");
    CHECK(json["objective"] == "count");
    CHECK(json["reachable"] == true);
    CHECK(json["optimal"] == true);
    CHECK_THAT(json["target_time_fraction"].get<double>(), WithinRel(1 / 1.4, 1e-12));
    CHECK(json["chosen"] == nlohmann::json::array({"topk_sampling"}));
    CHECK_THAT(json["saved_fraction"].get<double>(), WithinRel(0.2916, 1e-9));
    CHECK_THAT(json["speedup"].get<double>(), WithinRel(1 / 0.7084, 1e-9));
    CHECK_THAT(json["steps"][0]["time_after_fraction"].get<double>(), WithinRel(0.7084, 1e-9));
    CHECK_THAT(json["steps"][0]["workloads"][1]["saved_fraction"].get<double>(), WithinRel(0.36, 1e-9));
    CHECK_THAT(json["best_possible"].get<double>(), WithinRel(1 / 0.1972, 1e-9));
    CHECK_THAT(json["ceiling"].get<double>(), WithinRel(1 / 0.108, 1e-9));
    CHECK_THAT(json["time_outside_fraction"].get<double>(), WithinRel(0.108, 1e-9));
    CHECK(json["workloads"][0]["steps"] == 1);
    CHECK_THAT(json["workloads"][0]["speedup"].get<double>(), WithinRel(1 / 0.982, 1e-9));
    CHECK_THAT(json["workloads"][1]["speedup"].get<double>(), WithinRel(1.5625, 1e-9));
    CHECK_THAT(json["workloads"][1]["win_share"].get<double>(), WithinRel(0.288 / 0.2916, 1e-9));
    CHECK(json["main_workload"] == ranker);
    CHECK(json["explanation"][1] == "topk_sampling: saved = Σ w_i s_i = 0.2 x 0.018 + 0.8 x 0.36 = 0.2916");

    // CSV: a row per step, the summary (each workload's speedup too) on stderr.
    const RunResult csv = run_cli({"plan", "--mix", chat + "=0.2", "--mix", ranker + "=0.8", "--only", "kind:kernel",
                                   "--target", "1.4", "--format", "csv"});
    CHECK(csv.exit_code == 0);
    CHECK(csv.out ==
          "step,name,kind,factor,fleet_share_pct,fleet_saved_pct,fleet_time_after_pct,speedup\n"
          "1,topk_sampling,kernel,10,32.4,29.16,70.84,1.4116318464144553\n");
    CHECK_THAT(csv.err, Catch::Matchers::Contains("plan:          1 phase, reaching 1.4116x"));
    // Markdown names the headline.
    const RunResult md = run_cli({"plan", "--mix", chat + "=0.2", "--mix", ranker + "=0.8", "--only", "kind:kernel",
                                  "--target", "1.4", "--format", "md"});
    CHECK(md.out.starts_with("### amdahl plan: 1 phase, reaching 1.4116x for the fleet\n"));
}

TEST_CASE("plan --mix --by effort: proposals on the same phase are alternatives in every workload",
          "[mix][plan][cli]") {
    // w = 0.9, 0.1. topk_sampling=10@2 saves 0.0522; gemm=2@1 0.9 x 15/50 + 0.1 x 1/10 = 0.28;
    // gemm=4@3 0.9 x 22.5/50 + 0.1 x 1.5/10 = 0.42. --target 1.8 needs 1 - 1/1.8 = 0.4444:
    // gemm=2 with gemm=4 (0.70, effort 4) would be cheapest, but both speed gemm up; so gemm=4 and
    // topk_sampling (0.4722, effort 5): S = 1 / 0.5278 = 1.8947x. chat: 0.45 + 0.018 = 0.468
    // (1 / 0.532 = 1.8797x); ranker: 0.15 + 0.36 = 0.51 (1 / 0.49 = 2.0408x).
    const std::vector<std::string> args{"plan",
                                        "--mix",
                                        chat + "=900gpus",
                                        "--mix",
                                        ranker + "=100gpus",
                                        "-s",
                                        "topk_sampling=10@2",
                                        "-s",
                                        "gemm=2@1",
                                        "-s",
                                        "gemm=4@3",
                                        "--by",
                                        "effort",
                                        "--target",
                                        "1.8",
                                        "--effort-unit",
                                        "engineer-week"};
    const RunResult r = run_cli(args);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Matchers::Contains("plan:          total effort 5 engineer-weeks, reaching 1.8947x for "
                                                "the fleet (fleet time 52.8% of before)\n"));
    std::vector<std::string> json_args = args;
    json_args.insert(json_args.end(), {"--format", "json"});
    const auto json = json_of(run_cli(json_args));
    CHECK(json["chosen"] == nlohmann::json::array({"gemm=4@3", "topk_sampling=10@2"}));
    CHECK(json["total_effort"] == 5);
    CHECK(json["factor"].is_null());
    CHECK(json["effort_unit"] == "engineer-week");
    CHECK_THAT(json["saved_fraction"].get<double>(), WithinRel(0.4722, 1e-9));
    CHECK_THAT(json["workloads"][0]["saved_fraction"].get<double>(), WithinRel(0.468, 1e-9));
    CHECK_THAT(json["workloads"][1]["speedup"].get<double>(), WithinRel(1 / 0.49, 1e-9));
}

TEST_CASE("plan --mix: an unreachable target is an answer, a gate with --require", "[mix][plan][cli]") {
    // gemm at no time: 0.5 x 30/50 + 0.5 x 2/10 = 0.4 saved at most: 1 / 0.6 = 1.6667x < 10x.
    const std::vector<std::string> args{"plan", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "--only", "gemm",
                                        "-k",   "inf",   "--target",    "10"};
    const RunResult r = run_cli(args);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out,
               Catch::Matchers::Contains("plan:          unreachable: no set of candidates reaches the target\n"));
    CHECK_THAT(r.out, Catch::Matchers::EndsWith(
                          "why: the phases outside the candidates take 60.0% of fleet time; even if every candidate "
                          "took no time, the fleet could not beat 1.6667x, short of 10.0000x.\n"));
    std::vector<std::string> gate = args;
    gate.push_back("--require");
    const RunResult failed = run_cli(gate);
    CHECK(failed.exit_code == 1);
    CHECK_THAT(failed.err, Catch::Matchers::EndsWith("gate failed: no plan reaches 10.0000x for the fleet\n"));
}

TEST_CASE("plan --mix: options that do not apply are errors", "[mix][plan][cli]") {
    check_input_error({"--target-time", "20ms"},
                      "error: --target-time: is one profile's time; with --mix give --target S, the fleet's speedup\n");
    check_input_error({"--only", "gemm"}, "error: plan: give --target S, the fleet speedup to reach\n");
    check_input_error({"--target", "1.2", "--names", "full"},
                      "error: --names: does not apply with --mix: its tables print names whole\n");
    check_input_error({"--target", "1.2", "--by", "effort"},
                      "error: --by: effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT)\n");
    check_input_error({"--target", "1.2", "--by", "effort", "-s", "gemm=2@1", "-s", "topk_sampling=2"},
                      "error: --by effort: proposal 'topk_sampling=2' has no effort (write SELECTOR=FACTOR@EFFORT)\n");
    check_input_error({"--target", "1.2", "--model", "replay"},
                      "error: --model replay: does not apply with --mix: the fleet is weighed from each workload's "
                      "phase table\n");
    check_input_error(
        {"--target", "1.2", "-s", "gemm=8..12"},
        "error: target 'gemm=8..12': a factor range is not supported with --mix yet (give a point factor)\n");
}
