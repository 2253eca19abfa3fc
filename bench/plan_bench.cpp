// Planner benchmark: 10,000 phases at uniform cost (minimum count), and 40 proposals with random
// efforts (minimum total effort), each at several targets. Prints median wall time per plan.
//
// plan_bench PROFILE TARGET [count|effort] [NODE_BUDGET...]: plans PROFILE's proposals (as
// `amdahl plan PROFILE --target TARGET --by ...`) once per budget (default: the default budget),
// printing wall time, nodes, the proven lower bound, the gap and peak RSS. For sizing the budget:
// bench/gen_hostile.py writes such profiles.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/plan.hpp"

using namespace amdahl;

namespace {

Candidate make(std::size_t phase, double time, double factor, std::optional<double> effort) {
    Candidate c;
    c.name = "c" + std::to_string(phase);
    c.phases = {phase};
    c.time = time;
    c.factor = factor;
    c.effort = effort;
    c.saved = time - time / factor;
    return c;
}

template <class F>
double median_ms(F&& f, int runs) {
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

int plan_profile(int argc, char** argv) {
    const Profile profile = load_profile(argv[1], std::cin);
    std::vector<Proposal> proposals = profile_proposals(profile);
    const std::vector<Candidate> candidates = proposal_candidates(profile, proposals);
    PlanRequest request;
    request.baseline = profile.total();
    request.target_time = request.baseline / std::stod(argv[2]);
    request.by_effort = argc > 3 && std::string(argv[3]) == "effort";
    std::vector<std::size_t> budgets;
    for (int i = 4; i < argc; ++i) budgets.push_back(std::stoul(argv[i]));
    if (budgets.empty()) budgets.push_back(request.node_limit);
    std::printf("%s: %zu proposals, target %s, by %s\n", argv[1], candidates.size(), argv[2],
                request.by_effort ? "effort" : "count");
    std::printf("%12s %10s %12s %14s %14s %12s %8s %12s\n", "budget", "ms", "nodes", "cost", "lower bound", "gap",
                "optimal", "peak RSS KB");
    for (std::size_t budget : budgets) {
        request.node_limit = budget;
        PlanResult result;
        const double ms = median_ms([&] { result = plan(candidates, request); }, 1);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("%12zu %10.1f %12zu %14.6g %14.6g %12.6g %8s %12ld\n", budget, ms, result.nodes, result.cost,
                    result.lower_bound, result.cost - result.lower_bound, result.proven_optimal ? "yes" : "no",
                    usage.ru_maxrss);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 2) {
        try {
            return plan_profile(argc, argv);
        } catch (const Error& e) {
            std::fprintf(stderr, "error: %s\n", e.what());
            return 2;
        }
    }
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> time(0.1, 10.0), effort(0.5, 10.0);

    std::vector<Candidate> phases;
    double baseline = 0;
    for (std::size_t i = 0; i < 10'000; ++i) {
        phases.push_back(make(i, time(rng), 10, std::nullopt));
        baseline += phases.back().time;
    }
    std::printf("%-44s %10s %8s %10s %8s\n", "instance", "median ms", "chosen", "nodes", "optimal");
    for (double target : {1.5, 3.0, 8.0}) {
        PlanRequest request{baseline, baseline / target};
        PlanResult result;
        const double ms = median_ms([&] { result = plan(phases, request); }, 5);
        std::printf("10,000 phases, count, target %-15.1f %10.2f %8zu %10zu %8s\n", target, ms, result.chosen.size(),
                    result.nodes, result.proven_optimal ? "yes" : "no");
    }

    std::vector<Candidate> proposals;
    double total = 0;
    for (std::size_t i = 0; i < 40; ++i) {
        const double factors[] = {1.5, 2, 4, 10};
        proposals.push_back(make(i, time(rng), factors[i % 4], std::round(effort(rng) * 2) / 2));
        total += proposals.back().time;
    }
    for (double target : {1.2, 1.5, 2.0, 3.0}) {
        PlanRequest request{total, total / target, true};
        PlanResult result;
        const double ms = median_ms([&] { result = plan(proposals, request); }, 5);
        std::printf("40 proposals, effort, target %-16.1f %10.2f %8zu %10zu %8s\n", target, ms, result.chosen.size(),
                    result.nodes, result.proven_optimal ? "yes" : "no");
    }
    // Efforts with arbitrary decimals: no rounding of the bound helps; the hardest case here.
    for (auto& c : proposals) c.effort = effort(rng);
    for (double target : {1.2, 1.5, 2.0}) {
        PlanRequest request{total, total / target, true};
        PlanResult result;
        const double ms = median_ms([&] { result = plan(proposals, request); }, 5);
        std::printf("40 proposals, continuous effort, target %-5.1f %10.2f %8zu %10zu %8s\n", target, ms,
                    result.chosen.size(), result.nodes, result.proven_optimal ? "yes" : "no");
    }
    return 0;
}
