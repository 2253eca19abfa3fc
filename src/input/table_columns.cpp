#include "input/table_columns.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <span>
#include <unordered_map>

#include "amdahl/units.hpp"
#include "input/csv_records.hpp"

namespace amdahl::detail {

namespace {

bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "p90", "p99", "p999": a percentile.
bool is_percentile(std::string_view word) {
    return word.size() >= 2 && word[0] == 'p' && std::all_of(word.begin() + 1, word.end(), is_digit);
}

// What a header's word says about its column; a word may say several things ("call").
enum WordSays : unsigned {
    says_start = 1,      // start, begin
    says_stamp = 2,      // timestamp, ts: a start unless an end word is there too
    says_end = 4,        // end, stop, finish
    says_statistic = 8,  // min, max, stddev, p90
    says_typical = 16,   // avg, median, p50
    says_duration = 32,  // time, duration, total
    says_self = 64,      // self, exclusive
    says_spread = 128,   // sd, iqr, sem, ci95, error: a spread (also a statistic)
    says_no_time = 256,  // mem, bytes, flops: sizes and counts, whatever else the header says
};

// "ci95", "ci99": a confidence interval.
bool is_confidence(std::string_view word) {
    return word.size() > 2 && word.starts_with("ci") && std::all_of(word.begin() + 2, word.end(), is_digit);
}

unsigned word_says(std::string_view word) {
    static const std::unordered_map<std::string_view, unsigned> words = [] {
        std::unordered_map<std::string_view, unsigned> table;
        const auto add = [&](unsigned says, std::initializer_list<std::string_view> list) {
            for (std::string_view w : list) table[w] |= says;
        };
        add(says_start, {"start", "begin", "started", "starttime", "begintime"});
        add(says_stamp, {"timestamp", "ts", "stamp"});
        add(says_end, {"end", "stop", "finish", "ended", "stopped", "finished", "endtime"});
        add(says_statistic, {"min", "minimum", "max", "maximum"});
        add(says_statistic | says_spread,
            {"stddev", "std",    "stdev", "dev", "var", "variance",   "spread",      "sd",
             "sdev",   "stderr", "se",    "sem", "err", "error",      "iqr",         "mad",
             "margin", "range",  "rsd",   "cv",  "ci",  "confidence", "uncertainty", "jitter"});
        add(says_typical, {"avg", "average", "mean", "median", "med", "p50", "call"});
        add(says_duration,
            {"time", "duration", "dur", "latency", "elapsed", "total", "sum", "wall", "walltime", "inclusive", "incl"});
        add(says_self, {"self", "exclusive", "excl"});
        // PyTorch's "Self CPU Mem" and "Total MFLOPs", a tool's "Total Bytes" or "Peak Memory".
        add(says_no_time, {"mem", "memory", "bytes", "byte", "flops", "kflops", "mflops", "gflops", "tflops", "pflops",
                           "flop", "size", "bandwidth", "throughput"});
        return table;
    }();
    const auto found = words.find(word);
    unsigned says = found == words.end() ? 0 : found->second;
    if (is_percentile(word) && word != "p50") says |= says_statistic;
    if (is_confidence(word)) says |= says_statistic | says_spread;
    // "runtime", "GPUTime", "kernelduration": a time however it is prefixed.
    for (std::string_view suffix : {"time", "duration", "latency", "elapsed"})
        if (word.ends_with(suffix)) says |= says_duration;
    return says;
}

bool is_calls_header(std::string_view joined) {
    static constexpr std::string_view calls[] = {"calls",         "count",       "instances",  "num calls",
                                                 "n calls",       "ncalls",      "call count", "number of calls",
                                                 "num instances", "invocations", "launches",   "num launches",
                                                 "of calls"};  // PyTorch's "# of Calls"
    return std::find(std::begin(calls), std::end(calls), joined) != std::end(calls);
}

}  // namespace

HeaderWords::HeaderWords(std::string_view header) : header_(header) {
    key_.reserve(header.size());
    bool gap = false;  // a word ended: the next letter starts another, after a space
    for (std::size_t i = 0; i < header.size(); ++i) {
        const char c = header[i];
        if (!is_lower(c) && !is_upper(c) && !is_digit(c)) {
            gap = true;
            continue;
        }
        // A capital starts a word after a small letter or a digit ("totalTime", "Reg2Trd"), and
        // ends a run of capitals when a small letter follows it ("HTTPTime": "http", "time").
        if (is_upper(c) && i > 0 &&
            (is_lower(header[i - 1]) || is_digit(header[i - 1]) ||
             (is_upper(header[i - 1]) && i + 1 < header.size() && is_lower(header[i + 1]))))
            gap = true;
        if (gap && !key_.empty()) key_ += ' ';
        gap = false;
        key_ += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    for (std::string_view rest = key_; !rest.empty();) {
        const std::size_t space = std::min(rest.find(' '), rest.size());
        words_.push_back(rest.substr(0, space));
        rest.remove_prefix(std::min(space + 1, rest.size()));
    }
}

ColumnRole column_role(std::string_view header) { return column_role(HeaderWords(header)); }

ColumnRole column_role(const HeaderWords& header) {
    const std::string& joined = header.key();
    if (is_calls_header(joined)) return ColumnRole::calls;
    const auto unit = header_unit(header.header());
    std::span<const std::string_view> words = header.words();
    // The word that spells the unit is no role word: "time (min)" is in minutes, "Min (ns)" a minimum.
    if (unit && !words.empty() && parse_unit(words.back()) == unit) words = words.first(words.size() - 1);
    const bool end_to_end = joined.find("end to end") != std::string::npos;
    unsigned says = 0;
    for (std::string_view w : words) says |= word_says(w);
    std::string run_together = joined;
    std::erase(run_together, ' ');
    // "MFLOPs" splits as "mflo ps" at its case change: FLOPs are looked for in the words run together.
    if ((says & says_no_time) || run_together.find("flop") != std::string::npos) return ColumnRole::other;
    if (says & says_start) return ColumnRole::start;
    if (!end_to_end && (says & says_end)) return ColumnRole::end;
    if (says & says_stamp) return ColumnRole::start;
    if (says & says_statistic) return ColumnRole::statistic;
    if (says & says_typical) return ColumnRole::per_call;
    if (says & says_self) return ColumnRole::self;
    if (end_to_end || (says & says_duration)) return ColumnRole::duration;
    return unit ? ColumnRole::unit_only : ColumnRole::other;
}

bool is_spread_header(const HeaderWords& header) {
    return std::any_of(header.words().begin(), header.words().end(),
                       [](std::string_view word) { return (word_says(word) & says_spread) != 0; });
}

bool is_unit_header(const HeaderWords& header) {
    static constexpr std::string_view names[] = {"unit",      "units", "time unit", "time units",      "timeunit",
                                                 "timeunits", "uom",   "unit s",    "unit of measure", "duration unit"};
    return std::find(std::begin(names), std::end(names), header.key()) != std::end(names);
}

bool is_time_sd_header(const HeaderWords& header, std::optional<Unit>& unit) {
    bool time = false, sd = false;
    std::optional<Unit> named;
    // The first word that is neither time, sd nor a unit ends the look.
    for (std::string_view word : header.words()) {
        if (word == "time" && !time) {
            time = true;
        } else if ((word == "sd" || word == "std" || word == "stddev" || word == "stdev") && !sd) {
            sd = true;
        } else if (const auto u = parse_unit(word); u && !named) {
            named = u;
        } else {
            return false;
        }
    }
    if (!time || !sd) return false;
    unit = named;
    return true;
}

std::string_view column_timeline(const HeaderWords& header) {
    for (std::string_view word : header.words()) {
        if (word == "cpu" || word == "host") return "host";
        if (word == "cuda" || word == "gpu" || word == "device" || word == "hip" || word == "xpu") return "device";
    }
    return {};
}

}  // namespace amdahl::detail
