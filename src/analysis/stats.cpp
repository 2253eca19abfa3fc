// The median of repeated runs and a distribution-free interval for it (order statistics).
#include <algorithm>
#include <cmath>

#include "amdahl/compare.hpp"
#include "amdahl/numbers.hpp"

namespace amdahl {

namespace {

// The confidence the interval must reach before it may be narrower than the whole range.
constexpr double wanted_confidence = 0.95;

// P(B = i) for B ~ Binomial(n, 1/2): C(n, i) / 2^n, in log space so large n neither overflows
// C(n, i) nor underflows 2^-n.
double binomial_half_pmf(std::size_t n, std::size_t i) {
    const double nd = static_cast<double>(n), id = static_cast<double>(i);
    return std::exp(std::lgamma(nd + 1) - std::lgamma(id + 1) - std::lgamma(nd - id + 1) - nd * std::log(2.0));
}

}  // namespace

Spread median_interval(std::vector<double> values) {
    Spread out;
    out.runs = values.size();
    if (values.empty()) return out;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    out.median = median_of_sorted(values);
    if (n == 1) {
        out.low = out.high = out.median;
        return out;
    }
    // [x_(j), x_(n+1-j)] (1-based) misses the median only when fewer than j values fall on one
    // side of it: coverage 1 - 2 P(B <= j - 1). The largest j (narrowest interval) still at 95%, else
    // j = 1, the range.
    std::size_t j = 1;
    double below = binomial_half_pmf(n, 0);  // P(B <= j - 1)
    double coverage = 1 - 2 * below;
    for (std::size_t next = 2; next <= n / 2; ++next) {
        below += binomial_half_pmf(n, next - 1);
        const double next_coverage = 1 - 2 * below;
        if (next_coverage < wanted_confidence) break;
        j = next;
        coverage = next_coverage;
    }
    out.low = values[j - 1];
    out.high = values[n - j];
    out.confidence = coverage;
    out.cv = coefficient_of_variation(values);
    out.mad = median_absolute_deviation(std::move(values));
    return out;
}

}  // namespace amdahl
