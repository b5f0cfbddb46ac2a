// The cost of a page fault on this machine, for figures that travel (bench/README.md):
// touches 64 MB of fresh anonymous memory one 4 KB page at a time, then another
// 64 MB advised for transparent huge pages (MADV_HUGEPAGE), and prints for each
// the faults and the CPU time (user + system: a virtual machine may charge a
// fault's handling to either) per fault and per MB. compare.py prints its line.
//
//   cidrcheck_fault_cost   prints "faults 4k N us/fault X ms/MB Y; huge N us/fault X ms/MB Y"

#include <cstddef>
#include <cstdio>
#include <sys/mman.h>
#include <sys/resource.h>

namespace {

constexpr std::size_t bytes = std::size_t{64} << 20;

auto cpu_seconds() -> double {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

auto faults() -> long {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// Touches a fresh mapping page by page; prints its faults, µs per fault and ms per MB.
void measure(const char* name, bool huge) {
  void* mapped = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) {
    std::printf("%s: mmap failed", name);
    return;
  }
  if (huge) ::madvise(mapped, bytes, MADV_HUGEPAGE);
  auto* p = static_cast<volatile char*>(mapped);
  long f0 = faults();
  double t0 = cpu_seconds();
  for (std::size_t k = 0; k < bytes; k += 4096) p[k] = 1;
  double cpu = cpu_seconds() - t0;
  long n = faults() - f0;
  std::printf("%s %ld us/fault %.1f ms/MB %.2f", name, n, n > 0 ? cpu * 1e6 / static_cast<double>(n) : 0.0,
              cpu * 1e3 / static_cast<double>(bytes >> 20));
  ::munmap(mapped, bytes);
}

}  // namespace

int main() {
  std::printf("faults ");
  measure("4k", false);
  std::printf("; ");
  measure("huge", true);
  std::printf("\n");
  return 0;
}
