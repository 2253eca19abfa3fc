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

/// Builds the graph of `timeline` (read with links, Timeline::links) for the profile `profile`
/// that the sweep made of it (`phases` maps its spans to the profile's phases).
std::shared_ptr<const Dependencies> build_dependencies(const Timeline& timeline, const SpanPhases& phases,
                                                       const Profile& profile, const ImportOptions& options);

}  // namespace amdahl::detail
