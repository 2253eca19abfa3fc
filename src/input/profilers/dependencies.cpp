// The replay graph of a trace (docs/replay.md). Nodes: every event of every track after the
// filters, except annotations and cuda_sync markers; a CPU thread's nested events are cut into
// self-time segments, each sped up by the factor of its innermost event's phase. Edges:
//   - track order: a node starts no earlier than the previous one on its track ends, plus the gap
//     the trace recorded between them (on a CPU thread: untraced host work; on a GPU stream: kept
//     only when no launch explains it, see the queue-gap rule);
//   - launch: a GPU event starts no earlier than its runtime call's start plus a launch latency
//     (the pair found by correlation id);
//   - wait: a synchronizing runtime call ends no earlier than the GPU work it waited for ends;
//     Kineto's cuda_sync markers say which work (a stream, the device, a recorded event), else
//     the call's name and the GPU work that ended inside it do;
//   - stream wait: GPU work after a Stream Wait Event marker starts no earlier than the work the
//     awaited event recorded on another stream ends.
#include "input/profilers/dependencies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <future>
#include <map>
#include <set>
#include <unordered_map>

#include "analysis/replay.hpp"
#include "input/profilers/steps.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

constexpr std::uint32_t none = UINT32_MAX;

bool is_gpu_work(SpanClass cls) {
    return cls == SpanClass::kernel || cls == SpanClass::memcpy || cls == SpanClass::memset;
}

// What a runtime call waits for, by its name.
enum class Sync : std::uint8_t { no_wait, device, stream, copy };

}  // namespace

std::string_view api_base_name(std::string_view name) {
    // nsys names calls with the API version that added them: cudaMemcpy_v3020, cuMemcpyHtoD_v2.
    std::size_t digits = 0;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[name.size() - 1 - digits]))) ++digits;
    if (digits == 0 || name.size() < digits + 3) return name;
    const std::string_view rest = name.substr(0, name.size() - digits);
    return rest.ends_with("_v") ? rest.substr(0, rest.size() - 2) : name;
}

namespace {

Sync sync_of(std::string_view full_name) {
    const std::string_view name = api_base_name(full_name);
    for (std::string_view device : {"cudaDeviceSynchronize", "hipDeviceSynchronize", "cuCtxSynchronize",
                                    "cudaThreadSynchronize", "hipCtxSynchronize"})
        if (name == device) return Sync::device;
    for (std::string_view stream : {"cudaStreamSynchronize", "hipStreamSynchronize", "cuStreamSynchronize",
                                    "cudaEventSynchronize", "hipEventSynchronize", "cuEventSynchronize"})
        if (name == stream) return Sync::stream;
    // Copies without "Async" block the host until they are done.
    const bool copy = name.starts_with("cudaMemcpy") || name.starts_with("hipMemcpy") || name.starts_with("cuMemcpy");
    if (copy && name.find("Async") == std::string_view::npos) return Sync::copy;
    return Sync::no_wait;
}

// What a Kineto cuda_sync marker is, by its name.
enum class Marker : std::uint8_t { stream_sync, context_sync, event_sync, stream_wait, unknown };

Marker marker_kind(std::string_view name) {
    if (name == "Stream Sync") return Marker::stream_sync;
    if (name == "Context Sync") return Marker::context_sync;
    if (name == "Event Sync") return Marker::event_sync;
    if (name == "Stream Wait Event") return Marker::stream_wait;
    return Marker::unknown;
}

double median(std::vector<double> values) {
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    if (values.size() % 2 == 1) return values[mid];
    const double upper = values[mid];
    return (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

class Builder {
public:
    Builder(const Timeline& timeline, const std::vector<bool>& left_out, double queue_gap)
        : t_(timeline), left_out_(left_out), queue_gap_(queue_gap) {}

    // The nodes and edges: what does not depend on the phases, so that it can be built while the
    // sweep finds them.

    void build(Dependencies& deps) {
        graph_ = &deps.graph;
        deps_ = &deps;
        const std::size_t n = t_.spans.size();
        last_node_.assign(n, none);
        start_node_.assign(n, none);
        ended_.assign(n, false);
        by_track_.assign(t_.track_count(), {});
        cpu_nodes_.assign(t_.track_count(), {});
        std::vector<std::vector<std::uint32_t>>& by_track = by_track_;
        gpu_track_.assign(t_.track_count(), false);
        for (std::uint32_t i = 0; i < n; ++i) {
            const Span& s = t_.spans[i];
            if (left_out_[i] || s.cls == SpanClass::annotation || s.cls == SpanClass::gpu_annotation) continue;
            if (s.cls == SpanClass::sync_marker) continue;  // a marker of a wait: read with the waits
            if (!(s.end > s.start)) continue;
            by_track[s.track].push_back(i);
            if (is_gpu_work(s.cls)) gpu_track_[s.track] = true;
            if (!t_.links.empty() && t_.links[i] != 0) (is_gpu_work(s.cls) ? gpu_ids_ : call_ids_) = true;
        }
        for (std::uint32_t track = 0; track < by_track.size(); ++track)
            if (!gpu_track_[track])
                for (std::uint32_t i : by_track[track])
                    if (t_.spans[i].cls == SpanClass::runtime) ++runtime_calls_;
        for (std::uint32_t track = 0; track < by_track.size(); ++track)
            if (!gpu_track_[track] && !by_track[track].empty()) add_cpu_track(by_track[track]);
        // Runtime calls by correlation id: the launches of GPU work. An id two calls share (a trace
        // merged from several processes, each counting from 1) links nothing: which call launched
        // the work is unknown.
        for (std::uint32_t i = 0; i < n && !t_.links.empty(); ++i) {
            if (t_.spans[i].cls != SpanClass::runtime || t_.links[i] == 0 || start_node_[i] == none) continue;
            const auto [it, fresh] = call_of_link_.try_emplace(t_.links[i], i);
            if (!fresh && it->second != none) {
                it->second = none;
                ++shared_ids_;
            }
        }
        deps.first_gpu_event = static_cast<std::uint32_t>(graph_->events.size());
        gpu_nodes_.resize(t_.track_count());
        for (std::uint32_t track = 0; track < by_track.size(); ++track) {
            if (gpu_track_[track]) sort_by_start(t_, by_track[track]);
            track_of_.try_emplace({t_.track_info(track).pid, t_.track_info(track).tid}, track);
        }
        index_markers(by_track);
        typical_latency(by_track);
        for (std::uint32_t track = 0; track < by_track.size(); ++track)
            if (gpu_track_[track]) add_gpu_track(track, by_track[track]);
        std::sort(gpu_of_link_.begin(), gpu_of_link_.end());
        add_stream_waits();
        index_gpu_work();
        add_waits();
        for (const auto& [link, marker] : marker_of_link_)  // markers of no runtime call in the trace
            if (!used_markers_.count(marker)) ++markers_unread_;
        describe(deps);
    }

    // What the sweep found: each node's phase, the labels of critical paths, and the steps.
    void set_phases(Dependencies& deps, const SpanPhases& phases) {
        for (std::uint32_t v = 0; v < graph_->events.size(); ++v) {
            const std::uint32_t span = node_span_[v];
            const std::uint32_t phase = phases.phase[span] == UINT32_MAX ? no_phase : phases.phase[span];
            graph_->events[v].phase = phase;
            std::vector<std::uint32_t>& labels = phase != no_phase ? phase_label_ : name_label_;
            const std::uint32_t key = phase != no_phase ? phase : t_.spans[span].name;
            if (key >= labels.size()) labels.resize(key + 1, none);
            if (labels[key] == none) {
                labels[key] = static_cast<std::uint32_t>(deps.labels.size());
                deps.labels.push_back({phase != no_phase ? deps.phase_names[phase] : t_.text(key), phase != no_phase});
            }
            deps.label.push_back(labels[key]);
        }
        add_steps(deps, phases.steps);
    }

private:
    // A node for (a segment of) span `span`; its phase and its label for critical paths (its phase,
    // or the event's name when it is of no phase) come with set_phases.
    std::uint32_t add_node(double start, double end, std::uint32_t span) {
        graph_->events.push_back(ReplayEvent{start, end, no_phase, false});
        node_span_.push_back(span);
        const std::uint32_t v = static_cast<std::uint32_t>(graph_->events.size() - 1);
        // A track's events are added together, so a track is a range of events.
        const std::uint32_t track = t_.spans[span].track;
        if (deps_->tracks.empty() || track != last_track_) {
            const auto& info = t_.track_info(track);
            deps_->tracks.push_back({gpu_track_[track] ? "stream " + info.tid + " (device " + info.pid + ")"
                                                       : "thread " + info.tid + " (process " + info.pid + ")",
                                     v});
            last_track_ = track;
        }
        return v;
    }
    const ReplayEvent& node(std::uint32_t i) const { return graph_->events[i]; }

    // A CPU thread: its nested events cut into segments, each owned by the innermost event running.
    void add_cpu_track(const std::vector<std::uint32_t>& spans) {
        struct Boundary {
            double time;
            bool start;
            std::uint32_t span;
        };
        std::vector<Boundary> boundaries;
        boundaries.reserve(2 * spans.size());
        for (std::uint32_t i : spans) {
            boundaries.push_back({t_.spans[i].start, true, i});
            boundaries.push_back({t_.spans[i].end, false, i});
        }
        // Ends before starts at one instant; of starts, the outer (longer) first; of ends, the
        // inner (later started) first.
        std::sort(boundaries.begin(), boundaries.end(), [&](const Boundary& a, const Boundary& b) {
            if (a.time != b.time) return a.time < b.time;
            if (a.start != b.start) return !a.start;
            const Span& x = t_.spans[a.span];
            const Span& y = t_.spans[b.span];
            if (a.start) return x.end != y.end ? x.end > y.end : a.span < b.span;
            return x.start != y.start ? x.start > y.start : a.span > b.span;
        });
        std::vector<std::uint32_t> stack;     // running spans, the innermost on top; ended ones leave lazily
        std::vector<std::uint32_t> starting;  // spans that started at this instant: the next segment starts them
        std::uint32_t previous = none;
        for (std::size_t k = 0; k < boundaries.size(); ++k) {
            const Boundary& b = boundaries[k];
            if (k > 0 && b.time != boundaries[k - 1].time) starting.clear();
            if (b.start) {
                stack.push_back(b.span);
                starting.push_back(b.span);
            } else {
                ended_[b.span] = true;
                while (!stack.empty() && ended_[stack.back()]) stack.pop_back();
            }
            if (stack.empty() || k + 1 == boundaries.size()) continue;
            const double from = b.time, to = boundaries[k + 1].time;
            if (!(to > from)) continue;
            const std::uint32_t owner = stack.back();
            const std::uint32_t segment = add_node(from, to, owner);
            cpu_nodes_[t_.spans[owner].track].push_back(segment);
            last_node_[owner] = segment;
            for (std::uint32_t started : starting) start_node_[started] = segment;
            starting.clear();
            if (previous != none) {
                graph_->edges.push_back(ReplayEdge{previous, segment, from - node(previous).end, false});
                predecessor_.resize(segment + 1, none);
                predecessor_[segment] = previous;
            }
            previous = segment;
            ++segments_;
        }
    }

    // The launch of GPU event `i`: its runtime call, when the trace links them and the call
    // started no later than the event.
    std::uint32_t launch_of(std::uint32_t i) const {
        if (t_.links.empty() || t_.links[i] == 0) return none;
        const auto found = call_of_link_.find(t_.links[i]);
        if (found == call_of_link_.end() || found->second == none || t_.spans[found->second].start > t_.spans[i].start)
            return none;
        return found->second;
    }

    static void sort_by_start(const Timeline& t, std::vector<std::uint32_t>& spans) {
        std::sort(spans.begin(), spans.end(), [&](std::uint32_t a, std::uint32_t b) {
            const Span& x = t.spans[a];
            const Span& y = t.spans[b];
            if (x.start != y.start) return x.start < y.start;
            return x.end != y.end ? x.end < y.end : a < b;
        });
    }

    // Per device: the launch latency of GPU events held by their launch (started more than the
    // queue gap after their stream was free): the median of their launch-to-start gaps, or the
    // smallest such gap of any event when none was held.
    void typical_latency(std::vector<std::vector<std::uint32_t>>& by_track) {
        std::unordered_map<std::string, std::vector<double>> held, any;
        for (std::uint32_t track = 0; track < by_track.size(); ++track) {
            if (!gpu_track_[track]) continue;
            double free_at = -INFINITY;
            for (std::uint32_t i : by_track[track]) {
                const Span& s = t_.spans[i];
                if (const std::uint32_t call = launch_of(i); call != none) {
                    const double observed = s.start - t_.spans[call].start;
                    const std::string& device = t_.track_info(track).pid;
                    any[device].push_back(observed);
                    if (s.start - free_at > queue_gap_ && !held_by_stream_wait(i)) held[device].push_back(observed);
                }
                free_at = std::max(free_at, s.end);
            }
        }
        for (auto& [device, gaps] : any) {
            const auto h = held.find(device);
            latency_[device] =
                h != held.end() && !h->second.empty() ? median(h->second) : *std::min_element(gaps.begin(), gaps.end());
        }
    }

    // A GPU stream: one node per event, in start order.
    void add_gpu_track(std::uint32_t track, const std::vector<std::uint32_t>& spans) {
        double free_at = -INFINITY;
        std::uint32_t frontier = none, previous = none;
        const std::string& device = t_.track_info(track).pid;
        for (std::uint32_t i : spans) {
            const Span& s = t_.spans[i];
            const std::uint32_t v = add_node(s.start, s.end, i);
            last_node_[i] = start_node_[i] = v;
            gpu_nodes_[track].push_back(v);
            if (first_gpu_ == none) first_gpu_ = v;
            node_track_.push_back(track);
            launched_.push_back(launch_of(i) != none);
            if (!t_.links.empty() && t_.links[i] != 0 && is_gpu_work(s.cls)) gpu_of_link_.emplace_back(t_.links[i], v);
            const std::uint32_t call = launch_of(i);
            // A stream wait that explains its start holds it, not its launch.
            const bool by_wait = held_by_stream_wait(i);
            const bool held = !by_wait && (frontier == none || s.start - free_at > queue_gap_);
            launch_start_.resize(v + 1, 0);
            launch_start_[v] = call != none ? t_.spans[call].start : s.start;
            if (call != none) launched_devices_[process_of(call)].insert(device);
            if (call == none) {
                ++unlaunched_;
            } else {
                if (t_.links[i] >> 63) ++flow_launches_;
                ++(held ? held_ : queued_);
                add_launch(call, v, held ? INFINITY : latency_[device]);
            }
            if (frontier != none) {
                if (s.start >= free_at) {
                    // Held by its launch or a stream wait: nothing on the stream delays it. Else it
                    // keeps its gap.
                    const double delay = (held && call != none) || by_wait ? 0.0 : s.start - free_at;
                    graph_->edges.push_back(ReplayEdge{frontier, v, delay, false});
                } else {  // it overlaps earlier work on its stream: it keeps its offset to it
                    graph_->edges.push_back(ReplayEdge{previous, v, s.start - node(previous).start, true});
                }
            }
            if (s.end > free_at) {
                free_at = s.end;
                frontier = v;
            }
            previous = v;
        }
    }

    // The track of GPU stream `stream` on the device (pid) of `track`; none when the trace has none.
    std::uint32_t stream_track(std::uint32_t track, std::int64_t stream) const {
        const auto found = track_of_.find({t_.track_info(track).pid, std::to_string(stream)});
        return found == track_of_.end() || !gpu_track_[found->second] ? none : found->second;
    }

    // Per GPU track, its work with a known launch as (the call's start, span), in launch order.
    const std::vector<std::pair<double, std::uint32_t>>& launch_order(
        std::uint32_t track, const std::vector<std::vector<std::uint32_t>>& by_track) {
        if (launch_order_.empty()) {
            launch_order_.resize(t_.track_count());
            launch_order_done_.assign(t_.track_count(), false);
        }
        auto& order = launch_order_[track];
        if (!launch_order_done_[track]) {  // once per track, even when it has no launched work
            launch_order_done_[track] = true;
            for (std::uint32_t i : by_track[track])
                if (const std::uint32_t call = launch_of(i); call != none) order.emplace_back(t_.spans[call].start, i);
            std::stable_sort(order.begin(), order.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        }
        return order;
    }

    // The GPU work an event recorded with the cudaEventRecord call of correlation id `record`
    // on `track`: the last launched to that stream before the call. When the trace lacks the
    // call, the last work on the stream that ended by `by` (`guessed` says so); none when there
    // is neither.
    std::uint32_t recorded_work(std::uint32_t track, std::uint64_t record, double by,
                                const std::vector<std::vector<std::uint32_t>>& by_track, bool& guessed) {
        guessed = false;
        if (track == none) return none;
        const auto call = record != 0 ? call_of_link_.find(record) : call_of_link_.end();
        if (call != call_of_link_.end() && call->second != none) {
            const auto& order = launch_order(track, by_track);
            const double at = t_.spans[call->second].start;
            const auto it = std::lower_bound(order.begin(), order.end(), at,
                                             [](const auto& entry, double time) { return entry.first < time; });
            return it == order.begin() ? none : (it - 1)->second;
        }
        guessed = true;
        if (end_order_.empty()) end_order_.resize(t_.track_count());
        std::vector<std::uint32_t>& ends = end_order_[track];
        if (ends.empty()) {
            ends = by_track[track];
            std::stable_sort(ends.begin(), ends.end(),
                             [&](std::uint32_t a, std::uint32_t b) { return t_.spans[a].end < t_.spans[b].end; });
        }
        const auto it = std::upper_bound(ends.begin(), ends.end(), by,
                                         [&](double time, std::uint32_t i) { return time < t_.spans[i].end; });
        return it == ends.begin() ? none : *(it - 1);
    }

    // Kineto's cuda_sync markers (Timeline::sync_markers): by the correlation id they share with
    // their runtime call; a Stream Wait Event also links the next work launched to its stream
    // to the work its event recorded on another stream (stream_wait_ of that work).
    void index_markers(const std::vector<std::vector<std::uint32_t>>& by_track) {
        for (const SyncMarker& marker : t_.sync_markers) {
            if (left_out_[marker.span]) continue;
            ++sync_markers_;
            const std::uint64_t link = t_.links.empty() ? 0 : t_.links[marker.span];
            const Marker kind = marker_kind(t_.text(t_.spans[marker.span].name));
            if (kind == Marker::unknown || link == 0) {
                ++markers_unread_;
                continue;
            }
            if (kind != Marker::stream_wait) {
                if (!marker_of_link_.try_emplace(link, &marker).second) ++markers_unread_;  // a second one of the id
                continue;
            }
            const std::uint32_t own = t_.spans[marker.span].track;
            const auto call = call_of_link_.find(link);  // cudaStreamWaitEvent
            const std::uint32_t stream = stream_track(own, marker.stream >= 0 ? marker.stream : -1);
            if (call == call_of_link_.end() || call->second == none || stream == none) {
                ++markers_unread_;
                continue;
            }
            const auto& order = launch_order(stream, by_track);
            const double at = t_.spans[call->second].start;
            const auto next = std::lower_bound(order.begin(), order.end(), at,
                                               [](const auto& entry, double time) { return entry.first < time; });
            if (next == order.end()) continue;  // nothing launched to the stream after it
            bool guessed = false;
            const std::uint32_t awaited = recorded_work(stream_track(own, marker.wait_on_stream), marker.record,
                                                        t_.spans[marker.span].end, by_track, guessed);
            if (awaited == none) {
                ++waits_unknown_;
                continue;
            }
            if (guessed) ++waits_guessed_;
            if (t_.spans[awaited].end > t_.spans[next->second].start) {
                ++waits_inconsistent_;  // the trace has the work start before the awaited work ended
                continue;
            }
            stream_wait_.emplace(next->second, awaited);
        }
    }

    // GPU work whose start a stream wait explains: it started within the queue gap after the
    // work it waited for ended.
    bool held_by_stream_wait(std::uint32_t span) const {
        const auto found = stream_wait_.find(span);
        return found != stream_wait_.end() && t_.spans[span].start - t_.spans[found->second].end <= queue_gap_;
    }

    // The GPU-to-GPU edges of the stream waits, with the recorded gap as the delay when the wait
    // explains the start (the GPU's own time to start the next work), else none (slack).
    void add_stream_waits() {
        for (const auto& [span, awaited] : stream_wait_) {
            const std::uint32_t from = last_node_[awaited], to = start_node_[span];
            if (from == none || to == none) continue;
            const double gap = node(to).start - node(from).end;
            graph_->edges.push_back(ReplayEdge{from, to, held_by_stream_wait(span) ? gap : 0.0, false});
            ++stream_waits_;
        }
    }

    // GPU node `v` starts no earlier than its call's start plus the launch latency (at most the
    // gap the trace recorded). A call that waits for the GPU is no source (it would wait for what
    // it launched): the node before it on its thread is, with the gap between them added.
    void add_launch(std::uint32_t call, std::uint32_t v, double latency) {
        const ReplayEvent& event = node(v);
        std::uint32_t source = start_node_[call];  // the segment that begins at the call's start
        double lead = 0;                           // from the source's anchor to the call's start
        bool from_start = true;
        if (sync_of(t_.text(t_.spans[call].name)) != Sync::no_wait) {
            if (source >= predecessor_.size() || predecessor_[source] == none) return;
            source = predecessor_[source];
            from_start = false;
            lead = t_.spans[call].start - node(source).end;
        }
        const double anchor = from_start ? node(source).start : node(source).end;
        const double recorded = event.start - anchor;
        const double delay = std::min(recorded, lead + std::min(latency, event.start - t_.spans[call].start));
        graph_->edges.push_back(ReplayEdge{source, v, std::max(delay, 0.0), from_start});
    }

    const std::string& process_of(std::uint32_t span) const { return t_.track_info(t_.spans[span].track).pid; }

    // For the waits: each GPU stream's nodes in launch order with the one that ends last so far, and
    // every GPU node in end order.
    void index_gpu_work() {
        by_launch_.resize(gpu_nodes_.size());
        unlinked_by_end_.resize(gpu_nodes_.size());
        latest_end_.resize(gpu_nodes_.size());
        for (std::uint32_t track = 0; track < gpu_nodes_.size(); ++track) {
            std::vector<std::uint32_t>& nodes = by_launch_[track];
            for (std::uint32_t v : gpu_nodes_[track])
                (launched_[v - first_gpu_] ? nodes : unlinked_by_end_[track]).push_back(v);
            std::sort(unlinked_by_end_[track].begin(), unlinked_by_end_[track].end(),
                      [&](std::uint32_t x, std::uint32_t y) { return node(x).end < node(y).end; });
            std::stable_sort(nodes.begin(), nodes.end(),
                             [&](std::uint32_t x, std::uint32_t y) { return launch_start_[x] < launch_start_[y]; });
            std::uint32_t latest = none;
            for (std::uint32_t v : nodes) {
                if (latest == none || node(v).end > node(latest).end) latest = v;
                latest_end_[track].push_back(latest);
            }
            if (!gpu_nodes_[track].empty()) gpu_tracks_.push_back(track);
            for (std::uint32_t v : gpu_nodes_[track]) by_end_.push_back(v);
        }
        std::sort(by_end_.begin(), by_end_.end(), [&](std::uint32_t x, std::uint32_t y) {
            return node(x).end != node(y).end ? node(x).end < node(y).end : x < y;
        });
    }

    // The devices (GPU pids) a process launched work to; null when none is known.
    const std::set<std::string>* devices_of(const std::string& process) const {
        const auto found = launched_devices_.find(process);
        return found == launched_devices_.end() ? nullptr : &found->second;
    }
    bool on_devices(std::uint32_t track, const std::set<std::string>* devices) const {
        return !devices || devices->count(t_.track_info(track).pid) > 0;
    }

    // Of the work on `track` launched before `by`, the node that ends last, when it ends by `end`.
    // Work with no known launch may have been launched any time before it ended: of that, the
    // node that ends last by `end`.
    std::uint32_t launched_before(std::uint32_t track, double by, double end) const {
        std::uint32_t best = none;
        const std::vector<std::uint32_t>& nodes = by_launch_[track];
        const auto it = std::lower_bound(nodes.begin(), nodes.end(), by,
                                         [&](std::uint32_t v, double time) { return launch_start_[v] < time; });
        if (it != nodes.begin()) {
            const std::uint32_t latest = latest_end_[track][static_cast<std::size_t>(it - nodes.begin()) - 1];
            if (node(latest).end <= end) best = latest;
        }
        const std::vector<std::uint32_t>& unlinked = unlinked_by_end_[track];
        const auto last = std::upper_bound(unlinked.begin(), unlinked.end(), end,
                                           [&](double time, std::uint32_t v) { return time < node(v).end; });
        if (last != unlinked.begin() && (best == none || node(*(last - 1)).end > node(best).end)) best = *(last - 1);
        return best;
    }

    void add_waits() {
        for (std::uint32_t i = 0; i < t_.spans.size(); ++i) {
            const Span& s = t_.spans[i];
            // A call on a GPU stream's track is no host call: it waits for nothing.
            if (s.cls != SpanClass::runtime || last_node_[i] == none || gpu_track_[s.track]) continue;
            const SyncMarker* marker = nullptr;
            if (!marker_of_link_.empty() && !t_.links.empty() && t_.links[i] != 0) {
                const auto found = marker_of_link_.find(t_.links[i]);
                if (found != marker_of_link_.end()) marker = found->second;
            }
            const Sync sync = sync_of(t_.text(s.name));
            if (sync == Sync::no_wait && !marker) continue;
            const std::uint32_t call = last_node_[i];
            const double end = node(call).end;
            std::size_t added = 0;
            const auto wait = [&](std::uint32_t awaited) {
                if (awaited == none || awaited == call || node(awaited).end > end) return;
                graph_->waits.push_back(ReplayWait{call, awaited});
                ++added;
            };
            if (marker) {
                used_markers_.insert(marker);
                if (add_marked_wait(*marker, s, end, wait)) continue;
                ++markers_unread_;  // its stream or device is not in the trace: inferred instead
                if (sync == Sync::no_wait) continue;
            }
            ++syncs_;
            // The devices this call's process launched work to: a synchronize waits for those only.
            const std::set<std::string>* devices = devices_of(process_of(i));
            if (sync == Sync::copy && !t_.links.empty() && t_.links[i] != 0) {  // its own copies
                const std::uint64_t id = t_.links[i];
                auto it = std::lower_bound(gpu_of_link_.begin(), gpu_of_link_.end(), std::pair{id, std::uint32_t{0}});
                for (; it != gpu_of_link_.end() && it->first == id; ++it) wait(it->second);
                if (added > 0) continue;
            }
            if (sync == Sync::device) {  // all work launched before it, on every stream of its devices
                for (std::uint32_t track : gpu_tracks_)
                    if (on_devices(track, devices)) wait(launched_before(track, s.start, end));
                continue;
            }
            // A stream or event synchronize (or a copy not linked to its GPU work): the call does
            // not say which stream; the GPU work of its devices that ended last inside the call.
            auto it = std::upper_bound(by_end_.begin(), by_end_.end(), end,
                                       [&](double time, std::uint32_t v) { return time < node(v).end; });
            std::uint32_t best = none;
            bool several = false;
            for (int look = 0; it != by_end_.begin() && look < 64; ++look) {
                const std::uint32_t v = *--it;
                if (node(v).end < s.start) break;
                if (!on_devices(node_track_[v - first_gpu_], devices)) continue;
                if (best == none) {
                    best = v;
                } else if (node_track_[v - first_gpu_] != node_track_[best - first_gpu_]) {
                    several = true;
                    break;
                }
            }
            if (several) ++ambiguous_;
            wait(best);
        }
    }

    // The wait of a call that a cuda_sync marker describes: a stream sync waits for the work
    // launched to its stream before the call, a context sync for that of every stream of the
    // device, an event sync for the work its event recorded.
    // False when the marker names a stream or device the trace does not have: the call's wait is
    // then inferred, as without a marker.
    template <class Wait>
    bool add_marked_wait(const SyncMarker& marker, const Span& call, double end, Wait& wait) {
        const std::uint32_t own = t_.spans[marker.span].track;
        switch (marker_kind(t_.text(t_.spans[marker.span].name))) {
            case Marker::stream_sync: {
                const std::uint32_t track = stream_track(own, marker.stream);
                if (track == none) return false;
                ++marked_syncs_;
                wait(launched_before(track, call.start, end));
                return true;
            }
            case Marker::context_sync: {
                std::vector<std::uint32_t> tracks;
                for (std::uint32_t track : gpu_tracks_)
                    if (t_.track_info(track).pid == t_.track_info(own).pid) tracks.push_back(track);
                if (tracks.empty()) return false;
                ++marked_syncs_;
                for (std::uint32_t track : tracks) wait(launched_before(track, call.start, end));
                return true;
            }
            case Marker::event_sync: {
                ++marked_syncs_;
                if (marker.wait_on_stream < 0) {
                    ++events_unrecorded_;  // the event was never recorded: nothing to wait for
                    return true;
                }
                bool guessed = false;
                const std::uint32_t work = recorded_work(stream_track(own, marker.wait_on_stream), marker.record,
                                                         t_.spans[marker.span].end, by_track_, guessed);
                if (work == none) {
                    ++waits_unknown_;
                    return true;
                }
                if (guessed) ++waits_guessed_;
                wait(last_node_[work]);
                return true;
            }
            case Marker::stream_wait:
            case Marker::unknown:
                return true;
        }
        return true;
    }

    // Of `nodes` (one track's, in start order), what sets where a span [from, to] on that track
    // goes: the node running at `from` (a step boundary inside an event moves with it), else the
    // first that starts in it; and the node running at `to`, else the one that ends last by `to`.
    // Added to `out` when there are both.
    void enclosed(const std::vector<std::uint32_t>& nodes, double from, double to,
                  std::vector<std::pair<std::uint32_t, std::uint32_t>>& out) const {
        std::uint32_t first = none, last = none;
        auto it = std::lower_bound(nodes.begin(), nodes.end(), from,
                                   [&](std::uint32_t v, double time) { return node(v).start < time; });
        if (it != nodes.begin() && node(*(it - 1)).end > from && node(*(it - 1)).start < from) first = *(it - 1);
        for (; it != nodes.end() && node(*it).start < to; ++it) {
            if (first == none) first = *it;
            if (node(*it).end > to) {  // it runs across the end: the end moves with it
                last = *it;
                break;
            }
            if (last == none || node(*it).end > node(last).end) last = *it;
        }
        // None starts in it: the node running at `from` sets the end too, whether it runs across
        // `to` (the end moves with it) or ends inside (the end keeps its tail after it).
        if (last == none && first != none) last = first;
        if (first != none && last != none) out.emplace_back(first, last);
    }

    // The steps --window used, with the events each encloses (Dependencies::Step).
    void add_steps(Dependencies& deps, const std::vector<StepSpans>& steps) const {
        for (const StepSpans& spans : steps) {
            Dependencies::Step step;
            step.name = spans.name;
            step.has_cpu = spans.has_cpu;
            step.has_gpu = spans.has_gpu;
            step.cpu_start = spans.cpu_start;
            step.cpu_end = spans.cpu_end;
            step.gpu_start = spans.gpu_start;
            step.gpu_end = spans.gpu_end;
            if (spans.has_cpu && spans.cpu_track < cpu_nodes_.size())
                enclosed(cpu_nodes_[spans.cpu_track], spans.cpu_start, spans.cpu_end, step.cpu_enclosed);
            // Each stream's copy moves with the events it encloses, not the hull of them all:
            // streams that drift apart in a replay would stretch one stream's copy to another's end.
            for (const StepSpans::StreamCopy& copy : spans.gpu_copies) {
                const std::size_t before = step.gpu_enclosed.size();
                if (copy.track < gpu_nodes_.size())  // else a stream with no event at all
                    enclosed(gpu_nodes_[copy.track], copy.start, copy.end, step.gpu_enclosed);
                (step.gpu_enclosed.size() > before ? step.gpu_copies : step.gpu_still)
                    .emplace_back(copy.start, copy.end);
            }
            deps.steps.push_back(std::move(step));
        }
    }

    void describe(Dependencies& deps) const {
        auto& out = deps.sources;
        const std::size_t gpu = held_ + queued_ + unlaunched_;
        out.push_back(fmt::format("events: {} ({} of CPU events, {}); annotations are no events",
                                  count_of(graph_->events.size(), "node"), count_of(segments_, "self-time segment"),
                                  count_of(gpu, "GPU event")));
        if (gpu > 0) {
            // Why GPU work has no known launch: the input has no runtime calls (a GPU-only export),
            // no correlation ids (legacy rocprof results.csv), or ids that match no call.
            const char* why_unlinked = runtime_calls_ == 0 && !gpu_ids_ ? "the trace has no runtime calls and no "
                                                                          "correlation ids"
                                       : runtime_calls_ == 0            ? "the trace has no runtime calls"
                                       : !gpu_ids_ || !call_ids_
                                           ? "the trace has no correlation ids that link GPU work to runtime calls"
                                           : "no correlation id that matches a runtime call";
            if (held_ + queued_ > 0) {
                out.push_back(fmt::format(
                    "launches: {} linked to {} runtime call ({}); {} by {} launch (first on {} stream, or started "
                    "more than the queue gap, {} µs, after it was free) {} {} launch latency, {} behind earlier work "
                    "{} {} gap on the stream",
                    count_of(held_ + queued_, "GPU event"), held_ + queued_ == 1 ? "its" : "their",
                    flow_launches_ == 0                 ? "by correlation id"
                    : flow_launches_ == held_ + queued_ ? "by the trace's ac2g flows: no correlation id in their args"
                                                        : fmt::format("by correlation id; {} of them by the trace's "
                                                                      "ac2g flows, which the args lack",
                                                                      flow_launches_),
                    fmt::format("{} held", held_), held_ == 1 ? "its" : "their", held_ == 1 ? "its" : "their",
                    shortest(queue_gap_us_), held_ == 1 ? "keeps" : "keep", held_ == 1 ? "its" : "their",
                    fmt::format("{} queued", queued_), queued_ == 1 ? "keeps" : "keep",
                    queued_ == 1 ? "its" : "their"));
            } else {
                out.push_back(
                    fmt::format("launches: none linked ({}): of the {} GPU events, the first on each "
                                "stream keeps its recorded start, each after it its recorded gap to the "
                                "work before it",
                                why_unlinked, gpu));
            }
            if (unlaunched_ > 0 && held_ + queued_ > 0) {
                out.push_back(fmt::format(
                    "{} no known launch ({}): each keeps its recorded gap to the work before it on "
                    "its stream",
                    count_of(unlaunched_, "GPU event") + (unlaunched_ == 1 ? " has" : " have"), why_unlinked));
            }
            if (sync_markers_ > 0) {
                out.push_back(fmt::format(
                    "synchronizations: {} read from the trace's cuda_sync events (stream, context and event syncs: "
                    "the work each waited for), {} between streams (GPU work after a Stream Wait Event starts no "
                    "earlier than the recorded work ends); {} inferred from runtime calls with no cuda_sync event "
                    "(by their names: device and stream synchronizes, blocking copies)",
                    marked_syncs_, count_of(stream_waits_, "stream wait"), syncs_));
            } else {
                out.push_back(syncs_ > 0 ? fmt::format("synchronizations: inferred from {} that {} for the GPU "
                                                       "(device and stream synchronizes, blocking copies); the "
                                                       "trace has no cuda_sync events",
                                                       count_of(syncs_, "runtime call"), syncs_ == 1 ? "waits" : "wait")
                              : runtime_calls_ == 0
                                  ? "synchronizations: none known: the trace has no runtime calls, so no wait of the "
                                    "CPU for the GPU can be inferred"
                                  : "synchronizations: none in the trace: the CPU never waits for the GPU");
            }

            if (ambiguous_ > 0) {
                out.push_back(
                    fmt::format("{} had work of several streams end inside {}; each waits for the work that "
                                "ended last",
                                count_of(ambiguous_, "synchronizing call"), ambiguous_ == 1 ? "it" : "them"));
            }
        }
        if (shared_ids_ > 0) {
            out.push_back(
                fmt::format("{} used by several runtime calls (a trace merged from several processes?): the "
                            "GPU work of {} linked to no launch",
                            count_of(shared_ids_, "correlation id") + (shared_ids_ == 1 ? " is" : " are"),
                            shared_ids_ == 1 ? "that id is" : "those ids is"));
        }
        if (t_.shared_flow_ids > 0) {
            out.push_back(
                fmt::format("{} used by several ac2g flows (a trace merged from several processes?): "
                            "{} nothing",
                            count_of(t_.shared_flow_ids, "flow id") + (t_.shared_flow_ids == 1 ? " is" : " are"),
                            t_.shared_flow_ids == 1 ? "it links" : "they link"));
        }
        if (waits_guessed_ > 0) {
            out.push_back(fmt::format(
                "{} on a CUDA event whose cudaEventRecord call is not in the trace: each waits for the last "
                "work on the event's stream that ended before the wait did",
                count_of(waits_guessed_, "wait")));
        }
        if (waits_unknown_ > 0) {
            out.push_back(fmt::format("{} on a CUDA event found no recorded work in the trace: no edge for {}",
                                      count_of(waits_unknown_, "wait"), waits_unknown_ == 1 ? "it" : "them"));
        }
        if (waits_inconsistent_ > 0) {
            out.push_back(
                fmt::format("{} not read: the waiting work started before the work it waited for "
                            "ended",
                            count_of(waits_inconsistent_, "stream wait")));
        }
        if (events_unrecorded_ > 0) {
            out.push_back(fmt::format("{} waited on an event never recorded: {} for nothing",
                                      count_of(events_unrecorded_, "event sync"),
                                      events_unrecorded_ == 1 ? "it waits" : "they wait"));
        }
        if (markers_unread_ > 0) {
            const std::string which =
                markers_unread_ == sync_markers_
                    ? (sync_markers_ == 1 ? std::string("the trace's cuda_sync event is")
                                          : fmt::format("none of the trace's {} cuda_sync events is", sync_markers_))
                    : fmt::format("{} of the trace's {} cuda_sync events {}", markers_unread_, sync_markers_,
                                  markers_unread_ == 1 ? "is" : "are");
            out.push_back(which +
                          " not read (an unknown kind, no correlation id, a correlation id of no runtime call "
                          "or of another marker, or a stream or device the trace does not have); those calls' "
                          "waits are inferred as without them");
        }
    }

public:
    double queue_gap_us_ = 0;

private:
    const Timeline& t_;
    const std::vector<bool>& left_out_;  // per span: a filter left it out
    double queue_gap_;
    ReplayGraph* graph_ = nullptr;
    Dependencies* deps_ = nullptr;
    std::vector<std::uint32_t> phase_label_, name_label_;      // a label per phase, per event name
    std::vector<std::uint32_t> node_span_;                     // per node: its span
    std::vector<std::uint32_t> last_node_;                     // per span
    std::vector<std::uint32_t> start_node_;                    // per span: the node that begins at its start
    std::vector<bool> gpu_track_;                              // per track: it holds GPU work
    std::uint32_t last_track_ = 0;                             // the track of the last event added
    std::uint32_t first_gpu_ = none;                           // the first GPU node; node_track_ is indexed from it
    std::vector<std::uint32_t> node_track_;                    // per GPU node: its track
    std::vector<bool> launched_;                               // per GPU node: its launch is known
    std::vector<std::vector<std::uint32_t>> unlinked_by_end_;  // per GPU track: work with no known launch
    std::vector<std::vector<std::uint32_t>> by_launch_, latest_end_;  // per GPU track, see index_gpu_work
    std::vector<std::uint32_t> gpu_tracks_, by_end_;
    std::unordered_map<std::string, std::set<std::string>> launched_devices_;  // process -> devices
    std::vector<bool> ended_;                                                  // per span, while a CPU track is cut
    std::vector<std::uint32_t> predecessor_;                         // per CPU segment: the one before it on its thread
    std::unordered_map<std::uint64_t, std::uint32_t> call_of_link_;  // correlation id -> runtime call (span)
    std::vector<std::pair<std::uint64_t, std::uint32_t>> gpu_of_link_;  // (correlation id, GPU node), sorted
    std::unordered_map<std::string, double> latency_;                   // per device (pid)
    std::vector<std::vector<std::uint32_t>> gpu_nodes_;                 // per track, in start order
    std::vector<double> launch_start_;  // per GPU node: its call's start (its own when it has none)
    std::size_t segments_ = 0, held_ = 0, queued_ = 0, unlaunched_ = 0, syncs_ = 0, ambiguous_ = 0, shared_ids_ = 0;
    std::size_t sync_markers_ = 0, markers_unread_ = 0, marked_syncs_ = 0, stream_waits_ = 0, flow_launches_ = 0;
    std::set<const SyncMarker*> used_markers_;  // markers a runtime call of the trace matched
    std::size_t waits_guessed_ = 0, waits_unknown_ = 0, waits_inconsistent_ = 0, events_unrecorded_ = 0;
    std::map<std::pair<std::string, std::string>, std::uint32_t> track_of_;    // (pid, tid) -> track
    std::unordered_map<std::uint64_t, const SyncMarker*> marker_of_link_;      // correlation id -> its marker
    std::unordered_map<std::uint32_t, std::uint32_t> stream_wait_;             // GPU span -> the span it waits for
    std::vector<std::vector<std::pair<double, std::uint32_t>>> launch_order_;  // see launch_order
    std::vector<bool> launch_order_done_;
    std::vector<std::vector<std::uint32_t>> by_track_;   // per track, its spans
    std::vector<std::vector<std::uint32_t>> end_order_;  // per GPU track, by end
    std::vector<std::vector<std::uint32_t>> cpu_nodes_;  // per CPU track, its segments
    std::size_t runtime_calls_ = 0;                      // runtime calls on CPU threads (nodes of the graph)
    bool gpu_ids_ = false, call_ids_ = false;            // some GPU event, some other event has a correlation id
};

}  // namespace

Profile sweep_with_dependencies(const Timeline& timeline, const ImportOptions& options, const std::string& source,
                                const std::string& format_name) {
    if (!options.dependencies) return sweep(timeline, options, source, format_name);
    Filtered filtered;
    filtered.left_out = filter_events(timeline, options, source, filtered.notes);
    auto deps = std::make_shared<Dependencies>();
    deps->unit = timeline.unit;
    Builder builder(timeline, filtered.left_out, convert(options.queue_gap_us, Unit::us, timeline.unit));
    builder.queue_gap_us_ = options.queue_gap_us;
    // The graph and its preparation on a second thread while this one sweeps (both only read the
    // timeline); should the sweep throw, the future's destructor waits for the graph first.
    std::future<PreparedReplay> graph = std::async(std::launch::async, [&] {
        builder.build(*deps);
        return prepare_replay(deps->graph);
    });
    SpanPhases span_phases;
    Profile profile = sweep(timeline, options, source, format_name, &span_phases, &filtered);
    PreparedReplay prepared = graph.get();
    for (const Phase& phase : profile.phases) deps->phase_names.push_back(phase.name);
    builder.set_phases(*deps, span_phases);
    for (std::size_t i = 0; i < prepared.order.size(); ++i)
        prepared.phase[i] = deps->graph.events[prepared.order[i]].phase;
    deps->prepared = std::make_shared<const PreparedReplay>(std::move(prepared));
    deps->has_events.assign(deps->phase_names.size(), false);
    for (const ReplayEvent& event : deps->graph.events)
        if (event.phase < deps->has_events.size()) deps->has_events[event.phase] = true;
    profile.dependencies = std::move(deps);
    return profile;
}

}  // namespace amdahl::detail
