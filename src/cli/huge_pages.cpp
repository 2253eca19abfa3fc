// The program's operator new: big blocks (4 MiB and up: a million events' arrays, a trace's
// buffers) are backed by 2 MiB pages where Linux allows it (transparent huge pages in "always" or
// "madvise" mode). A large trace then takes a few hundred page faults instead of hundreds of
// thousands: half the time (bench/replay.sh, bench/trace.sh), the same peak memory. Only a hint:
// every result is the same where it is not taken. Linked into the amdahl binary only; the library
// leaves its users' allocator alone (model/finish_profile.cpp advises its own big buffers).
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t big_block = std::size_t{4} << 20;
constexpr std::uintptr_t huge_page = std::uintptr_t{2} << 20;

void* allocate(std::size_t bytes) {
    void* p = std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) throw std::bad_alloc();
#ifdef __linux__
    // glibc usually serves such a block with a fresh mmap, no page touched yet: the advice then
    // holds for the whole of it, from the first 2 MiB boundary inside to the last.
    if (bytes >= big_block) {
        const auto begin = (reinterpret_cast<std::uintptr_t>(p) + huge_page - 1) & ~(huge_page - 1);
        const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(huge_page - 1);
        if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    }
#endif
    return p;
}

}  // namespace

// The other forms (arrays, nothrow) call these in libstdc++.
void* operator new(std::size_t bytes) { return allocate(bytes); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
