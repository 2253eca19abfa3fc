#include "amdahl/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

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
        add_phase(owner[i] >= 0 ? groups[static_cast<std::size_t>(owner[i])] : groups.back(), profile.phases[i]);
    return speedup_uncertainty(groups);
}

}  // namespace

Evaluation evaluate(const Profile& profile, const std::vector<SpeedupSpec>& specs) {
    Evaluation out;
    const std::vector<int> owner = assign_speedups(profile, specs, &out.notes);
    out.phases.resize(profile.phases.size());
    Summation baseline, new_time, saved, affected, untouched;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        const double time = profile.phases[i].time;
        PhaseOutcome& phase = out.phases[i];
        phase.spec = owner[i];
        if (owner[i] >= 0) {
            phase.factor = specs[static_cast<std::size_t>(owner[i])].factor.value;
            // T_i' = T_i / k_i  (0 when k_i is infinite)
            phase.new_time = std::isinf(phase.factor) ? 0.0 : time / phase.factor;
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

    // Overlap (imported traces): a phase's active time also covers time it shared with others.
    Summation high, overlapped;
    bool any_overlap = false;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        const Phase& phase = profile.phases[i];
        if (phase.name == overlapped_phase && out.phases[i].spec < 0) overlapped.add(phase.time);
        if (out.phases[i].spec < 0) continue;
        const double active = phase.active_time.value_or(phase.time);
        any_overlap = any_overlap || active > phase.time;
        const double k = out.phases[i].factor;
        // saved_high_i = A_i (1 - 1/k_i)
        high.add(std::isinf(k) ? active : active - active / k);
    }
    if (any_overlap) {
        // The saving lies between the exclusive-time estimate and the active-time one (which can
        // save no more than the affected and overlapped time). A speedup makes the active-time
        // estimate the high end; a slowdown makes it the low end.
        const double active_estimate = std::min(high.value(), affected.value() + overlapped.value());
        const auto speedup_of = [&](double saving) {
            if (saving == out.time_saved) return out.speedup;
            const double remaining = out.baseline_time - saving;
            return remaining > 0 ? out.baseline_time / remaining : std::numeric_limits<double>::infinity();
        };
        OverlapRange range;
        range.low_saved = std::min(out.time_saved, active_estimate);
        range.high_saved = std::max(out.time_saved, active_estimate);
        range.low_speedup = speedup_of(range.low_saved);
        range.high_speedup = speedup_of(range.high_saved);
        out.overlap_range = range;
    }
    return out;
}

}  // namespace amdahl
