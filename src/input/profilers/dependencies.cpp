// The replay graph of a trace (docs/replay.md). Nodes: every event of every track after the
// filters, except annotations and cuda_sync markers; a CPU thread's nested events are cut into
// self-time segments, each sped up by the factor of its innermost event's phase. Edges:
//   - track order: a node starts no earlier than the previous one on its track ends, plus the gap
//     the trace recorded between them (on a CPU thread: untraced host work; on a GPU stream: kept
//     only when no launch explains it, see the queue-gap rule);
//   - launch: a GPU event starts no earlier than its runtime call's start plus a launch latency
//     (the pair found by correlation id);
//   - wait: a synchronizing runtime call ends no earlier than the GPU work it waited for ends.
#include "input/profilers/dependencies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <unordered_map>

#include "analysis/replay.hpp"
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

bool is_sync_marker(std::string_view category) {
    std::string lower(category);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower == "cuda_sync";
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
    Builder(const Timeline& timeline, const SpanPhases& phases, double queue_gap)
        : t_(timeline), phases_(phases), queue_gap_(queue_gap) {}

    void build(Dependencies& deps) {
        graph_ = &deps.graph;
        deps_ = &deps;
        const std::size_t n = t_.spans.size();
        last_node_.assign(n, none);
        start_node_.assign(n, none);
        ended_.assign(n, false);
        std::vector<char> marker(t_.string_count(), -1);
        std::vector<std::vector<std::uint32_t>> by_track(t_.track_count());
        gpu_track_.assign(t_.track_count(), false);
        for (std::uint32_t i = 0; i < n; ++i) {
            const Span& s = t_.spans[i];
            if (phases_.left_out[i] || s.cls == SpanClass::annotation || s.cls == SpanClass::gpu_annotation) continue;
            if (marker[s.category] < 0) marker[s.category] = is_sync_marker(t_.text(s.category)) ? 1 : 0;
            if (marker[s.category] == 1) {
                ++sync_markers_;
                continue;
            }
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
        typical_latency(by_track);
        for (std::uint32_t track = 0; track < by_track.size(); ++track)
            if (gpu_track_[track]) add_gpu_track(track, by_track[track]);
        std::sort(gpu_of_link_.begin(), gpu_of_link_.end());
        index_gpu_work();
        add_waits();
        describe(deps);
    }

private:
    // A node for (a segment of) span `span`, labelled for critical paths by its phase, or by the
    // event's name when it is of no phase.
    std::uint32_t add_node(double start, double end, std::uint32_t span) {
        const std::uint32_t phase = phase_of(span);
        graph_->events.push_back(ReplayEvent{start, end, phase, false});
        std::vector<std::uint32_t>& labels = phase != no_phase ? phase_label_ : name_label_;
        const std::uint32_t key = phase != no_phase ? phase : t_.spans[span].name;
        if (key >= labels.size()) labels.resize(key + 1, none);
        if (labels[key] == none) {
            labels[key] = static_cast<std::uint32_t>(deps_->labels.size());
            deps_->labels.push_back({phase != no_phase ? deps_->phase_names[phase] : t_.text(key), phase != no_phase});
        }
        deps_->label.push_back(labels[key]);
        return static_cast<std::uint32_t>(graph_->events.size() - 1);
    }
    const ReplayEvent& node(std::uint32_t i) const { return graph_->events[i]; }
    std::uint32_t phase_of(std::uint32_t span) const {
        const std::uint32_t p = phases_.phase[span];
        return p == UINT32_MAX ? no_phase : p;
    }

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
            sort_by_start(t_, by_track[track]);
            double free_at = -INFINITY;
            for (std::uint32_t i : by_track[track]) {
                const Span& s = t_.spans[i];
                if (const std::uint32_t call = launch_of(i); call != none) {
                    const double observed = s.start - t_.spans[call].start;
                    const std::string& device = t_.track_info(track).pid;
                    any[device].push_back(observed);
                    if (s.start - free_at > queue_gap_) held[device].push_back(observed);
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
            const bool held = frontier == none || s.start - free_at > queue_gap_;
            launch_start_.resize(v + 1, 0);
            launch_start_[v] = call != none ? t_.spans[call].start : s.start;
            if (call != none) launched_devices_[process_of(call)].insert(device);
            if (call == none) {
                ++unlaunched_;
            } else {
                ++(held ? held_ : queued_);
                add_launch(call, v, held ? INFINITY : latency_[device]);
            }
            if (frontier != none) {
                if (s.start >= free_at) {
                    // Held by its launch: nothing on the stream delays it. Else it keeps its gap.
                    const double delay = held && call != none ? 0.0 : s.start - free_at;
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
            const Sync sync = sync_of(t_.text(s.name));
            if (sync == Sync::no_wait) continue;
            const std::uint32_t call = last_node_[i];
            const double end = node(call).end;
            std::size_t added = 0;
            const auto wait = [&](std::uint32_t awaited) {
                if (awaited == none || awaited == call || node(awaited).end > end) return;
                graph_->waits.push_back(ReplayWait{call, awaited});
                ++added;
            };
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

    void describe(Dependencies& deps) const {
        auto& out = deps.sources;
        const std::size_t gpu = held_ + queued_ + unlaunched_;
        out.push_back(
            fmt::format("events: {} nodes ({} self-time segments of CPU events, {} GPU events); "
                        "annotations are no events",
                        graph_->events.size(), segments_, gpu));
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
                    "launches: {} GPU events linked to their runtime call by correlation id; {} held by their launch "
                    "(first on their stream, or started more than the queue gap, {} µs, after it was free) keep "
                    "their launch latency, {} queued behind earlier work keep their gap on the stream",
                    held_ + queued_, held_, shortest(queue_gap_us_), queued_));
            } else {
                out.push_back(
                    fmt::format("launches: none linked ({}): of the {} GPU events, the first on each "
                                "stream keeps its recorded start, each after it its recorded gap to the "
                                "work before it",
                                why_unlinked, gpu));
            }
            if (unlaunched_ > 0 && held_ + queued_ > 0) {
                out.push_back(
                    fmt::format("{} GPU events have no known launch ({}): each keeps its recorded gap to "
                                "the work before it on its stream",
                                unlaunched_, why_unlinked));
            }
            out.push_back(syncs_ > 0 ? fmt::format("synchronizations: inferred from {} runtime calls that wait for "
                                                   "the GPU (device and stream synchronizes, blocking copies)",
                                                   syncs_)
                          : runtime_calls_ == 0
                              ? "synchronizations: none known: the trace has no runtime calls, so no wait of the CPU "
                                "for the GPU can be inferred"
                              : "synchronizations: none in the trace: the CPU never waits for the GPU");
            if (ambiguous_ > 0) {
                out.push_back(
                    fmt::format("{} synchronizing calls had work of several streams end inside them; each "
                                "waits for the work that ended last",
                                ambiguous_));
            }
        }
        if (shared_ids_ > 0) {
            out.push_back(
                fmt::format("{} correlation ids are used by several runtime calls (a trace merged from "
                            "several processes?): the GPU work of those ids is linked to no launch",
                            shared_ids_));
        }
        if (sync_markers_ > 0) {
            out.push_back(
                fmt::format("the trace's {} cuda_sync events are not read yet: synchronizations were "
                            "inferred from runtime calls",
                            sync_markers_));
        }
    }

public:
    double queue_gap_us_ = 0;

private:
    const Timeline& t_;
    const SpanPhases& phases_;
    double queue_gap_;
    ReplayGraph* graph_ = nullptr;
    Dependencies* deps_ = nullptr;
    std::vector<std::uint32_t> phase_label_, name_label_;      // a label per phase, per event name
    std::vector<std::uint32_t> last_node_;                     // per span
    std::vector<std::uint32_t> start_node_;                    // per span: the node that begins at its start
    std::vector<bool> gpu_track_;                              // per track: it holds GPU work
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
    std::size_t sync_markers_ = 0;
    std::size_t runtime_calls_ = 0;            // runtime calls on CPU threads (nodes of the graph)
    bool gpu_ids_ = false, call_ids_ = false;  // some GPU event, some other event has a correlation id
};

}  // namespace

std::shared_ptr<const Dependencies> build_dependencies(const Timeline& timeline, const SpanPhases& phases,
                                                       const Profile& profile, const ImportOptions& options) {
    auto deps = std::make_shared<Dependencies>();
    deps->unit = timeline.unit;
    for (const Phase& phase : profile.phases) deps->phase_names.push_back(phase.name);
    Builder builder(timeline, phases, convert(options.queue_gap_us, Unit::us, timeline.unit));
    builder.queue_gap_us_ = options.queue_gap_us;
    builder.build(*deps);
    deps->has_events.assign(deps->phase_names.size(), false);
    for (const ReplayEvent& event : deps->graph.events)
        if (event.phase < deps->has_events.size()) deps->has_events[event.phase] = true;
    return deps;
}

}  // namespace amdahl::detail
