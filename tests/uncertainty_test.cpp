// Ranges and spreads (src/analysis/uncertainty.cpp): exact bounds of S on hand-computed cases,
// the m + 1 corners checked against every corner of small random boxes, first-order spreads,
// and the factor ranges' parsing.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "amdahl/error.hpp"
#include "amdahl/evaluate.hpp"
#include "amdahl/uncertainty.hpp"
#include "support.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

namespace {

using amdahl::test::phase;

Profile two_phases(double a, double b) {
    Profile profile;
    profile.source = "two.json";
    profile.phases = {phase("attention", "kernel", a), phase("rest", "other", b)};
    return profile;
}

Phase ranged(std::string name, double low, double high, double sd = 0) {
    Phase p = phase(std::move(name), "kernel", low + (high - low) / 2);
    p.spread = TimeSpread{low, high, sd};
    return p;
}

}  // namespace

TEST_CASE("uncertainty: a factor range bounds S by its ends", "[uncertainty]") {
    const Evaluation e = evaluate(two_phases(60, 40), {parse_speedup("attention=8..12")});
    // The point is the geometric midpoint sqrt(8 x 12).
    CHECK(e.phases[0].factor == Approx(std::sqrt(96.0)));
    CHECK(e.speedup == Approx(100 / (60 / std::sqrt(96.0) + 40)));
    REQUIRE(e.uncertainty);
    const Uncertainty& u = *e.uncertainty;
    CHECK(u.factor_ranges);
    CHECK_FALSE(u.time_ranges);
    CHECK_FALSE(u.spreads);
    CHECK(u.speedup.low == Approx(100 / 47.5));   // 60 / 8 + 40
    CHECK(u.speedup.high == Approx(100 / 45.0));  // 60 / 12 + 40
    CHECK(u.time_saved.low == Approx(52.5));
    CHECK(u.time_saved.high == Approx(55));
    CHECK_FALSE(u.speedup_sd);
}

TEST_CASE("uncertainty: a point answer has no uncertainty", "[uncertainty]") {
    CHECK_FALSE(evaluate(two_phases(60, 40), {parse_speedup("attention=10")}).uncertainty);
}

TEST_CASE("uncertainty: time ranges of the sped-up phase and of the rest", "[uncertainty]") {
    SECTION("the sped-up phase: S = (A + U) / (A/k + U) grows with A") {
        Profile profile = two_phases(60, 40);
        profile.phases[0] = ranged("attention", 50, 70);
        const Evaluation e = evaluate(profile, {parse_speedup("attention=10")});
        REQUIRE(e.uncertainty);
        CHECK(e.uncertainty->time_ranges);
        CHECK(e.speedup == Approx(100 / 46.0));
        CHECK(e.uncertainty->speedup.low == Approx(90 / 45.0));
        CHECK(e.uncertainty->speedup.high == Approx(110 / 47.0));
        CHECK(e.uncertainty->time_saved.low == Approx(45));
        CHECK(e.uncertainty->time_saved.high == Approx(63));
        CHECK(e.uncertainty->slowest.baseline == Approx(90));
        CHECK(e.uncertainty->slowest.new_time == Approx(45));
    }
    SECTION("the rest: S falls as U grows") {
        Profile profile = two_phases(60, 40);
        profile.phases[1] = ranged("rest", 30, 50);
        const Evaluation e = evaluate(profile, {parse_speedup("attention=10")});
        REQUIRE(e.uncertainty);
        CHECK(e.uncertainty->speedup.low == Approx(110 / 56.0));
        CHECK(e.uncertainty->speedup.high == Approx(90 / 36.0));
        // The saving does not depend on the untouched time.
        CHECK(e.uncertainty->time_saved.low == Approx(54));
        CHECK(e.uncertainty->time_saved.high == Approx(54));
    }
    SECTION("both, with a factor range: the ends combine") {
        Profile profile = two_phases(60, 40);
        profile.phases = {ranged("attention", 50, 70), ranged("rest", 30, 50)};
        const Evaluation e = evaluate(profile, {parse_speedup("attention=8..12")});
        REQUIRE(e.uncertainty);
        CHECK(e.uncertainty->speedup.low == Approx(100 / (50 / 8.0 + 50)));
        CHECK(e.uncertainty->speedup.high == Approx(100 / (70 / 12.0 + 30)));
    }
}

TEST_CASE("uncertainty: a spread is propagated to first order", "[uncertainty]") {
    Profile profile = two_phases(60, 40);
    profile.phases[0].spread = TimeSpread{60, 60, 3};
    const Evaluation e = evaluate(profile, {parse_speedup("attention=10")});
    REQUIRE(e.uncertainty);
    CHECK(e.uncertainty->spreads);
    CHECK_FALSE(e.uncertainty->any_range());
    // S = 100 / 46; dS/dA = (1 - S / 10) / 46; sd = |dS/dA| x 3.
    const double s = 100 / 46.0;
    REQUIRE(e.uncertainty->speedup_sd);
    CHECK(*e.uncertainty->speedup_sd == Approx((1 - s / 10) / 46 * 3));
    CHECK(*e.uncertainty->time_saved_sd == Approx(0.9 * 3));
    CHECK(e.uncertainty->speedup.low == Approx(s));
    CHECK(e.uncertainty->speedup.high == Approx(s));
}

TEST_CASE("uncertainty: m + 1 sorted corners find what all 2^m corners find", "[uncertainty]") {
    std::mt19937 random(20261202);
    std::uniform_real_distribution<double> time(0, 100), width(0, 50), inverse(0, 1.5);
    for (int trial = 0; trial < 2000; ++trial) {
        const std::size_t m = 1 + static_cast<std::size_t>(trial % 7);
        std::vector<RatioTerm> terms;
        for (std::size_t g = 0; g < m; ++g) {
            const double low = trial % 5 == 0 && g == 0 ? 0.0 : time(random);
            // c = 0 (an infinite factor), c = 1 (untouched) and slowdowns (c > 1) all occur.
            const double c = g % 4 == 0 ? 0.0 : g % 4 == 1 ? 1.0 : inverse(random);
            terms.push_back({c, low, low + width(random)});
        }
        double least = std::numeric_limits<double>::infinity(), most = 0;
        for (std::size_t mask = 0; mask < (std::size_t{1} << m); ++mask) {
            double n = 0, d = 0;
            for (std::size_t g = 0; g < m; ++g) {
                const double t = (mask >> g) & 1 ? terms[g].time_high : terms[g].time_low;
                n += t;
                d += terms[g].inverse_factor * t;
            }
            const double s = d > 0 ? n / d : std::numeric_limits<double>::infinity();
            least = std::min(least, s);
            most = std::max(most, s);
        }
        const RatioExtremes found = ratio_extremes(terms);
        INFO("trial " << trial << ", " << m << " terms");
        if (std::isinf(most))
            CHECK(std::isinf(found.high.speedup()));
        else
            CHECK(found.high.speedup() == Approx(most).epsilon(1e-12));
        CHECK(found.low.speedup() == Approx(least).epsilon(1e-12));
    }
}

TEST_CASE("uncertainty: the bounds over factor ends and time ends match brute force", "[uncertainty]") {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> time(1, 100), width(0, 30), factor(1, 20), spread(1, 3);
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t m = 1 + static_cast<std::size_t>(trial % 5);
        std::vector<PhaseGroup> groups;
        for (std::size_t g = 0; g < m; ++g) {
            PhaseGroup group;
            const double k = g + 1 == m ? 1.0 : factor(random);
            group.range = {k, g + 1 == m ? 1.0 : k * spread(random)};
            group.factor = std::sqrt(group.range.low * group.range.high);
            group.time_low = time(random);
            group.time_high = group.time_low + width(random);
            group.time = (group.time_low + group.time_high) / 2;
            groups.push_back(group);
        }
        double least = std::numeric_limits<double>::infinity(), most = 0;
        double saved_least = least, saved_most = -least;
        for (std::size_t mask = 0; mask < (std::size_t{1} << (2 * m)); ++mask) {
            double n = 0, d = 0;
            for (std::size_t g = 0; g < m; ++g) {
                const double t = (mask >> g) & 1 ? groups[g].time_high : groups[g].time_low;
                const double k = (mask >> (m + g)) & 1 ? groups[g].range.high : groups[g].range.low;
                n += t;
                d += t / k;
            }
            least = std::min(least, n / d);
            most = std::max(most, n / d);
            saved_least = std::min(saved_least, n - d);
            saved_most = std::max(saved_most, n - d);
        }
        const std::optional<Uncertainty> u = speedup_uncertainty(groups);
        REQUIRE(u);
        INFO("trial " << trial);
        CHECK(u->speedup.low == Approx(least).epsilon(1e-12));
        CHECK(u->speedup.high == Approx(most).epsilon(1e-12));
        CHECK(u->time_saved.low == Approx(saved_least).epsilon(1e-12));
        CHECK(u->time_saved.high == Approx(saved_most).epsilon(1e-12));
    }
}

TEST_CASE("uncertainty: factor ranges as written", "[uncertainty][speedup]") {
    const SpeedupSpec spec = parse_speedup("attention=8x..12x");
    REQUIRE(spec.range);
    CHECK(spec.range->low == Approx(8));
    CHECK(spec.range->high == Approx(12));
    CHECK(spec.factor.value == Approx(std::sqrt(96.0)));
    CHECK_FALSE(parse_speedup("attention=10").range);
    CHECK(parse_speedup("a=2..2").factor.value == Approx(2));
    CHECK(parse_speedup("a=-30%..-50%").range->high == Approx(2));
    const auto error = [](const char* text) {
        try {
            parse_speedup(text);
        } catch (const Error& e) {
            return e.message();
        }
        return std::string("no error");
    };
    CHECK(error("attention=12..8") ==
          "speedup 'attention=12..8': bad factor range '12..8': reversed (write the smaller end first: 8..12)");
    CHECK(error("attention=0..8") ==
          "speedup 'attention=0..8': bad factor range '0..8': end '0': a speedup factor must be > 0 (0.5 is a 2x "
          "slowdown)");
    CHECK(error("attention=..8") ==
          "speedup 'attention=..8': bad factor range '..8': a range needs both ends, such as 8..12");
    CHECK(error("attention=8..") ==
          "speedup 'attention=8..': bad factor range '8..': a range needs both ends, such as 8..12");
    CHECK(error("attention=0.5..2") ==
          "speedup 'attention=0.5..2': bad factor range '0.5..2': a range of slowdowns "
          "(an end below 1) is not supported; give a point factor");
    CHECK(error("attention=8..inf") ==
          "speedup 'attention=8..inf': bad factor range '8..inf': its ends must be "
          "finite (write inf alone for a phase that takes no time)");
}
