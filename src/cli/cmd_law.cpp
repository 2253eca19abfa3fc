// amdahl law: Amdahl's formula without a profile. Give two of fraction, factor and target.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/speedup.hpp"
#include "cli/commands.hpp"

namespace amdahl::cli {

namespace {

struct LawOptions {
    std::string fraction, factor, target, time;
    OutputOptions output;
    bool explain = false;
    // Presence, not emptiness, says which quantities were given: -k '' is a bad factor.
    const CLI::Option* fraction_option = nullptr;
    const CLI::Option* factor_option = nullptr;
    const CLI::Option* target_option = nullptr;
};

double parse_fraction(const std::string& text) {
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        throw Error("--fraction", "expected a fraction such as 0.6 or 60% (got '" + printable(text) + "')");
    }
    const double f = q.percent ? q.value / 100 : q.value;
    if (q.unit || f < 0 || f > 1)
        throw Error("--fraction", "must be between 0 and 1 (or 0% and 100%) (got '" + printable(text) + "')");
    return f;
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

int run_law(const LawOptions& options, Context& context) {
    const bool has_f = options.fraction_option->count() > 0, has_k = options.factor_option->count() > 0,
               has_s = options.target_option->count() > 0;
    if (has_f + has_k + has_s != 2) {
        throw Error("law", "give exactly two of --fraction, --factor and --target; amdahl solves for the third");
    }
    const auto factor = [&] { return parse_option("--factor", parse_factor, options.factor).value; };
    LawResult result;
    if (has_f && has_k) {
        result.solved_for = LawResult::Solved::speedup;
        result.solution = solve_for_speedup(parse_fraction(options.fraction), factor());
    } else if (has_f) {
        result.solved_for = LawResult::Solved::factor;
        result.solution = solve_for_factor(parse_fraction(options.fraction), parse_target(options.target));
    } else {
        result.solved_for = LawResult::Solved::fraction;
        result.solution = solve_for_fraction(factor(), parse_target(options.target));
    }
    if (!options.time.empty()) {
        Quantity time;
        try {
            time = parse_quantity(options.time);
        } catch (const Error&) {
            throw Error("--time", "expected a time such as 900ms (got '" + printable(options.time) + "')");
        }
        if (time.percent || time.value <= 0)
            throw Error("--time", "expected a time > 0 such as 900ms (got '" + printable(options.time) + "')");
        result.time = time.value;
        result.time_unit = time.unit.value_or(Unit::ms);
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
        command->add_option("-f,--fraction", options->fraction, "Fraction of the time affected: 0.6 or 60%");
    options->factor_option =
        command->add_option("-k,--factor", options->factor, "Local speedup of that part: 4, 4x, inf or -30%");
    options->target_option = command->add_option("--target", options->target, "End-to-end speedup wanted: 2 or 2x");
    command->add_option("--time", options->time, "Baseline time with a unit (900ms) to also print old and new times");
    command->add_flag("--explain", options->explain, "Show the arithmetic");
    add_output_options(*command, options->output);
    command->callback([options, &action] { action = [options](Context& c) { return run_law(*options, c); }; });
}

}  // namespace amdahl::cli
