#pragma once
/// \file Time units and durations written the way people write them ("2,357,053 ns", "1.5s").
#include <optional>
#include <string>
#include <string_view>

namespace amdahl {

enum class Unit { ns, us, ms, s, min, h };

/// Seconds in one `unit`.
double seconds_per(Unit unit);
/// The canonical short name: "ns", "us", "ms", "s", "min", "h".
std::string_view unit_name(Unit unit);
/// Parses a unit name: ns, nsec, us, µs, usec, ms, msec, s, sec, min, h, hr and long forms
/// (milliseconds, ...), case-insensitive. Empty when `text` is not a unit.
std::optional<Unit> parse_unit(std::string_view text);
/// Converts `value` from one unit to another.
double convert(double value, Unit from, Unit to);

/// A number with an optional unit suffix, as found in a profile cell.
struct Quantity {
    double value = 0;
    std::optional<Unit> unit;
    bool percent = false;  ///< written with a trailing '%'
};

/// Parses "18", "18.0", "2,357,053", "21 ms", "1.5s", "18%", "1e-3". Thousands separators must
/// group digits in threes. Throws amdahl::Error (no location) when the text is not such a number;
/// NaN and infinities are rejected.
Quantity parse_quantity(std::string_view text);

}  // namespace amdahl
