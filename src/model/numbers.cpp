#include "amdahl/numbers.hpp"

#include <algorithm>
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

double percent_to_fraction(double percent) {
    if (!std::isfinite(percent) || percent == 0) return percent / 100;
    // The shortest digits that read back as `percent` ("9.99e+01"), its exponent lowered by 2.
    char digits[40];
    const char* const end = std::to_chars(digits, digits + sizeof digits, percent, std::chars_format::scientific).ptr;
    const char* const e = std::find(static_cast<const char*>(digits), end, 'e');
    int exponent = 0;
    std::from_chars(e + 1 + (e[1] == '+'), end, exponent);
    std::string text(static_cast<const char*>(digits), e);
    text += "e" + std::to_string(exponent - 2);
    double fraction = percent / 100;
    std::from_chars(text.data(), text.data() + text.size(), fraction);  // out of range: keeps percent / 100
    return fraction;
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
