// A workload mix: fleet time shares from weights, and what speedups buy the fleet.
#include "amdahl/mix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "model/quoted_name.hpp"
#include "report/numbers.hpp"

namespace amdahl {

namespace {

const char* kind_words(MixWeightKind kind) {
    switch (kind) {
        case MixWeightKind::gpus:
            return "a GPU count";
        case MixWeightKind::rate:
            return "a request rate";
        case MixWeightKind::share:
            break;
    }
    return "a share of fleet time";
}

}  // namespace

std::vector<double> fleet_time_shares(const std::vector<MixWeight>& weights,
                                      const std::vector<double>& request_seconds) {
    std::vector<double> shares(weights.size());
    if (weights.empty()) return shares;
    for (const MixWeight& weight : weights) {
        if (weight.kind != weights.front().kind)
            throw Error(
                fmt::format("weights '{}' and '{}' are of different kinds ({} and {}): give every workload the "
                            "same kind of weight",
                            printable(weights.front().text), printable(weight.text), kind_words(weights.front().kind),
                            kind_words(weight.kind)));
    }
    // gpus: w_i = n_i / Σ n_j;  rate: w_i = r_i T_i / Σ r_j T_j;  share: w_i = w_i / Σ w_j (Σ w_j = 1)
    Summation sum;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        shares[i] = weights[i].value;
        if (weights[i].kind == MixWeightKind::rate) shares[i] *= request_seconds.at(i);
        sum.add(shares[i]);
    }
    const double total = sum.value();
    if (weights.front().kind == MixWeightKind::share && std::fabs(total - 1) > 1e-3) {
        std::string terms;
        for (const MixWeight& weight : weights) terms += (terms.empty() ? "" : " + ") + printable(weight.text);
        throw Error(
            fmt::format("the shares of fleet time sum to {} ({}), not 1: give every workload's share so that "
                        "they add up to 1, or GPU counts (=120gpus) or request rates (=15/s), which are "
                        "normalised",
                        shortest(total), terms));
    }
    if (!(total > 0) || !std::isfinite(total))
        throw Error("the workloads take no time per request: request rates cannot weigh them (give shares or GPUs)");
    for (double& share : shares) share /= total;
    return shares;
}

FleetOutcome fleet_outcome(const std::vector<double>& time_shares, const std::vector<double>& speedups) {
    FleetOutcome out;
    Summation after, saved;
    for (std::size_t i = 0; i < time_shares.size(); ++i) {
        const double w = time_shares[i];
        // w_i / S_i: the workload's fleet time after, as a share of the fleet's time before
        out.new_time.push_back(time_at_factor(w, speedups[i]));
        // w_i (1 - 1/S_i)
        out.saved.push_back(w - out.new_time.back());
        after.add(out.new_time.back());
        saved.add(out.saved.back());
    }
    // S = 1 / Σ w_i / S_i
    out.speedup = after.value() > 0 ? 1 / after.value() : std::numeric_limits<double>::infinity();
    out.saved_fraction = saved.value();
    // win_i = w_i (1 - 1/S_i) / Σ_j w_j (1 - 1/S_j)
    if (out.saved_fraction != 0)
        for (double part : out.saved) out.win_share.push_back(part / out.saved_fraction);
    return out;
}

std::vector<std::vector<std::size_t>> select_in_workloads(const std::vector<const Profile*>& profiles,
                                                          const std::vector<std::string>& names,
                                                          const std::vector<Selector>& selectors,
                                                          std::vector<std::string>& notes) {
    std::vector<std::vector<std::size_t>> out(profiles.size());
    for (std::size_t s = 0; s < selectors.size(); ++s) {
        const std::string no_match = "selector " + quoted_name(selectors[s].text) + " matches no phase";
        std::vector<std::string> missing, hints;
        for (std::size_t w = 0; w < profiles.size(); ++w) {
            try {
                select_phases(*profiles[w], selectors[s]);
                out[w].push_back(s);
            } catch (const Error& e) {
                // Only "matches no phase" means absent here; an ambiguous short name is an error.
                if (!e.message().starts_with(no_match)) throw Error(names[w], e.message());
                missing.push_back(names[w]);
                if (e.message().size() > no_match.size())
                    hints.push_back(names[w] + ": " + e.message().substr(no_match.size() + 2));
            }
        }
        // A glob that is a phase's exact name in one workload picks only that phase there; where it is
        // a glob elsewhere, one -s would mean two things in one fleet.
        const Selector& selector = selectors[s];
        if (selector.type == Selector::Type::glob && selector.exact_name_first) {
            std::optional<std::size_t> exact_in, glob_in;
            for (std::size_t w = 0; w < profiles.size(); ++w) {
                if (std::find(out[w].begin(), out[w].end(), s) == out[w].end()) continue;
                const Profile& profile = *profiles[w];
                const auto globbed = std::count_if(profile.phases.begin(), profile.phases.end(),
                                                   [&](const Phase& phase) { return selector.matches(phase); });
                const bool exact = profile.find(selector.pattern).has_value();
                // The exact name that is also all the glob picks reads the same either way.
                if (exact && globbed == 1) continue;
                auto& first = exact ? exact_in : glob_in;
                if (!first) first = w;
            }
            if (exact_in && glob_in)
                throw Error(fmt::format(
                    "selector {} is the exact name of a phase in {} but a glob in {}: write "
                    "name:{} or glob:{} so that it means one thing in every workload",
                    quoted_name(selector.text), names[*exact_in], names[*glob_in], selector.pattern, selector.pattern));
        }
        if (missing.size() == profiles.size()) {
            std::string message = no_match + " in any workload";
            if (!hints.empty()) message += " (" + fmt::format("{}", fmt::join(hints, "; ")) + ")";
            throw Error(message);
        }
        if (!missing.empty())
            notes.push_back(fmt::format("selector {} picks no phase in {}: {} at 1x there{}",
                                        quoted_name(selectors[s].text), fmt::join(missing, ", "),
                                        missing.size() == 1 ? "that workload stays" : "those workloads stay",
                                        hints.empty() ? "" : " (" + fmt::format("{}", fmt::join(hints, "; ")) + ")"));
    }
    return out;
}

std::vector<WorkloadEvaluation> evaluate_workloads(const std::vector<const Profile*>& profiles,
                                                   const std::vector<std::string>& names,
                                                   const std::vector<SpeedupSpec>& specs,
                                                   std::vector<std::string>& notes) {
    std::vector<Selector> selectors;
    for (const SpeedupSpec& spec : specs) selectors.push_back(spec.selector);
    const auto picked = select_in_workloads(profiles, names, selectors, notes);
    std::vector<WorkloadEvaluation> out(profiles.size());
    for (std::size_t w = 0; w < profiles.size(); ++w) {
        out[w].speedups = picked[w];
        for (std::size_t s : picked[w]) out[w].applied.push_back(specs[s]);
        try {
            out[w].evaluation = evaluate(*profiles[w], out[w].applied);
        } catch (const Error& e) {
            throw Error(names[w], e.message());
        }
    }
    return out;
}

void add_fleet_outcomes(MixEvalResult& result) {
    std::vector<double> shares, speedups, ceilings;
    for (std::size_t i = 0; i < result.workloads.size(); ++i) {
        shares.push_back(result.workloads[i].time_share);
        speedups.push_back(result.evaluations[i].evaluation.speedup);
        ceilings.push_back(result.evaluations[i].evaluation.ceiling);
    }
    result.fleet = fleet_outcome(shares, speedups);
    result.ceiling = fleet_outcome(shares, ceilings);
}

std::size_t carrying_workload(const std::vector<double>& saved, double total) {
    const double sign = total < 0 ? -1.0 : 1.0;
    std::size_t top = 0;
    for (std::size_t i = 1; i < saved.size(); ++i)
        if (sign * saved[i] > sign * saved[top]) top = i;
    return top;
}

std::vector<MixTarget> rank_mix(const std::vector<std::vector<Candidate>>& candidates,
                                const std::vector<double>& totals, const std::vector<double>& time_shares, RankBy by,
                                const std::vector<double>& grid) {
    const std::size_t workloads = candidates.size();
    // One target per name, in the order first seen; per workload, its candidate of that name.
    std::vector<MixTarget> targets;
    std::vector<std::vector<const Candidate*>> members;
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t w = 0; w < workloads; ++w) {
        for (const Candidate& c : candidates[w]) {
            auto [found, added] = index.emplace(c.name, targets.size());
            if (added) {
                MixTarget target;
                target.name = c.name;
                target.kind = c.kind;
                target.factor = c.factor;
                target.effort = c.effort;
                targets.push_back(std::move(target));
                members.emplace_back(workloads, nullptr);
                targets.back().candidate.resize(workloads);
            } else if (targets[found->second].kind != c.kind) {
                targets[found->second].kind.clear();
            }
            members[found->second][w] = &c;
            targets[found->second].candidate[w] = static_cast<std::size_t>(&c - candidates[w].data());
        }
    }
    // A workload's speedup from a target saving `saved` of its time T_w: T_w / (T_w - saved).
    const auto fleet_at = [&](const std::vector<const Candidate*>& per_workload, auto&& saved_of) {
        std::vector<double> speedups(workloads, 1.0);
        for (std::size_t w = 0; w < workloads; ++w)
            if (per_workload[w]) speedups[w] = speedup_from_saving(totals[w], saved_of(*per_workload[w]));
        return fleet_outcome(time_shares, speedups);
    };
    for (std::size_t t = 0; t < targets.size(); ++t) {
        MixTarget& target = targets[t];
        Summation share;
        for (std::size_t w = 0; w < workloads; ++w) {
            const Candidate* c = members[t][w];
            const double total = totals[w];
            target.time_fraction.push_back(c && total > 0 ? c->time / total : 0.0);
            target.saved_fraction.push_back(c && total > 0 ? c->saved / total : 0.0);
            // Σ w_i t_i: the target's share of the fleet's time
            share.add(time_shares[w] * target.time_fraction.back());
        }
        target.fleet_share = share.value();
        target.fleet = fleet_at(members[t], [](const Candidate& c) { return c.saved; });
        target.ceiling = fleet_at(members[t], [](const Candidate& c) { return c.time; }).speedup;
        for (double k : grid)
            target.grid.push_back(
                fleet_at(members[t], [k](const Candidate& c) { return saving_at_factor(c.time, k); }).speedup);
        if (target.effort) target.saved_per_effort = target.fleet.saved_fraction / *target.effort;
        if (by == RankBy::effort && !target.effort)
            throw Error("'" + target.name +
                        "' has no effort; --by effort needs one on every proposal (SELECTOR=FACTOR@EFFORT)");
        target.main_workload = carrying_workload(target.fleet.saved, target.fleet.saved_fraction);
    }
    const auto key = [by](const MixTarget& t) {
        switch (by) {
            case RankBy::effort:
                return *t.saved_per_effort;
            case RankBy::ceiling:
                return t.fleet_share;
            case RankBy::saving:
                break;
        }
        return t.fleet.saved_fraction;
    };
    std::stable_sort(targets.begin(), targets.end(),
                     [&](const MixTarget& a, const MixTarget& b) { return key(a) > key(b); });
    return targets;
}

}  // namespace amdahl
