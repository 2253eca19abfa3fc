#pragma once
/// \file Small numeric helpers shared by the math and the parsers.
#include <cmath>
#include <span>
#include <string_view>

namespace amdahl {

/// How numbers read for people. `--precision` sets both digit counts; `--no-grouping` the last.
struct NumberStyle {
    int decimals = 4;      ///< at most this many decimals on times, exactly this many on speedups
    int significant = 3;   ///< significant digits of shares and fractions
    bool grouping = true;  ///< thousands separators (from 1,000) in times
};

/// Neumaier-compensated sum: exact to the last digit for the sums amdahl meets.
double exact_sum(std::span<const double> values);
/// The median of `values` sorted ascending: the middle one, or the mean of the two middle ones for
/// an even count; 0 when empty.
double median_of_sorted(std::span<const double> values);

/// Accumulates a compensated sum one value at a time.
class Summation {
public:
    void add(double value);
    /// The sum; infinite (never NaN) when it overflows.
    double value() const { return std::isfinite(sum_) ? sum_ + compensation_ : sum_; }
    /// This sum minus `other`, both to all their digits: the time outside a phase that is nearly
    /// all of the run, where value() - other.value() keeps the rounding of each.
    double minus(const Summation& other) const {
        Summation difference = *this;
        difference.add(-other.sum_);
        difference.add(-other.compensation_);
        return difference.value();
    }

private:
    double sum_ = 0;
    double compensation_ = 0;
};

/// A percentage as a fraction: the double nearest the percentage's shortest decimal over 100.
/// 99.9% is 0.999, where 99.9 / 100 rounds twice and gives 0.9990000000000001.
double percent_to_fraction(double percent);

/// Parses a plain decimal number (no unit, no separators); false when `text` is not one or is
/// not finite.
bool parse_double(std::string_view text, double& out);

}  // namespace amdahl
