#pragma once
// Shared by the JSON profile reader's two paths (json.cpp, json_plain.cpp).
#include <nlohmann/json.hpp>

#include <string>

#include "input/raw_profile.hpp"

namespace amdahl::detail {

using Json = nlohmann::ordered_json;

/// Reads the top-level fields besides "phases" (schema_version, name, unit, total, proposals, runs,
/// overlaps, boundary, summary_only) from `doc` into `out`. Throws amdahl::Error.
void read_fields(const Json& doc, const std::string& source, RawProfile& out);

}  // namespace amdahl::detail
