#pragma once
/// \file Latency under load: a service whose requests arrive at random (Poisson, rate λ) and wait
/// for one of c servers, each taking a service time S (mean; exponential unless a coefficient of
/// variation says otherwise). Amdahl's law speeds up S; queueing turns that into a latency change
/// that can be far larger, because the utilization ρ = λS / c falls too. Pure math on validated
/// values: times in seconds, rates per second.
#include <optional>

namespace amdahl {

/// A queueing station: Poisson arrivals, c identical servers, first come first served.
struct QueueModel {
    double service_time = 1;  ///< S, the mean service time (seconds, > 0)
    double arrival_rate = 0;  ///< λ, arrivals per second (>= 0)
    int servers = 1;          ///< c >= 1
    double service_cv = 1;    ///< the service time's coefficient of variation (std / mean, >= 0); 1: exponential
};

/// Which model the numbers come from, by Kendall's notation.
enum class QueueKind {
    mm1,  ///< M/M/1: exact, percentiles too
    mmc,  ///< M/M/c (Erlang C): exact, percentiles too
    mg1,  ///< M/G/1 (Pollaczek-Khinchine): exact means, no percentiles
    mgc,  ///< M/G/c by the Allen-Cunneen approximation: approximate means, no percentiles
};

QueueKind queue_kind(const QueueModel& model);
/// True when the latency distribution is known exactly (exponential service: M/M/1, M/M/c).
bool has_exact_percentiles(const QueueModel& model);

/// What a station does at one arrival rate. The waiting and latency figures are set only when the
/// station is stable (ρ < 1); percentiles only when has_exact_percentiles().
struct QueueMetrics {
    double offered_load = 0;                 ///< a = λS, in Erlangs (busy servers on average)
    double utilisation = 0;                  ///< ρ = λS / c
    double capacity = 0;                     ///< cμ = c / S: the arrival rate at which ρ reaches 1 (per second)
    bool stable = false;                     ///< ρ < 1
    std::optional<double> wait_probability;  ///< P(W > 0): Erlang C(c, a); for M/G/1 ρ; unset for M/G/c
    std::optional<double> mean_wait;         ///< W, seconds
    std::optional<double> mean_latency;      ///< T = W + S, seconds
    std::optional<double> p50_latency, p90_latency, p99_latency;  ///< seconds
};

/// Erlang's C formula: the probability that an arrival waits, with c servers and offered load
/// a = λS < c.
double erlang_c(int servers, double offered_load);

/// The station's metrics at its arrival rate.
QueueMetrics analyse_queue(const QueueModel& model);

/// P(T > t), the latency's survival function, for exponential service (M/M/c); t in seconds.
double latency_survival(const QueueModel& model, double t);
/// The p-quantile (0 < p < 1) of the latency for exponential service and a stable station: the t
/// with P(T <= t) = p, to ~1e-12 relative.
double latency_percentile(const QueueModel& model, double p);

/// A latency objective: a statistic of the latency that must stay at or below a bound.
struct LatencyObjective {
    enum class Statistic { mean, p50, p90, p99 };
    Statistic statistic = Statistic::p99;
    double bound = 0;  ///< seconds, > 0
};
/// The quantile a statistic names (0.5, 0.9, 0.99), or none for the mean.
std::optional<double> quantile_of(LatencyObjective::Statistic statistic);

/// The highest arrival rate (per second) at which the station meets the objective, found by
/// bisection on λ in [0, c / S) to ~1e-12 relative; none when even an idle station misses it. A
/// percentile objective needs has_exact_percentiles().
std::optional<double> max_rate_meeting(const QueueModel& model, const LatencyObjective& objective);

}  // namespace amdahl
