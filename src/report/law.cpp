// How `amdahl law` reads for people: the three quantities, the ceiling, and why when impossible.
#include <fmt/format.h>

#include <cmath>

#include "report/explain.hpp"
#include "report/report.hpp"

namespace amdahl {

Document layout(const LawResult& r, const ReportOptions& options) {
    const LawSolution& s = r.solution;
    const NumberStyle& style = options.numbers;
    using Solved = LawResult::Solved;
    Document doc;
    doc.command = "law";
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_law(r, style), true, true});
    auto& lines = doc.summary;
    if (r.solved_for == Solved::fraction && !s.possible)
        lines.push_back({"fraction f", "impossible", "fraction", ""});
    else
        lines.push_back({"fraction f",
                         format_share(s.fraction, style) + (r.solved_for == Solved::fraction ? " (solved)" : ""),
                         "fraction", shortest(s.fraction)});
    if (r.solved_for == Solved::factor && !s.possible)
        lines.push_back({"factor k", "impossible", "factor", ""});
    else
        lines.push_back({"factor k",
                         format_factor(s.factor, style) + (r.solved_for == Solved::factor ? " (solved)" : ""), "factor",
                         machine_number(s.factor)});
    const bool speedup_solved = r.solved_for == Solved::speedup;
    lines.push_back({speedup_solved ? "speedup S" : "target S", format_speedup(s.speedup, style),
                     speedup_solved ? "speedup" : "target", machine_number(s.speedup)});
    if (!(r.solved_for == Solved::fraction && !s.possible)) {
        lines.push_back({"ceiling",
                         std::isinf(s.ceiling) ? "none (f = 1)" : format_speedup(s.ceiling, style) + " (1 / (1 - f))",
                         "ceiling", machine_number(s.ceiling)});
    }
    if (r.time) {
        const std::string unit(unit_name(r.time_unit));
        lines.push_back({"old time", format_time(*r.time, style) + " " + unit, "old_time_" + unit, shortest(*r.time)});
        if (s.possible) {
            const double saved = *r.time - r.new_time();
            lines.push_back({"new time", format_time(r.new_time(), style) + " " + unit, "new_time_" + unit,
                             shortest(r.new_time())});
            lines.push_back({"time saved",
                             format_time(saved, style) + " " + unit + " (" + format_share(saved / *r.time, style) + ")",
                             "time_saved_" + unit, shortest(saved)});
        }
    }
    doc.headline = speedup_solved ? format_speedup(s.speedup, style) + " end to end"
                   : !s.possible  ? "impossible"
                   : r.solved_for == Solved::factor
                       ? "a local speedup of " + format_factor(s.factor, style) + " is needed"
                       : "a fraction of " + format_share(s.fraction, style) + " is needed";
    lines.push_back({"", "", "possible", s.possible ? "true" : "false"});
    if (!s.possible) {
        std::string why(s.reason);
        if (r.solved_for == Solved::factor) {
            why = fmt::format(
                "a {} end-to-end speedup needs more than the ceiling {} = 1 / (1 - {}) allows; even an infinitely "
                "fast part leaves {} of the time",
                format_speedup(s.speedup, style), format_speedup(s.ceiling, style), format_plain(s.fraction, style),
                format_share(1 - s.fraction, style));
        }
        doc.sections.push_back({"impossible", {why}});
    }
    return doc;
}

}  // namespace amdahl
