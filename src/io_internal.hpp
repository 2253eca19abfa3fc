#pragma once
// What the format readers hand to the common checks: phases as written, before totals, shares
// and units are reconciled.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/profile.hpp"

namespace amdahl::detail {

struct RawTime {
    double value = 0;
    std::optional<Unit> unit;  ///< none: the profile's unit
};

struct RawPhase {
    std::string name;
    std::string kind;
    std::optional<RawTime> time;
    std::optional<double> share;  ///< fraction 0..1
    std::optional<RawTime> active_time;  ///< from an imported trace: alone or overlapped
    std::string where;            ///< "step.csv:4" or "step.json: phases[2]"
};

struct RawProfile {
    std::string name;
    std::string source;
    std::optional<Unit> unit;  ///< declared unit
    std::optional<RawTime> total;
    std::string total_where;
    std::vector<RawPhase> phases;
    std::vector<ProfileProposal> proposals;
    std::string boundary;             ///< from an import: what the phases add up to
    bool summary_only = false;        ///< from an import of a summary format
    std::vector<Overlap> overlaps;    ///< from an imported trace, in the profile's unit
    std::vector<RawTime> runs;  ///< end-to-end times of repeated runs ("runs" in JSON)
    std::string runs_where;
    std::vector<std::string> notes;
};

/// Checks and reconciles a raw profile: names, totals, shares, units. Throws amdahl::Error.
Profile finish_profile(RawProfile raw);

/// Parses a time cell ("18.0", "21 ms", "2,357,053"); `what` names it in errors.
RawTime parse_time_text(std::string_view text, const std::string& where, const std::string& what);
/// Parses a share ("21%", "0.21"); `percent_scale` tells whether a bare number is a percentage.
double parse_share_text(std::string_view text, bool percent_scale, const std::string& where,
                        const std::string& what);

RawProfile read_json_profile(std::string_view content, const std::string& source);
RawProfile read_delimited_profile(std::string_view content, const std::string& source, char delimiter);
RawProfile read_markdown_profile(std::string_view content, const std::string& source);
RawProfile read_text_profile(std::string_view content, const std::string& source);

/// True when `name` labels a table's closing total row ("Total", "End-to-end latency", "Sum").
bool is_total_row_name(std::string_view name);

}  // namespace amdahl::detail
