// What a table column holds, from its header (src/input/table_columns.hpp).
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "input/table_columns.hpp"

using amdahl::detail::column_role;
using amdahl::detail::ColumnRole;
using amdahl::detail::HeaderWords;

namespace {
// A header's words, copied out of the HeaderWords that views them.
std::vector<std::string> header_words(std::string_view header) {
    const HeaderWords cell(header);
    return {cell.words().begin(), cell.words().end()};
}
}  // namespace

TEST_CASE("table columns: a header's words split at punctuation and camel case", "[table-columns]") {
    using Words = std::vector<std::string>;
    CHECK(header_words("TotalDurationNs") == Words{"total", "duration", "ns"});
    CHECK(header_words("Start (ns)") == Words{"start", "ns"});
    CHECK(header_words("start_ms") == Words{"start", "ms"});
    CHECK(header_words("HTTPTime") == Words{"http", "time"});
    CHECK(header_words("StdDev (ns)") == Words{"std", "dev", "ns"});
    CHECK(header_words("p99_ms") == Words{"p99", "ms"});
    CHECK(header_words("End-to-end latency") == Words{"end", "to", "end", "latency"});
    CHECK(header_words("").empty());
}

TEST_CASE("table columns: each header's role", "[table-columns]") {
    const std::pair<const char*, ColumnRole> cases[] = {
        {"time", ColumnRole::duration},
        {"Time (ms)", ColumnRole::duration},
        {"duration_ns", ColumnRole::duration},
        {"Total Time (ns)", ColumnRole::duration},
        {"TotalDurationNs", ColumnRole::duration},
        {"runtime", ColumnRole::duration},
        {"ms", ColumnRole::unit_only},
        {"DispatchNs", ColumnRole::unit_only},
        {"End_Timestamp", ColumnRole::end},
        {"Start_Timestamp", ColumnRole::start},
        {"time (min)", ColumnRole::duration},  // minutes, not a minimum
        {"End-to-end latency (ms)", ColumnRole::duration},
        {"Start (ns)", ColumnRole::start},
        {"start_ms", ColumnRole::start},
        {"BeginNs", ColumnRole::start},
        {"timestamp", ColumnRole::start},
        {"ts", ColumnRole::start},
        {"Start Time", ColumnRole::start},
        {"End (ns)", ColumnRole::end},
        {"EndNs", ColumnRole::end},
        {"stop_us", ColumnRole::end},
        {"Avg (ns)", ColumnRole::per_call},
        {"AverageNs", ColumnRole::per_call},
        {"mean time (ms)", ColumnRole::per_call},
        {"Med (ns)", ColumnRole::per_call},
        {"time per call", ColumnRole::per_call},
        {"time (avg)", ColumnRole::per_call},
        {"Min (ns)", ColumnRole::statistic},
        {"MaxNs", ColumnRole::statistic},
        {"StdDev (ns)", ColumnRole::statistic},
        {"Minimum", ColumnRole::statistic},
        {"p99_ms", ColumnRole::statistic},
        {"calls", ColumnRole::calls},
        {"Instances", ColumnRole::calls},
        {"Num Calls", ColumnRole::calls},
        {"count", ColumnRole::calls},
        {"# calls", ColumnRole::calls},
        {"CorrId", ColumnRole::other},
        {"Bytes (MB)", ColumnRole::other},
        {"Self CPU Mem", ColumnRole::other},  // PyTorch's memory columns: sizes, never times
        {"CPU Mem", ColumnRole::other},
        {"Self CUDA Mem", ColumnRole::other},
        {"Peak Memory (MB)", ColumnRole::other},
        {"Total MFLOPs", ColumnRole::other},  // with_flops: a count of operations, not a total time
        {"Total GFLOPS", ColumnRole::other},
        {"Total Bytes", ColumnRole::other},
        {"Strm", ColumnRole::other},
        {"Device", ColumnRole::other},
    };
    for (const auto& [header, role] : cases) {
        INFO(header);
        CHECK(column_role(header) == role);
    }
}

TEST_CASE("table columns: a header's key joins its words", "[table-columns]") {
    CHECK(HeaderWords("TotalDurationNs").key() == "total duration ns");
    CHECK(HeaderWords("  Kernel_Name ").key() == "kernel name");
    CHECK(HeaderWords("Time (%)").key() == "time");
    CHECK(HeaderWords("Time (%)").header() == "Time (%)");
}

TEST_CASE("table columns: unit, spread, time-sd and timeline headers", "[table-columns]") {
    using amdahl::Unit;
    using amdahl::detail::column_timeline;
    using amdahl::detail::is_spread_header;
    using amdahl::detail::is_time_sd_header;
    using amdahl::detail::is_unit_header;
    for (const char* unit : {"unit", "Units", "Time Unit", "timeUnit", "UOM", "unit(s)", "Unit of measure"}) {
        INFO(unit);
        CHECK(is_unit_header(HeaderWords(unit)));
    }
    for (const char* other : {"unit time", "time", "units sold", ""}) {
        INFO(other);
        CHECK_FALSE(is_unit_header(HeaderWords(other)));
    }

    CHECK(is_spread_header(HeaderWords("StdDev (ns)")));
    CHECK(is_spread_header(HeaderWords("time_ci95")));
    CHECK(is_spread_header(HeaderWords("Margin of error")));
    CHECK_FALSE(is_spread_header(HeaderWords("Max (ns)")));  // an extreme, not a spread
    CHECK_FALSE(is_spread_header(HeaderWords("time")));

    std::optional<Unit> unit;
    CHECK(is_time_sd_header(HeaderWords("time_sd (us)"), unit));
    CHECK(unit == Unit::us);
    unit.reset();
    CHECK(is_time_sd_header(HeaderWords("SD time"), unit));
    CHECK_FALSE(unit.has_value());
    CHECK(is_time_sd_header(HeaderWords("time_ms_stddev"), unit));
    CHECK(unit == Unit::ms);
    unit.reset();
    CHECK_FALSE(is_time_sd_header(HeaderWords("time"), unit));
    CHECK_FALSE(is_time_sd_header(HeaderWords("gpu time sd"), unit));  // a word besides time, sd and a unit
    CHECK_FALSE(is_time_sd_header(HeaderWords("time sd sd"), unit));
    CHECK_FALSE(unit.has_value());

    CHECK(column_timeline(HeaderWords("Self CPU")) == "host");
    CHECK(column_timeline(HeaderWords("host_ms")) == "host");
    CHECK(column_timeline(HeaderWords("Self CUDA")) == "device");
    CHECK(column_timeline(HeaderWords("GPUTime")) == "device");
    CHECK(column_timeline(HeaderWords("time (ms)")).empty());
}
