#pragma once
/// \file A profile: named, non-overlapping phases whose times add up to the baseline.
#include <optional>
#include <string>
#include <vector>

#include "amdahl/units.hpp"

namespace amdahl {

/// The phase amdahl adds when a declared total exceeds the sum of the phases. Only an explicit
/// selector naming it can speed it up.
inline constexpr const char* unattributed_phase = "unattributed";

struct Phase {
    std::string name;
    std::string kind;   ///< free text: kernel, copy, overhead, ...; may be empty
    double time = 0;    ///< in the profile's unit, >= 0 and finite
    std::string where;  ///< where it was read ("step.csv:4", "step.json: phases[2]"), for messages
    /// From traces: the time this phase runs at all, alone or overlapped with others (>= time).
    /// Speeding it up saves between its exclusive `time` and this, scaled by 1 - 1/k.
    std::optional<double> active_time;
};

/// Time when several phases of a trace ran at once (the `overlapped` phase, broken down).
struct Overlap {
    std::vector<std::string> phases;
    double time = 0;
};

/// The phase that holds time when several phases run at once, and when nothing runs.
inline constexpr const char* overlapped_phase = "overlapped";
inline constexpr const char* idle_phase = "idle";

/// A proposed speedup stored in a profile ("proposals" in JSON): a target selector, a factor and
/// an optional effort. Plain text here; amdahl/speedup.hpp parses it.
struct ProfileProposal {
    std::string name;
    std::string target;  ///< a selector: name, glob, kind:KIND or *
    std::string factor;  ///< as written: "10", "10x", "inf", "-30%"
    std::optional<double> effort;
    std::string where;
};

struct Profile {
    std::string name;
    std::string source;  ///< file name or "<stdin>"
    Unit unit = Unit::ms;
    std::vector<Phase> phases;
    std::vector<ProfileProposal> proposals;
    /// End-to-end times of repeated runs ("runs" in JSON), in `unit`, each > 0; empty when the
    /// profile is one run. `amdahl compare` takes their median and interval as the total.
    std::vector<double> runs;
    std::string format;    ///< what it was read as: "json", "csv", "chrome-trace", "nsys", ...
    std::string boundary;  ///< for imports: what the phases add up to, in words
    bool summary_only = false;      ///< from a summary (nsys/rocprof stats): no overlap information
    std::vector<Overlap> overlaps;  ///< for traces: what the `overlapped` phase is made of
    std::vector<std::string> notes;  ///< things worth telling the user (stderr), e.g. share mismatches

    /// Sum of the phase times (compensated summation).
    double total() const;
    /// Index of the phase with this exact name, if any.
    std::optional<std::size_t> find(const std::string& phase_name) const;
};

/// Returns a copy with every time expressed in `unit`.
Profile convert_profile(const Profile& profile, Unit unit);

}  // namespace amdahl
