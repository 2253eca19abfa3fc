#include "amdahl/profile.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "amdahl/report.hpp"
#include "amdahl/units.hpp"

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
    // A time a double holds in hours may be past what it holds in ns: an error, never inf.
    const auto in_unit = [&](double value, const std::string& what) {
        const double converted = convert(value, profile.unit, unit);
        if (std::isfinite(value) && !std::isfinite(converted)) {
            char text[32];
            const auto end = std::to_chars(text, text + sizeof text, value).ptr;
            throw Error(profile.source, what + std::string(text, end) + " " + std::string(unit_name(profile.unit)) +
                                            " is too large to convert to " + std::string(unit_name(unit)));
        }
        return converted;
    };
    // Every time-valued field: a field left behind reads in the wrong unit (the overlap range did).
    for (auto& phase : out.phases) {
        const std::string what = "phase '" + printable(phase.name) + "': ";
        phase.time = in_unit(phase.time, what);
        if (phase.active_time) phase.active_time = in_unit(*phase.active_time, what + "active time ");
        if (phase.spread) {
            *phase.spread = {in_unit(phase.spread->low, what), in_unit(phase.spread->high, what),
                             in_unit(phase.spread->sd, what)};
            time_at_range_midpoint(phase);
        }
    }
    for (auto& run : out.runs) run = in_unit(run, "run time ");
    for (auto& overlap : out.overlaps) overlap.time = in_unit(overlap.time, "overlap ");
    for (auto& step : out.steps) {
        step.start = in_unit(step.start, "step '" + printable(step.name) + "' start ");
        step.time = in_unit(step.time, "step '" + printable(step.name) + "': ");
    }
    if (!std::isfinite(out.total()))
        throw Error(profile.source, "its times add up to more than a double holds in " + std::string(unit_name(unit)));
    return out;
}

}  // namespace amdahl
