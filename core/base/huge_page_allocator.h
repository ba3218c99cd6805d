#pragma once
/// Allocator for the big flat arrays of a trace (jobs, tasks): allocations of 4 MiB or more are
/// mapped 2 MiB-aligned and advised for transparent huge pages, so filling a multi-GB trace takes
/// hundreds of times fewer page faults (they dominated import time on VMs). Smaller allocations
/// use malloc. Stateless; all instances compare equal.

#include <cstddef>
#include <cstdlib>
#include <new>

namespace schedlab {

namespace detail {
void* hugeAllocate(std::size_t bytes);
void hugeDeallocate(void* p, std::size_t bytes);
inline constexpr std::size_t kHugeThreshold = std::size_t(4) << 20;
} // namespace detail

template <class T>
struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() noexcept = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept
    {
    }
    T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        void* p = bytes >= detail::kHugeThreshold ? detail::hugeAllocate(bytes) : std::malloc(bytes ? bytes : 1);
        if (!p)
            throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes >= detail::kHugeThreshold)
            detail::hugeDeallocate(p, bytes);
        else
            std::free(p);
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept
    {
        return true;
    }
};

} // namespace schedlab
