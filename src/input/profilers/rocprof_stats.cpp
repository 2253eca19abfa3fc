// rocprofv3 `--stats` files (kernel_stats.csv, hip_api_stats.csv, memory_copy_stats.csv, ...):
//   "Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev"
// and legacy rocprof `--stats` results.stats.csv:
//   "Name","Calls","TotalDurationNs","AverageNs","Percentage"
// rocprof writes each name between quotes without escaping the quotes inside it, so the name
// column is split off by counting the other columns (which never hold commas) from both ends.
// The Percentage column is rounded (and sometimes sums past 100): shares come from the totals.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/rocprof_domains.hpp"
#include "input/profilers/summary_profile.hpp"
#include "input/profilers/text_table.hpp"

namespace amdahl::detail {

namespace {

constexpr const char* expected_header =
    "expected a rocprof stats header like \"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\" "
    "(rocprofv3 *_stats.csv or rocprof results.stats.csv)";

std::string kinds_text(const std::set<std::string>& kinds) {
    std::string text;
    for (const auto& kind : kinds) {
        const std::string words = kind == "kernel"       ? "kernel"
                                  : kind == "copy"       ? "memory copy"
                                  : kind == "runtime"    ? "API call"
                                  : kind == "annotation" ? "marker"
                                                         : kind;
        text += (text.empty() ? "" : " and ") + words;
    }
    return text + " times in the rocprof stats";
}

}  // namespace

Profile read_rocprof_stats(std::string_view content, const std::string& source, const ImportOptions& options) {
    LineReader lines(content);
    std::string_view line;
    std::vector<std::string> header, fields;
    std::size_t header_line = 0, first_text_line = 0;
    // Console lines may come before the header.
    while (lines.next(line)) {
        if (is_blank(line)) continue;
        if (first_text_line == 0) first_text_line = lines.number();
        if (split_csv(line, header) && find_column(header, "Name") && find_column_prefix(header, "TotalDuration")) {
            header_line = lines.number();
            break;
        }
    }
    if (header_line == 0)
        throw Error(source + ":" + std::to_string(first_text_line == 0 ? 1 : first_text_line), expected_header);
    const std::size_t name_column = *find_column(header, "Name");
    const std::size_t time_column = *find_column_prefix(header, "TotalDuration");
    const auto calls_column = find_column(header, "Calls");
    // "TotalDurationNs": the unit is the suffix.
    const std::string time_header(trim(header[time_column]));
    const auto unit = parse_unit(std::string_view(time_header).substr(std::string_view("TotalDuration").size()));

    SummaryBuilder builder(options, source, unit.value_or(Unit::ns));
    std::set<std::string> kinds;
    while (lines.next(line)) {
        if (is_blank(line)) continue;
        const std::string where = source + ":" + std::to_string(lines.number());
        if (!split_csv_free_field(line, header.size(), name_column, fields)) {
            const auto got = static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
            throw Error(where, "expected " + std::to_string(header.size()) + " fields as in the header on line " +
                                   std::to_string(header_line) + ", got " + std::to_string(got));
        }
        const double time = parse_duration_cell(fields[time_column], where, time_header);
        const std::string kind = rocprof_name_kind(fields[name_column]);
        kinds.insert(kind);
        const auto calls =
            calls_column ? parse_calls_cell(fields[*calls_column], where, trim(header[*calls_column])) : std::nullopt;
        builder.add(fields[name_column], kind, kind, time, lines.number(), calls);
    }
    if (builder.rows() == 0) {
        throw Error(source + ":" + std::to_string(header_line), "the rocprof stats table has no rows after its header");
    }
    return builder.finish("rocprof-stats", kinds_text(kinds), {});
}

}  // namespace amdahl::detail
