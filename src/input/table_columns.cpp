#include "input/table_columns.hpp"

#include <algorithm>
#include <cctype>

#include "amdahl/units.hpp"
#include "input/csv_records.hpp"

namespace amdahl::detail {

namespace {

bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

template <std::size_t N>
bool one_of(const std::string& word, const char* const (&words)[N]) {
    return std::any_of(std::begin(words), std::end(words), [&](const char* w) { return word == w; });
}

// "p90", "p99", "p999": a percentile.
bool is_percentile(const std::string& word) {
    return word.size() >= 2 && word[0] == 'p' && std::all_of(word.begin() + 1, word.end(), is_digit);
}

}  // namespace

std::vector<std::string> header_words(std::string_view header) {
    std::vector<std::string> words;
    std::string word;
    const auto close = [&] {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
    };
    for (std::size_t i = 0; i < header.size(); ++i) {
        const char c = header[i];
        if (!is_lower(c) && !is_upper(c) && !is_digit(c)) {
            close();
            continue;
        }
        // A capital starts a word after a small letter or a digit ("totalTime", "Reg2Trd"), and
        // ends a run of capitals when a small letter follows it ("HTTPTime": "http", "time").
        if (is_upper(c) && i > 0 &&
            (is_lower(header[i - 1]) || is_digit(header[i - 1]) ||
             (is_upper(header[i - 1]) && i + 1 < header.size() && is_lower(header[i + 1]))))
            close();
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    close();
    return words;
}

ColumnRole column_role(std::string_view header) {
    std::vector<std::string> words = header_words(header);
    std::string joined;
    for (const auto& w : words) joined += (joined.empty() ? "" : " ") + w;
    static const char* const calls[] = {"calls",         "count",       "instances",  "num calls",
                                        "n calls",       "ncalls",      "call count", "number of calls",
                                        "num instances", "invocations", "launches",   "num launches"};
    if (one_of(joined, calls)) return ColumnRole::calls;
    const auto unit = header_unit(header);
    // The word that spells the unit is no role word: "time (min)" is in minutes, "Min (ns)" a minimum.
    if (unit && !words.empty() && parse_unit(words.back()) == unit) words.pop_back();
    const bool end_to_end = joined.find("end to end") != std::string::npos;
    const auto any = [&](auto&& test) { return std::any_of(words.begin(), words.end(), test); };
    static const char* const starts[] = {"start", "begin", "started", "starttime", "begintime"};
    static const char* const stamps[] = {"timestamp", "ts", "stamp"};  // a start unless an end word is there too
    static const char* const ends[] = {"end", "stop", "finish", "ended", "stopped", "finished", "endtime"};
    static const char* const statistics[] = {"min",   "minimum", "max", "maximum",  "stddev", "std",
                                             "stdev", "dev",     "var", "variance", "spread"};
    static const char* const typical[] = {"avg", "average", "mean", "median", "med", "p50", "call"};
    static const char* const durations[] = {"time",  "duration", "dur",  "latency", "elapsed",
                                            "total", "sum",      "wall", "walltime"};
    if (any([](const std::string& w) { return one_of(w, starts); })) return ColumnRole::start;
    if (!end_to_end && any([](const std::string& w) { return one_of(w, ends); })) return ColumnRole::end;
    if (any([](const std::string& w) { return one_of(w, stamps); })) return ColumnRole::start;
    if (any([](const std::string& w) { return one_of(w, statistics) || (is_percentile(w) && w != "p50"); }))
        return ColumnRole::statistic;
    if (any([](const std::string& w) { return one_of(w, typical); })) return ColumnRole::per_call;
    // "runtime", "GPUTime", "kernelduration": a time however it is prefixed.
    const auto ends_like_a_time = [](const std::string& w) {
        for (std::string_view suffix : {"time", "duration", "latency", "elapsed"})
            if (std::string_view(w).ends_with(suffix)) return true;
        return false;
    };
    if (end_to_end || any([&](const std::string& w) { return one_of(w, durations) || ends_like_a_time(w); }))
        return ColumnRole::duration;
    return unit ? ColumnRole::unit_only : ColumnRole::other;
}

}  // namespace amdahl::detail
