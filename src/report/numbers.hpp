#pragma once
// The one number formatter: every number a person reads (tables, summary lines, gate messages,
// notes, --explain) and every number a script reads goes through these functions.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "amdahl/numbers.hpp"
#include "amdahl/units.hpp"

namespace amdahl {

/// A time for people: up to `decimals` decimals, trailing zeros dropped but one kept, thousands
/// grouped: "18.0", "2.1", "4,424.2", "inf". Never "-0.0".
std::string format_time(double value, const NumberStyle& style = {});
/// A time with its unit, for notes and messages: "15.386 ms", "4,424.2 us".
std::string format_duration(double value, Unit unit, const NumberStyle& style = {});
/// The same with a sign for a change: "+0.6", "-16.0", "0.0".
std::string format_signed_time(double value, const NumberStyle& style = {});
/// An end-to-end speedup: exactly `decimals` decimals, more when that would show a non-zero
/// value as 0: "1.2330x", "0.00001000x", "∞".
std::string format_speedup(double value, const NumberStyle& style = {});
/// A local factor as the user wrote it: "10x", "1.4286x", "1.00001x", "inf".
std::string format_factor(double value, const NumberStyle& style = {});
/// A fraction as a percentage with `significant` digits, trailing zeros dropped but one decimal
/// kept: "18.0%", "65.4%", "1.23%", "0.014%"; never "0.0%" for a non-zero value; "-" if NaN.
std::string format_share(double fraction, const NumberStyle& style = {});
/// The same with a sign: "+10.0%", "-76.2%", "0.0%"; "new" for +inf (from zero), "-" if undefined.
std::string format_signed_share(double fraction, const NumberStyle& style = {});
/// A number with exactly `decimals` decimals and an optional sign, never "-0.0000": a fitted
/// fraction or a residual ("0.9501", "+0.0012").
std::string format_fixed(double value, const NumberStyle& style = {}, bool sign = false);
/// A plain number in an equation (--explain): `significant` + 3 digits, no grouping: "0.79", "1e-05".
std::string format_plain(double value, const NumberStyle& style = {});
/// Money for people: two decimals, thousands grouped, with its currency: a symbol before the
/// number ("$21,900,000.00", "-$5.00"), a code or word after it ("21,900,000.00 USD").
std::string format_money(double value, std::string_view currency, const NumberStyle& style = {});
/// A count for people, thousands grouped: "1", "12,345" (a phase's calls).
std::string format_count(std::uint64_t count);
/// "1 phase", "2 phases", "1 engineer-week", "3 engineer-weeks" (English plural by suffix).
std::string count_of(std::size_t count, std::string_view noun);
/// An amount of a unit the user named, singular only for exactly 1: "1 engineer-week",
/// "2.5 engineer-weeks" (the one place efforts are counted in words).
std::string amount_of(double amount, std::string_view noun, const NumberStyle& style = {});
/// The plural of a noun: "phase" -> "phases", "batch" -> "batches", "ms" stays "ms".
std::string plural(std::string_view noun);
/// The singular of a noun given in the plural: "weeks" -> "week", "story points" -> "story point".
std::string singular(std::string_view noun);

/// Shortest decimal text that reads back as the same double, after dropping floating-point noise
/// of the last few bits ("38.161", never "38.16100000000006"): for scripts (JSON, CSV).
std::string shortest(double value);
/// The same written into `buffer` (32 bytes at least), returning the end: the JSON writer's path.
char* write_shortest(char* buffer, double value);
/// The shortest text that reads back as exactly `value`, noise and all: for data that must read
/// back bit for bit (a profile written by import).
char* write_round_trip(char* buffer, double value);
/// A number for scripts: shortest(value), "inf", "-inf", or "" for NaN.
std::string machine_number(double value);

}  // namespace amdahl
