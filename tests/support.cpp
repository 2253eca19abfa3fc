#include "support.hpp"

#include <catch2/catch.hpp>

#include "amdahl/error.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/run.hpp"

namespace amdahl::test {

namespace {

/// The temp folder of this test process (amdahl-test-PID), made on first use and removed with
/// everything in it when the process exits, so that a ctest run leaves nothing behind.
const std::filesystem::path& process_scratch_dir() {
    struct Scratch {
        std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("amdahl-test-" + std::to_string(getpid()));
        Scratch() { std::filesystem::create_directories(path); }
        ~Scratch() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const Scratch scratch;
    return scratch.path;
}

}  // namespace

RunResult run_cli(const std::vector<std::string>& args, const std::string& input) {
    std::vector<const char*> argv{"amdahl"};
    for (const auto& a : args) argv.push_back(a.c_str());
    std::istringstream in(input);
    std::ostringstream out, err;
    RunResult result;
    result.exit_code = cli::run(static_cast<int>(argv.size()), argv.data(), in, out, err);
    result.out = out.str();
    result.err = err.str();
    return result;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    return buffer.str();
}

std::optional<std::string> required_tool(const std::string& program, const std::string& package) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error)) return candidate.string();
    }
    const char* allow = std::getenv("AMDAHL_ALLOW_MISSING_TOOLS");
    if (allow && std::string(allow) == "1") {
        WARN("SKIPPED: " + program + " is not on PATH and AMDAHL_ALLOW_MISSING_TOOLS=1");
        return std::nullopt;
    }
    FAIL(program + " is not on PATH: scripts/setup installs it (Debian package " + package +
         "); set AMDAHL_ALLOW_MISSING_TOOLS=1 to skip this test instead");
    return std::nullopt;
}

RunResult run_binary(const std::string& args, const std::string& input) {
    return run_shell(std::string("'") + AMDAHL_BINARY + "' " + args, input);
}

RunResult run_shell(const std::string& command_line, const std::string& input) {
    const auto& dir = process_scratch_dir();
    const std::string in = (dir / "stdin").string(), out = (dir / "stdout").string(), err = (dir / "stderr").string();
    std::ofstream(in, std::ios::binary) << input;
    const std::string command = command_line + " <'" + in + "' >'" + out + "' 2>'" + err + "'";
    const int status = std::system(command.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_file(out);
    result.err = read_file(err);
    return result;
}

std::string source_path(const std::string& relative) { return std::string(AMDAHL_SOURCE_DIR) + "/" + relative; }

std::string write_temp(const std::string& name, const std::string& content) {
    const auto path = process_scratch_dir() / name;
    std::ofstream(path, std::ios::binary) << content;
    return path.string();
}

TempDir::TempDir() {
    static int count = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("amdahl-test-" + std::to_string(getpid()) + "-dir-" + std::to_string(++count));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string parse_error(const std::string& content, InputFormat format) {
    try {
        parse_profile(content, "t.csv", format, {});
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

std::string random_stream_steps(std::mt19937& rng, int steps, int streams, bool cpu, bool empty) {
    const auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    std::vector<std::string> events;
    const auto event = [&](const std::string& name, const char* cat, int pid, int tid, int ts, int dur) {
        events.push_back("{\"ph\": \"X\", \"name\": \"" + name + "\", \"cat\": \"" + cat +
                         "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
                         ", \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur) + "}");
    };
    for (int k = 1; k <= steps && cpu; ++k)
        event("ProfilerStep#" + std::to_string(k), "user_annotation", 1, 1, 300 * (k - 1), pick(50, 300));
    for (int stream = 0; stream < streams; ++stream) {
        int at = pick(0, 100);
        for (int k = 1; k <= steps; ++k) {
            const int first = at;
            if (empty && pick(0, 3) == 0)
                at += pick(10, 100);  // a copy that encloses no kernel
            else
                for (int kernel = pick(1, 3); kernel > 0; --kernel) {
                    const int length = pick(10, 120);
                    event("k" + std::to_string(pick(1, 3)), "kernel", 0, 7 + stream, at, length);
                    at += length + pick(0, 1) * pick(1, 40);
                }
            event("ProfilerStep#" + std::to_string(k), "gpu_user_annotation", 0, 7 + stream, first, at - first);
            at += pick(0, 1) * pick(1, 60);
        }
    }
    std::string text = "{\"traceEvents\": [\n";
    for (std::size_t i = 0; i < events.size(); ++i) text += (i ? ",\n" : "") + events[i];
    return text + "\n]}\n";
}

}  // namespace amdahl::test
