#include "amdahl/law.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "amdahl/numbers.hpp"

namespace amdahl {

namespace {
constexpr double infinity = std::numeric_limits<double>::infinity();
// A whole within a few units in the last place of 1 is 1: what rounding leaves of decimals that
// add up to 1 (50 x 0.02), or of (1 - f) S at the ceiling.
constexpr double whole_rounding = 4 * std::numeric_limits<double>::epsilon();
// The smallest factor amdahl takes (a 1e300x slowdown, as parse_factor in src/model/speedup.cpp);
// a solved factor below it is no answer.
constexpr double smallest_factor = 1e-300;

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
    // Both sums are compensated: 50 parts of 0.02 add up to 1, not 1.0000000000000004, whatever
    // their order, and a whole within rounding of 1 is 1 (nothing is left unsped).
    Summation fraction, rest;  // sum f_i, and 1 - sum f_i summed as such: 0.99999 leaves 1e-5 to 16 digits
    rest.add(1);
    double reference = infinity;
    for (const LawPart& part : parts) {
        fraction.add(part.fraction);
        rest.add(-part.fraction);
        if (part.fraction > 0 && !std::isinf(part.factor)) reference = std::min(reference, part.factor);
    }
    LawSolution out;
    out.fraction = fraction.value();
    if (out.fraction > 1 && out.fraction <= 1 + whole_rounding) out.fraction = 1;
    // What no part covers, 1 - sum f_i: none once the parts are the whole.
    const double left = out.fraction >= 1 ? 0 : std::max(rest.value(), 0.0);
    out.ceiling = left > 0 ? 1 / left : infinity;  // 1 / (1 - f)
    // Every part with time takes none now (or there is no such part): the ceiling itself.
    if (std::isinf(reference)) {
        out.factor = out.fraction > 0 ? infinity : 1.0;
        out.speedup = out.ceiling;
    } else {
        Summation scaled;  // sum f_i r / k_i
        for (const LawPart& part : parts)
            if (part.fraction > 0 && !std::isinf(part.factor)) scaled.add(part.fraction * (reference / part.factor));
        out.factor = reference * (out.fraction / scaled.value());
        const double time = left * reference + scaled.value();
        out.speedup = time > 0 ? reference / time : infinity;
    }
    mark_ceiling(out);
    return out;
}

LawSolution solve_for_factor(double fraction, double target) {
    // From 1/S = (1 - f) + f/k:  k = f S / (1 - (1 - f) S), with no reciprocal 1/S to round.
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
    if (target == 1) return out;  // k = 1, however small f is (1 / (1 - 1e-300) is 1 in doubles)
    // 1 - S / ceiling: 0 at the ceiling, up to the rounding of (1 - f) S near 1 (1 - 0.6 is not
    // 0.4 in doubles), where only k = inf reaches it, which is an answer, not an impossibility.
    const double slack = 1 - (1 - fraction) * target;
    if (std::fabs(slack) <= whole_rounding) {
        out.factor = infinity;
        mark_ceiling(out);
        return out;
    }
    if (slack < 0) {
        out.possible = false;
        out.factor = infinity;
        out.reason = "the target is at or above the ceiling 1 / (1 - f)";
        return out;
    }
    out.factor = fraction * target / slack;
    if (!(out.factor >= smallest_factor)) {
        out.possible = false;
        out.reason = "the factor needed is below 1e-300, a slowdown beyond what can be computed";
    }
    return out;
}

LawSolution solve_for_fraction(double factor, double target) {
    // From 1/S = 1 - f (1 - 1/k):  f = (S - 1) k / (S (k - 1)), and (S - 1) / S for k = inf:
    // S - 1 and k - 1 are exact near 1, where 1 - 1/S and 1 - 1/k lose digits.
    LawSolution out;
    out.factor = factor;
    out.speedup = target;
    if (factor == 1) {
        out.possible = target == 1;
        out.fraction = 0;
        if (!out.possible) out.reason = "a factor of 1 changes nothing";
    } else {
        const double needed = target - 1;
        if (std::isinf(factor)) {
            out.fraction = needed / target;
        } else {
            out.fraction = needed * factor / (target * (factor - 1));
            // A huge factor overflows the products; the quotients then, one rounding more.
            if (!std::isfinite(out.fraction)) out.fraction = (needed / target) * (factor / (factor - 1));
        }
        if (out.fraction > 1) {
            out.possible = false;
            out.reason = "even the whole run sped up by the factor falls short (the speedup cannot exceed k)";
        } else if (out.fraction < 0) {
            out.possible = false;
            out.reason = factor > 1 ? "a speedup factor above 1 cannot make the run slower"
                                    : "a slowdown factor cannot make the run faster";
        }
    }
    // 1 / (1 - f) = S (k - 1) / (k - S): no 1 - f, which loses digits as f nears 1.
    if (!out.possible)
        out.ceiling = infinity;
    else if (std::isinf(factor))
        out.ceiling = target;
    else if (factor == 1)
        out.ceiling = 1;
    else
        out.ceiling = factor == target ? infinity : target * ((factor - 1) / (factor - target));
    mark_ceiling(out);
    return out;
}

}  // namespace amdahl
