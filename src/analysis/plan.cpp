#include "amdahl/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"

namespace amdahl {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr std::size_t max_overlapping = 12;

// One way to use a group of overlapping candidates: a set of them that share no phase.
struct Option {
    std::vector<std::size_t> members;
    double cost = 0;
    double saved = 0;
    double ratio() const { return cost > 0 ? saved / cost : infinity; }
};

// Candidates that overlap (transitively) form a group; a plan picks at most one option per group.
struct Group {
    std::vector<Option> options;  // largest saving first
    double best_ratio = 0;
};

std::vector<Group> make_groups(const std::vector<Candidate>& candidates, bool by_effort) {
    // Union-find over candidates that share a phase.
    std::vector<std::size_t> parent(candidates.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    const auto find = [&](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    std::vector<std::size_t> owner_of_phase;
    std::vector<std::size_t> owner_index;
    {
        std::vector<std::pair<std::size_t, std::size_t>> uses;  // (phase, candidate)
        for (std::size_t c = 0; c < candidates.size(); ++c)
            for (std::size_t p : candidates[c].phases) uses.emplace_back(p, c);
        std::sort(uses.begin(), uses.end());
        for (std::size_t i = 1; i < uses.size(); ++i)
            if (uses[i].first == uses[i - 1].first) parent[find(uses[i].second)] = find(uses[i - 1].second);
    }
    std::vector<std::vector<std::size_t>> members(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) members[find(c)].push_back(c);

    const auto cost_of = [&](std::size_t c) { return by_effort ? *candidates[c].effort : 1.0; };
    const auto overlap = [&](std::size_t a, std::size_t b) {
        for (std::size_t p : candidates[a].phases)
            if (std::find(candidates[b].phases.begin(), candidates[b].phases.end(), p) != candidates[b].phases.end())
                return true;
        return false;
    };
    std::vector<Group> groups;
    for (const auto& group_members : members) {
        if (group_members.empty()) continue;
        if (group_members.size() > max_overlapping) {
            throw Error(std::to_string(group_members.size()) +
                        " proposals overlap on the same phases (starting with '" + candidates[group_members[0]].name +
                        "'); amdahl plans at most " + std::to_string(max_overlapping) +
                        " overlapping alternatives together");
        }
        Group group;
        const std::size_t n = group_members.size();
        // Every non-empty subset whose members share no phase.
        for (std::size_t mask = 1; mask < (std::size_t{1} << n); ++mask) {
            Option option;
            bool ok = true;
            Summation cost, saved;
            for (std::size_t i = 0; i < n && ok; ++i) {
                if (!(mask >> i & 1)) continue;
                for (std::size_t m : option.members) ok = ok && !overlap(m, group_members[i]);
                option.members.push_back(group_members[i]);
                cost.add(cost_of(group_members[i]));
                saved.add(candidates[group_members[i]].saved);
            }
            if (!ok) continue;
            option.cost = cost.value();
            option.saved = saved.value();
            group.options.push_back(std::move(option));
        }
        std::stable_sort(group.options.begin(), group.options.end(),
                         [](const Option& a, const Option& b) { return a.saved > b.saved; });
        for (const auto& option : group.options) group.best_ratio = std::max(group.best_ratio, option.ratio());
        groups.push_back(std::move(group));
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        if (a.best_ratio != b.best_ratio) return a.best_ratio > b.best_ratio;
        return a.options.front().saved > b.options.front().saved;
    });
    return groups;
}

class Search {
public:
    Search(const std::vector<Group>& groups, const PlanRequest& request, double need, double tolerance)
        : groups_(groups), request_(request), need_(need), tolerance_(tolerance) {
        for (std::size_t g = 0; g < groups.size(); ++g)
            for (std::size_t o = 0; o < groups[g].options.size(); ++o) pool_.push_back({g, o});
        std::stable_sort(pool_.begin(), pool_.end(),
                         [&](const PoolEntry& a, const PoolEntry& b) { return option(a).ratio() > option(b).ratio(); });
        integral_costs_ = std::all_of(groups.begin(), groups.end(), [](const Group& g) {
            return std::all_of(g.options.begin(), g.options.end(),
                               [](const Option& o) { return o.cost == std::floor(o.cost); });
        });
        singletons_ = std::all_of(groups.begin(), groups.end(), [](const Group& g) { return g.options.size() == 1; });
        if (singletons_) {
            // Groups are already in ratio order: suffix bounds come from prefix sums.
            prefix_saved_.assign(groups.size() + 1, 0);
            prefix_cost_.assign(groups.size() + 1, 0);
            for (std::size_t g = 0; g < groups.size(); ++g) {
                prefix_saved_[g + 1] = prefix_saved_[g] + groups[g].options[0].saved;
                prefix_cost_[g + 1] = prefix_cost_[g] + groups[g].options[0].cost;
            }
        }
    }

    double root_bound() const { return lower_cost(0, need_); }

    void run() { visit(0, 0, 0); }

    bool found = false;
    bool aborted = false;
    double best_cost = infinity;
    double best_saved = 0;
    std::vector<std::size_t> best;  // candidate indices
    std::vector<std::vector<std::size_t>> alternatives;
    std::size_t nodes = 0;

private:
    struct PoolEntry {
        std::size_t group, option;
    };
    const Option& option(const PoolEntry& e) const { return groups_[e.group].options[e.option]; }

    // Least cost to save `need` more from groups g.. (fractional relaxation, one option per group
    // ignored): a lower bound on any completion.
    double lower_cost(std::size_t g, double need) const {
        if (need <= tolerance_) return 0;
        if (singletons_) {
            const double target = prefix_saved_[g] + need - tolerance_;
            const auto it =
                std::lower_bound(prefix_saved_.begin() + static_cast<std::ptrdiff_t>(g), prefix_saved_.end(), target);
            if (it == prefix_saved_.end()) return infinity;
            const auto j = static_cast<std::size_t>(it - prefix_saved_.begin());  // groups g..j-1 cover it
            const double before = prefix_saved_[j - 1] - prefix_saved_[g];
            const Option& last = groups_[j - 1].options[0];
            const double part = last.saved > 0 ? (need - before) / last.saved : 1;
            return prefix_cost_[j - 1] - prefix_cost_[g] + last.cost * std::clamp(part, 0.0, 1.0);
        }
        double cost = 0;
        for (const auto& entry : pool_) {
            if (entry.group < g) continue;
            const Option& o = option(entry);
            if (o.saved >= need) return cost + o.cost * (need / o.saved);
            cost += o.cost;
            need -= o.saved;
        }
        return need <= tolerance_ ? cost : infinity;
    }

    // Most saving from groups g.. within `budget` (fractional relaxation): an upper bound.
    double upper_saving(std::size_t g, double budget) const {
        if (singletons_) {
            const auto it = std::upper_bound(prefix_cost_.begin() + static_cast<std::ptrdiff_t>(g), prefix_cost_.end(),
                                             prefix_cost_[g] + budget);
            const auto j = static_cast<std::size_t>(it - prefix_cost_.begin()) - 1;  // groups g..j-1 fit
            double saved = prefix_saved_[j] - prefix_saved_[g];
            if (j < groups_.size()) {
                const Option& next = groups_[j].options[0];
                saved += next.saved * std::clamp((budget - (prefix_cost_[j] - prefix_cost_[g])) / next.cost, 0.0, 1.0);
            }
            return saved;
        }
        double saved = 0;
        for (const auto& entry : pool_) {
            if (entry.group < g) continue;
            const Option& o = option(entry);
            if (o.cost >= budget) return saved + o.saved * (budget / o.cost);
            saved += o.saved;
            budget -= o.cost;
        }
        return saved;
    }

    void record(double cost, double saved) {
        const double eps = 1e-9 * std::max(1.0, std::fabs(cost));
        if (found && cost > best_cost + eps) return;
        std::vector<std::size_t> plan = chosen_;
        if (!found || cost < best_cost - eps) {
            found = true;
            best_cost = cost;
            best_saved = saved;
            best = std::move(plan);
            alternatives.clear();
        } else if (saved > best_saved + tolerance_) {
            if (alternatives.size() < request_.max_alternatives) alternatives.push_back(best);
            best_saved = saved;
            best = std::move(plan);
        } else if (alternatives.size() < request_.max_alternatives) {
            alternatives.push_back(std::move(plan));
        }
    }

    void visit(std::size_t g, double cost, double saved) {
        if (++nodes > request_.node_limit) {
            aborted = true;
            return;
        }
        if (saved >= need_ - tolerance_) {
            record(cost, saved);
            return;
        }
        if (g == groups_.size()) return;
        double bound = cost + lower_cost(g, need_ - saved);
        if (std::isinf(bound)) return;
        // With whole-number costs (counts), a fractional bound rounds up.
        if (integral_costs_) bound = std::ceil(bound - 1e-9);
        if (found) {
            const double eps = 1e-9 * std::max(1.0, best_cost);
            if (bound > best_cost + eps) return;
            // Equal cost at best: worth it only for more saving, or to list another alternative.
            if (bound >= best_cost - eps && alternatives.size() >= request_.max_alternatives &&
                saved + upper_saving(g, best_cost - cost) <= best_saved + tolerance_)
                return;
        }
        for (const Option& o : groups_[g].options) {
            chosen_.insert(chosen_.end(), o.members.begin(), o.members.end());
            visit(g + 1, cost + o.cost, saved + o.saved);
            chosen_.resize(chosen_.size() - o.members.size());
            if (aborted) return;
        }
        visit(g + 1, cost, saved);
    }

    const std::vector<Group>& groups_;
    const PlanRequest& request_;
    double need_;
    double tolerance_;
    std::vector<PoolEntry> pool_;
    bool singletons_ = false;
    bool integral_costs_ = false;
    std::vector<double> prefix_saved_, prefix_cost_;
    std::vector<std::size_t> chosen_;
};

}  // namespace

PlanResult plan(const std::vector<Candidate>& candidates, const PlanRequest& request) {
    PlanResult result;
    const std::vector<Group> groups = make_groups(candidates, request.by_effort);
    Summation best_possible;
    // A plan never takes a candidate that adds time: a slowdown counts as no saving.
    for (const auto& group : groups) best_possible.add(std::max(0.0, group.options.front().saved));
    result.best_possible_saved = best_possible.value();

    const double need = request.baseline - request.target_time;
    const double tolerance = 1e-12 * request.baseline;
    Search search(groups, request, need, tolerance);
    result.lower_bound = need <= tolerance ? 0 : search.root_bound();
    search.run();
    result.nodes = search.nodes;
    result.reachable = search.found;
    result.proven_optimal = !search.aborted;
    if (!search.found) return result;
    result.cost = search.best_cost;
    result.saved = search.best_saved;
    const auto by_saving = [&](std::vector<std::size_t> plan) {
        std::stable_sort(plan.begin(), plan.end(),
                         [&](std::size_t a, std::size_t b) { return candidates[a].saved > candidates[b].saved; });
        return plan;
    };
    result.chosen = by_saving(search.best);
    for (const auto& alternative : search.alternatives) result.alternatives.push_back(by_saving(alternative));
    if (result.proven_optimal) result.lower_bound = result.cost;
    return result;
}

std::vector<PlanStep> plan_steps(const std::vector<Candidate>& candidates, const std::vector<std::size_t>& chosen,
                                 double baseline) {
    // The running total, in the order a team would do the work (largest saving first).
    std::vector<PlanStep> steps;
    Summation saved;
    for (std::size_t c : chosen) {
        saved.add(candidates[c].saved);
        steps.push_back({c, baseline - saved.value(), speedup_from_saving(baseline, saved.value())});
    }
    return steps;
}

}  // namespace amdahl
