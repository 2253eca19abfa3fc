// amdahl queue --service 50ms --rate 16/s -s 1.43: latency under load before and after a
// service-time speedup (M/M/1, M/M/c by Erlang C, M/G/1 by Pollaczek-Khinchine, M/G/c by
// Allen-Cunneen), and with --slo the highest arrival rate that meets a latency objective.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/queue.hpp"
#include "amdahl/speedup.hpp"
#include "cli/commands.hpp"
#include "report/numbers.hpp"

namespace amdahl::cli {

namespace {

/// Servers beyond this are a typo, not a data centre: Erlang C's recursion is linear in c.
constexpr int max_servers = 1'000'000;

struct QueueOptions {
    std::string service, rate, servers, cv;
    std::string speedup, speedup_from;
    std::vector<std::string> objectives;
    OutputOptions output;
    bool explain = false;
    const CLI::Option* speedup_option = nullptr;
    const CLI::Option* speedup_from_option = nullptr;
    const CLI::Option* servers_option = nullptr;
    const CLI::Option* cv_option = nullptr;
};

// A time with its unit ("50ms", "0.05s"), > 0; a bare number is refused (which unit would it be?).
Quantity time_with_unit(const std::string& text, const std::string& option, const char* example) {
    Quantity q;
    try {
        q = parse_quantity(text);
    } catch (const Error&) {
        throw Error(option, fmt::format("expected a time such as {} (got '{}')", example, printable(text)));
    }
    if (q.percent || !(q.value > 0))
        throw Error(option, fmt::format("expected a time > 0 such as {} (got '{}')", example, printable(text)));
    if (!q.unit)
        throw Error(option,
                    fmt::format("give the time with its unit, such as {} (got '{}')", example, printable(text)));
    return q;
}

// "15/s", "900/min", "2/ms": arrivals per second.
double parse_rate(const std::string& text) {
    const auto slash = text.find('/');
    if (slash == std::string::npos) {
        double number = 0;
        if (parse_double(text, number))
            throw Error("--rate",
                        "give the rate with its unit, such as 15/s, 900/min or 2/ms (got '" + printable(text) + "')");
        throw Error("--rate", "expected a rate such as 15/s, 900/min or 2/ms (got '" + printable(text) + "')");
    }
    Quantity count;
    std::optional<Unit> unit;
    try {
        count = parse_quantity(text.substr(0, slash));
        unit = parse_unit(text.substr(slash + 1));
    } catch (const Error&) {
        unit.reset();
    }
    if (!unit || count.unit || count.percent)
        throw Error("--rate", "expected a rate such as 15/s, 900/min or 2/ms (got '" + printable(text) + "')");
    if (!(count.value > 0)) throw Error("--rate", "expected a rate > 0 such as 15/s (got '" + printable(text) + "')");
    const double per_second = count.value / seconds_per(*unit);
    if (!std::isfinite(per_second) || !(per_second > 0))
        throw Error("--rate", "is out of range (got '" + printable(text) + "')");
    return per_second;
}

int parse_servers(const std::string& text) {
    double value = 0;
    if (!parse_double(text, value) || value < 1 || value != std::floor(value) || value > max_servers)
        throw Error("--servers", fmt::format("expected a whole number of servers from 1 to {} (got '{}')", max_servers,
                                             printable(text)));
    return static_cast<int>(value);
}

double parse_cv(const std::string& text) {
    double value = 0;
    if (!parse_double(text, value) || value < 0)
        throw Error("--cv",
                    "expected the service time's coefficient of variation, a number >= 0 such as 1 "
                    "(exponential) or 0 (constant) (got '" +
                        printable(text) + "')");
    return value;
}

double service_speedup(const QueueOptions& options, QueueResult& result, Context& context) {
    const bool has_s = options.speedup_option->count() > 0, has_from = options.speedup_from_option->count() > 0;
    if (has_s == has_from)
        throw Error("queue", has_s ? "give -s or --speedup-from, not both"
                                   : "give the service-time speedup with -s (1.43 or 1.43x) or "
                                     "--speedup-from REPORT (an 'amdahl eval --format json' report)");
    if (has_s) {
        const Factor factor = parse_option("-s", parse_factor, options.speedup);
        if (factor.is_infinite())
            throw Error("-s",
                        "an infinite speedup makes the service time zero, and a queue of zero-time work "
                        "never forms; give a finite factor such as 1.43");
        return factor.value;
    }
    const std::string source = options.speedup_from == "-" ? "<stdin>" : options.speedup_from;
    const std::string content = read_input(options.speedup_from, context.in);
    context.inputs.push_back(options.speedup_from);
    const ReportedSpeedup reported = read_eval_speedup(content, source);
    result.speedup_source = source;
    if (reported.key != "speedup")
        print_notes(context, {fmt::format("{}: the speedup is the report's {} (--model replay), {}", source,
                                          reported.key, shortest(reported.speedup))});
    if (reported.range) {
        const auto [low, high] = *reported.range;
        const NumberStyle style = report_options(options.output, false).numbers;
        print_notes(context,
                    {fmt::format("{}: the report's speedup lies between {} and {} (the sped-up phases "
                                 "overlapped others); the service-time speedup is its \"speedup\", {}, the "
                                 "{} end (give -s for another)",
                                 source, format_speedup(low, style), format_speedup(high, style),
                                 format_speedup(reported.speedup, style), reported.speedup == high ? "high" : "low")});
    }
    return reported.speedup;
}

LatencyObjective parse_objective(const std::string& text, const QueueModel& model) {
    const auto eq = text.find('=');
    const std::string statistic = eq == std::string::npos ? text : text.substr(0, eq);
    using Statistic = LatencyObjective::Statistic;
    LatencyObjective objective;
    if (statistic == "mean")
        objective.statistic = Statistic::mean;
    else if (statistic == "p50")
        objective.statistic = Statistic::p50;
    else if (statistic == "p90")
        objective.statistic = Statistic::p90;
    else if (statistic == "p99")
        objective.statistic = Statistic::p99;
    else
        throw Error("--slo",
                    "expected STATISTIC=TIME with a statistic of mean, p50, p90 or p99, such as p99=200ms (got '" +
                        printable(text) + "')");
    if (eq == std::string::npos)
        throw Error("--slo", "expected STATISTIC=TIME, such as p99=200ms (got '" + printable(text) + "')");
    const Quantity bound = time_with_unit(text.substr(eq + 1), "--slo", "p99=200ms");
    objective.bound = bound.value * seconds_per(*bound.unit);
    if (quantile_of(objective.statistic) && !has_exact_percentiles(model))
        throw Error("--slo", fmt::format("{} needs the latency distribution, known only for exponential service "
                                         "times (--cv 1); with --cv {} only mean=TIME can be checked",
                                         statistic, shortest(model.service_cv)));
    return objective;
}

int run_queue(const QueueOptions& options, Context& context) {
    QueueResult result;
    const Quantity service = time_with_unit(options.service, "--service", "50ms");
    result.unit = *service.unit;
    QueueModel model;
    model.service_time = service.value * seconds_per(*service.unit);
    if (!std::isfinite(model.service_time)) throw Error("--service", "is out of range");
    model.arrival_rate = parse_rate(options.rate);
    if (options.servers_option->count() > 0) model.servers = parse_servers(options.servers);
    if (options.cv_option->count() > 0) model.service_cv = parse_cv(options.cv);
    result.speedup = service_speedup(options, result, context);
    result.before = model;
    result.after = model;
    result.after.service_time = model.service_time / result.speedup;
    result.before_metrics = analyse_queue(result.before);
    result.after_metrics = analyse_queue(result.after);
    for (const auto& text : options.objectives) {
        QueueResult::Objective objective{text, parse_objective(text, model), std::nullopt, std::nullopt};
        objective.max_rate_before = max_rate_meeting(result.before, objective.objective);
        objective.max_rate_after = max_rate_meeting(result.after, objective.objective);
        result.objectives.push_back(std::move(objective));
    }
    emit(context, result, options.output, report_options(options.output, options.explain));
    return exit_ok;
}

}  // namespace

void setup_queue(CLI::App& app, Action& action) {
    auto options = std::make_shared<QueueOptions>();
    CLI::App* command = app.add_subcommand(
        "queue", "Latency under load: wait, mean and tail latency of a queueing service before and after a speedup");
    command->add_option("--service", options->service, "Mean service time of one request, with its unit: 50ms")
        ->required();
    command->add_option("--rate", options->rate, "Arrival rate of requests: 15/s, 900/min, 2/ms")->required();
    options->servers_option =
        command->add_option("--servers", options->servers, "Servers taking requests from one queue (default 1)");
    options->cv_option = command->add_option(
        "--cv", options->cv, "Coefficient of variation of the service time (default 1: exponential; 0: constant)");
    options->speedup_option = command->add_option("-s,--speedup", options->speedup,
                                                  "Speedup of the service time: 1.43 or 1.43x (below 1: a slowdown)");
    options->speedup_from_option =
        command->add_option("--speedup-from", options->speedup_from,
                            "Take the speedup from an 'amdahl eval --format json' report (FILE or -)");
    command
        ->add_option("--slo", options->objectives,
                     "A latency objective, mean=, p50=, p90= or p99=TIME (repeatable): the highest rate meeting it")
        ->allow_extra_args(false);
    command->add_flag("--explain", options->explain, "Show the arithmetic");
    add_output_options(*command, options->output);
    command->callback([options, &action] { action = [options](Context& c) { return run_queue(*options, c); }; });
}

}  // namespace amdahl::cli
