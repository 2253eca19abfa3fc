// Benchmark harnesses' JSON as runs of named benchmarks: hyperfine (--export-json), google/benchmark
// (--benchmark_format=json or --benchmark_out), pytest-benchmark (--benchmark-json). Formats, with
// their quirks, in tests/data/harness/PROVENANCE.md.
#include "amdahl/harness.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/json_fields.hpp"

namespace amdahl {

using detail::Json;

namespace {

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

std::string at(const std::string& source, const std::string& path) { return source + ": " + path; }

// A finite number >= 0 at `path` (a time or a throughput).
double measurement(const Json& value, const std::string& source, const std::string& path) {
    if (!value.is_number())
        throw Error(at(source, path), "expected a number (got " + std::string(value.type_name()) + ")");
    const double number = value.get<double>();
    if (!std::isfinite(number) || number < 0)
        throw Error(at(source, path), "expected a finite number >= 0 (got " + value.dump() + ")");
    return number;
}

// hyperfine's seconds in ms.
double in_ms(const Json& value, const std::string& source, const std::string& path) {
    const double ms = 1000 * measurement(value, source, path);
    if (!std::isfinite(ms)) throw Error(at(source, path), "is too large");
    return ms;
}

const Json& member(const Json& object, const char* key, const std::string& source, const std::string& path) {
    const auto found = object.find(key);
    if (found == object.end()) throw Error(at(source, path), std::string("has no \"") + key + "\"");
    return *found;
}

std::string text_of(const Json& object, const char* key, const std::string& source, const std::string& path) {
    const Json& value = member(object, key, source, path);
    if (!value.is_string()) throw Error(at(source, path + "." + key), "expected a string");
    return value.get<std::string>();
}

// hyperfine's "exit_codes" (one per run; null for a run killed by a signal, and absent before
// hyperfine 1.12): which runs failed. `runs` is the number of "times", or 0 when there are none.
std::vector<bool> failed_runs(const Json& result, std::size_t runs, const std::string& source,
                              const std::string& path) {
    const auto codes = result.find("exit_codes");
    if (codes == result.end()) return std::vector<bool>(runs, false);
    const std::string codes_path = path + ".exit_codes";
    if (!codes->is_array()) throw Error(at(source, codes_path), "expected an array");
    if (runs > 0 && codes->size() != runs)
        throw Error(at(source, codes_path), "has " + std::to_string(codes->size()) + " exit code" +
                                                (codes->size() == 1 ? "" : "s") + " for " + std::to_string(runs) +
                                                " times");
    std::vector<bool> failed;
    for (std::size_t r = 0; r < codes->size(); ++r) {
        const Json& code = (*codes)[r];
        if (!code.is_null() && !code.is_number_integer())
            throw Error(at(source, codes_path + "[" + std::to_string(r) + "]"), "expected a whole number or null");
        failed.push_back(code.is_null() || code.get<long long>() != 0);
    }
    return failed;
}

// The distinct non-zero exit codes of a result, for messages: "exit code 1, killed by a signal".
std::string exit_code_list(const Json& result) {
    std::set<long long> codes;
    bool signal = false;
    for (const Json& code : result.at("exit_codes")) {
        if (code.is_null())
            signal = true;
        else if (code.get<long long>() != 0)
            codes.insert(code.get<long long>());
    }
    std::string out;
    if (!codes.empty()) out = codes.size() == 1 ? "exit code " : "exit codes ";
    for (auto it = codes.begin(); it != codes.end(); ++it)
        out += (it == codes.begin() ? "" : ", ") + std::to_string(*it);
    if (signal) out += out.empty() ? "killed by a signal" : ", killed by a signal";
    return out;
}

// hyperfine: {"results": [{"command", "times": [seconds...], "mean", ...}]}; `times` is absent
// before hyperfine 1.? wrote it, and then only the mean is known.
void read_hyperfine(const Json& doc, HarnessFile& out, bool higher_is_better) {
    if (higher_is_better)
        throw Error("--higher-is-better",
                    out.source + " is hyperfine's output, which has times only (no throughput to compare)");
    const Json& results = member(doc, "results", out.source, "$");
    if (!results.is_array()) throw Error(at(out.source, "results"), "expected an array");
    for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string path = "results[" + std::to_string(i) + "]";
        const Json& result = results[i];
        if (!result.is_object()) throw Error(at(out.source, path), "expected an object");
        BenchmarkRuns runs;
        runs.name = text_of(result, "command", out.source, path);
        runs.unit = Unit::ms;
        const auto times = result.find("times");
        const bool each_run = times != result.end() && times->is_array() && !times->empty();
        const std::vector<bool> failed = failed_runs(result, each_run ? times->size() : 0, out.source, path);
        const std::size_t failures = static_cast<std::size_t>(std::count(failed.begin(), failed.end(), true));
        if (failures > 0 && (failures == failed.size() || !each_run))
            throw Error(at(out.source, path),
                        (each_run ? "every run" : "a run") + std::string(" of '") + runs.name + "' exited non-zero (" +
                            exit_code_list(result) +
                            "): a failed run's time is no timing of the command (if that exit is its normal "
                            "result, benchmark 'COMMAND || true')");
        if (each_run) {
            for (std::size_t r = 0; r < times->size(); ++r)
                if (!failed[r])
                    runs.values.push_back(in_ms((*times)[r], out.source, path + ".times[" + std::to_string(r) + "]"));
        } else {
            runs.values.push_back(in_ms(member(result, "mean", out.source, path), out.source, path + ".mean"));
            out.notes.push_back(out.source + ": '" + runs.name +
                                "' has no \"times\" (hyperfine before 1.11?): its mean is one run, with no interval");
        }
        if (failures > 0)
            out.notes.push_back(at(out.source, path) + ": " + std::to_string(failures) + " of " +
                                std::to_string(failed.size()) + " runs of '" + runs.name + "' exited non-zero (" +
                                exit_code_list(result) + "); they are left out");
        out.benchmarks.push_back(std::move(runs));
    }
}

// google/benchmark: {"context": {...}, "benchmarks": [{"name", "run_name", "run_type":
// "iteration" | "aggregate", "real_time", "time_unit", counters...}]}. Repetitions are the runs;
// aggregates (mean, median, stddev, cv) are skipped: they are summaries of those runs.
void read_google_benchmark(const Json& doc, HarnessFile& out, bool higher_is_better) {
    const Json& entries = member(doc, "benchmarks", out.source, "$");
    if (!entries.is_array()) throw Error(at(out.source, "benchmarks"), "expected an array");
    std::unordered_map<std::string, std::size_t> index;
    std::size_t aggregates = 0, failed = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string path = "benchmarks[" + std::to_string(i) + "]";
        const Json& entry = entries[i];
        if (!entry.is_object()) throw Error(at(out.source, path), "expected an object");
        // Optional fields of the wrong type are errors, never a crash or a guess.
        const auto flag = [&](const char* key) {
            const auto it = entry.find(key);
            if (it == entry.end() || it->is_null()) return false;
            if (!it->is_boolean()) throw Error(at(out.source, path + "." + key), "expected true or false");
            return it->get<bool>();
        };
        if (entry.contains("run_type") && text_of(entry, "run_type", out.source, path) == "aggregate") {
            ++aggregates;
            continue;
        }
        const bool error_occurred = flag("error_occurred");
        if (error_occurred || flag("skipped")) {
            ++failed;
            const std::string name = entry.contains("name") ? text_of(entry, "name", out.source, path) : "";
            out.notes.push_back(out.source + ": " + path + " ('" + name + "') " +
                                (error_occurred ? "failed" : "was skipped") +
                                (entry.contains("error_message") && entry["error_message"].is_string()
                                     ? ": " + entry["error_message"].get<std::string>()
                                     : std::string()) +
                                "; it is left out");
            continue;
        }
        const std::string name = entry.contains("run_name") ? text_of(entry, "run_name", out.source, path)
                                                            : text_of(entry, "name", out.source, path);
        double value = 0;
        Unit unit = Unit::ns;
        if (higher_is_better) {
            const char* counter = entry.contains("items_per_second")   ? "items_per_second"
                                  : entry.contains("bytes_per_second") ? "bytes_per_second"
                                                                       : nullptr;
            if (!counter)
                throw Error(at(out.source, path),
                            "'" + name +
                                "' reports no items_per_second or bytes_per_second, the throughput "
                                "--higher-is-better compares");
            if (out.metric == "time") out.metric = counter;
            if (out.metric != counter)
                throw Error(at(out.source, path), "'" + name + "' reports " + counter + ", others " + out.metric +
                                                      ": throughputs of two kinds do not compare");
            value = measurement(entry[counter], out.source, path + "." + counter);
        } else {
            const std::string unit_text = text_of(entry, "time_unit", out.source, path);
            const auto parsed = parse_unit(unit_text);
            if (!parsed) throw Error(at(out.source, path + ".time_unit"), "unknown unit '" + unit_text + "'");
            unit = *parsed;
            value = measurement(member(entry, "real_time", out.source, path), out.source, path + ".real_time");
        }
        const auto [it, inserted] = index.emplace(name, out.benchmarks.size());
        if (inserted) {
            BenchmarkRuns runs;
            runs.name = name;
            runs.unit = unit;
            out.benchmarks.push_back(std::move(runs));
        }
        BenchmarkRuns& runs = out.benchmarks[it->second];
        const double converted = convert(value, unit, runs.unit);  // a time in the first entry's unit
        if (!std::isfinite(converted))
            throw Error(at(out.source, path), "'" + name + "' is too large in the unit of its first repetition");
        runs.values.push_back(converted);
    }
    if (out.benchmarks.empty() && failed > 0)
        throw Error(out.source, "every repetition failed or was skipped (" + std::to_string(failed) +
                                    "): there is no run to compare");
    if (out.benchmarks.empty() && aggregates > 0)
        throw Error(out.source,
                    "has only aggregates (--benchmark_report_aggregates_only?): give the repetitions, "
                    "which are the runs compare needs");
    if (!higher_is_better && !out.benchmarks.empty())
        out.notes.push_back(out.source +
                            ": google/benchmark's real_time per iteration (wall time); each "
                            "repetition is a run, the aggregates are left out");
}

// pytest-benchmark: {"machine_info", "benchmarks": [{"name", "stats": {"data": [seconds per call,
// one a round], "median", "ops", ...}}]}. Without "data" (a saved file without
// --benchmark-save-data) only the summary is known: the median is one run.
void read_pytest_benchmark(const Json& doc, HarnessFile& out, bool higher_is_better) {
    const Json& entries = member(doc, "benchmarks", out.source, "$");
    if (!entries.is_array()) throw Error(at(out.source, "benchmarks"), "expected an array");
    if (higher_is_better) out.metric = "ops";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string path = "benchmarks[" + std::to_string(i) + "]";
        const Json& entry = entries[i];
        if (!entry.is_object()) throw Error(at(out.source, path), "expected an object");
        BenchmarkRuns runs;
        runs.name = entry.contains("fullname") ? text_of(entry, "fullname", out.source, path)
                                               : text_of(entry, "name", out.source, path);
        runs.unit = Unit::us;
        const Json& stats = member(entry, "stats", out.source, path);
        const auto data = stats.find("data");
        if (data != stats.end() && data->is_array() && !data->empty()) {
            for (std::size_t r = 0; r < data->size(); ++r) {
                const double seconds =
                    measurement((*data)[r], out.source, path + ".stats.data[" + std::to_string(r) + "]");
                if (higher_is_better && !(seconds > 0))
                    throw Error(at(out.source, path + ".stats.data[" + std::to_string(r) + "]"),
                                "a round of 0 s has no throughput");
                runs.values.push_back(higher_is_better ? 1 / seconds : seconds * 1e6);
                if (!std::isfinite(runs.values.back()))
                    throw Error(at(out.source, path + ".stats.data[" + std::to_string(r) + "]"), "is out of range");
            }
        } else {
            const double median =
                measurement(member(stats, "median", out.source, path + ".stats"), out.source, path + ".stats.median");
            if (higher_is_better && !(median > 0))
                throw Error(at(out.source, path + ".stats.median"), "a median of 0 s has no throughput");
            runs.values.push_back(higher_is_better ? 1 / median : median * 1e6);
            if (!std::isfinite(runs.values.back()))
                throw Error(at(out.source, path + ".stats.median"), "is out of range");
            out.notes.push_back(out.source + ": '" + runs.name +
                                "' has no per-round \"data\" (--benchmark-save-data): its median is one run, with "
                                "no interval");
        }
        out.benchmarks.push_back(std::move(runs));
    }
}

}  // namespace

const char* harness_name(Harness harness) {
    switch (harness) {
        case Harness::hyperfine:
            return "hyperfine";
        case Harness::google_benchmark:
            return "google-benchmark";
        case Harness::pytest_benchmark:
            return "pytest-benchmark";
    }
    return "?";
}

std::optional<Harness> detect_harness(std::string_view content) {
    // By the first key, as each harness writes it: hyperfine "results", google/benchmark "context",
    // pytest-benchmark "machine_info". A profile with a phase of such a name starts otherwise.
    const auto first = content.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || content[first] != '{') return std::nullopt;
    const auto quote = content.find_first_not_of(" \t\r\n", first + 1);
    if (quote == std::string_view::npos || content[quote] != '"') return std::nullopt;
    const auto end = content.find('"', quote + 1);
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view key = content.substr(quote + 1, end - quote - 1);
    if (key == "results") return Harness::hyperfine;  // no amdahl profile starts so
    if (key == "context" && has(content, "\"benchmarks\"")) return Harness::google_benchmark;
    if (key == "machine_info" && has(content, "\"benchmarks\"")) return Harness::pytest_benchmark;
    return std::nullopt;
}

HarnessFile read_harness(std::string_view content, const std::string& source, Harness harness, bool higher_is_better) {
    HarnessFile out;
    out.harness = harness;
    out.source = source;
    out.higher_is_better = higher_is_better;
    Json doc;
    try {
        doc = Json::parse(content);
    } catch (const Json::exception& e) {
        throw Error(source, std::string("not valid JSON (") + harness_name(harness) + " output?): " + e.what());
    }
    if (!doc.is_object()) throw Error(source, "expected a JSON object");
    if (doc.contains("phases"))
        throw Error(source, std::string("has \"phases\", as an amdahl profile does, beside ") + harness_name(harness) +
                                "'s results: one of them would be left out; keep one");
    switch (harness) {
        case Harness::hyperfine:
            read_hyperfine(doc, out, higher_is_better);
            break;
        case Harness::google_benchmark:
            read_google_benchmark(doc, out, higher_is_better);
            break;
        case Harness::pytest_benchmark:
            read_pytest_benchmark(doc, out, higher_is_better);
            break;
    }
    if (out.benchmarks.empty()) throw Error(source, std::string("has no benchmarks (") + harness_name(harness) + ")");
    // Times in the unit that reads best: the largest in which the median is at least 1.
    if (!higher_is_better) {
        for (BenchmarkRuns& runs : out.benchmarks) {
            std::vector<double> sorted = runs.values;
            std::sort(sorted.begin(), sorted.end());
            const double median = sorted[sorted.size() / 2];
            Unit best = Unit::ns;
            for (const Unit unit : {Unit::ns, Unit::us, Unit::ms, Unit::s})
                if (convert(median, runs.unit, unit) >= 1) best = unit;
            for (double& value : runs.values) value = convert(value, runs.unit, best);
            runs.unit = best;
        }
    }
    // google/benchmark's repetitions share a name; hyperfine's commands and pytest's tests do not.
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < out.benchmarks.size(); ++i) {
        const auto [first, inserted] = seen.emplace(out.benchmarks[i].name, i);
        if (!inserted && harness != Harness::google_benchmark)
            throw Error(source, std::string(harness == Harness::hyperfine ? "results" : "benchmarks") + "[" +
                                    std::to_string(i) + "]: a second benchmark named '" +
                                    printable(out.benchmarks[i].name) + "' (the first is [" +
                                    std::to_string(first->second) + "])");
    }
    return out;
}

std::optional<Harness> parse_harness_name(std::string_view name) {
    for (const Harness harness : {Harness::hyperfine, Harness::google_benchmark, Harness::pytest_benchmark})
        if (name == harness_name(harness)) return harness;
    return std::nullopt;
}

std::optional<HarnessFile> load_harness(const std::string& path, std::istream& stdin_stream,
                                        std::optional<Harness> forced, bool higher_is_better, bool detect) {
    if (!forced && (!detect || path == "-")) return std::nullopt;  // standard input is read once: by load_profile
    std::ifstream file;
    std::istream* in = &stdin_stream;
    if (path != "-") {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) return std::nullopt;
        file.open(path, std::ios::binary);
        if (!file) return std::nullopt;  // load_profile says why
        in = &file;
    }
    constexpr std::size_t sniff = 64 * 1024;
    std::string content(sniff, '\0');
    in->read(content.data(), static_cast<std::streamsize>(sniff));
    content.resize(static_cast<std::size_t>(in->gcount()));
    const std::optional<Harness> harness = forced ? forced : detect_harness(content);
    if (!harness) return std::nullopt;
    std::ostringstream rest;
    rest << in->rdbuf();
    if (in->bad()) throw Error(path, "read error");
    content += std::move(rest).str();
    return read_harness(content, path == "-" ? "<stdin>" : path, *harness, higher_is_better);
}

}  // namespace amdahl
