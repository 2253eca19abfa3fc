#include "amdahl/candidate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "amdahl/covered_overlap.hpp"
#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/numbers.hpp"
#include "model/quoted_name.hpp"

namespace amdahl {

namespace {

// The profile's time, summed to all its digits, for each candidate's time outside it.
Summation profile_time(const Profile& profile) {
    Summation total;
    for (const Phase& phase : profile.phases) total.add(phase.time);
    return total;
}

Candidate make_candidate(const Profile& profile, const OverlapCover& cover, const Summation& total, std::string name,
                         std::vector<std::size_t> phases, double factor, std::optional<double> effort,
                         std::vector<std::string>* notes) {
    Candidate c;
    c.name = std::move(name);
    c.phases = std::move(phases);
    c.factor = factor;
    c.effort = effort;
    Summation time;
    for (std::size_t i = 0; i < c.phases.size(); ++i) {
        const Phase& phase = profile.phases[c.phases[i]];
        time.add(phase.time);
        if (i == 0)
            c.kind = phase.kind;
        else if (c.kind != phase.kind)
            c.kind.clear();
    }
    // Time when only these phases ran at once shrinks with them (a set has two phases at least).
    if (c.phases.size() >= 2) {
        Summation shared;
        for (const CoveredOverlap& set : cover.covered(c.phases)) {
            c.covered_overlaps.push_back(set.index);
            shared.add(set.time);
            time.add(set.time);
        }
        if (notes && !c.covered_overlaps.empty())
            notes->push_back(covered_overlap_note(profile, shared.value(), "the phases of " + quoted_name(c.name)));
    }
    c.time = time.value();
    c.outside = std::max(total.minus(time), 0.0);
    // saved = T_i - T_i / k
    c.saved = saving_at_factor(c.time, factor);
    return c;
}

// The phases a selector picks. With more than a handful of selectors, exact names are looked up in
// an index (as evaluate does) rather than each selector scanning every phase: 30,000 proposals on
// 30,000 phases took 6 s.
class PhaseFinder {
public:
    PhaseFinder(const Profile& profile, std::size_t selectors) : profile_(profile) {
        if (selectors <= 8) return;
        by_name_.reserve(profile.phases.size());
        for (std::size_t i = 0; i < profile.phases.size(); ++i) by_name_.emplace(profile.phases[i].name, i);
    }

    std::vector<std::size_t> select(const Selector& selector, std::vector<std::string>* notes) const {
        if (selector.type == Selector::Type::name) {
            if (const auto found = by_name_.find(selector.pattern); found != by_name_.end()) return {found->second};
        }
        return select_phases(profile_, selector, notes);  // globs, kinds, and names to suggest a spelling for
    }

private:
    const Profile& profile_;
    std::unordered_map<std::string_view, std::size_t> by_name_;
};

}  // namespace

double speedup_from_saving(double baseline, double saved) { return speedup_of_times(baseline, baseline - saved); }

double speedup_of_times(double baseline, double remaining) {
    return remaining > 0 ? baseline / remaining : std::numeric_limits<double>::infinity();
}

std::vector<Candidate> phase_candidates(const Profile& profile, const std::vector<Selector>& only, Factor factor,
                                        std::vector<std::string>* notes) {
    std::vector<bool> picked(profile.phases.size(), only.empty());
    if (only.empty()) {
        for (std::size_t i = 0; i < profile.phases.size(); ++i) picked[i] = !is_bookkeeping_phase(profile.phases[i]);
    }
    const PhaseFinder finder(profile, only.size());
    for (const auto& selector : only) {
        for (std::size_t i : finder.select(selector, notes)) picked[i] = true;
    }
    const Summation total = profile_time(profile);
    const OverlapCover cover(profile);
    std::vector<Candidate> out;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        if (picked[i])
            out.push_back(
                make_candidate(profile, cover, total, profile.phases[i].name, {i}, factor.value, std::nullopt, notes));
    }
    return out;
}

std::vector<Candidate> proposal_candidates(const Profile& profile, const std::vector<Proposal>& proposals,
                                           std::vector<std::string>* notes) {
    std::vector<Candidate> out;
    out.reserve(proposals.size());
    const PhaseFinder finder(profile, proposals.size());
    const Summation total = profile_time(profile);
    const OverlapCover cover(profile);
    if (cover.note() && notes) notes->push_back(*cover.note());
    for (const auto& proposal : proposals) {
        std::vector<std::size_t> phases;
        try {
            phases = finder.select(proposal.spec.selector, notes);
        } catch (const Error& e) {
            throw Error("proposal " + quoted_name(proposal.name) + ": " + e.message());
        }
        out.push_back(make_candidate(profile, cover, total, proposal.name, std::move(phases),
                                     proposal.spec.factor.value, proposal.spec.effort, notes));
        out.back().factor_range = proposal.spec.range;
    }
    return out;
}

std::vector<Proposal> profile_proposals(const Profile& profile) {
    std::vector<Proposal> out;
    for (const auto& stored : profile.proposals) {
        Proposal proposal;
        proposal.name = stored.name.empty() ? stored.target + "=" + stored.factor : stored.name;
        try {
            proposal.spec.selector = parse_selector(stored.target);
            const RangedFactor factor = parse_ranged_factor(stored.factor);
            proposal.spec.factor = factor.point;
            proposal.spec.range = factor.range;
        } catch (const Error& e) {
            throw Error(stored.where, e.message());
        }
        proposal.spec.effort = stored.effort;
        proposal.spec.effort_unit = stored.effort_unit;
        proposal.spec.text = proposal.name;
        out.push_back(std::move(proposal));
    }
    return out;
}

namespace {
// The time of the phases some candidate touches, and of the others: each summed as such, never one
// as the total minus the other (1.0 - (0.2 + 0.7) is 0.10000000000000009).
std::pair<double, double> touched_and_outside(const Profile& profile, const std::vector<Candidate>& candidates) {
    std::vector<bool> touched(profile.phases.size(), false);
    std::vector<bool> covered(profile.overlaps.size(), false);
    for (const auto& c : candidates) {
        for (std::size_t p : c.phases) touched[p] = true;
        for (std::size_t o : c.covered_overlaps) covered[o] = true;
    }
    Summation in, out, shared;
    for (std::size_t i = 0; i < touched.size(); ++i) (touched[i] ? in : out).add(profile.phases[i].time);
    // The overlapped time some candidate covers moves from outside (the `overlapped` phase) to in.
    for (std::size_t o = 0; o < covered.size(); ++o)
        if (covered[o]) shared.add(profile.overlaps[o].time);
    if (shared.value() == 0) return {in.value(), out.value()};
    in.add(shared.value());
    return {in.value(), std::max(0.0, out.minus(shared))};
}
}  // namespace

double candidate_time(const Profile& profile, const std::vector<Candidate>& candidates) {
    return touched_and_outside(profile, candidates).first;
}

double time_outside_candidates(const Profile& profile, const std::vector<Candidate>& candidates) {
    return touched_and_outside(profile, candidates).second;
}

}  // namespace amdahl
