// The one number formatter (src/report/numbers.cpp): every number a person or a script reads.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "report/numbers.hpp"

using namespace amdahl;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
const double not_a_number = std::nan("");

NumberStyle precision(int digits) {
    NumberStyle style;
    style.decimals = digits;
    style.significant = std::max(digits, 1);
    return style;
}

void check_all(const std::vector<std::pair<double, std::string>>& cases,
               std::string (*format)(double, const NumberStyle&), const NumberStyle& style = {}) {
    for (const auto& [value, text] : cases) {
        INFO(value);
        CHECK(format(value, style) == text);
    }
}
}  // namespace

TEST_CASE("format_time: up to the precision, one decimal kept, thousands grouped from 1,000", "[format]") {
    check_all({{18, "18.0"},
               {2.1, "2.1"},
               {999.95, "999.95"},
               {1000, "1,000.0"},
               {4424.2, "4,424.2"},
               {2357053, "2,357,053.0"},
               {-4424.25, "-4,424.25"},
               {15.385999999999996, "15.386"},
               {0.00004, "0.00004"},  // a small time keeps a significant digit
               {1.4e-14, "0.0"},      // noise of a subtraction is not a time
               {-0.0, "0.0"},
               {-1e-9, "0.0"},
               {inf, "inf"},
               {-inf, "-inf"},
               {not_a_number, "-"}},
              format_time);
    NumberStyle flat;
    flat.grouping = false;
    CHECK(format_time(4424.2, flat) == "4424.2");
    CHECK(format_time(2357053, flat) == "2357053.0");
    CHECK(format_time(1.23456, precision(2)) == "1.23");
    CHECK(format_time(1.23456, precision(0)) == "1.2");  // one decimal at least
}

TEST_CASE("format_time, format_speedup, format_factor: from 1e15 on, the digits a double holds, no more",
          "[format][silent]") {
    // 4.4e306 printed as 307 digits, "4,399,999,999,999,999,888,640,655,...", all but the first
    // 17 of them the binary value's, none of them the input's.
    CHECK(format_time(4.4e306, {}) == "4.4e+306");
    CHECK(format_time(1e15, {}) == "1e+15");
    CHECK(format_time(-2.5e20, {}) == "-2.5e+20");
    CHECK(format_time(999999999999999.5, {}) == "999,999,999,999,999.5");
    CHECK(format_signed_time(3e16, {}) == "+3e+16");
    CHECK(format_duration(4.4e306, Unit::ms, {}) == "4.4e+306 ms");
    CHECK(format_speedup(1e300, {}) == "1e+300x");
    CHECK(format_speedup(123456789012345678.0, {}) == "1.2345678901234568e+17x");
    CHECK(format_speedup(999999999999.5, {}) == "999,999,999,999.5000x");
    CHECK(format_factor(1e300, {}) == "1e+300x");
    CHECK(format_factor(2e15, {}) == "2e+15x");
    CHECK(format_factor(123456789, {}) == "123,456,789x");
    // The other end: a 1e300x slowdown read "0x" and "0.000000000000000x"; its share of the time
    // saved, -1e302%, 300 digits.
    CHECK(format_factor(1e-300, {}) == "1e-300x");
    CHECK(format_speedup(1e-300, {}) == "1e-300x");
    CHECK(format_speedup(2.5e-20, {}) == "2.5e-20x");
    CHECK(format_share(-1e300, {}) == "-1e+302%");
    CHECK(format_share(3e13, {}) == "3e+15%");
}

TEST_CASE("format_signed_time: a change reads with its sign", "[format]") {
    check_all({{0.6, "+0.6"}, {-16, "-16.0"}, {0, "0.0"}, {1e-15, "0.0"}, {1234.5, "+1,234.5"}}, format_signed_time);
}

TEST_CASE("format_speedup: exactly the precision, more only where a value would read as zero", "[format]") {
    check_all({{1.2330456226880395, "1.2330x"},
               {10, "10.0000x"},
               {0.86, "0.8600x"},
               {0.00001, "0.00001000x"},  // never "0.0000x (slower)"
               {1234.5, "1,234.5000x"},
               {inf, "\xe2\x88\x9e"},
               {not_a_number, "-"}},
              format_speedup);
    CHECK(format_speedup(1.180555, precision(2)) == "1.18x");
    // Never a whole number for one that is not: a 2x speedup of a 0.004% phase is not "1.0000x",
    // a ceiling of 100000/50001 not "2.0000x" beside a target of 2, 1.3125 at --precision 0 not "1x".
    // Two significant digits of the difference, so that 1.0000051 and 1.0000102 differ.
    CHECK(format_speedup(1.00002, {}) == "1.000020x");
    CHECK(format_speedup(100000.0 / 50001, {}) == "1.999960x");
    CHECK(format_speedup(0.9999998, {}) == "0.99999980x");
    CHECK(format_speedup(1.3125, precision(0)) == "1.31x");
    CHECK(format_speedup(1.0000051, {}) == "1.0000051x");
    CHECK(format_speedup(1.0000102, {}) == "1.000010x");
    CHECK(format_speedup(1.0000000009, {}) == "1.00000000090x");
    CHECK(format_speedup(2.0000000000000004, {}) == "2.0000x");  // rounding noise stays whole
    CHECK(format_speedup(3, {}) == "3.0000x");
}

TEST_CASE("format_factor: as written, with the digits that tell it from a round number", "[format]") {
    check_all({{10, "10x"},
               {4, "4x"},
               {10.0 / 7, "1.4286x"},
               {1.00001, "1.00001x"},  // not "1x"
               {0.00001, "0.00001x"},  // not "0x"
               {0.7, "0.7x"},
               {0.00012345, "0.00012345x"},  // as written, not "0.0001x"
               {1.0 / 3, "0.3333x"},
               {6e-11, "6e-11x"},            // not "0.0000000001x"
               {0.99999999, "0.99999999x"},  // not "1x"
               {inf, "inf"}},
              format_factor);
}

TEST_CASE("format_share: three significant digits, one decimal kept, never 0.0% for a non-zero share", "[format]") {
    check_all({{0.18, "18.0%"},
               {0.654, "65.4%"},
               {0.0123, "1.23%"},
               {0.00014, "0.014%"},
               {0.011, "1.1%"},
               {1, "100.0%"},
               {0.6543, "65.4%"},
               {0.026666, "2.67%"},
               {0, "0.0%"},
               {1e-16, "~0%"},  // below a millionth of a percent: about zero, never 0.0%
               {not_a_number, "-"}},
              format_share);
    CHECK(format_share(0.0123456, precision(5)) == "1.2346%");
    CHECK(format_share(0.65, precision(1)) == "65.0%");
}

TEST_CASE("format_share: a share that is not all never reads 100.0%", "[format][silent]") {
    // law -f 0.99999 printed "fraction f: 100.0%" beside a ceiling of 100,000x.
    check_all({{0.99999, "99.999%"},
               {0.9996, "99.96%"},
               {0.99999999, "99.999999%"},
               {1 - 2e-9, "~100%"},    // below a millionth of a percent from all of it
               {1 - 1e-12, "100.0%"},  // rounding noise of a sum of shares is all of it
               {1.00001, "100.001%"},
               {-0.99999, "-99.999%"}},
              format_share);
    CHECK(format_signed_share(-0.99999) == "-99.999%");
}

TEST_CASE("format_signed_share: signs, new phases and undefined changes", "[format]") {
    check_all(
        {{0.1, "+10.0%"}, {-0.762, "-76.2%"}, {0, "0.0%"}, {0.00294, "+0.294%"}, {inf, "new"}, {not_a_number, "-"}},
        format_signed_share);
}

TEST_CASE("format_fixed and format_plain: fitted values and numbers in equations", "[format]") {
    CHECK(format_fixed(0.95012) == "0.9501");
    CHECK(format_fixed(-0.00001, {}, true) == "+0.0000");  // never "-0.0000"
    CHECK(format_fixed(0.0012, {}, true) == "+0.0012");
    CHECK(format_fixed(-0.0012, {}, true) == "-0.0012");
    CHECK(format_plain(0.79) == "0.79");
    CHECK(format_plain(1.0 / 3) == "0.333333");
    CHECK(format_plain(-0.0) == "0");
    CHECK(format_plain(inf) == "inf");
}

TEST_CASE("format_duration: a time with its unit, for notes", "[format]") {
    CHECK(format_duration(7, Unit::ms) == "7.0 ms");
    CHECK(format_duration(20000, Unit::ns) == "20,000.0 ns");
    CHECK(format_duration(15.385999999999996, Unit::us) == "15.386 us");
}

TEST_CASE("plurals: counts read as English", "[format]") {
    CHECK(count_of(1, "phase") == "1 phase");
    CHECK(count_of(2, "phase") == "2 phases");
    CHECK(count_of(0, "run") == "0 runs");
    CHECK(count_of(1, "span") == "1 span");
    CHECK(count_of(11, "week") == "11 weeks");
    CHECK(count_of(3, "engineer-week") == "3 engineer-weeks");
    CHECK(count_of(2, "batch") == "2 batches");
    CHECK(count_of(2, "dependency") == "2 dependencies");
    CHECK(count_of(2, "day") == "2 days");
    CHECK(plural("ms") == "ms");
    CHECK(plural("effort") == "effort");
    // An effort unit given in the plural is made singular once, so that it reads right both ways.
    CHECK(singular("weeks") == "week");
    CHECK(singular("story points") == "story point");
    CHECK(singular("mandays") == "manday");
    CHECK(singular("dependencies") == "dependency");
    CHECK(singular("engineer-week") == "engineer-week");
    CHECK(singular("class") == "class");
    CHECK(singular("bus") == "bus");
    CHECK(singular("ms") == "ms");
    CHECK(singular("effort") == "effort");
    CHECK(amount_of(3, singular("story points"), {}) == "3 story points");
    CHECK(amount_of(1, singular("weeks"), {}) == "1 week");
}

TEST_CASE("shortest: round-trip text without the noise of the last bits", "[format]") {
    CHECK(shortest(38.16100000000006) == "38.161");
    CHECK(shortest(0.5999999999999996) == "0.6");
    CHECK(shortest(10.000000000000002) == "10");
    CHECK(shortest(9.999999999999993) == "10");
    // A true ratio has no short decimal nearby: all its digits stay, and it reads back exactly.
    for (double value : {100.0 / 6, 1.0 / 3, 2.0 / 3, 1.2330456226880395, 6.02214076e23, 1e-300}) {
        const std::string text = shortest(value);
        INFO(text);
        CHECK(std::strtod(text.c_str(), nullptr) == value);
    }
    CHECK(shortest(-0.0) == "0");
    CHECK(shortest(2357053) == "2357053");
    CHECK(machine_number(inf) == "inf");
    CHECK(machine_number(-inf) == "-inf");
    CHECK(machine_number(not_a_number).empty());
}
