// Chrome traces shaped to blow up the importer (thousands of streams running at once, deep
// nesting, B/E pairs closed out of order): the same answers as for any trace, and a profile whose
// size stays linear in the trace's (bench/trace_blowups.sh times them at larger sizes).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "amdahl/io.hpp"
#include "report/numbers.hpp"
#include "support.hpp"

using namespace amdahl;

namespace {

Profile load(const std::string& path) {
    std::istringstream none;
    return load_profile(path, none, std::nullopt, {});
}

Profile load_text(const std::string& name, const std::string& text) { return load(test::write_temp(name, text)); }

const Phase& phase_named(const Profile& profile, const std::string& name) {
    const auto at = profile.find(name);
    REQUIRE(at);
    return profile.phases[*at];
}

// Kernel i on stream i from starts[i] to `end`: every kernel started so far runs at once.
std::string staggered_trace(const std::vector<long>& starts, long end) {
    std::string json = "[";
    for (std::size_t i = 0; i < starts.size(); ++i) {
        json += (i ? ",\n" : "\n") + std::string(R"({"ph": "X", "cat": "kernel", "name": "kernel_)") +
                std::to_string(i) + R"(", "pid": 0, "tid": )" + std::to_string(i) + R"(, "ts": )" +
                std::to_string(starts[i]) + R"(, "dur": )" + std::to_string(end - starts[i]) + "}";
    }
    return json + "\n]";
}

std::vector<std::string> kernels(std::size_t count) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < count; ++i) names.push_back("kernel_" + std::to_string(i));
    return names;
}

}  // namespace

TEST_CASE("trace limits: n staggered streams list the longest overlap sets, not all n of them",
          "[import][trace][limits]") {
    // Kernel i starts at i us and all run to n us: between i and i + 1, kernels 0..i run at once,
    // a different set of i + 1 phases each microsecond (n - 1 sets holding n^2 / 2 names in all).
    constexpr long n = 2000;
    std::vector<long> starts;
    for (long i = 0; i < n; ++i) starts.push_back(i);
    const std::string trace = staggered_trace(starts, n);
    const std::string path = test::write_temp("staggered.json", trace);
    const Profile profile = load(path);

    CHECK(phase_named(profile, "kernel_0").time == Approx(1));
    CHECK(phase_named(profile, "overlapped").time == Approx(n - 1));
    for (long i : {0L, 1L, 17L, 1000L, n - 1}) {
        INFO("kernel_" << i);
        CHECK(phase_named(profile, "kernel_" + std::to_string(i)).active_time.value_or(-1) == Approx(n - i));
    }
    // All sets ran 1 us: the first ones seen are listed, up to 4096 names (2 + 3 + ... + 90).
    REQUIRE(profile.overlaps.size() == 89);
    for (std::size_t k = 0; k < profile.overlaps.size(); ++k) {
        INFO("set " << k);
        CHECK(profile.overlaps[k].phases == kernels(k + 2));
        CHECK(profile.overlaps[k].time == Approx(1));
    }
    CHECK(profile.notes.back() ==
          path +
              ": phases ran at once in 1999 different sets; the profile's overlaps list the 89 that ran "
              "longest (at most 100 sets, 4096 phase names in all) and leave out 1910 that ran for 1,910.0 us");

    // The import is linear in the trace: about 40 bytes a phase, plus the listed sets.
    const auto imported = test::run_cli({"import", path});
    REQUIRE(imported.exit_code == 0);
    CHECK(imported.out.size() < 3 * trace.size());
}

TEST_CASE("trace limits: the longest overlap sets are listed even when they came last and large",
          "[import][trace][limits]") {
    // Kernel i starts at i^2 us, so each set runs longer than the one before; the last four sets
    // (of 1000, 999, 998 and 997 phases) are the longest and fit in 4096 names.
    constexpr long n = 1000;
    std::vector<long> starts;
    for (long i = 0; i < n; ++i) starts.push_back(i * i);
    const long end = (n - 1) * (n - 1) + 2 * n;
    const std::string path = test::write_temp("late.json", staggered_trace(starts, end));
    const Profile profile = load(path);
    REQUIRE(profile.overlaps.size() == 4);
    CHECK(profile.overlaps[0].phases == kernels(n));
    CHECK(profile.overlaps[0].time == Approx(2 * n));  // from (n-1)^2 to the end
    for (std::size_t k = 1; k < 4; ++k) {
        INFO("set " << k);
        const long last = n - static_cast<long>(k);  // kernels 0..last-1 run from (last-1)^2 to last^2
        CHECK(profile.overlaps[k].phases == kernels(static_cast<std::size_t>(last)));
        CHECK(profile.overlaps[k].time == Approx(2 * last - 1));
    }
    CHECK(phase_named(profile, "overlapped").time == Approx(end - 1));
    CHECK(profile.notes.back() ==
          path +
              ": phases ran at once in 999 different sets; the profile's overlaps list the 4 that ran "
              "longest (at most 100 sets, 4096 phase names in all) and leave out 995 that ran for " +
              format_duration(static_cast<double>(end - 1 - 2 * n - 1997 - 1995 - 1993), Unit::us));
}

TEST_CASE("trace limits: a set of more phases than the overlaps list leaves them empty, and a note says why",
          "[import][trace][limits]") {
    // 5000 kernels on 5000 streams, all from 0 to 10 us: one set of 5000 phases.
    const std::string path = test::write_temp("wide.json", staggered_trace(std::vector<long>(5000, 0), 10));
    const Profile profile = load(path);
    CHECK(phase_named(profile, "overlapped").time == Approx(10));
    CHECK(phase_named(profile, "kernel_4999").active_time.value_or(-1) == Approx(10));
    CHECK(profile.overlaps.empty());
    CHECK(profile.notes.back() ==
          path +
              ": phases ran at once in one set; the profile's overlaps list none: the longest-running set has "
              "5000 phases, more than the 4096 phase names they list in all");
}

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
