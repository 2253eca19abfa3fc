#include "input/profilers/naming.hpp"

#include "amdahl/error.hpp"
#include "amdahl/report.hpp"
#include "input/profilers/kernel_class.hpp"

namespace amdahl::detail {

namespace {

// \0-\9, $0-$9, ${ or \g<: how sed, RE2, JavaScript and Python write a group in a replacement.
bool has_backreference(std::string_view name) {
    for (std::size_t i = 0; i + 1 < name.size(); ++i) {
        const char next = name[i + 1];
        if ((name[i] == '\\' || name[i] == '$') && next >= '0' && next <= '9') return true;
        if ((name[i] == '$' && next == '{') ||
            (name[i] == '\\' && next == 'g' && i + 2 < name.size() && name[i + 2] == '<'))
            return true;
    }
    return false;
}

}  // namespace

PhaseNamer::PhaseNamer(const ImportOptions& options) {
    for (const auto& [old_name, name] : options.renames) {
        const std::string shown = old_name + "=" + name;
        if (name.empty()) throw Error("--rename", "'" + printable(shown) + "': the name after '=' is empty");
        if (!exact_.emplace(old_name, name).second && exact_[old_name] != name)
            throw Error("--rename", "'" + printable(old_name) + "' is renamed twice, to '" +
                                        printable(exact_[old_name]) + "' and to '" + printable(name) + "'");
    }
    for (const auto& [pattern, name] : options.rename_patterns) {
        const std::string shown = pattern + "=" + name;
        if (name.empty()) throw Error("--rename-regex", "'" + printable(shown) + "': the name after '=' is empty");
        if (has_backreference(name))
            throw Error("--rename-regex",
                        "'" + printable(shown) +
                            "': the name holds a backreference, but --rename-regex gives every name the pattern is "
                            "found in the one name written after '=' (the phases would become one); for names from "
                            "a capture group, give --group-by 'regex:PATTERN' (the first group is the name)");
        renames_.push_back(Rename{shown, Pattern(pattern, "--rename-regex", shown), name});
    }
    const std::string& group = options.group_by;
    if (group.empty() || group == "name") {
        grouping_ = Grouping::name;
    } else if (group == "cat") {
        grouping_ = Grouping::category;
    } else if (group == "class") {
        grouping_ = Grouping::kernel_class;
    } else if (group.starts_with("regex:")) {
        grouping_ = Grouping::pattern;
        group_text_ = group;
        group_pattern_.emplace(group.substr(6), "--group-by", group);
    } else {
        throw Error("--group-by", "expected name, cat, class or regex:PATTERN (got '" + printable(group) + "')");
    }
}

std::string PhaseNamer::operator()(std::string_view raw_name, std::string_view category, std::string_view kind) const {
    if (!exact_.empty()) {
        if (const auto found = exact_.find(std::string(raw_name)); found != exact_.end()) return found->second;
    }
    for (const auto& rename : renames_) {
        if (rename.pattern.found_in(raw_name)) return rename.name;
    }
    switch (grouping_) {
        case Grouping::name:
            break;
        case Grouping::category:
            if (!category.empty()) return std::string(category);
            break;
        case Grouping::kernel_class: {
            const KernelClass found = kernel_class(raw_name, kind);
            members_.push_back(ClassMember{std::string(found.name), std::string(raw_name), found.rule});
            return std::string(found.name);
        }
        case Grouping::pattern:
            if (const auto chosen = group_pattern_->first_group(raw_name); chosen && !chosen->empty())
                return std::string(*chosen);
            break;
    }
    return std::string(raw_name);
}

std::string phase_name(std::string_view raw_name, std::string_view category, const ImportOptions& options) {
    return PhaseNamer(options)(raw_name, category);
}

}  // namespace amdahl::detail
