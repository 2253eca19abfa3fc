#pragma once
// --fleet GPUS and its prices (eval, law, rank, plan): what an end-to-end speedup is worth on the
// fleet that runs the workload.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "amdahl/fleet.hpp"
#include "amdahl/results.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl::cli {

/// As typed; presence matters (an option without --fleet is an error, never ignored).
struct FleetFlags {
    std::optional<std::string> gpus, hours_per_year, cost_per_gpu_hour, cost_per_effort, currency, effort_unit;
};

/// Adds --fleet, --hours-per-year, --cost-per-gpu-hour and --currency; with `effort`,
/// --cost-per-effort too; with `effort_unit`, --effort-unit (eval: rank and plan have their own).
void add_fleet_options(CLI::App& command, FleetFlags& flags, bool effort, bool effort_unit = false);

/// The fleet the flags describe, checked; none without --fleet. `any_effort`: whether the command
/// has an effort to weigh --cost-per-effort against. Throws amdahl::Error naming the option.
std::optional<Fleet> fleet_option(const FleetFlags& flags, const std::string& effort_unit, bool any_effort);

/// Whether some candidate carries an effort (rank, plan).
bool any_effort(const CandidateSet& set);

/// eval's effort: the sum of its speedups' efforts (@EFFORT). With --cost-per-effort every speedup
/// must carry one; without, none is needed (and none is returned).
std::optional<double> speedups_effort(const std::vector<SpeedupSpec>& speedups, const std::optional<Fleet>& fleet);

/// The word efforts are counted in, singular: the unit they are written in ("@3w": week), or
/// --effort-unit (`given`, empty when not given), or "effort". Throws amdahl::Error when efforts are
/// in different units (amdahl does not guess how many days a week has), when some have a unit and
/// some none, or when --effort-unit names another unit ("engineer-week" agrees with "@3w").
std::string effort_unit_of(const std::vector<const SpeedupSpec*>& specs, const std::string& given);
/// The same for proposals (rank, plan); `given` "effort" is --effort-unit's default: not given.
std::string effort_unit_of(const std::vector<Proposal>& proposals, const std::string& given);

}  // namespace amdahl::cli
