#pragma once
// Deterministic bench inputs, generated in memory from fixed seeds: fleets of
// the shape bench/gen_prefixes.py writes (not the same bytes; compare.py times
// the CLI on the Python generator's files).

#include <cidrcheck/address.hpp>
#include <cidrcheck/ip_version.hpp>
#include <cidrcheck/prefix.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cidrcheck::bench {

/// A splitmix64 stream: the same numbers on every platform, which the standard
/// distributions do not promise.
class rng {
 public:
  explicit rng(std::uint64_t seed) : state_(seed) {}

  auto next() -> std::uint64_t {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Returns a number in [0, n); the modulo bias does not matter for bench inputs. Precondition: n > 0.
  auto below(uint128 n) -> uint128 { return ((uint128{next()} << 64) | next()) % n; }
  /// Returns a number in [lo, hi].
  auto between(int lo, int hi) -> int { return lo + static_cast<int>(below(static_cast<uint128>(hi - lo + 1))); }

 private:
  std::uint64_t state_;
};

/// Returns n prefixes of version v, shuffled: about 99% a disjoint fleet laid
/// out in address order with random aligned gaps (lengths /16../28 for IPv4,
/// /40../64 inside 2000::/3 for IPv6, longer ones more common), the rest
/// duplicates, sub-prefixes and super-prefixes of fleet blocks. Deterministic
/// in (v, n, seed). Precondition: v is v4 or v6. Throws std::length_error for
/// more IPv4 lines than fit (about 2,000,000).
inline auto fleet(ip_version v, std::size_t n, std::uint64_t seed = 42) -> std::vector<prefix> {
  const bool v6 = v == ip_version::v6;
  const int width = v6 ? 128 : 32, lo = v6 ? 40 : 16, hi = v6 ? 64 : 28;
  const uint128 base = v6 ? uint128{2} << 124 : 0, space = v6 ? uint128{1} << 125 : uint128{1} << 32;
  rng r(seed);

  // Lengths weighted about 2^(L/2), so that a million IPv4 blocks fit with room for gaps.
  std::size_t n_overlaps = n / 100, n_fleet = n - n_overlaps;
  int total_weight = 0;
  for (int l = lo; l <= hi; ++l) total_weight += 1 << ((l - lo) / 2);
  std::vector<int> lengths(n_fleet);
  uint128 still_needed = 0;  // twice the size of every block not yet placed: room for any alignment
  for (auto& length : lengths) {
    int pick = r.between(0, total_weight - 1);
    for (length = lo; pick >= 1 << ((length - lo) / 2); ++length) pick -= 1 << ((length - lo) / 2);
    still_needed += uint128{2} << (width - length);
  }
  if (still_needed > space) throw std::length_error("bench::fleet: too many blocks for the address space");

  std::vector<prefix> out;
  out.reserve(n);
  uint128 cur = 0;
  for (std::size_t k = 0; k < n_fleet; ++k) {
    uint128 size = uint128{1} << (width - lengths[k]);
    still_needed -= 2 * size;
    uint128 spare = space - cur - still_needed - 2 * size;
    cur += r.below(spare / (n_fleet - k) + 1);
    cur = (cur + size - 1) / size * size;
    out.push_back(prefix::containing(address::from_bits(v, base + cur), lengths[k]));
    cur += size;
  }

  for (std::size_t k = 0; k < n_overlaps && n_fleet > 0; ++k) {
    prefix p = out[static_cast<std::size_t>(r.below(n_fleet))];
    switch (r.between(0, 2)) {
      case 0: out.push_back(p); break;
      case 1: {
        int sub = std::min(width, p.length() + r.between(1, 4));
        auto offset = r.below(uint128{1} << (sub - p.length())) << (width - sub);
        out.push_back(prefix::containing(address::from_bits(v, p.network().bits() + offset), sub));
        break;
      }
      default: out.push_back(p.supernet(std::max(1, p.length() - r.between(1, 4)))); break;
    }
  }

  for (std::size_t k = out.size(); k > 1; --k) std::swap(out[k - 1], out[static_cast<std::size_t>(r.below(k))]);
  return out;
}

/// Returns fleet(v, n, seed), generated once per process and then shared.
inline auto cached_fleet(ip_version v, std::size_t n, std::uint64_t seed = 42) -> const std::vector<prefix>& {
  static std::map<std::tuple<ip_version, std::size_t, std::uint64_t>, std::vector<prefix>> cache;
  auto key = std::tuple(v, n, seed);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, fleet(v, n, seed)).first;
  return it->second;
}

/// Returns the prefixes as a plain list: one CIDR a line.
inline auto to_list_text(const std::vector<prefix>& prefixes) -> std::string {
  std::string text;
  text.reserve(prefixes.size() * 20);
  for (const auto& p : prefixes) {
    p.append_to(text);
    text += '\n';
  }
  return text;
}

/// Returns the text of each prefix, or of its network address when addresses_only.
inline auto to_texts(const std::vector<prefix>& prefixes, bool addresses_only) -> std::vector<std::string> {
  std::vector<std::string> texts;
  texts.reserve(prefixes.size());
  for (const auto& p : prefixes) texts.push_back(addresses_only ? p.network().to_string() : p.to_string());
  return texts;
}

}  // namespace cidrcheck::bench
