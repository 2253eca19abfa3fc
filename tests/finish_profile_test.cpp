// finish_profile (src/model/finish_profile.cpp), the checks every reader's phases go through:
// names, units, totals and the unattributed rest, shares, active times and runs, each error with
// its whole message.
#include <catch2/catch.hpp>

#include <cmath>

#include "amdahl/error.hpp"
#include "input/raw_profile.hpp"

using namespace amdahl;
using namespace amdahl::detail;
using Catch::Matchers::Contains;
using Catch::Matchers::Message;

namespace {

RawProfile raw_profile() {
    RawProfile raw;
    raw.source = "p.csv";
    raw.origin = Origin::line;
    return raw;
}

// A phase on line `at` with a time in `unit` (none: the profile's unit).
void add(RawProfile& raw, std::string name, double time, std::uint64_t at, std::optional<Unit> unit = std::nullopt) {
    RawPhase phase;
    phase.name = std::move(name);
    phase.time = RawTime{time, unit};
    phase.at = at;
    raw.add(std::move(phase));
}

void add_share(RawProfile& raw, std::string name, double share, std::uint64_t at) {
    RawPhase phase;
    phase.name = std::move(name);
    phase.share = share;
    phase.at = at;
    raw.add(std::move(phase));
}

}  // namespace

TEST_CASE("finish_profile: a plain profile keeps its phases, places and sum", "[finish-profile]") {
    RawProfile raw = raw_profile();
    raw.name = "step";
    add(raw, "a", 30, 2);
    add(raw, "b", 70, 3);
    const Profile profile = finish_profile(std::move(raw));
    CHECK(profile.name == "step");
    CHECK(profile.source == "p.csv");
    CHECK(profile.unit == Unit::ms);  // nothing said: ms
    REQUIRE(profile.phases.size() == 2);
    CHECK(profile.phases[1].name == "b");
    CHECK(profile.phases[1].time == Approx(70));
    CHECK(profile.where(profile.phases[1]) == "p.csv:3");
    CHECK(profile.total() == Approx(100));
    CHECK(profile.notes == std::vector<std::string>{unit_assumed_note("p.csv")});  // and says so
}

TEST_CASE("finish_profile: the declared unit, else the unit the times are written in", "[finish-profile]") {
    RawProfile declared = raw_profile();
    declared.unit = Unit::ms;
    add(declared, "a", 1, 2, Unit::s);
    add(declared, "b", 250, 3, Unit::us);
    Profile profile = finish_profile(std::move(declared));
    CHECK(profile.unit == Unit::ms);
    CHECK(profile.phases[0].time == Approx(1000));
    CHECK(profile.phases[1].time == Approx(0.25));

    RawProfile written = raw_profile();
    add(written, "a", 1, 2, Unit::s);
    add(written, "b", 500, 3, Unit::ms);
    profile = finish_profile(std::move(written));
    CHECK(profile.unit == Unit::s);
    CHECK(profile.phases[1].time == Approx(0.5));
}

TEST_CASE("finish_profile: a time of -0 is 0", "[finish-profile]") {
    RawProfile raw = raw_profile();
    add(raw, "a", -0.0, 2);
    add(raw, "b", 1, 3);
    const Profile profile = finish_profile(std::move(raw));
    CHECK_FALSE(std::signbit(profile.phases[0].time));
}

TEST_CASE("finish_profile: a total above the phases leaves an unattributed phase and a note", "[finish-profile]") {
    RawProfile raw = raw_profile();
    raw.unit = Unit::ms;  // declared: no note that ms was assumed
    add(raw, "a", 30, 2);
    add(raw, "b", 50, 3);
    raw.total = RawTime{100, std::nullopt};
    raw.total_where = "p.csv:4";
    const Profile profile = finish_profile(std::move(raw));
    REQUIRE(profile.phases.size() == 3);
    CHECK(profile.phases[2].name == "unattributed");
    CHECK(profile.phases[2].kind == "unattributed");
    CHECK(profile.phases[2].time == Approx(20));
    CHECK(profile.where(profile.phases[2]) == "p.csv");
    CHECK(profile.notes == std::vector<std::string>{
                               "p.csv: the phases add up to 80.0 ms of the total 100.0 ms; the other 20.0 ms is phase "
                               "'unattributed'"});

    // Within rounding of the total, or equal to it: no rest.
    for (const double sum_of_b : {70.0, 70.4}) {
        RawProfile close = raw_profile();
        close.unit = Unit::ms;
        close.unit = Unit::ms;  // declared: no note that ms was assumed
        add(close, "a", 30, 2);
        add(close, "b", sum_of_b, 3);
        close.total = RawTime{100, std::nullopt};
        const Profile finished = finish_profile(std::move(close));
        CHECK(finished.phases.size() == 2);
        CHECK(finished.notes.empty());
    }
    // A total in its own unit.
    RawProfile seconds = raw_profile();
    seconds.unit = Unit::ms;
    add(seconds, "a", 500, 2);
    seconds.total = RawTime{1, Unit::s};
    const Profile finished = finish_profile(std::move(seconds));
    REQUIRE(finished.phases.size() == 2);
    CHECK(finished.phases[1].time == Approx(500));
}

TEST_CASE("finish_profile: shares become times, and a share that disagrees is noted", "[finish-profile]") {
    RawProfile raw = raw_profile();
    raw.unit = Unit::ms;  // declared: no note that ms was assumed
    add(raw, "a", 30, 2);
    add_share(raw, "b", 0.5, 3);
    raw.total = RawTime{100, std::nullopt};
    Profile profile = finish_profile(std::move(raw));
    REQUIRE(profile.phases.size() == 3);
    CHECK(profile.phases[1].time == Approx(50));
    CHECK(profile.phases[2].time == Approx(20));  // unattributed

    RawProfile disagreeing = raw_profile();
    disagreeing.unit = Unit::ms;  // declared: no note that ms was assumed
    RawPhase a;
    a.name = "a";
    a.time = RawTime{30, std::nullopt};
    a.share = 0.5;
    a.at = 2;
    disagreeing.add(std::move(a));
    add(disagreeing, "b", 70, 3);
    profile = finish_profile(std::move(disagreeing));
    CHECK(profile.notes == std::vector<std::string>{
                               "p.csv:2: phase 'a': share 50% disagrees with its time (30.0 ms is 30% of 100.0 ms)"});

    RawProfile agreeing = raw_profile();
    agreeing.unit = Unit::ms;  // declared: no note that ms was assumed
    RawPhase rounded;
    rounded.name = "a";
    rounded.time = RawTime{30, std::nullopt};
    rounded.share = 0.302;  // within the 0.5% rounding allowance
    agreeing.add(std::move(rounded));
    add(agreeing, "b", 70, 3);
    CHECK(finish_profile(std::move(agreeing)).notes.empty());
}

TEST_CASE("finish_profile: an active time is converted and never below the exclusive time", "[finish-profile]") {
    RawProfile raw = raw_profile();
    raw.unit = Unit::us;
    RawPhase a;
    a.name = "a";
    a.time = RawTime{10, std::nullopt};
    a.active_time = RawTime{0.015, Unit::ms};
    raw.add(std::move(a));
    RawPhase b;
    b.name = "b";
    b.time = RawTime{10, std::nullopt};
    b.active_time = RawTime{4, std::nullopt};
    raw.add(std::move(b));
    const Profile profile = finish_profile(std::move(raw));
    REQUIRE(profile.phases[0].active_time);
    CHECK(*profile.phases[0].active_time == Approx(15));
    REQUIRE(profile.phases[1].active_time);
    CHECK(*profile.phases[1].active_time == Approx(10));
    REQUIRE(!profile.notes.empty());
    CHECK_THAT(profile.notes.back(),
               Contains("phase 'b': active_time 4.0 us is less than its time 10.0 us; read as 10.0 us"));
    // A share-only phase's time comes from the total: its active time is held to that time too.
    RawProfile shares = raw_profile();
    shares.unit = Unit::ms;
    shares.total = RawTime{100, std::nullopt};
    RawPhase c;
    c.name = "c";
    c.share = 0.5;
    c.active_time = RawTime{16.2, std::nullopt};
    shares.add(std::move(c));
    const Profile from_shares = finish_profile(std::move(shares));
    REQUIRE(from_shares.phases[0].active_time);
    CHECK(from_shares.phases[0].time == Approx(50));
    CHECK(*from_shares.phases[0].active_time == Approx(50));
    RawProfile plain = raw_profile();
    add(plain, "a", 1, 2);
    CHECK_FALSE(finish_profile(std::move(plain)).phases[0].active_time);
}

TEST_CASE("finish_profile: runs are converted to the profile's unit", "[finish-profile]") {
    RawProfile raw = raw_profile();
    raw.unit = Unit::ms;
    add(raw, "a", 100, 2);
    raw.runs = {RawTime{100.5, std::nullopt}, RawTime{0.1, Unit::s}};
    const Profile profile = finish_profile(std::move(raw));
    REQUIRE(profile.runs.size() == 2);
    CHECK(profile.runs[0] == Approx(100.5));
    CHECK(profile.runs[1] == Approx(100));

    RawProfile huge = raw_profile();
    huge.unit = Unit::ns;
    add(huge, "a", 100, 2);
    huge.runs = {RawTime{1e300, Unit::h}};
    huge.runs_where = "p.json: runs[0]";
    CHECK_THROWS_MATCHES(finish_profile(std::move(huge)), Error, Message("p.json: runs[0]: a run's time is too large"));
}

TEST_CASE("finish_profile: what no profile may be, each named at its place", "[finish-profile]") {
    const auto fails = [](RawProfile raw, const std::string& message) {
        INFO(message);
        CHECK_THROWS_MATCHES(finish_profile(std::move(raw)), Error, Message(message));
    };
    fails(raw_profile(), "p.csv: the profile has no phases");

    RawProfile raw = raw_profile();
    add(raw, "a", 1, 2);
    add(raw, "", 1, 3);
    fails(std::move(raw), "p.csv:3: phase has an empty name");

    raw = raw_profile();
    add(raw, "a", 1, 2);
    add(raw, "b", 1, 3);
    add(raw, "a", 1, 4);
    fails(std::move(raw), "p.csv:4: duplicate phase name 'a' (also at p.csv:2)");

    raw = raw_profile();
    add(raw, "a", 1, 2);
    add(raw, "bad\x1b[2J", 1, 3);
    add(raw, "bad\x1b[2J", 1, 4);
    fails(std::move(raw), "p.csv:4: duplicate phase name 'bad\\x1B[2J' (also at p.csv:3)");

    raw = raw_profile();
    RawPhase nothing;
    nothing.name = "a";
    nothing.at = 2;
    raw.add(std::move(nothing));
    fails(std::move(raw), "p.csv:2: phase 'a' has neither a time nor a share");

    raw = raw_profile();
    raw.unit = Unit::ns;
    add(raw, "a", 1e300, 2, Unit::h);
    fails(std::move(raw), "p.csv:2: phase 'a': time is too large");

    raw = raw_profile();
    add_share(raw, "a", 0.6, 2);
    add_share(raw, "b", 0.5, 3);
    raw.total = RawTime{100, std::nullopt};
    fails(std::move(raw), "p.csv: shares add up to 110%, more than 100%");

    raw = raw_profile();
    add(raw, "a", 30, 2);
    add_share(raw, "b", 0.5, 3);
    fails(std::move(raw),
          "p.csv: some phases give only a share; give the profile a total (e.g. \"total\": \"100 ms\") so shares "
          "become times");

    raw = raw_profile();
    add(raw, "a", 8, 2);
    add(raw, "b", 4, 3);
    raw.total = RawTime{10, std::nullopt};
    raw.total_where = "p.csv:4";
    fails(std::move(raw), "p.csv:4: phases add up to 12.0 ms, more than the total 10.0 ms");

    raw = raw_profile();
    add(raw, "a", 8, 2);
    add(raw, "b", 4, 3);
    raw.total = RawTime{10, std::nullopt};
    fails(std::move(raw), "p.csv: phases add up to 12.0 ms, more than the total 10.0 ms");

    raw = raw_profile();
    add(raw, "a", 0, 2);
    raw.total = RawTime{0, std::nullopt};
    raw.total_where = "p.csv:3";
    fails(std::move(raw), "p.csv:3: total must be > 0");

    raw = raw_profile();
    add(raw, "a", 0, 2);
    add(raw, "b", 0, 3);
    fails(std::move(raw), "p.csv: the phases add up to zero time; there is nothing to speed up");

    raw = raw_profile();
    add(raw, "a", 1e308, 2);
    add(raw, "b", 1e308, 3);
    fails(std::move(raw), "p.csv: the phases add up to more than a double can hold");

    raw = raw_profile();
    add(raw, "a", 30, 2);
    add(raw, "unattributed", 10, 3);
    raw.total = RawTime{100, std::nullopt};
    fails(std::move(raw), "p.csv: a phase is named 'unattributed', but the total leaves time unattributed too");
}
