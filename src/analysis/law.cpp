#include "amdahl/law.hpp"

#include <cmath>
#include <limits>

namespace amdahl {

namespace {
constexpr double infinity = std::numeric_limits<double>::infinity();

// Only an infinitely fast part reaches the ceiling: a possible answer with k = infinity, something
// to speed up and something left (f = 1 has no ceiling).
void mark_ceiling(LawSolution& s) {
    s.at_ceiling = s.possible && std::isinf(s.factor) && s.fraction > 0 && s.fraction < 1;
}
}  // namespace

double amdahl_speedup(double fraction, double factor) {
    // S = 1 / ((1 - f) + f / k); f / k -> 0 as k -> infinity.
    const double sped_up = std::isinf(factor) ? 0.0 : fraction / factor;
    const double remaining = (1 - fraction) + sped_up;
    return remaining > 0 ? 1 / remaining : infinity;
}

double amdahl_ceiling(double fraction) {
    // S_max = 1 / (1 - f)
    return fraction < 1 ? 1 / (1 - fraction) : infinity;
}

LawSolution solve_for_speedup(double fraction, double factor) {
    LawSolution out;
    out.fraction = fraction;
    out.factor = factor;
    out.speedup = amdahl_speedup(fraction, factor);
    out.ceiling = amdahl_ceiling(fraction);
    mark_ceiling(out);
    return out;
}

LawSolution solve_for_speedup(const std::vector<LawPart>& parts) {
    // S = 1 / ((1 - sum f_i) + sum f_i / k_i); the parts together are one part of fraction
    // sum f_i whose local speedup is sum f_i / sum (f_i / k_i).
    double fraction = 0, sped_up = 0;
    for (const LawPart& part : parts) {
        fraction += part.fraction;
        sped_up += std::isinf(part.factor) ? 0.0 : part.fraction / part.factor;
    }
    LawSolution out;
    out.fraction = fraction;
    out.factor = sped_up > 0 ? fraction / sped_up : (fraction > 0 ? infinity : 1.0);
    const double remaining = (1 - fraction) + sped_up;
    out.speedup = remaining > 0 ? 1 / remaining : infinity;
    out.ceiling = amdahl_ceiling(fraction);
    mark_ceiling(out);
    return out;
}

LawSolution solve_for_factor(double fraction, double target) {
    // From 1/S = (1 - f) + f/k:  k = f / (1/S - (1 - f)).
    LawSolution out;
    out.fraction = fraction;
    out.speedup = target;
    out.ceiling = amdahl_ceiling(fraction);
    if (fraction == 0) {
        out.possible = target == 1;
        out.factor = 1;
        if (!out.possible) out.reason = "no factor changes anything when the fraction is 0";
        return out;
    }
    const double slack = 1 / target - (1 - fraction);
    // The target is the ceiling (up to rounding: 1 - 0.6 is not 0.4 in doubles): only k = inf
    // reaches it, which is an answer, not an impossibility.
    if (std::fabs(slack) <= 1e-12 / target) {
        out.factor = infinity;
        mark_ceiling(out);
        return out;
    }
    if (slack <= 0) {
        out.possible = false;
        out.factor = infinity;
        out.reason = "the target is at or above the ceiling 1 / (1 - f)";
        return out;
    }
    out.factor = fraction / slack;
    return out;
}

LawSolution solve_for_fraction(double factor, double target) {
    // From 1/S = 1 - f (1 - 1/k):  f = (1 - 1/S) / (1 - 1/k).
    LawSolution out;
    out.factor = factor;
    out.speedup = target;
    const double gain_per_fraction = 1 - (std::isinf(factor) ? 0.0 : 1 / factor);
    const double needed = 1 - 1 / target;
    if (gain_per_fraction == 0) {
        out.possible = target == 1;
        out.fraction = 0;
        if (!out.possible) out.reason = "a factor of 1 changes nothing";
    } else {
        out.fraction = needed / gain_per_fraction;
        if (out.fraction > 1) {
            out.possible = false;
            out.reason = "even the whole run sped up by the factor falls short (the speedup cannot exceed k)";
        } else if (out.fraction < 0) {
            out.possible = false;
            out.reason = factor > 1 ? "a speedup factor above 1 cannot make the run slower"
                                    : "a slowdown factor cannot make the run faster";
        }
    }
    out.ceiling = out.possible ? amdahl_ceiling(out.fraction) : infinity;
    mark_ceiling(out);
    return out;
}

}  // namespace amdahl
