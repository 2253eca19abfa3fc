#include "report/explain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "amdahl/report.hpp"
#include "model/short_names.hpp"
#include "report/numbers.hpp"

namespace amdahl {

namespace {

// Sums with many terms are written with the first few and a count of the rest.
constexpr std::size_t max_terms = 12;

std::string join_terms(const std::vector<std::string>& terms, std::size_t total_count) {
    std::string out;
    for (std::size_t i = 0; i < terms.size(); ++i) out += (i ? " + " : "") + terms[i];
    if (total_count > terms.size()) out += fmt::format(" + ... ({} more)", total_count - terms.size());
    return out;
}

std::string number(double value) {
    // Shortest text, so a student sees 0.79 rather than 0.7900000000000000355.
    std::string text = fmt::format("{:.6g}", value);
    return text;
}

}  // namespace

std::vector<std::string> explain_classes(const Profile& profile) {
    // (class, rule) -> kernels, each kernel once, the classes in the order of the phases.
    std::vector<std::pair<std::string, std::string>> groups;
    std::vector<std::vector<std::size_t>> members;
    std::set<std::pair<std::string_view, std::string_view>> seen;
    std::vector<std::string_view> names;
    for (const Phase& phase : profile.phases) {
        for (const ClassMember& m : profile.class_members) {
            if (m.phase != phase.name || !seen.emplace(m.phase, m.name).second) continue;
            auto group = std::find(groups.begin(), groups.end(), std::make_pair(m.phase, m.rule));
            if (group == groups.end()) {
                groups.emplace_back(m.phase, m.rule);
                members.emplace_back();
                group = groups.end() - 1;
            }
            members[static_cast<std::size_t>(group - groups.begin())].push_back(names.size());
            names.push_back(m.name);
        }
    }
    const std::vector<std::string> shown = short_names(names);
    std::vector<std::string> lines;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::string line = printable(groups[g].first) + ": " + groups[g].second + ": ";
        for (std::size_t k = 0; k < members[g].size(); ++k) {
            const std::size_t i = members[g][k];
            line += (k ? ", " : "") + printable(shown.empty() ? names[i] : shown[i]);
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<std::string> explain_eval(const Profile& profile, const std::vector<SpeedupSpec>& specs,
                                      const Evaluation& result, const NumberStyle& style) {
    const std::string unit(unit_name(profile.unit));
    // Times to the digits that show the saving: T_old and T_new never read as one value with a
    // non-zero difference between them (100.0001 - 100.0001 = 0.00005).
    NumberStyle times = style;
    if (result.time_saved != 0 && std::isfinite(result.time_saved)) {
        const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(result.time_saved))));
        times.decimals = std::clamp(1 - magnitude, style.decimals, std::max(style.decimals, 12));
    }
    const auto t = [&](double v) { return format_time(v, times); };
    std::vector<std::string> lines;
    std::vector<std::string> old_terms, new_terms, new_values;
    for (std::size_t i = 0; i < profile.phases.size() && old_terms.size() < max_terms; ++i) {
        const double time = profile.phases[i].time;
        const double factor = result.phases[i].factor;
        old_terms.push_back(t(time));
        if (!result.phases[i].changed()) {
            new_terms.push_back(t(time));
        } else if (std::isinf(factor)) {
            new_terms.push_back(t(time) + " / inf");
        } else {
            new_terms.push_back(t(time) + " / " + number(factor));
        }
        new_values.push_back(t(result.phases[i].new_time));
    }
    const std::size_t n = profile.phases.size();
    lines.push_back(fmt::format("T_old = {} = {} {}", join_terms(old_terms, n), t(result.baseline_time), unit));
    lines.push_back(fmt::format("T_new = {}", join_terms(new_terms, n)));
    lines.push_back(fmt::format("      = {} = {} {}", join_terms(new_values, n), t(result.new_time), unit));
    if (result.new_time > 0) {
        lines.push_back(fmt::format("S = T_old / T_new = {} / {} = {}", t(result.baseline_time), t(result.new_time),
                                    format_speedup(result.speedup, style)));
    } else {
        lines.push_back("S = T_old / T_new = infinite (every phase takes no time)");
    }
    lines.push_back(fmt::format("saved = T_old - T_new = {} - {} = {} {} ({} of T_old)", t(result.baseline_time),
                                t(result.new_time), t(result.time_saved), unit,
                                format_share(result.saved_fraction, style)));
    const double affected = result.affected_fraction * result.baseline_time;
    lines.push_back(fmt::format("f = T_affected / T_old = {} / {} = {}", t(affected), t(result.baseline_time),
                                number(result.affected_fraction)));
    if (std::isinf(result.ceiling)) {
        lines.push_back("ceiling = 1 / (1 - f) = infinite (f = 1: every phase is sped up)");
    } else {
        lines.push_back(fmt::format("ceiling = 1 / (1 - f) = 1 / {} = {}", number(1 - result.affected_fraction),
                                    format_speedup(result.ceiling, style)));
    }
    if (result.headroom_captured) {
        lines.push_back(fmt::format("captured = saved / T_affected = {} / {} = {}", t(result.time_saved), t(affected),
                                    format_share(*result.headroom_captured, style)));
    }
    // With one factor on every affected phase the closed form applies too: a check by formula.
    if (!specs.empty()) {
        double k = 0;
        bool single = true;
        for (const auto& phase : result.phases) {
            if (!phase.changed()) continue;
            if (k == 0)
                k = phase.factor;
            else if (phase.factor != k)
                single = false;
        }
        if (single && k > 0 && !std::isinf(k) && result.affected_fraction < 1) {
            const double f = result.affected_fraction;
            lines.push_back(fmt::format("check: S = 1 / ((1 - f) + f / k) = 1 / ({} + {} / {}) = {}", number(1 - f),
                                        number(f), number(k), format_speedup(amdahl_speedup(f, k), style)));
        }
    }
    return lines;
}

std::vector<std::string> explain_law(const LawResult& result, const NumberStyle& style) {
    const LawSolution& s = result.solution;
    const std::string_view given = result.solved_for == LawResult::Solved::speedup  ? "fk"
                                   : result.solved_for == LawResult::Solved::factor ? "fs"
                                                                                    : "ks";
    std::vector<std::string> lines;
    const std::string f = number(s.fraction);
    const std::string k = std::isinf(s.factor) ? "inf" : number(s.factor);
    if (result.parts.size() > 1) {
        std::string terms, sums;
        double sped = 0;
        for (const LawPart& part : result.parts) {
            const double term = std::isinf(part.factor) ? 0 : part.fraction / part.factor;
            sped += term;
            terms +=
                fmt::format(" + {} / {}", number(part.fraction), std::isinf(part.factor) ? "inf" : number(part.factor));
            sums += " + " + number(term);
        }
        lines.push_back(fmt::format("S = 1 / ((1 - Σf) + Σ f_i / k_i) = 1 / ({}{}) = 1 / ({}{}) = 1 / {} = {}",
                                    number(1 - s.fraction), terms, number(1 - s.fraction), sums,
                                    number(1 - s.fraction + sped), format_speedup(s.speedup, style)));
        lines.push_back(fmt::format("f = Σf = {}; k = Σf / Σ(f_i / k_i) = {} / {} = {}", f, f, number(sped), k));
    } else if (given == "fk") {
        const double sped = std::isinf(s.factor) ? 0 : s.fraction / s.factor;
        lines.push_back(fmt::format("S = 1 / ((1 - f) + f / k) = 1 / ({} + {} / {}) = 1 / ({} + {}) = 1 / {} = {}",
                                    number(1 - s.fraction), f, k, number(1 - s.fraction), number(sped),
                                    number(1 - s.fraction + sped), format_speedup(s.speedup, style)));
    } else if (given == "fs" && s.fraction == 0 && 1 / s.speedup - (1 - s.fraction) == 0) {
        lines.push_back(
            "k = f / (1/S - (1 - f)) = 0 / (1/1 - 1): with f = 0 the run does not change, so S = 1 "
            "holds for every k (1 is reported)");
    } else if (given == "fs") {
        lines.push_back(fmt::format("k = f / (1/S - (1 - f)) = {} / (1/{} - {}) = {} / {}{}", f, number(s.speedup),
                                    number(1 - s.fraction), f, number(1 / s.speedup - (1 - s.fraction)),
                                    s.possible ? " = " + k : " (not positive: impossible)"));
    } else {
        const double gain = 1 - (std::isinf(s.factor) ? 0 : 1 / s.factor);
        lines.push_back(fmt::format("f = (1 - 1/S) / (1 - 1/k) = {} / {} = {}", number(1 - 1 / s.speedup), number(gain),
                                    number(s.fraction)));
    }
    if (s.possible || given != "ks") {
        if (std::isinf(s.ceiling))
            lines.push_back("ceiling = 1 / (1 - f) = infinite (f = 1)");
        else
            lines.push_back(fmt::format("ceiling = 1 / (1 - f) = 1 / {} = {}", number(1 - s.fraction),
                                        format_speedup(s.ceiling, style)));
    }
    return lines;
}

std::vector<std::string> explain_rank(const RankResult& r, const NumberStyle& style) {
    const std::string unit(unit_name(r.profile->unit));
    const auto t = [&](double v) { return format_time(v, style); };
    std::vector<std::string> lines;
    lines.push_back(fmt::format("T = {} {}", t(r.baseline_time), unit));
    for (const RankedTarget& target : r.ranked) {
        const Candidate& c = r.set.candidates[target.candidate];
        const std::string saved_expr =
            std::isinf(c.factor) ? t(c.time)
                                 : fmt::format("{} - {} / {}", t(c.time), t(c.time), format_plain(c.factor, style));
        std::string line = fmt::format(
            "{}: saved = {} = {} {}; S = T / (T - saved) = {} / {} = {}; ceiling = T / (T - {}) = {}",
            printable(c.name), saved_expr, t(c.saved), unit, t(r.baseline_time), t(r.baseline_time - c.saved),
            format_speedup(target.speedup, style), t(c.time), format_speedup(target.ceiling, style));
        if (target.saved_per_effort)
            line += fmt::format("; per {} = {} / {} = {} {}", r.set.effort_unit, t(c.saved),
                                format_plain(*c.effort, style), t(*target.saved_per_effort), unit);
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<std::string> explain_plan(const PlanReport& r, const NumberStyle& style) {
    const std::string unit(unit_name(r.profile->unit));
    const auto t = [&](double v) { return format_time(v, style); };
    std::vector<std::string> lines;
    lines.push_back(fmt::format("need to save T - T / S = {} - {} = {} {}", t(r.baseline_time), t(r.target_time),
                                t(r.baseline_time - r.target_time), unit));
    double running = r.baseline_time;
    for (const PlanStep& s : r.steps) {
        const Candidate& c = r.set.candidates[s.candidate];
        lines.push_back(fmt::format("{} - {} ({}: {} - {} / {}) = {} {}; S = {} / {} = {}", t(running), t(c.saved),
                                    printable(c.name), t(c.time), t(c.time), format_plain(c.factor, style),
                                    t(s.new_time), unit, t(r.baseline_time), t(s.new_time),
                                    format_speedup(s.speedup, style)));
        running = s.new_time;
    }
    return lines;
}

}  // namespace amdahl
