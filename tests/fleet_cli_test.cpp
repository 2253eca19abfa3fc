// --fleet on eval, law, rank and plan: the exercise's "5% win on 20,000 GPUs", both readings of
// "5%", money with its currency, payback from proposals' efforts, and every option that does not
// apply as an error.
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
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

const std::string assumes_continuous =
    "the fleet does the same work after the speedup, so 1 - 1/S of its time is freed (the GPUs idle or handed "
    "back); each GPU runs 8,760 hours a year (continuous: 365 × 24, the default); the speedup holds on every GPU "
    "of the fleet";

void check_error(const RunResult& r, const std::string& err) {
    INFO("stdout: " << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == err);
}

nlohmann::json json_of(const RunResult& r) {
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("fleet: 5% of the time saved on 20,000 GPUs frees exactly 1,000 - 5% faster frees 952.4", "[fleet][cli]") {
    const RunResult saved = run_cli({"law", "-f", "1", "-k", "-5%", "--fleet", "20000", "--cost-per-gpu-hour", "2USD"});
    CHECK(saved.exit_code == 0);
    CHECK(saved.err.empty());
    CHECK(saved.out ==
          "fraction f:       100.0%\n"
          "factor k:         1.0526x\n"
          "speedup S:        1.0526x\n"
          "ceiling:          none (f = 1)\n"
          "time saved:       5.0% of the time (1 - 1/S)\n"
          "fleet:            20,000 GPUs, 8,760 h a year each (continuous: 365 × 24), 2.00 USD a GPU-hour\n"
          "fleet time freed: 5.0% (1 - 1/S: the same work in less time)\n"
          "GPUs freed:       1,000.0 of 20,000 (20,000 × (1 - 1/S))\n"
          "capacity gained:  1,052.6316 GPUs' worth (20,000 × (S - 1): more work on the same GPUs, the other "
          "reading of the speedup)\n"
          "GPU-hours freed:  8,760,000.0 a year (1,000.0 GPUs × 8,760 h)\n"
          "money saved:      17,520,000.00 USD a year (8,760,000.0 GPU-hours × 2.00 USD)\n"
          "fleet assumes:    " +
              assumes_continuous + "\n");
    const RunResult faster =
        run_cli({"law", "-f", "1", "-k", "1.05", "--fleet", "20000", "--cost-per-gpu-hour", "2USD", "--explain"});
    CHECK(faster.exit_code == 0);
    CHECK_THAT(faster.out, Contains("GPUs freed:       952.381 of 20,000 (20,000 × (1 - 1/S))\n"
                                    "capacity gained:  1,000.0 GPUs' worth"));
    CHECK_THAT(faster.out, Contains("\nThe fleet's arithmetic:\n"
                                    "  fraction freed = 1 - 1/S = 1 - 1/1.05 = 0.047619\n"
                                    "  GPUs freed = 20,000 × (1 - 1/1.05) = 952.381\n"
                                    "  capacity gained = 20,000 × (1.05 - 1) = 1,000.0\n"
                                    "  GPU-hours a year = 952.381 × 8,760 h = 8,342,857.1429\n"
                                    "  money a year = 8,342,857.1429 GPU-hours × 2.00 USD = 16,685,714.29 USD\n"));

    const nlohmann::json json = json_of(
        run_cli({"law", "-f", "1", "-k", "1.05", "--fleet", "20000", "--cost-per-gpu-hour", "$2", "--format", "json"}));
    const nlohmann::json& fleet = json.at("fleet");
    CHECK(fleet.at("gpus") == 20000);
    CHECK(fleet.at("hours_per_year") == 8760);
    CHECK(fleet.at("continuous") == true);
    CHECK(fleet.at("currency") == "$");
    CHECK_THAT(fleet.at("fraction_freed").get<double>(), WithinRel(1 - 1 / 1.05, 1e-12));
    CHECK_THAT(fleet.at("gpus_freed").get<double>(), WithinRel(20000 * (1 - 1 / 1.05), 1e-12));
    CHECK_THAT(fleet.at("capacity_gained").get<double>(), WithinRel(1000.0, 1e-12));
    CHECK_THAT(fleet.at("cost_per_year").get<double>(), WithinRel(20000 * (1 - 1 / 1.05) * 8760 * 2, 1e-12));
    CHECK(fleet.at("payback_days").is_null());
}

TEST_CASE("fleet: law with an impossible target has no figures, said in text and JSON", "[fleet][cli]") {
    const RunResult r = run_cli({"law", "-f", "0.6", "--target", "3", "--fleet", "8"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out,
               Contains("ceiling:    2.5000x (1 / (1 - f))\nfleet:      no figures: the speedup is impossible\n"));
    CHECK(json_of(run_cli({"law", "-f", "0.6", "--target", "3", "--fleet", "8", "--format", "json"}))
              .at("fleet")
              .is_null());
}

TEST_CASE("fleet: eval's payback from its speedups' efforts, in every format", "[fleet][cli]") {
    const std::string step = source_path("examples/transformer_step.json");
    const std::vector<std::string> args = {"eval",
                                           step,
                                           "-s",
                                           "attention_softmax=10@3",
                                           "--phases",
                                           "none",
                                           "--fleet",
                                           "20000",
                                           "--cost-per-gpu-hour",
                                           "$2.5",
                                           "--cost-per-effort",
                                           "$10000",
                                           "--effort-unit",
                                           "engineer-week"};
    const RunResult text = run_cli(args);
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Contains("GPUs freed:        3,780.0 of 20,000 (20,000 × (1 - 1/S))\n"));
    CHECK_THAT(text.out, Contains("money saved:       $82,782,000.00 a year (33,112,800.0 GPU-hours × $2.50)\n"
                                  "effort cost:       $30,000.00 (3 engineer-weeks × $10,000.00)\n"
                                  "payback:           0.1323 days ($30,000.00 / $82,782,000.00 a year × 365 days)\n"));

    std::vector<std::string> explain = args;
    explain.push_back("--explain");
    CHECK_THAT(run_cli(explain).out,
               Contains("  effort cost = 3 engineer-weeks × $10,000.00 = $30,000.00\n"
                        "  payback = $30,000.00 / $82,782,000.00 a year × 365 days = 0.1323 days\n"));

    std::vector<std::string> md = args;
    md.insert(md.end(), {"--format", "md"});
    CHECK_THAT(run_cli(md).out,
               Contains("| payback | 0.1323 days ($30,000.00 / $82,782,000.00 a year × 365 days) |\n"));

    std::vector<std::string> csv = args;
    csv.insert(csv.end(), {"--format", "csv"});
    const RunResult csv_run = run_cli(csv);
    CHECK_THAT(csv_run.err, Contains("payback:           0.1323 days"));

    std::vector<std::string> json_args = args;
    json_args.insert(json_args.end(), {"--format", "json"});
    const nlohmann::json fleet = json_of(run_cli(json_args)).at("fleet");
    CHECK(fleet.at("effort_unit") == "engineer-week");
    CHECK(fleet.at("effort") == 3);
    CHECK_THAT(fleet.at("gpus_freed").get<double>(), WithinRel(3780.0, 1e-9));
    CHECK_THAT(fleet.at("cost_per_year").get<double>(), WithinRel(82'782'000.0, 1e-9));
    CHECK_THAT(fleet.at("effort_cost").get<double>(), WithinRel(30'000.0, 1e-12));
    CHECK_THAT(fleet.at("payback_days").get<double>(), WithinRel(30'000.0 / 82'782'000.0 * 365, 1e-9));
}

TEST_CASE("fleet: rank's columns per target, payback only where the target has an effort", "[fleet][cli]") {
    const RunResult r = run_cli({"rank", source_path("examples/transformer_step.json"), "-s", "attention_softmax=10@3",
                                 "-s", "layernorm=10@2", "-s", "gemm_qkv=2", "--fleet", "20000", "--cost-per-gpu-hour",
                                 "$2", "--cost-per-effort", "$10000", "--format", "csv"});
    CHECK(r.exit_code == 0);
    CHECK(r.out ==
          "rank,name,kind,time_ms,share_pct,factor,speedup,time_saved_ms,ceiling,effort,saved_per_effort_ms,gpus_"
          "freed,cost_per_year,payback_days\n"
          "1,attention_softmax=10@3,kernel,21,21,10,1.2330456226880395,18.9,1.2658227848101267,3,6.3,3780,66225600,"
          "0.16534391534391532\n"
          "2,gemm_qkv=2,kernel,34,34,2,1.2048192771084338,17,1.5151515151515151,,,3400,59568000,\n"
          "3,layernorm=10@2,kernel,6,6,10,1.0570824524312896,5.4,1.0638297872340425,2,2.7,1080,18921600,"
          "0.3858024691358029\n");
    CHECK_THAT(r.err, Contains("fleet:          20,000 GPUs, 8,760 h a year each (continuous: 365 × 24), $2.00 a "
                               "GPU-hour, $10,000.00 per effort\n"));
}

TEST_CASE("fleet: plan's figures come from the plan's speedup and total effort - none when unreachable",
          "[fleet][cli]") {
    const std::string step = source_path("examples/transformer_step.json");
    const nlohmann::json fleet = json_of(run_cli({"plan",
                                                  step,
                                                  "--target",
                                                  "1.3",
                                                  "-s",
                                                  "attention_softmax=10@3",
                                                  "-s",
                                                  "layernorm=10@2",
                                                  "-s",
                                                  "gemm_qkv=4@5",
                                                  "--by",
                                                  "effort",
                                                  "--fleet",
                                                  "20000",
                                                  "--cost-per-gpu-hour",
                                                  "2USD",
                                                  "--cost-per-effort",
                                                  "10000USD",
                                                  "--format",
                                                  "json"}))
                                     .at("fleet");
    // gemm_qkv at 4x saves 25.5 ms of 100: S = 100 / 74.5, a fraction 0.255 freed.
    CHECK_THAT(fleet.at("fraction_freed").get<double>(), WithinRel(0.255, 1e-12));
    CHECK_THAT(fleet.at("gpus_freed").get<double>(), WithinRel(5100.0, 1e-12));
    CHECK(fleet.at("effort") == 5);
    CHECK_THAT(fleet.at("payback_days").get<double>(), WithinRel(50'000.0 / (5100.0 * 8760 * 2) * 365, 1e-12));

    const RunResult unreachable = run_cli({"plan", step, "--target", "20", "-k", "10", "--fleet", "100"});
    CHECK(unreachable.exit_code == 0);
    CHECK_THAT(unreachable.out, Contains("\nfleet:         no figures: no plan reaches the target\n"));
    CHECK(json_of(run_cli({"plan", step, "--target", "20", "-k", "10", "--fleet", "100", "--format", "json"}))
              .at("fleet")
              .is_null());
}

TEST_CASE("fleet: options that do not apply, and bad numbers, are errors", "[fleet][cli][errors]") {
    const std::string step = source_path("examples/transformer_step.json");
    const std::vector<std::string> law = {"law", "-f", "1", "-k", "1.05"};
    const auto with = [](std::vector<std::string> args, const std::vector<std::string>& more) {
        args.insert(args.end(), more.begin(), more.end());
        return args;
    };
    check_error(run_cli(with(law, {"--cost-per-gpu-hour", "2USD"})),
                "error: --cost-per-gpu-hour: applies with --fleet GPUS only (the GPUs the workload runs on)\n");
    check_error(run_cli(with(law, {"--hours-per-year", "100"})),
                "error: --hours-per-year: applies with --fleet GPUS only (the GPUs the workload runs on)\n");
    check_error(run_cli(with(law, {"--fleet", "20000", "--hours-per-year", "9000"})),
                "error: --hours-per-year: expected hours > 0 and at most 8784 (366 x 24, a leap year; got '9000')\n");
    check_error(run_cli(with(law, {"--fleet", "20000", "--hours-per-year", "0"})),
                "error: --hours-per-year: expected hours > 0 and at most 8784 (366 x 24, a leap year; got '0')\n");
    check_error(run_cli(with(law, {"--fleet", "nan"})), "error: --fleet: expected a finite number (got 'nan')\n");
    check_error(run_cli(with(law, {"--fleet", "0.5"})),
                "error: --fleet: expected a whole number of GPUs >= 1 (got '0.5')\n");
    check_error(run_cli(with(law, {"--fleet", "10", "--cost-per-gpu-hour", "2"})),
                "error: --cost-per-gpu-hour: '2' names no currency: write 2.5USD or $2.5, or give --currency USD\n");
    check_error(run_cli(with(law, {"--fleet", "10", "--cost-per-gpu-hour", "-1USD"})),
                "error: --cost-per-gpu-hour: a price must be >= 0 (got '-1USD')\n");
    check_error(run_cli(with(law, {"--fleet", "10", "--cost-per-gpu-hour", "inf"})),
                "error: --cost-per-gpu-hour: expected a price such as 2.5USD, $2.5 or 2.5 with --currency (got "
                "'inf')\n");
    check_error(run_cli(with(law, {"--fleet", "10", "--cost-per-gpu-hour", "2USD", "--currency", "EUR"})),
                "error: --cost-per-gpu-hour: '2USD' is in USD, not EUR: give every price in one currency\n");
    check_error(run_cli(with(law, {"--fleet", "10", "--currency", "EUR"})),
                "error: --currency: applies with --cost-per-gpu-hour only (no price, no money)\n");
    check_error(run_cli(with(law, {"--fleet", "10", "--cost-per-effort", "2USD"})),
                "error: --cost-per-effort is an option of eval, rank and plan, not law (see 'amdahl law --help')\n");

    check_error(run_cli({"rank", step, "-s", "layernorm=10@2", "--fleet", "10", "--cost-per-gpu-hour", "2USD",
                         "--cost-per-effort", "10EUR"}),
                "error: --cost-per-effort: '10EUR' is in EUR, not USD: give every price in one currency\n");
    check_error(run_cli({"rank", step, "--fleet", "10", "--cost-per-gpu-hour", "2USD", "--cost-per-effort", "10USD"}),
                "error: --cost-per-effort: no proposal has an effort: give one as SELECTOR=FACTOR@EFFORT\n");
    check_error(run_cli({"plan", step, "--target", "1.1", "-s", "layernorm=10@2", "--fleet", "10", "--cost-per-effort",
                         "10USD"}),
                "error: --cost-per-effort: needs --cost-per-gpu-hour: the payback weighs the effort's cost against "
                "the money saved\n");
    check_error(run_cli({"eval", step, "-s", "layernorm=10@2", "-s", "gemm_qkv=2", "--fleet", "10",
                         "--cost-per-gpu-hour", "2USD", "--cost-per-effort", "10USD"}),
                "error: --cost-per-effort: speedup 'gemm_qkv=2' has no effort: give every speedup one "
                "(SELECTOR=FACTOR@EFFORT)\n");
    check_error(run_cli({"eval", step, "-s", "layernorm=10", "--effort-unit", "week"}),
                "error: --effort-unit: applies with --cost-per-effort only\n");
}

TEST_CASE("fleet: an effort unit given in the plural reads right in the singular and the plural", "[fleet][cli]") {
    // --effort-unit weeks printed "effort (weekses)" and "3 weeks" but also "saved per weeks".
    const std::string step = source_path("examples/transformer_step.json");
    const RunResult r = run_cli({"rank", step, "-s", "attention_softmax=10@3", "-s", "gemm_qkv=2@1", "--by", "effort",
                                 "--effort-unit", "weeks"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("effort (weeks)"));
    CHECK_THAT(r.out, Contains("saved per week"));
    CHECK_THAT(r.out, !Contains("weekses"));
    CHECK_THAT(r.out, !Contains("per weeks"));
}

TEST_CASE("fleet: an effort written with its unit (@3w) names the effort unit", "[fleet][cli]") {
    const std::string step = source_path("examples/transformer_step.json");
    const RunResult r = run_cli(
        {"rank", step, "-s", "attention_softmax=4@3w", "-s", "gemm_qkv=2@1w", "--by", "effort", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["effort_unit"] == "week");
    // gemm_qkv: 34 ms at 2x saves 17 ms for 1 week; attention_softmax: 21 ms at 4x saves 15.75 ms for 3.
    CHECK(report["targets"][0]["effort"].get<double>() == Approx(1));
    CHECK(report["targets"][0]["saved_per_effort"].get<double>() == Approx(17));
    CHECK(report["targets"][1]["saved_per_effort"].get<double>() == Approx(5.25));
    // --effort-unit may name the same unit more fully.
    const RunResult full = run_cli({"rank", step, "-s", "attention_softmax=4@3w", "--effort-unit", "engineer-weeks"});
    CHECK(full.exit_code == 0);
    CHECK_THAT(full.out, Contains("effort (engineer-weeks)"));
    // eval --fleet: the payback is in the unit the efforts give.
    const RunResult eval = run_cli({"eval", step, "-s", "layernorm=10@2d", "--fleet", "100", "--cost-per-gpu-hour",
                                    "2USD", "--cost-per-effort", "1000USD", "--format", "json"});
    REQUIRE(eval.exit_code == 0);
    CHECK(nlohmann::json::parse(eval.out)["fleet"]["effort_unit"] == "day");
}

TEST_CASE("fleet: efforts in different units, or with and without one, are errors", "[fleet][cli]") {
    const std::string step = source_path("examples/transformer_step.json");
    check_error(run_cli({"rank", step, "-s", "attention_softmax=4@3w", "-s", "gemm_qkv=2@2d"}),
                "error: --speedup: efforts are in different units ('attention_softmax=4@3w' in weeks, "
                "'gemm_qkv=2@2d' in days): give every effort in one unit; amdahl does not convert between them\n");
    check_error(run_cli({"plan", step, "-s", "attention_softmax=4@3w", "-s", "gemm_qkv=2@2", "--target", "1.1"}),
                "error: --speedup: 'attention_softmax=4@3w' gives its effort in weeks and 'gemm_qkv=2@2' gives no "
                "unit: give every effort its unit\n");
    check_error(run_cli({"rank", step, "-s", "attention_softmax=4@3w", "--effort-unit", "days"}),
                "error: --effort-unit: 'days' disagrees with the unit of the efforts ('attention_softmax=4@3w' is in "
                "weeks)\n");
    check_error(run_cli({"rank", step, "-s", "attention_softmax=4@3m"}),
                "error: --speedup: speedup 'attention_softmax=4@3m': effort '3m': unit 'm' could mean more than one "
                "thing: write the word (3 weeks) or use h, d, w or mo\n");
}

TEST_CASE("fleet: a profile's proposal effort may carry its unit, and import writes it back", "[fleet][cli]") {
    const std::string path =
        write_temp("effort_unit.json",
                   R"({"unit":"ms","phases":{"a":60,"b":40},"proposals":[{"target":"a","factor":2,"effort":"3w"}]})");
    const RunResult r = run_cli({"rank", path, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["effort_unit"] == "week");
    CHECK(report["targets"][0]["effort"].get<double>() == Approx(3));
    const RunResult imported = run_cli({"import", path});
    REQUIRE(imported.exit_code == 0);
    CHECK(nlohmann::json::parse(imported.out)["proposals"][0]["effort"] == "3 weeks");
    const std::string bad =
        write_temp("effort_bad.json",
                   R"({"unit":"ms","phases":{"a":60,"b":40},"proposals":[{"target":"a","factor":2,"effort":"soon"}]})");
    check_error(run_cli({"rank", bad}), "error: " + bad +
                                            ": proposals[0].effort: effort must be a number > 0 with an optional "
                                            "unit, such as 3, 3w or 2 days (got 'soon')\n");
}
