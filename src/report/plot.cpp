#include "report/plot.hpp"

#include "amdahl/law.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace amdahl::plot {

using svg::LegendEntry;

std::string shortened(std::string_view name, std::size_t max_characters) {
    std::size_t characters = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if ((static_cast<unsigned char>(name[i]) & 0xC0) == 0x80) continue;  // inside a code point
        if (++characters == max_characters) {
            // Cut here only when more follows past this code point.
            std::size_t end = i + 1;
            while (end < name.size() && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80) ++end;
            if (end < name.size()) return std::string(name.substr(0, i)) + "\xe2\x80\xa6";
        }
    }
    return std::string(name);
}

namespace {

using PagePoints = std::vector<std::pair<double, double>>;

// A line through points on the page, as the eye sees it: of each run of points in one pixel column
// it keeps the first, the lowest, the highest and the last, in their order, so the line's extent in
// every column (and where it enters and leaves) is the same. `scale -n 14:94222` drew 94,209 points
// where the chart is about 800 pixels wide.
PagePoints thinned_line(const PagePoints& page) {
    PagePoints out;
    for (std::size_t start = 0; start < page.size();) {
        const double column = std::floor(page[start].first);
        std::size_t end = start + 1, low = start, high = start;
        for (; end < page.size() && std::floor(page[end].first) == column; ++end) {
            if (page[end].second < page[low].second) low = end;
            if (page[end].second > page[high].second) high = end;
        }
        const std::array<std::size_t, 4> kept = {start, std::min(low, high), std::max(low, high), end - 1};
        for (std::size_t i = 0; i < kept.size(); ++i)
            if (i == 0 || kept[i] != kept[i - 1]) out.push_back(page[kept[i]]);
        start = end;
    }
    return out;
}

// Dots at points on the page, but none within a pixel (along both axes) of the last one drawn:
// closer dots cover each other.
PagePoints thinned_dots(const PagePoints& page) {
    PagePoints out;
    for (const auto& point : page)
        if (out.empty() || std::fabs(point.first - out.back().first) >= 1 ||
            std::fabs(point.second - out.back().second) >= 1)
            out.push_back(point);
    return out;
}

// The footer's lines broken at spaces to fit the chart's width.
std::vector<std::string> wrapped(const std::vector<std::string>& lines) {
    const double room = width - 32;
    std::vector<std::string> out;
    for (const std::string& line : lines) {
        std::string current;
        std::size_t start = 0;
        while (start <= line.size()) {
            std::size_t end = line.find(' ', start);
            if (end == std::string::npos) end = line.size();
            const std::string word = line.substr(start, end - start);
            const std::string longer = current.empty() ? word : current + ' ' + word;
            if (!current.empty() && svg::text_width(longer, footer_size) > room) {
                out.push_back(current);
                current = "  " + word;
            } else {
                current = longer;
            }
            start = end + 1;
        }
        out.push_back(current);
    }
    return out;
}

}  // namespace

double footer_height(const std::vector<std::string>& lines) {
    return static_cast<double>(wrapped(lines).size()) * footer_line;
}

double footer(svg::Document& document, double top, const std::vector<std::string>& lines) {
    double y = top;
    for (const std::string& line : wrapped(lines)) {
        y += footer_line;
        document.text(16, y - 4, line, {.size = footer_size, .fill = svg::muted_ink, .css_class = "footer"});
    }
    return y - top;
}

std::string with_unit(std::string_view quantity, std::string_view unit) {
    return fmt::format("{} ({})", quantity, unit);
}

std::vector<std::pair<double, double>> speedup_curve(double fraction, double k_low, double k_high) {
    constexpr int steps = 120;
    std::vector<std::pair<double, double>> points;
    for (int i = 0; i <= steps; ++i) {
        // k = k_low (k_high / k_low)^(i / steps)
        const double k = k_low * std::pow(k_high / k_low, i / double(steps));
        points.emplace_back(k, solve_for_speedup(fraction, k).speedup);
    }
    return points;
}

std::pair<double, double> factor_range(const std::vector<double>& factors) {
    double low = 1, high = 100;
    for (double k : factors) {
        if (!std::isfinite(k) || !(k > 0)) continue;
        low = std::min(low, k / 2);
        high = std::max(high, k * 10);
    }
    return {low, high};
}

double heading(svg::Document& document, const std::string& title, const std::string& subtitle) {
    document.text(16, 24, title, {.size = title_size, .bold = true, .css_class = "title"});
    if (subtitle.empty()) return 36;
    document.text(16, 44, subtitle, {.size = 12, .fill = svg::muted_ink, .css_class = "subtitle"});
    return 56;
}

void draw(svg::Document& document, double top, const LineChart& chart) {
    const svg::PlotArea area{.left = 80,
                             .top = top + 12,
                             .width = width - 80 - chart.legend_width - 20,
                             .height = line_chart_height - 12 - 60};
    // The data's extent: every point, asymptote and callout is inside the axes.
    double x_low = INFINITY, x_high = -INFINITY, y_high = 0, y_lowest = INFINITY;
    for (const Series& series : chart.series)
        for (const auto& [x, y] : series.points) {
            if (!std::isfinite(x) || !std::isfinite(y) || (chart.log_x && !(x > 0))) continue;
            x_low = std::min(x_low, x);
            x_high = std::max(x_high, x);
            y_high = std::max(y_high, y);
            y_lowest = std::min(y_lowest, y);
        }
    for (const Asymptote& asymptote : chart.asymptotes)
        if (std::isfinite(asymptote.y)) y_high = std::max(y_high, asymptote.y);
    if (!(x_low <= x_high)) x_low = 1, x_high = 10;
    if (x_low == x_high) x_high = x_low * 10;
    const double y_low = chart.from_zero || !std::isfinite(y_lowest) ? 0 : y_lowest;
    if (!(y_high > y_low)) y_high = y_low + 1;
    // A log axis spans the data exactly, with the ticks inside it; a linear one ends on ticks.
    std::vector<double> x_ticks = chart.log_x ? svg::log_ticks(x_low, x_high) : svg::nice_ticks(x_low, x_high, 6);
    if (chart.log_x)
        std::erase_if(x_ticks, [&](double tick) { return tick < x_low * (1 - 1e-9) || tick > x_high * (1 + 1e-9); });
    const std::vector<double> y_ticks = svg::nice_ticks(y_low, y_high * 1.05, 6);
    const svg::Scale x{.domain_low = chart.log_x || x_ticks.empty() ? x_low : x_ticks.front(),
                       .domain_high = chart.log_x || x_ticks.empty() ? x_high : x_ticks.back(),
                       .range_low = area.left,
                       .range_high = area.right(),
                       .logarithmic = chart.log_x};
    const svg::Scale y{.domain_low = y_ticks.front(),
                       .domain_high = y_ticks.back(),
                       .range_low = area.bottom(),
                       .range_high = area.top};
    svg::x_axis(document, area, x, x_ticks, svg::tick_labels(x_ticks), chart.x_title);
    svg::y_axis(document, area, y, y_ticks, svg::tick_labels(y_ticks), chart.y_title);

    for (const Asymptote& asymptote : chart.asymptotes) {
        if (!std::isfinite(asymptote.y)) continue;
        document.line(area.left, y(asymptote.y), area.right(), y(asymptote.y),
                      {.stroke = asymptote.colour, .stroke_width = 1.5, .dash = "6 4", .css_class = "asymptote"});
        if (!asymptote.label.empty())
            document.text(
                area.right() - 4, y(asymptote.y) - 4, asymptote.label,
                {.size = 11, .anchor = svg::Anchor::end, .fill = asymptote.colour, .css_class = "asymptote-label"});
    }
    std::vector<LegendEntry> entries;
    for (const Series& series : chart.series) {
        PagePoints page;
        for (const auto& [px, py] : series.points)
            if (std::isfinite(px) && std::isfinite(py) && (!chart.log_x || px > 0)) page.emplace_back(x(px), y(py));
        if (series.line)
            document.polyline(
                thinned_line(page),
                {.stroke = series.colour, .stroke_width = 2, .dash = series.dash, .css_class = series.css_class});
        if (series.markers)
            for (const auto& [px, py] : thinned_dots(page))
                document.circle(px, py, 3.5, {.fill = series.colour, .css_class = "point"});
        entries.push_back({series.label, series.colour, series.line, series.dash});
    }
    for (const Callout& callout : chart.callouts) {
        if (!std::isfinite(callout.x) || !std::isfinite(callout.y)) continue;
        const double cx = x(callout.x), cy = y(callout.y);
        document.circle(cx, cy, 6, {.stroke = callout.colour, .stroke_width = 2, .css_class = "callout"});
        if (callout.label.empty()) continue;
        const bool right_half = cx > area.left + area.width * 0.6;
        document.text(cx + (right_half ? -10 : 10), cy - 10, callout.label,
                      {.size = 11,
                       .anchor = right_half ? svg::Anchor::end : svg::Anchor::start,
                       .bold = true,
                       .css_class = "callout-label"});
    }
    svg::legend(document, area.right() + 20, area.top, entries);
}

std::string line_charts(std::string_view command, const std::string& title, const std::vector<LineChart>& panels,
                        const std::vector<std::string>& notes) {
    const double panels_height = static_cast<double>(panels.size()) * line_chart_height;
    svg::Document document(width, 36 + panels_height + footer_height(notes) + 10,
                           fmt::format("amdahl {}: {}", command, title));
    double top = heading(document, title, "");
    for (const LineChart& panel : panels) {
        draw(document, top, panel);
        top += line_chart_height;
    }
    footer(document, top, notes);
    return document.finish();
}

}  // namespace amdahl::plot
