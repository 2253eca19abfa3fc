#pragma once
// Replay of a trace over its dependencies (docs/replay.md): events keep the order and the
// delays the trace recorded between them, the selected phases' events get shorter, and every
// event's new start and end follow in dependency order. Only the graph is here; which edges a
// trace has (track order, launches, synchronizations) is the trace reader's to say.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "amdahl/units.hpp"

namespace amdahl::detail {

constexpr std::uint32_t no_phase = std::numeric_limits<std::uint32_t>::max();

/// One event of the trace, as recorded.
struct ReplayEvent {
    double start = 0, end = 0;
    std::uint32_t phase = no_phase;  ///< whose factor shortens it; no_phase: it keeps its duration
    /// Starts no earlier than its recorded start: a time the trace gives (the first event of a
    /// track with no known launch), not a dependency that can move.
    bool released = false;
};

/// `to` starts no earlier than `delay` after `from` (its start for a launch, else its end).
/// `delay` is at most the recorded gap; the rest of the gap is slack that a speedup before
/// `from` cannot take away.
struct ReplayEdge {
    std::uint32_t from = 0, to = 0;
    double delay = 0;
    bool from_start = false;
};

/// A call that waits for the GPU (a synchronize): it ends no earlier than `awaited` ends, plus
/// the tail it had after that end; the part of it that did not wait stays as long as it was.
struct ReplayWait {
    std::uint32_t call = 0, awaited = 0;
};

struct ReplayGraph {
    std::vector<ReplayEvent> events;
    std::vector<ReplayEdge> edges;
    std::vector<ReplayWait> waits;
};

struct ReplayResult {
    std::vector<double> start, end;  ///< each event's new start and end
    double before = 0, after = 0;    ///< the makespan (first start to last end), recorded and new
    double first_start = 0;          ///< the new first start
    /// Per event, what set it: the edge (index into ReplayGraph::edges) that set its new start
    /// (UINT32_MAX: it kept its recorded start), and the awaited event that set a waiting call's
    /// new end (UINT32_MAX: its own start did). The critical path follows them back.
    std::vector<std::uint32_t> start_by, end_by;
};

/// One stretch of a critical path: an event's time on it (its whole duration, or a waiting call's
/// part after the work it waited for), or a delay between two events (`event` UINT32_MAX).
struct PathPart {
    std::uint32_t event = std::numeric_limits<std::uint32_t>::max();
    double time = 0;
};

/// The chain of events and delays that sets the replayed makespan, from the event that ends last
/// back to one that kept its recorded start (plus the time from the first start to there, as a
/// delay). Its parts' times add up to `result.after`.
std::vector<PathPart> critical_path(const ReplayGraph& graph, const ReplayResult& result);

/// Replays `graph` with each phase's events `factor[phase]` times shorter (infinity: no time; a
/// phase beyond `factor`'s size keeps its time). With every factor 1 the result is the recorded
/// timeline to the last bit: times move by shifts computed from the recorded ones, never by
/// adding recorded gaps back. Linear in events and edges. Throws amdahl::Error when the graph
/// is no DAG or an edge asks for more delay than the trace recorded.
ReplayResult replay(const ReplayGraph& graph, const std::vector<double>& factor);

/// What every replay of one graph shares, computed once and laid out flat in dependency order
/// (position i is event `order[i]`), so that a replay is one pass over arrays: no hashing, no
/// allocation, each arc's source found by index. Arcs keep their order in the graph.
struct PreparedReplay {
    std::vector<std::uint32_t> order;       ///< per position: its event (a topological order)
    std::vector<std::uint32_t> position;    ///< per event: its position
    std::vector<double> start, end;         ///< per position: the recorded times
    std::vector<std::uint32_t> phase;       ///< per position: its event's phase
    std::vector<std::uint8_t> keeps_start;  ///< per position: released, or no edge explains its start
    /// Incoming edges per position (compressed rows): each edge's source shift, an index into
    /// the interleaved shifts (2 × position, + 1 for its end), its slack (recorded gap - delay),
    /// and its index in ReplayGraph::edges.
    std::vector<std::uint32_t> edge_first, edge_source, edge_index;
    std::vector<double> edge_slack;
    /// Awaited events per waiting call (compressed rows): the awaited position, and its lag
    /// A - end(awaited), A the latest recorded end the call awaits. At a call's first row, its
    /// own part o = end - max(start, A) (what its factor shortens) and the rest of it, `waited`.
    std::vector<std::uint32_t> wait_first, wait_source;
    std::vector<double> wait_lag, wait_own, wait_waited;
    double before = 0;  ///< the recorded makespan (first start to last end)
};
/// Checks `graph` (the same errors as replay()) and prepares its replays: linear in events and edges.
PreparedReplay prepare_replay(const ReplayGraph& graph);
/// replay() over a graph prepared by prepare_replay(): the same result, without redoing the
/// work every replay shares (rank and plan replay one graph many times).
ReplayResult replay(const PreparedReplay& prepared, const ReplayGraph& graph, const std::vector<double>& factor);

/// The replayed makespan alone (ReplayResult::after, to the bit), without the result's arrays:
/// `shift` is scratch, resized to 2 × events and left holding each position's new start minus its
/// recorded one at 2i and the same for its end at 2i + 1. `factor` as replay() takes it.
double replayed_makespan(const PreparedReplay& prepared, const ReplayGraph& graph, const std::vector<double>& factor,
                         std::vector<double>& shift);

}  // namespace amdahl::detail

namespace amdahl {

struct Profile;
struct Evaluation;
struct Dependencies;

/// A replay of the profile's graph, prepared once where the reader prepared it.
detail::ReplayResult replay_of(const Dependencies& deps, const std::vector<double>& factor);
/// Per phase of `profile.dependencies` (its phase_names): the factor of the profile's phase of that
/// name (`factors` parallel to Profile::phases; sped up: `touched`, else a factor not 1), 1 for
/// the rest. Sped-up phases that have no events are added to `not_events` (when given).
std::vector<double> dependency_factors(const Profile& profile, const std::vector<double>& factors,
                                       const std::vector<bool>* touched, std::vector<std::string>* not_events);
/// Per phase of `profile`: the factor `evaluation` gives it (1: none) and whether it gives one.
std::pair<std::vector<double>, std::vector<bool>> evaluation_factors(const Profile& profile,
                                                                     const Evaluation& evaluation);

/// A trace's events and what links them, kept with its profile (Profile::dependencies) for
/// `--model replay`. Built by the trace reader (src/input/profilers/dependencies.cpp).
struct Dependencies {
    detail::ReplayGraph graph;
    Unit unit = Unit::us;                  ///< of the graph's times
    std::vector<std::string> phase_names;  ///< ReplayEvent::phase indexes these (profile phase names)
    std::vector<bool> has_events;          ///< per phase name: some event of the graph is of that phase
    /// Per event: what a critical path calls it, an index into `labels` (its phase, or the event's
    /// own name when it is of no phase).
    std::vector<std::uint32_t> label;
    struct Label {
        std::string name;
        bool phase = false;
    };
    std::vector<Label> labels;
    /// The GPU's events are the graph's events from this index on (the CPU's come first).
    std::uint32_t first_gpu_event = 0;
    /// The tracks the events ran on, in words ("stream 7 (device 0)", "thread 12 (process 3)"):
    /// events from `first_event` up to the next track's are on that track. Empty when unknown.
    struct Track {
        std::string name;
        std::uint32_t first_event = 0;
    };
    std::vector<Track> tracks;
    std::vector<std::string> sources;  ///< what the edges were taken from, and what was assumed
    /// With --window: the steps used. A step's CPU span and GPU copy move with the events they
    /// enclose: the span starts as long before the first of them as it did, and ends as long after
    /// the last. `enclosed` holds, per track (the span's thread; each stream for the copy), the
    /// first event that starts in it and the one that ends last in it (a track keeps its order).
    struct Step {
        std::string name;
        bool has_cpu = false, has_gpu = false;
        double cpu_start = 0, cpu_end = 0, gpu_start = 0, gpu_end = 0;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> cpu_enclosed, gpu_enclosed;
        /// Per `gpu_enclosed` entry, the start and end of that stream's copy: each moves with its
        /// own events, and the step's GPU copy is their hull. Empty (a timeline written before
        /// these were kept): every stream's copy is taken to span [gpu_start, gpu_end].
        std::vector<std::pair<double, double>> gpu_copies;
        /// Streams' copies that enclose no event: nothing moves them, so they stay where they were
        /// and count in the hull as recorded.
        std::vector<std::pair<double, double>> gpu_still;
    };
    std::vector<Step> steps;
    /// The graph prepared for replays (detail::prepare_replay), set by whoever builds the graph;
    /// without it each replay prepares the graph itself.
    std::shared_ptr<const detail::PreparedReplay> prepared;
};

}  // namespace amdahl
