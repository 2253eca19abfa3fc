// amdahl law: Amdahl's formula without a profile. Give two of fraction, factor and target.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/speedup.hpp"
#include "cli/commands.hpp"
#include "cli/fleet_options.hpp"

namespace amdahl::cli {

namespace {

struct LawOptions {
    // Vectors: several parts are -f F -k K given in pairs.
    std::vector<std::string> fractions, factors, parts;
    std::string target, time;
    OutputOptions output;
    bool explain = false;
    FleetFlags fleet;
    // Presence, not emptiness, says which quantities were given: -k '' is a bad factor.
    const CLI::Option* fraction_option = nullptr;
    const CLI::Option* factor_option = nullptr;
    const CLI::Option* target_option = nullptr;
    const CLI::Option* part_option = nullptr;
};

// A time given on the command line (--time, --part, either side of -f PART/WHOLE); ms when bare.
struct TimeArg {
    double value = 0;
    Unit unit = Unit::ms;
    bool bare = false;  ///< no unit given: read as ms, which the output says
};

TimeArg parse_time_arg(const std::string& text, const std::string& option, bool zero_allowed) {
    Quantity q;
    bool ok = true;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        ok = false;
    }
    if (!ok || q.percent || q.value < 0 || (!zero_allowed && q.value == 0))
        throw Error(option, std::string("expected a time ") + (zero_allowed ? ">= 0" : "> 0") +
                                " such as 900ms (got '" + printable(text) + "')");
    return TimeArg{q.value, q.unit.value_or(Unit::ms), !q.unit.has_value()};
}

// What was assumed of a time without a unit, said on stderr (never a silent ms).
void note_bare(Context& context, const std::string& option, const std::string& text, const TimeArg& time) {
    if (time.bare) print_notes(context, {option + " " + text + " has no unit: read as ms"});
}

// One -f: a fraction (0.6, 60%), or times PART/WHOLE (900ms/1500ms) whose whole is the run's time.
struct GivenFraction {
    double fraction = 0;
    std::optional<TimeArg> part, whole;
};

// A bare number beside a time with a unit (0.9 beside 1500ms: 0.9 ms or 0.9 s?) is refused, never
// read in the other's unit.
void refuse_half_bare(const std::string& option, const std::string& bare, const std::string& with_unit) {
    throw Error(option, "'" + printable(bare) + "' has no unit but '" + printable(with_unit) +
                            "' has one: give both a unit (900ms, 0.9s), or neither for ms");
}

GivenFraction parse_fraction(const std::string& text) {
    GivenFraction given;
    if (const auto slash = text.find('/'); slash != std::string::npos) {
        // PART/WHOLE: times (a bare side takes the other's unit), or two bare numbers, a ratio
        // that names no time.
        Quantity part, whole;
        bool ok = true;
        try {
            part = parse_quantity(text.substr(0, slash));
            whole = parse_quantity(text.substr(slash + 1));
        } catch (const Error&) {
            ok = false;
        }
        if (!ok || part.percent || whole.percent || part.value < 0 || !(whole.value > 0))
            throw Error("--fraction",
                        "expected a fraction such as 0.6 or 60%, or times PART/WHOLE such as 900ms/1500ms (got '" +
                            printable(text) + "')");
        if (part.unit.has_value() != whole.unit.has_value()) {
            const std::string left = text.substr(0, slash), right = text.substr(slash + 1);
            refuse_half_bare("--fraction", part.unit ? right : left, part.unit ? left : right);
        }
        const Unit unit = whole.unit.value_or(part.unit.value_or(Unit::ms));
        const double part_time = convert(part.value, part.unit.value_or(unit), unit);
        given.fraction = part_time / whole.value;
        if (given.fraction > 1)
            throw Error("--fraction", "the part is longer than the whole in '" + printable(text) + "'");
        if (part.unit || whole.unit) {
            given.part = TimeArg{part_time, unit};
            given.whole = TimeArg{whole.value, unit};
        }
        return given;
    }
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        throw Error("--fraction",
                    "expected a fraction such as 0.6 or 60%, or times PART/WHOLE such as "
                    "900ms/1500ms (got '" +
                        printable(text) + "')");
    }
    given.fraction = q.percent ? percent_to_fraction(q.value) : q.value;
    if (q.unit || given.fraction < 0 || given.fraction > 1)
        throw Error("--fraction", "must be between 0 and 1 (or 0% and 100%) (got '" + printable(text) + "')");
    return given;
}

double parse_target(const std::string& text) {
    std::string number = text;
    if (!number.empty() && (number.back() == 'x' || number.back() == 'X')) number.pop_back();
    double target = 0;
    Quantity q;
    try {
        q = parse_quantity(number);
        target = q.value;
    } catch (const Error&) {
        target = -1;
    }
    if (q.unit || q.percent || !(target > 0))
        throw Error("--target", "must be an end-to-end speedup > 0, such as 2 or 2x (got '" + printable(text) + "')");
    return target;
}

std::string times(std::size_t count) { return std::to_string(count) + (count == 1 ? " time" : " times"); }

// The fractions as given by -f or --part, and the run's time (--time, or the whole of -f PART/WHOLE;
// they must agree).
std::vector<GivenFraction> given_fractions(const LawOptions& options, LawResult& result, Context& context) {
    if (!options.fractions.empty() && !options.parts.empty())
        throw Error("--part", "give the parts as fractions (-f) or as times (--part), not both");
    std::optional<TimeArg> whole;
    std::string whole_from;
    if (!options.time.empty()) {
        whole = parse_time_arg(options.time, "--time", false);
        whole_from = "--time " + options.time;
    }
    std::vector<GivenFraction> given;
    for (const auto& text : options.fractions) {
        GivenFraction fraction = parse_fraction(text);
        if (fraction.whole) {
            const auto same = [](const TimeArg& a, const TimeArg& b) {
                return std::fabs(convert(a.value, a.unit, b.unit) - b.value) <= 1e-9 * b.value;
            };
            if (whole && !same(*fraction.whole, *whole))
                throw Error("--fraction", "the whole of '" + printable(text) + "' is not the whole " +
                                              printable(whole_from) + " gives; the parts must be of one run");
            if (!whole) {
                whole = fraction.whole;
                whole_from = "-f " + text;
            }
        }
        given.push_back(fraction);
    }
    if (!options.parts.empty() && !whole)
        throw Error("--part", "needs --time, the whole run's time, to make a fraction: --part 900ms --time 1500ms");
    for (const auto& text : options.parts) {
        const TimeArg part = parse_time_arg(text, "--part", true);
        if (part.bare != whole->bare)
            refuse_half_bare("--part", part.bare ? text : options.time, part.bare ? options.time : text);
        note_bare(context, "--part", text, part);
        GivenFraction fraction;
        fraction.part = TimeArg{convert(part.value, part.unit, whole->unit), whole->unit};
        fraction.fraction = fraction.part->value / whole->value;
        if (fraction.fraction > 1)
            throw Error("--part", "'" + printable(text) + "' is longer than the whole run (--time " +
                                      printable(options.time) + ")");
        given.push_back(fraction);
    }
    if (!options.time.empty()) note_bare(context, "--time", options.time, *whole);  // whole is --time's
    double sum = 0;
    for (const auto& fraction : given) sum += fraction.fraction;
    if (given.size() > 1 && sum > 1 + 1e-12)
        throw Error(options.parts.empty() ? "--fraction" : "--part",
                    fmt::format("the parts add up to {:.6g}% of the time, more than all of it", sum * 100));
    if (whole) {
        result.time = whole->value;
        result.time_unit = whole->unit;
        // Fractions given as times show them; a plain -f among them shows its share of the time.
        const bool any_time = std::any_of(given.begin(), given.end(), [](const auto& g) { return g.part.has_value(); });
        if (any_time)
            for (const auto& fraction : given)
                result.part_times.push_back(fraction.part ? fraction.part->value : fraction.fraction * whole->value);
    }
    return given;
}

int run_law(const LawOptions& options, Context& context) {
    const bool has_f = options.fraction_option->count() > 0 || options.part_option->count() > 0,
               has_k = options.factor_option->count() > 0, has_s = options.target_option->count() > 0;
    const std::size_t fraction_count = options.fractions.size() + options.parts.size(),
                      factor_count = options.factors.size();
    const std::string fraction_flag = options.parts.empty() ? "-f" : "--part";
    if (has_f && has_k && !has_s && fraction_count != factor_count) {
        throw Error("law", fraction_flag + " is given " + times(fraction_count) + " and -k " + times(factor_count) +
                               ": several parts take one " + fraction_flag +
                               " and one -k each, in pairs (-f 0.3 -k 2 -f 0.2 -k 3)");
    }
    if (has_s && (fraction_count > 1 || factor_count > 1)) {
        throw Error("--target", "solves for one part's fraction or factor: give one " +
                                    (fraction_count > 1 ? fraction_flag + " (got " + std::to_string(fraction_count)
                                                        : "-k (got " + std::to_string(factor_count)) +
                                    ")");
    }
    if (has_f + has_k + has_s != 2) {
        throw Error("law", "give exactly two of --fraction, --factor and --target; amdahl solves for the third");
    }
    LawResult result;
    const std::vector<GivenFraction> fractions =
        has_f ? given_fractions(options, result, context) : std::vector<GivenFraction>{};
    if (!has_f && !options.time.empty()) {
        const TimeArg time = parse_time_arg(options.time, "--time", false);
        note_bare(context, "--time", options.time, time);
        result.time = time.value;
        result.time_unit = time.unit;
    }
    // -k 8..12: the point is the range's geometric midpoint, and S is bounded by the ends (S grows with k).
    std::vector<RangedFactor> ranged;
    for (const std::string& text : options.factors)
        ranged.push_back(parse_option("--factor", parse_ranged_factor, text));
    const auto factor = [&](std::size_t i) { return ranged[i].point.value; };
    const bool any_range = std::any_of(ranged.begin(), ranged.end(), [](const RangedFactor& k) { return k.range; });
    if (any_range && !(has_f && has_k))
        throw Error("--factor",
                    "a range (8..12) applies when solving for the speedup (-f with -k); solving for the "
                    "fraction needs a point factor");
    if (has_f && has_k) {
        result.solved_for = LawResult::Solved::speedup;
        // The speedup with every factor at its range's low (or high) end.
        const auto at_end = [&](bool high) {
            std::vector<LawPart> parts;
            for (std::size_t i = 0; i < fractions.size(); ++i) {
                const std::optional<FactorRange>& range = ranged[i].range;
                parts.push_back({fractions[i].fraction, range ? (high ? range->high : range->low) : factor(i)});
            }
            return solve_for_speedup(parts).speedup;
        };
        if (any_range) result.speedup_range = Interval{at_end(false), at_end(true)};
        if (fractions.size() == 1) {
            result.solution = solve_for_speedup(fractions[0].fraction, factor(0));
        } else {
            for (std::size_t i = 0; i < fractions.size(); ++i)
                result.parts.push_back({fractions[i].fraction, factor(i)});
            result.solution = solve_for_speedup(result.parts);
        }
    } else if (has_f) {
        result.solved_for = LawResult::Solved::factor;
        result.solution = solve_for_factor(fractions[0].fraction, parse_target(options.target));
    } else {
        result.solved_for = LawResult::Solved::fraction;
        result.solution = solve_for_fraction(factor(0), parse_target(options.target));
    }
    if (const std::optional<Fleet> fleet = fleet_option(options.fleet, "effort", false)) {
        // As eval, rank and plan: the fleet's figures would take the range's midpoint unseen.
        for (std::size_t i = 0; i < ranged.size(); ++i)
            if (ranged[i].range)
                throw Error("--factor",
                            "'" + options.factors[i] +
                                "': a factor range is not supported with --fleet yet (give a point factor)");
        result.fleet_given = true;
        if (result.solution.possible) result.fleet = fleet_figures(*fleet, result.solution.speedup);
    }
    emit(context, result, options.output, report_options(options.output, options.explain));
    return exit_ok;
}

}  // namespace

void setup_law(CLI::App& app, Action& action) {
    auto options = std::make_shared<LawOptions>();
    CLI::App* command =
        app.add_subcommand("law", "Amdahl's law: give two of --fraction, --factor, --target; get the third");
    options->fraction_option =
        command
            ->add_option("-f,--fraction", options->fractions,
                         "Fraction of the time affected: 0.6, 60% or times 900ms/1500ms; several parts: -f F -k K "
                         "in pairs")
            ->allow_extra_args(false);
    options->factor_option = command
                                 ->add_option("-k,--factor", options->factors,
                                              "Local speedup of that part: 4, 4x, inf, -30% or a range 8..12")
                                 ->allow_extra_args(false);
    options->target_option = command->add_option("--target", options->target, "End-to-end speedup wanted: 2 or 2x");
    options->part_option =
        command->add_option("--part", options->parts, "Time of the part affected (900ms), a fraction of --time")
            ->allow_extra_args(false);
    command->add_option("--time", options->time, "Baseline time with a unit (900ms) to also print old and new times");
    command->add_flag("--explain", options->explain, "Show the arithmetic");
    add_output_options(*command, options->output);
    add_fleet_options(*command, options->fleet, false);
    command->callback([options, &action] { action = [options](Context& c) { return run_law(*options, c); }; });
}

}  // namespace amdahl::cli
