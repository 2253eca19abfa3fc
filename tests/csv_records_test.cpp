// The CSV record reader: read_quoted (src/model/text.hpp), which undoes a quoted field, and the
// records it makes in the profile reader (src/input/table.cpp), seen through parse_profile: fields
// with delimiters, quotes and newlines, line ends, blank lines, and the line numbers messages give.
// The measured-runs reader (src/input/measurements.cpp) splits records alike.
#include <catch2/catch.hpp>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "amdahl/measurements.hpp"
#include "model/text.hpp"

using namespace amdahl;
using Catch::Matchers::Message;

namespace {

struct Quoted {
    bool closed = false;
    std::string body;
    std::size_t end = 0;
};

// read_quoted on `text` from `pos` (just past an opening quote).
Quoted read(std::string_view text, std::size_t pos = 0, std::string body = "") {
    Quoted out;
    out.body = std::move(body);
    out.closed = detail::read_quoted(text, pos, out.body);
    out.end = pos;
    return out;
}

// The phases of a CSV profile as "name@line", the name as read.
std::vector<std::string> rows(const std::string& csv, InputFormat format = InputFormat::csv) {
    const Profile profile = parse_profile(csv, "p.csv", format);
    std::vector<std::string> out;
    for (const Phase& phase : profile.phases) out.push_back(phase.name + "@" + profile.where(phase));
    return out;
}

using Rows = std::vector<std::string>;

}  // namespace

TEST_CASE("csv records: read_quoted undoes one quoted field", "[csv]") {
    Quoted q = read("abc\",next");
    CHECK(q.closed);
    CHECK(q.body == "abc");
    CHECK(q.end == 4);  // past the closing quote

    q = read("a\"\"b\"rest");  // "" is a quote
    CHECK(q.closed);
    CHECK(q.body == "a\"b");
    CHECK(q.end == 5);

    q = read("\"");  // an empty field
    CHECK(q.closed);
    CHECK(q.body.empty());
    CHECK(q.end == 1);

    q = read("\"\"\"");  // a field of one quote
    CHECK(q.closed);
    CHECK(q.body == "\"");
    CHECK(q.end == 3);

    q = read("two\nlines\",1");  // newlines and delimiters are plain bytes inside quotes
    CHECK(q.closed);
    CHECK(q.body == "two\nlines");
    CHECK(q.end == 10);

    q = read("x,\"a,b\"", 3, "kept:");  // from the middle of a text, appending
    CHECK(q.closed);
    CHECK(q.body == "kept:a,b");
    CHECK(q.end == 7);
}

TEST_CASE("csv records: read_quoted without a closing quote says so", "[csv]") {
    Quoted q = read("abc");
    CHECK_FALSE(q.closed);
    CHECK(q.body == "abc");
    CHECK(q.end == 3);

    q = read("a\"\"");  // an escaped quote does not close the field
    CHECK_FALSE(q.closed);
    CHECK(q.body == "a\"");
    CHECK(q.end == 3);

    q = read("");
    CHECK_FALSE(q.closed);
    CHECK(q.body.empty());
    CHECK(q.end == 0);
}

TEST_CASE("csv records: fields, quotes and the lines they are read from", "[csv]") {
    CHECK(rows("name,time\na,1\nb,2\n") == Rows{"a@p.csv:2", "b@p.csv:3"});
    CHECK(rows("name,time\na,1\nb,2") == Rows{"a@p.csv:2", "b@p.csv:3"});  // no final newline
    CHECK(rows("name,time\n\"a, b\",1\n") == Rows{"a, b@p.csv:2"});
    CHECK(rows("name,time\n\"say \"\"hi\"\"\",2\n") == Rows{"say \"hi\"@p.csv:2"});
    // A quoted field may span lines; the next row's line counts them.
    CHECK(rows("name,time\n\"two\nlines\",1\nb,2\n") == Rows{"two\nlines@p.csv:2", "b@p.csv:4"});
    CHECK(rows("name,time\n\"a\n\nb\",1\nc,2\n") == Rows{"a\n\nb@p.csv:2", "c@p.csv:5"});
    // A quote opens a field only at its start (after spaces); elsewhere it is a plain byte.
    CHECK(rows("name,time\n  \"x,y\",2\na\"b,3\n") == Rows{"x,y@p.csv:2", "a\"b@p.csv:3"});
    // Text after the closing quote belongs to the field.
    CHECK(rows("name,time\n\"ab\"c,1\n") == Rows{"abc@p.csv:2"});
    // Quoted header fields, and a quoted number.
    CHECK(rows("\"name\",\"time (ms)\"\n\"a\",\"1.5\"\n") == Rows{"a@p.csv:2"});
    CHECK(parse_profile("name,time\na,\"1,500\"\n", "p.csv", InputFormat::csv).phases[0].time == Approx(1500));
}

TEST_CASE("csv records: line ends, blank lines and empty fields", "[csv]") {
    CHECK(rows("name,time\r\na,1\r\nb,2\r\n") == Rows{"a@p.csv:2", "b@p.csv:3"});
    CHECK(rows("name,time\ra,1\rb,2\r") == Rows{"a@p.csv:2", "b@p.csv:3"});  // lone CRs end lines too
    CHECK(rows("name,time\n\"a\r\nb\",1\r\nc,2\r\n") == Rows{"a\r\nb@p.csv:2", "c@p.csv:4"});
    // Blank lines, and lines of empty fields, are skipped; they still count as lines.
    CHECK(rows("\n\nname,time\n\na,1\n,\n  ,  \nb,2\n\n") == Rows{"a@p.csv:5", "b@p.csv:8"});
    // An empty last field is a field.
    const Profile profile = parse_profile("name,time,kind\na,1,\nb,2,copy\n", "p.csv", InputFormat::csv);
    REQUIRE(profile.phases.size() == 2);
    CHECK(profile.phases[0].kind.empty());
    CHECK(profile.phases[1].kind == "copy");
}

TEST_CASE("csv records: TSV splits on tabs, and a quoted tab is a byte", "[csv]") {
    CHECK(rows("name\ttime\n\"a\tb\"\t1\nc,d\t2\n", InputFormat::tsv) == Rows{"a\tb@p.csv:2", "c,d@p.csv:3"});
}

TEST_CASE("csv records: broken records are errors naming the line", "[csv]") {
    const std::pair<const char*, const char*> cases[] = {
        {"name,time\n\"a,1\n", "p.csv:2: unterminated quoted field"},
        {"name,time\na,1\n\"b\nc,2\n", "p.csv:3: unterminated quoted field"},
        {"\"name,time\na,1\n", "p.csv:1: unterminated quoted field"},
        {"name,time\na,1,2\n", "p.csv:2: row has 3 fields, the header has 2"},
        {"name,time\n\"x\ny\",1\nb,1,2\n", "p.csv:4: row has 3 fields, the header has 2"},
        {"name,time\n,1\n", "p.csv:2: phase has an empty name"},
        {"name,time\n\"  \",1\n", "p.csv:2: phase has an empty name"},
    };
    for (const auto& [csv, message] : cases) {
        INFO(csv);
        CHECK_THROWS_MATCHES(parse_profile(csv, "p.csv", InputFormat::csv), Error, Message(message));
    }
}

TEST_CASE("csv records: the measured-runs reader splits records as the profile reader does", "[csv]") {
    const auto runs = [](const std::string& csv) {
        const Measurements m = parse_measurements(csv, "runs.csv", {MeasuredQuantity::time});
        std::vector<std::string> out;
        for (const Measurement& run : m.runs) out.push_back(std::to_string(run.n) + "@" + run.where);
        return out;
    };
    CHECK(runs("n,time\n1,10\n2,6\n") == Rows{"1@runs.csv:2", "2@runs.csv:3"});
    CHECK(runs("\"n\",\"time\"\r\n\"1\",\"10\"\r\n2,6") == Rows{"1@runs.csv:2", "2@runs.csv:3"});
    CHECK(runs("n,note,time\n1,\"two\nlines\",10\n2,\"a, \"\"b\"\"\",6\n") == Rows{"1@runs.csv:2", "2@runs.csv:4"});
    CHECK(runs("n,time\r1,10\r\r2,6\r") == Rows{"1@runs.csv:2", "2@runs.csv:4"});
    CHECK_THROWS_MATCHES(parse_measurements("n,time\n1,10\n2,\"6\n", "runs.csv", {MeasuredQuantity::time}), Error,
                         Message("runs.csv:3: unterminated quoted field"));
    CHECK_THROWS_MATCHES(parse_measurements("n,time\n1,\"a\nb\",10\n", "runs.csv", {MeasuredQuantity::time}), Error,
                         Message("runs.csv:2: row has 3 fields, the header has 2"));
}
