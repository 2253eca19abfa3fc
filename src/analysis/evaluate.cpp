#include "amdahl/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "amdahl/covered_overlap.hpp"
#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/numbers.hpp"

namespace amdahl {

std::vector<int> assign_speedups(const Profile& profile, const std::vector<SpeedupSpec>& specs,
                                 std::vector<std::string>* notes) {
    std::vector<int> owner(profile.phases.size(), -1);
    // Names are looked up in a map, so a million selectors on a million phases stay linear.
    std::unordered_map<std::string_view, std::size_t> by_name;
    if (specs.size() > 8) {
        by_name.reserve(profile.phases.size());
        for (std::size_t i = 0; i < profile.phases.size(); ++i) by_name.emplace(profile.phases[i].name, i);
    }
    for (std::size_t s = 0; s < specs.size(); ++s) {
        std::vector<std::size_t> picked;
        const auto found = by_name.find(specs[s].selector.pattern);
        if (specs[s].selector.type == Selector::Type::name && found != by_name.end())
            picked = {found->second};
        else
            picked = select_phases(profile, specs[s].selector, notes);
        for (std::size_t i : picked) {
            if (owner[i] >= 0) {
                throw Error("speedups '" + specs[static_cast<std::size_t>(owner[i])].text + "' and '" + specs[s].text +
                            "' both apply to phase '" + profile.phases[i].name +
                            "' (a phase can take only one speedup)");
            }
            owner[i] = static_cast<int>(s);
        }
    }
    return owner;
}

namespace {

// The phases grouped by the speedup that touches them (the last group: those left alone).
std::optional<Uncertainty> evaluation_uncertainty(const Profile& profile, const std::vector<SpeedupSpec>& specs,
                                                  const std::vector<int>& owner) {
    const bool ranges = std::any_of(specs.begin(), specs.end(), [](const SpeedupSpec& s) { return s.range; });
    if (!ranges && !has_spread(profile)) return std::nullopt;
    std::vector<PhaseGroup> groups(specs.size() + 1);
    for (std::size_t s = 0; s < specs.size(); ++s) {
        groups[s].factor = specs[s].factor.value;
        groups[s].range = specs[s].range.value_or(FactorRange{groups[s].factor, groups[s].factor});
    }
    groups.back().range = {1, 1};
    for (std::size_t i = 0; i < profile.phases.size(); ++i)
        add_phase(owner[i] >= 0 ? groups[static_cast<std::size_t>(owner[i])] : groups.back(), profile,
                  profile.phases[i]);
    return speedup_uncertainty(groups);
}

// The savings of the sped-up phases at factors `factor_of(spec)`: by their exclusive times,
// sum t_i (1 - 1/k_i), and by their active times, sum A_i (1 - 1/k_i). Phases that overlap one
// another count their shared time once each in the active sum, so it is capped: no instant of the
// affected and the overlapped time gets more than k_max times shorter, which saves at most
// (affected + overlapped) (1 - 1/k_max).
struct OverlapSavings {
    double exclusive = 0;
    double active = 0;
};

// The smallest factor of a covered overlap's phases: the time they all ran at once ends when the
// slowest of them is done.
template <typename FactorOf>
double covered_factor(const CoveredOverlap& covered, const std::vector<int>& owner, FactorOf factor_of) {
    double k = std::numeric_limits<double>::infinity();
    for (std::size_t p : covered.phases) k = std::min(k, factor_of(static_cast<std::size_t>(owner[p])));
    return k;
}

template <typename FactorOf>
OverlapSavings overlap_savings(const Profile& profile, const Evaluation& e, const std::vector<int>& owner,
                               const std::vector<CoveredOverlap>& covered, FactorOf factor_of) {
    Summation exclusive, active, affected, overlapped;
    for (const CoveredOverlap& c : covered)
        exclusive.add(saving_at_factor(c.time, covered_factor(c, owner, factor_of)));
    double fastest = 0;  // k_max: a slowdown's active estimate is its low end, which no cap bounds
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        const Phase& phase = profile.phases[i];
        if (e.phases[i].spec < 0) {
            if (phase.name == overlapped_phase) overlapped.add(phase.time);
            continue;
        }
        const double k = factor_of(static_cast<std::size_t>(e.phases[i].spec));
        const double a = phase.active_time.value_or(phase.time);
        exclusive.add(saving_at_factor(phase.time, k));
        active.add(saving_at_factor(a, k));
        affected.add(phase.time);
        fastest = std::max(fastest, k);
    }
    const double shrink = std::isinf(fastest) ? 1.0 : std::max(0.0, 1 - 1 / fastest);
    return {exclusive.value(), std::min(active.value(), (affected.value() + overlapped.value()) * shrink)};
}

// Overlap (imported traces): a phase's active time also covers time it shared with others, so the
// saving lies between the exclusive-time estimate and the active-time one. A speedup makes the
// active-time estimate the high end; a slowdown makes it the low end. With factor ranges both
// estimates grow with every factor: the low end takes the lesser at the ranges' low ends, the high
// end the greater at their high ends.
std::optional<OverlapRange> overlap_range(const Profile& profile, const std::vector<SpeedupSpec>& specs,
                                          const std::vector<int>& owner, const std::vector<CoveredOverlap>& covered,
                                          const Evaluation& e) {
    bool any_overlap = false;
    for (std::size_t i = 0; i < profile.phases.size(); ++i)
        any_overlap = any_overlap || (e.phases[i].spec >= 0 && profile.phases[i].active_time &&
                                      *profile.phases[i].active_time > profile.phases[i].time);
    if (!any_overlap) return std::nullopt;
    const auto end = [&](bool high) {
        return [&specs, high](std::size_t s) {
            return specs[s].range ? (high ? specs[s].range->high : specs[s].range->low) : specs[s].factor.value;
        };
    };
    const OverlapSavings low = overlap_savings(profile, e, owner, covered, end(false));
    const OverlapSavings high = overlap_savings(profile, e, owner, covered, end(true));
    OverlapRange range;
    range.factor_ends = std::any_of(specs.begin(), specs.end(), [](const SpeedupSpec& s) { return s.range; });
    // The exclusive estimate at the point is the evaluation's own figure, bit for bit.
    const double low_exclusive = range.factor_ends ? low.exclusive : e.time_saved;
    const double high_exclusive = range.factor_ends ? high.exclusive : e.time_saved;
    range.low_saved = std::min(low_exclusive, low.active);
    range.high_saved = std::max(high_exclusive, high.active);
    range.low_is_active = low.active < low_exclusive;
    range.high_is_active = high.active > high_exclusive;
    // With time ranges too, the exclusive ends are the uncertainty's (which spans them).
    if (e.uncertainty && e.uncertainty->time_ranges) {
        range.low_saved = std::min(range.low_saved, e.uncertainty->time_saved.low);
        range.high_saved = std::max(range.high_saved, e.uncertainty->time_saved.high);
    }
    const auto speedup_of = [&](double saving) {
        if (saving == e.time_saved) return e.speedup;
        const double remaining = e.baseline_time - saving;
        return remaining > 0 ? e.baseline_time / remaining : std::numeric_limits<double>::infinity();
    };
    // Every overlap the sped-up phases had was with one another: nothing is left to bound.
    if (range.high_saved - range.low_saved <= 1e-12 * e.baseline_time) return std::nullopt;
    range.low_speedup = speedup_of(range.low_saved);
    range.high_speedup = speedup_of(range.high_saved);
    return range;
}

}  // namespace

Evaluation evaluate(const Profile& profile, const std::vector<SpeedupSpec>& specs) {
    Evaluation out;
    const std::vector<int> owner = assign_speedups(profile, specs, &out.notes);
    out.phases.resize(profile.phases.size());
    // Time when only sped-up phases ran at once shrinks with them, each set at its smallest factor.
    std::vector<std::size_t> picked;
    for (std::size_t i = 0; i < owner.size(); ++i)
        if (owner[i] >= 0) picked.push_back(i);
    const OverlapCover cover(profile);
    const std::vector<CoveredOverlap> covered = cover.covered(picked);
    if (cover.note()) out.notes.push_back(*cover.note());
    Summation covered_time, covered_new;
    const auto point = [&specs](std::size_t s) { return specs[s].factor.value; };
    for (const CoveredOverlap& c : covered) {
        covered_time.add(c.time);
        const double k = covered_factor(c, owner, point);
        covered_new.add(time_at_factor(c.time, k));
    }
    Summation baseline, new_time, saved, affected, untouched;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        const double time = profile.phases[i].time;
        PhaseOutcome& phase = out.phases[i];
        phase.spec = owner[i];
        if (owner[i] < 0 && !covered.empty() && profile.phases[i].name == overlapped_phase) {
            Summation whole;
            whole.add(time);
            const double left = std::max(0.0, whole.minus(covered_time));  // ran beside an untouched phase
            out.covered_overlap_time = time - left;
            phase.new_time = left + covered_new.value();
            phase.factor = phase.new_time > 0 ? time / phase.new_time : std::numeric_limits<double>::infinity();
            phase.shrinks_with_others = true;
            affected.add(out.covered_overlap_time);
            untouched.add(left);
            out.notes.push_back(covered_overlap_note(profile, out.covered_overlap_time, "sped-up phases"));
        } else if (owner[i] >= 0) {
            phase.factor = specs[static_cast<std::size_t>(owner[i])].factor.value;
            // T_i' = T_i / k_i  (0 when k_i is infinite)
            phase.new_time = time_at_factor(time, phase.factor);
            affected.add(time);
        } else {
            phase.new_time = time;
            untouched.add(time);
        }
        phase.saved = time - phase.new_time;
        baseline.add(time);
        new_time.add(phase.new_time);
        saved.add(phase.saved);
    }
    out.baseline_time = baseline.value();
    out.new_time = new_time.value();
    out.time_saved = saved.value();
    // S = T / T'
    out.speedup = out.new_time > 0 ? out.baseline_time / out.new_time : std::numeric_limits<double>::infinity();
    out.saved_fraction = out.baseline_time > 0 ? out.time_saved / out.baseline_time : 0;
    out.affected_fraction = out.baseline_time > 0 ? affected.value() / out.baseline_time : 0;
    // The ceiling uses the untouched time directly, 1 / (1 - f) = T / T_untouched, so that
    // f == 1 is exact rather than a rounding accident.
    out.ceiling = untouched.value() > 0 ? out.baseline_time / untouched.value()
                                        : (affected.value() > 0 ? std::numeric_limits<double>::infinity() : 1.0);
    if (affected.value() > 0) out.headroom_captured = out.time_saved / affected.value();
    out.uncertainty = evaluation_uncertainty(profile, specs, owner);

    out.overlap_range = overlap_range(profile, specs, owner, covered, out);
    if (out.overlap_range && out.uncertainty) out.uncertainty->exclusive_only = true;
    return out;
}

}  // namespace amdahl
