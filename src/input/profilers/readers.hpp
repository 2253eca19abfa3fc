#pragma once
// The profiler-output readers. Each returns a checked profile or throws amdahl::Error naming the
// file, the line and what was expected.
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "amdahl/import.hpp"
#include "amdahl/io.hpp"
#include "amdahl/profile.hpp"

namespace amdahl::detail {

/// The profiler format `content` (the first bytes of a file) starts with, skipping console lines
/// before a CSV header; none when it is not one of them.
std::optional<InputFormat> detect_profiler_format(std::string_view content);
/// What an input is when it is profiler output with no timing at all (a counter collection, PC
/// samples), for an error that names the file to read instead; none otherwise.
std::optional<std::string> untimed_profiler_file(std::string_view content);

/// A second way into the same input, from any byte offset (counted from the prefix's first
/// byte): a large trace is then read by two threads, the second from an event near the middle.
struct TraceSplit {
    std::uint64_t size = 0;  ///< bytes of the whole input, prefix included
    std::function<std::unique_ptr<std::istream>(std::uint64_t offset)> open_at;
    std::uint64_t min_size = std::uint64_t{32} << 20;  ///< smaller inputs are read by one thread
    /// Set to where the second part started when its events were used (for tests and benches).
    std::optional<std::uint64_t>* used_at = nullptr;
};

/// Chrome Trace Event JSON, streamed: `prefix` holds bytes already read from `in`. With `split`,
/// a large input is read in two parts at once; the result (and every message) is the same.
Profile read_chrome_trace(std::string_view prefix, std::istream* in, const std::string& source,
                          const ImportOptions& options, const TraceSplit* split = nullptr);

Profile read_nsys_stats(std::string_view content, const std::string& source, const ImportOptions& options);
Profile read_rocprof_stats(std::string_view content, const std::string& source, const ImportOptions& options);
Profile read_rocprof_trace(std::string_view content, const std::string& source, const ImportOptions& options);
/// A file's name and text, for readers that take several files as one input.
struct NamedText {
    std::string name;
    std::string_view content;
};
/// Several rocprofv3 traces of one run (kernels, copies, API calls) as one timeline; `input` names
/// them all (the folder).
Profile read_rocprof_traces(const std::vector<NamedText>& files, const std::string& input,
                            const ImportOptions& options);
/// One run's output folder as one input: rocprofv3's traces, or a folder of nsys trace exports.
Profile read_run_folder(const std::string& path, const ImportOptions& options);

/// The time a file of a run's folder covers: its first start and its last end, in `unit`.
struct FileSpan {
    std::string name;
    double first = 0, last = 0;
};
/// Throws amdahl::Error naming `input` and two files when the files' times fall apart into
/// stretches whose largest gap exceeds all the time they cover: files of different runs (or
/// processes of different runs) in one folder, whose gap would be read as idle time.
void check_one_run(std::vector<FileSpan> files, const std::string& input, Unit unit);
/// nsys trace CSVs (cuda_gpu_trace, cuda_api_trace, nvtx_gpu_proj_trace) as a timeline.
Profile read_nsys_trace(std::string_view content, const std::string& source, const ImportOptions& options);
/// Several nsys trace exports of one report (cuda_gpu_trace, cuda_api_trace) as one timeline.
Profile read_nsys_traces(const std::vector<NamedText>& files, const std::string& input, const ImportOptions& options);
/// True for the header line of an nsys trace CSV.
bool looks_like_nsys_trace_header(std::string_view line);
Profile read_rocprof_summary(std::string_view content, const std::string& source, const ImportOptions& options);
Profile read_folded(std::string_view content, const std::string& source, const ImportOptions& options);

}  // namespace amdahl::detail
