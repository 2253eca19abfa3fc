// fit --plot: the measured speedups as points, the fitted law as a curve through them, the
// ceiling 1/(1-P) as its asymptote, and the efficiency S/N of both below.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/plot.hpp"

namespace amdahl {

std::string plot_svg(const FitResult& result, const NumberStyle& style) {
    long long largest = 1;
    for (const ScalingPoint& point : result.points) largest = std::max(largest, point.n);
    for (long long n : result.predict) largest = std::max(largest, n);
    if (result.best) largest = std::max(largest, result.best->n);
    const bool log_x = largest >= 64;

    plot::LineChart speedup, efficiency;
    speedup.x_title = efficiency.x_title = log_x ? "processors N (log scale)" : "processors N";
    speedup.log_x = efficiency.log_x = log_x;
    speedup.y_title = "speedup S (x)";
    efficiency.y_title = "efficiency S/N";
    plot::Series measured{"measured", svg::palette[0], {}, false, true};
    plot::Series measured_efficiency{"measured", svg::palette[0], {}, false, true};
    for (const ScalingPoint& point : result.points) {
        const auto n = static_cast<double>(point.n);
        measured.points.emplace_back(n, point.speedup);
        measured_efficiency.points.emplace_back(n, point.speedup / n);
    }
    plot::Series fitted{"fitted law", svg::palette[1], {}, true, false};
    plot::Series fitted_efficiency{"fitted law", svg::palette[1], {}, true, false};
    constexpr int steps = 100;
    long long previous = 0;
    for (int i = 0; i <= steps; ++i) {
        // N = largest^(i / steps), rounded to a count: the law is defined on whole processors.
        const auto n = std::llround(std::pow(static_cast<double>(largest), i / double(steps)));
        if (n == previous) continue;
        previous = n;
        const double s = result.fit.speedup(n);
        fitted.points.emplace_back(static_cast<double>(n), s);
        fitted_efficiency.points.emplace_back(static_cast<double>(n), s / static_cast<double>(n));
    }
    speedup.series = {measured, fitted};
    efficiency.series = {measured_efficiency, fitted_efficiency};
    if (std::isfinite(result.ceiling)) {
        speedup.asymptotes.push_back({result.ceiling,
                                      fmt::format("ceiling 1/(1-P) = {}", format_speedup(result.ceiling, style)),
                                      svg::palette[5]});
        speedup.series.push_back({"ceiling 1/(1-P)", svg::palette[5], {}, true, false, "6 4"});
    }
    if (result.best)
        speedup.callouts.push_back(
            {static_cast<double>(result.best->n), result.best->speedup,
             fmt::format("best N = {}: {}", format_count(static_cast<std::uint64_t>(result.best->n)),
                         format_speedup(result.best->speedup, style)),
             svg::ink});

    std::vector<std::string> notes = {
        fmt::format("Model: Amdahl's law fitted to the runs (least squares on 1/S), P = {}{}; RMSE of the speedups {}.",
                    format_fixed(result.fit.parallel_fraction, style),
                    result.model == Overhead::Model::none
                        ? std::string(", no overhead")
                        : fmt::format(", with a {} overhead c = {}", overhead_model_name(result.model),
                                      format_plain(result.fit.coefficient, style)),
                    format_fixed(result.fit.rmse, style))};
    notes.push_back(fmt::format("Source: {}. The N = 1 run is the baseline; {} with N > 1 were fitted.", result.source,
                                count_of(result.fit.used, "point")));
    for (const std::string& note : result.notes) notes.push_back("Note: " + note);

    const std::string title =
        fmt::format("Fitted scaling: P = {}, ceiling {}", format_fixed(result.fit.parallel_fraction, style),
                    format_speedup(result.ceiling, style));
    return plot::line_charts("fit", title, {speedup, efficiency}, notes);
}

}  // namespace amdahl
