#include "cli/progress.hpp"

#include <fmt/format.h>

#include "report/numbers.hpp"

namespace amdahl::cli {

bool progress_allowed(bool err_is_terminal, const char* ci, const char* term) {
    return err_is_terminal && !(ci && *ci) && !(term && std::string_view(term) == "dumb");
}

bool progress_due(std::uint64_t read, std::uint64_t size) {
    return size >= progress_threshold || read >= progress_threshold;
}

std::string progress_line(std::string_view name, std::uint64_t read, std::uint64_t size, double seconds) {
    const NumberStyle one_decimal{.decimals = 1};
    const auto megabytes = [&](std::uint64_t bytes) {
        return format_time(static_cast<double>(bytes) / 1e6, one_decimal);
    };
    std::string line = fmt::format("reading {}: {}", name, megabytes(read));
    if (size > 0)
        line += fmt::format(" of {} MB ({})", megabytes(size),
                            format_share(std::min(1.0, static_cast<double>(read) / static_cast<double>(size))));
    else
        line += " MB";
    if (seconds > 0)
        line += fmt::format(", {} MB/s", format_time(static_cast<double>(read) / 1e6 / seconds, one_decimal));
    return line;
}

ProgressLine::ProgressLine(std::ostream& err, std::string name)
    : err_(err), name_(std::move(name)), start_(Clock::now()), last_(start_) {}

ProgressLine::~ProgressLine() {
    if (drawn_) err_ << "\r\x1b[K" << std::flush;  // erase the line: the notes and the report follow
}

void ProgressLine::on_read(std::uint64_t read, std::uint64_t size) {
    if (!progress_due(read, size)) return;
    const Clock::time_point now = Clock::now();
    std::unique_lock lock(mutex_, std::try_to_lock);  // another thread is drawing: this chunk need not
    if (!lock.owns_lock() || (drawn_ && now - last_ < std::chrono::milliseconds(100))) return;
    last_ = now;
    drawn_ = true;
    err_ << '\r' << progress_line(name_, read, size, std::chrono::duration<double>(now - start_).count()) << "\x1b[K"
         << std::flush;
}

}  // namespace amdahl::cli
