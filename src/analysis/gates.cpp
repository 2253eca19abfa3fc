// CI gates on a comparison: end-to-end slowdown, per-phase slowdown, required speedup.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "amdahl/compare.hpp"
#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "model/text.hpp"
#include "report/numbers.hpp"

namespace amdahl {

using detail::lower;
using detail::trim;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

GateResult outcome(const Gate& gate, bool passed, std::string detail, bool skipped = false) {
    GateResult result;
    result.gate = gate.text;
    result.passed = passed;
    result.detail = std::move(detail);
    result.skipped = skipped;
    return result;
}

// A percentage the user gave, as they wrote it: "2%", "0.5%".
std::string user_percent(double fraction) { return shortest(fraction * 100) + "%"; }

// Thresholds are decimals the user wrote and times decimals a profile wrote, but their quotients
// carry binary rounding in the 16th digit: 0.7 -> 0.735 is +5.000000000000004%. A value is past a
// threshold only by more than 1e-12 (of the threshold, or absolutely below 1), far below any change
// a run can measure, so a change of exactly 5% never fails a 5% gate.
double rounding_allowance(double threshold) { return 1e-12 * std::max(1.0, std::fabs(threshold)); }
bool above(double value, double threshold) { return value > threshold + rounding_allowance(threshold); }
bool at_least(double value, double threshold) { return value >= threshold - rounding_allowance(threshold); }

// How a slowdown compares with a threshold, given its point value and the one-sided lower bound of
// its interval (both fractions of the base). Fails only when even the bound is past the threshold
// (the question "did it get slower by more than T?" is one-sided); a change within --noise also
// admits "no change".
struct Slowdown {
    bool failed = false;
    std::string reason;
};

Slowdown judge_slowdown(double point, double bound_low, double bound_confidence, bool within_noise, double noise,
                        double threshold, const NumberStyle& style) {
    const double effective_low = within_noise ? std::min(bound_low, 0.0) : bound_low;
    if (above(effective_low, threshold)) {
        if (bound_confidence == 0) return {true, "more than " + user_percent(threshold)};  // a point
        return {true, "more than " + user_percent(threshold) + ": its " + format_share(bound_confidence, style) +
                          " lower bound is " + format_signed_share(bound_low, style)};
    }
    if (within_noise && above(point, threshold))
        return {false, "within --noise " + user_percent(noise) + ", counted as no change"};
    if (above(point, threshold))
        return {false, "its " + format_share(bound_confidence, style) + " lower bound is " +
                           format_signed_share(bound_low, style) + ", so not clearly more than " +
                           user_percent(threshold)};
    return {false, "not more than " + user_percent(threshold)};
}

std::string interval_text(const Comparison& c, double low, double high, const NumberStyle& style) {
    if (c.before_total.runs <= 1 && c.after_total.runs <= 1) return {};
    return ", interval " + format_signed_share(low, style) + " .. " + format_signed_share(high, style);
}

GateResult check_slower(const Comparison& c, const Gate& gate, const NumberStyle& style) {
    const double base = c.before_total.median;
    const bool within_noise = std::fabs(c.change) < c.noise * base;
    const Slowdown verdict = judge_slowdown(c.change_of_total, c.shift.bound_low / base, c.shift.bound_confidence,
                                            within_noise, c.noise, gate.threshold, style);
    const std::string unit(unit_name(c.unit));
    const std::string measured = fmt::format("end to end {} of the before total ({} \xe2\x86\x92 {} {}{})",
                                             format_signed_share(c.change_of_total, style), format_time(base, style),
                                             format_time(c.after_total.median, style), unit,
                                             interval_text(c, c.change_low / base, c.change_high / base, style));
    return outcome(gate, !verdict.failed, measured + ": " + verdict.reason);
}

// A required speedup passes only when its one-sided lower bound reaches it: a speedup the
// run-to-run spread could explain is no speedup. (Slowdown gates are the other way round: they fail
// only when the lower bound of the slowdown is past the threshold. Either way noise never decides
// for the change.)
GateResult check_speedup(const Comparison& c, const Gate& gate, const NumberStyle& style) {
    const bool within_noise = std::fabs(c.change) < c.noise * c.before_total.median;
    const double effective_low = within_noise ? 1.0 : c.speedup_bound_low;  // noise: no change, a speedup of 1
    const bool passed = at_least(effective_low, gate.threshold);
    std::string measured = "end to end " + format_speedup(c.speedup, style);
    if (c.before_total.runs > 1 || c.after_total.runs > 1)
        measured +=
            " (interval " + format_speedup(c.speedup_low, style) + " .. " + format_speedup(c.speedup_high, style) + ")";
    const std::string required = format_speedup(gate.threshold, style);
    std::string reason;
    if (passed && within_noise)
        reason =
            "within --noise " + user_percent(c.noise) + ", counted as no change: at least the required " + required;
    else if (passed)
        reason = "at least the required " + required;
    else if (within_noise)
        reason = "within --noise " + user_percent(c.noise) + ", counted as no change: not the required " + required;
    else if (at_least(c.speedup, gate.threshold))
        reason = "its " + format_share(c.shift.bound_confidence, style) + " lower bound is " +
                 format_speedup(c.speedup_bound_low, style) + ", so not clearly the required " + required;
    else
        reason = "below the required " + required;
    return outcome(gate, passed, measured + ": " + reason);
}

// The rows a phase gate's selector picks. It sees each phase under its AFTER name and, when
// renamed, its BEFORE name.
std::vector<std::size_t> selected_rows(const Comparison& c, const Gate& gate, const char* option,
                                       std::vector<std::string>* notes) {
    Profile names;
    std::vector<std::size_t> row_of;
    for (std::size_t r = 0; r < c.phases.size(); ++r) {
        const PhaseChange& row = c.phases[r];
        if (row.status == PhaseStatus::residual) continue;
        for (const std::string* name : {&row.name, &row.before_name}) {
            if (name->empty() || (name == &row.before_name && row.before_name == row.name)) continue;
            Phase phase;
            phase.name = *name;
            phase.kind = row.kind;
            names.phases.push_back(std::move(phase));
            row_of.push_back(r);
        }
    }
    std::vector<std::size_t> rows;
    try {
        for (std::size_t i : select_phases(names, gate.selector, notes)) rows.push_back(row_of[i]);
    } catch (const Error& e) {
        throw Error(option, e.message());
    }
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

// Drops the rows below the gate's floors (smaller than --min-time and than --min-share of their
// side's total, on both sides); returns how many.
std::size_t drop_below_floor(const Comparison& c, const Gate& gate, std::vector<std::size_t>& rows) {
    if (gate.min_share <= 0 && gate.min_time <= 0) return 0;
    const auto small = [&](double time, double total) {
        return time < gate.min_time || (total > 0 && time < gate.min_share * total);
    };
    const auto below = [&](std::size_t r) {
        const PhaseChange& row = c.phases[r];
        return small(row.before.median, c.before_total.median) && small(row.after.median, c.after_total.median);
    };
    const std::size_t before = rows.size();
    rows.erase(std::remove_if(rows.begin(), rows.end(), below), rows.end());
    return before - rows.size();
}

std::string floor_note(const Gate& gate, std::size_t below) {
    if (below == 0) return "";
    return fmt::format(" ({} {} below the floor ({}) left out)", below, below == 1 ? "phase" : "phases",
                       gate.floor_text);
}

GateResult below_floor_result(const Gate& gate, std::size_t below) {
    return outcome(gate, true,
                   fmt::format("every phase it selects is below the floor ({}): {} left out, nothing to check",
                               gate.floor_text, below));
}

// The first few failures, so that a gate over thousands of phases still prints one readable line.
std::string listed_failures(const std::vector<std::string>& failures) {
    constexpr std::size_t listed = 5;
    std::string detail;
    for (std::size_t i = 0; i < failures.size() && i < listed; ++i) detail += (i > 0 ? "; " : "") + failures[i];
    if (failures.size() > listed) detail += fmt::format("; and {} more phases", failures.size() - listed);
    return detail;
}

GateResult check_phase_slower(const Comparison& c, const Gate& gate, const NumberStyle& style,
                              std::vector<std::string>* notes, std::vector<GatePhase>& checked) {
    std::vector<std::size_t> rows = selected_rows(c, gate, "--fail-if-phase-slower", notes);
    const std::size_t below = drop_below_floor(c, gate, rows);
    if (rows.empty()) return below_floor_result(gate, below);

    const std::string unit(unit_name(c.unit));
    std::vector<std::string> failures;
    std::string largest;  // the passing phase that grew most, for the detail
    double largest_change = -std::numeric_limits<double>::infinity();
    for (std::size_t r : rows) {
        const PhaseChange& row = c.phases[r];
        if (row.status == PhaseStatus::removed) continue;
        const double base = row.before.median;
        const std::string times =
            fmt::format("{} \xe2\x86\x92 {} {}", format_time(base, style), format_time(row.after.median, style), unit);
        if (base == 0) {
            const double growth = row.after.median > 0 ? infinity : 0.0;
            checked.push_back({row.name, growth, growth, growth, growth, !(row.after.median > 0)});
            if (row.after.median > 0) {
                // Only a phase BEFORE lacks is new; one BEFORE has at 0 grew from 0.
                const std::string grew = row.status == PhaseStatus::added ? " is new in AFTER ("
                                                                          : " grew from 0 " + unit + " in BEFORE (to ";
                failures.push_back(printable(row.name) + grew + format_time(row.after.median, style) + " " + unit +
                                   "): slower than any percentage");
            }
            continue;
        }
        const bool within_noise = std::fabs(row.change) < c.noise * base;
        const Slowdown verdict = judge_slowdown(row.change_of_phase, row.change_bound_low / base, row.bound_confidence,
                                                within_noise, c.noise, gate.threshold, style);
        std::string measured =
            printable(row.name) + " " + format_signed_share(row.change_of_phase, style) + " of phase (" + times;
        if (row.before.runs > 1 || row.after.runs > 1)
            measured += ", interval " + format_signed_share(row.change_low / base, style) + " .. " +
                        format_signed_share(row.change_high / base, style);
        measured += ")";
        checked.push_back({row.name, row.change_of_phase, row.change_low / base, row.change_high / base,
                           row.change_bound_low / base, !verdict.failed});
        if (verdict.failed) {
            failures.push_back(measured + ": " + verdict.reason);
        } else if (row.change_of_phase > largest_change) {
            largest_change = row.change_of_phase;
            largest = measured + ": " + verdict.reason;
        }
    }
    if (!failures.empty()) return outcome(gate, false, listed_failures(failures) + floor_note(gate, below));
    const bool all_gone = std::all_of(rows.begin(), rows.end(),
                                      [&](std::size_t r) { return c.phases[r].status == PhaseStatus::removed; });
    if (largest.empty() && !all_gone) return outcome(gate, true, "every phase it selects took no time on either side");
    if (largest.empty()) {
        // Every phase it selects is gone from AFTER: a gate that silently stops checking is worse
        // than none. An error, with what AFTER has instead, unless the user chose to skip.
        std::string gone, added;
        for (std::size_t r : rows) gone += (gone.empty() ? "'" : ", '") + printable(c.phases[r].name) + "'";
        for (const PhaseChange& row : c.phases)
            if (row.status == PhaseStatus::added) added += (added.empty() ? "'" : ", '") + printable(row.name) + "'";
        const std::string what = "every phase it selects is gone from AFTER (" + gone + ")";
        if (gate.skip_when_gone) {
            if (notes) notes->push_back(gate.text + ": skipped: " + what + " (--on-missing-gate skip)");
            return outcome(gate, true, "skipped: " + what, true);
        }
        const std::string first = printable(c.phases[rows.front()].name);
        throw Error(gate.text, what + ", so it checks nothing; if " + (rows.size() > 1 ? "they were" : "it was") +
                                   " renamed, give --rename " + first + "=NEW" +
                                   (added.empty() ? "" : " (new in AFTER: " + added + ")") +
                                   ", or --on-missing-gate skip to skip the gate");
    }
    return outcome(gate, true,
                   (rows.size() > 1 ? std::to_string(rows.size()) + " phases, the largest change: " : "") + largest +
                       floor_note(gate, below));
}

// --fail-if-phase-costs SELECTOR=P%: fails when a phase's change adds more than P% of BEFORE's
// total (all of its interval above it): a new 1 ns kernel costs nothing, a phase that doubles
// from 10 ns too, whatever they do to their own time.
GateResult check_phase_costs(const Comparison& c, const Gate& gate, const NumberStyle& style,
                             std::vector<std::string>* notes, std::vector<GatePhase>& checked) {
    std::vector<std::size_t> rows = selected_rows(c, gate, "--fail-if-phase-costs", notes);
    const std::size_t below = drop_below_floor(c, gate, rows);
    if (rows.empty()) return below_floor_result(gate, below);
    const double total = c.before_total.median;
    const std::string unit(unit_name(c.unit));
    std::vector<std::string> failures;
    std::string largest;
    double largest_cost = -std::numeric_limits<double>::infinity();
    for (std::size_t r : rows) {
        const PhaseChange& row = c.phases[r];
        const double cost = total > 0 ? row.change / total : 0;
        const double cost_low = total > 0 ? row.change_bound_low / total : 0;
        std::string measured =
            fmt::format("{} {} of the BEFORE total ({} {} {})", printable(row.name), format_signed_share(cost, style),
                        row.change >= 0 ? "adds" : "saves", format_time(std::fabs(row.change), style), unit);
        const bool fails = above(cost_low, gate.threshold);
        checked.push_back({row.name, cost, total > 0 ? row.change_low / total : 0,
                           total > 0 ? row.change_high / total : 0, cost_low, !fails});
        if (fails) {
            failures.push_back(measured + ": more than the allowed " + format_share(gate.threshold, style));
        } else if (cost > largest_cost) {
            largest_cost = cost;
            largest = measured + (above(cost, gate.threshold)
                                      ? ": above the allowed " + format_share(gate.threshold, style) +
                                            " but within the run-to-run interval"
                                      : ": within the allowed " + format_share(gate.threshold, style));
        }
    }
    if (!failures.empty()) return outcome(gate, false, listed_failures(failures) + floor_note(gate, below));
    return outcome(gate, true,
                   (rows.size() > 1 ? std::to_string(rows.size()) + " phases, the largest cost: " : "") + largest +
                       floor_note(gate, below));
}

// An end-to-end gate whose threshold is below the change these runs can detect passes most
// regressions just past it: said, with the runs that would detect it (the detectable change shrinks
// as 1/sqrt(runs)).
void warn_below_detectable(const Comparison& c, const Gate& gate, const NumberStyle& style,
                           std::vector<std::string>& notes) {
    const double detectable = c.min_detectable_change;
    if (!std::isfinite(detectable) || detectable <= 0) return;
    double threshold = 0;  // as a change of the before total
    if (gate.type == Gate::Type::slower)
        threshold = gate.threshold;
    else if (gate.type == Gate::Type::speedup && gate.threshold > 1)
        threshold = 1 - 1 / gate.threshold;
    else
        return;
    if (threshold <= 0 || threshold >= detectable) return;
    const std::size_t n = c.shift.runs_before, m = c.shift.runs_after;
    const std::string runs = c.shift.paired ? fmt::format("{} pairs", n)
                             : n == m       ? fmt::format("{} runs a side", n)
                                            : fmt::format("{} and {} runs", n, m);
    // The detectable change with N runs a side is the one-run figure / sqrt(N).
    const double per_run = c.detectable_change_one_run / threshold;
    const double needed = std::ceil(per_run * per_run);
    const std::string wanted =
        gate.type == Gate::Type::slower ? user_percent(threshold) : format_share(threshold, style);
    const std::string reliably =
        gate.type == Gate::Type::slower
            ? "a slowdown must be near " + format_share(threshold + detectable, style) + " to fail it reliably"
        : threshold + detectable >= 1 ? "no saving these runs can show would pass it reliably"
                                      : "a speedup must save near " + format_share(threshold + detectable, style) +
                                            " of the total to pass it reliably";
    notes.push_back(fmt::format(
        "{}: with {} and this run-to-run spread (CV {} before, {} after), the smallest change the one-sided 95% "
        "bound detects 80% of the time is {} of the total, more than the gate's {}: {}; about {} {} would detect {}",
        gate.text, runs, format_share(c.before_total.cv, style), format_share(c.after_total.cv, style),
        format_share(detectable, style), wanted, reliably, shortest(needed), c.shift.paired ? "pairs" : "runs a side",
        wanted));
}

// The gate's figures for scripts, beside the words of `detail`.
void describe(const Comparison& c, const Gate& gate, std::vector<GatePhase> checked, GateResult& result) {
    result.threshold = gate.threshold;
    const double base = c.before_total.median;
    switch (gate.type) {
        case Gate::Type::slower:
            result.kind = "fail_if_slower";
            result.observed = c.change_of_total;
            result.low = c.change_low / base;
            result.high = c.change_high / base;
            result.bound = c.shift.bound_low / base;
            return;
        case Gate::Type::speedup:
            result.kind = "require_speedup";
            result.observed = c.speedup;
            result.low = c.speedup_low;
            result.high = c.speedup_high;
            result.bound = c.speedup_bound_low;
            return;
        case Gate::Type::phase_slower:
        case Gate::Type::phase_costs:
            result.kind = gate.type == Gate::Type::phase_slower ? "fail_if_phase_slower" : "fail_if_phase_costs";
            result.selector = gate.selector.text;
            result.observed = result.low = result.high = result.bound = nan;
            for (const GatePhase& phase : checked) {
                if (!std::isnan(result.observed) && !(phase.observed > result.observed)) continue;
                result.observed = phase.observed;
                result.low = phase.low;
                result.high = phase.high;
                result.bound = phase.bound;
            }
            result.phases = std::move(checked);
            return;
    }
}

}  // namespace

bool meets_threshold(double value, double threshold) { return at_least(value, threshold); }

double parse_percentage(std::string_view text) {
    const std::string_view number = trim(text);
    Quantity q;
    bool ok = !number.empty() && number.back() == '%';
    if (ok) {
        try {
            q = parse_quantity(number);
        } catch (const Error&) {
            ok = false;
        }
    }
    if (!ok || !q.percent || q.unit || q.value < 0)
        throw Error("expected a percentage >= 0 such as 2% (got '" + printable(text) + "')");
    return q.value / 100;
}

Gate parse_phase_gate(std::string_view text) {
    Gate gate;
    gate.type = Gate::Type::phase_slower;
    const auto eq = text.rfind('=');
    if (eq == std::string_view::npos)
        throw Error("expected SELECTOR=PERCENT such as attention_softmax=5% (got '" + printable(text) + "')");
    try {
        gate.selector = parse_selector(text.substr(0, eq));
        gate.threshold = parse_percentage(text.substr(eq + 1));
    } catch (const Error& e) {
        throw Error("'" + printable(text) + "': " + e.message());
    }
    return gate;
}

std::vector<GateResult> check_gates(const Comparison& comparison, const std::vector<Gate>& gates,
                                    const NumberStyle& style, std::vector<std::string>* notes) {
    std::vector<GateResult> results;
    results.reserve(gates.size());
    for (const Gate& gate : gates) {
        if (notes) warn_below_detectable(comparison, gate, style, *notes);
        std::vector<GatePhase> checked;
        switch (gate.type) {
            case Gate::Type::slower:
                results.push_back(check_slower(comparison, gate, style));
                break;
            case Gate::Type::speedup:
                results.push_back(check_speedup(comparison, gate, style));
                break;
            case Gate::Type::phase_slower:
                results.push_back(check_phase_slower(comparison, gate, style, notes, checked));
                break;
            case Gate::Type::phase_costs:
                results.push_back(check_phase_costs(comparison, gate, style, notes, checked));
                break;
        }
        describe(comparison, gate, std::move(checked), results.back());
    }
    return results;
}

}  // namespace amdahl
