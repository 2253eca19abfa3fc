#pragma once
/// \file What an end-to-end speedup is worth on a fleet that runs the workload: GPUs freed,
/// GPU-hours and money per year, and the payback time of the effort it took.
#include <optional>
#include <string>

namespace amdahl {

/// "Continuous" running: 365 × 24 = 8,760 hours a year (the figure cloud prices use: 730 h a
/// month). A leap year has 8,784, the most --hours-per-year takes.
inline constexpr double continuous_hours_per_year = 8760;
inline constexpr double max_hours_per_year = 8784;
/// The days of the year a payback time counts in, matching continuous_hours_per_year.
inline constexpr double days_per_year = 365;

/// The fleet and the prices, as the user gave them (checked at the command line).
struct Fleet {
    double gpus = 1;                                    ///< GPUs running the workload, > 0
    double hours_per_year = continuous_hours_per_year;  ///< how long each runs a year, 0 < h <= 8,784
    bool continuous = true;                             ///< hours_per_year is the default, not given
    std::optional<double> cost_per_gpu_hour;            ///< in `currency`, >= 0
    std::optional<double> cost_per_effort;              ///< in `currency` per effort unit, >= 0
    std::string currency;                               ///< "USD", "$": set when a cost is
    std::string effort_unit = "effort";                 ///< the word efforts are counted in
};

/// The fleet's figures for one end-to-end speedup S, for a fixed amount of work.
struct FleetFigures {
    Fleet fleet;
    double speedup = 1;                   ///< S
    double fraction_freed = 0;            ///< 1 - 1/S: the fraction of the fleet's time the same work no longer takes
    double gpus_freed = 0;                ///< gpus × (1 - 1/S)
    double capacity_gained = 0;           ///< gpus × (S - 1): GPU-equivalents of extra work on the same fleet
    double gpu_hours_per_year = 0;        ///< gpus_freed × hours_per_year
    std::optional<double> cost_per_year;  ///< gpu_hours_per_year × cost_per_gpu_hour
    std::optional<double> effort;         ///< the effort the speedup takes, when known
    std::optional<double> effort_cost;    ///< effort × cost_per_effort
    /// effort_cost / cost_per_year × days_per_year; unset without both costs or without a saving
    /// (a saving of 0 or less never pays back).
    std::optional<double> payback_days;
};

/// The figures for speedup S (may be infinite: the whole fleet freed) and the effort it takes.
FleetFigures fleet_figures(const Fleet& fleet, double speedup, std::optional<double> effort = std::nullopt);

}  // namespace amdahl
