#pragma once
// The progress line on stderr while a large input is read: bytes read and the rate, redrawn in
// place ("\r") at most ten times a second, erased when the reading ends. Only on a terminal: a
// CI log or a file keeps every redraw.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

namespace amdahl::cli {

/// Inputs of at least this many bytes show the line (from their first chunk when their size is
/// known; else once this much has been read).
inline constexpr std::uint64_t progress_threshold = 100'000'000;

/// Whether stderr may get the line: it is a terminal, `ci` (the CI variable) is unset or empty, and
/// `term` (TERM) is not "dumb" (which cannot erase a line).
bool progress_allowed(bool err_is_terminal, const char* ci, const char* term);

/// Whether the input is large enough for the line: `size` bytes (0: unknown), `read` read so far.
bool progress_due(std::uint64_t read, std::uint64_t size);

/// "reading trace.json: 412.3 of 1,024.0 MB (40.3%), 210.5 MB/s" (decimal megabytes); without the
/// size and share when `size` is 0, without the rate before any time has passed.
std::string progress_line(std::string_view name, std::uint64_t read, std::uint64_t size, double seconds);

/// The line for one input, drawn on `err`: on_read() (ImportOptions::on_read, from any thread)
/// redraws it when it is due and 100 ms have passed since the last draw; the destructor erases it.
class ProgressLine {
public:
    ProgressLine(std::ostream& err, std::string name);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    void on_read(std::uint64_t read, std::uint64_t size);

private:
    using Clock = std::chrono::steady_clock;
    std::ostream& err_;
    std::string name_;
    Clock::time_point start_, last_;
    bool drawn_ = false;
    std::mutex mutex_;
};

}  // namespace amdahl::cli
