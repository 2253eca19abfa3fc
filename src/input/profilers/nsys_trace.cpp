// nsys trace exports (nsys stats --report X --format csv): one row per event with its start and
// duration, read as a timeline (not summed like the *_sum summaries):
//   cuda_gpu_trace       Start (ns),Duration (ns),CorrId,GrdX,...,Device,Ctx,[GreenCtx,]Strm,Name
//   cuda_api_trace       Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name
//   nvtx_gpu_proj_trace  Name,Projected Start (ns),Projected Duration (ns),Orig Start (ns),...,PID,TID,...
// GPU rows are kernels, "[CUDA memcpy ...]" copies or "[CUDA memset]" memsets on a track per device
// and stream; API calls are runtime events per process and thread; NVTX ranges projected onto the
// GPU are GPU annotations, which --window takes as steps. Times are in the unit the header names
// ("(ns)", "(us)", ...); a header without one needs --timeunit, never a guess. For replay
// (--model replay) each row keeps its correlation id (CorrId, CorrID), which links an API call to
// the GPU work it launched.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/csv_records.hpp"
#include "input/profilers/dependencies.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/text_table.hpp"
#include "input/profilers/timeline.hpp"

namespace amdahl::detail {

namespace {

constexpr const char* expected_header =
    "expected an nsys trace header: Start and Duration columns with CorrId and Name (cuda_gpu_trace, "
    "cuda_api_trace) or Projected Start and Projected Duration (nvtx_gpu_proj_trace)";

enum class Report { gpu, api, nvtx };

struct Columns {
    Report report = Report::gpu;
    std::size_t name = 0, start = 0, duration = 0;
    std::optional<std::size_t> device, stream, process, thread, correlation;
};

// The column whose header starts with `prefix` followed by nothing or a unit in brackets:
// "Start" matches "Start (ns)" and "Start", never "Projected Start (ns)".
std::optional<std::size_t> column(const std::vector<std::string>& header, std::string_view prefix) {
    for (std::size_t i = 0; i < header.size(); ++i) {
        const std::string_view h = trim(header[i]);
        if (h.substr(0, prefix.size()) != prefix) continue;
        const std::string_view rest = trim(h.substr(prefix.size()));
        if (rest.empty() || rest.front() == '(') return i;
    }
    return std::nullopt;
}

std::optional<Columns> find_columns(const std::vector<std::string>& header) {
    Columns c;
    const auto name = column(header, "Name");
    if (!name) return std::nullopt;
    c.name = *name;
    if (const auto start = column(header, "Projected Start"), duration = column(header, "Projected Duration");
        start && duration) {
        c.report = Report::nvtx;
        c.start = *start;
        c.duration = *duration;
        c.process = column(header, "PID");
        c.thread = column(header, "TID");
        return c;
    }
    const auto start = column(header, "Start"), duration = column(header, "Duration");
    c.correlation = column(header, "CorrId") ? column(header, "CorrId") : column(header, "CorrID");
    if (!start || !duration || !c.correlation) return std::nullopt;
    c.start = *start;
    c.duration = *duration;
    c.stream = column(header, "Strm");
    if (c.stream) {
        c.report = Report::gpu;
        c.device = column(header, "Device");
    } else {
        c.report = Report::api;
        c.process = column(header, "Pid");
        c.thread = column(header, "Tid");
    }
    return c;
}

SpanClass gpu_class(std::string_view name) {
    if (name.rfind("[CUDA memcpy", 0) == 0) return SpanClass::memcpy;
    if (name.rfind("[CUDA memset", 0) == 0) return SpanClass::memset;
    return SpanClass::kernel;
}

std::string cell(const std::vector<std::string>& fields, std::optional<std::size_t> column) {
    return column ? std::string(trim(fields[*column])) : std::string();
}

}  // namespace

bool looks_like_nsys_trace_header(std::string_view line) {
    std::vector<std::string> header;
    return split_csv(line, header) && find_columns(header).has_value();
}

Profile read_nsys_trace(std::string_view content, const std::string& source, const ImportOptions& options) {
    return read_nsys_traces({{source, content}}, source, options);
}

Profile read_nsys_traces(const std::vector<NamedText>& files, const std::string& input, const ImportOptions& options) {
    Timeline timeline;
    timeline.unit = Unit::ns;
    struct Row {
        double start, duration;
        std::uint32_t name, category, track;
        SpanClass cls;
        std::uint64_t link = 0;  // the correlation id, with options.dependencies
    };
    std::vector<Row> rows;
    double origin = 0;
    std::vector<FileSpan> spans;  // each file's first start and last end
    for (const auto& [file, content] : files) {
        const std::size_t first_row = rows.size();
        const std::string& source = file;  // messages name the file a row came from
        LineReader lines(content);
        std::vector<std::string> header, fields;
        const std::optional<Columns> columns = read_csv_header(lines, header, source, expected_header, find_columns);
        const std::size_t header_line = lines.number();
        std::string_view line;
        const std::string at_header = source + ":" + std::to_string(header_line);
        // The unit of the times: the header's, else --timeunit; two columns must agree.
        const auto unit_of = [&](std::size_t index) {
            const std::optional<Unit> unit =
                time_column_unit(header_unit(header[index]), options.timeunit, header[index], at_header);
            if (unit) return *unit;
            throw Error(at_header, "column '" + printable(header[index]) +
                                       "' does not say its unit; give --timeunit (nsys stats --timeunit) with the unit "
                                       "nsys wrote it in");
        };
        const Unit start_unit = unit_of(columns->start), duration_unit = unit_of(columns->duration);

        const std::uint32_t category = timeline.intern(columns->report == Report::gpu   ? "cuda_gpu_trace"
                                                       : columns->report == Report::api ? "cuda_api_trace"
                                                                                        : "nvtx_gpu_proj_trace");
        while (lines.next(line)) {
            if (is_blank(line)) continue;
            const std::string where = source + ":" + std::to_string(lines.number());
            if (!split_csv_free_field(line, header.size(), columns->name, fields)) {
                throw Error(where, "expected " + std::to_string(header.size()) + " fields as in the header on line " +
                                       std::to_string(header_line));
            }
            const auto number = [&](std::size_t index, Unit unit) {
                double value = 0;
                const std::string_view text = trim(fields[index]);
                if (!parse_double(text, value) || value < 0) {
                    throw Error(where, "column '" + printable(header[index]) + "' must be a time >= 0 (got '" +
                                           printable(text) + "')");
                }
                const double ns = convert(value, unit, Unit::ns);
                if (!std::isfinite(ns) || ns > 9.2e18)
                    throw Error(where, "column '" + printable(header[index]) + "' is too large");
                return ns;
            };
            Row row;
            row.start = number(columns->start, start_unit);
            row.duration = number(columns->duration, duration_unit);
            const std::string name(trim(fields[columns->name]));
            row.name = timeline.intern(name);
            row.category = category;
            if (options.dependencies && columns->correlation)
                row.link = parse_correlation_id(fields[*columns->correlation]);
            switch (columns->report) {
                case Report::gpu: {
                    row.cls = gpu_class(name);
                    const std::string device = cell(fields, columns->device), stream = cell(fields, columns->stream);
                    row.track = timeline.track("device " + device + " stream " + stream, device, stream);
                    break;
                }
                case Report::api:
                case Report::nvtx: {
                    row.cls = columns->report == Report::api ? SpanClass::runtime : SpanClass::gpu_annotation;
                    const std::string process = cell(fields, columns->process), thread = cell(fields, columns->thread);
                    row.track = timeline.track("process " + process + " thread " + thread, process, thread);
                    break;
                }
            }
            origin = rows.empty() ? row.start : std::min(origin, row.start);
            rows.push_back(row);
        }
        if (rows.empty() && files.size() == 1) throw Error(at_header, "the nsys trace has no rows after its header");
        if (rows.size() > first_row) {
            FileSpan span{file, rows[first_row].start, rows[first_row].start + rows[first_row].duration};
            for (std::size_t i = first_row; i < rows.size(); ++i) {
                span.first = std::min(span.first, rows[i].start);
                span.last = std::max(span.last, rows[i].start + rows[i].duration);
            }
            spans.push_back(std::move(span));
        }
    }
    if (rows.empty()) throw Error(input, "the nsys traces have no rows after their headers");
    check_one_run(std::move(spans), input, Unit::ns);
    // Times relative to the first start: epoch-based ns stay exact as doubles once made small.
    timeline.spans.reserve(rows.size());
    if (options.dependencies) timeline.links.reserve(rows.size());
    for (const Row& row : rows) {
        if (options.dependencies) timeline.links.push_back(row.link);
        Span span;
        span.start = row.start - origin;
        span.end = span.start + row.duration;
        span.name = row.name;
        span.category = row.category;
        span.track = row.track;
        span.cls = row.cls;
        timeline.spans.push_back(span);
    }
    Profile profile = sweep_with_dependencies(timeline, options, input, "nsys-trace");
    return profile;
}

}  // namespace amdahl::detail
