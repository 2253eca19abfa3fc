#pragma once
// rocprof's domains (KERNEL_DISPATCH, MEMORY_COPY, HIP_RUNTIME_API, MARKER_CORE_API, ...) and the
// phase kinds amdahl gives them; shared by the rocprof stats, summary and trace readers.
#include <string>
#include <string_view>

namespace amdahl::detail {

/// The kind for a rocprof domain: kernel, copy, runtime (API calls), annotation (markers,
/// ROCTX ranges), allocation; "" for one amdahl does not know.
inline std::string rocprof_domain_kind(std::string_view domain) {
    const auto has = [&](std::string_view part) { return domain.find(part) != std::string_view::npos; };
    if (has("KERNEL_DISPATCH")) return "kernel";
    if (has("MEMORY_COPY")) return "copy";
    if (has("MEMORY_ALLOCATION")) return "allocation";
    if (has("MARKER") || has("ROCTX")) return "annotation";
    if (has("_API")) return "runtime";
    return "";
}

/// The kind of a row of a *_stats.csv, which names no domain: memory copies and allocations,
/// domain totals (hip_domain_stats.csv) and API calls are told by their names, the rest are kernels.
inline std::string rocprof_name_kind(std::string_view name) {
    if (std::string kind = rocprof_domain_kind(name); !kind.empty()) return kind;
    if (name.starts_with("Copy")) return "copy";  // legacy rocprof results.copy_stats.csv
    if (name.starts_with("roctx")) return "annotation";
    if (name.starts_with("hip") || name.starts_with("__hip") || name.starts_with("hsa_")) return "runtime";
    return "kernel";
}

}  // namespace amdahl::detail
