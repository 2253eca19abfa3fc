#pragma once
/// \file Small numeric helpers shared by the math and the parsers.
#include <cmath>
#include <span>
#include <string_view>

namespace amdahl {

/// Neumaier-compensated sum: exact to the last digit for the sums amdahl meets.
double exact_sum(std::span<const double> values);

/// Accumulates a compensated sum one value at a time.
class Summation {
public:
    void add(double value);
    /// The sum; infinite (never NaN) when it overflows.
    double value() const { return std::isfinite(sum_) ? sum_ + compensation_ : sum_; }

private:
    double sum_ = 0;
    double compensation_ = 0;
};

/// Parses a plain decimal number (no unit, no separators); false when `text` is not one or is
/// not finite.
bool parse_double(std::string_view text, double& out);

}  // namespace amdahl
