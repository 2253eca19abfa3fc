// Measured runs: the CSV/TSV reader and the checks every format shares (the JSON reader is in
// json_runs.cpp, next to the only other file that includes nlohmann).
#include "amdahl/measurements.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/csv_records.hpp"
#include "input/measurements_internal.hpp"
#include "input/table_columns.hpp"
#include "model/text.hpp"
#include "report/numbers.hpp"

namespace amdahl {

namespace detail {

namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

bool skipped(const std::vector<std::string>& cells) {
    // Blank lines and # comments (measurement scripts often write a line about the machine).
    if (trim(cells.front()).starts_with('#')) return true;
    return std::all_of(cells.begin(), cells.end(), [](const std::string& c) { return trim(c).empty(); });
}

std::string quote_all(const std::vector<std::string>& header) {
    std::string out;
    for (const auto& h : header) out += (out.empty() ? "'" : ", '") + printable(trim(h)) + "'";
    return out;
}

RawRuns read_delimited_runs(std::string_view content, const std::string& source, char delimiter,
                            const std::vector<MeasuredQuantity>& accepted) {
    std::size_t pos = 0, line = 1, header_line = 1;
    Record record;
    const auto next_record = [&] {
        read_record(content, pos, line, delimiter, record, source);
        return record.strings();
    };
    std::vector<std::string> header;
    do {
        header_line = line;
        header = next_record();
    } while (skipped(header) && pos < content.size());
    if (skipped(header)) throw Error(source, "empty input: no header row");
    std::optional<std::size_t> n_column, value_column;
    std::optional<RunColumn> start, end;
    std::optional<std::size_t> start_column, end_column;
    RawRuns out;
    out.source = source;
    for (std::size_t i = 0; i < header.size(); ++i) {
        const auto column = classify_run_column(header[i]);
        if (!column) continue;
        if (column->kind == RunColumn::Kind::n) {
            if (!n_column) n_column = i;
        } else if (column->kind == RunColumn::Kind::start) {
            if (!start_column) start_column = i, start = column;
        } else if (column->kind == RunColumn::Kind::end) {
            if (!end_column) end_column = i, end = column;
        } else if (!value_column && std::find(accepted.begin(), accepted.end(), column->quantity) != accepted.end()) {
            value_column = i;
            out.quantity = column->quantity;
            out.unit = column->unit;
        }
    }
    // Times and speedups side by side: the times are read, and the speedups checked against them.
    std::size_t speedup_column = header.size();  // none, until both a time and a speedup column are found
    const auto accepts = [&](MeasuredQuantity q) {
        return std::find(accepted.begin(), accepted.end(), q) != accepted.end();
    };
    if (value_column && accepts(MeasuredQuantity::time) && accepts(MeasuredQuantity::speedup)) {
        std::optional<std::size_t> time_column;
        std::optional<Unit> time_unit;
        for (std::size_t i = 0; i < header.size(); ++i) {
            const auto column = classify_run_column(header[i]);
            if (!column || column->kind != RunColumn::Kind::value) continue;
            if (column->quantity == MeasuredQuantity::time && !time_column) time_column = i, time_unit = column->unit;
            if (column->quantity == MeasuredQuantity::speedup && speedup_column == header.size()) speedup_column = i;
        }
        if (time_column && speedup_column < header.size()) {
            value_column = time_column;
            out.quantity = MeasuredQuantity::time;
            out.unit = time_unit;
            out.speedup_label = std::string(trim(header[speedup_column]));
        } else {
            speedup_column = header.size();
        }
    }
    const std::string at = source + ":" + std::to_string(header_line);
    if (!n_column)
        throw Error(at, "no N column in the header (expected n, processors or gpus; found " + quote_all(header) + ")");
    const bool times = std::find(accepted.begin(), accepted.end(), MeasuredQuantity::time) != accepted.end();
    const auto named = [&](std::size_t i) { return "column '" + printable(trim(header[i])) + "'"; };
    const bool stamps = times && !value_column && start_column && end_column;
    if (times && !value_column && (start_column || end_column) && !stamps) {
        const bool is_start = start_column.has_value();
        throw Error(at, named(is_start ? *start_column : *end_column) + " holds " + (is_start ? "start" : "end") +
                            " times, not durations, and there is no duration or " + (is_start ? "end" : "start") +
                            " column");
    }
    if (!value_column && !stamps)
        throw Error(at, "no " + expected_columns(accepted) + " in the header (found " + quote_all(header) + ")");
    if (stamps) {
        out.quantity = MeasuredQuantity::time;
        out.unit = start->unit ? start->unit : end->unit;
        out.notes.push_back(at + ": the run time is " + named(*end_column) + " minus " + named(*start_column));
    } else if (out.quantity == MeasuredQuantity::time && (start_column || end_column)) {
        const bool is_start = start_column.has_value();
        out.notes.push_back(at + ": " + named(is_start ? *start_column : *end_column) + " holds " +
                            (is_start ? "start" : "end") + " times, not durations; the run time is " +
                            named(*value_column));
    }
    while (pos < content.size()) {
        const std::size_t row_line = line;
        const std::vector<std::string> cells = next_record();
        if (skipped(cells)) continue;
        const std::string where = source + ":" + std::to_string(row_line);
        if (cells.size() != header.size())
            throw Error(where, "row has " + std::to_string(cells.size()) + " fields, the header has " +
                                   std::to_string(header.size()));
        if (stamps) {
            // A bare stamp is in its header's unit, else in the other stamp's.
            const auto stamp = [&](std::size_t column, const RunColumn& own, const RunColumn& other) {
                return with_unit(trim(cells[column]), own.unit ? own.unit : other.unit);
            };
            out.runs.push_back({std::string(trim(cells[*n_column])), stamp(*end_column, *end, *start),
                                stamp(*start_column, *start, *end), std::nullopt, where});
        } else {
            RawRun run{std::string(trim(cells[*n_column])), std::string(trim(cells[*value_column])), std::nullopt,
                       std::nullopt, where};
            if (speedup_column < header.size() && !trim(cells[speedup_column]).empty())
                run.speedup = std::string(trim(cells[speedup_column]));
            out.runs.push_back(std::move(run));
        }
    }
    return out;
}

long long parse_run_n(const RawRun& run) {
    double value = 0;
    if (!parse_double(run.n, value))
        throw Error(run.where, "N must be a whole number >= 1 (got '" + printable(run.n) + "')");
    if (value < 1) throw Error(run.where, "N must be at least 1 (got '" + printable(run.n) + "')");
    if (value != std::floor(value)) throw Error(run.where, "N must be a whole number (got '" + printable(run.n) + "')");
    if (value > static_cast<double>(max_processor_count))
        throw Error(run.where, "N must be at most 10^12 (got '" + printable(run.n) + "')");
    return static_cast<long long>(value);
}

// A run's time from its time stamps: end - start, in the start's unit (a bare stamp in the other's).
Quantity parse_run_stamps(const RawRun& run) {
    const auto stamp = [&](const std::string& text, const char* which) {
        try {
            if (!trim(text).empty()) {
                const Quantity q = parse_quantity(text);
                if (!q.percent) return q;
            }
        } catch (const Error&) {
        }
        throw Error(run.where, std::string(which) +
                                   " must be a time stamp: a number with an optional unit, such as 532.4 or 532.4 ms "
                                   "(got '" +
                                   printable(text) + "')");
    };
    const Quantity start = stamp(*run.start, "start");
    const Quantity end = stamp(run.value, "end");
    Quantity time = start;
    time.unit = start.unit ? start.unit : end.unit;
    const double end_value = end.unit && time.unit ? convert(end.value, *end.unit, *time.unit) : end.value;
    // T = end - start
    time.value = end_value - start.value;
    if (!(time.value > 0))
        throw Error(run.where, "the run time end - start must be > 0 (end '" + printable(run.value) + "', start '" +
                                   printable(*run.start) + "')");
    return time;
}

Quantity parse_run_value(const RawRun& run, MeasuredQuantity quantity) {
    if (run.start && quantity == MeasuredQuantity::time) return parse_run_stamps(run);
    std::string text = run.value;
    if (quantity == MeasuredQuantity::speedup && !text.empty() && (text.back() == 'x' || text.back() == 'X'))
        text.pop_back();
    Quantity q;
    bool ok = !trim(text).empty();
    if (ok) {
        try {
            q = parse_quantity(text);
        } catch (const Error&) {
            ok = false;
        }
    }
    const std::string got = " (got '" + printable(run.value) + "')";
    switch (quantity) {
        case MeasuredQuantity::time:
            if (!ok || q.percent)
                throw Error(run.where,
                            "time must be a number > 0 with an optional unit, such as 532.4 or 532.4 ms" + got);
            if (!(q.value > 0)) throw Error(run.where, "time must be > 0" + got);
            break;
        case MeasuredQuantity::speedup:
            if (!ok || q.percent || q.unit)
                throw Error(run.where, "speedup must be a number > 0, such as 3.5 or 3.5x" + got);
            if (!(q.value > 0)) throw Error(run.where, "speedup must be > 0" + got);
            break;
        case MeasuredQuantity::overhead:
            if (!ok || q.unit)
                throw Error(run.where,
                            "overhead must be a fraction of the one-processor time, such as 0.02 or 2%" + got);
            if (q.value < 0) throw Error(run.where, "overhead must be >= 0" + got);
            if (q.percent) q.value /= 100;
            break;
    }
    return q;
}

// Digits after the decimal point as written ("3.48" -> 2, "3.5x" -> 1, "4" -> 0).
int written_decimals(std::string_view text) {
    const std::size_t point = text.find('.');
    if (point == std::string_view::npos) return 0;
    int digits = 0;
    for (std::size_t i = point + 1; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) ++digits;
    return digits;
}

// Speedups written beside times must be the times' T(1) / T(N), within 1% or the rounding of the
// digits written: a fit of one while the other says something else is a silent wrong answer.
// Without a run at N = 1 the times give no speedups, and the written ones are read instead.
void check_written_speedups(RawRuns& raw, const std::vector<long long>& counts, std::vector<Quantity>& values,
                            Measurements& out) {
    if (raw.quantity != MeasuredQuantity::time || raw.speedup_label.empty()) return;
    const auto written = [&](std::size_t i) {
        RawRun speedup = raw.runs[i];
        speedup.value = *raw.runs[i].speedup;
        speedup.start.reset();
        return parse_run_value(speedup, MeasuredQuantity::speedup).value;
    };
    const std::string column = "column '" + printable(raw.speedup_label) + "'";
    const auto one = std::find(counts.begin(), counts.end(), 1LL);
    if (one == counts.end()) {
        for (const RawRun& run : raw.runs)
            if (!run.speedup)
                throw Error(run.where, "no run at N = 1 to divide the times by, and this run has no " + column);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = Quantity{written(i), std::nullopt, false};
        raw.quantity = out.quantity = MeasuredQuantity::speedup;
        out.unit.reset();
        out.notes.push_back(raw.source + ": no run at N = 1, so the times give no speedups: the fit reads " + column);
        return;
    }
    const std::size_t base = static_cast<std::size_t>(one - counts.begin());
    const auto in_common_unit = [&](std::size_t i) {
        return values[i].unit && out.unit ? convert(values[i].value, *values[i].unit, *out.unit) : values[i].value;
    };
    const auto time_text = [&](std::size_t i) {
        return shortest(in_common_unit(i)) + (out.unit ? " " + std::string(unit_name(*out.unit)) : std::string());
    };
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!raw.runs[i].speedup) continue;
        const double computed = in_common_unit(base) / in_common_unit(i), given = written(i);
        const double tolerance =
            std::max(0.01 * computed, 0.5 * std::pow(10.0, -written_decimals(*raw.runs[i].speedup)));
        if (std::fabs(given - computed) > tolerance)
            throw Error(raw.runs[i].where,
                        "speedup " + printable(*raw.runs[i].speedup) + " disagrees with the times: " + time_text(base) +
                            " at N = 1 / " + time_text(i) + " at N = " + std::to_string(counts[i]) + " = " +
                            format_speedup(computed) + "; correct the one that is wrong, or leave the speedups out");
    }
    out.notes.push_back(raw.source + ": " + column +
                        " agrees with the times (T(1) / T(N), within 1% or its rounding); the fit reads the times");
}

Measurements finish_runs(RawRuns raw) {
    if (raw.runs.empty())
        throw Error(raw.source, "no runs: the file has no rows of N and " + quantity_name(raw.quantity));
    Measurements out;
    out.source = raw.source;
    out.quantity = raw.quantity;
    out.notes = std::move(raw.notes);
    std::vector<long long> counts;
    std::vector<Quantity> values;
    std::map<long long, std::string> seen;
    for (const RawRun& run : raw.runs) {
        const long long n = parse_run_n(run);
        if (const auto [it, inserted] = seen.emplace(n, run.where); !inserted)
            throw Error(run.where, "N = " + std::to_string(n) + " appears twice (also at " + it->second + ")");
        counts.push_back(n);
        values.push_back(parse_run_value(run, raw.quantity));
    }
    // Times: the header's (or JSON's) unit, else the first unit written, else none.
    if (raw.quantity == MeasuredQuantity::time) {
        out.unit = raw.unit;
        for (const auto& q : values) {
            if (out.unit) break;
            out.unit = q.unit;
        }
    }
    // A bare time among times with units would be read in another row's unit: never guess.
    if (raw.quantity == MeasuredQuantity::time && !raw.unit) {
        const auto with_unit = std::find_if(values.begin(), values.end(), [](const Quantity& q) { return q.unit; });
        const auto bare = std::find_if(values.begin(), values.end(), [](const Quantity& q) { return !q.unit; });
        if (with_unit != values.end() && bare != values.end())
            throw Error(raw.runs[static_cast<std::size_t>(bare - values.begin())].where,
                        "this time has no unit while others have one; write a unit on every time, or in the header");
    }
    check_written_speedups(raw, counts, values, out);
    // A speedup at N = 1 is the baseline itself: 1 by definition.
    if (raw.quantity == MeasuredQuantity::speedup) {
        for (std::size_t i = 0; i < counts.size(); ++i)
            if (counts[i] == 1 && std::fabs(values[i].value - 1) > 1e-9)
                throw Error(raw.runs[i].where,
                            "a speedup at N = 1 is the baseline and must be 1 (got " + shortest(values[i].value) + ")");
    }
    for (std::size_t i = 0; i < raw.runs.size(); ++i) {
        double value = values[i].value;
        if (values[i].unit && out.unit) value = convert(value, *values[i].unit, *out.unit);
        out.runs.push_back({counts[i], value, raw.runs[i].where});
    }
    return out;
}

}  // namespace

std::string_view trim_view(std::string_view text) { return trim(text); }

std::string with_unit(std::string_view text, std::optional<Unit> unit) {
    std::string out(text);
    if (!unit) return out;
    try {
        if (!parse_quantity(out).unit) out += " " + std::string(unit_name(*unit));
    } catch (const Error&) {
        // Left as written: the common checks report it.
    }
    return out;
}

std::optional<RunColumn> classify_run_column(std::string_view header) {
    const std::string h = lower(header);
    static const char* const n_names[] = {"n",       "processors", "procs",   "gpus",  "workers", "ranks",
                                          "threads", "nodes",      "devices", "cores", "np",      "world_size"};
    if (std::any_of(std::begin(n_names), std::end(n_names), [&](const char* name) { return h == name; }))
        return RunColumn{RunColumn::Kind::n, MeasuredQuantity::time, std::nullopt};
    if (contains(h, "speedup")) return RunColumn{RunColumn::Kind::value, MeasuredQuantity::speedup, std::nullopt};
    if (contains(h, "overhead")) return RunColumn{RunColumn::Kind::value, MeasuredQuantity::overhead, std::nullopt};
    const auto unit = header_unit(h);
    // The eval reader's rules for time stamps: "timestamp", "start_ms", "End (ns)" (not "end to end").
    switch (column_role(header)) {
        case ColumnRole::start:
            return RunColumn{RunColumn::Kind::start, MeasuredQuantity::time, unit};
        case ColumnRole::end:
            return RunColumn{RunColumn::Kind::end, MeasuredQuantity::time, unit};
        default:
            break;
    }
    if (contains(h, "time") || contains(h, "duration") || contains(h, "elapsed") || contains(h, "latency") || unit)
        return RunColumn{RunColumn::Kind::value, MeasuredQuantity::time, unit};
    return std::nullopt;
}

std::string quantity_name(MeasuredQuantity quantity) {
    switch (quantity) {
        case MeasuredQuantity::time:
            return "time";
        case MeasuredQuantity::speedup:
            return "speedup";
        case MeasuredQuantity::overhead:
            return "overhead";
    }
    return "value";
}

std::string expected_columns(const std::vector<MeasuredQuantity>& accepted) {
    std::string out;
    for (std::size_t i = 0; i < accepted.size(); ++i) {
        if (i > 0) out += i + 1 == accepted.size() ? " or " : ", ";
        out += accepted[i] == MeasuredQuantity::time ? "time column (time, time_ms, 'time (s)')"
                                                     : quantity_name(accepted[i]) + " column";
    }
    return out;
}

}  // namespace detail

Measurements parse_measurements(std::string_view content, const std::string& source,
                                const std::vector<MeasuredQuantity>& accepted) {
    const auto start = content.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) throw Error(source, "empty input: no runs");
    detail::RawRuns raw;
    if (content[start] == '{' || content[start] == '[') {
        raw = detail::read_json_runs(content, source, accepted);
    } else {
        // The header is the first line that is not blank or a # comment; a tab there means TSV.
        std::string_view header;
        for (std::size_t pos = 0; pos < content.size() && header.empty();) {
            const std::size_t end = std::min(content.find('\n', pos), content.size());
            const std::string_view line = detail::trim_view(content.substr(pos, end - pos));
            if (!line.empty() && !line.starts_with('#')) header = line;
            pos = end + 1;
        }
        const char delimiter = header.find('\t') != std::string_view::npos ? '\t' : ',';
        raw = detail::read_delimited_runs(content, source, delimiter, accepted);
    }
    return detail::finish_runs(std::move(raw));
}

Measurements load_measurements(const std::string& path, std::istream& stdin_stream,
                               const std::vector<MeasuredQuantity>& accepted) {
    const std::string content = read_input(path, stdin_stream);
    const std::string source = path == "-" ? "<stdin>" : path;
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".json" && content.find_first_not_of(" \t\r\n") != std::string::npos) {
        return detail::finish_runs(detail::read_json_runs(content, source, accepted));
    }
    return parse_measurements(content, source, accepted);
}

std::vector<ScalingPoint> measured_speedups(const Measurements& measurements) {
    std::vector<ScalingPoint> points;
    if (measurements.quantity == MeasuredQuantity::speedup) {
        for (const auto& run : measurements.runs) points.push_back({run.n, run.value});
        return points;
    }
    const auto baseline = baseline_time(measurements);
    if (!baseline)
        throw Error(measurements.source,
                    "no run at N = 1: speedups from times need the one-processor time as the "
                    "baseline (add a row with N = 1, or give speedups in a 'speedup' column)");
    for (const auto& run : measurements.runs) points.push_back({run.n, *baseline / run.value});
    return points;
}

std::optional<double> baseline_time(const Measurements& measurements) {
    if (measurements.quantity != MeasuredQuantity::time) return std::nullopt;
    for (const auto& run : measurements.runs)
        if (run.n == 1) return run.value;
    return std::nullopt;
}

Overhead measured_overhead(const Measurements& measurements) {
    Overhead overhead;
    overhead.model = Overhead::Model::measured;
    for (const auto& run : measurements.runs) {
        if (run.n == 1 && run.value != 0)
            throw Error(run.where, "the overhead at N = 1 must be 0: the one-processor run is the baseline (got " +
                                       shortest(run.value) + ")");
        overhead.points.emplace_back(run.n, run.value);
    }
    if (std::none_of(overhead.points.begin(), overhead.points.end(), [](const auto& p) { return p.first == 1; }))
        overhead.points.emplace_back(1, 0.0);
    std::sort(overhead.points.begin(), overhead.points.end());
    return overhead;
}

}  // namespace amdahl
