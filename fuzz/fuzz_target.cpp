// One libFuzzer target; AMDAHL_FUZZ_TARGET names which input surface it feeds (see harness.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness.hpp"

// AddressSanitizer's defaults, for speed: allocation and free stacks of 3 frames instead of 30,
// and no 0xbe fill of new blocks (ASan finds overflows and use after free without it). Together
// 1.3x on fuzz_csv (6,778 against 5,302 exec/s, 60 s side by side, fuzz/RESULTS.md 2026-12-04).
// ASAN_OPTIONS overrides them: ASAN_OPTIONS=malloc_context_size=30 for a finding's full stacks.
extern "C" const char* __asan_default_options() { return "malloc_context_size=3:max_malloc_fill_size=0"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    amdahl::fuzz::check_input(AMDAHL_FUZZ_TARGET, std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
