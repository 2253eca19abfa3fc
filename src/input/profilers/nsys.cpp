// Nsight Systems `nsys stats --format csv` summaries: cuda_gpu_kern_sum, cuda_gpu_mem_time_sum,
// cuda_gpu_sum, cuda_api_sum, nvtx_sum, osrt_sum and their pre-2022 forms (gpukernsum, ...).
// Columns are found by name, not position, because nsys renamed them across releases:
//   2020-21  Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,Name
//            (memory: ...,Operations,...,Operation; API: ...,Num Calls,...,Name; NVTX: ...,Range)
//   ~2021    Time(%),Total Time (ns),Instances,Average (ns),Minimum (ns),Maximum (ns),StdDev (ns),Name
//   2022+    Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name
//            (memory: Count + Operation; NVTX: Style + Range; cuda_gpu_sum: Category + Operation)
// `nsys stats` without -o writes every report to one stream, each table after console lines
// ("Processing [...] with [.../cuda_gpu_kern_sum.py]...", " ** CUDA GPU Kernel Summary
// (cuda_gpu_kern_sum):") and ending at a blank line. The lane picks which tables become phases.
// Without --format csv (the default of `nsys stats` and of `nsys profile --stats=true`) the same
// tables are printed for the console, after "[6/8] Executing 'cuda_gpu_kern_sum' stats report":
//    Time (%)  Total Time (ns)  Instances   Avg (ns)   ...  StdDev (ns)             Name
//    --------  ---------------  ---------  ----------  ...  -----------  ------------------------
//        75.0        3,000,000          1  3,000,000.0 ...          0.0  matmul_gpu(float *, int)
// Headers are centred, numbers right-aligned, names left-aligned and may hold spaces: the dash
// runs of the separator line give each column's place, and the last column runs to the line's end.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/summary_profile.hpp"
#include "input/profilers/text_table.hpp"

namespace amdahl::detail {

namespace {

enum class Report { kernel, memory, gpu, api, nvtx, other };

struct Row {
    std::string name;
    std::string kind;
    double time = 0;
    std::size_t line = 0;
    std::optional<std::uint64_t> calls;  // Instances, Num Calls, Count or Operations
};

struct Table {
    Report report = Report::kernel;
    bool console = false;                                    // space-aligned, its columns given by `spans`
    std::vector<std::pair<std::size_t, std::size_t>> spans;  // [begin, end) of each column's dashes
    std::string id;  // the report's name from the console line before it, or a description
    std::size_t header_line = 0;
    Unit unit = Unit::ns;
    std::vector<Row> rows;
};

constexpr const char* expected_header =
    "expected an nsys stats CSV header like 'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),"
    "Max (ns),StdDev (ns),Name' (from nsys stats --format csv)";

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// The report a console line announces, by its id (the names of 2020-2021 reports have no '_').
std::optional<Report> report_hint(std::string_view line, std::string& id) {
    static const std::pair<const char*, Report> known[] = {
        {"cuda_gpu_kern_sum", Report::kernel},
        {"gpukernsum", Report::kernel},
        {"cuda_gpu_mem_time_sum", Report::memory},
        {"gpumemtimesum", Report::memory},
        {"cuda_gpu_sum", Report::gpu},
        {"gpusum", Report::gpu},
        {"cuda_api_sum", Report::api},
        {"cudaapisum", Report::api},
        {"nvtx_sum", Report::nvtx},
        {"nvtxsum", Report::nvtx},
        {"nvtxppsum", Report::nvtx},
        {"nvtx_pushpop_sum", Report::nvtx},
        {"osrt_sum", Report::other},
        {"osrtsum", Report::other},
    };
    if (!has(line, "sum")) return std::nullopt;  // every id ends in it; most lines are no announcement
    for (const auto& [name, report] : known) {
        if (has(line, name)) {
            id = name;
            return report;
        }
    }
    return std::nullopt;
}

// The report a progress line names, whatever it is ("[8/8] Executing 'cuda_gpu_mem_size_sum' stats
// report", "Processing [r.sqlite] with [/opt/.../reports/openmp_sum.py]... "), or "".
std::string announced_report(std::string_view line) {
    if (const auto at = line.find("Executing '"); at != std::string_view::npos && has(line, "stats report")) {
        const auto begin = at + 11;
        const auto end = line.find('\'', begin);
        if (end != std::string_view::npos) return std::string(line.substr(begin, end - begin));
    }
    if (line.starts_with("Processing [")) {
        const auto py = line.rfind(".py]");
        if (py != std::string_view::npos) {
            const auto slash = line.find_last_of("/[", py);
            if (slash != std::string_view::npos) return std::string(line.substr(slash + 1, py - slash - 1));
        }
    }
    return {};
}

// A console table's separator: runs of dashes parted by spaces, nothing else.
bool is_separator(std::string_view line) {
    const std::string_view text = trim(line);
    return !text.empty() && text.front() == '-' && text.find_first_not_of("- ") == std::string_view::npos;
}

std::vector<std::pair<std::size_t, std::size_t>> dash_runs(std::string_view line) {
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    for (std::size_t i = 0; i < line.size();) {
        if (line[i] != '-') {
            ++i;
            continue;
        }
        const std::size_t begin = i;
        while (i < line.size() && line[i] == '-') ++i;
        runs.emplace_back(begin, i);
    }
    return runs;
}

// The cells of a console line under `spans`: each column from its dashes' start to the next
// column's, the last to the end of the line.
void split_columns(std::string_view line, const std::vector<std::pair<std::size_t, std::size_t>>& spans,
                   std::vector<std::string>& cells) {
    cells.clear();
    for (std::size_t k = 0; k < spans.size(); ++k) {
        const std::size_t begin = spans[k].first;
        const std::size_t end = k + 1 < spans.size() ? spans[k + 1].first : line.size();
        cells.emplace_back(begin < line.size() ? trim(line.substr(begin, end - begin)) : std::string_view());
    }
}

std::string describe(Report report) {
    switch (report) {
        case Report::kernel:
            return "kernel summary";
        case Report::memory:
            return "memory operation summary";
        case Report::gpu:
            return "GPU summary";
        case Report::api:
            return "CUDA API summary";
        case Report::nvtx:
            return "NVTX range summary";
        case Report::other:
            return "OS runtime summary";
    }
    return "summary";
}

std::string memory_kind(std::string_view operation) { return has(operation, "memset") ? "memset" : "copy"; }

class NsysReader {
public:
    NsysReader(std::string_view content, const std::string& source, const ImportOptions& options)
        : content_(content), source_(source), options_(options) {}

    Profile read() {
        parse();
        if (tables_.empty()) throw Error(source_ + ":" + std::to_string(first_text_line_), expected_header);
        const std::vector<const Table*> chosen = choose();
        std::size_t rows = 0;
        for (const Table* t : chosen) rows += t->rows.size();
        if (rows == 0) {
            throw Error(source_ + ":" + std::to_string(chosen.front()->header_line),
                        "the nsys table has no rows after its header");
        }
        const Unit unit = chosen.front()->unit;
        SummaryBuilder builder(options_, source_, unit);
        for (const Table* t : chosen) {
            for (const Row& row : t->rows)
                builder.add(row.name, row.kind, row.kind, convert(row.time, t->unit, unit), row.line, row.calls);
        }
        std::vector<std::string> notes;
        if (tables_.size() > 1) {
            std::string used, left;
            for (const Table& t : tables_) {
                const bool in = std::find(chosen.begin(), chosen.end(), &t) != chosen.end();
                std::string& list = in ? used : left;
                list += (list.empty() ? "" : ", ") + t.id + " (line " + std::to_string(t.header_line) + ")";
            }
            notes.push_back(source_ + ": phases from " + used + (left.empty() ? "" : "; left out: " + left) +
                            " (choose with --lane gpu or --lane cpu)");
        }
        for (const std::size_t line : unitless_) {
            notes.push_back(source_ + ":" + std::to_string(line) +
                            ": the time column does not say its unit: read as ns, nsys stats's default (give "
                            "--timeunit if it was run with another)");
        }
        if (!skipped_.empty()) {
            std::string list;
            for (const std::string& skipped : skipped_) list += (list.empty() ? "" : ", ") + skipped;
            notes.push_back(source_ + ": sections that hold no phases: " + list);
        }
        bool nvtx = false;
        for (const Table* t : chosen) nvtx = nvtx || t->report == Report::nvtx;
        if (nvtx) {
            notes.push_back(source_ +
                            ": NVTX ranges nest and overlap one another, so their sum can exceed the time "
                            "they cover");
        }
        return builder.finish("nsys", summed_text(chosen), std::move(notes));
    }

private:
    void parse() {
        LineReader lines(content_);
        std::string_view line;
        std::vector<std::string> fields;
        Table* table = nullptr;
        std::size_t name_column = 0, time_column = 0, columns = 0;
        std::optional<std::size_t> category_column, calls_column;
        // The report a console line announced for the next table (a plain pair: GCC 12 warns
        // falsely about std::optional<enum> here).
        bool hinted = false;
        Report hint = Report::kernel;
        std::string hint_id;
        // The report a progress line announced and no table has answered yet, for the note on
        // sections without phases.
        std::string announced;
        std::size_t announced_line = 0;
        const auto settle_announced = [&](const std::string& why) {
            if (!announced.empty()) skipped_.push_back(announced + " (line " + why + ")");
            announced.clear();
        };
        // The line before, when it held text: a console header comes right before its separator.
        std::string_view previous;
        std::size_t previous_number = 0;
        const auto start_table = [&](const std::vector<std::string>& header, std::size_t header_line) {
            Table t;
            t.header_line = header_line;
            category_column = find_column(header, "Category");
            calls_column.reset();
            for (const char* calls : {"Instances", "Num Calls", "Count", "Operations", "Calls"})
                if (!calls_column) calls_column = find_column(header, calls);
            t.report = classify(header, name_column, category_column.has_value());
            if (hinted && (hint == Report::other || t.report == Report::kernel)) t.report = hint;
            t.id = hinted && hint == t.report ? hint_id : "the " + describe(t.report);
            const auto unit = time_column_unit(unit_in_parentheses(header[time_column]), options_.timeunit,
                                               header[time_column], source_ + ":" + std::to_string(header_line));
            if (!unit) unitless_.push_back(header_line);
            t.unit = unit.value_or(Unit::ns);
            columns = header.size();
            fields_header_ = header;
            tables_.push_back(std::move(t));
            table = &tables_.back();
            hinted = false;
            announced.clear();
        };
        while (lines.next(line)) {
            if (is_blank(line)) {
                table = nullptr;
                previous_number = 0;
                continue;
            }
            if (first_text_line_ == 0) first_text_line_ = lines.number();
            const std::string where = source_ + ":" + std::to_string(lines.number());
            if (table) {
                if (table->console) {
                    split_console_row(line, *table, where, name_column, fields);
                } else {
                    if (!split_csv(line, fields)) throw Error(where, "a quoted field is not closed on its line");
                    if (fields.size() != columns) {
                        throw Error(where, "expected " + std::to_string(columns) + " fields as in the header on line " +
                                               std::to_string(table->header_line) + ", got " +
                                               std::to_string(fields.size()));
                    }
                }
                Row row;
                row.name = fields[name_column];
                row.time = parse_duration_cell(fields[time_column], where, trim(fields_header_[time_column]));
                row.line = lines.number();
                if (calls_column)
                    row.calls = parse_calls_cell(fields[*calls_column], where, trim(fields_header_[*calls_column]));
                row.kind = kind_of_row(table->report, row.name, category_column ? fields[*category_column] : "");
                table->rows.push_back(std::move(row));
                continue;
            }
            if (is_separator(line) && previous_number != 0 && previous_number + 1 == lines.number()) {
                const auto spans = dash_runs(line);
                split_columns(previous, spans, fields);
                if (is_header(fields, name_column, time_column)) {
                    start_table(fields, previous_number);
                    table->console = true;
                    table->spans = spans;
                } else {
                    if (announced.empty()) announced = "the table";
                    settle_announced(std::to_string(previous_number) + ": no Total Time column, not a time summary");
                }
                continue;
            }
            if (split_csv(line, fields) && is_header(fields, name_column, time_column)) {
                start_table(fields, lines.number());
                continue;
            }
            if (std::string id = announced_report(line); !id.empty()) {
                settle_announced(std::to_string(announced_line) + ": no time table follows");
                announced = std::move(id);
                announced_line = lines.number();
            } else if (!announced.empty() && trim(line).starts_with("SKIPPED:")) {
                settle_announced(std::to_string(lines.number()) + ": nsys skipped it, no data");
            }
            if (auto found = report_hint(line, hint_id)) {
                hinted = true;
                hint = *found;
            }
            previous = line;
            previous_number = lines.number();
        }
        settle_announced(std::to_string(announced_line) + ": no time table follows");
    }

    // A console row's cells under the header's columns; text in the gap between two columns (or
    // before the first) means the row was not written for this header.
    void split_console_row(std::string_view line, const Table& table, const std::string& where, std::size_t name_column,
                           std::vector<std::string>& cells) const {
        const auto& spans = table.spans;
        const std::string at_header = " of the header on line " + std::to_string(table.header_line);
        for (std::size_t k = 0; k < spans.size(); ++k) {
            const std::size_t gap_begin = k == 0 ? 0 : spans[k - 1].second;
            for (std::size_t i = gap_begin; i < spans[k].first && i < line.size(); ++i) {
                if (line[i] == ' ' || line[i] == '\t') continue;
                throw Error(where,
                            "the row does not line up with the columns" + at_header + " (text at column " +
                                std::to_string(i + 1) + ", " +
                                (k == 0 ? "before '" + fields_header_[0] + "'"
                                        : "between '" + fields_header_[k - 1] + "' and '" + fields_header_[k] + "'") +
                                ")");
            }
        }
        if (line.size() <= spans[name_column].first)
            throw Error(where, "the row ends before the '" + fields_header_[name_column] + "' column" + at_header);
        split_columns(line, spans, cells);
        if (cells[name_column].empty()) throw Error(where, "the '" + fields_header_[name_column] + "' column is empty");
    }

    static bool is_header(const std::vector<std::string>& fields, std::size_t& name_column, std::size_t& time_column) {
        const auto time = find_column_prefix(fields, "Total Time");
        if (!time) return false;
        // The name is the last column: Name, Operation (memory) or Range (NVTX, after Style).
        std::optional<std::size_t> name;
        for (const char* candidate : {"Name", "Operation", "Range"}) {
            if (auto found = find_column(fields, candidate); found && (!name || *found > *name)) name = found;
        }
        if (!name) return false;
        name_column = *name;
        time_column = *time;
        return true;
    }

    static Report classify(const std::vector<std::string>& fields, std::size_t name_column, bool has_category) {
        const std::string name(trim(fields[name_column]));
        if (has_category) return Report::gpu;
        if (name == "Operation") return Report::memory;
        if (name == "Range") return Report::nvtx;
        if (find_column(fields, "Num Calls")) return Report::api;
        return Report::kernel;
    }

    static std::string kind_of_row(Report report, std::string_view name, std::string_view category) {
        switch (report) {
            case Report::kernel:
                return "kernel";
            case Report::memory:
                return memory_kind(name);
            case Report::gpu:
                return has(category, "KERNEL") ? "kernel" : memory_kind(name);
            case Report::api:
                return "runtime";
            case Report::nvtx:
                return "annotation";
            case Report::other:
                return "runtime";
        }
        return "";
    }

    std::vector<const Table*> pick(std::initializer_list<Report> reports) const {
        std::vector<const Table*> out;
        for (const Table& t : tables_)
            for (Report r : reports)
                if (t.report == r) out.push_back(&t);
        return out;
    }

    std::string held() const {
        std::string list;
        for (const Table& t : tables_) list += (list.empty() ? "" : ", ") + t.id;
        return list;
    }

    std::vector<const Table*> choose() const {
        Lane lane = options_.lane;
        if (tables_.size() == 1 && (lane == Lane::automatic || lane == Lane::all)) return {&tables_.front()};
        if (lane == Lane::all) {
            throw Error("--lane", "all: the file holds several nsys reports (" + held() +
                                      ") and a summary cannot tell how they overlap; choose --lane gpu or --lane cpu");
        }
        if (lane == Lane::automatic)
            lane = pick({Report::gpu, Report::kernel, Report::memory}).empty() ? Lane::cpu : Lane::gpu;
        if (lane == Lane::gpu) {
            // cuda_gpu_sum already holds the kernels and memory operations of the two others.
            auto combined = pick({Report::gpu});
            if (!combined.empty()) return combined;
            auto device = pick({Report::kernel, Report::memory});
            if (device.empty()) {
                throw Error("--lane",
                            "gpu: the file holds no GPU report (cuda_gpu_kern_sum, cuda_gpu_mem_time_sum), "
                            "only " +
                                held());
            }
            return device;
        }
        // cpu: API calls; NVTX ranges enclose them, so those only when there are no API calls.
        for (Report r : {Report::api, Report::nvtx, Report::other}) {
            auto host = pick({r});
            if (!host.empty()) return host;
        }
        throw Error("--lane", "cpu: the file holds no host report (cuda_api_sum, nvtx_sum, osrt_sum), only " + held());
    }

    static std::string summed_text(const std::vector<const Table*>& chosen) {
        bool kernel = false, memory = false;
        for (const Table* t : chosen) {
            kernel = kernel || t->report == Report::kernel || t->report == Report::gpu;
            memory = memory || t->report == Report::memory || t->report == Report::gpu;
        }
        std::string what;
        if (kernel && memory)
            what = "kernel and memory-operation times";
        else if (kernel)
            what = "kernel times";
        else if (memory)
            what = "memory-operation times";
        else if (chosen.front()->report == Report::api)
            what = "CUDA API call times";
        else if (chosen.front()->report == Report::nvtx)
            what = "NVTX range times";
        else
            what = "OS runtime call times";
        return what + " in the nsys summary";
    }

    std::string_view content_;
    const std::string& source_;
    const ImportOptions& options_;
    std::vector<Table> tables_;
    std::vector<std::string> fields_header_;
    std::vector<std::string> skipped_;   // "osrt_sum (line 7: nsys skipped it, no data)"
    std::vector<std::size_t> unitless_;  // header lines whose time column says no unit (read as ns)
    std::size_t first_text_line_ = 0;
};

}  // namespace

Profile read_nsys_stats(std::string_view content, const std::string& source, const ImportOptions& options) {
    return NsysReader(content, source, options).read();
}

}  // namespace amdahl::detail
