// `eval --mix`, `rank --mix` and `eval --verdict` through the command line: the README's fleet
// (a kernel 2% of the chat model on 900 GPUs and 40% of the ranker on 100), weights of every
// kind, the verdict sentences on the exercise's numbers, and every input error (exit 2).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::write_temp;
using Catch::Matchers::WithinRel;

const std::string chat = source_path("examples/mix/chat_decode.json");
const std::string ranker = source_path("examples/mix/ranker.json");

// The sentences, worked by hand in the test below.
const std::string VERDICT_PART2 =
    "A 10x speedup of vector_add kernel dispatch, 1.23% of the total, buys 1.1% of it (1.0112x); even an infinitely "
    "fast one would buy only 1.23%: more time is in MEMORY_COPY_HOST_TO_DEVICE (65.4%) and MEMORY_COPY_DEVICE_TO_HOST "
    "(33.4%).\n";
const std::string VERDICT_ATTENTION =
    "A 10x speedup of attention_softmax, 21.0% of the total, buys 18.9% of it (1.2330x); even an infinitely fast one "
    "would buy 21.0%: more time is in gemm_qkv (34.0%).\n";
const std::string VERDICT_LARGEST =
    "A 10x speedup of gemm_qkv, 34.0% of the total, buys 30.6% of it (1.4409x); even an infinitely fast one would buy "
    "34.0%: it is already the largest part of the total; the next is attention_softmax (21.0%).\n";
const std::string VERDICT_SEVERAL =
    "Changes to attention_softmax (10x) and layernorm (10x), 27.0% of the total together, buy 24.3% of it (1.3210x); "
    "at no time they would buy 27.0%: more time is in gemm_qkv (34.0%).\n";
const std::string VERDICT_SLOWDOWN =
    "A 2x slowdown of layernorm, 6.0% of the total, costs 6.0% of it (0.9434x): the run gets slower.\n";
const std::string VERDICT_ALL =
    "A 2x speedup of * (7 phases), 100.0% of the total, buys 50.0% of it (2.0000x); even an infinitely fast one would "
    "buy 100.0%: no other time is left to speed up.\n";

// Exit 2, nothing on stdout, exactly `message` on stderr.
void check_input_error(const std::vector<std::string>& args, const std::string& message) {
    const RunResult r = run_cli(args);
    INFO([&] {
        std::string line = "amdahl";
        for (const auto& a : args) line += " " + a;
        return line;
    }());
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
}

nlohmann::json json_of(const RunResult& r) {
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("eval --mix: the fleet's speedup, saving and who carries the win", "[mix][cli]") {
    // w = 900 / 1000 = 0.9 and 0.1. chat: 50 ms, topk 1 ms -> 0.1 ms: S = 50 / 49.1 = 1.0183x,
    // saving 1.8%. ranker: 10 ms, topk 4 ms -> 0.4 ms: S = 10 / 6.4 = 1.5625x, saving 36%.
    // Fleet: 1 / (0.9 / 1.0183 + 0.1 / 1.5625) = 1 / (0.8838 + 0.064) = 1 / 0.9478 = 1.0551x;
    // saved 0.9 x 0.018 + 0.1 x 0.36 = 0.0162 + 0.036 = 5.22%; the ranker carries 0.036 / 0.0522 = 69.0%.
    // Ceiling: chat 50 / 49 = 1.0204x, ranker 10 / 6 = 1.6667x: 1 / (0.9 x 0.98 + 0.1 x 0.6) = 1 / 0.942.
    const RunResult r =
        run_cli({"eval", "--mix", chat + "=900gpus", "--mix", ranker + "=100gpus", "-s", "topk_sampling=10"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const std::string a = chat, b = ranker;
    CHECK(r.out ==
          "workload          weight   time share  speedup  saved (of its time)  share of the win\n"
          "----------------  -------  ----------  -------  -------------------  ----------------\n"
          "chat_decode.json  900gpus       90.0%  1.0183x                 1.8%             31.0%\n"
          "ranker.json       100gpus       10.0%  1.5625x                36.0%             69.0%\n"
          "fleet             -            100.0%  1.0551x                5.22%            100.0%\n"
          "\n"
          "weights:          GPU counts, normalised: GPUs run continuously, so a workload's share of the "
          "GPUs is its share of fleet time\n"
          "workloads:        " +
              a + " 90.0%, " + b +
              " 10.0% of fleet time\n"
              "fleet speedup:    1.0551x (1 / Σ w_i / S_i)\n"
              "fleet time saved: 5.22% (Σ w_i (1 - 1/S_i))\n"
              "carried by:       " +
              b +
              " (69.0% of the fleet's saving)\n"
              "fleet ceiling:    1.0616x (every workload's sped-up phases at no time)\n");

    const auto json = json_of(run_cli({"eval", "--mix", chat + "=900gpus", "--mix", ranker + "=100gpus", "-s",
                                       "topk_sampling=10", "--format", "json"}));
    CHECK(json["command"] == "eval");
    CHECK(json["weights"] == "gpus");
    CHECK_THAT(json["speedup"].get<double>(), WithinRel(1 / 0.9478, 1e-9));
    CHECK_THAT(json["saved_fraction"].get<double>(), WithinRel(0.0522, 1e-9));
    CHECK_THAT(json["ceiling"].get<double>(), WithinRel(1 / 0.942, 1e-9));
    CHECK(json["main_workload"] == ranker);
    CHECK_THAT(json["workloads"][0]["time_share"].get<double>(), WithinRel(0.9, 1e-12));
    CHECK_THAT(json["workloads"][1]["speedup"].get<double>(), WithinRel(1.5625, 1e-12));
    CHECK_THAT(json["workloads"][1]["win_share"].get<double>(), WithinRel(0.036 / 0.0522, 1e-9));
    CHECK(json["workloads"][0]["weight"] == "900gpus");
    CHECK(json["speedups"][0]["workloads"].size() == 2);
}

TEST_CASE("eval --mix: request rates weigh by rate x time per request", "[mix][cli]") {
    // chat 15/s x 0.05 s = 0.75, ranker 5/s x 0.01 s = 0.05: w = 0.75 / 0.8 = 0.9375 and 0.0625.
    const auto json = json_of(run_cli(
        {"eval", "--mix", chat + "=15/s", "--mix", ranker + "=5/s", "-s", "topk_sampling=10", "--format", "json"}));
    CHECK(json["weights"] == "rate");
    CHECK_THAT(json["workloads"][0]["time_share"].get<double>(), WithinRel(0.9375, 1e-12));
    CHECK_THAT(json["workloads"][1]["time_share"].get<double>(), WithinRel(0.0625, 1e-12));
    // saved = 0.9375 x 0.018 + 0.0625 x 0.36 = 0.016875 + 0.0225 = 0.039375.
    CHECK_THAT(json["saved_fraction"].get<double>(), WithinRel(0.039375, 1e-9));
}

TEST_CASE("eval --mix: a selector missing in one workload is 1x there, with a note", "[mix][cli]") {
    // attention is only in the chat model: 12 of 50 ms at 2x saves 6 ms, 12%; the ranker stays 1x.
    // Shares 0.5 / 0.5: saved 0.5 x 0.12 = 6%, S = 1 / 0.94.
    const RunResult r =
        run_cli({"eval", "--mix", chat + "=50%", "--mix", ranker + "=0.5", "-s", "attention=2", "--format", "json"});
    CHECK(r.err == "note: selector 'attention' picks no phase in " + ranker + ": that workload stays at 1x there\n");
    const auto json = json_of(r);
    CHECK_THAT(json["saved_fraction"].get<double>(), WithinRel(0.06, 1e-9));
    CHECK(json["speedups"][0]["workloads"] == nlohmann::json::array({chat}));
    CHECK(json["workloads"][1]["win_share"] == 0);
}

TEST_CASE("rank --mix: targets by what each saves the fleet alone", "[mix][cli]") {
    // -k 10 on the kernels, w = 0.9 and 0.1. gemm: 0.9 x 27/50 + 0.1 x 1.8/10 = 0.486 + 0.018 = 0.504;
    // attention 0.9 x 10.8/50 = 0.1944; topk 0.0522; embedding_lookup 0.1 x 2.7/10 = 0.027.
    const auto json = json_of(run_cli({"rank", "--mix", chat + "=900gpus", "--mix", ranker + "=100gpus", "--only",
                                       "kind:kernel", "--format", "json"}));
    REQUIRE(json["targets"].size() == 4);
    CHECK(json["targets"][0]["name"] == "gemm");
    CHECK_THAT(json["targets"][0]["saved_fraction"].get<double>(), WithinRel(0.504, 1e-9));
    CHECK(json["targets"][2]["name"] == "topk_sampling");
    CHECK_THAT(json["targets"][2]["saved_fraction"].get<double>(), WithinRel(0.0522, 1e-9));
    CHECK_THAT(json["targets"][2]["fleet_share"].get<double>(), WithinRel(0.058, 1e-9));
    CHECK(json["targets"][2]["main_workload"] == ranker);
    CHECK(json["targets"][3]["name"] == "embedding_lookup");

    // Weighted to the ranker, the kernel worth 2% of the chat model tops the ranking:
    // topk 0.2 x 0.018 + 0.8 x 0.36 = 0.2916; gemm 0.2 x 0.54 + 0.8 x 0.18 = 0.252.
    const auto ranker_heavy = json_of(run_cli(
        {"rank", "--mix", chat + "=0.2", "--mix", ranker + "=0.8", "--only", "kind:kernel", "--format", "json"}));
    CHECK(ranker_heavy["targets"][0]["name"] == "topk_sampling");
    CHECK_THAT(ranker_heavy["targets"][0]["saved_fraction"].get<double>(), WithinRel(0.2916, 1e-9));
}

TEST_CASE("mix: input errors name the option and the problem", "[mix][cli]") {
    const std::string usage = "\n(run 'amdahl --help' or 'amdahl COMMAND --help' for usage)\n";
    check_input_error({"eval", "-s", "gemm=2"}, "error: PROFILE is required" + usage);
    check_input_error({"eval", chat, "--mix", ranker + "=1", "-s", "gemm=2"},
                      "error: --mix: replaces PROFILE: give the profile '" + chat + "' as --mix " + chat +
                          "=WEIGHT too, or drop --mix" + usage);
    check_input_error(
        {"eval", "--mix", chat, "-s", "gemm=2"},
        "error: --mix: expected PATH=WEIGHT, such as A.json=0.7, B.json=120gpus or C.json=15/s (got '" + chat + "')\n");
    check_input_error({"eval", "--mix", chat + "=heavy", "-s", "gemm=2"},
                      "error: --mix " + chat +
                          "=heavy: weight 'heavy' is not a share of fleet time (0.7 or 70%), a GPU count (120gpus) or "
                          "a request rate (15/s)\n");
    check_input_error({"eval", "--mix", chat + "=0", "-s", "gemm=2"},
                      "error: --mix " + chat + "=0: weight '0' must be > 0\n");
    check_input_error({"eval", "--mix", chat + "=0.7", "--mix", ranker + "=0.2", "-s", "gemm=2"},
                      "error: --mix: the shares of fleet time sum to 0.9 (0.7 + 0.2), not 1: give every workload's "
                      "share so that they add up to 1, or GPU counts (=120gpus) or request rates (=15/s), which are "
                      "normalised\n");
    check_input_error({"eval", "--mix", chat + "=0.7", "--mix", ranker + "=3gpus", "-s", "gemm=2"},
                      "error: --mix: weights '0.7' and '3gpus' are of different kinds (a share of fleet time and a GPU "
                      "count): give every workload the same kind of weight\n");
    check_input_error({"eval", "--mix", chat + "=0.5", "--mix", chat + "=0.5", "-s", "gemm=2"},
                      "error: --mix: workload '" + chat + "' is given twice\n");
    check_input_error({"eval", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-s", "gemn=2"},
                      "error: selector 'gemn' matches no phase in any workload (" + chat + ": did you mean 'gemm'?; " +
                          ranker + ": did you mean 'gemm'?)\n");
    check_input_error({"eval", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-s", "gemm=2", "--model", "replay"},
                      "error: --model replay: does not apply with --mix: the fleet is weighed from each workload's "
                      "phase table\n");
    check_input_error({"eval", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-s", "gemm=2", "--phases", "all"},
                      "error: --phases: does not apply with --mix: its rows are workloads, not phases\n");
    check_input_error({"eval", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-s", "gemm=2", "--names", "full"},
                      "error: --names: does not apply with --mix: its rows are workloads, not phases\n");
    // Weights in GPUs are the fleet: another --fleet contradicts them (eval, rank and plan alike).
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"eval", "-s", "gemm=2"}, {"rank"}, {"plan", "--target", "1.1"}}) {
        std::vector<std::string> args = command;
        for (const std::string& more :
             std::vector<std::string>{"--mix", chat + "=900gpus", "--mix", ranker + "=100gpus", "--fleet", "2000"})
            args.push_back(more);
        check_input_error(args,
                          "error: --fleet: 2000 GPUs, but the --mix weights count 1000 GPUs: give --fleet 1000 or "
                          "leave it out\n");
    }
    check_input_error({"eval", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-s", "gemm=2", "--verdict"},
                      "error: --verdict: is not supported with --mix yet\n");
    check_input_error({"eval", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-s", "gemm=2", "--total", "1s"},
                      "error: --total: is one profile's end-to-end time; with --mix give each workload's in its "
                      "profile\n");
    check_input_error({"rank", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "--model", "replay"},
                      "error: --model replay: does not apply with --mix: the fleet is weighed from each workload's "
                      "phase table\n");
    check_input_error({"rank", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "--names", "full"},
                      "error: --names: does not apply with --mix: its tables print names whole\n");
    check_input_error({"rank", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "--by", "effort"},
                      "error: --by: effort needs proposals with efforts (-s SELECTOR=FACTOR@EFFORT)\n");
    // -k 8..12 was refused as "not a number"; -k beside -s proposals was silently unused.
    for (const char* command : {"rank", "plan"}) {
        std::vector<std::string> args{command, "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-k", "8..12"};
        if (std::string(command) == "plan") args.insert(args.end(), {"--target", "1.2"});
        check_input_error(args,
                          "error: --factor: '8..12': a factor range is not supported with --mix yet (give a "
                          "point factor)\n");
    }
    check_input_error({"rank", "--mix", chat + "=0.5", "--mix", ranker + "=0.5", "-s", "gemm=2", "-k", "4"},
                      "error: --factor: applies to the phases --only picks (or every phase); the proposals given "
                      "with -s carry their own factors (-s NAME=FACTOR)\n");
    const std::string with_proposals = write_temp(
        "mix_proposals.json",
        R"({"unit": "ms", "phases": [{"name": "gemm", "time": 5}], "proposals": [{"target": "gemm", "factor": 2}]})");
    check_input_error({"rank", "--mix", chat + "=0.5", "--mix", with_proposals + "=0.5"},
                      "error: " + with_proposals +
                          ": has proposals in the profile; with --mix give the proposals with -s (each applies to "
                          "every workload whose phases it picks)\n");
}

TEST_CASE("eval --verdict: the design-review sentence from the numbers", "[verdict][cli]") {
    // Part 2: 44,242 of 3,606,501 ns (1.23%) is the kernel; 10x saves 39,817.8 ns (1.10%), S =
    // 3,606,501 / 3,566,683.2 = 1.0112x; the copies are 65.4% and 33.4%.
    const RunResult part2 = run_cli(
        {"eval", source_path("examples/vector_add_rocprofv3.txt"), "-s", "vector_add kernel dispatch=10", "--verdict"});
    CHECK(part2.exit_code == 0);
    CHECK(part2.out == VERDICT_PART2);
    // Part 1: attention_softmax 21 of 100 ms; 10x saves 18.9 ms; gemm_qkv (34%) is larger.
    const std::string step = source_path("examples/transformer_step.json");
    CHECK(run_cli({"eval", step, "-s", "attention_softmax=10", "--verdict"}).out == VERDICT_ATTENTION);
    // The largest phase already: nothing larger to point at, so the next one.
    CHECK(run_cli({"eval", step, "-s", "gemm_qkv=10", "--verdict"}).out == VERDICT_LARGEST);
    // Several proposals, together.
    CHECK(run_cli({"eval", step, "-s", "attention_softmax=10", "-s", "layernorm=10", "--verdict"}).out ==
          VERDICT_SEVERAL);
    // A slowdown.
    CHECK(run_cli({"eval", step, "-s", "layernorm=+100%", "--verdict"}).out == VERDICT_SLOWDOWN);
    // Every phase: nothing else is left.
    CHECK(run_cli({"eval", step, "-s", "*=2", "--verdict"}).out == VERDICT_ALL);

    const auto json = json_of(run_cli({"eval", step, "-s", "attention_softmax=10", "--verdict", "--format", "json"}));
    CHECK(json["verdict"].get<std::string>() + "\n" == VERDICT_ATTENTION);
    // Without --verdict, the text summary ends with it.
    const RunResult summary = run_cli({"eval", step, "-s", "attention_softmax=10", "--phases", "none"});
    CHECK(summary.out.ends_with("verdict:           " + VERDICT_ATTENTION));

    check_input_error({"eval", step, "-s", "gemm_qkv=2", "--verdict", "--format", "csv"},
                      "error: --verdict: is a sentence; --format csv writes rows (use table, md or json)\n");
}

TEST_CASE("eval --mix: --explain writes the fleet's sum out, CSV has a row per workload and the fleet", "[mix][cli]") {
    // Rates: w = 15 x 0.05 s / 0.8 = 0.9375 and 5 x 0.01 s / 0.8 = 0.0625; S_i as in the fleet above.
    // after = 0.9375 / 1.01833 + 0.0625 / 1.5625 = 0.920625 + 0.04 = 0.960625; S = 1.0410x.
    const std::vector<std::string> args{"eval",          "--mix", chat + "=15/s",    "--mix",
                                        ranker + "=5/s", "-s",    "topk_sampling=10"};
    std::vector<std::string> explain = args;
    explain.push_back("--explain");
    const RunResult r = run_cli(explain);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Matchers::Contains("\n  w_i = r_i T_i / Σ = (15 x 0.05 s, 5 x 0.01 s) / 0.8\n"));
    CHECK_THAT(r.out, Catch::Matchers::Contains(
                          "\n  fleet time after = Σ w_i / S_i = 0.9375 / 1.01833 + 0.0625 / 1.5625 = 0.920625 + "
                          "0.04 = 0.960625\n  S = 1 / Σ w_i / S_i = 1 / 0.960625 = 1.0410x\n"));
    CHECK_THAT(r.out, Catch::Matchers::Contains("\n  win share of " + ranker + " = 0.0225 / 0.039375 = 57.1%\n"));
    // Each workload's own arithmetic follows, indented under its name.
    CHECK_THAT(r.out, Catch::Matchers::Contains("\n  " + ranker + ":\n    T_old = 3.0 + 2.0 + 4.0 + 1.0 = 10.0 ms\n"));

    std::vector<std::string> csv = args;
    csv.insert(csv.end(), {"--format", "csv"});
    const RunResult rows = run_cli(csv);
    CHECK(rows.exit_code == 0);
    CHECK(rows.out.starts_with("workload,weight,time_share_pct,speedup,saved_pct,win_share_pct\n" + chat +
                               ",15/s,93.75,1.0183299389002036,1.8,"));
    CHECK_THAT(rows.out, Catch::Matchers::Contains("\n" + ranker + ",5/s,6.25,1.5625,36,"));
    CHECK_THAT(rows.out, Catch::Matchers::EndsWith("\nfleet,,100,1.0409889394925178,3.9375,100\n"));
    CHECK_THAT(rows.err, Catch::Matchers::Contains("fleet speedup:    1.0410x"));
}

TEST_CASE("eval and rank --mix: a loss is carried by the workload that loses most", "[mix][cli]") {
    // Found by a hostile tester: the largest signed part was taken, which for a loss is the
    // workload that loses least, or one that gains. m1 loses: p 50 -> 100 of 100 ms, S = 2/3,
    // w (1 - 1/S) = 0.5 x -0.5 = -0.25; m2 gains: r 50 -> 12.5, S = 100/62.5 = 1.6, 0.5 x 0.375 =
    // 0.1875. The fleet loses 0.0625 (S = 1/1.0625 = 0.9412x), 400% of it in m1.
    const std::string m1 = write_temp("m1.json", R"({"unit":"ms","phases":{"p":50,"q":50}})");
    const std::string m2 = write_temp("m2.json", R"({"phases":{"r":50,"q":50}})");
    const RunResult r = run_cli({"eval", "--mix", m1 + "=0.5", "--mix", m2 + "=0.5", "-s", "p=0.5", "-s", "r=4"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Matchers::Contains("carried by:       " + m1 + " (400.0% of the fleet's loss)"));
    const auto json = json_of(
        run_cli({"eval", "--mix", m1 + "=0.5", "--mix", m2 + "=0.5", "-s", "p=0.5", "-s", "r=4", "--format", "json"}));
    CHECK(json["main_workload"] == m1);
    CHECK_THAT(json["saved_fraction"].get<double>(), WithinRel(-0.0625, 1e-12));
    // rank: p at 0.5x is in m1 only; the summary and the table both say so.
    const RunResult rank = run_cli({"rank", "--mix", m1 + "=0.5", "--mix", m2 + "=0.5", "-k", "0.5"});
    REQUIRE(rank.exit_code == 0);
    CHECK_THAT(rank.out, Catch::Matchers::Contains("mostly from " + m1 + ")"));
    // One file given under two spellings is one workload given twice.
    const std::string again = m1.substr(0, m1.rfind('/')) + "/./m1.json";
    check_input_error({"eval", "--mix", m1 + "=0.5", "--mix", again + "=0.5", "-s", "p=2"},
                      "error: --mix: workload '" + again + "' is given twice (as '" + m1 + "')\n");
}

TEST_CASE("mix: a selector that is an exact name in one workload and a glob in another is an error", "[mix][cli]") {
    // -s 'attn*=2' picked only the phase named 'attn*' in w1 but attn_fwd and attn_bwd in w2: 1.1960x, which is
    // neither reading (1.0256x exact, 1.2720x glob).
    const std::string w1 = write_temp("mix_exact_w1.csv", "name,time_ms\nattn*,10\nattn_fwd,20\nc,70\n");
    const std::string w2 = write_temp("mix_exact_w2.csv", "name,time_ms\nattn_fwd,20\nattn_bwd,30\nc,40\n");
    check_input_error({"eval", "--mix", w1 + "=0.5", "--mix", w2 + "=0.5", "-s", "attn*=2"},
                      "error: selector 'attn*' is the exact name of a phase in " + w1 + " but a glob in " + w2 +
                          ": write name:attn* or glob:attn* so that it means one thing in every workload\n");
    // Either prefix says which; glob: gives (10+20)/2 + 70 = 85 of 100 in w1 and 25 + 40 = 65 of 90 in w2:
    // S = 1 / (0.5 * 0.85 + 0.5 * 65/90).
    const auto glob = json_of(
        run_cli({"eval", "--mix", w1 + "=0.5", "--mix", w2 + "=0.5", "-s", "glob:attn*=2", "--format", "json"}));
    CHECK(glob["speedup"].get<double>() == Approx(1 / (0.5 * 0.85 + 0.5 * 65.0 / 90)));
    // An exact name that is all the glob picks reads the same either way: no error.
    const std::string w3 = write_temp("mix_exact_w3.csv", "name,time_ms\nattn*,10\nc,90\n");
    CHECK(run_cli({"eval", "--mix", w3 + "=0.5", "--mix", w2 + "=0.5", "-s", "attn*=2"}).exit_code == 0);
}

TEST_CASE("eval --mix --fleet: what the fleet speedup is worth, GPUs split as the weights say", "[mix][fleet][cli]") {
    const RunResult r = run_cli({"eval", "--mix", chat + "=0.7", "--mix", ranker + "=0.3", "-s", "kind:kernel=2",
                                 "--fleet", "1000", "--cost-per-gpu-hour", "$2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const nlohmann::json report = json_of(r);
    const double speedup = report["speedup"].get<double>();
    double saved = 0;  // Σ w_i (1 - 1/S_i), each workload at its own speedup
    for (const auto& w : report["workloads"]) saved += w["fleet_saved_fraction"].get<double>();
    const nlohmann::json& fleet = report.at("fleet");
    CHECK(fleet["gpus"].get<double>() == 1000);
    CHECK_THAT(fleet["fraction_freed"].get<double>(), WithinRel(1 - 1 / speedup, 1e-12));
    CHECK_THAT(fleet["gpus_freed"].get<double>(), WithinRel(1000 * saved, 1e-9));
    CHECK_THAT(fleet["gpu_hours_per_year"].get<double>(), WithinRel(1000 * saved * 8760, 1e-9));
    CHECK_THAT(fleet["cost_per_year"].get<double>(), WithinRel(1000 * saved * 8760 * 2, 1e-9));
    CHECK(r.err.find("note: --fleet: the 1000 GPUs split among the workloads as their shares of fleet time") !=
          std::string::npos);
    // The text report says the same, and weights in GPUs that sum to --fleet agree with it.
    const RunResult text = run_cli(
        {"eval", "--mix", chat + "=700gpus", "--mix", ranker + "=300gpus", "-s", "kind:kernel=2", "--fleet", "1000"});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("GPUs freed:       436.0 of 1,000 (1,000 × (1 - 1/S))\n") != std::string::npos);
}

// Two workloads worked by hand: A is gemm 20 + other 80 ms, B gemm 50 + other 50 ms, half the fleet's
// time each. At 2x, gemm saves 0.5 × 10% + 0.5 × 25% = 17.5% of fleet time, other 0.5 × 40% + 0.5 ×
// 25% = 32.5%. On 1,000 GPUs at $2 an hour: 175 and 325 GPUs freed, 175 × 8,760 × 2 = $3,066,000 and
// $5,694,000 a year.
TEST_CASE("rank --mix --fleet: each target's fleet speedup in GPUs and money", "[mix][fleet][cli]") {
    const std::string a = write_temp("mix_fleet_a.csv", "name,time_ms\ngemm,20\nother,80\n");
    const std::string b = write_temp("mix_fleet_b.csv", "name,time_ms\ngemm,50\nother,50\n");
    const RunResult r = run_cli({"rank", "--mix", a + "=0.5", "--mix", b + "=0.5", "-k", "2", "--fleet", "1000",
                                 "--cost-per-gpu-hour", "$2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const nlohmann::json report = json_of(r);
    CHECK(report["fleet"]["gpus"].get<double>() == 1000);
    CHECK(report["fleet"]["currency"] == "$");
    REQUIRE(report["targets"].size() == 2);
    const nlohmann::json& other = report["targets"][0];
    const nlohmann::json& gemm = report["targets"][1];
    CHECK(other["name"] == "other");
    CHECK_THAT(other["fleet"]["gpus_freed"].get<double>(), WithinRel(325, 1e-12));
    CHECK_THAT(other["fleet"]["cost_per_year"].get<double>(), WithinRel(5694000, 1e-12));
    CHECK_THAT(gemm["fleet"]["gpus_freed"].get<double>(), WithinRel(175, 1e-12));
    CHECK_THAT(gemm["fleet"]["fraction_freed"].get<double>(), WithinRel(0.175, 1e-12));
    CHECK_THAT(gemm["fleet"]["cost_per_year"].get<double>(), WithinRel(3066000, 1e-12));
    CHECK(r.err.find("note: --fleet: the 1000 GPUs split among the workloads as their shares of fleet time") !=
          std::string::npos);
    // The table gains the fleet's columns.
    const RunResult text = run_cli(
        {"rank", "--mix", a + "=0.5", "--mix", b + "=0.5", "-k", "2", "--fleet", "1000", "--cost-per-gpu-hour", "$2"});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("GPUs freed") != std::string::npos);
    CHECK(text.out.find("saved a year ($)") != std::string::npos);
    CHECK(text.out.find("5,694,000") != std::string::npos);
    CHECK(text.out.find("fleet:") != std::string::npos);
    // A price without --fleet is still an error.
    const RunResult orphan =
        run_cli({"rank", "--mix", a + "=0.5", "--mix", b + "=0.5", "-k", "2", "--cost-per-gpu-hour", "$2"});
    CHECK(orphan.exit_code == 2);
    CHECK(orphan.err.find("--cost-per-gpu-hour") != std::string::npos);
}

// The same workloads: with efforts, plan --by effort picks gemm (1 week against 4) to reach 1.2x,
// saving 17.5% of fleet time (1 / 0.825 = 1.2121x): 175 GPUs, $3,066,000 a year, and a week at
// $10,000 pays back in 10,000 / 3,066,000 × 365 = 1.1905 days.
TEST_CASE("plan --mix --fleet: what the plan's fleet speedup is worth, and its payback", "[mix][fleet][cli]") {
    const std::string a = write_temp("mix_fleet_a.csv", "name,time_ms\ngemm,20\nother,80\n");
    const std::string b = write_temp("mix_fleet_b.csv", "name,time_ms\ngemm,50\nother,50\n");
    const std::vector<std::string> base{"plan",       "--mix",
                                        a + "=0.5",   "--mix",
                                        b + "=0.5",   "-s",
                                        "gemm=2@1w",  "-s",
                                        "other=2@4w", "--by",
                                        "effort",     "--fleet",
                                        "1000",       "--cost-per-gpu-hour",
                                        "$2",         "--cost-per-effort",
                                        "$10000"};
    std::vector<std::string> args = base;
    for (const char* more : {"--target", "1.2", "--format", "json"}) args.emplace_back(more);
    const RunResult r = run_cli(args);
    REQUIRE(r.exit_code == 0);
    const nlohmann::json report = json_of(r);
    CHECK(report["chosen"] == nlohmann::json::array({"gemm=2@1w"}));
    const nlohmann::json& fleet = report.at("fleet");
    CHECK_THAT(fleet["gpus_freed"].get<double>(), WithinRel(175, 1e-12));
    CHECK_THAT(fleet["cost_per_year"].get<double>(), WithinRel(3066000, 1e-12));
    CHECK_THAT(fleet["effort"].get<double>(), WithinRel(1, 1e-12));
    CHECK_THAT(fleet["payback_days"].get<double>(), WithinRel(10000.0 / 3066000 * 365, 1e-9));
    CHECK(fleet["effort_unit"] == "week");
    // No plan reaches 5x (every target at 2x gives 2x): the fleet has no figures, said so.
    args = base;
    for (const char* more : {"--target", "5", "--format", "json"}) args.emplace_back(more);
    const RunResult none = run_cli(args);
    REQUIRE(none.exit_code == 0);
    CHECK(json_of(none)["fleet"].is_null());
    args = base;
    for (const char* more : {"--target", "5"}) args.emplace_back(more);
    CHECK(run_cli(args).out.find("fleet:         no figures: no plan reaches the target\n") != std::string::npos);
    // --cost-per-effort with a proposal that has no effort: the payback cannot be weighed, said so
    // (it vanished unsaid when that proposal was a step), as eval says it.
    const RunResult missing =
        run_cli({"plan", "--mix", a + "=0.5", "--mix", b + "=0.5", "-s", "gemm=2@1w", "-s", "other=2", "--target",
                 "1.2", "--fleet", "1000", "--cost-per-gpu-hour", "$2", "--cost-per-effort", "$10000"});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err ==
          "error: --cost-per-effort: proposal 'other=2' has no effort: the plan's payback needs every "
          "step's (write SELECTOR=FACTOR@EFFORT)\n");
    const RunResult single = run_cli({"plan", a, "-s", "gemm=2@1w", "-s", "other=2", "--target", "1.1", "--fleet",
                                      "1000", "--cost-per-gpu-hour", "$2", "--cost-per-effort", "$10000"});
    CHECK(single.exit_code == 2);
    CHECK(single.err == missing.err);
}
