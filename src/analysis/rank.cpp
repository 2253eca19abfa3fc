#include "amdahl/rank.hpp"

#include <algorithm>
#include <cmath>

#include "amdahl/error.hpp"

namespace amdahl {

std::vector<RankedTarget> rank_candidates(const std::vector<Candidate>& candidates, double baseline, RankBy by,
                                          const std::vector<double>& grid) {
    std::vector<RankedTarget> out;
    out.reserve(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        if (by == RankBy::effort && !c.effort) {
            throw Error("'" + c.name +
                        "' has no effort; --by effort needs one on every proposal (SELECTOR=FACTOR@EFFORT)");
        }
        RankedTarget target;
        target.candidate = i;
        target.speedup = speedup_from_saving(baseline, c.saved);
        target.ceiling = speedup_from_saving(baseline, c.time);
        if (c.effort) target.saved_per_effort = c.saved / *c.effort;
        for (double k : grid)
            target.grid.push_back(speedup_from_saving(baseline, std::isinf(k) ? c.time : c.time - c.time / k));
        out.push_back(std::move(target));
    }
    const auto key = [&](const RankedTarget& t) {
        switch (by) {
            case RankBy::effort:
                return *t.saved_per_effort;
            case RankBy::ceiling:
                return candidates[t.candidate].time;
            case RankBy::saving:
                break;
        }
        return candidates[t.candidate].saved;
    };
    std::stable_sort(out.begin(), out.end(),
                     [&](const RankedTarget& a, const RankedTarget& b) { return key(a) > key(b); });
    return out;
}

}  // namespace amdahl
