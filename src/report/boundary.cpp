// What every report says about the boundary of the numbers it prints (see report.hpp).
#include "report/report.hpp"

namespace amdahl {

const char* whole_run(bool summary_only) { return summary_only ? "over the summed rows" : "end to end"; }

void add_boundary(std::vector<SummaryLine>& summary, const std::string& boundary, bool summary_only) {
    if (!boundary.empty()) summary.push_back({"boundary", boundary, "", ""});
    if (summary_only) {
        summary.push_back(
            {"summary only", "rows may overlap: the sum of the rows is not wall time", "summary_only", "true"});
    }
}

}  // namespace amdahl
