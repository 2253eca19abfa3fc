// rank --plot: S against k for each ranked target alone, each target's ceiling T / (T - t) as
// its asymptote, and the k it was ranked at marked.
#include <fmt/format.h>

#include <cmath>

#include "amdahl/error.hpp"
#include "report/plot.hpp"

namespace amdahl {

namespace {
constexpr std::size_t drawn_targets = 5;  // more curves than this cannot be told apart
}

std::string plot_svg(const RankResult& result, const NumberStyle& style) {
    if (result.replayed)
        throw Error("--plot",
                    "rank --model replay has no chart yet (its curves would be the phase table's law, not "
                    "the replayed trace's); drop --model replay to chart the law");
    const double total = result.baseline_time;
    const std::size_t shown = std::min(result.ranked.size(), drawn_targets);
    std::vector<double> factors;
    for (std::size_t i = 0; i < shown; ++i) factors.push_back(result.set.candidates[result.ranked[i].candidate].factor);
    const auto [k_low, k_high] = plot::factor_range(factors);

    plot::LineChart chart;
    chart.x_title = "local speedup k of the target (x, log scale)";
    chart.y_title = "end-to-end speedup S (x)";
    chart.log_x = true;
    chart.from_zero = false;
    chart.legend_width = 320;
    for (std::size_t i = 0; i < shown; ++i) {
        const RankedTarget& target = result.ranked[i];
        const Candidate& candidate = result.set.candidates[target.candidate];
        const std::string_view colour = svg::series_colour(i);
        const double fraction = total > 0 ? candidate.time / total : 0;  // f = t / T
        // The legend carries the numbers: labels beside curves this close would overlap.
        chart.series.push_back(
            {fmt::format("{}. {}: {} (ceiling {})", i + 1, plot::shortened(candidate.name, 16),
                         format_speedup(target.speedup, style), format_speedup(target.ceiling, style)),
             colour, plot::speedup_curve(fraction, k_low, k_high)});
        chart.asymptotes.push_back({target.ceiling, "", colour});
        if (std::isfinite(candidate.factor)) chart.callouts.push_back({candidate.factor, target.speedup, "", colour});
    }
    std::vector<std::string> notes = {
        "Model: Amdahl's law for each target alone, S = 1 / ((1 - f) + f / k) with f = the target's share of the "
        "time; the dashed lines are each target's ceiling 1/(1-f), reached only if it took no time."};
    if (result.ranked.size() > shown)
        notes.push_back(fmt::format("The first {} of {} ranked targets are drawn.", shown, result.ranked.size()));
    if (!result.profile->boundary.empty()) notes.push_back("Boundary: " + result.profile->boundary);
    if (result.profile->unit_assumed) notes.push_back("The input declares no unit: its times were read as ms.");

    const std::string title =
        shown == 0 ? std::string("rank: no targets")
                   : fmt::format("Ranked targets: the best, {}, gives {} alone (ceiling {})",
                                 plot::shortened(result.set.candidates[result.ranked[0].candidate].name, 30),
                                 format_speedup(result.ranked[0].speedup, style),
                                 format_speedup(result.ranked[0].ceiling, style));
    return plot::line_charts("rank", title, {chart}, notes);
}

}  // namespace amdahl
