// Ranges and spreads through the CLI: eval, rank and plan report the interval in every format,
// the README's example, --conservative, and every error a user can hit (exit 2, the message).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;

std::string ranges_example() { return source_path("examples/transformer_step_ranges.json"); }
std::string step_example() { return source_path("examples/transformer_step.json"); }

nlohmann::json json_of(const RunResult& r) {
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
}

// Exit 2, nothing on stdout, exactly `message` on stderr.
void check_error(const RunResult& r, const std::string& message) {
    INFO("stdout: " << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
}

std::string profile(const std::string& name, const std::string& attention_time) {
    return write_temp("uncertainty_cli_" + name, R"({"unit": "ms", "phases": [{"name": "attention", "time": )" +
                                                     attention_time + R"(}, {"name": "rest", "time": 40}]})");
}

}  // namespace

TEST_CASE("uncertainty cli: eval -s NAME=8..12 bounds the speedup exactly", "[uncertainty][cli]") {
    const std::string path = profile("point.json", "60");
    const nlohmann::json report = json_of(run_cli({"eval", path, "-s", "attention=8..12", "--format", "json"}));
    CHECK(report["speedup"].get<double>() == Approx(100 / (60 / std::sqrt(96.0) + 40)));
    const nlohmann::json& u = report.at("uncertainty");
    CHECK(u["factor_ranges"] == true);
    CHECK(u["time_ranges"] == false);
    CHECK(u["spreads"] == false);
    CHECK(u["speedup_low"].get<double>() == Approx(100 / 47.5));
    CHECK(u["speedup_high"].get<double>() == Approx(100 / 45.0));
    CHECK(u["time_saved_low"].get<double>() == Approx(52.5));
    CHECK(u["time_saved_high"].get<double>() == Approx(55));
    CHECK(u["new_time_low"].get<double>() == Approx(45));     // 60 / 12 + 40
    CHECK(u["new_time_high"].get<double>() == Approx(47.5));  // 60 / 8 + 40
    CHECK(u["speedup_sd"].is_null());
    CHECK_THAT(u["assumption"].get<std::string>(), Contains("geometric midpoint"));
}

TEST_CASE("uncertainty cli: a point answer is unchanged", "[uncertainty][cli]") {
    const RunResult r = run_cli({"eval", step_example(), "-s", "attention_softmax=10", "--format", "json"});
    CHECK_FALSE(json_of(r).contains("uncertainty"));
    CHECK_THAT(run_cli({"eval", step_example(), "-s", "attention_softmax=10"}).out, !Contains("range"));
}

TEST_CASE("uncertainty cli: time ranges, spreads and time_sd in JSON and CSV profiles", "[uncertainty][cli]") {
    SECTION("a range of the sped-up phase") {
        const nlohmann::json report = json_of(
            run_cli({"eval", profile("range.json", "\"50..70 ms\""), "-s", "attention=10", "--format", "json"}));
        CHECK(report["baseline_time"].get<double>() == Approx(100));
        CHECK(report["uncertainty"]["speedup_low"].get<double>() == Approx(2.0));
        CHECK(report["uncertainty"]["speedup_high"].get<double>() == Approx(110 / 47.0));
    }
    SECTION("a spread, written three ways") {
        const double s = 100 / 46.0, sd = (1 - s / 10) / 46 * 3;
        for (const std::string time : {R"("60 ms ± 3")", R"("60 +- 3 ms")", R"(60, "time_sd": 3)"}) {
            INFO(time);
            const nlohmann::json report =
                json_of(run_cli({"eval", profile("spread.json", time), "-s", "attention=10", "--format", "json"}));
            CHECK(report["uncertainty"]["spreads"] == true);
            CHECK(report["uncertainty"]["speedup_sd"].get<double>() == Approx(sd));
            CHECK(report["uncertainty"]["time_saved_sd"].get<double>() == Approx(2.7));
        }
    }
    SECTION("a time_sd column in CSV, in the time's unit") {
        const std::string path =
            write_temp("uncertainty_cli_sd.csv", "name,time (ms),time_sd\nattention,60,3\nrest,40,\n");
        const nlohmann::json report = json_of(run_cli({"eval", path, "-s", "attention=10", "--format", "json"}));
        CHECK(report["uncertainty"]["time_saved_sd"].get<double>() == Approx(2.7));
    }
    SECTION("a range in a CSV time cell") {
        const std::string path =
            write_temp("uncertainty_cli_range.csv", "name,time\nattention,50..70 ms\nrest,40 ms\n");
        const nlohmann::json report = json_of(run_cli({"eval", path, "-s", "attention=10", "--format", "json"}));
        CHECK(report["uncertainty"]["speedup_low"].get<double>() == Approx(2.0));
    }
}

TEST_CASE("uncertainty cli: nsys's per-call StdDev is no run-to-run spread", "[uncertainty][cli]") {
    const std::string nsys = source_path("tests/data/profilers/nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv");
    const RunResult r = run_cli({"eval", nsys, "-s", "*=2", "--format", "json"});
    CHECK_FALSE(json_of(r).contains("uncertainty"));
}

TEST_CASE("uncertainty cli: rank and plan carry the interval", "[uncertainty][cli]") {
    SECTION("rank -k 8..12: every target's bounds") {
        const nlohmann::json report = json_of(
            run_cli({"rank", step_example(), "-k", "8..12", "--only", "attention_softmax", "--format", "json"}));
        const nlohmann::json& target = report["targets"][0];
        CHECK(target["factor"].get<double>() == Approx(std::sqrt(96.0)));
        CHECK(target["uncertainty"]["speedup_low"].get<double>() == Approx(100 / (79 + 21 / 8.0)));
        CHECK(target["uncertainty"]["speedup_high"].get<double>() == Approx(100 / (79 + 21 / 12.0)));
    }
    SECTION("plan -k 8..12: the plan's bounds") {
        const nlohmann::json report = json_of(run_cli(
            {"plan", step_example(), "--target", "1.2", "-k", "8..12", "--only", "kind:kernel", "--format", "json"}));
        REQUIRE(report["chosen"].size() == 1);
        CHECK(report["chosen"][0] == "gemm_qkv");
        CHECK(report["uncertainty"]["speedup_low"].get<double>() == Approx(100 / (66 + 34 / 8.0)));
        CHECK(report["uncertainty"]["speedup_high"].get<double>() == Approx(100 / (66 + 34 / 12.0)));
    }
}

TEST_CASE("uncertainty cli: rank --conservative orders by the low end", "[uncertainty][cli]") {
    // a: 30 ms at 2..20 (low end 1.176x); b: 25 ms at 9..10 (low end 1.286x): b first.
    const std::string path =
        write_temp("uncertainty_cli_conservative.json", R"({"unit": "ms", "phases": [{"name": "a", "time": 30}, )"
                                                        R"({"name": "b", "time": 25}, {"name": "rest", "time": 45}]})");
    const std::vector<std::string> args = {"rank", path, "-s", "a=2..20", "-s", "b=9..10", "--format", "json"};
    const nlohmann::json by_saving = json_of(run_cli(args));
    CHECK(by_saving["targets"][0]["name"] == "a=2..20");
    std::vector<std::string> conservative = args;
    conservative.push_back("--conservative");
    const nlohmann::json report = json_of(run_cli(conservative));
    CHECK(report["conservative"] == true);
    CHECK(report["targets"][0]["name"] == "b=9..10");
    CHECK(report["targets"][1]["uncertainty"]["speedup_low"].get<double>() == Approx(100 / 85.0));
}

TEST_CASE("uncertainty cli: errors", "[uncertainty][cli][errors]") {
    const std::string step = step_example();
    SECTION("factor ranges") {
        check_error(run_cli({"eval", step, "-s", "attention_softmax=12..8"}),
                    "error: --speedup: speedup 'attention_softmax=12..8': bad factor range '12..8': reversed (write "
                    "the smaller end first: 8..12)\n");
        check_error(run_cli({"eval", step, "-s", "attention_softmax=0..8"}),
                    "error: --speedup: speedup 'attention_softmax=0..8': bad factor range '0..8': end '0': a speedup "
                    "factor must be > 0 (0.5 is a 2x slowdown)\n");
        check_error(run_cli({"eval", step, "-s", "attention_softmax=8.."}),
                    "error: --speedup: speedup 'attention_softmax=8..': bad factor range '8..': a range needs both "
                    "ends, such as 8..12\n");
        check_error(run_cli({"eval", step, "-s", "attention_softmax=0.5..2"}),
                    "error: --speedup: speedup 'attention_softmax=0.5..2': bad factor range '0.5..2': a range of "
                    "slowdowns (an end below 1) is not supported; give a point factor\n");
        check_error(run_cli({"rank", step, "-k", "12..8"}),
                    "error: --factor: bad factor range '12..8': reversed (write the smaller end first: 8..12)\n");
    }
    SECTION("time ranges") {
        check_error(run_cli({"eval", profile("reversed.json", "\"70..50 ms\""), "-s", "attention=10"}),
                    "error: " + profile("reversed.json", "\"70..50 ms\"") +
                        ": phases[0].time: time '70..50 ms': the range is reversed (write the smaller end first)\n");
        check_error(run_cli({"eval", profile("half.json", "\"50..\""), "-s", "attention=10"}),
                    "error: " + profile("half.json", "\"50..\"") +
                        ": phases[0].time: time '50..': a range needs both ends, such as \"19..23 ms\"\n");
    }
    SECTION("--conservative without a range, or with --by") {
        check_error(run_cli({"rank", step, "--conservative"}),
                    "error: --conservative: orders by the low end of each speedup's range, and no factor or phase "
                    "time here is a range (give -k 8..12, -s NAME=8..12, or times such as \"19..23 ms\")\n");
        check_error(run_cli({"rank", step, "-k", "8..12", "--conservative", "--by", "ceiling"}),
                    "error: --conservative: orders by each speedup's low end; --by sets another order: give one of "
                    "them\n");
    }
    SECTION("where ranges are not carried") {
        check_error(run_cli({"eval", step, "-s", "attention_softmax=8..12", "--fleet", "100"}),
                    "error: --speedup: 'attention_softmax=8..12': a factor range is not supported with --fleet yet "
                    "(give a point factor)\n");
        check_error(run_cli({"eval", "--mix", step + "=1", "-s", "attention_softmax=8..12"}),
                    "error: --speedup: 'attention_softmax=8..12': a factor range is not supported with --mix yet "
                    "(give a point factor)\n");
    }
}

TEST_CASE("uncertainty cli: law -k 8..12 bounds the speedup by the ends", "[uncertainty][cli]") {
    const nlohmann::json report = json_of(run_cli({"law", "-f", "0.5", "-k", "8..12", "--format", "json"}));
    CHECK(report["factor"].get<double>() == Approx(std::sqrt(96.0)));
    CHECK(report["speedup"].get<double>() == Approx(1 / (0.5 + 0.5 / std::sqrt(96.0))));
    CHECK(report["speedup_low"].get<double>() == Approx(1 / (0.5 + 0.5 / 8)));
    CHECK(report["speedup_high"].get<double>() == Approx(1 / (0.5 + 0.5 / 12)));
    CHECK_FALSE(json_of(run_cli({"law", "-f", "0.5", "-k", "8", "--format", "json"})).contains("speedup_low"));
    check_error(run_cli({"law", "-k", "8..12", "--target", "1.5"}),
                "error: --factor: a range (8..12) applies when solving for the speedup (-f with -k); solving for the "
                "fraction needs a point factor\n");
}

TEST_CASE("uncertainty cli: the README's example profile of time ranges", "[uncertainty][cli][readme]") {
    const nlohmann::json report = json_of(
        run_cli({"eval", ranges_example(), "-s", "attention_softmax=8..12", "--phases", "none", "--format", "json"}));
    CHECK(report["baseline_time"].get<double>() == Approx(100));
    const nlohmann::json& u = report["uncertainty"];
    CHECK(u["time_ranges"] == true);
    CHECK(u["spreads"] == true);
    // Low end: k = 8, attention_softmax at 19 ms, every other range at its high end (101 ms in all).
    CHECK(u["speedup_low"].get<double>() == Approx(101 / (19 / 8.0 + 82)));
    // High end: k = 12, attention_softmax at 23 ms, every other range at its low end (99 ms in all).
    CHECK(u["speedup_high"].get<double>() == Approx(99 / (23 / 12.0 + 76)));
    CHECK(u["time_saved_low"].get<double>() == Approx(19 * (1 - 1 / 8.0)));
    CHECK(u["time_saved_high"].get<double>() == Approx(23 * (1 - 1 / 12.0)));
    // T' at its ends: every time and factor where T' is least (76 + 19 / 12), then greatest (82 + 23 / 8).
    CHECK(u["new_time_low"].get<double>() == Approx(76 + 19 / 12.0));
    CHECK(u["new_time_high"].get<double>() == Approx(82 + 23 / 8.0));
    // Only untouched phases have a spread: the saving's sd is 0.
    CHECK(u["time_saved_sd"].get<double>() == Approx(0));

    const RunResult text = run_cli({"eval", ranges_example(), "-s", "attention_softmax=8..12", "--phases", "none"});
    CHECK_THAT(text.out, Contains("speedup range:     1.1970x to 1.2706x\n"));
    CHECK_THAT(text.out, Contains("time saved range:  16.625 to 21.0833 ms\n"));
    const RunResult csv =
        run_cli({"eval", ranges_example(), "-s", "attention_softmax=8..12", "--phases", "none", "--format", "csv"});
    CHECK_THAT(csv.out, Contains("\nspeedup_interval_low,1.1970"));
    CHECK_THAT(csv.out, Contains("\ntime_saved_interval_high_ms,21.08333"));
    const RunResult md =
        run_cli({"eval", ranges_example(), "-s", "attention_softmax=8..12", "--phases", "none", "--format", "md"});
    CHECK_THAT(md.out, Contains("| speedup range | 1.1970x to 1.2706x |\n"));
}

TEST_CASE("uncertainty cli: rank's table and CSV rows carry each target's bounds", "[uncertainty][cli]") {
    const RunResult csv = run_cli({"rank", step_example(), "-k", "8..12", "--only", "gemm_qkv", "--format", "csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK_THAT(csv.out, Contains(",speedup_low,speedup_high"));
    const RunResult md = run_cli({"rank", step_example(), "-k", "8..12", "--only", "gemm_qkv", "--format", "md"});
    CHECK_THAT(md.out, Contains("speedup low"));
    CHECK_THAT(md.out, Contains("1.4235x"));  // 100 / (66 + 34 / 8)
}

TEST_CASE("uncertainty cli: rank with one range among point proposals", "[uncertainty][cli]") {
    const std::vector<std::string> args = {"rank", step_example(), "-s", "gemm_qkv=2..20", "-s", "attention_softmax=9"};
    const nlohmann::json report =
        json_of(run_cli({args[0], args[1], args[2], args[3], args[4], args[5], "--format", "json"}));
    // The point proposal's bounds are its point.
    const nlohmann::json& point = report["targets"][1];
    REQUIRE(point["name"] == "attention_softmax=9");
    CHECK(point["uncertainty"]["factor_ranges"] == false);
    CHECK(point["uncertainty"]["speedup_low"].get<double>() == Approx(point["speedup"].get<double>()));
    const RunResult conservative =
        run_cli({args[0], args[1], args[2], args[3], args[4], args[5], "--conservative", "--format", "csv"});
    REQUIRE(conservative.exit_code == 0);
    // attention_softmax=9 (1.2295x for sure) before gemm_qkv=2..20 (1.2048x at k = 2).
    CHECK_THAT(conservative.out, Contains("\n1,attention_softmax=9,"));
}

TEST_CASE("uncertainty cli: the verdict names a factor range by its ends, and what each end buys",
          "[uncertainty][verdict][cli]") {
    // attention_softmax is 21 of 100 ms. At 8x: 1 / (0.79 + 0.21 / 8) = 1 / 0.81625 = 1.2251x, saving
    // 18.375%; at 12x: 1 / (0.79 + 0.0175) = 1 / 0.8075 = 1.2384x, saving 19.25% (19.2%: the double is
    // just below 0.1925); the point is the
    // geometric midpoint sqrt(96) = 9.798x: 1 / (0.79 + 0.21 / 9.798) = 1.2324x.
    const std::string step = source_path("examples/transformer_step.json");
    const RunResult r = run_cli({"eval", step, "-s", "attention_softmax=8..12", "--verdict"});
    CHECK(r.exit_code == 0);
    CHECK(r.out ==
          "An 8x to 12x speedup of attention_softmax, 21.0% of the total, buys 18.4% to 19.2% of it (1.2251x to "
          "1.2384x; 1.2324x at the point); even an infinitely fast one would buy 21.0%: more time is in gemm_qkv "
          "(34.0%).\n");
    // Several speedups: each range by its ends beside its target.
    const RunResult two = run_cli({"eval", step, "-s", "attention_softmax=8..12", "-s", "layernorm=10", "--verdict"});
    CHECK_THAT(two.out, Contains("Changes to attention_softmax (8x to 12x) and layernorm (10x), 27.0% of the total "
                                 "together, buy "));
}

TEST_CASE("uncertainty cli: plan --target-time --require gates the new time at the ranges' worst end",
          "[uncertainty][cli]") {
    // a 10..30 ms (point 20), b 20 ms: the target 22 ms of 40 is 1.8182x. Both phases at 2x reach 20 ms at the
    // point; with a at 30 the new time is 15 + 10 = 25 ms, over 22 ms, though the speedup there is 50 / 25 = 2x.
    // The gate passed on that speedup.
    const std::string path = write_temp("plan_time_gate.csv", "name,time_ms\na,10..30\nb,20\n");
    const RunResult r = run_cli({"plan", path, "-k", "2", "--target-time", "22ms", "--require"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Contains("the plan misses the target time at the ranges' worst end (25.0 ms > 22.0 ms)"));
    CHECK_THAT(r.err, Contains("gate failed: at the ranges' worst end the plan's new time is 25.0 ms, over the "
                               "target 22.0 ms\n"));
    const RunResult j = run_cli({"plan", path, "-k", "2", "--target-time", "22ms", "--require", "--format", "json"});
    CHECK(j.exit_code == 1);
    CHECK(nlohmann::json::parse(j.out)["gate"]["passed"] == false);
    // 25 ms is within a 25 ms target.
    const RunResult ok = run_cli({"plan", path, "-k", "2", "--target-time", "25ms", "--require"});
    CHECK(ok.exit_code == 0);
    CHECK_THAT(ok.out, Contains("the plan's new time is at most 25.0 ms at every range's worst end, within the target "
                                "25.0 ms"));
}
