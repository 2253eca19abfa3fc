// RawProfile's bookkeeping and finish_profile: the checks every format's reader shares (names,
// totals, shares, units), done in place so a profile of a million phases is held once.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string_view>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "input/raw_profile.hpp"
#include "report/numbers.hpp"

namespace amdahl::detail {

namespace {

// Open-addressing set of phase indices keyed by name. A slot holds the index and 32 bits of the
// name's hash, so a probe reads a name (a cache miss in a big profile) only when the bits match.
class NameIndex {
public:
    explicit NameIndex(const std::vector<Phase>& phases) : phases_(phases) {
        std::size_t capacity = 16;
        while (capacity < phases.size() * 2) capacity *= 2;
        slots_.assign(capacity, 0);
    }
    /// Asks the cache for phase `i`'s first slot: a big profile's table does not fit in it, and
    /// the load would otherwise stall insert().
    void prefetch(std::size_t i) const {
        if (i < phases_.size())
            __builtin_prefetch(&slots_[std::hash<std::string_view>{}(phases_[i].name) & (slots_.size() - 1)]);
    }
    /// Adds phase `i`; returns the index of an earlier phase with the same name, if any.
    std::optional<std::size_t> insert(std::size_t i) {
        const std::string_view name = phases_[i].name;
        const std::uint64_t hash = std::hash<std::string_view>{}(name);
        const std::uint64_t tag = hash >> 32 << 32;
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
            const std::uint64_t entry = slots_[slot];
            if (entry == 0) {
                slots_[slot] = tag | (i + 1);
                return std::nullopt;
            }
            const std::size_t other = (entry & 0xFFFFFFFFu) - 1;
            if ((entry & ~std::uint64_t{0xFFFFFFFFu}) == tag && phases_[other].name == name) return other;
        }
    }

private:
    const std::vector<Phase>& phases_;
    std::vector<std::uint64_t> slots_;  // hash tag << 32 | (1 + phase index); 0 is empty
};

}  // namespace

void RawProfile::add(RawPhase phase) {
    Phase& out = phases.emplace_back();
    RawPhaseExtra& more = extra.emplace_back();
    out.name = std::move(phase.name);
    out.kind = std::move(phase.kind);
    out.at = phase.at;
    out.calls = phase.calls;
    out.segment = std::move(phase.segment);
    if (phase.time) {
        out.time = phase.time->value;
        out.spread = phase.time->spread;
        more.time_unit = phase.time->unit;
        more.has_time = true;
    }
    if (phase.active_time) {
        out.active_time = phase.active_time->value;
        more.active_unit = phase.active_time->unit;
    }
    more.share = phase.share;
}

RawPhase RawProfile::pop_back() {
    RawPhase out;
    Phase& last = phases.back();
    const RawPhaseExtra& more = extra.back();
    out.name = std::move(last.name);
    out.kind = std::move(last.kind);
    out.at = last.at;
    out.calls = last.calls;
    if (more.has_time) out.time = RawTime{last.time, more.time_unit};
    if (last.active_time) out.active_time = RawTime{*last.active_time, more.active_unit};
    out.share = more.share;
    phases.pop_back();
    extra.pop_back();
    return out;
}

namespace {

// Asks Linux to back a big buffer with 2 MB pages: a million phases then take a few dozen page
// faults instead of tens of thousands. Only a hint; nothing changes where it is not taken.
void prefer_huge_pages(const void* data, std::size_t bytes) {
#ifdef __linux__
    constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
    if (bytes < 4 * huge) return;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + huge - 1) & ~(huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(huge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

// A declared total is the baseline at every end of the phases' time ranges ('unattributed' takes
// up the rest), so their high ends (and the share-only phases' `share_time`) must fit under it;
// 'unattributed' itself has no range of its own.
void check_ranges_fit(const RawProfile& raw, double share_time, double total, Unit unit) {
    Summation high;
    high.add(share_time);
    bool any_range = false;
    for (std::size_t i = 0; i < raw.phases.size(); ++i) {
        const Phase& phase = raw.phases[i];
        if (!raw.extra[i].has_time) continue;
        if (phase.name == unattributed_phase) {
            if (phase.spread)
                throw Error(raw.where(i), std::string("phase '") + unattributed_phase +
                                              "' holds what the phases leave of the total: its time cannot have "
                                              "a range or a spread of its own");
            continue;
        }
        any_range = any_range || (phase.spread && phase.spread->high > phase.time);
        high.add(phase.spread ? phase.spread->high : phase.time);
    }
    if (any_range && high.value() > total * (1 + rounding_tolerance))
        throw Error(raw.total_where.empty() ? raw.source : raw.total_where,
                    "phases add up to " + format_duration(high.value(), unit) +
                        " at their time ranges' high ends, more than the total " + format_duration(total, unit) +
                        " (every end of a range must fit under it)");
}

}  // namespace

void RawProfile::reserve(std::size_t count) {
    // Capacity past what is filled is address space, not memory; still, keep it sane.
    count = std::min<std::size_t>(count, 1u << 24);
    phases.reserve(count);
    extra.reserve(count);
    prefer_huge_pages(phases.data(), phases.capacity() * sizeof(Phase));
    prefer_huge_pages(extra.data(), extra.capacity() * sizeof(RawPhaseExtra));
}

std::string unit_assumed_note(const std::string& source) {
    return source +
           ": the times carry no unit (none declared, none in a header or on a value): read as ms; declare one to "
           "be sure (\"unit\": \"us\", a header time (us))";
}

Profile finish_profile(RawProfile raw) {
    if (raw.phases.empty()) throw Error(raw.source, "the profile has no phases");
    if (raw.phases.size() >= std::numeric_limits<std::uint32_t>::max() / 2)
        throw Error(raw.source, "more than 2^31 phases: too many to hold");
    Profile profile;
    profile.name = std::move(raw.name);
    profile.source = raw.source;
    profile.origin = raw.origin;
    profile.notes = std::move(raw.notes);
    profile.renamed_from = std::move(raw.renamed_from);
    profile.proposals = std::move(raw.proposals);
    profile.boundary = std::move(raw.boundary);
    profile.summary_only = raw.summary_only;
    profile.total_by_sum = std::move(raw.total_by_sum);
    profile.overlaps = std::move(raw.overlaps);
    profile.steps = std::move(raw.steps);
    profile.dependencies = std::move(raw.dependencies);
    profile.class_members = std::move(raw.class_members);

    // The profile's unit: declared, else the first unit written on a time, else ms.
    std::optional<Unit> unit = raw.unit;
    for (const RawPhaseExtra& more : raw.extra) {
        if (unit) break;
        if (more.has_time && more.time_unit) unit = more.time_unit;
    }
    if (!unit && raw.total && raw.total->unit) unit = raw.total->unit;
    profile.unit_assumed = !unit.has_value();
    profile.unit = unit.value_or(Unit::ms);
    // A time written without a unit is in the declared unit, else ms: never in the unit another
    // row happened to write (c,3 then a,1 s made c 3 s).
    const Unit bare_unit = raw.unit.value_or(Unit::ms);
    const auto in_unit = [&](double value, std::optional<Unit> from) {
        return convert(value, from.value_or(bare_unit), profile.unit);
    };
    if (!raw.unit) {
        bool bare = false, with_unit = false;
        for (const RawPhaseExtra& more : raw.extra) {
            if (!more.has_time) continue;
            (more.time_unit ? with_unit : bare) = true;
        }
        if (bare && profile.unit_assumed) profile.notes.push_back(unit_assumed_note(raw.source));
        if (bare && with_unit)
            profile.notes.push_back(raw.source +
                                    ": times without a unit are read as ms (no unit is declared), other times in "
                                    "their own unit; write a unit on every time, or declare one, to be sure");
    }
    for (const auto& run : raw.runs) {
        profile.runs.push_back(in_unit(run.value, run.unit));
        if (!std::isfinite(profile.runs.back())) throw Error(raw.runs_where, "a run's time is too large");
    }

    // Names, and every time in the profile's unit.
    NameIndex seen(raw.phases);
    Summation time_sum, share_sum;
    bool any_share_only = false;
    for (std::size_t i = 0; i < raw.phases.size(); ++i) {
        Phase& phase = raw.phases[i];
        const RawPhaseExtra& more = raw.extra[i];
        if (phase.name.empty()) throw Error(raw.where(i), "phase has an empty name");
        seen.prefetch(i + 16);
        if (const auto other = seen.insert(i)) {
            throw Error(raw.where(i),
                        "duplicate phase name '" + printable(phase.name) + "' (also at " + raw.where(*other) + ")");
        }
        if (more.has_time) {
            phase.time = in_unit(phase.time, more.time_unit) + 0.0;  // -0 is 0: no "-0.0%" in a table
            if (!std::isfinite(phase.time))
                throw Error(raw.where(i), "phase '" + printable(phase.name) + "': time is too large");
            if (phase.spread) {
                *phase.spread = {in_unit(phase.spread->low, more.time_unit),
                                 in_unit(phase.spread->high, more.time_unit),
                                 in_unit(phase.spread->sd, more.time_unit)};
                // Finite as written, a spread may not be in the profile's unit (1e304 ms in ns).
                if (!std::isfinite(phase.spread->low) || !std::isfinite(phase.spread->high))
                    throw Error(raw.where(i), "phase '" + printable(phase.name) + "': time's range is too large");
                if (!std::isfinite(phase.spread->sd))
                    throw Error(raw.where(i), "phase '" + printable(phase.name) + "': time_sd is too large");
                // A range's time is its midpoint in the profile's unit, as the range written out reads back.
                time_at_range_midpoint(phase);
            }
            time_sum.add(phase.time);
        } else if (more.share) {
            any_share_only = true;
            share_sum.add(*more.share);
        } else {
            throw Error(raw.where(i), "phase '" + printable(phase.name) + "' has neither a time nor a share");
        }
        if (phase.active_time) {
            phase.active_time = in_unit(*phase.active_time, more.active_unit);  // held to the time below
            if (!std::isfinite(*phase.active_time))
                throw Error(raw.where(i), "phase '" + printable(phase.name) + "': active_time is too large");
        }
    }
    // An active time above the time means the phase also ran alongside others; that overlapped time
    // is held by the 'overlapped' phase. Without it the overlap range has nothing to stand on.
    {
        const auto overlapped = std::find_if(raw.phases.begin(), raw.phases.end(),
                                             [](const Phase& p) { return p.name == overlapped_phase; });
        const double overlapped_time = overlapped != raw.phases.end() ? overlapped->time : 0.0;
        for (std::size_t i = 0; i < raw.phases.size(); ++i) {
            const Phase& phase = raw.phases[i];
            if (!phase.active_time || !raw.extra[i].has_time) continue;
            const double excess = *phase.active_time - phase.time;
            if (excess > rounding_tolerance * std::max(phase.time, 1e-300) &&
                excess > overlapped_time * (1 + rounding_tolerance)) {
                profile.notes.push_back(raw.where(i) + ": phase '" + printable(phase.name) + "': active_time " +
                                        format_duration(*phase.active_time, profile.unit) + " exceeds its time " +
                                        format_duration(phase.time, profile.unit) + " by more than the '" +
                                        overlapped_phase + "' phase holds (" +
                                        format_duration(overlapped_time, profile.unit) +
                                        "): the overlap range assumes the difference ran alongside other phases");
                break;  // one note says it
            }
        }
    }
    if (share_sum.value() > 1 + rounding_tolerance) {
        throw Error(raw.source,
                    "shares add up to " + fmt::format("{:.6g}", share_sum.value() * 100) + "%, more than 100%");
    }

    // The baseline: the declared total, else the phases' sum. Share-only phases need a total.
    std::optional<double> total;
    if (raw.total) {
        total = in_unit(raw.total->value, raw.total->unit);
        if (!std::isfinite(*total)) throw Error(raw.total_where, "total is too large");
    }
    if (any_share_only && !total) {
        throw Error(raw.source,
                    "some phases give only a share; give the profile a total (e.g. \"total\": \"100 ms\") "
                    "so shares become times");
    }
    Summation all;
    all.add(time_sum.value());
    if (total) all.add(share_sum.value() * *total);
    const double phase_sum = all.value();
    if (total) {
        if (phase_sum > *total * (1 + rounding_tolerance)) {
            throw Error(raw.total_where.empty() ? raw.source : raw.total_where,
                        "phases add up to " + format_duration(phase_sum, profile.unit) + ", more than the total " +
                            format_duration(*total, profile.unit) +
                            (raw.total_reason.empty() ? "" : " (" + raw.total_reason + ")"));
        }
        if (*total == 0) throw Error(raw.total_where, "total must be > 0");
        check_ranges_fit(raw, share_sum.value() * *total, *total, profile.unit);
        profile.total_declared = true;
    } else if (!std::isfinite(phase_sum)) {
        throw Error(raw.source, "the phases add up to more than a double can hold");
    } else if (!(phase_sum > 0)) {
        throw Error(raw.source, "the phases add up to zero time; there is nothing to speed up");
    }
    if (!std::isfinite(phase_sum)) throw Error(raw.source, "the phases add up to more than a double can hold");
    const double baseline = total ? std::max(*total, phase_sum) : phase_sum;
    // The runs are end-to-end times of the whole program: none can be shorter than its phases, or
    // than a declared total, by more than rounding (a unit slip, or runs of another program).
    if (!profile.runs.empty()) {
        const double slowest = *std::max_element(profile.runs.begin(), profile.runs.end());
        const std::string than_slowest = "more than the slowest run " + format_duration(slowest, profile.unit) +
                                         " (runs are end-to-end times of the whole program)";
        if (phase_sum > slowest * (1 + rounding_tolerance))
            throw Error(raw.runs_where.empty() ? raw.source : raw.runs_where,
                        "phases add up to " + format_duration(phase_sum, profile.unit) + ", " + than_slowest);
        if (baseline > slowest * (1 + rounding_tolerance))
            throw Error(raw.total_where.empty() ? raw.source : raw.total_where,
                        "the total " + format_duration(baseline, profile.unit) + " is " + than_slowest);
    }

    // Shares: times for share-only phases; a note where a share disagrees with its time.
    for (std::size_t i = 0; i < raw.phases.size(); ++i) {
        Phase& phase = raw.phases[i];
        const RawPhaseExtra& more = raw.extra[i];
        if (!more.share) continue;
        if (!more.has_time) {
            phase.time = *more.share * *total;
        } else if (std::fabs(*more.share - phase.time / baseline) > rounding_tolerance) {
            profile.notes.push_back(raw.where(i) + ": phase '" + printable(phase.name) + "': share " +
                                    shortest(*more.share * 100) + "% disagrees with its time (" +
                                    format_duration(phase.time, profile.unit) + " is " +
                                    shortest(std::round(phase.time / baseline * 1000) / 10) + "% of " +
                                    format_duration(baseline, profile.unit) + ")");
        }
    }
    // A phase is active at least as long as its own time (a share-only phase's comes from the total
    // just above): an active time below it is read as the time, and said unless it is rounding.
    bool active_below_said = false;
    for (std::size_t i = 0; i < raw.phases.size(); ++i) {
        Phase& phase = raw.phases[i];
        if (!phase.active_time || *phase.active_time >= phase.time) continue;
        if (!active_below_said && *phase.active_time < phase.time * (1 - rounding_tolerance)) {
            profile.notes.push_back(raw.where(i) + ": phase '" + printable(phase.name) + "': active_time " +
                                    format_duration(*phase.active_time, profile.unit) + " is less than its time " +
                                    format_duration(phase.time, profile.unit) + "; read as " +
                                    format_duration(phase.time, profile.unit) +
                                    " (a phase is active at least as long as its own time)");
            active_below_said = true;  // one note says it
        }
        phase.active_time = phase.time;
    }
    profile.phases = std::move(raw.phases);
    if (total && phase_sum < *total) {
        const double rest = *total - phase_sum;
        if (rest > *total * 1e-9) {
            if (profile.find(unattributed_phase)) {
                throw Error(raw.source, std::string("a phase is named '") + unattributed_phase +
                                            "', but the total leaves time unattributed too");
            }
            profile.phases.push_back(
                Phase{unattributed_phase, unattributed_phase, rest, std::nullopt, 0, std::nullopt});
            profile.notes.push_back(raw.source + ": the phases add up to " + format_duration(phase_sum, profile.unit) +
                                    " of the total " + format_duration(*total, profile.unit) + "; the other " +
                                    format_duration(rest, profile.unit) + " is phase 'unattributed'");
        }
    }
    return profile;
}

}  // namespace amdahl::detail
