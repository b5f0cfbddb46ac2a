// A differential fuzzer: the bytes are a program of set operations on a
// 256-address universe (10.0.0.0/24), run on address_set and prefix_allocator
// and on a std::bitset model side by side. Any disagreement aborts.

#include "fuzz_target.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>

namespace {

using namespace cidrcheck;
using bits = std::bitset<256>;
constexpr std::uint32_t base = 0x0a000000;

void require(bool condition) {
  if (!condition) std::abort();
}

auto to_set(const bits& b) -> address_set {
  address_set_builder builder;
  for (unsigned k = 0; k < 256; ++k) {
    if (b[k]) builder.add(address::v4(base + k));
  }
  return builder.build();
}

void expect_equal(const address_set& s, const bits& b) {
  require(s == to_set(b));
  require(s.size() == b.count());
}

// The best-fit choice on the model: the smallest maximal free block that holds a /length.
auto model_take(bits& free, int length) -> std::optional<unsigned> {
  int want = 32 - length, best_host = -1;
  unsigned best = 0;
  for (unsigned k = 0; k < 256;) {
    if (!free[k]) {
      ++k;
      continue;
    }
    int host = 8;
    for (; host > 0; --host) {
      unsigned n = 1u << host;
      if (k % n != 0) continue;
      bool full = true;
      for (unsigned j = k; j < k + n; ++j) full = full && free[j];
      if (full) break;
    }
    if (host >= want && (best_host < 0 || host < best_host)) {
      best_host = host;
      best = k;
    }
    k += 1u << host;
  }
  if (best_host < 0) return std::nullopt;
  for (unsigned j = best; j < best + (1u << want); ++j) free[j] = false;
  return best;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bits model[2];
  address_set_builder builders[2];
  std::size_t at = 0;
  auto next = [&]() -> unsigned { return at < size ? data[at++] : 0u; };
  while (at + 3 <= size) {
    unsigned op = next(), first = next(), span = next();
    unsigned last = std::min(255u, first + span % 64);
    auto which = op & 1;
    auto range = address_range::make(address::v4(base + first), address::v4(base + last));
    switch ((op >> 1) % 3) {
      case 0:
        builders[which].add(range);
        for (unsigned k = first; k <= last; ++k) model[which][k] = true;
        break;
      case 1:
        builders[which].remove(range);
        for (unsigned k = first; k <= last; ++k) model[which][k] = false;
        break;
      default: {
        auto a = builders[0].build(), b = builders[1].build();
        expect_equal(a | b, model[0] | model[1]);
        expect_equal(a & b, model[0] & model[1]);
        expect_equal(a - b, model[0] & ~model[1]);
        expect_equal(a ^ b, model[0] ^ model[1]);
        require(a.overlaps(b) == (model[0] & model[1]).any());
        // Best-fit takes from a, checked block by block.
        prefix_allocator allocator(a);
        bits free = model[0];
        for (unsigned t = 0; t < 4; ++t) {
          int length = 24 + static_cast<int>((op >> 3) + t) % 9;
          auto got = allocator.take(ip_version::v4, length);
          auto want = model_take(free, length);
          require(got.has_value() == want.has_value());
          if (want) require(*got == prefix::containing(address::v4(base + *want), length));
        }
        expect_equal(allocator.free_space(), free);
      }
    }
  }
  expect_equal(builders[0].build(), model[0]);
  return 0;
}
