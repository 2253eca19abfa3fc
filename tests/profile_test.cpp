// The profile model (src/model/profile.cpp): its total, finding a phase, where each phase was
// read, and converting every time to another unit.
#include <catch2/catch.hpp>

#include "amdahl/profile.hpp"

using namespace amdahl;

namespace {

Profile profile(Origin origin) {
    Profile p;
    p.source = "step.csv";
    p.origin = origin;
    p.phases = {Phase{"a", "kernel", 1.5, std::nullopt, 2, std::nullopt}, Phase{"b c", "", 0.25, 0.5, 7, std::nullopt},
                Phase{"unattributed", "unattributed", 3, std::nullopt, 0, std::nullopt}};
    return p;
}

}  // namespace

TEST_CASE("profile: the total is the sum of the phase times", "[profile]") {
    CHECK(profile(Origin::line).total() == Approx(4.75));
    CHECK(Profile{}.total() == Approx(0));
    Profile tenths;
    for (int i = 0; i < 10; ++i)
        tenths.phases.push_back(Phase{"p" + std::to_string(i), "", 0.1, std::nullopt, 0, std::nullopt});
    CHECK(tenths.total() == Approx(1).epsilon(0));  // compensated: exactly 1
}

TEST_CASE("profile: find is by exact name", "[profile]") {
    const Profile p = profile(Origin::line);
    CHECK(p.find("a") == std::optional<std::size_t>(0));
    CHECK(p.find("b c") == std::optional<std::size_t>(1));
    CHECK_FALSE(p.find("A"));
    CHECK_FALSE(p.find("b"));
    CHECK_FALSE(p.find(""));
}

TEST_CASE("profile: where spells out the place each phase was read", "[profile]") {
    Profile p = profile(Origin::line);
    CHECK(p.where(p.phases[0]) == "step.csv:2");
    CHECK(p.where(p.phases[1]) == "step.csv:7");
    CHECK(p.where(p.phases[2]) == "step.csv");  // added by amdahl: the source alone
    p = profile(Origin::json_index);
    CHECK(p.where(p.phases[0]) == "step.csv: phases[1]");
    CHECK(p.where(p.phases[1]) == "step.csv: phases[6]");
    CHECK(p.where(p.phases[2]) == "step.csv");
    p = profile(Origin::json_key);
    CHECK(p.where(p.phases[0]) == "step.csv: phases.a");
    CHECK(p.where(p.phases[1]) == "step.csv: phases.b c");
    p = profile(Origin::none);
    CHECK(p.where(p.phases[0]) == "step.csv");
    CHECK(where("<stdin>", Origin::line, 12, "x") == "<stdin>:12");
    CHECK(where("<stdin>", Origin::json_index, 1, "x") == "<stdin>: phases[0]");
}

TEST_CASE("profile: convert_profile expresses every time, and the runs, in another unit", "[profile]") {
    Profile p = profile(Origin::line);
    p.runs = {4.5, 5};
    const Profile us = convert_profile(p, Unit::us);
    CHECK(us.unit == Unit::us);
    REQUIRE(us.phases.size() == 3);
    CHECK(us.phases[0].time == Approx(1500));
    CHECK(us.phases[1].time == Approx(250));
    CHECK(us.phases[2].time == Approx(3000));
    REQUIRE(us.runs.size() == 2);
    CHECK(us.runs[0] == Approx(4500));
    CHECK(us.runs[1] == Approx(5000));
    CHECK(us.phases[1].name == "b c");
    CHECK(us.source == "step.csv");
    CHECK(p.phases[0].time == Approx(1.5));  // the original is untouched
    CHECK(p.unit == Unit::ms);
    const Profile s = convert_profile(p, Unit::s);
    CHECK(s.phases[0].time == Approx(0.0015));
    CHECK(s.total() == Approx(0.00475));
}
