#include "input/profilers/steps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/pattern.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

bool on_gpu(SpanClass cls) {
    return cls == SpanClass::kernel || cls == SpanClass::memcpy || cls == SpanClass::memset ||
           cls == SpanClass::gpu_annotation;
}

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Kineto's own span over the whole capture ("PyTorch Profiler (0)", cat Trace, pid Spans) and
// the like: they overlap everything and belong to no one's work.
bool profiler_bookkeeping(const Timeline& timeline, const Span& span) {
    return timeline.text(span.category) == "Trace" || timeline.track_info(span.track).pid == "Spans";
}

// Annotations: the events that mark steps (user and GPU annotations, NVTX and roctx ranges,
// markers, ProfilerStep of any category).
bool annotation_like(const Timeline& timeline, const Span& span) {
    if (span.cls == SpanClass::annotation || span.cls == SpanClass::gpu_annotation) return true;
    if (timeline.text(span.name).rfind("ProfilerStep", 0) == 0) return true;
    const std::string category = lower(timeline.text(span.category));
    for (const char* word : {"nvtx", "annotation", "marker", "roctx", "range"})
        if (category.find(word) != std::string::npos) return true;
    return false;
}

// "(streams: 7, 8, 9)": the values a filter could have matched, up to ten.
std::string known_values(const std::set<std::string>& values, const char* noun) {
    std::string out = std::string(" (") + noun + ": ";
    std::size_t shown = 0;
    for (const std::string& value : values) {
        if (shown == 10) {
            out += ", ...";
            break;
        }
        out += (shown++ ? ", " : "") + printable(value);
    }
    return out + ")";
}

struct Copy {
    double start = 0, end = 0;
    std::uint32_t track = 0;
    double length() const { return end - start; }
};

// Spans of one name on one track, in time order, a span nested in an earlier one of the same
// name dropped: it is part of it, not another step.
std::vector<Copy> outermost(std::vector<Copy> copies) {
    std::sort(copies.begin(), copies.end(),
              [](const Copy& a, const Copy& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
    std::vector<Copy> out;
    for (const Copy& c : copies) {
        if (!out.empty() && c.start >= out.back().start && c.end <= out.back().end) continue;
        out.push_back(c);
    }
    return out;
}

struct Found {
    std::string name;
    std::optional<Copy> cpu, gpu;  // gpu: the hull of the copies on every stream
    std::vector<Copy> gpu_copies;  // one per stream
    double start() const { return cpu && gpu ? std::min(cpu->start, gpu->start) : cpu ? cpu->start : gpu->start; }
    double time() const { return std::max(cpu ? cpu->length() : 0.0, gpu ? gpu->length() : 0.0); }
};

// Steps are iterations one after another. Two that overlap on one thread (or one stream) are
// nested regions or a pattern too wide ('param' taking a benchmark's outer and inner regions):
// each would count the time they share, so the steps would add up to more than the trace. Across
// tracks they may overlap (a step's copies on two streams drift into the next step).
void refuse_overlapping_steps(const std::vector<Found>& found, const Timeline& timeline, const ImportOptions& options,
                              const std::string& source) {
    struct Placed {
        std::uint32_t track;
        bool gpu;
        Copy copy;
        std::size_t step;
    };
    std::vector<Placed> placed;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (found[i].cpu) placed.push_back({found[i].cpu->track, false, *found[i].cpu, i});
        for (const Copy& copy : found[i].gpu_copies) placed.push_back({copy.track, true, copy, i});
    }
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
        if (a.gpu != b.gpu) return a.gpu < b.gpu;
        if (a.track != b.track) return a.track < b.track;
        return a.copy.start != b.copy.start ? a.copy.start < b.copy.start : a.copy.end > b.copy.end;
    });
    for (std::size_t j = 1, longest = 0; j < placed.size(); ++j) {
        const Placed& before = placed[longest];
        const Placed& next = placed[j];
        if (next.gpu != before.gpu || next.track != before.track) {
            longest = j;
            continue;
        }
        if (next.copy.start < before.copy.end) {
            const auto where = [&](const Placed& p) {
                return fmt::format("'{}' (at {}, {} long)", printable(found[p.step].name),
                                   format_duration(p.copy.start, timeline.unit),
                                   format_duration(p.copy.length(), timeline.unit));
            };
            throw Error(source,
                        fmt::format("--window '{}' takes steps that overlap on one {}: {} {} {}; steps are "
                                    "iterations one after another, so give a pattern that matches one level "
                                    "of them",
                                    printable(options.window), next.gpu ? "stream" : "thread", where(next),
                                    next.copy.end <= before.copy.end ? "runs inside" : "overlaps", where(before)));
        }
        if (next.copy.end > before.copy.end) longest = j;
    }
}

}  // namespace

std::vector<bool> filter_events(const Timeline& timeline, const ImportOptions& options, const std::string& source,
                                std::vector<std::string>& notes) {
    const std::vector<Span>& spans = timeline.spans;
    std::vector<bool> left_out(spans.size(), false);
    if (!options.keep_profiler_events) {
        std::size_t count = 0;
        std::string example;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            if (!profiler_bookkeeping(timeline, spans[i])) continue;
            left_out[i] = true;
            if (count++ == 0) {
                example = "'" + printable(timeline.text(spans[i].name)) + "', cat " +
                          printable(timeline.text(spans[i].category));
            }
        }
        if (count > 0) {
            notes.push_back(
                fmt::format("{}: left out {} of the profiler's own bookkeeping ({}); --keep-profiler-events keeps them",
                            source, count_of(count, "event"), example));
        }
    }
    if (!options.exclude.empty()) {
        std::vector<Pattern> patterns;
        for (const std::string& p : options.exclude) patterns.emplace_back(p, "--exclude", p);
        std::unordered_map<std::uint32_t, bool> excluded_name;
        std::size_t count = 0;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            auto [it, fresh] = excluded_name.try_emplace(spans[i].name, false);
            if (fresh) {
                const std::string& name = timeline.text(spans[i].name);
                it->second =
                    std::any_of(patterns.begin(), patterns.end(), [&](const Pattern& p) { return p.found_in(name); });
            }
            if (it->second && !left_out[i]) {
                left_out[i] = true;
                ++count;
            }
        }
        notes.push_back(fmt::format("{}: --exclude left out {}", source, count_of(count, "event")));
    }
    // Tracks and categories: each filter keeps the events whose value it lists. --device and
    // --stream look at GPU events only (a host thread has neither).
    struct Filter {
        const char* option;
        const char* noun;
        const std::vector<std::string>& values;
        bool gpu_only;
        std::string (*value)(const Timeline&, const Span&);
    };
    const Filter filters[] = {
        {"--pid", "processes", options.pids, false,
         [](const Timeline& t, const Span& s) { return t.track_info(s.track).pid; }},
        {"--tid", "threads", options.tids, false,
         [](const Timeline& t, const Span& s) { return t.track_info(s.track).tid; }},
        {"--device", "devices", options.devices, true,
         [](const Timeline& t, const Span& s) { return t.track_info(s.track).pid; }},
        {"--stream", "streams", options.streams, true,
         [](const Timeline& t, const Span& s) { return t.track_info(s.track).tid; }},
        {"--cat", "categories", options.categories, false,
         [](const Timeline& t, const Span& s) { return t.text(s.category); }},
    };
    for (const Filter& filter : filters) {
        if (filter.values.empty()) continue;
        const std::set<std::string> wanted(filter.values.begin(), filter.values.end());
        std::set<std::string> seen;
        bool any = false;
        for (std::size_t i = 0; i < spans.size(); ++i) {
            if (filter.gpu_only && !on_gpu(spans[i].cls)) continue;
            const std::string value = filter.value(timeline, spans[i]);
            if (!left_out[i]) seen.insert(value);
            if (wanted.count(value)) {
                any = any || !left_out[i];
            } else {
                left_out[i] = true;
            }
        }
        if (!any) {
            std::string given;
            for (const std::string& v : filter.values) given += " " + std::string(filter.option) + " " + printable(v);
            throw Error(source, "no events left after" + given + known_values(seen, filter.noun));
        }
    }
    return left_out;
}

StepWindows find_steps(const Timeline& timeline, const std::vector<bool>& left_out, Lane lane,
                       const ImportOptions& options, const std::string& source) {
    const std::vector<Span>& spans = timeline.spans;
    const Pattern pattern(options.window, "--window", options.window);
    StepWindows out;
    out.is_window_span.assign(spans.size(), false);

    // The matching spans, per name: the CPU spans, and the GPU copies per track.
    struct Copies {
        std::vector<Copy> cpu;
        std::map<std::uint32_t, std::vector<Copy>> gpu;
    };
    std::map<std::uint32_t, Copies> by_name;
    std::unordered_map<std::uint32_t, bool> matches;
    // A pattern that is an annotation's whole name is that name: 'ProfilerStep#1' is step 1, not
    // #10 to #19 too (as -s reads a glob that is a phase's exact name), with a note naming the rest.
    std::optional<std::uint32_t> exact;
    std::vector<std::string> also;
    std::unordered_set<std::uint32_t> seen;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (left_out[i] || (!options.window_any && !annotation_like(timeline, spans[i]))) continue;
        if (!seen.insert(spans[i].name).second) continue;
        const std::string_view text = timeline.text(spans[i].name);
        if (text == options.window)
            exact = spans[i].name;
        else if (pattern.found_in(text))
            also.emplace_back(text);
    }
    if (exact && !also.empty()) {
        constexpr std::size_t listed = 3;
        std::string list;
        for (std::size_t i = 0; i < std::min(also.size(), listed); ++i)
            list += (i == 0 ? "'" : i + 1 == also.size() ? "' and '" : "', '") + printable(also[i]);
        list += also.size() > listed ? "' and " + std::to_string(also.size() - listed) + " more" : "'";
        out.notes.push_back(
            fmt::format("{}: --window '{}' is the exact name of an annotation and takes only it; as a "
                        "regex, matched anywhere in a name, it would also take {} (write '{}.*' "
                        "for those)",
                        source, printable(options.window), list, printable(options.window)));
    } else {
        exact.reset();
    }
    std::size_t zero_length = 0, not_annotations = 0;
    std::string example;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (left_out[i]) continue;
        const Span& s = spans[i];
        auto [it, fresh] = matches.try_emplace(s.name, false);
        if (fresh) it->second = exact ? s.name == *exact : pattern.found_in(timeline.text(s.name));
        if (!it->second) continue;
        if (!options.window_any && !annotation_like(timeline, s)) {
            if (not_annotations++ == 0) {
                const std::string_view kind = kind_of(s.cls);
                example = "'" + printable(timeline.text(s.name)) + "', " +
                          (kind.empty() ? "cat " + printable(timeline.text(s.category)) : std::string(kind));
            }
            continue;
        }
        out.is_window_span[i] = true;
        if (s.end <= s.start) {
            ++zero_length;
            continue;
        }
        Copies& copies = by_name[s.name];
        if (on_gpu(s.cls))
            copies.gpu[s.track].push_back({s.start, s.end, s.track});
        else
            copies.cpu.push_back({s.start, s.end, s.track});
    }
    if (by_name.empty()) {
        if (not_annotations > 0 && zero_length == 0) {
            throw Error(source,
                        fmt::format("--window '{}' matches only events that are no annotations ({} of them, e.g. {}): "
                                    "steps are taken from annotations (user and GPU annotations, NVTX ranges, "
                                    "ProfilerStep); give --window-any to take any event",
                                    printable(options.window), not_annotations, example));
        }
        if (zero_length > 0) {
            throw Error(source, "--window '" + printable(options.window) +
                                    "' matches only events of zero length: there is no time to attribute");
        }
        throw Error(source, "--window '" + printable(options.window) + "' matches no event with a duration");
    }

    // Pairing: the k-th CPU span of a name with the k-th GPU copy on each stream; the GPU copy
    // of a step runs from the earliest start to the latest end of its copies.
    std::vector<Found> found;
    for (auto& [name, copies] : by_name) {
        const std::vector<Copy> cpu = outermost(std::move(copies.cpu));
        std::vector<std::vector<Copy>> gpu;
        std::size_t count = cpu.size();
        for (auto& [track, list] : copies.gpu) {
            gpu.push_back(outermost(std::move(list)));
            count = std::max(count, gpu.back().size());
        }
        for (std::size_t k = 0; k < count; ++k) {
            Found step;
            step.name = timeline.text(name);
            if (k < cpu.size()) step.cpu = cpu[k];
            for (const auto& list : gpu) {
                if (k >= list.size()) continue;
                if (!step.gpu) step.gpu = list[k];
                step.gpu->start = std::min(step.gpu->start, list[k].start);
                step.gpu->end = std::max(step.gpu->end, list[k].end);
                step.gpu_copies.push_back(list[k]);
            }
            found.push_back(std::move(step));
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.start() < b.start(); });
    refuse_overlapping_steps(found, timeline, options, source);

    // Partial steps: the profiler starts and stops in the middle of an iteration.
    std::vector<std::string> dropped(found.size());
    const std::string unit(unit_name(timeline.unit));
    if (!options.keep_partial_steps && found.size() >= 2) {
        const auto lacks = [&](std::size_t end_index) -> std::string {
            bool others_cpu = true, others_gpu = true;
            std::size_t others = 0;
            for (std::size_t i = 0; i < found.size(); ++i) {
                if (i == end_index || !dropped[i].empty()) continue;
                ++others;
                others_cpu = others_cpu && found[i].cpu.has_value();
                others_gpu = others_gpu && found[i].gpu.has_value();
            }
            if (others == 0) return {};  // one step alone is kept
            if (!found[end_index].cpu && others_cpu) return "it has no CPU span, which the other steps have";
            if (!found[end_index].gpu && others_gpu) return "it has no GPU copy, which the other steps have";
            return {};
        };
        dropped.front() = lacks(0);
        if (dropped.back().empty()) dropped.back() = lacks(found.size() - 1);
        std::vector<std::size_t> left;
        for (std::size_t i = 0; i < found.size(); ++i)
            if (dropped[i].empty()) left.push_back(i);
        if (left.size() >= 3) {
            std::vector<double> middle;
            for (std::size_t j = 1; j + 1 < left.size(); ++j) middle.push_back(found[left[j]].time());
            std::sort(middle.begin(), middle.end());
            const double median = median_of_sorted(middle);
            for (std::size_t i : {left.front(), left.back()}) {
                if (found[i].time() < median / 5) {
                    dropped[i] =
                        "shorter than a fifth of the median step (" + format_duration(median, timeline.unit) + ")";
                }
            }
        }
        for (std::size_t i = 0; i < found.size(); ++i) {
            if (dropped[i].empty()) continue;
            out.notes.push_back(fmt::format(
                "{}: dropped step '{}' ({}): {} (a partial step where the profiler started or stopped; "
                "--keep-partial-steps keeps it)",
                source, printable(found[i].name), format_duration(found[i].time(), timeline.unit), dropped[i]));
        }
    }
    std::vector<std::size_t> used;
    for (std::size_t i = 0; i < found.size(); ++i)
        if (dropped[i].empty()) used.push_back(i);

    // Per-step figures over the complete steps.
    std::vector<double> times;
    for (std::size_t i : used) times.push_back(found[i].time());
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const double median = median_of_sorted(sorted);
    const auto pattern_text = "matching '" + printable(options.window) + "'";
    const std::string steps_text = count_of(used.size(), "step") + " " + pattern_text;

    // --step: one step instead of the mean.
    if (!options.step.empty()) {
        std::size_t pick = 0;
        std::string which;
        const std::string& s = options.step;
        if (s == "first") {
            which = "the first";
        } else if (s == "last") {
            pick = used.size() - 1;
            which = "the last";
        } else if (s == "median") {
            std::vector<std::size_t> order(used.size());
            for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
            std::stable_sort(order.begin(), order.end(),
                             [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
            pick = order[(order.size() - 1) / 2];
            // Of an even count, the shorter of the two middle steps: a step, not their mean.
            which = order.size() == 1       ? "the only one"
                    : order.size() % 2 == 0 ? "the shorter middle one"
                                            : "the median";
        } else {
            std::size_t n = 0;
            const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
            if (error != std::errc() || end != s.data() + s.size())
                throw Error("--step", "expected N (from 1), first, last or median (got '" + printable(s) + "')");
            if (n < 1 || n > used.size()) {
                throw Error("--step", fmt::format("there are {}; give 1 to {}, first, last or median",
                                                  count_of(used.size(), "step"), used.size()));
            }
            pick = n - 1;
            which = fmt::format("number {}", n);
        }
        for (std::size_t j = 0; j < used.size(); ++j)
            if (j != pick) dropped[used[j]] = "not the step --step picked";
        const Found& step = found[used[pick]];
        out.boundary = fmt::format("step '{}', {} of {}: {}", printable(step.name), which, steps_text,
                                   format_duration(step.time(), timeline.unit));
        used = {used[pick]};
    } else {
        const bool both = std::any_of(found.begin(), found.end(), [](const Found& f) { return f.cpu && f.gpu; });
        const bool gpu_only = std::all_of(found.begin(), found.end(), [](const Found& f) { return !f.cpu; });
        const char* how = both       ? "CPU and GPU copies paired by name; a step lasts the longer of the two"
                          : gpu_only ? "GPU copies; the trace has no CPU spans of them"
                                     : "CPU spans; the trace has no GPU copies of them";
        // The spread of the steps: no median of two (it is their mean), none of one.
        const std::string figures =
            used.size() == 2
                ? fmt::format(" (min {}, max {})", format_duration(sorted.front(), timeline.unit),
                              format_duration(sorted.back(), timeline.unit))
                : fmt::format(" (min {}, median {}, max {})", format_duration(sorted.front(), timeline.unit),
                              format_duration(median, timeline.unit), format_duration(sorted.back(), timeline.unit));
        const std::string mean = format_duration(exact_sum(times) / static_cast<double>(times.size()), timeline.unit);
        out.boundary = used.size() == 1
                           ? fmt::format("the only step {} ({}): {}", pattern_text, how, mean)
                           : fmt::format("the mean of {} ({}): {} per step{}", steps_text, how, mean, figures);
        if (used.size() == 2 && sorted.back() > 1.5 * sorted.front()) {
            const std::size_t longest = times[0] >= times[1] ? 0 : 1;
            out.notes.push_back(fmt::format(
                "{}: of the 2 steps, '{}' ({}) is {:.2f}x the other ({}): a cold first step or a lazy kernel load? "
                "--step N picks one",
                source, printable(found[used[longest]].name), format_duration(sorted.back(), timeline.unit),
                sorted.back() / sorted.front(), format_duration(sorted.front(), timeline.unit)));
        } else if (used.size() >= 3 && sorted.back() > 1.5 * median) {
            const auto longest = std::max_element(times.begin(), times.end()) - times.begin();
            out.notes.push_back(fmt::format(
                "{}: the longest step, '{}' ({}), is {:.2f}x the median ({}): a cold first step or a lazy kernel "
                "load? --step median picks a typical one",
                source, printable(found[used[static_cast<std::size_t>(longest)]].name),
                format_duration(sorted.back(), timeline.unit), sorted.back() / median,
                format_duration(median, timeline.unit)));
        }
    }

    // A step measured on its CPU span holds the GPU work that ran then, not what the step launched
    // (its GPU copy spans that): said wherever GPU work is measured so, as the README reads a step
    // by its copy. The GPU lane uses the copy when there is one; --lane all always the CPU span.
    const char* by_time =
        "GPU work counts in the step it ran in, not the step that launched it, and work that ran outside every "
        "step is left out";
    if (lane == Lane::gpu) {
        const auto without = static_cast<std::size_t>(
            std::count_if(used.begin(), used.end(), [&](std::size_t i) { return !found[i].gpu; }));
        if (std::none_of(found.begin(), found.end(), [](const Found& f) { return bool(f.gpu); })) {
            out.notes.push_back(source +
                                ": each step is its CPU span (the trace has no GPU copies of the steps): " + by_time);
        } else if (without == 1 && used.size() == 1) {
            out.notes.push_back(source + ": the step used has no GPU copy and is measured on its CPU span: " + by_time);
        } else if (without > 0) {
            out.notes.push_back(
                fmt::format("{}: {} of the {} steps used {} no GPU copy and {} measured on {} CPU span: {}", source,
                            without, used.size(), without == 1 ? "has" : "have", without == 1 ? "is" : "are",
                            without == 1 ? "its" : "their", by_time));
        }
    } else if (lane == Lane::all &&
               std::any_of(used.begin(), used.end(), [&](std::size_t i) { return bool(found[i].cpu); }) &&
               std::any_of(spans.begin(), spans.end(), [](const Span& s) { return on_gpu(s.cls); })) {
        out.notes.push_back(source + ": on --lane all each step is its CPU span: " + by_time);
    }
    // The lane is measured in the GPU copy on the GPU lane (the work launched in the step, even
    // when it runs during the next), else in the CPU span; a step with one copy uses it.
    for (std::size_t i : used) {
        const Found& step = found[i];
        const Copy& window =
            lane == Lane::gpu ? (step.gpu ? *step.gpu : *step.cpu) : (step.cpu ? *step.cpu : *step.gpu);
        out.windows.emplace_back(window.start, window.end);
    }
    std::sort(out.windows.begin(), out.windows.end());
    for (std::size_t i : used) {
        const Found& step = found[i];
        StepSpans copies;
        copies.name = step.name;
        if (step.cpu) {
            copies.has_cpu = true;
            copies.cpu_start = step.cpu->start;
            copies.cpu_end = step.cpu->end;
            copies.cpu_track = step.cpu->track;
        }
        if (step.gpu) {
            copies.has_gpu = true;
            copies.gpu_start = step.gpu->start;
            copies.gpu_end = step.gpu->end;
            for (const Copy& copy : step.gpu_copies) copies.gpu_copies.push_back({copy.track, copy.start, copy.end});
        }
        out.spans.push_back(std::move(copies));
    }
    Summation total;
    for (std::size_t i : used) total.add(found[i].time());
    out.time = total.value();
    out.used = used.size();
    for (std::size_t i = 0; i < found.size(); ++i)
        out.steps.push_back(Step{found[i].name, found[i].start(), found[i].time(), dropped[i]});
    if (zero_length > 0) {
        out.notes.push_back(fmt::format("{}: {} matching --window had zero length and made no step", source,
                                        count_of(zero_length, "event")));
    }
    return out;
}

}  // namespace amdahl::detail
