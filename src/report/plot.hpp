#pragma once
// What the charts (report/chart.hpp, src/report/plot_<command>.cpp) share: sizes, the footer,
// Amdahl's S(k) curve, and line charts drawn with the SVG writer (report/svg.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/chart.hpp"
#include "report/numbers.hpp"
#include "report/svg.hpp"

namespace amdahl {

namespace plot {

inline constexpr double width = 800;       ///< every chart's width, in pixels at 100%
inline constexpr double title_size = 15;   ///< the chart's title line
inline constexpr double footer_size = 11;  ///< the model and its assumptions
inline constexpr double footer_line = 15;  ///< the height of one footer line

/// `name` cut to `max_characters` code points with "..." (U+2026) at the end; the full name goes
/// in the element's tooltip.
std::string shortened(std::string_view name, std::size_t max_characters = 36);
/// Draws the footer lines from `top` in muted ink; returns the height they take.
double footer(svg::Document& document, double top, const std::vector<std::string>& lines);
/// The height footer() will take for `lines`.
double footer_height(const std::vector<std::string>& lines);
/// "time (ms)": an axis title with its unit.
std::string with_unit(std::string_view quantity, std::string_view unit);

/// One line or set of points on a line chart, in data coordinates.
struct Series {
    std::string label;  ///< the legend's
    std::string_view colour;
    std::vector<std::pair<double, double>> points;
    bool line = true;      ///< joined by a line
    bool markers = false;  ///< a dot at each point
    std::string_view dash = {};
    std::string_view css_class = "series";
};
/// A horizontal dashed line the curves approach (a ceiling), labelled at the right (unless the
/// label is empty: the legend says it).
struct Asymptote {
    double y = 0;
    std::string label;
    std::string_view colour;
};
/// A point to call out (the chosen k, the best N), with its label beside it (none when empty).
struct Callout {
    double x = 0, y = 0;
    std::string label;
    std::string_view colour;
};
/// A chart of curves against one x axis: speedup against k or N.
struct LineChart {
    std::string x_title, y_title;  ///< with units
    bool log_x = false;
    bool from_zero = true;  ///< the y axis starts at 0 (else at the lowest point: speedups from 1)
    double legend_width = 190;
    std::vector<Series> series;
    std::vector<Asymptote> asymptotes;
    std::vector<Callout> callouts;
};
/// Amdahl's S(k) = 1 / ((1 - f) + f / k) for k log-spaced over [k_low, k_high] (law, rank).
std::vector<std::pair<double, double>> speedup_curve(double fraction, double k_low, double k_high);
/// The k axis's extent for a chosen k: from 1 (or below a slowdown) to well past k.
std::pair<double, double> factor_range(const std::vector<double>& factors);

/// The height a line chart's panel takes.
inline constexpr double line_chart_height = 340;
/// Draws `chart` in a panel of line_chart_height from `top`, its legend at the right.
void draw(svg::Document& document, double top, const LineChart& chart);
/// A whole chart of line charts: `title` at the top, the panels one under another, `notes` in the
/// footer; `command` names it in the document's <title> ("amdahl law: ...").
std::string line_charts(std::string_view command, const std::string& title, const std::vector<LineChart>& panels,
                        const std::vector<std::string>& notes);
/// The title (bold) and subtitle lines at the top of a chart; returns where the panels start.
double heading(svg::Document& document, const std::string& title, const std::string& subtitle);

}  // namespace plot

}  // namespace amdahl
