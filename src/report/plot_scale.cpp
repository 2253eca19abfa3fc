// scale --plot: the speedup and the efficiency S/N at each N asked for, the ceiling 1/(1-P)
// as the speedup's asymptote, and the best N marked.
#include <fmt/format.h>

#include <cmath>

#include "report/plot.hpp"

namespace amdahl {

std::string plot_svg(const ScaleResult& result, const NumberStyle& style) {
    const bool amdahl_law = result.law == ScalingLaw::amdahl;
    plot::LineChart speedup, efficiency;
    long long smallest = result.rows.empty() ? 1 : result.rows.front().n;
    long long largest = result.rows.empty() ? 1 : result.rows.back().n;
    const bool log_x = largest >= 64 * smallest;
    const std::string x_title = log_x ? "processors N (log scale)" : "processors N";
    speedup.x_title = efficiency.x_title = x_title;
    speedup.log_x = efficiency.log_x = log_x;
    speedup.y_title = "speedup S (x)";
    efficiency.y_title = "efficiency S/N";
    plot::Series s{"speedup S(N)", svg::palette[0], {}, true, true};
    plot::Series e{"efficiency S/N", svg::palette[2], {}, true, true};
    for (const ScaleRow& row : result.rows) {
        s.points.emplace_back(static_cast<double>(row.n), row.speedup);
        e.points.emplace_back(static_cast<double>(row.n), row.efficiency());
    }
    speedup.series.push_back(s);
    efficiency.series.push_back(e);
    if (amdahl_law && std::isfinite(result.ceiling)) {
        speedup.asymptotes.push_back({result.ceiling,
                                      fmt::format("ceiling 1/(1-P) = {}", format_speedup(result.ceiling, style)),
                                      svg::palette[5]});
        speedup.series.push_back({"ceiling 1/(1-P)", svg::palette[5], {}, true, false, "6 4"});
    }
    speedup.callouts.push_back({static_cast<double>(result.best.n), result.best.speedup,
                                fmt::format("best N = {}: {}", format_count(static_cast<std::uint64_t>(result.best.n)),
                                            format_speedup(result.best.speedup, style)),
                                svg::ink});

    const bool with_overhead = result.overhead.model != Overhead::Model::none;
    std::vector<std::string> notes = {fmt::format(
        "Model: {} with P = {} of the one-processor time parallel{}.",
        amdahl_law ? "Amdahl's law (strong scaling: a fixed problem)"
                   : "Gustafson's law (weak scaling: the problem grows with N)",
        format_share(result.parallel_fraction, style),
        with_overhead
            ? fmt::format(" and a {} overhead O(N) added to the time", overhead_model_name(result.overhead.model))
            : ", no overhead")};
    notes.push_back(fmt::format("Best N is searched over 1..{}; the points are the counts asked for (-n).",
                                format_count(static_cast<std::uint64_t>(result.largest_n))));
    if (!amdahl_law) notes.push_back("Gustafson's law has no ceiling: the speedup grows with N without bound.");
    if (!result.effective.empty())
        notes.push_back("Where --effective gave a measured local speedup k at N, the point uses it instead of k = N.");

    const std::string title =
        fmt::format("Scaling: best N = {} gives {}{}", format_count(static_cast<std::uint64_t>(result.best.n)),
                    format_speedup(result.best.speedup, style),
                    amdahl_law && std::isfinite(result.ceiling)
                        ? fmt::format(" (ceiling {})", format_speedup(result.ceiling, style))
                        : std::string());
    return plot::line_charts("scale", title, {speedup, efficiency}, notes);
}

}  // namespace amdahl
