// The progress line while a large input is read (src/cli/progress.cpp, src/input/read_counter.cpp):
// its text, when it may be drawn (a terminal, not CI, not TERM=dumb), at most every 100 ms, erased
// at the end; a piped stderr never gets it.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "support.hpp"

using namespace amdahl::cli;
using amdahl::test::run_shell;
using amdahl::test::TempDir;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {

// A Chrome trace of one 10 us kernel whose args hold `bytes` of padding: a large input that
// reads fast.
std::string padded_trace(std::size_t bytes) {
    return "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
           "\"ts\": 0, \"dur\": 10, \"args\": {\"pad\": \"" +
           std::string(bytes, 'x') + "\"}}]}\n";
}

// Sets an environment variable for a scope, and puts back what was there.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnvironment() {
        if (old_)
            setenv(name_, old_->c_str(), 1);
        else
            unsetenv(name_);
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("progress: the line says the bytes read, of how many, and the rate", "[progress]") {
    CHECK(progress_line("trace.json", 412'300'000, 1'024'000'000, 2.5) ==
          "reading trace.json: 412.3 of 1,024.0 MB (40.3%), 164.9 MB/s");
    CHECK(progress_line("<stdin>", 150'000'000, 0, 0) == "reading <stdin>: 150.0 MB");
    // A trace read in two parts can count a little past its size: the share stops at all of it.
    CHECK(progress_line("t.json", 110'000'000, 100'000'000, 1) ==
          "reading t.json: 110.0 of 100.0 MB (100.0%), 110.0 MB/s");
}

TEST_CASE("progress: drawn only on a terminal, never in CI or on a dumb terminal", "[progress]") {
    CHECK(progress_allowed(true, nullptr, "xterm-256color"));
    CHECK(progress_allowed(true, "", nullptr));
    CHECK_FALSE(progress_allowed(false, nullptr, "xterm"));
    CHECK_FALSE(progress_allowed(true, "true", "xterm"));
    CHECK_FALSE(progress_allowed(true, "1", "xterm"));
    CHECK_FALSE(progress_allowed(true, nullptr, "dumb"));
    // Only for inputs of 100 MB or more: known from the size, else once that much is read.
    CHECK(progress_due(0, 100'000'000));
    CHECK_FALSE(progress_due(99'999'999, 99'999'999));
    CHECK(progress_due(100'000'000, 0));
    CHECK_FALSE(progress_due(65'536, 0));
}

TEST_CASE("progress: redrawn at most every 100 ms, erased at the end", "[progress]") {
    std::ostringstream err;
    {
        ProgressLine line(err, "big.json");
        line.on_read(65'536, 0);  // small so far, size unknown: nothing
        CHECK(err.str().empty());
        line.on_read(100'000'000, 0);
        CHECK_THAT(err.str(), StartsWith("\rreading big.json: 100.0 MB"));
        CHECK_THAT(err.str(), EndsWith("\x1b[K"));
        const std::string once = err.str();
        line.on_read(100'065'536, 0);  // within 100 ms of the last draw
        CHECK(err.str() == once);
    }
    CHECK_THAT(err.str(), EndsWith("\r\x1b[K"));
    std::ostringstream quiet;
    { ProgressLine line(quiet, "small.json"); }
    CHECK(quiet.str().empty());  // never drawn, nothing to erase
}

TEST_CASE("progress: a large trace draws the line on a terminal's stderr, and never on a pipe", "[progress][cli]") {
    TempDir dir;
    const std::string trace = dir / "big.json";
    { std::ofstream(trace, std::ios::binary) << padded_trace(101'000'000); }
    const ScopedEnvironment no_ci("CI", nullptr), term("TERM", "xterm");

    // stderr a terminal (cli::run told so, as main() tells it from isatty): the line, erased
    // before the notes, and the report unchanged.
    const char* argv[] = {"amdahl", "eval", trace.c_str(), "-s", "k=2"};
    std::istringstream in;
    std::ostringstream out, err;
    CHECK(run(5, argv, in, out, err, false, true) == 0);
    CHECK_THAT(err.str(), StartsWith("\rreading " + trace + ": "));
    CHECK_THAT(err.str(), Contains(" of 101.0 MB ("));
    CHECK_THAT(err.str(), Contains("\r\x1b[Knote: "));

    // The real binary with stderr on a pipe: no line, whatever CI and TERM say.
    const auto piped = run_shell("('" AMDAHL_BINARY "' eval '" + trace + "' -s k=2 2>&1 >/dev/null | cat)");
    CHECK(piped.exit_code == 0);
    CHECK_THAT(piped.out, StartsWith("note: "));
    CHECK(piped.out.find('\r') == std::string::npos);
    CHECK(piped.out.find("reading") == std::string::npos);

    // In CI, even on a terminal: none.
    const ScopedEnvironment ci("CI", "true");
    std::ostringstream ci_out, ci_err;
    CHECK(run(5, argv, in, ci_out, ci_err, false, true) == 0);
    CHECK(ci_err.str().find('\r') == std::string::npos);
    CHECK(out.str() == ci_out.str());  // the report is the same with the line or without

    // --quiet, on a terminal and outside CI: no line and no notes, the same report.
    const ScopedEnvironment no_ci_again("CI", nullptr);
    const char* quiet_argv[] = {"amdahl", "eval", trace.c_str(), "-s", "k=2", "--quiet"};
    std::ostringstream quiet_out, quiet_err;
    CHECK(run(6, quiet_argv, in, quiet_out, quiet_err, false, true) == 0);
    CHECK(quiet_err.str().empty());
    CHECK(quiet_out.str() == out.str());
}
