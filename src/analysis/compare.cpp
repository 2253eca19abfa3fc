// Comparing BEFORE and AFTER: phases matched by name, the end-to-end change attributed to each
// phase, and Amdahl's law as a check on the measurement.
#include "amdahl/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/harness.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "report/numbers.hpp"

namespace amdahl {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
// Rounding allowance when the prediction is checked against the measurement: the same 0.5% that
// profiles may round their totals by.
constexpr double rounding_tolerance = 0.005;

// One side's phases across its runs (profiles).
struct SideTable {
    std::vector<std::string> names;  // in order of first appearance
    std::vector<std::string> kinds;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::vector<double>> times;  // [phase][profile]; NaN where a profile lacks it (--missing skip)
    std::vector<std::size_t> present;        // profiles that have the phase
    std::vector<Spread> spreads;
    std::vector<double> totals;  // end to end, one a run: the profiles' totals or their `runs`
    Spread total;
    double phase_sum = 0;  // Σ of the phase medians, in this side's order
};

// The runs of a side that have the phase. (A profile without a phase holds NaN there only under
// --missing skip; --missing zero has put 0 there, and the default refused.)
std::vector<double> present_runs(const std::vector<double>& times) {
    std::vector<double> present;
    present.reserve(times.size());
    for (const double t : times)
        if (!std::isnan(t)) present.push_back(t);
    return present;
}

// The change from `before` to `after` (one value a run) with its intervals: paired runs keep only
// the pairs where both runs have the phase.
SideTable tabulate(const CompareSide& side, const std::string& label, MissingPhases missing,
                   std::vector<std::string>& notes) {
    constexpr double absent = std::numeric_limits<double>::quiet_NaN();  // a run without the phase
    SideTable table;
    const std::size_t count = side.profiles.size();
    std::vector<double>& totals = table.totals;
    for (std::size_t r = 0; r < count; ++r) {
        const Profile& profile = side.profiles[r];
        for (const Phase& phase : profile.phases) {
            const auto [it, inserted] = table.index.emplace(phase.name, table.names.size());
            if (inserted) {
                table.names.push_back(phase.name);
                table.kinds.push_back(phase.kind);
                table.times.emplace_back(count, absent);
                table.present.push_back(0);
            }
            table.times[it->second][r] = phase.time;
            ++table.present[it->second];
        }
        if (profile.runs.empty())
            totals.push_back(profile.total());
        else
            totals.insert(totals.end(), profile.runs.begin(), profile.runs.end());
    }
    Summation sum;
    for (std::size_t i = 0; i < table.names.size(); ++i) {
        std::vector<double>& times = table.times[i];
        if (table.present[i] < count) {
            const std::string in_some = "phase '" + printable(table.names[i]) + "' is in " +
                                        std::to_string(table.present[i]) + " of the " + std::to_string(count) + " " +
                                        label + " profiles";
            switch (missing) {
                case MissingPhases::error: {
                    std::string lacking;
                    std::size_t listed = 0;
                    for (std::size_t r = 0; r < count; ++r) {
                        if (!std::isnan(times[r])) continue;
                        if (listed++ < 3) lacking += (lacking.empty() ? "" : ", ") + printable(side.profiles[r].source);
                    }
                    if (listed > 3) lacking += " and " + std::to_string(listed - 3) + " more";
                    throw Error(label, in_some + " (not in " + lacking +
                                           "): a phase that comes and goes between runs has no median to compare; "
                                           "give --missing zero if it took no time in those runs, or --missing "
                                           "skip to take its median over the runs that have it");
                }
                case MissingPhases::zero:
                    std::replace_if(
                        times.begin(), times.end(), [](double t) { return std::isnan(t); }, 0.0);
                    notes.push_back(in_some + "; it counts as 0 in the others (--missing zero)");
                    break;
                case MissingPhases::skip:
                    notes.push_back(in_some + "; its median is over those " + std::to_string(table.present[i]) +
                                    " (--missing skip)");
                    break;
            }
        }
        table.spreads.push_back(median_interval(present_runs(times)));
        sum.add(table.spreads.back().median);
    }
    table.phase_sum = sum.value();
    table.total = median_interval(totals);
    return table;
}

ShiftInterval change_interval(const std::vector<double>& before, const std::vector<double>& after, bool paired) {
    if (!paired) return shift_interval(present_runs(before), present_runs(after));
    std::vector<double> b, a;
    for (std::size_t i = 0; i < before.size() && i < after.size(); ++i) {
        if (std::isnan(before[i]) || std::isnan(after[i])) continue;
        b.push_back(before[i]);
        a.push_back(after[i]);
    }
    if (b.empty()) return shift_interval(present_runs(before), present_runs(after));  // no run has both
    return paired_shift_interval(b, a);
}

// "--rename OLD=NEW: 'OLD' is not a phase of BEFORE; did you mean ...?"
Error not_a_phase(const std::string& rename, const std::string& name, const SideTable& side, const char* label) {
    Profile names;
    for (const auto& n : side.names) {
        Phase phase;
        phase.name = n;
        names.phases.push_back(std::move(phase));
    }
    std::string hint;
    Selector selector;
    selector.pattern = selector.text = name;
    try {
        select_phases(names, selector);
    } catch (const Error& e) {
        if (const auto at = e.message().find("; did you mean"); at != std::string::npos) hint = e.message().substr(at);
    }
    return Error("--rename",
                 "'" + printable(rename) + "': '" + printable(name) + "' is not a phase of " + label + hint);
}

// A change too small to be anything but rounding (unit conversions, sums): 1e-12 of its size.
bool negligible(double change, double before, double after) {
    return std::fabs(change) <= 1e-12 * std::max(std::fabs(before), std::fabs(after));
}

// A change is noise when it is below `noise` of its base, or when its interval allows no change.
bool is_noise(double change, double low, double high, double base, double noise) {
    return std::fabs(change) < noise * base || (low <= 0 && 0 <= high);
}

PhaseChange phase_change(const SideTable& before, std::optional<std::size_t> b, const SideTable& after,
                         std::optional<std::size_t> a, const CompareOptions& options, std::vector<std::string>& notes) {
    const double noise = options.noise;
    PhaseChange row;
    if (b) {
        row.before_name = before.names[*b];
        row.before = before.spreads[*b];
        row.kind = before.kinds[*b];
    }
    if (a) {
        row.after = after.spreads[*a];
        if (!after.kinds[*a].empty()) row.kind = after.kinds[*a];
    }
    row.name = a ? after.names[*a] : before.names[*b];
    const double old_time = row.before.median, new_time = row.after.median;
    row.change = new_time - old_time;
    if (a && b) {
        const ShiftInterval shift = change_interval(before.times[*b], after.times[*a], options.paired);
        if (options.paired && !shift.paired)
            notes.push_back("phase '" + printable(row.name) +
                            "': no pair of runs has it on both sides (--missing skip), so its interval is unpaired");
        // A run is not a time: after the change a phase takes no less than no time at all.
        const double floor = -row.before.high;
        row.change_low = std::max(shift.low, floor);
        row.change_high = std::max(shift.high, floor);
        row.change_bound_low = std::max(shift.bound_low, floor);
        row.change_bound_high = std::max(shift.bound_high, floor);
        row.bound_confidence = shift.bound_confidence;
        if (shift.confidence == 0) {
            // One run a side, or one pair: no interval, the medians' difference as with single runs.
            row.change_low = row.change_high = row.change_bound_low = row.change_bound_high = row.change;
            row.bound_confidence = 0;
        }
    } else {
        // On one side only: the change is the other side's time, with that side's interval.
        const Spread& side = a ? row.after : row.before;
        const double sign = a ? 1 : -1;
        row.change_low = row.change_bound_low = std::min(sign * side.low, sign * side.high);
        row.change_high = row.change_bound_high = std::max(sign * side.low, sign * side.high);
        row.bound_confidence = side.confidence;
    }
    // Change as a fraction of the phase: (T' - T) / T; a phase that took no time grows without bound.
    row.change_of_phase = old_time > 0 ? row.change / old_time : (row.change > 0 ? infinity : 0.0);
    // Local speedup k = T / T'.
    // k = T / T': 0 for a phase only in AFTER (whatever its time there, --missing zero's 0 too),
    // infinite when it takes no time after, 1 when it took none on either side.
    row.local_speedup = !b ? 0.0 : new_time > 0 ? old_time / new_time : (old_time > 0 ? infinity : 1.0);
    if (!b)
        row.status = PhaseStatus::added;
    else if (!a)
        row.status = PhaseStatus::removed;
    else if (negligible(row.change, old_time, new_time))
        row.status = PhaseStatus::unchanged;
    else if (is_noise(row.change, row.change_low, row.change_high, old_time, noise))
        row.status = PhaseStatus::noise;
    else
        row.status = row.change < 0 ? PhaseStatus::faster : PhaseStatus::slower;
    return row;
}

// The smallest end-to-end change these runs can tell from no change (see minimum_detectable_change),
// and the same for one run a side (it shrinks as 1/sqrt(runs)); each side's sigma robust_sigma's.
void set_detectable_change(const SideTable& before, const SideTable& after, bool paired, Comparison& out) {
    const std::vector<double>& b = before.totals;
    const std::vector<double>& a = after.totals;
    // Relative to BEFORE's median, so that squares of 1e300 ms neither overflow nor 1e-300 underflow.
    const double base = before.total.median;
    const double sigma_b = robust_sigma(b) / base, sigma_a = robust_sigma(a) / base;
    double sigma_d = 0;
    if (paired) {
        std::vector<double> differences;
        for (std::size_t i = 0; i < b.size() && i < a.size(); ++i) differences.push_back(a[i] / base - b[i] / base);
        sigma_d = robust_sigma(differences);
    }
    const double detectable = minimum_detectable_change(sigma_b, b.size(), sigma_a, a.size(), paired, sigma_d);
    out.min_detectable_change = detectable;
    if (!std::isfinite(detectable)) {
        out.detectable_change_one_run = detectable;
        return;
    }
    // minimum_detectable_change is z * sqrt(sigma_b^2 / n + sigma_a^2 / m) / efficiency (paired:
    // z * sigma_d / sqrt(n) / efficiency); with one run a side the root's argument is the sum.
    const double per_run = paired ? sigma_d * sigma_d : sigma_b * sigma_b + sigma_a * sigma_a;
    const double now =
        paired ? sigma_d * sigma_d / static_cast<double>(b.size())
               : sigma_b * sigma_b / static_cast<double>(b.size()) + sigma_a * sigma_a / static_cast<double>(a.size());
    out.detectable_change_one_run = now > 0 ? detectable * std::sqrt(per_run / now) : 0.0;
}

// The time amdahl itself accounts for (idle, overlapped, unattributed) under a name of its own:
// no one's name, so never one to line up with another.
bool bookkeeping_name(const std::string& name) {
    return name == idle_phase || name == overlapped_phase || name == unattributed_phase;
}

// Benchmarks summed with --sum: their profiles carry the harness's name as their format.
bool of_benchmarks(const CompareSide& side) {
    return std::any_of(side.profiles.begin(), side.profiles.end(),
                       [](const Profile& p) { return parse_harness_name(p.format).has_value(); });
}

// A phase gone from AFTER and a new one of the same kind and a similar time (within 1.5x) may be
// one phase renamed: said, with the --rename that would match them, when the pair is unambiguous.
void suggest_renames(const SideTable& before, const SideTable& after,
                     const std::vector<std::optional<std::size_t>>& match, const std::vector<bool>& claimed, Unit unit,
                     bool benchmarks, std::vector<std::string>& notes) {
    constexpr double similar = 1.5;
    const auto alike = [&](std::size_t b, std::size_t a) {
        const double old_time = before.spreads[b].median, new_time = after.spreads[a].median;
        return before.kinds[b] == after.kinds[a] && old_time > 0 && new_time > 0 && new_time <= similar * old_time &&
               old_time <= similar * new_time;
    };
    std::vector<std::size_t> gone, added;
    for (std::size_t b = 0; b < before.names.size(); ++b)
        if (!match[b] && !bookkeeping_name(before.names[b])) gone.push_back(b);
    for (std::size_t a = 0; a < after.names.size(); ++a)
        if (!claimed[a] && !bookkeeping_name(after.names[a])) added.push_back(a);
    constexpr std::size_t listed = 5;  // a reorganised codebase would otherwise print hundreds
    // Every pair is weighed: past this many, a reorganisation, not a rename, and no time to spend.
    constexpr std::size_t most_pairs = 10'000'000;
    if (gone.size() * (gone.size() + added.size()) > most_pairs) return;
    std::size_t said = 0;
    for (const std::size_t b : gone) {
        std::optional<std::size_t> only;
        std::size_t candidates = 0;
        for (const std::size_t a : added)
            if (alike(b, a)) ++candidates, only = a;
        if (candidates != 1) continue;
        std::size_t rivals = 0;  // other gone phases the new one is as alike to
        for (const std::size_t other : gone) rivals += alike(other, *only) ? 1 : 0;
        if (rivals != 1 || said++ >= listed) continue;
        notes.push_back(fmt::format(
            "'{}' is gone from AFTER and '{}' is new, of the same kind{} and a similar time ({} \xe2\x86\x92 {}): if "
            "it was renamed, give --rename '{}={}'{}",
            printable(before.names[b]), printable(after.names[*only]),
            before.kinds[b].empty() ? "" : " (" + printable(before.kinds[b]) + ")",
            format_duration(before.spreads[b].median, unit), format_duration(after.spreads[*only].median, unit),
            printable(before.names[b]), printable(after.names[*only]),
            // A harness's file has no "renamed_from".
            benchmarks ? "" : " (or \"renamed_from\": \"" + printable(before.names[b]) + "\" in the AFTER profile)"));
    }
}

// Most of each side's time in phases the other side lacks (names with process or thread IDs, as
// stackcollapse-perf.pl --tid writes them, change every run): the rows compare nothing, and the
// table alone does not say why. Weighed on every run's own times, not on medians: under --missing
// zero a name in one run of three has a median of 0. amdahl's own phases are left out: 'idle' in
// BEFORE and 'overlapped' in AFTER are no renamed phases.
void note_unmatched_time(const SideTable& before, const SideTable& after,
                         const std::vector<std::optional<std::size_t>>& match, const std::vector<bool>& claimed,
                         bool benchmarks, std::vector<std::string>& notes) {
    struct Unmatched {
        double share = 0;
        std::size_t largest = 0;
    };
    const auto unmatched = [](const SideTable& side, const auto& is_unmatched) -> std::optional<Unmatched> {
        Summation all, only;
        std::optional<std::size_t> largest;
        double largest_time = 0;
        for (std::size_t i = 0; i < side.names.size(); ++i) {
            if (bookkeeping_name(side.names[i])) continue;
            Summation time;
            for (double t : side.times[i])
                if (std::isfinite(t)) time.add(t);
            all.add(time.value());
            if (!is_unmatched(i)) continue;
            only.add(time.value());
            if (!largest || time.value() > largest_time) largest = i, largest_time = time.value();
        }
        if (!largest || !(all.value() > 0)) return std::nullopt;
        return Unmatched{only.value() / all.value(), *largest};
    };
    const auto gone = unmatched(before, [&](std::size_t b) { return !match[b]; });
    const auto added = unmatched(after, [&](std::size_t a) { return !claimed[a]; });
    if (!gone || !added || !(gone->share > 0.5) || !(added->share > 0.5)) return;
    // Benchmarks summed with --sum take --rename but no profiler-input option.
    if (benchmarks) {
        notes.push_back(fmt::format(
            "{} of BEFORE's benchmark time and {} of AFTER's are in benchmarks only one side has ('{}' only in BEFORE, "
            "'{}' only in AFTER), so those rows compare nothing: if they were renamed, line them up with --rename "
            "OLD=NEW or --renames FILE",
            format_share(gone->share), format_share(added->share), printable(before.names[gone->largest]),
            printable(after.names[added->largest])));
        return;
    }
    notes.push_back(fmt::format(
        "{} of BEFORE's phase time and {} of AFTER's are in phases only one side has ('{}' only in BEFORE, '{}' only "
        "in AFTER), so those rows compare nothing: when names change from run to run (process or thread IDs, "
        "addresses), line them up with --rename-regex REGEX=NAME (one name for every name it matches), --rename "
        "OLD=NEW or --renames FILE",
        format_share(gone->share), format_share(added->share), printable(before.names[gone->largest]),
        printable(after.names[added->largest])));
}

}  // namespace

const char* status_name(PhaseStatus status) {
    switch (status) {
        case PhaseStatus::faster:
            return "faster";
        case PhaseStatus::slower:
            return "slower";
        case PhaseStatus::unchanged:
            return "unchanged";
        case PhaseStatus::noise:
            return "noise";
        case PhaseStatus::added:
            return "added";
        case PhaseStatus::removed:
            return "removed";
        case PhaseStatus::residual:
            return "residual";
    }
    return "?";
}

Comparison compare(const CompareSide& before_side, const CompareSide& after_side, const CompareOptions& options) {
    Comparison out;
    out.noise = options.noise;
    if (!before_side.profiles.empty()) out.unit = before_side.profiles.front().unit;
    const SideTable before = tabulate(before_side, "BEFORE", options.missing, out.notes);
    const SideTable after = tabulate(after_side, "AFTER", options.missing, out.notes);
    if (options.paired && before.totals.size() <= 1 && after.totals.size() <= 1)
        throw Error("--paired", "pairs run i of BEFORE with run i of AFTER, but each side has one run");
    if (options.paired && before.totals.size() != after.totals.size())
        throw Error("--paired", "pairs run i of BEFORE with run i of AFTER, but BEFORE has " +
                                    std::to_string(before.totals.size()) + " runs and AFTER " +
                                    std::to_string(after.totals.size()));

    // Renames first, then the same name on both sides.
    std::vector<std::optional<std::size_t>> match(before.names.size());
    std::vector<bool> claimed(after.names.size(), false);
    std::vector<std::string> renamed_from(after.names.size());  // the BEFORE name a rename matched it with
    std::vector<bool> renamed(before.names.size(), false);
    // The renames asked for, then those AFTER's profiles declare ("renamed_from"), once each.
    struct Rename {
        std::string old_name, new_name;
        bool declared = false;  // from a profile's "renamed_from"
    };
    std::vector<Rename> renames;
    std::unordered_map<std::string, std::string> renamed_to;
    for (const auto& [old_name, new_name] : options.renames) {
        renames.push_back({old_name, new_name, false});
        renamed_to.emplace(old_name, new_name);
    }
    for (const Profile& profile : after_side.profiles) {
        for (const auto& [old_name, new_name] : profile.renamed_from) {
            const auto [it, inserted] = renamed_to.emplace(old_name, new_name);
            if (inserted) {
                renames.push_back({old_name, new_name, true});
            } else if (it->second != new_name) {
                out.notes.push_back(printable(profile.source) + ": phase '" + printable(new_name) + "' says it was '" +
                                    printable(old_name) + "', but '" + printable(old_name) +
                                    "' is already matched with '" + printable(it->second) +
                                    "' (--rename, or an earlier profile); that is kept");
            }
        }
    }
    for (const auto& [old_name, new_name, declared] : renames) {
        const std::string text = old_name + "=" + new_name;
        const auto b = before.index.find(old_name);
        if (b == before.index.end()) {
            // A workflow keeps its renames after the rename lands in the base: OLD is then gone
            // from BEFORE, and the rename has nothing to do. Said, with a near name for a typo.
            out.notes.push_back(declared ? "phase '" + printable(new_name) + "' of AFTER says it was '" +
                                               printable(old_name) +
                                               "' (renamed_from), which is not a phase of "
                                               "BEFORE; nothing to match"
                                         : "--rename: " + not_a_phase(text, old_name, before, "BEFORE").message() +
                                               "; the rename is not used");
            continue;
        }
        const auto a = after.index.find(new_name);
        if (a == after.index.end()) throw not_a_phase(text, new_name, after, "AFTER");
        if (renamed[b->second]) throw Error("--rename", "'" + printable(old_name) + "' is renamed twice");
        if (claimed[a->second])
            throw Error(declared ? "renamed_from" : "--rename",
                        "'" + printable(renamed_from[a->second]) + "' and '" + printable(old_name) +
                            "' of BEFORE are both renamed to '" + printable(new_name) +
                            "': compare matches one phase with one; to compare their sum, merge them in BEFORE "
                            "first (amdahl import BEFORE --rename '" +
                            printable(renamed_from[a->second]) + "=" + printable(new_name) + "' --rename '" +
                            printable(old_name) + "=" + printable(new_name) + "' -o FILE)");
        renamed_from[a->second] = old_name;
        match[b->second] = a->second;
        renamed[b->second] = true;
        claimed[a->second] = true;
        // AFTER has a phase of the old name too: it is new, not the renamed one. Said, since the
        // rename decides which of the two BEFORE's phase is compared with.
        if (after.index.count(old_name))
            out.notes.push_back("'" + printable(old_name) + "' is in AFTER too, but BEFORE's '" + printable(old_name) +
                                "' is compared with '" + printable(new_name) + "' (" +
                                (declared ? std::string("renamed_from") : "--rename " + printable(text)) +
                                "); AFTER's '" + printable(old_name) + "' counts as new");
    }
    for (std::size_t b = 0; b < before.names.size(); ++b) {
        if (renamed[b]) continue;
        const auto a = after.index.find(before.names[b]);
        if (a != after.index.end() && !claimed[a->second]) {
            match[b] = a->second;
            claimed[a->second] = true;
        }
    }
    const bool benchmarks = of_benchmarks(before_side);
    suggest_renames(before, after, match, claimed, out.unit, benchmarks, out.notes);
    note_unmatched_time(before, after, match, claimed, benchmarks, out.notes);

    // BEFORE's order, as a diff reads: each added phase goes right before the AFTER phase that
    // follows it in AFTER (after any removed phases there), or at the end.
    std::vector<std::optional<std::size_t>> row_of_after(after.names.size());
    for (std::size_t b = 0; b < before.names.size(); ++b)
        if (match[b]) row_of_after[*match[b]] = b;
    std::vector<std::vector<std::size_t>> added_before(before.names.size() + 1);  // [n]: after every row
    std::size_t anchor = before.names.size();
    for (std::size_t a = after.names.size(); a-- > 0;) {
        if (row_of_after[a])
            anchor = *row_of_after[a];
        else
            added_before[anchor].push_back(a);
    }
    for (auto& added : added_before) std::reverse(added.begin(), added.end());  // back to AFTER's order
    const auto add_rows = [&](const std::vector<std::size_t>& added) {
        for (std::size_t a : added)
            out.phases.push_back(phase_change(before, std::nullopt, after, a, options, out.notes));
    };
    for (std::size_t b = 0; b < before.names.size(); ++b) {
        if (match[b]) add_rows(added_before[b]);
        out.phases.push_back(phase_change(before, b, after, match[b], options, out.notes));
    }
    add_rows(added_before[before.names.size()]);

    out.before_total = before.total;
    out.after_total = after.total;
    const double before_total = before.total.median, after_total = after.total.median;
    // End-to-end time the phases do not account for: T - Σ T_i on each side (0 unless the totals
    // were measured apart from the phases, as `runs` or the median of several profiles).
    const double before_outside = before_total - before.phase_sum;
    const double after_outside = after_total - after.phase_sum;
    if (before_outside != 0 || after_outside != 0) {
        PhaseChange row;
        row.name = row.before_name = outside_phases_row;
        row.status = PhaseStatus::residual;
        // One derived value per side: the difference of two medians, with no interval of its own.
        row.before = Spread{before_outside, before_outside, before_outside, 1, 0};
        row.after = Spread{after_outside, after_outside, after_outside, 1, 0};
        row.change = row.change_low = row.change_high = after_outside - before_outside;
        row.change_bound_low = row.change_bound_high = row.change;
        // Not a phase: a fraction of it or a speedup of it means nothing (null in JSON).
        row.change_of_phase = row.local_speedup = std::numeric_limits<double>::quiet_NaN();
        out.phases.push_back(std::move(row));
    }

    // The contributions are the phases' changes; their sum is the end-to-end change:
    // Σ (T'_i - T_i) = T' - T.
    Summation change;
    for (auto& row : out.phases) {
        row.contribution_of_total = row.change / before_total;
        change.add(row.change);
    }
    out.change = change.value();
    out.shift = change_interval(before.totals, after.totals, options.paired);
    if (before.total.runs <= 1 && after.total.runs <= 1) {
        // One run a side: the change is a point (the phases' sum, exactly the totals' difference).
        out.shift.low = out.shift.high = out.shift.bound_low = out.shift.bound_high = out.change;
    }
    // After the change the run takes no less than no time: the interval's ends stop at -T.
    for (double* end : {&out.shift.low, &out.shift.high, &out.shift.bound_low, &out.shift.bound_high})
        *end = std::max(*end, -before_total);
    out.change_low = out.shift.low;
    out.change_high = out.shift.high;
    if (out.change < out.change_low || out.change > out.change_high) {
        const std::string unit_text(unit_name(out.unit));
        // Heavily tied runs (a coarse timer): the medians can differ by a tick while the typical
        // shift is none, or the other way round. The verdict follows the interval; said.
        out.notes.push_back(
            "the change of the medians (" + format_signed_time(out.change, {}) + " " + unit_text +
            ") is outside the interval of the typical shift (" + format_signed_time(out.change_low, {}) + " .. " +
            format_signed_time(out.change_high, {}) + " " + unit_text +
            "): many runs took exactly the same time (a coarse timer?); the result and the gates follow the interval");
    }
    out.change_of_total = out.change / before_total;
    // S = T / T'; its interval from the change's: T / (T + Δ).
    out.speedup = before_total / after_total;
    const auto speedup_at = [&](double shift) {
        const double after_time = before_total + shift;
        return after_time > 0 ? before_total / after_time : infinity;
    };
    out.speedup_low = speedup_at(out.shift.high);
    out.speedup_high = speedup_at(out.shift.low);
    out.speedup_bound_low = speedup_at(out.shift.bound_high);
    out.confidence = out.shift.confidence;
    set_detectable_change(before, after, options.paired, out);
    out.change_is_noise = is_noise(out.change, out.change_low, out.change_high, before_total, options.noise);
    if (negligible(out.change, before_total, after_total))
        out.result = PhaseStatus::unchanged;
    else if (out.change_is_noise)
        out.result = PhaseStatus::noise;
    else
        out.result = out.change < 0 ? PhaseStatus::faster : PhaseStatus::slower;

    // Amdahl's law with the measured local speedups: S = 1 / (f_0 + Σ f_i / k_i), f_i = T_i / T,
    // k_i = T_i / T'_i, f_0 = the fraction outside the phases (unchanged, k = 1). A phase only in
    // AFTER has no f_i: it adds T'_i / T. When the phases add up to the totals this is T / T'.
    Summation remaining;
    remaining.add(before_outside / before_total);
    for (const auto& row : out.phases) {
        if (row.status == PhaseStatus::residual) continue;
        const double old_time = row.before.median;
        if (old_time == 0)
            remaining.add(row.after.median / before_total);
        else if (!std::isinf(row.local_speedup))
            remaining.add(old_time / before_total / row.local_speedup);
    }
    out.predicted_speedup = remaining.value() > 0 ? 1 / remaining.value() : infinity;
    out.consistent = out.predicted_speedup >= out.speedup_low * (1 - rounding_tolerance) &&
                     out.predicted_speedup <= out.speedup_high * (1 + rounding_tolerance);
    return out;
}

}  // namespace amdahl
