// plan --plot: the end-to-end speedup after each chosen step, from the baseline up to the
// target; when no plan reaches it, what every candidate together gives and the gap left.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "amdahl/error.hpp"
#include "report/plot.hpp"

namespace amdahl {

std::string plot_svg(const PlanReport& result, const NumberStyle& style) {
    if (result.replayed)
        throw Error("--plot",
                    "plan --model replay has no chart yet; drop --model replay to chart the phase table's plan");
    const std::string unit(unit_name(result.profile->unit));
    struct Bar {
        std::string label, detail, tooltip;
        double speedup;
        std::string_view css_class;
    };
    std::vector<Bar> bars = {{"baseline", fmt::format("{} {}", format_time(result.baseline_time, style), unit),
                              "the profile as measured", 1, "baseline"}};
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const PlanStep& step = result.steps[i];
        const Candidate& candidate = result.set.candidates[step.candidate];
        bars.push_back({fmt::format("{}. {}", i + 1, candidate.name),
                        fmt::format("{} {}", format_time(step.new_time, style), unit),
                        fmt::format("+ {} at {}: {} {}", candidate.name, format_factor(candidate.factor, style),
                                    format_time(step.new_time, style), unit),
                        step.speedup, "step"});
    }
    const bool reachable = result.plan.reachable;
    if (!reachable)
        bars.push_back({"every candidate",
                        fmt::format("{} {}", format_time(result.baseline_time / result.best_possible, style), unit),
                        "every candidate at its factor", result.best_possible, "best-possible"});

    std::vector<std::string> notes = {
        "Model: Amdahl's law on the phase table: each chosen candidate's phases take their time divided by its "
        "factor, the steps' savings add up, and the phases do not overlap."};
    if (!reachable)
        notes.push_back(
            fmt::format("Unreachable: every candidate together gives {}, short of the target {}; the "
                        "ceiling with every candidate at no time is {}.",
                        format_speedup(result.best_possible, style), format_speedup(result.target_speedup, style),
                        format_speedup(result.ceiling, style)));
    if (!result.plan.proven_optimal)
        notes.push_back("The search stopped at its node limit: the plan is not proven cheapest.");
    if (!result.profile->boundary.empty()) notes.push_back("Boundary: " + result.profile->boundary);
    if (result.profile->unit_assumed) notes.push_back("The input declares no unit: its times were read as ms.");

    const std::string title =
        reachable
            ? fmt::format("Plan: {} to reach {} ({} {} or less)", count_of(result.steps.size(), "step"),
                          format_speedup(result.target_speedup, style), format_time(result.target_time, style), unit)
            : fmt::format("Plan: the target {} is out of reach; every candidate gives {}",
                          format_speedup(result.target_speedup, style), format_speedup(result.best_possible, style));
    const double height = 56 + plot::line_chart_height + plot::footer_height(notes) + 10;
    svg::Document document(plot::width, height, "amdahl plan: " + title);
    const double top = plot::heading(document, title, "");
    const svg::PlotArea area{
        .left = 80, .top = top + 12, .width = plot::width - 80 - 40, .height = plot::line_chart_height - 12 - 60};
    double highest = result.target_speedup;
    for (const Bar& bar : bars) highest = std::max(highest, bar.speedup);
    const std::vector<double> ticks = svg::nice_ticks(0, std::isfinite(highest) ? highest * 1.08 : 1, 6);
    const svg::Scale y{
        .domain_low = 0, .domain_high = ticks.back(), .range_low = area.bottom(), .range_high = area.top};
    svg::y_axis(document, area, y, ticks, svg::tick_labels(ticks), "end-to-end speedup S (x)");
    document.line(area.left, area.bottom(), area.right(), area.bottom(), {.stroke = svg::ink, .css_class = "axis"});
    document.text(area.left + area.width / 2, area.bottom() + 48, "the plan's steps, each added to those before it",
                  {.size = 13, .anchor = svg::Anchor::middle, .css_class = "axis-title"});

    const double slot = area.width / static_cast<double>(bars.size());
    const double bar_width = std::min(90.0, slot * 0.7);
    const auto label_chars = static_cast<std::size_t>(std::max(4.0, slot / (0.58 * 11)));
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const Bar& bar = bars[i];
        const double centre = area.left + slot * (static_cast<double>(i) + 0.5);
        const double value = std::isfinite(bar.speedup) ? bar.speedup : ticks.back();
        const std::string_view colour = i == 0 ? svg::other_fill : svg::palette[bar.css_class == "step" ? 0 : 4];
        document.begin_group(bar.tooltip);
        document.rect(centre - bar_width / 2, y(value), bar_width, y(0) - y(value),
                      {.fill = colour, .css_class = bar.css_class});
        document.text(centre, y(value) - 6, format_speedup(bar.speedup, style),
                      {.size = 11, .anchor = svg::Anchor::middle, .bold = true, .css_class = "value"});
        document.end_group();
        document.text(centre, area.bottom() + 16, plot::shortened(bar.label, label_chars),
                      {.size = 11, .anchor = svg::Anchor::middle, .css_class = "step-label"});
        document.text(centre, area.bottom() + 30, bar.detail,
                      {.size = 10, .anchor = svg::Anchor::middle, .fill = svg::muted_ink, .css_class = "step-detail"});
    }
    // The target, and when it is out of reach the gap above the best every candidate gives.
    document.line(area.left, y(result.target_speedup), area.right(), y(result.target_speedup),
                  {.stroke = svg::palette[5], .stroke_width = 2, .dash = "6 4", .css_class = "target"});
    document.text(area.left + 6, y(result.target_speedup) - 5,
                  fmt::format("target {}", format_speedup(result.target_speedup, style)),
                  {.size = 11, .fill = svg::palette[5], .css_class = "target-label"});
    if (!reachable && std::isfinite(result.best_possible)) {
        const double centre = area.left + slot * (static_cast<double>(bars.size()) - 0.5);
        document.rect(centre - bar_width / 2, y(result.target_speedup), bar_width,
                      y(result.best_possible) - y(result.target_speedup),
                      {.stroke = svg::ink, .dash = "4 3", .css_class = "gap"});
        document.text(
            centre + bar_width / 2 + 4, (y(result.target_speedup) + y(result.best_possible)) / 2 + 4,
            fmt::format("gap: {} more needed", format_speedup(result.target_speedup / result.best_possible, style)),
            {.size = 11, .css_class = "gap-label"});
    }
    plot::footer(document, top + plot::line_chart_height, notes);
    return document.finish();
}

}  // namespace amdahl
