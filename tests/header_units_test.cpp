// The unit a column header names: "Time (ms)", "duration [ns]", "time_us", "Duration ns". Two
// readers find it: the profile tables' (header_unit in src/input/table.cpp, seen through
// parse_profile) and the measured runs' (header_unit in src/input/measurements.cpp, seen through
// classify_run_column and parse_measurements).
#include <catch2/catch.hpp>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/measurements.hpp"
#include "input/measurements_internal.hpp"

using namespace amdahl;

namespace {

// The unit of a two-phase CSV profile whose time column has `header`, with the times as read.
struct Read {
    Unit unit = Unit::ms;
    std::vector<double> times;
};

Read read_profile(const std::string& content, InputFormat format) {
    const Profile profile = parse_profile(content, "p", format);
    Read out;
    out.unit = profile.unit;
    for (const Phase& phase : profile.phases) out.times.push_back(phase.time);
    return out;
}

Read read_csv_header(const std::string& header) {
    return read_profile("name," + header + "\na,5\nb,7\n", InputFormat::csv);
}

}  // namespace

TEST_CASE("header units: a profile's time column header gives the profile's unit", "[header-units]") {
    const std::pair<const char*, Unit> headers[] = {
        {"Time (ms)", Unit::ms},
        {"time (us)", Unit::us},
        {"Time (\xc2\xb5s)", Unit::us},
        {"Time(s)", Unit::s},
        {"latency (min)", Unit::min},
        {"Duration (nsec)", Unit::ns},
        {"duration [ns]", Unit::ns},
        {"GPU time [usec]", Unit::us},
        {"time_us", Unit::us},
        {"duration_ns", Unit::ns},
        {"Duration ns", Unit::ns},
        {"elapsed-s", Unit::s},
        {"time_h", Unit::h},
        {"ms", Unit::ms},
        {"Seconds", Unit::s},
        {"Time (ms) [avg]", Unit::ms},
        {"wall time (hours)", Unit::h},
        // A unit word inside the header, a statistic's word after it (read as ms before).
        {"duration_ns_total", Unit::ns},
        {"time_us_total", Unit::us},
        {"elapsed_us_sum", Unit::us},
        {"DurationNsTotal", Unit::ns},
    };
    for (const auto& [header, unit] : headers) {
        INFO("'" << header << "'");
        const Read read = read_csv_header(header);
        CHECK(read.unit == unit);
        REQUIRE(read.times.size() == 2);  // bare numbers are in the header's unit
        CHECK(read.times[0] == Approx(5));
        CHECK(read.times[1] == Approx(7));
    }
}

TEST_CASE("header units: a time header without a unit leaves the profile in ms", "[header-units]") {
    for (const char* header : {"time", "Duration", "latency", "time (avg)", "time per call", "elapsed"}) {
        INFO("'" << header << "'");
        const Read read = read_csv_header(header);
        CHECK(read.unit == Unit::ms);
        CHECK(read.times[0] == Approx(5));
    }
}

TEST_CASE("header units: a header whose words name two units is refused", "[header-units][silent]") {
    // time_ms_per_s was read in s (its last word), and time_ms_per_s_total in ms under a note that
    // no header named a unit.
    for (const auto& [header, units] : std::vector<std::pair<std::string, std::string>>{
             {"time_ms_per_s", "ms and s"}, {"time_ms_per_s_total", "ms and s"}, {"TimeUsPerMs", "us and ms"}}) {
        INFO("'" << header << "'");
        try {
            read_csv_header(header);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(std::string(e.what()) == "p:1: column '" + header + "': its words name two units, " + units +
                                               ": which one its numbers are in cannot be told; name one");
        }
    }
}

TEST_CASE("header units: a cell's own unit is converted to the header's", "[header-units]") {
    const Read read = read_profile("name,time (ms)\na,1 s\nb,500\nc,250 us\n", InputFormat::csv);
    CHECK(read.unit == Unit::ms);
    REQUIRE(read.times.size() == 3);
    CHECK(read.times[0] == Approx(1000));
    CHECK(read.times[1] == Approx(500));
    CHECK(read.times[2] == Approx(0.25));
}

TEST_CASE("header units: TSV, Markdown and pasted-text headers name units the same way", "[header-units]") {
    CHECK(read_profile("phase\tduration_ns\na\t5\n", InputFormat::tsv).unit == Unit::ns);
    CHECK(read_profile("| phase | time (us) |\n|---|---:|\n| a | 5 |\n", InputFormat::markdown).unit == Unit::us);
    CHECK(read_profile("Phase Time (s) Share\na 5 50%\nb 5 50%\n", InputFormat::text).unit == Unit::s);
    CHECK(read_profile("Phase Time (ns)\na 5\nb 6\n", InputFormat::text).unit == Unit::ns);
}

TEST_CASE("header units: a measured-runs header names the N column, the value and its unit", "[header-units]") {
    using detail::classify_run_column;
    using detail::RunColumn;
    const std::pair<const char*, std::optional<Unit>> times[] = {
        {"time (ms)", Unit::ms},      {"Time [s]", Unit::s},         {"time_us", Unit::us},    {"elapsed us", Unit::us},
        {"latency-ns", Unit::ns},     {"Duration (min)", Unit::min}, {"ms", Unit::ms},         {"time", std::nullopt},
        {"time (avg)", std::nullopt}, {"Elapsed", std::nullopt},     {"wall_time_h", Unit::h},
    };
    for (const auto& [header, unit] : times) {
        INFO("'" << header << "'");
        const auto column = classify_run_column(header);
        REQUIRE(column);
        CHECK(column->kind == RunColumn::Kind::value);
        CHECK(column->quantity == MeasuredQuantity::time);
        CHECK(column->unit == unit);
    }
    for (const char* header : {"n", "N", "GPUs", "processors", "world_size", "Ranks", "np"}) {
        INFO("'" << header << "'");
        const auto column = classify_run_column(header);
        REQUIRE(column);
        CHECK(column->kind == RunColumn::Kind::n);
    }
    const auto speedup = classify_run_column("Speedup (x)");
    REQUIRE(speedup);
    CHECK(speedup->kind == RunColumn::Kind::value);
    CHECK(speedup->quantity == MeasuredQuantity::speedup);
    CHECK_FALSE(speedup->unit);
    const auto overhead = classify_run_column("overhead (%)");
    REQUIRE(overhead);
    CHECK(overhead->quantity == MeasuredQuantity::overhead);
    CHECK_FALSE(overhead->unit);
    for (const char* header : {"note", "run", "host", ""}) {
        INFO("'" << header << "'");
        CHECK_FALSE(classify_run_column(header));
    }
}

TEST_CASE("header units: measured times are in the header's unit, cells' own units converted", "[header-units]") {
    const Measurements m =
        parse_measurements("n,Time [s]\n1,2\n2,1100 ms\n4,0.6\n", "runs.csv", {MeasuredQuantity::time});
    REQUIRE(m.unit);
    CHECK(*m.unit == Unit::s);
    REQUIRE(m.runs.size() == 3);
    CHECK(m.runs[0].value == Approx(2));
    CHECK(m.runs[1].value == Approx(1.1));
    CHECK(m.runs[2].value == Approx(0.6));
    const Measurements ns =
        parse_measurements("gpus,duration_ns\n1,2000\n2,1100\n", "runs.csv", {MeasuredQuantity::time});
    REQUIRE(ns.unit);
    CHECK(*ns.unit == Unit::ns);
}
