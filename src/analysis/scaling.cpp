#include "amdahl/scaling.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "amdahl/units.hpp"
#include "model/text.hpp"

namespace amdahl {

using detail::lower;
using detail::trim;

namespace {

std::string quoted(std::string_view text) { return "'" + printable(text) + "'"; }

// "1,000,000" for messages about counts.
std::string grouped(unsigned long long value) {
    std::string text = std::to_string(value);
    for (std::size_t pos = text.size(); pos > 3;) {
        pos -= 3;
        text.insert(pos, ",");
    }
    return text;
}

// A processor count as written in an N list; `item` is the whole item, for messages.
long long parse_count(std::string_view text, std::string_view item, const char* what = "N") {
    text = trim(text);
    double value = 0;
    if (text.empty() || !parse_double(text, value))
        throw Error(quoted(item) +
                    " is not a processor count (expected whole numbers >= 1 such as 5,10,100, "
                    "1..1024 or 1:64:8)");
    if (value < 1) throw Error(std::string(what) + " must be at least 1 (got " + quoted(text) + ")");
    if (value != std::floor(value))
        throw Error(std::string(what) + " must be a whole number (got " + quoted(text) + ")");
    if (value > static_cast<double>(max_processor_count))
        throw Error(std::string(what) + " must be at most " + grouped(max_processor_count) + " (got " + quoted(text) +
                    ")");
    return static_cast<long long>(value);
}

void check_point_count(unsigned long long count, std::string_view text) {
    if (count > max_processor_points)
        throw Error(quoted(text) + " expands to " + grouped(count) + " processor counts; at most " +
                    grouped(max_processor_points) + " are allowed");
}

// The stationary point of T(N) = (1 - P) + P / N + c g(N), where T'(N) = -P / N^2 + c g'(N)
// changes sign once: linear N* = sqrt(P / c); log N* = P ln 2 / c; sqrt N* = (2 P / c)^(2/3).
// Not a number when T has none (constant overhead, c = 0 or P = 0).
double stationary_point(Overhead::Model model, double parallel_fraction, double c) {
    if (!(c > 0) || !(parallel_fraction > 0)) return NAN;
    switch (model) {
        case Overhead::Model::linear:
            return std::sqrt(parallel_fraction / c);
        case Overhead::Model::log:
            return parallel_fraction * std::numbers::ln2 / c;
        case Overhead::Model::sqrt:
            return std::cbrt(std::pow(2 * parallel_fraction / c, 2.0));
        default:
            return NAN;
    }
}

}  // namespace

double overhead_shape(Overhead::Model model, long long n) {
    if (n <= 1) return 0;
    const auto count = static_cast<double>(n);
    switch (model) {
        case Overhead::Model::linear:
            return count;
        case Overhead::Model::log:
            return std::log2(count);
        case Overhead::Model::sqrt:
            return std::sqrt(count);
        case Overhead::Model::constant:
            return 1;
        default:
            return 0;
    }
}

double Overhead::at(long long n) const {
    if (model == Model::none) return 0;
    if (model != Model::measured) return coefficient * overhead_shape(model, n);
    if (points.empty() || n < points.front().first || n > points.back().first) return NAN;
    // Linear in N between the measured points.
    const auto after = std::lower_bound(points.begin(), points.end(), n,
                                        [](const auto& point, long long value) { return point.first < value; });
    if (after->first == n) return after->second;
    const auto before = after - 1;
    const double t = static_cast<double>(n - before->first) / static_cast<double>(after->first - before->first);
    return before->second + t * (after->second - before->second);
}

long long Overhead::max_n() const {
    if (model == Model::measured && !points.empty()) return points.back().first;
    return max_processor_count;
}

std::string_view overhead_model_name(Overhead::Model model) {
    switch (model) {
        case Overhead::Model::none:
            return "none";
        case Overhead::Model::linear:
            return "linear";
        case Overhead::Model::log:
            return "log";
        case Overhead::Model::sqrt:
            return "sqrt";
        case Overhead::Model::constant:
            return "const";
        case Overhead::Model::measured:
            return "measured";
    }
    return "none";
}

Overhead::Model parse_overhead_model(std::string_view name) {
    name = trim(name);
    if (name == "linear") return Overhead::Model::linear;
    if (name == "log") return Overhead::Model::log;
    if (name == "sqrt") return Overhead::Model::sqrt;
    if (name == "const" || name == "constant") return Overhead::Model::constant;
    return Overhead::Model::none;
}

Overhead parse_overhead(std::string_view text) {
    const auto colon = text.find(':');
    const std::string_view name = trim(text.substr(0, colon));
    Overhead overhead;
    overhead.model = parse_overhead_model(name);
    if (overhead.model == Overhead::Model::none)
        throw Error("unknown overhead model " + quoted(name) +
                    " (expected linear:C, log:C, sqrt:C or const:C, or file:PATH for measured N,overhead rows)");
    if (colon == std::string_view::npos || trim(text.substr(colon + 1)).empty())
        throw Error(std::string(overhead_model_name(overhead.model)) +
                    " needs a coefficient: " + std::string(overhead_model_name(overhead.model)) + ":C, such as " +
                    std::string(overhead_model_name(overhead.model)) + ":0.01 (C in units of the one-processor time)");
    const std::string_view coefficient = trim(text.substr(colon + 1));
    Quantity q;
    bool ok = true;
    try {
        q = parse_quantity(coefficient);
    } catch (const Error&) {
        ok = false;
    }
    if (!ok || q.unit || q.value < 0)
        throw Error("the coefficient of " + std::string(overhead_model_name(overhead.model)) +
                    " must be a number >= 0 in units of the one-processor time, such as 0.01 or 1% (got " +
                    quoted(coefficient) + ")");
    overhead.coefficient = q.percent ? q.value / 100 : q.value;
    return overhead;
}

double strong_speedup(double parallel_fraction, double local_speedup, double overhead) {
    // S = 1 / ((1 - P) + P / k + O): Amdahl's time (1 - P) + P / k, plus the overhead; as
    // A / (1 + O A) with A Amdahl's speedup, which is A itself, to the last digit, when O = 0.
    const double amdahl = amdahl_speedup(parallel_fraction, local_speedup);
    return std::isinf(amdahl) ? 1 / overhead : amdahl / (1 + overhead * amdahl);
}

double weak_speedup(double parallel_fraction, double local_speedup, double overhead) {
    // S = ((1 - P) + P k) / (1 + O)
    return ((1 - parallel_fraction) + parallel_fraction * local_speedup) / (1 + overhead);
}

double scaling_speedup(ScalingLaw law, double parallel_fraction, long long n, const Overhead& overhead) {
    const auto k = static_cast<double>(n);
    return law == ScalingLaw::amdahl ? strong_speedup(parallel_fraction, k, overhead.at(n))
                                     : weak_speedup(parallel_fraction, k, overhead.at(n));
}

BestProcessorCount best_processor_count(ScalingLaw law, double parallel_fraction, const Overhead& overhead,
                                        long long max_n) {
    max_n = std::clamp(max_n, 1LL, overhead.max_n());
    // Where the formula changes (N = 1, where every overhead is 0; N = 2; the measured points)
    // and the range's end can win; between them the speedup is unimodal, so also the integers
    // either side of each stationary point. Weak scaling has none to add: on each piece its
    // speedup is monotone, or falls then rises (its log-derivative only grows with N).
    std::vector<long long> candidates{1, 2, max_n};
    const auto around = [&](double x, long long lo, long long hi) {
        if (std::isnan(x)) return;
        x = std::clamp(x, static_cast<double>(lo), static_cast<double>(hi));
        candidates.push_back(static_cast<long long>(std::floor(x)));
        candidates.push_back(static_cast<long long>(std::ceil(x)));
    };
    if (overhead.model == Overhead::Model::measured) {
        for (std::size_t i = 0; i + 1 < overhead.points.size() && overhead.points[i].first < max_n; ++i) {
            const auto [a, oa] = overhead.points[i];
            const auto [b, ob] = overhead.points[i + 1];
            const long long hi = std::min(b, max_n);
            candidates.push_back(a);
            candidates.push_back(hi);
            // On this piece T(N) = (1 - P) + P / N + O_a + s (N - a): convex, least at sqrt(P / s).
            const double slope = (ob - oa) / static_cast<double>(b - a);
            if (law == ScalingLaw::amdahl && slope > 0 && parallel_fraction > 0)
                around(std::sqrt(parallel_fraction / slope), a, hi);
        }
    } else if (law == ScalingLaw::amdahl && max_n >= 2) {
        around(stationary_point(overhead.model, parallel_fraction, overhead.coefficient), 2, max_n);
    }
    std::sort(candidates.begin(), candidates.end());
    BestProcessorCount best{1, scaling_speedup(law, parallel_fraction, 1, overhead)};
    for (long long n : candidates) {
        if (n < 1 || n > max_n) continue;
        const double s = scaling_speedup(law, parallel_fraction, n, overhead);
        if (s > best.speedup) best = {n, s};
    }
    return best;
}

std::vector<long long> parse_processor_counts(std::string_view text) {
    if (trim(text).empty())
        throw Error("expected processor counts such as 5,10,100, 1..1024 or 1:64:8 (got an empty list)");
    std::vector<long long> counts;
    unsigned long long expanded = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view item = trim(text.substr(start, end - start));
        start = end + 1;
        if (item.empty()) throw Error("empty item in " + quoted(text) + " (expected counts separated by commas)");
        const auto malformed = [&] {
            return Error(quoted(item) + " is not a range (expected START..END, doubling, or START:STOP[:STEP])");
        };
        if (const auto dots = item.find(".."); dots != std::string_view::npos) {
            // START..END: START, 2 START, 4 START, ... while < END, then END itself.
            const std::string_view first = item.substr(0, dots), last = item.substr(dots + 2);
            if (trim(first).empty() || trim(last).empty() || last.find("..") != std::string_view::npos)
                throw malformed();
            const long long from = parse_count(first, item), to = parse_count(last, item);
            if (from > to) throw Error("range " + quoted(item) + " runs backwards: its start must not exceed its end");
            for (long long n = from; n < to; n *= 2) {
                counts.push_back(n);
                ++expanded;
                if (n > to / 2) break;
            }
            counts.push_back(to);
            ++expanded;
        } else if (const auto colon = item.find(':'); colon != std::string_view::npos) {
            // START:STOP[:STEP]: START, START + STEP, ... while < STOP, then STOP itself.
            const std::string_view first = item.substr(0, colon);
            std::string_view rest = item.substr(colon + 1), step_text = "1";
            if (const auto second = rest.find(':'); second != std::string_view::npos) {
                step_text = rest.substr(second + 1);
                rest = rest.substr(0, second);
                if (step_text.find(':') != std::string_view::npos || trim(step_text).empty()) throw malformed();
            }
            if (trim(first).empty() || trim(rest).empty()) throw malformed();
            const long long from = parse_count(first, item), to = parse_count(rest, item);
            const long long step = parse_count(step_text, item, "the step");
            if (from > to) throw Error("range " + quoted(item) + " runs backwards: its start must not exceed its stop");
            const auto points = static_cast<unsigned long long>((to - from) / step) + 1 + ((to - from) % step != 0);
            check_point_count(expanded + points, item);
            for (long long n = from; n < to; n += step) {
                counts.push_back(n);
                if (n > to - step) break;
            }
            counts.push_back(to);
            expanded += points;
        } else {
            counts.push_back(parse_count(item, item));
            ++expanded;
        }
        check_point_count(expanded, text);
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

double karp_flatt(double speedup, long long n) {
    // e = (1/S - 1/N) / (1 - 1/N)
    const auto count = static_cast<double>(n);
    return (1 / speedup - 1 / count) / (1 - 1 / count);
}

KarpFlattTrend karp_flatt_trend(const std::vector<ScalingPoint>& points) {
    std::vector<ScalingPoint> sorted;
    for (const auto& p : points)
        if (p.n > 1) sorted.push_back(p);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.n < b.n; });
    KarpFlattTrend out;
    if (sorted.empty()) return out;
    out.first = karp_flatt(sorted.front().speedup, sorted.front().n);
    out.last = karp_flatt(sorted.back().speedup, sorted.back().n);
    // A speedup above N: no serial part or overhead explains it, rising or not.
    if (std::any_of(sorted.begin(), sorted.end(), [](const auto& p) { return karp_flatt(p.speedup, p.n) < 0; })) {
        out.trend = SerialTrend::superlinear;
        return out;
    }
    if (sorted.size() < 2) return out;
    // Least-squares slope of e on log2 N: b = sum((x - mean x)(e - mean e)) / sum((x - mean x)^2).
    Summation sum_x, sum_e;
    for (const auto& p : sorted) {
        sum_x.add(std::log2(static_cast<double>(p.n)));
        sum_e.add(karp_flatt(p.speedup, p.n));
    }
    const auto count = static_cast<double>(sorted.size());
    const double mean_x = sum_x.value() / count, mean_e = sum_e.value() / count;
    Summation sxe, sxx;
    for (const auto& p : sorted) {
        const double dx = std::log2(static_cast<double>(p.n)) - mean_x;
        sxe.add(dx * (karp_flatt(p.speedup, p.n) - mean_e));
        sxx.add(dx * dx);
    }
    const double span =
        std::log2(static_cast<double>(sorted.back().n)) - std::log2(static_cast<double>(sorted.front().n));
    out.change = sxe.value() / sxx.value() * span;
    const double threshold = std::max(0.1 * std::fabs(mean_e), 0.001);
    out.trend = out.change > threshold    ? SerialTrend::rising
                : out.change < -threshold ? SerialTrend::falling
                                          : SerialTrend::flat;
    return out;
}

double ScalingFit::speedup(long long n) const {
    return strong_speedup(parallel_fraction, static_cast<double>(n), coefficient * overhead_shape(model, n));
}

Overhead ScalingFit::overhead() const {
    Overhead out;
    out.model = model;
    out.coefficient = model == Overhead::Model::none ? 0 : coefficient;
    return out;
}

ScalingFit fit_scaling(const std::vector<ScalingPoint>& points, Overhead::Model model) {
    if (model == Overhead::Model::measured) throw Error("a measured overhead has no coefficient to fit");
    std::vector<ScalingPoint> used;
    for (const auto& p : points)
        if (p.n > 1) used.push_back(p);
    if (used.empty()) throw Error("no run with N > 1: there is nothing to fit P to");
    ScalingFit fit;
    fit.model = model;
    fit.used = used.size();
    // 1 - 1/S = P x - c g with x = 1 - 1/N: linear in (P, c).
    Summation sxx, sxy, sxg, sgg, sgy;
    for (const auto& p : used) {
        const double x = 1 - 1 / static_cast<double>(p.n), y = 1 - 1 / p.speedup, g = overhead_shape(model, p.n);
        sxx.add(x * x);
        sxy.add(x * y);
        sxg.add(x * g);
        sgg.add(g * g);
        sgy.add(g * y);
    }
    if (model == Overhead::Model::none) {
        fit.parallel_fraction = sxy.value() / sxx.value();
    } else {
        if (used.size() < 2)
            throw Error("fitting P and a " + std::string(overhead_model_name(model)) +
                        " overhead needs runs at two or more N > 1 (got 1)");
        // Normal equations for y = P x + c u with u = -g:
        // [sxx sxu; sxu suu] [P; c] = [sxy; suy], sxu = -sxg, suu = sgg, suy = -sgy.
        const double det = sxx.value() * sgg.value() - sxg.value() * sxg.value();
        if (!(std::fabs(det) > 1e-12 * sxx.value() * sgg.value()))
            throw Error("the runs' N values cannot tell P from a " + std::string(overhead_model_name(model)) +
                        " overhead (add runs at more N)");
        fit.parallel_fraction = (sxy.value() * sgg.value() - sxg.value() * sgy.value()) / det;
        fit.coefficient = (sxg.value() * sxy.value() - sxx.value() * sgy.value()) / det;
    }
    Summation squares;
    for (const auto& p : used) {
        const double residual = p.speedup - fit.speedup(p.n);
        squares.add(residual * residual);
    }
    fit.rmse = std::sqrt(squares.value() / static_cast<double>(used.size()));
    return fit;
}

std::vector<ScaleRow> scaling_rows(ScalingLaw law, double parallel_fraction, const std::vector<long long>& counts,
                                   const std::vector<std::pair<long long, double>>& effective,
                                   const Overhead& overhead) {
    std::vector<long long> all = counts;
    for (const auto& [n, k] : effective) all.push_back(n);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    std::vector<ScaleRow> rows;
    rows.reserve(all.size());
    for (long long n : all) {
        ScaleRow row;
        row.n = n;
        const auto found =
            std::find_if(effective.begin(), effective.end(), [n](const auto& e) { return e.first == n; });
        row.effective = found != effective.end();
        row.parallel_speedup = row.effective ? found->second : static_cast<double>(n);
        row.overhead = row.effective ? 0 : overhead.at(n);
        row.speedup = law == ScalingLaw::amdahl ? strong_speedup(parallel_fraction, row.parallel_speedup, row.overhead)
                                                : weak_speedup(parallel_fraction, row.parallel_speedup, row.overhead);
        rows.push_back(row);
    }
    return rows;
}

double scaled_time(ScalingLaw law, double one_processor_time, const ScaleRow& row) {
    return law == ScalingLaw::amdahl ? one_processor_time / row.speedup : one_processor_time * (1 + row.overhead);
}

}  // namespace amdahl
