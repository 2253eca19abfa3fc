// What every report says about the boundary of the numbers it prints (see report.hpp).
#include "report/report.hpp"

#include <algorithm>

namespace amdahl {

const char* whole_run(bool summary_only) { return summary_only ? "over the summed rows" : "end to end"; }

bool over_summed_rows(const Profile& profile) {
    return profile.summary_only && std::none_of(profile.phases.begin(), profile.phases.end(), [](const Phase& p) {
               return p.name == unattributed_phase && p.time > 0;
           });
}

const char* whole_run(const Profile& profile) { return whole_run(over_summed_rows(profile)); }

void add_boundary(std::vector<SummaryLine>& summary, const std::string& boundary, bool summary_only) {
    if (!boundary.empty()) summary.push_back({"boundary", boundary, "", ""});
    if (summary_only) {
        summary.push_back(
            {"summary only", "rows may overlap: the sum of the rows is not wall time", "summary_only", "true"});
    }
}

}  // namespace amdahl
