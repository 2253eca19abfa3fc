// Tables pasted from a database console or a table printer: grid tables with "+----+" rules
// (tabulate's "grid" and "psql" formats, MySQL's client) and psql's own output with its "(N rows)"
// footer. Each reads as the same two phases, gemm 12 ms and copy 3 ms: gemm at 2x gives 15 / 9.
#include <catch2/catch.hpp>

#include <string>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"

namespace {

amdahl::Profile read(const std::string& text, amdahl::InputFormat format) {
    return amdahl::parse_profile(text, "t.txt", format);
}

std::string error_of(const std::string& text, amdahl::InputFormat format) {
    try {
        (void)read(text, format);
    } catch (const amdahl::Error& e) {
        return e.what();
    }
    return "no error";
}

void check_gemm_and_copy(const amdahl::Profile& profile) {
    REQUIRE(profile.phases.size() == 2);
    CHECK(profile.phases[0].name == "gemm");
    CHECK(profile.phases[0].time == Approx(12));
    CHECK(profile.phases[1].name == "copy");
    CHECK(profile.phases[1].time == Approx(3));
    CHECK(profile.total() == Approx(15));
}

}  // namespace

TEST_CASE("grid tables: rules of '+', '-' and '=' around and inside a pipe table are rules", "[grid][markdown]") {
    using amdahl::InputFormat;
    // tabulate's "grid": a rule between every row, '=' under the header.
    check_gemm_and_copy(
        read("+--------+-----------+\n"
             "| name   | time_ms   |\n"
             "+========+===========+\n"
             "| gemm   | 12        |\n"
             "+--------+-----------+\n"
             "| copy   | 3         |\n"
             "+--------+-----------+\n",
             InputFormat::markdown));
    // tabulate's "psql" and MySQL's client: rules above and below, and "|----+----|" under the header.
    check_gemm_and_copy(
        read("+--------+-----------+\n"
             "| name   | time_ms   |\n"
             "|--------+-----------|\n"
             "| gemm   | 12        |\n"
             "| copy   | 3         |\n"
             "+--------+-----------+\n",
             InputFormat::markdown));
    // Sniffed as well, from the file's content.
    check_gemm_and_copy(
        amdahl::parse_profile("+------+---------+\n| name | time_ms |\n+------+---------+\n| gemm | "
                              "12 |\n| copy | 3 |\n+------+---------+\n",
                              "t.txt"));
}

TEST_CASE("grid tables: a row wrapped over lines in a table ruled between rows is an error", "[grid][markdown]") {
    // The second line of a wrapped row would be read as a phase of its own.
    const std::string wrapped =
        "+-----------+---------+\n"
        "| name      | time_ms |\n"
        "+===========+=========+\n"
        "| gemm      | 12      |\n"
        "+-----------+---------+\n"
        "| copy to   | 3       |\n"
        "| device    | 1       |\n"
        "+-----------+---------+\n";
    CHECK(error_of(wrapped, amdahl::InputFormat::markdown) ==
          "t.txt:6: lines 6-7 are one row between two rules, where the table rules off every row: a cell wrapped "
          "over lines cannot be read; put each row on one line");
}

TEST_CASE("psql output: its '(N rows)' footer is checked against the rows read", "[grid][text]") {
    const std::string table =
        "  name  | time_ms\n"
        "--------+---------\n"
        " gemm   |      12\n"
        " copy   |       3\n";
    check_gemm_and_copy(read(table + "(2 rows)\n", amdahl::InputFormat::text));
    check_gemm_and_copy(read(table + "(2 rows)\n\n", amdahl::InputFormat::text));
    // A paste that lost rows says so.
    CHECK(error_of(table + "(3 rows)\n", amdahl::InputFormat::text) ==
          "t.txt:5: psql's footer says 3 rows, and the table has 2: rows are missing from the paste");
    CHECK(read("  name  | time_ms\n--------+---------\n gemm   |      12\n(1 row)\n", amdahl::InputFormat::text)
              .phases.size() == 1);
    // The columns are those the '|' divide: a row with another count of them is an error.
    CHECK(error_of("  name  | time_ms\n--------+---------\n gemm | x  |      12\n copy   |       3\n",
                   amdahl::InputFormat::text) ==
          "t.txt:3: the row has 3 columns divided by '|' and the header (line 1) has 2; give every row every column");
}

TEST_CASE("pasted values: a no-break space inside a time is named, not taken for an unknown unit", "[grid][text]") {
    // "12<U+00A0>ms", as a document typesets it: the message said "unknown unit ' ms'".
    CHECK(error_of("name,time\ngemm,12\xC2\xA0ms\ncopy,3 ms\n", amdahl::InputFormat::csv) ==
          "t.txt:2: phase 'gemm': time must be a finite number >= 0 with an optional unit (got '12\xC2\xA0"
          "ms': it holds U+00A0, a space that is not a plain one; write a plain space, or none)");
}
