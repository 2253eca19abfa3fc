#pragma once
/// \file A profile: named, non-overlapping phases whose times add up to the baseline.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "amdahl/units.hpp"

namespace amdahl {

/// The phase amdahl adds when a declared total exceeds the sum of the phases. Only an explicit
/// selector naming it can speed it up.
inline constexpr const char* unattributed_phase = "unattributed";

/// How Profile::where() spells the place a phase was read from.
enum class Origin : std::uint8_t {
    none,        ///< the source alone
    line,        ///< "step.csv:4": a line of a table, a summary or a folded-stack file
    json_index,  ///< "step.json: phases[2]": an element of a JSON "phases" array
    json_key,    ///< "step.json: phases.gemm": a key of the JSON shorthand object
};

/// A phase time's run-to-run uncertainty, in the profile's unit: a range low..high (the phase's
/// time is then its midpoint) and a standard deviation (0 when none was given). Read only from
/// what says it is run-to-run ("19..23 ms", "21 ms ± 1.5", time_sd); a profiler's per-call
/// statistics (nsys's StdDev (ns), min and max per call) are never read as this.
struct TimeSpread {
    double low = 0;
    double high = 0;
    double sd = 0;
};

/// The time a run-to-run range (low < high) stands for: its midpoint, computed this one way
/// wherever a range is read, converted or added up, so that a range written out ("19..23")
/// reads back as the same time to the last bit.
inline double range_midpoint(const TimeSpread& spread) { return spread.low + (spread.high - spread.low) / 2; }

struct Phase {
    std::string name;
    std::string kind;  ///< free text: kernel, copy, overhead, ...; may be empty
    double time = 0;   ///< in the profile's unit, >= 0 and finite
    /// From traces: the time this phase runs at all, alone or overlapped with others (>= time).
    /// Speeding it up saves between its exclusive `time` and this, scaled by 1 - 1/k.
    std::optional<double> active_time;
    /// Where it was read, for messages: a line number, or 1 + its index in a JSON "phases" array
    /// (Profile::origin says which); 0 for phases amdahl added. A number, not a string: a million
    /// phases must not carry a million copies of the file name. Profile::where() spells it out.
    std::uint64_t at = 0;
    /// How many times it ran (calls, launches, instances) when the input says; none otherwise.
    /// Many calls of little time each is a launch-bound phase: a faster kernel will not help much.
    std::optional<std::uint64_t> calls;
    /// The barrier segment it runs in on its rank (a "segment" field or column; eval --ranks):
    /// empty when the input says none.
    std::string segment = {};
    std::optional<TimeSpread> spread = {};  ///< run-to-run range or spread of `time`; none: a point
};

/// A phase whose spread is a range stands for the range's midpoint: its time is set to it wherever
/// the range is made or changed (converted, added up). A phase without a range keeps its time.
inline void time_at_range_midpoint(Phase& phase) {
    if (phase.spread && phase.spread->low < phase.spread->high) phase.time = range_midpoint(*phase.spread);
}

/// Time when several phases of a trace ran at once (the `overlapped` phase, broken down).
struct Overlap {
    std::vector<std::string> phases;
    double time = 0;
};

/// The phase that holds time when several phases run at once, and when nothing runs.
inline constexpr const char* overlapped_phase = "overlapped";
inline constexpr const char* idle_phase = "idle";

/// From `--group-by class`: an event or row name that went into a class phase, and the rule
/// that put it there (shown by --explain).
struct ClassMember {
    std::string phase;  ///< the class: "gemm"
    std::string name;   ///< the kernel's full name
    std::string rule;   ///< "'gemm' in the base name", "kind copy", "no rule"
};

/// A proposed speedup stored in a profile ("proposals" in JSON): a target selector, a factor and
/// an optional effort. Plain text here; amdahl/speedup.hpp parses it.
struct ProfileProposal {
    std::string name;
    std::string target;  ///< a selector: name, glob, kind:KIND or *
    std::string factor;  ///< as written: "10", "10x", "inf", "-30%"
    std::optional<double> effort;
    std::string effort_unit;  ///< as parse_effort reads it ("3w": "week"), or empty
    std::string where;
};

/// A step of a trace cut with --window: the CPU and GPU copies of one annotation, paired.
struct Step {
    std::string name;
    double start = 0;     ///< in the profile's unit, from the trace's first event
    double time = 0;      ///< the longer of its CPU span and its GPU copy
    std::string dropped;  ///< why it was left out (a partial step, not the one --step picked); empty when used
};

/// A trace's events and what links them (launches, synchronizations, track order): what
/// `--model replay` replays. Opaque here; amdahl/replay.hpp uses it.
struct Dependencies;

struct Profile {
    std::string name;
    std::string source;  ///< file name or "<stdin>"
    Unit unit = Unit::ms;
    std::vector<Phase> phases;
    std::vector<ProfileProposal> proposals;
    /// End-to-end times of repeated runs ("runs" in JSON), in `unit`, each > 0; empty when the
    /// profile is one run. `amdahl compare` takes their median and interval as the total.
    std::vector<double> runs;
    std::string format;         ///< what it was read as: "json", "csv", "chrome-trace", "nsys", ...
    std::string boundary;       ///< for imports: what the phases add up to, in words
    bool summary_only = false;  ///< from a summary (nsys/rocprof stats): no overlap information
    bool unit_assumed = false;  ///< no unit declared or written anywhere: the times were read as ms
    /// A total was declared (JSON "total", a Total row, --total): the baseline is that total at
    /// every end of the phases' time ranges, the phase 'unattributed' taking up what they leave.
    bool total_declared = false;
    /// A table's last row read as the total because its time is the sum of the rows before it
    /// (not by its name): that row's name, else "". `--ranks` checks no other rank has it as a phase.
    std::string total_by_sum;
    std::vector<Overlap> overlaps;   ///< for traces: what the `overlapped` phase is made of
    std::vector<Step> steps;         ///< for traces cut with --window: every step found, used or not
    std::vector<std::string> notes;  ///< things worth telling the user (stderr), e.g. share mismatches
    /// (former name, phase name) from phases' "renamed_from": `amdahl compare` matches a BEFORE
    /// phase of the former name with the phase of this profile.
    std::vector<std::pair<std::string, std::string>> renamed_from;
    std::vector<ClassMember> class_members;  ///< from --group-by class: what each class holds, and why
    Origin origin = Origin::none;            ///< how the phases' `at` reads
    /// From a trace read with ImportOptions::dependencies: its events and their links, else null.
    std::shared_ptr<const Dependencies> dependencies;

    /// Sum of the phase times (compensated summation).
    double total() const;
    /// Index of the phase with this exact name, if any.
    std::optional<std::size_t> find(const std::string& phase_name) const;
    /// Where `phase` was read ("step.csv:4", "step.json: phases[2]"), or the source.
    std::string where(const Phase& phase) const;
};

/// Spells out a place in `source`: see Origin. `at` 0 is the source itself.
std::string where(const std::string& source, Origin origin, std::uint64_t at, const std::string& name);

/// Returns a copy with every time expressed in `unit`.
Profile convert_profile(const Profile& profile, Unit unit);

}  // namespace amdahl
