#include "import/naming.hpp"

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"

namespace amdahl::detail {

namespace {

std::regex compile(const std::string& pattern, const std::string& option, const std::string& shown) {
    if (pattern.empty()) throw Error(option, "'" + printable(shown) + "': the regular expression is empty");
    try {
        return std::regex(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        throw Error(option, "'" + printable(shown) + "' is not a valid regular expression (" + e.what() + ")");
    }
}

using ViewMatch = std::match_results<std::string_view::const_iterator>;

bool search(std::string_view text, const std::regex& pattern, ViewMatch& match, const std::string& option,
            const std::string& shown) {
    try {
        return std::regex_search(text.begin(), text.end(), match, pattern);
    } catch (const std::regex_error& e) {
        // std::regex gives up on some patterns with deep backtracking (error_complexity/stack).
        throw Error(option, "'" + printable(shown) + "': the regular expression failed on '" + printable(text) +
                                "' (" + e.what() + ")");
    }
}

}  // namespace

PhaseNamer::PhaseNamer(const ImportOptions& options) {
    for (const auto& [pattern, name] : options.renames) {
        const std::string shown = pattern + "=" + name;
        if (name.empty()) throw Error("--rename", "'" + printable(shown) + "': the name after '=' is empty");
        renames_.push_back(Rename{shown, compile(pattern, "--rename", shown), name});
    }
    const std::string& group = options.group_by;
    if (group.empty() || group == "name") {
        grouping_ = Grouping::name;
    } else if (group == "cat") {
        grouping_ = Grouping::category;
    } else if (group.starts_with("regex:")) {
        grouping_ = Grouping::pattern;
        group_text_ = group;
        group_pattern_ = compile(group.substr(6), "--group-by", group);
    } else {
        throw Error("--group-by", "expected name, cat or regex:PATTERN (got '" + printable(group) + "')");
    }
}

std::string PhaseNamer::operator()(std::string_view raw_name, std::string_view category) const {
    ViewMatch match;
    for (const auto& rename : renames_) {
        if (search(raw_name, rename.pattern, match, "--rename", rename.text)) return rename.name;
    }
    switch (grouping_) {
        case Grouping::name: break;
        case Grouping::category:
            if (!category.empty()) return std::string(category);
            break;
        case Grouping::pattern:
            if (search(raw_name, group_pattern_, match, "--group-by", group_text_)) {
                const auto& chosen = match.size() > 1 && match[1].matched ? match[1] : match[0];
                if (chosen.length() > 0) return chosen.str();
            }
            break;
    }
    return std::string(raw_name);
}

std::string phase_name(std::string_view raw_name, std::string_view category, const ImportOptions& options) {
    return PhaseNamer(options)(raw_name, category);
}

}  // namespace amdahl::detail
