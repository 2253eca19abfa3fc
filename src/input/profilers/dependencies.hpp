#pragma once
// A trace's replay graph (docs/replay.md): its events as nodes, cut into self-time segments on
// CPU threads, and the edges between them: track order, launches (by correlation id) and the
// waits of synchronizing runtime calls.
#include <memory>
#include <string>
#include <string_view>

#include "amdahl/import.hpp"
#include "amdahl/profile.hpp"
#include "input/profilers/timeline.hpp"

namespace amdahl::detail {

/// A runtime call's name without the API version nsys appends: "cudaMemcpy_v3020" ->
/// "cudaMemcpy", "cuMemcpyHtoD_v2" -> "cuMemcpyHtoD"; other names as they are.
std::string_view api_base_name(std::string_view name);

/// Sweeps `timeline` into a profile (sweep()) and, with options.dependencies, builds the replay
/// graph of its events (Profile::dependencies), prepared for replays, on a second thread while
/// the sweep runs: the graph's nodes and edges do not depend on the phases the sweep finds.
Profile sweep_with_dependencies(const Timeline& timeline, const ImportOptions& options, const std::string& source,
                                const std::string& format_name);

}  // namespace amdahl::detail
