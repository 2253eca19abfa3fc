#include "amdahl/queue.hpp"

#include <algorithm>
#include <cmath>

namespace amdahl {

namespace {

// Bisection stops when the bracket is this small relative to its upper end.
constexpr double relative_tolerance = 1e-13;
constexpr int max_bisections = 400;

// P(X + Y > t) for independent X ~ Exp(a), Y ~ Exp(b) (the hypoexponential survival function):
//   (b e^{-at} - a e^{-bt}) / (b - a),  and (1 + a t) e^{-at} when a = b.
// Written with lo = min(a, b), d = |b - a| as e^{-lo t} (1 + lo (1 - e^{-d t}) / d), which is the
// same and neither cancels nor overflows when a and b are close or far apart.
double sum_of_exponentials_survival(double a, double b, double t) {
    const double lo = std::min(a, b), d = std::abs(b - a);
    const double growth = d == 0 ? t : -std::expm1(-d * t) / d;  // (1 - e^{-d t}) / d -> t as d -> 0
    return std::exp(-lo * t) * (1 + lo * growth);
}

// P(T > t) of M/M/c given C = P(W > 0): W is 0 with probability 1 - C, else Exp(cμ - λ), and the
// service S ~ Exp(μ) is independent of it (FCFS), so
//   P(T > t) = (1 - C) e^{-μt} + C P(Exp(cμ - λ) + Exp(μ) > t).
double mmc_latency_survival(const QueueModel& m, double wait_probability, double t) {
    const double mu = 1 / m.service_time;
    const double drain = m.servers * mu - m.arrival_rate;  // θ = cμ - λ
    return (1 - wait_probability) * std::exp(-mu * t) + wait_probability * sum_of_exponentials_survival(drain, mu, t);
}

// The t with P(T > t) = 1 - p, by bisection: the survival function falls strictly from 1 at t = 0.
double mmc_latency_percentile(const QueueModel& m, double wait_probability, double p) {
    const double tail = 1 - p;
    double lo = 0, hi = m.service_time;
    while (mmc_latency_survival(m, wait_probability, hi) > tail) {
        lo = hi;
        hi *= 2;
    }
    // To the last bit: the quantile is then as exact as the survival function it inverts.
    for (int i = 0; i < max_bisections; ++i) {
        const double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi) break;
        if (mmc_latency_survival(m, wait_probability, mid) > tail)
            lo = mid;
        else
            hi = mid;
    }
    return lo + (hi - lo) / 2;
}

// W, the mean wait of a stable station, given C(c, a).
double mean_wait(const QueueModel& m, double wait_probability) {
    const double rho = m.arrival_rate * m.service_time / m.servers, cv2 = m.service_cv * m.service_cv;
    const double drain = m.servers / m.service_time - m.arrival_rate;  // cμ - λ
    switch (queue_kind(m)) {
        case QueueKind::mg1:
            // Pollaczek-Khinchine: W = ρ S (1 + cv²) / (2 (1 - ρ))
            return rho * m.service_time * (1 + cv2) / (2 * (1 - rho));
        case QueueKind::mgc:
            // Allen-Cunneen with Poisson arrivals: W ≈ W_{M/M/c} (1 + cv²) / 2
            return wait_probability / drain * (1 + cv2) / 2;
        case QueueKind::mm1:
        case QueueKind::mmc:
            break;
    }
    // M/M/c: W = C(c, a) / (cμ - λ)
    return wait_probability / drain;
}

// The statistic an objective bounds, at the model's arrival rate (which must be stable).
double statistic_at(const QueueModel& m, const LatencyObjective& objective) {
    const double wait_probability = erlang_c(m.servers, m.arrival_rate * m.service_time);
    const auto quantile = quantile_of(objective.statistic);
    if (!quantile) return mean_wait(m, wait_probability) + m.service_time;  // T = W + S
    return mmc_latency_percentile(m, wait_probability, *quantile);
}

}  // namespace

QueueKind queue_kind(const QueueModel& model) {
    const bool exponential = model.service_cv == 1;
    if (model.servers == 1) return exponential ? QueueKind::mm1 : QueueKind::mg1;
    return exponential ? QueueKind::mmc : QueueKind::mgc;
}

bool has_exact_percentiles(const QueueModel& model) { return model.service_cv == 1; }

double erlang_c(int servers, double offered_load) {
    // C(c, a) = [a^c / c! · c / (c - a)] / [Σ_{k=0}^{c-1} a^k / k! + a^c / c! · c / (c - a)],
    // computed through Erlang B's recursion B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)), which
    // neither overflows nor loses digits for large c, and then C = c B / (c - a (1 - B)).
    const double a = offered_load;
    // One server: C(1, a) = a exactly; the recursion would leave a last-bit error (1/3 + 1 ulp).
    if (servers == 1) return a;
    double blocking = 1;
    for (int k = 1; k <= servers; ++k) blocking = a * blocking / (k + a * blocking);
    return servers * blocking / (servers - a * (1 - blocking));
}

QueueMetrics analyse_queue(const QueueModel& m) {
    QueueMetrics out;
    const double c = m.servers, s = m.service_time;
    out.offered_load = m.arrival_rate * s;   // a = λS
    out.utilisation = out.offered_load / c;  // ρ = λS / c
    out.capacity = c / s;                    // cμ
    out.stable = out.utilisation < 1;
    if (!out.stable) return out;
    const double wait_probability = erlang_c(m.servers, out.offered_load);
    // P(W > 0): Erlang C for M/M/c; ρ for any M/G/1 (an arrival sees the server busy with
    // probability ρ); Allen-Cunneen gives no such figure for M/G/c.
    if (queue_kind(m) == QueueKind::mg1)
        out.wait_probability = out.utilisation;
    else if (queue_kind(m) != QueueKind::mgc)
        out.wait_probability = wait_probability;
    out.mean_wait = mean_wait(m, wait_probability);
    out.mean_latency = *out.mean_wait + s;  // T = W + S
    if (has_exact_percentiles(m)) {
        out.p50_latency = mmc_latency_percentile(m, wait_probability, 0.5);
        out.p90_latency = mmc_latency_percentile(m, wait_probability, 0.9);
        out.p99_latency = mmc_latency_percentile(m, wait_probability, 0.99);
    }
    return out;
}

double latency_survival(const QueueModel& model, double t) {
    return mmc_latency_survival(model, erlang_c(model.servers, model.arrival_rate * model.service_time), t);
}

double latency_percentile(const QueueModel& model, double p) {
    return mmc_latency_percentile(model, erlang_c(model.servers, model.arrival_rate * model.service_time), p);
}

std::optional<double> quantile_of(LatencyObjective::Statistic statistic) {
    switch (statistic) {
        case LatencyObjective::Statistic::p50:
            return 0.5;
        case LatencyObjective::Statistic::p90:
            return 0.9;
        case LatencyObjective::Statistic::p99:
            return 0.99;
        case LatencyObjective::Statistic::mean:
            break;
    }
    return std::nullopt;
}

std::optional<double> max_rate_meeting(const QueueModel& model, const LatencyObjective& objective) {
    // Every statistic grows with λ, from the service alone at λ = 0 to infinity as λ -> cμ.
    QueueModel at = model;
    at.arrival_rate = 0;
    if (statistic_at(at, objective) > objective.bound) return std::nullopt;
    double lo = 0, hi = model.servers / model.service_time;
    for (int i = 0; i < max_bisections && hi - lo > relative_tolerance * hi; ++i) {
        at.arrival_rate = lo + (hi - lo) / 2;
        if (statistic_at(at, objective) <= objective.bound)
            lo = at.arrival_rate;
        else
            hi = at.arrival_rate;
    }
    return lo;
}

}  // namespace amdahl
