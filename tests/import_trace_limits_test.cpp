// Chrome traces shaped to blow up the importer (deep nesting, B/E pairs closed out of order): the
// same answers as for any trace (bench/trace_blowups.sh times them at larger sizes).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "amdahl/io.hpp"
#include "support.hpp"

using namespace amdahl;

namespace {

Profile load_text(const std::string& name, const std::string& text) {
    std::istringstream none;
    return load_profile(test::write_temp(name, text), none, std::nullopt, {});
}

const Phase& phase_named(const Profile& profile, const std::string& name) {
    const auto at = profile.find(name);
    REQUIRE(at);
    return profile.phases[*at];
}

}  // namespace

TEST_CASE("trace limits: deep nesting and B/E pairs closed in the order they opened", "[import][trace][limits]") {
    // 4000 X spans nested on one thread, span i from i to 8000 - i: 2 us of self time each.
    constexpr long n = 4000;
    std::string nested = "[";
    for (long i = 0; i < n; ++i) {
        nested += (i ? ",\n" : "\n") + std::string(R"({"ph": "X", "name": "frame_)") + std::to_string(i % 64) +
                  R"(", "pid": 0, "tid": 1, "ts": )" + std::to_string(i) + R"(, "dur": )" +
                  std::to_string(2 * (n - i)) + "}";
    }
    const Profile deep = load_text("nested.json", nested + "\n]");
    CHECK(deep.phases.size() == 64);
    CHECK(phase_named(deep, "frame_0").time == Approx(2 * (n / 64 + 1)));  // 63 of frame_0, i = 0, 64, ..., 3968
    CHECK(deep.total() == Approx(2 * n));

    // B i at i, E i at n + i: on one thread the latest B runs, so B n-1 runs from n - 1 to 2n - 1.
    std::string crossed = "[";
    for (long i = 0; i < 2 * n; ++i) {
        crossed += (i ? ",\n" : "\n") + std::string(R"({"ph": ")") + (i < n ? "B" : "E") + R"(", "name": "span_)" +
                   std::to_string(i % n) + R"(", "pid": 0, "tid": 1, "ts": )" + std::to_string(i) + "}";
    }
    const Profile pairs = load_text("crossed.json", crossed + "\n]");
    CHECK(pairs.phases.size() == n);
    CHECK(phase_named(pairs, "span_0").time == Approx(1));
    CHECK(phase_named(pairs, "span_" + std::to_string(n - 1)).time == Approx(n));
    CHECK(pairs.total() == Approx(2 * n - 1));
}

TEST_CASE("trace limits: an E without its B after 80,000 B/E events is located exactly", "[import][trace][limits]") {
    // About 4 MB: the reader's 1 MB chunks are dropped and refilled on the way, while it keeps the
    // line and column of every B and E.
    constexpr long n = 40000;
    std::string lines = "[";
    std::string one_line = "[";
    for (long i = 0; i < 2 * n; ++i) {
        const std::string event = std::string(R"({"ph": ")") + (i < n ? "B" : "E") + R"(", "name": "span_)" +
                                  std::to_string(i < n ? i : 2 * n - 1 - i) + R"(", "pid": 0, "tid": 1, "ts": )" +
                                  std::to_string(i) + "}";
        lines += (i ? ",\n " : "\n ") + event;
        one_line += (i ? ", " : "") + event;
    }
    const std::string orphan = R"({"ph": "E", "name": "orphan", "pid": 0, "tid": 1, "ts": 1})";
    const std::string message = R"(: an "E" event for 'orphan' has no matching "B" event before it on its thread)";
    for (const auto& [text, where] :
         {std::pair{lines + ",\n " + orphan + "\n]", std::string(":80002:2")},
          std::pair{one_line + ", " + orphan + "]", ":1:" + std::to_string(one_line.size() + 3)}}) {
        const std::string path = test::write_temp("orphan.json", text);
        const auto r = test::run_cli({"eval", path});
        CHECK(r.exit_code == 2);
        CHECK(r.err == "error: " + path + where + message + "\n");
    }
}
