// Benchmark harnesses' results compared benchmark by benchmark (see amdahl/harness.hpp), and
// --sum, which makes them the phases of one job.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/harness.hpp"
#include "amdahl/report.hpp"
#include "report/numbers.hpp"

namespace amdahl {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// One side: each benchmark's runs over all of the side's files, in order of first appearance.
struct Side {
    std::vector<std::string> names;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::vector<double>> runs;
    std::vector<Unit> units;
};

Side gather(const std::vector<HarnessFile>& files) {
    Side side;
    for (const HarnessFile& file : files) {
        for (const BenchmarkRuns& benchmark : file.benchmarks) {
            const auto [it, inserted] = side.index.emplace(benchmark.name, side.names.size());
            if (inserted) {
                side.names.push_back(benchmark.name);
                side.runs.emplace_back();
                side.units.push_back(benchmark.unit);
            }
            for (const double value : benchmark.values)
                side.runs[it->second].push_back(
                    file.higher_is_better ? value : convert(value, benchmark.unit, side.units[it->second]));
        }
    }
    return side;
}

// The rows' figures from the two sides' runs (either may be empty: added or removed).
BenchmarkChange change_of(const std::string& name, const std::string& before_name, const std::vector<double>& before,
                          const std::vector<double>& after, Unit unit, bool higher_is_better,
                          const CompareOptions& options) {
    BenchmarkChange row;
    row.name = name;
    row.before_name = before_name;
    row.unit = unit;
    if (!before.empty()) row.before = median_interval(before);
    if (!after.empty()) row.after = median_interval(after);
    if (before.empty()) {
        row.status = PhaseStatus::added;
        return row;
    }
    if (after.empty()) {
        row.status = PhaseStatus::removed;
        return row;
    }
    row.shift = options.paired ? paired_shift_interval(before, after) : shift_interval(before, after);
    const double base = row.before.median;
    row.change = row.after.median - base;
    if (row.shift.confidence == 0)  // one run a side: the point
        row.shift.low = row.shift.high = row.shift.bound_low = row.shift.bound_high = row.change;
    // Worse is positive: more time, or less throughput.
    const double sign = higher_is_better ? -1 : 1;
    // From 0 (a body the compiler removed reads 0 ns) any growth is infinitely worse.
    const auto fraction = [&](double change) {
        if (base > 0) return sign * change / base;
        return change == 0 ? 0.0 : sign * change * infinity;
    };
    row.regression = fraction(row.change);
    row.regression_low = std::min(fraction(row.shift.low), fraction(row.shift.high));
    row.regression_high = std::max(fraction(row.shift.low), fraction(row.shift.high));
    row.regression_bound = higher_is_better ? fraction(row.shift.bound_high) : fraction(row.shift.bound_low);
    // Better is above 1: before / after for a time, after / before for a throughput.
    const auto speedup = [&](double change) {
        const double after_value = std::max(base + change, 0.0);
        if (higher_is_better) return base > 0 ? after_value / base : infinity;
        return after_value > 0 ? base / after_value : infinity;
    };
    row.speedup = speedup(row.change);
    row.speedup_low = std::min(speedup(row.shift.low), speedup(row.shift.high));
    row.speedup_high = std::max(speedup(row.shift.low), speedup(row.shift.high));
    row.speedup_bound = higher_is_better ? speedup(row.shift.bound_low) : speedup(row.shift.bound_high);
    if (row.change == 0 && row.shift.low == 0 && row.shift.high == 0)
        row.status = PhaseStatus::unchanged;
    else if (std::fabs(row.change) < options.noise * base || (row.shift.low <= 0 && 0 <= row.shift.high))
        row.status = PhaseStatus::noise;
    else
        row.status = row.regression > 0 ? PhaseStatus::slower : PhaseStatus::faster;
    return row;
}

std::string percent(double fraction) { return shortest(fraction * 100) + "%"; }

}  // namespace

BenchmarkComparison compare_benchmarks(const std::vector<HarnessFile>& before_files,
                                       const std::vector<HarnessFile>& after_files, const CompareOptions& options) {
    BenchmarkComparison out;
    const HarnessFile& first = before_files.front();
    out.harness = first.harness;
    out.metric = first.metric;
    out.higher_is_better = first.higher_is_better;
    out.paired = options.paired;
    out.noise = options.noise;
    for (const auto* files : {&before_files, &after_files}) {
        for (const HarnessFile& file : *files) {
            if (file.harness != out.harness)
                throw Error(file.source, std::string("is ") + harness_name(file.harness) + " output, but " +
                                             first.source + " is " + harness_name(out.harness) +
                                             "'s: compare the same harness's results");
            if (file.metric != out.metric)
                throw Error(file.source, "reports " + file.metric + ", but " + first.source + " " + out.metric);
            out.notes.insert(out.notes.end(), file.notes.begin(), file.notes.end());
        }
    }
    const Side before = gather(before_files), after = gather(after_files);

    std::vector<std::optional<std::size_t>> match(before.names.size());
    std::vector<bool> claimed(after.names.size(), false);
    for (const auto& [old_name, new_name] : options.renames) {
        const auto b = before.index.find(old_name);
        const auto a = after.index.find(new_name);
        if (b == before.index.end()) {
            out.notes.push_back("--rename " + old_name + "=" + new_name + ": '" + old_name +
                                "' is not a benchmark of BEFORE; the rename is not used");
            continue;
        }
        if (a == after.index.end())
            throw Error("--rename", "'" + printable(old_name + "=" + new_name) + "': '" + printable(new_name) +
                                        "' is not a benchmark of AFTER");
        if (match[b->second] || claimed[a->second])
            throw Error("--rename", "'" + printable(old_name + "=" + new_name) + "' renames a benchmark twice");
        match[b->second] = a->second;
        claimed[a->second] = true;
    }
    for (std::size_t b = 0; b < before.names.size(); ++b) {
        if (match[b]) continue;
        const auto a = after.index.find(before.names[b]);
        if (a != after.index.end() && !claimed[a->second]) {
            match[b] = a->second;
            claimed[a->second] = true;
        }
    }
    // Most benchmarks of each side in that side alone: the rows compare nothing, and do not say why.
    const auto first_unmatched = [](const auto& unmatched, std::size_t n) {
        std::size_t count = 0, at = n;
        for (std::size_t i = 0; i < n; ++i)
            if (unmatched(i)) ++count, at = std::min(at, i);
        return std::pair{count, at};
    };
    const auto [gone, first_gone] = first_unmatched([&](std::size_t b) { return !match[b]; }, before.names.size());
    const auto [added, first_added] = first_unmatched([&](std::size_t a) { return !claimed[a]; }, after.names.size());
    if (2 * gone > before.names.size() && 2 * added > after.names.size())
        out.notes.push_back(fmt::format(
            "{} of BEFORE's {} and {} of AFTER's {} are in one side only ('{}' only in BEFORE, '{}' only in AFTER), "
            "so those rows compare nothing: if they were renamed, line them up with --rename OLD=NEW or --renames "
            "FILE",
            gone, count_of(before.names.size(), "benchmark"), added, after.names.size(),
            printable(before.names[first_gone]), printable(after.names[first_added])));
    static const std::vector<double> none;
    for (std::size_t b = 0; b < before.names.size(); ++b) {
        std::vector<double> after_runs;
        if (match[b]) {
            after_runs = after.runs[*match[b]];
            if (!out.higher_is_better)  // AFTER's unit may be another: BEFORE's counts
                for (double& value : after_runs) value = convert(value, after.units[*match[b]], before.units[b]);
            if (options.paired && after_runs.size() != before.runs[b].size())
                throw Error("--paired",
                            fmt::format("pairs run i of BEFORE with run i of AFTER, but benchmark '{}' has "
                                        "{} runs in BEFORE and {} in AFTER",
                                        printable(before.names[b]), before.runs[b].size(), after_runs.size()));
        }
        const std::string name = match[b] ? after.names[*match[b]] : before.names[b];
        out.rows.push_back(change_of(name, before.names[b], before.runs[b], match[b] ? after_runs : none,
                                     before.units[b], out.higher_is_better, options));
    }
    for (std::size_t a = 0; a < after.names.size(); ++a)
        if (!claimed[a])
            out.rows.push_back(
                change_of(after.names[a], "", none, after.runs[a], after.units[a], out.higher_is_better, options));
    return out;
}

std::vector<GateResult> check_benchmark_gates(const BenchmarkComparison& c, const std::vector<Gate>& gates,
                                              const NumberStyle& style) {
    std::vector<GateResult> results;
    for (const Gate& gate : gates) {
        GateResult result;
        result.gate = gate.text;
        result.threshold = gate.threshold;
        std::vector<const BenchmarkChange*> rows;
        switch (gate.type) {
            case Gate::Type::phase_costs:
                throw Error("--fail-if-phase-costs",
                            "measures a phase against the job's total, and benchmarks are compared one by one; give "
                            "--sum if they are steps of one job");
            case Gate::Type::slower:
            case Gate::Type::speedup:
                result.kind = gate.type == Gate::Type::slower ? "fail_if_slower" : "require_speedup";
                for (const BenchmarkChange& row : c.rows) rows.push_back(&row);
                break;
            case Gate::Type::phase_slower: {
                result.kind = "fail_if_phase_slower";
                result.selector = gate.selector.text;
                Profile names;
                for (const BenchmarkChange& row : c.rows) {
                    Phase phase;
                    phase.name = row.name;
                    names.phases.push_back(std::move(phase));
                }
                try {
                    for (std::size_t i : select_phases(names, gate.selector)) rows.push_back(&c.rows[i]);
                } catch (const Error& e) {
                    throw Error(gate.text, e.message());
                }
                break;
            }
        }
        const bool speedup_gate = gate.type == Gate::Type::speedup;
        std::vector<std::string> failures;
        std::string worst;
        double worst_value = speedup_gate ? infinity : -infinity;
        result.observed = result.low = result.high = result.bound = std::numeric_limits<double>::quiet_NaN();
        std::string gone;  // benchmarks this gate cannot check: said in its detail
        for (const BenchmarkChange* row : rows) {
            if (row->status == PhaseStatus::removed) gone += (gone.empty() ? "'" : ", '") + printable(row->name) + "'";
            if (row->status == PhaseStatus::added || row->status == PhaseStatus::removed) {
                if (row->status == PhaseStatus::added && !speedup_gate)
                    failures.push_back("'" + printable(row->name) + "' is new in AFTER: nothing to compare it with");
                continue;
            }
            const bool within_noise = std::fabs(row->regression) < c.noise;
            const std::string noise_said = within_noise ? " (within --noise, counted as no change)" : "";
            bool failed = false;
            std::string measured;
            GatePhase phase{row->name, 0, 0, 0, 0, true};
            if (speedup_gate) {
                const double bound = within_noise ? 1.0 : row->speedup_bound;
                failed = bound < gate.threshold * (1 - 1e-12);
                measured =
                    fmt::format("'{}' {} (lower bound {}){}", printable(row->name), format_speedup(row->speedup, style),
                                format_speedup(row->speedup_bound, style), noise_said);
                phase = {row->name, row->speedup, row->speedup_low, row->speedup_high, row->speedup_bound, !failed};
                if (row->speedup < worst_value) worst_value = row->speedup, worst = measured;
            } else {
                const double bound = within_noise ? std::min(row->regression_bound, 0.0) : row->regression_bound;
                failed = bound > gate.threshold + 1e-12 * std::max(1.0, gate.threshold);
                measured = fmt::format("'{}' {} {} (one-sided bound {}){}", printable(row->name),
                                       format_signed_share(row->regression, style),
                                       c.higher_is_better ? "less throughput" : "slower",
                                       format_signed_share(row->regression_bound, style), noise_said);
                phase = {row->name, row->regression, row->regression_low, row->regression_high, row->regression_bound,
                         !failed};
                if (row->regression > worst_value) worst_value = row->regression, worst = measured;
            }
            if (failed) failures.push_back(measured);
            if (std::isnan(result.observed) ||
                (speedup_gate ? phase.observed < result.observed : phase.observed > result.observed)) {
                result.observed = phase.observed;
                result.low = phase.low;
                result.high = phase.high;
                result.bound = phase.bound;
            }
            result.phases.push_back(std::move(phase));
        }
        // A whole-run gate with no benchmark on both sides checks nothing: passing it (or failing it
        // for the new ones alone) would say the run was checked. Benchmarks renamed, most likely.
        if (gate.type != Gate::Type::phase_slower && worst.empty() && !gone.empty()) {
            std::string added;
            for (const BenchmarkChange* row : rows)
                if (row->status == PhaseStatus::added)
                    added += (added.empty() ? "'" : ", '") + printable(row->name) + "'";
            throw Error(gate.text, "no benchmark is on both sides (" + gone + " only in BEFORE" +
                                       (added.empty() ? "" : "; " + added + " only in AFTER") +
                                       "), so it checks nothing; if they were renamed, give --rename OLD=NEW");
        }
        result.passed = failures.empty();
        if (!failures.empty()) {
            std::string detail;
            for (std::size_t i = 0; i < failures.size() && i < 5; ++i) detail += (i ? "; " : "") + failures[i];
            if (failures.size() > 5) detail += fmt::format("; and {} more", failures.size() - 5);
            result.detail = detail + (speedup_gate ? ": below the required " + format_speedup(gate.threshold, style)
                                                   : ": more than " + percent(gate.threshold));
        } else if (worst.empty()) {
            // Every benchmark it selects is gone from AFTER (removed, or every repetition failed): a
            // gate that silently stops checking is worse than none.
            if (gone.empty()) {
                result.detail = "no benchmark on both sides to check";
            } else if (gate.skip_when_gone) {
                result.detail = "skipped: every benchmark it selects is gone from AFTER (" + gone + ")";
                result.skipped = true;
            } else {
                throw Error(gate.text, "every benchmark it selects is gone from AFTER (" + gone +
                                           "), so it checks nothing; give --rename OLD=NEW if it was renamed, or "
                                           "--on-missing-gate skip to skip the gate");
            }
        } else {
            result.detail = fmt::format("{} benchmark{}, the worst: {}: {}", result.phases.size(),
                                        result.phases.size() == 1 ? "" : "s", worst,
                                        speedup_gate ? "at least the required " + format_speedup(gate.threshold, style)
                                                     : "not more than " + percent(gate.threshold));
        }
        if (!gone.empty() && !worst.empty()) result.detail += " (gone from AFTER, not checked: " + gone + ")";
        results.push_back(std::move(result));
    }
    return results;
}

CompareSide summed_side(const std::vector<HarnessFile>& files, const char* label) {
    if (files.front().higher_is_better)
        throw Error("--sum",
                    "adds the benchmarks' times as steps of one job; throughputs do not add up (leave out "
                    "--higher-is-better)");
    const Side side = gather(files);
    const std::size_t runs = side.runs.front().size();
    for (std::size_t b = 0; b < side.names.size(); ++b) {
        if (side.runs[b].size() != runs)
            throw Error("--sum", fmt::format("makes run i of {} the sum of every benchmark's run i, but '{}' has {} "
                                             "runs and '{}' {}",
                                             label, printable(side.names.front()), runs, printable(side.names[b]),
                                             side.runs[b].size()));
    }
    const Unit unit = side.units.front();
    CompareSide out;
    for (std::size_t r = 0; r < runs; ++r) {
        Profile profile;
        profile.source = files.front().source + " (run " + std::to_string(r + 1) + ")";
        profile.format = harness_name(files.front().harness);
        profile.unit = unit;
        for (std::size_t b = 0; b < side.names.size(); ++b) {
            Phase phase;
            phase.name = side.names[b];
            phase.kind = "benchmark";
            phase.time = convert(side.runs[b][r], side.units[b], unit);
            profile.phases.push_back(std::move(phase));
        }
        out.profiles.push_back(std::move(profile));
    }
    return out;
}

}  // namespace amdahl
