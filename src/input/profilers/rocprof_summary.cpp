// rocprofv3 `--summary` (-S) text tables, written to the console or summary.txt:
//
//   ROCPROFV3 KERNEL_DISPATCH SUMMARY:
//
//   |  NAME  |  DOMAIN  |  CALLS  | DURATION (nsec) | AVERAGE (nsec) | PERCENT (INC) | ...
//   |--------|----------|---------|-----------------|----------------|---------------| ...
//   | kernel | KERNEL_DISPATCH |  8 |          184324 |      2.304e+04 |     40.681542 | ...
//
// One section per domain (--summary-per-domain), "ROCPROFV3 SUMMARY:" with every domain, and
// sections for --summary-groups. Every call is counted once per domain it belongs to, and the
// domains nest or run at once: a hipMemcpyAsync (HIP_API) makes hsa_amd_memory_async_copy_on_engine
// calls (HSA_API) and starts a MEMORY_COPY, so summing every row counts time twice or more.
// The lane picks which domains become phases (and a note names them):
//   gpu: KERNEL_DISPATCH and MEMORY_COPY (the device's work);
//   cpu: the API domains, HSA left out when HIP is there (HIP calls HSA), markers only when
//        there is no API domain (ROCTX ranges enclose API calls);
//   automatic: gpu when the file has device work, else cpu; all: only a file of one domain.
// Each domain's rows come from its own section, else from the combined one; --summary-groups
// sections (a regex's matches, also counted in their domains) are left out.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/readers.hpp"
#include "input/profilers/rocprof_domains.hpp"
#include "input/profilers/summary_profile.hpp"
#include "input/profilers/text_table.hpp"

namespace amdahl::detail {

namespace {

constexpr const char* expected_tables =
    "expected rocprofv3 --summary tables: 'ROCPROFV3 <DOMAIN> SUMMARY:' sections with a "
    "'| NAME | DOMAIN | CALLS | DURATION (nsec) | ...' header";

struct Row {
    std::string name;
    double time = 0;  // in the reader's unit
    std::size_t line = 0;
    std::optional<std::uint64_t> calls;  // the CALLS column
};

// A domain's rows, from its own section and from the combined one.
struct Domain {
    std::string name;
    std::vector<Row> own;
    std::vector<Row> combined;
    const std::vector<Row>& rows() const { return own.empty() ? combined : own; }
};

// Splits "| a | b | c |" into trimmed cells; the first cell (NAME) may itself hold '|'.
bool split_row(std::string_view line, std::size_t count, std::vector<std::string>& cells) {
    line = trim(line);
    if (line.starts_with('|')) line.remove_prefix(1);
    if (line.ends_with('|')) line.remove_suffix(1);
    cells.assign(count, std::string());
    std::size_t end = line.size();
    for (std::size_t c = count; c-- > 1;) {
        const auto bar = end == 0 ? std::string_view::npos : line.rfind('|', end - 1);
        if (bar == std::string_view::npos) return false;
        cells[c] = std::string(trim(line.substr(bar + 1, end - bar - 1)));
        end = bar;
    }
    cells[0] = std::string(trim(line.substr(0, end)));
    return true;
}

bool is_separator(std::string_view line) {
    line = trim(line);
    return line.starts_with("|-") || line.starts_with("| -") || line.starts_with("|:");
}

bool is_device_domain(const std::string& domain) {
    const std::string kind = rocprof_domain_kind(domain);
    return kind == "kernel" || kind == "copy";
}

std::string join(const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
        text += printable(names[i]);  // domain and group names come from the file
    }
    return text;
}

class SummaryTextReader {
public:
    SummaryTextReader(std::string_view content, const std::string& source, const ImportOptions& options)
        : content_(content), source_(source), options_(options) {}

    Profile read() {
        parse();
        if (header_lines_.empty())
            throw Error(source_ + ":" + std::to_string(first_text_line_ ? first_text_line_ : 1), expected_tables);
        std::size_t rows = 0;
        for (const Domain& d : domains_) rows += d.rows().size();
        if (rows == 0)
            throw Error(source_ + ":" + std::to_string(header_lines_.front()),
                        "the summary table has no rows after its header");

        const std::vector<const Domain*> chosen = choose();
        std::vector<std::string> used, left;
        for (const Domain& d : domains_) {
            (std::find(chosen.begin(), chosen.end(), &d) != chosen.end() ? used : left).push_back(d.name);
        }
        SummaryBuilder builder(options_, source_, unit_);
        for (const Domain* d : chosen) {
            const std::string kind = rocprof_domain_kind(d->name);
            for (const Row& row : d->rows()) builder.add(row.name, kind, kind, row.time, row.line, row.calls);
        }
        std::vector<std::string> notes;
        notes.push_back(source_ + ": phases from the " + join(used) + " domain" + (used.size() > 1 ? "s" : "") + " (" +
                        lane_words_ + ")" + (left.empty() ? "" : "; left out: " + join(left)) +
                        (left.empty() ? "" : " (choose with --lane gpu or --lane cpu)"));
        for (const std::size_t line : unitless_) {
            notes.push_back(source_ + ":" + std::to_string(line) +
                            ": the time column does not say its unit: read as ns, rocprof's default (give --timeunit "
                            "if it was another)");
        }
        if (!skipped_groups_.empty()) {
            notes.push_back(source_ + ": left out the --summary-groups section" +
                            (skipped_groups_.size() > 1 ? "s " : " ") + join(skipped_groups_) +
                            " (their rows are counted in their domains)");
        }
        return builder.finish("rocprof-summary", join(used) + " times in the rocprof summary", std::move(notes));
    }

private:
    void parse() {
        LineReader lines(content_);
        std::string_view line;
        std::vector<std::string> header, cells;
        std::string title;
        bool titled = false;  // a section title came before the current table
        bool in_table = false;
        std::size_t header_line = 0, name_column = 0, domain_column = 0, time_column = 0;
        std::optional<std::size_t> calls_column;
        Unit table_unit = Unit::ns;
        std::vector<std::pair<std::string, Row>> section_rows;  // (domain, row)

        const auto close_section = [&] {
            if (section_rows.empty()) return;
            // A domain's own section holds only that domain; "ROCPROFV3 SUMMARY:" (no title)
            // holds them all; any other title is a --summary-groups section.
            bool own = titled && !title.empty();
            for (const auto& [domain, row] : section_rows) own = own && domain == title;
            if (titled && !title.empty() && !own) {
                skipped_groups_.push_back(title);
            } else {
                for (auto& [domain, row] : section_rows) {
                    Domain& d = domain_named(domain);
                    (own ? d.own : d.combined).push_back(std::move(row));
                }
            }
            section_rows.clear();
        };

        while (lines.next(line)) {
            const std::string_view text = trim(line);
            if (text.empty()) {
                in_table = false;
                continue;
            }
            if (first_text_line_ == 0) first_text_line_ = lines.number();
            if (text.starts_with("ROCPROFV3") && text.find("SUMMARY") != std::string_view::npos) {
                close_section();
                const auto words = text.substr(9, text.find("SUMMARY") - 9);
                title = std::string(trim(words));
                titled = true;
                in_table = false;
                continue;
            }
            if (!text.starts_with('|')) {
                in_table = false;  // console output between tables
                continue;
            }
            const std::string where = source_ + ":" + std::to_string(lines.number());
            if (!in_table) {
                // A table's header: | NAME | DOMAIN | CALLS | DURATION (nsec) | ...
                std::vector<std::string> found;
                std::string_view rest = text.substr(1);
                while (!rest.empty()) {
                    const auto bar = rest.find('|');
                    found.emplace_back(trim(rest.substr(0, bar)));
                    if (bar == std::string_view::npos) break;
                    rest.remove_prefix(bar + 1);
                }
                if (!found.empty() && found.back().empty()) found.pop_back();
                const auto name = find_column(found, "NAME");
                const auto domain = find_column(found, "DOMAIN");
                const auto time = find_column_prefix(found, "DURATION");
                if (!name || !domain || !time || *name != 0) continue;  // not a summary table
                header = std::move(found);
                header_line = lines.number();
                header_lines_.push_back(header_line);
                name_column = *name;
                domain_column = *domain;
                time_column = *time;
                calls_column = find_column(header, "CALLS");
                const auto unit = time_column_unit(unit_in_parentheses(header[time_column]), options_.timeunit,
                                                   header[time_column], source_ + ":" + std::to_string(header_line));
                if (!unit) unitless_.push_back(header_line);
                table_unit = unit.value_or(Unit::ns);
                if (header_lines_.size() == 1) unit_ = table_unit;
                in_table = true;
                continue;
            }
            if (is_separator(text)) continue;
            if (!split_row(text, header.size(), cells)) {
                const auto got = static_cast<std::size_t>(std::count(text.begin(), text.end(), '|')) - 1;
                throw Error(where, "expected " + std::to_string(header.size()) + " columns as in the header on line " +
                                       std::to_string(header_line) + ", got " + std::to_string(got));
            }
            Row row;
            row.name = cells[name_column];
            row.time = convert(parse_duration_cell(cells[time_column], where, header[time_column]), table_unit, unit_);
            row.line = lines.number();
            if (calls_column) row.calls = parse_calls_cell(cells[*calls_column], where, header[*calls_column]);
            section_rows.emplace_back(cells[domain_column], std::move(row));
        }
        close_section();
    }

    Domain& domain_named(const std::string& name) {
        for (Domain& d : domains_)
            if (d.name == name) return d;
        domains_.push_back(Domain{name, {}, {}});
        return domains_.back();
    }

    std::vector<const Domain*> choose() {
        std::vector<const Domain*> device, api, markers, present;
        bool hip = false;
        for (const Domain& d : domains_) {
            if (d.rows().empty()) continue;
            present.push_back(&d);
            const std::string kind = rocprof_domain_kind(d.name);
            if (is_device_domain(d.name))
                device.push_back(&d);
            else if (kind == "runtime")
                api.push_back(&d);
            else if (kind == "annotation")
                markers.push_back(&d);
            hip = hip || d.name.starts_with("HIP");
        }
        Lane lane = options_.lane;
        if (lane == Lane::all) {
            if (present.size() == 1) {
                lane_words_ = "--lane all";
                return present;
            }
            throw Error("--lane",
                        "all: the rocprof summary's domains nest and overlap (HIP calls make HSA calls and "
                        "start copies and kernels), so their rows cannot be added up; choose --lane gpu or --lane cpu");
        }
        if (lane == Lane::automatic) lane = device.empty() ? Lane::cpu : Lane::gpu;
        if (lane == Lane::gpu) {
            lane_words_ = "--lane gpu";
            if (device.empty()) {
                throw Error("--lane", "gpu: the rocprof summary has no KERNEL_DISPATCH or MEMORY_COPY section");
            }
            return device;
        }
        lane_words_ = hip ? "--lane cpu; HSA calls are made inside HIP calls" : "--lane cpu";
        std::vector<const Domain*> host;
        for (const Domain* d : api)
            if (!(hip && d->name.starts_with("HSA"))) host.push_back(d);
        if (host.empty()) host = markers;
        if (host.empty()) throw Error("--lane", "cpu: the rocprof summary has no API or marker section");
        return host;
    }

    std::string_view content_;
    const std::string& source_;
    const ImportOptions& options_;
    std::vector<Domain> domains_;
    std::vector<std::size_t> header_lines_;
    std::vector<std::size_t> unitless_;  // header lines whose time column says no unit (read as ns)
    std::vector<std::string> skipped_groups_;
    std::size_t first_text_line_ = 0;
    Unit unit_ = Unit::ns;
    std::string lane_words_;
};

}  // namespace

Profile read_rocprof_summary(std::string_view content, const std::string& source, const ImportOptions& options) {
    return SummaryTextReader(content, source, options).read();
}

}  // namespace amdahl::detail
