// amdahl/queue.hpp against closed forms and textbook values: M/M/1 (T ~ Exp(μ - λ)), M/M/c by
// Erlang C, the hypoexponential latency distribution (against a numerical convolution), M/G/1 by
// Pollaczek-Khinchine, Allen-Cunneen for M/G/c, the SLO search and unstable stations.
#include <catch2/catch.hpp>

#include <cmath>

#include "amdahl/queue.hpp"

namespace {

using amdahl::analyse_queue;
using amdahl::erlang_c;
using amdahl::LatencyObjective;
using amdahl::QueueModel;
using Statistic = LatencyObjective::Statistic;

QueueModel station(double service_time, double arrival_rate, int servers = 1, double cv = 1) {
    QueueModel m;
    m.service_time = service_time;
    m.arrival_rate = arrival_rate;
    m.servers = servers;
    m.service_cv = cv;
    return m;
}

// P(W + S > t) = P(S > t) + ∫_0^t P(W > t - s) f_S(s) ds, by Simpson's rule: an independent check
// of the closed form, with P(W > x) = C e^{-(cμ - λ) x} and f_S(s) = μ e^{-μ s}.
double survival_by_convolution(const QueueModel& m, double t) {
    const double mu = 1 / m.service_time, theta = m.servers * mu - m.arrival_rate;
    const double c = erlang_c(m.servers, m.arrival_rate * m.service_time);
    const auto integrand = [&](double s) { return c * std::exp(-theta * (t - s)) * mu * std::exp(-mu * s); };
    const int n = 20000;
    const double h = t / n;
    double sum = integrand(0) + integrand(t);
    for (int i = 1; i < n; ++i) sum += (i % 2 ? 4 : 2) * integrand(i * h);
    return std::exp(-mu * t) + sum * h / 3;
}

}  // namespace

TEST_CASE("queue: M/M/1 means and percentiles are the closed forms", "[queue]") {
    // The lesson's numbers: S = 50 ms, λ = 16/s: ρ = 0.8, W = 200 ms, T = 250 ms.
    const QueueModel m = station(0.05, 16);
    CHECK(amdahl::queue_kind(m) == amdahl::QueueKind::mm1);
    const auto q = analyse_queue(m);
    CHECK(q.stable);
    CHECK(q.utilisation == Approx(0.8));
    CHECK(q.capacity == Approx(20));
    CHECK(*q.wait_probability == Approx(0.8));
    CHECK(*q.mean_wait == Approx(0.2));
    CHECK(*q.mean_latency == Approx(0.25));
    // T ~ Exp(μ - λ): the p-quantile is -ln(1 - p) / (μ - λ), μ - λ = 4/s.
    CHECK(*q.p50_latency == Approx(std::log(2.0) / 4).epsilon(1e-12));
    CHECK(*q.p90_latency == Approx(std::log(10.0) / 4).epsilon(1e-12));
    CHECK(*q.p99_latency == Approx(std::log(100.0) / 4).epsilon(1e-12));
    for (double t : {0.01, 0.1, 0.5, 2.0}) CHECK(amdahl::latency_survival(m, t) == Approx(std::exp(-4 * t)));

    // After a 1/0.7 (1.43x) service-time speedup: S = 35 ms, ρ = 0.56, T = 35 / 0.44 ≈ 79.5 ms, 3.14x lower.
    const auto after = analyse_queue(station(0.035, 16));
    CHECK(after.utilisation == Approx(0.56));
    CHECK(*after.mean_latency == Approx(0.035 / 0.44));
    CHECK(*q.mean_latency / *after.mean_latency == Approx(3.142857).epsilon(1e-6));
}

TEST_CASE("queue: M/M/c follows Erlang C", "[queue]") {
    // The textbook case: c = 2, λ = 1, μ = 1: a = 1, C(2, 1) = 1/3, W = C / (cμ - λ) = 1/3.
    CHECK(erlang_c(2, 1) == Approx(1.0 / 3));
    const QueueModel m = station(1, 1, 2);
    CHECK(amdahl::queue_kind(m) == amdahl::QueueKind::mmc);
    const auto q = analyse_queue(m);
    CHECK(q.utilisation == Approx(0.5));
    CHECK(*q.wait_probability == Approx(1.0 / 3));
    CHECK(*q.mean_wait == Approx(1.0 / 3));
    CHECK(*q.mean_latency == Approx(4.0 / 3));
    // Another table value: c = 3, a = 2: C = 4/9.
    CHECK(erlang_c(3, 2) == Approx(4.0 / 9));
    // c = 1 is M/M/1: C = ρ.
    CHECK(erlang_c(1, 0.8) == Approx(0.8));
    // Many servers: no overflow, and C falls as servers are added at the same utilisation.
    CHECK(erlang_c(1000, 900) > 0);
    CHECK(erlang_c(1000, 900) < erlang_c(10, 9));
    CHECK(std::isfinite(erlang_c(1000000, 999000)));
}

TEST_CASE("queue: the M/M/c latency distribution matches a numerical convolution", "[queue]") {
    // θ = cμ - λ below, above and equal to μ (the Erlang-2 case).
    for (double rate : {1.5, 0.5, 1.0}) {
        INFO("λ = " << rate);
        const QueueModel m = station(1, rate, 2);
        for (double t : {0.1, 1.0, 3.0, 8.0})
            CHECK(amdahl::latency_survival(m, t) == Approx(survival_by_convolution(m, t)).epsilon(1e-9));
        // The percentile is the root of P(T > t) = 1 - p.
        for (double p : {0.5, 0.9, 0.99}) {
            const double t = amdahl::latency_percentile(m, p);
            CHECK(amdahl::latency_survival(m, t) == Approx(1 - p).epsilon(1e-11));
        }
    }
    // Continuous across θ = μ: rates a hair either side give the same p99.
    const double at = amdahl::latency_percentile(station(1, 1, 2), 0.99);
    CHECK(amdahl::latency_percentile(station(1, 1 + 1e-9, 2), 0.99) == Approx(at).epsilon(1e-8));
    CHECK(amdahl::latency_percentile(station(1, 1 - 1e-9, 2), 0.99) == Approx(at).epsilon(1e-8));
}

TEST_CASE("queue: M/G/1 by Pollaczek-Khinchine, M/G/c by Allen-Cunneen", "[queue]") {
    // W = ρ S (1 + cv²) / (2 (1 - ρ)): ρ = 0.8, S = 50 ms, cv = 0 (constant service): 100 ms, half M/M/1's.
    const auto constant = analyse_queue(station(0.05, 16, 1, 0));
    CHECK(*constant.mean_wait == Approx(0.1));
    CHECK(*constant.mean_latency == Approx(0.15));
    CHECK(*constant.wait_probability == Approx(0.8));
    CHECK_FALSE(constant.p99_latency);
    // cv = 2: (1 + 4) / 2 = 2.5 times M/M/1's wait.
    CHECK(*analyse_queue(station(0.05, 16, 1, 2)).mean_wait == Approx(0.5));
    // Allen-Cunneen: W ≈ W_{M/M/c} (1 + cv²) / 2; c = 2, λ = μ = 1, cv = 0: 1/6.
    const QueueModel mgc = station(1, 1, 2, 0);
    CHECK(amdahl::queue_kind(mgc) == amdahl::QueueKind::mgc);
    const auto q = analyse_queue(mgc);
    CHECK(*q.mean_wait == Approx(1.0 / 6));
    CHECK_FALSE(q.wait_probability);
    CHECK_FALSE(q.p50_latency);
}

TEST_CASE("queue: an unstable station has no waiting figures", "[queue]") {
    const auto q = analyse_queue(station(0.05, 25));
    CHECK_FALSE(q.stable);
    CHECK(q.utilisation == Approx(1.25));
    CHECK(q.capacity == Approx(20));
    CHECK_FALSE(q.mean_wait);
    CHECK_FALSE(q.mean_latency);
    CHECK_FALSE(q.p99_latency);
    CHECK_FALSE(analyse_queue(station(0.05, 20)).stable);  // ρ = 1 exactly
}

TEST_CASE("queue: the highest rate meeting a latency objective", "[queue]") {
    // M/M/1, mean T = 1 / (μ - λ) <= 100 ms with μ = 20/s: λ <= 10/s.
    const QueueModel m = station(0.05, 16);
    CHECK(*amdahl::max_rate_meeting(m, {Statistic::mean, 0.1}) == Approx(10).epsilon(1e-11));
    // p99 = ln(100) / (μ - λ) <= 1 s: λ <= 20 - ln(100).
    CHECK(*amdahl::max_rate_meeting(m, {Statistic::p99, 1.0}) == Approx(20 - std::log(100.0)).epsilon(1e-11));
    // p50 = ln 2 / (μ - λ) <= 100 ms: λ <= 20 - 10 ln 2.
    CHECK(*amdahl::max_rate_meeting(m, {Statistic::p50, 0.1}) == Approx(20 - 10 * std::log(2.0)).epsilon(1e-11));
    // An objective the service alone misses (p99 of Exp(50 ms) is 230 ms): no rate meets it.
    CHECK_FALSE(amdahl::max_rate_meeting(m, {Statistic::p99, 0.2}));
    CHECK_FALSE(amdahl::max_rate_meeting(m, {Statistic::mean, 0.04}));
    // M/M/c: the rate found meets the objective, and a little more does not.
    const QueueModel two = station(1, 1, 2);
    const double rate = *amdahl::max_rate_meeting(two, {Statistic::p90, 4.0});
    CHECK(rate > 0);
    CHECK(rate < 2);
    CHECK(amdahl::latency_percentile(station(1, rate, 2), 0.9) == Approx(4.0).epsilon(1e-9));
    // M/G/1 mean: ρ S (1 + cv²) / (2 (1 - ρ)) + S <= 2S with cv = 0: ρ / (2 (1 - ρ)) = 1, ρ = 2/3.
    CHECK(*amdahl::max_rate_meeting(station(0.05, 1, 1, 0), {Statistic::mean, 0.1}) ==
          Approx(20.0 * 2 / 3).epsilon(1e-11));
}
