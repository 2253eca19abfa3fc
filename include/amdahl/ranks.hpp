#pragma once
/// \file Multi-rank steps with barriers (eval --ranks, rank --ranks): every rank runs the same
/// barrier segments in the same order, each segment lasts as long as its slowest rank, and the step
/// is the sum of the segments. Pure math on validated values.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/profile.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl {

/// Ranks whose segment times differ by at most this fraction of the segment's maximum are all
/// critical (a tie): times equal up to rounding.
inline constexpr double critical_tolerance = 1e-9;

/// One rank's profile and its name ("rank3", from its file's name).
struct RankProfile {
    std::string rank;
    Profile profile;
    bool from_column = false;  ///< the rank's name is from a table's rank column, not its file's name
};

/// The ranks of one step, their phases grouped into barrier segments.
struct RankSet {
    std::vector<std::string> ranks;     ///< names, in the order given
    std::vector<Profile> profiles;      ///< parallel to `ranks`, every one in `unit`
    std::vector<std::string> segments;  ///< in step order
    bool named_segments = false;        ///< from "segment" fields; else every phase is its own segment
    /// Per rank, per phase: the index of its segment in `segments`.
    std::vector<std::vector<std::size_t>> phase_segment;
    /// times[s * ranks.size() + r]: t(s, r), the busy time of rank r in segment s (0 when absent).
    std::vector<double> times;
    Unit unit = Unit::ms;
    std::size_t missing = 0;         ///< (segment, rank) pairs absent from a rank's profile, counted as 0
    std::vector<std::string> notes;  ///< how phases became segments, and what was assumed

    double time(std::size_t segment, std::size_t rank) const { return times[segment * ranks.size() + rank]; }
};

/// Groups the ranks' phases into barrier segments: by their "segment" field when every phase has
/// one, else every phase name is a segment. All profiles are converted to the first one's unit.
/// Throws amdahl::Error (naming the ranks' files) for no ranks, two ranks of one name, phases of
/// which only some name a segment, a segment split on a rank by another, or ranks that order two
/// segments differently.
RankSet group_segments(std::vector<RankProfile> ranks);

/// A speedup on some ranks: "@rank3:attention=2" on rank3 alone, "attention=2" on every rank.
struct RankSpeedup {
    std::optional<std::string> rank;  ///< none: every rank
    SpeedupSpec spec;                 ///< the speedup after the rank prefix
    std::string text;                 ///< as written
};

/// Parses "@RANK:SELECTOR=FACTOR" (the rank ends at the first ':') or "SELECTOR=FACTOR". A selector
/// never starts with '@' here: a phase whose name does is picked with `name:@...`.
RankSpeedup parse_rank_speedup(std::string_view text);

/// One segment before and after: its time, max_r t(s, r), and its critical ranks.
struct SegmentOutcome {
    double before = 0, after = 0;
    std::vector<std::size_t> critical_before, critical_after;  ///< indices into RankSet::ranks
};

/// What one speedup did.
struct RankSpeedupOutcome {
    double busy_time_saved = 0;         ///< Σ over the phases it picked, on every rank, of t - t/k
    double step_time_saved = 0;         ///< step - step with this speedup alone
    std::vector<std::size_t> ranks;     ///< the ranks where it picked a phase
    std::vector<std::size_t> segments;  ///< the segments those phases are in
    std::vector<std::string> phases;    ///< the distinct names of the phases it picked
    bool critical_anywhere = false;     ///< one of its (segment, rank) pairs was critical before
};

struct RanksEvaluation {
    double baseline_time = 0;  ///< step = Σ_s max_r t(s, r)
    double new_time = 0;       ///< step' = Σ_s max_r t'(s, r)
    double time_saved = 0;     ///< step - step'
    double speedup = 1;        ///< step / step'; infinite when step' == 0
    std::vector<SegmentOutcome> segments;
    std::vector<double> busy_before, busy_after;    ///< per rank: Σ_s t(s, r)
    std::vector<double> slack_before, slack_after;  ///< per rank: Σ_s (max_r' t(s, r') - t(s, r))
    std::vector<RankSpeedupOutcome> speedups;       ///< parallel to the speedups given
    std::vector<std::string> notes;                 ///< what the selectors assumed (once, whatever the ranks)
};

/// Applies `speedups` rank by rank. Throws amdahl::Error for a rank prefix that names no rank, a
/// speedup that picks no phase on any of its ranks, or two speedups picking one phase of a rank.
RanksEvaluation evaluate_ranks(const RankSet& set, const std::vector<RankSpeedup>& speedups);

/// A straggler: the slowest rank of a segment and the step time it holds.
struct Straggler {
    std::size_t segment = 0;
    std::vector<std::size_t> ranks;   ///< the critical ranks (several: a tie)
    double time = 0;                  ///< the segment's time, max_r t(s, r)
    std::optional<std::size_t> next;  ///< the slowest rank that is not critical; none with one rank
    double next_time = 0;             ///< its time (0 without one)
    double held = 0;                  ///< time - next_time: what the step loses to the straggler (0 for a tie)
};

/// Every segment's straggler, by held time, most first (ties in step order).
std::vector<Straggler> rank_stragglers(const RankSet& set);

/// `amdahl eval --ranks`: speedups on some ranks, and the step before and after.
struct RanksEvalResult {
    const RankSet* set = nullptr;
    std::vector<RankSpeedup> speedups;  ///< as given, in order; RanksEvaluation::speedups is parallel
    RanksEvaluation evaluation;
    std::optional<double> required_speedup;  ///< --require-speedup: the gate's threshold
    bool gate_passed = true;
};

/// `amdahl rank --ranks`: the (segment, rank) pairs that hold the most step time.
struct StragglerResult {
    const RankSet* set = nullptr;
    double step_time = 0;               ///< Σ_s max_r t(s, r)
    std::vector<Straggler> stragglers;  ///< most held first, cut to --top
};

}  // namespace amdahl
