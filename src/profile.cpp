#include "amdahl/profile.hpp"

#include "amdahl/numbers.hpp"

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

Profile convert_profile(const Profile& profile, Unit unit) {
    Profile out = profile;
    out.unit = unit;
    for (auto& phase : out.phases) phase.time = convert(phase.time, profile.unit, unit);
    for (auto& run : out.runs) run = convert(run, profile.unit, unit);
    return out;
}

}  // namespace amdahl
