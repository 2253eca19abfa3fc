// The eval's picture for the HTML report (report/html.hpp): the time before and after as two bars,
// each split into the untouched phases and the sped-up ones, and the ceiling marked where the
// sped-up phases would take no time. Drawn with the SVG writer (report/svg.hpp).
#include <algorithm>
#include <cmath>

#include "report/html.hpp"
#include "report/svg.hpp"

namespace amdahl {

std::string eval_chart(const EvalResult& result, const NumberStyle& style) {
    const Evaluation& e = result.evaluation;
    const std::string unit(unit_name(result.profile->unit));
    // The affected time before and after: T_aff = f × T_old; after, T_aff,new = T_new - (T_old - T_aff).
    const double affected = e.affected_fraction * e.baseline_time;
    const double untouched = e.baseline_time - affected;
    const double affected_after = std::max(e.new_time - untouched, 0.0);
    // Room right of the bars for their totals (label_room), then the legend's.
    const double label_room = 130, legend_width = 250;
    const svg::PlotArea area{.left = 70, .top = 20, .width = 500, .height = 110};
    svg::Document chart(area.right() + label_room + legend_width, area.bottom() + 60,
                        "Time before and after the speedups, and the ceiling");
    const std::vector<double> ticks = svg::nice_ticks(0, std::max({e.baseline_time, e.new_time, 1e-300}));
    const svg::Scale x{
        .domain_low = 0, .domain_high = ticks.back(), .range_low = area.left, .range_high = area.right()};
    svg::x_axis(chart, area, x, ticks, svg::tick_labels(ticks), "time (" + unit + ")");
    const std::string_view untouched_fill = svg::palette[0], affected_fill = svg::palette[1];
    const double bar_height = 32;
    const auto bar = [&](double y, const std::string& label, double affected_time, const std::string& total) {
        chart.text(area.left - 8, y + bar_height / 2 + 4, label, {.anchor = svg::Anchor::end, .bold = true});
        const double split = x(untouched);
        chart.begin_group("untouched phases: " + format_time(untouched, style) + " " + unit, "untouched");
        chart.rect(area.left, y, split - area.left, bar_height, {.fill = untouched_fill});
        chart.end_group();
        chart.begin_group("sped-up phases: " + format_time(affected_time, style) + " " + unit, "sped-up");
        chart.rect(split, y, x(untouched + affected_time) - split, bar_height, {.fill = affected_fill});
        chart.end_group();
        chart.text(x(untouched + affected_time) + 6, y + bar_height / 2 + 4, total);
    };
    bar(area.top + 10, "before", affected, format_time(e.baseline_time, style) + " " + unit);
    bar(area.top + 20 + bar_height, "after", affected_after,
        format_time(e.new_time, style) + " " + unit + " (" + format_speedup(e.speedup, style) + ")");
    // The ceiling: the sped-up phases at no time leave the untouched time, T_old × (1 - f).
    const double at_ceiling = x(untouched);
    chart.line(at_ceiling, area.top, at_ceiling, area.bottom(),
               {.stroke = svg::ink, .stroke_width = 1.5, .dash = "5 4", .css_class = "ceiling"});
    svg::legend(chart, area.right() + label_room, area.top + 6,
                {{"untouched phases", untouched_fill},
                 {"sped-up phases", affected_fill},
                 {"ceiling " + (std::isinf(e.ceiling) ? std::string("none") : format_speedup(e.ceiling, style)) +
                      ": sped-up at no time",
                  svg::ink, true, "5 4"}});
    return chart.finish();
}

}  // namespace amdahl
