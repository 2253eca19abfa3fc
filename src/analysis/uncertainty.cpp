#include "amdahl/uncertainty.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "amdahl/numbers.hpp"

namespace amdahl {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// N / D, infinite when nothing is left: S = T / T' with T' = 0.
double ratio(double numerator, double denominator) { return denominator > 0 ? numerator / denominator : infinity; }

double inverse(double factor) { return std::isinf(factor) ? 0.0 : 1 / factor; }

// The best of the m + 1 corners that put the first j terms (in the given order) at their high
// ends and the rest at their low ends.
Corner best_threshold(const std::vector<RatioTerm>& terms, bool maximize) {
    Summation numerator, denominator;
    for (const RatioTerm& t : terms) {
        numerator.add(t.time_low);
        denominator.add(t.inverse_factor * t.time_low);
    }
    Corner best{numerator.value(), denominator.value()};
    for (const RatioTerm& t : terms) {
        numerator.add(t.time_high - t.time_low);
        denominator.add(t.inverse_factor * (t.time_high - t.time_low));
        const Corner corner{numerator.value(), denominator.value()};
        if (maximize ? corner.speedup() > best.speedup() : corner.speedup() < best.speedup()) best = corner;
    }
    return best;
}

}  // namespace

// Why m + 1 corners suffice (Dinkelbach's argument). Let N(t) = sum t_g and D(t) = sum c_g t_g
// with D > 0 on the box, and let L = max N/D. Then N(t) - L D(t) <= 0 on the box, with 0 at the
// maximiser, so the maximiser maximises the separable N - L D = sum t_g (1 - L c_g): each t_g sits
// at its high end when c_g < 1/L and at its low end when c_g > 1/L (either end when equal, since
// its term is then 0). That corner puts the terms of smallest c high: with the terms sorted by c
// ascending it is one of the m + 1 prefixes, and the largest ratio among them is L. The minimum
// is the same with the inequalities reversed: high ends for the largest c, a prefix in descending
// c. Where D can reach 0 (every term with c > 0 at a zero low end) the prefix that puts exactly the
// c = 0 terms high reaches it, and the maximum is infinite, as S is.
double Corner::speedup() const { return ratio(baseline, new_time); }

RatioExtremes ratio_extremes(std::vector<RatioTerm> terms) {
    const auto by_inverse = [](const RatioTerm& a, const RatioTerm& b) { return a.inverse_factor < b.inverse_factor; };
    std::sort(terms.begin(), terms.end(), by_inverse);
    RatioExtremes out;
    out.high = best_threshold(terms, true);
    std::reverse(terms.begin(), terms.end());
    out.low = best_threshold(terms, false);
    return out;
}

void add_phase(PhaseGroup& group, const Profile& profile, const Phase& phase) {
    group.time += phase.time;
    if (profile.total_declared && phase.name == unattributed_phase) {
        group.holds_rest = true;
        return;
    }
    group.time_low += phase.spread ? phase.spread->low : phase.time;
    group.time_high += phase.spread ? phase.spread->high : phase.time;
    if (phase.spread) group.variance += phase.spread->sd * phase.spread->sd;
}

bool has_spread(const Profile& profile) {
    return std::any_of(profile.phases.begin(), profile.phases.end(),
                       [](const Phase& p) { return p.spread.has_value(); });
}

namespace {

// The bounds when a declared total T is the baseline at every corner: the rest u (the phase
// 'unattributed', in group `held`, factor c_u) is T - sum_g t_g, t_g each group's other phases. So
// T - T' = sum_g (1 - c_g) t_g + (1 - c_u) u = T (1 - c_u) + sum_g (c_u - c_g) t_g: linear in each
// t_g, increasing in every factor (no time is below 0 at any corner, as the high ends fit under T),
// and S = T / (T - saved) grows with it. Both are least with every factor at its low end and each
// t_g at the end its coefficient c_u - c_g makes least, greatest the other way round.
void fixed_total_bounds(const std::vector<PhaseGroup>& groups, const PhaseGroup& held, Uncertainty& out) {
    out.total_fixed = true;
    Summation sum;
    for (const PhaseGroup& g : groups) sum.add(g.time);
    const double total = sum.value();
    const auto saving = [&](bool most) {
        const double c_u = inverse(most ? held.range.high : held.range.low);
        Summation saved;
        saved.add(total * (1 - c_u));
        for (const PhaseGroup& g : groups) {
            const double coefficient = c_u - inverse(most ? g.range.high : g.range.low);
            saved.add(coefficient * ((coefficient > 0) == most ? g.time_high : g.time_low));
        }
        return saved.value();
    };
    out.time_saved = {saving(false), saving(true)};
    out.new_time = {total - out.time_saved.high, total - out.time_saved.low};
    out.slowest = {total, total - out.time_saved.low};
    out.fastest = {total, total - out.time_saved.high};
    out.speedup = {out.slowest.speedup(), out.fastest.speedup()};
    if (!out.spreads) return;
    // First order, phases independent: d(T - T')/dt_g = c_u - c_g, and dS = T / T'^2 d(T - T').
    const double c_u = inverse(held.factor);
    Summation new_time, saved_variance;
    for (const PhaseGroup& g : groups) {
        const double c = inverse(g.factor);
        new_time.add(c * g.time);
        saved_variance.add((c_u - c) * (c_u - c) * g.variance);
    }
    out.time_saved_sd = std::sqrt(saved_variance.value());
    if (new_time.value() > 0) out.speedup_sd = total / (new_time.value() * new_time.value()) * *out.time_saved_sd;
}

// speedup_uncertainty; with `even_without`, the point's bounds when nothing is uncertain.
std::optional<Uncertainty> uncertainty_of(const std::vector<PhaseGroup>& groups, bool even_without) {
    Uncertainty out;
    for (const PhaseGroup& g : groups) {
        out.factor_ranges = out.factor_ranges || g.range.low < g.range.high;
        out.time_ranges = out.time_ranges || g.time_low < g.time_high;
        out.spreads = out.spreads || g.variance > 0;
    }
    if (!out.any_range() && !out.spreads && !even_without) return std::nullopt;
    const auto held = std::find_if(groups.begin(), groups.end(), [](const PhaseGroup& g) { return g.holds_rest; });
    if (held != groups.end()) {
        fixed_total_bounds(groups, *held, out);
        return out;
    }

    // S is increasing in every factor (T' = sum t / k falls as any k grows), so for any times
    // S(t, k_low) <= S(t, k) <= S(t, k_high): the lowest S has every factor at its low end and
    // the highest every factor at its high end; the times' extremes then come from ratio_extremes.
    std::vector<RatioTerm> slowest, fastest;
    // The saving T - T' = sum t_g (1 - c_g) is linear in each time and increasing in each factor:
    // its bounds take each time's end by the sign of 1 - c_g.
    // T' = sum t_g c_g is increasing in each time and each c_g = 1/k_g: least with every time
    // at its low end and every factor at its high end, greatest the other way round.
    Summation saved_low, saved_high, numerator, denominator, new_low, new_high;
    for (const PhaseGroup& g : groups) {
        const double c_low = inverse(g.range.low), c_high = inverse(g.range.high);
        new_low.add(c_high * g.time_low);
        new_high.add(c_low * g.time_high);
        slowest.push_back({c_low, g.time_low, g.time_high});
        fastest.push_back({c_high, g.time_low, g.time_high});
        saved_low.add((1 - c_low) * (1 - c_low > 0 ? g.time_low : g.time_high));
        saved_high.add((1 - c_high) * (1 - c_high > 0 ? g.time_high : g.time_low));
        numerator.add(g.time);
        denominator.add(inverse(g.factor) * g.time);
    }
    out.slowest = ratio_extremes(slowest).low;
    out.fastest = ratio_extremes(fastest).high;
    out.speedup = {out.slowest.speedup(), out.fastest.speedup()};
    out.time_saved = {saved_low.value(), saved_high.value()};
    out.new_time = {new_low.value(), new_high.value()};
    if (out.spreads) {
        // First order, phases independent: S = N / D, dS/dt_g = (1 - S c_g) / D, so
        // var S = sum_g ((1 - S c_g) / D)^2 var_g; T - T' = sum t_g (1 - c_g), var = sum (1 - c_g)^2 var_g.
        const double d = denominator.value();
        const double s = ratio(numerator.value(), d);
        Summation speedup_variance, saved_variance;
        for (const PhaseGroup& g : groups) {
            const double c = inverse(g.factor);
            if (std::isfinite(s)) speedup_variance.add(std::pow((1 - s * c) / d, 2) * g.variance);
            saved_variance.add((1 - c) * (1 - c) * g.variance);
        }
        if (std::isfinite(s)) out.speedup_sd = std::sqrt(speedup_variance.value());
        out.time_saved_sd = std::sqrt(saved_variance.value());
    }
    return out;
}

}  // namespace

std::optional<Uncertainty> speedup_uncertainty(const std::vector<PhaseGroup>& groups) {
    return uncertainty_of(groups, false);
}

namespace {

// The candidates' groups, and last the phases outside them as what is left of `whole`.
std::vector<PhaseGroup> candidate_groups(const Profile& profile, const std::vector<Candidate>& candidates,
                                         const std::vector<std::size_t>& chosen, const PhaseGroup& whole) {
    std::vector<PhaseGroup> groups;
    PhaseGroup rest = whole;
    for (std::size_t c : chosen) {
        const Candidate& candidate = candidates[c];
        PhaseGroup& g = groups.emplace_back();
        g.factor = candidate.factor;
        g.range = candidate.factor_range.value_or(FactorRange{candidate.factor, candidate.factor});
        for (std::size_t p : candidate.phases) add_phase(g, profile, profile.phases[p]);
        rest.time -= g.time;
        rest.time_low -= g.time_low;
        rest.time_high -= g.time_high;
        rest.variance -= g.variance;
        if (g.holds_rest) rest.holds_rest = false;
    }
    // What is left of sums after subtracting may carry rounding below 0.
    rest.time = std::max(rest.time, 0.0);
    rest.time_low = std::max(rest.time_low, 0.0);
    rest.time_high = std::max(rest.time_high, rest.time_low);
    rest.variance = std::max(rest.variance, 0.0);
    groups.push_back(rest);
    return groups;
}

PhaseGroup whole_profile(const Profile& profile) {
    PhaseGroup whole;
    for (const Phase& phase : profile.phases) add_phase(whole, profile, phase);
    return whole;
}

bool any_factor_range(const std::vector<Candidate>& candidates) {
    return std::any_of(candidates.begin(), candidates.end(), [](const Candidate& c) { return c.factor_range; });
}

}  // namespace

std::optional<Uncertainty> candidates_uncertainty(const Profile& profile, const std::vector<Candidate>& candidates,
                                                  const std::vector<std::size_t>& chosen) {
    if (!any_factor_range(candidates) && !has_spread(profile)) return std::nullopt;
    return speedup_uncertainty(candidate_groups(profile, candidates, chosen, whole_profile(profile)));
}

std::vector<std::optional<Uncertainty>> each_candidate_uncertainty(const Profile& profile,
                                                                   const std::vector<Candidate>& candidates) {
    std::vector<std::optional<Uncertainty>> out;
    if (!any_factor_range(candidates) && !has_spread(profile)) return out;
    const PhaseGroup whole = whole_profile(profile);
    out.reserve(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c)
        // Every candidate gets bounds when one is unsure: a sure one's are its point (rank orders by them).
        out.push_back(uncertainty_of(candidate_groups(profile, candidates, {c}, whole), true));
    return out;
}

}  // namespace amdahl
