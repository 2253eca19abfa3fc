#include "cli/fleet_options.hpp"

#include <cctype>
#include <cmath>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "model/text.hpp"
#include "report/numbers.hpp"

namespace amdahl::cli {

namespace {

double number_option(const std::string& option, const std::string& text) {
    double value = 0;
    if (!parse_double(detail::trim(text), value))
        throw Error(option, "expected a finite number (got '" + printable(text) + "')");
    return value;
}

// A price: 2.5 (with --currency), 2.5USD, 2.5 USD, $2.5 or €2.5. The currency as written, or empty.
struct Money {
    double value = 0;
    std::string currency;
};

Money money_option(const std::string& option, const std::string& text) {
    const std::string_view rest = detail::trim(text);
    // A prefix up to the number's first character, a suffix of letters (and spaces) after it.
    const auto starts_number = [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+';
    };
    std::size_t begin = 0;
    while (begin < rest.size() && !starts_number(rest[begin])) ++begin;
    std::size_t end = rest.size();
    while (end > begin && (std::isalpha(static_cast<unsigned char>(rest[end - 1])) || rest[end - 1] == ' ')) --end;
    const std::string_view before = detail::trim(rest.substr(0, begin)), after = detail::trim(rest.substr(end));
    if (!before.empty() && !after.empty())
        throw Error(option, "'" + printable(text) + "' names a currency twice (write 2.5USD or $2.5)");
    Money money;
    money.currency = std::string(before.empty() ? after : before);
    if (!parse_double(rest.substr(begin, end - begin), money.value))
        throw Error(option,
                    "expected a price such as 2.5USD, $2.5 or 2.5 with --currency (got '" + printable(text) + "')");
    if (money.value < 0) throw Error(option, "a price must be >= 0 (got '" + printable(text) + "')");
    return money;
}

}  // namespace

void add_fleet_options(CLI::App& command, FleetFlags& flags, bool effort, bool effort_unit) {
    const auto add = [&command](const char* name, std::optional<std::string>& value, const char* help) {
        command.add_option(name, value, help)->group("Fleet (what the speedup is worth)");
    };
    add("--fleet", flags.gpus, "GPUS the workload runs on: what the speedup frees, a year");
    add("--hours-per-year", flags.hours_per_year,
        "With --fleet: hours each GPU runs a year (default 8760 = 365 x 24, continuous)");
    add("--cost-per-gpu-hour", flags.cost_per_gpu_hour,
        "With --fleet: price of a GPU-hour, 2.5USD, $2.5 or 2.5 with --currency");
    add("--currency", flags.currency, "The currency of the prices: USD, EUR, $ ...");
    if (effort)
        add("--cost-per-effort", flags.cost_per_effort,
            "With --cost-per-gpu-hour: price of a unit of effort (10000USD): the payback time");
    if (effort_unit)
        add("--effort-unit", flags.effort_unit,
            "With --cost-per-effort: what effort (@EFFORT) is counted in, e.g. engineer-week");
}

std::optional<Fleet> fleet_option(const FleetFlags& flags, const std::string& effort_unit, bool any_effort) {
    if (!flags.gpus) {
        for (const auto& [option, given] :
             {std::pair{"--hours-per-year", &flags.hours_per_year},
              std::pair{"--cost-per-gpu-hour", &flags.cost_per_gpu_hour},
              std::pair{"--cost-per-effort", &flags.cost_per_effort}, std::pair{"--currency", &flags.currency}})
            if (*given) throw Error(option, "applies with --fleet GPUS only (the GPUs the workload runs on)");
        if (flags.effort_unit) throw Error("--effort-unit", "applies with --cost-per-effort only");
        return std::nullopt;
    }
    Fleet fleet;
    fleet.gpus = number_option("--fleet", *flags.gpus);
    if (fleet.gpus < 1 || fleet.gpus != std::floor(fleet.gpus))
        throw Error("--fleet", "expected a whole number of GPUs >= 1 (got '" + printable(*flags.gpus) + "')");
    if (flags.hours_per_year) {
        fleet.hours_per_year = number_option("--hours-per-year", *flags.hours_per_year);
        fleet.continuous = false;
        if (fleet.hours_per_year <= 0 || fleet.hours_per_year > max_hours_per_year)
            throw Error("--hours-per-year", "expected hours > 0 and at most 8784 (366 x 24, a leap year; got '" +
                                                printable(*flags.hours_per_year) + "')");
    }
    if (flags.currency) {
        fleet.currency = std::string(detail::trim(*flags.currency));
        if (fleet.currency.empty()) throw Error("--currency", "is empty (expected e.g. USD, EUR or $)");
        if (!flags.cost_per_gpu_hour)
            throw Error("--currency", "applies with --cost-per-gpu-hour only (no price, no money)");
    }
    // Each price names its currency, or --currency does; two different names are an error.
    const auto price = [&](const char* option, const std::string& text) {
        const Money money = money_option(option, text);
        if (!money.currency.empty()) {
            if (!fleet.currency.empty() && fleet.currency != money.currency)
                throw Error(option, "'" + printable(text) + "' is in " + printable(money.currency) + ", not " +
                                        printable(fleet.currency) + ": give every price in one currency");
            fleet.currency = money.currency;
        }
        return money.value;
    };
    if (flags.cost_per_gpu_hour) fleet.cost_per_gpu_hour = price("--cost-per-gpu-hour", *flags.cost_per_gpu_hour);
    if (flags.cost_per_effort) {
        if (!flags.cost_per_gpu_hour)
            throw Error("--cost-per-effort",
                        "needs --cost-per-gpu-hour: the payback weighs the effort's cost against the money saved");
        if (!any_effort)
            throw Error("--cost-per-effort", "no proposal has an effort: give one as SELECTOR=FACTOR@EFFORT");
        fleet.cost_per_effort = price("--cost-per-effort", *flags.cost_per_effort);
    } else if (flags.effort_unit) {
        throw Error("--effort-unit", "applies with --cost-per-effort only");
    }
    if (fleet.cost_per_gpu_hour && fleet.currency.empty())
        throw Error("--cost-per-gpu-hour", "'" + printable(*flags.cost_per_gpu_hour) +
                                               "' names no currency: write 2.5USD or $2.5, or give --currency USD");
    fleet.effort_unit = flags.effort_unit ? singular(*flags.effort_unit) : effort_unit;
    return fleet;
}

bool any_effort(const CandidateSet& set) {
    for (const Candidate& candidate : set.candidates)
        if (candidate.effort) return true;
    return false;
}

std::optional<double> speedups_effort(const std::vector<SpeedupSpec>& speedups, const std::optional<Fleet>& fleet) {
    if (!fleet || !fleet->cost_per_effort) return std::nullopt;
    double total = 0;
    for (const SpeedupSpec& spec : speedups) {
        if (!spec.effort)
            throw Error("--cost-per-effort", "speedup '" + printable(spec.text) +
                                                 "' has no effort: give every speedup one (SELECTOR=FACTOR@EFFORT)");
        total += *spec.effort;
    }
    return total;
}

std::string effort_unit_of(const std::vector<const SpeedupSpec*>& specs, const std::string& given) {
    const SpeedupSpec* with_unit = nullptr;
    const SpeedupSpec* without_unit = nullptr;
    for (const SpeedupSpec* spec : specs) {
        if (!spec->effort) continue;
        if (spec->effort_unit.empty()) {
            if (!without_unit) without_unit = spec;
        } else if (!with_unit) {
            with_unit = spec;
        } else if (singular(spec->effort_unit) != singular(with_unit->effort_unit)) {
            throw Error("--speedup", "efforts are in different units ('" + printable(with_unit->text) + "' in " +
                                         plural(singular(with_unit->effort_unit)) + ", '" + printable(spec->text) +
                                         "' in " + plural(singular(spec->effort_unit)) +
                                         "): give every effort in one unit; amdahl does not convert between them");
        }
    }
    const std::string option = given.empty() ? "" : singular(given);
    if (!with_unit) return option.empty() ? "effort" : option;
    const std::string unit = singular(with_unit->effort_unit);
    if (without_unit)
        throw Error("--speedup", "'" + printable(with_unit->text) + "' gives its effort in " + plural(unit) + " and '" +
                                     printable(without_unit->text) + "' gives no unit: give every effort its unit");
    if (option.empty()) return unit;
    // --effort-unit engineer-week with @3w: the same unit, named more fully.
    if (option == unit || option.ends_with("-" + unit) || option.ends_with(" " + unit)) return option;
    throw Error("--effort-unit", "'" + printable(given) + "' disagrees with the unit of the efforts ('" +
                                     printable(with_unit->text) + "' is in " + plural(unit) + ")");
}

std::string effort_unit_of(const std::vector<Proposal>& proposals, const std::string& given) {
    std::vector<const SpeedupSpec*> specs;
    for (const Proposal& proposal : proposals) specs.push_back(&proposal.spec);
    return effort_unit_of(specs, given == "effort" ? "" : given);
}

}  // namespace amdahl::cli
