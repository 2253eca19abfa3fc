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
    std::string format = "table";
    int precision = 4;
};

// Where P came from, for the summary.
struct ParallelPart {
    double fraction = 0;
    std::optional<Profile> profile;
    double parallel_time = 0;
};

struct Baseline {
    double time = 0;
    std::string unit;
};

struct Row {
    long long n = 1;
    double local_speedup = 1;  // k: N, or the --effective value
    bool effective = false;
    double overhead = 0;
    double speedup = 1;
};

double parse_parallel_fraction(const std::string& text) {
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        throw Error("-p", "expected a parallel fraction such as 0.95 or 95% (got '" + printable(text) + "')");
    }
    const double p = q.percent ? q.value / 100 : q.value;
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
    std::vector<bool> picked(profile.phases.size(), false);
    for (const auto& text : options.parallel) {
        Selector selector;
        try {
            selector = parse_selector(text);
        } catch (const Error& e) {
            throw Error("--parallel", e.message());
        }
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
        try {
            const auto parsed = parse_processor_counts(text);
            counts.insert(counts.end(), parsed.begin(), parsed.end());
        } catch (const Error& e) {
            throw Error("-n", e.message());
        }
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    if (counts.size() > max_processor_points)
        throw Error("-n", fmt::format("the lists give {} processor counts; at most {} are allowed",
                                      grouped(counts.size()), grouped(max_processor_points)));
    return counts;
}

std::optional<Baseline> baseline(const ScaleOptions& options, const ParallelPart& part) {
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
        return Baseline{q.value, std::string(unit_name(q.unit.value_or(Unit::ms)))};
    }
    if (part.profile) return Baseline{part.profile->total(), std::string(unit_name(part.profile->unit))};
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
    try {
        return parse_overhead(text);
    } catch (const Error& e) {
        throw Error("--overhead", e.message());
    }
}

// --effective N=K: the measured speedup K of the parallel part on N processors.
std::map<long long, double> parse_effective(const std::vector<std::string>& specs, Context& context) {
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
        if (!out.emplace(count, k.value).second)
            throw Error("--effective", fmt::format("N = {} is given twice", count));
        if (k.value > n)
            context.err << fmt::format("note: --effective {}: {}x on {} processors is superlinear (more than N)\n",
                                       printable(text), shortest(k.value), count);
    }
    return out;
}

std::string formula(ScalingLaw law, const Overhead& overhead) {
    const bool with = overhead.model != Overhead::Model::none;
    if (law == ScalingLaw::gustafson) return with ? "S = ((1 - P) + P * N) / (1 + O(N))" : "S = (1 - P) + P * N";
    return with ? "S = 1 / ((1 - P) + P / N + O(N))" : "S = 1 / ((1 - P) + P / N)";
}

std::string overhead_text(const Overhead& overhead, const std::string& source) {
    const std::string c = shortest(overhead.coefficient);
    switch (overhead.model) {
        case Overhead::Model::linear:
            return "O(N) = " + c + " * N";
        case Overhead::Model::log:
            return "O(N) = " + c + " * log2 N";
        case Overhead::Model::sqrt:
            return "O(N) = " + c + " * sqrt(N)";
        case Overhead::Model::constant:
            return "O(N) = " + c + " for N > 1";
        case Overhead::Model::measured:
            return fmt::format("measured in {} up to N = {}, linear between the rows (0 at N = 1)", printable(source),
                               overhead.max_n());
        case Overhead::Model::none:
            break;
    }
    return "none";
}

int run_scale(const ScaleOptions& options, Context& context) {
    const ParallelPart part = parallel_part(options, context);
    const double p = part.fraction;
    const ScalingLaw law = options.weak ? ScalingLaw::gustafson : ScalingLaw::amdahl;
    const std::vector<long long> counts = processor_counts(options.counts);
    const std::optional<Baseline> base = baseline(options, part);
    std::string overhead_source;
    const Overhead overhead =
        options.overhead.empty() ? Overhead{} : parse_overhead_option(options.overhead, overhead_source, context);
    const bool has_overhead = overhead.model != Overhead::Model::none;
    if (!options.effective.empty() && has_overhead)
        throw Error("--effective", "already includes the overhead at its N; give --effective or --overhead, not both");
    if (!options.effective.empty() && options.weak)
        throw Error("--effective",
                    "is a measured speedup for a fixed problem (strong scaling); it does not apply with --weak");
    const std::map<long long, double> effective = parse_effective(options.effective, context);

    std::vector<long long> all = counts;
    for (const auto& [n, k] : effective) all.push_back(n);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    if (all.back() > overhead.max_n()) {
        throw Error("--overhead", fmt::format("{} covers N = 1 to {}; N = {} is beyond it (measured overheads are "
                                              "interpolated, never extrapolated)",
                                              printable(overhead_source), overhead.max_n(), all.back()));
    }

    std::vector<Row> rows;
    rows.reserve(all.size());
    for (long long n : all) {
        Row row;
        row.n = n;
        const auto found = effective.find(n);
        row.effective = found != effective.end();
        row.local_speedup = row.effective ? found->second : static_cast<double>(n);
        row.overhead = row.effective ? 0 : overhead.at(n);
        row.speedup = law == ScalingLaw::amdahl ? strong_speedup(p, row.local_speedup, row.overhead)
                                                : weak_speedup(p, row.local_speedup, row.overhead);
        rows.push_back(row);
    }
    const BestProcessorCount best = best_processor_count(law, p, overhead, counts.back());
    const double ceiling = law == ScalingLaw::amdahl ? amdahl_ceiling(p) : INFINITY;
    // Strong scaling: the fixed job takes T / S. Weak scaling: the N-times-larger job on N
    // processors takes T (1 + O(N)).
    const auto row_time = [&](const Row& row) {
        return law == ScalingLaw::amdahl ? base->time / row.speedup : base->time * (1 + row.overhead);
    };

    const int precision = options.precision;
    const OutputFormat format = output_format(options.format);
    if (format == OutputFormat::json) {
        JsonWriter json;
        json.begin_object().field("schema_version", 1).field("command", "scale");
        json.field("law", law == ScalingLaw::amdahl ? "amdahl" : "gustafson");
        json.field("parallel_fraction", p).field("ceiling", ceiling);
        json.field("best_n", best.n).field("best_speedup", best.speedup);
        json.key("overhead");
        if (has_overhead) {
            json.begin_object().field("model", overhead_model_name(overhead.model));
            if (overhead.model == Overhead::Model::measured)
                json.field("source", overhead_source);
            else
                json.field("coefficient", overhead.coefficient);
            json.end_object();
        } else {
            json.null();
        }
        if (base)
            json.field("unit", base->unit).field("baseline_time", base->time);
        else
            json.key("unit").null().key("baseline_time").null();
        json.key("points").begin_array();
        for (const Row& row : rows) {
            json.begin_object().field("n", row.n).field("speedup", row.speedup);
            json.field("efficiency", row.speedup / static_cast<double>(row.n));
            if (base)
                json.field("time", row_time(row));
            else
                json.key("time").null();
            json.field("overhead", row.overhead).field("parallel_speedup", row.local_speedup);
            json.end_object();
        }
        json.end_array().end_object();
        context.out << json.str();
        return exit_ok;
    }

    Table table;
    table.columns = {{"N", "n", true}, {"speedup", "speedup", true}, {"efficiency", "efficiency", true}};
    if (base) table.columns.push_back({"time (" + base->unit + ")", "time_" + base->unit, true});
    if (has_overhead) table.columns.push_back({"overhead", "overhead", true});
    if (!effective.empty()) table.columns.push_back({"parallel part", "parallel_speedup", true});
    for (const Row& row : rows) {
        const double efficiency = row.speedup / static_cast<double>(row.n);
        std::vector<Cell> cells{Cell(std::to_string(row.n)),
                                Cell(format_speedup(row.speedup, precision), shortest(row.speedup)),
                                Cell(format_percent(efficiency), shortest(efficiency))};
        if (base) cells.emplace_back(format_time(row_time(row), precision), shortest(row_time(row)));
        if (has_overhead) cells.emplace_back(format_time(row.overhead, precision), shortest(row.overhead));
        if (!effective.empty())
            cells.emplace_back(format_factor(row.local_speedup) + (row.effective ? " (effective)" : ""),
                               shortest(row.local_speedup));
        table.rows.push_back(std::move(cells));
    }
    context.out << render(table, format);
    if (format != OutputFormat::table) return exit_ok;

    std::vector<std::pair<std::string, std::string>> items;
    if (law == ScalingLaw::amdahl) {
        items.emplace_back("law",
                           "Amdahl (strong scaling): a fixed job on N processors; how much sooner does it finish?");
        items.emplace_back("", "(--weak: Gustafson, a job that grows with N; how much more work in the same time?)");
    } else {
        items.emplace_back("law",
                           "Gustafson (weak scaling): the job grows with N; how much more work in the same time?");
        items.emplace_back("", "(without --weak: Amdahl, a fixed job; how much sooner does it finish?)");
    }
    items.emplace_back("formula", formula(law, overhead));
    if (part.profile) {
        items.emplace_back("parallel fraction",
                           fmt::format("{} (P: {} of {} {} in the phases --parallel picks)", format_percent(p),
                                       format_time(part.parallel_time, precision),
                                       format_time(part.profile->total(), precision), unit_name(part.profile->unit)));
    } else {
        items.emplace_back("parallel fraction", format_percent(p) + " (P)");
    }
    if (has_overhead)
        items.emplace_back("overhead",
                           overhead_text(overhead, overhead_source) + " (in units of the one-processor time)");
    if (base)
        items.emplace_back("baseline", format_time(base->time, precision) + " " + base->unit + " on one processor");
    if (law == ScalingLaw::gustafson) {
        items.emplace_back("ceiling", "none: the scaled speedup grows by P for every processor added");
    } else if (std::isinf(ceiling)) {
        items.emplace_back("ceiling", "none (P = 1: nothing is serial)");
    } else {
        items.emplace_back("ceiling",
                           format_speedup(ceiling, precision) + " (1 / (1 - P): no number of processors passes it)");
    }
    if (has_overhead) {
        const std::string at = fmt::format("N = {} gives {}", best.n, format_speedup(best.speedup, precision));
        items.emplace_back(
            "best N",
            best.n < counts.back()
                ? at + fmt::format(" (of 1 to {}); past it, more processors make the run slower", counts.back())
                : at + " (the largest N asked for): the speedup is still rising there");
    }
    bool first_effective = true;
    for (const auto& [n, k] : effective) {
        items.emplace_back(first_effective ? "effective" : "",
                           fmt::format("on {} processors the parallel part runs {} faster, not {}x: {} instead of {}",
                                       n, format_factor(k), n, format_speedup(strong_speedup(p, k), precision),
                                       format_speedup(strong_speedup(p, static_cast<double>(n)), precision)));
        first_effective = false;
    }
    std::string summary = render_summary(items);
    // Continuation lines: indent rather than show an empty label.
    for (std::size_t pos; (pos = summary.find("\n: ")) != std::string::npos;) summary.replace(pos, 3, "\n  ");
    context.out << '\n' << summary;
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
        ->add_option("-n,--processors", options->counts,
                     "Processor counts: 5,10,100; 1..1024 (doubling); 1:64:8 (start:stop:step). Default 1..1024")
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
    add_format_options(*command, options->format, options->precision);
    command->callback([options, &action] { action = [options](Context& c) { return run_scale(*options, c); }; });
}

}  // namespace amdahl::cli
