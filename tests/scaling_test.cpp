// Parallel scaling math: the lesson's numbers, Gustafson, the best N against a brute-force scan,
// N lists, Karp-Flatt and the least-squares fit on data generated here from known parameters.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "amdahl/error.hpp"
#include "amdahl/scaling.hpp"

using namespace amdahl;
using Catch::Matchers::Contains;

namespace {

// The models written out here, independently of src/scaling.cpp.
double expected_overhead(Overhead::Model model, double c, double n) {
    if (n <= 1) return 0;
    switch (model) {
        case Overhead::Model::linear:
            return c * n;
        case Overhead::Model::log:
            return c * std::log(n) / std::log(2.0);
        case Overhead::Model::sqrt:
            return c * std::sqrt(n);
        case Overhead::Model::constant:
            return c;
        default:
            return 0;
    }
}

double expected_strong(double p, double n, double overhead) { return 1 / ((1 - p) + p / n + overhead); }
double expected_weak(double p, double n, double overhead) { return ((1 - p) + p * n) / (1 + overhead); }

Overhead model_overhead(Overhead::Model model, double c) {
    Overhead o;
    o.model = model;
    o.coefficient = c;
    return o;
}

// The largest speedup over every N in 1..max_n, by visiting them all.
BestProcessorCount brute_force(ScalingLaw law, double p, const Overhead& overhead, long long max_n) {
    BestProcessorCount best{1, scaling_speedup(law, p, 1, overhead)};
    for (long long n = 2; n <= max_n; ++n) {
        const double s = scaling_speedup(law, p, n, overhead);
        if (s > best.speedup) best = {n, s};
    }
    return best;
}

std::vector<ScalingPoint> generated(double p, Overhead::Model model, double c, std::vector<long long> counts) {
    std::vector<ScalingPoint> points;
    for (long long n : counts) {
        const auto count = static_cast<double>(n);
        points.push_back({n, expected_strong(p, count, expected_overhead(model, c, count))});
    }
    return points;
}

}  // namespace

TEST_CASE("the lesson's strong-scaling table for P = 0.95", "[scaling][seeds]") {
    // S(N) = 1 / (0.05 + 0.95 / N): 4.17x, 6.90x, 16.81x; ceiling 20x.
    CHECK(strong_speedup(0.95, 5) == Approx(1 / 0.24));
    CHECK(strong_speedup(0.95, 10) == Approx(1 / 0.145));
    CHECK(strong_speedup(0.95, 100) == Approx(1 / 0.0595));
    CHECK(std::round(strong_speedup(0.95, 5) * 100) / 100 == Approx(4.17));
    CHECK(std::round(strong_speedup(0.95, 10) * 100) / 100 == Approx(6.90));
    CHECK(std::round(strong_speedup(0.95, 100) * 100) / 100 == Approx(16.81));
    // No overhead: Amdahl's speedup to the last digit (1 / (1 / S) lost it: 1.9999999999999998e15).
    CHECK(strong_speedup(1, 2e15) == 2e15);
    CHECK(strong_speedup(0.5, 2, 0.25) == Approx(1 / (0.75 + 0.25)));
    // Parallelization is the special case k = N of the general law (f = 0.6, k = 4 gives 1.82x).
    CHECK(strong_speedup(0.6, 4) == Approx(1 / 0.55));
    const Overhead none;
    CHECK(scaling_speedup(ScalingLaw::amdahl, 0.95, 10, none) == Approx(1 / 0.145));
    // The lesson's all-reduce example: 8 GPUs that give only 5x on the parallel part.
    CHECK(strong_speedup(0.95, 5) < strong_speedup(0.95, 8));
}

TEST_CASE("Gustafson's weak scaling: S = (1 - P) + P N", "[scaling][seeds]") {
    CHECK(weak_speedup(0.95, 100) == Approx(95.05));
    CHECK(weak_speedup(0.95, 1) == Approx(1));
    CHECK(scaling_speedup(ScalingLaw::gustafson, 0.95, 100, Overhead{}) == Approx(95.05));
    // With overhead the N-processor run stretches to 1 + O(N).
    CHECK(weak_speedup(0.95, 100, 0.1) == Approx(95.05 / 1.1));
    for (auto model :
         {Overhead::Model::linear, Overhead::Model::log, Overhead::Model::sqrt, Overhead::Model::constant}) {
        CHECK(scaling_speedup(ScalingLaw::gustafson, 0.9, 64, model_overhead(model, 0.01)) ==
              Approx(expected_weak(0.9, 64, expected_overhead(model, 0.01, 64))));
        CHECK(scaling_speedup(ScalingLaw::amdahl, 0.9, 64, model_overhead(model, 0.01)) ==
              Approx(expected_strong(0.9, 64, expected_overhead(model, 0.01, 64))));
    }
}

TEST_CASE("overhead models are 0 at N = 1 and follow their formula above it", "[scaling]") {
    for (auto model :
         {Overhead::Model::linear, Overhead::Model::log, Overhead::Model::sqrt, Overhead::Model::constant}) {
        INFO(overhead_model_name(model));
        const Overhead o = model_overhead(model, 0.01);
        CHECK(o.at(1) == 0);
        for (long long n : {2LL, 3LL, 64LL, 1000LL})
            CHECK(o.at(n) == Approx(expected_overhead(model, 0.01, static_cast<double>(n))));
    }
    CHECK(scaling_speedup(ScalingLaw::amdahl, 0.95, 1, model_overhead(Overhead::Model::linear, 0.5)) == Approx(1));
}

TEST_CASE("a measured overhead is linear between its points", "[scaling]") {
    Overhead o;
    o.model = Overhead::Model::measured;
    o.points = {{1, 0.0}, {2, 0.01}, {8, 0.04}};
    CHECK(o.at(1) == 0);
    CHECK(o.at(2) == Approx(0.01));
    CHECK(o.at(4) == Approx(0.02));
    CHECK(o.at(8) == Approx(0.04));
    CHECK(o.max_n() == 8);
    CHECK(std::isnan(o.at(9)));
}

TEST_CASE("parse_overhead reads MODEL:C", "[scaling]") {
    CHECK(parse_overhead("log:0.01").model == Overhead::Model::log);
    CHECK(parse_overhead("log:0.01").coefficient == Approx(0.01));
    CHECK(parse_overhead("linear:1e-4").coefficient == Approx(1e-4));
    CHECK(parse_overhead("sqrt:0").model == Overhead::Model::sqrt);
    CHECK(parse_overhead("const:2%").coefficient == Approx(0.02));
    CHECK(parse_overhead("constant:0.1").model == Overhead::Model::constant);
    CHECK_THROWS_WITH(parse_overhead("lin:0.1"), Contains("unknown overhead model 'lin'"));
    CHECK_THROWS_WITH(parse_overhead("log"), Contains("log needs a coefficient: log:C"));
    CHECK_THROWS_WITH(parse_overhead("log:-1"), Contains("must be a number >= 0"));
    CHECK_THROWS_WITH(parse_overhead("log:3ms"), Contains("got '3ms'"));
}

TEST_CASE("best N with log overhead equals a brute-force scan", "[scaling][best]") {
    // P = 0.95, c = 0.005: T(N) = 0.05 + 0.95 / N + 0.005 log2 N is least near N = P ln 2 / c = 131.7.
    const Overhead log = model_overhead(Overhead::Model::log, 0.005);
    const auto best = best_processor_count(ScalingLaw::amdahl, 0.95, log, 1024);
    BestProcessorCount scan{1, 1};
    for (long long n = 1; n <= 1024; ++n) {
        const auto count = static_cast<double>(n);
        const double s = expected_strong(0.95, count, 0.005 * std::log2(count));
        if (s > scan.speedup) scan = {n, s};
    }
    CHECK(scan.n == 132);
    CHECK(best.n == scan.n);
    CHECK(best.speedup == Approx(scan.speedup));
    // Capped below the peak, the best is the largest N asked for.
    CHECK(best_processor_count(ScalingLaw::amdahl, 0.95, log, 100).n == 100);
}

TEST_CASE("best N equals brute force for every model, both laws, random parameters", "[scaling][best]") {
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> fraction(0.0, 1.0), exponent(-6, -0.5), unit(0.0, 1.0);
    std::uniform_int_distribution<long long> max_n(1, 3000);
    const Overhead::Model models[] = {Overhead::Model::none, Overhead::Model::linear,   Overhead::Model::log,
                                      Overhead::Model::sqrt, Overhead::Model::constant, Overhead::Model::measured};
    int checked = 0;
    for (int round = 0; round < 600; ++round) {
        const double p = round % 10 == 0 ? 1.0 : fraction(rng);
        const Overhead::Model model = models[round % 6];
        Overhead o = model_overhead(model, std::pow(10.0, exponent(rng)));
        long long limit = max_n(rng);
        if (model == Overhead::Model::measured) {
            // Measured overheads go up and down, as real ones do.
            o.points = {{1, 0.0}};
            long long n = 1;
            std::uniform_int_distribution<long long> gap(1, 200);
            while (n < limit) {
                n += gap(rng);
                o.points.emplace_back(n, unit(rng) * 0.2);
            }
            limit = std::min(limit, o.max_n());
        }
        for (ScalingLaw law : {ScalingLaw::amdahl, ScalingLaw::gustafson}) {
            INFO("round " << round << " model " << overhead_model_name(model) << " P " << p << " c " << o.coefficient
                          << " max " << limit << (law == ScalingLaw::amdahl ? " strong" : " weak"));
            const auto best = best_processor_count(law, p, o, limit);
            const auto scan = brute_force(law, p, o, limit);
            REQUIRE(best.speedup == Approx(scan.speedup).epsilon(1e-12));
            CHECK(best.n >= 1);
            CHECK(best.n <= limit);
            CHECK(scaling_speedup(law, p, best.n, o) == Approx(scan.speedup).epsilon(1e-12));
            ++checked;
        }
    }
    CHECK(checked == 1200);
}

TEST_CASE("N lists: values, doubling ranges, stepped ranges", "[scaling][nlist]") {
    using V = std::vector<long long>;
    CHECK(parse_processor_counts("5,10,100") == V{5, 10, 100});
    CHECK(parse_processor_counts("100, 5") == V{5, 100});
    CHECK(parse_processor_counts("1..1024") == V{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024});
    CHECK(parse_processor_counts("3..100") == V{3, 6, 12, 24, 48, 96, 100});  // the end, though no step reaches it
    CHECK(parse_processor_counts("1:64:8") == V{1, 9, 17, 25, 33, 41, 49, 57, 64});
    CHECK(parse_processor_counts("1:5") == V{1, 2, 3, 4, 5});
    CHECK(parse_processor_counts("1..8,12,16:64:16,8") == V{1, 2, 4, 8, 12, 16, 32, 48, 64});
    CHECK(parse_processor_counts("7..7") == V{7});
    CHECK(parse_processor_counts("1:100000").size() == 100000);
    CHECK(parse_processor_counts("1000000000000") == V{1'000'000'000'000});
}

TEST_CASE("N lists: every malformed input is an error that says why", "[scaling][nlist]") {
    CHECK_THROWS_WITH(parse_processor_counts(""), Contains("got an empty list"));
    CHECK_THROWS_WITH(parse_processor_counts("5,,10"), Contains("empty item in '5,,10'"));
    CHECK_THROWS_WITH(parse_processor_counts("5,"), Contains("empty item"));
    CHECK_THROWS_WITH(parse_processor_counts("0"), Contains("N must be at least 1 (got '0')"));
    CHECK_THROWS_WITH(parse_processor_counts("-4"), Contains("N must be at least 1 (got '-4')"));
    CHECK_THROWS_WITH(parse_processor_counts("2.5"), Contains("N must be a whole number (got '2.5')"));
    CHECK_THROWS_WITH(parse_processor_counts("four"), Contains("'four' is not a processor count"));
    CHECK_THROWS_WITH(parse_processor_counts("2000000000000"), Contains("N must be at most 1,000,000,000,000"));
    CHECK_THROWS_WITH(parse_processor_counts("64..8"), Contains("range '64..8' runs backwards"));
    CHECK_THROWS_WITH(parse_processor_counts("64:8"), Contains("range '64:8' runs backwards"));
    CHECK_THROWS_WITH(parse_processor_counts("1.."), Contains("'1..' is not a range"));
    CHECK_THROWS_WITH(parse_processor_counts("..8"), Contains("'..8' is not a range"));
    CHECK_THROWS_WITH(parse_processor_counts("1:2:3:4"), Contains("'1:2:3:4' is not a range"));
    CHECK_THROWS_WITH(parse_processor_counts("1:64:0"), Contains("the step must be at least 1 (got '0')"));
    CHECK_THROWS_WITH(parse_processor_counts("1:64:"), Contains("'1:64:' is not a range"));
    CHECK_THROWS_WITH(parse_processor_counts("1:100001"),
                      Contains("expands to 100,001 processor counts; at most 100,000"));
    CHECK_THROWS_WITH(parse_processor_counts("1:1000000000000"), Contains("at most 100,000"));
    CHECK_THROWS_WITH(parse_processor_counts("1:60000,60001:120000"), Contains("at most 100,000"));
}

TEST_CASE("Karp-Flatt recovers the serial fraction of data from a known P", "[scaling][fit]") {
    const auto points = generated(0.9, Overhead::Model::none, 0, {1, 2, 4, 8, 16, 32, 64});
    for (const auto& point : points) {
        if (point.n > 1) CHECK(karp_flatt(point.speedup, point.n) == Approx(0.1));
    }
    const auto trend = karp_flatt_trend(points);
    CHECK(trend.trend == SerialTrend::flat);
    CHECK(trend.first == Approx(0.1));
    CHECK(trend.last == Approx(0.1));
    const ScalingFit fit = fit_scaling(points, Overhead::Model::none);
    CHECK(fit.parallel_fraction == Approx(0.9).epsilon(1e-12));
    CHECK(fit.rmse == Approx(0).margin(1e-12));
    CHECK(fit.used == 6);
    CHECK(fit.speedup(1024) == Approx(expected_strong(0.9, 1024, 0)));
}

TEST_CASE("Karp-Flatt rises on data from a known overhead, and the fit recovers P and c", "[scaling][fit]") {
    for (auto model :
         {Overhead::Model::log, Overhead::Model::linear, Overhead::Model::sqrt, Overhead::Model::constant}) {
        INFO(overhead_model_name(model));
        const double c = model == Overhead::Model::linear ? 0.0005 : 0.005;
        const auto points = generated(0.95, model, c, {1, 2, 4, 8, 16, 32, 64});
        double previous = 0;
        for (const auto& point : points) {
            if (point.n < 2) continue;
            const double e = karp_flatt(point.speedup, point.n);
            // e = (1 - P) + c g(N) / (1 - 1/N) rises with N (sqrt dips from N = 2 to 4 first).
            if (model == Overhead::Model::log || model == Overhead::Model::linear) CHECK(e > previous);
            previous = e;
        }
        if (model != Overhead::Model::constant) CHECK(karp_flatt_trend(points).trend == SerialTrend::rising);
        const ScalingFit fit = fit_scaling(points, model);
        CHECK(fit.parallel_fraction == Approx(0.95).epsilon(1e-9));
        CHECK(fit.coefficient == Approx(c).epsilon(1e-9));
        CHECK(fit.rmse == Approx(0).margin(1e-9));
        // Without the overhead term the fit is worse and P comes out low.
        const ScalingFit plain = fit_scaling(points, Overhead::Model::none);
        CHECK(plain.parallel_fraction < 0.95);
        CHECK(plain.rmse > 0.01);
    }
}

TEST_CASE("Karp-Flatt falls for superlinear runs", "[scaling][fit]") {
    // e(N) = 0.1 / log2(2N): invert 1/S = e (1 - 1/N) + 1/N.
    std::vector<ScalingPoint> points;
    for (long long n : {2, 4, 8, 16, 32}) {
        const double count = static_cast<double>(n);
        const double e = 0.1 / std::log2(2 * count);
        points.push_back({n, 1 / (e * (1 - 1 / count) + 1 / count)});
    }
    CHECK(karp_flatt_trend(points).trend == SerialTrend::falling);
    CHECK(karp_flatt_trend({{1, 1}, {4, 3}}).trend == SerialTrend::unknown);
}

TEST_CASE("the fit refuses data it cannot fit", "[scaling][fit]") {
    CHECK_THROWS_WITH(fit_scaling({{1, 1}}, Overhead::Model::none), Contains("no run with N > 1"));
    CHECK_THROWS_WITH(fit_scaling({{1, 1}, {4, 3}}, Overhead::Model::log),
                      Contains("fitting P and a log overhead needs runs at two or more N > 1 (got 1)"));
    CHECK_NOTHROW(fit_scaling({{2, 1.8}, {4, 3}}, Overhead::Model::log));
}
