#include "amdahl/rank.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"

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
        // The new time is the time outside the candidate plus its own at k, T' = (T - t) + t / k,
        // when the outside is known to the last digit: T - saved keeps T's rounding, which is all
        // of T' when the candidate is nearly all of T.
        const auto speedup_at = [&](double k, double saved) {
            if (std::isnan(c.outside)) return speedup_from_saving(baseline, saved);
            return speedup_of_times(baseline, c.outside + time_at_factor(c.time, k));
        };
        target.speedup = speedup_at(c.factor, c.saved);
        target.ceiling = speedup_at(std::numeric_limits<double>::infinity(), c.time);
        if (c.effort) target.saved_per_effort = c.saved / *c.effort;
        for (double k : grid) target.grid.push_back(speedup_at(k, saving_at_factor(c.time, k)));
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
