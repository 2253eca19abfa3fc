// Amdahl's law in closed form (src/analysis/law.cpp): S = 1 / ((1 - f) + f / k), the ceiling
// 1 / (1 - f), and the law solved for k or f, with the reason when no value reaches the target.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "amdahl/law.hpp"

using namespace amdahl;

namespace {
constexpr double infinity = std::numeric_limits<double>::infinity();
}

TEST_CASE("law: the speedup and the ceiling", "[law]") {
    CHECK(amdahl_speedup(0.6, 4) == Approx(1 / 0.55));
    CHECK(amdahl_speedup(0.21, 10) == Approx(100 / 81.1));
    CHECK(amdahl_speedup(0.5, infinity) == Approx(2));
    CHECK(amdahl_speedup(0, 10) == Approx(1));
    CHECK(amdahl_speedup(0.6, 1) == Approx(1));
    CHECK(amdahl_speedup(1, 2) == Approx(2));
    CHECK(amdahl_speedup(0.5, 0.5) == Approx(1 / 1.5));  // a 2x slowdown of half the run
    CHECK(std::isinf(amdahl_speedup(1, infinity)));      // nothing left

    CHECK(amdahl_ceiling(0.6) == Approx(2.5));
    CHECK(amdahl_ceiling(0.21) == Approx(1 / 0.79));
    CHECK(amdahl_ceiling(0) == Approx(1));
    CHECK(std::isinf(amdahl_ceiling(1)));
    // The ceiling is the speedup at an infinite factor.
    for (double f : {0.05, 0.3, 0.9, 0.999}) CHECK(amdahl_speedup(f, infinity) == Approx(amdahl_ceiling(f)));
}

TEST_CASE("law: given f and k, the speedup", "[law]") {
    const LawSolution s = solve_for_speedup(0.6, 4);
    CHECK(s.fraction == Approx(0.6));
    CHECK(s.factor == Approx(4));
    CHECK(s.speedup == Approx(1.8181818182));
    CHECK(s.ceiling == Approx(2.5));
    CHECK(s.possible);
    CHECK(s.reason.empty());
}

TEST_CASE("law: given f and a target, the factor k = f / (1/S - (1 - f))", "[law]") {
    LawSolution s = solve_for_factor(0.6, 2);
    CHECK(s.possible);
    CHECK(s.factor == Approx(6));
    CHECK(s.fraction == Approx(0.6));
    CHECK(s.speedup == Approx(2));
    CHECK(s.ceiling == Approx(2.5));
    CHECK(s.reason.empty());

    s = solve_for_factor(0.5, 0.8);  // a target below 1: the factor is a slowdown
    CHECK(s.possible);
    CHECK(s.factor == Approx(1 / 1.5));

    // Above the ceiling: no factor at all (at it, k = inf: see below).
    for (const auto& [fraction, target] : {std::pair{0.6, 3.0}, std::pair{0.5, 2.5}}) {
        INFO("f = " << fraction << ", S = " << target);
        s = solve_for_factor(fraction, target);
        CHECK_FALSE(s.possible);
        CHECK(std::isinf(s.factor));
        CHECK(s.ceiling == Approx(1 / (1 - fraction)));
        CHECK(s.reason == "the target is at or above the ceiling 1 / (1 - f)");
    }

    // f = 0: only the target 1 is reached, by any factor.
    s = solve_for_factor(0, 1);
    CHECK(s.possible);
    CHECK(s.factor == Approx(1));
    CHECK(s.reason.empty());
    s = solve_for_factor(0, 1.5);
    CHECK_FALSE(s.possible);
    CHECK(s.factor == Approx(1));
    CHECK(s.ceiling == Approx(1));
    CHECK(s.reason == "no factor changes anything when the fraction is 0");
}

TEST_CASE("law: given k and a target, the fraction f = (1 - 1/S) / (1 - 1/k)", "[law]") {
    LawSolution s = solve_for_fraction(4, 1.6);
    CHECK(s.possible);
    CHECK(s.fraction == Approx(0.5));
    CHECK(s.factor == Approx(4));
    CHECK(s.speedup == Approx(1.6));
    CHECK(s.ceiling == Approx(2));
    CHECK(s.reason.empty());

    s = solve_for_fraction(infinity, 2);
    CHECK(s.possible);
    CHECK(s.fraction == Approx(0.5));
    CHECK(s.ceiling == Approx(2));

    s = solve_for_fraction(0.5, 0.8);  // a 2x slowdown on a quarter of the run
    CHECK(s.possible);
    CHECK(s.fraction == Approx(0.25));
    CHECK(s.ceiling == Approx(1 / 0.75));

    s = solve_for_fraction(2, 2);  // the whole run at k: S = k
    CHECK(s.possible);
    CHECK(s.fraction == Approx(1));
    CHECK(std::isinf(s.ceiling));

    s = solve_for_fraction(2, 3);
    CHECK_FALSE(s.possible);
    CHECK(s.fraction == Approx(4.0 / 3));
    CHECK(std::isinf(s.ceiling));
    CHECK(s.reason == "even the whole run sped up by the factor falls short (the speedup cannot exceed k)");

    s = solve_for_fraction(4, 0.5);
    CHECK_FALSE(s.possible);
    CHECK(s.reason == "a speedup factor above 1 cannot make the run slower");

    s = solve_for_fraction(0.5, 2);
    CHECK_FALSE(s.possible);
    CHECK(s.reason == "a slowdown factor cannot make the run faster");

    s = solve_for_fraction(1, 2);
    CHECK_FALSE(s.possible);
    CHECK(s.fraction == Approx(0));
    CHECK(s.reason == "a factor of 1 changes nothing");
    s = solve_for_fraction(1, 1);
    CHECK(s.possible);
    CHECK(s.fraction == Approx(0));
    CHECK(s.ceiling == Approx(1));
}

TEST_CASE("law: solving for k or f gives back the speedup it was solved from", "[law]") {
    for (double f : {0.1, 0.45, 0.8}) {
        for (double k : {1.5, 4.0, 32.0}) {
            INFO("f = " << f << ", k = " << k);
            const double s = amdahl_speedup(f, k);
            CHECK(solve_for_factor(f, s).factor == Approx(k));
            CHECK(solve_for_fraction(k, s).fraction == Approx(f));
        }
    }
}

TEST_CASE("law: the ceiling is a target reached only at k = infinity, in every direction", "[law]") {
    // f = 0.5 has the ceiling 2: k = inf reaches it exactly, every finite k falls short.
    const LawSolution by_factor = solve_for_factor(0.5, 2);
    CHECK(by_factor.possible);
    CHECK(by_factor.at_ceiling);
    CHECK(std::isinf(by_factor.factor));
    CHECK(by_factor.reason.empty());

    const LawSolution by_fraction = solve_for_fraction(infinity, 2);
    CHECK(by_fraction.possible);
    CHECK(by_fraction.at_ceiling);
    CHECK(by_fraction.fraction == Approx(0.5));

    const LawSolution by_speedup = solve_for_speedup(0.5, infinity);
    CHECK(by_speedup.possible);
    CHECK(by_speedup.at_ceiling);
    CHECK(by_speedup.speedup == Approx(2));

    // 1 - 0.6 is not 0.4 in doubles: the boundary is still the boundary.
    CHECK(solve_for_factor(0.6, 2.5).at_ceiling);
    CHECK(solve_for_factor(0.6, 2.5).possible);
    // A finite factor, or a target below the ceiling, is not at it.
    CHECK_FALSE(solve_for_speedup(0.5, 1e9).at_ceiling);
    CHECK_FALSE(solve_for_factor(0.6, 2).at_ceiling);
    CHECK_FALSE(solve_for_fraction(infinity, 1).at_ceiling);  // f = 0: nothing to speed up
    CHECK_FALSE(solve_for_speedup(1, infinity).at_ceiling);   // f = 1: no ceiling, S is infinite
    // Above the ceiling stays impossible.
    CHECK_FALSE(solve_for_factor(0.5, 2.0000001).possible);
}

TEST_CASE("law: several parts, S = 1 / ((1 - sum f) + sum f_i / k_i)", "[law]") {
    const LawSolution s = solve_for_speedup(std::vector<LawPart>{{0.3, 2}, {0.2, 3}});
    CHECK(s.possible);
    CHECK(s.speedup == Approx(1 / (0.5 + 0.15 + 0.2 / 3)));
    CHECK(s.fraction == Approx(0.5));
    // The parts' combined local speedup: sum f / sum (f / k).
    CHECK(s.factor == Approx(0.5 / (0.15 + 0.2 / 3)));
    CHECK(s.ceiling == Approx(2));
    CHECK_FALSE(s.at_ceiling);
    // One part is the one-part law; every part at k = inf is the ceiling.
    CHECK(solve_for_speedup(std::vector<LawPart>{{0.6, 4}}).speedup == Approx(solve_for_speedup(0.6, 4).speedup));
    const LawSolution gone = solve_for_speedup(std::vector<LawPart>{{0.3, infinity}, {0.2, infinity}});
    CHECK(gone.speedup == Approx(2));
    CHECK(gone.at_ceiling);
    CHECK(std::isinf(gone.factor));
}

TEST_CASE("law: the speedup is exact at the edges: S = k when f = 1, S = 1 when f = 0 or k = 1", "[law]") {
    // 1 / (0 + 1 / 2e15) is 1.9999999999999998e15 in doubles: the reciprocal of a reciprocal loses
    // the last bit. Written k / ((1 - f) k + f) it is k itself.
    for (double k : {2e15, 3.0, 7e300, 1e-300, 0.1}) {
        CHECK(amdahl_speedup(1, k) == k);
        CHECK(amdahl_speedup(0, k) == 1);
        CHECK(solve_for_speedup(1, k).speedup == k);
        CHECK(solve_for_speedup(std::vector<LawPart>{{1, k}}).speedup == k);
        CHECK(solve_for_speedup(std::vector<LawPart>{{1, k}}).factor == k);
        // Equal factors on parts that add up to the whole: the whole runs k times faster.
        CHECK(solve_for_speedup(std::vector<LawPart>{{0.5, k}, {0.5, k}}).speedup == k);
    }
    for (double f : {0.5, 0.75, 0.9375, 1.0}) CHECK(amdahl_speedup(f, 1) == 1);
    // No overflow or underflow into a wrong answer at the ends of the doubles.
    CHECK(amdahl_speedup(0.5, 1.7e308) == Approx(2));
    CHECK(amdahl_speedup(0.5, 1e-320) == Approx(2e-320).margin(1e-323));
    CHECK(solve_for_speedup(std::vector<LawPart>{{0.25, 1.7e308}, {0.25, 1e-300}}).speedup ==
          Approx(4e-300).margin(1e-310));
    CHECK(solve_for_speedup(std::vector<LawPart>{{0.25, 1.7e308}, {0.25, infinity}}).speedup == Approx(2));
}

TEST_CASE("law: parts that add up to the whole in decimals are the whole, in any order", "[law]") {
    // 50 x 0.02 adds up to 1.0000000000000004 in doubles, term by term: 1 - sum f was -4.4e-16
    // and S came out infinite (the ceiling of "more than all of it") instead of 1e300.
    const std::vector<LawPart> fifty(50, LawPart{0.02, 1e300});
    const LawSolution all = solve_for_speedup(fifty);
    CHECK(all.fraction == 1);
    CHECK(all.speedup == Approx(1e300).epsilon(1e-15));
    CHECK(all.factor == Approx(1e300).epsilon(1e-15));
    CHECK(std::isinf(all.ceiling));
    // 10 x 0.1 was 0.9999999999999999: S 9.0e14 for 1e15, and a finite ceiling of 9.0e15.
    const LawSolution tenth = solve_for_speedup(std::vector<LawPart>(10, LawPart{0.1, 1e15}));
    CHECK(tenth.fraction == 1);
    CHECK(tenth.speedup == Approx(1e15).epsilon(1e-15));
    CHECK(std::isinf(tenth.ceiling));
    // The order of the parts changes nothing.
    const LawSolution up = solve_for_speedup(std::vector<LawPart>{{0.1, 1e300}, {0.2, 1e300}, {0.7, 1e300}});
    const LawSolution down = solve_for_speedup(std::vector<LawPart>{{0.7, 1e300}, {0.2, 1e300}, {0.1, 1e300}});
    CHECK(up.speedup == down.speedup);
    CHECK(down.speedup == Approx(1e300).epsilon(1e-15));
    // 50 x 0.02 at k = 1..50: S = 50 / sum(1/k) = 11.113073585248994 (exact arithmetic).
    std::vector<LawPart> harmonic;
    for (int k = 1; k <= 50; ++k) harmonic.push_back({0.02, static_cast<double>(k)});
    CHECK(solve_for_speedup(harmonic).speedup == Approx(11.113073585248994).epsilon(1e-15));
    // 1 - sum f to all its digits: 0.04399 + 0.3968 + 0.5592 leaves 1e-5, whose 12th digit the
    // rounded sum 0.99999 lost (99999.99422359593 before; exact for these doubles: 99999.99422331838).
    const LawSolution left =
        solve_for_speedup(std::vector<LawPart>{{0.04399, infinity}, {0.3968, infinity}, {0.5592, 9.68e11}});
    CHECK(left.speedup == Approx(99999.99422331838).epsilon(1e-15));
    CHECK(left.ceiling == Approx(100000.00000017755).epsilon(1e-15));
    // The combined factor of two tiny factors is that factor, not f r rounded to 0 first.
    const LawSolution tiny = solve_for_speedup(std::vector<LawPart>{{1e-300, 1e-300}, {1e-300, 1e-300}});
    CHECK(tiny.factor == Approx(1e-300).epsilon(1e-15));
}

TEST_CASE("law: solving for k or f keeps the last digits", "[law]") {
    // k = f S / (1 - (1 - f) S): the reciprocal 1/S of the old form cost 1e-13 here.
    CHECK(solve_for_factor(0.5, 1.998).factor == Approx(999).epsilon(1e-15));
    // f = (S - 1) k / (S (k - 1)): exact for the double nearest 1.0001 (1.0001 - 1.1e-17, which
    // already moves the 14th digit of S - 1) is 0.00013332000133318533; 1 - 1/S cost 3e-13 more.
    CHECK(solve_for_fraction(4, 1.0001).fraction == Approx(0.00013332000133318533).epsilon(1e-15));
    // The ceiling of the solved f, 1 / (1 - f) = S (k - 1) / (k - S), without 1 - f's cancellation:
    // 59999998 for the decimals, within what 2.9999999's own rounding (2e-16) allows.
    CHECK(solve_for_fraction(3, 2.9999999).ceiling == Approx(59999998).margin(0.2));
    CHECK(solve_for_fraction(infinity, 1.25).fraction == Approx(0.2).epsilon(1e-15));
    // A target 1e-12 below the ceiling is a finite k (1.1e11 here), not the ceiling itself.
    const LawSolution near = solve_for_factor(0.1, 1.11111111111);
    CHECK(near.possible);
    CHECK_FALSE(near.at_ceiling);
    CHECK(near.factor == Approx(0.1 * 1.11111111111 / (1 - 0.9 * 1.11111111111)).epsilon(1e-6));
    CHECK(near.factor > 1e10);
    // Typed ceilings are still the ceiling: 1 - 0.6 is not 0.4 in doubles.
    CHECK(solve_for_factor(0.6, 2.5).at_ceiling);
    CHECK(solve_for_factor(0.9, 10).at_ceiling);
    CHECK(solve_for_factor(0.75, 4).at_ceiling);
    // A target of 1 takes k = 1, however small f is (the ceiling 1 / (1 - 1e-300) is 1 in doubles).
    const LawSolution one = solve_for_factor(1e-300, 1);
    CHECK(one.possible);
    CHECK(one.factor == 1);
    // A factor below what a double can hold is no answer, rather than "k = 0".
    const LawSolution under = solve_for_factor(1e-300, 1e-300);
    CHECK_FALSE(under.possible);
    CHECK_FALSE(under.reason.empty());
}
