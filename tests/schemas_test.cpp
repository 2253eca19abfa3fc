// The JSON contract: every command's --format json report, as the built binary writes it for every
// example and for edge cases, is valid against its schema in schemas/, and so is every JSON profile
// amdahl reads or writes. tests/validate_json.py validates (JSON Schema draft 2020-12, Debian's
// python3-jsonschema); the last tests show it fails on broken documents, so none of this is vacuous.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

namespace fs = std::filesystem;
using amdahl::test::run_binary;
using amdahl::test::run_shell;
using amdahl::test::RunResult;
using amdahl::test::source_path;
using amdahl::test::write_temp;
using Catch::Matchers::Contains;
using Json = nlohmann::ordered_json;

// Debian's interpreter, which python3-jsonschema installs for; `python3` on PATH may be another.
constexpr const char* python = "/usr/bin/python3";

std::string slurp(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    return buffer.str();
}

// Shell quoting for the paths and words the tests use (none holds a single quote).
std::string shell_quoted(const std::string& text) { return "'" + text + "'"; }

// Runs tests/validate_json.py: each file against schemas/`schema`.
RunResult validate(const std::string& schema, const std::vector<std::string>& files) {
    std::string command = std::string(python) + " " + shell_quoted(source_path("tests/validate_json.py")) + " " +
                          shell_quoted(source_path("schemas")) + " " + schema;
    for (const auto& file : files) command += " " + shell_quoted(file);
    return run_shell(command);
}

// Examples that are not profiles: measured runs (fit) and measured overheads (scale --overhead).
const std::set<std::string> example_runs = {"examples/scaling_runs.csv", "examples/scaling_speedups.json"};
const std::set<std::string> example_overheads = {"examples/allreduce_overhead.csv"};

// Every file under `dir` (relative to the source tree), sorted, as paths relative to the tree.
std::vector<std::string> files_under(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(source_path(dir))) {
        if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), source_path("")).string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Documents to validate, grouped by schema, each with the command that made it for messages.
class Corpus {
public:
    // Runs `amdahl ARGS` (shell words) with `input` on stdin, checks its exit code and keeps its
    // stdout for `schema`.
    void run(const std::string& schema, const std::string& args, int exit_code = 0, const std::string& input = "") {
        const RunResult r = run_binary(args, input);
        INFO("amdahl " << args);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == exit_code);
        CHECK(!r.out.empty());
        keep(schema, r.out, "amdahl " + args);
    }

    // Keeps `text` (a document) for `schema`.
    void keep(const std::string& schema, const std::string& text, const std::string& origin) {
        const std::string stem = schema.substr(0, schema.find('.'));
        const std::string file = write_temp("schemas_" + stem + "_" + std::to_string(count_) + ".json", text);
        ++count_;
        documents_[schema].push_back({file, origin});
    }

    // Keeps a file as it is.
    void keep_file(const std::string& schema, const std::string& path) { documents_[schema].push_back({path, path}); }

    // Validates every document against its schema; returns how many were validated.
    std::size_t validate_all() const {
        std::size_t validated = 0;
        for (const auto& [schema, documents] : documents_) {
            std::vector<std::string> files;
            for (const auto& document : documents) files.push_back(document.file);
            const RunResult r = validate(schema, files);
            std::string origins;  // which command wrote each file the validator complains about
            for (const auto& document : documents) {
                if (r.out.find(document.file) != std::string::npos)
                    origins += document.file + ": " + document.origin + "\n";
            }
            INFO(schema << ": " << files.size() << " documents");
            INFO(r.out << r.err);
            INFO(origins);
            CHECK(r.exit_code == 0);
            CHECK(r.out.empty());
            validated += files.size();
        }
        return validated;
    }

private:
    struct Document {
        std::string file;
        std::string origin;
    };
    std::map<std::string, std::vector<Document>> documents_;
    std::size_t count_ = 0;
};

}  // namespace

TEST_CASE("schemas: every command's JSON report on every example is valid", "[schemas]") {
    Corpus corpus;
    std::size_t profiles = 0, runs = 0, overheads = 0;
    for (const std::string& example : files_under("examples")) {
        INFO(example);
        const std::string path = shell_quoted(source_path(example));
        if (example_runs.contains(example)) {
            ++runs;
            for (const char* options : {"", " --predict 256,1024", " --overhead log --predict 1..1024",
                                        " --overhead linear", " --overhead sqrt", " --overhead const --predict 3"})
                corpus.run("fit.schema.json", "fit " + path + " --format json" + options);
            continue;
        }
        if (example == "examples/ranks/all_ranks.csv") {  // every rank in one table: --ranks only
            corpus.run("eval_ranks.schema.json", "eval --ranks " + path + " -s @rank3:attention=2 --format json");
            corpus.run("rank_ranks.schema.json", "rank --ranks " + path + " --format json");
            continue;
        }
        if (example_overheads.contains(example)) {
            ++overheads;
            corpus.run("scale.schema.json", "scale -p 0.95 -n 1..64 --overhead " + path + " --format json");
            corpus.run("scale.schema.json",
                       "scale -p 0.9 -n 2,64 --overhead file:" + path + " --time 1s --format json");
            corpus.run("scale.schema.json", "scale -p 0.9 -n 1:64:7 --weak --overhead " + path + " --format json");
            continue;
        }
        // Every other example is a profile: every command that reads one, with several options.
        ++profiles;
        for (const char* options : {"", " -s '*=2' --explain", " -s '*=inf'", " -s '*=inf' --explain",
                                    " -s '*=0.5' --unit ns", " -s '*=-30%' --precision 1"})
            corpus.run("eval.schema.json", "eval " + path + " --format json" + options);
        for (const char* options :
             {"", " -k inf --grid 2,4,inf", " --by ceiling --top 2 --explain", " -k 0.5 --unit s", " -k 3 --grid inf"})
            corpus.run("rank.schema.json", "rank " + path + " --format json" + options);
        for (const char* options : {" --target 1.5", " --target 1.5 --explain", " --target 1000",
                                    " --target-time 1000h", " -k inf --target 2", " --target 1.01 -k 2 --unit us"})
            corpus.run("plan.schema.json", "plan " + path + " --format json" + options);
        // scale takes no time ranges (it refuses them, as tests/uncertainty_total_test.cpp checks).
        if (path.find("_ranges") == std::string::npos)
            corpus.run("scale.schema.json", "scale " + path + " --parallel '*' -n 1..8 --format json");
        corpus.run("import.schema.json", "import " + path);
    }
    // eval --ranks and rank --ranks over the example ranks: a gain, no gain, a gate, --explain.
    const std::string ranks = shell_quoted(source_path("examples/ranks") + "/rank*.csv");
    corpus.run("eval_ranks.schema.json", "eval --ranks " + ranks + " -s @rank3:attention=2 --explain --format json");
    corpus.run("eval_ranks.schema.json",
               "eval --ranks " + ranks + " -s @rank1:attention=2 -s gemm_bwd=inf --require-speedup 9 --format json", 1);
    corpus.run("rank_ranks.schema.json", "rank --ranks " + ranks + " --format json");
    // Both files of a pair: one run each, runs against runs, and a mix by glob.
    const std::string before = shell_quoted(source_path("examples/compare/before.json")),
                      after = shell_quoted(source_path("examples/compare/after.json")),
                      before_runs = shell_quoted(source_path("examples/compare/before_runs.json")),
                      after_runs = shell_quoted(source_path("examples/compare/after_runs.json"));
    corpus.run("compare.schema.json", "compare " + before + " " + after + " --format json");
    corpus.run("compare.schema.json",
               "compare " + before + " " + after +
                   " --rename attention_softmax=flash_attention --noise 1% --fail-if-slower 2% "
                   "--fail-if-phase-slower layernorm=5% --format json",
               1);
    corpus.run(
        "compare.schema.json",
        "compare " + before_runs + " " + after_runs + " --fail-if-slower 1% --require-speedup 1.05 --format json", 1);
    corpus.run("compare.schema.json", "compare " + before_runs + " " + after_runs + " --unit us --format json");
    corpus.run("compare.schema.json",
               "compare " + shell_quoted(source_path("examples/compare/before*.json")) + " " +
                   shell_quoted(source_path("examples/compare/after*.json")) +
                   " --fail-if-phase-slower 'kind:kernel=5%' --missing zero --format json",
               1);
    // Every example is one of the three kinds, and each kind is there.
    CHECK(profiles >= 10);
    CHECK(runs == example_runs.size());
    CHECK(overheads == example_overheads.size());
    CHECK(corpus.validate_all() >= 240);
}

TEST_CASE("schemas: edge cases are valid: infinite numbers, impossible targets, failed gates, overlap, proposals",
          "[schemas]") {
    Corpus corpus;
    const std::string step = shell_quoted(source_path("examples/transformer_step.json"));
    const std::string trace = shell_quoted(source_path("examples/pytorch_trace.json"));
    const std::string window = " --window 'ProfilerStep#.*' --rename-regex gemm=gemm";
    const std::string one_phase = shell_quoted(write_temp("schemas_one_phase.json", R"({"phases": {"only": 5}})"));
    const std::string shares = shell_quoted(
        write_temp("schemas_shares.json",
                   R"({"name": "shares", "unit": "s", "total": "2 min", "phases": {"a": "25%", "b": 30}})"));
    const std::string proposals = shell_quoted(write_temp("schemas_proposals.json", R"({"unit": "us", "phases": [
        {"name": "gemm", "time": 60, "kind": "kernel"}, {"name": "copy", "time": 30, "kind": "copy"},
        {"name": "host", "time": 10}],
      "proposals": [{"name": "tensor cores", "target": "gemm", "factor": 4, "effort": 3},
                    {"target": "gemm", "factor": "2x", "effort": 1},
                    {"name": "overlap copies", "target": "kind:copy", "factor": "inf", "effort": null},
                    {"target": "*", "factor": "-10%", "effort": 0.5}]})"));

    // eval: overlap intervals, infinite speedup and ceiling, a slowdown, a failed gate, stdin.
    for (const char* speedups : {" -s gemm=2", " -s gemm=inf", " -s gemm=0.5", " -s '*=inf'", " -s 'gemm=2' --lane all",
                                 " -s 'Memcpy*=3' -s gemm=inf --explain"})
        corpus.run("eval.schema.json", "eval " + trace + window + speedups + " --format json");
    corpus.run("eval.schema.json", "eval " + trace + " --lane cpu -s '*=2' --format json");
    // --model replay: the replayed figures, an infinite one, a failed gate on them.
    for (const char* replay : {" -s kind:kernel=2", " -s '*=inf' --lane all", " -s kind:kernel=2 --require-speedup 100",
                               " -s kind:kernel=2 --critical-path"})
        corpus.run("eval.schema.json", "eval " + trace + replay + " --model replay --format json",
                   std::string(replay).find("require") != std::string::npos ? 1 : 0);
    corpus.run("eval.schema.json", "eval " + one_phase + " -s only=inf --format json --explain");
    corpus.run("eval.schema.json", "eval " + one_phase + " --format json");
    corpus.run("eval.schema.json", "eval " + shares + " -s a=4 --format json");
    corpus.run("eval.schema.json", "eval " + step + " -s attention_softmax=10 --require-speedup 2 --format json", 1);
    corpus.run("eval.schema.json", "eval - -s gemm_qkv=inf --format json", 0,
               slurp(source_path("examples/transformer_step.json")));

    corpus.run("eval.schema.json", "eval " + step + " -s attention_softmax=10 --verdict --format json");

    // Ranges and spreads: an uncertainty object in eval, in each rank target and in the plan; law's ends.
    const std::string ranges = shell_quoted(source_path("examples/transformer_step_ranges.json"));
    corpus.run("eval.schema.json", "eval " + ranges + " -s attention_softmax=8..12 --format json --explain");
    corpus.run("rank.schema.json",
               "rank " + ranges + " -s gemm_qkv=2..20 -s attention_softmax=9 --conservative --format json");
    corpus.run("plan.schema.json", "plan " + ranges + " --target 1.3 -k 8..12 --only kind:kernel --format json");
    corpus.run("law.schema.json", "law -f 0.21 -k 8..12 --format json");

    // --mix: shares, GPUs and rates; a trace's overlap range; a gate; nothing saved (null win shares).
    const std::string chat = shell_quoted(source_path("examples/mix/chat_decode.json"));
    const std::string ranker = shell_quoted(source_path("examples/mix/ranker.json"));
    for (const char* options : {" -s topk_sampling=10 --explain", " -s topk_sampling=inf -s gemm=0.5",
                                " -s topk_sampling=10 --require-speedup 2", " -s gemm=1"})
        corpus.run("eval_mix.schema.json",
                   "eval --mix " + chat + "=900gpus --mix " + ranker + "=100gpus" + options + " --format json",
                   std::string(options).find("require") != std::string::npos ? 1 : 0);
    corpus.run("eval_mix.schema.json", "eval --mix " + chat + "=15/s --mix " + trace + "=5/s -s '*=2' --format json");
    corpus.run("eval_mix.schema.json", "eval --mix " + chat + "=0.7 --mix " + step + "=30% -s '*=inf' --format json");
    corpus.run("rank_mix.schema.json",
               "rank --mix " + chat + "=0.9 --mix " + ranker + "=0.1 --grid 2,inf --format json");
    corpus.run("rank_mix.schema.json", "rank --mix " + chat + "=0.9 --mix " + ranker +
                                           "=0.1 -s topk_sampling=10@2 -s 'gemm=inf@5' --by effort --format json");
    // plan --mix: a plan, with --explain and a gate; by effort over alternatives; unreachable.
    corpus.run("plan_mix.schema.json", "plan --mix " + chat + "=0.2 --mix " + ranker +
                                           "=0.8 --only kind:kernel --target 1.5 --explain --require --format json");
    corpus.run("plan_mix.schema.json", "plan --mix " + chat + "=900gpus --mix " + ranker +
                                           "=100gpus -s topk_sampling=10@2 -s gemm=2@1 -s gemm=4@3 --by effort "
                                           "--target 1.8 --format json");
    corpus.run("plan_mix.schema.json",
               "plan --mix " + chat + "=0.5 --mix " + ranker + "=0.5 -k inf --only gemm --target 10 --format json");

    // calls: from a summary's Instances and a profile's "calls"; null for a phase that does not
    // say (copy, and unattributed from the total).
    const std::string nsys =
        shell_quoted(source_path("tests/data/profilers/nsys/llm-perf-opt_projector_summary_cuda_gpu_kern_sum.csv"));
    const std::string calls = shell_quoted(write_temp(
        "schemas_calls.json",
        R"({"total": 100, "phases": [{"name": "gemm", "time": 60, "calls": 12}, {"name": "copy", "time": 30}]})"));
    corpus.run("eval.schema.json", "eval " + nsys + " -s '*=2' --format json");
    corpus.run("eval.schema.json", "eval " + calls + " -s gemm=2 --format json");
    corpus.run("rank.schema.json", "rank " + calls + " -s gemm=2 -s '*=2' --format json");
    corpus.run("rank.schema.json", "rank " + nsys + " --format json");
    corpus.run("import.schema.json", "import " + nsys);
    corpus.run("import.schema.json", "import " + calls);

    // rank: proposals with and without efforts, infinite factors and ceilings.
    corpus.run("rank.schema.json", "rank " + proposals + " --format json");
    corpus.run("rank.schema.json", "rank " + proposals + " --by ceiling --grid inf --format json --effort-unit week");
    corpus.run("rank.schema.json", "rank " + step +
                                       " -s attention_softmax=10@3 -s layernorm=10@2 --by effort --effort-unit week "
                                       "--format json");
    corpus.run("rank.schema.json", "rank " + one_phase + " -k inf --grid 2,inf --format json");
    corpus.run("rank.schema.json", "rank " + trace + window + " --only 'kind:kernel' --format json");

    // --fleet: money, payback, a slowdown, an infinite speedup, an impossible law, an unreachable plan.
    const std::string fleet = " --fleet 20000 --cost-per-gpu-hour 2USD";
    corpus.run("eval.schema.json",
               "eval " + step + " -s attention_softmax=10@3" + fleet +
                   " --cost-per-effort 10000USD --effort-unit engineer-week --explain --format json");
    corpus.run("eval.schema.json", "eval " + step + " -s gemm_qkv=0.5 --fleet 8 --format json");
    corpus.run("law.schema.json", "law -f 1 -k inf --fleet 8 --hours-per-year 2000 --format json --explain");
    corpus.run("law.schema.json", "law -f 1 -k -5%" + fleet + " --format json");
    corpus.run("law.schema.json", "law -f 0.6 --target 3 --fleet 8 --format json");
    corpus.run("rank.schema.json", "rank " + proposals + fleet + " --cost-per-effort 10000USD --format json");
    corpus.run("plan.schema.json", "plan " + step + " -s attention_softmax=10@3 -s layernorm=10@2 --target 1.2" +
                                       fleet + " --cost-per-effort 10000USD --format json --explain");
    corpus.run("plan.schema.json", "plan " + step + " --target 20 -k 10 --fleet 8 --format json");

    // plan: by effort, unreachable with and without --require, infinite ceilings, nothing to do.
    corpus.run("plan.schema.json", "plan " + step +
                                       " -s attention_softmax=10@3 -s layernorm=10@2 -s gemm_qkv=4@5 --by effort "
                                       "--target 1.2 --format json");
    corpus.run("plan.schema.json", "plan " + step + " -s attention_softmax=10@3 --by effort --target 3 --format json");
    corpus.run("plan.schema.json", "plan " + step + " --target 4 -k 10 --only kind:kernel --require --format json", 1);
    corpus.run("plan.schema.json", "plan " + step + " --target 2 -k 10 --only kind:kernel --require --format json");
    corpus.run("plan.schema.json", "plan " + one_phase + " -k inf --target 2 --format json");
    corpus.run("plan.schema.json", "plan " + one_phase + " --target-time 10 --format json");
    corpus.run("plan.schema.json", "plan " + proposals + " --target 1.5 --format json");

    // compare: added, removed, a phase from or to zero, other units, a residual row.
    const std::string zero_before = shell_quoted(
        write_temp("schemas_before.json",
                   R"({"unit": "ms", "phases": {"a": 10, "b": 0, "c": 5, "d": {"time": 3, "kind": "k"}}})"));
    const std::string zero_after = shell_quoted(
        write_temp("schemas_after.json", R"({"unit": "us", "phases": {"a": 5000, "b": 3000, "d": 0, "e": 1000}})"));
    corpus.run("compare.schema.json",
               "compare " + zero_before + " " + zero_after +
                   " --fail-if-phase-slower 'b=5%' --fail-if-slower 1% --format json",
               1);
    corpus.run("compare.schema.json",
               "compare " + zero_before + " " + zero_after + " --rename c=e --noise 50% --format json");
    corpus.run("compare.schema.json",
               "compare " + zero_after + " " + zero_before + " --require-speedup 0.5 --format json");
    corpus.run("compare.schema.json", "compare " + step + " " + step + " --fail-if-slower 0% --format json");
    // Benchmark harnesses' output: benchmark by benchmark, every gate, throughputs, --paired; --sum
    // is a phase comparison.
    const auto harness = [](const char* name) {
        return shell_quoted(source_path(std::string("tests/data/harness/") + name));
    };
    corpus.run("compare_benchmarks.schema.json",
               "compare " + harness("hyperfine_before.json") + " " + harness("hyperfine_after.json") +
                   " --fail-if-slower 2% --require-speedup 1.1 --fail-if-phase-slower '*render*=1%' --format json",
               1);
    corpus.run("compare_benchmarks.schema.json", "compare " + harness("gbench_before.json") + " " +
                                                     harness("gbench_after.json") + " --paired --format json");
    corpus.run("compare_benchmarks.schema.json", "compare " + harness("pytest_before.json") + " " +
                                                     harness("pytest_nodata.json") +
                                                     " --higher-is-better --label-before main --format json");
    corpus.run("compare.schema.json", "compare " + harness("hyperfine_before.json") + " " +
                                          harness("hyperfine_after.json") + " --sum --format json");
    // No benchmark on both sides: every figure that compares the sides is null.
    corpus.run("compare_benchmarks.schema.json", "compare " + harness("hyperfine_before.json") + " " +
                                                     harness("hyperfine_param.json") + " --format json");
    // Runs whose interval reaches down to no time at all (speedup_high is unbounded: null), huge and
    // tiny times, --paired, labels and every kind of gate.
    const std::string wide_before =
        shell_quoted(write_temp("schemas_wide_before.json", R"({"runs": [10, 10, 10, 100, 100], "phases": {"a": 4}})"));
    const std::string wide_after =
        shell_quoted(write_temp("schemas_wide_after.json", R"({"runs": [5, 5, 5, 5, 5], "phases": {"a": 2}})"));
    corpus.run("compare.schema.json", "compare " + wide_before + " " + wide_after +
                                          " --paired --label-before main --fail-if-phase-costs '*=1%'"
                                          " --fail-if-phase-slower 'a=1%' --require-speedup 1.1 --format json");
    const std::string huge = shell_quoted(
        write_temp("schemas_huge.json", R"({"runs": [1e300, 1e300, 1e300, 1.1e300], "phases": {"a": 1e299}})"));
    const std::string tiny =
        shell_quoted(write_temp("schemas_tiny.json", R"({"runs": [1e-300, 2e-300, 3e-300], "phases": {"a": 1e-300}})"));
    corpus.run("compare.schema.json", "compare " + huge + " " + tiny + " --format json");
    corpus.run("compare.schema.json", "compare " + tiny + " " + huge + " --fail-if-slower 1% --format json", 1);

    // law: every pair of givens, possible and not, with and without --time and --explain.
    for (const char* args : {"-f 0.6 -k 4",
                             "-f 0.6 --target 2",
                             "-f 0.6 --target 3",
                             "-k 4 --target 2",
                             "-k 4 --target 5",
                             "-f 1 -k inf",
                             "-f 1 -k 4",
                             "-f 0 -k 4",
                             "-f 0 --target 2",
                             "-f 0 --target 1",
                             "-k 1 --target 2",
                             "-k 1 --target 1",
                             "-k inf --target 2",
                             "-k 0.5 --target 0.8",
                             "-k 0.5 --target 2",
                             "-k 4 --target 0.5",
                             "-f 60% -k -30%",
                             "-f 0.6 -k 4 --time 900ms",
                             "-f 0.6 --target 3 --time 2s --explain",
                             "-f 1 -k inf --time 1h --explain",
                             "-k 4 --target 2 --time 5 --explain",
                             "-f 0.5 --target 0.5 --time 10us"})
        corpus.run("law.schema.json", std::string("law ") + args + " --format json");

    // queue: every model, stable and not before and after, --slo met and not, --explain.
    for (const char* args : {
             "--service 50ms --rate 16/s -s 1.43",
             "--service 50ms --rate 16/s -s 1.43 --slo p99=1s --slo mean=40ms --slo p50=100ms --explain",
             "--service 50ms --rate 25/s -s 1.43",
             "--service 50ms --rate 25/s -s 0.5",
             "--service 1s --rate 1/s --servers 2 -s 2 --slo p90=4s --explain",
             "--service 50ms --rate 16/s --cv 0 -s 1.43 --slo mean=100ms --explain",
             "--service 50ms --rate 30/s --servers 2 --cv 1.5 -s 1.2 --explain",
         })
        corpus.run("queue.schema.json", std::string("queue ") + args + " --format json");
    // scale: both laws, every overhead model, P = 0 and 1, --effective, a profile, a time.
    for (const char* args :
         {"-p 0.95 -n 5,10,100", "-p 0.95 -n 1..1024 --overhead log:0.005 --time 900ms", "-p 0.95 -n 100 --weak",
          "-p 0.95 -n 4 --effective 8=5", "-p 1 -n 1..16", "-p 0 -n 1..16 --time 3s", "-p 100% -n 4 --weak",
          "-p 0.9 -n 1:33:8 --overhead linear:1e-3", "-p 0.9 -n 2..64 --overhead sqrt:0.01 --weak --time 1min",
          "-p 0.9 -n 1..8 --overhead const:2%", "-p 0.5 -n 2 --effective 4=8 --effective 16=3 --time 10"})
        corpus.run("scale.schema.json", std::string("scale ") + args + " --format json");
    corpus.run("scale.schema.json", "scale " + step + " --parallel kind:kernel -n 2,4 --format json");
    corpus.run("scale.schema.json",
               "scale " + step + " --parallel 'gemm_*' --parallel layernorm -n 8 --time 1s --format json");

    // fit: superlinear runs (P > 1: infinite speedups), times in seconds, speedups, stdin.
    const std::string superlinear =
        shell_quoted(write_temp("schemas_superlinear.csv", "n,speedup\n2,2.5\n4,6\n8,20\n"));
    const std::string seconds = shell_quoted(write_temp("schemas_seconds.csv", "n,time\n1,10s\n2,4s\n4,1s\n"));
    const std::string runs_text =
        R"({"unit": "s", "runs": [{"n": 1, "time": 100}, {"n": 2, "time": 55}, {"n": 8, "time": 20}]})";
    const std::string json_runs = shell_quoted(write_temp("schemas_runs.json", runs_text));
    corpus.run("fit.schema.json", "fit " + superlinear + " --predict 16,1024 --format json");
    corpus.run("fit.schema.json", "fit " + seconds + " --overhead const --predict 8 --format json");
    corpus.run("fit.schema.json", "fit " + json_runs + " --overhead log --predict 1..64 --format json");
    corpus.run("fit.schema.json", "fit - --format json", 0, runs_text);

    CHECK(corpus.validate_all() >= 67);
}

TEST_CASE(
    "schemas: imports of every profiler sample, and every JSON profile in examples/ and tests/data, are valid "
    "profiles",
    "[schemas]") {
    Corpus corpus;
    // Options a sample needs to be read, or that exercise more of the format.
    const std::map<std::string, std::string> options = {
        {"tests/data/profilers/handmade/folded_edge_cases.txt", " --input-format folded --sample-period 2ms"},
        {"tests/data/profilers/folded-stacks/speedscope_recursion.txt", " --leaf"},
        {"tests/data/profilers/folded-stacks/flamegraph_perf-java-stacks-02-collapsed-jit.txt", " --depth 3"},
        {"tests/data/profilers/nsys/llm-perf-opt_decode_summary_cuda_gpu_kern_sum.csv", " --total 1s"},
        {"tests/data/profilers/pytorch-chrome-trace/hta_base.json", " --lane all --group-by cat"},
    };
    std::size_t samples = 0;
    for (const std::string& sample : files_under("tests/data/profilers")) {
        if (sample.ends_with("README.txt")) continue;
        INFO(sample);
        const auto extra = options.find(sample);
        const std::string args = shell_quoted(source_path(sample)) + (extra == options.end() ? "" : extra->second);
        corpus.run("import.schema.json", "import " + args);
        corpus.run("eval.schema.json", "eval " + args + " -s '*=2' --format json");
        ++samples;
    }
    CHECK(samples >= 40);
    // Written with -o, the same profile.
    const std::string written = write_temp("schemas_written.json", "");
    const RunResult to_file = run_binary("import " + shell_quoted(source_path("examples/pytorch_trace.json")) + " -o " +
                                         shell_quoted(written) + " --window 'ProfilerStep#.*'");
    CHECK(to_file.exit_code == 0);
    corpus.keep_file("import.schema.json", written);

    // A file is an amdahl JSON profile when amdahl reads it as one: its import says "format": "json".
    std::size_t json_profiles = 0;
    for (const char* dir : {"examples", "tests/data"}) {
        for (const std::string& file : files_under(dir)) {
            if (!file.ends_with(".json")) continue;
            const RunResult r = run_binary("import " + shell_quoted(source_path(file)));
            if (r.exit_code != 0 || Json::parse(r.out).value("format", "") != "json") continue;
            corpus.keep_file("profile.schema.json", source_path(file));
            ++json_profiles;
        }
    }
    CHECK(json_profiles >= 5);  // examples/transformer_step.json and the four in examples/compare/
    // Every form the readers take, each of which amdahl reads.
    for (
        const char* profile : {
            R"([{"name": "a", "time": 1}, {"name": "b", "time": "2 ms", "kind": "k"}])",
            R"({"phases": {"a": 1, "b": "2.5 us", "c": {"time": 3, "kind": "k"}}})",
            R"({"unit": "Seconds", "phases": {"a": 1}})",
            R"({"schema_version": 1, "name": "n", "unit": "µs", "total": "1 ms", "phases": [{"name": "a", "share": 0.5},
                 {"name": "b", "share": "20%", "time": 200}]})",
            R"({"phases": [{"name": "a", "time": 1, "active_time": 2}, {"name": "overlapped", "time": 1}],
                 "overlaps": [{"phases": ["a", "b"], "time": 1}], "boundary": "wall time", "summary_only": false,
                 "format": "chrome-trace", "notes": ["a note"]})",
            R"({"phases": [{"name": "a", "time": 5}], "runs": [5, "5.5 ms", 4.5],
                 "proposals": [{"target": "a", "factor": 2}, {"name": "p", "target": "*", "factor": "inf", "effort": 2}]})",
        }) {
        INFO(profile);
        const std::string path = write_temp("schemas_form.json", profile);
        CHECK(run_binary("eval " + shell_quoted(path)).exit_code == 0);
        corpus.keep("profile.schema.json", profile, profile);
    }
    CHECK(corpus.validate_all() >= 100);
}

TEST_CASE("schemas: the validator fails on broken reports and on profiles amdahl refuses", "[schemas]") {
    // One real report per command, broken three ways: a required key removed, a number made a
    // string, a key added. Each must fail, naming the place; the report as written passes.
    const std::string step = shell_quoted(source_path("examples/transformer_step.json"));
    const std::vector<std::pair<std::string, std::string>> reports = {
        {"eval.schema.json", "eval " + step + " -s attention_softmax=10 --format json"},
        {"law.schema.json", "law -f 0.6 -k 4 --format json"},
        {"rank.schema.json", "rank " + step + " --format json"},
        {"plan.schema.json", "plan " + step + " --target 2 --format json"},
        {"compare.schema.json", "compare " + step + " " + step + " --format json"},
        {"scale.schema.json", "scale -p 0.95 -n 4 --format json"},
        {"fit.schema.json", "fit " + shell_quoted(source_path("examples/scaling_runs.csv")) + " --format json"},
        {"import.schema.json", "import " + step},
    };
    for (const auto& [schema, args] : reports) {
        INFO("amdahl " << args);
        const RunResult r = run_binary(args);
        REQUIRE(r.exit_code == 0);
        const std::string stem = schema.substr(0, schema.find('.'));
        const std::string valid = write_temp("schemas_valid_" + stem + ".json", r.out);
        const RunResult as_is = validate(schema, {valid});
        CHECK(as_is.exit_code == 0);
        CHECK(as_is.out.empty());

        const std::string key = schema == "import.schema.json" ? "phases" : "command";
        Json missing = Json::parse(r.out), text = Json::parse(r.out), extra = Json::parse(r.out);
        REQUIRE(missing.erase(key) == 1);
        text["schema_version"] = "1";
        extra["speed_up"] = 1;
        const std::string missing_path = write_temp("schemas_missing_" + stem + ".json", missing.dump(2)),
                          text_path = write_temp("schemas_text_" + stem + ".json", text.dump(2)),
                          extra_path = write_temp("schemas_extra_" + stem + ".json", extra.dump(2));
        const RunResult broken = validate(schema, {missing_path, text_path, extra_path});
        INFO(broken.out << broken.err);
        CHECK(broken.exit_code == 1);
        CHECK_THAT(broken.out, Contains(missing_path + ": $: '" + key + "' is a required property\n"));
        CHECK_THAT(broken.out, Contains(text_path + ": $.schema_version: 1 was expected\n"));
        CHECK_THAT(broken.out,
                   Contains(extra_path + ": $: Additional properties are not allowed ('speed_up' was unexpected)\n"));
    }

    // Deeper: a phase's time as a string, a fraction above 1, an infinity (which JSON cannot hold).
    const RunResult eval = run_binary("eval " + step + " -s attention_softmax=10 --format json");
    Json report = Json::parse(eval.out);
    report["phases"][2]["time"] = "21";
    report["affected_fraction"] = 1.5;
    const std::string broken = write_temp("schemas_broken_eval.json", report.dump(2));
    RunResult r = validate("eval.schema.json", {broken});
    CHECK(r.exit_code == 1);
    CHECK(r.out == broken + ": $.affected_fraction: 1.5 is greater than the maximum of 1\n" + broken +
                       ": $.phases[2].time: '21' is not of type 'number'\n");
    std::string infinite = eval.out;
    const std::string speedup = "\"speedup\": 1.2330456226880395";
    REQUIRE(infinite.find(speedup) != std::string::npos);
    infinite.replace(infinite.find(speedup), speedup.size(), "\"speedup\": Infinity");
    r = validate("eval.schema.json", {write_temp("schemas_infinite.json", infinite)});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.out, Contains("not JSON: Infinity is not JSON"));

    // Profiles amdahl refuses are invalid too, each of them.
    std::vector<std::string> refused;
    for (const char* profile : {
             R"({"phases": []})",
             R"({"phases": [{"name": "a"}]})",
             R"({"phases": [{"name": "", "time": 1}]})",
             R"({"phases": [{"name": "a", "time": -1}]})",
             R"({"phases": [{"name": "a", "time": 1}], "total": 0})",
             R"({"phases": [{"name": "a", "time": 1}], "unit": "fortnights"})",
             R"({"schema_version": 2, "phases": [{"name": "a", "time": 1}]})",
             R"({"phases": {"a": {"kind": "k"}}})",
             R"({"phases": [{"name": "a", "time": 1}], "runs": []})",
             R"({"phases": [{"name": "a", "time": 1}], "proposals": [{"target": "a"}]})",
             R"({"name": "no phases"})",
         }) {
        INFO(profile);
        refused.push_back(write_temp("schemas_refused_" + std::to_string(refused.size()) + ".json", profile));
        CHECK(run_binary("eval " + shell_quoted(refused.back())).exit_code == 2);
    }
    // A misspelt key, which the schema catches and amdahl refuses too.
    refused.push_back(write_temp("schemas_misspelt.json", R"({"phases": [{"name": "a", "time": 1}], "totl": 5})"));
    CHECK(run_binary("eval " + shell_quoted(refused.back())).exit_code == 2);
    r = validate("profile.schema.json", refused);
    INFO(r.out);
    CHECK(r.exit_code == 1);
    for (const auto& path : refused) CHECK_THAT(r.out, Contains(path + ": $"));

    // A usage error is not a pass.
    CHECK(validate("no_such.schema.json", {refused.back()}).exit_code == 2);
}

TEST_CASE("schemas: each is draft 2020-12 with an $id, a title, a description and a described property", "[schemas]") {
    // Every property, at any depth, says what it is (and its unit, in words).
    std::size_t described = 0;
    std::function<void(const Json&, const std::string&)> walk = [&](const Json& node, const std::string& where) {
        if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i) walk(node[i], where + "[" + std::to_string(i) + "]");
            return;
        }
        if (!node.is_object()) return;
        if (const auto properties = node.find("properties"); properties != node.end() && properties->is_object()) {
            for (const auto& [name, property] : properties->items()) {
                INFO(where << ".properties." << name);
                // A constraint added in an if/then is not a new property: it has no description of its own.
                if (where.find(".allOf") != std::string::npos) continue;
                CHECK(property.contains("description"));
                ++described;
            }
        }
        for (const auto& [key, child] : node.items()) walk(child, where + "." + key);
    };
    std::size_t schemas = 0;
    for (const std::string& file : files_under("schemas")) {
        INFO(file);
        REQUIRE(file.ends_with(".schema.json"));
        std::ifstream in(source_path(file));
        const Json schema = Json::parse(in);
        const std::string name = fs::path(file).filename().string();
        CHECK(schema.value("$schema", "") == "https://json-schema.org/draft/2020-12/schema");
        CHECK(schema.value("$id", "") == "https://amdahl.dev/schemas/" + name);
        CHECK(!schema.value("title", "").empty());
        CHECK(!schema.value("description", "").empty());
        walk(schema, name);
        ++schemas;
    }
    CHECK(schemas == 16);  // eval, eval_mix, eval_ranks, law, rank, rank_mix, rank_ranks, plan, plan_mix, compare,
                           // compare_benchmarks, scale, fit, queue, import, profile
    CHECK(described >= 200);
}
