// Every user-facing error of `amdahl eval` and `amdahl law`: the exit code, an empty stdout and
// a message on stderr that names the place (file:line, file:line:column, a JSON path or the
// option) and the problem. Plus positive-path checks that catch silent nonsense.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

using amdahl::test::run_binary;
using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::string example() { return source_path("examples/transformer_step.json"); }

// A temp file whose name is unique to this test file.
std::string temp(const std::string& name, const std::string& content) {
    return write_temp("cli_errors_" + name, content);
}

// Exit 2, nothing on stdout, one "error: ..." message on stderr holding every part.
void check_input_error(const RunResult& r, const std::vector<std::string>& parts) {
    INFO("exit code: " << r.exit_code);
    INFO("stdout: " << r.out);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, StartsWith("error: "));
    CHECK_THAT(r.err, !Contains("internal error"));
    CHECK((!r.err.empty() && r.err.back() == '\n'));
    for (const auto& part : parts) CHECK_THAT(r.err, Contains(part));
}

// Runs `amdahl eval` on a temp file holding `content`.
RunResult eval_file(const std::string& path, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"eval", path};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
}

std::vector<std::string> split_whitespace(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string word; in >> word;) out.push_back(word);
    return out;
}

// The line of `text` that starts with `prefix`, or "" when none does.
std::string line_starting_with(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(prefix, 0) == 0) return line;
    }
    return {};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Profile syntax

TEST_CASE("cli errors: malformed JSON names file:line:column", "[cli][errors]") {
    SECTION("trailing comma in an object") {
        const auto path =
            temp("trailing_comma.json", "{\n  \"phases\": [\n    {\"name\": \"a\", \"time\": 1,}\n  ]\n}\n");
        check_input_error(eval_file(path), {path + ":3:29: ", "malformed JSON", "unexpected '}'"});
    }
    SECTION("truncated document") {
        const auto path = temp("truncated.json", "{\"phases\":[{\"name\":\"a\",\"time\":1}");
        check_input_error(eval_file(path), {path + ":1:", "malformed JSON", "end of input"});
    }
    SECTION("forced JSON on a CSV file") {
        const auto csv = source_path("examples/transformer_step.csv");
        check_input_error(run_cli({"eval", csv, "--input-format", "json"}), {csv + ":1:1: ", "malformed JSON"});
    }
    SECTION("nesting deeper than the limit") {
        const auto path = temp("deep.json", std::string(300, '['));
        check_input_error(eval_file(path), {path + ":1:257: ", "nested deeper than 256"});
    }
    SECTION("a number literal too large for a double") {
        // nlohmann throws out_of_range (not parse_error) for this: it must still be an input error.
        const auto path =
            temp("overflow_literal.json", "{\"phases\":[{\"name\":\"a\",\"time\":1e999},{\"name\":\"b\",\"time\":1}]}");
        check_input_error(eval_file(path), {path, "1e999"});
    }
}

TEST_CASE("cli errors: ragged rows name file:line", "[cli][errors]") {
    SECTION("CSV") {
        const auto path = temp("ragged.csv", "name,time_ms\na,1\nb,2,3\n");
        check_input_error(eval_file(path), {path + ":3: ", "row has 3 fields, the header has 2"});
    }
    SECTION("TSV") {
        const auto path = temp("ragged.tsv", "name\ttime_ms\na\t1\t2\n");
        check_input_error(eval_file(path), {path + ":2: ", "row has 3 fields, the header has 2"});
    }
    SECTION("Markdown") {
        const auto path = temp("ragged.md", "| name | time |\n|---|---|\n| a | 1 | 3 |\n");
        check_input_error(eval_file(path), {path + ":3: ", "row has 3 fields, the header has 2"});
    }
    SECTION("CSV with an unterminated quoted field") {
        const auto path = temp("unterminated.csv", "name,time_ms\n\"a,1\n");
        check_input_error(eval_file(path), {path + ":2: ", "unterminated quoted field"});
    }
}

TEST_CASE("cli errors: header without a time or name column", "[cli][errors]") {
    SECTION("CSV header without a time column") {
        const auto path = temp("no_time_column.csv", "name,kind\na,x\n");
        check_input_error(eval_file(path), {path + ":1: ", "no time column", "'name', 'kind'"});
    }
    SECTION("CSV header of many columns, none a time: the first 20 are named") {
        std::string header = "name";
        for (int i = 1; i <= 25; ++i) header += ",c" + std::to_string(i);
        const auto path = temp("wide_no_time_column.csv", header + "\n");
        check_input_error(eval_file(path), {path + ":1: ", "no time column", "found 'name', 'c1', 'c2', ",
                                            ", 'c18', 'c19' and 6 more)"});
    }
    SECTION("JSON forced to be read as CSV") {
        const auto json = example();
        check_input_error(run_cli({"eval", json, "--input-format", "csv"}), {json + ":1: ", "no time column"});
    }
    SECTION("CSV header without a name column") {
        const auto path = temp("no_name_column.csv", "time_ms\n1\n");
        check_input_error(eval_file(path), {path + ":1: ", "no name column", "'time_ms'"});
    }
    SECTION("CSV with only blank cells") {
        const auto path = temp("blank_cells.csv", ",,\n,,\n");
        check_input_error(eval_file(path), {path + ": ", "no header row"});
    }
}

TEST_CASE("cli errors: Markdown and text table structure", "[cli][errors]") {
    SECTION("Markdown without a table") {
        const auto path = temp("no_table.md", "just text\n");
        check_input_error(eval_file(path), {path + ": ", "no Markdown table"});
    }
    SECTION("Markdown row without a leading pipe") {
        const auto path = temp("bad_row.md", "| name | time |\n|---|---|\n| a | 1 |\nb 2\n");
        check_input_error(eval_file(path), {path + ":4: ", "expected a table row starting with '|'"});
    }
    SECTION("text without rows") {
        const auto path = temp("no_rows.txt", "hello world\nfoo bar\n");
        check_input_error(eval_file(path), {path + ": ", "no table rows"});
    }
    SECTION("text without a header") {
        const auto path = temp("no_header.txt", "a 1\nb 2\n");
        check_input_error(eval_file(path), {path + ":1: ", "no header line"});
    }
    SECTION("text with a row that is not a row") {
        const auto path = temp("bad_row.txt", "Phase Time\na 1\nhello there\n");
        check_input_error(eval_file(path), {path + ":3: ", "expected a row", "'hello there'"});
    }
}

// ---------------------------------------------------------------------------------------------
// Times

TEST_CASE("cli errors: negative time", "[cli][errors]") {
    SECTION("CSV") {
        const auto path = temp("negative.csv", "name,time_ms\na,1\nb,-2\n");
        check_input_error(eval_file(path), {path + ":3: ", "phase 'b'", ">= 0", "'-2'"});
    }
    SECTION("JSON number") {
        const auto path = temp("negative.json", "{\"phases\":[{\"name\":\"a\",\"time\":-1}]}");
        check_input_error(eval_file(path), {path + ": phases[0].time: ", ">= 0", "-1"});
    }
}

TEST_CASE("cli errors: NaN time", "[cli][errors]") {
    SECTION("CSV") {
        const auto path = temp("nan.csv", "name,time_ms\na,1\nb,nan\n");
        check_input_error(eval_file(path), {path + ":3: ", "phase 'b'", "finite number", "'nan'"});
    }
    SECTION("JSON string") {
        const auto path = temp("nan.json", "{\"phases\":[{\"name\":\"a\",\"time\":\"NaN\"}]}");
        check_input_error(eval_file(path), {path + ": phases[0].time: ", "finite number", "'NaN'"});
    }
}

TEST_CASE("cli errors: infinite time", "[cli][errors]") {
    SECTION("CSV inf") {
        const auto path = temp("inf.csv", "name,time_ms\na,1\nb,inf\n");
        check_input_error(eval_file(path), {path + ":3: ", "phase 'b'", "finite number", "'inf'"});
    }
    SECTION("CSV number too large for a double is not read as 0") {
        const auto path = temp("overflow.csv", "name,time_ms\na,1e999\nb,1\n");
        check_input_error(eval_file(path), {path + ":2: ", "phase 'a'", "'1e999'"});
    }
    SECTION("JSON string too large for a double is not read as 0") {
        const auto path = temp("overflow_string.json",
                               "{\"phases\":[{\"name\":\"a\",\"time\":\"1e999\"},{\"name\":\"b\",\"time\":1}]}");
        check_input_error(eval_file(path), {path + ": phases[0].time: ", "'1e999'"});
    }
}

TEST_CASE("cli errors: unparseable time", "[cli][errors]") {
    SECTION("CSV") {
        const auto path = temp("abc.csv", "name,time_ms\na,1\nb,abc\n");
        check_input_error(eval_file(path), {path + ":3: ", "phase 'b'", "time", "'abc'"});
    }
    SECTION("JSON shorthand object") {
        const auto path = temp("abc_short.json", "{\"phases\":{\"a\":\"abc\"}}");
        check_input_error(eval_file(path), {path + ": phases.a: ", "time", "'abc'"});
    }
    SECTION("JSON of the wrong type") {
        const auto path = temp("time_bool.json", "{\"phases\":[{\"name\":\"a\",\"time\":true}]}");
        check_input_error(eval_file(path), {path + ": phases[0].time: ", "must be a number or a string", "true"});
    }
    SECTION("a percentage where a time belongs") {
        const auto path = temp("time_percent.csv", "name,time\na,5%\n");
        check_input_error(eval_file(path), {path + ":2: ", "phase 'a'", "percentage", "'5%'"});
    }
    SECTION("a row without a time") {
        const auto path = temp("no_time_cell.csv", "name,time_ms,share\na,,\n");
        check_input_error(eval_file(path), {path + ":2: ", "phase 'a'", "no time"});
    }
}

TEST_CASE("cli errors: unknown unit", "[cli][errors]") {
    SECTION("'12 parsecs' in a CSV time") {
        const auto path = temp("parsecs.csv", "name,time\na,1\nb,12 parsecs\n");
        check_input_error(eval_file(path), {path + ":3: ", "phase 'b'", "unknown unit 'parsecs'", "'12 parsecs'"});
    }
    SECTION("'12 parsecs' in a JSON time") {
        const auto path = temp("parsecs.json", "{\"phases\":[{\"name\":\"a\",\"time\":\"12 parsecs\"}]}");
        check_input_error(eval_file(path), {path + ": phases[0].time: ", "unknown unit 'parsecs'"});
    }
    SECTION("\"unit\": \"furlong\" in JSON") {
        const auto path = temp("furlong.json", "{\"unit\":\"furlong\",\"phases\":[{\"name\":\"a\",\"time\":1}]}");
        check_input_error(eval_file(path), {path + ": unit: ", "unknown unit 'furlong'", "ns, us, ms, s, min or h"});
    }
    SECTION("\"unit\" of the wrong type in JSON") {
        const auto path = temp("unit_number.json", "{\"unit\":5,\"phases\":[{\"name\":\"a\",\"time\":1}]}");
        check_input_error(eval_file(path), {path + ": unit: ", "expected a string", "5"});
    }
    SECTION("--unit parsecs") {
        check_input_error(run_cli({"eval", example(), "--unit", "parsecs"}),
                          {"--unit: ", "unknown unit 'parsecs'", "ns, us, ms, s, min or h"});
    }
}

// ---------------------------------------------------------------------------------------------
// Phases, totals, shares

TEST_CASE("cli errors: duplicate phase names name both places", "[cli][errors]") {
    SECTION("CSV") {
        const auto path = temp("dup.csv", "name,time_ms\na,1\nb,2\na,3\n");
        check_input_error(eval_file(path), {path + ":4: ", "duplicate phase name 'a'", "also at " + path + ":2"});
    }
    SECTION("JSON") {
        const auto path = temp("dup.json", "{\"phases\":[{\"name\":\"a\",\"time\":1},{\"name\":\"a\",\"time\":2}]}");
        check_input_error(eval_file(path),
                          {path + ": phases[1]: ", "duplicate phase name 'a'", "also at " + path + ": phases[0]"});
    }
    SECTION("a phase named 'unattributed' when the total leaves time over") {
        const auto path =
            temp("unattributed_clash.json", "{\"total\":10,\"phases\":[{\"name\":\"unattributed\",\"time\":1}]}");
        check_input_error(eval_file(path), {path + ": ", "'unattributed'", "unattributed too"});
    }
}

TEST_CASE("cli errors: empty profile", "[cli][errors]") {
    SECTION("empty file") {
        const auto path = temp("empty.csv", "");
        check_input_error(eval_file(path), {path + ": ", "empty input"});
    }
    SECTION("whitespace only") {
        const auto path = temp("whitespace.csv", "  \n\n\t\n");
        check_input_error(eval_file(path), {path + ": ", "empty input"});
    }
    SECTION("empty stdin") { check_input_error(run_cli({"eval", "-"}, ""), {"<stdin>: ", "empty input"}); }
    SECTION("JSON with \"phases\": []") {
        const auto path = temp("empty_phases.json", "{\"phases\": []}");
        check_input_error(eval_file(path), {path + ": ", "no phases"});
    }
    SECTION("JSON with \"phases\": {}") {
        const auto path = temp("empty_phases_object.json", "{\"phases\": {}}");
        check_input_error(eval_file(path), {path + ": ", "no phases"});
    }
    SECTION("CSV with a header only") {
        const auto path = temp("header_only.csv", "name,time_ms\n");
        check_input_error(eval_file(path), {path + ": ", "no phases"});
    }
    SECTION("JSON without \"phases\"") {
        const auto path = temp("no_phases_key.json", "{\"name\":\"x\"}");
        check_input_error(eval_file(path), {path + ": ", "no \"phases\""});
    }
    SECTION("phases that add up to zero") {
        const auto path = temp("zero.json", "{\"phases\":[{\"name\":\"a\",\"time\":0}]}");
        check_input_error(eval_file(path), {path + ": ", "zero time"});
    }
}

TEST_CASE("cli errors: JSON structure", "[cli][errors]") {
    struct Case {
        const char* name;
        const char* content;
        const char* location;
        const char* problem;
    };
    const Case cases[] = {
        {"doc_string.json", "\"hello\"", "", "expected a JSON object with \"phases\""},
        {"phases_number.json", "{\"phases\":5}", "phases: ", "expected an array of phases"},
        {"phase_number.json", "{\"phases\":[5]}", "phases[0]: ", "a phase must be an object"},
        {"no_name.json", "{\"phases\":[{\"time\":1}]}", "phases[0]: ", "phase has no \"name\""},
        {"empty_name.json", "{\"phases\":[{\"name\":\"\",\"time\":1}]}", "phases[0]: ", "empty name"},
        {"name_number.json", "{\"phases\":[{\"name\":5,\"time\":1}]}", "phases[0].name: ", "expected a string"},
        {"kind_number.json", "{\"phases\":[{\"name\":\"a\",\"time\":1,\"kind\":3}]}",
         "phases[0].kind: ", "expected a string"},
        {"no_time.json", "{\"phases\":[{\"name\":\"a\"}]}", "phases[0]: ", "has no \"time\""},
        {"share_array.json", "{\"total\":1,\"phases\":[{\"name\":\"a\",\"share\":[1]}]}",
         "phases[0].share: ", "share must be a number or a string"},
        {"share_time.json", "{\"total\":10,\"phases\":[{\"name\":\"a\",\"share\":\"5 ms\"}]}",
         "phases[0].share: ", "not a time"},
        {"share_abc.json", "{\"total\":10,\"phases\":[{\"name\":\"a\",\"share\":\"abc\"}]}",
         "phases[0].share: ", "'abc'"},
        {"share_only.json", "{\"phases\":[{\"name\":\"a\",\"share\":\"50%\"}]}", "", "give the profile a total"},
        {"total_zero.json", "{\"total\":0,\"phases\":[{\"name\":\"a\",\"time\":0}]}", "total: ", "total must be > 0"},
        {"phases_twice.json", "{\"phases\":[{\"name\":\"a\",\"time\":1}],\"phases\":[]}",
         "phases: ", "\"phases\" appears twice"},
        {"shorthand_twice.json", "{\"phases\":{\"a\":1,\"a\":2}}", "phases.a: ", "duplicate phase name 'a' (also at "},
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION(c.name) {
            const auto path = temp(c.name, c.content);
            check_input_error(eval_file(path), {path + ": " + c.location, c.problem});
        }
    }
}

TEST_CASE("cli errors: CSV share cells", "[cli][errors]") {
    SECTION("not a number") {
        const auto path = temp("share_abc.csv", "name,time_ms,share\na,1,abc\n");
        check_input_error(eval_file(path), {path + ":2: ", "phase 'a'", "share", "'abc'"});
    }
    SECTION("a time") {
        const auto path = temp("share_ms.csv", "name,time_ms,share\na,1,5ms\n");
        check_input_error(eval_file(path), {path + ":2: ", "phase 'a'", "share", "'5ms'"});
    }
    SECTION("negative") {
        const auto path = temp("share_negative.csv", "name,time_ms,share\na,1,-5%\n");
        check_input_error(eval_file(path), {path + ":2: ", "phase 'a'", "share", "'-5%'"});
    }
    SECTION("empty name") {
        const auto path = temp("empty_name.csv", "name,time_ms\n ,1\n");
        check_input_error(eval_file(path), {path + ":2: ", "empty name"});
    }
}

TEST_CASE("cli errors: total below the sum of the phases", "[cli][errors]") {
    SECTION("JSON \"total\"") {
        const auto path =
            temp("below.json", "{\"total\": 5, \"phases\":[{\"name\":\"a\",\"time\":4},{\"name\":\"b\",\"time\":3}]}");
        check_input_error(eval_file(path),
                          {path + ": total: ", "phases add up to 7.0 ms", "more than the total 5.0 ms"});
    }
    SECTION("Markdown Total row") {
        const auto path = temp("below.md", "| Phase | Time (ms) |\n|---|---|\n| a | 4 |\n| b | 3 |\n| Total | 5 |\n");
        check_input_error(eval_file(path), {path + ":5: ", "phases add up to 7.0 ms", "more than the total 5.0 ms"});
    }
    SECTION("text Total row") {
        const auto path = temp("below.txt", "Phase Time (ms)\na 4\nb 3\nTotal 5\n");
        check_input_error(eval_file(path), {path + ":4: ", "phases add up to 7.0 ms", "more than the total 5.0 ms"});
    }
    SECTION("CSV Total row") {
        const auto path = temp("below_total.csv", "name,time_ms\na,4\nb,3\nTotal,5\n");
        check_input_error(eval_file(path), {path + ":4: ", "phases add up to 7.0 ms", "more than the total 5.0 ms"});
    }
}

TEST_CASE("cli errors: shares above 100%", "[cli][errors]") {
    SECTION("CSV shares adding up to 110%") {
        const auto path = temp("shares.csv", "name,share\na,60%\nb,50%\n");
        // The sum is printed as a person wrote it, not as 110.00000000000001%.
        check_input_error(eval_file(path), {path + ": ", "shares add up to 110%", "more than 100%"});
    }
    SECTION("JSON shares adding up to 110%") {
        const auto path =
            temp("shares.json",
                 "{\"total\":10,\"phases\":[{\"name\":\"a\",\"share\":\"60%\"},{\"name\":\"b\",\"share\":\"50%\"}]}");
        check_input_error(eval_file(path), {path + ": ", "shares add up to 110%", "more than 100%"});
    }
    SECTION("one CSV share of 150%") {
        const auto path = temp("share150.csv", "name,time_ms,share\na,1,150%\n");
        check_input_error(eval_file(path), {path + ":2: ", "phase 'a'", "share is above 100%"});
    }
    SECTION("one JSON share of 1.5") {
        const auto path = temp("share15.json", "{\"total\":10,\"phases\":[{\"name\":\"a\",\"share\":1.5}]}");
        check_input_error(eval_file(path), {path + ": phases[0].share: ", "between 0 and 1", "1.5"});
    }
    SECTION("one JSON share of \"150%\"") {
        const auto path = temp("share150.json", "{\"total\":10,\"phases\":[{\"name\":\"a\",\"share\":\"150%\"}]}");
        check_input_error(eval_file(path), {path + ": phases[0].share: ", "between 0% and 100%", "'150%'"});
    }
}

TEST_CASE("cli errors: times too large to add", "[cli][errors]") {
    SECTION("two phases whose sum overflows a double") {
        const auto path =
            temp("sum_overflow.json", "{\"phases\":[{\"name\":\"a\",\"time\":1e308},{\"name\":\"b\",\"time\":1e308}]}");
        const RunResult r = eval_file(path);
        check_input_error(r, {path + ": "});
        // Not "the phases add up to zero time": they add up to more than a double holds.
        CHECK_THAT(r.err, !Contains("zero"));
        CHECK_THAT(r.err, Contains("double") || Contains("too large"));
    }
    SECTION("--unit conversion that overflows") {
        const auto path = temp("huge_hours.json", "{\"phases\":[{\"name\":\"a\",\"time\":\"1e300 h\"}]}");
        check_input_error(eval_file(path, {"--unit", "ns"}), {path + ": phase 'a': ", "too large to convert to ns"});
    }
}

// ---------------------------------------------------------------------------------------------
// Speedups

TEST_CASE("cli errors: unknown selectors", "[cli][errors]") {
    SECTION("a typo suggests the nearest name") {
        check_input_error(
            run_cli({"eval", example(), "-s", "atention_softmax=10"}),
            {example(), "selector 'atention_softmax' matches no phase", "did you mean 'attention_softmax'?"});
    }
    SECTION("a kind typo suggests the nearest kind") {
        check_input_error(run_cli({"eval", example(), "-s", "kind:kernal=2"}),
                          {example(), "selector 'kind:kernal' matches no phase", "did you mean 'kind:kernel'?"});
    }
    SECTION("a name nothing resembles gets no suggestion") {
        const RunResult r = run_cli({"eval", example(), "-s", "zzz=2"});
        check_input_error(r, {example(), "selector 'zzz' matches no phase"});
        CHECK_THAT(r.err, !Contains("did you mean"));
    }
    SECTION("a name that differs only in case suggests the name") {
        check_input_error(run_cli({"eval", example(), "-s", "Gemm_QKV=2"}),
                          {"selector 'Gemm_QKV' matches no phase", "did you mean 'gemm_qkv'"});
    }
}

TEST_CASE("cli errors: a glob that matches nothing", "[cli][errors]") {
    check_input_error(run_cli({"eval", example(), "-s", "conv_*=10"}),
                      {example(), "selector 'conv_*' matches no phase"});
}

TEST_CASE("cli errors: two speedups on the same phase name both specs", "[cli][errors]") {
    SECTION("glob and name") {
        check_input_error(run_cli({"eval", example(), "-s", "gemm_*=10", "-s", "gemm_qkv=2"}),
                          {example(), "'gemm_*=10'", "'gemm_qkv=2'", "phase 'gemm_qkv'", "only one speedup"});
    }
    SECTION("the same name twice") {
        check_input_error(run_cli({"eval", example(), "-s", "layernorm=2", "-s", "layernorm=3"}),
                          {"'layernorm=2'", "'layernorm=3'", "phase 'layernorm'"});
    }
    SECTION("* and a kind") {
        check_input_error(run_cli({"eval", example(), "-s", "*=2", "-s", "kind:copy=3"}),
                          {"'*=2'", "'kind:copy=3'", "both apply"});
    }
}

TEST_CASE("cli errors: bad factors", "[cli][errors]") {
    struct Case {
        const char* factor;
        const char* problem;
    };
    const Case cases[] = {
        {"0", "must be > 0"},     {"-2", "must be > 0"}, {"nan", "not a number"},
        {"abc", "not a number"},  {"", "empty"},         {"-150%", "cannot lose more than 100%"},
        {"30%", "signed change"},
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION("factor '" << c.factor << "'") {
            const std::string spec = std::string("gemm_qkv=") + c.factor;
            check_input_error(
                run_cli({"eval", example(), "-s", spec}),
                {"--speedup: ", "'" + spec + "'", std::string("bad factor '") + c.factor + "'", c.problem});
        }
    }
    SECTION("a factor too large for a double is not called 'not > 0'") {
        const RunResult r = run_cli({"eval", example(), "-s", "gemm_qkv=1e999"});
        check_input_error(r, {"--speedup: ", "'gemm_qkv=1e999'"});
        CHECK_THAT(r.err, !Contains("must be > 0"));
    }
}

TEST_CASE("cli errors: malformed speedup specs", "[cli][errors]") {
    SECTION("no '='") {
        check_input_error(run_cli({"eval", example(), "-s", "gemm_qkv"}),
                          {"--speedup: ", "'gemm_qkv'", "expected SELECTOR=FACTOR"});
    }
    SECTION("empty selector") {
        check_input_error(run_cli({"eval", example(), "-s", "=3"}), {"--speedup: ", "empty selector"});
    }
    SECTION("kind: without a kind") {
        check_input_error(run_cli({"eval", example(), "-s", "kind:=2"}),
                          {"--speedup: ", "'kind:'", "needs a kind name"});
    }
    SECTION("bad effort") {
        check_input_error(run_cli({"eval", example(), "-s", "gemm_qkv=2@abc"}),
                          {"--speedup: ", "'gemm_qkv=2@abc'", "effort must be a number > 0", "'abc'"});
        check_input_error(run_cli({"eval", example(), "-s", "gemm_qkv=2@0"}),
                          {"--speedup: ", "'gemm_qkv=2@0'", "effort must be a number > 0"});
    }
    SECTION("-s without a value") { check_input_error(run_cli({"eval", example(), "-s"}), {"--speedup"}); }
}

// ---------------------------------------------------------------------------------------------
// Files and streams (end to end through the binary)

TEST_CASE("cli errors: binary garbage on stdin", "[cli][errors][binary]") {
    const std::string garbage("ab\0\x01\xff\xfe", 6);
    check_input_error(run_binary("eval -", garbage), {"<stdin>: ", "binary data", "NUL byte at offset 2"});
}

TEST_CASE("cli errors: binary file", "[cli][errors]") {
    const auto path = temp("binary.json", std::string("\x7f"
                                                      "ELF\x02\x01\x01\x00\x00",
                                                      9));
    check_input_error(eval_file(path), {path + ": ", "binary data", "NUL byte at offset 7"});
}

TEST_CASE("cli errors: missing file", "[cli][errors][binary]") {
    const std::string path = "/nonexistent-amdahl-dir/profile.json";
    check_input_error(run_binary("eval '" + path + "'"), {path + ": ", "no such file"});
}

TEST_CASE("cli errors: a directory with no trace files as the profile", "[cli][errors][binary]") {
    const std::string dir = source_path("examples");
    check_input_error(run_binary("eval '" + dir + "' -s gemm_qkv=2"), {dir + ": ", "is a folder with no trace files"});
}

// ---------------------------------------------------------------------------------------------
// Usage

TEST_CASE("cli errors: unknown subcommand and options", "[cli][errors]") {
    SECTION("unknown subcommand is named") { check_input_error(run_cli({"frobnicate"}), {"frobnicate"}); }
    SECTION("unknown top-level option is named") { check_input_error(run_cli({"--bogus"}), {"--bogus"}); }
    SECTION("unknown eval option") {
        check_input_error(run_cli({"eval", example(), "--frobnicate"}), {"--frobnicate", "--help"});
    }
    SECTION("unknown law option") {
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "2", "--frobnicate"}), {"--frobnicate"});
    }
    SECTION("stray law argument") { check_input_error(run_cli({"law", "-f", "0.5", "-k", "2", "extra"}), {"extra"}); }
    SECTION("eval without a profile") { check_input_error(run_cli({"eval"}), {"PROFILE", "required"}); }
    SECTION("unknown --format") {
        check_input_error(run_cli({"eval", example(), "--format", "yaml"}), {"--format", "yaml"});
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "2", "--format", "yaml"}), {"--format", "yaml"});
    }
    SECTION("unknown --input-format") {
        check_input_error(run_cli({"eval", example(), "--input-format", "yaml"}), {"--input-format", "yaml"});
    }
    SECTION("--precision out of range") {
        check_input_error(run_cli({"eval", example(), "--precision", "99"}), {"--precision", "99"});
    }
}

TEST_CASE("cli errors: law needs exactly two of -f/-k/--target", "[cli][errors][law]") {
    const std::string problem = "give exactly two of --fraction, --factor and --target";
    SECTION("none") { check_input_error(run_cli({"law"}), {"law: ", problem}); }
    SECTION("only -f") { check_input_error(run_cli({"law", "-f", "0.5"}), {"law: ", problem}); }
    SECTION("only -k") { check_input_error(run_cli({"law", "-k", "2"}), {"law: ", problem}); }
    SECTION("only --target") { check_input_error(run_cli({"law", "--target", "2"}), {"law: ", problem}); }
    SECTION("all three") {
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "2", "--target", "1.2"}), {"law: ", problem});
    }
}

TEST_CASE("cli errors: law values", "[cli][errors][law]") {
    SECTION("-f 1.5") {
        check_input_error(run_cli({"law", "-f", "1.5", "-k", "2"}), {"--fraction: ", "between 0 and 1", "'1.5'"});
    }
    SECTION("-f 150%") {
        check_input_error(run_cli({"law", "-f", "150%", "-k", "2"}), {"--fraction: ", "between 0 and 1", "'150%'"});
    }
    SECTION("-f -0.1") {
        check_input_error(run_cli({"law", "--fraction=-0.1", "-k", "2"}), {"--fraction: ", "'-0.1'"});
    }
    SECTION("-f abc") { check_input_error(run_cli({"law", "-f", "abc", "-k", "2"}), {"--fraction: ", "'abc'"}); }
    SECTION("-f 1e999 is not read as 0%") {
        check_input_error(run_cli({"law", "-f", "1e999", "-k", "2"}), {"--fraction: ", "'1e999'"});
    }
    SECTION("-f 5ms") { check_input_error(run_cli({"law", "-f", "5ms", "-k", "2"}), {"--fraction: ", "'5ms'"}); }
    SECTION("-k 0") {
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "0"}), {"--factor: ", "bad factor '0'", "must be > 0"});
    }
    SECTION("-k abc") {
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "abc"}), {"--factor: ", "bad factor 'abc'"});
    }
    SECTION("-k -150%") {
        check_input_error(run_cli({"law", "-f", "0.5", "--factor=-150%"}),
                          {"--factor: ", "cannot lose more than 100%"});
    }
    SECTION("-k with --target and a bad factor") {
        check_input_error(run_cli({"law", "-k", "nan", "--target", "2"}), {"--factor: ", "bad factor 'nan'"});
    }
    SECTION("-k '' is reported as an empty factor, not as a missing option") {
        check_input_error(run_cli({"law", "-f", "0.5", "-k", ""}), {"--factor", "empty"});
    }
    SECTION("--target 0, -1 and abc") {
        for (const char* target : {"0", "abc"}) {
            check_input_error(run_cli({"law", "-f", "0.5", "--target", target}),
                              {"--target: ", "> 0", std::string("'") + target + "'"});
        }
        check_input_error(run_cli({"law", "-k", "2", "--target=-1"}), {"--target: ", "> 0", "'-1'"});
    }
    SECTION("--time abc, -5ms and 5parsecs") {
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "2", "--time", "abc"}), {"--time: ", "'abc'"});
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "2", "--time=-5ms"}), {"--time: ", "> 0", "'-5ms'"});
        check_input_error(run_cli({"law", "-f", "0.5", "-k", "2", "--time", "5parsecs"}), {"--time: ", "'5parsecs'"});
    }
}

// ---------------------------------------------------------------------------------------------
// The --require-speedup gate

TEST_CASE("cli errors: --require-speedup gate", "[cli][errors][gate]") {
    SECTION("failing: exit 1, verdict on stderr, report on stdout") {
        const RunResult r = run_cli({"eval", example(), "-s", "gemm_qkv=2", "--require-speedup", "1.5"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Contains("gate failed"));
        CHECK_THAT(r.err, Contains("1.2048x"));
        CHECK_THAT(r.err, Contains("1.5000x"));
        CHECK_THAT(r.err, !Contains("error:"));
        CHECK_THAT(r.out, Contains("gemm_qkv"));
        CHECK_THAT(r.out, Contains("speedup:"));
        CHECK_THAT(r.out, Contains("1.2048x"));
    }
    SECTION("failing with --format json still prints the JSON report") {
        const RunResult r =
            run_cli({"eval", example(), "-s", "gemm_qkv=2", "--require-speedup", "1.5", "--format", "json"});
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Contains("gate failed"));
        CHECK_THAT(r.out, StartsWith("{"));
        CHECK_THAT(r.out, Contains("\"speedup\""));
    }
    SECTION("passing: exit 0, nothing on stderr") {
        const RunResult r = run_cli({"eval", example(), "-s", "gemm_qkv=2", "--require-speedup", "1.1"});
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
        CHECK_THAT(r.out, Contains("1.2048x"));
    }
    SECTION("passing exactly at the threshold") {
        const RunResult r = run_cli({"eval", example(), "-s", "*=inf", "--require-speedup", "1"});
        CHECK(r.exit_code == 0);
    }
    SECTION("an invalid threshold is a usage error with a readable message") {
        for (const char* value : {"0", "abc", "-1"}) {
            const RunResult r =
                run_cli({"eval", example(), "-s", "gemm_qkv=2", std::string("--require-speedup=") + value});
            check_input_error(r, {"--require-speedup", value});
            // Not "Value 0 not in range 0.000000 to 17976931348623157081452742373170435679807056752584..."
            CHECK_THAT(r.err, !Contains("179769313"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Positive paths that must not be silent nonsense

TEST_CASE("cli errors: a total above the sum adds an 'unattributed' phase", "[cli][errors][positive]") {
    const auto path =
        temp("above.json", "{\"total\": 120, \"phases\":[{\"name\":\"a\",\"time\":40},{\"name\":\"b\",\"time\":60}]}");
    SECTION("a note says so") {
        const RunResult r = eval_file(path);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.err, StartsWith("note: "));
        CHECK_THAT(r.err, Contains(path));
        CHECK_THAT(r.err, Contains("20.0 ms is phase 'unattributed'"));
        CHECK_THAT(r.out, Contains("unattributed"));
    }
    SECTION("-s '*'=inf does not touch it") {
        const RunResult csv = eval_file(path, {"-s", "*=inf", "--format", "csv"});
        REQUIRE(csv.exit_code == 0);
        CHECK(line_starting_with(csv.out, "unattributed,") == "unattributed,unattributed,20,16.666666666666668,1,20,0");
        CHECK(line_starting_with(csv.out, "a,") == "a,,40,33.333333333333336,inf,0,40");
        const RunResult table = eval_file(path, {"-s", "*=inf"});
        REQUIRE(table.exit_code == 0);
        const auto row = split_whitespace(line_starting_with(table.out, "unattributed"));
        REQUIRE(row.size() == 7);
        CHECK(row[4] == "-");
        CHECK(row[5] == "20.0");
        CHECK_THAT(table.out, Contains("speedup:           6.0000x"));
        CHECK_THAT(table.out, Contains("ceiling:           6.0000x"));
    }
    SECTION("-s unattributed=2 does") {
        const RunResult csv = eval_file(path, {"-s", "unattributed=2", "--format", "csv"});
        REQUIRE(csv.exit_code == 0);
        CHECK(line_starting_with(csv.out, "unattributed,") ==
              "unattributed,unattributed,20,16.666666666666668,2,10,10");
        CHECK(line_starting_with(csv.out, "a,") == "a,,40,33.333333333333336,1,40,0");
        const RunResult table = eval_file(path, {"-s", "unattributed=2"});
        REQUIRE(table.exit_code == 0);
        const auto row = split_whitespace(line_starting_with(table.out, "unattributed"));
        REQUIRE(row.size() == 7);
        CHECK(row[4] == "2x");
        CHECK(row[5] == "10.0");
        CHECK_THAT(table.out, Contains("new time:          110.0 ms"));
    }
}

TEST_CASE("cli errors: a share column disagreeing with the times is a note, not an error", "[cli][errors][positive]") {
    const auto path = temp("disagree.csv", "name,time_ms,share\na,40,10%\nb,60,60%\n");
    const RunResult r = eval_file(path);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.err, StartsWith("note: "));
    CHECK_THAT(r.err, Contains(path + ":2: "));
    CHECK_THAT(r.err, Contains("phase 'a'"));
    CHECK_THAT(r.err, Contains("share 10% disagrees with its time"));
    CHECK_THAT(r.err, Contains("40.0 ms is 40% of 100.0 ms"));
    CHECK_THAT(r.err, !Contains("phase 'b'"));
    CHECK_THAT(r.err, !Contains("error: "));
    CHECK_THAT(r.out, Contains("baseline:          100.0 ms"));
}

TEST_CASE("cli errors: a slowdown factor is accepted and labelled", "[cli][errors][positive]") {
    const RunResult r = run_cli({"eval", example(), "-s", "gemm_qkv=0.5"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    const auto row = line_starting_with(r.out, "gemm_qkv ");
    CHECK_THAT(row, Contains("0.5x (slower)"));
    CHECK_THAT(row, Contains("68.0"));
    CHECK_THAT(row, Contains("-34.0"));
    CHECK_THAT(r.out, Contains("0.7463x (a slowdown: the run gets slower)"));
    // A positive percentage is a slowdown too: +100% doubles the phase's time.
    const RunResult pct = run_cli({"eval", example(), "-s", "gemm_qkv=+100%"});
    CHECK(pct.exit_code == 0);
    CHECK_THAT(line_starting_with(pct.out, "gemm_qkv "), Contains("0.5x (slower)"));
}

TEST_CASE("cli errors: bare amdahl prints the help and exits 0", "[cli][errors]") {
    // Before: "error: A subcommand is required", exit 2.
    const RunResult r = run_cli({});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, StartsWith("amdahl: if I make this part faster"));
    CHECK_THAT(r.out, Contains("law"));
    CHECK(r.out == run_cli({"--help"}).out);
    CHECK(r.err.empty());
}

TEST_CASE("cli errors: an option of another command, or a misspelt one, says which", "[cli][errors]") {
    // Before: "The following arguments were not expected: 0.95 -p".
    const auto check = [](const RunResult& r, const std::string& err) {
        INFO("stdout: " << r.out);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == err);
    };
    check(run_cli({"law", "-f", "0.5", "-k", "2", "-p", "0.95"}),
          "error: -p is an option of scale, not law (see 'amdahl law --help')\n");
    check(run_cli({"law", "-p", "0.95", "-k", "2"}),
          "error: -p is an option of scale, not law (see 'amdahl law --help')\n");
    check(run_cli({"eval", example(), "-k", "2"}),
          "error: -k is an option of law, rank, plan and report, not eval (see 'amdahl eval --help')\n");
    check(run_cli({"scale", "-p", "0.9", "--target=2"}),
          "error: --target is an option of law and plan, not scale (see 'amdahl scale --help')\n");
    check(run_cli({"law", "--fractoin", "0.5", "-k", "2"}),
          "error: law has no option --fractoin; did you mean --fraction? (see 'amdahl law --help')\n");
    check(run_cli({"law", "-f", "0.5", "-k", "2", "--frobnicate"}),
          "error: law has no option --frobnicate (see 'amdahl law --help')\n");
    check(run_cli({"law", "-f", "0.5", "-k", "2", "-x", "1"}),
          "error: law has no option -x (see 'amdahl law --help')\n");
}
