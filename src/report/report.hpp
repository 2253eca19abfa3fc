#pragma once
// The output layer's one entry point: any command's result, in any format. Each command's
// layout (src/report/<command>.cpp) turns its result into a Document for the text, CSV and
// Markdown reporters; the JSON reporter (src/report/json.cpp) writes each result's own keys.
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <vector>

#include "amdahl/compare.hpp"
#include "amdahl/report.hpp"
#include "amdahl/results.hpp"
#include "report/compare.hpp"
#include "report/document.hpp"
#include "report/numbers.hpp"
#include "report/table_rows.hpp"

namespace amdahl {

/// Which rows of phases a report carries (--phases). The summary is the same either way.
enum class PhaseRows { all, changed, none };

struct ReportOptions {
    NumberStyle numbers;
    PhaseRows phases = PhaseRows::all;
    bool explain = false;     ///< --explain: the arithmetic, line by line
    bool verdict = false;     ///< eval --verdict: only its one sentence (text, Markdown); JSON adds it
    bool full_names = false;  ///< --names full: names printed whole, as selectors take them
    /// Columns a name may take (0: any); write_report sets it for the text table.
    std::size_t name_width = 0;
    /// Share bars and colour, for a terminal: the text format only, never the other formats.
    TerminalStyle terminal;
};

/// How a report names the whole run: "end to end", or for a summary, whose rows' sum is no wall
/// time, "over the summed rows".
const char* whole_run(bool summary_only);
/// True when a profile's shares are of its summed rows: a summary whose total is the rows' sum. A
/// summary given its end-to-end time (--total) has the rest in 'unattributed' and is over that.
bool over_summed_rows(const Profile& profile);
/// whole_run for a profile: "over the summed rows" when over_summed_rows, else "end to end".
const char* whole_run(const Profile& profile);
/// The summary lines that say what a profile's phases add up to: its boundary, and for a summary
/// the caveat that its rows may overlap.
void add_boundary(std::vector<SummaryLine>& summary, const std::string& boundary, bool summary_only);
/// True when some phase says how many calls it made: the reports then have a calls column.
inline bool any_calls(const Profile& profile) {
    for (const Phase& phase : profile.phases)
        if (phase.calls) return true;
    return false;
}
/// The calls of several phases (a rank target): their sum, or none when one of them does not say.
inline std::optional<std::uint64_t> total_calls(const Profile& profile, const std::vector<std::size_t>& phases) {
    std::uint64_t sum = 0;
    for (std::size_t i : phases) {
        if (!profile.phases[i].calls) return std::nullopt;
        sum += *profile.phases[i].calls;
    }
    if (phases.empty()) return std::nullopt;
    return sum;
}
/// A calls cell: "1,024" for people, "1024" for scripts, "-" and "" when unknown.
inline Cell calls_cell(std::optional<std::uint64_t> calls) {
    if (!calls) return Cell("-", "");
    return Cell(format_count(*calls), std::to_string(*calls));
}

/// The names a report prints for `names` (distinct full names), in order: their short names
/// (model/short_names.hpp) cut to `options.name_width`, or empty when each is printed whole
/// (--names full, or nothing to shorten). With a profile, the short names are made among all its
/// phases too, so that a name a report shows is a selector that picks its phase, whichever rows
/// the report shows.
std::vector<std::string> displayed_names(const std::vector<std::string_view>& names, const ReportOptions& options,
                                         const Profile* profile = nullptr);

/// The short names JSON writes beside the full names (`short_name`), made as displayed_names()
/// makes them but never cut; empty when each is its full name.
std::vector<std::string> json_short_names(const std::vector<std::string_view>& names, const Profile* profile = nullptr);

Document layout(const EvalResult& result, const ReportOptions& options);
Document layout(const LawResult& result, const ReportOptions& options);
/// Why a law answer at the ceiling needs k = inf, in words: the text and JSON reports say the same.
std::string law_ceiling_note(const LawSolution& solution, const NumberStyle& style);
/// The law's note, if any: at the ceiling, or a solved factor for a target within 1e-9 of it.
struct LawNote {
    std::string title, text;
};
std::optional<LawNote> law_note(const LawResult& result, const NumberStyle& style);
Document layout(const RankResult& result, const ReportOptions& options);
Document layout(const PlanReport& result, const ReportOptions& options);
/// plan's "optimal" text for the exact search: proven, or the gap to its best bound.
std::string exact_search_optimality(const PlanResult& plan, const NumberStyle& style);
/// The summary's "optimal" line and the plans of the same cost ("same cost"), named by `name_of`.
void add_plan_search(std::vector<SummaryLine>& summary, const PlanResult& plan, const std::string& optimal,
                     const std::function<std::string(std::size_t)>& name_of);
Document layout(const CompareReport& result, const ReportOptions& options);
Document layout(const BenchmarkCompareReport& result, const ReportOptions& options);
Document layout(const ScaleResult& result, const ReportOptions& options);
Document layout(const FitResult& result, const ReportOptions& options);
Document layout(const QueueResult& result, const ReportOptions& options);

void write_json(std::ostream& out, const EvalResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const LawResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const RankResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const PlanReport& result, const ReportOptions& options);
void write_json(std::ostream& out, const CompareReport& result, const ReportOptions& options);
void write_json(std::ostream& out, const BenchmarkCompareReport& result, const ReportOptions& options);
void write_json(std::ostream& out, const ScaleResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const FitResult& result, const ReportOptions& options);
void write_json(std::ostream& out, const QueueResult& result, const ReportOptions& options);

/// Writes `result` in `format` to `out`; CSV's talk (the summary) goes to `talk`.
template <class Result>
void write_report(std::ostream& out, std::ostream& talk, const Result& result, OutputFormat format,
                  const ReportOptions& options) {
    if (format == OutputFormat::json) return write_json(out, result, options);
    ReportOptions for_format = options;
    if (format == OutputFormat::table) for_format.name_width = detail::max_text_width;
    const Document document = layout(result, for_format);
    switch (format) {
        case OutputFormat::csv:
            return write_csv(out, talk, document);
        case OutputFormat::markdown:
            return write_markdown(out, document);
        default:
            return write_text(out, document, true, options.terminal);
    }
}

}  // namespace amdahl
