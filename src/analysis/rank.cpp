#include "amdahl/rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "report/numbers.hpp"

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

std::optional<std::string> overlapped_targets_note(const Profile& profile, const std::vector<Candidate>& candidates) {
    // Without an `overlapped` phase there is no overlap range to point to (eval prints none).
    const double total = profile.total();
    double overlapped = 0;
    for (const Phase& p : profile.phases)
        if (p.name == overlapped_phase) overlapped += p.time;
    if (!(total > 0) || !(overlapped > 0)) return std::nullopt;
    struct Beside {
        std::size_t candidate;
        double running;  // the longest active time of its phases: a lower bound of the time it ran
        bool held;       // an upper bound instead: held to its own time and the 'overlapped' phase's
    };
    // The time alone is what surely shrinks under a speedup, and the least a slowdown costs.
    const auto slows = [&](const Candidate& c) { return c.factor_range ? c.factor_range->low < 1 : c.factor < 1; };
    std::vector<Beside> beside;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        if (!c.factor_range && c.factor == 1) continue;  // at 1x nothing changes, beside others or not
        double running = 0;
        for (std::size_t p : c.phases)
            running = std::max(running, profile.phases[p].active_time.value_or(profile.phases[p].time));
        // As eval's range holds a speedup's saving: the phases' own times and what 'overlapped'
        // holds, at most (the candidate's time also holds its covered overlap, which is in
        // 'overlapped' already). A slowdown's cost eval does not hold.
        double own = 0;
        for (std::size_t p : c.phases) own += profile.phases[p].time;
        const bool held = !slows(c) && running > own + overlapped;
        if (held) running = own + overlapped;
        if (running - c.time > c.time && running - c.time >= 0.01 * total) beside.push_back({i, running, held});
    }
    if (beside.empty()) return std::nullopt;
    std::stable_sort(beside.begin(), beside.end(),
                     [](const Beside& a, const Beside& b) { return a.running > b.running; });
    const std::size_t slowdowns = static_cast<std::size_t>(
        std::count_if(beside.begin(), beside.end(), [&](const Beside& b) { return slows(candidates[b.candidate]); }));
    const char* reading = slowdowns == 0               ? "the time that surely shrinks"
                          : slowdowns == beside.size() ? "for a slowdown the least it costs: the time beside other "
                                                         "work may grow too"
                                                       : "for a speedup the time that surely shrinks, for a slowdown "
                                                         "the least it costs";
    std::string text = fmt::format(
        "{}: {} ran mostly beside other work, and rank counts only the time a target ran alone ({}): ", profile.source,
        count_of(beside.size(), "target"), reading);
    const std::size_t shown = std::min<std::size_t>(beside.size(), 3);
    for (std::size_t j = 0; j < shown; ++j) {
        const Candidate& c = candidates[beside[j].candidate];
        const char* bound = beside[j].held ? "up to " : c.phases.size() > 1 ? "at least " : "";
        text += fmt::format("{}'{}' ran {}{} ({} of the time), {} alone", j ? "; " : "", printable(c.name), bound,
                            format_duration(beside[j].running, profile.unit), format_share(beside[j].running / total),
                            format_duration(c.time, profile.unit));
    }
    if (beside.size() > shown) text += fmt::format("; and {} more", beside.size() - shown);
    return text +
           ". What the rest is worth depends on what waits for them: eval -s TARGET=K shows a target's range, "
           "--model replay one figure";
}

}  // namespace amdahl
