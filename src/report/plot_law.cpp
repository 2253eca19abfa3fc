// law --plot: S against k for the fraction f, the ceiling 1/(1-f) as its asymptote, and the
// solved (or given) point marked.
#include <fmt/format.h>

#include <cmath>

#include "amdahl/error.hpp"
#include "report/plot.hpp"

namespace amdahl {

std::string plot_svg(const LawResult& result, const NumberStyle& style) {
    const LawSolution& s = result.solution;
    using Solved = LawResult::Solved;
    if (result.solved_for == Solved::fraction && !s.possible)
        throw Error("--plot",
                    fmt::format("no fraction f reaches the target, so there is no curve to draw ({})", s.reason));
    const bool reached = s.possible && std::isfinite(s.factor);
    const auto [k_low, k_high] = plot::factor_range({s.factor});

    plot::LineChart chart;
    chart.x_title = "local speedup k of the part (x, log scale)";
    chart.y_title = "end-to-end speedup S (x)";
    chart.log_x = true;
    chart.from_zero = false;
    chart.series.push_back({fmt::format("S(k), f = {}", format_share(s.fraction, style)), svg::palette[0],
                            plot::speedup_curve(s.fraction, k_low, k_high)});
    chart.asymptotes.push_back(
        {s.ceiling, fmt::format("ceiling 1/(1-f) = {}", format_speedup(s.ceiling, style)), svg::palette[5]});
    chart.series.push_back({"ceiling 1/(1-f)", svg::palette[5], {}, true, false, "6 4"});
    if (!s.possible)
        chart.asymptotes.push_back(
            {s.speedup, fmt::format("target {}: above the ceiling", format_speedup(s.speedup, style)), svg::ink});
    if (reached)
        chart.callouts.push_back(
            {s.factor, s.speedup,
             fmt::format("k = {} \u2192 S = {}", format_factor(s.factor, style), format_speedup(s.speedup, style)),
             svg::ink});

    std::vector<std::string> notes = {
        "Model: Amdahl's law, S = 1 / ((1 - f) + f / k): a fraction f of the time runs k times faster, the rest "
        "as before; as k grows S approaches the ceiling 1/(1-f) and never passes it."};
    if (result.parts.size() > 1)
        notes.push_back(
            fmt::format("{} parts together: f is their sum and the marked k their combined factor "
                        "\u03a3f / \u03a3(f / k); the curve speeds every part by one common k.",
                        result.parts.size()));
    if (s.at_ceiling)
        notes.push_back("The target is the ceiling itself: only k = inf reaches it, so no point is marked.");
    if (!s.possible) notes.push_back(fmt::format("The target cannot be reached: {}.", s.reason));

    const std::string title =
        reached ? fmt::format("Amdahl's law: f = {}, k = {} gives S = {}", format_share(s.fraction, style),
                              format_factor(s.factor, style), format_speedup(s.speedup, style))
                : fmt::format("Amdahl's law: f = {}, ceiling {}", format_share(s.fraction, style),
                              format_speedup(s.ceiling, style));
    return plot::line_charts("law", title, {chart}, notes);
}

}  // namespace amdahl
