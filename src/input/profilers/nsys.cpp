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
    for (const auto& [name, report] : known) {
        if (has(line, name)) {
            id = name;
            return report;
        }
    }
    return std::nullopt;
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
        while (lines.next(line)) {
            if (is_blank(line)) {
                table = nullptr;
                continue;
            }
            if (first_text_line_ == 0) first_text_line_ = lines.number();
            const std::string where = source_ + ":" + std::to_string(lines.number());
            if (table) {
                if (!split_csv(line, fields)) throw Error(where, "a quoted field is not closed on its line");
                if (fields.size() != columns) {
                    throw Error(where, "expected " + std::to_string(columns) + " fields as in the header on line " +
                                           std::to_string(table->header_line) + ", got " +
                                           std::to_string(fields.size()));
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
            if (split_csv(line, fields) && is_header(fields, name_column, time_column)) {
                Table t;
                t.header_line = lines.number();
                category_column = find_column(fields, "Category");
                calls_column.reset();
                for (const char* calls : {"Instances", "Num Calls", "Count", "Operations", "Calls"})
                    if (!calls_column) calls_column = find_column(fields, calls);
                t.report = classify(fields, name_column, category_column.has_value());
                if (hinted && (hint == Report::other || t.report == Report::kernel)) t.report = hint;
                t.id = hinted && hint == t.report ? hint_id : "the " + describe(t.report);
                const auto unit = unit_in_parentheses(fields[time_column]);
                t.unit = unit ? *unit : options_.timeunit.value_or(Unit::ns);
                columns = fields.size();
                fields_header_ = fields;
                tables_.push_back(std::move(t));
                table = &tables_.back();
                hinted = false;
                continue;
            }
            if (auto found = report_hint(line, hint_id)) {
                hinted = true;
                hint = *found;
            }
        }
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
    std::size_t first_text_line_ = 0;
};

}  // namespace

Profile read_nsys_stats(std::string_view content, const std::string& source, const ImportOptions& options) {
    return NsysReader(content, source, options).read();
}

}  // namespace amdahl::detail
