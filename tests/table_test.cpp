// The table model's renderers (src/report/table.cpp): aligned text, CSV and Markdown from one
// Table, rows stored and rows made on demand, long names cut for a terminal, the summary block,
// and the two text helpers every format uses, printable() and shortest().
#include <catch2/catch.hpp>

#include <cstdlib>
#include <limits>
#include <sstream>

#include "amdahl/report.hpp"
#include "report/numbers.hpp"

using namespace amdahl;

namespace {

// Two columns, one left- and one right-aligned; human and machine values differ.
Table phase_table() {
    Table table;
    table.columns = {{"phase", "name", false}, {"time (ms)", "time_ms", true}};
    table.rows = {{Cell("a"), Cell("1.0", "1")}, {Cell("longer name"), Cell("12.5", "12.5")}};
    return table;
}

}  // namespace

TEST_CASE("table: text aligns columns under a rule, left or right", "[table]") {
    CHECK(render_text(phase_table()) ==
          "phase        time (ms)\n"
          "-----------  ---------\n"
          "a                  1.0\n"
          "longer name       12.5\n");
    // A last column aligned left is not padded; a row may leave out its last cells.
    Table table;
    table.columns = {{"n", "n", true}, {"note", "note", false}};
    table.rows = {{Cell("1"), Cell("first")}, {Cell("100"), Cell("")}, {Cell("7")}};
    CHECK(render_text(table) ==
          "  n  note\n"
          "---  -----\n"
          "  1  first\n"
          "100\n"
          "  7\n");
}

TEST_CASE("table: text widths count code points, not bytes", "[table]") {
    Table table;
    table.columns = {{"phase", "name", false}, {"saved", "saved", true}};
    table.rows = {{Cell("Host\xe2\x86\x92"
                        "device"),
                   Cell("1")},
                  {Cell("x"), Cell("22")}};
    CHECK(render_text(table) ==
          "phase        saved\n"
          "-----------  -----\n"
          "Host\xe2\x86\x92"
          "device      1\n"
          "x               22\n");
}

TEST_CASE("table: text cuts names longer than 64 columns - other formats keep them", "[table]") {
    const std::string long_name = std::string(40, 'a') + std::string(30, 'b');  // 70 columns
    Table table;
    table.columns = {{"phase", "name", false}, {"time", "time", true}};
    table.rows = {{Cell(long_name), Cell("1")}};
    const std::string cut = std::string(40, 'a') + std::string(23, 'b') + "\xe2\x80\xa6";  // 63 + "…"
    CHECK(render_text(table) ==
          "phase" + std::string(59, ' ') + "  time\n" + std::string(64, '-') + "  ----\n" + cut + "     1\n");
    CHECK(render_csv(table) == "name,time\n" + long_name + ",1\n");
    CHECK(render_markdown(table) == "| phase | time |\n| --- | ---: |\n| " + long_name + " | 1 |\n");
    // At 64 columns a name is whole.
    table.rows = {{Cell(std::string(64, 'c')), Cell("1")}};
    CHECK(render_text(table).find(std::string(64, 'c') + "     1\n") != std::string::npos);
}

TEST_CASE("table: CSV has the machine keys and values, quoted as RFC 4180 asks", "[table]") {
    CHECK(render_csv(phase_table()) == "name,time_ms\na,1\nlonger name,12.5\n");
    Table table;
    table.columns = {{"phase", "name", false}, {"kind", "kind", false}};
    table.rows = {{Cell("a, b"), Cell("say \"hi\"")}, {Cell("two\nlines"), Cell("cr\rhere")}, {Cell(""), Cell(" x ")}};
    CHECK(render_csv(table) ==
          "name,kind\n"
          "\"a, b\",\"say \"\"hi\"\"\"\n"
          "\"two\nlines\",\"cr\rhere\"\n"
          ", x \n");
    // Keys are quoted too, should one need it.
    table.columns = {{"a", "a,b", false}};
    table.rows.clear();
    CHECK(render_csv(table) == "\"a,b\"\n");
}

TEST_CASE("table: Markdown has the human headers and values, pipes escaped", "[table]") {
    CHECK(render_markdown(phase_table()) ==
          "| phase | time (ms) |\n"
          "| --- | ---: |\n"
          "| a | 1.0 |\n"
          "| longer name | 12.5 |\n");
    Table table;
    table.columns = {{"a|b", "ab", false}};
    table.rows = {{Cell("x | y")}, {Cell("")}};
    CHECK(render_markdown(table) ==
          "| a\\|b |\n"
          "| --- |\n"
          "| x \\| y |\n"
          "|  |\n");
}

TEST_CASE("table: rows made on demand follow the stored rows in every format", "[table]") {
    Table table = phase_table();
    table.generated_rows = 2;
    table.make_row = [](std::size_t i, std::vector<Cell>& cells) {
        cells = {Cell("made " + std::to_string(i)), Cell(std::to_string(100 * (i + 1)) + ".0", std::to_string(i))};
    };
    CHECK(render_text(table) ==
          "phase        time (ms)\n"
          "-----------  ---------\n"
          "a                  1.0\n"
          "longer name       12.5\n"
          "made 0           100.0\n"
          "made 1           200.0\n");
    CHECK(render_csv(table) == "name,time_ms\na,1\nlonger name,12.5\nmade 0,0\nmade 1,1\n");
    CHECK(render_markdown(table) ==
          "| phase | time (ms) |\n| --- | ---: |\n| a | 1.0 |\n| longer name | 12.5 |\n| made 0 | 100.0 |\n"
          "| made 1 | 200.0 |\n");
    // A made row as wide as any stored one widens its column.
    table.generated_rows = 1;
    table.make_row = [](std::size_t, std::vector<Cell>& cells) { cells = {Cell("an even longer name"), Cell("3")}; };
    CHECK(render_text(table) ==
          "phase                time (ms)\n"
          "-------------------  ---------\n"
          "a                          1.0\n"
          "longer name               12.5\n"
          "an even longer name          3\n");
}

TEST_CASE("table: the write_ functions stream the same text, however long", "[table]") {
    Table table;
    table.columns = {{"phase", "name", false}, {"time", "time", true}};
    table.generated_rows = 20000;  // well past the 64 KB pieces the writers hand over
    table.make_row = [](std::size_t i, std::vector<Cell>& cells) {
        cells = {Cell("p" + std::to_string(i)), Cell(std::to_string(i % 7))};
    };
    std::string csv = "name,time\n", markdown = "| phase | time |\n| --- | ---: |\n";
    for (std::size_t i = 0; i < 20000; ++i) {
        csv += "p" + std::to_string(i) + "," + std::to_string(i % 7) + "\n";
        markdown += "| p" + std::to_string(i) + " | " + std::to_string(i % 7) + " |\n";
    }
    std::ostringstream text_out, csv_out, markdown_out;
    write_text(text_out, table);
    write_csv(csv_out, table);
    write_markdown(markdown_out, table);
    CHECK(text_out.str() == render_text(table));
    CHECK(csv_out.str() == csv);
    CHECK(markdown_out.str() == markdown);
    CHECK(render_csv(table) == csv);
    CHECK(render_markdown(table) == markdown);
    const std::string text = text_out.str();
    CHECK(text.substr(0, 39) == "phase   time\n------  ----\np0         0\n");
    CHECK(text.substr(text.size() - 13) == "p19999     0\n");
}

TEST_CASE("table: a table without rows is its header", "[table]") {
    Table table;
    table.columns = {{"phase", "name", false}, {"time (ms)", "time_ms", true}};
    CHECK(render_text(table) == "phase  time (ms)\n-----  ---------\n");
    CHECK(render_csv(table) == "name,time_ms\n");
    CHECK(render_markdown(table) == "| phase | time (ms) |\n| --- | ---: |\n");
}

TEST_CASE("table: the summary aligns values after the longest label", "[table]") {
    CHECK(render_summary({{"baseline", "100.0 ms"}, {"speedup", "1.2330x"}, {"f", "21.0%"}}) ==
          "baseline: 100.0 ms\n"
          "speedup:  1.2330x\n"
          "f:        21.0%\n");
    CHECK(render_summary({{"\xce\xa3 saved", "5"}, {"total", "6"}}) ==
          "\xce\xa3 saved: 5\n"
          "total:   6\n");
    CHECK(render_summary({}).empty());
}

TEST_CASE("table: parse_output_format knows the four formats and their other names", "[table]") {
    CHECK(parse_output_format("table") == OutputFormat::table);
    CHECK(parse_output_format("text") == OutputFormat::table);
    CHECK(parse_output_format("json") == OutputFormat::json);
    CHECK(parse_output_format("csv") == OutputFormat::csv);
    CHECK(parse_output_format("md") == OutputFormat::markdown);
    CHECK(parse_output_format("markdown") == OutputFormat::markdown);
    for (const char* name : {"", "JSON", "tsv", "txt", " csv", "html"}) {
        INFO("'" << name << "'");
        CHECK_FALSE(parse_output_format(name));
    }
}

TEST_CASE("printable: control bytes and invalid UTF-8 become hex escapes - valid text stays", "[table]") {
    const std::pair<std::string, std::string> cases[] = {
        {"plain text, 100%", "plain text, 100%"},
        {"", ""},
        {"tab\there", "tab\\x09here"},
        {"line\nbreak\r", "line\\x0Abreak\\x0D"},
        {"\x1b[31mred", "\\x1B[31mred"},
        {std::string("nul\0byte", 8), "nul\\x00byte"},
        {"del\x7f", "del\\x7F"},
        {"bad\xff\xfe", "bad\\xFF\\xFE"},
        {"Host\xe2\x86\x92"
         "device",
         "Host\xe2\x86\x92"
         "device"},                                                // → (3 bytes)
        {"caf\xc3\xa9", "caf\xc3\xa9"},                            // é (2 bytes)
        {"\xf0\x9f\x9a\x80", "\xf0\x9f\x9a\x80"},                  // 🚀 (4 bytes)
        {"nb\xc2\xa0sp", "nb\xc2\xa0sp"},                          // U+00A0 is text
        {"c1\xc2\x85", "c1\\xC2\\x85"},                            // U+0085 is a C1 control
        {"cut\xe2\x86", "cut\\xE2\\x86"},                          // a sequence cut short
        {"\xe2\x86x", "\\xE2\\x86x"},                              // broken by an ASCII byte
        {"overlong\xc0\xaf", "overlong\\xC0\\xAF"},                // "/" written in two bytes
        {"surrogate\xed\xa0\x80", "surrogate\\xED\\xA0\\x80"},     // U+D800
        {"beyond\xf4\x90\x80\x80", "beyond\\xF4\\x90\\x80\\x80"},  // past U+10FFFF
        {"\x80lone", "\\x80lone"},                                 // a continuation byte alone
    };
    for (const auto& [text, shown] : cases) {
        INFO("'" << shown << "'");
        CHECK(printable(text) == shown);
    }
}

TEST_CASE("shortest: the shortest text that reads back as the same double", "[table]") {
    const std::pair<double, const char*> cases[] = {
        {0.0, "0"},
        {-0.0, "0"},  // never "-0"
        {1.0, "1"},
        {100.0, "100"},
        {-2.5, "-2.5"},
        {0.1, "0.1"},
        // Noise of the last bits is dropped: a decimal of at most 12 digits within 16 ulps is the
        // number that was meant. A true ratio has no such neighbour and keeps its 16-17 digits.
        {0.1 + 0.2, "0.3"},
        {10.5 + 27.661, "38.161"},
        {100.0 / 6, "16.666666666666668"},
        {1.0 / 3, "0.3333333333333333"},
        {2.357053, "2.357053"},
        {123456789012.0, "123456789012"},
        {1e-300, "1e-300"},
        {5e-324, "5e-324"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
    };
    for (const auto& [value, text] : cases) {
        INFO(text);
        CHECK(shortest(value) == text);
    }
    // Reading the text back gives the very same double: exact equality is the property here.
    for (double value : {0.1, 1.0 / 3, 2.0 / 3, 1e-7, 6.02214076e23, 299792458.0, 4.35, 1e21, 0.000123}) {
        const std::string text = shortest(value);
        INFO(text);
        CHECK(std::strtod(text.c_str(), nullptr) == value);
    }
}
