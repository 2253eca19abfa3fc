#pragma once
/// \file Options for reading profiler output (Chrome/Kineto traces, nsys and rocprof CSVs, folded
/// stacks) into a profile.
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
    std::string window;             ///< regex: restrict to the spans of matching events, averaged per span
    std::string group_by = "name";  ///< "name", "cat" or "regex:PATTERN" (the first capture group, or the match)
    std::vector<std::pair<std::string, std::string>> renames;  ///< REGEX=NAME, applied in order, first match wins
    std::optional<int> depth;                                  ///< folded stacks: cut frames at this depth
    bool leaf = false;                                         ///< folded stacks: leaf self time
    std::optional<Quantity> sample_period;                     ///< folded stacks: time per sample
    std::optional<Unit> timeunit;                              ///< nsys stats: the unit of "(ns)"-less columns
    std::optional<Quantity> total;                             ///< summary formats: the real end-to-end time
};

}  // namespace amdahl
