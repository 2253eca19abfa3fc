#include <fnmatch.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "amdahl/error.hpp"
#include "amdahl/speedup.hpp"
#include "model/quoted_name.hpp"
#include "model/short_names.hpp"
#include "model/suggest.hpp"
#include "model/text.hpp"

namespace amdahl {

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
        out += quoted_name(names[i]);
    }
    return out;
}

// A selector that is no phase's full name but a short name (model/short_names.hpp): the one
// phase printed under it, or the one phase with it among its readings. Throws when several have
// it (`gemm` for `a::gemm<float>(float*)` and `b::gemm<float>(float*)`), listing them.
std::optional<std::size_t> pick_by_short_name(const Profile& profile, const Selector& selector,
                                              std::vector<std::string>* notes) {
    std::vector<std::string_view> names;
    names.reserve(profile.phases.size());
    for (const auto& phase : profile.phases) names.push_back(phase.name);
    std::vector<std::vector<std::string>> readings(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) readings[i] = name_readings(names[i]);
    const std::vector<std::string> shown = short_names(names, readings);
    if (shown.empty()) return std::nullopt;  // every name is its own short name
    std::vector<std::size_t> holders;
    for (std::size_t i = 0; i < shown.size(); ++i)
        if (shown[i] == selector.pattern) holders.push_back(i);
    if (holders.empty()) {
        for (std::size_t i = 0; i < names.size(); ++i)
            if (std::find(readings[i].begin(), readings[i].end(), selector.pattern) != readings[i].end())
                holders.push_back(i);
    }
    if (holders.empty()) return std::nullopt;
    if (holders.size() > 1) {
        std::string list;
        for (std::size_t k = 0; k < holders.size(); ++k) {
            const std::size_t i = holders[k];
            list += (k == 0                    ? ""
                     : k + 1 == holders.size() ? " and "
                                               : ", ") +
                    quoted_name(profile.phases[i].name) + " (shown as " + quoted_name(shown[i]) + ")";
        }
        throw Error("selector " + quoted_name(selector.text) + " is the short name of " +
                    std::to_string(holders.size()) + " phases: " + list +
                    "; select one by the name shown, or by its full name (--names full prints them)");
    }
    if (notes)
        notes->push_back("selector " + quoted_name(selector.text) + " is the short name of phase " +
                         quoted_name(profile.phases[holders.front()].name) + " and picks it");
    return holders.front();
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
                notes->push_back("selector " + quoted_name(selector.text) +
                                 " is the exact name of a phase and picks only it; as a glob it would also pick " +
                                 list + " (write glob:" + selector.pattern + " for the glob)");
            }
            return {*exact};
        }
    }
    if (!picked.empty()) return picked;
    if (selector.type == Selector::Type::name || (selector.type == Selector::Type::glob && selector.exact_name_first)) {
        if (const auto by_short_name = pick_by_short_name(profile, selector, notes)) return {*by_short_name};
    }

    std::string message = "selector " + quoted_name(selector.text) + " matches no phase";
    if (selector.type == Selector::Type::name || selector.type == Selector::Type::kind) {
        // Suggest the nearest names (or kinds): within a third of the length, closest first.
        std::vector<std::string_view> known;
        known.reserve(profile.phases.size());
        for (const auto& phase : profile.phases)
            known.push_back(selector.type == Selector::Type::name ? phase.name : phase.kind);
        std::vector<std::string> names;
        for (std::string_view name : nearest_names(selector.pattern, known, 3).names)
            names.push_back(selector.type == Selector::Type::name ? std::string(name) : "kind:" + std::string(name));
        if (!names.empty()) message += "; did you mean " + quote_list(names) + "?";
        if (const std::string spaces = unusual_spaces(selector.pattern); !spaces.empty())
            message += " (the selector holds " + spaces +
                       ", which a terminal shows as a space but is not one: retype it with plain spaces)";
        for (const std::string& name : names) {
            const std::string spaces = unusual_spaces(name);
            if (spaces.empty()) continue;
            message += " (" + quoted_name(name) + " holds " + spaces +
                       ", which a terminal shows as a space but is not one: type it as such, e.g. in bash $'\\u00a0')";
            break;
        }
    }
    throw Error(message);
}

}  // namespace amdahl
