#include "amdahl/speedup.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "model/text.hpp"

namespace amdahl {

using detail::lower;
using detail::trim;

namespace {

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    }
    return true;
}

}  // namespace

bool Factor::is_infinite() const { return std::isinf(value); }

Factor parse_factor(std::string_view text) {
    const std::string_view original = text;
    text = trim(text);
    const auto bad = [&](const std::string& why) {
        return Error("bad factor '" + std::string(original) + "': " + why);
    };
    if (text.empty()) throw bad("empty (expected a number such as 10, 10x, inf or -30%)");
    if (iequals(text, "inf") || iequals(text, "infinity") || text == "\xe2\x88\x9e") {
        return Factor{std::numeric_limits<double>::infinity()};
    }
    if (text.back() == '%') {
        // A change in the phase's time: "-30%" means it takes 70% of its time, k = 1 / 0.7.
        double change = 0;
        const std::string_view number = trim(text.substr(0, text.size() - 1));
        if (number.empty() || (number.front() != '-' && number.front() != '+') || !parse_double(number, change))
            throw bad("a percentage must be a signed change in time, such as -30% or +10%");
        const double remaining = 1 + change / 100;
        if (remaining < 0) throw bad("a phase cannot lose more than 100% of its time");
        if (remaining == 0) return Factor{std::numeric_limits<double>::infinity()};
        return Factor{1 / remaining};
    }
    if (text.back() == 'x' || text.back() == 'X') text.remove_suffix(1);
    double value = 0;
    if (!parse_double(trim(text), value)) {
        const std::string copy(trim(text));
        char* end = nullptr;
        const double huge = std::strtod(copy.c_str(), &end);
        if (end != copy.c_str() && *end == '\0' && std::isinf(huge))
            throw bad("too large for a double (write inf for a phase that takes no time)");
        throw bad("not a number (expected e.g. 10, 10x, inf or -30%)");
    }
    if (value <= 0) throw bad("a speedup factor must be > 0 (0.5 is a 2x slowdown)");
    // time / k must stay a number: a slowdown this large is the factor's fault, not the times'.
    if (value < 1e-300) throw bad("too small (a slowdown factor must be at least 1e-300)");
    return Factor{value};
}

std::optional<FactorRange> parse_factor_range(std::string_view text) {
    const auto dots = text.find("..");
    if (dots == std::string_view::npos) return std::nullopt;
    const std::string original(trim(text));
    const auto bad = [&](const std::string& why) { return Error("bad factor range '" + original + "': " + why); };
    const std::string_view low_text = trim(text.substr(0, dots)), high_text = trim(text.substr(dots + 2));
    if (low_text.empty() || high_text.empty()) throw bad("a range needs both ends, such as 8..12");
    const auto end = [&](std::string_view end_text) {
        try {
            return parse_factor(end_text).value;
        } catch (const Error& e) {
            const std::string& why = e.message();
            throw bad("end '" + std::string(end_text) + "': " + why.substr(why.find("': ") + 3));
        }
    };
    const FactorRange range{end(low_text), end(high_text)};
    if (std::isinf(range.low) || std::isinf(range.high))
        throw bad("its ends must be finite (write inf alone for a phase that takes no time)");
    if (range.low > range.high)
        throw bad("reversed (write the smaller end first: " + std::string(high_text) + ".." + std::string(low_text) +
                  ")");
    if (range.low < 1) throw bad("a range of slowdowns (an end below 1) is not supported; give a point factor");
    return range;
}

RangedFactor parse_ranged_factor(std::string_view text) {
    RangedFactor out;
    out.range = parse_factor_range(text);
    // A range's point is its geometric midpoint: k = sqrt(k_low k_high).
    out.point = out.range ? Factor{std::sqrt(out.range->low * out.range->high)} : parse_factor(text);
    return out;
}

Selector parse_selector(std::string_view text) {
    const std::string_view original = text;
    text = trim(text);
    Selector selector;
    selector.text = std::string(original);
    if (text.empty()) throw Error("empty selector (expected a phase name, a glob, kind:KIND or *)");
    if (text == "*") {
        selector.type = Selector::Type::all;
        selector.pattern = "*";
    } else if (text.starts_with("name:")) {
        selector.type = Selector::Type::name;
        selector.pattern = std::string(text.substr(5));
        if (selector.pattern.empty()) throw Error("selector '" + selector.text + "': name: needs a phase name");
    } else if (text.starts_with("glob:")) {
        selector.type = Selector::Type::glob;
        selector.exact_name_first = false;
        selector.pattern = std::string(text.substr(5));
        if (selector.pattern.empty()) throw Error("selector '" + selector.text + "': glob: needs a pattern");
    } else if (text.starts_with("kind:")) {
        selector.type = Selector::Type::kind;
        selector.pattern = std::string(trim(text.substr(5)));
        if (selector.pattern.empty()) throw Error("selector '" + selector.text + "': kind: needs a kind name");
    } else if (text.find_first_of("*?[") != std::string_view::npos) {
        selector.type = Selector::Type::glob;
        selector.pattern = std::string(text);
    } else {
        selector.type = Selector::Type::name;
        selector.pattern = std::string(text);
    }
    return selector;
}

Effort parse_effort(std::string_view text) {
    const std::string_view written = trim(text);
    // The unit is the trailing run of letters, hyphens and spaces: "3w", "2.5 engineer-days".
    std::size_t end = written.size();
    const auto in_word = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '-' || c == ' '; };
    while (end > 0 && in_word(written[end - 1])) --end;
    const std::string_view number = trim(written.substr(0, end));
    std::string unit(trim(written.substr(end)));
    while (!unit.empty() && (unit.front() == '-' || unit.front() == ' ')) unit.erase(0, 1);
    for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Effort effort;
    if (!parse_double(number, effort.value) || !(effort.value > 0) || !std::isfinite(effort.value))
        throw Error("effort must be a number > 0 with an optional unit, such as 3, 3w or 2 days (got '" +
                    std::string(written) + "')");
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 10> short_forms{{{"h", "hour"},
                                                                                                {"hr", "hour"},
                                                                                                {"hrs", "hour"},
                                                                                                {"d", "day"},
                                                                                                {"w", "week"},
                                                                                                {"wk", "week"},
                                                                                                {"wks", "week"},
                                                                                                {"mo", "month"},
                                                                                                {"mos", "month"},
                                                                                                {"mth", "month"}}};
    for (const auto& [from, to] : short_forms)
        if (unit == from) effort.unit = std::string(to);
    if (effort.unit.empty() && unit.size() == 1)
        throw Error("effort '" + std::string(written) + "': unit '" + unit +
                    "' could mean more than one thing: write the word (3 weeks) or use h, d, w or mo");
    if (effort.unit.empty()) effort.unit = unit;
    return effort;
}

SpeedupSpec parse_speedup(std::string_view text) {
    SpeedupSpec spec;
    spec.text = std::string(text);
    const auto eq = text.rfind('=');
    if (eq == std::string_view::npos)
        throw Error("speedup '" + spec.text + "': expected SELECTOR=FACTOR (e.g. attention=10)");
    spec.selector = parse_selector(text.substr(0, eq));
    std::string_view factor = text.substr(eq + 1);
    if (const auto at = factor.find('@'); at != std::string_view::npos) {
        try {
            const Effort effort = parse_effort(factor.substr(at + 1));
            spec.effort = effort.value;
            spec.effort_unit = effort.unit;
        } catch (const Error& e) {
            throw Error("speedup '" + spec.text + "': " + e.message());
        }
        factor = factor.substr(0, at);
    }
    try {
        const RangedFactor ranged = parse_ranged_factor(factor);
        spec.factor = ranged.point;
        spec.range = ranged.range;
    } catch (const Error& e) {
        throw Error("speedup '" + spec.text + "': " + e.message());
    }
    return spec;
}

}  // namespace amdahl
