#include "cli/uncertainty_options.hpp"

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "amdahl/uncertainty.hpp"

namespace amdahl::cli {

void refuse_factor_ranges(const std::vector<SpeedupSpec>& specs, const std::string& with) {
    for (const SpeedupSpec& spec : specs)
        if (spec.range)
            throw Error("--speedup", "'" + spec.text + "': a factor range is not supported with " + with +
                                         " yet (give a point factor)");
}

void refuse_factor_ranges(const std::vector<Candidate>& candidates, const std::string& with) {
    for (const Candidate& c : candidates)
        if (c.factor_range)
            throw Error("target '" + printable(c.name) + "'",
                        "a factor range is not supported with " + with + " yet (give a point factor)");
}

void refuse_time_spreads(const Profile& profile, const std::string& with) {
    for (const Phase& phase : profile.phases)
        if (phase.spread)
            throw Error(profile.where(phase), "phase '" + printable(phase.name) +
                                                  "': a time with a range or spread is not supported with " + with +
                                                  " yet");
}

}  // namespace amdahl::cli
