// eval --model replay --plot: the trace's timeline, one row per track (CPU thread, GPU stream),
// recorded above and replayed below on one time axis, so the saving shows as the shorter lower
// strip. The sped-up phases' events are orange, the rest blue; a black bar under a row marks
// where the critical path runs. Events narrower than a pixel are merged into runs
// (amdahl/replay_timeline.hpp), so the file stays small however long the trace.
#include <fmt/format.h>

#include <algorithm>

#include "amdahl/replay_timeline.hpp"
#include "report/plot.hpp"

namespace amdahl {

namespace {

constexpr double label_width = 170;  // the track names, left of the strips
constexpr double row = 18, bar = 11, path_bar = 3;
constexpr std::size_t max_tracks = 12;
constexpr std::string_view sped_up_fill = svg::palette[1], other_fill = svg::palette[0];

}  // namespace

std::string plot_replay_svg(const EvalResult& result, const NumberStyle& style) {
    const ReplayOutcome& outcome = *result.replay;
    const Profile& profile = *result.profile;
    const std::string unit(unit_name(profile.unit));
    const svg::PlotArea strips_area{
        .left = label_width, .top = 0, .width = plot::width - label_width - 24, .height = 0};
    const ReplayTimeline timeline =
        replay_timeline(profile, result.evaluation, static_cast<std::size_t>(strips_area.width), max_tracks);
    const auto time = [&](double value) { return format_time(value, style) + " " + unit; };

    std::string sped_up;
    for (const ReplayTimeline::SpedUp& phase : timeline.sped_up)
        sped_up += fmt::format("{}{} {}", sped_up.empty() ? "" : ", ", plot::shortened(phase.name, 24),
                               format_factor(phase.factor, style));
    std::vector<std::string> notes = {
        "Model: replay: every event of the trace replayed over its dependencies (docs/replay.md): events keep "
        "their order and the delays the trace recorded between them; the sped-up phases' events take their time "
        "divided by the factor, and every start and end is recomputed.",
        "The whole trace is drawn, from its first event's start; a black bar under a row marks the events on "
        "the critical path (the chain of events and delays that sets the end)."};
    if (!outcome.steps.empty())
        notes.push_back(fmt::format("The step time ({} -> {}) is the mean of {}; the picture shows every step.",
                                    time(outcome.before), time(outcome.after), count_of(outcome.steps.size(), "step")));
    notes.push_back(
        fmt::format("Events and gaps shorter than a pixel ({}) are merged into runs, coloured by what "
                    "takes most of their time.",
                    time(timeline.resolution)));
    if (timeline.tracks_left_out)
        notes.push_back(
            fmt::format("{} ({}) not shown: the {} tracks drawn hold most of the critical paths, then "
                        "of the busy time.",
                        count_of(timeline.tracks_left_out, "more track"),
                        format_count(timeline.events_left_out) + (timeline.events_left_out == 1 ? " event" : " events"),
                        timeline.tracks.size()));
    for (const std::string& assumption : outcome.assumptions) notes.push_back("Taken from the trace: " + assumption);
    if (!profile.boundary.empty()) notes.push_back("Phase table's boundary: " + profile.boundary);

    // Layout, top to bottom: title, subtitle, the legend, the recorded panel, the replayed panel,
    // the axis, the footer.
    const double rows = static_cast<double>(std::max<std::size_t>(timeline.tracks.size(), 1));
    const double panel_title = 22, legend_top = 58;
    const double recorded_top = legend_top + 30 + panel_title;
    const double replayed_top = recorded_top + rows * row + 8 + panel_title;
    const svg::PlotArea area{.left = strips_area.left,
                             .top = recorded_top - panel_title + 4,
                             .width = strips_area.width,
                             .height = replayed_top + rows * row + 4 - (recorded_top - panel_title + 4)};
    const double footer_top = area.bottom() + 46;
    const double height = footer_top + plot::footer_height(notes) + 10;

    svg::Document document(
        plot::width, height,
        fmt::format("amdahl eval --model replay: {} end to end", format_speedup(outcome.speedup, style)));
    plot::heading(document,
                  fmt::format("Replayed trace: {} \u2192 {}, {} end to end", time(outcome.before), time(outcome.after),
                              format_speedup(outcome.speedup, style)),
                  fmt::format("{} {}; sped up: {}", outcome.before >= outcome.after ? "saved" : "added",
                              time(std::abs(outcome.before - outcome.after)), sped_up.empty() ? "nothing" : sped_up));

    svg::legend(document, 16, legend_top, {{"sped-up phases' events", sped_up_fill}, {"other events", other_fill}});
    document.rect(260, legend_top + 10, 14, path_bar, {.fill = svg::ink, .css_class = "legend"});
    document.text(280, legend_top + 13, "critical path", {.size = 12, .css_class = "legend"});

    const double span = std::max(timeline.recorded_end, timeline.replayed_end);
    const std::vector<double> ticks = svg::nice_ticks(0, span > 0 ? span : 1, 7);
    const svg::Scale x{
        .domain_low = 0, .domain_high = ticks.back(), .range_low = area.left, .range_high = area.right()};
    svg::x_axis(document, area, x, ticks, svg::tick_labels(ticks), plot::with_unit("time since the first event", unit));

    const auto draw_panel = [&](double top, bool replayed) {
        const double end = replayed ? timeline.replayed_end : timeline.recorded_end;
        document.text(area.left, top - 8,
                      replayed ? fmt::format("replayed: the events end at {} ({} {}; dashed: the recorded end)",
                                             time(end), end <= timeline.recorded_end ? "saved" : "added",
                                             time(std::abs(timeline.recorded_end - end)))
                               : fmt::format("recorded: the events end at {}", time(end)),
                      {.size = 12, .bold = true, .css_class = "panel-title"});
        for (std::size_t t = 0; t < timeline.tracks.size(); ++t) {
            const TimelineTrack& track = timeline.tracks[t];
            const double y = top + static_cast<double>(t) * row;
            document.text(area.left - 8, y + bar - 1, plot::shortened(track.name, 26),
                          {.size = 11, .anchor = svg::Anchor::end, .css_class = "track"});
            const TimelineStrip& strip = replayed ? track.replayed : track.recorded;
            for (const TimelineRun& run : strip.runs) {
                const bool mostly_sped_up = run.sped_up * 2 > run.busy;
                const std::string tooltip =
                    run.events == 1
                        ? fmt::format("{}: {} to {} ({})", run.name, format_time(run.start, style), time(run.end),
                                      time(run.end - run.start))
                        : fmt::format("{} events{}: {} to {}, {} busy, {} of it sped up", format_count(run.events),
                                      run.name.empty() ? "" : " of " + run.name, format_time(run.start, style),
                                      time(run.end), time(run.busy), time(run.sped_up));
                document.begin_group(tooltip);
                document.rect(x(run.start), y, std::max(x(run.end) - x(run.start), 0.5), bar,
                              {.fill = mostly_sped_up ? sped_up_fill : other_fill,
                               .css_class = run.events > 1   ? "merged"
                                            : mostly_sped_up ? "sped-up"
                                                             : "event"});
                document.end_group();
            }
            for (const TimelineSpan& span_on_path : strip.critical)
                document.rect(x(span_on_path.start), y + bar + 1,
                              std::max(x(span_on_path.end) - x(span_on_path.start), 0.5), path_bar,
                              {.fill = svg::ink, .css_class = "critical"});
        }
        const double bottom = top + rows * row;
        document.line(x(end), top - 4, x(end), bottom, {.stroke = svg::ink, .stroke_width = 1.5, .css_class = "end"});
        if (!replayed || timeline.replayed_end == timeline.recorded_end) return;
        // The recorded end again, dashed: the gap to it is the time saved (or added).
        document.line(x(timeline.recorded_end), top - 4, x(timeline.recorded_end), bottom,
                      {.stroke = svg::palette[5], .stroke_width = 1.5, .dash = "4 3", .css_class = "recorded-end"});
    };
    draw_panel(recorded_top, false);
    draw_panel(replayed_top, true);
    plot::footer(document, footer_top, notes);
    return document.finish();
}

}  // namespace amdahl
