#include "amdahl/replay_timeline.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

#include "amdahl/error.hpp"
#include "amdahl/replay.hpp"
#include "analysis/replay.hpp"

namespace amdahl {

namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

// The events of each track, as ranges of the graph's events (Dependencies::tracks); a track that
// comes back later adds its range to the first. Without track names: the CPU's and the GPU's.
struct TrackEvents {
    std::string name;
    bool gpu = false;
    std::vector<std::uint32_t> events;
};

std::vector<TrackEvents> track_events(const Dependencies& deps) {
    const auto n = static_cast<std::uint32_t>(deps.graph.events.size());
    std::vector<std::pair<std::string, std::uint32_t>> ranges;  // (name, first event)
    for (const Dependencies::Track& track : deps.tracks) ranges.emplace_back(track.name, track.first_event);
    if (ranges.empty()) {
        if (deps.first_gpu_event > 0) ranges.emplace_back("CPU", 0);
        if (deps.first_gpu_event < n) ranges.emplace_back("GPU", deps.first_gpu_event);
    }
    std::vector<TrackEvents> out;
    std::map<std::string, std::size_t> index;
    for (std::size_t r = 0; r < ranges.size(); ++r) {
        const std::uint32_t first = ranges[r].second, last = r + 1 < ranges.size() ? ranges[r + 1].second : n;
        const auto [at, added] = index.emplace(ranges[r].first, out.size());
        if (added) out.push_back({ranges[r].first, first >= deps.first_gpu_event, {}});
        for (std::uint32_t v = first; v < last && v < n; ++v) out[at->second].events.push_back(v);
    }
    return out;
}

// The events of one replay's critical path.
std::vector<char> on_path(const detail::ReplayGraph& graph, const detail::ReplayResult& result) {
    std::vector<char> out(graph.events.size(), 0);
    for (const detail::PathPart& part : detail::critical_path(graph, result))
        if (part.event != none) out[part.event] = 1;
    return out;
}

// One side of one track: its events in order of start, merged into runs where one of two
// neighbours is shorter than `resolution` and the gap between them is too. Every run but the
// last then takes at least `resolution` of the axis (its width, or the gap after it), so a strip
// has at most span / resolution + 1 runs, whatever the number of events.
TimelineStrip strip(const Dependencies& deps, std::vector<std::uint32_t> events, const std::vector<double>& start,
                    const std::vector<double>& end, const std::vector<char>& path, const std::vector<double>& factor,
                    double origin, double resolution) {
    std::stable_sort(events.begin(), events.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return start[a] < start[b]; });
    TimelineStrip out;
    std::uint32_t run_label = none;
    for (const std::uint32_t v : events) {
        const double s = start[v] - origin, e = end[v] - origin;
        const std::uint32_t phase = deps.graph.events[v].phase;
        const double sped_up = phase < factor.size() && factor[phase] != 1 ? e - s : 0;
        const std::uint32_t label = v < deps.label.size() ? deps.label[v] : none;
        TimelineRun* run = out.runs.empty() ? nullptr : &out.runs.back();
        if (run && s - run->end < resolution && (run->end - run->start < resolution || e - s < resolution)) {
            run->end = std::max(run->end, e);
            ++run->events;
            run->busy += e - s;
            run->sped_up += sped_up;
            if (label != run_label) run_label = none;
        } else {
            if (run && run_label != none) run->name = deps.labels[run_label].name;
            out.runs.push_back({s, e, 1, e - s, sped_up, {}});
            run_label = label;
        }
        if (!path[v]) continue;
        if (!out.critical.empty() && s - out.critical.back().end < resolution)
            out.critical.back().end = std::max(out.critical.back().end, e);
        else
            out.critical.push_back({s, e});
    }
    if (!out.runs.empty() && run_label != none) out.runs.back().name = deps.labels[run_label].name;
    return out;
}

void scale_strip(TimelineStrip& strip, double scale) {
    for (TimelineRun& run : strip.runs) {
        run.start *= scale;
        run.end *= scale;
        run.busy *= scale;
        run.sped_up *= scale;
    }
    for (TimelineSpan& span : strip.critical) {
        span.start *= scale;
        span.end *= scale;
    }
}

}  // namespace

ReplayTimeline replay_timeline(const Profile& profile, const Evaluation& evaluation, std::size_t cells,
                               std::size_t max_tracks) {
    if (!profile.dependencies) throw Error(profile.source, "has no events to replay: no timeline to draw");
    const Dependencies& deps = *profile.dependencies;
    const auto [factors, touched] = evaluation_factors(profile, evaluation);
    const std::vector<double> factor = dependency_factors(profile, factors, &touched, nullptr);
    const detail::ReplayResult recorded = replay_of(deps, std::vector<double>(factor.size(), 1.0));
    const detail::ReplayResult replayed = replay_of(deps, factor);
    const std::vector<char> recorded_path = on_path(deps.graph, recorded),
                            replayed_path = on_path(deps.graph, replayed);

    ReplayTimeline out;
    for (std::size_t p = 0; p < factor.size(); ++p)
        if (factor[p] != 1) out.sped_up.push_back({deps.phase_names[p], factor[p]});
    const double origin = std::min(recorded.first_start, replayed.first_start);
    const double recorded_end = recorded.first_start + recorded.after - origin;
    const double replayed_end = replayed.first_start + replayed.after - origin;
    const double resolution =
        std::max(recorded_end, replayed_end) / static_cast<double>(std::max<std::size_t>(cells, 1));

    std::vector<TrackEvents> tracks = track_events(deps);
    if (tracks.size() > max_tracks) {
        // Keep the tracks that hold most of either critical path, then the busiest.
        std::vector<std::pair<double, double>> weight(tracks.size());  // (time on a path, busy time)
        for (std::size_t t = 0; t < tracks.size(); ++t)
            for (const std::uint32_t v : tracks[t].events) {
                const double duration = recorded.end[v] - recorded.start[v];
                if (recorded_path[v] || replayed_path[v]) weight[t].first += duration;
                weight[t].second += duration;
            }
        std::vector<std::size_t> order(tracks.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return weight[a] > weight[b]; });
        std::vector<char> keep(tracks.size(), 0);
        for (std::size_t i = 0; i < max_tracks; ++i) keep[order[i]] = 1;
        std::vector<TrackEvents> kept;
        for (std::size_t t = 0; t < tracks.size(); ++t) {
            if (keep[t]) {
                kept.push_back(std::move(tracks[t]));
                continue;
            }
            ++out.tracks_left_out;
            out.events_left_out += tracks[t].events.size();
        }
        tracks = std::move(kept);
    }

    const double scale = convert(1.0, deps.unit, profile.unit);
    for (TrackEvents& track : tracks) {
        TimelineTrack shown{track.name, track.gpu, track.events.size(), {}, {}};
        shown.recorded =
            strip(deps, track.events, recorded.start, recorded.end, recorded_path, factor, origin, resolution);
        shown.replayed = strip(deps, std::move(track.events), replayed.start, replayed.end, replayed_path, factor,
                               origin, resolution);
        scale_strip(shown.recorded, scale);
        scale_strip(shown.replayed, scale);
        out.tracks.push_back(std::move(shown));
    }
    out.recorded_end = recorded_end * scale;
    out.replayed_end = replayed_end * scale;
    out.resolution = resolution * scale;
    return out;
}

}  // namespace amdahl
