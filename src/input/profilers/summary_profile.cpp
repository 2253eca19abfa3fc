#include "input/profilers/summary_profile.hpp"

#include <fmt/format.h>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/raw_profile.hpp"
#include "model/quoted_name.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

// The note on raw names that are on several rows (`repeated`, non-empty).
template <class Row>
std::string repeated_note(const std::string& source, const std::vector<const Row*>& repeated) {
    constexpr const char* why = "(a file that holds a report twice counts it twice)";
    // 'name', and the phase it went into when --rename or --group-by named it otherwise.
    const auto name = [](const Row& row) {
        return row.phase == row.raw_name ? quoted_name(row.raw_name)
                                         : quoted_name(row.raw_name) + " (phase " + quoted_name(row.phase) + ")";
    };
    const auto lines = [](const Row& row) {
        return row.rows == 2 ? fmt::format("lines {} and {}", row.first_line, row.second_line)
                             : fmt::format("lines {}, {}, ...", row.first_line, row.second_line);
    };
    if (repeated.size() == 1) {
        const Row& row = *repeated.front();
        return fmt::format("{}: {} is on {} rows ({}): their times are added into one phase {}", source, name(row),
                           format_count(row.rows), lines(row), why);
    }
    constexpr std::size_t shown = 5;
    std::string out = fmt::format(
        "{}: {} names are each on more than one row, their rows' times added into one phase each {}: ", source,
        format_count(repeated.size()), why);
    for (std::size_t k = 0; k < repeated.size() && k < shown; ++k) {
        const Row& row = *repeated[k];
        out += fmt::format("{}{} on {} rows ({})", k == 0 ? "" : ", ", name(row), format_count(row.rows), lines(row));
    }
    if (repeated.size() > shown) out += " and " + format_count(repeated.size() - shown) + " more";
    return out;
}

}  // namespace

SummaryBuilder::SummaryBuilder(const ImportOptions& options, std::string source, Unit unit)
    : options_(options), namer_(options), source_(std::move(source)), unit_(unit) {}

void SummaryBuilder::add(std::string_view raw_name, std::string_view category, std::string_view kind, double time,
                         std::size_t line, std::optional<std::uint64_t> calls) {
    ++rows_;
    std::string key(raw_name);
    key += '\0';
    key += category;
    key += '\0';
    key += kind;
    auto cached = name_cache_.find(key);
    if (cached == name_cache_.end())
        cached = name_cache_.emplace(key, Row{namer_(raw_name, category, kind), std::string(raw_name), line}).first;
    Row& row = cached->second;
    if (++row.rows == 2) {
        row.second_line = line;
        repeated_.push_back(&row);  // unordered_map keeps its values in place
    }
    const std::string& name = row.phase;
    auto [it, inserted] = index_.try_emplace(name, entries_.size());
    if (inserted) {
        entries_.push_back(Entry{name, std::string(kind), {}, line, calls});
    } else {
        Entry& entry = entries_[it->second];
        if (entry.kind != kind) entry.kind = "mixed";
        entry.calls = add_calls(
            entry.calls, calls, [&] { return source_ + ":" + std::to_string(line); }, name, "rows");
    }
    entries_[it->second].times.push_back(time);
}

Profile SummaryBuilder::finish(const std::string& format, const std::string& summed, std::vector<std::string> notes) {
    if (entries_.empty()) throw Error(source_, "no rows to import");
    RawProfile raw;
    raw.source = source_;
    raw.unit = unit_;
    raw.origin = Origin::line;
    Summation sum;
    for (auto& entry : entries_) {
        const double time = exact_sum(entry.times);
        sum.add(time);
        RawPhase phase;
        phase.name = std::move(entry.name);
        phase.kind = std::move(entry.kind);
        phase.time = RawTime{time, std::nullopt};
        phase.at = entry.line;
        phase.calls = entry.calls;
        raw.add(std::move(phase));
    }
    // Before --total: that is the measured end-to-end time, not a row's.
    refuse_total_as_phase(raw, TotalAdvice::summary);
    std::string boundary = "the sum of the " + summed + " (not a measured wall time: give --total for that)";
    if (options_.total) {
        const Quantity& total = *options_.total;
        if (total.percent || !total.unit) {
            throw Error("--total",
                        "give the measured end-to-end time with its unit, e.g. 250ms (the file's times are in " +
                            std::string(unit_name(unit_)) + ")");
        }
        if (!(total.value > 0)) throw Error("--total", "must be a time > 0");
        const double in_unit = convert(total.value, *total.unit, unit_);
        if (sum.value() > in_unit * (1 + 1e-9)) {
            throw Error("--total", "the " + summed + " add up to " + format_duration(sum.value(), unit_) +
                                       ", more than the end-to-end time " + format_duration(in_unit, unit_) +
                                       ": they overlapped (concurrent streams or threads), which a summary cannot "
                                       "show; import a trace instead");
        }
        raw.total = RawTime{total.value, total.unit};
        raw.total_where = "--total";
        boundary = "the end-to-end time given with --total (" + format_duration(in_unit, unit_) + "); the " + summed +
                   " cover " + format_duration(sum.value(), unit_) + " of it";
    }
    raw.notes = std::move(notes);
    if (!repeated_.empty()) raw.notes.push_back(repeated_note(source_, repeated_));
    raw.notes.insert(raw.notes.begin(), source_ + ": summary only (" + format +
                                            "): per-name totals carry no timing overlap information, "
                                            "so the rows are summed as if they ran one after another" +
                                            (options_.total ? std::string()
                                                            : "; give --total with the measured end-to-end time to "
                                                              "account for the rest"));
    raw.summary_only = true;
    raw.boundary = std::move(boundary);
    Profile profile = finish_profile(std::move(raw));
    profile.format = format;
    profile.class_members = namer_.class_members();
    return profile;
}

}  // namespace amdahl::detail
