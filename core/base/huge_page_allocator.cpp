#include "huge_page_allocator.h"

#include <cstdint>
#include <sys/mman.h>

namespace schedlab::detail {

namespace {
constexpr std::size_t kHuge = std::size_t(2) << 20;
std::size_t roundUp(std::size_t v) { return (v + kHuge - 1) & ~(kHuge - 1); }
} // namespace

void* hugeAllocate(std::size_t bytes)
{
    const std::size_t size = roundUp(bytes);
    // Map one huge page more than needed, then trim so the block starts on a 2 MiB boundary.
    void* raw = ::mmap(nullptr, size + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return nullptr;
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + kHuge - 1) & ~(std::uintptr_t(kHuge) - 1);
    if (aligned > start)
        ::munmap(raw, aligned - start);
    const std::uintptr_t end = start + size + kHuge;
    if (end > aligned + size)
        ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
    ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE); // a hint; failure is harmless
    return reinterpret_cast<void*>(aligned);
}

void hugeDeallocate(void* p, std::size_t bytes)
{
    if (p)
        ::munmap(p, roundUp(bytes));
}

} // namespace schedlab::detail
