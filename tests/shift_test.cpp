// The two-sample intervals compare's gates rest on: Hodges-Lehmann / Mann-Whitney, its paired
// (Wilcoxon signed-rank) form, and the spread figures.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "amdahl/compare.hpp"

using namespace amdahl;

namespace {

// P(U <= u) for the Mann-Whitney U of samples of n and m, by enumerating every way to choose which
// of the n + m ranks are the first sample's: independent of the recursion amdahl uses.
double brute_mann_whitney_tail(int n, int m, int u) {
    const int total = n + m;
    long long at_most = 0, all = 0;
    for (unsigned mask = 0; mask < (1u << total); ++mask) {
        if (__builtin_popcount(mask) != n) continue;
        ++all;
        // U = #{(x, y): y < x}: for each X (a set bit), the Ys below it.
        int ys_below = 0, count = 0;
        for (int rank = 0; rank < total; ++rank) {
            if (mask & (1u << rank))
                count += ys_below;
            else
                ++ys_below;
        }
        if (count <= u) ++at_most;
    }
    return static_cast<double>(at_most) / static_cast<double>(all);
}

// P(W+ <= w) for n pairs, by enumerating the 2^n sign patterns.
double brute_signed_rank_tail(int n, int w) {
    long long at_most = 0;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        int sum = 0;
        for (int rank = 1; rank <= n; ++rank)
            if (mask & (1u << (rank - 1))) sum += rank;
        if (sum <= w) ++at_most;
    }
    return static_cast<double>(at_most) / static_cast<double>(1u << n);
}

// The largest k with P(stat <= k - 1) <= alpha (at least 1), from a tail function.
template <typename Tail>
int expected_k(double alpha, Tail tail) {
    int k = 1;
    while (tail(k) <= alpha) ++k;  // tail(k) = P(stat <= k): k + 1 still qualifies
    return k;
}

std::vector<double> sorted_differences(const std::vector<double>& before, const std::vector<double>& after) {
    std::vector<double> d;
    for (double b : before)
        for (double a : after) d.push_back(a - b);
    std::sort(d.begin(), d.end());
    return d;
}

std::vector<double> sorted_walsh(const std::vector<double>& before, const std::vector<double>& after) {
    std::vector<double> d, w;
    for (std::size_t i = 0; i < before.size(); ++i) d.push_back(after[i] - before[i]);
    for (std::size_t i = 0; i < d.size(); ++i)
        for (std::size_t j = i; j < d.size(); ++j) w.push_back(d[i] / 2 + d[j] / 2);
    std::sort(w.begin(), w.end());
    return w;
}

std::vector<double> normal_sample(std::mt19937& rng, std::size_t n, double mean, double sd) {
    std::normal_distribution<double> dist(mean, sd);
    std::vector<double> out(n);
    for (double& x : out) x = dist(rng);
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

TEST_CASE("shift: the Mann-Whitney interval picks the order statistics the exact distribution says",
          "[shift][compare]") {
    std::mt19937 rng(7);
    for (const auto& [n, m] : std::vector<std::pair<int, int>>{{3, 3}, {4, 5}, {5, 5}, {6, 9}, {9, 9}, {1, 7}}) {
        INFO("n = " << n << ", m = " << m);
        const auto before = normal_sample(rng, static_cast<std::size_t>(n), 100, 2);
        const auto after = normal_sample(rng, static_cast<std::size_t>(m), 103, 2);
        const ShiftInterval s = shift_interval(before, after);
        const auto d = sorted_differences(before, after);
        const auto tail = [&](int u) { return brute_mann_whitney_tail(n, m, u); };
        const int k2 = expected_k(0.025, tail), k1 = expected_k(0.05, tail);
        const std::size_t nm = d.size();
        CHECK(s.low == d[static_cast<std::size_t>(k2 - 1)]);
        CHECK(s.high == d[nm - static_cast<std::size_t>(k2)]);
        CHECK(s.confidence == Approx(1 - 2 * tail(k2 - 1)));
        CHECK(s.bound_low == d[static_cast<std::size_t>(k1 - 1)]);
        CHECK(s.bound_high == d[nm - static_cast<std::size_t>(k1)]);
        CHECK(s.bound_confidence == Approx(1 - tail(k1 - 1)));
        CHECK(s.estimate == Approx(median(d)));
        CHECK(s.runs_before == static_cast<std::size_t>(n));
        CHECK_FALSE(s.paired);
    }
    // Known table values: n = m = 9, two-sided 5% critical U = 17, one-sided 21.
    const auto tail = [](int u) { return brute_mann_whitney_tail(9, 9, u); };
    CHECK(expected_k(0.025, tail) == 18);
    CHECK(expected_k(0.05, tail) == 22);
    // 3 and 3: even the range covers only 1 - 2/20 = 90%, and says so.
    const ShiftInterval few = shift_interval({1, 2, 3}, {4, 5, 6});
    CHECK(few.low == 1);
    CHECK(few.high == 5);
    CHECK(few.confidence == Approx(0.9));
    CHECK(few.bound_confidence == Approx(0.95));
}

TEST_CASE("shift: one or two runs beside thousands use the exact distribution", "[shift][compare]") {
    // 1 run beside 2,600: every rank of the one run is equally likely, P(U <= u) = (u + 1) / 2601,
    // so the interval is [D_(65), D_(2536)] with coverage 1 - 2 * 65/2601, and the one-sided bound
    // D_(130) with 1 - 130/2601 (the normal approximation said 91.7% for another interval).
    std::mt19937 rng(9);
    const auto many = normal_sample(rng, 2600, 100, 2);
    const ShiftInterval one = shift_interval({100}, many);
    CHECK(one.confidence == Approx(1 - 2 * 65.0 / 2601));
    CHECK(one.bound_confidence == Approx(1 - 130.0 / 2601));
    auto d = many;
    for (double& x : d) x -= 100;
    std::sort(d.begin(), d.end());
    CHECK(one.low == d[64]);
    CHECK(one.bound_low == d[129]);
    // 2 beside 1,300: P(U <= u) counts the pairs of ranks; the one-sided bound must hold at least 95%
    // (the normal approximation said 95% for a bound of 94.6%).
    const ShiftInterval two = shift_interval({99, 101}, normal_sample(rng, 1300, 100, 2));
    CHECK(two.bound_confidence >= 0.95);
    // The exact tail, counted: U <= u for ranks r1 < r2 of the two (0-based among 1,302) means
    // (r1) + (r2 - 1) <= u; the k the interval uses is the largest with P(U <= k - 1) <= 5%.
    const auto tail = [](long long u) {
        long long count = 0;
        for (long long r1 = 0; r1 < 1302; ++r1)
            for (long long r2 = r1 + 1; r2 < 1302; ++r2) count += r1 + r2 - 1 <= u;
        return static_cast<double>(count) / (1302.0 * 1301.0 / 2);
    };
    long long k = 1;
    while (tail(k) <= 0.05) ++k;
    CHECK(two.bound_confidence == Approx(1 - tail(k - 1)));
}

// P(U <= u) for every u, by Mann and Whitney's recurrence on probabilities (additions of positive
// terms only, so no cancellation): p(n, m; u) = n/(n+m) p(n-1, m; u-m) + m/(n+m) p(n, m-1; u).
std::vector<double> reference_mann_whitney_cdf(int n, int m) {
    // row[j] = distribution for (i, j) as i grows
    std::vector<std::vector<double>> row(static_cast<std::size_t>(m) + 1, std::vector<double>{1.0});
    for (int i = 1; i <= n; ++i) {
        std::vector<std::vector<double>> next(static_cast<std::size_t>(m) + 1);
        next[0] = {1.0};
        for (int j = 1; j <= m; ++j) {
            std::vector<double> p(static_cast<std::size_t>(i * j) + 1, 0.0);
            const auto& from_x = row[static_cast<std::size_t>(j)];       // (i-1, j): the largest is an X
            const auto& from_y = next[static_cast<std::size_t>(j) - 1];  // (i, j-1): the largest is a Y
            const double px = static_cast<double>(i) / (i + j), py = static_cast<double>(j) / (i + j);
            for (std::size_t u = 0; u < from_x.size(); ++u) p[u + static_cast<std::size_t>(j)] += px * from_x[u];
            for (std::size_t u = 0; u < from_y.size(); ++u) p[u] += py * from_y[u];
            next[static_cast<std::size_t>(j)] = std::move(p);
        }
        row = std::move(next);
    }
    std::vector<double> cdf = row[static_cast<std::size_t>(m)];
    for (std::size_t u = 1; u < cdf.size(); ++u) cdf[u] += cdf[u - 1];
    return cdf;
}

TEST_CASE("shift: the exact Mann-Whitney distribution stays exact for samples of dozens and hundreds",
          "[shift][compare]") {
    // Found by fuzz_harness: 270 runs compared with themselves gave the interval [+2e16, -2e16], its
    // ends swapped, so `compare F F` said "faster". The exact distribution lost every digit to
    // cancellation from about 150 runs a side on: its tail was nonsense, so was k.
    std::mt19937 rng(17);
    for (const auto& [n, m] :
         std::vector<std::pair<int, int>>{{30, 30}, {45, 60}, {60, 60}, {12, 250}, {3, 900}, {70, 70}, {40, 150}}) {
        INFO("n = " << n << ", m = " << m);
        const auto before = normal_sample(rng, static_cast<std::size_t>(n), 100, 2);
        const auto after = normal_sample(rng, static_cast<std::size_t>(m), 101, 2);
        const ShiftInterval s = shift_interval(before, after);
        const auto d = sorted_differences(before, after);
        const std::vector<double> cdf = reference_mann_whitney_cdf(n, m);
        const auto tail = [&](int u) { return cdf[static_cast<std::size_t>(u)]; };
        const int k2 = expected_k(0.025, tail), k1 = expected_k(0.05, tail);
        CHECK(s.low == d[static_cast<std::size_t>(k2 - 1)]);
        CHECK(s.high == d[d.size() - static_cast<std::size_t>(k2)]);
        CHECK(s.confidence == Approx(1 - 2 * tail(k2 - 1)).epsilon(1e-9));
        CHECK(s.bound_low == d[static_cast<std::size_t>(k1 - 1)]);
        CHECK(s.bound_confidence == Approx(1 - tail(k1 - 1)).epsilon(1e-9));
    }
    // Beyond what is counted exactly, an interval still holds its estimate, claims about 95%, and
    // a side compared with itself straddles no change.
    for (const int n : {100, 150, 200, 270, 300, 500}) {
        INFO("n = m = " << n);
        const auto runs = normal_sample(rng, static_cast<std::size_t>(n), 100, 2);
        const ShiftInterval same = shift_interval(runs, runs);
        CHECK(same.low < 0);
        CHECK(same.high > 0);
        CHECK(same.bound_low < 0);
        CHECK(same.estimate == 0);
        CHECK(same.confidence == Approx(0.95).margin(0.005));
        CHECK(same.bound_confidence == Approx(0.95).margin(0.005));
        CHECK(same.confidence >= 0.95);
        CHECK(same.bound_confidence >= 0.95);
    }
}

TEST_CASE("shift: the paired interval picks the Walsh averages the signed-rank distribution says", "[shift][compare]") {
    std::mt19937 rng(11);
    for (int n : {2, 5, 6, 9, 12}) {
        INFO("n = " << n);
        const auto before = normal_sample(rng, static_cast<std::size_t>(n), 100, 2);
        const auto after = normal_sample(rng, static_cast<std::size_t>(n), 101, 2);
        const ShiftInterval s = paired_shift_interval(before, after);
        const auto w = sorted_walsh(before, after);
        const auto tail = [&](int x) { return brute_signed_rank_tail(n, x); };
        const int k2 = expected_k(0.025, tail), k1 = expected_k(0.05, tail);
        CHECK(s.low == w[static_cast<std::size_t>(k2 - 1)]);
        CHECK(s.high == w[w.size() - static_cast<std::size_t>(k2)]);
        CHECK(s.confidence == Approx(1 - 2 * tail(k2 - 1)));
        CHECK(s.bound_low == w[static_cast<std::size_t>(k1 - 1)]);
        CHECK(s.bound_confidence == Approx(1 - tail(k1 - 1)));
        CHECK(s.estimate == Approx(median(w)));
        CHECK(s.paired);
    }
}

TEST_CASE("shift: the intervals cover the true shift as often as they claim", "[shift][compare]") {
    // Skewed noise (lognormal, as benchmark times are): the rank intervals assume no shape.
    std::mt19937 rng(2024);
    std::lognormal_distribution<double> noise(0.0, 0.05);
    const double shift = 3;
    for (std::size_t n : {5, 9, 20}) {
        int covered = 0, above_bound = 0, paired_covered = 0;
        double claimed = 0, claimed_bound = 0, claimed_paired = 0;
        constexpr int trials = 2000;
        for (int t = 0; t < trials; ++t) {
            std::vector<double> before(n), after(n);
            for (std::size_t i = 0; i < n; ++i) {
                before[i] = 100 * noise(rng);
                after[i] = 100 * noise(rng) + shift;
            }
            const ShiftInterval s = shift_interval(before, after);
            covered += s.low <= shift && shift <= s.high;
            above_bound += s.bound_low <= shift;
            claimed = s.confidence;
            claimed_bound = s.bound_confidence;
            const ShiftInterval p = paired_shift_interval(before, after);
            paired_covered += p.low <= shift && shift <= p.high;
            claimed_paired = p.confidence;
        }
        INFO("n = " << n);
        // The rank intervals are exact for continuous data: the observed coverage is the claimed
        // one, within the simulation's own error (about 1.5 points at 3 standard errors).
        CHECK(static_cast<double>(covered) / trials == Approx(claimed).margin(0.015));
        CHECK(static_cast<double>(above_bound) / trials == Approx(claimed_bound).margin(0.015));
        // The paired interval needs the differences symmetric about the shift: here they are.
        CHECK(static_cast<double>(paired_covered) / trials == Approx(claimed_paired).margin(0.015));
    }
}

TEST_CASE("shift: large samples select by bisection and agree with sorting every difference", "[shift][compare]") {
    // 1,100 x 1,100 = 1.21 million differences: past the size amdahl sorts, so each order statistic
    // is found by counting; the normal approximation gives k.
    std::mt19937 rng(5);
    const auto before = normal_sample(rng, 1100, 100, 3);
    const auto after = normal_sample(rng, 1100, 101, 3);
    const ShiftInterval s = shift_interval(before, after);
    const auto d = sorted_differences(before, after);
    const double nm = 1100.0 * 1100.0, mean = nm / 2, sd = std::sqrt(nm * (2201.0) / 12);
    const auto normal_tail = [&](double u) { return 0.5 * std::erfc(-((u + 0.5 - mean) / sd) / std::sqrt(2.0)); };
    const auto k_for = [&](double alpha) {
        // the largest k with P(U <= k - 1) <= alpha, searched near the normal quantile
        double k = std::floor(mean - 4 * sd);
        while (normal_tail(k) <= alpha) ++k;  // normal_tail(k) = P(U <= k)
        return static_cast<std::size_t>(k);
    };
    const std::size_t k2 = k_for(0.025), k1 = k_for(0.05);
    CHECK(s.low == d[k2 - 1]);
    CHECK(s.high == d[d.size() - k2]);
    CHECK(s.bound_low == d[k1 - 1]);
    CHECK(s.estimate == Approx((d[d.size() / 2 - 1] + d[d.size() / 2]) / 2));
    CHECK(s.confidence == Approx(0.95).margin(0.0005));

    // 1,500 pairs: 1.125 million Walsh averages, also past the sorting size.
    const auto b = normal_sample(rng, 1500, 100, 3);
    const auto a = normal_sample(rng, 1500, 101, 3);
    const ShiftInterval p = paired_shift_interval(b, a);
    const auto w = sorted_walsh(b, a);
    CHECK(p.estimate == Approx((w[w.size() / 2 - 1] + w[w.size() / 2]) / 2));
    CHECK(p.confidence == Approx(0.95).margin(0.0005));
    CHECK(std::binary_search(w.begin(), w.end(), p.low));
    const auto rank_low = static_cast<double>(std::lower_bound(w.begin(), w.end(), p.low) - w.begin());
    const double n = 1500, wmean = n * (n + 1) / 4, wsd = std::sqrt(n * (n + 1) * (2 * n + 1) / 24);
    CHECK(rank_low == Approx(wmean - 1.959964 * wsd).margin(3));
}

TEST_CASE("shift: pairing cancels the drift two runs of a pair share", "[shift][compare]") {
    // Each pair ran under its own machine state (a factor of +-5%), which dwarfs the 1% change.
    std::mt19937 rng(3);
    std::normal_distribution<double> state(1.0, 0.05), jitter(1.0, 0.002);
    std::vector<double> before, after;
    for (int i = 0; i < 9; ++i) {
        const double machine = state(rng);
        before.push_back(100 * machine * jitter(rng));
        after.push_back(101 * machine * jitter(rng));
    }
    const ShiftInterval unpaired = shift_interval(before, after);
    const ShiftInterval paired = paired_shift_interval(before, after);
    CHECK(unpaired.bound_low < 0);  // unpaired: no evidence of any slowdown
    CHECK(paired.bound_low > 0.5);  // paired: clearly slower
    CHECK(paired.high - paired.low < (unpaired.high - unpaired.low) / 5);
}

TEST_CASE("shift: one run a side is a point, an empty side is nothing", "[shift][compare]") {
    const ShiftInterval one = shift_interval({10}, {12});
    CHECK(one.estimate == 2);
    CHECK(one.low == 2);
    CHECK(one.high == 2);
    CHECK(one.confidence == 0);
    CHECK(shift_interval({}, {1, 2}).runs_before == 0);
    CHECK(paired_shift_interval({5}, {4}).estimate == -1);
    // Equal runs: every difference is 0, and the interval is exactly 0 (not -0).
    const ShiftInterval same = shift_interval({3, 3, 3, 3, 3}, {3, 3, 3, 3, 3});
    CHECK(same.low == 0);
    CHECK_FALSE(std::signbit(same.low));
}

TEST_CASE("shift: spread figures", "[shift][compare]") {
    CHECK(median_absolute_deviation({1, 2, 3, 4, 100}) == 1);  // the outlier does not move it
    CHECK(median_absolute_deviation({5}) == 0);
    CHECK(median_absolute_deviation({}) == 0);
    // CV: sample standard deviation / mean; {2, 4, 4, 4, 5, 5, 7, 9} has mean 5, sd sqrt(32/7).
    CHECK(coefficient_of_variation({2, 4, 4, 4, 5, 5, 7, 9}) == Approx(std::sqrt(32.0 / 7) / 5));
    CHECK(coefficient_of_variation({3}) == 0);
    // Neither overflow nor underflow: the CV of {1, 2, 3} at any scale is 0.5.
    CHECK(coefficient_of_variation({1e-300, 2e-300, 3e-300}) == Approx(0.5));
    CHECK(coefficient_of_variation({1e300, 2e300, 3e300}) == Approx(0.5));
    // A coarse timer: most runs equal, so the MAD is 0, but the runs do spread.
    CHECK(robust_sigma({100, 100, 100, 100, 100, 100, 130, 70, 160}) > 20);
    CHECK(robust_sigma({1, 2, 3, 4, 100}) == Approx(1.4826).epsilon(1e-4));
    // (1.6449 + 0.8416) * sqrt(2^2/9 + 2^2/9) / sqrt(3/pi) = 2.4865 * 0.9428 / 0.9772 = 2.399
    CHECK(minimum_detectable_change(2, 9, 2, 9, false, 0) == Approx(2.3990).epsilon(1e-3));
    // Paired: the differences' sd over sqrt(n): 2.4865 * 1 / 3 / 0.9772 = 0.8481
    CHECK(minimum_detectable_change(0, 9, 0, 9, true, 1) == Approx(0.8481).epsilon(1e-3));
    CHECK(std::isnan(minimum_detectable_change(2, 1, 2, 9, false, 0)));
}
