// The fleet's figures for people and for scripts; the formulas are in src/analysis/fleet.cpp.
#include "report/fleet.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/numbers.hpp"

namespace amdahl {

namespace {

std::string gpus_text(double gpus, const NumberStyle& style) {
    return gpus == std::floor(gpus) && gpus < 1e15 ? format_count(static_cast<std::uint64_t>(gpus))
                                                   : format_time(gpus, style);
}

std::string hours_text(const Fleet& fleet, const NumberStyle& style) {
    return gpus_text(fleet.hours_per_year, style) + " h";
}

}  // namespace

std::string fleet_assumption(const Fleet& fleet) {
    return fmt::format(
        "the fleet does the same work after the speedup, so 1 - 1/S of its time is freed (the GPUs idle or "
        "handed back); each GPU runs {} hours a year{}; the speedup holds on every GPU of the fleet",
        format_count(static_cast<std::uint64_t>(fleet.hours_per_year)),
        fleet.continuous ? " (continuous: 365 × 24, the default)" : " (--hours-per-year)");
}

void add_fleet_inputs_summary(std::vector<SummaryLine>& s, const Fleet& fleet, const NumberStyle& style) {
    std::string text = fmt::format("{} GPUs, {} a year each{}", gpus_text(fleet.gpus, style), hours_text(fleet, style),
                                   fleet.continuous ? " (continuous: 365 × 24)" : "");
    if (fleet.cost_per_gpu_hour)
        text += fmt::format(", {} a GPU-hour", format_money(*fleet.cost_per_gpu_hour, fleet.currency, style));
    if (fleet.cost_per_effort)
        text +=
            fmt::format(", {} per {}", format_money(*fleet.cost_per_effort, fleet.currency, style), fleet.effort_unit);
    s.push_back({"fleet", text, "fleet_gpus", shortest(fleet.gpus)});
    s.push_back({"", "", "hours_per_year", shortest(fleet.hours_per_year)});
}

void add_fleet_assumption(std::vector<SummaryLine>& s, const Fleet& fleet) {
    s.push_back({"fleet assumes", fleet_assumption(fleet), "", ""});
}

void add_fleet_summary(std::vector<SummaryLine>& s, const FleetFigures& f, const NumberStyle& style) {
    const Fleet& fleet = f.fleet;
    const std::string n = gpus_text(fleet.gpus, style);
    const auto money = [&](double value) { return format_money(value, fleet.currency, style); };
    add_fleet_inputs_summary(s, fleet, style);
    s.push_back({"fleet time freed", format_share(f.fraction_freed, style) + " (1 - 1/S: the same work in less time)",
                 "fraction_freed", shortest(f.fraction_freed)});
    s.push_back({"GPUs freed", fmt::format("{} of {} ({} × (1 - 1/S))", format_time(f.gpus_freed, style), n, n),
                 "gpus_freed", shortest(f.gpus_freed)});
    s.push_back({"capacity gained",
                 fmt::format("{} GPUs' worth ({} × (S - 1): more work on the same GPUs, the other reading of the "
                             "speedup)",
                             format_time(f.capacity_gained, style), n),
                 "capacity_gained", machine_number(f.capacity_gained)});
    s.push_back({"GPU-hours freed",
                 fmt::format("{} a year ({} GPUs × {})", format_time(f.gpu_hours_per_year, style),
                             format_time(f.gpus_freed, style), hours_text(fleet, style)),
                 "gpu_hours_per_year", shortest(f.gpu_hours_per_year)});
    if (f.cost_per_year) {
        s.push_back({"money saved",
                     fmt::format("{} a year ({} GPU-hours × {})", money(*f.cost_per_year),
                                 format_time(f.gpu_hours_per_year, style), money(*fleet.cost_per_gpu_hour)),
                     "cost_per_year", shortest(*f.cost_per_year)});
    }
    if (f.effort_cost) {
        s.push_back({"effort cost",
                     fmt::format("{} ({} × {})", money(*f.effort_cost), amount_of(*f.effort, fleet.effort_unit, style),
                                 money(*fleet.cost_per_effort)),
                     "effort_cost", shortest(*f.effort_cost)});
        s.push_back({"payback",
                     f.payback_days
                         ? fmt::format("{} days ({} / {} a year × 365 days)", format_time(*f.payback_days, style),
                                       money(*f.effort_cost), money(*f.cost_per_year))
                         : "never: the speedup saves no money",
                     "payback_days", f.payback_days ? shortest(*f.payback_days) : ""});
    }
    add_fleet_assumption(s, fleet);
}

std::vector<std::string> explain_fleet(const FleetFigures& f, const NumberStyle& style) {
    const Fleet& fleet = f.fleet;
    const std::string n = gpus_text(fleet.gpus, style), s = format_plain(f.speedup, style);
    const auto money = [&](double value) { return format_money(value, fleet.currency, style); };
    std::vector<std::string> lines = {
        fmt::format("fraction freed = 1 - 1/S = 1 - 1/{} = {}", s, format_plain(f.fraction_freed, style)),
        fmt::format("GPUs freed = {} × (1 - 1/{}) = {}", n, s, format_time(f.gpus_freed, style)),
        fmt::format("capacity gained = {} × ({} - 1) = {}", n, s, format_time(f.capacity_gained, style)),
        fmt::format("GPU-hours a year = {} × {} = {}", format_time(f.gpus_freed, style), hours_text(fleet, style),
                    format_time(f.gpu_hours_per_year, style))};
    if (f.cost_per_year)
        lines.push_back(fmt::format("money a year = {} GPU-hours × {} = {}", format_time(f.gpu_hours_per_year, style),
                                    money(*fleet.cost_per_gpu_hour), money(*f.cost_per_year)));
    if (f.effort_cost) {
        lines.push_back(fmt::format("effort cost = {} × {} = {}", amount_of(*f.effort, fleet.effort_unit, style),
                                    money(*fleet.cost_per_effort), money(*f.effort_cost)));
        lines.push_back(f.payback_days
                            ? fmt::format("payback = {} / {} a year × 365 days = {} days", money(*f.effort_cost),
                                          money(*f.cost_per_year), format_time(*f.payback_days, style))
                            : "payback = never (no money saved)");
    }
    return lines;
}

void add_fleet(Document& doc, const FleetFigures& figures, const ReportOptions& options) {
    add_fleet_summary(doc.summary, figures, options.numbers);
    if (options.explain)
        doc.sections.push_back({"The fleet's arithmetic", explain_fleet(figures, options.numbers), false, true});
}

void write_fleet_inputs_json(JsonWriter& json, const Fleet& fleet) {
    json.field("gpus", fleet.gpus).field("hours_per_year", fleet.hours_per_year);
    json.field("continuous", fleet.continuous).field("cost_per_gpu_hour", fleet.cost_per_gpu_hour);
    json.field("cost_per_effort", fleet.cost_per_effort);
    if (fleet.currency.empty())
        json.key("currency").null();
    else
        json.field("currency", fleet.currency);
    json.field("effort_unit", fleet.effort_unit).field("assumption", fleet_assumption(fleet));
}

void write_fleet_figures_json(JsonWriter& json, const FleetFigures& f) {
    json.field("fraction_freed", f.fraction_freed).field("gpus_freed", f.gpus_freed);
    json.field("capacity_gained", f.capacity_gained).field("gpu_hours_per_year", f.gpu_hours_per_year);
    json.field("cost_per_year", f.cost_per_year).field("effort", f.effort).field("effort_cost", f.effort_cost);
    json.field("payback_days", f.payback_days);
}

void write_fleet_json(JsonWriter& json, const FleetFigures& figures, const ReportOptions& options) {
    json.key("fleet").begin_object();
    write_fleet_inputs_json(json, figures.fleet);
    write_fleet_figures_json(json, figures);
    if (options.explain) {
        json.key("explanation").begin_array();
        for (const std::string& line : explain_fleet(figures, options.numbers)) json.value(line);
        json.end_array();
    }
    json.end_object();
}

void add_fleet_columns(Table& table, const Fleet& fleet) {
    table.columns.push_back({"GPUs freed", "gpus_freed", true});
    if (fleet.cost_per_gpu_hour)
        table.columns.push_back({"saved a year (" + fleet.currency + ")", "cost_per_year", true});
    if (fleet.cost_per_effort) table.columns.push_back({"payback (days)", "payback_days", true});
}

void add_fleet_cells(std::vector<Cell>& row, const FleetFigures& f, const NumberStyle& style) {
    row.emplace_back(format_time(f.gpus_freed, style), shortest(f.gpus_freed));
    if (f.fleet.cost_per_gpu_hour)
        row.emplace_back(format_money(*f.cost_per_year, "", style), shortest(*f.cost_per_year));
    if (f.fleet.cost_per_effort) {
        if (f.payback_days)
            row.emplace_back(format_time(*f.payback_days, style), shortest(*f.payback_days));
        else
            row.emplace_back(f.effort ? "never" : "-", "");
    }
}

}  // namespace amdahl
