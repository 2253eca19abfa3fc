#pragma once
// Phase names for imported rows and events: --rename REGEX=NAME (in order, first match wins),
// else --group-by (name, cat or regex:PATTERN). Shared by every profiler reader, so that a
// kernel gets the same phase whichever file it was read from.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/import.hpp"
#include "input/profilers/pattern.hpp"

namespace amdahl::detail {

/// The naming options of one import with their regexes compiled once (compiling costs more than
/// a search). Throws amdahl::Error naming the option (--rename, --group-by) for a bad pattern or an
/// unknown grouping.
class PhaseNamer {
public:
    explicit PhaseNamer(const ImportOptions& options);

    /// The phase for an event or row called `raw_name` whose category is `category` (a Kineto
    /// category, an nsys report kind, a rocprof domain; may be empty):
    ///  - the NAME of the first --rename whose REGEX is found in `raw_name`, else
    ///  - group-by name: `raw_name`;
    ///  - group-by cat: `category` (`raw_name` when it is empty);
    ///  - group-by regex:PATTERN: the first capture group of the first match, or the whole match
    ///    when the pattern has no group; `raw_name` when the pattern is not found or captures "".
    /// Costs a regex search per rule: call it once per distinct name, not once per event.
    std::string operator()(std::string_view raw_name, std::string_view category) const;

private:
    enum class Grouping { name, category, pattern };
    struct Rename {
        std::string text;  // as given, for messages
        Pattern pattern;
        std::string name;
    };
    std::vector<Rename> renames_;
    Grouping grouping_ = Grouping::name;
    std::string group_text_;
    std::optional<Pattern> group_pattern_;
};

/// One-off form of PhaseNamer (compiles the regexes on every call).
std::string phase_name(std::string_view raw_name, std::string_view category, const ImportOptions& options);

}  // namespace amdahl::detail
