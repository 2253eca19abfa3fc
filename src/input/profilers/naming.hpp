#pragma once
// Phase names for imported rows and events: --rename OLD=NEW (exact names), else --rename-regex
// REGEX=NAME (in order, first match wins), else --group-by (name, cat, class or regex:PATTERN). Shared by every
// profiler reader, so that a kernel gets the same phase whichever file it was read from.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "amdahl/import.hpp"
#include "amdahl/profile.hpp"
#include "input/profilers/pattern.hpp"

namespace amdahl::detail {

/// The naming options of one import with their regexes compiled once (compiling costs more than
/// a search). Throws amdahl::Error naming the option (--rename, --group-by) for a bad pattern or an
/// unknown grouping.
class PhaseNamer {
public:
    explicit PhaseNamer(const ImportOptions& options);

    /// The phase for an event or row called `raw_name` whose category is `category` (a Kineto
    /// category, an nsys report kind, a rocprof domain; may be empty) and whose phase kind is
    /// `kind` (kernel, copy, memset, ...; may be empty):
    ///  - NEW of the --rename whose OLD is exactly `raw_name`, else
    ///  - the NAME of the first --rename-regex whose REGEX is found in `raw_name`, else
    ///  - group-by name: `raw_name`;
    ///  - group-by cat: `category` (`raw_name` when it is empty);
    ///  - group-by class: the kernel class (input/profilers/kernel_class.hpp), the rule that
    ///    chose it kept for class_members();
    ///  - group-by regex:PATTERN: the first capture group of the first match, or the whole match
    ///    when the pattern has no group; `raw_name` when the pattern is not found or captures "".
    /// Costs a regex search per rule: call it once per distinct name, not once per event.
    std::string operator()(std::string_view raw_name, std::string_view category, std::string_view kind = {}) const;

    /// With --group-by class: each name given so far, its class and the rule, in order.
    const std::vector<ClassMember>& class_members() const { return members_; }

private:
    enum class Grouping { name, category, kernel_class, pattern };
    struct Rename {
        std::string text;  // as given, for messages
        Pattern pattern;
        std::string name;
    };
    std::unordered_map<std::string, std::string> exact_;
    std::vector<Rename> renames_;
    Grouping grouping_ = Grouping::name;
    std::string group_text_;
    std::optional<Pattern> group_pattern_;
    // Filled as names are given: a record of what was named, not a part of the naming.
    mutable std::vector<ClassMember> members_;
};

/// One-off form of PhaseNamer (compiles the regexes on every call).
std::string phase_name(std::string_view raw_name, std::string_view category, const ImportOptions& options);

}  // namespace amdahl::detail
