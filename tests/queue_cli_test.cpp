// `amdahl queue` through the command line: the lesson's example (a 1.43x service-time speedup at
// 80% utilization cuts mean latency 3.15x), M/M/c, M/G/1 and M/G/c, unstable stations, --slo,
// --speedup-from, the output formats, and every input error with its message (exit 2).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;
using Catch::Matchers::Contains;

RunResult queue(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), "queue");
    return run_cli(args, input);
}

RunResult queue_json(std::vector<std::string> args) {
    args.insert(args.end(), {"--format", "json"});
    return queue(args);
}

// Exit 2, nothing on stdout, exactly `message` on stderr.
void check_input_error(const std::vector<std::string>& args, const std::string& message) {
    const RunResult r = queue(args);
    INFO("amdahl queue " << [&] {
        std::string line;
        for (const auto& a : args) line += a + " ";
        return line;
    }());
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == message);
}

}  // namespace

TEST_CASE("queue cli: the lesson's example, M/M/1 at 80% utilization", "[queue][cli]") {
    const RunResult r = queue({"--service", "50ms", "--rate", "16/s", "-s", "1.43"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "quantity               before     after    ratio\n"
          "-----------------  ----------  --------  -------\n"
          "service time (ms)        50.0    34.965  1.4300x\n"
          "utilization             80.0%     55.9%\n"
          "P(wait)                 80.0%     55.9%\n"
          "mean wait (ms)          200.0      44.4  4.5045x\n"
          "mean latency (ms)       250.0   79.3651  3.1500x\n"
          "p50 latency (ms)     173.2868   55.0117  3.1500x\n"
          "p90 latency (ms)     575.6463  182.7448  3.1500x\n"
          "p99 latency (ms)   1,151.2925  365.4897  3.1500x\n"
          "\n"
          "model:        M/M/1: Poisson arrivals, exponential service times, 1 server, first come first served\n"
          "arrival rate: 16.0/s (λ)\n"
          "speedup:      1.43x on the service time\n"
          "capacity:     20.0/s before, 28.6/s after (c / S: the rate at which utilization reaches 100%)\n"
          "latency:      mean 3.1500x lower (250.0 → 79.3651 ms): more than the service time's own 1.43x, because "
          "utilization fell from 80.0% to 55.9% and the wait with it (200.0 → 44.4 ms)\n");
}

TEST_CASE("queue cli: JSON carries every figure in the service time's unit", "[queue][cli][json]") {
    const RunResult r = queue_json({"--service", "50ms", "--rate", "16/s", "-s", "-30%", "--slo", "p99=1s"});
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["schema_version"] == 1);
    CHECK(json["command"] == "queue");
    CHECK(json["model"] == "M/M/1");
    CHECK(json["exact_percentiles"] == true);
    CHECK(json["approximation"].is_null());
    CHECK(json["speedup_from"].is_null());
    CHECK(json["unit"] == "ms");
    CHECK(json["servers"] == 1);
    CHECK(json["arrival_rate_per_s"].get<double>() == Approx(16));
    CHECK(json["speedup"].get<double>() == Approx(1 / 0.7));
    const auto& before = json["before"];
    CHECK(before["service_time"].get<double>() == Approx(50));
    CHECK(before["utilisation"].get<double>() == Approx(0.8));
    CHECK(before["capacity_per_s"].get<double>() == Approx(20));
    CHECK(before["stable"] == true);
    CHECK(before["rate_reduction_needed"].is_null());
    CHECK(before["wait_probability"].get<double>() == Approx(0.8));
    CHECK(before["mean_wait"].get<double>() == Approx(200));
    CHECK(before["mean_latency"].get<double>() == Approx(250));
    CHECK(before["p50_latency"].get<double>() == Approx(1000 * std::log(2.0) / 4));
    CHECK(before["p90_latency"].get<double>() == Approx(1000 * std::log(10.0) / 4));
    CHECK(before["p99_latency"].get<double>() == Approx(1000 * std::log(100.0) / 4));
    // S = 35 ms: ρ = 0.56, T = 35 / 0.44 ≈ 79.5 ms, 3.14x lower.
    const auto& after = json["after"];
    CHECK(after["service_time"].get<double>() == Approx(35));
    CHECK(after["utilisation"].get<double>() == Approx(0.56));
    CHECK(after["mean_latency"].get<double>() == Approx(35 / 0.44));
    CHECK(json["mean_latency_speedup"].get<double>() == Approx(250 / (35 / 0.44)));
    // p99 = ln(100) / (μ - λ) <= 1 s: λ <= μ - ln(100).
    REQUIRE(json["objectives"].size() == 1);
    const auto& slo = json["objectives"][0];
    CHECK(slo["slo"] == "p99=1s");
    CHECK(slo["statistic"] == "p99");
    CHECK(slo["bound"].get<double>() == Approx(1000));
    CHECK(slo["max_rate_before_per_s"].get<double>() == Approx(20 - std::log(100.0)));
    CHECK(slo["max_rate_after_per_s"].get<double>() == Approx(1 / 0.035 - std::log(100.0)));
}

TEST_CASE("queue cli: units of --service and --rate", "[queue][cli]") {
    // The same station written three ways: the report's times follow --service's unit.
    for (const auto& [service, rate, unit, latency] :
         std::vector<std::tuple<std::string, std::string, std::string, double>>{
             {"50ms", "16/s", "ms", 250}, {"0.05s", "960/min", "s", 0.25}, {"50000us", "57600/h", "us", 250000}}) {
        INFO(service << " " << rate);
        const RunResult r = queue_json({"--service", service, "--rate", rate, "-s", "2"});
        REQUIRE(r.exit_code == 0);
        const auto json = nlohmann::json::parse(r.out);
        CHECK(json["unit"] == unit);
        CHECK(json["arrival_rate_per_s"].get<double>() == Approx(16));
        CHECK(json["before"]["mean_latency"].get<double>() == Approx(latency));
    }
    const RunResult per_ms = queue_json({"--service", "50ms", "--rate", "0.016/ms", "-s", "1.43x"});
    REQUIRE(per_ms.exit_code == 0);
    CHECK(nlohmann::json::parse(per_ms.out)["arrival_rate_per_s"].get<double>() == Approx(16));
}

TEST_CASE("queue cli: M/M/c by Erlang C", "[queue][cli]") {
    const RunResult r = queue_json({"--service", "1s", "--rate", "1/s", "--servers", "2", "-s", "2"});
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["model"] == "M/M/c");
    CHECK(json["servers"] == 2);
    CHECK(json["before"]["wait_probability"].get<double>() == Approx(1.0 / 3));
    CHECK(json["before"]["mean_wait"].get<double>() == Approx(1.0 / 3));
    CHECK(json["before"]["mean_latency"].get<double>() == Approx(4.0 / 3));
    CHECK(json["before"]["p99_latency"].is_number());
}

TEST_CASE("queue cli: --cv gives M/G/1 means and no percentiles, saying why", "[queue][cli]") {
    const RunResult r = queue({"--service", "50ms", "--rate", "16/s", "--cv", "0", "-s", "1.43"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nmean wait (ms)      100.0     22.2  4.5045x\n"));
    CHECK_THAT(r.out, !Contains("p99"));
    CHECK_THAT(r.out, Contains("model:        M/G/1: Poisson arrivals, service times with cv 0, 1 server "
                               "(Pollaczek-Khinchine)\n"));
    CHECK_THAT(r.out, Contains("percentiles:  not given: with --cv 0 the service times are not exponential, and a "
                               "mean and a cv do not fix the latency distribution (use --cv 1 for exact "
                               "percentiles)\n"));
    const auto json =
        nlohmann::json::parse(queue_json({"--service", "50ms", "--rate", "16/s", "--cv", "0", "-s", "1.43"}).out);
    CHECK(json["model"] == "M/G/1");
    CHECK(json["exact_percentiles"] == false);
    CHECK(json["before"]["mean_wait"].get<double>() == Approx(100));
    CHECK(json["before"]["p99_latency"].is_null());
}

TEST_CASE("queue cli: --cv with several servers is M/G/c by Allen-Cunneen, said in the output", "[queue][cli]") {
    const std::vector<std::string> args{"--service", "1s", "--rate", "1/s", "--servers", "2", "--cv", "0", "-s", "2"};
    const RunResult r = queue(args);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("M/G/c: Poisson arrivals, service times with cv 0, 2 servers: approximated by "
                               "Allen-Cunneen: W ≈ W_{M/M/c} · (1 + cv²) / 2\n"));
    const auto json = nlohmann::json::parse(queue_json(args).out);
    CHECK(json["model"] == "M/G/c");
    CHECK(json["approximation"] == "Allen-Cunneen: W ≈ W_{M/M/c} · (1 + cv²) / 2");
    CHECK(json["before"]["mean_wait"].get<double>() == Approx(1.0 / 6));
    CHECK(json["before"]["wait_probability"].is_null());
}

TEST_CASE("queue cli: an unstable station is an answer: by how much the rate must drop", "[queue][cli]") {
    const RunResult r = queue({"--service", "50ms", "--rate", "25/s", "-s", "1.43"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Contains("\nbefore:       unstable: arrivals at 25.0/s exceed the capacity c / S = 20.0/s "
                               "(utilization 125.0%); the queue grows without bound. The rate must drop below "
                               "20.0/s (by more than 20.0%)\n"));
    CHECK_THAT(r.out, Contains("\nlatency:      stable after the speedup: the mean latency becomes "));
    CHECK_THAT(r.out, Contains("\nmean latency (ms)  unstable  "));
    const auto json = nlohmann::json::parse(queue_json({"--service", "50ms", "--rate", "25/s", "-s", "1.43"}).out);
    CHECK(json["before"]["stable"] == false);
    CHECK(json["before"]["rate_reduction_needed"].get<double>() == Approx(0.2));
    CHECK(json["before"]["mean_latency"].is_null());
    CHECK(json["after"]["stable"] == true);
    CHECK(json["mean_latency_speedup"].is_null());

    // Unstable both ways, and a slowdown that makes a stable station unstable.
    const RunResult both = queue({"--service", "50ms", "--rate", "40/s", "-s", "1.43"});
    CHECK(both.exit_code == 0);
    CHECK_THAT(both.out,
               Contains("\nlatency:      unstable before and after: no steady state, the queue only grows\n"));
    const RunResult slower = queue({"--service", "50ms", "--rate", "16/s", "-s", "0.5"});
    CHECK(slower.exit_code == 0);
    CHECK_THAT(slower.out, Contains("\nlatency:      unstable after the slowdown: the mean latency of 250.0 ms "
                                    "becomes unbounded\n"));
}

TEST_CASE("queue cli: --slo finds the highest rate that meets it", "[queue][cli]") {
    const RunResult r =
        queue({"--service", "50ms", "--rate", "16/s", "-s", "-30%", "--slo", "mean=100ms", "--slo", "p99=200ms"});
    REQUIRE(r.exit_code == 0);
    // mean: 1 / (μ - λ) <= 100 ms: λ <= μ - 10: 10/s before, 18.5714/s after.
    CHECK_THAT(r.out,
               Contains("\nslo mean=100ms: met up to 10.0/s before, up to 18.5714/s after (1.8571x the rate)\n"));
    // p99 of the service alone is ln(100) · 50 ms = 230.3 ms: no rate meets 200 ms before.
    CHECK_THAT(r.out, Contains("\nslo p99=200ms:  met at no rate (the service alone gives p99 230.2585 ms) before, "
                               "up to 5.5456/s after\n"));
}

TEST_CASE("queue cli: --speedup-from takes an eval report's speedup", "[queue][cli]") {
    const RunResult eval = run_cli({"eval", amdahl::test::source_path("examples/transformer_step.json"), "-s",
                                    "attention_softmax=10", "--format", "json"});
    REQUIRE(eval.exit_code == 0);
    const std::string report = amdahl::test::write_temp("queue_cli_eval.json", eval.out);
    const RunResult r = queue_json({"--service", "50ms", "--rate", "16/s", "--speedup-from", report});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["speedup"].get<double>() == Approx(100 / 81.1));
    CHECK(json["speedup_from"] == report);
    const RunResult text = queue({"--service", "50ms", "--rate", "16/s", "--speedup-from", "-"}, eval.out);
    REQUIRE(text.exit_code == 0);
    CHECK_THAT(text.out, Contains("\nspeedup:      1.233x on the service time (from <stdin>)\n"));

    const std::string law = amdahl::test::write_temp("queue_cli_law.json",
                                                     run_cli({"law", "-f", "0.5", "-k", "2", "--format", "json"}).out);
    check_input_error(
        {"--service", "50ms", "--rate", "16/s", "--speedup-from", law},
        "error: " + law + ": expected the JSON report of 'amdahl eval --format json' (no \"command\": \"eval\")\n");
    const std::string not_json = amdahl::test::write_temp("queue_cli_not.json", "speedup: 2\n");
    check_input_error(
        {"--service", "50ms", "--rate", "16/s", "--speedup-from", not_json},
        "error: " + not_json + ": expected the JSON report of 'amdahl eval --format json' (this is not JSON)\n");
    const std::string infinite =
        amdahl::test::write_temp("queue_cli_inf.json", R"({"schema_version": 1, "command": "eval", "speedup": null})");
    check_input_error({"--service", "50ms", "--rate", "16/s", "--speedup-from", infinite},
                      "error: " + infinite + ": \"speedup\" is null (infinite): a service time of zero has no queue\n");
}

TEST_CASE("queue cli: the output formats", "[queue][cli]") {
    const std::vector<std::string> args{"--service", "50ms", "--rate", "16/s", "-s", "1.43"};
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> all = args;
        all.insert(all.end(), more.begin(), more.end());
        return queue(all);
    };
    const RunResult csv = with({"--format", "csv"});
    REQUIRE(csv.exit_code == 0);
    CHECK_THAT(csv.out, Contains("quantity,before,after,ratio\nservice_time_ms,50,34.96503496503497,1.43\n"));
    CHECK_THAT(csv.out, Contains("\nmean_latency_ms,250,79.36507936507938,3.15\n"));
    const RunResult md = with({"--format", "md"});
    REQUIRE(md.exit_code == 0);
    CHECK_THAT(md.out, Contains("### amdahl queue: mean latency 250.0 → 79.3651 ms (3.1500x lower)\n"));
    const RunResult explain = with({"--explain"});
    REQUIRE(explain.exit_code == 0);
    CHECK_THAT(explain.out, Contains("The arithmetic:\n"
                                     "  before: S = 50.0 ms, μ = 1 / S = 20.0/s, λ = 16.0/s, c = 1\n"
                                     "    a = λS = 0.8 Erlangs; ρ = λS / c = 0.8 / 1 = 80.0%\n"));
    CHECK_THAT(explain.out, Contains("    W = C / (cμ - λ) = 0.8 / (20.0/s - 16.0/s) = 200.0 ms\n"
                                     "    T = W + S = 200.0 ms + 50.0 ms = 250.0 ms\n"));
    CHECK_THAT(explain.out, Contains("    p99: T ~ Exp(μ - λ), e^(-(μ - λ) t) = 0.01: t = -ln(0.01) / 4.0/s = "
                                     "1,151.2925 ms\n"));
}

TEST_CASE("queue cli: every input error names the option, exit 2", "[queue][cli][errors]") {
    const std::vector<std::string> ok_rate{"--rate", "16/s", "-s", "1.43"};
    const auto service = [&](const std::string& text) {
        std::vector<std::string> args{"--service", text};
        args.insert(args.end(), ok_rate.begin(), ok_rate.end());
        return args;
    };
    check_input_error(service("50"), "error: --service: give the time with its unit, such as 50ms (got '50')\n");
    check_input_error(service("0ms"), "error: --service: expected a time > 0 such as 50ms (got '0ms')\n");
    check_input_error(service("-5ms"), "error: --service: expected a time > 0 such as 50ms (got '-5ms')\n");
    check_input_error(service("nan"), "error: --service: expected a time such as 50ms (got 'nan')\n");
    check_input_error(service("fast"), "error: --service: expected a time such as 50ms (got 'fast')\n");
    check_input_error(service("50%"), "error: --service: expected a time > 0 such as 50ms (got '50%')\n");

    const auto rate = [&](const std::string& text) {
        return std::vector<std::string>{"--service", "50ms", "--rate", text, "-s", "1.43"};
    };
    check_input_error(rate("15"),
                      "error: --rate: give the rate with its unit, such as 15/s, 900/min or 2/ms (got '15')\n");
    check_input_error(rate("0/s"), "error: --rate: expected a rate > 0 such as 15/s (got '0/s')\n");
    check_input_error(rate("-3/s"), "error: --rate: expected a rate > 0 such as 15/s (got '-3/s')\n");
    check_input_error(rate("nan/s"), "error: --rate: expected a rate such as 15/s, 900/min or 2/ms (got 'nan/s')\n");
    check_input_error(rate("15/day"), "error: --rate: expected a rate such as 15/s, 900/min or 2/ms (got '15/day')\n");
    check_input_error(rate("15ms/s"), "error: --rate: expected a rate such as 15/s, 900/min or 2/ms (got '15ms/s')\n");

    const std::vector<std::string> base{"--service", "50ms", "--rate", "16/s"};
    const auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> all = base;
        all.insert(all.end(), more.begin(), more.end());
        return all;
    };
    check_input_error(with({"-s", "1.43", "--servers", "0"}),
                      "error: --servers: expected a whole number of servers from 1 to 1000000 (got '0')\n");
    check_input_error(with({"-s", "1.43", "--servers", "1.5"}),
                      "error: --servers: expected a whole number of servers from 1 to 1000000 (got '1.5')\n");
    check_input_error(with({"-s", "1.43", "--cv", "-1"}),
                      "error: --cv: expected the service time's coefficient of variation, a number >= 0 such as 1 "
                      "(exponential) or 0 (constant) (got '-1')\n");
    check_input_error(with({"-s", "1.43", "--cv", "nan"}),
                      "error: --cv: expected the service time's coefficient of variation, a number >= 0 such as 1 "
                      "(exponential) or 0 (constant) (got 'nan')\n");
    check_input_error(with({"-s", "inf"}),
                      "error: -s: an infinite speedup makes the service time zero, and a queue of zero-time work "
                      "never forms; give a finite factor such as 1.43\n");
    check_input_error(
        with({"-s", "0"}), "error: -s: " + [] {
            const RunResult law = run_cli({"law", "-f", "0.5", "-k", "0"});
            return law.err.substr(law.err.find("--factor: ") + 10);
        }());
    check_input_error(base,
                      "error: queue: give the service-time speedup with -s (1.43 or 1.43x) or --speedup-from "
                      "REPORT (an 'amdahl eval --format json' report)\n");
    check_input_error(with({"-s", "2", "--speedup-from", "x.json"}),
                      "error: queue: give -s or --speedup-from, not both\n");
    check_input_error(with({"-s", "2", "--slo", "p95=1s"}),
                      "error: --slo: expected STATISTIC=TIME with a statistic of mean, p50, p90 or p99, such as "
                      "p99=200ms (got 'p95=1s')\n");
    check_input_error(with({"-s", "2", "--slo", "p99"}),
                      "error: --slo: expected STATISTIC=TIME, such as p99=200ms (got 'p99')\n");
    check_input_error(with({"-s", "2", "--slo", "p99=200"}),
                      "error: --slo: give the time with its unit, such as p99=200ms (got '200')\n");
    check_input_error(with({"-s", "2", "--slo", "mean=0ms"}),
                      "error: --slo: expected a time > 0 such as p99=200ms (got '0ms')\n");
    check_input_error(with({"-s", "2", "--cv", "0.5", "--slo", "p99=1s"}),
                      "error: --slo: p99 needs the latency distribution, known only for exponential service times "
                      "(--cv 1); with --cv 0.5 only mean=TIME can be checked\n");

    // Missing required options: CLI11 names them.
    const RunResult missing = queue({"--rate", "16/s", "-s", "2"});
    CHECK(missing.exit_code == 2);
    CHECK_THAT(missing.err, Contains("--service is required"));
}

// The hostile tester's findings: a latency ratio said as a factor > 1 in the direction it went, an
// unchanged service said so, the same figure not called "more", --slo ratios in the speedup format,
// no last-bit noise in JSON, and --speedup-from's range and schema version.
TEST_CASE("queue cli: a slowdown's latency is so many times higher, never 0.5x higher", "[queue][cli]") {
    // S = 50 ms at 16/s (80%); slowed to 55.6 ms: 88.9%, mean latency 250 -> 500 ms.
    const RunResult r = queue({"--service", "50ms", "--rate", "16/s", "-s", "0.9"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nlatency:      mean 2.0000x higher (250.0 → 500.0 ms): worse than the service "
                               "time's own 0.9x, because utilization rose from 80.0% to 88.9% and the wait with it "
                               "(200.0 → 444.4444 ms)\n"));
    CHECK_THAT(r.out, Contains("\nutilization             80.0%       88.9%\n"));
    const RunResult md = queue({"--service", "50ms", "--rate", "16/s", "-s", "0.9", "--format", "md"});
    CHECK_THAT(md.out, Contains("mean latency 250.0 → 500.0 ms (2.0000x higher)"));
}

TEST_CASE("queue cli: -s 1 leaves the latency unchanged, and says so", "[queue][cli]") {
    const RunResult r = queue({"--service", "50ms", "--rate", "16/s", "-s", "1"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nlatency:      mean unchanged (250.0 ms): the service time is unchanged\n"));
}

TEST_CASE("queue cli: with no waiting the latency falls as much as the service time", "[queue][cli]") {
    const RunResult r = queue({"--service", "50ms", "--rate", "16/s", "-s", "1.43", "--servers", "100000"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nlatency:      mean 1.4300x lower (50.0 → 34.965 ms): the same as the service time's "
                               "own 1.43x, because almost no request waits (mean wait 0.0 → 0.0 ms)\n"));
}

TEST_CASE("queue cli: --slo rate ratios in the speedup format, --precision too", "[queue][cli]") {
    const RunResult r =
        queue({"--service", "50ms", "--rate", "16/s", "-s", "1.86", "--slo", "mean=100ms", "--slo", "p99=300ms"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nslo mean=100ms: met up to 10.0/s before, up to 27.2/s after (2.7200x the rate)\n"));
    const RunResult two =
        queue({"--service", "50ms", "--rate", "16/s", "-s", "1.86", "--slo", "mean=100ms", "--precision", "2"});
    CHECK_THAT(two.out, Contains("(2.72x the rate)\n"));
}

TEST_CASE("queue cli: one server's P(wait) is the utilization exactly, without last-bit noise", "[queue][cli][json]") {
    // λS = 20/60 x 1 = 1/3 (M/M/1): C(1, a) = a, once 0.33333333333333337 by the recursion.
    const RunResult r = queue_json({"--service", "1s", "--rate", "20/min", "-s", "1"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, !Contains("0.33333333333333337"));
    CHECK_THAT(r.out, Contains("\"wait_probability\": 0.3333333333333333,"));
}

TEST_CASE("queue cli: --speedup-from says a report's range, and refuses an unknown schema version", "[queue][cli]") {
    const std::string ranged = amdahl::test::write_temp(
        "queue_from_range.json",
        R"({"schema_version": 1, "command": "eval", "speedup": 1.25, "speedup_range": {"low": 1.25, "high": 1.5}})");
    const RunResult r = queue({"--service", "50ms", "--rate", "16/s", "--speedup-from", ranged});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err == "note: " + ranged +
                       ": the report's speedup lies between 1.2500x and 1.5000x (the sped-up phases overlapped "
                       "others); the service-time speedup is its \"speedup\", 1.2500x, the low end (give -s for "
                       "another)\n");
    const std::string future =
        amdahl::test::write_temp("queue_from_v2.json", R"({"schema_version": 2, "command": "eval", "speedup": 2})");
    check_input_error(
        {"--service", "50ms", "--rate", "16/s", "--speedup-from", future},
        "error: " + future + ": the report has schema_version 2; amdahl reads eval reports of schema_version 1\n");
    const std::string none = amdahl::test::write_temp("queue_from_none.json", R"({"command": "eval", "speedup": 2})");
    check_input_error(
        {"--service", "50ms", "--rate", "16/s", "--speedup-from", none},
        "error: " + none + ": the report has no \"schema_version\" (amdahl reads eval reports of schema_version 1)\n");
}
