#include "amdahl/covered_overlap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "amdahl/numbers.hpp"
#include "report/numbers.hpp"

namespace amdahl {

namespace {
// Listed sets may add up to a little more than the `overlapped` phase in a profile written with
// rounded times (as a reader allows phases to add up to a little more than the total).
constexpr double listed_tolerance = 0.005;
}  // namespace

OverlapCover::OverlapCover(const Profile& profile) {
    if (profile.overlaps.empty()) return;  // no trace overlap: nothing to index (a table of a million phases)
    std::unordered_map<std::string_view, std::size_t> index;
    double overlapped_time = 0;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        index.emplace(profile.phases[i].name, i);
        if (profile.phases[i].name != overlapped_phase) continue;
        overlapped_ = i;
        overlapped_time = profile.phases[i].time;
    }
    Summation listed;
    for (const Overlap& overlap : profile.overlaps) listed.add(overlap.time);
    if (listed.value() > overlapped_time * (1 + listed_tolerance)) {
        note_ = fmt::format(
            "{}: the profile's overlaps add up to {}, more than the '{}' phase holds ({}): none is "
            "counted as sped up with its phases",
            profile.source, format_duration(listed.value(), profile.unit), overlapped_phase,
            format_duration(overlapped_time, profile.unit));
        return;
    }
    sets_of_.resize(profile.phases.size());
    for (std::size_t o = 0; o < profile.overlaps.size(); ++o) {
        const Overlap& overlap = profile.overlaps[o];
        if (!(overlap.time > 0) || overlap.phases.empty()) continue;
        CoveredOverlap set{overlap.time, {}, o};
        for (const std::string& name : overlap.phases) {
            const auto found = index.find(name);
            if (found == index.end()) {  // a name no phase has: nothing can cover the set
                set.phases.clear();
                break;
            }
            set.phases.push_back(found->second);
        }
        if (set.phases.empty()) continue;
        std::sort(set.phases.begin(), set.phases.end());
        set.phases.erase(std::unique(set.phases.begin(), set.phases.end()), set.phases.end());
        for (std::size_t p : set.phases) sets_of_[p].push_back(sets_.size());
        sets_.push_back(std::move(set));
    }
}

std::vector<CoveredOverlap> OverlapCover::covered(const std::vector<std::size_t>& phases) const {
    if (sets_.empty()) return {};
    std::unordered_map<std::size_t, std::size_t> members_in;  // set -> how many of its phases are given
    for (std::size_t p : phases) {
        if (p == overlapped_) return {};
        for (std::size_t s : sets_of_[p]) ++members_in[s];
    }
    std::vector<std::size_t> full;
    for (const auto& [s, count] : members_in)
        if (count == sets_[s].phases.size()) full.push_back(s);
    std::sort(full.begin(), full.end());  // in the profile's order, whatever the map's
    std::vector<CoveredOverlap> out;
    for (std::size_t s : full) out.push_back(sets_[s]);
    return out;
}

std::string covered_overlap_note(const Profile& profile, double time, const std::string& whose) {
    return fmt::format(
        "{}: {} of the '{}' time ran only {} (nothing else ran then): it shrinks with them, at the "
        "smallest of their factors",
        profile.source, format_duration(time, profile.unit), overlapped_phase, whose);
}

}  // namespace amdahl
