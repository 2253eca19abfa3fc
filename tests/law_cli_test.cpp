// `amdahl law` on the command line, as a student working the exercise uses it: the ceiling as a
// target (reached only at k = inf), several parts at once, fractions given as times, and the share
// of the time saved.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::run_cli;
using amdahl::test::RunResult;

const std::string at_ceiling =
    "at the ceiling: 2.0000x is the ceiling 1 / (1 - 0.5): only k = inf reaches it, the part taking no time; every "
    "finite factor falls short\n";

void check_output(const RunResult& r, const std::string& out) {
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == out);
    CHECK(r.err.empty());
}

void check_error(const RunResult& r, const std::string& err) {
    INFO("stdout: " << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == err);
}

}  // namespace

TEST_CASE("law: the ceiling as a target is reached at k = inf, said the same way in every direction", "[law][cli]") {
    // Before: "factor k: impossible" here, while -k inf --target 2 solved f = 50%.
    check_output(run_cli({"law", "-f", "0.5", "--target", "2"}),
                 "fraction f: 50.0%\n"
                 "factor k:   inf (solved)\n"
                 "target S:   2.0000x\n"
                 "ceiling:    2.0000x (1 / (1 - f))\n"
                 "time saved: 50.0% of the time (1 - 1/S)\n"
                 "\n" +
                     at_ceiling);
    check_output(run_cli({"law", "-k", "inf", "--target", "2"}),
                 "fraction f: 50.0% (solved)\n"
                 "factor k:   inf\n"
                 "target S:   2.0000x\n"
                 "ceiling:    2.0000x (1 / (1 - f))\n"
                 "time saved: 50.0% of the time (1 - 1/S)\n"
                 "\n" +
                     at_ceiling);
    check_output(run_cli({"law", "-f", "0.5", "-k", "inf"}),
                 "fraction f: 50.0%\n"
                 "factor k:   inf\n"
                 "speedup S:  2.0000x\n"
                 "ceiling:    2.0000x (1 / (1 - f))\n"
                 "time saved: 50.0% of the time (1 - 1/S)\n"
                 "\n" +
                     at_ceiling);
    // 1 - 0.6 is not exactly 0.4 in doubles; the boundary is still reachable.
    const RunResult rounded = run_cli({"law", "-f", "60%", "--target", "2.5x"});
    CHECK(rounded.exit_code == 0);
    CHECK_THAT(rounded.out, Catch::Matchers::Contains("factor k:   inf (solved)"));
    // Above the ceiling is still impossible.
    CHECK_THAT(run_cli({"law", "-f", "0.5", "--target", "2.01"}).out,
               Catch::Matchers::Contains("factor k:   impossible"));

    // JSON says it too: possible, at the ceiling, k infinite (null), and the same words.
    for (const auto& args : std::vector<std::vector<std::string>>{{"law", "-f", "0.5", "--target", "2"},
                                                                  {"law", "-k", "inf", "--target", "2"},
                                                                  {"law", "-f", "0.5", "-k", "inf"}}) {
        std::vector<std::string> json = args;
        json.insert(json.end(), {"--format", "json"});
        const RunResult r = run_cli(json);
        INFO(r.out);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Catch::Matchers::Contains("\"factor\": null"));
        CHECK_THAT(r.out, Catch::Matchers::Contains("\"possible\": true"));
        CHECK_THAT(r.out, Catch::Matchers::Contains("\"at_ceiling\": true"));
        CHECK_THAT(r.out, Catch::Matchers::Contains("\"note\": \"" + at_ceiling.substr(16, at_ceiling.size() - 17)));
        CHECK_THAT(r.out, Catch::Matchers::Contains("\"saved_fraction\": 0.5"));
    }
}

TEST_CASE("law: several parts, -f F -k K in pairs", "[law][cli]") {
    // S = 1 / ((1 - 0.5) + 0.3 / 2 + 0.2 / 3) = 1 / 0.71667 = 1.3953x
    check_output(run_cli({"law", "-f", "0.3", "-k", "2", "-f", "0.2", "-k", "3"}),
                 "part 1:     f = 30.0%, k = 2x\n"
                 "part 2:     f = 20.0%, k = 3x\n"
                 "fraction f: 50.0% (the parts together)\n"
                 "factor k:   2.3077x (the parts together: Σf / Σ(f / k))\n"
                 "speedup S:  1.3953x\n"
                 "ceiling:    2.0000x (1 / (1 - f))\n"
                 "time saved: 28.3% of the time (1 - 1/S)\n");
    const RunResult json = run_cli({"law", "-f", "0.3", "-k", "2", "-f", "0.2", "-k", "3", "--format", "json"});
    CHECK(json.exit_code == 0);
    CHECK_THAT(json.out, Catch::Matchers::Contains("\"parts\": ["));
    CHECK_THAT(json.out, Catch::Matchers::Contains("\"fraction\": 0.3"));

    // Mismatched counts name both options; --target solves for one part only.
    check_error(run_cli({"law", "-f", "0.3", "-k", "2", "-f", "0.2"}),
                "error: law: -f is given 2 times and -k 1 time: several parts take one -f and one -k each, in pairs "
                "(-f 0.3 -k 2 -f 0.2 -k 3)\n");
    check_error(run_cli({"law", "-f", "0.3", "-k", "2", "-k", "3"}),
                "error: law: -f is given 1 time and -k 2 times: several parts take one -f and one -k each, in pairs "
                "(-f 0.3 -k 2 -f 0.2 -k 3)\n");
    check_error(run_cli({"law", "-f", "0.3", "-f", "0.2", "--target", "1.2"}),
                "error: --target: solves for one part's fraction or factor: give one -f (got 2)\n");
    check_error(run_cli({"law", "-f", "0.7", "-k", "2", "-f", "0.5", "-k", "3"}),
                "error: --fraction: the parts add up to 120% of the time, more than all of it\n");
}

TEST_CASE("law: a fraction given as times, and the time saved", "[law][cli]") {
    const std::string out =
        "fraction f: 60.0% (900.0 of 1,500.0 ms)\n"
        "factor k:   3x\n"
        "speedup S:  1.6667x\n"
        "ceiling:    2.5000x (1 / (1 - f))\n"
        "old time:   1,500.0 ms\n"
        "new time:   900.0 ms\n"
        "time saved: 600.0 ms (40.0% of the time)\n";
    check_output(run_cli({"law", "-f", "900ms/1500ms", "-k", "3"}), out);
    check_output(run_cli({"law", "--part", "900ms", "--time", "1500ms", "-k", "3"}), out);
    check_output(run_cli({"law", "-f", "0.9s/1500ms", "-k", "3"}), out);
    // The exercise's attention_softmax and layernorm, one step of 100 ms, both 10x.
    check_output(run_cli({"law", "--part", "21ms", "-k", "10", "--part", "6ms", "-k", "10", "--time", "100ms"}),
                 "part 1:     f = 21.0% (21.0 of 100.0 ms), k = 10x\n"
                 "part 2:     f = 6.0% (6.0 of 100.0 ms), k = 10x\n"
                 "fraction f: 27.0% (the parts together)\n"
                 "factor k:   10x (the parts together: Σf / Σ(f / k))\n"
                 "speedup S:  1.3210x\n"
                 "ceiling:    1.3699x (1 / (1 - f))\n"
                 "old time:   100.0 ms\n"
                 "new time:   75.7 ms\n"
                 "time saved: 24.3 ms (24.3% of the time)\n");

    check_error(run_cli({"law", "--part", "900ms", "-k", "3"}),
                "error: --part: needs --time, the whole run's time, to make a fraction: --part 900ms --time 1500ms\n");
    check_error(run_cli({"law", "-f", "900ms/1500ms", "-k", "3", "--time", "2s"}),
                "error: --fraction: the whole of '900ms/1500ms' is not the whole --time 2s gives; the parts must be "
                "of one run\n");
    // Times without a unit are read as ms, and the output says so (a note on stderr).
    const RunResult bare = run_cli({"law", "--part", "900", "--time", "1500", "-k", "3"});
    CHECK(bare.exit_code == 0);
    CHECK(bare.out == out);
    CHECK(bare.err == "note: --part 900 has no unit: read as ms\nnote: --time 1500 has no unit: read as ms\n");
    // A bare number beside a time with a unit is ambiguous (0.9 of 1500ms: 0.9 ms or 0.9 s?): refused.
    check_error(run_cli({"law", "-f", "0.9/1500ms", "-k", "3"}),
                "error: --fraction: '0.9' has no unit but '1500ms' has one: give both a unit (900ms, 0.9s), or "
                "neither for ms\n");
    check_error(run_cli({"law", "-f", "900ms/1.5", "-k", "3"}),
                "error: --fraction: '1.5' has no unit but '900ms' has one: give both a unit (900ms, 0.9s), or "
                "neither for ms\n");
    check_error(run_cli({"law", "--part", "0.9", "--time", "1500ms", "-k", "3"}),
                "error: --part: '0.9' has no unit but '1500ms' has one: give both a unit (900ms, 0.9s), or neither "
                "for ms\n");
    check_error(run_cli({"law", "--part", "900ms", "--time", "1.5", "-k", "3"}),
                "error: --part: '1.5' has no unit but '900ms' has one: give both a unit (900ms, 0.9s), or neither "
                "for ms\n");
    CHECK(run_cli({"law", "-f", "900ms/1500ms", "-k", "3"}).err.empty());
    // Two bare numbers are a ratio and name no time.
    CHECK(run_cli({"law", "-f", "3/4", "-k", "inf"}).out.find("fraction f: 75.0%\n") == 0);
    check_error(run_cli({"law", "-f", "2s/1500ms", "-k", "3"}),
                "error: --fraction: the part is longer than the whole in '2s/1500ms'\n");
    check_error(run_cli({"law", "-f", "0.5", "--part", "1ms", "--time", "2ms", "-k", "2", "-k", "2"}),
                "error: --part: give the parts as fractions (-f) or as times (--part), not both\n");
}

TEST_CASE("law: the whole run sped up by k is k times faster, to the last digit", "[law][cli]") {
    // 1 / (1 / 2e15) printed 1.9999999999999998e+15x; the speedup of f = 1 is k itself.
    check_output(run_cli({"law", "-f", "1", "-k", "2e15"}),
                 "fraction f: 100.0%\n"
                 "factor k:   2e+15x\n"
                 "speedup S:  2e+15x\n"
                 "ceiling:    none (f = 1)\n"
                 "time saved: 100.0% of the time (1 - 1/S)\n");
    const RunResult json = run_cli({"law", "-f", "1", "-k", "2e15", "--format", "json"});
    CHECK(json.exit_code == 0);
    CHECK_THAT(json.out, Catch::Matchers::Contains("\"speedup\": 2000000000000000,"));
    const RunResult parts = run_cli({"law", "-f", "0.5", "-k", "2e15", "-f", "0.5", "-k", "2e15", "--format", "json"});
    CHECK(parts.exit_code == 0);
    CHECK_THAT(parts.out, Catch::Matchers::Contains("\"speedup\": 2000000000000000,"));
}

TEST_CASE("law: the time saved keeps its digits, and tiny or huge figures read as numbers", "[law][cli]") {
    // 1 - 1/S for S = 1.000000001 left 1.000000082740371e-09 of a 1e-09 share.
    const RunResult saved = run_cli({"law", "-f", "1ns/1s", "-k", "1e300", "--format", "json"});
    CHECK(saved.exit_code == 0);
    CHECK_THAT(saved.out, Catch::Matchers::Contains("\"saved_fraction\": 1e-09,"));
    CHECK_THAT(saved.out, Catch::Matchers::Contains("\"time_saved\": 1e-09"));
    // A 1e300x slowdown of the whole run: "0x", "0.000000000000000x" and a 300-digit share before.
    check_output(run_cli({"law", "-f", "1", "-k", "1e-300"}),
                 "fraction f: 100.0%\n"
                 "factor k:   1e-300x\n"
                 "speedup S:  1e-300x\n"
                 "ceiling:    none (f = 1)\n"
                 "time saved: -1e+302% of the time (1 - 1/S)\n");
}

TEST_CASE("law: solving for k says why when no factor does, and f = 0 takes any k", "[law][cli]") {
    // The factor needed would be below 1e-300: impossible, for that reason, not "k = 0" and not
    // "above the ceiling".
    const RunResult tiny = run_cli({"law", "-f", "1e-300", "--target", "1e-300"});
    CHECK(tiny.exit_code == 0);
    CHECK_THAT(tiny.out, Catch::Matchers::Contains("factor k:   impossible\n"));
    CHECK_THAT(tiny.out, Catch::Matchers::Contains("target S:   1e-300x\n"));
    CHECK_THAT(tiny.out,
               Catch::Matchers::Contains(
                   "impossible: the factor needed is below 1e-300, a slowdown beyond what can be computed\n"));
    CHECK_THAT(tiny.out, !Catch::Matchers::Contains("ceiling 1.0000x = 1 / (1 - 1e-300) allows"));
    // A slowdown target with nothing to slow down is not "more than the ceiling".
    const RunResult none = run_cli({"law", "-f", "0", "--target", "0.5"});
    CHECK_THAT(none.out, Catch::Matchers::Contains("impossible: no factor changes anything when the fraction is 0\n"));
    // f = 0 and a target of 1: every k does it; no "k grows without bound".
    check_output(run_cli({"law", "-f", "0", "--target", "1"}),
                 "fraction f: 0.0%\n"
                 "factor k:   1x (solved)\n"
                 "target S:   1.0000x\n"
                 "ceiling:    1.0000x (1 / (1 - f))\n"
                 "time saved: 0.0% of the time (1 - 1/S)\n"
                 "\n"
                 "any factor: nothing is sped up (f = 0), so every factor k gives 1x; k = 1 is shown\n");
    // Parts that add up to the whole in decimals are all of it: S is the factor, not infinite.
    std::vector<std::string> args{"law", "--format", "json"};
    for (int i = 0; i < 50; ++i) args.insert(args.end(), {"-f", "0.02", "-k", "1e300"});
    const RunResult fifty = run_cli(args);
    CHECK(fifty.exit_code == 0);
    CHECK_THAT(fifty.out, Catch::Matchers::Contains("\"fraction\": 1,"));
    CHECK_THAT(fifty.out, Catch::Matchers::Contains("\"speedup\": 1e+300,"));
    CHECK_THAT(fifty.out, Catch::Matchers::Contains("\"ceiling\": null,"));
}

TEST_CASE("law: a fraction in percent is the same fraction as its decimal", "[law][cli]") {
    // 99.9 / 100 rounded twice: -f 99.9% gave 1000.0000000001102x where -f 0.999 gave 1000x.
    const RunResult percent = run_cli({"law", "-f", "99.9%", "-k", "1e300", "--format", "json"});
    const RunResult decimal = run_cli({"law", "-f", "0.999", "-k", "1e300", "--format", "json"});
    CHECK(percent.exit_code == 0);
    CHECK(percent.out == decimal.out);
    CHECK_THAT(percent.out, Catch::Matchers::Contains("\"speedup\": 1000,"));
    // scale -p too: the same ceiling as -p 0.9999 (99.99 / 100 gave 9999.99999999).
    const RunResult scale = run_cli({"scale", "-p", "99.99%", "-n", "2", "--format", "json"});
    CHECK(scale.exit_code == 0);
    CHECK(scale.out == run_cli({"scale", "-p", "0.9999", "-n", "2", "--format", "json"}).out);
}

TEST_CASE("law: the ceiling's note writes f with all its digits", "[law][cli]") {
    // format_plain's six digits wrote 0.999999999 as 1: "the ceiling ... = 1 / (1 - 1)".
    const RunResult r = run_cli({"law", "-f", "0.999999999", "-k", "inf"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Matchers::Contains("is the ceiling 1 / (1 - 0.999999999)"));
    CHECK_THAT(r.out, !Catch::Matchers::Contains("(1 - 1)"));
}
