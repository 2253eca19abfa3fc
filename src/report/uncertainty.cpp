// An end-to-end speedup's uncertainty, written once for eval, rank and plan.
#include "report/uncertainty.hpp"

#include <fmt/format.h>

#include "report/numbers.hpp"

namespace amdahl {

std::string uncertainty_assumption(const Uncertainty& u) {
    std::string text;
    if (u.any_range()) {
        text =
            "exact bounds over every range's ends (S is monotone in each factor and a ratio of linear functions "
            "of the times, so its extremes are corners); the point figures take ";
        if (u.factor_ranges) text += "each factor range's geometric midpoint sqrt(low x high)";
        if (u.factor_ranges && u.time_ranges) text += " and ";
        if (u.time_ranges) text += "each time range's arithmetic midpoint";
    }
    if (u.exclusive_only && u.any_range())
        text +=
            "; these bounds count only the time the sped-up phases ran alone (their exclusive time): 'with "
            "overlap' spans their active time too";
    if (u.total_fixed && (u.time_ranges || u.spreads)) {
        if (!text.empty()) text += "; ";
        text += "the declared total stays fixed: 'unattributed' takes up what the phases leave of it";
    }
    if (u.spreads) {
        if (!text.empty()) text += "; ";
        text += "the run-to-run spreads (sd) are propagated to first order at the point, the phases independent";
    }
    return text;
}

std::string format_speedup_interval(const Uncertainty& u, const NumberStyle& style) {
    return format_speedup(u.speedup.low, style) + " .. " + format_speedup(u.speedup.high, style);
}

void add_uncertainty_summary(std::vector<SummaryLine>& s, const Uncertainty& u, const std::string& unit,
                             const NumberStyle& style) {
    if (u.any_range()) {
        s.push_back({"speedup range",
                     format_speedup(u.speedup.low, style) + " to " + format_speedup(u.speedup.high, style),
                     "speedup_interval_low", machine_number(u.speedup.low)});
        s.push_back({"", "", "speedup_interval_high", machine_number(u.speedup.high)});
        s.push_back({"time saved range",
                     format_time(u.time_saved.low, style) + " to " + format_time(u.time_saved.high, style) + " " + unit,
                     "time_saved_interval_low_" + unit, shortest(u.time_saved.low)});
        s.push_back({"", "", "time_saved_interval_high_" + unit, shortest(u.time_saved.high)});
    }
    if (u.speedup_sd) {
        s.push_back({"speedup spread",
                     "+/- " + format_speedup(*u.speedup_sd, style) + " (1 sd), time saved +/- " +
                         format_time(*u.time_saved_sd, style) + " " + unit,
                     "speedup_sd", shortest(*u.speedup_sd)});
        s.push_back({"", "", "time_saved_sd_" + unit, shortest(*u.time_saved_sd)});
    }
    s.push_back({"uncertainty", uncertainty_assumption(u), "", ""});
}

void write_uncertainty_json(JsonWriter& json, const Uncertainty& u) {
    json.key("uncertainty").begin_object();
    json.field("factor_ranges", u.factor_ranges).field("time_ranges", u.time_ranges).field("spreads", u.spreads);
    json.field("speedup_low", u.speedup.low).field("speedup_high", u.speedup.high);
    json.field("time_saved_low", u.time_saved.low).field("time_saved_high", u.time_saved.high);
    json.field("new_time_low", u.new_time.low).field("new_time_high", u.new_time.high);
    json.field("speedup_sd", u.speedup_sd).field("time_saved_sd", u.time_saved_sd);
    json.field("assumption", uncertainty_assumption(u)).end_object();
}

std::vector<std::string> explain_uncertainty(const Uncertainty& u, const std::string& unit, const NumberStyle& style) {
    const auto t = [&](double v) { return format_time(v, style) + " " + unit; };
    std::vector<std::string> lines;
    if (u.any_range()) {
        const bool fixed = u.total_fixed && u.time_ranges;
        const char* times = fixed
                                ? ", each time at the end that saves least (the total fixed, 'unattributed' taking up "
                                  "the rest)"
                            : u.time_ranges ? ", times at the corner where S is least (sorted by 1/k, m + 1 corners)"
                                            : "";
        lines.push_back(fmt::format("low end:  every factor at its low end{}: S = T / T' = {} / {} = {}", times,
                                    t(u.slowest.baseline), t(u.slowest.new_time),
                                    format_speedup(u.speedup.low, style)));
        times = fixed           ? ", each time at the end that saves most"
                : u.time_ranges ? ", times at the corner where S is greatest"
                                : "";
        lines.push_back(fmt::format("high end: every factor at its high end{}: S = T / T' = {} / {} = {}", times,
                                    t(u.fastest.baseline), t(u.fastest.new_time),
                                    format_speedup(u.speedup.high, style)));
        const char* ends = u.time_ranges ? ", each time at the end that saves least" : "";
        lines.push_back(fmt::format("time saved T - T' = sum t (1 - 1/k): {} (factors low{}) to {} (factors high{})",
                                    t(u.time_saved.low), ends, t(u.time_saved.high),
                                    u.time_ranges ? ", each time at the end that saves most" : ""));
    }
    if (u.speedup_sd)
        lines.push_back(fmt::format(
            "spread:   sd(S) = sqrt(sum_i ((1 - S/k_i) / T')^2 sd_i^2) = {}; sd(T - T') = sqrt(sum_i (1 - 1/k_i)^2 "
            "sd_i^2) = {}",
            format_speedup(*u.speedup_sd, style), t(*u.time_saved_sd)));
    return lines;
}

}  // namespace amdahl
