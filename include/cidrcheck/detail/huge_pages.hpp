#pragma once
// Transparent huge pages for the large buffers of the set tools (issue 29): a
// buffer of a million prefixes faulted in 4 KB at a time costs ~20,000 page
// faults, several microseconds each on a virtual machine, more than parsing
// and sorting it. Advised before first use, it faults in 2 MB at a time.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <vector>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

namespace cidrcheck::detail {

/// The size of a transparent huge page on x86-64 and most arm64 kernels.
inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// Asks the kernel to back the whole huge pages inside [data, data + bytes)
/// with transparent huge pages where it offers them (Linux's MADV_HUGEPAGE,
/// which a kernel set to "madvise", Debian's default, needs; elsewhere
/// nothing). Only a hint: the contents are unchanged and a refusal is ignored.
/// Call it before the buffer is first written. Returns the bytes advised:
/// the aligned interior, 0 for a buffer that holds no whole huge page.
inline auto advise_huge_pages(const void* data, std::size_t bytes) noexcept -> std::size_t {
  if (data == nullptr) return 0;
  auto start = reinterpret_cast<std::uintptr_t>(data);
  auto begin = (start + huge_page_bytes - 1) & ~(huge_page_bytes - 1);
  auto end = (start + bytes) & ~(huge_page_bytes - 1);
  if (end <= begin) return 0;
#ifdef MADV_HUGEPAGE
  ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
  return end - begin;
}

/// The allocator of the set tools' large buffers: a block of a huge page or
/// more starts on a huge-page boundary, is rounded up to whole huge pages and
/// advised whole, so no part of it faults in 4 KB pages. (A plain vector's
/// block starts just past a 4 KB boundary, so only its aligned interior can be
/// advised: its first and last 2 MB still fault 4 KB at a time, up to 512
/// faults each.) Smaller blocks come from operator new. Stateless.
template <class T>
struct huge_allocator {
  using value_type = T;

  huge_allocator() noexcept = default;
  template <class U>
  huge_allocator(const huge_allocator<U>&) noexcept {}

  auto allocate(std::size_t n) -> T* {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T) - huge_page_bytes) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page_bytes) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + huge_page_bytes - 1) & ~(huge_page_bytes - 1);
    void* p = std::aligned_alloc(huge_page_bytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
    advise_huge_pages(p, rounded);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < huge_page_bytes) {
      ::operator delete(p);
    } else {
      std::free(p);
    }
  }
  friend constexpr bool operator==(const huge_allocator&, const huge_allocator&) noexcept { return true; }
};

/// A vector whose large buffers are huge-page aligned (huge_allocator).
template <class T>
using huge_vector = std::vector<T, huge_allocator<T>>;

}  // namespace cidrcheck::detail
