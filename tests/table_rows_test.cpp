// Rows of a table profile (src/input/table.cpp) as a student pastes them: a Kind column in a
// pasted text table, a name that ends in a number, and which row is the total (only an exact
// Total / End-to-end row, anywhere, or a last row that is the sum of the others).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>  // only to read the JSON report back

#include <string>
#include <vector>

#include "amdahl/io.hpp"
#include "amdahl/profile.hpp"
#include "support.hpp"

using namespace amdahl;

namespace {

Profile text(const std::string& content) { return parse_profile(content, "t.txt", InputFormat::text); }
Profile csv(const std::string& content) { return parse_profile(content, "t.csv", InputFormat::csv); }

std::vector<std::string> names(const Profile& profile) {
    std::vector<std::string> out;
    for (const Phase& phase : profile.phases) out.push_back(phase.name);
    return out;
}

std::vector<std::string> kinds(const Profile& profile) {
    std::vector<std::string> out;
    for (const Phase& phase : profile.phases) out.push_back(phase.kind);
    return out;
}

}  // namespace

TEST_CASE("text table: a Kind column is a kind, not the end of the name", "[table_rows]") {
    const Profile p = text(
        "Phase Kind Time (ms) Share\n"
        "Host→device input copy copy 18.0 18%\n"
        "gemm_qkv kernel 34.0 34%\n"
        "Host launch gaps overhead 48.0 48%\n");
    CHECK(names(p) == std::vector<std::string>{"Host→device input copy", "gemm_qkv", "Host launch gaps"});
    CHECK(kinds(p) == std::vector<std::string>{"copy", "kernel", "overhead"});
    CHECK(p.total() == Approx(100));
    // Category and type are kinds too.
    CHECK(kinds(text("name category time\na copy 1\nb kernel 2\n")) == std::vector<std::string>{"copy", "kernel"});
    // A row with a name and no kind is an error naming the line.
    CHECK_THROWS_WITH(text("Phase Kind Time (ms)\na kernel 1\nb 2\n"),
                      "t.txt:3: phase 'b': no kind (the header has a Kind column before the numbers)");
}

TEST_CASE("text table: a name that ends in a number keeps it", "[table_rows]") {
    const Profile p = text(
        "Phase Time (ms)\n"
        "stem 10.0\n"
        "resblock 1  12.5\n"
        "resblock 2  12.5\n"
        "head 5\n");
    CHECK(names(p) == std::vector<std::string>{"stem", "resblock 1", "resblock 2", "head"});
    CHECK(p.phases[1].time == Approx(12.5));
    CHECK(p.total() == Approx(40));
    // With a share column: the row has one number more than the header has number columns.
    const Profile shares = text("Phase Time (ms) Share\nlayer 1 30 30%\nlayer 2 70 70%\n");
    CHECK(names(shares) == std::vector<std::string>{"layer 1", "layer 2"});
    CHECK(shares.phases[0].time == Approx(30));
    // And with a kind column.
    const Profile kinded = text("Phase Kind Time (ms)\nresblock 1 kernel 12.5\nhead kernel 5\n");
    CHECK(names(kinded) == std::vector<std::string>{"resblock 1", "head"});
    CHECK(kinds(kinded) == std::vector<std::string>{"kernel", "kernel"});
}

TEST_CASE("totals: a last phase that only sounds like a total is a phase", "[table_rows]") {
    // Before: each of these last rows vanished into 'unattributed' as the "total".
    for (const std::string last : {"all gather", "all reduce", "Sum (reduction)", "Overall norm"}) {
        INFO(last);
        const Profile p = csv("name,time (ms)\ngemm,30\nsoftmax,20\n" + last + ",10\n");
        CHECK(names(p) == std::vector<std::string>{"gemm", "softmax", last});
        CHECK(p.total() == Approx(60));
        CHECK(p.notes.empty());
    }
    const Profile p = text("Phase Time (ms)\nforward 60\nbackward 30\nall reduce 10\n");
    CHECK(names(p) == std::vector<std::string>{"forward", "backward", "all reduce"});
    // When its time is the sum of the rows above, a last row is the total whatever its name (issue
    // 16), never silently: the note says how to keep it a phase (a 'Total' row after it).
    for (const std::string last : {"all gather", "all reduce", "Sum (reduction)", "sum of squares", "Overall norm",
                                   "All-to-all", "sum_kernel"}) {
        INFO(last);
        const Profile equal = csv("name,time (ms)\nload,10\ncompute,30\n" + last + ",40\n");
        CHECK(names(equal) == std::vector<std::string>{"load", "compute"});
        CHECK(equal.total() == Approx(40));
        REQUIRE(equal.notes.size() == 1);
        CHECK(equal.notes[0] == "t.csv:4: row '" + last +
                                    "' is read as the total: its time is the sum of the rows before it (name it "
                                    "'Total' to say so; if it is a phase, add a row 'Total' after it)");
        const Profile kept = csv("name,time (ms)\nload,10\ncompute,30\n" + last + ",40\nTotal,80\n");
        CHECK(names(kept) == std::vector<std::string>{"load", "compute", last});
        CHECK(kept.total() == Approx(80));
    }
    const Profile pasted = text("Phase Time (ms)\nload 10\ncompute 30\nall reduce 40.5\n");
    CHECK(names(pasted) == std::vector<std::string>{"load", "compute", "all reduce"});
}

TEST_CASE("totals: Total and End-to-end rows are the total wherever they are", "[table_rows]") {
    for (const std::string total : {"Total", "TOTAL", "total:", "End-to-end latency", "End to end"}) {
        INFO(total);
        const Profile p = csv("name,time (ms)\na,30\nb,20\n" + total + ",100\n");
        CHECK(names(p) == std::vector<std::string>{"a", "b", "unattributed"});
        CHECK(p.total() == Approx(100));
    }
    // First, not last: still the total, with a note; before it was counted as a phase.
    const Profile first = csv("name,time (ms)\nTotal,100\na,30\nb,20\n");
    CHECK(names(first) == std::vector<std::string>{"a", "b", "unattributed"});
    CHECK(first.total() == Approx(100));
    REQUIRE(first.notes.size() == 2);
    CHECK(first.notes[0] == "t.csv:2: row 'Total' is read as the total, not a phase, though it is not the last row");
    // Two totals are an error naming both.
    CHECK_THROWS_WITH(csv("name,time (ms)\nTotal,100\na,30\nTotal,50\n"),
                      "t.csv:4: a second total row 'Total' (the first is on line 2)");
}

TEST_CASE("totals: a last row that is the sum of the others is their total", "[table_rows]") {
    // A total-sounding name whose time is the others' sum is their total, as before.
    for (const std::string last : {"Sum", "Overall", "all phases", "Total step", "Sum (ms)", "all:", "Sum of phases"}) {
        INFO(last);
        const Profile p = csv("name,time (ms)\na,30\nb,20\n" + last + ",50\n");
        CHECK(names(p) == std::vector<std::string>{"a", "b"});
        CHECK(p.total() == Approx(50));
        // Read as the total by its time, never silently.
        REQUIRE(p.notes.size() == 1);
        CHECK(p.notes[0] == "t.csv:4: row '" + last +
                                "' is read as the total: its time is the sum of the rows before it (name it 'Total' "
                                "to say so; if it is a phase, add a row 'Total' after it)");
    }
    // Sounding like a total and larger than the others' sum is read as a phase, and said.
    const Profile p = csv("name,time (ms)\na,30\nb,20\nSum,60\n");
    CHECK(names(p) == std::vector<std::string>{"a", "b", "Sum"});
    REQUIRE(p.notes.size() == 1);
    CHECK(p.notes[0] ==
          "t.csv:4: row 'Sum' is read as a phase: it is not the sum of the rows before it, and only a row named "
          "'Total' or 'End-to-end ...' is a total whatever its time; rename it 'Total' if it is one");
}

TEST_CASE("table rows: a Total row with a bare share is no phase (found by fuzz_text)", "[table][fuzz]") {
    // The share's index was taken before the row was known to be the total: it pointed past the
    // phases, and reading it back overran them.
    const std::string path = amdahl::test::write_temp(
        "total_bare_share.txt", "Phase Time (ms) Share\nload 20.0 0.2\ngemm 80.0 0.8\nTotal 100.0 1.0\n");
    const auto r = amdahl::test::run_cli({"eval", path, "--input-format", "text", "-s", "gemm=2", "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["baseline_time"].get<double>() == Approx(100));
    CHECK(doc["phases"].size() == 2);
    CHECK(doc["speedup"].get<double>() == Approx(100.0 / 60.0));
}

TEST_CASE("text table: columns the header names in words it does not know are still read", "[table_rows]") {
    const Profile p = text("Kernel Grid Block Time (us)\ngemm 128 256 5.0\nsoftmax 64 128 3.0\n");
    CHECK(names(p) == std::vector<std::string>{"gemm", "softmax"});
    CHECK(p.phases[0].time == Approx(5));
    CHECK(p.total() == Approx(8));
}
