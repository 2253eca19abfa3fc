#include "amdahl/fleet.hpp"

#include <cmath>

namespace amdahl {

FleetFigures fleet_figures(const Fleet& fleet, double speedup, std::optional<double> effort) {
    FleetFigures f;
    f.fleet = fleet;
    f.speedup = speedup;
    // The same work in 1/S of the time: a fraction 1 - 1/S of the fleet's time is freed.
    f.fraction_freed = std::isinf(speedup) ? 1.0 : 1 - 1 / speedup;
    // GPUs freed = N × (1 - 1/S)
    f.gpus_freed = fleet.gpus * f.fraction_freed;
    // Capacity gained = N × (S - 1): more work on the same fleet, in GPU-equivalents.
    f.capacity_gained = fleet.gpus * (speedup - 1);
    // GPU-hours per year = GPUs freed × hours per year
    f.gpu_hours_per_year = f.gpus_freed * fleet.hours_per_year;
    // Money per year = GPU-hours per year × cost per GPU-hour
    if (fleet.cost_per_gpu_hour) f.cost_per_year = f.gpu_hours_per_year * *fleet.cost_per_gpu_hour;
    f.effort = effort;
    // Effort cost = effort × cost per effort unit
    if (effort && fleet.cost_per_effort) f.effort_cost = *effort * *fleet.cost_per_effort;
    // Payback = effort cost / money per year, in days: × 365
    if (f.effort_cost && f.cost_per_year && *f.cost_per_year > 0)
        f.payback_days = *f.effort_cost / *f.cost_per_year * days_per_year;
    return f;
}

}  // namespace amdahl
