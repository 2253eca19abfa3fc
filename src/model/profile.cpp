#include "amdahl/profile.hpp"

#include "amdahl/numbers.hpp"

#include <string>

namespace amdahl {

double Profile::total() const {
    Summation sum;
    for (const auto& phase : phases) sum.add(phase.time);
    return sum.value();
}

std::optional<std::size_t> Profile::find(const std::string& phase_name) const {
    for (std::size_t i = 0; i < phases.size(); ++i) {
        if (phases[i].name == phase_name) return i;
    }
    return std::nullopt;
}

std::string Profile::where(const Phase& phase) const { return amdahl::where(source, origin, phase.at, phase.name); }

std::string where(const std::string& source, Origin origin, std::uint64_t at, const std::string& name) {
    if (at == 0) return source;
    switch (origin) {
        case Origin::none:
            break;
        case Origin::line:
            return source + ":" + std::to_string(at);
        case Origin::json_index:
            return source + ": phases[" + std::to_string(at - 1) + "]";
        case Origin::json_key:
            return source + ": phases." + name;
    }
    return source;
}

Profile convert_profile(const Profile& profile, Unit unit) {
    Profile out = profile;
    out.unit = unit;
    // Every time-valued field: a field left behind reads in the wrong unit (the overlap range did).
    for (auto& phase : out.phases) {
        phase.time = convert(phase.time, profile.unit, unit);
        if (phase.active_time) phase.active_time = convert(*phase.active_time, profile.unit, unit);
    }
    for (auto& run : out.runs) run = convert(run, profile.unit, unit);
    for (auto& overlap : out.overlaps) overlap.time = convert(overlap.time, profile.unit, unit);
    for (auto& step : out.steps) {
        step.start = convert(step.start, profile.unit, unit);
        step.time = convert(step.time, profile.unit, unit);
    }
    return out;
}

}  // namespace amdahl
