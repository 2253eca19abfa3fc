// Recognises profiler output by its header signature, never by file name. Console output often
// precedes a CSV header (nsys prints progress lines), so each line is tried until one matches.
#include <algorithm>
#include <cctype>
#include <string>

#include "input/profilers/readers.hpp"

namespace amdahl::detail {

namespace {

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

std::optional<InputFormat> detect_csv_header(std::string_view line) {
    // nsys trace exports: a start and a duration per event, never summed as a summary.
    if (has(line, "Start") && has(line, "Duration") && looks_like_nsys_trace_header(line))
        return InputFormat::nsys_trace;
    // nsys stats: "Time (%),Total Time (ns),Instances,Avg (ns),...,Name" and older
    // "Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,Name"; memory ops use Count/Operation.
    if (has(line, "Total Time") &&
        (has(line, "Instances") || has(line, "Count") || has(line, "Operations") || has(line, "Num Calls")) &&
        (has(line, "Name") || has(line, "Operation") || has(line, "Range")))
        return InputFormat::nsys;
    // rocprofv3 *_stats.csv and legacy results.stats.csv.
    if (has(line, "TotalDurationNs") && has(line, "Calls")) return InputFormat::rocprof_stats;
    // rocprofv3 traces (Start_Timestamp/End_Timestamp) and legacy results.csv (BeginNs/EndNs).
    if ((has(line, "Start_Timestamp") && has(line, "End_Timestamp")) || (has(line, "BeginNs") && has(line, "EndNs")))
        return InputFormat::rocprof_trace;
    return std::nullopt;
}

// "frame;frame;leaf 12" or "frame 3.5": the last space-separated field is a count.
bool is_folded_line(std::string_view line) {
    const auto space = line.find_last_of(' ');
    if (space == std::string_view::npos || space == 0 || space + 1 == line.size()) return false;
    const std::string_view count = line.substr(space + 1);
    return std::all_of(count.begin(), count.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
}

// nsys's progress lines ("[6/8] Executing 'cuda_gpu_kern_sum' stats report") open console output
// with a '[', as a JSON array would.
bool is_nsys_progress_line(std::string_view text) {
    std::size_t i = 1;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        return i > from;
    };
    if (text.empty() || text[0] != '[' || !digits() || i >= text.size() || text[i++] != '/' || !digits()) return false;
    return i < text.size() && text[i] == ']';
}

}  // namespace

std::optional<std::string> untimed_profiler_file(std::string_view content) {
    // The first line is the header of the CSVs profilers write without any timing.
    const std::string_view line = content.substr(0, std::min(content.find('\n'), content.size()));
    if (has(line, "Counter_Name") && has(line, "Counter_Value") && !has(line, "Start_Timestamp"))
        return "a rocprofv3 counter collection (counter values per dispatch, no timestamps): it holds no time; read "
               "kernel_trace.csv of the same run for the kernels' times";
    if (has(line, "Sample_Timestamp") || (has(line, "Exec_Mask") && has(line, "Instruction")))
        return "a rocprofv3 PC sampling file (instruction samples, no durations): it holds no time per phase; read "
               "kernel_trace.csv of the same run for the kernels' times";
    return std::nullopt;
}

std::optional<InputFormat> detect_profiler_format(std::string_view content) {
    const auto first = content.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return std::nullopt;
    if (content[first] == '{') {
        if (has(content, "\"traceEvents\"")) return InputFormat::chrome_trace;
        return std::nullopt;
    }
    if (content[first] == '[' && !is_nsys_progress_line(content.substr(first))) {
        // A bare array of trace events: its first object has a "ph" (phase) key.
        const auto object_end = content.find('}', first);
        if (has(content.substr(first, object_end == std::string_view::npos ? 4096 : object_end - first), "\"ph\""))
            return InputFormat::chrome_trace;
        return std::nullopt;
    }
    std::size_t folded_lines = 0, other_lines = 0;
    bool any_semicolon = false;
    std::size_t pos = 0;
    while (pos < content.size()) {
        auto end = content.find('\n', pos);
        const bool complete = end != std::string_view::npos;
        if (!complete) end = content.size();
        std::string_view line = content.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (has(line, "ROCPROFV3") && has(line, "SUMMARY")) return InputFormat::rocprof_summary;
        if (const auto format = detect_csv_header(line)) return format;
        if (!complete) break;  // a cut-off last line says nothing
        const auto text = line.find_first_not_of(" \t");
        if (text == std::string_view::npos || line.substr(text).starts_with("#") || line.substr(text).starts_with("//"))
            continue;
        if (is_folded_line(line)) {
            ++folded_lines;
            any_semicolon = any_semicolon || has(line, ";");
        } else {
            ++other_lines;
        }
    }
    // Folded stacks: stack lines with counts, allowing a few stray lines (flamegraph.pl skips them).
    if (folded_lines > 0 && any_semicolon && other_lines * 4 <= folded_lines) return InputFormat::folded;
    return std::nullopt;
}

}  // namespace amdahl::detail
