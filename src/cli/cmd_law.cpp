// amdahl law: Amdahl's formula without a profile. Give two of fraction, factor and target.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/law.hpp"
#include "amdahl/speedup.hpp"
#include "cli/commands.hpp"
#include "report/explain.hpp"

namespace amdahl::cli {

namespace {

struct LawOptions {
    std::string fraction, factor, target, time;
    std::string format = "table";
    int precision = 4;
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
    std::string given;
    LawSolution s;
    if (has_f && has_k) {
        given = "fk";
        s = solve_for_speedup(parse_fraction(options.fraction), [&] {
            try {
                return parse_factor(options.factor).value;
            } catch (const Error& e) {
                throw Error("--factor", e.message());
            }
        }());
    } else if (has_f) {
        given = "fs";
        s = solve_for_factor(parse_fraction(options.fraction), parse_target(options.target));
    } else {
        given = "ks";
        double k = 0;
        try {
            k = parse_factor(options.factor).value;
        } catch (const Error& e) {
            throw Error("--factor", e.message());
        }
        s = solve_for_fraction(k, parse_target(options.target));
    }
    std::optional<Quantity> time;
    if (!options.time.empty()) {
        try {
            time = parse_quantity(options.time);
        } catch (const Error& e) {
            throw Error("--time", "expected a time such as 900ms (got '" + printable(options.time) + "')");
        }
        if (time->percent || time->value <= 0)
            throw Error("--time", "expected a time > 0 such as 900ms (got '" + printable(options.time) + "')");
    }
    const int p = options.precision;
    const std::string unit = time ? std::string(unit_name(time->unit.value_or(Unit::ms))) : "";
    const double new_time = time && s.possible ? time->value / s.speedup : NAN;

    if (output_format(options.format) == OutputFormat::json) {
        JsonWriter json;
        json.begin_object().field("schema_version", 1).field("command", "law");
        json.field("solved_for", given == "fk" ? "speedup" : given == "fs" ? "factor" : "fraction");
        if (given != "ks" || s.possible)
            json.field("fraction", s.fraction);
        else
            json.key("fraction").null();
        if (given != "fs" || s.possible)
            json.field("factor", s.factor);
        else
            json.key("factor").null();
        json.field(given == "fk" ? "speedup" : "target", s.speedup);
        json.field("ceiling", s.ceiling).field("possible", s.possible);
        if (!s.possible) json.field("reason", s.reason);
        if (time) {
            json.field("unit", unit).field("old_time", time->value);
            if (s.possible) json.field("new_time", new_time).field("time_saved", time->value - new_time);
        }
        if (options.explain) {
            json.key("explanation").begin_array();
            for (const auto& line : explain_law(s, given, p)) json.value(line);
            json.end_array();
        }
        json.end_object();
        context.out << json.str();
        return exit_ok;
    }

    std::vector<std::pair<std::string, std::string>> items;
    if (given == "ks" && !s.possible) {
        items.emplace_back("fraction f", "impossible");
    } else {
        items.emplace_back("fraction f", format_percent(s.fraction) + (given == "ks" ? " (solved)" : ""));
    }
    if (given == "fs" && !s.possible)
        items.emplace_back("factor k", "impossible");
    else
        items.emplace_back("factor k", format_factor(s.factor) + (given == "fs" ? " (solved)" : ""));
    items.emplace_back(given == "fk" ? "speedup S" : "target S", format_speedup(s.speedup, p));
    if (!(given == "ks" && !s.possible))
        items.emplace_back("ceiling",
                           std::isinf(s.ceiling) ? "none (f = 1)" : format_speedup(s.ceiling, p) + " (1 / (1 - f))");
    if (time) {
        items.emplace_back("old time", format_time(time->value, p) + " " + unit);
        if (s.possible) {
            items.emplace_back("new time", format_time(new_time, p) + " " + unit);
            items.emplace_back("time saved", format_time(time->value - new_time, p) + " " + unit);
        }
    }
    context.out << render_summary(items);
    if (options.explain) {
        context.out << "\nThe arithmetic:\n";
        for (const auto& line : explain_law(s, given, p)) context.out << "  " << line << '\n';
    }
    if (!s.possible) {
        std::string why(s.reason);
        if (given == "fs") {
            why = fmt::format(
                "a {} end-to-end speedup needs more than the ceiling {} = 1 / (1 - {}) allows; "
                "even an infinitely fast part leaves {} of the time",
                format_speedup(s.speedup, p), format_speedup(s.ceiling, p), shortest(s.fraction),
                format_percent(1 - s.fraction));
        }
        context.out << "\nimpossible: " << why << '\n';
    }
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
    add_format_options(*command, options->format, options->precision);
    command->callback([options, &action] { action = [options](Context& c) { return run_law(*options, c); }; });
}

}  // namespace amdahl::cli
