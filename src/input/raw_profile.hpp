#pragma once
// What the format readers hand to the common checks: phases as written, before totals, shares
// and units are reconciled.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/profile.hpp"
#include "amdahl/units.hpp"

namespace amdahl::detail {

/// Rounding allowance for totals and shares written with fewer digits than the phases: 0.5%.
inline constexpr double rounding_tolerance = 0.005;

struct RawTime {
    double value = 0;
    std::optional<Unit> unit;               ///< none: the profile's unit
    std::optional<TimeSpread> spread = {};  ///< "19..23 ms", "21 ms ± 1.5": in `unit`, as value
};

/// A phase as a reader hands it over.
struct RawPhase {
    std::string name;
    std::string kind;
    std::optional<RawTime> time;
    std::optional<double> share;         ///< fraction 0..1
    std::optional<RawTime> active_time;  ///< from an imported trace: alone or overlapped
    std::uint64_t at = 0;                ///< line or 1 + index: see Phase::at and RawProfile::origin
    std::optional<std::uint64_t> calls;  ///< see Phase::calls
    std::string segment;                 ///< see Phase::segment
};

/// What a raw phase says beyond Phase's fields, until finish_profile reconciles it.
struct RawPhaseExtra {
    std::optional<double> share;    ///< fraction 0..1
    std::optional<Unit> time_unit;  ///< written with the time; none: the profile's unit
    std::optional<Unit> active_unit;
    bool has_time = false;
};

struct RawProfile {
    std::string name;
    std::string source;
    std::optional<Unit> unit;  ///< declared unit
    std::optional<RawTime> total;
    std::string total_where;
    std::string total_reason;  ///< why a table's row is the total, for messages; empty otherwise
    std::string total_by_sum;  ///< see Profile::total_by_sum
    Origin origin = Origin::none;
    /// The phases as written: `time` and `active_time` in the units `extra` names. Two parallel
    /// vectors rather than one of RawPhase, so finish_profile can hand `phases` on without a copy.
    std::vector<Phase> phases;
    std::vector<RawPhaseExtra> extra;
    std::vector<ProfileProposal> proposals;
    std::string boundary;                    ///< from an import: what the phases add up to
    bool summary_only = false;               ///< from an import of a summary format
    std::vector<Overlap> overlaps;           ///< from an imported trace, in the profile's unit
    std::vector<Step> steps;                 ///< from an imported trace cut with --window, in the profile's unit
    std::vector<ClassMember> class_members;  ///< from a profile imported with --group-by class
    std::shared_ptr<const Dependencies> dependencies;  ///< "timeline": from `import --keep-timeline`
    std::vector<RawTime> runs;                         ///< end-to-end times of repeated runs ("runs" in JSON)
    std::string runs_where;
    std::vector<std::string> notes;
    std::vector<std::pair<std::string, std::string>> renamed_from;  ///< (former name, phase name)

    void add(RawPhase phase);
    /// Removes the last phase and returns it (a table's closing "Total" row).
    RawPhase pop_back();
    /// Room for `count` phases (an upper bound is fine: untouched capacity costs no memory).
    void reserve(std::size_t count);
    std::string where(std::size_t index) const {
        return amdahl::where(source, origin, phases[index].at, phases[index].name);
    }
    /// `value`, written in phase `index`'s unit, in the profile's unit (ms when none is declared),
    /// which the phases take when loaded: checks that compare times compare in it (in ns, 4.4e306 ms
    /// overflowed to infinity and equalled every other infinity).
    double in_profile_unit(std::size_t index, double value) const {
        const Unit bare = unit.value_or(Unit::ms);
        return convert(value, extra[index].time_unit.value_or(bare), bare);
    }
    double time_in_profile_unit(std::size_t index) const { return in_profile_unit(index, phases[index].time); }
};

/// Checks and reconciles a raw profile: names, totals, shares, units. Throws amdahl::Error.
Profile finish_profile(RawProfile raw);
/// The note finish_profile gives a profile whose times carry no unit anywhere (read as ms).
std::string unit_assumed_note(const std::string& source);

/// Parses a time cell ("18.0", "21 ms", "2,357,053"); `what` names it in errors.
RawTime parse_time_text(std::string_view text, const std::string& where, const std::string& what);
/// parse_time_text, and a phase time's run-to-run range ("19..23 ms": the midpoint, with the
/// range as its spread) or spread ("21 ms ± 1.5", "21 +- 1.5 ms": a standard deviation).
RawTime parse_uncertain_time_text(std::string_view text, const std::string& where, const std::string& what);
/// Gives a phase's `time` the run-to-run standard deviation `sd` (a "time_sd" field or column),
/// in the time's unit. `where` begins the message ("step.json: phases[1].time_sd: ").
void add_time_sd(RawTime& time, RawTime sd, const std::string& where);
/// The most calls a phase may have: past 2^53 a double, and so a JSON number, no longer holds
/// every whole number. Readers refuse more in a row, and so does adding rows or phases into one.
inline constexpr double max_calls = 9.0e15;
/// The error of add_calls.
[[noreturn]] void throw_calls_past_max(const std::string& where, std::string_view name, std::string_view parts);
/// The calls of two rows or phases that become one phase `name`: unknown if either's is; an Error
/// at `where()` when they add up past max_calls. `parts` names what was added ("rows", "parts").
/// `where` is asked only for the error: summary rows of one kernel come here a million times.
template <class Where>
std::optional<std::uint64_t> add_calls(std::optional<std::uint64_t> a, std::optional<std::uint64_t> b, Where&& where,
                                       std::string_view name, std::string_view parts) {
    if (!a || !b) return std::nullopt;
    // Each is at most max_calls (a reader's limit, or an earlier sum's): the sum fits in 64 bits.
    const std::uint64_t sum = *a + *b;
    if (static_cast<double>(sum) > max_calls) throw_calls_past_max(where(), name, parts);
    return sum;
}
/// The error when a time is written with its unit and its time_sd without one.
inline constexpr const char* time_sd_without_unit =
    "time_sd has no unit and the time has one: give both a unit, or neither";
/// Parses a share ("21%", "0.21"); `percent_scale` tells whether a bare number is a percentage.
double parse_share_text(std::string_view text, bool percent_scale, const std::string& where, const std::string& what);

RawProfile read_json_profile(std::string_view content, const std::string& source);
/// read_json_profile's two paths: the fast one for plain JSON with a "phases" array (none when
/// the text is anything else or wrong), and the full one, which reads every JSON profile or
/// says what is wrong. Where both read a profile, they read the same one.
std::optional<RawProfile> read_plain_json_profile(std::string_view content, const std::string& source);
RawProfile read_json_profile_events(std::string_view content, const std::string& source);
RawProfile read_delimited_profile(std::string_view content, const std::string& source, char delimiter);
RawProfile read_markdown_profile(std::string_view content, const std::string& source);
RawProfile read_text_profile(std::string_view content, const std::string& source);

/// True when `name` labels a table's total row, wherever it is: "Total", "Total:", "Total (ms)",
/// "End-to-end latency".
bool is_total_row_name(std::string_view name);
/// True when `name` sounds like a total ("Sum", "Overall", "all phases", "Total step") without
/// being one for certain: a last row so named is the total only when it is the others' sum.
bool sounds_like_total_row_name(std::string_view name);
/// True when `name` holds a word of a total ("Grand total", "Wall clock", "Σ", "Sum"): a JSON
/// phase so named whose time is the others' sum is taken for a total written as a phase.
bool names_like_a_total(std::string_view name);

/// How close phase `index`'s time must be to the others' sum to be their total.
enum class SumPrecision {
    rounded,  ///< within rounding_tolerance of it (a name that sounds like a total)
    written,  ///< within half a unit of the last decimal place the time was written to
};
/// True when phase `index`'s time is the sum of the other phases' times, every one of them
/// written as a time (not a share), and there are at least two others.
bool is_sum_of_the_others(const RawProfile& raw, std::size_t index, SumPrecision precision);

/// Whose advice an error of refuse_total_as_phase gives.
enum class TotalAdvice {
    json,     ///< give it as the "total" field
    table,    ///< name the row "Total"
    summary,  ///< a profiler's summary has no total row: remove it (or --total)
};
/// Throws when a phase named like a total has the time of the others' sum: a total written as a
/// phase, which would double the baseline.
void refuse_total_as_phase(const RawProfile& raw, TotalAdvice advice);

}  // namespace amdahl::detail
