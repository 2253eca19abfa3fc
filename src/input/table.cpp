// Readers for tabular profiles: CSV/TSV (RFC 4180), Markdown pipe tables and plain-text tables
// pasted from a web page. All three end in the same column mapping (TableReader).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/csv_records.hpp"
#include "input/raw_profile.hpp"
#include "input/table_columns.hpp"
#include "model/side_by_side.hpp"
#include "model/text.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

bool is_share_header(const std::string& h) {
    return contains(h, "share") || contains(h, "percent") || contains(h, "%") || contains(h, "pct") ||
           contains(h, "fraction");
}

// Views, not C strings: a comparison looks at the sizes first, and a fuzzed header has thousands
// of columns.
bool is_kind_header(std::string_view h) {
    static constexpr std::string_view kinds[] = {"kind", "category", "cat", "type", "domain"};
    return std::find(std::begin(kinds), std::end(kinds), h) != std::end(kinds);
}

bool is_name_header(std::string_view h) {
    static constexpr std::string_view names[] = {
        "name",   "phase", "stage",   "component", "activity", "device activity", "kernel",     "operation",  "op",
        "region", "step",  "section", "function",  "task",     "label",           "phase name", "kernel name"};
    return std::find(std::begin(names), std::end(names), h) != std::end(names);
}

// A time cell: plain decimal numbers (nearly every cell) skip the general parser.
template <class At, class Label>
RawTime read_time_cell(std::string_view text, At&& at, Label&& label, const std::string& what = "time",
                       bool uncertain = false) {
    double value = 0;
    if (parse_double(trim(text), value) && value >= 0) return RawTime{value, std::nullopt};
    // A phase's time may be a run-to-run range ("19..23 ms") or spread ("21 ms ± 1.5").
    return uncertain ? parse_uncertain_time_text(text, at(), label() + what)
                     : parse_time_text(text, at(), label() + what);
}

struct Row {
    std::vector<std::string> cells;
    std::size_t line = 0;
};

// Where a phase's time comes from.
enum class TimeSource : std::uint8_t {
    column,           // a duration column
    end_minus_start,  // end and start time stamps
    average_x_calls,  // a per-call average times the number of calls
    per_call,         // a per-call average alone: one call, said in a note
    share_only,       // no time column: shares of a total
};

// A row of a table with time stamps: when it ran, in the profile's bare unit.
struct Interval {
    double start = 0, end = 0;
    std::size_t phase = 0;  // index of its phase in the reader's rows
    std::size_t line = 0;
};

// Maps a table's columns to phase fields and turns rows into raw phases.
class TableReader {
public:
    TableReader(std::string source, const std::vector<std::string>& header, std::size_t header_line)
        : source_(std::move(source)), header_(header), header_line_(header_line) {
        columns_ = header.size();
        std::vector<std::size_t> statistics, spreads;
        std::vector<ColumnRole> roles(header.size(), ColumnRole::other);
        for (std::size_t i = 0; i < header.size(); ++i) {
            const std::string h = lower(header[i]);
            const HeaderWords words(header[i]);
            if (!unit_ && is_unit_header(words)) {
                unit_ = i;
            } else if (!segment_ && h == "segment") {
                segment_ = i;
            } else if (h == "rank") {
                // amdahl rank's own report (--format csv) read back: its "rank" is a place in the
                // ranking, and its rows are targets with speedups, not a profile.
                const bool ranking = std::any_of(header.begin(), header.end(), [](const std::string& column) {
                    const std::string c = lower(column);
                    return c == "speedup" || c == "ceiling" || c.starts_with("saved");
                });
                if (ranking)
                    throw Error(source_ + ":" + std::to_string(header_line),
                                "this is a ranking (columns '" + printable(header[i]) +
                                    "' and speedup or ceiling), such as amdahl rank --format csv writes, not a "
                                    "profile: give rank the profile it ranked");
                // Rows of several ranks read as one profile would sum the ranks' times into each
                // phase: a silent wrong answer. Each rank is a profile of its own (--ranks).
                throw Error(source_ + ":" + std::to_string(header_line),
                            "column '" + printable(header[i]) +
                                "' gives each row's rank: read as one profile, the ranks' times would add up; "
                                "give the file to --ranks (eval --ranks FILE), which reads each rank's rows as its "
                                "profile");
            } else if (!time_sd_ && is_time_sd_header(words, time_sd_unit_)) {
                time_sd_ = i;  // a run-to-run standard deviation of the time, never a profiler's per-call one
            } else if (!name_ && (is_name_header(h) || is_name_header(words.key()))) {
                name_ = i;
            } else if (!kind_ && is_kind_header(h)) {
                kind_ = i;
            } else if (!share_ && is_share_header(h)) {
                share_ = i;
                share_percent_ = contains(h, "%") || contains(h, "percent") || contains(h, "pct");
                share_fraction_ = contains(h, "fraction");
            } else if (is_share_header(h)) {
                // A second share ("CPU total %" after "Self CPU %") is no time either.
            } else {
                std::optional<std::size_t>* slot = nullptr;
                roles[i] = column_role(words);
                switch (roles[i]) {
                    case ColumnRole::duration:
                        slot = time_ ? &other_time_ : &time_;
                        break;
                    case ColumnRole::self:
                        slot = self_ ? &other_self_ : &self_;
                        break;
                    case ColumnRole::unit_only:
                        slot = unit_only_ ? &other_unit_only_ : &unit_only_;
                        break;
                    case ColumnRole::per_call:
                        slot = &average_;
                        break;
                    case ColumnRole::statistic:
                        statistics.push_back(i);
                        if (is_spread_header(words)) spreads.push_back(i);
                        break;
                    case ColumnRole::start:
                        slot = &start_;
                        break;
                    case ColumnRole::end:
                        slot = &end_;
                        break;
                    case ColumnRole::calls:
                        slot = &calls_;
                        break;
                    case ColumnRole::other:
                        break;
                }
                if (slot && !*slot) *slot = i;
            }
        }
        const std::string at = source_ + ":" + std::to_string(header_line);
        if (!name_) {
            for (std::size_t i = 0; i < header.size(); ++i) {
                if (roles[i] == ColumnRole::other && i != share_ && i != kind_ && i != unit_ && i != segment_) {
                    name_ = i;
                    break;
                }
            }
        }
        raw_.source = source_;
        raw_.origin = Origin::line;
        if (self_)
            take_self_time(header, at);
        else if (time_)
            say_inclusive_time(header[*time_], at);
        // The phase time: a duration column; else end - start; else a column only a unit calls
        // a time ("DispatchNs" may be a time stamp); else average x calls; else an average alone,
        // said to be one call. Never a time stamp, never a minimum or a maximum.
        if (!time_ && unit_only_ && !(start_ && end_)) {
            time_ = unit_only_;
            other_time_ = other_unit_only_;
        }
        if (time_) {
            source_kind_ = TimeSource::column;
        } else if (start_ && end_) {
            source_kind_ = TimeSource::end_minus_start;
        } else if (average_) {
            source_kind_ = calls_ ? TimeSource::average_x_calls : TimeSource::per_call;
        } else if (share_) {
            source_kind_ = TimeSource::share_only;
        } else if (start_ || end_) {
            const bool start = start_.has_value();
            throw Error(at, "column '" + printable(header[start ? *start_ : *end_]) + "' holds " +
                                (start ? "start" : "end") + " times, not durations, and there is no duration or " +
                                (start ? "end" : "start") + " column");
        } else if (!statistics.empty()) {
            std::string list;
            for (std::size_t i : statistics) list += (list.empty() ? "'" : ", '") + printable(trim(header[i])) + "'";
            throw Error(at, "column" + std::string(statistics.size() > 1 ? "s " : " ") + list +
                                (statistics.size() > 1 ? " are" : " is") +
                                " per-call statistics (min, max, spread), not durations; give a total column, or an "
                                "average and a calls column");
        } else {
            throw Error(at,
                        "no time column in the header (expected a header such as time, time_ms, "
                        "'Time (ms)' or 'duration (ns)'; found " +
                            quote_all(header) + ")");
        }
        if (!name_)
            throw Error(
                at, "no name column in the header (expected name, phase or stage; found " + quote_all(header) + ")");
        const auto named = [&](std::size_t i) { return "column '" + printable(header[i]) + "'"; };
        switch (source_kind_) {
            case TimeSource::column:
                time_unit_ = checked_unit(*time_, at);
                if (start_ || end_)
                    raw_.notes.push_back(at + ": " + named(start_ ? *start_ : *end_) + " holds " +
                                         (start_ ? "start" : "end") + " times, not durations; the phase time is " +
                                         named(*time_));
                break;
            case TimeSource::end_minus_start:
                start_unit_ = checked_unit(*start_, at);
                end_unit_ = checked_unit(*end_, at);
                time_unit_ = start_unit_ ? start_unit_ : end_unit_;
                raw_.notes.push_back(at + ": the phase time is " + named(*end_) + " minus " + named(*start_));
                // Profilers write time stamps in ns, people in ms: neither is safe to assume unsaid.
                if (!time_unit_ && !unit_)
                    raw_.notes.push_back(at + ": " + named(*start_) + " and " + named(*end_) +
                                         " name no unit: the times are read as ms (profilers' time stamps are "
                                         "often ns); name the unit in the header, e.g. 'start (ns)'");
                break;
            case TimeSource::average_x_calls:
                time_unit_ = checked_unit(*average_, at);
                raw_.notes.push_back(at + ": the phase time is " + named(*average_) + " x " + named(*calls_) +
                                     " (no total column)");
                break;
            case TimeSource::per_call:
                time_unit_ = checked_unit(*average_, at);
                raw_.notes.push_back(at + ": " + named(*average_) +
                                     " holds per-call averages and there is no calls or total column: each phase's "
                                     "time is one call, not its total, and the sum is not a run's time");
                break;
            case TimeSource::share_only:
                break;
        }
        if (start_ && source_kind_ != TimeSource::end_minus_start) start_unit_ = checked_unit(*start_, at);
        // Two time columns: which is each phase's duration is not the reader's to guess ('time'
        // beside 'duration' may be a time stamp; 'cpu_ms' beside 'gpu_ms' are two timelines).
        if (other_time_) {
            const std::string_view first = column_timeline(HeaderWords(header[*time_])),
                                   second = column_timeline(HeaderWords(header[*other_time_]));
            const std::string both =
                "columns '" + printable(header[*time_]) + "' and '" + printable(header[*other_time_]) + "'";
            if (!first.empty() && !second.empty() && first != second)
                throw Error(at, both + " are times on two timelines (the " + std::string(first) + "'s and the " +
                                    std::string(second) +
                                    "'s): keep the column of the one to analyse and remove the other");
            throw Error(at, both +
                                " both look like times, and which is each phase's duration cannot be told (a "
                                "'time' may be a time stamp): keep that column and remove the other");
        }
        if (time_unit_) raw_.unit = time_unit_;
        if (source_kind_ != TimeSource::share_only) {
            for (std::size_t i : spreads)
                raw_.notes.push_back(at + ": " + named(i) +
                                     " is a spread, not a time, and is not read: amdahl takes a run-to-run spread of "
                                     "the time only from a column named time_sd");
        }
    }

    void add_row(const std::vector<std::string>& cells, std::size_t line) {
        add_row(std::vector<std::string_view>(cells.begin(), cells.end()), line);
    }

    void add_row(const std::vector<std::string_view>& cells, std::size_t line) {
        // Built only for a message: most rows never need it.
        const auto at = [&] { return source_ + ":" + std::to_string(line); };
        if (cells.size() != columns_) {
            throw Error(at(), "row has " + std::to_string(cells.size()) + " fields, the header has " +
                                  std::to_string(columns_));
        }
        RawPhase phase;
        phase.at = line;
        phase.name = std::string(trim(cells[*name_]));
        if (phase.name.empty()) throw Error(at(), "phase has an empty name");
        // A "Total" row, wherever it is, is the total: a check on the phases, not a phase.
        const bool total_row = is_total_row_name(phase.name);
        if (total_row && total_row_) throw second_total(phase.name, line, total_row_->line);
        const auto label = [&] { return "phase '" + printable(phase.name) + "': "; };
        const auto filled = [&](const std::optional<std::size_t>& column) {
            return column && !trim(cells[*column]).empty();
        };
        if (kind_) phase.kind = std::string(trim(cells[*kind_]));
        if (segment_) phase.segment = std::string(trim(cells[*segment_]));
        if (filled(calls_)) phase.calls = read_calls(cells[*calls_], at, label);
        std::optional<RawTime> start;
        if (filled(start_)) start = with_unit(read_time_cell(cells[*start_], at, label, "start"), start_unit_);
        switch (source_kind_) {
            case TimeSource::column:
                if (filled(time_)) phase.time = read_time_cell(cells[*time_], at, label, "time", true);
                break;
            case TimeSource::per_call:
            case TimeSource::average_x_calls:
                if (filled(average_)) phase.time = read_time_cell(cells[*average_], at, label);
                if (phase.time && source_kind_ == TimeSource::average_x_calls) {
                    if (!phase.calls)
                        throw Error(at(), label() + "no calls to multiply the average '" +
                                              printable(header_[*average_]) + "' by");
                    phase.time->value *= static_cast<double>(*phase.calls);
                }
                break;
            case TimeSource::end_minus_start:
                if (start && filled(end_)) {
                    const RawTime end = with_unit(read_time_cell(cells[*end_], at, label, "end"), end_unit_);
                    const Unit unit = start->unit.value_or(end.unit.value_or(bare_unit()));
                    const double end_value = convert(end.value, end.unit.value_or(unit), unit);
                    if (end_value < start->value)
                        throw Error(at(), label() + "end " + printable(trim(cells[*end_])) + " is before start " +
                                              printable(trim(cells[*start_])));
                    phase.time = RawTime{end_value - start->value, start->unit ? start->unit : end.unit};
                }
                break;
            case TimeSource::share_only:
                break;
        }
        if (phase.time) {
            std::optional<RawTime> sd;
            if (filled(time_sd_)) sd = with_unit(read_time_cell(cells[*time_sd_], at, label, "time_sd"), time_sd_unit_);
            // "10 ms" beside a bare time_sd "500": the spread's unit is not the reader's to guess.
            if (phase.time->unit && sd && !sd->unit) throw Error(at(), label() + time_sd_without_unit);
            if (!phase.time->unit && unit_ && !trim(cells[*unit_]).empty()) {
                // A "unit" column gives the unit of the row's bare time.
                phase.time->unit = parse_unit(cells[*unit_]);
                if (!phase.time->unit)
                    throw Error(at(), label() + "unknown unit '" + printable(trim(cells[*unit_])) +
                                          "' (expected ns, us, ms, s, min or h)");
            }
            if (!phase.time->unit) phase.time->unit = time_unit_;
            if (sd) add_time_sd(*phase.time, *sd, at() + ": " + label());
            if (start && !total_row) {
                const Unit unit = bare_unit();
                const double begin = convert(start->value, start->unit.value_or(unit), unit);
                intervals_.push_back(Interval{begin,
                                              begin + convert(phase.time->value, phase.time->unit.value_or(unit), unit),
                                              raw_.phases.size(), line});
            }
        }
        if (share_ && !trim(cells[*share_]).empty()) {
            Quantity q;
            try {
                q = parse_quantity(cells[*share_]);
            } catch (const Error&) {
                throw Error(at(), label() + "share must be a fraction or a percentage (got '" +
                                      printable(cells[*share_]) + "')");
            }
            // A shares-only table's Total row may give the total as a time ("Total,200 ms"): the
            // time the shares are of, as --total gives it.
            const bool total_time = total_row && q.unit && source_kind_ == TimeSource::share_only;
            if (total_time) {
                phase.time = RawTime{q.value, q.unit};
            } else if (q.unit || q.value < 0) {
                throw Error(at(), label() + "share must be a fraction or a percentage (got '" +
                                      printable(cells[*share_]) + "')");
            }
            if (!total_time) phase.share = q.percent ? q.value / 100 : q.value;
            // A total row is no phase: its index would point past the phases (found by fuzz_text).
            if (!q.percent && !total_row) bare_shares_.push_back(raw_.phases.size());
            if (!q.percent && !total_time && q.value > 1 && !bare_share_above_one_)
                bare_share_above_one_ = BareShare{line, std::string(trim(cells[*share_]))};
        }
        if (!phase.time && !phase.share) throw Error(at(), label() + "no time");
        if (total_row) {
            total_row_ = TotalRow{phase.time, line, std::move(phase.name)};
            return;
        }
        raw_.add(std::move(phase));
    }

    /// Room for `rows` phases: an upper bound such as the number of lines left is fine.
    void reserve(std::size_t rows) { raw_.reserve(rows); }

    /// A reader of the same columns without rows, for a part of the file read on another thread.
    TableReader empty_copy() const {
        TableReader copy = *this;
        copy.clear_rows();
        return copy;
    }
    void clear_rows() {
        raw_.phases.clear();
        raw_.extra.clear();
        bare_shares_.clear();
        intervals_.clear();
        bare_share_above_one_.reset();
        total_row_.reset();
    }

    /// Takes the rows `part` read from the part of the file that follows this reader's.
    void append(TableReader&& part) {
        for (std::size_t i : part.bare_shares_) bare_shares_.push_back(raw_.phases.size() + i);
        for (Interval interval : part.intervals_) {
            interval.phase += raw_.phases.size();
            intervals_.push_back(interval);
        }
        if (!bare_share_above_one_) bare_share_above_one_ = part.bare_share_above_one_;
        if (part.total_row_ && total_row_)
            throw second_total(part.total_row_->name, part.total_row_->line, total_row_->line);
        if (part.total_row_) total_row_ = part.total_row_;
        std::move(part.raw_.phases.begin(), part.raw_.phases.end(), std::back_inserter(raw_.phases));
        std::move(part.raw_.extra.begin(), part.raw_.extra.end(), std::back_inserter(raw_.extra));
        part.clear_rows();
    }

    /// The header of the column read as each phase's time ("" when there is none).
    std::string time_label() const { return time_ ? header_[*time_] : std::string(); }

    RawProfile finish() {
        // Bare numbers in a share column are percentages when the header says so or when any
        // exceeds 1; fractions otherwise. When only the numbers decided, a note says how, as one
        // more row can change the reading of all the others.
        const bool percent = share_percent_ || (!share_fraction_ && bare_share_above_one_);
        for (std::size_t i : bare_shares_) {
            if (percent) *raw_.extra[i].share /= 100;
        }
        if (!share_percent_ && !share_fraction_ && !bare_shares_.empty() && source_kind_ == TimeSource::share_only)
            say_share_scale();
        for (std::size_t i = 0; i < raw_.phases.size(); ++i) {
            if (raw_.extra[i].share && *raw_.extra[i].share > 1.005)
                throw Error(raw_.where(i), "phase '" + printable(raw_.phases[i].name) + "': share is above 100%");
        }
        take_total_row();
        // Rows with time stamps are events: a name on several rows is one phase, its rows added
        // up, and how the rows sit in time is said.
        if (start_ || end_) {
            add_up_repeated_names();
            say_how_rows_sit_in_time();
        }
        return std::move(raw_);
    }

private:
    // A row named "Total" (or "End-to-end ..."), kept out of the phases.
    struct TotalRow {
        std::optional<RawTime> time;
        std::size_t line = 0;
        std::string name;
    };

    Error second_total(const std::string& name, std::size_t line, std::size_t first_line) const {
        return Error(source_ + ":" + std::to_string(std::max(line, first_line)),
                     "a second total row '" + printable(name) + "' (the first is on line " +
                         std::to_string(std::min(line, first_line)) + ")");
    }

    // The total: a "Total" row anywhere; else a last row whose time is the sum of the rows before
    // it, whatever its name ("Grand total", "Wall clock"), but for a row with a kind or a name used
    // before, said in a note (issue 16). A name that
    // sounds like a total is its sum to rounding; any other to the precision it was written.
    void take_total_row() {
        if (total_row_) {
            raw_.total_where = amdahl::where(source_, Origin::line, total_row_->line, total_row_->name);
            if (total_row_->time) raw_.total = total_row_->time;
            raw_.total_reason = "row '" + printable(total_row_->name) +
                                "' is read as the total by its name; rename it if it is a phase";
            if (!raw_.phases.empty() && total_row_->line < raw_.phases.back().at)
                raw_.notes.push_back(source_ + ":" + std::to_string(total_row_->line) + ": row '" +
                                     printable(total_row_->name) +
                                     "' is read as the total, not a phase, though it is not the last row");
            return;
        }
        if (raw_.phases.empty()) return;
        const std::size_t last = raw_.phases.size() - 1;
        const bool sounds_like_total = sounds_like_total_row_name(raw_.phases[last].name);
        // A row with a kind, or the name of a row before it, is work: a total has neither.
        const auto is_work = [&] {
            const Phase& phase = raw_.phases[last];
            return !phase.kind.empty() || std::any_of(raw_.phases.begin(), raw_.phases.end() - 1,
                                                      [&](const Phase& p) { return p.name == phase.name; });
        };
        if ((sounds_like_total || !is_work()) &&
            is_sum_of_the_others(raw_, last, sounds_like_total ? SumPrecision::rounded : SumPrecision::written)) {
            raw_.total_where = raw_.where(last);
            if (!intervals_.empty() && intervals_.back().phase == last) intervals_.pop_back();
            raw_.notes.push_back(raw_.where(last) + ": row '" + printable(raw_.phases[last].name) +
                                 "' is read as the total: its time is the sum of the rows before it (name it 'Total' "
                                 "to say so; if it is a phase, add a row 'Total' after it)");
            raw_.total_reason = "row '" + printable(raw_.phases[last].name) +
                                "' is read as the total: its time is the sum of the rows before it";
            RawPhase total = raw_.pop_back();
            raw_.total = total.time;
            raw_.total_by_sum = std::move(total.name);
            return;
        }
        if (!sounds_like_total || raw_.phases.size() < 3 || !raw_.extra[last].has_time) return;
        Summation others;
        for (std::size_t i = 0; i < last; ++i) {
            if (!raw_.extra[i].has_time) return;
            others.add(raw_.time_in_profile_unit(i));
        }
        if (raw_.time_in_profile_unit(last) > others.value()) {
            raw_.notes.push_back(raw_.where(last) + ": row '" + printable(raw_.phases[last].name) +
                                 "' is read as a phase: it is not the sum of the rows before it, and only a row "
                                 "named 'Total' or 'End-to-end ...' is a total whatever its time; rename it 'Total' "
                                 "if it is one");
        }
    }

    // How bare shares were read when the header gave no scale (a table of shares alone: beside
    // times, each share is checked against its time).
    void say_share_scale() {
        const std::string how = bare_share_above_one_
                                    ? "percentages, as " + printable(bare_share_above_one_->text) + " (line " +
                                          std::to_string(bare_share_above_one_->line) + ") is above 1"
                                    : std::string("fractions of the total, as none is above 1");
        raw_.notes.push_back(source_ + ":" + std::to_string(header_line_) + ": column '" + printable(header_[*share_]) +
                             "' says neither % nor fraction: its numbers are read as " + how +
                             " (name it 'share (%)' or 'share (fraction)', or write % after each, to say which)");
    }

    // PyTorch's "CPU total" or "CUDA total" without a self-time column beside it: an op's time
    // includes the ops it calls, so their sum counts nested ops twice. Said, as the sum may be
    // more than the run.
    void say_inclusive_time(const std::string& label, const std::string& at) {
        const HeaderWords cell(label);
        const std::vector<std::string_view>& words = cell.words();
        if (words.size() < 2 || words[1] != "total" || column_timeline(HeaderWords(words[0])).empty()) return;
        raw_.notes.push_back(at + ": column '" + printable(label) +
                             "' holds inclusive times (an op's time includes the ops it calls), so nested ops count "
                             "twice in the sum; a self-time column ('Self " +
                             std::string(words[0] == "cpu" ? "CPU" : "CUDA") + "') would give exclusive times");
    }

    // A self (exclusive) time column is the phase time: an inclusive one ("CPU total") holds a
    // nested op's time in its caller's too, and the sum counts it twice. Self times on two
    // timelines (PyTorch's "Self CPU" and "Self CUDA") are two different profiles: refused.
    void take_self_time(const std::vector<std::string>& header, const std::string& at) {
        if (other_self_) {
            const std::string_view first = column_timeline(HeaderWords(header[*self_])),
                                   second = column_timeline(HeaderWords(header[*other_self_]));
            if (!first.empty() && !second.empty() && first != second)
                throw Error(at, "columns '" + printable(header[*self_]) + "' and '" + printable(header[*other_self_]) +
                                    "' are self times on two timelines (the " + std::string(first) + "'s and the " +
                                    std::string(second) +
                                    "'s): keep the columns of the one to analyse and remove the other's");
        }
        if (time_)
            raw_.notes.push_back(at + ": column '" + printable(header[*self_]) +
                                 "' (self time) is read as the phase time, not '" + printable(header[*time_]) +
                                 "' (inclusive: a nested op's time is in its caller's too, so their sum counts it "
                                 "twice)");
        time_ = self_;
        other_time_ = other_self_;
    }

    // The header's columns for a message: the first 20, then how many more (a file that is no
    // table, read as CSV, can have thousands of "columns" in its first line).
    static std::string quote_all(const std::vector<std::string>& header) {
        constexpr std::size_t shown = 20;
        std::string out;
        for (std::size_t i = 0; i < std::min(header.size(), shown); ++i)
            out += (i == 0 ? "'" : ", '") + printable(trim(header[i])) + "'";
        if (header.size() > shown) out += " and " + std::to_string(header.size() - shown) + " more";
        return out;
    }

    // The unit a column's header names. "(avg)", "(total)", "(gpu)" qualify a column; anything
    // else in brackets was meant as its unit ("(ps)", "(cycles)"), and must not silently become ms.
    std::optional<Unit> checked_unit(std::size_t column, const std::string& at) const {
        const std::string& header = header_[column];
        // The header as written: "TotalDurationNs" tells its unit by its capital letters.
        const HeaderUnits units = header_units(header);
        if (units.conflict)
            throw Error(at, "column '" + printable(header) + "': its words name two units, " +
                                std::string(unit_name(units.conflict->first)) + " and " +
                                std::string(unit_name(units.conflict->second)) +
                                ": which one its numbers are in cannot be told; name one");
        const auto unit = units.unit;
        const std::string named = lower(bracketed_text(header));
        static const char* const qualifiers[] = {"avg", "average", "mean",   "median", "total", "sum",  "max",
                                                 "p50", "p90",     "p95",    "p99",    "self",  "wall", "cpu",
                                                 "gpu", "host",    "device", "incl",   "excl"};
        const bool qualifier =
            std::any_of(std::begin(qualifiers), std::end(qualifiers), [&](const char* q) { return named == q; });
        if (!unit && !named.empty() && !qualifier)
            throw Error(at, "column '" + printable(header) + "': '" + printable(named) +
                                "' is not a time unit amdahl knows (ns, us, ms, s, min or h); convert the column, or "
                                "name its unit");
        return unit;
    }

    // Bare numbers are in the header's unit, else the profile's (ms unless declared).
    static RawTime with_unit(RawTime time, std::optional<Unit> header) {
        if (!time.unit) time.unit = header;
        return time;
    }
    Unit bare_unit() const { return time_unit_.value_or(Unit::ms); }

    template <class At, class Label>
    static std::uint64_t read_calls(std::string_view cell, At&& at, Label&& label) {
        std::string digits;
        for (char c : trim(cell))
            if (c != ',') digits += c;
        double value = 0;
        if (!parse_double(digits, value) || value < 0 || value != std::floor(value))
            throw Error(at(), label() + "calls must be a whole number >= 0 (got '" + printable(trim(cell)) + "')");
        if (value > max_calls)
            throw Error(at(), label() + "calls must be at most 9e15 (got '" + printable(trim(cell)) + "')");
        return static_cast<std::uint64_t>(value);
    }

    // Rows of one name become one phase: times and shares added, calls counted (one a row, or
    // the calls column's sum). Units are the first row's.
    void add_up_repeated_names() {
        std::unordered_map<std::string_view, std::size_t> first;
        std::vector<std::size_t> into(raw_.phases.size());
        std::vector<std::uint64_t> rows(raw_.phases.size(), 0);
        std::size_t repeated = 0, example = 0, example_second = 0;
        bool merged = false;
        const Unit bare = raw_.unit.value_or(Unit::ms);
        for (std::size_t i = 0; i < raw_.phases.size(); ++i) {
            const auto [it, fresh] = first.try_emplace(raw_.phases[i].name, i);
            into[i] = it->second;
            ++rows[it->second];
            if (fresh) continue;
            merged = true;
            const std::size_t f = it->second;
            if (rows[f] == 2 && repeated++ == 0) {
                example = f;
                example_second = i;
            }
        }
        if (merged) {
            std::vector<Phase> phases;
            std::vector<RawPhaseExtra> extra;
            std::vector<std::size_t> moved_to(raw_.phases.size());
            for (std::size_t i = 0; i < raw_.phases.size(); ++i) {
                const std::size_t f = into[i];
                if (f == i) {
                    moved_to[i] = phases.size();
                    phases.push_back(raw_.phases[i]);
                    extra.push_back(raw_.extra[i]);
                    if (!calls_) phases.back().calls = rows[i];
                    continue;
                }
                moved_to[i] = moved_to[f];
                Phase& to = phases[moved_to[f]];
                RawPhaseExtra& to_extra = extra[moved_to[f]];
                const Phase& from = raw_.phases[i];
                const RawPhaseExtra& from_extra = raw_.extra[i];
                // One phase runs in one barrier segment: rows of a name in two are two phases.
                if (from.segment != to.segment)
                    throw Error(source_ + ":" + std::to_string(from.at),
                                "phase '" + printable(from.name) + "' is in segment '" + printable(from.segment) +
                                    "' here and in '" + printable(to.segment) + "' on line " + std::to_string(to.at) +
                                    "; give the phase a distinct name in each segment");
                if (from_extra.has_time) {
                    if (to_extra.has_time) {
                        to.time +=
                            convert(from.time, from_extra.time_unit.value_or(bare), to_extra.time_unit.value_or(bare));
                    } else {
                        to.time = from.time;
                        to_extra.time_unit = from_extra.time_unit;
                        to_extra.has_time = true;
                    }
                }
                if (from_extra.share) to_extra.share = to_extra.share.value_or(0) + *from_extra.share;
                if (calls_)
                    to.calls = add_calls(
                        to.calls, from.calls, [&] { return source_ + ":" + std::to_string(from.at); }, from.name,
                        "rows");
            }
            const std::string first_name = printable(raw_.phases[example].name);
            const std::string lines =
                std::to_string(raw_.phases[example].at) + " and " + std::to_string(raw_.phases[example_second].at);
            raw_.phases = std::move(phases);
            raw_.extra = std::move(extra);
            raw_.notes.push_back(source_ + ": " + std::to_string(repeated) +
                                 (repeated == 1 ? " name is" : " names are") + " on more than one row (first '" +
                                 first_name + "', lines " + lines + "): each name's rows are added up into one phase");
        } else if (!calls_) {
            for (Phase& phase : raw_.phases) phase.calls = 1;
        }
    }

    // Rows that overlap are summed as if they ran one after another: not wall time. Rows with
    // gaps between them leave time out. Either is said.
    void say_how_rows_sit_in_time() {
        if (intervals_.empty()) return;
        std::vector<Interval> sorted = intervals_;
        std::sort(sorted.begin(), sorted.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
        const Unit unit = bare_unit();
        Summation busy;
        double first_start = sorted.front().start, last_end = sorted.front().end;
        const Interval* latest = &sorted.front();  // the row that ends last so far
        const Interval* overlapping = nullptr;
        const Interval* overlapped = nullptr;
        busy.add(sorted.front().end - sorted.front().start);
        for (std::size_t k = 1; k < sorted.size(); ++k) {
            const Interval& row = sorted[k];
            busy.add(row.end - row.start);
            if (!overlapping && row.start < last_end) {
                overlapping = &row;
                overlapped = latest;
            }
            if (row.end > last_end) {
                last_end = row.end;
                latest = &row;
            }
        }
        const double span = last_end - first_start;
        const auto t = [&](double v) { return format_duration(v, unit); };
        if (overlapping) {
            raw_.notes.push_back(
                source_ + ": rows overlap in time (line " + std::to_string(overlapping->line) + " starts at " +
                t(overlapping->start) + ", before line " + std::to_string(overlapped->line) + " ends at " +
                t(overlapped->end) + "): the phases are summed as if they ran one after another, so their sum (" +
                t(busy.value()) + ") is not wall time (the rows span " + t(span) + "); import a trace to measure it");
        } else if (span - busy.value() > rounding_tolerance * span) {
            raw_.notes.push_back(source_ + ": the rows span " + t(span) + " from the first start to the last end; " +
                                 t(span - busy.value()) + " of it is in no row and is not counted (give --total " +
                                 shortest(span) + std::string(unit_name(unit)) + " to count it as 'unattributed')");
        }
    }

    std::string source_;
    std::vector<std::string> header_;
    std::size_t columns_ = 0;
    std::optional<std::size_t> name_, kind_, share_, time_, unit_, other_time_, average_, start_, end_, calls_;
    std::optional<std::size_t> time_sd_;
    std::optional<Unit> time_sd_unit_;              // named in the time_sd column's header
    std::optional<std::size_t> self_, other_self_;  // self (exclusive) time columns
    std::optional<std::size_t> unit_only_, other_unit_only_, segment_;
    TimeSource source_kind_ = TimeSource::column;
    std::optional<Unit> time_unit_, start_unit_, end_unit_;
    // A bare number above 1 in the share column: its line and text.
    struct BareShare {
        std::size_t line = 0;
        std::string text;
    };
    std::size_t header_line_ = 0;
    bool share_percent_ = false, share_fraction_ = false;
    std::optional<BareShare> bare_share_above_one_;
    std::vector<std::size_t> bare_shares_;
    std::vector<Interval> intervals_;
    std::optional<TotalRow> total_row_;
    RawProfile raw_;
};

template <class Cells>
bool blank(const Cells& cells) {
    return std::all_of(cells.begin(), cells.end(), [](std::string_view c) { return trim(c).empty(); });
}

std::vector<std::string_view> split_lines(std::string_view content) {
    std::vector<std::string_view> lines;
    std::size_t pos = 0;
    while (pos <= content.size()) {
        auto end = content.find('\n', pos);
        if (end == std::string_view::npos) end = content.size();
        std::string_view line = content.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        pos = end + 1;
    }
    return lines;
}

// "| a | b \| c |" -> {"a", "b | c"}
std::vector<std::string> split_pipe_row(std::string_view line) {
    line = trim(line);
    if (line.starts_with('|')) line.remove_prefix(1);
    if (line.ends_with('|') && !line.ends_with("\\|")) line.remove_suffix(1);
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
            cell += '|';
            ++i;
        } else if (line[i] == '|') {
            cells.emplace_back(trim(cell));
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    cells.emplace_back(trim(cell));
    for (auto& c : cells) {  // **bold** and `code` cells
        if (c.size() >= 4 && c.starts_with("**") && c.ends_with("**")) c = c.substr(2, c.size() - 4);
        if (c.size() >= 2 && c.starts_with('`') && c.ends_with('`')) c = c.substr(1, c.size() - 2);
    }
    return cells;
}

bool is_separator_row(const std::vector<std::string>& cells) {
    return std::all_of(cells.begin(), cells.end(), [](const std::string& c) {
        return !c.empty() && c.find_first_not_of(":- ") == std::string::npos && contains(c, "-");
    });
}

bool is_number_token(std::string_view token) {
    try {
        parse_quantity(token);
        return true;
    } catch (const Error&) {
        return false;
    }
}

std::vector<std::string> split_whitespace(std::string_view line) {
    std::vector<std::string> tokens;
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
        const std::size_t start = pos;
        while (pos < line.size() && !std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
        if (pos > start) tokens.emplace_back(line.substr(start, pos - start));
    }
    return tokens;
}

// A plain-text row: a name that may hold spaces, then numeric fields ("18.0", "18%", "100 ms").
// Returns the fields (name first), or nothing when the line does not end in a number.
std::optional<std::vector<std::string>> split_text_row(std::string_view line) {
    std::vector<std::string> tokens = split_whitespace(line);
    std::vector<std::string> numbers;
    std::size_t end = tokens.size();
    while (end > 1) {
        if (is_number_token(tokens[end - 1])) {
            numbers.insert(numbers.begin(), tokens[end - 1]);
            --end;
        } else if (end > 2 && parse_unit(tokens[end - 1]) && is_number_token(tokens[end - 2])) {
            numbers.insert(numbers.begin(), tokens[end - 2] + " " + tokens[end - 1]);
            end -= 2;
        } else {
            break;
        }
    }
    if (numbers.empty() || end == 0) return std::nullopt;
    std::string name = tokens[0];
    for (std::size_t i = 1; i < end; ++i) name += " " + tokens[i];
    numbers.insert(numbers.begin(), std::move(name));
    return numbers;
}

// Splits a header line into at most `count` labels from the right: each numeric column's label is one
// word, with a parenthesised unit attached ("Time (ms)"); the rest names the name column.
std::vector<std::string> split_text_header(std::string_view line, std::size_t count) {
    std::vector<std::string> tokens = split_whitespace(line);
    std::vector<std::string> labels;
    std::size_t end = tokens.size();
    while (labels.size() + 1 < count && end > 1) {
        std::string label = tokens[end - 1];
        --end;
        if (label.starts_with('(') && end > 1) {
            label = tokens[end - 1] + " " + label;
            --end;
        }
        labels.insert(labels.begin(), label);
    }
    std::string name;
    for (std::size_t i = 0; i < end; ++i) name += (i ? " " : "") + tokens[i];
    labels.insert(labels.begin(), name.empty() ? "name" : name);
    return labels;  // fewer than `count` when the line has too few words: never padded
}

// A pasted header read from the right when its labels say what they are: the number columns'
// labels (one word each, a parenthesised unit attached: "Time (ms)", "Share"), at most `most` of
// them; then maybe a kind column's one-word label ("Kind"); the rest names the name column.
struct TextHeader {
    std::string name;
    bool kind = false;
    std::vector<std::string> numbers;
    std::size_t name_words = 0;  // how many words the name's label has
};

std::optional<TextHeader> read_text_header(std::string_view line, std::size_t most) {
    std::vector<std::string> tokens = split_whitespace(line);
    TextHeader header;
    std::size_t end = tokens.size();
    while (header.numbers.size() < most && end > 1) {
        std::string label = tokens[end - 1];
        std::size_t used = 1;
        if (label.starts_with('(') && end > 2) {
            label = tokens[end - 2] + " " + label;
            used = 2;
        }
        const std::string key = lower(label);
        if (is_kind_header(key) || is_name_header(key) ||
            (column_role(label) == ColumnRole::other && !is_share_header(key)))
            break;
        header.numbers.insert(header.numbers.begin(), label);
        end -= used;
    }
    if (header.numbers.empty()) return std::nullopt;
    if (end > 1 && is_kind_header(lower(tokens[end - 1]))) {
        header.kind = true;
        --end;
    }
    for (std::size_t i = 0; i < end; ++i) header.name += (i ? " " : "") + tokens[i];
    header.name_words = end;
    if (header.name.empty()) header.name = "name";
    return header;
}

bool is_whole_number(std::string_view token) {
    return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string plural(std::size_t count, const std::string& word) {
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

// A row's numbers as written: "2 357 053".
std::string numbers_of(const Row& row) {
    std::string out;
    for (std::size_t i = 1; i < row.cells.size(); ++i) out += (i > 1 ? " " : "") + row.cells[i];
    return out;
}

// The first `count` numbers of a row look like one number with its digits grouped by spaces: a
// group of 1 to 3 digits, then groups of exactly 3 ("2 357 053").
bool digit_groups(const Row& row, std::size_t count) {
    if (count < 2 || row.cells.size() < count + 1) return false;
    const std::string& first = row.cells[1];
    if (!is_whole_number(first) || first.size() > 3) return false;
    for (std::size_t i = 2; i <= count; ++i)
        if (!is_whole_number(row.cells[i]) || row.cells[i].size() != 3) return false;
    return true;
}

// "the row has 3 numbers ('2 357 053') and the header has 1 number column ('Duration (ns)')"
std::string numbers_and_columns(const Row& row, const TextHeader& header) {
    std::string labels;
    for (const std::string& label : header.numbers) labels += (labels.empty() ? "'" : ", '") + printable(label) + "'";
    return "the row has " + plural(row.cells.size() - 1, "number") + " ('" + printable(numbers_of(row)) +
           "') and the header has " + plural(header.numbers.size(), "number column") + " (" + labels + ")";
}

// A row whose numbers do not fit the header's number columns: never padded or cut, as that moves
// the name column or drops numbers unsaid.
Error numbers_do_not_fit(const Row& row, const TextHeader& header, const std::string& source) {
    const std::size_t count = row.cells.size() - 1, columns = header.numbers.size();
    std::string message = numbers_and_columns(row, header);
    const std::size_t grouped = count - columns + 1;
    if (count > columns && digit_groups(row, grouped)) {
        std::string digits, commas;
        for (std::size_t i = 1; i <= grouped; ++i) {
            digits += row.cells[i];
            commas += (i > 1 ? "," : "") + row.cells[i];
        }
        message += "; if they are one number with its digits grouped by spaces, write it without the spaces (" +
                   digits + ") or with commas (" + commas + ")";
    } else {
        message += "; give every row every column";
    }
    return Error(source + ":" + std::to_string(row.line), message);
}

// Rows read against a header whose labels say what they are: a row with one number more than the
// header has number columns has a name that ends in a number ("resblock 1  12.5"), when that is
// plainly so (a whole number, and rows that differ in count or a one-word name label); a Kind
// column takes the name's last word. Any other row whose numbers do not fit is an error, unless
// the header may have number columns whose labels it does not know (more numbers than it
// knows of, none of them digit groups): false, rows untouched, to be read by the header's words.
bool fit_rows_to_header(const TextHeader& header, std::vector<Row>& rows, const std::string& source) {
    const std::size_t numbers = header.numbers.size();
    bool longer = false, shorter = false;
    for (const Row& row : rows) {
        const std::size_t count = row.cells.size() - 1;
        if (count < numbers || (count > numbers && digit_groups(row, count - numbers + 1)))
            throw numbers_do_not_fit(row, header, source);
        if (count > numbers + 1) return false;
        if (count == numbers + 1) {
            if (!is_whole_number(row.cells[1])) return false;
            longer = true;
        } else {
            shorter = true;
        }
    }
    if (longer && !shorter && header.name_words > 1 && !is_name_header(lower(header.name))) return false;
    // "stage 1  40 40%" then "stage 2  60": is the second 'stage' at 2 ms and 60%, or 'stage 2'
    // with its share left out? A row that fits only when its name is cut where another row's name
    // ends in a number cannot say.
    if (longer && numbers > 1) {
        for (const Row& row : rows) {
            if (row.cells.size() - 1 != numbers || !is_whole_number(row.cells[1])) continue;
            for (const Row& other : rows) {
                if (other.cells.size() - 1 != numbers + 1 || other.cells[0] != row.cells[0]) continue;
                throw Error(source + ":" + std::to_string(row.line),
                            numbers_and_columns(row, header) + ", but line " + std::to_string(other.line) + " reads '" +
                                printable(other.cells[0] + " " + other.cells[1]) +
                                "' as a name that ends in a number: is this '" +
                                printable(row.cells[0] + " " + row.cells[1]) +
                                "' with a column left out? Give every row every column");
            }
        }
    }
    for (Row& row : rows) {
        if (row.cells.size() - 1 == numbers + 1) {
            row.cells[0] += " " + row.cells[1];
            row.cells.erase(row.cells.begin() + 1);
        }
        if (header.kind) {
            const std::size_t space = row.cells[0].rfind(' ');
            if (space == std::string::npos)
                throw Error(source + ":" + std::to_string(row.line),
                            "phase '" + printable(row.cells[0]) +
                                "': no kind (the header has a Kind column before the numbers)");
            row.cells.insert(row.cells.begin() + 1, row.cells[0].substr(space + 1));
            row.cells[0].resize(space);
        }
    }
    return true;
}

}  // namespace

namespace {

// Reads the rows of content[pos, end), the first on line `line`, into `reader`.
void read_rows(std::string_view content, std::size_t pos, std::size_t end, std::size_t line, char delimiter,
               const std::string& source, TableReader& reader) {
    const std::string_view part = content.substr(0, end);
    Record record;
    while (pos < end) {
        const std::size_t row_line = line;
        read_record(part, pos, line, delimiter, record, source);
        if (blank(record.cells)) continue;
        reader.add_row(record.cells, row_line);
    }
}

// A file this big, without quotes or lone carriage returns (so that every newline ends a row), is
// read in parts, two at a time on two threads.
constexpr std::size_t parallel_bytes = 4 << 20;
constexpr std::size_t parts = 8;

bool every_newline_ends_a_row(std::string_view rest) {
    if (rest.find('"') != std::string_view::npos) return false;
    for (auto cr = rest.find('\r'); cr != std::string_view::npos; cr = rest.find('\r', cr + 1))
        if (cr + 1 == rest.size() || rest[cr + 1] != '\n') return false;
    return true;
}

// Reads content[pos, end) in parts: one on this thread, the next on another, then the next two.
// Memory stays flat: the other thread's rows are moved into `reader` after each pair. The first
// error in the file is the one thrown, as when reading in one pass.
void read_rows_in_parts(std::string_view content, std::size_t pos, std::size_t line, char delimiter,
                        const std::string& source, TableReader& reader) {
    // Part p is content[bounds[p], bounds[p + 1]) and starts on line lines[p].
    std::vector<std::size_t> bounds{pos}, lines{line};
    const auto close_part = [&](std::size_t end) {
        lines.push_back(lines.back() + static_cast<std::size_t>(
                                           std::count(content.begin() + static_cast<std::ptrdiff_t>(bounds.back()),
                                                      content.begin() + static_cast<std::ptrdiff_t>(end), '\n')));
        bounds.push_back(end);
    };
    for (std::size_t k = 1; k < parts; ++k) {
        std::size_t cut = content.find('\n', pos + k * (content.size() - pos) / parts);
        if (cut == std::string_view::npos) break;
        if (++cut > bounds.back() && cut < content.size()) close_part(cut);
    }
    close_part(content.size());
    // Room for every row here, and for the largest part in the reader the other thread fills,
    // which is reused: no allocation per part.
    std::size_t most_rows = 0;
    for (std::size_t p = 1; p < lines.size(); ++p) most_rows = std::max(most_rows, lines[p] - lines[p - 1] + 1);
    reader.reserve(lines.back() - line + 1);
    TableReader other = reader.empty_copy();
    other.reserve(most_rows);
    for (std::size_t p = 0; p + 1 < bounds.size(); p += 2) {
        const auto read_part = [&](std::size_t q, TableReader& into) {
            read_rows(content, bounds[q], bounds[q + 1], lines[q], delimiter, source, into);
        };
        if (p + 2 == bounds.size()) {  // the last part, alone
            read_part(p, reader);
            break;
        }
        side_by_side([&] { read_part(p, reader); }, [&] { read_part(p + 1, other); });
        reader.append(std::move(other));
    }
}

}  // namespace

// A semicolon-separated file, as spreadsheets with a decimal comma write them ("name;time_ms",
// "gemm;34,5"): read with commas, "34,5" would be 5 or 345. Refused, with why: a header that
// semicolons divide and no `delimiter` does (0: a pasted text table, whose columns are spaces),
// or, under a comma header, rows whose first field holds a ';' and that end in ";NUMBER".
void check_not_semicolons(std::string_view content, const std::string& source, char delimiter) {
    std::vector<std::pair<std::string_view, std::size_t>> lines;  // the first non-blank lines, numbered
    std::size_t pos = 0, number = 0;
    while (pos < content.size() && lines.size() < 6) {
        std::size_t end = content.find('\n', pos);
        if (end == std::string_view::npos) end = content.size();
        ++number;
        std::string_view line = content.substr(pos, end - pos);
        if (!trim(line).empty()) lines.emplace_back(trim(line), number);
        pos = end + 1;
    }
    if (lines.size() < 2) return;
    const std::string_view header = lines.front().first;
    const auto has = [](std::string_view text, char c) { return text.find(c) != std::string_view::npos; };
    const bool divided_by_delimiter =
        delimiter ? has(header, delimiter) : header.find("  ") != std::string_view::npos || has(header, '\t');
    const auto refuse = [&](std::size_t line, std::string_view text, const std::string& what) {
        throw Error(source + ":" + std::to_string(line),
                    what + " '" + printable(text) + "' is divided by semicolons: amdahl reads " +
                        (delimiter == '\t' ? "tabs"
                         : delimiter       ? "commas"
                                           : "columns apart by spaces") +
                        " (a semicolon file, as a spreadsheet with decimal commas writes, would have its numbers "
                        "misread); save it with commas and decimal points");
    };
    if (has(header, ';') && !divided_by_delimiter && has(lines[1].first, ';'))
        refuse(lines.front().second, header, "the header");
    if (delimiter != ',' || has(header, ';')) return;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::string_view row = lines[i].first;
        const std::size_t semicolon = row.rfind(';');
        if (semicolon == std::string_view::npos || has(row, '"')) continue;
        // A semicolon file's first ';' ends its first field; one in a later comma field is data
        // (pytest-benchmark's CSV writes its outliers as "1;2").
        if (row.find(',') < row.find(';')) continue;
        const std::string_view after = trim(row.substr(semicolon + 1));
        if (!after.empty() && after.find_first_not_of("0123456789.,-+") == std::string_view::npos &&
            std::isdigit(static_cast<unsigned char>(after.back())))
            refuse(lines[i].second, row, "line");
    }
}

RawProfile read_delimited_profile(std::string_view content, const std::string& source, char delimiter) {
    check_not_semicolons(content, source, delimiter);
    std::size_t pos = 0, line = 1;
    Record record;
    std::size_t header_line = 0;
    do {
        header_line = line;
        read_record(content, pos, line, delimiter, record, source);
    } while (blank(record.cells) && pos < content.size());
    if (blank(record.cells)) throw Error(source, "empty input: no header row");
    TableReader reader(source, record.strings(), header_line);
    const std::string_view rest = content.substr(pos);
    if (rest.size() >= parallel_bytes && every_newline_ends_a_row(rest)) {
        read_rows_in_parts(content, pos, line, delimiter, source, reader);
    } else {
        reader.reserve(static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '\n')) + 1);
        read_rows(content, pos, content.size(), line, delimiter, source, reader);
    }
    return reader.finish();
}

// A rule under or around a pasted table ("----  -----", "=====", "+----+----+"): no words, at
// least three dashes or equals signs.
bool is_rule_line(std::string_view line) {
    line = trim(line);
    if (line.empty() || line.find_first_not_of("-=+|: ") != std::string_view::npos) return false;
    return std::count(line.begin(), line.end(), '-') + std::count(line.begin(), line.end(), '=') >= 3;
}

RawProfile read_markdown_profile(std::string_view content, const std::string& source) {
    const auto lines = split_lines(content);
    std::size_t i = 0;
    while (i < lines.size() && !trim(lines[i]).starts_with('|')) ++i;
    if (i == lines.size()) throw Error(source, "no Markdown table (a line starting with '|')");
    const std::vector<std::string> header = split_pipe_row(lines[i]);
    const std::size_t header_line = i + 1;
    TableReader reader(source, header, header_line);
    ++i;
    // Under the header: Markdown's "|---|:--:|", or a grid table's "+====+====+" or "|----+----|".
    while (i < lines.size() && (is_separator_row(split_pipe_row(lines[i])) || is_rule_line(lines[i]))) ++i;
    // A grid table may rule off every row ("+----+----+"). Then the lines between two rules are one
    // row, and a row of two lines is a cell wrapped over them, which would read as two phases.
    std::size_t blocks = 0, block_start = 0, block_lines = 0, wrapped = 0, wrapped_end = 0;
    const auto end_block = [&] {
        if (block_lines == 0) return;
        ++blocks;
        if (block_lines > 1 && wrapped == 0) wrapped = block_start, wrapped_end = block_start + block_lines - 1;
        block_lines = 0;
    };
    for (; i < lines.size(); ++i) {
        const std::string_view line = trim(lines[i]);
        if (line.empty()) break;  // the table ends at the first blank line
        if (is_rule_line(line)) {
            end_block();
            continue;
        }
        if (!line.starts_with('|')) {
            throw Error(source + ":" + std::to_string(i + 1), "expected a table row starting with '|'");
        }
        if (block_lines++ == 0) block_start = i + 1;
        reader.add_row(split_pipe_row(line), i + 1);
    }
    end_block();
    if (blocks > 1 && wrapped != 0)
        throw Error(source + ":" + std::to_string(wrapped),
                    "lines " + std::to_string(wrapped) + "-" + std::to_string(wrapped_end) +
                        " are one row between two rules, where the table rules off every row: a cell wrapped over "
                        "lines cannot be read; put each row on one line");
    RawProfile raw = reader.finish();
    // Only the first table is the profile; say so when there are more, rather than drop them unsaid.
    for (std::size_t more = i; more < lines.size(); ++more) {
        if (!trim(lines[more]).starts_with('|')) continue;
        raw.notes.push_back(source + ":" + std::to_string(more + 1) +
                            ": another table starts here; only the first table (line " + std::to_string(header_line) +
                            ") is read");
        break;
    }
    return raw;
}

// A header's labels split at runs of two or more spaces, as console tables align their columns
// ("Name    Self CPU %      Self CPU   # of Calls"); one label when it has no such run.
// With `columns`, a row of more cells than that is a name with wide gaps of its own ("my  op")
// before its columns - 1 values: the name is the text before them.
std::vector<std::string> split_at_wide_gaps(std::string_view line, std::size_t columns = 0) {
    line = trim(line);
    std::vector<std::string> labels;
    std::vector<std::size_t> starts;
    std::size_t pos = 0;
    while (pos < line.size()) {
        std::size_t gap = line.find("  ", pos);
        if (gap == std::string_view::npos) gap = line.size();
        starts.push_back(pos);
        labels.emplace_back(trim(line.substr(pos, gap - pos)));
        pos = line.find_first_not_of(' ', gap);
        if (pos == std::string_view::npos) break;
    }
    if (columns >= 2 && labels.size() > columns) {
        const std::size_t first_value = labels.size() - (columns - 1);
        labels.erase(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(first_value));
        labels.insert(labels.begin(), std::string(trim(line.substr(0, starts[first_value]))));
    }
    return labels;
}

// A line under a pasted table that totals a column: "Self CPU time total: 10.000ms" (PyTorch's
// key_averages().table()). Its label ("Self CPU time") and its time.
struct TotalLine {
    std::string label;
    std::string time;
    std::size_t line = 0;
};

// psql's footer under its rows: "(3 rows)", "(1 row)". The count it says.
std::optional<std::size_t> read_row_count_line(std::string_view line) {
    line = trim(line);
    if (line.size() < 6 || line.front() != '(' || line.back() != ')') return std::nullopt;
    line = line.substr(1, line.size() - 2);
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0 || space > 9) return std::nullopt;
    const std::string_view word = line.substr(space + 1);
    if (word != "row" && word != "rows") return std::nullopt;
    std::size_t count = 0;
    for (const char c : line.substr(0, space)) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        count = count * 10 + static_cast<std::size_t>(c - '0');
    }
    return count;
}

std::optional<TotalLine> read_total_line(std::string_view line, std::size_t number) {
    line = trim(line);
    const std::size_t at = lower(line).rfind(" total:");
    if (at == std::string_view::npos || at == 0) return std::nullopt;
    const std::string_view time = trim(line.substr(at + 7));
    if (time.empty() || !is_number_token(time)) return std::nullopt;
    return TotalLine{std::string(trim(line.substr(0, at))), std::string(time), number};
}

// Whether a total line's label names the time column read ("Self CPU time" totals "Self CPU").
bool totals_column(std::string_view label, std::string_view column) {
    const auto words = [](std::string_view text) {
        std::string out;
        for (const std::string& word : split_whitespace(lower(text)))
            if (word != "time" && !word.starts_with('(')) out += (out.empty() ? "" : " ") + word;
        return out;
    };
    return !column.empty() && words(label) == words(column);
}

RawProfile read_text_profile(std::string_view content, const std::string& source) {
    check_not_semicolons(content, source, 0);
    const auto lines = split_lines(content);
    // The header is the last line before the first row that ends in numbers; rules around it
    // ("-----  ----") are neither.
    std::size_t first_row = 0, header = lines.size();
    for (; first_row < lines.size(); ++first_row) {
        if (trim(lines[first_row]).empty() || is_rule_line(lines[first_row])) continue;
        if (split_text_row(lines[first_row])) break;
        header = first_row;
    }
    if (first_row == lines.size()) throw Error(source, "no table rows (lines ending in a number) found");
    if (header == lines.size()) {
        throw Error(source + ":" + std::to_string(first_row + 1),
                    "no header line before the first row (expected e.g. 'Phase Time (ms) Share')");
    }
    std::vector<Row> rows;
    std::vector<TotalLine> total_lines;
    std::size_t width = 0;
    for (std::size_t i = first_row; i < lines.size(); ++i) {
        if (trim(lines[i]).empty() || is_rule_line(lines[i])) continue;
        // Under the rows, lines that total a column ("Self CPU time total: 10.000ms").
        if (auto total = rows.empty() ? std::nullopt : read_total_line(lines[i], i + 1)) {
            total_lines.push_back(std::move(*total));
            continue;
        }
        // psql's "(2 rows)": the rows it printed, all of which must be here.
        if (const auto count = rows.empty() ? std::nullopt : read_row_count_line(lines[i])) {
            if (*count != rows.size())
                throw Error(source + ":" + std::to_string(i + 1),
                            "psql's footer says " + plural(*count, "row") + ", and the table has " +
                                std::to_string(rows.size()) + ": rows are missing from the paste");
            continue;
        }
        auto fields = split_text_row(lines[i]);
        if (!fields) {
            throw Error(source + ":" + std::to_string(i + 1),
                        "expected a row: a name followed by numbers (got '" + printable(trim(lines[i])) + "')");
        }
        width = std::max(width, fields->size());
        rows.push_back(Row{std::move(*fields), i + 1});
    }
    // A total line gives the end-to-end time when it totals the time column read, as PyTorch's
    // "Self CPU time total" does "Self CPU" (of every op, those the table leaves out too); any other
    // is said and left.
    const auto take_total_lines = [&](const TableReader& reader, RawProfile raw) {
        for (const TotalLine& total : total_lines) {
            const std::string where = source + ":" + std::to_string(total.line);
            if (!raw.total && totals_column(total.label, reader.time_label())) {
                raw.total = parse_time_text(total.time, where, "total");
                raw.total_where = where;
                raw.notes.push_back(where + ": '" + printable(total.label) + " total: " + printable(total.time) +
                                    "' is read as the end-to-end time: the total of column '" +
                                    printable(reader.time_label()) + "', rows the table leaves out included");
            } else {
                raw.notes.push_back(
                    where + ": '" + printable(total.label) + " total: " + printable(total.time) + "' is not used: " +
                    (raw.total ? "the total is " + raw.total_where
                               : "it does not total the time column read ('" + printable(reader.time_label()) + "')"));
            }
        }
        return raw;
    };
    // psql and other consoles divide the columns with '|' ("  name | time_ms", " gemm |  12"): those
    // are the columns, and a row with more or fewer of them than the header is an error, never a
    // name with a '|' in it.
    const bool piped_rows = std::any_of(rows.begin(), rows.end(), [&](const Row& row) {
        return lines[row.line - 1].find('|') != std::string_view::npos;
    });
    if (const std::vector<std::string> pipe_labels = split_pipe_row(lines[header]);
        pipe_labels.size() >= 2 && piped_rows) {
        TableReader reader(source, pipe_labels, header + 1);
        for (const Row& row : rows) {
            const std::vector<std::string> cells = split_pipe_row(lines[row.line - 1]);
            if (cells.size() != pipe_labels.size())
                throw Error(source + ":" + std::to_string(row.line),
                            "the row has " + plural(cells.size(), "column") + " divided by '|' and the header (line " +
                                std::to_string(header + 1) + ") has " + std::to_string(pipe_labels.size()) +
                                "; give every row every column");
            reader.add_row(cells, row.line);
        }
        return take_total_lines(reader, reader.finish());
    }
    // A console table aligns its columns with two or more spaces: when the header and every row
    // split at such gaps into the same cells, those are the columns, whatever single spaces the
    // names and labels hold ("conv 1" under "Op", 40.0 under "Self time (ms)").
    const std::vector<std::string> gap_labels = split_at_wide_gaps(lines[header]);
    if (gap_labels.size() >= 2) {
        std::vector<Row> gap_rows;
        for (const Row& row : rows) {
            std::vector<std::string> cells = split_at_wide_gaps(lines[row.line - 1], gap_labels.size());
            if (cells.size() != gap_labels.size()) break;
            gap_rows.push_back(Row{std::move(cells), row.line});
        }
        if (gap_rows.size() == rows.size()) {
            TableReader reader(source, gap_labels, header + 1);
            for (auto& row : gap_rows) reader.add_row(row.cells, row.line);
            return take_total_lines(reader, reader.finish());
        }
    }
    const auto labelled = read_text_header(lines[header], width - 1);
    if (labelled && fit_rows_to_header(*labelled, rows, source)) {
        std::vector<std::string> labels{labelled->name};
        if (labelled->kind) labels.emplace_back("kind");
        labels.insert(labels.end(), labelled->numbers.begin(), labelled->numbers.end());
        width = labels.size();
        TableReader reader(source, labels, header + 1);
        for (auto& row : rows) {
            row.cells.resize(width);
            reader.add_row(row.cells, row.line);
        }
        return take_total_lines(reader, reader.finish());
    }
    // Read by the header's words, one label a column: every row must have every column, and the
    // header a word for each, or a column would move unsaid.
    for (const Row& row : rows) {
        if (row.cells.size() == rows.front().cells.size()) continue;
        throw Error(source + ":" + std::to_string(row.line),
                    "the row has " + plural(row.cells.size() - 1, "number") + " ('" + printable(numbers_of(row)) +
                        "') and line " + std::to_string(rows.front().line) + " has " +
                        std::to_string(rows.front().cells.size() - 1) + "; give every row every column");
    }
    const std::vector<std::string> labels = split_text_header(lines[header], width);
    if (labels.size() < width) {
        throw Error(source + ":" + std::to_string(header + 1),
                    "the header '" + printable(trim(lines[header])) + "' has too few words to label the name and " +
                        plural(width - 1, "number") + " of line " + std::to_string(rows.front().line));
    }
    TableReader reader(source, labels, header + 1);
    for (auto& row : rows) reader.add_row(row.cells, row.line);
    return take_total_lines(reader, reader.finish());
}

}  // namespace amdahl::detail
