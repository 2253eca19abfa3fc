// eval --plot: the phases before and after the speedups as two stacked bars on one time axis,
// the time saved as a dashed box, and the ceiling (the time left if the sped-up phases took no
// time, T (1 - f)) as a dashed line.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "report/plot.hpp"

namespace amdahl {

namespace {

// Phases drawn one by one, largest baseline time first; the rest are drawn as one "other".
constexpr std::size_t named_phases = 6;

struct Segment {
    std::string name;   // full name, for the tooltip
    std::string label;  // the legend's
    double before = 0, after = 0;
    std::string_view colour;
};

std::vector<Segment> segments(const EvalResult& result, std::size_t& grouped) {
    const Profile& profile = *result.profile;
    const auto& outcomes = result.evaluation.phases;
    std::vector<std::size_t> order(profile.phases.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return profile.phases[a].time > profile.phases[b].time; });
    // All of them when one more would take the "other" colour anyway.
    const std::size_t shown = order.size() <= named_phases + 1 ? order.size() : named_phases;
    std::vector<bool> named(order.size(), false);
    for (std::size_t i = 0; i < shown; ++i) named[order[i]] = true;
    std::vector<Segment> out;
    std::size_t colour = 0;
    Segment other{"", "", 0, 0, svg::other_fill};
    grouped = 0;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        const double before = profile.phases[i].time, after = outcomes[i].new_time;
        if (!named[i]) {
            other.before += before;
            other.after += after;
            ++grouped;
            continue;
        }
        out.push_back({profile.phases[i].name, plot::shortened(profile.phases[i].name, 28), before, after,
                       svg::series_colour(colour++)});
    }
    if (grouped) {
        other.name = other.label = fmt::format("other ({})", count_of(grouped, "phase"));
        out.push_back(other);
    }
    return out;
}

}  // namespace

std::string plot_svg(const EvalResult& result, const NumberStyle& style) {
    if (result.replay) return plot_replay_svg(result, style);
    const Evaluation& e = result.evaluation;
    const Profile& profile = *result.profile;
    const std::string unit(unit_name(profile.unit));
    std::size_t grouped = 0;
    const std::vector<Segment> parts = segments(result, grouped);

    std::vector<std::string> notes = {
        "Model: Amdahl's law on the phase table: each sped-up phase takes its time divided by its factor; the "
        "phases add up to the whole and do not overlap.",
        fmt::format("Ceiling 1/(1-f) = {}: the time left, T (1 - f) = {} {}, if the sped-up phases (f = {} of "
                    "the time) took no time at all.",
                    format_speedup(e.ceiling, style), format_time(e.baseline_time / e.ceiling, style), unit,
                    format_share(e.affected_fraction, style))};
    if (!profile.boundary.empty()) notes.push_back("Boundary: " + profile.boundary);
    if (profile.unit_assumed) notes.push_back("The input declares no unit: its times were read as ms.");
    if (e.overlap_range)
        notes.push_back(
            fmt::format("The sped-up phases also ran alongside others: the speedup lies between {} and "
                        "{}; the bars show the phase table's {}.",
                        format_speedup(e.overlap_range->low_speedup, style),
                        format_speedup(e.overlap_range->high_speedup, style), format_speedup(e.speedup, style)));
    if (grouped)
        notes.push_back(
            fmt::format("The {} largest phases by baseline time are drawn one by one; the other {} as one "
                        "grey segment.",
                        named_phases, grouped));

    // Layout, top to bottom: title, subtitle, the bars, the axis, the legend, the footer.
    constexpr double bar = 44, gap = 18, legend_row = 18;
    const svg::PlotArea area{.left = 70, .top = 62, .width = plot::width - 70 - 170, .height = 2 * bar + 3 * gap};
    const std::size_t legend_rows = (parts.size() + 1) / 2;
    const double legend_top = area.bottom() + 54;
    const double footer_top = legend_top + static_cast<double>(legend_rows) * legend_row + 8;
    const double height = footer_top + plot::footer_height(notes) + 10;

    svg::Document document(plot::width, height,
                           fmt::format("amdahl eval: {} end to end", format_speedup(e.speedup, style)));
    document.text(
        16, 24,
        fmt::format("Before and after: {} {} \u2192 {} {}, {} end to end", format_time(e.baseline_time, style), unit,
                    format_time(e.new_time, style), unit, format_speedup(e.speedup, style)),
        {.size = plot::title_size, .bold = true, .css_class = "title"});
    document.text(16, 44,
                  fmt::format("{} {} {} ({} of the baseline); {} of the time sped up; ceiling 1/(1-f) = {}",
                              e.time_saved >= 0 ? "saved" : "added", format_time(std::abs(e.time_saved), style), unit,
                              format_share(std::abs(e.saved_fraction), style), format_share(e.affected_fraction, style),
                              format_speedup(e.ceiling, style)),
                  {.size = 12, .fill = svg::muted_ink, .css_class = "subtitle"});

    const double longest = std::max(e.baseline_time, e.new_time);
    const std::vector<double> ticks = svg::nice_ticks(0, longest > 0 ? longest : 1, 6);
    const svg::Scale x{
        .domain_low = 0, .domain_high = ticks.back(), .range_low = area.left, .range_high = area.right()};
    svg::x_axis(document, area, x, ticks, svg::tick_labels(ticks), plot::with_unit("time", unit));

    const auto draw_bar = [&](double top, bool after, std::string_view row, double total) {
        document.text(area.left - 8, top + bar / 2 + 5, row, {.size = 13, .anchor = svg::Anchor::end, .bold = true});
        double start = 0;
        for (const Segment& part : parts) {
            const double time = after ? part.after : part.before;
            if (!(time > 0)) continue;
            const double left = x(start), right = x(start + time);
            document.begin_group(fmt::format("{}: {} {} before, {} {} after", part.name,
                                             format_time(part.before, style), unit, format_time(part.after, style),
                                             unit));
            document.rect(left, top, right - left, bar,
                          {.fill = part.colour, .stroke = "#FFFFFF", .css_class = after ? "after" : "before"});
            const std::string number = format_time(time, style);
            if (svg::text_width(number, 11) + 6 < right - left)
                document.text((left + right) / 2, top + bar / 2 + 4, number,
                              {.size = 11,
                               .anchor = svg::Anchor::middle,
                               .fill = svg::ink_on(part.colour),
                               .css_class = "value"});
            document.end_group();
            start += time;
        }
        std::string total_text = fmt::format("{} {}", format_time(total, style), unit);
        if (after) total_text += fmt::format(" \u00b7 {}", format_speedup(e.speedup, style));
        document.text(area.right() + 8, top + bar / 2 + 5, total_text,
                      {.size = 12, .bold = after, .css_class = "total"});
    };
    const double before_top = area.top + gap, after_top = area.top + 2 * gap + bar;
    draw_bar(before_top, false, "before", e.baseline_time);
    draw_bar(after_top, true, "after", e.new_time);

    // The saving (or the time added by a slowdown): where the after bar falls short of the before bar.
    if (e.time_saved != 0) {
        const double left = x(std::min(e.new_time, e.baseline_time)), right = x(longest);
        document.rect(left, after_top, right - left, bar,
                      {.stroke = svg::ink, .dash = "4 3", .css_class = e.time_saved > 0 ? "saved" : "added"});
        const std::string saving =
            fmt::format("{} {}", e.time_saved > 0 ? "saved" : "added", format_time(std::abs(e.time_saved), style));
        if (svg::text_width(saving, 11) + 8 < right - left)
            document.text((left + right) / 2, after_top + bar / 2 + 4, saving,
                          {.size = 11, .anchor = svg::Anchor::middle, .css_class = "saving"});
    }
    // The ceiling: the shortest time any factor on these phases can reach.
    const double floor_time = e.baseline_time / e.ceiling;  // T / (1 / (1 - f)) = T (1 - f)
    const double floor_x = x(floor_time);
    document.line(floor_x, area.top + 4, floor_x, area.bottom(),
                  {.stroke = svg::palette[5], .stroke_width = 2, .dash = "6 4", .css_class = "ceiling"});
    const bool right_half = floor_x > area.left + area.width / 2;
    document.text(
        floor_x + (right_half ? -4 : 4), area.top + 12,
        fmt::format("ceiling {} ({} {})", format_speedup(e.ceiling, style), format_time(floor_time, style), unit),
        {.size = 11,
         .anchor = right_half ? svg::Anchor::end : svg::Anchor::start,
         .fill = svg::palette[5],
         .css_class = "ceiling-label"});

    // The legend: each phase's colour, its times before and after.
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const Segment& part = parts[i];
        const double left = 16 + static_cast<double>(i % 2) * (plot::width / 2);
        const double top = legend_top + static_cast<double>(i / 2) * legend_row;
        document.rect(left, top, 14, 12, {.fill = part.colour, .css_class = "legend"});
        std::string text = fmt::format("{}: {} \u2192 {} {}", part.label, format_time(part.before, style),
                                       format_time(part.after, style), unit);
        document.text(left + 20, top + 11, text, {.size = 12, .css_class = "legend"});
    }
    plot::footer(document, footer_top, notes);
    return document.finish();
}

}  // namespace amdahl
