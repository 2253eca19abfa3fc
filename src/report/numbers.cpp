#include "report/numbers.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace amdahl {

namespace {

constexpr const char* infinity_sign = "\xe2\x88\x9e";  // ∞

// Whether Dragonbox's text looks like a short decimal plus noise of the last bits: 16 or more
// characters of mantissa ending in a run of three or more 0s or 9s and at most two other digits
// ("38.16100000000006", "0.5999999999999996"). A true ratio has no such run and is written as it
// is without a second look; a candidate is confirmed by write_shortest. On every number: cheap.
bool looks_noisy(const char* begin, const char* end) {
    if (end - begin < 16) return false;  // most numbers: nothing to look at
    const char* mantissa_end = end;      // an exponent is at most "e-308", at the end
    for (const char* q = end; q != begin && end - q < 6;) {
        if (*--q == 'e') {
            mantissa_end = q;
            break;
        }
    }
    if (mantissa_end - begin < 16) return false;
    const char* p = mantissa_end;
    int tail = 0;
    while (p != begin && p[-1] != '0' && p[-1] != '9') {
        if (p[-1] == '.' || ++tail > 2) return false;
        --p;
    }
    if (p == begin) return false;
    const char repeated = p[-1];
    int run = 0;
    while (p != begin && (p[-1] == repeated || p[-1] == '.')) {
        if (p[-1] == repeated) ++run;
        --p;
    }
    if (run < 3) return false;
    // A candidate: it must have 16 or more significant digits, else it is exact as written.
    int digits = 0;
    bool started = false;
    for (const char* q = begin; q != mantissa_end; ++q) {
        if (*q < '0' || *q > '9' || (*q == '0' && !started)) continue;
        started = true;
        ++digits;
    }
    return digits >= 16;
}

// Sums of measured times leave noise in the last bits (10.5 + 27.661 = 38.16100000000006): a
// short decimal within this many units in the last place reads as the number that was meant.
constexpr double noise_ulps = 16;

bool close_enough(double a, double b) {
    return std::fabs(a - b) <= noise_ulps * std::numeric_limits<double>::epsilon() * std::fabs(b);
}

// Inserts thousands separators into the integer part of a plain decimal text.
void group_thousands(std::string& text) {
    const std::size_t start = text[0] == '-' || text[0] == '+' ? 1 : 0;
    std::size_t end = text.find('.');
    if (end == std::string::npos) end = text.size();
    for (std::size_t pos = end; pos > start + 3;) {
        pos -= 3;
        text.insert(pos, ",");
    }
}

// Fixed-point text with trailing zeros dropped, at least `min_decimals` kept.
std::string trimmed_fixed(double value, int decimals, int min_decimals) {
    std::string text = fmt::format("{:.{}f}", value, decimals);
    if (const auto dot = text.find('.'); dot != std::string::npos) {
        std::size_t keep = text.size();
        while (keep > dot + 1 + static_cast<std::size_t>(min_decimals) && text[keep - 1] == '0') --keep;
        if (keep == dot + 1) --keep;  // no bare point
        text.resize(keep);
    }
    return text;
}

bool reads_as_zero(const std::string& text) { return text.find_first_of("123456789") == std::string::npos; }

// Decimals that show a non-zero |value| < 1 with `digits` significant digits.
int decimals_for(double value, int digits) {
    if (value == 0 || std::fabs(value) >= 1) return 0;
    return digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(value))));
}

// From 1e15 on, fixed-point text runs to as many as 309 digits, "4,399,999,999,999,999,888,640,..."
// for 4.4e306, of which the input gave at most 17: such a number is written in the shortest
// text that reads back the same, in scientific form ("4.4e+306").
constexpr double huge = 1e15;

std::string huge_text(double value) {
    // The significant digits of the shortest text, which may be written without an exponent
    // ("1000000000000000"), then as many in scientific form.
    char text[40];
    const char* const end = write_shortest(text, value);
    const char* const mantissa_end = std::find(static_cast<const char*>(text), end, 'e');
    std::string digits;
    for (const char* p = text; p != mantissa_end; ++p) {
        if (*p >= '0' && *p <= '9' && !(digits.empty() && *p == '0')) digits += *p;
    }
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    return fmt::format("{:.{}e}", value, std::max<int>(static_cast<int>(digits.size()) - 1, 0));
}

// The significant digits of a number's text, its exponent aside ("0.00012345": 5, "1e-05": 1).
int significant_digits(std::string_view text) {
    int digits = 0, zeros = 0;  // zeros: trailing ones, not significant in "0.5000"
    bool started = false;
    for (const char c : text.substr(0, text.find_first_of("eE"))) {
        if (c < '0' || c > '9') continue;
        if (c == '0' && !started) continue;
        started = true;
        ++digits;
        zeros = c == '0' ? zeros + 1 : 0;
    }
    return std::max(digits - zeros, 1);
}

}  // namespace

char* write_round_trip(char* buffer, double value) {
    if (value == 0) {  // no "-0"
        *buffer = '0';
        return buffer + 1;
    }
    if (std::fabs(value) < 1e15 && value == std::trunc(value))
        return std::to_chars(buffer, buffer + 32, static_cast<long long>(value)).ptr;
    return fmt::format_to(buffer, FMT_COMPILE("{}"), value);
}

char* write_shortest(char* buffer, double value) {
    if (value == 0) {  // no "-0"
        *buffer = '0';
        return buffer + 1;
    }
    if (std::fabs(value) < 1e15 && value == std::trunc(value))
        return std::to_chars(buffer, buffer + 32, static_cast<long long>(value)).ptr;
    // fmt's Dragonbox: the shortest text that reads back the same.
    char* end = fmt::format_to(buffer, FMT_COMPILE("{}"), value);
    if (!looks_noisy(buffer, end)) return end;
    // 16 or 17 digits: noise if a decimal of at most 12 digits lies within a few units in the
    // last place (measured data has no more; a true ratio such as 100/6 has no such neighbour).
    char probe[40];
    char* probe_end = fmt::format_to(probe, FMT_COMPILE("{:.11e}"), value);
    double candidate = 0;
    std::from_chars(probe, probe_end, candidate);
    if (!close_enough(candidate, value)) return end;
    if (std::fabs(candidate) < 1e15 && candidate == std::trunc(candidate))
        return std::to_chars(buffer, buffer + 32, static_cast<long long>(candidate)).ptr;
    return fmt::format_to(buffer, FMT_COMPILE("{}"), candidate);
}

std::string format_money(double value, std::string_view currency, const NumberStyle& style) {
    if (!std::isfinite(value)) return (std::isnan(value) ? "-" : value > 0 ? "inf " : "-inf ") + std::string(currency);
    std::string text = fmt::format("{:.2f}", std::fabs(value));
    if (style.grouping) group_thousands(text);
    const bool negative = value < 0 && !reads_as_zero(text);
    // A symbol ($, €, £, ¥) has no letters or digits: it goes before the number.
    const bool symbol = !currency.empty() && std::none_of(currency.begin(), currency.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0;
    });
    if (symbol) return (negative ? "-" : "") + std::string(currency) + text;
    return (negative ? "-" : "") + text + (currency.empty() ? "" : " " + std::string(currency));
}

std::string format_count(std::uint64_t count) {
    const std::string digits = std::to_string(count);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string shortest(double value) {
    char text[40];
    return std::string(text, write_shortest(text, value));
}

std::string machine_number(double value) {
    if (std::isnan(value)) return "";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return shortest(value);
}

std::string format_time(double value, const NumberStyle& style) {
    if (std::isnan(value)) return "-";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (std::fabs(value) >= huge) return huge_text(value);
    int decimals = std::max(style.decimals, 1);
    // A small non-zero time keeps two significant digits, 0.00004 ms is not "0.0", down to three
    // decimals past the precision: below that it is rounding noise (1e-14 left by a subtraction).
    decimals = std::max(decimals, std::min(decimals_for(value, 2), decimals + 3));
    std::string text = trimmed_fixed(value, decimals, 1);
    if (reads_as_zero(text)) return "0.0";  // also "-0.0"
    if (style.grouping) group_thousands(text);
    return text;
}

std::string format_duration(double value, Unit unit, const NumberStyle& style) {
    return format_time(value, style) + " " + std::string(unit_name(unit));
}

std::string format_signed_time(double value, const NumberStyle& style) {
    std::string text = format_time(value, style);
    if (value > 0 && text != "0.0") text.insert(0, "+");
    return text;
}

std::string format_speedup(double value, const NumberStyle& style) {
    if (std::isnan(value)) return "-";
    if (std::isinf(value)) return value > 0 ? infinity_sign : "-inf";
    if (std::fabs(value) >= huge) return huge_text(value) + "x";
    int decimals = std::max(style.decimals, std::min(decimals_for(value, style.decimals), 15));
    std::string text = fmt::format("{:.{}f}", value, decimals);
    if (reads_as_zero(text) && value != 0) return huge_text(value) + "x";  // 1e-300x, not 0.000000000000000x
    // Nor a whole number for one that is not (1.00002 is not "1.0000x", 1.99996 not "2.0000x", and
    // at --precision 0, 1.3125 not "1x").
    const auto reads_whole = [](const std::string& t) {
        const auto dot = t.find('.');
        return dot == std::string::npos || t.find_first_not_of('0', dot + 1) == std::string::npos;
    };
    // Two significant digits of the difference, so that 1.0000051 and 1.0000102 read apart.
    const double difference = std::fabs(value - std::round(value));
    if (reads_whole(text) && difference > 1e-12 * std::fabs(value))
        text = fmt::format("{:.{}f}", value, std::max(decimals, std::min(decimals_for(difference, 2), 15)));
    if (style.grouping && std::fabs(value) >= 1000) group_thousands(text);
    return text + "x";
}

std::string format_factor(double value, const NumberStyle& style) {
    if (std::isnan(value)) return "-";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (std::fabs(value) >= huge) return huge_text(value) + "x";
    // Below 1 as written, up to six significant digits (0.00012345x, not 0.0001x), else four
    // (1/3 is 0.3333x), and from 1e-5 down in scientific form (6e-11x, not 0.0000000001x).
    if (value != 0 && std::fabs(value) < 1) {
        if (std::fabs(value) < 1e-5) return huge_text(value) + "x";
        const int written = significant_digits(shortest(value));
        const std::string text = trimmed_fixed(value, decimals_for(value, written <= 6 ? written : 4), 0);
        return (text.find('.') == std::string::npos ? shortest(value) : text) + "x";  // 0.99999999 is not 1
    }
    // As many decimals as tell it from a round number: 1.00001 is not 1.
    int decimals = std::max(style.decimals, 1);
    std::string text = trimmed_fixed(value, decimals, 0);
    while (decimals < 12 && std::fabs(std::stod(text) - value) > 1e-12 * std::fabs(value) &&
           (text.find('.') == std::string::npos || reads_as_zero(text))) {
        text = trimmed_fixed(value, ++decimals, 0);
    }
    if (style.grouping && std::fabs(value) >= 1000) group_thousands(text);
    return text + "x";
}

std::string format_share(double fraction, const NumberStyle& style) {
    if (std::isnan(fraction)) return "-";
    if (std::isinf(fraction)) return fraction > 0 ? "inf%" : "-inf%";
    const double percent = fraction * 100;
    if (std::fabs(percent) >= huge) return huge_text(percent) + "%";  // -1e+302%, not 300 digits
    const int digits = std::max(style.significant, 1);
    // Down to a millionth of a percent; a non-zero share below that reads "~0%", never "0.0%".
    constexpr int max_decimals = 6;
    int decimals = 1;
    if (percent != 0) {
        const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(percent))));
        decimals = std::clamp(digits - 1 - magnitude, 1, max_decimals);
    }
    std::string text = trimmed_fixed(percent, decimals, 1);
    if (reads_as_zero(text)) return percent == 0 ? "0.0%" : "~0%";
    // Nor "100.0%" for a share that is not all of it (0.99999 beside a ceiling of 100,000x): more
    // decimals, down to a millionth of a percent; rounding noise of a sum of shares is all of it.
    const auto reads_as_all = [](const std::string& t) { return t == "100.0" || t == "-100.0"; };
    if (reads_as_all(text) && std::fabs(std::fabs(fraction) - 1) > 1e-9) {
        while (reads_as_all(text) && decimals < max_decimals) text = trimmed_fixed(percent, ++decimals, 1);
        if (reads_as_all(text)) return percent < 0 ? "-~100%" : "~100%";
    }
    return text + "%";
}

std::string format_signed_share(double fraction, const NumberStyle& style) {
    if (std::isnan(fraction)) return "-";
    if (std::isinf(fraction)) return fraction > 0 ? "new" : "-";
    std::string text = format_share(fraction, style);
    if (fraction > 0 && text != "0.0%" && text != "~0%") text.insert(0, "+");
    return text;
}

std::string format_fixed(double value, const NumberStyle& style, bool sign) {
    if (std::isnan(value)) return "-";
    if (std::isinf(value)) return value > 0 ? (sign ? "+inf" : "inf") : "-inf";
    std::string text = fmt::format("{:.{}f}", value, std::max(style.decimals, 0));
    if (reads_as_zero(text) && text.front() == '-') text.erase(0, 1);  // no "-0.0000"
    if (sign && text.front() != '-') text.insert(0, "+");
    return text;
}

std::string format_plain(double value, const NumberStyle& style) {
    if (std::isnan(value)) return "-";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    std::string text = fmt::format("{:.{}g}", value, std::max(style.significant + 3, 1));
    return text == "-0" ? "0" : text;
}

std::string plural(std::string_view noun) {
    if (noun.empty()) return std::string(noun);
    // Units and words that are their own plural.
    for (std::string_view same : {"ns", "us", "ms", "s", "min", "h", "effort", "\xc2\xb5s"})
        if (noun == same) return std::string(noun);
    const char last = noun.back();
    const bool sibilant = last == 's' || last == 'x' || last == 'z' || noun.ends_with("ch") || noun.ends_with("sh");
    if (sibilant) return std::string(noun) + "es";
    if (last == 'y' && noun.size() > 1 &&
        std::string_view("aeiou").find(noun[noun.size() - 2]) == std::string_view::npos)
        return std::string(noun.substr(0, noun.size() - 1)) + "ies";
    return std::string(noun) + "s";
}

std::string singular(std::string_view noun) {
    // "weeks" -> "week", "story points" -> "story point", "sprint-days" -> "sprint-day"; "class",
    // "bus" and "basis" stay: -ss, -us and -is are no plurals.
    if (noun.size() > 3 && noun.ends_with("ies")) return std::string(noun.substr(0, noun.size() - 3)) + "y";
    if (noun.size() > 1 && noun.back() == 's' && !noun.ends_with("ss") && !noun.ends_with("us") &&
        !noun.ends_with("is") && plural(noun) != noun)
        return std::string(noun.substr(0, noun.size() - 1));
    return std::string(noun);
}

std::string amount_of(double amount, std::string_view noun, const NumberStyle& style) {
    return fmt::format("{} {}", format_plain(amount, style), amount == 1 ? std::string(noun) : plural(noun));
}

std::string count_of(std::size_t count, std::string_view noun) {
    return fmt::format("{} {}", count, count == 1 ? std::string(noun) : plural(noun));
}

}  // namespace amdahl
