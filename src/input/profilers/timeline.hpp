#pragma once
// A timeline of spans on tracks, and the sweep that turns it into a profile of non-overlapping
// phases: self time within a track, `overlapped` where phases on different tracks run at once,
// `idle` where nothing runs. Shared by every trace reader (Chrome/Kineto JSON, rocprof traces).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "amdahl/import.hpp"
#include "amdahl/profile.hpp"

namespace amdahl::detail {

/// What a span is, for lanes and kinds.
/// `sync_marker`: Kineto's `cuda_sync` events, markers of a wait (the synchronizing call on the
/// CPU holds its time), never a phase on any lane.
enum class SpanClass : std::uint8_t {
    kernel,
    memcpy,
    memset,
    runtime,
    cpu_op,
    annotation,
    gpu_annotation,
    sync_marker,
    other
};

/// What a Kineto `cuda_sync` event says about a wait (its args), kept for replay. The marker's
/// span (on the device's track: pid = device, tid = stream, or -1) shares its correlation id
/// with the runtime call that waited (Timeline::links).
struct SyncMarker {
    std::uint32_t span = 0;
    std::int64_t stream = -1;          ///< "stream": the stream a Stream Sync or Stream Wait Event is on
    std::int64_t wait_on_stream = -1;  ///< "wait_on_stream": where the awaited event was recorded
    std::uint64_t record = 0;          ///< "wait_on_cuda_event_record_corr_id": the cudaEventRecord call; 0: none
};

struct Span {
    double start = 0;  ///< in the timeline's unit, relative to its origin
    double end = 0;
    std::uint32_t name = 0;      ///< index into Timeline::strings
    std::uint32_t category = 0;  ///< index into Timeline::strings ("" when none)
    std::uint32_t track = 0;     ///< pid/tid (or stream, queue): spans on one track nest
    SpanClass cls = SpanClass::other;
};

class Timeline {
public:
    Unit unit = Unit::us;
    std::vector<Span> spans;
    /// Per span, when the reader keeps dependencies (ImportOptions::dependencies; empty
    /// otherwise): the correlation id linking a runtime call to the GPU work it launched, 0: none.
    std::vector<std::uint64_t> links;
    /// With dependencies kept: the trace's `cuda_sync` markers, in span order.
    std::vector<SyncMarker> sync_markers;
    /// Links taken from Kineto `ac2g` flows (the trace gave no correlation id) have the top bit set.
    std::size_t shared_flow_ids = 0;  ///< ac2g flow ids several starts or ends share: they link nothing

    /// Interns a string; the same text always gets the same index.
    std::uint32_t intern(std::string_view text);
    const std::string& text(std::uint32_t id) const { return strings_[id]; }
    /// A track id for a (process, thread) pair given as text; `pid` and `tid` are what --pid and
    /// --tid (and on GPU tracks --device and --stream) match.
    std::uint32_t track(std::string_view key, std::string_view pid = {}, std::string_view tid = {});
    struct TrackInfo {
        std::string pid, tid;
    };
    const TrackInfo& track_info(std::uint32_t track) const { return track_info_[track]; }
    std::size_t string_count() const { return strings_.size(); }
    std::size_t track_count() const { return track_info_.size(); }

private:
    std::vector<TrackInfo> track_info_;
    std::vector<std::string> strings_{""};
    // Looked up by string_view, without a copy of the text.
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> ids_{{"", 0}};
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> tracks_;
};

/// The class of a Kineto/Chrome category ("kernel", "gpu_memcpy", "cpu_op", ...).
SpanClass classify_category(std::string_view category);
/// The phase kind amdahl shows for a class: kernel, copy, memset, runtime, cpu, annotation, other.
std::string_view kind_of(SpanClass cls);

/// The spans the filters leave out (filter_events in steps.hpp) and the notes that say so, when
/// they are computed before the sweep: the replay graph, built while the sweep runs, needs them too.
struct Filtered {
    std::vector<bool> left_out;
    std::vector<std::string> notes;
};

/// Sweeps the timeline into a profile (see the file comment) in O(E log E) for E spans. Its
/// overlaps list the sets of phases that ran at once longest, at most 100 sets of 4096 phase
/// names in all; a note sums up the sets left out. Throws amdahl::Error when nothing is left to
/// attribute (an empty lane, a window that matches nothing, a bad regex). `filtered`: the
/// filters' result when the caller has it, else the sweep filters.
Profile sweep(const Timeline& timeline, const ImportOptions& options, const std::string& source,
              const std::string& format_name, struct SpanPhases* span_phases = nullptr,
              const Filtered* filtered = nullptr);

/// What the sweep made of each span, for replay: the index in Profile::phases of the phase it
/// went to (UINT32_MAX: none: off the lane, zero length, a --window annotation, left out by a filter).
struct SpanPhases {
    std::vector<std::uint32_t> phase;
    /// With --window: the steps used, in time order (see StepSpans).
    std::vector<struct StepSpans> steps;
};

/// A step --window found and used: its CPU span (on track `cpu_track`) and its GPU copy (the
/// earliest start to the latest end of its copies on every stream), either of which may be missing.
struct StepSpans {
    std::string name;
    bool has_cpu = false, has_gpu = false;
    double cpu_start = 0, cpu_end = 0, gpu_start = 0, gpu_end = 0;
    std::uint32_t cpu_track = 0;
    /// The GPU copy's parts, one per stream: its track, start and end.
    struct StreamCopy {
        std::uint32_t track = 0;
        double start = 0, end = 0;
    };
    std::vector<StreamCopy> gpu_copies;
};

}  // namespace amdahl::detail
