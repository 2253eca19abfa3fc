// How `amdahl queue` reads for people (one layout for text, Markdown and CSV), its JSON, and its
// arithmetic (--explain): the station before and after the service-time speedup.
#include <fmt/format.h>

#include <cmath>

#include "report/explain.hpp"
#include "report/report.hpp"

namespace amdahl {

namespace {

using Statistic = LatencyObjective::Statistic;

const char* kind_name(QueueKind kind) {
    switch (kind) {
        case QueueKind::mm1:
            return "M/M/1";
        case QueueKind::mmc:
            return "M/M/c";
        case QueueKind::mg1:
            return "M/G/1";
        case QueueKind::mgc:
            return "M/G/c";
    }
    return "";
}

const char* statistic_name(Statistic statistic) {
    switch (statistic) {
        case Statistic::mean:
            return "mean";
        case Statistic::p50:
            return "p50";
        case Statistic::p90:
            return "p90";
        case Statistic::p99:
            return "p99";
    }
    return "";
}

constexpr const char* allen_cunneen = "Allen-Cunneen: W ≈ W_{M/M/c} · (1 + cv²) / 2";

// Seconds in the report's unit.
double in_unit(double seconds, Unit unit) { return seconds / seconds_per(unit); }

// A rate for people: "16.0/s".
std::string format_rate(double per_second, const NumberStyle& style) { return format_time(per_second, style) + "/s"; }

std::string model_text(const QueueModel& m) {
    const std::string servers = m.servers == 1 ? "1 server" : fmt::format("{} servers", m.servers);
    switch (queue_kind(m)) {
        case QueueKind::mm1:
        case QueueKind::mmc:
            return fmt::format("{}: Poisson arrivals, exponential service times, {}, first come first served",
                               kind_name(queue_kind(m)), servers);
        case QueueKind::mg1:
            return fmt::format("M/G/1: Poisson arrivals, service times with cv {}, 1 server (Pollaczek-Khinchine)",
                               shortest(m.service_cv));
        case QueueKind::mgc:
            break;
    }
    return fmt::format("M/G/c: Poisson arrivals, service times with cv {}, {}: approximated by {}",
                       shortest(m.service_cv), servers, allen_cunneen);
}

// How far an unstable station is from stability, in words.
std::string unstable_text(const QueueModel& m, const QueueMetrics& q, const NumberStyle& style) {
    return fmt::format(
        "unstable: arrivals at {} exceed the capacity c / S = {} (utilization {}); the queue grows without bound. "
        "The rate must drop below {} (by more than {})",
        format_rate(m.arrival_rate, style), format_rate(q.capacity, style), format_share(q.utilisation, style),
        format_rate(q.capacity, style), format_share(1 - q.capacity / m.arrival_rate, style));
}

// A latency ratio before / after as a factor > 1 in the direction it went: "3.1500x lower",
// "2.0000x higher" (never "0.5000x higher"), or "unchanged".
std::string latency_change(double ratio, const NumberStyle& style) {
    if (ratio == 1) return "unchanged";
    return ratio > 1 ? format_speedup(ratio, style) + " lower" : format_speedup(1 / ratio, style) + " higher";
}

// The mean latency's change, and why it is larger than the service time's.
std::string latency_text(const QueueResult& r, const NumberStyle& style) {
    const std::string unit(unit_name(r.unit));
    const auto t = [&](double seconds) { return format_time(in_unit(seconds, r.unit), style); };
    const QueueMetrics &b = r.before_metrics, &a = r.after_metrics;
    if (!b.stable && !a.stable) return "unstable before and after: no steady state, the queue only grows";
    if (!b.stable)
        return fmt::format("stable after the speedup: the mean latency becomes {} {} (from unbounded)",
                           t(*a.mean_latency), unit);
    if (!a.stable)
        return fmt::format("unstable after the slowdown: the mean latency of {} {} becomes unbounded",
                           t(*b.mean_latency), unit);
    const double ratio = *r.mean_latency_speedup();
    if (r.speedup == 1)
        return fmt::format("mean unchanged ({} {}): the service time is unchanged", t(*b.mean_latency), unit);
    const std::string change =
        fmt::format("mean {} ({} → {} {})", latency_change(ratio, style), t(*b.mean_latency), t(*a.mean_latency), unit);
    // Equal as shown: the wait is too small a part of the latency to move it.
    if (format_speedup(ratio, style) == format_speedup(r.speedup, style))
        return fmt::format(
            "{}: the same as the service time's own {}, because almost no request waits (mean wait {} → "
            "{} {})",
            change, format_factor(r.speedup, style), t(*b.mean_wait), t(*a.mean_wait), unit);
    return fmt::format(
        "{}: {} than the service time's own {}, because utilization {} from {} to {} and the wait "
        "with it ({} → {} {})",
        change, r.speedup > 1 ? "more" : "worse", format_factor(r.speedup, style), r.speedup > 1 ? "fell" : "rose",
        format_share(b.utilisation, style), format_share(a.utilisation, style), t(*b.mean_wait), t(*a.mean_wait), unit);
}

std::string objective_text(const QueueResult& r, const QueueResult::Objective& o, const NumberStyle& style) {
    const auto side = [&](const std::optional<double>& rate, const QueueModel& m) {
        if (rate) return "up to " + format_rate(*rate, style);
        // Even at λ = 0 the latency is the service time alone: exponential, mean S.
        const auto quantile = quantile_of(o.objective.statistic);
        const double idle = quantile ? -std::log1p(-*quantile) * m.service_time : m.service_time;
        return fmt::format("at no rate (the service alone gives {} {} {})", statistic_name(o.objective.statistic),
                           format_time(in_unit(idle, r.unit), style), unit_name(r.unit));
    };
    std::string text =
        fmt::format("met {} before, {} after", side(o.max_rate_before, r.before), side(o.max_rate_after, r.after));
    if (o.max_rate_before && o.max_rate_after && *o.max_rate_before > 0)
        text += fmt::format(" ({} the rate)", format_speedup(*o.max_rate_after / *o.max_rate_before, style));
    return text;
}

}  // namespace

Document layout(const QueueResult& r, const ReportOptions& options) {
    const NumberStyle& style = options.numbers;
    const std::string unit(unit_name(r.unit));
    const bool percentiles = has_exact_percentiles(r.before);
    Document doc;
    doc.command = "queue";
    if (options.explain) doc.sections.push_back({"The arithmetic", explain_queue(r, style), true, true});

    Table table;
    table.columns = {
        {"quantity", "quantity"}, {"before", "before", true}, {"after", "after", true}, {"ratio", "ratio", true}};
    const auto time_cell = [&](const std::optional<double>& seconds, bool stable) {
        if (!stable) return Cell("unstable", "");
        if (!seconds) return Cell("-", "");
        return Cell(format_time(in_unit(*seconds, r.unit), style), shortest(in_unit(*seconds, r.unit)));
    };
    const auto ratio_cell = [&](const std::optional<double>& before, const std::optional<double>& after) {
        if (!before || !after || !(*after > 0)) return Cell("", "");
        return Cell(format_speedup(*before / *after, style), shortest(*before / *after));
    };
    const QueueMetrics &b = r.before_metrics, &a = r.after_metrics;
    // `queueing`: a figure only a stable station has (the service time is one either way).
    const auto time_row = [&](const std::string& label, const std::string& key, const std::optional<double>& before,
                              const std::optional<double>& after, bool queueing = true) {
        table.rows.push_back({Cell(label + " (" + unit + ")", key + "_" + unit),
                              time_cell(before, b.stable || !queueing), time_cell(after, a.stable || !queueing),
                              ratio_cell(before, after)});
    };
    time_row("service time", "service_time", r.before.service_time, r.after.service_time, false);
    table.rows.push_back({Cell("utilization", "utilisation"),
                          Cell(format_share(b.utilisation, style), shortest(b.utilisation)),
                          Cell(format_share(a.utilisation, style), shortest(a.utilisation)), Cell("", "")});
    const auto share_cell = [&](const std::optional<double>& share, bool stable) {
        if (!stable) return Cell("unstable", "");
        if (!share) return Cell("-", "");
        return Cell(format_share(*share, style), shortest(*share));
    };
    if (queue_kind(r.before) != QueueKind::mgc)
        table.rows.push_back({Cell("P(wait)", "wait_probability"), share_cell(b.wait_probability, b.stable),
                              share_cell(a.wait_probability, a.stable), Cell("", "")});
    time_row("mean wait", "mean_wait", b.mean_wait, a.mean_wait);
    time_row("mean latency", "mean_latency", b.mean_latency, a.mean_latency);
    if (percentiles) {
        time_row("p50 latency", "p50_latency", b.p50_latency, a.p50_latency);
        time_row("p90 latency", "p90_latency", b.p90_latency, a.p90_latency);
        time_row("p99 latency", "p99_latency", b.p99_latency, a.p99_latency);
    }
    doc.table = std::move(table);

    auto& s = doc.summary;
    s.push_back({"model", model_text(r.before), "model", kind_name(queue_kind(r.before))});
    s.push_back({"arrival rate", format_rate(r.before.arrival_rate, style) + " (λ)", "arrival_rate_per_s",
                 shortest(r.before.arrival_rate)});
    s.push_back({"speedup",
                 format_factor(r.speedup, style) + " on the service time" +
                     (r.speedup_source.empty() ? "" : " (from " + printable(r.speedup_source) + ")"),
                 "speedup", shortest(r.speedup)});
    s.push_back({"capacity",
                 fmt::format("{} before, {} after (c / S: the rate at which utilization reaches 100%)",
                             format_rate(b.capacity, style), format_rate(a.capacity, style)),
                 "", ""});
    if (!b.stable) s.push_back({"before", unstable_text(r.before, b, style), "", ""});
    if (!a.stable) s.push_back({"after", unstable_text(r.after, a, style), "", ""});
    s.push_back({"latency", latency_text(r, style), "mean_latency_speedup",
                 r.mean_latency_speedup() ? shortest(*r.mean_latency_speedup()) : ""});
    if (!percentiles)
        s.push_back({"percentiles",
                     fmt::format("not given: with --cv {} the service times are not exponential, and a mean and a cv "
                                 "do not fix the latency distribution (use --cv 1 for exact percentiles)",
                                 shortest(r.before.service_cv)),
                     "", ""});
    for (const auto& o : r.objectives) s.push_back({"slo " + printable(o.text), objective_text(r, o, style), "", ""});

    if (b.stable && a.stable)
        doc.headline = fmt::format("mean latency {} → {} {} ({})", format_time(in_unit(*b.mean_latency, r.unit), style),
                                   format_time(in_unit(*a.mean_latency, r.unit), style), unit,
                                   latency_change(*r.mean_latency_speedup(), style));
    else
        doc.headline =
            fmt::format("{} before, {} after", b.stable ? "stable" : "unstable", a.stable ? "stable" : "unstable");
    return doc;
}

void write_json(std::ostream& out, const QueueResult& r, const ReportOptions& options) {
    JsonWriter json;
    json.begin_object().field("schema_version", 1).field("command", "queue");
    json.field("model", kind_name(queue_kind(r.before)));
    json.field("exact_percentiles", has_exact_percentiles(r.before));
    if (queue_kind(r.before) == QueueKind::mgc)
        json.field("approximation", allen_cunneen);
    else
        json.key("approximation").null();
    json.field("servers", r.before.servers).field("service_cv", r.before.service_cv);
    json.field("arrival_rate_per_s", r.before.arrival_rate).field("speedup", r.speedup);
    if (r.speedup_source.empty())
        json.key("speedup_from").null();
    else
        json.field("speedup_from", r.speedup_source);
    json.field("unit", unit_name(r.unit));
    const auto time = [&](const std::optional<double>& seconds) {
        return seconds ? std::optional<double>(in_unit(*seconds, r.unit)) : std::nullopt;
    };
    const auto state = [&](const char* key, const QueueModel& m, const QueueMetrics& q) {
        json.key(key).begin_object();
        json.field("service_time", in_unit(m.service_time, r.unit)).field("offered_load", q.offered_load);
        json.field("utilisation", q.utilisation).field("capacity_per_s", q.capacity).field("stable", q.stable);
        if (q.stable)
            json.key("rate_reduction_needed").null();
        else
            json.field("rate_reduction_needed", 1 - q.capacity / m.arrival_rate);
        json.field("wait_probability", q.wait_probability).field("mean_wait", time(q.mean_wait));
        json.field("mean_latency", time(q.mean_latency)).field("p50_latency", time(q.p50_latency));
        json.field("p90_latency", time(q.p90_latency)).field("p99_latency", time(q.p99_latency));
        json.end_object();
    };
    state("before", r.before, r.before_metrics);
    state("after", r.after, r.after_metrics);
    json.field("mean_latency_speedup", r.mean_latency_speedup());
    json.key("objectives").begin_array();
    for (const auto& o : r.objectives) {
        json.begin_object().field("slo", o.text).field("statistic", statistic_name(o.objective.statistic));
        json.field("bound", in_unit(o.objective.bound, r.unit));
        json.field("max_rate_before_per_s", o.max_rate_before).field("max_rate_after_per_s", o.max_rate_after);
        json.end_object();
    }
    json.end_array();
    if (options.explain) {
        json.key("explanation").begin_array();
        for (const auto& line : explain_queue(r, options.numbers)) json.value(line);
        json.end_array();
    }
    json.end_object();
    out << json.str();
}

std::vector<std::string> explain_queue(const QueueResult& r, const NumberStyle& style) {
    const std::string unit(unit_name(r.unit));
    const auto t = [&](double seconds) { return format_time(in_unit(seconds, r.unit), style) + " " + unit; };
    const auto rate = [&](double per_second) { return format_rate(per_second, style); };
    const auto plain = [&](double value) { return format_plain(value, style); };
    std::vector<std::string> lines;
    const auto explain_state = [&](const char* name, const QueueModel& m, const QueueMetrics& q) {
        const double mu = 1 / m.service_time, drain = q.capacity - m.arrival_rate;
        lines.push_back(fmt::format("{}: S = {}, μ = 1 / S = {}, λ = {}, c = {}", name, t(m.service_time), rate(mu),
                                    rate(m.arrival_rate), m.servers));
        lines.push_back(fmt::format("  a = λS = {} Erlangs; ρ = λS / c = {} / {} = {}", plain(q.offered_load),
                                    plain(q.offered_load), m.servers, format_share(q.utilisation, style)));
        if (!q.stable) {
            lines.push_back(fmt::format("  ρ >= 1: unstable; λ must drop below cμ = c / S = {}", rate(q.capacity)));
            return;
        }
        const double wait_probability = erlang_c(m.servers, q.offered_load);
        if (m.servers == 1)
            lines.push_back(
                fmt::format("  C(1, a) = a = {}: an arrival waits when the server is busy", plain(wait_probability)));
        else
            lines.push_back(fmt::format(
                "  C(c, a) = [a^c/c! · c/(c - a)] / [Σ_{{k<c}} a^k/k! + a^c/c! · c/(c - a)] = {} (a = {}, c = {}){}",
                plain(wait_probability), plain(q.offered_load), m.servers,
                queue_kind(m) == QueueKind::mgc ? ", for M/M/c" : ""));
        switch (queue_kind(m)) {
            case QueueKind::mm1:
            case QueueKind::mmc:
                lines.push_back(fmt::format("  W = C / (cμ - λ) = {} / ({} - {}) = {}", plain(wait_probability),
                                            rate(q.capacity), rate(m.arrival_rate), t(*q.mean_wait)));
                break;
            case QueueKind::mg1: {
                const double cv2 = m.service_cv * m.service_cv;
                lines.push_back(fmt::format("  W = ρ S (1 + cv²) / (2 (1 - ρ)) = {} × {} × {} / (2 × {}) = {}",
                                            plain(q.utilisation), t(m.service_time), plain(1 + cv2),
                                            plain(1 - q.utilisation), t(*q.mean_wait)));
                break;
            }
            case QueueKind::mgc: {
                const double cv2 = m.service_cv * m.service_cv;
                lines.push_back(fmt::format("  W ≈ C / (cμ - λ) × (1 + cv²) / 2 = {} / {} × {} / 2 = {} ({})",
                                            plain(wait_probability), rate(drain), plain(1 + cv2), t(*q.mean_wait),
                                            allen_cunneen));
                break;
            }
        }
        lines.push_back(
            fmt::format("  T = W + S = {} + {} = {}", t(*q.mean_wait), t(m.service_time), t(*q.mean_latency)));
        if (!has_exact_percentiles(m)) return;
        const std::pair<const char*, std::optional<double>> quantiles[] = {
            {"p50", q.p50_latency}, {"p90", q.p90_latency}, {"p99", q.p99_latency}};
        const double tails[] = {0.5, 0.1, 0.01};
        for (std::size_t i = 0; i < 3; ++i) {
            const auto& [label, value] = quantiles[i];
            if (m.servers == 1)
                lines.push_back(fmt::format("  {}: T ~ Exp(μ - λ), e^(-(μ - λ) t) = {}: t = -ln({}) / {} = {}", label,
                                            plain(tails[i]), plain(tails[i]), rate(drain), t(*value)));
            else
                lines.push_back(fmt::format(
                    "  {}: (1 - C) e^(-μt) + C P(Exp(θ) + Exp(μ) > t) = {}, θ = cμ - λ = {}{}: t = {}", label,
                    plain(tails[i]), rate(drain),
                    drain == mu ? ", P = (1 + μt) e^(-μt)" : ", P = (θ e^(-μt) - μ e^(-θt)) / (θ - μ)", t(*value)));
        }
    };
    explain_state("before", r.before, r.before_metrics);
    explain_state("after", r.after, r.after_metrics);
    for (const auto& o : r.objectives) {
        const std::string bound = statistic_name(o.objective.statistic) + std::string(" <= ") + t(o.objective.bound);
        const auto found = [&](const std::optional<double>& max_rate) {
            return max_rate ? "λ = " + rate(*max_rate) : std::string("none (not met at λ = 0)");
        };
        lines.push_back(fmt::format("slo {}: the largest λ in [0, cμ) with {}, by bisection: {} before, {} after",
                                    printable(o.text), bound, found(o.max_rate_before), found(o.max_rate_after)));
    }
    return lines;
}

}  // namespace amdahl
