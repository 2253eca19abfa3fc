// rocprof traces: one row per dispatch, copy or call, with start and end timestamps in ns.
//   rocprofv3 kernel_trace.csv      Kind,Agent_Id,Queue_Id,[Stream_Id,]Thread_Id,...,Kernel_Name,
//                                   Correlation_Id,Start_Timestamp,End_Timestamp,... (Stream_Id and
//                                   "Agent N" ids since 2025; numeric Agent_Id before)
//   rocprofv3 memory_copy_trace.csv Kind,Direction,[Stream_Id,]Source_Agent_Id,Destination_Agent_Id,...
//   rocprofv3 *_api_trace.csv       Domain,Function,Process_Id,Thread_Id,...  (rocpd2csv adds Guid)
//   legacy rocprof results.csv      Index,KernelName,gpu-id,queue-id,...,BeginNs,EndNs,...
// Columns are found by name. Each row becomes a span on a track: kernels per agent, queue and
// stream; copies per source, destination and stream; API calls per process and thread. The
// timeline sweep then turns the spans into phases that add up to the wall time. For replay
// (--model replay) each row keeps its Correlation_Id, which links an API call to the GPU work it
// launched; legacy results.csv has none (0 in rocprofv3 also means none).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/dependencies.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/rocprof_domains.hpp"
#include "input/profilers/text_table.hpp"
#include "input/profilers/timeline.hpp"

namespace amdahl::detail {

namespace {

constexpr const char* expected_header =
    "expected a rocprof trace header with Start_Timestamp and End_Timestamp (rocprofv3 kernel_trace.csv, "
    "memory_copy_trace.csv, *_api_trace.csv) or BeginNs and EndNs (rocprof results.csv)";

struct Columns {
    std::size_t name = 0, start = 0, end = 0;
    std::optional<std::size_t> kind, domain, agent, queue, stream, source_agent, destination_agent, process, thread,
        correlation;
    SpanClass cls = SpanClass::other;
};

std::optional<Columns> find_columns(const std::vector<std::string>& header) {
    Columns c;
    auto start = find_column(header, "Start_Timestamp");
    auto end = find_column(header, "End_Timestamp");
    if (!start || !end) {
        start = find_column(header, "BeginNs");
        end = find_column(header, "EndNs");
    }
    if (!start || !end) return std::nullopt;
    c.start = *start;
    c.end = *end;
    c.kind = find_column(header, "Kind");
    c.domain = find_column(header, "Domain");
    c.stream = find_column(header, "Stream_Id");
    c.correlation = find_column(header, "Correlation_Id");
    if (auto name = find_column(header, "Kernel_Name") ? find_column(header, "Kernel_Name")
                                                       : find_column(header, "KernelName")) {
        c.name = *name;
        c.cls = SpanClass::kernel;
        c.agent = find_column(header, "Agent_Id") ? find_column(header, "Agent_Id") : find_column(header, "gpu-id");
        c.queue = find_column(header, "Queue_Id") ? find_column(header, "Queue_Id") : find_column(header, "queue-id");
    } else if (auto direction = find_column(header, "Direction")) {
        c.name = *direction;
        c.cls = SpanClass::memcpy;
        c.source_agent = find_column(header, "Source_Agent_Id");
        c.destination_agent = find_column(header, "Destination_Agent_Id");
    } else if (auto function = find_column(header, "Function")) {
        c.name = *function;
        c.cls = SpanClass::runtime;  // or annotation, by each row's domain
        c.process = find_column(header, "Process_Id");
        c.thread = find_column(header, "Thread_Id");
    } else if (auto other =
                   find_column(header, "Operation") ? find_column(header, "Operation") : find_column(header, "Name")) {
        c.name = *other;
        c.agent = find_column(header, "Agent_Id");
    } else {
        return std::nullopt;
    }
    return c;
}

// A timestamp in ns: an integer (exact beyond 2^53, which epoch-based ns need), else a decimal.
std::int64_t parse_timestamp(std::string_view text, const std::string& where, std::string_view column) {
    text = trim(text);
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && ptr == text.data() + text.size()) {
        if (value < 0)
            throw Error(where, "column '" + printable(column) + "' must be >= 0 (got '" + printable(text) + "')");
        return value;
    }
    double decimal = 0;
    if (!parse_double(text, decimal) || decimal >= 9.2e18) {
        throw Error(where,
                    "column '" + printable(column) + "' must be a timestamp in ns (got '" + printable(text) + "')");
    }
    if (decimal < 0)
        throw Error(where, "column '" + printable(column) + "' must be >= 0 (got '" + printable(text) + "')");
    return static_cast<std::int64_t>(decimal);
}

std::string cell(const std::vector<std::string>& fields, std::optional<std::size_t> column) {
    return column ? fields[*column] : std::string();
}

}  // namespace

Profile read_rocprof_trace(std::string_view content, const std::string& source, const ImportOptions& options) {
    return read_rocprof_traces({{source, content}}, source, options);
}

Profile read_rocprof_traces(const std::vector<NamedText>& files, const std::string& input,
                            const ImportOptions& options) {
    struct Row {
        std::int64_t start, end;
        std::uint32_t name, category, track;
        SpanClass cls;
        std::uint64_t link = 0;  // the correlation id, with options.dependencies
    };
    std::vector<Row> rows;
    Timeline timeline;
    timeline.unit = Unit::ns;
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    std::vector<FileSpan> spans;  // each file's first start and last end
    for (const auto& [file, content] : files) {
        const std::size_t first_row = rows.size();
        const std::string& source = file;  // messages name the file a row came from
        LineReader lines(content);
        std::vector<std::string> header, fields;
        const std::optional<Columns> columns = read_csv_header(lines, header, source, expected_header, find_columns);
        const std::size_t header_line = lines.number();
        std::string_view line;
        std::string track_key, track_pid, track_tid;  // --pid/--device and --tid/--stream match the last two
        while (lines.next(line)) {
            if (is_blank(line)) continue;
            const std::string where = source + ":" + std::to_string(lines.number());
            if (!split_csv_free_field(line, header.size(), columns->name, fields)) {
                const auto got = static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
                throw Error(where, "expected " + std::to_string(header.size()) + " fields as in the header on line " +
                                       std::to_string(header_line) + ", got " + std::to_string(got));
            }
            Row row;
            row.start = parse_timestamp(fields[columns->start], where, header[columns->start]);
            row.end = parse_timestamp(fields[columns->end], where, header[columns->end]);
            if (row.end < row.start) {
                throw Error(where, "'" + header[columns->end] + "' " + fields[columns->end] + " is before '" +
                                       header[columns->start] + "' " + fields[columns->start] +
                                       ": a negative duration");
            }
            row.cls = columns->cls;
            if (options.dependencies && columns->correlation)
                row.link = parse_correlation_id(fields[*columns->correlation]);
            std::string category;
            switch (columns->cls) {
                case SpanClass::kernel:
                    category = columns->kind ? cell(fields, columns->kind) : "KERNEL_DISPATCH";
                    track_key = "kernels agent " + cell(fields, columns->agent) + " queue " +
                                cell(fields, columns->queue) + " stream " + cell(fields, columns->stream);
                    track_pid = cell(fields, columns->agent);
                    track_tid = cell(fields, columns->stream ? columns->stream : columns->queue);
                    break;
                case SpanClass::memcpy:
                    category = columns->kind ? cell(fields, columns->kind) : "MEMORY_COPY";
                    track_key = "copies " + cell(fields, columns->source_agent) + " to " +
                                cell(fields, columns->destination_agent) + " stream " + cell(fields, columns->stream);
                    track_pid = cell(fields, columns->source_agent);
                    track_tid = cell(fields, columns->stream);
                    break;
                default: {
                    category = cell(fields, columns->domain ? columns->domain : columns->kind);
                    const std::string kind = rocprof_domain_kind(category);
                    if (columns->process || columns->thread) {
                        row.cls = kind == "annotation" ? SpanClass::annotation : SpanClass::runtime;
                        track_key =
                            "process " + cell(fields, columns->process) + " thread " + cell(fields, columns->thread);
                        track_pid = cell(fields, columns->process);
                        track_tid = cell(fields, columns->thread);
                    } else {
                        row.cls = kind == "kernel" ? SpanClass::kernel
                                  : kind == "copy" ? SpanClass::memcpy
                                                   : SpanClass::other;
                        track_key = category + " agent " + cell(fields, columns->agent);
                        track_pid = cell(fields, columns->agent);
                        track_tid.clear();
                    }
                    break;
                }
            }
            row.name = timeline.intern(fields[columns->name]);
            row.category = timeline.intern(category);
            row.track = timeline.track(track_key, track_pid, track_tid);
            origin = std::min(origin, row.start);
            rows.push_back(row);
        }
        if (rows.empty() && files.size() == 1) {
            throw Error(source + ":" + std::to_string(header_line), "the rocprof trace has no rows after its header");
        }
        if (rows.size() > first_row) {
            FileSpan span{file, static_cast<double>(rows[first_row].start), static_cast<double>(rows[first_row].end)};
            for (std::size_t i = first_row; i < rows.size(); ++i) {
                span.first = std::min(span.first, static_cast<double>(rows[i].start));
                span.last = std::max(span.last, static_cast<double>(rows[i].end));
            }
            spans.push_back(std::move(span));
        }
    }
    if (rows.empty()) throw Error(input, "the rocprof traces have no rows after their headers");
    check_one_run(std::move(spans), input, Unit::ns);
    // Times relative to the first start: epoch-based ns stay exact as doubles once made small.
    timeline.spans.reserve(rows.size());
    if (options.dependencies) timeline.links.reserve(rows.size());
    for (const Row& row : rows) {
        if (options.dependencies) timeline.links.push_back(row.link);
        Span span;
        span.start = static_cast<double>(row.start - origin);
        span.end = static_cast<double>(row.end - origin);
        span.name = row.name;
        span.category = row.category;
        span.track = row.track;
        span.cls = row.cls;
        timeline.spans.push_back(span);
    }
    Profile profile = sweep_with_dependencies(timeline, options, input, "rocprof-trace");
    return profile;
}

}  // namespace amdahl::detail
