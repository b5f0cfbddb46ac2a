#pragma once
// Transparent huge pages for the large buffers of the set tools (issue 29): a
// buffer of a million prefixes faulted in 4 KB at a time costs ~20,000 page
// faults, several microseconds each on a virtual machine, more than parsing
// and sorting it. Advised before first use, it faults in 2 MB at a time.

#include <cstddef>
#include <cstdint>
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

/// v.reserve(n), with the new capacity advised for huge pages.
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace cidrcheck::detail
