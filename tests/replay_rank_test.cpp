// The flat replay rank and plan use (detail::replayed_makespan, src/analysis/replay_rank.cpp):
// the same figures as the full replay to the last bit, and the same whatever the number of
// workers. Doubles are compared with == on purpose: the claim is bit-for-bit identity.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "amdahl/candidate.hpp"
#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/replay.hpp"
#include "analysis/replay.hpp"
#include "support.hpp"

using namespace amdahl;

namespace {

const char* const samples[] = {"tests/data/profilers/pytorch-chrome-trace/hta_base.json",
                               "tests/data/profilers/pytorch-chrome-trace/hta_mi250_minitoy_train_ROCm6_2_kineto.json",
                               "tests/data/profilers/pytorch-chrome-trace/hta_cuda_event_sync_multi_stream.json",
                               "tests/data/profilers/chrome-trace-generic/speedscope_multiprocess.json",
                               "tests/data/profilers/handmade/replay_sim_3steps.json"};

Profile load_trace(const std::string& sample, const std::string& window = "") {
    ImportOptions options;
    options.dependencies = true;
    options.lane = Lane::all;
    options.window = window;
    std::istringstream none;
    return load_profile(test::source_path(sample), none, std::nullopt, options);
}

// The phases' candidates, each at `factor` (every phase the sweep made, events or not).
std::vector<Candidate> every_phase(const Profile& profile, double factor) {
    return phase_candidates(profile, {}, Factor{factor});
}

void check_same(const ReplayedCandidates& a, const ReplayedCandidates& b, const std::vector<Candidate>& ca,
                const std::vector<Candidate>& cb) {
    CHECK(a.baseline == b.baseline);
    CHECK(a.ceiling == b.ceiling);
    CHECK(a.grid == b.grid);
    CHECK(a.on_critical_path == b.on_critical_path);
    REQUIRE(ca.size() == cb.size());
    for (std::size_t c = 0; c < ca.size(); ++c) CHECK(ca[c].saved == cb[c].saved);
}

}  // namespace

TEST_CASE("replay: the flat replay's makespan is the full replay's, to the bit", "[replay][rank-speed]") {
    for (const char* sample : samples) {
        INFO(sample);
        const Profile profile = load_trace(sample);
        REQUIRE(profile.dependencies);
        const detail::ReplayGraph& graph = profile.dependencies->graph;
        const detail::PreparedReplay prepared = detail::prepare_replay(graph);
        std::vector<double> shift;
        std::mt19937 random(11);
        std::uniform_real_distribution<double> factor(1, 20);
        for (int round = 0; round < 30; ++round) {
            std::vector<double> factors(profile.dependencies->phase_names.size(), 1.0);
            if (round > 0)
                for (double& f : factors)
                    f = random() % 3 != 0   ? 1.0
                        : random() % 4 == 0 ? std::numeric_limits<double>::infinity()
                                            : factor(random);
            const detail::ReplayResult full = detail::replay(graph, factors);
            CHECK(detail::replayed_makespan(prepared, graph, factors, shift) == full.after);
            CHECK(prepared.before == full.before);
            REQUIRE(shift.size() == 2 * graph.events.size());
            for (std::uint32_t v = 0; v < graph.events.size(); ++v) {
                const std::uint32_t i = prepared.position[v];
                CHECK(prepared.start[i] + shift[2 * i] == full.start[v]);
                CHECK(prepared.end[i] + shift[2 * i + 1] == full.end[v]);
            }
        }
    }
}

TEST_CASE("replay: rank's replays are the same on one worker and on two", "[replay][rank-speed]") {
    const std::vector<double> grid = {1.5, 4, std::numeric_limits<double>::infinity()};
    std::size_t windowed = 0;  // samples with steps, replayed through their steps' spans
    for (const char* sample : samples) {
        for (const std::string window : {"", "ProfilerStep*"}) {
            INFO(sample << " window '" << window << "'");
            Profile profile;
            try {
                profile = load_trace(sample, window);
            } catch (const Error&) {
                continue;  // a sample with no steps to window
            }
            if (!window.empty()) ++windowed;
            std::vector<Candidate> one = every_phase(profile, 2), two = one, three = one;
            REQUIRE(one.size() > 1);
            const ReplayedCandidates by_one = replay_candidates(profile, one, grid, 1);
            const ReplayedCandidates by_two = replay_candidates(profile, two, grid, 2);
            const ReplayedCandidates by_three = replay_candidates(profile, three, grid, 3);
            check_same(by_one, by_two, one, two);
            check_same(by_one, by_three, one, three);
            // And each is the full replay's answer (the path eval takes: busy times asked for).
            const std::vector<bool> moves = phases_with_events(profile);
            for (std::size_t c = 0; c < one.size(); ++c) {
                INFO(one[c].name);
                std::vector<double> factors(profile.phases.size(), 1.0);
                for (std::size_t p : one[c].phases) factors[p] = 2;
                const ReplayOutcome full = replay_phases(profile, factors, false, nullptr, true);
                CHECK(one[c].saved == (moves[one[c].phases[0]] ? full.before - full.after : 0.0));
                CHECK(by_one.baseline == full.before);
            }
        }
    }
    CHECK(windowed > 0);
}

TEST_CASE("replay: a worker's error reaches the caller", "[replay][rank-speed]") {
    const Profile profile = load_trace("tests/data/profilers/handmade/replay_sim_3steps.json");
    std::vector<Candidate> candidates = every_phase(profile, 2);
    candidates.back().factor = -1;  // the command line never lets one through: the library refuses it
    const std::vector<bool> moves = phases_with_events(profile);
    REQUIRE(moves[candidates.back().phases[0]]);
    try {
        replay_candidates(profile, candidates, {}, 2);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.message() == "its phase's factor must be > 0");
        CHECK_THAT(e.location(), Catch::Matchers::StartsWith("replay: event "));
    }
}

TEST_CASE("replay: rank replays each distinct factor once, and factor 1 not at all, with the same figures",
          "[replay][rank-speed]") {
    const Profile profile = load_trace("tests/data/profilers/handmade/replay_sim_3steps.json");
    // -k 2 with --grid 1,2,4,inf: the grid's 2 and inf are the factor's and the ceiling's replays,
    // and its 1 the recorded trace.
    const std::vector<double> grid = {1, 2, 4, std::numeric_limits<double>::infinity()};
    std::vector<Candidate> candidates = every_phase(profile, 2);
    const ReplayedCandidates ranked = replay_candidates(profile, candidates, grid, 2);
    const std::vector<bool> moves = phases_with_events(profile);
    std::size_t replayed = 0;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        INFO(candidates[c].name);
        if (!moves[candidates[c].phases[0]]) continue;
        ++replayed;
        const auto speedup_at = [&](double k) {
            std::vector<double> factors(profile.phases.size(), 1.0);
            for (std::size_t p : candidates[c].phases) factors[p] = k;
            return replay_phases(profile, factors, false, nullptr, false).speedup;
        };
        REQUIRE(ranked.grid[c].size() == grid.size());
        for (std::size_t g = 0; g < grid.size(); ++g) CHECK(ranked.grid[c][g] == speedup_at(grid[g]));
        CHECK(ranked.grid[c][0] == 1.0);
        CHECK(ranked.ceiling[c] == speedup_at(std::numeric_limits<double>::infinity()));
    }
    CHECK(replayed > 2);
}
