// Numeric helpers (src/model/numbers.cpp): the compensated sum, and parse_double, the plain-number
// reader under every parser.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "amdahl/numbers.hpp"

using namespace amdahl;

namespace {
constexpr double largest = std::numeric_limits<double>::max();
constexpr double infinity = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("numbers: the compensated sum keeps what each addition drops", "[numbers]") {
    CHECK(exact_sum(std::vector<double>{}) == Approx(0));
    CHECK(exact_sum(std::vector<double>{18, 34, 21, 12, 6, 4, 5}) == Approx(100));
    // A plain left-to-right sum gives 0 here and 1e-16 short of 0.6 above; the compensated sum is exact.
    const std::vector<double> cancelling{1e16, 1, -1e16};
    CHECK(exact_sum(cancelling) == Approx(1).epsilon(0));
    std::vector<double> tenths(10, 0.1);
    CHECK(exact_sum(tenths) == Approx(1).epsilon(0));
    std::vector<double> many(1000000, 0.1);
    CHECK(exact_sum(many) == Approx(100000).epsilon(1e-15));

    Summation sum;
    CHECK(sum.value() == Approx(0));
    sum.add(1e100);
    sum.add(1);
    sum.add(-1e100);
    CHECK(sum.value() == Approx(1).epsilon(0));
}

TEST_CASE("numbers: an overflowing sum is infinite, never NaN", "[numbers]") {
    CHECK(exact_sum(std::vector<double>{largest, largest}) == infinity);
    // Once infinite it stays so: adding the opposite infinity or more values gives no NaN.
    const double after = exact_sum(std::vector<double>{largest, largest, -infinity, -largest, 5});
    CHECK_FALSE(std::isnan(after));
    CHECK(after == infinity);
    CHECK(exact_sum(std::vector<double>{-largest, -largest}) == -infinity);
}

TEST_CASE("numbers: parse_double reads plain decimal numbers only", "[numbers]") {
    const std::pair<const char*, double> numbers[] = {
        {"0", 0},       {"1.5", 1.5},           {"+2", 2},  {"-3", -3},
        {".5", 0.5},    {"-.5", -0.5},          {"5.", 5},  {"1e5", 1e5},
        {"1E-3", 1e-3}, {"2.357053", 2.357053}, {"007", 7}, {"1e-400", 0},
    };
    for (const auto& [text, value] : numbers) {
        INFO("'" << text << "'");
        double out = -99;
        CHECK(parse_double(text, out));
        CHECK(out == Approx(value));
    }
    for (const char* text :
         {"",    "+",   "-",   ".",    "abc",      " 1",  "1 ",  "1,000", "1.2.3",  "0x10", "1e",
          "++1", "--1", "inf", "-inf", "infinity", "nan", "NaN", "1e999", "-1e999", "5ms",  "1_000"}) {
        INFO("'" << text << "'");
        double out = -99;
        CHECK_FALSE(parse_double(text, out));
    }
}

TEST_CASE("numbers: a percentage is the fraction its decimal means", "[numbers]") {
    // 99.9 / 100 is 0.9990000000000001 in doubles: -f 99.9% and -f 0.999 gave different speedups.
    CHECK(percent_to_fraction(99.9) == 0.999);
    CHECK(percent_to_fraction(95) == 0.95);
    CHECK(percent_to_fraction(99.99) == 0.9999);
    CHECK(percent_to_fraction(33.3) == 0.333);
    CHECK(percent_to_fraction(0.07) == 0.0007);
    CHECK(percent_to_fraction(100) == 1);
    CHECK(percent_to_fraction(-99.9999) == -0.999999);
    CHECK(percent_to_fraction(1e20) == 1e18);
    CHECK(percent_to_fraction(0) == 0);
    CHECK(percent_to_fraction(1e-300) == Approx(1e-302).epsilon(1e-15));
    CHECK(percent_to_fraction(5e-324) == 0);  // below the smallest double: as 5e-324 / 100
    CHECK(percent_to_fraction(largest) == Approx(largest / 100).epsilon(1e-15));
}

TEST_CASE("numbers: one compensated sum minus another keeps the digits that cancel", "[numbers]") {
    Summation all, big;
    for (double t : {1e12, 1e-3}) all.add(t);
    big.add(1e12);
    // all.value() - big.value() is 0.0010986328125: the rounding of 1e12 + 1e-3.
    CHECK(all.minus(big) == Approx(1e-3).epsilon(1e-15));
    Summation some;
    for (double t : {0.2, 0.7}) some.add(t);
    Summation whole;
    for (double t : {0.1, 0.2, 0.7}) whole.add(t);
    CHECK(whole.minus(some) == Approx(0.1).epsilon(1e-15));
    CHECK(whole.minus(whole) == 0);
}
