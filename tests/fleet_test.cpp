// What a speedup is worth on a fleet: the formulas of src/analysis/fleet.cpp and the money and
// effort words of src/report/numbers.cpp.
#include <catch2/catch.hpp>

#include <limits>

#include "amdahl/fleet.hpp"
#include "report/numbers.hpp"

using Catch::Matchers::WithinRel;

TEST_CASE("fleet: 5% of the time saved on 20,000 GPUs frees exactly 1,000 of them", "[fleet]") {
    amdahl::Fleet fleet;
    fleet.gpus = 20000;
    fleet.cost_per_gpu_hour = 2.5;
    fleet.cost_per_effort = 10000;
    fleet.currency = "USD";
    const amdahl::FleetFigures f = amdahl::fleet_figures(fleet, 1 / 0.95, 3.0);
    CHECK_THAT(f.fraction_freed, WithinRel(0.05, 1e-12));
    CHECK_THAT(f.gpus_freed, WithinRel(1000.0, 1e-12));
    CHECK_THAT(f.capacity_gained, WithinRel(20000 * (1 / 0.95 - 1), 1e-12));
    CHECK_THAT(f.gpu_hours_per_year, WithinRel(1000.0 * 8760, 1e-12));
    REQUIRE(f.cost_per_year);
    CHECK_THAT(*f.cost_per_year, WithinRel(21'900'000.0, 1e-12));
    REQUIRE(f.effort_cost);
    CHECK_THAT(*f.effort_cost, WithinRel(30'000.0, 1e-12));
    REQUIRE(f.payback_days);
    CHECK_THAT(*f.payback_days, WithinRel(30'000.0 / 21'900'000.0 * 365, 1e-12));
}

TEST_CASE("fleet: S = 1.05 frees fewer GPUs than 5% of the fleet - the other reading is the capacity", "[fleet]") {
    amdahl::Fleet fleet;
    fleet.gpus = 20000;
    const amdahl::FleetFigures f = amdahl::fleet_figures(fleet, 1.05);
    CHECK_THAT(f.gpus_freed, WithinRel(20000 * (1 - 1 / 1.05), 1e-12));  // 952.38
    CHECK_THAT(f.capacity_gained, WithinRel(1000.0, 1e-12));
    CHECK_FALSE(f.cost_per_year);
    CHECK_FALSE(f.payback_days);
}

TEST_CASE("fleet: an infinite speedup frees the whole fleet - a slowdown never pays back", "[fleet]") {
    amdahl::Fleet fleet;
    fleet.gpus = 8;
    fleet.hours_per_year = 2000;
    fleet.cost_per_gpu_hour = 1;
    fleet.cost_per_effort = 5;
    const amdahl::FleetFigures all = amdahl::fleet_figures(fleet, std::numeric_limits<double>::infinity(), 1.0);
    CHECK(all.gpus_freed == 8);
    CHECK_THAT(all.gpu_hours_per_year, WithinRel(16000.0, 1e-12));
    const amdahl::FleetFigures slower = amdahl::fleet_figures(fleet, 0.5, 1.0);
    CHECK_THAT(slower.gpus_freed, WithinRel(-8.0, 1e-12));
    REQUIRE(slower.effort_cost);
    CHECK_FALSE(slower.payback_days);
}

TEST_CASE("fleet: money has its currency before (a symbol) or after (a code) - efforts have their plural",
          "[fleet][numbers]") {
    CHECK(amdahl::format_money(21'900'000, "USD") == "21,900,000.00 USD");
    CHECK(amdahl::format_money(2.5, "$") == "$2.50");
    CHECK(amdahl::format_money(-5, "\xe2\x82\xac") ==
          "-\xe2\x82\xac"
          "5.00");
    CHECK(amdahl::format_money(-0.001, "$") == "$0.00");
    CHECK(amdahl::format_money(1234.5, "EUR", {4, 3, false}) == "1234.50 EUR");
    CHECK(amdahl::amount_of(1, "engineer-week") == "1 engineer-week");
    CHECK(amdahl::amount_of(3, "engineer-week") == "3 engineer-weeks");
    CHECK(amdahl::amount_of(2.5, "person-day") == "2.5 person-days");
    CHECK(amdahl::amount_of(2, "effort") == "2 effort");
}
