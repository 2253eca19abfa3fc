// `rank --model replay` (include/amdahl/replay.hpp): each candidate alone, replayed at its factor,
// at infinity and at each grid factor. The replays are independent, so workers take them in turn,
// each replay writing its own slot: the answer is the same whatever the number of workers.
#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <vector>

#include "amdahl/replay.hpp"

namespace amdahl {

namespace {

// Runs `job(0)` to `job(count - 1)` on `workers` threads (this one among them), each index once.
// The first exception (by worker) is rethrown once every worker is done.
template <class Job>
void run_jobs(std::size_t count, unsigned workers, const Job& job) {
    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> failures(workers);
    const auto work = [&](unsigned w) {
        try {
            for (std::size_t i = next++; i < count; i = next++) job(i);
        } catch (...) {
            failures[w] = std::current_exception();
            next = count;  // the others stop at their next job
        }
    };
    std::vector<std::thread> others;
    for (unsigned w = 1; w < workers; ++w) others.emplace_back(work, w);
    work(0);
    for (std::thread& other : others) other.join();
    for (const std::exception_ptr& failure : failures)
        if (failure) std::rethrow_exception(failure);
}

}  // namespace

ReplayedCandidates replay_candidates(const Profile& profile, std::vector<Candidate>& candidates,
                                     const std::vector<double>& grid, unsigned threads) {
    ReplayedCandidates out;
    const std::vector<double> ones(profile.phases.size(), 1.0);
    const ReplayOutcome recorded = replay_phases(profile, ones, true, nullptr, false);
    out.baseline = recorded.before;
    std::unordered_set<std::string_view> on_path;
    for (const PathShare& share : recorded.path_before)
        if (share.phase) on_path.insert(share.name);

    // The replays to make: per candidate with an event to move, its factor, infinity, then the
    // grid, each distinct factor once (-k 2 --grid 2,inf replays 2 and inf once each); factor 1
    // is the recorded trace, replayed already. A target with no event to move (annotations, time
    // the sweep adds) gains nothing: no replay needed, so that many such targets cost nothing.
    const std::vector<bool> moves = phases_with_events(profile);
    struct Job {
        std::size_t candidate;
        double factor;
    };
    std::vector<Job> jobs;
    std::vector<std::vector<std::size_t>> job_of(candidates.size());  // per candidate and slot
    constexpr std::size_t as_recorded = std::numeric_limits<std::size_t>::max();
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        const std::vector<std::size_t>& phases = candidates[c].phases;
        if (std::none_of(phases.begin(), phases.end(), [&](std::size_t p) { return moves[p]; })) continue;
        const std::size_t first = jobs.size();
        std::vector<double> slots = {candidates[c].factor, std::numeric_limits<double>::infinity()};
        slots.insert(slots.end(), grid.begin(), grid.end());
        for (const double k : slots) {
            if (k == 1) {
                job_of[c].push_back(as_recorded);
                continue;
            }
            std::size_t j = first;
            while (j < jobs.size() && jobs[j].factor != k) ++j;
            if (j == jobs.size()) jobs.push_back({c, k});
            job_of[c].push_back(j);
        }
    }
    std::vector<ReplayOutcome> outcomes(jobs.size());
    const auto replay_one = [&](std::size_t j) {
        std::vector<double> factors = ones;
        for (std::size_t p : candidates[jobs[j].candidate].phases) factors[p] = jobs[j].factor;
        outcomes[j] = replay_phases(profile, factors, false, nullptr, false);
    };
    // Two workers by default: this is tuned on a two-core machine, and each worker keeps scratch
    // of 16 bytes per event.
    const unsigned workers = std::max(1u, threads > 0 ? threads : std::min(2u, std::thread::hardware_concurrency()));
    run_jobs(jobs.size(), static_cast<unsigned>(std::min<std::size_t>(workers, jobs.size())), replay_one);

    for (std::size_t c = 0; c < candidates.size(); ++c) {
        Candidate& candidate = candidates[c];
        if (job_of[c].empty()) {
            candidate.saved = 0;
            candidate.outside = std::numeric_limits<double>::quiet_NaN();
            out.ceiling.push_back(1);
            out.grid.emplace_back(grid.size(), 1.0);
            out.on_critical_path.push_back(false);
            continue;
        }
        const auto at = [&](std::size_t slot) -> const ReplayOutcome& {
            return job_of[c][slot] == as_recorded ? recorded : outcomes[job_of[c][slot]];
        };
        candidate.saved = at(0).before - at(0).after;
        candidate.outside = std::numeric_limits<double>::quiet_NaN();  // a replayed saving: no phase sum
        out.ceiling.push_back(at(1).speedup);
        std::vector<double> at_grid;
        for (std::size_t g = 0; g < grid.size(); ++g) at_grid.push_back(at(2 + g).speedup);
        out.grid.push_back(std::move(at_grid));
        bool path = false;
        for (std::size_t p : candidate.phases) path = path || on_path.count(profile.phases[p].name) > 0;
        out.on_critical_path.push_back(path);
    }
    return out;
}

}  // namespace amdahl
