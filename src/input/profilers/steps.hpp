#pragma once
// Which events of a trace count, and the steps --window cuts it into. Kineto writes each
// ProfilerStep twice, a CPU span and a GPU copy per stream, and with asynchronous execution the
// GPU copy of step N overlaps the CPU span of step N+1: the copies are paired by name (and by
// order where a name repeats), never merged, and a step lasts the longer of the two.
#include <string>
#include <utility>
#include <vector>

#include "amdahl/import.hpp"
#include "amdahl/profile.hpp"
#include "input/profilers/timeline.hpp"

namespace amdahl::detail {

/// True for the spans a GPU runs or writes: kernels, copies, memsets, GPU annotations.
bool on_gpu(SpanClass cls);

/// Per span: true when it is left out: the profiler's own bookkeeping (unless
/// keep_profiler_events), a name --exclude matches, or a track or category the filters leave
/// out. `notes` gains what was left out. Throws amdahl::Error when a filter matches nothing.
std::vector<bool> filter_events(const Timeline& timeline, const ImportOptions& options, const std::string& source,
                                std::vector<std::string>& notes);

/// The steps of a trace cut with --window, for the sweep.
struct StepWindows {
    std::vector<std::pair<double, double>> windows;  ///< per step used, the span the lane is measured in
    std::vector<bool> is_window_span;                ///< per span: an annotation that makes a step
    std::vector<Step> steps;                         ///< every step found, in time order, used or not
    std::vector<StepSpans> spans;                    ///< per step used, in time order: its CPU span and GPU copy
    std::size_t used = 0;                            ///< the steps averaged (1 with --step)
    double time = 0;                                 ///< the used steps' times added up
    std::string boundary;                            ///< what the per-step phases add up to, in words
    std::vector<std::string> notes;                  ///< partial steps dropped, a step far above the median
};

/// Finds the steps of options.window among the spans not `left_out`, measured on `lane` (gpu:
/// each step's GPU copy, else its CPU span). Throws amdahl::Error when none is found, when the
/// pattern matches only events that are no annotations (without window_any), or for a bad --step.
StepWindows find_steps(const Timeline& timeline, const std::vector<bool>& left_out, Lane lane,
                       const ImportOptions& options, const std::string& source);

}  // namespace amdahl::detail
