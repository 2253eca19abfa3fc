#pragma once
/// \file Parallel scaling: Amdahl's law with k = N (strong scaling), Gustafson's law (weak
/// scaling), a per-N overhead O(N), the best processor count, and reading the serial fraction
/// back from measured speedups (Karp-Flatt and least squares). Pure math on validated values.
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace amdahl {

/// Which question a speedup answers.
enum class ScalingLaw {
    amdahl,     ///< strong scaling: a fixed problem on N processors; how much sooner does it finish?
    gustafson,  ///< weak scaling: the problem grows with N; how much more work in the same time?
};

/// The largest processor count amdahl accepts (10^12): every count is exact in a double.
inline constexpr long long max_processor_count = 1'000'000'000'000;
/// The most points an N list may expand to.
inline constexpr std::size_t max_processor_points = 100'000;

/// O(N): extra time on N processors (synchronization, collectives, stragglers) in units of the
/// one-processor time. Every model is 0 at N = 1: the one-processor run is the baseline and has
/// nobody to wait for.
struct Overhead {
    enum class Model { none, linear, log, sqrt, constant, measured };
    Model model = Model::none;
    double coefficient = 0;  ///< c, >= 0 (parametric models)
    /// Measured (N, O(N)) points, sorted by N, starting at (1, 0); between them O is linear in N.
    std::vector<std::pair<long long, double>> points;

    /// O(N). A measured model is defined from N = 1 to its last point only.
    double at(long long n) const;
    /// The largest N this overhead is defined for (the last measured point; else unbounded).
    long long max_n() const;
};

/// g(N) of a parametric model, so that O(N) = c * g(N): linear N, log log2 N, sqrt sqrt(N),
/// constant 1; 0 at N = 1 for every model.
double overhead_shape(Overhead::Model model, long long n);

/// "linear", "log", "sqrt", "const"; the name of Model::none is "none", of measured "measured".
std::string_view overhead_model_name(Overhead::Model model);

/// Parses a model name as written after --overhead: linear, log, sqrt, const (or constant).
/// Returns Model::none when `name` is none of them.
Overhead::Model parse_overhead_model(std::string_view name);

/// Parses "log:0.01", "linear:1e-4", "const:2%". Throws amdahl::Error (no location) for an
/// unknown model, a missing coefficient, or a coefficient that is not a finite number >= 0.
Overhead parse_overhead(std::string_view text);

/// Strong scaling, Amdahl with overhead: S = 1 / ((1 - P) + P / k + O), where k is the speedup
/// of the parallel part (N when it divides perfectly) and O the overhead at that N.
double strong_speedup(double parallel_fraction, double local_speedup, double overhead = 0);

/// Weak scaling, Gustafson with overhead: S = ((1 - P) + P * k) / (1 + O). Normalizing the run
/// on N processors to 1 = (1 - P) + P, one processor would need (1 - P) + P * N for the same
/// work; the overhead stretches the N-processor run to 1 + O.
double weak_speedup(double parallel_fraction, double local_speedup, double overhead = 0);

/// The speedup on N processors under `law`, with k = N and O = overhead.at(N).
double scaling_speedup(ScalingLaw law, double parallel_fraction, long long n, const Overhead& overhead);

struct BestProcessorCount {
    long long n = 1;
    double speedup = 1;
};

/// The N in 1..max_n with the largest speedup (the smallest such N on a tie). Exact over the
/// integers without visiting them all: for every model the speedup is unimodal between the
/// points where its formula changes, so only those points and the integers around each
/// stationary point can win. `max_n` must be within overhead.max_n().
BestProcessorCount best_processor_count(ScalingLaw law, double parallel_fraction, const Overhead& overhead,
                                        long long max_n);

/// Parses an N list: "5,10,100", "1..1024" (doubling from the start while below the end),
/// "1:64:8" (start:stop:step; "a:b" steps by 1), or a mix ("1..8,12,16:64:16"). A range always
/// ends at its end, even where its steps miss it: "1..1000" is 1, 2, ... 512, 1000; "1:64:8" is
/// 1, 9, ... 57, 64. Returns the counts sorted, without repeats. Throws amdahl::Error (no
/// location) for an empty list or item, N < 1, a fraction, N above max_processor_count, a
/// malformed or empty range, and more than max_processor_points counts.
std::vector<long long> parse_processor_counts(std::string_view text);

/// A measured or given speedup at N processors.
struct ScalingPoint {
    long long n = 1;
    double speedup = 1;
};

/// Karp-Flatt experimentally determined serial fraction, for N > 1:
/// e(N) = (1/S - 1/N) / (1 - 1/N). Constant at 1 - P when Amdahl's law holds exactly.
double karp_flatt(double speedup, long long n);

/// superlinear: e < 0 at some N, a speedup above N, which Amdahl's law cannot produce.
enum class SerialTrend { unknown, flat, rising, falling, superlinear };

struct KarpFlattTrend {
    SerialTrend trend = SerialTrend::unknown;  ///< unknown with fewer than two N > 1
    double first = 0;                          ///< e at the smallest N > 1
    double last = 0;                           ///< e at the largest N
    double change = 0;                         ///< rise of the least-squares line of e on log2 N across the data
};

/// Reads e(N) across the points with N > 1: rising when the least-squares line of e on log2 N
/// climbs by more than 10% of the mean e (and more than 0.001) over the data, falling when it
/// drops as much, flat otherwise; superlinear when e < 0 at any N (whatever its slope). Rising e is
/// overhead growing with N; flat e is the serial part.
KarpFlattTrend karp_flatt_trend(const std::vector<ScalingPoint>& points);

struct ScalingFit {
    Overhead::Model model = Overhead::Model::none;  ///< none: pure Amdahl
    double parallel_fraction = 0;                   ///< P
    double coefficient = 0;                         ///< c of the overhead model (0 for none)
    double rmse = 0;                                ///< root mean square of the speedup residuals
    std::size_t used = 0;                           ///< points with N > 1 (the N = 1 run is the baseline)

    /// The fitted model's speedup at N.
    double speedup(long long n) const;
    /// The fitted model as an Overhead (Model::none when pure Amdahl).
    Overhead overhead() const;
};

/// Least squares on 1/S over the points with N > 1. The model 1/S = 1 - P (1 - 1/N) + c g(N)
/// is linear in P (and c), so the fit is closed-form: P = sum(x y) / sum(x^2) with
/// x = 1 - 1/N, y = 1 - 1/S; with an overhead model, the 2x2 normal equations in (P, c).
/// Throws amdahl::Error (no location) when no point has N > 1, when an overhead model has fewer
/// than two N > 1, or when the N values cannot tell P from c.
ScalingFit fit_scaling(const std::vector<ScalingPoint>& points, Overhead::Model model);

/// One processor count in a scaling table.
struct ScaleRow {
    long long n = 1;
    double parallel_speedup = 1;  ///< k: N, or the measured --effective value at N
    bool effective = false;       ///< k was measured (--effective), not N
    double overhead = 0;          ///< O(N), in units of the one-processor time
    double speedup = 1;           ///< end-to-end S at N
    double efficiency() const { return speedup / static_cast<double>(n); }
};

/// The table of `law` at each count in `counts`, plus each (N, k) of `effective` (a measured
/// speedup k of the parallel part on N processors, which replaces k = N and the overhead there).
std::vector<ScaleRow> scaling_rows(ScalingLaw law, double parallel_fraction, const std::vector<long long>& counts,
                                   const std::vector<std::pair<long long, double>>& effective,
                                   const Overhead& overhead);

/// The time on N processors: strong scaling runs the fixed job in T / S; weak scaling runs the
/// N-times-larger job in T (1 + O(N)).
double scaled_time(ScalingLaw law, double one_processor_time, const ScaleRow& row);

}  // namespace amdahl
