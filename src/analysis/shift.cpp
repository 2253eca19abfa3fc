// Two-sample intervals for the change between BEFORE's runs and AFTER's: the Hodges-Lehmann shift
// with its Mann-Whitney confidence interval, or, for paired runs, the Hodges-Lehmann estimate of the
// paired differences with its Wilcoxon signed-rank interval. Both are distribution-free: they assume
// only that the runs of a side are independent draws and that the change moves the distribution.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>

#include "amdahl/compare.hpp"
#include "amdahl/numbers.hpp"

namespace amdahl {

namespace {

constexpr double two_sided_level = 0.95;  // the interval reports show
constexpr double one_sided_level = 0.95;  // the bound a gate checks: its question is one-sided

// Exact null distributions up to these sizes (Mann-Whitney's work counts the 64-bit words of its
// counts, mann_whitney_words); the normal approximation (with continuity correction) beyond, where
// both samples are large and it is accurate to far better than the third digit of a tail
// probability.
constexpr std::size_t exact_rank_sum_work = 200'000'000;  // min(n, m) * n * m * words for Mann-Whitney
constexpr std::size_t exact_rank_sum_cells = 4'000'000;   // n * m: the table's size
constexpr std::size_t exact_signed_rank_n = 200;          // pairs for Wilcoxon

// Differences are materialised and sorted up to this many; beyond, each order statistic is found by
// bisection over the doubles with a linear count, so memory stays O(n + m).
constexpr std::size_t materialise_limit = std::size_t{1} << 20;

// P(Z <= z) for a standard normal Z.
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// A cumulative distribution over 0..max of a rank statistic: cdf[u] = P(stat <= u).
using Cdf = std::vector<double>;

// Mann-Whitney U = #{(i, j): Y_j < X_i} under no shift, for samples of n and m: every one of the
// C(n+m, n) orders is equally likely, and the number with U = u is the coefficient of q^u in the
// Gaussian binomial [n+m choose s] = prod_{i=1..s} (1 - q^(t+i)) / (1 - q^i), s = min(n, m),
// t = max(n, m). That costs O(s * n * m), so one tiny sample beside a huge one is cheap, and it is
// the distribution exactly: the normal approximation is poor when one side has a run or two.
// The subtractions cancel: in floating point the error grows with every division by (1 - q^i), and
// from about 150 runs a side the tail was noise. So the counts are integers of as many 64-bit words
// as C(n+m, s) needs, wrapping: every step's coefficients are integers, wrapping arithmetic is exact
// modulo 2^(64 words), and the final counts, all below that, are the true ones.
class WideCounts {
public:
    WideCounts(std::size_t size, std::size_t words) : words_(words), data_(size * words, 0) {}
    void set_one(std::size_t k) { data_[k * words_] = 1; }
    void add(std::size_t k, std::size_t from) {  // count[k] += count[from]
        std::uint64_t* to = &data_[k * words_];
        const std::uint64_t* in = &data_[from * words_];
        std::uint64_t carry = 0;
        for (std::size_t w = 0; w < words_; ++w) {
            const std::uint64_t sum = to[w] + in[w];
            const std::uint64_t out = sum + carry;
            carry = static_cast<std::uint64_t>(sum < to[w]) + static_cast<std::uint64_t>(out < sum);
            to[w] = out;
        }
    }
    void subtract(std::size_t k, std::size_t from) {  // count[k] -= count[from]
        std::uint64_t* to = &data_[k * words_];
        const std::uint64_t* in = &data_[from * words_];
        std::uint64_t borrow = 0;
        for (std::size_t w = 0; w < words_; ++w) {
            const std::uint64_t difference = to[w] - in[w];
            const std::uint64_t out = difference - borrow;
            borrow = static_cast<std::uint64_t>(to[w] < in[w]) + static_cast<std::uint64_t>(difference < borrow);
            to[w] = out;
        }
    }
    long double value(std::size_t k) const {
        long double out = 0;
        for (std::size_t w = words_; w-- > 0;) out = out * 0x1p64L + static_cast<long double>(data_[k * words_ + w]);
        return out;
    }

private:
    std::size_t words_;
    std::vector<std::uint64_t> data_;
};

// 64-bit words for every count of the distribution: C(n+m, n) with a margin of two bits.
std::size_t mann_whitney_words(std::size_t n, std::size_t m) {
    const double nd = static_cast<double>(n), md = static_cast<double>(m);
    const double bits = (std::lgamma(nd + md + 1) - std::lgamma(nd + 1) - std::lgamma(md + 1)) / std::log(2.0) + 2;
    return static_cast<std::size_t>(bits / 64) + 1;
}

Cdf mann_whitney_cdf(std::size_t n, std::size_t m) {
    const std::size_t small = std::min(n, m), large = std::max(n, m), cells = n * m;
    WideCounts count(cells + 1, mann_whitney_words(n, m));
    count.set_one(0);
    for (std::size_t i = 1; i <= small; ++i) {
        const std::size_t degree = i * large;  // of the product so far, after this factor
        for (std::size_t k = degree; k >= large + i; --k) count.subtract(k, k - large - i);  // * (1 - q^(t+i))
        for (std::size_t k = i; k <= degree; ++k) count.add(k, k - i);                       // / (1 - q^i)
    }
    for (std::size_t u = 1; u <= cells; ++u) count.add(u, u - 1);  // P(U <= u), times all
    const long double all = count.value(cells);
    Cdf cdf(cells + 1);
    for (std::size_t u = 0; u <= cells; ++u) cdf[u] = static_cast<double>(count.value(u) / all);
    return cdf;
}

// The distributions are the same for every phase of a comparison: computed once per size.
const Cdf& cached_mann_whitney_cdf(std::size_t n, std::size_t m) {
    thread_local std::map<std::pair<std::size_t, std::size_t>, Cdf> cache;
    auto [it, inserted] = cache.try_emplace({n, m});
    if (inserted) it->second = mann_whitney_cdf(n, m);
    return it->second;
}

// Wilcoxon's W+ (the sum of the ranks of the positive differences) under no shift, for n pairs:
// each rank is in W+ with probability 1/2, independently.
Cdf signed_rank_cdf(std::size_t n) {
    const std::size_t max = n * (n + 1) / 2;
    std::vector<double> p(max + 1, 0.0);
    p[0] = 1;
    std::size_t reach = 0;
    for (std::size_t rank = 1; rank <= n; ++rank) {
        reach += rank;
        for (std::size_t w = reach; w >= rank; --w) p[w] = 0.5 * (p[w] + p[w - rank]);
        for (std::size_t w = 0; w < rank; ++w) p[w] *= 0.5;
    }
    Cdf cdf(max + 1);
    double sum = 0;
    for (std::size_t w = 0; w <= max; ++w) cdf[w] = sum += p[w];
    return cdf;
}

const Cdf& cached_signed_rank_cdf(std::size_t n) {
    thread_local std::map<std::size_t, Cdf> cache;
    auto [it, inserted] = cache.try_emplace(n);
    if (inserted) it->second = signed_rank_cdf(n);
    return it->second;
}

// P(stat <= u) for a rank statistic with mean `mean` and variance `variance`, by the normal
// approximation with continuity correction.
double normal_tail(double u, double mean, double variance) {
    return normal_cdf((u + 0.5 - mean) / std::sqrt(variance));
}

// The largest k >= 1 with P(stat <= k - 1) <= alpha: the order statistic D_(k) is then a lower
// bound with coverage 1 - P(stat <= k - 1). k = 1 (the smallest value) when even that falls short.
// `tail(u)` is P(stat <= u).
template <typename Tail>
std::pair<std::size_t, double> order_index(std::size_t count, double alpha, Tail tail) {
    // tail is increasing in u: bisect for the largest u with tail(u) <= alpha; k = u + 1.
    if (tail(0) > alpha) return {1, 1 - tail(0)};
    std::size_t lo = 0, hi = count;  // tail(lo) <= alpha; tail(hi) > alpha (or hi = count)
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (tail(mid) <= alpha)
            lo = mid;
        else
            hi = mid;
    }
    return {lo + 1, 1 - tail(lo)};
}

// Doubles as unsigned integers in the same order, to bisect over every double between two values.
std::uint64_t ordered_key(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return (bits & 0x8000000000000000ULL) ? ~bits : bits | 0x8000000000000000ULL;
}
double from_key(std::uint64_t key) {
    const std::uint64_t bits = (key & 0x8000000000000000ULL) ? key & ~0x8000000000000000ULL : ~key;
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// The k-th smallest (1-based) of a set whose members are not stored: `count_at_most(t)` says how many
// are <= t, and the k-th smallest is the least t in [lo, hi] with count_at_most(t) >= k.
template <typename Count>
double kth_by_count(std::size_t k, double lo, double hi, Count count_at_most) {
    std::uint64_t low = ordered_key(lo), high = ordered_key(hi);
    while (low < high) {
        const std::uint64_t mid = low + (high - low) / 2;
        if (count_at_most(from_key(mid)) >= k)
            high = mid;
        else
            low = mid + 1;
    }
    return from_key(low) + 0.0;  // -0 reads as 0
}

// The values a rank interval picks from: the pairwise differences after - before, or the Walsh
// averages of paired differences. Either stored and sorted, or counted.
class OrderStatistics {
public:
    virtual ~OrderStatistics() = default;
    virtual std::size_t size() const = 0;
    virtual double kth(std::size_t k) const = 0;  // 1-based
    double median() const {
        const std::size_t n = size();
        if (n % 2 == 1) return kth(n / 2 + 1);
        return kth(n / 2) / 2 + kth(n / 2 + 1) / 2;
    }
};

class Sorted final : public OrderStatistics {
public:
    explicit Sorted(std::vector<double> values) : values_(std::move(values)) {
        std::sort(values_.begin(), values_.end());
    }
    std::size_t size() const override { return values_.size(); }
    double kth(std::size_t k) const override { return values_[k - 1]; }

private:
    std::vector<double> values_;
};

// after_j - before_i over all pairs, counted with two pointers: as before_i grows, the number of
// after_j with after_j - before_i <= t can only grow.
class PairwiseDifferences final : public OrderStatistics {
public:
    PairwiseDifferences(std::vector<double> before, std::vector<double> after)
        : before_(std::move(before)), after_(std::move(after)) {
        std::sort(before_.begin(), before_.end());
        std::sort(after_.begin(), after_.end());
    }
    std::size_t size() const override { return before_.size() * after_.size(); }
    double kth(std::size_t k) const override {
        const double lo = after_.front() - before_.back(), hi = after_.back() - before_.front();
        return kth_by_count(k, lo, hi, [&](double t) {
            std::size_t count = 0, j = 0;
            for (const double b : before_) {
                while (j < after_.size() && after_[j] - b <= t) ++j;
                count += j;
            }
            return count;
        });
    }

private:
    std::vector<double> before_, after_;
};

// (d_i + d_j) / 2 over i <= j, counted with two pointers: for a larger d_i fewer d_j >= d_i qualify.
class WalshAverages final : public OrderStatistics {
public:
    explicit WalshAverages(std::vector<double> differences) : d_(std::move(differences)) {
        std::sort(d_.begin(), d_.end());
    }
    std::size_t size() const override { return d_.size() * (d_.size() + 1) / 2; }
    double kth(std::size_t k) const override {
        return kth_by_count(k, d_.front(), d_.back(), [&](double t) {
            std::size_t count = 0, end = d_.size();  // for row i: j in [i, end) have average <= t
            for (std::size_t i = 0; i < d_.size(); ++i) {
                while (end > i && average(i, end - 1) > t) --end;
                if (end <= i) break;
                count += end - i;
            }
            return count;
        });
    }
    double average(std::size_t i, std::size_t j) const { return d_[i] / 2 + d_[j] / 2; }

private:
    std::vector<double> d_;
};

// The estimate and both kinds of interval from the order statistics and the null distribution's tail.
template <typename Tail>
ShiftInterval interval_from(const OrderStatistics& values, Tail tail) {
    ShiftInterval out;
    const std::size_t count = values.size();
    out.estimate = values.median();
    const auto [k2, cover2] = order_index(count, (1 - two_sided_level) / 2, tail);
    out.low = values.kth(k2);
    out.high = values.kth(count + 1 - k2);
    out.confidence = 1 - 2 * (1 - cover2);
    const auto [k1, cover1] = order_index(count, 1 - one_sided_level, tail);
    out.bound_low = values.kth(k1);
    out.bound_high = values.kth(count + 1 - k1);
    out.bound_confidence = cover1;
    return out;
}

}  // namespace

ShiftInterval shift_interval(const std::vector<double>& before, const std::vector<double>& after) {
    ShiftInterval out;
    if (before.empty() || after.empty()) return out;
    const std::size_t n = before.size(), m = after.size();
    out.runs_before = n;
    out.runs_after = m;
    if (n == 1 && m == 1) {
        out.estimate = out.low = out.high = out.bound_low = out.bound_high = after[0] - before[0];
        return out;  // one run a side: a point, no interval
    }
    std::unique_ptr<OrderStatistics> values;
    if (n * m <= materialise_limit) {
        std::vector<double> differences;
        differences.reserve(n * m);
        for (const double b : before)
            for (const double a : after) differences.push_back(a - b);
        values = std::make_unique<Sorted>(std::move(differences));
    } else {
        values = std::make_unique<PairwiseDifferences>(before, after);
    }
    ShiftInterval result;
    if (n * m <= exact_rank_sum_cells && std::min(n, m) * n * m * mann_whitney_words(n, m) <= exact_rank_sum_work) {
        const Cdf& cdf = cached_mann_whitney_cdf(n, m);
        result = interval_from(*values, [&](std::size_t u) { return cdf[u]; });
    } else {
        const double nd = static_cast<double>(n), md = static_cast<double>(m);
        const double mean = nd * md / 2, variance = nd * md * (nd + md + 1) / 12;
        result =
            interval_from(*values, [&](std::size_t u) { return normal_tail(static_cast<double>(u), mean, variance); });
    }
    result.runs_before = n;
    result.runs_after = m;
    return result;
}

ShiftInterval paired_shift_interval(const std::vector<double>& before, const std::vector<double>& after) {
    ShiftInterval out;
    const std::size_t n = std::min(before.size(), after.size());
    if (n == 0) return out;
    out.paired = true;
    out.runs_before = out.runs_after = n;
    std::vector<double> differences(n);
    for (std::size_t i = 0; i < n; ++i) differences[i] = after[i] - before[i];
    if (n == 1) {
        out.estimate = out.low = out.high = out.bound_low = out.bound_high = differences[0];
        return out;
    }
    std::unique_ptr<OrderStatistics> values;
    const std::size_t count = n * (n + 1) / 2;
    if (count <= materialise_limit) {
        std::vector<double> averages;
        averages.reserve(count);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i; j < n; ++j) averages.push_back(differences[i] / 2 + differences[j] / 2);
        values = std::make_unique<Sorted>(std::move(averages));
    } else {
        values = std::make_unique<WalshAverages>(differences);
    }
    ShiftInterval result;
    if (n <= exact_signed_rank_n) {
        const Cdf& cdf = cached_signed_rank_cdf(n);
        result = interval_from(*values, [&](std::size_t w) { return cdf[w]; });
    } else {
        const double nd = static_cast<double>(n);
        const double mean = nd * (nd + 1) / 4, variance = nd * (nd + 1) * (2 * nd + 1) / 24;
        result =
            interval_from(*values, [&](std::size_t w) { return normal_tail(static_cast<double>(w), mean, variance); });
    }
    result.paired = true;
    result.runs_before = result.runs_after = n;
    return result;
}

double median_absolute_deviation(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double center = median_of_sorted(values);
    for (double& v : values) v = std::fabs(v - center);
    std::sort(values.begin(), values.end());
    return median_of_sorted(values);
}

namespace {

// The sample mean and standard deviation, on values scaled to at most 1 so that squares neither
// overflow (1e300) nor underflow (1e-300).
std::pair<double, double> mean_and_sd(const std::vector<double>& values) {
    double scale = 0;
    for (const double v : values) scale = std::max(scale, std::fabs(v));
    if (!(scale > 0) || values.size() < 2) return {0, 0};
    Summation sum;
    for (const double v : values) sum.add(v / scale);
    const double mean = sum.value() / static_cast<double>(values.size());
    Summation squares;
    for (const double v : values) squares.add((v / scale - mean) * (v / scale - mean));
    return {mean * scale, std::sqrt(squares.value() / static_cast<double>(values.size() - 1)) * scale};
}

}  // namespace

double coefficient_of_variation(const std::vector<double>& values) {
    const auto [mean, sd] = mean_and_sd(values);
    return mean > 0 ? sd / mean : 0;
}

double robust_sigma(const std::vector<double>& values) {
    constexpr double mad_to_sigma = 1.482602218505602;  // exact for normal data
    const double mad = median_absolute_deviation(values);
    if (mad > 0) return mad_to_sigma * mad;
    // Half the values or more equal (a coarse timer): the MAD says 0 however far the rest spread.
    return mean_and_sd(values).second;
}

double minimum_detectable_change(double sigma_before, std::size_t n, double sigma_after, std::size_t m, bool paired,
                                 double sigma_differences) {
    // The change whose one-sided 95% bound clears zero with 80% probability: (z_0.95 + z_0.80) times
    // the standard error of the shift, divided by sqrt(3/pi), the efficiency of the rank tests
    // against the t test on normal data.
    constexpr double z_sum = 1.6448536269514722 + 0.8416212335729143;
    const double efficiency = std::sqrt(3 / 3.14159265358979323846);
    if (n < 2 || m < 2) return std::numeric_limits<double>::quiet_NaN();
    const double standard_error = paired ? sigma_differences / std::sqrt(static_cast<double>(n))
                                         : std::sqrt(sigma_before * sigma_before / static_cast<double>(n) +
                                                     sigma_after * sigma_after / static_cast<double>(m));
    return z_sum * standard_error / efficiency;
}

}  // namespace amdahl
