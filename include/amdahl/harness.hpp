#pragma once
/// \file What benchmark harnesses write (hyperfine's --export-json, google/benchmark's JSON,
/// pytest-benchmark's JSON), read as repeated runs of named benchmarks, and compared benchmark by
/// benchmark. Their benchmarks are alternatives, not phases of one job: each gets its own interval,
/// status and gates, and nothing is attributed to an end-to-end total.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/compare.hpp"
#include "amdahl/units.hpp"

namespace amdahl {

enum class Harness : std::uint8_t { hyperfine, google_benchmark, pytest_benchmark };

/// "hyperfine", "google-benchmark", "pytest-benchmark".
const char* harness_name(Harness harness);
/// The harness whose output `content` (the start of a file is enough) looks like; none for anything
/// else, amdahl's own profiles included.
std::optional<Harness> detect_harness(std::string_view content);

/// One benchmark's runs: repetitions (google/benchmark), runs (hyperfine) or rounds (pytest).
struct BenchmarkRuns {
    std::string name;
    std::vector<double> values;  ///< one a run: a time in `unit`, or a throughput (per second)
    Unit unit = Unit::ms;        ///< of times; throughputs are per second whatever it says
};

struct HarnessFile {
    Harness harness = Harness::hyperfine;
    std::string source;
    /// What the values are: "time" (wall time per run or per iteration), or a throughput counter:
    /// "items_per_second", "bytes_per_second" (google/benchmark), "ops" (pytest-benchmark).
    std::string metric = "time";
    bool higher_is_better = false;
    std::vector<BenchmarkRuns> benchmarks;
    std::vector<std::string> notes;  ///< what was left out or assumed
};

/// Reads a harness's JSON. `higher_is_better`: the throughput each benchmark reports instead of
/// its time (an error for a harness or a benchmark that reports none). Throws amdahl::Error naming
/// `source` and the JSON path.
HarnessFile read_harness(std::string_view content, const std::string& source, Harness harness, bool higher_is_better);

/// Reads `path` ("-": `stdin_stream`) as a harness's output when `forced` names the harness, or,
/// with `detect`, its first bytes look like one; none for anything else (a profile, a trace:
/// load_profile's to read; standard input unless forced). Throws amdahl::Error for a file that
/// cannot be read.
std::optional<HarnessFile> load_harness(const std::string& path, std::istream& stdin_stream,
                                        std::optional<Harness> forced, bool higher_is_better, bool detect = true);
/// "hyperfine", "google-benchmark" or "pytest-benchmark" as --input-format names them.
std::optional<Harness> parse_harness_name(std::string_view name);

/// One benchmark before and after. The change is after - before of the medians; its interval the
/// same rank interval as compare's end-to-end change (see ShiftInterval). `regression` fractions
/// are signed so that a positive value is worse: slower, or a lower throughput.
struct BenchmarkChange {
    std::string name;
    std::string before_name;                      ///< differs when renamed; empty when only in AFTER
    PhaseStatus status = PhaseStatus::unchanged;  ///< faster means better (a higher throughput too)
    Unit unit = Unit::ms;
    Spread before, after;   ///< medians and their intervals; all zero on the side that lacks it
    ShiftInterval shift;    ///< after - before
    double change = 0;      ///< after.median - before.median
    double regression = 0;  ///< change / before, negated for a throughput: > 0 is worse
    double regression_low = 0, regression_high = 0;  ///< its two-sided interval
    double regression_bound = 0;                     ///< its one-sided lower bound (what --fail-if-slower checks)
    double speedup = 1;  ///< > 1 is better: before / after for times, after / before for throughputs
    double speedup_low = 1, speedup_high = 1;
    double speedup_bound = 1;  ///< its one-sided lower bound (what --require-speedup checks)
};

struct BenchmarkComparison {
    Harness harness = Harness::hyperfine;
    std::string metric = "time";
    bool higher_is_better = false;
    bool paired = false;
    double noise = 0;
    std::vector<BenchmarkChange> rows;  ///< BEFORE's order, benchmarks only in AFTER last
    std::vector<std::string> notes;
};

/// Compares each benchmark of BEFORE's files with the same benchmark of AFTER's (after
/// `options.renames`); several files on a side add their runs. Throws amdahl::Error for sides of
/// different harnesses or metrics, a rename whose names are not benchmarks, and --paired with
/// unequal runs.
BenchmarkComparison compare_benchmarks(const std::vector<HarnessFile>& before, const std::vector<HarnessFile>& after,
                                       const CompareOptions& options);

/// The gates on each benchmark: slower (every benchmark; a regression past the threshold fails),
/// speedup (every benchmark must reach it), phase_slower (the benchmarks its selector picks).
/// phase_costs has no meaning without a total: an error. Throws amdahl::Error.
std::vector<GateResult> check_benchmark_gates(const BenchmarkComparison& comparison, const std::vector<Gate>& gates,
                                              const NumberStyle& style = {});

/// --sum: the benchmarks are steps of one job. Run i of a side becomes a profile whose phases are
/// the benchmarks' run i, for compare()'s end-to-end attribution. Throws amdahl::Error for a
/// throughput (they do not add up) or benchmarks with different run counts.
CompareSide summed_side(const std::vector<HarnessFile>& files, const char* label);

}  // namespace amdahl
