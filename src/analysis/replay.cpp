#include "analysis/replay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/replay.hpp"

namespace amdahl::detail {

namespace {

std::string event_name(std::uint32_t i) { return "replay: event " + std::to_string(i); }

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

}  // namespace

PreparedReplay prepare_replay(const ReplayGraph& graph) {
    const std::vector<ReplayEvent>& events = graph.events;
    const std::size_t n = events.size();
    for (std::uint32_t i = 0; i < n; ++i)
        if (!(events[i].end >= events[i].start)) throw Error(event_name(i), "ends before it starts");

    // Dependencies in compressed rows: an edge or a wait is one arc into its target, and Kahn's
    // algorithm visits every event after all of its arcs' sources.
    std::vector<std::uint32_t> in_degree(n, 0), first(n + 1, 0);
    const auto check = [&](std::uint32_t from, std::uint32_t to) {
        if (from >= n || to >= n || from == to) throw Error("replay", "an edge names no event, or its own event");
    };
    for (const ReplayEdge& e : graph.edges) {
        check(e.from, e.to);
        ++in_degree[e.to];
        ++first[e.from + 1];
    }
    for (const ReplayWait& w : graph.waits) {
        check(w.awaited, w.call);
        ++in_degree[w.call];
        ++first[w.awaited + 1];
    }
    for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
    std::vector<std::uint32_t> next(first.back()), fill(first.begin(), first.end() - 1);
    for (const ReplayEdge& e : graph.edges) next[fill[e.from]++] = e.to;
    for (const ReplayWait& w : graph.waits) next[fill[w.awaited]++] = w.call;
    // Each event's incoming edges and waits, to read when it is visited.
    std::vector<std::uint32_t> edges_in_first(n + 1, 0), waits_in_first(n + 1, 0);
    for (const ReplayEdge& e : graph.edges) ++edges_in_first[e.to + 1];
    for (const ReplayWait& w : graph.waits) ++waits_in_first[w.call + 1];
    for (std::size_t i = 0; i < n; ++i) {
        edges_in_first[i + 1] += edges_in_first[i];
        waits_in_first[i + 1] += waits_in_first[i];
    }
    std::vector<std::uint32_t> edges_in(graph.edges.size()), waits_in(graph.waits.size());
    {
        std::vector<std::uint32_t> e_fill(edges_in_first.begin(), edges_in_first.end() - 1);
        for (std::uint32_t k = 0; k < graph.edges.size(); ++k) edges_in[e_fill[graph.edges[k].to]++] = k;
        std::vector<std::uint32_t> w_fill(waits_in_first.begin(), waits_in_first.end() - 1);
        for (std::uint32_t k = 0; k < graph.waits.size(); ++k) waits_in[w_fill[graph.waits[k].call]++] = k;
    }
    PreparedReplay p;
    p.order.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (in_degree[i] == 0) p.order.push_back(i);
    for (std::size_t head = 0; head < p.order.size(); ++head) {
        const std::uint32_t v = p.order[head];
        for (std::uint32_t k = first[v]; k < first[v + 1]; ++k)
            if (--in_degree[next[k]] == 0) p.order.push_back(next[k]);
    }
    for (auto* done : {&in_degree, &first, &next, &fill}) std::vector<std::uint32_t>().swap(*done);  // lower the peak
    // The checks of the recorded times, in dependency order as a replay meets them.
    std::vector<double> awaited_end(n, 0);  // per waiting call: A, else its start
    for (const std::uint32_t v : p.order) {
        const ReplayEvent& event = events[v];
        for (std::uint32_t k = edges_in_first[v]; k < edges_in_first[v + 1]; ++k) {
            const ReplayEdge& e = graph.edges[edges_in[k]];
            const double anchor = e.from_start ? events[e.from].start : events[e.from].end;
            if ((event.start - anchor) - e.delay < 0)
                throw Error(event_name(v), "an edge asks for more delay than the trace recorded");
        }
        double latest = event.start;
        for (std::uint32_t k = waits_in_first[v]; k < waits_in_first[v + 1]; ++k) {
            const std::uint32_t a = graph.waits[waits_in[k]].awaited;
            if (events[a].end > event.end)
                throw Error(event_name(v), "a waiting call ends before the work it waits for");
            latest = std::max(latest, events[a].end);
        }
        awaited_end[v] = latest;
    }
    if (p.order.size() != n) throw Error("replay", "the trace's dependencies form a cycle");

    // The flat layout, in dependency order.
    p.position.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) p.position[p.order[i]] = i;
    p.start.resize(n);
    p.end.resize(n);
    p.phase.resize(n);
    p.keeps_start.resize(n);
    p.edge_first.assign(n + 1, 0);
    p.wait_first.assign(n + 1, 0);
    p.edge_source.reserve(graph.edges.size());
    p.edge_index.reserve(graph.edges.size());
    p.edge_slack.reserve(graph.edges.size());
    p.wait_source.reserve(graph.waits.size());
    p.wait_lag.reserve(graph.waits.size());
    p.wait_own.assign(graph.waits.size(), 0);
    p.wait_waited.assign(graph.waits.size(), 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t v = p.order[i];
        const ReplayEvent& event = events[v];
        p.start[i] = event.start;
        p.end[i] = event.end;
        p.phase[i] = event.phase;
        bool explained = false;
        for (std::uint32_t k = edges_in_first[v]; k < edges_in_first[v + 1]; ++k) {
            const ReplayEdge& e = graph.edges[edges_in[k]];
            const ReplayEvent& from = events[e.from];
            const double anchor = e.from_start ? from.start : from.end;
            const double slack = (event.start - anchor) - e.delay;
            explained = explained || slack == 0;
            p.edge_source.push_back(2 * p.position[e.from] + (e.from_start ? 0 : 1));
            p.edge_index.push_back(edges_in[k]);
            p.edge_slack.push_back(slack);
        }
        p.edge_first[i + 1] = static_cast<std::uint32_t>(p.edge_source.size());
        p.keeps_start[i] = event.released || !explained;
        for (std::uint32_t k = waits_in_first[v]; k < waits_in_first[v + 1]; ++k) {
            const std::uint32_t a = graph.waits[waits_in[k]].awaited;
            p.wait_source.push_back(p.position[a]);
            p.wait_lag.push_back(awaited_end[v] - events[a].end);
        }
        if (waits_in_first[v] != waits_in_first[v + 1]) {
            const std::uint32_t row = p.wait_first[i];
            p.wait_own[row] = event.end - awaited_end[v];  // the part that did not wait
            p.wait_waited[row] = (event.end - event.start) - p.wait_own[row];
        }
        p.wait_first[i + 1] = static_cast<std::uint32_t>(p.wait_source.size());
    }
    if (n > 0) {
        p.before = *std::max_element(p.end.begin(), p.end.end()) - *std::min_element(p.start.begin(), p.start.end());
    }
    return p;
}

namespace {

// Times move by shifts from the recorded ones: with every factor 1 each shift is exactly 0.
// An edge u -> v with recorded gap g = start(v) - anchor(u) and delay d <= g has slack g - d:
//   shift_start(v) = max over edges (shift_anchor(u) - slack), or 0 when v is released or
//   nothing explains its start (no edge without slack): it keeps its recorded start.
//   shift_end(v) = shift_start(v) + (d(v) / f - d(v)) for a plain event. A waiting call with
//   own part o = end - max(start, A) (A: the latest recorded end it awaits) ends at
//   max(new start + o / f, max over awaited (new end(a) + A - end(a)) + o), in shifts
//   max(shift_start - waited + (o / f - o), max over awaited (shift_end(a) - (A - end(a)))).
// `shift` holds position i's start shift at 2i and its end shift at 2i + 1. With `Why`, the
// edge that set each new start (start_by) and the awaited event that set a call's new end
// (end_by) are kept, per position. Returns the new makespan.
template <bool Why>
double replay_pass(const PreparedReplay& p, const std::vector<double>& factor, double* shift, std::uint32_t* start_by,
                   std::uint32_t* end_by) {
    const std::size_t n = p.order.size();
    if (n == 0) return 0;
    double first_after = std::numeric_limits<double>::infinity();
    double last_after = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        double start_shift = -std::numeric_limits<double>::infinity();
        std::uint32_t binding = none;  // the edge that sets the new start
        for (std::uint32_t k = p.edge_first[i]; k < p.edge_first[i + 1]; ++k) {
            const double candidate = shift[p.edge_source[k]] - p.edge_slack[k];
            if constexpr (Why)
                if (candidate > start_shift || binding == none) binding = p.edge_index[k];
            start_shift = std::max(start_shift, candidate);
        }
        if (p.keeps_start[i] && start_shift < 0) {
            start_shift = 0;
            binding = none;  // it keeps its recorded start: nothing before it holds it
        }
        const std::uint32_t phase = p.phase[i];
        const double f = phase < factor.size() ? factor[phase] : 1.0;
        const bool waits = p.wait_first[i] != p.wait_first[i + 1];
        // What the factor shortens: the event's duration, or a waiting call's own part. Exactly
        // 0 for f = 1 (d / 1 - d), so it is only computed for the events sped up.
        const double own = !waits ? p.end[i] - p.start[i] : p.wait_own[p.wait_first[i]];
        const double gained = f == 1 ? 0.0 : time_at_factor(own, f) - own;
        double end_shift = start_shift + gained;
        if (waits) {
            // After the awaited work ends, the call still takes its own part (the return): the
            // new end is the awaited work's new end plus that part. A call that started after the
            // work had ended did not wait, and its own part is all of it. Its own part is its
            // own work: the factor shortens it after a wait too.
            double awaited_shift = -std::numeric_limits<double>::infinity();
            for (std::uint32_t k = p.wait_first[i]; k < p.wait_first[i + 1]; ++k)
                awaited_shift = std::max(awaited_shift, shift[2 * p.wait_source[k] + 1] - p.wait_lag[k]);
            const double by_itself = start_shift - p.wait_waited[p.wait_first[i]] + gained;
            awaited_shift += gained;
            end_shift = std::max(by_itself, awaited_shift);
            if constexpr (Why) {
                if (awaited_shift > by_itself) {
                    for (std::uint32_t k = p.wait_first[i]; k < p.wait_first[i + 1]; ++k)
                        if (shift[2 * p.wait_source[k] + 1] - p.wait_lag[k] + gained == awaited_shift)
                            end_by[i] = p.order[p.wait_source[k]];
                }
            }
        }
        if constexpr (Why) start_by[i] = binding;
        shift[2 * i] = start_shift;
        shift[2 * i + 1] = end_shift;
        first_after = std::min(first_after, p.start[i] + start_shift);
        last_after = std::max(last_after, p.end[i] + end_shift);
    }
    return last_after - first_after;
}

// replay() refuses a factor that is not > 0, naming the first event it would shorten.
void check_factors(const ReplayGraph& graph, const std::vector<double>& factor) {
    const auto factor_of = [&](std::uint32_t phase) { return phase < factor.size() ? factor[phase] : 1.0; };
    for (const double f : factor)
        if (!(f > 0)) {
            for (std::uint32_t i = 0; i < graph.events.size(); ++i)
                if (!(factor_of(graph.events[i].phase) > 0))
                    throw Error(event_name(i), "its phase's factor must be > 0");
        }
}

}  // namespace

ReplayResult replay(const ReplayGraph& graph, const std::vector<double>& factor) {
    return replay(prepare_replay(graph), graph, factor);
}

ReplayResult replay(const PreparedReplay& p, const ReplayGraph& graph, const std::vector<double>& factor) {
    check_factors(graph, factor);
    const std::size_t n = graph.events.size();
    std::vector<double> shift(2 * n, 0);
    std::vector<std::uint32_t> start_by(n, none), end_by(n, none);  // per position, then per event
    ReplayResult result;
    result.before = p.before;
    result.after = replay_pass<true>(p, factor, shift.data(), start_by.data(), end_by.data());
    result.start.resize(n);
    result.end.resize(n);
    result.start_by.resize(n);
    result.end_by.resize(n);
    result.first_start = std::numeric_limits<double>::infinity();
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t v = p.order[i];
        result.start[v] = p.start[i] + shift[2 * i];
        result.end[v] = p.end[i] + shift[2 * i + 1];
        result.start_by[v] = start_by[i];
        result.end_by[v] = end_by[i];
        result.first_start = std::min(result.first_start, result.start[v]);
    }
    if (n == 0) result.first_start = 0;
    return result;
}

double replayed_makespan(const PreparedReplay& p, const ReplayGraph& graph, const std::vector<double>& factor,
                         std::vector<double>& shift) {
    check_factors(graph, factor);
    shift.resize(2 * p.order.size());
    return replay_pass<false>(p, factor, shift.data(), nullptr, nullptr);
}

std::vector<PathPart> critical_path(const ReplayGraph& graph, const ReplayResult& result) {
    std::vector<PathPart> parts;
    const std::size_t n = graph.events.size();
    if (n == 0) return parts;
    std::uint32_t v = 0;
    for (std::uint32_t i = 1; i < n; ++i)
        if (result.end[i] > result.end[v]) v = i;
    bool at_end = true;
    // Each step moves back along one arc: at most one per event's start and end.
    for (std::size_t step = 0; step <= 2 * n + 1; ++step) {
        if (at_end) {
            if (const std::uint32_t a = result.end_by[v]; a != none) {
                parts.push_back({v, result.end[v] - result.end[a]});  // the call's part after the wait
                v = a;
                continue;
            }
            parts.push_back({v, result.end[v] - result.start[v]});
        }
        const std::uint32_t k = result.start_by[v];
        if (k == none) {
            if (result.start[v] > result.first_start) parts.push_back({none, result.start[v] - result.first_start});
            break;
        }
        const ReplayEdge& e = graph.edges[k];
        const double anchor = e.from_start ? result.start[e.from] : result.end[e.from];
        if (result.start[v] > anchor) parts.push_back({none, result.start[v] - anchor});
        v = e.from;
        at_end = !e.from_start;
    }
    return parts;
}

}  // namespace amdahl::detail

namespace amdahl {

namespace {

// The time at least one of the events from `first` on runs: the union of their intervals.
double busy_time(const std::vector<double>& start, const std::vector<double>& end, std::uint32_t first) {
    std::vector<std::pair<double, double>> spans;
    for (std::size_t i = first; i < start.size(); ++i) spans.emplace_back(start[i], end[i]);
    std::sort(spans.begin(), spans.end());
    double busy = 0, from = 0, to = 0;
    bool open = false;
    for (const auto& [s, e] : spans) {
        if (open && s <= to) {
            to = std::max(to, e);
            continue;
        }
        if (open) busy += to - from;
        from = s;
        to = e;
        open = true;
    }
    return open ? busy + (to - from) : busy;
}

// The untouched (factor 1) label and track holding most of the replayed critical path: the work
// that still sets the end. Events of one label on one track add up.
std::optional<PathHolder> path_holder(const Dependencies& deps, const detail::ReplayResult& result,
                                      const std::vector<double>& factor, double scale) {
    std::map<std::pair<std::uint32_t, std::size_t>, double> held;  // (label, track) -> time on the path
    double total = 0;
    for (const detail::PathPart& part : detail::critical_path(deps.graph, result)) {
        total += part.time;
        if (part.event == std::numeric_limits<std::uint32_t>::max()) continue;
        const std::uint32_t phase = deps.graph.events[part.event].phase;
        if (phase < factor.size() && factor[phase] != 1) continue;
        const auto track =
            std::upper_bound(deps.tracks.begin(), deps.tracks.end(), part.event,
                             [](std::uint32_t e, const Dependencies::Track& t) { return e < t.first_event; }) -
            deps.tracks.begin();
        held[{deps.label[part.event], static_cast<std::size_t>(track)}] += part.time;
    }
    const auto most =
        std::max_element(held.begin(), held.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    if (most == held.end() || !(most->second > 0) || !(total > 0)) return std::nullopt;
    const std::size_t track = most->first.second;
    return PathHolder{deps.labels[most->first.first].name, track > 0 ? deps.tracks[track - 1].name : std::string(),
                      most->second * scale, most->second / total};
}

// A critical path's time per event label (phase or event name), the delays as one entry; longest first.
std::vector<PathShare> path_shares(const Dependencies& deps, const detail::ReplayGraph& graph,
                                   const detail::ReplayResult& result) {
    std::unordered_map<std::uint32_t, double> by_label;
    double delays = 0;
    for (const detail::PathPart& part : detail::critical_path(graph, result)) {
        if (part.event == std::numeric_limits<std::uint32_t>::max())
            delays += part.time;
        else
            by_label[deps.label[part.event]] += part.time;
    }
    std::vector<PathShare> shares;
    for (const auto& [label, time] : by_label) {
        if (time > 0) shares.push_back({deps.labels[label].name, deps.labels[label].phase, time});
    }
    if (delays > 0) shares.push_back({"", false, delays});
    std::sort(shares.begin(), shares.end(), [](const PathShare& a, const PathShare& b) {
        return a.time != b.time ? a.time > b.time : a.name < b.name;
    });
    return shares;
}

// Each step's recorded and replayed time (Dependencies::Step): its CPU span and GPU copy move
// with the events they enclose, each end by the shift of the event that sets it; the step lasts
// the longer of the two. In the graph's unit.
// `new_start(v)` and `new_end(v)` give event v's replayed times.
template <class NewStart, class NewEnd>
std::vector<ReplayedStep> replayed_steps(const Dependencies& deps, const NewStart& new_start, const NewEnd& new_end) {
    const auto& events = deps.graph.events;
    // Where a recorded instant `t` inside event v goes: as far into its new run as it was into
    // its recorded one (at most to its new end).
    const auto inside = [&](std::uint32_t v, double t) {
        if (new_start(v) == events[v].start && new_end(v) == events[v].end) return t;  // exact when unmoved
        return new_start(v) + std::min(t - events[v].start, new_end(v) - new_start(v));
    };
    // A boundary before an event keeps its lead to it, one after an event its tail; one inside an
    // event moves with it. Each track's span [start, end] (copies[k], else the whole span) moves
    // with its own first and last events; over several tracks, the hull of the moved spans and
    // of the `still` ones (tracks whose span encloses no event, which nothing moves):
    //   new span = [min_k new_start_k, max_k new_end_k].
    const auto moved = [&](double start, double end, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& in,
                           const std::vector<std::pair<double, double>>& copies,
                           const std::vector<std::pair<double, double>>& still) {
        if (in.empty()) return end - start;
        double from = INFINITY, to = -INFINITY;
        for (const auto& [s, e] : still) {
            from = std::min(from, s);
            to = std::max(to, e);
        }
        for (std::size_t k = 0; k < in.size(); ++k) {
            const auto [a, b] = in[k];
            const auto [s, e] = k < copies.size() ? copies[k] : std::pair(start, end);
            from = std::min(from, events[a].start < s ? inside(a, s) : s + (new_start(a) - events[a].start));
            to = std::max(to, events[b].end > e ? inside(b, e) : e + (new_end(b) - events[b].end));
        }
        return std::max(to - from, 0.0);
    };
    std::vector<ReplayedStep> out;
    for (const Dependencies::Step& step : deps.steps) {
        ReplayedStep replayed;
        replayed.name = step.name;
        if (step.has_cpu) {
            replayed.time = step.cpu_end - step.cpu_start;
            replayed.new_cpu_time = moved(step.cpu_start, step.cpu_end, step.cpu_enclosed, {}, {});
        }
        if (step.has_gpu) {
            replayed.time = std::max(replayed.time, step.gpu_end - step.gpu_start);
            replayed.new_gpu_time =
                moved(step.gpu_start, step.gpu_end, step.gpu_enclosed, step.gpu_copies, step.gpu_still);
        }
        replayed.new_time = std::max(replayed.new_cpu_time, replayed.new_gpu_time);
        out.push_back(std::move(replayed));
    }
    return out;
}

// An outcome's times from a replay's makespans (in the graph's unit): the makespans, and with
// --window the mean of the steps (`steps()` gives them, in the graph's unit); the speedup.
template <class Steps>
void set_times(ReplayOutcome& outcome, const Profile& profile, double before, double after, const Steps& steps) {
    const Dependencies& deps = *profile.dependencies;
    outcome.makespan_before = convert(before, deps.unit, profile.unit);
    outcome.makespan_after = convert(after, deps.unit, profile.unit);
    if (deps.steps.empty()) {
        outcome.before = outcome.makespan_before;
        outcome.after = outcome.makespan_after;
    } else {
        outcome.steps = steps();
        Summation before_sum, after_sum;
        for (ReplayedStep& step : outcome.steps) {
            step.time = convert(step.time, deps.unit, profile.unit);
            step.new_time = convert(step.new_time, deps.unit, profile.unit);
            step.new_cpu_time = convert(step.new_cpu_time, deps.unit, profile.unit);
            step.new_gpu_time = convert(step.new_gpu_time, deps.unit, profile.unit);
            before_sum.add(step.time);
            after_sum.add(step.new_time);
        }
        const auto n = static_cast<double>(outcome.steps.size());
        outcome.before = before_sum.value() / n;
        outcome.after = after_sum.value() / n;
    }
    outcome.speedup = outcome.after > 0 ? outcome.before / outcome.after : std::numeric_limits<double>::infinity();
}

}  // namespace

detail::ReplayResult replay_of(const Dependencies& deps, const std::vector<double>& factor) {
    return deps.prepared ? detail::replay(*deps.prepared, deps.graph, factor) : detail::replay(deps.graph, factor);
}

std::vector<double> dependency_factors(const Profile& profile, const std::vector<double>& factors,
                                       const std::vector<bool>* touched, std::vector<std::string>* not_events) {
    const Dependencies& deps = *profile.dependencies;
    // The graph's phases are the profile's, in its order, as the reader made them: phase i is
    // looked up by name only when the graph's phase i has another name. Rank replays a profile
    // of thousands of phases once per target, touching one.
    std::unordered_map<std::string_view, std::uint32_t> index;
    const auto graph_phase = [&](std::size_t i) -> std::optional<std::uint32_t> {
        const std::string& name = profile.phases[i].name;
        if (i < deps.phase_names.size() && deps.phase_names[i] == name) return static_cast<std::uint32_t>(i);
        if (index.empty())
            for (std::uint32_t p = 0; p < deps.phase_names.size(); ++p) index.emplace(deps.phase_names[p], p);
        const auto found = index.find(name);
        return found == index.end() ? std::nullopt : std::optional(found->second);
    };
    std::vector<double> factor(deps.phase_names.size(), 1.0);
    for (std::size_t i = 0; i < profile.phases.size() && i < factors.size(); ++i) {
        if (touched ? !(*touched)[i] : factors[i] == 1) continue;
        const std::optional<std::uint32_t> found = graph_phase(i);
        if (!found || !deps.has_events[*found]) {
            if (not_events) not_events->push_back(profile.phases[i].name);
            continue;
        }
        factor[*found] = factors[i];
    }
    return factor;
}

std::pair<std::vector<double>, std::vector<bool>> evaluation_factors(const Profile& profile,
                                                                     const Evaluation& evaluation) {
    std::vector<double> factors(profile.phases.size(), 1.0);
    std::vector<bool> touched(profile.phases.size(), false);
    for (std::size_t i = 0; i < profile.phases.size() && i < evaluation.phases.size(); ++i) {
        if (evaluation.phases[i].spec < 0) continue;
        factors[i] = evaluation.phases[i].factor;
        touched[i] = true;
    }
    return {factors, touched};
}

std::vector<bool> phases_with_events(const Profile& profile) {
    std::vector<bool> out(profile.phases.size(), false);
    if (!profile.dependencies) return out;
    const Dependencies& deps = *profile.dependencies;
    std::unordered_map<std::string_view, std::uint32_t> index;
    for (std::uint32_t i = 0; i < deps.phase_names.size(); ++i) index.emplace(deps.phase_names[i], i);
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        const auto found = index.find(profile.phases[i].name);
        out[i] = found != index.end() && deps.has_events[found->second];
    }
    return out;
}

ReplayOutcome replay_evaluation(const Profile& profile, const Evaluation& evaluation, bool with_critical_path) {
    const auto [factors, touched] = evaluation_factors(profile, evaluation);
    ReplayOutcome outcome = replay_phases(profile, factors, with_critical_path, &touched);
    // How much of the sped-up work the recorded critical path holds: what says why a replay gains
    // less than Amdahl's law on the phase table (one more replay, of the recorded factors).
    const Dependencies& deps = *profile.dependencies;
    const std::vector<PathShare> path =
        with_critical_path
            ? outcome.path_before
            : path_shares(deps, deps.graph, replay_of(deps, std::vector<double>(deps.phase_names.size(), 1.0)));
    const double scale = with_critical_path ? 1.0 : convert(1.0, deps.unit, profile.unit);
    std::unordered_set<std::string_view> sped_up;
    for (std::size_t i = 0; i < profile.phases.size(); ++i)
        if (touched[i]) sped_up.insert(profile.phases[i].name);
    for (const PathShare& share : path)
        if (share.phase && sped_up.count(share.name)) outcome.touched_on_path += share.time * scale;
    std::vector<double> self(deps.phase_names.size(), 0.0);  // each phase's events' self time
    for (const detail::ReplayEvent& event : deps.graph.events)
        if (event.phase < self.size()) self[event.phase] += event.end - event.start;
    for (std::uint32_t p = 0; p < deps.phase_names.size(); ++p)
        if (sped_up.count(deps.phase_names[p])) outcome.touched_time += convert(self[p], deps.unit, profile.unit);
    if (!outcome.steps.empty()) {  // the whole trace's, shared out among the steps
        outcome.touched_time /= static_cast<double>(outcome.steps.size());
        outcome.touched_on_path /= static_cast<double>(outcome.steps.size());
    }
    return outcome;
}

ReplayOutcome replay_phases(const Profile& profile, const std::vector<double>& factors, bool with_critical_path,
                            const std::vector<bool>* touched, bool with_busy_time) {
    if (!profile.dependencies) {
        throw Error(profile.source, "has no events to replay: --model replay reads a Chrome or Kineto trace (read as " +
                                        (profile.format.empty() ? std::string("a phase table") : profile.format) +
                                        ", it is a table of phases, for the Amdahl model only)");
    }
    const Dependencies& deps = *profile.dependencies;
    ReplayOutcome outcome;
    const std::vector<double> factor = dependency_factors(profile, factors, touched, &outcome.not_events);
    if (touched || with_critical_path || with_busy_time) {
        const detail::ReplayResult result = replay_of(deps, factor);
        if (touched) outcome.holder = path_holder(deps, result, factor, convert(1.0, deps.unit, profile.unit));
        if (with_critical_path) {
            const double scale = convert(1.0, deps.unit, profile.unit);
            outcome.path_after = path_shares(deps, deps.graph, result);
            // The recorded path: this replay's when nothing was sped up (rank's baseline).
            const bool recorded = std::all_of(factor.begin(), factor.end(), [](double f) { return f == 1; });
            outcome.path_before =
                recorded ? outcome.path_after
                         : path_shares(deps, deps.graph, replay_of(deps, std::vector<double>(factor.size(), 1.0)));
            for (auto* path : {&outcome.path_before, &outcome.path_after})
                for (PathShare& share : *path) share.time *= scale;
        }
        if (with_busy_time) {
            std::vector<double> starts, ends;
            for (const detail::ReplayEvent& event : deps.graph.events) {
                starts.push_back(event.start);
                ends.push_back(event.end);
            }
            outcome.gpu_busy_before = convert(busy_time(starts, ends, deps.first_gpu_event), deps.unit, profile.unit);
            outcome.gpu_busy_after =
                convert(busy_time(result.start, result.end, deps.first_gpu_event), deps.unit, profile.unit);
        }
        set_times(outcome, profile, result.before, result.after, [&] {
            return replayed_steps(
                deps, [&](std::uint32_t v) { return result.start[v]; }, [&](std::uint32_t v) { return result.end[v]; });
        });
    } else {
        // rank and plan replay one graph many times: the makespan (and steps) alone, in scratch
        // arrays this thread keeps from one replay to the next.
        thread_local std::vector<double> shift;
        std::optional<detail::PreparedReplay> own;
        if (!deps.prepared) own = detail::prepare_replay(deps.graph);
        const detail::PreparedReplay& prepared = deps.prepared ? *deps.prepared : *own;
        const double after = detail::replayed_makespan(prepared, deps.graph, factor, shift);
        set_times(outcome, profile, prepared.before, after, [&] {
            return replayed_steps(
                deps,
                [&](std::uint32_t v) { return prepared.start[prepared.position[v]] + shift[2 * prepared.position[v]]; },
                [&](std::uint32_t v) {
                    return prepared.end[prepared.position[v]] + shift[2 * prepared.position[v] + 1];
                });
        });
    }
    outcome.events = deps.graph.events.size();
    outcome.edges = deps.graph.edges.size();
    outcome.waits = deps.graph.waits.size();
    outcome.assumptions = deps.sources;
    return outcome;
}

}  // namespace amdahl
