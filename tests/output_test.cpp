// What every command writes in every format, in-process: the formats keep their promises (JSON
// parses and is versioned, CSV is data with its talk on stderr, Markdown has its heading and result
// table), --phases changes the rows and nothing else, --output-* files are what --format prints,
// write errors name the path and the system's reason and leave nothing behind, Markdown shows names
// from code literally, and --precision reads the same everywhere.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>  // only to read the JSON reports back

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "support.hpp"

namespace {

namespace fs = std::filesystem;
using amdahl::test::read_file;
using amdahl::test::run_cli;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

void spill(const std::string& path, const std::string& content) { std::ofstream(path, std::ios::binary) << content; }

// The names in a directory, sorted.
std::vector<std::string> listing(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// Fields in one CSV record (RFC 4180 quoting; no record in these reports spans lines).
std::size_t csv_field_count(const std::string& line) {
    std::size_t fields = 1;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        if (c == ',' && !quoted) ++fields;
    }
    return fields;
}

// `key,value` rows of --summary-csv, after its header.
std::map<std::string, std::string> key_values(const std::string& csv) {
    std::map<std::string, std::string> values;
    const auto lines = lines_of(csv);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto comma = lines[i].find(',');
        values[lines[i].substr(0, comma)] = lines[i].substr(comma + 1);
    }
    return values;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

std::string example(const std::string& name) { return source_path("examples/" + name); }

struct CommandLine {
    std::string command;
    std::vector<std::string> args;
    std::string csv_header;  ///< empty: the command has no rows
};

// One real run of each command, as in the README.
std::vector<CommandLine> every_command() {
    return {
        {"eval",
         {"eval", example("transformer_step.json"), "-s", "attention_softmax=10"},
         "name,kind,time_ms,share_pct,factor,new_time_ms,saved_ms"},
        {"law", {"law", "-f", "0.6", "-k", "4"}, ""},
        {"rank",
         {"rank", example("transformer_step.json"), "-k", "10", "--only", "kind:kernel"},
         "rank,name,kind,time_ms,share_pct,factor,speedup,time_saved_ms,ceiling"},
        {"plan",
         {"plan", example("transformer_step.json"), "--target", "2", "-k", "10", "--only", "kind:kernel"},
         "step,name,kind,time_ms,factor,saved_ms,new_time_ms,speedup"},
        {"compare",
         {"compare", example("compare/before.json"), example("compare/after.json"), "--rename",
          "attention_softmax=flash_attention", "--require-speedup", "1.1"},
         "name,before_name,kind,status,before_ms,after_ms,change_ms,change_pct_of_phase,local_speedup,"
         "contribution_ms,contribution_pct_of_total,before_low_ms,before_high_ms,after_low_ms,after_high_ms,"
         "change_low_ms,change_high_ms"},
        {"scale", {"scale", "-p", "0.95", "-n", "5,10,100"}, "n,speedup,efficiency"},
        {"fit", {"fit", example("scaling_runs.csv")}, "n,run,time_ms,speedup,karp_flatt_e,model_speedup,residual"},
        {"queue", {"queue", "--service", "50ms", "--rate", "16/s", "-s", "1.43"}, "quantity,before,after,ratio"},
    };
}

}  // namespace

TEST_CASE("output: every command writes what each format promises", "[output]") {
    for (const auto& line : every_command()) {
        INFO("amdahl " << line.command);
        const RunResult table = run_cli(line.args);
        const RunResult json = run_cli(with(line.args, {"--format", "json"}));
        const RunResult csv = run_cli(with(line.args, {"--format", "csv"}));
        const RunResult md = run_cli(with(line.args, {"--format", "md"}));
        for (const RunResult* r : {&table, &json, &csv, &md}) {
            INFO("stderr: " << r->err);
            CHECK(r->exit_code == 0);
            if (r != &csv || !line.csv_header.empty()) CHECK_THAT(r->out, EndsWith("\n"));
        }
        // stderr is for talk: these examples have no notes, and only compare's gate has a verdict.
        const std::string verdict = line.command == "compare" ? "verdict: pass, the gate passed\n" : "";
        CHECK(table.err == verdict);
        CHECK(json.err == verdict);
        CHECK(md.err == verdict);

        const auto report = nlohmann::json::parse(json.out);
        CHECK(report["schema_version"] == 1);
        CHECK(report["command"] == line.command);

        // CSV: the rows on stdout, header first, every record as wide as the header; the summary
        // people read is on stderr, exactly as the table format ends.
        const auto records = lines_of(csv.out);
        if (line.csv_header.empty()) {
            // law has no rows: its summary is the data, as key,value rows (and, for people, on stderr).
            REQUIRE_FALSE(records.empty());
            CHECK(records.front() == "key,value");
            CHECK_THAT(csv.out, Contains("\nspeedup,"));
        } else {
            REQUIRE_FALSE(records.empty());
            CHECK(records.front() == line.csv_header);
            CHECK(records.size() > 1);
            for (const auto& record : records) CHECK(csv_field_count(record) == csv_field_count(line.csv_header));
        }
        REQUIRE_THAT(csv.err, EndsWith(verdict));
        const std::string summary = csv.err.substr(0, csv.err.size() - verdict.size());
        REQUIRE_FALSE(summary.empty());
        CHECK_THAT(table.out, EndsWith(summary));
        CHECK_THAT(csv.out, !Contains(lines_of(summary).front()));

        // compare's Markdown is a pull-request comment: a marker line first, for a workflow to find it.
        const std::string marker = line.command == "compare" ? "<!-- amdahl-compare -->\n" : "";
        CHECK_THAT(md.out, StartsWith(marker + "### amdahl " + line.command + ": "));
        CHECK_THAT(md.out, Contains("\n\n| result | value |\n| --- | --- |\n| "));
    }
}

TEST_CASE("output: law as Markdown is its summary in a table", "[output][markdown]") {
    const RunResult r = run_cli({"law", "-f", "0.6", "-k", "4", "--format", "md"});
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "### amdahl law: 1.8182x end to end\n"
          "\n"
          "| result | value |\n"
          "| --- | --- |\n"
          "| fraction f | 60.0% |\n"
          "| factor k | 4x |\n"
          "| speedup S | 1.8182x |\n"
          "| ceiling | 2.5000x (1 / (1 - f)) |\n"
          "| time saved | 45.0% of the time (1 - 1/S) |\n");
}

TEST_CASE("output: times are grouped in thousands unless --no-grouping", "[output][numbers]") {
    const std::vector<std::string> args{"eval", example("vector_add_rocprofv3.txt"), "-s",
                                        "vector_add kernel dispatch=10"};
    const RunResult grouped = run_cli(args);
    CHECK(grouped.exit_code == 0);
    CHECK_THAT(grouped.out, Contains("\nvector_add kernel dispatch           44,242.0  1.23%     10x        4,424.2    "
                                     "39,817.8\n"));
    CHECK_THAT(grouped.out, Contains("\nbaseline:          3,606,501.0 ns\n"));
    CHECK_THAT(grouped.out, Contains("\naffected fraction: 1.23% (f)\n"));

    const RunResult plain = run_cli(with(args, {"--no-grouping"}));
    CHECK(plain.exit_code == 0);
    CHECK_THAT(plain.out, Contains("\nvector_add kernel dispatch          44242.0  1.23%     10x         4424.2     "
                                   "39817.8\n"));
    CHECK_THAT(plain.out, Contains("\nbaseline:          3606501.0 ns\n"));
    CHECK_THAT(plain.out, Contains("\naffected fraction: 1.23% (f)\n"));
    // No thousands separator in any number (the verdict's words have commas of their own).
    CHECK_THAT(plain.out.substr(0, plain.out.find("\nverdict:")), !Contains(","));

    // Machine formats never group: CSV and JSON are the same either way.
    for (const char* format : {"csv", "json"}) {
        INFO(format);
        CHECK(run_cli(with(args, {"--format", format})).out ==
              run_cli(with(args, {"--format", format, "--no-grouping"})).out);
    }
}

TEST_CASE("output: --phases picks the rows - the summary stays the same", "[output][phases]") {
    const std::vector<std::string> args{"eval",    example("transformer_step.json"), "-s", "attention_softmax=10", "-s",
                                        "gemm_*=2"};
    const auto run = [&](const std::string& phases, const std::string& format) {
        const RunResult r = run_cli(with(args, {"--phases", phases, "--format", format}));
        INFO("--phases " << phases << " --format " << format << "\nstderr: " << r.err);
        CHECK(r.exit_code == 0);
        return r;
    };

    SECTION("table") {
        const RunResult all = run("all", "table"), changed = run("changed", "table"), none = run("none", "table");
        const std::string summary = all.out.substr(all.out.find("\n\n") + 2);
        CHECK_THAT(summary, StartsWith("baseline:          100.0 ms\nnew time:          58.1 ms\n"));
        CHECK(changed.out ==
              "phase              kind    time (ms)  share  factor  new time (ms)  saved (ms)\n"
              "-----------------  ------  ---------  -----  ------  -------------  ----------\n"
              "gemm_qkv           kernel       34.0  34.0%      2x           17.0        17.0\n"
              "attention_softmax  kernel       21.0  21.0%     10x            2.1        18.9\n"
              "gemm_proj          kernel       12.0  12.0%      2x            6.0         6.0\n"
              "\n" +
                  summary);
        CHECK(none.out == summary);
    }
    SECTION("csv") {
        const RunResult all = run("all", "csv"), changed = run("changed", "csv"), none = run("none", "csv");
        CHECK(lines_of(all.out).size() == 8);
        CHECK(changed.out ==
              "name,kind,time_ms,share_pct,factor,new_time_ms,saved_ms\n"
              "gemm_qkv,kernel,34,34,2,17,17\n"
              "attention_softmax,kernel,21,21,10,2.1,18.9\n"
              "gemm_proj,kernel,12,12,2,6,6\n");
        // No rows: the summary is the data, as key,value rows (as law's CSV is); no table header.
        CHECK_THAT(none.out, StartsWith("key,value\nbaseline_ms,100\n"));
        CHECK(changed.err == all.err);
        CHECK(none.err == all.err);
        CHECK_THAT(all.err, StartsWith("baseline:          100.0 ms\n"));
    }
    SECTION("md") {
        const RunResult all = run("all", "md"), changed = run("changed", "md"), none = run("none", "md");
        const auto rows = all.out.find("\n\n| phase |");
        REQUIRE(rows != std::string::npos);
        const std::string head = all.out.substr(0, rows + 1);
        CHECK_THAT(head, StartsWith("### amdahl eval: 1.7212x end to end, 41.9 ms saved\n\n| result | value |\n"));
        CHECK(changed.out == head +
                                 "\n"
                                 "| phase | kind | time (ms) | share | factor | new time (ms) | saved (ms) |\n"
                                 "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n"
                                 "| `gemm_qkv` | kernel | 34.0 | 34.0% | 2x | 17.0 | 17.0 |\n"
                                 "| `attention_softmax` | kernel | 21.0 | 21.0% | 10x | 2.1 | 18.9 |\n"
                                 "| `gemm_proj` | kernel | 12.0 | 12.0% | 2x | 6.0 | 6.0 |\n");
        CHECK(none.out == head);
    }
    SECTION("json") {
        auto all = nlohmann::json::parse(run("all", "json").out);
        auto changed = nlohmann::json::parse(run("changed", "json").out);
        auto none = nlohmann::json::parse(run("none", "json").out);
        CHECK(all["phase_rows"] == "all");
        CHECK(changed["phase_rows"] == "changed");
        CHECK(none["phase_rows"] == "none");
        CHECK(all["phases"].size() == 7);
        std::vector<std::string> names;
        for (const auto& phase : changed["phases"]) names.push_back(phase["name"]);
        CHECK(names == std::vector<std::string>{"gemm_qkv", "attention_softmax", "gemm_proj"});
        CHECK(changed["phases"][1]["new_time"].get<double>() == Approx(2.1));
        CHECK(none["phases"].empty());
        CHECK(all["speedup"].get<double>() == Approx(100 / 58.1));
        // Everything but the rows is the same report.
        for (auto* report : {&all, &changed, &none}) {
            report->erase("phases");
            report->erase("phase_rows");
        }
        CHECK(changed == all);
        CHECK(none == all);
    }
}

TEST_CASE("output: --output-* files are what --format prints - stdout keeps its format", "[output][files]") {
    TempDir dir;
    const std::vector<std::string> files{"--output-json", dir / "report.json", "--output-md",   dir / "report.md",
                                         "--output-csv",  dir / "report.csv",  "--summary-csv", dir / "summary.csv"};
    for (const auto& line : every_command()) {
        INFO("amdahl " << line.command);
        const RunResult json = run_cli(with(line.args, {"--format", "json"}));
        const RunResult md = run_cli(with(line.args, {"--format", "md"}));
        const RunResult csv = run_cli(with(line.args, {"--format", "csv"}));
        for (const char* format : {"table", "csv", "md"}) {
            INFO("--format " << format);
            const RunResult alone = run_cli(with(line.args, {"--format", format}));
            // The second format overwrites the first one's files: they are replaced whole.
            const RunResult r = run_cli(with(with(line.args, {"--format", format}), files));
            CHECK(r.exit_code == 0);
            CHECK(r.out == alone.out);
            CHECK(r.err == alone.err);  // CSV's summary once, on stderr, not once per file
            // The same report; only the arguments it records differ (the --output-* flags).
            auto file_json = nlohmann::json::parse(read_file(dir / "report.json"));
            auto stdout_json = nlohmann::json::parse(json.out);
            file_json.erase("arguments");
            stdout_json.erase("arguments");
            CHECK(file_json == stdout_json);
            CHECK(read_file(dir / "report.md") == md.out);
            CHECK(read_file(dir / "report.csv") == csv.out);
            CHECK_THAT(read_file(dir / "summary.csv"), StartsWith("key,value\n"));
            // Written through a temporary file renamed into place: no temporary is left.
            CHECK(listing(dir.string()) ==
                  std::vector<std::string>{"report.csv", "report.json", "report.md", "summary.csv"});
        }
    }
}

TEST_CASE("output: --summary-csv has the summary's keys and full-precision values", "[output][files]") {
    TempDir dir;
    SECTION("eval") {
        const RunResult r = run_cli({"eval", example("transformer_step.json"), "-s", "attention_softmax=10",
                                     "--summary-csv", dir / "summary.csv"});
        CHECK(r.exit_code == 0);
        const std::string csv = read_file(dir / "summary.csv");
        CHECK(lines_of(csv).front() == "key,value");
        const auto values = key_values(csv);
        std::vector<std::string> keys;
        for (const auto& line : lines_of(csv)) keys.push_back(line.substr(0, line.find(',')));
        CHECK(keys == std::vector<std::string>{"key", "baseline_ms", "new_time_ms", "speedup", "time_saved_ms",
                                               "affected_fraction", "ceiling", "headroom_captured"});
        CHECK(std::stod(values.at("baseline_ms")) == Approx(100));
        CHECK(std::stod(values.at("new_time_ms")) == Approx(81.1));
        CHECK(std::stod(values.at("speedup")) == Approx(100 / 81.1).epsilon(1e-15));
        CHECK(std::stod(values.at("time_saved_ms")) == Approx(18.9));
        CHECK(std::stod(values.at("affected_fraction")) == Approx(0.21));
        CHECK(std::stod(values.at("ceiling")) == Approx(1 / 0.79).epsilon(1e-15));
        CHECK(std::stod(values.at("headroom_captured")) == Approx(0.9));
    }
    SECTION("compare, with a gate") {
        const RunResult r = run_cli({"compare", example("compare/before.json"), example("compare/after.json"),
                                     "--require-speedup", "1.2", "--summary-csv", dir / "summary.csv"});
        CHECK(r.exit_code == 1);  // the gate fails; the summary is written all the same
        const auto values = key_values(read_file(dir / "summary.csv"));
        CHECK(std::stod(values.at("speedup")) == Approx(100 / 84.7).epsilon(1e-15));
        CHECK(std::stod(values.at("change_ms")) == Approx(-15.3));
        CHECK(values.at("result") == "faster");
        CHECK(values.at("gates_passed") == "false");
    }
    SECTION("law: text values and booleans") {
        const RunResult r =
            run_cli({"law", "-f", "0.6", "--target", "3", "--summary-csv", dir / "summary.csv", "--format", "json"});
        CHECK(r.exit_code == 0);
        const auto values = key_values(read_file(dir / "summary.csv"));
        CHECK(values.at("possible") == "false");
        CHECK(values.at("factor").empty());  // impossible: no number
        CHECK(std::stod(values.at("target")) == Approx(3));
    }
}

TEST_CASE("output: a link, a FIFO or a device is written through, not replaced", "[output][files]") {
    // A regular file is replaced by a rename, so nobody reads half of it; what a path names when
    // it is not a regular file (/dev/stdout is a link, /dev/null a device, >(jq .) a pipe) must
    // stay what it is. Before this was handled, /dev/null became a regular file when root wrote
    // --output-json /dev/null.
    TempDir dir;
    const std::vector<std::string> args{"eval", example("transformer_step.json"), "-s", "attention_softmax=10"};
    const std::string json = run_cli(with(args, {"--format", "json"})).out;
    SECTION("a symbolic link keeps pointing at its file, which gets the report") {
        spill(dir / "report-1.json", "old");
        fs::create_symlink("report-1.json", dir / "latest.json");
        const RunResult r = run_cli(with(args, {"--output-json", dir / "latest.json"}));
        CHECK(r.exit_code == 0);
        CHECK(fs::is_symlink(dir / "latest.json"));
        CHECK(read_file(dir / "report-1.json") == json);
        CHECK(listing(dir.string()) == std::vector<std::string>{"latest.json", "report-1.json"});
    }
    SECTION("a FIFO stays a FIFO, and its reader gets the report") {
        const std::string fifo = dir / "pipe";
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        // Opened for reading first, without blocking, so the writer's open does not block either.
        const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        REQUIRE(reader >= 0);
        const RunResult r = run_cli(with(args, {"--output-json", fifo}));
        std::string received;
        char buffer[4096];
        for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;)
            received.append(buffer, static_cast<std::size_t>(n));
        ::close(reader);
        CHECK(r.exit_code == 0);
        CHECK(fs::is_fifo(fifo));
        CHECK(received == json);
        CHECK(listing(dir.string()) == std::vector<std::string>{"pipe"});
    }
}

TEST_CASE("output: a file that cannot be written is an input error naming it", "[output][files][errors]") {
    TempDir dir;
    const std::vector<std::string> args{"eval", example("transformer_step.json"), "-s", "attention_softmax=10"};
    SECTION("in a directory that does not exist") {
        const std::string path = dir / "missing/report.json";
        const RunResult r = run_cli(with(args, {"--output-json", path}));
        CHECK(r.exit_code == 2);
        CHECK(r.err == "error: " + path + ": cannot write here: " + std::strerror(ENOENT) + "\n");
        CHECK_THAT(r.err, Contains("No such file or directory"));
        CHECK(listing(dir.string()).empty());
    }
    SECTION("onto a directory") {
        const std::string path = dir / "reports";
        fs::create_directory(path);
        const RunResult r = run_cli(with(args, {"--output-json", path}));
        CHECK(r.exit_code == 2);
        CHECK(r.err == "error: " + path +
                           ": cannot write here: " + std::make_error_code(std::errc::is_a_directory).message() + "\n");
        CHECK_THAT(r.err, Contains("Is a directory"));
        // The temporary written beside it is gone, and the directory is untouched.
        CHECK(listing(dir.string()) == std::vector<std::string>{"reports"});
        CHECK(listing(path).empty());
    }
    SECTION("the summary CSV, too") {
        const std::string path = dir / "missing/summary.csv";
        const RunResult r = run_cli(with(args, {"--summary-csv", path}));
        CHECK(r.exit_code == 2);
        CHECK(r.err == "error: " + path + ": cannot write here: " + std::strerror(ENOENT) + "\n");
    }
}

namespace {

// Phase names as they come out of C++ and Python profilers, and one with a backtick; the total
// leaves 10 ms unattributed and a share disagrees, so there are notes with `_`, `<` and `*`.
const char* const awkward_profile = R"json({
  "name": "odd <names>",
  "unit": "ms",
  "total": 100,
  "phases": [
    {"name": "void k<float>(float*)", "time": 30, "kind": "kernel", "share": 0.5},
    {"name": "__init__", "time": 20, "kind": "host_side"},
    {"name": "*ptr*", "time": 15, "kind": "kernel"},
    {"name": "[x](y)", "time": 10, "kind": "kernel"},
    {"name": "a|b", "time": 10, "kind": "kernel"},
    {"name": "tick`tock", "time": 5, "kind": "kernel"}
  ]
})json";

}  // namespace

TEST_CASE("output: Markdown shows names from code literally", "[output][markdown]") {
    TempDir dir;
    const std::string profile = dir / "awkward_names.json";
    spill(profile, awkward_profile);

    SECTION("eval: names are code spans, other text is escaped") {
        // --names full: the whole name in its code span (the short name, `k`, is the default).
        const RunResult r = run_cli({"eval", profile, "-s", "__init__=2", "--format", "md", "--names", "full"});
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\n| phase | kind | time (ms) | share | factor | new time (ms) | saved (ms) |\n"
                                   "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n"
                                   "| `void k<float>(float*)` | kernel | 30.0 | 30.0% | - | 30.0 | 0.0 |\n"
                                   "| `__init__` | host\\_side | 20.0 | 20.0% | 2x | 10.0 | 10.0 |\n"
                                   "| `*ptr*` | kernel | 15.0 | 15.0% | - | 15.0 | 0.0 |\n"
                                   "| `[x](y)` | kernel | 10.0 | 10.0% | - | 10.0 | 0.0 |\n"
                                   "| `a\\|b` | kernel | 10.0 | 10.0% | - | 10.0 | 0.0 |\n"
                                   "| ``tick`tock`` | kernel | 5.0 | 5.0% | - | 5.0 | 0.0 |\n"
                                   "| `unattributed` | unattributed | 10.0 | 10.0% | - | 10.0 | 0.0 |\n"));
        const auto lines = lines_of(r.out);
        const auto notes = std::find(lines.begin(), lines.end(), "#### Notes");
        REQUIRE(notes != lines.end());
        REQUIRE(lines.end() - notes == 4);
        CHECK(notes[1].empty());
        CHECK_THAT(notes[2], StartsWith("- "));
        CHECK_THAT(notes[2], EndsWith("/awkward\\_names.json: phases\\[0\\]: phase 'void k\\<float\\>(float\\*)': "
                                      "share 50% disagrees with its time (30.0 ms is 30% of 100.0 ms)"));
        CHECK_THAT(notes[3], EndsWith("/awkward\\_names.json: the phases add up to 90.0 ms of the total 100.0 ms; "
                                      "the other 10.0 ms is phase 'unattributed'"));
    }
    SECTION("rank: a name in the headline and the summary is escaped text") {
        const RunResult r = run_cli({"rank", profile, "--format", "md", "--names", "full"});
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, StartsWith("### amdahl rank: void k\\<float\\>(float\\*) first (1.3699x end to end)\n"
                                     "\n"
                                     "| result | value |\n"
                                     "| --- | --- |\n"
                                     "| largest saving | void k\\<float\\>(float\\*) (10x, 27.0 ms saved, 1.3699x end "
                                     "to end) |\n"));
        CHECK_THAT(r.out, Contains("\n| 2 | `__init__` | host\\_side | 20.0 | 20.0% | 10x | 1.2195x | 18.0 | "
                                   "1.2500x |\n"));
    }
    SECTION("compare: a gate is a code span in a list, where a pipe needs no escape") {
        // Inside a code span a backslash is literal: outside a table cell, `a\|b` would show the
        // backslash. Only the table's own cells need the pipe escaped.
        const RunResult r = run_cli({"compare", profile, profile, "--fail-if-phase-slower", "a|b=5%",
                                     "--fail-if-phase-slower", "tick`tock=5%", "--format", "md"});
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\n| `a\\|b` | unchanged | 10.0 | 10.0 | 0.0 | 0.0% | 1.0000x | 0.0% |\n"));
        CHECK_THAT(r.out, Contains("\n**Gates**\n\n"
                                   "- ✅ `--fail-if-phase-slower a|b=5%`: a\\|b 0.0% of phase (10.0 → 10.0 ms): not "
                                   "more than 5%\n"
                                   "- ✅ ``--fail-if-phase-slower tick`tock=5%``: tick\\`tock 0.0% of phase (5.0 → 5.0 "
                                   "ms): not more than 5%\n"));
    }
}

TEST_CASE("output: --precision reads the same in the table, the summary and the gates", "[output][numbers]") {
    const std::vector<std::string> args{"compare",
                                        example("compare/before.json"),
                                        example("compare/after.json"),
                                        "--require-speedup",
                                        "1.1",
                                        "--precision",
                                        "2"};
    SECTION("table") {
        const RunResult r = run_cli(args);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("\ntotal                                  faster           100.0        84.7        "
                                   "-15.3      -15.3%          1.18x      -15.3%\n"));
        CHECK_THAT(r.out, Contains("\nspeedup:   1.18x end to end (before / after)\n"));
        CHECK_THAT(r.out, Contains("\npredicted: 1.18x by Amdahl's law"));
        CHECK_THAT(r.out, EndsWith("\ngates:\n  pass  --require-speedup 1.1: end to end 1.18x: at least the required "
                                   "1.10x\n"));
        CHECK(r.err == "verdict: pass, the gate passed\n");
    }
    SECTION("md") {
        const RunResult r = run_cli(with(args, {"--format", "md"}));
        CHECK(r.exit_code == 0);
        CHECK_THAT(
            r.out,
            StartsWith(
                "<!-- amdahl-compare -->\n### amdahl compare: 1.18x faster end to end (-15.3% of the before total)\n"));
        CHECK_THAT(r.out, Contains("\n| speedup | 1.18x end to end (before / after) |\n"));
        CHECK_THAT(r.out, Contains("\n| `total` | faster | 100.0 | 84.7 | -15.3 | -15.3% | 1.18x | -15.3% |\n"));
        CHECK_THAT(r.out, Contains("\n- ✅ `--require-speedup 1.1`: end to end 1.18x: at least the required 1.10x\n"));
    }
    SECTION("a failed gate on stderr") {
        const RunResult r = run_cli({"compare", example("compare/before.json"), example("compare/after.json"),
                                     "--require-speedup", "1.2", "--precision", "2", "--format", "csv"});
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Contains("\nspeedup:   1.18x end to end (before / after)\n"));
        CHECK_THAT(r.err, EndsWith("\ngate failed: --require-speedup 1.2: end to end 1.18x: below the required 1.20x\n"
                                   "verdict: FAIL, the gate failed\n"));
    }
    SECTION("eval's gate") {
        const RunResult r = run_cli({"eval", example("transformer_step.json"), "-s", "attention_softmax=10",
                                     "--require-speedup", "1.3", "--precision", "2", "--phases", "none"});
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.out, Contains("\nspeedup:           1.23x\n"));
        CHECK_THAT(r.out, EndsWith("\ngates:\n  FAIL  --require-speedup 1.3: end to end 1.23x: below the required "
                                   "1.30x\n"));
        CHECK(r.err == "gate failed: speedup 1.23x is below the required 1.30x\n");
    }
}

TEST_CASE("output: --phases belongs to eval - rank and plan refuse it rather than ignore it", "[output][phases]") {
    for (const std::string command : {"rank", "plan"}) {
        INFO(command);
        std::vector<std::string> args{command, example("transformer_step.json"), "--phases", "none"};
        if (command == "plan") args.insert(args.end(), {"--target", "2"});
        const RunResult r = run_cli(args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err ==
              "error: --phases is an option of eval, not " + command + " (see 'amdahl " + command + " --help')\n");
    }
}
