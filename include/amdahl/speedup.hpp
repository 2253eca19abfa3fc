#pragma once
/// \file Speedup specifications: "attention_softmax=10", "gemm_*=4x", "kind:copy=-30%", "x=inf@3".
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/profile.hpp"

namespace amdahl {

/// Which phases a speedup applies to.
struct Selector {
    enum class Type { name, glob, kind, all };
    Type type = Type::name;
    std::string pattern;  ///< the name, the glob, or the kind (which may itself be a glob)
    std::string text;     ///< as the user wrote it
    /// A glob written without `glob:`: a phase whose exact name it is wins over the glob reading
    /// (real names look like globs: `[CUDA memcpy HtoD]`, `k(float*)`).
    bool exact_name_first = true;

    /// True when the selector picks `phase`. Only a `name` selector can pick a bookkeeping phase
    /// (unattributed, idle, overlapped).
    bool matches(const Phase& phase) const;
};

/// True for the phases amdahl adds for bookkeeping: unattributed, idle, overlapped.
bool is_bookkeeping_phase(const Phase& phase);

/// Parses "name", "gemm_*", "kind:copy", "*", and the explicit "name:TEXT" (exactly this name,
/// whatever characters it has) and "glob:PATTERN" (a glob even where a phase has that exact name;
/// a backslash escapes *, ? and [ inside it).
Selector parse_selector(std::string_view text);

/// A local speedup factor k: the phase takes time / k. Infinity means the phase takes no time.
struct Factor {
    double value = 1;
    bool is_infinite() const;
};

/// Parses "10", "10x", "inf", "-30%" (time drops by 30%: k = 1/0.7), "+25%" (time grows: k = 1/1.25).
/// Throws amdahl::Error for zero, negative, NaN or text.
Factor parse_factor(std::string_view text);

/// A factor known only to lie in a range ("8..12"): finite ends, 1 <= low <= high.
struct FactorRange {
    double low = 1;
    double high = 1;
};

/// Parses "8..12" (each end as parse_factor reads it); none when `text` has no "..". The point
/// factor of a range is its geometric midpoint sqrt(low * high): factors multiply, so 8..12 is
/// as far from 9.80 one way as the other. Throws amdahl::Error for a missing end, a reversed
/// range, an end <= 0, an infinite end or a slowdown (an end below 1).
std::optional<FactorRange> parse_factor_range(std::string_view text);

/// A factor as written, a point or a range: "10" is {10, none}; "8..12" is {sqrt(8 x 12), 8..12}.
struct RangedFactor {
    Factor point;
    std::optional<FactorRange> range;
};
RangedFactor parse_ranged_factor(std::string_view text);

/// One proposed speedup: a selector, a factor and an optional effort.
struct SpeedupSpec {
    Selector selector;
    Factor factor;                     ///< the point: a range's geometric midpoint
    std::optional<FactorRange> range;  ///< "8..12": the factor lies in it
    std::optional<double> effort;      ///< in the user's effort unit, > 0
    std::string effort_unit;           ///< the unit written after the effort ("3w": "week"), or empty
    std::string text;                  ///< as the user wrote it, for messages
};

/// An effort as written: "3", "3w", "2.5 engineer-days".
struct Effort {
    double value = 0;  ///< > 0
    std::string unit;  ///< h, d, w, wk and mo as hour, day, week, month; other words lower-cased; or empty
};

/// Parses an effort: a number > 0 and an optional unit word. A one-letter unit other than h, d and
/// w ("3m": a month or a minute?) is refused. Throws amdahl::Error.
Effort parse_effort(std::string_view text);

/// Parses "SELECTOR=FACTOR[@EFFORT]".
SpeedupSpec parse_speedup(std::string_view text);

/// The indices of the phases `selector` picks. A glob that is also the exact name of a phase picks
/// only that phase, and when the glob would have picked more, a note in `notes` says so. A name
/// that is no phase's full name picks the one phase whose short name it is (the name a table
/// shows, or another reading of it: `reduce_kernel` for `void at::native::reduce_kernel<...>(T3)`),
/// with a note. Throws amdahl::Error when it picks none, with a "did you mean" suggestion for a
/// misspelled name, or when several phases have that short name, listing them.
std::vector<std::size_t> select_phases(const Profile& profile, const Selector& selector,
                                       std::vector<std::string>* notes = nullptr);

}  // namespace amdahl
