#include "input/profilers/timeline.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <map>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/innermost_spans.hpp"
#include "input/profilers/naming.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

std::uint32_t Timeline::intern(std::string_view text) {
    auto [it, inserted] = ids_.try_emplace(std::string(text), static_cast<std::uint32_t>(strings_.size()));
    if (inserted) strings_.emplace_back(text);
    return it->second;
}

std::uint32_t Timeline::track(std::string_view key) {
    auto [it, inserted] = tracks_.try_emplace(std::string(key), static_cast<std::uint32_t>(tracks_.size()));
    return it->second;
}

SpanClass classify_category(std::string_view category) {
    std::string c(category);
    for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (c == "kernel") return SpanClass::kernel;
    if (c == "gpu_memcpy" || c == "memcpy") return SpanClass::memcpy;
    if (c == "gpu_memset" || c == "memset") return SpanClass::memset;
    if (c == "cuda_runtime" || c == "cuda_driver" || c == "cuda_sync" || c == "runtime" || c == "hip_runtime")
        return SpanClass::runtime;
    if (c == "cpu_op" || c == "operator" || c == "python_function" || c == "python") return SpanClass::cpu_op;
    if (c == "user_annotation") return SpanClass::annotation;
    if (c == "gpu_user_annotation") return SpanClass::gpu_annotation;
    return SpanClass::other;
}

std::string_view kind_of(SpanClass cls) {
    switch (cls) {
        case SpanClass::kernel:
            return "kernel";
        case SpanClass::memcpy:
            return "copy";
        case SpanClass::memset:
            return "memset";
        case SpanClass::runtime:
            return "runtime";
        case SpanClass::cpu_op:
            return "cpu";
        case SpanClass::annotation:
            return "annotation";
        case SpanClass::gpu_annotation:
            return "annotation";
        case SpanClass::other:
            return "";
    }
    return "";
}

namespace {

bool is_device(SpanClass cls) {
    return cls == SpanClass::kernel || cls == SpanClass::memcpy || cls == SpanClass::memset;
}

bool in_lane(SpanClass cls, Lane lane) {
    switch (lane) {
        case Lane::gpu:
            return is_device(cls);
        case Lane::cpu:
            return !is_device(cls) && cls != SpanClass::gpu_annotation;
        case Lane::all:
        case Lane::automatic:
            return true;
    }
    return true;
}

std::string_view lane_name(Lane lane) {
    switch (lane) {
        case Lane::gpu:
            return "gpu (kernels, memory copies, memsets)";
        case Lane::cpu:
            return "cpu (host operators, runtime calls, annotations)";
        default:
            return "all events";
    }
}

// One boundary of the sweep: a span starting or ending, or a window opening or closing.
struct Boundary {
    double time;
    std::uint32_t index;  // span index, or window index
    std::uint8_t kind;    // 0 span end, 1 window end, 2 window start, 3 span start (processing order at a tie)
};

// Innermost active span of a track: the latest start, then the earliest end, then the later event.
bool more_inner(const Span& a, std::uint32_t ai, const Span& b, std::uint32_t bi) {
    if (a.start != b.start) return a.start > b.start;
    if (a.end != b.end) return a.end < b.end;
    return ai > bi;
}

}  // namespace

Profile sweep(const Timeline& timeline, const ImportOptions& options, const std::string& source,
              const std::string& format_name) {
    Lane lane = options.lane;
    if (lane == Lane::automatic) {
        const bool device =
            std::any_of(timeline.spans.begin(), timeline.spans.end(), [](const Span& s) { return is_device(s.cls); });
        lane = device ? Lane::gpu : Lane::all;
    }
    const PhaseNamer namer(options);

    // Windows: spans whose name matches --window (from any lane), e.g. ProfilerStep#.*.
    std::vector<std::pair<double, double>> windows;
    std::size_t matched_windows = 0;  // before overlapping ones were merged
    std::vector<bool> is_window_name;
    if (!options.window.empty()) {
        const Pattern pattern(options.window, "--window", options.window);
        std::map<std::uint32_t, bool> cache;
        for (const Span& s : timeline.spans) {
            auto [it, inserted] = cache.try_emplace(s.name, false);
            if (inserted) {
                const std::string& name = timeline.text(s.name);
                it->second = pattern.found_in(name);
            }
            if (it->second) windows.emplace_back(s.start, s.end);
        }
        if (windows.empty())
            throw Error(source, "--window '" + printable(options.window) + "' matches no event with a duration");
        // Overlapping windows are one step: Kineto writes each ProfilerStep twice, on the CPU
        // (user_annotation) and on the GPU (gpu_user_annotation), and the two overlap.
        matched_windows = windows.size();
        std::sort(windows.begin(), windows.end());
        std::size_t merged = 0;
        for (std::size_t w = 1; w < windows.size(); ++w) {
            if (windows[w].first < windows[merged].second)
                windows[merged].second = std::max(windows[merged].second, windows[w].second);
            else
                windows[++merged] = windows[w];
        }
        windows.resize(merged + 1);
        is_window_name.resize(0);
        for (const auto& [id, matched] : cache)
            if (matched) {
                if (is_window_name.size() <= id) is_window_name.resize(id + 1, false);
                is_window_name[id] = true;
            }
    }
    const auto window_event = [&](const Span& s) { return s.name < is_window_name.size() && is_window_name[s.name]; };

    // Phase ids for the spans of the lane, named once per (name, category).
    std::vector<std::string> phase_names;
    std::vector<std::string> phase_kinds;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> phase_of_key;
    std::map<std::string, std::uint32_t> phase_of_name;
    std::vector<std::uint32_t> span_phase(timeline.spans.size(), UINT32_MAX);
    std::size_t kept = 0, zero_length = 0;
    for (std::size_t i = 0; i < timeline.spans.size(); ++i) {
        const Span& s = timeline.spans[i];
        if (!in_lane(s.cls, lane) || window_event(s)) continue;
        if (s.end <= s.start) {
            ++zero_length;
            continue;
        }
        auto [it, inserted] = phase_of_key.try_emplace({s.name, s.category}, 0);
        if (inserted) {
            const std::string& raw = timeline.text(s.name);
            const std::string name = namer(raw.empty() ? "(unnamed)" : raw, timeline.text(s.category));
            auto [named, fresh] = phase_of_name.try_emplace(name, static_cast<std::uint32_t>(phase_names.size()));
            if (fresh) {
                phase_names.push_back(name);
                phase_kinds.emplace_back(options.group_by == "cat" ? std::string_view(timeline.text(s.category))
                                                                   : kind_of(s.cls));
            } else if (phase_kinds[named->second] != kind_of(s.cls) && options.group_by != "cat") {
                phase_kinds[named->second].clear();  // a phase of mixed kinds
            }
            it->second = named->second;
        }
        span_phase[i] = it->second;
        ++kept;
    }
    if (kept == 0) {
        throw Error(source, fmt::format("no events with a duration on the {} lane{}", lane_name(lane),
                                        lane == Lane::gpu ? " (try --lane cpu or --lane all)" : ""));
    }

    // The sweep over every boundary in time order.
    std::vector<Boundary> boundaries;
    boundaries.reserve(2 * kept + 2 * windows.size());
    for (std::size_t i = 0; i < timeline.spans.size(); ++i) {
        if (span_phase[i] == UINT32_MAX) continue;
        boundaries.push_back({timeline.spans[i].start, static_cast<std::uint32_t>(i), 3});
        boundaries.push_back({timeline.spans[i].end, static_cast<std::uint32_t>(i), 0});
    }
    for (std::size_t w = 0; w < windows.size(); ++w) {
        boundaries.push_back({windows[w].first, static_cast<std::uint32_t>(w), 2});
        boundaries.push_back({windows[w].second, static_cast<std::uint32_t>(w), 1});
    }
    std::sort(boundaries.begin(), boundaries.end(), [](const Boundary& a, const Boundary& b) {
        return a.time != b.time ? a.time < b.time : a.kind < b.kind;
    });

    const std::size_t phase_count = phase_names.size();
    std::vector<Summation> exclusive(phase_count), active(phase_count);
    Summation overlapped, idle;
    std::map<std::vector<std::uint32_t>, double> overlap_sets;
    InnermostSpans innermost(
        [&](std::uint32_t a, std::uint32_t b) { return more_inner(timeline.spans[a], a, timeline.spans[b], b); });
    std::vector<std::uint32_t> track_top;                // phase of each track's innermost span
    std::vector<std::uint32_t> running(phase_count, 0);  // tracks whose innermost span is this phase
    std::vector<std::uint32_t> running_set;              // phases with running > 0
    int open_windows = 0;
    const bool windowed = !windows.empty();
    double wall = 0;

    const auto set_top = [&](std::uint32_t track) {
        const std::uint32_t inner = innermost.top(track);
        const std::uint32_t top = inner == innermost.none ? UINT32_MAX : span_phase[inner];
        const std::uint32_t old = track_top[track];
        if (old == top) return;
        if (old != UINT32_MAX && --running[old] == 0)
            running_set.erase(std::find(running_set.begin(), running_set.end(), old));
        if (top != UINT32_MAX && running[top]++ == 0) running_set.push_back(top);
        track_top[track] = top;
    };

    double previous = boundaries.empty() ? 0 : boundaries.front().time;
    const double first_time = previous;
    double last_busy = first_time;
    for (const Boundary& b : boundaries) {
        const double dt = b.time - previous;
        if (dt > 0 && (!windowed || open_windows > 0)) {
            wall += dt;
            if (running_set.empty()) {
                idle.add(dt);
            } else if (running_set.size() == 1) {
                exclusive[running_set[0]].add(dt);
                active[running_set[0]].add(dt);
            } else {
                overlapped.add(dt);
                for (std::uint32_t p : running_set) active[p].add(dt);
                std::vector<std::uint32_t> key = running_set;
                std::sort(key.begin(), key.end());
                overlap_sets[key] += dt;
            }
        }
        previous = b.time;
        if (b.kind == 2) {
            ++open_windows;
        } else if (b.kind == 1) {
            --open_windows;
        } else {
            const Span& s = timeline.spans[b.index];
            if (s.track >= track_top.size()) track_top.resize(s.track + 1, UINT32_MAX);
            if (b.kind == 3)
                innermost.start(s.track, b.index);
            else
                innermost.end(s.track, b.index);
            set_top(s.track);
            if (!windowed) last_busy = std::max(last_busy, b.time);
        }
    }
    // Without windows the boundary is the first start to the last end: nothing trails it.
    (void)last_busy;

    const double steps = windowed ? static_cast<double>(windows.size()) : 1.0;
    Profile profile;
    profile.source = source;
    profile.format = format_name;
    profile.unit = timeline.unit;
    std::vector<std::uint32_t> order(phase_count);
    for (std::uint32_t i = 0; i < phase_count; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return exclusive[a].value() > exclusive[b].value(); });
    for (std::uint32_t p : order) {
        if (active[p].value() <= 0) continue;  // outside every window
        Phase phase;
        phase.name = phase_names[p];
        phase.kind = phase_kinds[p];
        phase.time = exclusive[p].value() / steps;
        phase.active_time = active[p].value() / steps;
        profile.phases.push_back(std::move(phase));
    }
    // The phases amdahl adds for shared and empty time must not meet an event phase of that name.
    const auto check_reserved = [&](const char* name, const char* meaning) {
        const auto named = phase_of_name.find(name);
        if (named == phase_of_name.end() || !(active[named->second].value() > 0)) return;
        throw Error(source, fmt::format("events are named '{0}', the phase amdahl adds for time when {1}; rename them, "
                                        "e.g. --rename '^{0}$={0} event'",
                                        name, meaning));
    };
    if (overlapped.value() > 0) {
        check_reserved(overlapped_phase, "several phases run at once");
        profile.phases.push_back(
            Phase{overlapped_phase, overlapped_phase, overlapped.value() / steps, std::nullopt, 0});
        std::vector<std::pair<double, std::vector<std::uint32_t>>> sets;
        for (const auto& [key, time] : overlap_sets) sets.emplace_back(time, key);
        std::stable_sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (const auto& [time, key] : sets) {
            Overlap overlap;
            for (std::uint32_t p : key) overlap.phases.push_back(phase_names[p]);
            overlap.time = time / steps;
            profile.overlaps.push_back(std::move(overlap));
        }
    }
    if (idle.value() > 0) check_reserved(idle_phase, "nothing runs");
    if (idle.value() > 0)
        profile.phases.push_back(Phase{idle_phase, idle_phase, idle.value() / steps, std::nullopt, 0});
    if (profile.phases.empty()) {  // only windows of zero length leave no time at all
        throw Error(source, "--window '" + printable(options.window) +
                                "' matches only events of zero length: there is no time to attribute");
    }

    const std::string unit(unit_name(profile.unit));
    if (windowed) {
        const std::string merged = matched_windows == windows.size()
                                       ? std::string()
                                       : fmt::format(" (merged from {} that overlap)", matched_windows);
        profile.boundary = fmt::format("the {} spans of events matching '{}'{}, averaged per span: {:.9g} {} per step",
                                       windows.size(), options.window, merged, wall / steps, unit);
    } else {
        profile.boundary = fmt::format("wall time from the first to the last event on the lane: {:.9g} {}", wall, unit);
    }
    profile.notes.push_back(source + ": lane: " + std::string(lane_name(lane)) + "; boundary: " + profile.boundary);
    if (zero_length > 0)
        profile.notes.push_back(source + ": " + std::to_string(zero_length) + " zero-length events take no time");
    if (overlapped.value() > 0) {
        profile.notes.push_back(
            source + ": phases ran at the same time for " + shortest(overlapped.value() / steps) + " " + unit +
            " (phase 'overlapped'); speeding one up saves between its exclusive and its active time");
    }
    return profile;
}

}  // namespace amdahl::detail
