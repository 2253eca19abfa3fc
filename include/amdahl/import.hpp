#pragma once
/// \file Options for reading profiler output (Chrome/Kineto traces, nsys and rocprof CSVs, folded
/// stacks) into a profile.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "amdahl/units.hpp"

namespace amdahl {

/// Which events of a trace become phases.
enum class Lane {
    automatic,  ///< gpu when the trace has device events, else all
    gpu,        ///< kernels, memory copies and memsets
    cpu,        ///< host events: operators, runtime calls, annotations
    all,
};

struct ImportOptions {
    Lane lane = Lane::automatic;
    std::string window;  ///< regex: restrict to the spans of matching events, averaged per span
    std::string group_by =
        "name";  ///< "name", "cat", "class" or "regex:PATTERN" (the first capture group, or the match)
    /// OLD=NEW: the event, row or phase named exactly OLD becomes NEW (before any other naming).
    std::vector<std::pair<std::string, std::string>> renames;
    /// REGEX=NAME: names in which REGEX is found become NAME, in order, first match wins.
    std::vector<std::pair<std::string, std::string>> rename_patterns;
    std::optional<int> depth;               ///< folded stacks: cut frames at this depth
    bool leaf = false;                      ///< folded stacks: leaf self time
    std::optional<Quantity> sample_period;  ///< folded stacks: time per sample
    std::optional<Unit> timeunit;           ///< nsys stats: the unit of "(ns)"-less columns
    std::optional<Quantity> total;          ///< the real end-to-end time, measured outside
    /// Traces: steps. --window takes annotations (user and GPU annotations, NVTX ranges,
    /// ProfilerStep) unless `window_any`; partial first and last steps are dropped unless
    /// `keep_partial_steps`; `step` picks one ("N" from 1, "first", "last", "median") over the mean.
    bool window_any = false;
    bool keep_partial_steps = false;
    std::string step;
    /// Traces: the profiler's own bookkeeping (Kineto's "PyTorch Profiler (0)" span) is left out
    /// unless `keep_profiler_events`.
    bool keep_profiler_events = false;
    /// Traces: events whose name matches one of `exclude` (regexes) are left out; the others
    /// restrict events to the listed processes, threads, GPU streams and devices, and categories.
    std::vector<std::string> exclude;
    std::vector<std::string> pids, tids, streams, devices, categories;
    /// Traces: also keep every event and what links them (launches, synchronizations, track
    /// order), so that a speedup can be replayed over them (`--model replay`): Profile::dependencies.
    bool dependencies = false;
    /// Replay: a GPU event that starts more than this after its stream became free was held by
    /// its launch, not queued behind earlier work (`--queue-gap`), in µs.
    double queue_gap_us = 5;
    bool queue_gap_set = false;  ///< --queue-gap was given (a JSON profile's timeline was built with its own)
    /// `import --keep-timeline`: dependencies are kept to be written out (said in messages).
    bool keep_timeline = false;
    /// Called as a file or standard input is read, at each chunk (64 KiB or more; from two threads
    /// at once when a large trace is read in two parts): the bytes read so far (gzip's compressed
    /// bytes) and the input's size (0 when unknown). For a progress indicator; empty: not called.
    std::function<void(std::uint64_t read, std::uint64_t size)> on_read;
};

}  // namespace amdahl
