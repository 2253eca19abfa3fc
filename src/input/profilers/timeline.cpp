#include "input/profilers/timeline.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/innermost_spans.hpp"
#include "input/profilers/naming.hpp"
#include "input/profilers/steps.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

std::uint32_t Timeline::intern(std::string_view text) {
    if (const auto found = ids_.find(text); found != ids_.end()) return found->second;  // no copy to look up
    const auto id = static_cast<std::uint32_t>(strings_.size());
    ids_.emplace(std::string(text), id);
    strings_.emplace_back(text);
    return id;
}

std::uint32_t Timeline::track(std::string_view key, std::string_view pid, std::string_view tid) {
    if (const auto found = tracks_.find(key); found != tracks_.end()) return found->second;
    const auto id = static_cast<std::uint32_t>(track_info_.size());
    tracks_.emplace(std::string(key), id);
    track_info_.push_back({std::string(pid), std::string(tid)});
    return id;
}

SpanClass classify_category(std::string_view category) {
    std::string c(category);
    for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (c == "kernel") return SpanClass::kernel;
    if (c == "gpu_memcpy" || c == "memcpy") return SpanClass::memcpy;
    if (c == "gpu_memset" || c == "memset") return SpanClass::memset;
    if (c == "cuda_runtime" || c == "cuda_driver" || c == "runtime" || c == "hip_runtime") return SpanClass::runtime;
    if (c == "cuda_sync") return SpanClass::sync_marker;
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
        case SpanClass::sync_marker:
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
    if (cls == SpanClass::sync_marker) return false;  // a marker of a wait, no work
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

constexpr std::uint32_t no_phase = UINT32_MAX;
constexpr std::size_t npos = static_cast<std::size_t>(-1);

// The overlaps a profile lists: the sets of phases that ran at once longest, up to 100 sets and
// 4096 phase names in all; a note sums up the rest. Ordinary traces have a few dozen small sets.
constexpr std::size_t listed_sets = 100, listed_members = 4096;
// Set members the sweep copies as it first meets the sets (4 bytes each): at least this many, and
// one per boundary of the sweep (memory linear in events); listed sets beyond them are found again
// by a second walk. A trace of many small sets (a million events of a few dozen phases on three
// tracks make 140,000 sets) keeps them all and walks once.
constexpr std::size_t members_copied = 1 << 18;

// A set of phases, named by two sums of a 64-bit mix of its members' ids (Zobrist hashing): a
// member comes or goes in O(1) whatever the set's size, and two different sets share a key with
// a chance of about 2^-128.
struct SetKey {
    std::uint64_t a = 0, b = 0;
    bool operator==(const SetKey&) const = default;
};

struct SetKeyHash {
    std::size_t operator()(const SetKey& key) const { return static_cast<std::size_t>(key.a); }
};

// splitmix64's finalizer: a bijection on 64 bits in which every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The phases running at an instant of the sweep: those of the tracks' innermost spans, each once
// however many tracks run it. Adding and removing take O(1).
class RunningPhases {
public:
    explicit RunningPhases(std::size_t phase_count) : tracks_(phase_count, 0), position_(phase_count, 0) {
        hashes_.reserve(phase_count);
        for (std::uint64_t p = 0; p < phase_count; ++p) hashes_.push_back({mix(p), mix(p | (1ULL << 32))});
    }

    // One more track runs `phase`; true when it was not running.
    bool add(std::uint32_t phase) {
        if (tracks_[phase]++ > 0) return false;
        position_[phase] = static_cast<std::uint32_t>(phases_.size());
        phases_.push_back(phase);
        key_.a += hashes_[phase].a;
        key_.b += hashes_[phase].b;
        return true;
    }
    // One track fewer runs `phase`; true when none does any more.
    bool remove(std::uint32_t phase) {
        if (--tracks_[phase] > 0) return false;
        const std::uint32_t at = position_[phase];
        phases_[at] = phases_.back();
        position_[phases_[at]] = at;
        phases_.pop_back();
        key_.a -= hashes_[phase].a;
        key_.b -= hashes_[phase].b;
        return true;
    }
    const std::vector<std::uint32_t>& phases() const { return phases_; }  // in no particular order
    const SetKey& key() const { return key_; }

private:
    std::vector<std::uint32_t> tracks_;    // per phase: tracks whose innermost span is of this phase
    std::vector<std::uint32_t> position_;  // per running phase: its index in phases_
    std::vector<std::uint32_t> phases_;
    std::vector<SetKey> hashes_;  // per phase: its share of a set's key
    SetKey key_;
};

// What the sweep walks over: the boundaries in time order, and the phase of each span.
struct SweepInput {
    const Timeline& timeline;
    const std::vector<Boundary>& boundaries;
    const std::vector<std::uint32_t>& span_phase;  // no_phase: not on the lane
    std::size_t phase_count;
    bool windowed;
};

// Walks the boundaries: `on_interval(dt, running)` for each stretch of time between two boundaries
// that counts (inside a window, when there are windows; dt is then the stretch times the windows
// open over it), `on_change(phase, runs)` when a phase
// starts or stops running, `on_cross(ended, inner)` when a span ends while a span that started
// inside it still runs on its track (the two overlap partly). O(log n) per boundary, n the spans
// running on its track.
template <class OnInterval, class OnChange, class OnCross>
void walk(const SweepInput& in, OnInterval&& on_interval, OnChange&& on_change, OnCross&& on_cross) {
    InnermostSpans innermost(
        [&](std::uint32_t a, std::uint32_t b) { return more_inner(in.timeline.spans[a], a, in.timeline.spans[b], b); });
    std::vector<std::uint32_t> track_phase;  // the phase of each track's innermost span
    RunningPhases running(in.phase_count);
    int open_windows = 0;
    double previous = in.boundaries.empty() ? 0 : in.boundaries.front().time;
    for (const Boundary& b : in.boundaries) {
        // Each step counts its own window's time: where the windows of several steps overlap
        // (steps' GPU copies on streams that drift apart), the time counts once per step, so that
        // the mean over the steps is the mean of the steps' own tables (--step k), phase by phase.
        const double dt = in.windowed ? (b.time - previous) * open_windows : b.time - previous;
        if (dt > 0) on_interval(dt, running);
        previous = b.time;
        if (b.kind == 2) {
            ++open_windows;
        } else if (b.kind == 1) {
            --open_windows;
        } else {
            const std::uint32_t track = in.timeline.spans[b.index].track;
            if (track >= track_phase.size()) track_phase.resize(track + 1, no_phase);
            if (b.kind == 3)
                innermost.start(track, b.index);
            else
                innermost.end(track, b.index);
            const std::uint32_t inner = innermost.top(track);
            // The innermost span outlives the one that ended inside it only when it started inside
            // that one and ends after it: the one check per end finds every end that is crossed.
            if (b.kind == 0 && inner != innermost.none && in.timeline.spans[inner].end > b.time &&
                more_inner(in.timeline.spans[inner], inner, in.timeline.spans[b.index], b.index))
                on_cross(b.index, inner);
            const std::uint32_t phase = inner == innermost.none ? no_phase : in.span_phase[inner];
            std::uint32_t& old = track_phase[track];
            if (old == phase) continue;
            if (old != no_phase && running.remove(old)) on_change(old, false);
            if (phase != no_phase && running.add(phase)) on_change(phase, true);
            old = phase;
        }
    }
}

// The time of each distinct set of phases that ran at once. N streams whose kernels start one
// after another make N sets of 2, 3, ..., N phases, N^2 / 2 members in all: a set's members are
// copied when it is first seen only while the copies stay within `members_kept`, and the sets
// listed in the end that were not copied are found again by a second walk.
class OverlapSets {
public:
    struct Set {
        double time = 0;
        std::uint32_t size = 0;      // members
        std::size_t order = 0;       // of first appearance
        std::size_t members = npos;  // offset of the copy in members_, or npos
    };

    explicit OverlapSets(std::size_t members_kept) : members_kept_(members_kept) {}

    void add(double dt, const RunningPhases& running) {
        auto [it, fresh] = sets_.try_emplace(running.key());
        Set& set = it->second;
        if (fresh) {
            set.size = static_cast<std::uint32_t>(running.phases().size());
            set.order = sets_.size() - 1;
            if (members_.size() + set.size <= members_kept_) copy(set, running);
        }
        set.time += dt;
    }
    std::size_t size() const { return sets_.size(); }

    struct Listing {
        std::vector<std::pair<const Set*, std::vector<std::uint32_t>>> sets;  // with their members by phase id
        double other_time = 0;                                                // of the sets left out
        std::size_t next_size = 0;  // members of the longest set left out, if any
    };

    // The sets that ran longest (the first seen at a tie), as many as fit in `max_sets` sets and
    // `max_members` members in all.
    Listing longest(std::size_t max_sets, std::size_t max_members, const SweepInput& in) {
        using Entry = std::pair<const SetKey, Set>;
        std::vector<Entry*> sets;
        sets.reserve(sets_.size());
        for (Entry& entry : sets_) sets.push_back(&entry);
        const auto first = sets.begin() + static_cast<std::ptrdiff_t>(std::min(max_sets, sets.size()));
        std::partial_sort(sets.begin(), first, sets.end(), [](const Entry* a, const Entry* b) {
            return a->second.time != b->second.time ? a->second.time > b->second.time
                                                    : a->second.order < b->second.order;
        });
        std::size_t listed = 0, members = 0;
        while (sets.begin() + static_cast<std::ptrdiff_t>(listed) != first &&
               members + sets[listed]->second.size <= max_members)
            members += sets[listed++]->second.size;
        Listing out;
        Summation other_time;
        for (std::size_t i = listed; i < sets.size(); ++i) other_time.add(sets[i]->second.time);
        out.other_time = other_time.value();
        if (listed < sets.size()) out.next_size = sets[listed]->second.size;
        sets.resize(listed);
        // The listed sets whose members were not copied: walk again and copy them when they run.
        std::unordered_map<SetKey, Set*, SetKeyHash> missing;
        for (Entry* entry : sets)
            if (entry->second.members == npos) missing.emplace(entry->first, &entry->second);
        if (!missing.empty()) {
            walk(
                in,
                [&](double, const RunningPhases& running) {
                    if (running.phases().size() < 2) return;
                    const auto found = missing.find(running.key());
                    if (found != missing.end() && found->second->members == npos) copy(*found->second, running);
                },
                [](std::uint32_t, bool) {}, [](std::uint32_t, std::uint32_t) {});
        }
        for (const Entry* entry : sets) {
            const Set& set = entry->second;
            const auto begin = members_.begin() + static_cast<std::ptrdiff_t>(set.members);
            std::vector<std::uint32_t> phases(begin, begin + set.size);
            std::sort(phases.begin(), phases.end());
            out.sets.emplace_back(&set, std::move(phases));
        }
        return out;
    }

private:
    void copy(Set& set, const RunningPhases& running) {
        set.members = members_.size();
        members_.insert(members_.end(), running.phases().begin(), running.phases().end());
    }

    std::size_t members_kept_;
    std::unordered_map<SetKey, Set, SetKeyHash> sets_;
    std::vector<std::uint32_t> members_;  // the sets' members, one set after another
};

}  // namespace

Profile sweep(const Timeline& timeline, const ImportOptions& options, const std::string& source,
              const std::string& format_name, SpanPhases* span_phases, const Filtered* filtered) {
    Lane lane = options.lane;
    if (lane == Lane::automatic) {
        const bool device =
            std::any_of(timeline.spans.begin(), timeline.spans.end(), [](const Span& s) { return is_device(s.cls); });
        lane = device ? Lane::gpu : Lane::all;
    }
    const PhaseNamer namer(options);

    Filtered own;
    if (!filtered) {
        own.left_out = filter_events(timeline, options, source, own.notes);
        filtered = &own;
    }
    const std::vector<bool>& left_out = filtered->left_out;
    const std::vector<std::string>& notes = filtered->notes;
    // Steps: the annotations --window matches, e.g. ProfilerStep#.*, CPU and GPU copies paired.
    StepWindows steps;
    if (!options.window.empty()) steps = find_steps(timeline, left_out, lane, options, source);
    const std::vector<std::pair<double, double>>& windows = steps.windows;
    const auto window_event = [&](std::size_t i) { return !steps.is_window_span.empty() && steps.is_window_span[i]; };

    // Phase ids for the spans of the lane, named once per (name, category).
    std::vector<std::string> phase_names;
    std::vector<std::string> phase_kinds;
    std::unordered_map<std::uint64_t, std::uint32_t> phase_of_key;  // (name << 32 | category) -> phase
    std::map<std::string, std::uint32_t> phase_of_name;
    std::vector<std::uint32_t> span_phase(timeline.spans.size(), UINT32_MAX);
    std::vector<std::uint64_t> phase_calls;  // spans per phase: a phase's calls (launches)
    std::size_t kept = 0, zero_length = 0, sync_markers = 0;
    std::size_t mixed_kinds = 0;  // phases whose events are of different kinds
    std::string mixed_example;
    for (std::size_t i = 0; i < timeline.spans.size(); ++i) {
        const Span& s = timeline.spans[i];
        if (s.cls == SpanClass::sync_marker && !left_out[i]) ++sync_markers;
        if (left_out[i] || !in_lane(s.cls, lane) || window_event(i)) continue;
        if (s.end <= s.start) {
            ++zero_length;
            continue;
        }
        auto [it, inserted] = phase_of_key.try_emplace(std::uint64_t{s.name} << 32 | s.category, 0);
        if (inserted) {
            const std::string& raw = timeline.text(s.name);
            const std::string name = namer(raw.empty() ? "(unnamed)" : raw, timeline.text(s.category), kind_of(s.cls));
            auto [named, fresh] = phase_of_name.try_emplace(name, static_cast<std::uint32_t>(phase_names.size()));
            if (fresh) {
                phase_names.push_back(name);
                phase_calls.push_back(0);
                phase_kinds.emplace_back(kind_of(s.cls));  // whatever the grouping: kind:copy still picks copies
            } else if (phase_kinds[named->second] != kind_of(s.cls)) {
                const bool both_kinds = !phase_kinds[named->second].empty() && !kind_of(s.cls).empty();
                if (both_kinds && mixed_kinds++ == 0) {
                    mixed_example =
                        fmt::format("'{}' ({} and {})", printable(name), phase_kinds[named->second], kind_of(s.cls));
                }
                phase_kinds[named->second].clear();  // a phase of mixed kinds
            }
            it->second = named->second;
        }
        span_phase[i] = it->second;
        ++phase_calls[it->second];
        ++kept;
    }
    if (kept == 0) {
        const bool api_only =
            !timeline.spans.empty() && std::all_of(timeline.spans.begin(), timeline.spans.end(), [](const Span& s) {
                return s.cls == SpanClass::runtime || s.cls == SpanClass::annotation;
            });
        if (api_only && lane == Lane::gpu) {
            throw Error(source,
                        "holds only API calls and annotations, no kernels or copies, so the gpu lane is empty: "
                        "read the kernel trace of the same run (rocprofv3 kernel_trace.csv, nsys "
                        "cuda_gpu_trace), or the run's folder, or give --lane cpu for the host's view");
        }
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
    const bool windowed = !windows.empty();
    const SweepInput input{timeline, boundaries, span_phase, phase_count, windowed};
    std::vector<Summation> exclusive(phase_count), active(phase_count);
    Summation overlapped, idle;
    double wall = 0;  // with --window, the steps' windows' lengths added up
    // A phase's active time: while at most `direct_limit` phases run at once, each of them adds
    // every stretch of time to its sum. Past that, the stretch goes to one shared clock instead,
    // and a phase adds the clock's advance over its run when it stops: thousands of phases running
    // at once cost O(1) per boundary, and ordinary traces sum exactly as they always did.
    constexpr std::size_t direct_limit = 16;
    Summation shared_clock;
    std::vector<double> clock_at_start(phase_count, 0);
    OverlapSets overlap_sets(std::max(members_copied, boundaries.size()));
    std::size_t crossed_ends = 0;  // spans that ended while a span that started inside them ran on
    std::pair<std::uint32_t, std::uint32_t> first_crossing;
    walk(
        input,
        [&](double dt, const RunningPhases& running) {
            wall += dt;
            const auto& phases = running.phases();
            if (phases.empty()) {
                idle.add(dt);
            } else if (phases.size() == 1) {
                exclusive[phases[0]].add(dt);
                active[phases[0]].add(dt);
            } else {
                overlapped.add(dt);
                if (phases.size() <= direct_limit) {
                    for (std::uint32_t p : phases) active[p].add(dt);
                } else {
                    shared_clock.add(dt);
                }
                overlap_sets.add(dt, running);
            }
        },
        [&](std::uint32_t phase, bool runs) {
            if (runs) {
                clock_at_start[phase] = shared_clock.value();
            } else if (const double ran = shared_clock.value() - clock_at_start[phase]; ran != 0) {
                active[phase].add(ran);
            }
        },
        [&](std::uint32_t ended, std::uint32_t inner) {
            if (crossed_ends++ == 0) first_crossing = {ended, inner};
        });

    // A step lasts the longer of its CPU span and its GPU copy: the part of it outside the span the
    // lane was measured in (a host-bound step's GPU copy is short) is idle time on the lane.
    if (windowed && steps.time > wall) idle.add(steps.time - wall);
    const double step_count = windowed ? static_cast<double>(steps.used) : 1.0;
    Profile profile;
    profile.source = source;
    profile.format = format_name;
    profile.unit = timeline.unit;
    std::vector<std::uint32_t> order(phase_count);
    for (std::uint32_t i = 0; i < phase_count; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return exclusive[a].value() > exclusive[b].value(); });
    std::vector<std::uint32_t> profile_index(phase_count, UINT32_MAX);
    for (std::uint32_t p : order) {
        if (active[p].value() <= 0) continue;  // outside every window
        profile_index[p] = static_cast<std::uint32_t>(profile.phases.size());
        Phase phase;
        phase.name = phase_names[p];
        phase.kind = phase_kinds[p];
        phase.time = exclusive[p].value() / step_count;
        phase.active_time = active[p].value() / step_count;
        // Each span is a call; per step (--window) a phase's spans would be shared out among the
        // steps, a count no call has: left out there.
        if (!windowed) phase.calls = phase_calls[p];
        profile.phases.push_back(std::move(phase));
    }
    // The phases amdahl adds for shared and empty time must not meet an event phase of that name.
    const auto check_reserved = [&](const char* name, const char* meaning) {
        const auto named = phase_of_name.find(name);
        if (named == phase_of_name.end() || !(active[named->second].value() > 0)) return;
        throw Error(source, fmt::format("events are named '{0}', the phase amdahl adds for time when {1}; rename them, "
                                        "e.g. --rename '{0}={0} event'",
                                        name, meaning));
    };
    std::string overlaps_note;  // when some sets are left out
    if (overlapped.value() > 0) {
        check_reserved(overlapped_phase, "several phases run at once");
        profile.phases.push_back(
            Phase{overlapped_phase, overlapped_phase, overlapped.value() / step_count, std::nullopt, 0, std::nullopt});
        auto [listed, other_time, next_size] = overlap_sets.longest(listed_sets, listed_members, input);
        // Listed by time, then by their members' ids (the order they always had).
        std::sort(listed.begin(), listed.end(), [](const auto& x, const auto& y) {
            return x.first->time != y.first->time ? x.first->time > y.first->time : x.second < y.second;
        });
        for (const auto& [set, members] : listed) {
            Overlap overlap;
            for (std::uint32_t p : members) overlap.phases.push_back(phase_names[p]);
            overlap.time = set->time / step_count;
            profile.overlaps.push_back(std::move(overlap));
        }
        const std::string sets =
            overlap_sets.size() == 1 ? std::string("one set") : fmt::format("{} different sets", overlap_sets.size());
        if (listed.empty()) {
            overlaps_note = fmt::format(
                "{}: phases ran at once in {}; the profile's overlaps list none: the longest-running set has {} "
                "phases, more than the {} phase names they list in all",
                source, sets, next_size, listed_members);
        } else if (listed.size() < overlap_sets.size()) {
            overlaps_note = fmt::format(
                "{}: phases ran at once in {}; the profile's overlaps list the {} that ran longest "
                "(at most {} sets, {} phase names in all) and leave out {} that ran for {}",
                source, sets, listed.size(), listed_sets, listed_members, overlap_sets.size() - listed.size(),
                format_duration(other_time / step_count, timeline.unit));
        }
    }
    if (idle.value() > 0) check_reserved(idle_phase, "nothing runs");
    if (idle.value() > 0)
        profile.phases.push_back(
            Phase{idle_phase, idle_phase, idle.value() / step_count, std::nullopt, 0, std::nullopt});
    // --total: the end-to-end time measured outside the trace; what the trace does not cover is
    // 'unattributed', which only a selector naming it speeds up.
    double declared_total = 0;
    if (options.total) {
        const Quantity& given = *options.total;
        if (given.percent || !given.unit) {
            throw Error("--total",
                        "give the measured end-to-end time with its unit, e.g. 250ms (the trace's times are "
                        "in " +
                            std::string(unit_name(timeline.unit)) + ")");
        }
        if (!(given.value > 0)) throw Error("--total", "must be a time > 0");
        declared_total = convert(given.value, *given.unit, timeline.unit);
        if (!std::isfinite(declared_total)) throw Error("--total", "is too large");
        if (declared_total < wall * (1 - 1e-9)) {
            throw Error("--total",
                        format_duration(declared_total, timeline.unit) + " is shorter than the trace, which spans " +
                            format_duration(wall, timeline.unit) + " from its first to its last event on the lane");
        }
        const auto named = phase_of_name.find(unattributed_phase);
        if (named != phase_of_name.end() && active[named->second].value() > 0) {
            throw Error(source, fmt::format("events are named '{0}', the phase amdahl adds for time outside the trace "
                                            "with --total; rename them, e.g. --rename '{0}={0} event'",
                                            unattributed_phase));
        }
        if (declared_total > wall)
            profile.phases.push_back(
                Phase{unattributed_phase, unattributed_phase, declared_total - wall, std::nullopt, 0, std::nullopt});
    }
    if (profile.phases.empty()) {  // only windows of zero length leave no time at all
        throw Error(source, "--window '" + printable(options.window) +
                                "' matches only events of zero length: there is no time to attribute");
    }

    if (windowed) {
        profile.boundary = steps.boundary;
        profile.steps = std::move(steps.steps);
    } else if (options.total) {
        profile.boundary = "the end-to-end time given with --total (" + format_duration(declared_total, timeline.unit) +
                           "); the trace covers " + format_duration(wall, timeline.unit) +
                           " of it (first to last event on the lane)";
    } else {
        profile.boundary =
            "wall time from the first to the last event on the lane: " + format_duration(wall, timeline.unit);
    }
    profile.notes.push_back(source + ": lane: " + std::string(lane_name(lane)) + "; boundary: " + profile.boundary);
    if (zero_length > 0)
        profile.notes.push_back(source + ": " + std::to_string(zero_length) + " zero-length events take no time");
    if (mixed_kinds > 0) {
        profile.notes.push_back(
            fmt::format("{}: events of different kinds share a name and are one phase, which has "
                        "no kind (kind: selectors miss it): {}{}",
                        source, mixed_example, mixed_kinds == 1 ? "" : fmt::format(" and {} more", mixed_kinds - 1)));
    }
    if (sync_markers > 0) {
        profile.notes.push_back(fmt::format(
            "{}: {} (cat cuda_sync) {} where the CPU waited for the GPU, no work of {} own: no phase on any "
            "lane (the synchronizing call holds the time; --model replay reads them as waits)",
            source, count_of(sync_markers, "event"), sync_markers == 1 ? "marks" : "mark",
            sync_markers == 1 ? "its" : "their"));
    }
    if (crossed_ends > 0) {
        // A thread's events nest (Chrome's trace format); events that overlap partly are read as
        // nested, the innermost (latest start) running: an assumption, so it is said.
        const Span& outer = timeline.spans[first_crossing.first];
        const Span& inner = timeline.spans[first_crossing.second];
        const Timeline::TrackInfo& track = timeline.track_info(inner.track);
        profile.notes.push_back(fmt::format(
            "{}: events overlap partly on one thread: {} inside another event of {} thread and {} after it, e.g. "
            "'{}' (at {}) overlaps '{}' (at {}) by {} on pid {} tid {}; a thread's events nest, so they were read "
            "as nested: the later one gets the time they share",
            source, crossed_ends == 1 ? "1 event starts" : fmt::format("{} events start", crossed_ends),
            crossed_ends == 1 ? "its" : "their", crossed_ends == 1 ? "ends" : "end",
            printable(timeline.text(inner.name)), format_duration(inner.start, timeline.unit),
            printable(timeline.text(outer.name)), format_duration(outer.start, timeline.unit),
            format_duration(outer.end - inner.start, timeline.unit), printable(track.pid), printable(track.tid)));
    }
    if (overlapped.value() > 0) {
        profile.notes.push_back(
            source + ": phases ran at the same time for " +
            format_duration(overlapped.value() / step_count, timeline.unit) + (windowed ? " per step" : "") +
            " (phase 'overlapped'); speeding one up saves between its exclusive and its active time");
    }
    if (!overlaps_note.empty()) profile.notes.push_back(std::move(overlaps_note));
    profile.notes.insert(profile.notes.end(), notes.begin(), notes.end());
    profile.notes.insert(profile.notes.end(), steps.notes.begin(), steps.notes.end());
    profile.class_members = namer.class_members();
    if (span_phases) {
        span_phases->phase.resize(timeline.spans.size());
        for (std::size_t i = 0; i < timeline.spans.size(); ++i)
            span_phases->phase[i] = span_phase[i] == UINT32_MAX ? UINT32_MAX : profile_index[span_phase[i]];
        span_phases->steps = steps.spans;
    }
    return profile;
}

}  // namespace amdahl::detail
