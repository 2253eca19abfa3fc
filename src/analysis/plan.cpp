#include "amdahl/plan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "model/quoted_name.hpp"

namespace amdahl {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr std::size_t max_overlapping = 12;

// Two costs closer than this are the same cost (sums of efforts round differently).
double cost_tolerance(double cost) { return 1e-9 * std::max(1.0, std::fabs(cost)); }

// One way to use a group of overlapping candidates: a set of them that share no phase.
struct Option {
    std::vector<std::size_t> members;
    double cost = 0;
    double saved = 0;
    double ratio() const { return cost > 0 ? saved / cost : infinity; }
};

// A step along a group's efficient frontier: from one option to the next dearer one that saves
// more, with nothing better in between (the upper convex hull of (cost, saved), from (0, 0)).
struct Segment {
    std::size_t group = 0;
    std::size_t option = 0;  // the option at its end: what taking it (and those before) means
    double cost = 0;
    double saved = 0;
    double ratio = 0;  // saved / cost
};

// Candidates that overlap (transitively) form a group; a plan picks at most one option per group.
struct Group {
    std::vector<Option> options;  // largest saving first
    std::vector<Segment> hull;    // falling ratio
    double best_ratio = 0;
    double best_saved = 0;  // the option that saves most (may be < 0 for slowdowns)
};

// Drops the options no optimal plan uses: those that save nothing (doing nothing is cheaper) and
// those a cheaper option saves as much as. Options of equal cost stay: they are alternatives.
void drop_dominated(std::vector<Option>& options) {
    if (options.size() == 1) {  // a lone candidate: kept when it saves anything
        if (options[0].saved <= 0 && options[0].cost > cost_tolerance(options[0].cost)) options.clear();
        return;
    }
    std::vector<std::size_t> by_cost(options.size());
    std::iota(by_cost.begin(), by_cost.end(), std::size_t{0});
    std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) {
        return options[a].cost != options[b].cost ? options[a].cost < options[b].cost
                                                  : options[a].saved > options[b].saved;
    });
    std::vector<bool> keep(options.size(), true);
    // Sweep by cost: `best_cheaper` is the most any option cheaper by more than the tolerance saves.
    double best_cheaper = 0;  // doing nothing: cost 0, saves 0
    std::size_t cheaper_end = 0;
    for (std::size_t i : by_cost) {
        const Option& o = options[i];
        while (cheaper_end < by_cost.size() && options[by_cost[cheaper_end]].cost < o.cost - cost_tolerance(o.cost)) {
            best_cheaper = std::max(best_cheaper, options[by_cost[cheaper_end]].saved);
            ++cheaper_end;
        }
        if (o.saved <= best_cheaper && o.cost > cost_tolerance(o.cost)) keep[i] = false;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (!keep[i]) continue;
        if (kept != i) options[kept] = std::move(options[i]);
        ++kept;
    }
    options.resize(kept);
}

// The upper convex hull of the options' (cost, saved) from (0, 0): its segments, steepest first.
// Any mix of a group's options (the fractional relaxation) saves at most what the hull gives.
std::vector<Segment> efficient_frontier(const std::vector<Option>& options, std::size_t group) {
    if (options.size() == 1 && options[0].saved > 0)
        return {{group, 0, options[0].cost, options[0].saved, options[0].saved / options[0].cost}};
    struct Point {
        double cost, saved;
        std::size_t option;
    };
    std::vector<Point> points;
    for (std::size_t i = 0; i < options.size(); ++i) points.push_back({options[i].cost, options[i].saved, i});
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
        return a.cost != b.cost ? a.cost < b.cost : a.saved > b.saved;
    });
    std::vector<Point> hull{{0.0, 0.0, 0}};
    for (const Point& p : points) {
        if (p.saved <= hull.back().saved) continue;  // dearer and saves no more
        // Pop the last vertex while it lies on or below the line from the one before it to p:
        // (b.saved - a.saved) / (b.cost - a.cost) <= (p.saved - b.saved) / (p.cost - b.cost).
        while (hull.size() >= 2) {
            const Point& a = hull[hull.size() - 2];
            const Point& b = hull.back();
            if ((b.saved - a.saved) * (p.cost - b.cost) > (p.saved - b.saved) * (b.cost - a.cost)) break;
            hull.pop_back();
        }
        hull.push_back(p);
    }
    std::vector<Segment> segments;
    for (std::size_t i = 1; i < hull.size(); ++i) {
        const double cost = hull[i].cost - hull[i - 1].cost, saved = hull[i].saved - hull[i - 1].saved;
        // Rounding must not make a later segment look steeper than an earlier one.
        const double ratio = std::min(saved / cost, segments.empty() ? infinity : segments.back().ratio);
        segments.push_back({group, hull[i].option, cost, saved, ratio});
    }
    return segments;
}

std::vector<Group> make_groups(const std::vector<Candidate>& candidates, bool by_effort) {
    // Union-find over candidates that share a phase.
    std::vector<std::size_t> parent(candidates.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    const auto find = [&](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    std::vector<std::pair<std::size_t, std::size_t>> uses;  // (phase, candidate)
    for (std::size_t c = 0; c < candidates.size(); ++c)
        for (std::size_t p : candidates[c].phases) uses.emplace_back(p, c);
    std::sort(uses.begin(), uses.end());
    uses.erase(std::unique(uses.begin(), uses.end()), uses.end());
    for (std::size_t i = 1; i < uses.size(); ++i)
        if (uses[i].first == uses[i - 1].first) parent[find(uses[i].second)] = find(uses[i - 1].second);
    std::vector<std::vector<std::size_t>> members(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) members[find(c)].push_back(c);

    std::vector<std::size_t> local(candidates.size());  // index within its group
    for (const auto& group_members : members) {
        if (group_members.size() > max_overlapping) {
            throw Error(std::to_string(group_members.size()) + " proposals overlap on the same phases (starting with " +
                        quoted_name(candidates[group_members[0]].name) + "); amdahl plans at most " +
                        std::to_string(max_overlapping) + " overlapping alternatives together");
        }
        for (std::size_t i = 0; i < group_members.size(); ++i) local[group_members[i]] = i;
    }
    // conflicts[c] has bit i set when c shares a phase with member i of its group. A phase is
    // shared by at most 12 candidates (one group), so this is linear in the phases' uses.
    std::vector<std::uint32_t> conflicts(candidates.size(), 0);
    for (std::size_t start = 0, end = 0; start < uses.size(); start = end) {
        while (end < uses.size() && uses[end].first == uses[start].first) ++end;
        for (std::size_t a = start; a < end; ++a)
            for (std::size_t b = start; b < end; ++b)
                if (a != b) conflicts[uses[a].second] |= std::uint32_t{1} << local[uses[b].second];
    }

    const auto cost_of = [&](std::size_t c) { return by_effort ? *candidates[c].effort : 1.0; };
    std::vector<Group> groups;
    for (const auto& group_members : members) {
        if (group_members.empty()) continue;
        const std::size_t n = group_members.size();
        // Every non-empty subset whose members share no phase: a subset is one when the subset
        // without its lowest member is one and that member conflicts with none of the rest.
        Group group;
        std::vector<bool> disjoint(std::size_t{1} << n, true);
        for (std::uint32_t mask = 1; mask < (std::uint32_t{1} << n); ++mask) {
            const auto lowest = static_cast<std::size_t>(std::countr_zero(mask));
            const std::uint32_t rest = mask & (mask - 1);
            disjoint[mask] = disjoint[rest] && (conflicts[group_members[lowest]] & rest) == 0;
            if (!disjoint[mask]) continue;
            Option option;
            Summation cost, saved;
            for (std::size_t i = 0; i < n; ++i) {
                if (!(mask >> i & 1)) continue;
                option.members.push_back(group_members[i]);
                cost.add(cost_of(group_members[i]));
                saved.add(candidates[group_members[i]].saved);
            }
            option.cost = cost.value();
            option.saved = saved.value();
            group.options.push_back(std::move(option));
        }
        std::stable_sort(group.options.begin(), group.options.end(),
                         [](const Option& a, const Option& b) { return a.saved > b.saved; });
        group.best_saved = group.options.front().saved;
        for (const auto& option : group.options) group.best_ratio = std::max(group.best_ratio, option.ratio());
        drop_dominated(group.options);
        groups.push_back(std::move(group));
    }
    // Steepest first (sorting indices: a Group is costly to move).
    std::vector<std::size_t> order(groups.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (groups[a].best_ratio != groups[b].best_ratio) return groups[a].best_ratio > groups[b].best_ratio;
        return groups[a].best_saved > groups[b].best_saved;
    });
    std::vector<Group> sorted;
    sorted.reserve(groups.size());
    for (std::size_t g : order) {
        sorted.push_back(std::move(groups[g]));
        sorted.back().hull = efficient_frontier(sorted.back().options, sorted.size() - 1);
    }
    return sorted;
}

// The hull segments of every group, steepest first, in a segment tree of (cost, saved) sums.
// Removing the segments of the groups already decided leaves exactly the fractional relaxation
// of the rest, and both bounds below are one walk down the tree: O(log S) for S segments, however
// deep the search. Sums are recomputed from the children, never subtracted, so that a segment
// put back leaves every sum as it was, bit for bit.
class Frontier {
public:
    explicit Frontier(const std::vector<Group>& groups) {
        std::vector<Segment> segments;
        for (const auto& group : groups) segments.insert(segments.end(), group.hull.begin(), group.hull.end());
        // Steepest first; within a group the hull is already in that order, and stays so.
        std::stable_sort(segments.begin(), segments.end(),
                         [](const Segment& a, const Segment& b) { return a.ratio > b.ratio; });
        leaves_ = 1;
        while (leaves_ < segments.size()) leaves_ *= 2;
        cost_.assign(2 * leaves_, 0);
        saved_.assign(2 * leaves_, 0);
        segments_of_.resize(groups.size());
        for (std::size_t i = 0; i < segments.size(); ++i) {
            cost_[leaves_ + i] = segments[i].cost;
            saved_[leaves_ + i] = segments[i].saved;
            segments_of_[segments[i].group].push_back(i);
        }
        segments_ = std::move(segments);
        for (std::size_t node = leaves_ - 1; node >= 1; --node) pull(node);
    }

    /// Takes group g's segments out (g is being decided) or puts them back.
    void set_group(std::size_t g, bool present) {
        for (std::size_t i : segments_of_[g]) {
            cost_[leaves_ + i] = present ? segments_[i].cost : 0;
            saved_[leaves_ + i] = present ? segments_[i].saved : 0;
            for (std::size_t node = (leaves_ + i) / 2; node >= 1; node /= 2) pull(node);
        }
    }

    struct Relaxation {
        double cost = 0;                                             // infinite when out of reach
        std::size_t last = std::numeric_limits<std::size_t>::max();  // position of the segment it ends in
    };

    /// Least cost of saving `need` with the segments present, fractions allowed (within
    /// `tolerance`): whole segments in order of falling ratio and part of the last one.
    Relaxation cost_to_save(double need, double tolerance) const {
        if (need <= tolerance) return {};
        if (saved_[1] < need - tolerance) return {infinity};
        double cost = 0, saved = 0;
        std::size_t node = 1;
        while (node < leaves_) {  // keep the part before the segment that completes `need`
            const std::size_t left = 2 * node;
            if (saved + saved_[left] >= need - tolerance) {
                node = left;
            } else {
                cost += cost_[left];
                saved += saved_[left];
                node = left + 1;
            }
        }
        const double part = saved_[node] > 0 ? std::clamp((need - saved) / saved_[node], 0.0, 1.0) : 1.0;
        return {cost + cost_[node] * part, node - leaves_};
    }

    /// The option of group g that the relaxation ending at position `last` takes, rounded up (the
    /// segment it ends in counts whole); none when it takes nothing of g.
    std::optional<std::size_t> option_taken(std::size_t g, std::size_t last) const {
        std::optional<std::size_t> option;
        for (std::size_t i : segments_of_[g]) {
            if (i > last) break;
            option = segments_[i].option;
        }
        return option;
    }

    /// Most saving within `budget` with the segments present, fractions allowed.
    double saving_within(double budget) const {
        if (cost_[1] <= budget) return saved_[1];
        double cost = 0, saved = 0;
        std::size_t node = 1;
        while (node < leaves_) {
            const std::size_t left = 2 * node;
            if (cost + cost_[left] > budget) {
                node = left;
            } else {
                cost += cost_[left];
                saved += saved_[left];
                node = left + 1;
            }
        }
        const double part = cost_[node] > 0 ? std::clamp((budget - cost) / cost_[node], 0.0, 1.0) : 0.0;
        return saved + saved_[node] * part;
    }

private:
    void pull(std::size_t node) {
        cost_[node] = cost_[2 * node] + cost_[2 * node + 1];
        saved_[node] = saved_[2 * node] + saved_[2 * node + 1];
    }

    std::size_t leaves_ = 1;
    std::vector<double> cost_, saved_;  // 1-based heap layout; leaves at [leaves_, 2 leaves_)
    std::vector<Segment> segments_;
    std::vector<std::vector<std::size_t>> segments_of_;  // by group
};

// Depth-first branch and bound over the groups in order: at group g, each of its options, then
// none. Every visit is one node of the budget; once the budget is spent, the nodes left unvisited
// only report their bound, and the least of those (and the best plan's cost) is a proven lower
// bound on the optimum.
class Search {
public:
    Search(const std::vector<Group>& groups, const PlanRequest& request, double need, double tolerance)
        : groups_(groups), frontier_(groups), request_(request), need_(need), tolerance_(tolerance) {
        integral_costs_ = std::all_of(groups.begin(), groups.end(), [](const Group& g) {
            return std::all_of(g.options.begin(), g.options.end(),
                               [](const Option& o) { return o.cost == std::floor(o.cost); });
        });
    }

    double root_bound() const { return bound(0, 0); }

    void run() { visit(0, 0, 0); }

    bool found = false;
    bool aborted = false;
    double best_cost = infinity;
    double best_saved = 0;
    double open_bound = infinity;   // least bound among the nodes the budget left unvisited
    std::vector<std::size_t> best;  // candidate indices
    std::vector<std::vector<std::size_t>> alternatives;
    std::size_t nodes = 0;

private:
    // A lower bound on the cost of any plan that completes a node with `cost` spent and `saved`
    // saved, deciding the groups whose segments are present: the fractional relaxation, rounded
    // up when costs are whole numbers (counts).
    double bound(double cost, double saved) const {
        return rounded(cost + frontier_.cost_to_save(need_ - saved, tolerance_).cost);
    }
    double rounded(double bound) const {
        return integral_costs_ && std::isfinite(bound) ? std::ceil(bound - 1e-9) : bound;
    }

    void record(double cost, double saved) {
        const double eps = cost_tolerance(cost);
        if (found && cost > best_cost + eps) return;
        if (!found || cost < best_cost - eps) {
            found = true;
            best_cost = cost;
            best_saved = saved;
            best = chosen_;
            alternatives.clear();
        } else if (saved > best_saved + tolerance_) {
            if (alternatives.size() < request_.max_alternatives) alternatives.push_back(std::move(best));
            best_saved = saved;
            best = chosen_;
        } else if (alternatives.size() < request_.max_alternatives) {
            alternatives.push_back(chosen_);
        }
    }

    void visit(std::size_t g, double cost, double saved) {
        if (nodes >= request_.node_limit) {
            aborted = true;
            open_bound = std::min(open_bound, saved >= need_ - tolerance_ ? cost : bound(cost, saved));
            return;
        }
        ++nodes;
        if (saved >= need_ - tolerance_) {
            record(cost, saved);
            return;
        }
        if (g == groups_.size()) return;
        const Frontier::Relaxation relaxed = frontier_.cost_to_save(need_ - saved, tolerance_);
        const double lower = rounded(cost + relaxed.cost);
        if (std::isinf(lower)) return;
        if (found) {
            const double eps = cost_tolerance(best_cost);
            if (lower > best_cost + eps) return;
            // Equal cost at best: worth it only for more saving, or to list another alternative.
            if (lower >= best_cost - eps && alternatives.size() >= request_.max_alternatives &&
                saved + frontier_.saving_within(best_cost - cost) <= best_saved + tolerance_)
                return;
        }
        // The option the relaxation takes from this group goes first, so that the first plan
        // found is the relaxation rounded up, near the optimum; then the others, largest saving
        // first; then none.
        const auto& options = groups_[g].options;
        const std::optional<std::size_t> first = frontier_.option_taken(g, relaxed.last);
        const auto try_option = [&](const Option& o) {
            chosen_.insert(chosen_.end(), o.members.begin(), o.members.end());
            visit(g + 1, cost + o.cost, saved + o.saved);
            chosen_.resize(chosen_.size() - o.members.size());
        };
        frontier_.set_group(g, false);
        if (first) try_option(options[*first]);
        for (std::size_t o = 0; o < options.size(); ++o)
            if (o != first) try_option(options[o]);
        visit(g + 1, cost, saved);
        frontier_.set_group(g, true);
    }

    const std::vector<Group>& groups_;
    Frontier frontier_;
    const PlanRequest& request_;
    double need_;
    double tolerance_;
    bool integral_costs_ = false;
    std::vector<std::size_t> chosen_;
};

}  // namespace

PlanResult plan(const std::vector<Candidate>& candidates, const PlanRequest& request) {
    PlanResult result;
    const std::vector<Group> groups = make_groups(candidates, request.by_effort);
    Summation best_possible;
    // A plan never takes a candidate that adds time: a slowdown counts as no saving.
    for (const auto& group : groups) best_possible.add(std::max(0.0, group.best_saved));
    result.best_possible_saved = best_possible.value();

    const double need = request.baseline - request.target_time;
    const double tolerance = 1e-12 * request.baseline;
    Search search(groups, request, need, tolerance);
    result.lower_bound = need <= tolerance ? 0 : search.root_bound();
    search.run();
    result.nodes = search.nodes;
    result.reachable = search.found;
    result.proven_optimal = !search.aborted;
    if (!search.found) {
        if (!search.aborted) return result;
        // The budget ran out before any plan: the greedy one (each group's largest saving, in
        // order, until the target is met) still answers whether the target is reachable.
        Summation saved, cost;
        for (const auto& group : groups) {
            if (saved.value() >= need - tolerance) break;
            if (group.options.empty()) continue;
            const Option& o = group.options.front();
            search.best.insert(search.best.end(), o.members.begin(), o.members.end());
            saved.add(o.saved);
            cost.add(o.cost);
        }
        if (saved.value() < need - tolerance) {
            result.proven_optimal = true;  // no plan exists: that much is proven
            return result;
        }
        result.reachable = true;
        search.best_cost = cost.value();
        search.best_saved = saved.value();
    }
    result.cost = search.best_cost;
    result.saved = search.best_saved;
    const auto by_saving = [&](std::vector<std::size_t> plan) {
        std::stable_sort(plan.begin(), plan.end(),
                         [&](std::size_t a, std::size_t b) { return candidates[a].saved > candidates[b].saved; });
        return plan;
    };
    result.chosen = by_saving(search.best);
    for (const auto& alternative : search.alternatives) result.alternatives.push_back(by_saving(alternative));
    // Every node the search finished either led to the best plan or could not beat it; the
    // nodes it did not reach could do no better than their bound.
    result.lower_bound =
        result.proven_optimal ? result.cost : std::max(result.lower_bound, std::min(result.cost, search.open_bound));
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
