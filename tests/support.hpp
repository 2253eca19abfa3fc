#pragma once
// Helpers for tests: run the CLI in-process or as the built binary, and find test data.
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "amdahl/io.hpp"
#include "amdahl/profile.hpp"

namespace amdahl::test {

/// A phase for a hand-built profile: the fields a test sets, the rest at their defaults.
inline Phase phase(std::string name, std::string kind, double time, std::optional<double> active_time = std::nullopt) {
    return Phase{std::move(name), std::move(kind), time, active_time, 0, std::nullopt};
}

struct RunResult {
    int exit_code = 0;
    std::string out;
    std::string err;
};

/// Runs cli::run in-process with `args` (without the program name) and `input` on stdin.
RunResult run_cli(const std::vector<std::string>& args, const std::string& input = "");

/// Runs the built amdahl binary through the shell: `args` is appended to the binary's path as is.
RunResult run_binary(const std::string& args, const std::string& input = "");

/// Runs a shell command line with `input` on stdin.
RunResult run_shell(const std::string& command, const std::string& input = "");

/// The path of `program` on PATH. Without it the test fails, naming the Debian `package` that
/// scripts/setup installs, or (AMDAHL_ALLOW_MISSING_TOOLS=1) warns "SKIPPED: ..." and returns nothing,
/// which ctest reports as a skip.
std::optional<std::string> required_tool(const std::string& program, const std::string& package);

/// The message of the amdahl::Error that parsing `content` as `format` throws, or "no error".
std::string parse_error(const std::string& content, InputFormat format = InputFormat::csv);

/// A random Kineto-style trace of `steps` steps (ProfilerStep#1, ...) on `streams` GPU streams
/// (tids 7, 8, ...): on each stream, each step's `gpu_user_annotation` copy spans 1 to 3 kernels
/// named k1 to k3, with gaps or none between kernels and steps; with `cpu`, CPU spans of the steps
/// 300 us apart too; with `empty`, about one copy in four encloses no kernel. Integer times, in us.
std::string random_stream_steps(std::mt19937& rng, int steps, int streams, bool cpu, bool empty = false);

/// Path of a file in the source tree, e.g. source_path("examples/transformer_step.json").
std::string source_path(const std::string& relative);

/// Writes `content` to a fresh file under the temp directory, named `name`; returns its path.
std::string write_temp(const std::string& name, const std::string& content);

/// The bytes of a file ("" if it cannot be read).
std::string read_file(const std::string& path);

/// A fresh directory under the temp directory, removed with everything in it at the end of the
/// scope: `dir / "report.json"` is a path inside it.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string operator/(const std::string& name) const { return (path_ / name).string(); }
    std::string string() const { return path_.string(); }

private:
    std::filesystem::path path_;
};

}  // namespace amdahl::test
