// amdahl scale -p P -n LIST: speedup on N processors (Amdahl's strong scaling or, with --weak,
// Gustafson's weak scaling), with an optional overhead O(N) and the N where speedup peaks.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/measurements.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/scaling.hpp"
#include "amdahl/speedup.hpp"
#include "cli/commands.hpp"
#include "cli/uncertainty_options.hpp"
#include "report/numbers.hpp"

namespace amdahl::cli {

namespace {

struct ScaleOptions {
    std::string profile;
    std::string input_format;
    std::vector<std::string> parallel;
    std::string fraction;
    std::vector<std::string> counts;
    std::string time;
    bool weak = false;
    std::string overhead;
    std::vector<std::string> effective;
    OutputOptions output;
};

// Where P came from, for the summary.
struct ParallelPart {
    double fraction = 0;
    std::optional<Profile> profile;
    double parallel_time = 0;
};

double parse_parallel_fraction(const std::string& text) {
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        throw Error("-p", "expected a parallel fraction such as 0.95 or 95% (got '" + printable(text) + "')");
    }
    const double p = q.percent ? percent_to_fraction(q.value) : q.value;
    if (q.unit || p < 0 || p > 1)
        throw Error("-p", "must be between 0 and 1 (or 0% and 100%) (got '" + printable(text) + "')");
    return p;
}

ParallelPart parallel_part(const ScaleOptions& options, Context& context) {
    const bool has_p = !options.fraction.empty(), has_profile = !options.profile.empty();
    double number_check = 0;
    if (!has_p && !has_profile)
        throw Error("scale", "give the parallel fraction with -p (0.95 or 95%), or a PROFILE and --parallel SELECTOR");
    if (has_profile && parse_double(options.profile, number_check))
        throw Error("scale", "'" + printable(options.profile) +
                                 "' is not a profile; processor counts go after -n, "
                                 "separated by commas: -n 5,10,100");
    if (has_p && has_profile)
        throw Error("-p", "give -p or a PROFILE, not both (with a profile, --parallel picks the parallel phases)");
    ParallelPart part;
    if (has_p) {
        if (!options.parallel.empty())
            throw Error("--parallel", "picks the parallel phases of a PROFILE; give a profile, or only -p");
        part.fraction = parse_parallel_fraction(options.fraction);
        return part;
    }
    if (options.parallel.empty())
        throw Error("--parallel",
                    "a PROFILE needs --parallel SELECTOR to say which phases run in parallel "
                    "(a phase name, a glob, kind:KIND or *)");
    ProfileOptions profile_options;
    profile_options.path = options.profile;
    profile_options.input_format = options.input_format;
    Profile profile = load_profile(profile_options, context);
    refuse_time_spreads(profile, "scale");
    std::vector<bool> picked(profile.phases.size(), false);
    for (const auto& text : options.parallel) {
        const Selector selector = parse_option("--parallel", parse_selector, text);
        try {
            for (std::size_t i : select_phases(profile, selector)) picked[i] = true;
        } catch (const Error& e) {
            throw Error(profile.source, e.message());
        }
    }
    Summation parallel;
    for (std::size_t i = 0; i < profile.phases.size(); ++i)
        if (picked[i]) parallel.add(profile.phases[i].time);
    const double total = profile.total();
    if (!(total > 0)) throw Error(profile.source, "the phases add up to no time: there is no fraction to take");
    part.parallel_time = parallel.value();
    part.fraction = std::min(part.parallel_time / total, 1.0);
    part.profile = std::move(profile);
    return part;
}

// "120,000"
std::string grouped(std::size_t count) {
    std::string text = std::to_string(count);
    for (std::size_t pos = text.size(); pos > 3;) {
        pos -= 3;
        text.insert(pos, ",");
    }
    return text;
}

std::vector<long long> processor_counts(const std::vector<std::string>& lists) {
    std::vector<long long> counts;
    for (const auto& text : lists.empty() ? std::vector<std::string>{"1..1024"} : lists) {
        const auto parsed = parse_option("-n", parse_processor_counts, text);
        counts.insert(counts.end(), parsed.begin(), parsed.end());
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    if (counts.size() > max_processor_points)
        throw Error("-n", fmt::format("the lists give {} processor counts; at most {} are allowed",
                                      grouped(counts.size()), grouped(max_processor_points)));
    return counts;
}

std::optional<std::pair<double, Unit>> baseline(const ScaleOptions& options, const ParallelPart& part) {
    if (!options.time.empty()) {
        Quantity q;
        bool ok = true;
        try {
            q = parse_quantity(options.time);
        } catch (const Error&) {
            ok = false;
        }
        if (!ok || q.percent || !(q.value > 0))
            throw Error("--time", "expected a time > 0 such as 900ms (got '" + printable(options.time) + "')");
        return std::pair{q.value, q.unit.value_or(Unit::ms)};
    }
    if (part.profile) return std::pair{part.profile->total(), part.profile->unit};
    return std::nullopt;
}

bool looks_like_path(const std::string& text) {
    if (text.find(':') != std::string::npos) return false;
    if (text.find('/') != std::string::npos || text == "-") return true;
    const auto dot = text.rfind('.');
    return dot != std::string::npos && dot + 1 < text.size() && std::isalpha(static_cast<unsigned char>(text[dot + 1]));
}

// --overhead: MODEL:C, or file:PATH (or a bare path) of measured "n,overhead" rows.
Overhead parse_overhead_option(const std::string& text, std::string& source, Context& context) {
    if (text.starts_with("file:") || looks_like_path(text)) {
        source = text.starts_with("file:") ? text.substr(5) : text;
        try {
            return measured_overhead(load_measurements(source, context.in, {MeasuredQuantity::overhead}));
        } catch (const Error& e) {
            throw Error("--overhead", e.what());
        }
    }
    return parse_option("--overhead", parse_overhead, text);
}

// --effective N=K: the measured speedup K of the parallel part on N processors.
std::vector<std::pair<long long, double>> parse_effective(const std::vector<std::string>& specs, Context& context) {
    std::map<long long, double> out;
    for (const auto& text : specs) {
        const auto equals = text.find('=');
        const std::string usage = "expected N=K, such as 8=5: on 8 processors the parallel part runs 5x faster (got '" +
                                  printable(text) + "')";
        if (equals == std::string::npos) throw Error("--effective", usage);
        const std::string n_text = text.substr(0, equals), k_text = text.substr(equals + 1);
        double n = 0;
        if (!parse_double(n_text, n) || n < 1 || n != std::floor(n) || n > static_cast<double>(max_processor_count))
            throw Error("--effective",
                        "N must be a whole number >= 1 (got '" + printable(n_text) + "' in '" + printable(text) + "')");
        Factor k;
        try {
            k = parse_factor(k_text);
        } catch (const Error& e) {
            throw Error("--effective", e.message() + " in '" + printable(text) + "'");
        }
        if (k.is_infinite())
            throw Error("--effective", "K must be a finite speedup > 0 (got '" + printable(k_text) + "' in '" +
                                           printable(text) + "')");
        const auto count = static_cast<long long>(n);
        if (count == 1 && k.value != 1)
            throw Error("--effective", "on 1 processor the parallel part runs as it does: N = 1 takes K = 1 (got '" +
                                           printable(text) + "')");
        if (!out.emplace(count, k.value).second)
            throw Error("--effective", fmt::format("N = {} is given twice", count));
        if (k.value > n)
            print_notes(context, {fmt::format("--effective {}: {}x on {} processors is superlinear (more than N)", text,
                                              shortest(k.value), count)});
    }
    return {out.begin(), out.end()};
}

int run_scale(const ScaleOptions& options, Context& context) {
    const ParallelPart part = parallel_part(options, context);
    ScaleResult result;
    result.parallel_fraction = part.fraction;
    if (part.profile) {
        result.parallel_time = part.parallel_time;
        result.profile_time = part.profile->total();
        result.profile_unit = part.profile->unit;
    }
    result.law = options.weak ? ScalingLaw::gustafson : ScalingLaw::amdahl;
    const std::vector<long long> counts = processor_counts(options.counts);
    if (const auto base = baseline(options, part)) {
        result.baseline_time = base->first;
        result.unit = base->second;
    }
    if (!options.overhead.empty())
        result.overhead = parse_overhead_option(options.overhead, result.overhead_source, context);
    const bool has_overhead = result.overhead.model != Overhead::Model::none;
    if (!options.effective.empty() && has_overhead)
        throw Error("--effective", "already includes the overhead at its N; give --effective or --overhead, not both");
    if (!options.effective.empty() && options.weak)
        throw Error("--effective",
                    "is a measured speedup for a fixed problem (strong scaling); it does not apply with --weak");
    result.effective = parse_effective(options.effective, context);
    result.rows = scaling_rows(result.law, result.parallel_fraction, counts, result.effective, result.overhead);
    if (result.rows.back().n > result.overhead.max_n()) {
        throw Error("--overhead",
                    fmt::format("{} covers N = 1 to {}; N = {} is beyond it (measured overheads are "
                                "interpolated, never extrapolated)",
                                printable(result.overhead_source), result.overhead.max_n(), result.rows.back().n));
    }
    result.largest_n = counts.back();
    result.best = best_processor_count(result.law, result.parallel_fraction, result.overhead, counts.back());
    result.ceiling = result.law == ScalingLaw::amdahl ? amdahl_ceiling(result.parallel_fraction) : INFINITY;
    emit(context, result, options.output, report_options(options.output, false));
    return exit_ok;
}

}  // namespace

void setup_scale(CLI::App& app, Action& action) {
    auto options = std::make_shared<ScaleOptions>();
    CLI::App* command =
        app.add_subcommand("scale", "Speedup on N processors: Amdahl (strong) or Gustafson (weak) scaling");
    command->add_option("PROFILE", options->profile,
                        "Profile whose --parallel phases are the parallel part (instead of -p)");
    command->add_option("--input-format", options->input_format, "Profile format: json, csv, tsv, md or text")
        ->check(CLI::IsMember({"json", "csv", "tsv", "md", "markdown", "text", "txt"}));
    command
        ->add_option("--parallel", options->parallel,
                     "SELECTOR of the profile's parallel phases: name, glob, kind:KIND or *")
        ->allow_extra_args(false);
    command->add_option("-p,--parallel-fraction", options->fraction, "Parallel fraction P: 0.95 or 95%");
    command
        ->add_option(
            "-n,--processors", options->counts,
            "Processor counts: 5,10,100; 1..1024 (doubling); 1:64:8 (start:stop:step); a range ends at its end. "
            "Default 1..1024")
        ->allow_extra_args(false);
    command->add_option("--time", options->time, "One-processor time with a unit (900ms): adds a time column");
    command->add_flag("--weak", options->weak, "Gustafson's law (weak scaling): the job grows with N");
    command->add_option("--overhead", options->overhead,
                        "Overhead O(N) in units of the one-processor time: linear:C, log:C, sqrt:C, const:C, "
                        "or file:PATH with n,overhead rows");
    command
        ->add_option("--effective", options->effective,
                     "N=K: on N processors the parallel part runs only K times faster (8=5)")
        ->allow_extra_args(false);
    add_output_options(*command, options->output);
    command->callback([options, &action] { action = [options](Context& c) { return run_scale(*options, c); }; });
}

}  // namespace amdahl::cli
