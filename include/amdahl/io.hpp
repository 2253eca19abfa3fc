#pragma once
/// \file Reading profiles from JSON, CSV/TSV, Markdown and pasted plain-text tables.
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "amdahl/import.hpp"
#include "amdahl/profile.hpp"

namespace amdahl {

enum class InputFormat {
    json,
    csv,
    tsv,
    markdown,
    text,             // amdahl's own profiles and pasted tables
    chrome_trace,     // Chrome Trace Event JSON (PyTorch/Kineto, Perfetto)
    nsys,             // nsys stats --format csv (kernel, memory, API, NVTX summaries)
    nsys_trace,       // nsys stats --format csv traces (cuda_gpu_trace, cuda_api_trace, nvtx_gpu_proj_trace)
    rocprof_stats,    // rocprofv3 *_stats.csv, legacy rocprof results.stats.csv
    rocprof_trace,    // rocprofv3 kernel_trace.csv / memory_copy_trace.csv, legacy results.csv
    rocprof_summary,  // rocprofv3 --summary text tables
    folded,           // folded stacks: frame;frame;leaf count
};

/// Parses "json", "csv", "tsv", "md"/"markdown", "text"/"txt", "chrome-trace", "nsys", "nsys-trace",
/// "rocprof-stats", "rocprof-trace", "rocprof-summary", "folded".
std::optional<InputFormat> parse_input_format(std::string_view name);
/// The name parse_input_format takes for `format`.
std::string_view input_format_name(InputFormat format);

/// The format a file's content looks like (its extension is not consulted): profiler formats by
/// their header signature (after any console lines before it), then amdahl's own formats.
InputFormat sniff_format(std::string_view content);

/// Parses a profile from `content`. `source` names the input in messages ("step.csv", "<stdin>").
/// Throws amdahl::Error naming the file, line (or JSON path) and the problem.
Profile parse_profile(std::string_view content, const std::string& source,
                      std::optional<InputFormat> format = std::nullopt, const ImportOptions& options = {});

/// Reads a whole file (or standard input for "-") into memory. Throws amdahl::Error for missing
/// files, directories and binary data.
std::string read_input(const std::string& path, std::istream& stdin_stream);

/// Reads and parses `path` ("-" for `stdin_stream`). The format comes from `format`, then the
/// extension (.json, .csv, .tsv, .md), then the content.
/// Chrome traces are read as a stream, never whole.
Profile load_profile(const std::string& path, std::istream& stdin_stream,
                     std::optional<InputFormat> format = std::nullopt, const ImportOptions& options = {});

/// The end-to-end speedup an `amdahl eval --format json` report answers with.
struct ReportedSpeedup {
    double speedup = 1;
    std::string key;  ///< the key it was read from: "speedup", or "replayed_speedup" (--model replay)
    /// The report's speedup_range {low, high} (+inf for null), when its phases overlapped others.
    std::optional<std::pair<double, double>> range;
};
/// Reads it from a report's text; `source` names the report in messages. Throws amdahl::Error
/// when the text is no eval report of schema_version 1 or its speedup is missing, infinite (null)
/// or not > 0.
ReportedSpeedup read_eval_speedup(std::string_view content, const std::string& source);

/// The profile as amdahl's JSON profile format (what `amdahl import` writes): name, unit, total,
/// phases with kind and active_time, overlaps, boundary and notes. Reading it back gives the same
/// profile. Throws amdahl::Error when two phase names differ only in bytes that are not UTF-8
/// (JSON shows those as U+FFFD, so the names would read back as one). With `with_timeline`
/// (`import --keep-timeline`) and a profile read with its dependencies, also the "timeline": the
/// events and edges `--model replay` replays, so that replaying the file gives what replaying the
/// trace gave.
std::string profile_to_json(const Profile& profile, bool with_timeline = false);

}  // namespace amdahl
