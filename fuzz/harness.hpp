#pragma once
// What each fuzz target does with one input, shared by the libFuzzer targets (fuzz_target.cpp)
// and the regression test that replays tests/data/fuzz-regressions/ (tests/fuzz_regressions_test.cpp).
//
// An input may be rejected with amdahl::Error: the harness catches that. Anything else is a
// finding: another exception escapes (uncaught in a fuzz target, so libFuzzer reports it as a
// crash), and so does a Finding when the harness sees a wrong result: a profile that breaks its own
// invariants, a written profile that does not read back the same, a speedup past its ceiling, the
// command line exiting 3 (internal error) or writing JSON that does not parse.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "amdahl/profile.hpp"
#include "amdahl/speedup.hpp"

namespace amdahl::fuzz {

struct Finding : std::logic_error {
    using std::logic_error::logic_error;
};

/// The targets: fuzz_json, fuzz_csv, fuzz_markdown, fuzz_text, fuzz_chrome_trace, fuzz_nsys,
/// fuzz_rocprof, fuzz_folded, fuzz_speedup, fuzz_cli, fuzz_gzip.
const std::vector<std::string>& target_names();

/// How many ways check_input reads one input. Fuzzing, a profile target reads it as one of its
/// formats, picked by the input's size, and checks the first ranks of a rank table, so that the
/// fuzzer runs many inputs a second and varies the size to reach the others. The regression test
/// reads every input every way: as each of the target's formats, and every rank.
enum class Breadth { fuzzing, every_way };

/// Runs `data` through `target`. Returns normally for a result or an amdahl::Error; throws
/// Finding (or lets any other exception through) for a bug. Writes files only into a directory of
/// its own under the system's temporary directory (fuzz_cli's output options), emptied after each input.
/// fuzz_cli runs each command line with that directory's empty `cwd/` as the working directory and
/// returns to the caller's working directory before it returns or throws.
void check_input(std::string_view target, std::string_view data, Breadth breadth = Breadth::fuzzing);

/// True when a fuzz_cli argument, as the fuzzer wrote it, could name a file outside the empty
/// directory the command line runs in: a '/' that opens a path or follows anything but a letter or
/// a digit ("/etc/passwd", "--ranks=/x", "a,/x", "../x", "./x"). "16/s" and "a/b" (relative, so
/// inside the empty directory) are not. fuzz_cli skips such inputs: what they read differs from
/// machine to machine, and no other machine could replay a finding.
bool cli_argument_reaches_outside(std::string_view arg);

/// The arguments fuzz_cli runs for an input (split on NUL or newline, @names replaced by their
/// files, output files moved into the scratch directory), or nullopt when it skips the input. Every
/// path the harness writes into them is relative to the directory the command runs in ("../out-x",
/// "../inputs/eval.json") or to the source tree: none carries the scratch directory's random name.
std::optional<std::vector<std::string>> cli_arguments(std::string_view data);

/// Two of the checks check_input runs, open so that a test can feed them a result no reader or
/// evaluation should give and see the Finding (a harness that swallowed its findings would pass
/// every regression input). check_profile: what every profile a reader returns must satisfy
/// (phases, unique non-empty names, finite times >= 0, a positive total); `what` opens the message.
void check_profile(const Profile& profile, const std::string& what);
/// check_evaluation: the law's invariants on evaluate(profile, specs) (speedup <= ceiling, no NaN,
/// no saving from a slowdown); an amdahl::Error from evaluate() is an accepted outcome.
void check_evaluation(const Profile& profile, const std::vector<SpeedupSpec>& specs);

}  // namespace amdahl::fuzz
