#include "analysis/replay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/replay.hpp"

namespace amdahl::detail {

namespace {

// An event's new duration: d / f, and no time at all for f = infinity.
double scaled(double duration, double factor) { return std::isinf(factor) ? 0.0 : duration / factor; }

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
    PreparedReplay p;
    p.edges_in_first.assign(n + 1, 0);
    p.waits_in_first.assign(n + 1, 0);
    for (const ReplayEdge& e : graph.edges) ++p.edges_in_first[e.to + 1];
    for (const ReplayWait& w : graph.waits) ++p.waits_in_first[w.call + 1];
    for (std::size_t i = 0; i < n; ++i) {
        p.edges_in_first[i + 1] += p.edges_in_first[i];
        p.waits_in_first[i + 1] += p.waits_in_first[i];
    }
    p.edges_in.resize(graph.edges.size());
    p.waits_in.resize(graph.waits.size());
    {
        std::vector<std::uint32_t> e_fill(p.edges_in_first.begin(), p.edges_in_first.end() - 1);
        for (std::uint32_t k = 0; k < graph.edges.size(); ++k) p.edges_in[e_fill[graph.edges[k].to]++] = k;
        std::vector<std::uint32_t> w_fill(p.waits_in_first.begin(), p.waits_in_first.end() - 1);
        for (std::uint32_t k = 0; k < graph.waits.size(); ++k) p.waits_in[w_fill[graph.waits[k].call]++] = k;
    }
    p.order.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (in_degree[i] == 0) p.order.push_back(i);
    for (std::size_t head = 0; head < p.order.size(); ++head) {
        const std::uint32_t v = p.order[head];
        for (std::uint32_t k = first[v]; k < first[v + 1]; ++k)
            if (--in_degree[next[k]] == 0) p.order.push_back(next[k]);
    }
    // The checks of the recorded times, in dependency order as a replay meets them.
    p.awaited_end.assign(n, 0);
    for (const std::uint32_t v : p.order) {
        const ReplayEvent& event = events[v];
        for (std::uint32_t k = p.edges_in_first[v]; k < p.edges_in_first[v + 1]; ++k) {
            const ReplayEdge& e = graph.edges[p.edges_in[k]];
            const double anchor = e.from_start ? events[e.from].start : events[e.from].end;
            if ((event.start - anchor) - e.delay < 0)
                throw Error(event_name(v), "an edge asks for more delay than the trace recorded");
        }
        double awaited_end = event.start;
        for (std::uint32_t k = p.waits_in_first[v]; k < p.waits_in_first[v + 1]; ++k) {
            const std::uint32_t a = graph.waits[p.waits_in[k]].awaited;
            if (events[a].end > event.end)
                throw Error(event_name(v), "a waiting call ends before the work it waits for");
            awaited_end = std::max(awaited_end, events[a].end);
        }
        p.awaited_end[v] = awaited_end;
    }
    if (p.order.size() != n) throw Error("replay", "the trace's dependencies form a cycle");
    return p;
}

ReplayResult replay(const ReplayGraph& graph, const std::vector<double>& factor) {
    return replay(prepare_replay(graph), graph, factor);
}

ReplayResult replay(const PreparedReplay& p, const ReplayGraph& graph, const std::vector<double>& factor) {
    const std::vector<ReplayEvent>& events = graph.events;
    const std::size_t n = events.size();
    const auto factor_of = [&](std::uint32_t phase) { return phase < factor.size() ? factor[phase] : 1.0; };
    for (const double f : factor)
        if (!(f > 0)) {
            for (std::uint32_t i = 0; i < n; ++i)
                if (!(factor_of(events[i].phase) > 0)) throw Error(event_name(i), "its phase's factor must be > 0");
        }

    // Times move by shifts from the recorded ones: with every factor 1 each shift is exactly 0.
    // An edge u -> v with recorded gap g = start(v) - anchor(u) and delay d <= g has slack g - d:
    //   shift_start(v) = max over edges (shift_anchor(u) - slack), or 0 when v is released or
    //   nothing explains its start (no edge without slack): it keeps its recorded start.
    //   shift_end(v) = shift_start(v) + (d(v) / f - d(v)) for a plain event. A waiting call with
    //   own part o = end - max(start, A) (A: the latest recorded end it awaits) ends at
    //   max(new start + o / f, max over awaited (new end(a) + A - end(a)) + o), in shifts
    //   max(shift_start - waited + (o / f - o), max over awaited (shift_end(a) - (A - end(a)))).
    std::vector<double> shift_start(n, 0), shift_end(n, 0);
    std::vector<std::uint32_t> start_by(n, none), end_by(n, none);
    for (const std::uint32_t v : p.order) {
        const ReplayEvent& event = events[v];
        bool explained = false;
        double shift = -std::numeric_limits<double>::infinity();
        std::uint32_t binding = none;  // the edge that sets the new start
        for (std::uint32_t k = p.edges_in_first[v]; k < p.edges_in_first[v + 1]; ++k) {
            const ReplayEdge& e = graph.edges[p.edges_in[k]];
            const ReplayEvent& from = events[e.from];
            const double anchor = e.from_start ? from.start : from.end;
            const double slack = (event.start - anchor) - e.delay;
            explained = explained || slack == 0;
            const double candidate = (e.from_start ? shift_start[e.from] : shift_end[e.from]) - slack;
            if (candidate > shift || binding == none) binding = p.edges_in[k];
            shift = std::max(shift, candidate);
        }
        if ((event.released || !explained) && shift < 0) {
            shift = 0;
            binding = none;  // it keeps its recorded start: nothing before it holds it
        }
        shift_start[v] = shift;
        start_by[v] = binding;

        const double f = factor_of(event.phase);
        const double duration = event.end - event.start;
        if (p.waits_in_first[v] == p.waits_in_first[v + 1]) {
            shift_end[v] = shift + (scaled(duration, f) - duration);
        } else {
            // After the awaited work ends, the call still takes its own part (the return): the
            // new end is the awaited work's new end plus that part. A call that started after the
            // work had ended did not wait, and its own part is all of it.
            const double awaited_end = p.awaited_end[v];
            double awaited_shift = -std::numeric_limits<double>::infinity();
            for (std::uint32_t k = p.waits_in_first[v]; k < p.waits_in_first[v + 1]; ++k) {
                const std::uint32_t a = graph.waits[p.waits_in[k]].awaited;
                awaited_shift = std::max(awaited_shift, shift_end[a] - (awaited_end - events[a].end));
            }
            const double own = event.end - awaited_end;  // the part that did not wait
            const double waited = duration - own;
            // Its own part is its own work: the factor shortens it after a wait too.
            const double by_itself = shift - waited + (scaled(own, f) - own);
            awaited_shift += scaled(own, f) - own;
            shift_end[v] = std::max(by_itself, awaited_shift);
            if (awaited_shift > by_itself) {
                for (std::uint32_t k = p.waits_in_first[v]; k < p.waits_in_first[v + 1]; ++k) {
                    const std::uint32_t a = graph.waits[p.waits_in[k]].awaited;
                    if (shift_end[a] - (awaited_end - events[a].end) + (scaled(own, f) - own) == awaited_shift)
                        end_by[v] = a;
                }
            }
        }
    }

    ReplayResult result;
    result.start.resize(n);
    result.end.resize(n);
    if (n == 0) return result;
    double first_before = events[0].start, last_before = events[0].end;
    double first_after = events[0].start + shift_start[0], last_after = events[0].end + shift_end[0];
    for (std::uint32_t i = 0; i < n; ++i) {
        result.start[i] = events[i].start + shift_start[i];
        result.end[i] = events[i].end + shift_end[i];
        first_before = std::min(first_before, events[i].start);
        last_before = std::max(last_before, events[i].end);
        first_after = std::min(first_after, result.start[i]);
        last_after = std::max(last_after, result.end[i]);
    }
    result.before = last_before - first_before;
    result.after = last_after - first_after;
    result.first_start = first_after;
    result.start_by = std::move(start_by);
    result.end_by = std::move(end_by);
    return result;
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

// A replay of the profile's graph, prepared once where the reader prepared it.
detail::ReplayResult replay_of(const Dependencies& deps, const std::vector<double>& factor) {
    return deps.prepared ? detail::replay(*deps.prepared, deps.graph, factor) : detail::replay(deps.graph, factor);
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
std::vector<ReplayedStep> replayed_steps(const Dependencies& deps, const detail::ReplayResult& result) {
    const auto& events = deps.graph.events;
    // Where a recorded instant `t` inside event v goes: as far into its new run as it was into
    // its recorded one (at most to its new end).
    const auto inside = [&](std::uint32_t v, double t) {
        if (result.start[v] == events[v].start && result.end[v] == events[v].end) return t;  // exact when unmoved
        return result.start[v] + std::min(t - events[v].start, result.end[v] - result.start[v]);
    };
    // A boundary before an event keeps its lead to it, one after an event its tail; one inside an
    // event moves with it. Over several tracks, the earliest start and the latest end.
    const auto moved = [&](double start, double end, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& in) {
        if (in.empty()) return end - start;
        double from = INFINITY, to = -INFINITY;
        for (const auto& [a, b] : in) {
            from = std::min(from,
                            events[a].start < start ? inside(a, start) : start + (result.start[a] - events[a].start));
            to = std::max(to, events[b].end > end ? inside(b, end) : end + (result.end[b] - events[b].end));
        }
        return std::max(to - from, 0.0);
    };
    std::vector<ReplayedStep> out;
    for (const Dependencies::Step& step : deps.steps) {
        ReplayedStep replayed;
        replayed.name = step.name;
        if (step.has_cpu) {
            replayed.time = step.cpu_end - step.cpu_start;
            replayed.new_time = moved(step.cpu_start, step.cpu_end, step.cpu_enclosed);
        }
        if (step.has_gpu) {
            replayed.time = std::max(replayed.time, step.gpu_end - step.gpu_start);
            replayed.new_time = std::max(replayed.new_time, moved(step.gpu_start, step.gpu_end, step.gpu_enclosed));
        }
        out.push_back(std::move(replayed));
    }
    return out;
}

}  // namespace

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
    std::vector<double> factors(profile.phases.size(), 1.0);
    std::vector<bool> touched(profile.phases.size(), false);
    for (std::size_t i = 0; i < profile.phases.size() && i < evaluation.phases.size(); ++i) {
        if (evaluation.phases[i].spec < 0) continue;
        factors[i] = evaluation.phases[i].factor;
        touched[i] = true;
    }
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
    std::unordered_map<std::string_view, std::uint32_t> index;
    for (std::uint32_t i = 0; i < deps.phase_names.size(); ++i) index.emplace(deps.phase_names[i], i);
    std::vector<double> factor(deps.phase_names.size(), 1.0);
    ReplayOutcome outcome;
    for (std::size_t i = 0; i < profile.phases.size() && i < factors.size(); ++i) {
        if (touched ? !(*touched)[i] : factors[i] == 1) continue;
        const auto found = index.find(profile.phases[i].name);
        if (found == index.end() || !deps.has_events[found->second]) {
            outcome.not_events.push_back(profile.phases[i].name);
            continue;
        }
        factor[found->second] = factors[i];
    }
    const detail::ReplayResult result = replay_of(deps, factor);
    if (touched) outcome.holder = path_holder(deps, result, factor, convert(1.0, deps.unit, profile.unit));
    if (with_critical_path) {
        const double scale = convert(1.0, deps.unit, profile.unit);
        outcome.path_before = path_shares(deps, deps.graph, replay_of(deps, std::vector<double>(factor.size(), 1.0)));
        outcome.path_after = path_shares(deps, deps.graph, result);
        for (auto* path : {&outcome.path_before, &outcome.path_after})
            for (PathShare& share : *path) share.time *= scale;
    }
    outcome.makespan_before = convert(result.before, deps.unit, profile.unit);
    outcome.makespan_after = convert(result.after, deps.unit, profile.unit);
    if (deps.steps.empty()) {
        outcome.before = outcome.makespan_before;
        outcome.after = outcome.makespan_after;
    } else {
        outcome.steps = replayed_steps(deps, result);
        Summation before, after;
        for (ReplayedStep& step : outcome.steps) {
            step.time = convert(step.time, deps.unit, profile.unit);
            step.new_time = convert(step.new_time, deps.unit, profile.unit);
            before.add(step.time);
            after.add(step.new_time);
        }
        const auto n = static_cast<double>(outcome.steps.size());
        outcome.before = before.value() / n;
        outcome.after = after.value() / n;
    }
    outcome.speedup = outcome.after > 0 ? outcome.before / outcome.after : std::numeric_limits<double>::infinity();
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
    outcome.events = deps.graph.events.size();
    outcome.edges = deps.graph.edges.size();
    outcome.waits = deps.graph.waits.size();
    outcome.assumptions = deps.sources;
    return outcome;
}

ReplayedCandidates replay_candidates(const Profile& profile, std::vector<Candidate>& candidates,
                                     const std::vector<double>& grid) {
    ReplayedCandidates out;
    const std::vector<double> ones(profile.phases.size(), 1.0);
    const ReplayOutcome recorded = replay_phases(profile, ones, true);
    out.baseline = recorded.before;
    std::unordered_set<std::string_view> on_path;
    for (const PathShare& share : recorded.path_before)
        if (share.phase) on_path.insert(share.name);
    const auto alone_at = [&](const Candidate& c, double k) {  // the candidate alone at factor k
        std::vector<double> factors = ones;
        for (std::size_t p : c.phases) factors[p] = k;
        return replay_phases(profile, factors, false, nullptr, false);
    };
    const std::vector<bool> moves = phases_with_events(profile);
    for (Candidate& c : candidates) {
        // A target with no event to move (annotations, time the sweep adds) gains nothing: no
        // replay needed, so that many such targets cost nothing.
        if (std::none_of(c.phases.begin(), c.phases.end(), [&](std::size_t p) { return moves[p]; })) {
            c.saved = 0;
            out.ceiling.push_back(1);
            out.grid.emplace_back(grid.size(), 1.0);
            out.on_critical_path.push_back(false);
            continue;
        }
        const ReplayOutcome at_factor = alone_at(c, c.factor);
        c.saved = at_factor.before - at_factor.after;
        const ReplayOutcome at_inf = alone_at(c, std::numeric_limits<double>::infinity());
        out.ceiling.push_back(at_inf.speedup);
        std::vector<double> at_grid;
        for (double k : grid) at_grid.push_back(alone_at(c, k).speedup);
        out.grid.push_back(std::move(at_grid));
        bool path = false;
        for (std::size_t p : c.phases) path = path || on_path.count(profile.phases[p].name) > 0;
        out.on_critical_path.push_back(path);
    }
    return out;
}

}  // namespace amdahl
