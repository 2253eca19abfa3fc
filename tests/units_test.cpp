// Time units and quantities as people write them (src/model/units.cpp): unit names, conversions,
// and numbers with thousands separators, unit suffixes and percent signs.
#include <catch2/catch.hpp>

#include <limits>

#include "amdahl/error.hpp"
#include "amdahl/units.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

TEST_CASE("units: seconds per unit and canonical names", "[units]") {
    CHECK(seconds_per(Unit::ns) == Approx(1e-9));
    CHECK(seconds_per(Unit::us) == Approx(1e-6));
    CHECK(seconds_per(Unit::ms) == Approx(1e-3));
    CHECK(seconds_per(Unit::s) == Approx(1));
    CHECK(seconds_per(Unit::min) == Approx(60));
    CHECK(seconds_per(Unit::h) == Approx(3600));
    CHECK(unit_name(Unit::ns) == "ns");
    CHECK(unit_name(Unit::us) == "us");
    CHECK(unit_name(Unit::ms) == "ms");
    CHECK(unit_name(Unit::s) == "s");
    CHECK(unit_name(Unit::min) == "min");
    CHECK(unit_name(Unit::h) == "h");
}

TEST_CASE("units: parse_unit takes short, long and micro-sign names in any case", "[units]") {
    const std::pair<const char*, Unit> names[] = {
        {"ns", Unit::ns},
        {"nsec", Unit::ns},
        {"nsecs", Unit::ns},
        {"nanosecond", Unit::ns},
        {"nanoseconds", Unit::ns},
        {"us", Unit::us},
        {"\xc2\xb5s", Unit::us},
        {"\xce\xbcs", Unit::us},
        {"usec", Unit::us},
        {"usecs", Unit::us},
        {"microsecond", Unit::us},
        {"microseconds", Unit::us},
        {"ms", Unit::ms},
        {"msec", Unit::ms},
        {"millisecond", Unit::ms},
        {"milliseconds", Unit::ms},
        {"s", Unit::s},
        {"sec", Unit::s},
        {"secs", Unit::s},
        {"second", Unit::s},
        {"seconds", Unit::s},
        {"min", Unit::min},
        {"mins", Unit::min},
        {"minute", Unit::min},
        {"minutes", Unit::min},
        {"h", Unit::h},
        {"hr", Unit::h},
        {"hrs", Unit::h},
        {"hour", Unit::h},
        {"hours", Unit::h},
        {"MS", Unit::ms},
        {"Seconds", Unit::s},
        {" ms\t", Unit::ms},
        {"NSEC", Unit::ns},
        {"Hours", Unit::h},
        {"uS", Unit::us},
    };
    for (const auto& [text, unit] : names) {
        INFO("'" << text << "'");
        const auto parsed = parse_unit(text);
        REQUIRE(parsed);
        CHECK(*parsed == unit);
    }
    for (const char* text : {"", " ", "m", "sx", "ms ms", "millis", "days", "d", "5ms", "(ms)", "nano"}) {
        INFO("'" << text << "'");
        CHECK_FALSE(parse_unit(text));
    }
}

TEST_CASE("units: convert multiplies or divides by the exact ratio", "[units]") {
    CHECK(convert(2357053, Unit::ns, Unit::ms) == Approx(2.357053));
    CHECK(convert(1.5, Unit::h, Unit::min) == Approx(90));
    CHECK(convert(90, Unit::s, Unit::min) == Approx(1.5));
    CHECK(convert(1, Unit::ms, Unit::us) == Approx(1000));
    CHECK(convert(1, Unit::h, Unit::ns) == Approx(3.6e12));
    CHECK(convert(7200, Unit::s, Unit::h) == Approx(2));
    CHECK(convert(250, Unit::us, Unit::s) == Approx(0.00025));
    CHECK(convert(42.5, Unit::min, Unit::min) == Approx(42.5));
    // A round trip through a smaller unit gives the value back.
    CHECK(convert(convert(0.1, Unit::s, Unit::ns), Unit::ns, Unit::s) == Approx(0.1));
}

namespace {

void check_quantity(const char* text, double value, std::optional<Unit> unit, bool percent = false) {
    INFO("'" << text << "'");
    const Quantity q = parse_quantity(text);
    CHECK(q.value == Approx(value));
    CHECK(q.unit == unit);
    CHECK(q.percent == percent);
}

}  // namespace

TEST_CASE("units: parse_quantity reads plain numbers, separators, suffixes and percentages", "[units]") {
    check_quantity("18", 18, std::nullopt);
    check_quantity("18.0", 18, std::nullopt);
    check_quantity("  7  ", 7, std::nullopt);
    check_quantity(".5", 0.5, std::nullopt);
    check_quantity("+5", 5, std::nullopt);
    check_quantity("1e-3", 0.001, std::nullopt);
    check_quantity("1E3", 1000, std::nullopt);
    check_quantity("2,357,053", 2357053, std::nullopt);
    check_quantity("12,345", 12345, std::nullopt);
    check_quantity("-1,000", -1000, std::nullopt);  // a sign is the caller's to refuse
    check_quantity("2,357,053.5 ns", 2357053.5, Unit::ns);
    check_quantity("21 ms", 21, Unit::ms);
    check_quantity("21ms", 21, Unit::ms);
    check_quantity("1.5s", 1.5, Unit::s);
    check_quantity("1e5ms", 1e5, Unit::ms);
    check_quantity("5 \xc2\xb5s", 5, Unit::us);
    check_quantity("3 Minutes", 3, Unit::min);
    check_quantity("2 hr", 2, Unit::h);
    check_quantity("18%", 18, std::nullopt, true);
    check_quantity(" 18 % ", 18, std::nullopt, true);
    check_quantity("0.5%", 0.5, std::nullopt, true);
    // Too small for a double reads as zero; too large is refused (below).
    check_quantity("1e-400", 0, std::nullopt);
}

TEST_CASE("units: parse_quantity refuses what is not a finite number, with the reason", "[units]") {
    const char* const comma =
        "not a number: commas must group digits in threes, as in 1,234.5 (a decimal comma is not read)";
    const std::pair<const char*, const char*> cases[] = {
        {"", "not a finite number"},
        {"   ", "not a finite number"},
        {"%", "not a finite number"},
        {"ms", "not a finite number"},
        {"abc", "not a number"},
        {"nan", "not a number"},
        {"inf", "not a number"},
        {"1e999", "not a finite number"},
        {"-1e999 ms", "not a finite number"},
        {"5ms%", "not a number"},
        {"12 parsecs", "unknown unit 'parsecs' (expected ns, us, ms, s, min or h)"},
        {"5 days", "unknown unit 'days' (expected ns, us, ms, s, min or h)"},
        {"1.2.3", "not a finite number"},
        {"--5", "not a finite number"},
        {"5-3", "not a finite number"},
        // Thousands separators must group digits in threes; a group never starts with 0, so
        // "0,500" is a decimal comma (half a unit), not 500.
        {"1,23", comma},
        {"1234,567", comma},
        {",123", comma},
        {"1,,000", comma},
        {"1,000,", comma},
        {"1,5", comma},
        {"0,500", comma},
        {"00,500", comma},
        {"-0,500 ms", comma},
        {"+0,001", comma},
    };
    for (const auto& [text, message] : cases) {
        INFO("'" << text << "'");
        CHECK_THROWS_MATCHES(parse_quantity(text), Error, Message(message));
    }
}
