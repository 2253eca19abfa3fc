// `plan --model replay` (include/amdahl/replay.hpp): the cheapest set of candidates whose joint
// replay reaches the target. Sets are enumerated in order of cost with a heap: from a set whose
// last member (in the order of cost) is i come the set plus i+1 and the set with i+1 in place of
// i, so every set appears once, none before a cheaper one. A set is replayed only when the time
// its events lose could reach the target: the replay saves at most that (each path through the
// trace loses at most the time its events lose).
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <unordered_map>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/replay.hpp"
#include "analysis/replay.hpp"

namespace amdahl {

namespace {

constexpr std::size_t max_sets = 1'000'000;

struct Set {
    double cost = 0, bound = 0;
    std::vector<std::uint32_t> members;  // positions in the search order, ascending
};

struct Cheaper {
    bool operator()(const Set& a, const Set& b) const {  // true: `a` comes after `b`
        if (a.cost != b.cost) return a.cost > b.cost;
        if (a.bound != b.bound) return a.bound < b.bound;
        return a.members > b.members;
    }
};

}  // namespace

ReplayedPlan plan_replayed(const Profile& profile, std::vector<Candidate>& candidates, const PlanRequest& request) {
    const std::vector<double> ones(profile.phases.size(), 1.0);
    ReplayedPlan out;
    out.baseline = replay_phases(profile, ones, false, nullptr, false).before;
    const auto replayed_time = [&](const std::vector<std::size_t>& chosen, bool at_infinity = false) {
        std::vector<double> factors = ones;
        for (std::size_t c : chosen)
            for (std::size_t p : candidates[c].phases)
                factors[p] = at_infinity ? std::numeric_limits<double>::infinity() : candidates[c].factor;
        return replay_phases(profile, factors, false, nullptr, false).after;
    };

    // Each phase's events' time, and so what a candidate's events lose: sum of d - d / k.
    const Dependencies& deps = *profile.dependencies;
    std::unordered_map<std::string_view, std::size_t> phase_index;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) phase_index.emplace(profile.phases[i].name, i);
    std::vector<double> self(profile.phases.size(), 0.0);
    for (const detail::ReplayEvent& event : deps.graph.events) {
        if (event.phase >= deps.phase_names.size()) continue;
        const auto found = phase_index.find(deps.phase_names[event.phase]);
        if (found != phase_index.end())
            self[found->second] += convert(event.end - event.start, deps.unit, profile.unit);
    }
    std::vector<double> loses(candidates.size(), 0.0);
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        const double k = candidates[c].factor;
        for (std::size_t p : candidates[c].phases) loses[c] += saving_at_factor(self[p], k);
    }
    // The candidates that can help (faster, with events), cheapest first, the most promising
    // first among equals.
    const auto cost_of = [&](std::size_t c) { return request.by_effort ? candidates[c].effort.value_or(0) : 1.0; };
    std::vector<std::size_t> order;
    for (std::size_t c = 0; c < candidates.size(); ++c)
        if (candidates[c].factor > 1 && loses[c] > 0) order.push_back(c);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return cost_of(a) != cost_of(b) ? cost_of(a) < cost_of(b) : loses[a] > loses[b];
    });
    // Candidates sharing a phase are alternatives: a set holds at most one of them.
    // Found per phase, so that thousands of disjoint candidates cost no pairwise comparison.
    std::vector<std::vector<std::uint32_t>> rivals(order.size());  // per position: its alternatives
    {
        std::unordered_map<std::size_t, std::vector<std::uint32_t>> on_phase;
        for (std::uint32_t i = 0; i < order.size(); ++i)
            for (std::size_t p : candidates[order[i]].phases) on_phase[p].push_back(i);
        for (const auto& [phase, holders] : on_phase)
            for (std::uint32_t a : holders)
                for (std::uint32_t b : holders)
                    if (a != b) rivals[a].push_back(b);
        for (auto& list : rivals) {
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
        }
    }
    const auto conflict = [&](std::uint32_t a, std::uint32_t b) {
        return std::binary_search(rivals[a].begin(), rivals[a].end(), b);
    };

    // Best possible: every candidate at its factor, of alternatives the one whose events lose most.
    std::vector<std::size_t> best_set;
    for (std::size_t i = 0; i < order.size(); ++i) {
        bool beaten = false;
        for (std::uint32_t j : rivals[i])
            beaten = beaten || loses[order[j]] > loses[order[i]] || (loses[order[j]] == loses[order[i]] && j < i);
        if (!beaten) best_set.push_back(order[i]);
    }
    std::vector<std::size_t> all(candidates.size());
    for (std::size_t c = 0; c < all.size(); ++c) all[c] = c;
    const double best_time = replayed_time(best_set);
    out.best_possible = best_time > 0 ? out.baseline / best_time : std::numeric_limits<double>::infinity();
    const double floor_time = replayed_time(all, true);
    out.ceiling = floor_time > 0 ? out.baseline / floor_time : std::numeric_limits<double>::infinity();
    out.plan.best_possible_saved = out.baseline - best_time;

    // A replay costs time linear in the events: the budget keeps the search within seconds.
    const std::size_t events = std::max<std::size_t>(deps.graph.events.size(), 1);
    out.max_replays = std::clamp<std::size_t>(50'000'000 / events, 20, 5000);
    const double needed = out.baseline - request.target_time;
    PlanResult& plan = out.plan;
    plan.proven_optimal = true;
    if (needed <= 0) {
        plan.reachable = true;
        return out;
    }
    const auto reaches = [&](double saved) { return out.baseline - saved <= request.target_time * (1 + 1e-12); };
    const auto cost_sum = [&](const std::vector<std::size_t>& set) {
        double cost = 0;
        for (std::size_t c : set) cost += cost_of(c);
        return cost;
    };
    // A lower bound on the cost of any plan, from the time events lose alone (no replay): the
    // cheapest way to lose `needed`, a candidate's loss taken in part where it must be (the
    // fractional knapsack; by count, the fewest candidates whose losses add up to it).
    double relaxed = 0;
    {
        std::vector<std::size_t> by_value = order;
        std::stable_sort(by_value.begin(), by_value.end(), [&](std::size_t a, std::size_t b) {
            return loses[a] * cost_of(b) > loses[b] * cost_of(a);  // loss per unit of cost, highest first
        });
        double lost = 0;
        for (std::size_t c : by_value) {
            if (lost + loses[c] >= needed) {
                relaxed += request.by_effort ? cost_of(c) * (needed - lost) / loses[c] : 1.0;
                lost = needed;
                break;
            }
            lost += loses[c];
            relaxed += cost_of(c);
        }
        if (lost < needed) relaxed = std::numeric_limits<double>::infinity();
    }
    bool found = false;
    double best_saved = 0;
    const auto take = [&](const std::vector<std::size_t>& chosen, double cost, double saved) {
        if (!found || cost < plan.cost * (1 - 1e-12)) {
            plan.alternatives.clear();
            plan.chosen = chosen;
            best_saved = saved;
        } else if (saved > best_saved) {
            plan.alternatives.insert(plan.alternatives.begin(), plan.chosen);
            plan.chosen = chosen;
            best_saved = saved;
        } else {
            plan.alternatives.push_back(chosen);
        }
        found = true;
        plan.cost = cost;
    };
    // A first plan, so that a search that runs out of budget still answers: the shortest prefix of
    // the best-possible set (by loss, largest first) that reaches, found by bisection (a replay
    // never gets slower with more speedups).
    const bool clashes = std::any_of(rivals.begin(), rivals.end(), [](const auto& list) { return !list.empty(); });
    std::vector<std::size_t> first_plan;  // sorted, as the search's sets are compared with it
    if (reaches(out.baseline - best_time)) {
        std::vector<std::size_t> ranked = best_set;
        std::stable_sort(ranked.begin(), ranked.end(),
                         [&](std::size_t a, std::size_t b) { return loses[a] > loses[b]; });
        std::size_t low = 1, high = ranked.size();
        while (low < high) {
            const std::size_t mid = (low + high) / 2;
            ++plan.nodes;
            if (reaches(out.baseline -
                        replayed_time({ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(mid)})))
                high = mid;
            else
                low = mid + 1;
        }
        const std::vector<std::size_t> first(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(low));
        ++plan.nodes;
        take(first, cost_sum(first), out.baseline - replayed_time(first));
        first_plan = first;
        std::sort(first_plan.begin(), first_plan.end());
    } else if (!clashes) {
        return out;  // every candidate together does not reach it, and no set does more: unreachable, proven
    }
    std::priority_queue<Set, std::vector<Set>, Cheaper> heap;
    if (!order.empty()) heap.push(Set{cost_of(order[0]), loses[order[0]], {0}});
    bool exhausted = true;
    while (!heap.empty()) {
        const Set set = heap.top();
        if (found && set.cost > plan.cost * (1 + 1e-12)) break;  // every set of the answer's cost is done
        if (out.sets >= max_sets || plan.nodes >= out.max_replays) {
            exhausted = false;
            plan.lower_bound = std::max(set.cost, relaxed);
            break;
        }
        heap.pop();
        ++out.sets;
        const std::uint32_t last = set.members.back();
        if (last + 1 < order.size()) {
            const std::size_t next = order[last + 1];
            Set grown = set;
            grown.members.push_back(last + 1);
            grown.cost += cost_of(next);
            grown.bound += loses[next];
            heap.push(std::move(grown));
            Set moved = set;
            moved.members.back() = last + 1;
            moved.cost += cost_of(next) - cost_of(order[last]);
            moved.bound += loses[next] - loses[order[last]];
            heap.push(std::move(moved));
        }
        if (set.cost < relaxed * (1 - 1e-12)) continue;  // too cheap to lose enough
        bool clash = false;
        for (std::size_t a = 0; a < set.members.size() && !clash; ++a)
            for (std::size_t b = a + 1; b < set.members.size() && !clash; ++b)
                clash = conflict(set.members[a], set.members[b]);
        if (clash || !reaches(set.bound)) continue;
        std::vector<std::size_t> chosen;
        for (std::uint32_t m : set.members) chosen.push_back(order[m]);
        std::sort(chosen.begin(), chosen.end());
        if (chosen == first_plan) continue;  // already replayed
        ++plan.nodes;
        const double saved = out.baseline - replayed_time(chosen);
        if (reaches(saved)) take(chosen, set.cost, saved);
    }
    // Proven when every cheaper set was tried, or the bound from losses alone meets the answer.
    plan.proven_optimal = exhausted || (found && plan.lower_bound >= plan.cost * (1 - 1e-9));
    if (plan.alternatives.size() > request.max_alternatives) plan.alternatives.resize(request.max_alternatives);
    plan.reachable = found;
    if (!found) return out;
    plan.saved = best_saved;
    if (plan.proven_optimal) plan.lower_bound = plan.cost;
    // The chosen candidates, largest saving alone first; each step's saving is what it adds to the
    // steps before it (replayed savings do not add up).
    std::vector<double> alone(candidates.size(), 0.0);
    for (std::size_t c : plan.chosen) alone[c] = out.baseline - replayed_time({c});
    std::stable_sort(plan.chosen.begin(), plan.chosen.end(),
                     [&](std::size_t a, std::size_t b) { return alone[a] > alone[b]; });
    std::vector<std::size_t> prefix;
    double previous = out.baseline;
    for (std::size_t c : plan.chosen) {
        prefix.push_back(c);
        const double time = prefix.size() == plan.chosen.size() ? out.baseline - plan.saved : replayed_time(prefix);
        candidates[c].saved = previous - time;
        previous = time;
        out.steps.push_back(
            PlanStep{c, time, time > 0 ? out.baseline / time : std::numeric_limits<double>::infinity()});
    }
    return out;
}

}  // namespace amdahl
