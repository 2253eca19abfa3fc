// Speedup specifications (src/model/speedup.cpp): factors ("10", "10x", "inf", "-30%") and
// SELECTOR=FACTOR[@EFFORT]. Which phases a selector picks is tests/selector_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>

#include "amdahl/error.hpp"
#include "amdahl/speedup.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

TEST_CASE("speedup: parse_factor reads plain factors, x suffixes, infinity and changes in percent", "[speedup]") {
    const std::pair<const char*, double> factors[] = {
        {"10", 10},
        {"10x", 10},
        {"10X", 10},
        {" 4x ", 4},
        {"4 x", 4},
        {"2.5", 2.5},
        {"1e3x", 1000},
        {"0.5", 0.5},
        {"+3", 3},
        {"1", 1},
        // A change in the phase's time: -30% leaves 70% of it (k = 1 / 0.7), +25% makes it 125%.
        {"-30%", 1 / 0.7},
        {"+25%", 0.8},
        {"-50 %", 2},
        {"-0%", 1},
        {"+0%", 1},
        {"-99.5%", 200},
    };
    for (const auto& [text, value] : factors) {
        INFO("'" << text << "'");
        const Factor factor = parse_factor(text);
        CHECK(factor.value == Approx(value));
        CHECK_FALSE(factor.is_infinite());
    }
    // The phase takes no time.
    for (const char* text : {"inf", "INF", "Infinity", "infinity", " inf ", "\xe2\x88\x9e", "-100%"}) {
        INFO("'" << text << "'");
        const Factor factor = parse_factor(text);
        CHECK(std::isinf(factor.value));
        CHECK(factor.value > 0);
        CHECK(factor.is_infinite());
    }
    CHECK_FALSE(Factor{}.is_infinite());
    CHECK(Factor{}.value == Approx(1));
}

TEST_CASE("speedup: parse_factor names the bad factor and the reason", "[speedup]") {
    const std::pair<const char*, const char*> cases[] = {
        {"", "bad factor '': empty (expected a number such as 10, 10x, inf or -30%)"},
        {"  ", "bad factor '  ': empty (expected a number such as 10, 10x, inf or -30%)"},
        {"0", "bad factor '0': a speedup factor must be > 0 (0.5 is a 2x slowdown)"},
        {"0x", "bad factor '0x': a speedup factor must be > 0 (0.5 is a 2x slowdown)"},
        {"-2", "bad factor '-2': a speedup factor must be > 0 (0.5 is a 2x slowdown)"},
        {"abc", "bad factor 'abc': not a number (expected e.g. 10, 10x, inf or -30%)"},
        {"x", "bad factor 'x': not a number (expected e.g. 10, 10x, inf or -30%)"},
        {"nan", "bad factor 'nan': not a number (expected e.g. 10, 10x, inf or -30%)"},
        {"10xx", "bad factor '10xx': not a number (expected e.g. 10, 10x, inf or -30%)"},
        {"2,000", "bad factor '2,000': not a number (expected e.g. 10, 10x, inf or -30%)"},
        {"1e999", "bad factor '1e999': too large for a double (write inf for a phase that takes no time)"},
        {"30%", "bad factor '30%': a percentage must be a signed change in time, such as -30% or +10%"},
        {"%", "bad factor '%': a percentage must be a signed change in time, such as -30% or +10%"},
        {"-x%", "bad factor '-x%': a percentage must be a signed change in time, such as -30% or +10%"},
        {"-150%", "bad factor '-150%': a phase cannot lose more than 100% of its time"},
    };
    for (const auto& [text, message] : cases) {
        INFO("'" << text << "'");
        CHECK_THROWS_MATCHES(parse_factor(text), Error, Message(message));
    }
}

TEST_CASE("speedup: parse_speedup splits SELECTOR=FACTOR@EFFORT", "[speedup]") {
    SpeedupSpec spec = parse_speedup("attention_softmax=10");
    CHECK(spec.text == "attention_softmax=10");
    CHECK(spec.selector.type == Selector::Type::name);
    CHECK(spec.selector.pattern == "attention_softmax");
    CHECK(spec.factor.value == Approx(10));
    CHECK_FALSE(spec.effort);

    spec = parse_speedup("gemm_*=4x");
    CHECK(spec.selector.type == Selector::Type::glob);
    CHECK(spec.selector.pattern == "gemm_*");
    CHECK(spec.factor.value == Approx(4));

    spec = parse_speedup("kind:copy=-30%");
    CHECK(spec.selector.type == Selector::Type::kind);
    CHECK(spec.selector.pattern == "copy");
    CHECK(spec.factor.value == Approx(1 / 0.7));

    spec = parse_speedup("*=inf@3");
    CHECK(spec.selector.type == Selector::Type::all);
    CHECK(spec.factor.is_infinite());
    REQUIRE(spec.effort);
    CHECK(*spec.effort == Approx(3));

    spec = parse_speedup("layernorm=10@ 0.5 ");
    REQUIRE(spec.effort);
    CHECK(*spec.effort == Approx(0.5));

    // An effort may carry its unit: the short forms are hours, days, weeks and months.
    spec = parse_speedup("a=2@3w");
    REQUIRE(spec.effort);
    CHECK(*spec.effort == Approx(3));
    CHECK(spec.effort_unit == "week");
    CHECK(parse_speedup("a=2@1.5 d").effort_unit == "day");
    CHECK(parse_speedup("a=2@2mo").effort_unit == "month");
    CHECK(parse_speedup("a=2@4h").effort_unit == "hour");
    CHECK(parse_speedup("a=2@2 Engineer-Weeks").effort_unit == "engineer-weeks");
    CHECK(parse_speedup("a=2@1e3").effort_unit.empty());
    CHECK(*parse_speedup("a=2@1e3").effort == Approx(1000));

    // The last '=' splits: a selector may hold one (C++ operator names do).
    spec = parse_speedup("operator==2");
    CHECK(spec.selector.type == Selector::Type::name);
    CHECK(spec.selector.pattern == "operator=");
    CHECK(spec.factor.value == Approx(2));

    // Space around the parts is not part of them.
    spec = parse_speedup(" a = 10 ");
    CHECK(spec.selector.pattern == "a");
    CHECK(spec.factor.value == Approx(10));
    CHECK(spec.text == " a = 10 ");
}

TEST_CASE("speedup: parse_speedup errors quote the speedup as written", "[speedup]") {
    const std::pair<const char*, const char*> cases[] = {
        {"attention", "speedup 'attention': expected SELECTOR=FACTOR (e.g. attention=10)"},
        {"", "speedup '': expected SELECTOR=FACTOR (e.g. attention=10)"},
        {"a=", "speedup 'a=': bad factor '': empty (expected a number such as 10, 10x, inf or -30%)"},
        {"a=0", "speedup 'a=0': bad factor '0': a speedup factor must be > 0 (0.5 is a 2x slowdown)"},
        {"a=fast", "speedup 'a=fast': bad factor 'fast': not a number (expected e.g. 10, 10x, inf or -30%)"},
        {"a=@3", "speedup 'a=@3': bad factor '': empty (expected a number such as 10, 10x, inf or -30%)"},
        {"a=10@0",
         "speedup 'a=10@0': effort must be a number > 0 with an optional unit, such as 3, 3w or 2 days (got '0')"},
        {"a=10@-1",
         "speedup 'a=10@-1': effort must be a number > 0 with an optional unit, such as 3, 3w or 2 days (got '-1')"},
        {"a=10@",
         "speedup 'a=10@': effort must be a number > 0 with an optional unit, such as 3, 3w or 2 days (got '')"},
        {"a=10@week",
         "speedup 'a=10@week': effort must be a number > 0 with an optional unit, such as 3, 3w or 2 days (got "
         "'week')"},
        {"a=10@inf",
         "speedup 'a=10@inf': effort must be a number > 0 with an optional unit, such as 3, 3w or 2 days (got 'inf')"},
        {"a=10@3@4",
         "speedup 'a=10@3@4': effort must be a number > 0 with an optional unit, such as 3, 3w or 2 days (got '3@4')"},
        {"a=10@3m",
         "speedup 'a=10@3m': effort '3m': unit 'm' could mean more than one thing: write the word (3 weeks) or use h, "
         "d, w or mo"},
        {"kind:=2", "selector 'kind:': kind: needs a kind name"},
    };
    for (const auto& [text, message] : cases) {
        INFO("'" << text << "'");
        CHECK_THROWS_MATCHES(parse_speedup(text), Error, Message(message));
    }
}
