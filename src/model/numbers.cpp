#include "amdahl/numbers.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace amdahl {

void Summation::add(double value) {
    if (!std::isfinite(sum_)) return;  // overflowed: stays infinite
    // Neumaier's variant of Kahan summation: keeps the low-order bits that each addition drops.
    const double total = sum_ + value;
    if (std::fabs(sum_) >= std::fabs(value)) {
        compensation_ += (sum_ - total) + value;
    } else {
        compensation_ += (value - total) + sum_;
    }
    sum_ = total;
}

double exact_sum(std::span<const double> values) {
    Summation sum;
    for (double v : values) sum.add(v);
    return sum.value();
}

double median_of_sorted(std::span<const double> values) {
    const std::size_t n = values.size();
    if (n == 0) return 0;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

bool parse_double(std::string_view text, double& out) {
    if (text.empty()) return false;
    if (text.front() == '+') text.remove_prefix(1);
    if (text.empty() ||
        !(std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '.' || text.front() == '-'))
        return false;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    if (ptr != end) return false;
    if (ec == std::errc::result_out_of_range) {
        // from_chars leaves `out` untouched when out of range; strtod tells overflow (HUGE_VAL,
        // not a finite number) from underflow (reads as zero).
        const std::string copy(text);
        if (std::fabs(std::strtod(copy.c_str(), nullptr)) > 1) return false;
        out = 0;
        return true;
    }
    return ec == std::errc() && std::isfinite(out);
}

}  // namespace amdahl
