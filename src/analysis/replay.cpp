#include "analysis/replay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/replay.hpp"

namespace amdahl::detail {

namespace {

// An event's new duration: d / f, and no time at all for f = infinity.
double scaled(double duration, double factor) { return std::isinf(factor) ? 0.0 : duration / factor; }

std::string event_name(std::uint32_t i) { return "replay: event " + std::to_string(i); }

}  // namespace

ReplayResult replay(const ReplayGraph& graph, const std::vector<double>& factor) {
    const std::vector<ReplayEvent>& events = graph.events;
    const std::size_t n = events.size();
    const auto factor_of = [&](std::uint32_t phase) { return phase < factor.size() ? factor[phase] : 1.0; };
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!(events[i].end >= events[i].start)) throw Error(event_name(i), "ends before it starts");
        if (!(factor_of(events[i].phase) > 0)) throw Error(event_name(i), "its phase's factor must be > 0");
    }

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

    // Times move by shifts from the recorded ones: with every factor 1 each shift is exactly 0.
    // An edge u -> v with recorded gap g = start(v) - anchor(u) and delay d <= g has slack g - d:
    //   shift_start(v) = max over edges (shift_anchor(u) - slack), or 0 when v is released or
    //   nothing explains its start (no edge without slack): it keeps its recorded start.
    //   shift_end(v) = shift_start(v) + (d(v) / f - d(v)) for a plain event. A waiting call with
    //   own part o = end - max(start, A) (A: the latest recorded end it awaits) ends at
    //   max(new start + o / f, max over awaited (new end(a) + A - end(a)) + o), in shifts
    //   max(shift_start - waited + (o / f - o), max over awaited (shift_end(a) - (A - end(a)))).
    std::vector<double> shift_start(n, 0), shift_end(n, 0);
    std::vector<std::uint32_t> ready;
    ready.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (in_degree[i] == 0) ready.push_back(i);
    std::size_t visited = 0;
    for (std::size_t head = 0; head < ready.size(); ++head) {
        const std::uint32_t v = ready[head];
        ++visited;
        const ReplayEvent& event = events[v];
        bool explained = false;
        double shift = -std::numeric_limits<double>::infinity();
        for (std::uint32_t k = edges_in_first[v]; k < edges_in_first[v + 1]; ++k) {
            const ReplayEdge& e = graph.edges[edges_in[k]];
            const ReplayEvent& from = events[e.from];
            const double anchor = e.from_start ? from.start : from.end;
            const double slack = (event.start - anchor) - e.delay;
            if (slack < 0) throw Error(event_name(v), "an edge asks for more delay than the trace recorded");
            explained = explained || slack == 0;
            shift = std::max(shift, (e.from_start ? shift_start[e.from] : shift_end[e.from]) - slack);
        }
        if (event.released || !explained) shift = std::max(shift, 0.0);
        shift_start[v] = shift;

        const double f = factor_of(event.phase);
        const double duration = event.end - event.start;
        if (waits_in_first[v] == waits_in_first[v + 1]) {
            shift_end[v] = shift + (scaled(duration, f) - duration);
        } else {
            // After the awaited work ends, the call still takes its own part (the return): the
            // new end is the awaited work's new end plus that part. A call that started after the
            // work had ended did not wait, and its own part is all of it.
            double awaited_end = event.start;
            for (std::uint32_t k = waits_in_first[v]; k < waits_in_first[v + 1]; ++k) {
                const std::uint32_t a = graph.waits[waits_in[k]].awaited;
                if (events[a].end > event.end)
                    throw Error(event_name(v), "a waiting call ends before the work it waits for");
                awaited_end = std::max(awaited_end, events[a].end);
            }
            double awaited_shift = -std::numeric_limits<double>::infinity();
            for (std::uint32_t k = waits_in_first[v]; k < waits_in_first[v + 1]; ++k) {
                const std::uint32_t a = graph.waits[waits_in[k]].awaited;
                awaited_shift = std::max(awaited_shift, shift_end[a] - (awaited_end - events[a].end));
            }
            const double own = event.end - awaited_end;  // the part that did not wait
            const double waited = duration - own;
            shift_end[v] = std::max(shift - waited + (scaled(own, f) - own), awaited_shift);
        }
        for (std::uint32_t k = first[v]; k < first[v + 1]; ++k)
            if (--in_degree[next[k]] == 0) ready.push_back(next[k]);
    }
    if (visited != n) throw Error("replay", "the trace's dependencies form a cycle");

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
    return result;
}

}  // namespace amdahl::detail

namespace amdahl {

ReplayOutcome replay_evaluation(const Profile& profile, const Evaluation& evaluation) {
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
    for (std::size_t i = 0; i < profile.phases.size() && i < evaluation.phases.size(); ++i) {
        if (evaluation.phases[i].spec < 0) continue;
        const auto found = index.find(profile.phases[i].name);
        if (found == index.end() || !deps.has_events[found->second]) {
            outcome.not_events.push_back(profile.phases[i].name);
            continue;
        }
        factor[found->second] = evaluation.phases[i].factor;
    }
    const detail::ReplayResult result = detail::replay(deps.graph, factor);
    outcome.before = convert(result.before, deps.unit, profile.unit);
    outcome.after = convert(result.after, deps.unit, profile.unit);
    outcome.speedup = outcome.after > 0 ? outcome.before / outcome.after : std::numeric_limits<double>::infinity();
    outcome.events = deps.graph.events.size();
    outcome.edges = deps.graph.edges.size();
    outcome.waits = deps.graph.waits.size();
    outcome.assumptions = deps.sources;
    return outcome;
}

}  // namespace amdahl
