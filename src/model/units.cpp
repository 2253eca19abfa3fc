#include "amdahl/units.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <string>

#include "amdahl/error.hpp"
#include "amdahl/numbers.hpp"
#include "model/text.hpp"

namespace amdahl {

using detail::lower;
using detail::trim;

namespace {

struct UnitName {
    std::string_view name;
    Unit unit;
};

constexpr std::array<UnitName, 40> unit_names{{
    {"ns", Unit::ns},
    {"nsec", Unit::ns},
    {"nanosecond", Unit::ns},
    {"nanoseconds", Unit::ns},
    {"us", Unit::us},
    {"\xc2\xb5s", Unit::us},  // µ (micro sign)
    {"\xce\xbcs", Unit::us},  // μ (Greek mu)
    {"usec", Unit::us},
    {"microsecond", Unit::us},
    {"microseconds", Unit::us},
    {"ms", Unit::ms},
    {"msec", Unit::ms},
    {"millisecond", Unit::ms},
    {"milliseconds", Unit::ms},
    {"s", Unit::s},
    {"sec", Unit::s},
    {"secs", Unit::s},
    {"second", Unit::s},
    {"seconds", Unit::s},
    {"min", Unit::min},
    {"mins", Unit::min},
    {"minute", Unit::min},
    {"minutes", Unit::min},
    {"h", Unit::h},
    {"hr", Unit::h},
    {"hrs", Unit::h},
    {"hour", Unit::h},
    {"hours", Unit::h},
    {"nsecs", Unit::ns},
    {"usecs", Unit::us},
    {"msecs", Unit::ms},
    {"nanosec", Unit::ns},
    {"microsec", Unit::us},
    {"millisec", Unit::ms},
    {"\xc2\xb5sec", Unit::us},
    {"\xce\xbcsec", Unit::us},
    {"\xc2\xb5secs", Unit::us},
    {"\xce\xbcsecs", Unit::us},
    {"microsecs", Unit::us},
    {"millisecs", Unit::ms},
}};

// "2,357,053.5" -> "2357053.5" when the commas group digits in threes; empty when they do not.
std::string strip_thousands(std::string_view text) {
    const auto comma = text.find(',');
    if (comma == std::string_view::npos) return std::string(text);
    std::string_view integer = text.substr(0, text.find('.'));
    std::size_t start = (!integer.empty() && (integer[0] == '-' || integer[0] == '+')) ? 1 : 0;
    std::string digits(integer.substr(0, start));
    std::size_t group = 0;
    bool first_group = true;
    for (std::size_t i = start; i <= integer.size(); ++i) {
        if (i == integer.size() || integer[i] == ',') {
            if (group == 0 || group > 3 || (!first_group && group != 3)) return {};
            // "0,500" groups nothing: a group never starts with 0, so its comma is a decimal one.
            if (first_group && integer[start] == '0') return {};
            first_group = false;
            group = 0;
            continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(integer[i]))) return {};
        digits += integer[i];
        ++group;
    }
    if (integer.size() < text.size()) digits += text.substr(integer.size());
    return digits;
}

}  // namespace

double seconds_per(Unit unit) {
    switch (unit) {
        case Unit::ns:
            return 1e-9;
        case Unit::us:
            return 1e-6;
        case Unit::ms:
            return 1e-3;
        case Unit::s:
            return 1;
        case Unit::min:
            return 60;
        case Unit::h:
            return 3600;
    }
    return 1;
}

std::string_view unit_name(Unit unit) {
    switch (unit) {
        case Unit::ns:
            return "ns";
        case Unit::us:
            return "us";
        case Unit::ms:
            return "ms";
        case Unit::s:
            return "s";
        case Unit::min:
            return "min";
        case Unit::h:
            return "h";
    }
    return "?";
}

// The longest name, in bytes: a longer text is no unit, whatever its letters.
constexpr std::size_t longest_unit_name = [] {
    std::size_t longest = 0;
    for (const auto& entry : unit_names) longest = std::max(longest, entry.name.size());
    return longest;
}();

std::optional<Unit> parse_unit(std::string_view text) {
    // No lower-case copy: header detection asks this of every cell and every suffix of it.
    const std::string_view key = trim(text);
    if (key.size() > longest_unit_name) return std::nullopt;
    for (const auto& entry : unit_names) {
        if (detail::equals_ignoring_case(key, entry.name)) return entry.unit;
    }
    return std::nullopt;
}

double convert(double value, Unit from, Unit to) {
    if (from == to) return value;
    // Multiply by the exact integer ratio when one exists, so 2357053 ns -> 2.357053 ms stays exact
    // to the last digit.
    const double ratio = seconds_per(from) / seconds_per(to);
    if (ratio >= 1) return value * std::round(ratio);
    return value / std::round(1 / ratio);
}

Quantity parse_quantity(std::string_view text) {
    text = trim(text);
    Quantity q;
    if (!text.empty() && text.back() == '%') {
        q.percent = true;
        text = trim(text.substr(0, text.size() - 1));
    }
    // Split the numeric part from a unit suffix ("21ms", "21 ms", "1.5s").
    std::size_t end = 0;
    while (end < text.size()) {
        const char c = text[end];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ',' || c == '-' || c == '+' ||
            ((c == 'e' || c == 'E') && end > 0 && end + 1 < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[end + 1])) || text[end + 1] == '-' ||
              text[end + 1] == '+'))) {
            ++end;
            continue;
        }
        break;
    }
    const std::string_view number = text.substr(0, end);
    const std::string_view suffix = trim(text.substr(end));
    if (!suffix.empty()) {
        if (q.percent) throw Error("not a number");
        q.unit = parse_unit(suffix);
        if (!q.unit) {
            if (number.empty()) throw Error("not a number");
            throw Error("unknown unit '" + std::string(suffix) + "' (expected ns, us, ms, s, min or h)");
        }
    }
    const std::string plain = strip_thousands(number);
    if (plain.empty() && number.find(',') != std::string_view::npos)
        throw Error("not a number: commas must group digits in threes, as in 1,234.5 (a decimal comma is not read)");
    if (plain.empty() || !parse_double(plain, q.value)) throw Error("not a finite number");
    return q;
}

}  // namespace amdahl
