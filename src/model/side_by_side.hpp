#pragma once
// Two pieces of work at once, one on this thread and one on another: how big inputs use the
// second core (src/input/table.cpp reads a CSV in parts, src/cli/cmd_eval.cpp writes long reports).
#include <exception>
#include <thread>

namespace amdahl::detail {

/// Runs `there` on another thread while `here` runs on this one, and returns when both are done.
/// An exception from `here` is rethrown first (its work comes first in the caller's order), then
/// one from `there`: none is lost with the thread.
template <class Here, class There>
void side_by_side(Here&& here, There&& there) {
    std::exception_ptr failure;
    std::thread other([&] {
        try {
            there();
        } catch (...) {
            failure = std::current_exception();
        }
    });
    try {
        here();
    } catch (...) {
        other.join();
        throw;
    }
    other.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace amdahl::detail
