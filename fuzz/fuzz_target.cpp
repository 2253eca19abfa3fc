// One libFuzzer target; AMDAHL_FUZZ_TARGET names which input surface it feeds (see harness.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    amdahl::fuzz::check_input(AMDAHL_FUZZ_TARGET, std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
