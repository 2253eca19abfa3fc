#pragma once
// A JSON profile's "timeline" (`amdahl import --keep-timeline`): the replay graph of the trace it
// was imported from.
#include <memory>
#include <string>

#include "input/json_fields.hpp"

namespace amdahl {
struct Dependencies;
}

namespace amdahl::detail {

/// Reads and checks `timeline` (see src/input/json_timeline.cpp). Throws amdahl::Error naming
/// the JSON path of what is wrong.
std::shared_ptr<const Dependencies> read_timeline(const Json& timeline, const std::string& source);

}  // namespace amdahl::detail
