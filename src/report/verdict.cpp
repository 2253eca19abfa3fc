// The design-review sentence of `eval`, built from the evaluation (see verdict.hpp).
#include "report/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "amdahl/report.hpp"
#include "report/report.hpp"

namespace amdahl {

namespace {

// Below this share of the time, the most a target could ever buy is "only" that.
constexpr double small_share = 0.1;
// The untouched phases named as where more time is: at most this many.
constexpr std::size_t named_phases = 3;

// What the profile's time is, in words: the reader must know what the shares are shares of.
std::string boundary_words(const Profile& profile) {
    if (profile.summary_only) return over_summed_rows(profile) ? "the summed rows" : "the declared total";
    if (!profile.steps.empty()) return "the step";
    const bool all_device =
        !profile.phases.empty() && std::all_of(profile.phases.begin(), profile.phases.end(), [](const Phase& p) {
            return p.kind == "kernel" || p.kind == "copy" || p.kind == "memset";
        });
    return all_device ? "device time" : "the total";
}

std::string join_and(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

// What a spec picks, for people: the one phase's name, or the selector with its phase count;
// `factor`, when given, goes inside the same parentheses.
std::string target_words(const EvalResult& r, std::size_t spec, const std::string& factor = {}) {
    std::vector<std::size_t> picked;
    for (std::size_t i = 0; i < r.evaluation.phases.size(); ++i)
        if (r.evaluation.phases[i].spec == static_cast<int>(spec)) picked.push_back(i);
    const std::string after = factor.empty() ? "" : " (" + factor + ")";
    if (picked.size() == 1) return printable(r.profile->phases[picked.front()].name) + after;
    return fmt::format("{} ({} phases{})", printable(r.speedups[spec].selector.text), picked.size(),
                       factor.empty() ? "" : ", " + factor);
}

}  // namespace

std::string_view capital_article(std::string_view number) {
    // The integer part's leading group of up to three digits is what is read first: "eight",
    // "eleven", "eighteen", "eighty-", "eight hundred" begin with a vowel sound.
    std::string digits;
    for (const char c : number) {
        if (c == ',') continue;
        if (c < '0' || c > '9') break;
        digits += c;
    }
    if (digits.empty()) return "A";
    const std::size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
    const int group = std::stoi(digits.substr(0, lead));
    const bool vowel =
        group == 8 || group == 11 || group == 18 || (group >= 80 && group <= 89) || (group >= 800 && group <= 899);
    return vowel ? "An" : "A";
}

std::string eval_verdict(const EvalResult& r, const NumberStyle& style) {
    const Evaluation& e = r.evaluation;
    const Profile& profile = *r.profile;
    const std::string of = boundary_words(profile);
    const bool one = r.speedups.size() == 1;
    std::string subject;
    // A factor range is named by its ends ("8x to 12x"), never by its midpoint alone.
    const auto factor_words = [&](const SpeedupSpec& spec) {
        return spec.range ? format_factor(spec.range->low, style) + " to " + format_factor(spec.range->high, style)
                          : format_factor(spec.factor.value, style);
    };
    if (one) {
        const double k = r.speedups.front().factor.value;
        const std::string target = target_words(r, 0);
        const std::string factor = k >= 1 ? factor_words(r.speedups.front()) : format_factor(1 / k, style);
        subject = std::isinf(k) ? fmt::format("Making {} take no time", target)
                                : fmt::format("{} {} {} of {}", capital_article(factor), factor,
                                              k >= 1 ? "speedup" : "slowdown", target);
    } else {
        std::vector<std::string> parts;
        for (std::size_t s = 0; s < r.speedups.size(); ++s)
            parts.push_back(target_words(r, s, factor_words(r.speedups[s])));
        subject = "Changes to " + join_and(parts);
    }
    if (r.speedups.empty()) {
        std::size_t largest = 0;
        for (std::size_t i = 1; i < profile.phases.size(); ++i)
            if (profile.phases[i].time > profile.phases[largest].time) largest = i;
        if (profile.phases.empty() || !(e.baseline_time > 0))
            return "No speedup is proposed, and the profile takes no time.";
        return fmt::format("No speedup is proposed; the largest part of {} is {} ({}).", of,
                           printable(profile.phases[largest].name),
                           format_share(profile.phases[largest].time / e.baseline_time, style));
    }
    std::string sentence =
        fmt::format("{}, {} of {}{}, ", subject, format_share(e.affected_fraction, style), of, one ? "" : " together");
    const std::string speedup = format_speedup(e.speedup, style);
    if (e.time_saved < 0) {
        return sentence + fmt::format("{} {} of it ({}): the run gets slower.", one ? "costs" : "cost",
                                      format_share(-e.saved_fraction, style), speedup);
    }
    if (e.uncertainty && e.uncertainty->any_range()) {
        // Each end of the range: a saving of 1 - 1/S of the total at that end's S.
        const Interval& ends = e.uncertainty->speedup;
        sentence += fmt::format("{} {} to {} of it ({} to {}; {} at the point)", one ? "buys" : "buy",
                                format_share(1 - 1 / ends.low, style), format_share(1 - 1 / ends.high, style),
                                format_speedup(ends.low, style), format_speedup(ends.high, style), speedup);
    } else {
        sentence +=
            fmt::format("{} {} of it ({})", one ? "buys" : "buy", format_share(e.saved_fraction, style), speedup);
    }
    // The ceiling: the saving with the sped-up phases at no time, f.
    const bool at_ceiling =
        std::all_of(r.speedups.begin(), r.speedups.end(), [](const SpeedupSpec& s) { return s.factor.is_infinite(); });
    if (!at_ceiling && e.affected_fraction > 0) {
        sentence +=
            fmt::format("; {} {}", one ? "even an infinitely fast one would buy" : "at no time they would buy",
                        (e.affected_fraction < small_share ? "only " : "") + format_share(e.affected_fraction, style));
    }
    // Where the rest of the time is: the untouched phases larger than what was sped up.
    // (Of the overlapped phase, only the time that ran beside an untouched phase.)
    const auto untouched_time = [&](std::size_t i) {
        return e.phases[i].shrinks_with_others ? profile.phases[i].time - e.covered_overlap_time
                                               : profile.phases[i].time;
    };
    std::vector<std::size_t> untouched;
    for (std::size_t i = 0; i < profile.phases.size(); ++i)
        if (e.phases[i].spec < 0 && untouched_time(i) > 0) untouched.push_back(i);
    std::stable_sort(untouched.begin(), untouched.end(),
                     [&](std::size_t a, std::size_t b) { return untouched_time(a) > untouched_time(b); });
    const auto named = [&](std::size_t i) {
        return fmt::format("{} ({})", printable(profile.phases[i].name),
                           format_share(untouched_time(i) / e.baseline_time, style));
    };
    const double affected_time = e.affected_fraction * e.baseline_time;
    std::vector<std::string> larger;
    std::size_t more = 0;
    for (std::size_t i : untouched) {
        if (untouched_time(i) <= affected_time) break;
        if (larger.size() < named_phases)
            larger.push_back(named(i));
        else
            ++more;
    }
    if (more > 0) larger.push_back(fmt::format("{} more", more));
    if (untouched.empty())
        sentence += ": no other time is left to speed up.";
    else if (!larger.empty())
        sentence += ": more time is in " + join_and(larger) + ".";
    else
        sentence += fmt::format(": {} already the largest part of {}; the next is {}.", one ? "it is" : "they are", of,
                                named(untouched.front()));
    return sentence;
}

}  // namespace amdahl
