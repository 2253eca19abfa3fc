#include "amdahl/law.hpp"

#include <algorithm>
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
    // S = 1 / ((1 - f) + f / k), written k / ((1 - f) k + f) for a finite k: a sum of two
    // positive terms and one division, so S is k itself at f = 1 and 1 at f = 0 (the reciprocal
    // of a reciprocal, 1 / (1 / 2e15), loses the last bit), and no f / k overflows for a tiny k.
    // With f in [0, 1] the denominator lies between min(k, 1) and max(k, 1): it cannot overflow.
    // It has the sign of 1/S, so nothing left to run (or less) is an infinite speedup, as before.
    if (std::isinf(factor)) return amdahl_ceiling(fraction);
    const double time = (1 - fraction) * factor + fraction;
    return time > 0 ? factor / time : infinity;
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
    // As in amdahl_speedup, each f_i / k_i is taken in units of 1 / r, r the smallest finite k_i
    // of a part with time: sum f_i r / k_i has terms in [0, f_i], so equal factors give back k
    // exactly and nothing overflows. Then S = r / ((1 - sum f_i) r + sum f_i r / k_i).
    double fraction = 0, reference = infinity;
    for (const LawPart& part : parts) {
        fraction += part.fraction;
        if (part.fraction > 0 && !std::isinf(part.factor)) reference = std::min(reference, part.factor);
    }
    LawSolution out;
    out.fraction = fraction;
    if (std::isinf(reference)) {  // every part with time takes none now (or there is no such part)
        out.factor = fraction > 0 ? infinity : 1.0;
        out.speedup = amdahl_ceiling(fraction);
    } else {
        double scaled = 0;  // sum f_i r / k_i
        for (const LawPart& part : parts)
            if (part.fraction > 0 && !std::isinf(part.factor)) scaled += part.fraction * (reference / part.factor);
        out.factor = fraction * reference / scaled;
        const double time = (1 - fraction) * reference + scaled;
        out.speedup = time > 0 ? reference / time : infinity;
    }
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
