// Folded stacks: the default cut below the common root, --depth, --leaf, --sample-period, the
// real FlameGraph and speedscope samples, hand-made edge cases and bad input.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "amdahl/error.hpp"
#include "amdahl/io.hpp"
#include "support.hpp"

using namespace amdahl;
using amdahl::test::run_cli;
using amdahl::test::source_path;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;

namespace {

std::string data(const std::string& relative) { return source_path("tests/data/profilers/" + relative); }

Profile load(const std::string& path, std::optional<InputFormat> format = std::nullopt,
             const ImportOptions& options = {}) {
    std::istringstream no_stdin;
    return amdahl::load_profile(path, no_stdin, format, options);
}

Profile load_folded(const std::string& path, const ImportOptions& options = {}) {
    return load(path, InputFormat::folded, options);
}

ImportOptions depth(int n) {
    ImportOptions options;
    options.depth = n;
    return options;
}

ImportOptions leaf() {
    ImportOptions options;
    options.leaf = true;
    return options;
}

// The phases as name -> time, in the profile's order.
std::vector<std::pair<std::string, double>> table(const Profile& profile) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& p : profile.phases) out.emplace_back(p.name, p.time);
    return out;
}

using Table = std::vector<std::pair<std::string, double>>;

bool has_note(const Profile& profile, const std::string& part) {
    for (const auto& note : profile.notes)
        if (note.find(part) != std::string::npos) return true;
    return false;
}

std::string error_of(const std::string& path, const ImportOptions& options = {}) {
    try {
        load_folded(path, options);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

std::string temp(const std::string& name, const std::string& content) {
    return write_temp("import_folded_" + name, content);
}

}  // namespace

TEST_CASE("folded: speedscope simple, detected, the default cuts below the common root", "[import][folded]") {
    // a;b;c 1 + 1 + 3, a;b;d 4, a;b 5: every sample starts with a;b.
    const std::string path = data("folded-stacks/speedscope_simple.txt");
    const Profile p = load(path);
    CHECK(p.format == "folded");
    CHECK(!p.summary_only);
    CHECK(table(p) == Table{{"c", 5}, {"d", 4}, {"b (self)", 5}});
    CHECK(p.unit == Unit::ms);
    CHECK(p.where(p.phases[0]) == path + ":1");
    CHECK(has_note(p,
                   "phases are the first frame below 'a;b', which every sample starts with (--depth 3 without the "
                   "common part; give --depth N or --leaf to choose)"));
    CHECK(has_note(p, "times are sample counts, shown as ms (1 sample = 1 ms)"));
    CHECK(p.boundary ==
          "all 14 samples in the file (1 sample shown as 1 ms: no --sample-period); CPU time: "
          "samples of threads that ran at once add up");
}

TEST_CASE("folded: --depth and --leaf partition the same samples", "[import][folded]") {
    const std::string path = data("folded-stacks/speedscope_simple.txt");
    CHECK(table(load_folded(path, depth(1))) == Table{{"a", 14}});
    CHECK(table(load_folded(path, depth(2))) == Table{{"a;b", 14}});
    // A stack shorter than the depth is that frame's self time on that path, and says so: "a;b"
    // beside "a;b;c" read as all of a;b (14 samples) where it holds the 5 that end at b.
    CHECK(table(load_folded(path, depth(3))) == Table{{"a;b;c", 5}, {"a;b;d", 4}, {"a;b (self)", 5}});
    CHECK(table(load_folded(path, depth(9))) == Table{{"a;b;c", 5}, {"a;b;d", 4}, {"a;b (self)", 5}});
    CHECK(table(load_folded(path, leaf())) == Table{{"c", 5}, {"d", 4}, {"b", 5}});
    CHECK(has_note(load_folded(path, leaf()), "phases are the leaf frames: each function's self time (--leaf)"));
}

TEST_CASE("folded: CRLF line ends read like LF", "[import][folded]") {
    CHECK(table(load(data("folded-stacks/speedscope_simple-crlf.txt"))) ==
          table(load(data("folded-stacks/speedscope_simple.txt"))));
}

TEST_CASE("folded: comments are skipped, a line without a count is skipped with a note", "[import][folded]") {
    const std::string path = data("folded-stacks/speedscope_simple-with-invalids.txt");
    const Profile p = load_folded(path);
    CHECK(table(p) == Table{{"c", 5}, {"d", 4}, {"b (self)", 5}});
    CHECK(has_note(p, path + ":8: skipped 1 line without a trailing sample count"));
}

TEST_CASE("folded: recursion", "[import][folded]") {
    const std::string path = data("folded-stacks/speedscope_recursion.txt");
    // No frame is common to every sample (a;... and b;b): the default is --depth 1.
    const Profile p = load(path);
    CHECK(table(p) == Table{{"a", 9}, {"b", 1}});
    CHECK(has_note(p, "phases are the first frame of each stack (no frame is common to every sample"));
    CHECK(table(load_folded(path, depth(2))) == Table{{"a;a", 1}, {"b;b", 1}, {"a;b", 8}});
    CHECK(table(load_folded(path, leaf())) == Table{{"a", 1}, {"b", 5}, {"c", 4}});
}

TEST_CASE("folded: real stackcollapse-perf.pl output", "[import][folded]") {
    SECTION("process and main in every stack") {
        const Profile p = load(data("folded-stacks/flamegraph_perf-funcab-cmd-01-collapsed-pid.txt"));
        CHECK(table(p) == Table{{"func_a", 81}, {"func_b", 88}});
        CHECK(has_note(p, "the first frame below 'func_ab-?;__libc_start_main;main'"));
    }
    SECTION("two processes") {
        const Profile p = load(data("folded-stacks/flamegraph_perf-cycles-instructions-01-collapsed-all.txt"));
        CHECK(table(p) == Table{{"cksum", 31 + 6 + 1 + 19}, {"noploop", 2 + 274}});
        const Profile leaves =
            load_folded(data("folded-stacks/flamegraph_perf-cycles-instructions-01-collapsed-all.txt"), leaf());
        CHECK(table(leaves) ==
              Table{{"cksum", 31 + 6 + 19}, {"ext4_file_read_iter_[k]", 1}, {"[unknown]", 2}, {"main", 274}});
    }
    SECTION("kernel frames and [unknown]; counts that are perf's sample periods") {
        const std::string path = data("folded-stacks/flamegraph_perf-dd-stacks-01-collapsed-kernel.txt");
        const Profile p = load(path);
        CHECK(table(p) == Table{{"[unknown]", 6 * 10101010.0 + 20202020.0}, {"write", 2 * 10101010.0}});
        // Every count is a multiple of 10101010 (1e9 / 99: a cpu-clock sample at 99 Hz, in ns):
        // stackcollapse-perf.pl wrote perf's periods, not sample counts. Said, not assumed.
        CHECK(has_note(p, path + ": every count is a multiple of 10101010, so they look like perf sample periods "
                                 "(stackcollapse-perf.pl adds up the period perf recorded), not sample counts"));
        CHECK(!has_note(p, "times are sample counts"));
        CHECK(p.boundary ==
              "all 101010100 counts in the file (1 count shown as 1 ms: no --sample-period); "
              "CPU time: samples of threads that ran at once add up");
        // A period given for one sample would multiply periods: the note says what one count must be.
        ImportOptions ns;
        ns.sample_period = parse_quantity("1ns");
        const Profile real = load_folded(path, ns);
        CHECK(real.total() == Approx(101010100));
        CHECK(has_note(real,
                       "--sample-period is taken as the time of one count (1ns for cpu-clock or task-clock "
                       "periods), not of one sample"));
    }
    SECTION("several threads: their samples add up as CPU time, and a note says so") {
        const std::string path = data("folded-stacks/flamegraph_perf-iperf-stacks-pidtid-01-collapsed-tid.txt");
        const Profile p = load(path);
        CHECK(p.total() == Approx(200));
        CHECK(has_note(p, path + ": the stacks come from 10 threads of 4 processes (first frames like "
                                 "'iperf-27409/28741', as stackcollapse-perf.pl --tid names them): their samples "
                                 "add up as CPU time"));
        CHECK(has_note(p, "speeding up one thread saves less wall time than shown, or none"));
        CHECK(p.boundary ==
              "all 200 samples in the file (1 sample shown as 1 ms: no --sample-period); "
              "CPU time summed over 10 threads, not wall time");
        // The sum of the threads is not the run's wall time: every report says "over the summed
        // rows", as it does for a kernel summary, never "end to end".
        CHECK(p.summary_only);
        const auto r = run_cli({"rank", path});
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.out, Contains("largest saving: iperf-28735/28737 (10x, 30.6 ms saved, 1.1806x over the summed "
                                   "rows)"));
        CHECK_THAT(r.out, !Contains("end to end"));
        CHECK_THAT(r.out, Contains("summary only:   rows may overlap: the sum of the rows is not wall time"));
    }
    SECTION("one thread, or stacks without thread names: no thread note") {
        const Profile one = load(data("folded-stacks/flamegraph_perf-funcab-cmd-01-collapsed-pid.txt"));
        CHECK(!has_note(one, "threads of"));
        CHECK(!one.summary_only);
        CHECK(!has_note(load(data("folded-stacks/speedscope_simple.txt")), "threads of"));
    }
    SECTION("names that only look like --pid names are not read as processes") {
        // "stage-1", "pool-1-thread-2": a numbered step or a Java thread, not "comm-PID". Only
        // --tid's "comm-PID/TID" is read as a thread; other first frames are what the boundary says.
        const std::string path = write_temp("stages.folded", "stage-1;load 30\nstage-2;compute 70\n");
        const Profile p = load_folded(path);
        CHECK(!p.summary_only);
        CHECK(!has_note(p, "processes"));
        CHECK(has_note(p, "stackcollapse-perf.pl writes the command as the first frame"));
    }
    SECTION("a thread without samples is not a thread that ran") {
        const Profile p = load_folded(write_temp("zero.folded", "a-1/2;f 5\na-1/3;g 0\n"));
        CHECK(!p.summary_only);
        CHECK(!has_note(p, "threads"));
        const Profile two = load_folded(write_temp("two.folded", "a-?/2;f 5\na-?/3;g 1\n"));
        CHECK(two.summary_only);
        CHECK(has_note(two, "the stacks come from 2 threads (first frames like 'a-?/2'"));
    }
    SECTION("a few round counts are not perf periods") {
        CHECK(!has_note(load_folded(write_temp("round.folded", "main;f 1000\nmain;g 3000\n")), "periods"));
    }
    SECTION("one Java stack with ::: names and _[j] frames") {
        const Profile p = load(data("folded-stacks/flamegraph_perf-java-stacks-02-collapsed-jit.txt"));
        CHECK(table(p) == Table{{"native_write_msr_safe", 2}});
        CHECK(table(load_folded(data("folded-stacks/flamegraph_perf-java-stacks-02-collapsed-jit.txt"), depth(8))) ==
              Table{{"java;start_thread;JavaMain;jni_CallStaticVoidMethod;jni_invoke_static;JavaCalls::call_helper;"
                     "call_stub_[j];LBusy:::main_[j]",
                     2}});
    }
}

TEST_CASE("folded: hand-made edge cases", "[import][folded]") {
    // CRLF, # and // comments, decimal counts, frames with spaces, a tab before a count, a stray
    // line, a blank line and a zero count; every stack starts with app;main.
    const std::string path = data("handmade/folded_edge_cases.txt");
    const Profile p = load_folded(path);
    CHECK(table(p) == Table{{"parse input", 4}, {"solve", 12}, {"main (self)", 1}, {"report", 3}});
    CHECK(p.where(p.phases[0]) == path + ":3");
    CHECK(has_note(p, path + ":8: skipped 1 line without a trailing sample count"));
    CHECK(table(load_folded(path, depth(3))) ==
          Table{{"app;main;parse input", 4}, {"app;main;solve", 12}, {"app;main (self)", 1}, {"app;main;report", 3}});
    CHECK(table(load_folded(path, leaf())) ==
          Table{{"read_file", 2.5}, {"tokenize", 1.5}, {"dgemm (blas)", 10}, {"solve", 2}, {"main", 1}, {"report", 3}});
}

TEST_CASE("folded: --sample-period gives real times in its unit", "[import][folded]") {
    const std::string path = data("handmade/folded_edge_cases.txt");
    ImportOptions options;
    options.sample_period = parse_quantity("10ms");
    const Profile p = load_folded(path, options);
    CHECK(p.unit == Unit::ms);
    CHECK(table(p) == Table{{"parse input", 40}, {"solve", 120}, {"main (self)", 10}, {"report", 30}});
    CHECK(p.boundary == "all 20 samples in the file x 10 ms; CPU time: samples of threads that ran at once add up");
    CHECK(!has_note(p, "sample counts"));

    options.sample_period = parse_quantity("250us");
    const Profile micro = load_folded(path, options);
    CHECK(micro.unit == Unit::us);
    CHECK(micro.total() == Approx(20 * 250));
}

TEST_CASE("folded: --rename-regex and --group-by apply to the phase names", "[import][folded]") {
    ImportOptions options = leaf();
    options.rename_patterns = {{"read_file|tokenize", "input"}};
    const Profile p = load_folded(data("handmade/folded_edge_cases.txt"), options);
    CHECK(table(p) == Table{{"input", 4}, {"dgemm (blas)", 10}, {"solve", 2}, {"main", 1}, {"report", 3}});
}

TEST_CASE("folded: eval from the command line", "[import][folded][cli]") {
    const std::string path = data("folded-stacks/flamegraph_perf-funcab-cmd-01-collapsed-pid.txt");
    const auto r = run_cli({"eval", path, "-s", "func_a=inf"}, "");
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("note: " + path + ": times are sample counts"));
    // Removing func_a (81 of 169 samples): 169 / 88.
    CHECK_THAT(r.out, Contains("1.9205x"));
}

TEST_CASE("folded: frame names in notes never carry raw terminal escapes", "[import][folded]") {
    const std::string path = temp("escape.txt", "\x1b[2Japp;main;a 1\n\x1b[2Japp;main;b 2\n");
    const auto r = run_cli({"eval", path}, "");
    CHECK(r.exit_code == 0);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK_THAT(r.err, Contains("the first frame below '\\x1B[2Japp;main'"));
}

TEST_CASE("folded: bad input", "[import][folded][errors]") {
    SECTION("nothing that looks like a sample") {
        const std::string path = temp("none.txt", "# only a comment\nhello world\n");
        CHECK(error_of(path) == path +
                                    ":2: expected folded stacks: lines like 'main;parse;tokenize 12' (frames joined "
                                    "by ';', then a space and the sample count)");
    }
    SECTION("a negative count") {
        const std::string path = temp("negative.txt", "a;b 3\na;c -2\n");
        CHECK(error_of(path) == path + ":2: the sample count must be >= 0 (got '-2')");
    }
    SECTION("only zero counts") {
        const std::string path = temp("zero.txt", "a;b 0\na;c 0\n");
        const auto r = run_cli({"eval", path}, "");
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "error: " + path + ": the phases add up to zero time; there is nothing to speed up\n");
    }
    SECTION("options") {
        const std::string path = data("folded-stacks/speedscope_simple.txt");
        CHECK(error_of(path, depth(0)) == "--depth: must be 1 or more (got 0)");
        ImportOptions both = leaf();
        both.depth = 2;
        CHECK(error_of(path, both) == "--depth: choose --depth N or --leaf, not both");
        ImportOptions unitless;
        unitless.sample_period = parse_quantity("10");
        CHECK(error_of(path, unitless) == "--sample-period: must be a time > 0 with its unit, such as 1ms or 250us");
    }
}

TEST_CASE("folded: the command-line options", "[import][folded][cli]") {
    const std::string invalids = data("folded-stacks/speedscope_simple-with-invalids.txt");
    auto r = run_cli(
        {"eval", invalids, "--input-format", "folded", "--leaf", "--sample-period", "2ms", "--format", "csv"}, "");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nc,,10,"));  // 5 samples x 2 ms
    CHECK_THAT(r.out, Contains("\nd,,8,"));
    CHECK_THAT(r.out, Contains("\nb,,10,"));
    CHECK_THAT(r.err, Contains("skipped 1 line without a trailing sample count"));

    r = run_cli({"eval", data("folded-stacks/speedscope_simple.txt"), "--sample-period", "10"}, "");
    CHECK(r.exit_code == 2);
    CHECK(r.err == "error: --sample-period: must be a time > 0 with its unit, such as 1ms or 250us\n");

    const std::string none = temp("cli_none.txt", "no samples here\n");
    r = run_cli({"eval", none, "--input-format", "folded"}, "");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + none +
                       ":1: expected folded stacks: lines like 'main;parse;tokenize 12' (frames joined by "
                       "';', then a space and the sample count)\n");
}

TEST_CASE("folded: a stack ending in an empty frame counts for its parent, with a note", "[import][folded]") {
    // perf writes a frame it cannot name as nothing: `...;write0_[j];  3` (issue 12). This line
    // aborted the whole file ("phase has an empty name").
    const std::string path =
        temp("empty_leaf.txt", "dd;sys_write;write0_[j];  3\ndd;sys_write;write0_[j] 2\ndd;sys_read 5\n");
    const Profile leaves = load_folded(path, leaf());
    CHECK(table(leaves) == Table{{"write0_[j]", 5}, {"sys_read", 5}});
    REQUIRE(leaves.notes.size() == 3);
    CHECK(leaves.notes[2] == path +
                                 ":1: 1 stack ends in an empty frame (';' before the count: a frame perf could not "
                                 "name); its samples are attributed to the frame above it");
    // The other cuts see the same stack without its empty frame.
    CHECK(table(load_folded(path, depth(3))) == Table{{"dd;sys_write;write0_[j]", 5}, {"dd;sys_read", 5}});
    CHECK(table(load_folded(path)) == Table{{"sys_write", 5}, {"sys_read", 5}});
    const auto r = run_cli({"eval", path, "--leaf", "--format", "csv"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Contains("\nwrite0_[j],,5,50,"));
}
