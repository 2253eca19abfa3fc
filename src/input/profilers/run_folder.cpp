// One run's output folder as one input: rocprofv3 writes its traces of a run as several files
// (kernel_trace.csv, memory_copy_trace.csv, the API traces), and nsys exports one CSV per report
// (cuda_gpu_trace, cuda_api_trace). Their events share one clock, so they are one timeline. Files
// are recognised by their header, never by their name; summaries beside the traces hold the same
// time again and are left out, with a note.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/readers.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

constexpr std::size_t max_files = 10000;  // a folder is one run, not a file system
constexpr int max_depth = 4;              // rocprofv3 nests them as HOST/PID/

std::string read_whole(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string(), "cannot open");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace

void check_one_run(std::vector<FileSpan> files, const std::string& input, Unit unit) {
    if (files.size() < 2) return;
    std::sort(files.begin(), files.end(), [](const FileSpan& a, const FileSpan& b) { return a.first < b.first; });
    // Stretches of overlapping files; the widest gap between two of them against the time covered.
    double covered = 0, reach = files[0].last, stretch_start = files[0].first, widest = 0;
    std::size_t reach_file = 0, before = 0, after = 0;  // reach_file: the file that ends last so far
    for (std::size_t i = 1; i < files.size(); ++i) {
        if (files[i].first > reach) {
            covered += reach - stretch_start;
            if (files[i].first - reach > widest) {
                widest = files[i].first - reach;
                before = reach_file;
                after = i;
            }
            stretch_start = files[i].first;
        }
        if (files[i].last > reach || files[i].first > reach) {
            reach = files[i].last;
            reach_file = i;
        }
    }
    covered += reach - stretch_start;
    if (widest > 0 && widest > covered) {
        throw Error(input, "'" + printable(files[before].name) + "' and '" + printable(files[after].name) + "' are " +
                               format_duration(widest, unit) + " apart, more than all the files' events cover (" +
                               format_duration(covered, unit) +
                               "): files of different runs? give one run's folder, or read the files one at a time");
    }
}

Profile read_run_folder(const std::string& path, const ImportOptions& options) {
    namespace fs = std::filesystem;
    std::vector<fs::path> found;
    std::error_code ec;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) throw Error(path, "cannot read the folder: " + ec.message());
    for (; it != end; it.increment(ec)) {
        if (ec) throw Error(path, "cannot read the folder: " + ec.message());
        if (it.depth() >= max_depth) it.disable_recursion_pending();
        if (!it->is_regular_file(ec)) continue;
        if (found.size() == max_files)
            throw Error(path, "holds more than " + std::to_string(max_files) + " files: give one run's folder");
        found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());

    std::vector<std::string> texts;  // kept alive for the readers' views
    std::vector<std::pair<std::string, InputFormat>> traces;
    std::vector<std::string> left_out;
    texts.reserve(found.size());
    for (const fs::path& file : found) {
        std::string text = read_whole(file);
        const std::optional<InputFormat> format = detect_profiler_format(text);
        const std::string name = file.string();
        if (format == InputFormat::rocprof_trace || format == InputFormat::nsys_trace) {
            traces.emplace_back(name, *format);
            texts.push_back(std::move(text));
        } else {
            left_out.push_back(fs::relative(file, path, ec).string());
        }
    }
    if (traces.empty()) {
        std::string listed;
        for (std::size_t i = 0; i < left_out.size() && i < 8; ++i) listed += (i ? ", " : "") + printable(left_out[i]);
        if (left_out.size() > 8) listed += ", ...";
        throw Error(path,
                    "is a folder with no trace files (rocprofv3 kernel_trace.csv, memory_copy_trace.csv, "
                    "*_api_trace.csv; nsys cuda_gpu_trace and cuda_api_trace CSV exports)" +
                        (listed.empty() ? std::string(": it is empty") : "; it holds " + listed));
    }
    const InputFormat format = traces.front().second;
    std::vector<NamedText> files;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (traces[i].second != format) {
            throw Error(path, "mixes rocprof and nsys traces ('" + printable(traces.front().first) + "' and '" +
                                  printable(traces[i].first) + "'): give one run's folder");
        }
        files.push_back({traces[i].first, texts[i]});
    }
    Profile profile = format == InputFormat::rocprof_trace ? read_rocprof_traces(files, path, options)
                                                           : read_nsys_traces(files, path, options);
    std::string read;
    for (const auto& [name, unused] : traces)
        read += (read.empty() ? "" : ", ") + printable(fs::relative(name, path, ec).string());
    profile.notes.insert(profile.notes.begin(), path + ": one run's folder, read as one timeline from " + read);
    if (!left_out.empty()) {
        std::string listed;
        for (std::size_t i = 0; i < left_out.size() && i < 8; ++i) listed += (i ? ", " : "") + printable(left_out[i]);
        if (left_out.size() > 8) listed += ", ...";
        profile.notes.push_back(path + ": left out " + count_of(left_out.size(), "file") +
                                " holding no trace (summaries hold the traces' time again): " + listed);
    }
    return profile;
}

}  // namespace amdahl::detail
