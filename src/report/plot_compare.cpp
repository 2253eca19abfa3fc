// compare --plot: each phase's contribution to the end-to-end change (after - before, which
// add up to the change of the total), largest first, faster to the left of zero and slower to
// the right, the end-to-end change on top.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "report/plot.hpp"

namespace amdahl {

namespace {
constexpr std::size_t drawn_phases = 12;  // the rest are summed into one row

// What a side is: its --label, else the files it was read from.
std::string side(const std::string& label, const std::vector<std::string>& sources) {
    if (!label.empty()) return label;
    std::string files;
    for (const std::string& source : sources) files += (files.empty() ? "" : ", ") + source;
    return files;
}
}  // namespace

std::string plot_svg(const CompareReport& report, const NumberStyle& style) {
    const Comparison& c = report.comparison;
    const std::string unit(unit_name(c.unit));
    std::vector<std::size_t> order(c.phases.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::fabs(c.phases[a].change) > std::fabs(c.phases[b].change);
    });
    struct Row {
        std::string label, tooltip;
        double change;
        std::string_view css_class;
    };
    std::vector<Row> rows = {{"end to end", "after - before, end to end", c.change, "total"}};
    const std::size_t shown = order.size() <= drawn_phases + 1 ? order.size() : drawn_phases;
    for (std::size_t i = 0; i < shown; ++i) {
        const PhaseChange& phase = c.phases[order[i]];
        rows.push_back({plot::shortened(phase.name, 30),
                        fmt::format("{}: {} {} \u2192 {} {}", phase.name, format_time(phase.before.median, style), unit,
                                    format_time(phase.after.median, style), unit),
                        phase.change, "contribution"});
    }
    if (order.size() > shown) {
        double rest = 0;
        for (std::size_t i = shown; i < order.size(); ++i) rest += c.phases[order[i]].change;
        rows.push_back({fmt::format("other {}", count_of(order.size() - shown, "phase")),
                        "the smaller changes together", rest, "contribution"});
    }

    std::vector<std::string> notes = {
        "Each phase's contribution is its change in time, after - before (medians of the runs); the contributions "
        "add up to the end-to-end change. Left of zero: faster; right: slower.",
        fmt::format("Before: {}. After: {}.", side(report.label_before, report.before_sources),
                    side(report.label_after, report.after_sources))};
    if (!report.boundary.empty()) notes.push_back("Boundary: " + report.boundary);
    if (report.summary_only)
        notes.push_back("A side came from a summary: its totals are sums of rows that may overlap, not wall times.");
    if (c.confidence > 0)
        notes.push_back(fmt::format("End-to-end change {} {} to {} {} ({} interval); the bars show medians.",
                                    format_signed_time(c.change_low, style), unit,
                                    format_signed_time(c.change_high, style), unit, format_share(c.confidence, style)));
    if (order.size() > shown)
        notes.push_back(fmt::format("The {} largest changes are drawn one by one; the other {} as one row.", shown,
                                    order.size() - shown));

    constexpr double row_height = 26;
    const double top_offset = 40;
    const svg::PlotArea area{.left = 250,
                             .top = top_offset + 8,
                             .width = plot::width - 250 - 110,
                             .height = row_height * static_cast<double>(rows.size())};
    const double height = area.bottom() + 52 + plot::footer_height(notes) + 10;
    const std::string title =
        fmt::format("What changed: {} {} end to end ({}), {}", format_signed_time(c.change, style), unit,
                    format_signed_share(c.change_of_total, style), format_speedup(c.speedup, style));
    svg::Document document(plot::width, height, "amdahl compare: " + title);
    plot::heading(document, title, "");

    double low = 0, high = 0;
    for (const Row& row : rows) {
        low = std::min(low, row.change);
        high = std::max(high, row.change);
    }
    if (low == high) high = 1;
    const std::vector<double> ticks = svg::nice_ticks(low, high, 6);
    const svg::Scale x{
        .domain_low = ticks.front(), .domain_high = ticks.back(), .range_low = area.left, .range_high = area.right()};
    svg::x_axis(document, area, x, ticks, svg::tick_labels(ticks),
                plot::with_unit("change in time, after - before", unit));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        const double top = area.top + row_height * static_cast<double>(i) + 4;
        const double bar = row_height - 8;
        const std::string_view colour = i == 0 ? svg::ink : row.change <= 0 ? svg::palette[0] : svg::palette[5];
        const double left = x(std::min(0.0, row.change)), right = x(std::max(0.0, row.change));
        document.begin_group(row.tooltip);
        document.rect(left, top, right - left, bar, {.fill = colour, .css_class = row.css_class});
        document.end_group();
        document.text(area.left - 8, top + bar / 2 + 4, row.label,
                      {.size = 12, .anchor = svg::Anchor::end, .bold = i == 0, .css_class = "label"});
        const std::string number = format_signed_time(row.change, style);
        if (row.change < 0)
            document.text(left - 4, top + bar / 2 + 4, number,
                          {.size = 11, .anchor = svg::Anchor::end, .css_class = "value"});
        else
            document.text(right + 4, top + bar / 2 + 4, number, {.size = 11, .css_class = "value"});
    }
    document.line(x(0), area.top, x(0), area.bottom(), {.stroke = svg::ink, .css_class = "zero"});
    plot::footer(document, area.bottom() + 52, notes);
    return document.finish();
}

}  // namespace amdahl
