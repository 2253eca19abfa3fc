#pragma once
// Pairing the "B" (begin) and "E" (end) events of a Chrome trace into spans, thread by thread.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace amdahl::detail {

class Timeline;

/// A B or E event waiting to be paired.
struct Mark {
    double time = 0;
    std::uint32_t name = 0, category = 0, track = 0;  ///< as in Span
    bool begin = false;
    std::uint64_t line = 0, column = 0;  ///< where the event is, for the error about an E without its B
    std::uint64_t link = 0;              ///< its correlation id (Timeline::links), when kept
};

/// A B and its E, or a B never closed (it runs to the end of the trace).
struct PairedSpan {
    double start = 0, end = 0;
    std::uint32_t name = 0, category = 0, track = 0;
    std::uint64_t link = 0;  ///< the B's correlation id, else the E's
};

struct Pairing {
    std::vector<PairedSpan> spans;  ///< per track: each pair as its E is reached, then the unclosed B events
    std::size_t unclosed = 0;       ///< B events never closed
    std::size_t marks_visited = 0;  ///< marks looked at while searching for a partner: the work, which tests bound
};

/// Pairs `marks` per track in time order (it sorts them so, stably): an E closes the latest open B
/// of its name, or the latest open B when it has no name; an E listed before a B of its name at
/// the same instant makes a zero-length span with it; a B never closed runs to `trace_end`.
/// Throws amdahl::Error at an E that closes nothing ("source:line:column").
Pairing pair_begin_end(std::vector<Mark>& marks, double trace_end, const Timeline& timeline, const std::string& source);

}  // namespace amdahl::detail
