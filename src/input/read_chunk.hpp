#pragma once
// How much a streaming reader asks its input for next (JsonStream, the gzip reader).
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace amdahl::detail {

/// The size of the next read from an input of which `read_so_far` bytes have been read: as much
/// again, from 64 KiB up to 1 MiB. A small input (most profiles) never has a 1 MiB buffer made and
/// zeroed for it, which under the sanitizers cost half of every fuzz input's time (fuzz/RESULTS.md);
/// a large one is read 1 MiB at a time after its first 1 MiB.
constexpr std::size_t next_chunk_size(std::uint64_t read_so_far) {
    constexpr std::uint64_t smallest = 1 << 16;
    constexpr std::uint64_t largest = 1 << 20;
    return static_cast<std::size_t>(std::clamp(read_so_far, smallest, largest));
}

}  // namespace amdahl::detail
