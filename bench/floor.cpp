// The floor: `cidrcheck set overlaps --count` and `set merge --count` on an
// IPv4 list, written as tightly as this machine allows, so that compare.py can
// state cidrcheck's time as a ratio to it (bench/README.md, issue 29).
//
//   cidrcheck_floor overlaps|merge FILE   prints "pairs N" or "merged N"
//
// One read of the file into one buffer sized from fstat, one pass that parses
// every line into a 64-bit key (network << 6 | length) in an array reserved
// from the file size (a line holds at least 10 bytes), a three-pass LSD radix
// sort of the 38-bit keys, then one sweep. Every buffer is advised for huge
// pages, as cidrcheck's are. No per-line allocation, no line
// numbers, no diagnostics beyond the first bad line: it only reads the lines
// gen_prefixes.py writes ("a.b.c.d/len\n", host bits clear) and exits 2 at
// anything else. It is a yardstick, not a tool: the CLI must also keep every
// line's position, read IPv6, comments and CRLF, and report every bad line.

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

constexpr int length_bits = 6;  // lengths 0..32

[[noreturn]] void fail(const char* what, const char* detail) {
  std::fprintf(stderr, "cidrcheck_floor: %s%s\n", what, detail);
  std::exit(2);
}

struct freer {
  void operator()(void* p) const noexcept { std::free(p); }
};
template <class T>
using buffer = std::unique_ptr<T[], freer>;

// Aligned to 2 MB and advised for transparent huge pages (MADV_HUGEPAGE), as
// cidrcheck advises its large buffers: a page fault then maps 2 MB, not 4 KB.
// Not new[]: the pages are only touched (and faulted in) as they are written.
template <class T>
auto allocate(std::size_t n) -> buffer<T> {
  constexpr std::size_t huge = std::size_t{2} << 20;
  std::size_t bytes = (n * sizeof(T) + 1 + huge - 1) / huge * huge;
  auto* p = static_cast<T*>(std::aligned_alloc(huge, bytes));
  if (p == nullptr) fail("out of memory", "");
  ::madvise(p, bytes, MADV_HUGEPAGE);
  return buffer<T>(p);
}

auto read_all(const char* path, std::size_t& size) -> buffer<char> {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open: ", std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) fail("not a regular file: ", path);
  size = static_cast<std::size_t>(st.st_size);
  auto text = allocate<char>(size);
  for (std::size_t done = 0; done < size;) {
    ssize_t n = ::read(fd, text.get() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot read: ", path);
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return text;
}

// Reads a decimal number of 1 to 3 digits up to `max`, then expects `end`.
auto number(const char*& p, const char* stop, unsigned max, char end) -> unsigned {
  unsigned v = 0;
  const char* start = p;
  while (p < stop && *p >= '0' && *p <= '9' && p - start < 3) v = v * 10 + static_cast<unsigned>(*p++ - '0');
  if (p == start || v > max || p >= stop || *p != end) fail("not a line of gen_prefixes.py", "");
  ++p;
  return v;
}

// Parses every line; returns the number of keys written.
auto parse(const char* p, const char* stop, std::uint64_t* keys) -> std::size_t {
  std::size_t n = 0;
  while (p < stop) {
    std::uint32_t net = number(p, stop, 255, '.') << 24;
    net |= number(p, stop, 255, '.') << 16;
    net |= number(p, stop, 255, '.') << 8;
    net |= number(p, stop, 255, '/');
    unsigned length = number(p, stop, 32, '\n');
    if (length < 32 && (net & (0xffffffffu >> length)) != 0) fail("host bits set", "");
    keys[n++] = std::uint64_t{net} << length_bits | length;
  }
  return n;
}

// LSD radix sort of 38-bit keys in three passes of 13 bits, between keys and
// scratch; returns the one that holds the sorted keys.
auto radix_sort(std::uint64_t* keys, std::uint64_t* scratch, std::size_t n) -> const std::uint64_t* {
  constexpr int digit_bits = 13, passes = 3;
  constexpr std::size_t buckets = std::size_t{1} << digit_bits;
  auto counts = std::make_unique<std::size_t[]>(buckets * passes);
  for (std::size_t k = 0; k < n; ++k) {
    for (int d = 0; d < passes; ++d) ++counts[d * buckets + ((keys[k] >> (d * digit_bits)) & (buckets - 1))];
  }
  for (int d = 0; d < passes; ++d) {
    std::size_t* count = &counts[d * buckets];
    std::size_t offset = 0;
    for (std::size_t b = 0; b < buckets; ++b) offset += std::exchange(count[b], offset);
    for (std::size_t k = 0; k < n; ++k) scratch[count[(keys[k] >> (d * digit_bits)) & (buckets - 1)]++] = keys[k];
    std::swap(keys, scratch);
  }
  return keys;
}

auto first_of(std::uint64_t key) -> std::uint64_t { return key >> length_bits; }
auto last_of(std::uint64_t key) -> std::uint64_t {
  auto length = static_cast<unsigned>(key & ((1u << length_bits) - 1));
  return first_of(key) | (0xffffffffull >> length);
}

// Pairs of nested prefixes: after the sort, the prefixes holding the current
// one form a stack: one a length, plus any duplicates, so up to n deep.
auto count_pairs(const std::uint64_t* keys, std::size_t n) -> std::uint64_t {
  std::vector<std::uint64_t> stack;
  stack.reserve(33);
  std::uint64_t pairs = 0;
  for (std::size_t k = 0; k < n; ++k) {
    while (!stack.empty() && stack.back() < first_of(keys[k])) stack.pop_back();
    pairs += stack.size();
    stack.push_back(last_of(keys[k]));
  }
  return pairs;
}

// The number of prefixes in the minimal cover of [first, last].
auto blocks(std::uint64_t first, std::uint64_t last) -> std::uint64_t {
  std::uint64_t count = 0;
  while (first <= last) {
    std::uint64_t size = first == 0 ? std::uint64_t{1} << 32 : first & -first;
    while (first + size - 1 > last) size >>= 1;
    first += size;
    ++count;
  }
  return count;
}

auto count_merged(const std::uint64_t* keys, std::size_t n) -> std::uint64_t {
  if (n == 0) return 0;
  std::uint64_t merged = 0, first = first_of(keys[0]), last = last_of(keys[0]);
  for (std::size_t k = 1; k < n; ++k) {
    if (first_of(keys[k]) > last + 1) {
      merged += blocks(first, last);
      first = first_of(keys[k]);
    }
    if (last_of(keys[k]) > last) last = last_of(keys[k]);
  }
  return merged + blocks(first, last);
}

}  // namespace

int main(int argc, char** argv) {
  std::string_view task = argc == 3 ? argv[1] : "";
  if (task != "overlaps" && task != "merge") fail("usage: cidrcheck_floor overlaps|merge FILE", "");
  std::size_t size = 0;
  auto text = read_all(argv[2], size);
  auto keys = allocate<std::uint64_t>(size / 10 + 1);
  std::size_t n = parse(text.get(), text.get() + size, keys.get());
  text.reset();
  auto scratch = allocate<std::uint64_t>(n);
  const std::uint64_t* sorted = radix_sort(keys.get(), scratch.get(), n);
  if (task == "overlaps") {
    std::printf("pairs %llu\n", static_cast<unsigned long long>(count_pairs(sorted, n)));
  } else {
    std::printf("merged %llu\n", static_cast<unsigned long long>(count_merged(sorted, n)));
  }
  return 0;
}
