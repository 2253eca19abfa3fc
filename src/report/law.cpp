// How `amdahl law` reads for people: the three quantities, the ceiling, and why when impossible.
#include <fmt/format.h>

#include <cmath>

#include "report/explain.hpp"
#include "report/fleet.hpp"
#include "report/report.hpp"

namespace amdahl {

std::string law_ceiling_note(const LawSolution& s, const NumberStyle& style) {
    return fmt::format(
        "{} is the ceiling 1 / (1 - {}): only k = inf reaches it, the part taking no time; every finite factor "
        "falls short",
        format_speedup(s.speedup, style), shortest(s.fraction));
}

// A target this close to the ceiling (relative to it) solves for a k that mostly echoes the
// target's last digits: k = f / (1/S - (1 - f)) has a pole at S = 1 / (1 - f).
constexpr double near_ceiling = 1e-9;

std::optional<LawNote> law_note(const LawResult& r, const NumberStyle& style) {
    const LawSolution& s = r.solution;
    if (s.at_ceiling) return LawNote{"at the ceiling", law_ceiling_note(s, style)};
    if (r.solved_for == LawResult::Solved::factor && s.possible && s.fraction == 0)
        return LawNote{"any factor", "nothing is sped up (f = 0), so every factor k gives 1x; k = 1 is shown"};
    if (r.solved_for != LawResult::Solved::factor || !s.possible || !std::isfinite(s.ceiling) ||
        s.ceiling - s.speedup > near_ceiling * s.ceiling)
        return std::nullopt;
    return LawNote{"near the ceiling",
                   fmt::format("the target {}x is within 1e-9 of the ceiling {} = 1 / (1 - {}), where k grows without "
                               "bound: the solved k is exact arithmetic, but a change in the target's last digits "
                               "changes it by orders of magnitude",
                               shortest(s.speedup), format_speedup(s.ceiling, style), shortest(s.fraction))};
}

Document layout(const LawResult& r, const ReportOptions& options) {
    const LawSolution& s = r.solution;
    const NumberStyle& style = options.numbers;
    using Solved = LawResult::Solved;
    Document doc;
    doc.command = "law";
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_law(r, style), true, true});
    auto& lines = doc.summary;
    const std::string unit(unit_name(r.time_unit));
    // "(900.0 of 1,500.0 ms)": where a fraction given as times came from, or with --time the part's time.
    const auto of_time = [&](std::size_t part) {
        const std::optional<double> time = r.part_time(part);
        if (!time) return std::string();
        return fmt::format(" ({} of {} {})", format_time(*time, style), format_time(*r.time, style), unit);
    };
    const bool several = r.parts.size() > 1;
    for (std::size_t i = 0; i < r.parts.size() && several; ++i) {
        const std::string n = std::to_string(i + 1);
        lines.push_back({"part " + n,
                         fmt::format("f = {}{}, k = {}", format_share(r.parts[i].fraction, style), of_time(i),
                                     format_factor(r.parts[i].factor, style)),
                         "part_" + n + "_fraction", shortest(r.parts[i].fraction)});
        lines.push_back({"", "", "part_" + n + "_factor", machine_number(r.parts[i].factor)});
    }
    if (r.solved_for == Solved::fraction && !s.possible)
        lines.push_back({"fraction f", "impossible", "fraction", ""});
    else
        lines.push_back({"fraction f",
                         format_share(s.fraction, style) + (r.solved_for == Solved::fraction ? " (solved)" : "") +
                             (several ? " (the parts together)" : of_time(0)),
                         "fraction", shortest(s.fraction)});
    if (r.solved_for == Solved::factor && !s.possible)
        lines.push_back({"factor k", "impossible", "factor", ""});
    else
        lines.push_back({"factor k",
                         format_factor(s.factor, style) + (r.solved_for == Solved::factor ? " (solved)" : "") +
                             (several ? " (the parts together: Σf / Σ(f / k))" : ""),
                         "factor", machine_number(s.factor)});
    const bool speedup_solved = r.solved_for == Solved::speedup;
    lines.push_back({speedup_solved ? "speedup S" : "target S", format_speedup(s.speedup, style),
                     speedup_solved ? "speedup" : "target", machine_number(s.speedup)});
    if (r.speedup_range) {
        lines.push_back({"speedup range",
                         format_speedup(r.speedup_range->low, style) + " to " +
                             format_speedup(r.speedup_range->high, style) +
                             " (every factor at its range's ends; the point takes each range's geometric midpoint)",
                         "speedup_interval_low", machine_number(r.speedup_range->low)});
        lines.push_back({"", "", "speedup_interval_high", machine_number(r.speedup_range->high)});
        if (r.time)
            lines.push_back({"time saved range",
                             format_time(*r.time * (1 - 1 / r.speedup_range->low), style) + " to " +
                                 format_time(*r.time * (1 - 1 / r.speedup_range->high), style) + " " + unit,
                             "", ""});
    }
    if (!(r.solved_for == Solved::fraction && !s.possible)) {
        lines.push_back({"ceiling",
                         std::isinf(s.ceiling) ? "none (f = 1)" : format_speedup(s.ceiling, style) + " (1 / (1 - f))",
                         "ceiling", machine_number(s.ceiling)});
    }
    if (r.time) {
        lines.push_back({"old time", format_time(*r.time, style) + " " + unit, "old_time_" + unit, shortest(*r.time)});
        if (const auto part = r.part_time()) lines.push_back({"", "", "part_time_" + unit, shortest(*part)});
        if (s.possible) {
            const double saved = r.time_saved();
            lines.push_back({"new time", format_time(r.new_time(), style) + " " + unit, "new_time_" + unit,
                             shortest(r.new_time())});
            lines.push_back({"time saved",
                             format_time(saved, style) + " " + unit + " (" + format_share(r.saved_fraction(), style) +
                                 " of the time)",
                             "time_saved_" + unit, shortest(saved)});
        }
    } else if (s.possible) {
        lines.push_back({"time saved", format_share(r.saved_fraction(), style) + " of the time (1 - 1/S)", "", ""});
    }
    if (s.possible) lines.push_back({"", "", "saved_fraction", machine_number(r.saved_fraction())});
    doc.headline = s.at_ceiling && !speedup_solved ? "reachable only at k = inf (the ceiling)"
                   : speedup_solved                ? format_speedup(s.speedup, style) + " end to end"
                   : !s.possible                   ? "impossible"
                   : r.solved_for == Solved::factor
                       ? "a local speedup of " + format_factor(s.factor, style) + " is needed"
                       : "a fraction of " + format_share(s.fraction, style) + " is needed";
    lines.push_back({"", "", "possible", s.possible ? "true" : "false"});
    lines.push_back({"", "", "at_ceiling", s.at_ceiling ? "true" : "false"});
    if (r.fleet)
        add_fleet(doc, *r.fleet, options);
    else if (r.fleet_given)
        lines.push_back({"fleet", "no figures: the speedup is impossible", "", ""});
    if (const auto note = law_note(r, style)) doc.sections.push_back({note->title, {note->text}});
    if (!s.possible) {
        std::string why(s.reason);
        if (r.solved_for == Solved::factor && s.fraction > 0 && s.speedup >= s.ceiling) {
            why = fmt::format(
                "a {} end-to-end speedup needs more than the ceiling {} = 1 / (1 - {}) allows; even an infinitely "
                "fast part leaves {} of the time",
                format_speedup(s.speedup, style), format_speedup(s.ceiling, style), shortest(s.fraction),
                format_share(1 - s.fraction, style));
        }
        doc.sections.push_back({"impossible", {why}});
    }
    return doc;
}

}  // namespace amdahl
