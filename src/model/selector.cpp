#include <fnmatch.h>

#include <algorithm>
#include <numeric>

#include "amdahl/error.hpp"
#include "amdahl/speedup.hpp"
#include "model/text.hpp"

namespace amdahl {

using detail::lower;
using detail::trim;

namespace {

bool glob_match(const std::string& pattern, const std::string& text) {
    return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

// "'a', 'b' or 'c'" (or "and").
std::string quote_list(const std::vector<std::string>& names, const char* last = " or ") {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? last : ", ";
        out += "'" + names[i] + "'";
    }
    return out;
}

}  // namespace

bool is_bookkeeping_phase(const Phase& phase) {
    return phase.name == unattributed_phase || phase.name == idle_phase || phase.name == overlapped_phase;
}

bool Selector::matches(const Phase& phase) const {
    // Time amdahl itself accounts for (unattributed, idle, overlapped) is no one's work to speed
    // up: only a selector that names it picks it.
    switch (type) {
        case Type::name:
            return phase.name == pattern;
        case Type::all:
            return !is_bookkeeping_phase(phase);
        case Type::glob:
            return !is_bookkeeping_phase(phase) && glob_match(pattern, phase.name);
        case Type::kind:
            return !is_bookkeeping_phase(phase) && glob_match(pattern, phase.kind);
    }
    return false;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::vector<std::size_t> select_phases(const Profile& profile, const Selector& selector,
                                       std::vector<std::string>* notes) {
    std::vector<std::size_t> picked;
    for (std::size_t i = 0; i < profile.phases.size(); ++i) {
        if (selector.matches(profile.phases[i])) picked.push_back(i);
    }
    if (selector.type == Selector::Type::glob && selector.exact_name_first) {
        // Real names look like globs; the exact name is what the user copied from a table.
        if (const auto exact = profile.find(selector.pattern)) {
            std::vector<std::string> others;
            for (std::size_t i : picked)
                if (i != *exact) others.push_back(profile.phases[i].name);
            if (!others.empty() && notes) {
                constexpr std::size_t listed = 5;
                std::string list = quote_list(
                    std::vector<std::string>(
                        others.begin(), others.begin() + static_cast<std::ptrdiff_t>(std::min(others.size(), listed))),
                    others.size() > listed ? ", " : " and ");
                if (others.size() > listed) list += " and " + std::to_string(others.size() - listed) + " more";
                notes->push_back("selector '" + selector.text +
                                 "' is the exact name of a phase and picks only it; as a glob it would also pick " +
                                 list + " (write glob:" + selector.pattern + " for the glob)");
            }
            return {*exact};
        }
    }
    if (!picked.empty()) return picked;

    std::string message = "selector '" + selector.text + "' matches no phase";
    if (selector.type == Selector::Type::name || selector.type == Selector::Type::kind) {
        // Suggest the nearest names (or kinds): within a third of the length, closest first.
        std::vector<std::pair<std::size_t, std::string>> near;
        for (const auto& phase : profile.phases) {
            const std::string& candidate = selector.type == Selector::Type::name ? phase.name : phase.kind;
            if (candidate.empty()) continue;
            const std::size_t distance = edit_distance(lower(selector.pattern), lower(candidate));
            const bool contains = candidate.find(selector.pattern) != std::string::npos ||
                                  selector.pattern.find(candidate) != std::string::npos;
            if (distance <= std::max<std::size_t>(2, selector.pattern.size() / 3) || contains)
                near.emplace_back(distance, candidate);
        }
        std::sort(near.begin(), near.end());
        near.erase(std::unique(near.begin(), near.end()), near.end());
        std::vector<std::string> names;
        for (const auto& entry : near) {
            if (names.size() == 3) break;
            names.push_back(selector.type == Selector::Type::name ? entry.second : "kind:" + entry.second);
        }
        if (!names.empty()) message += "; did you mean " + quote_list(names) + "?";
    }
    throw Error(message);
}

}  // namespace amdahl
