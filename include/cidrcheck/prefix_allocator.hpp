#pragma once

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/detail/family.hpp>
#include <cidrcheck/error.hpp>
#include <cidrcheck/prefix.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace cidrcheck {

namespace detail {

/// The free blocks of one length, in address order: the blocks known when the
/// allocator was made sit in a sorted vector (cheap to build, cheap to drop),
/// removals mark tombstones, and blocks that appear later (the remainders of
/// carved blocks) go to a small ordered set. Every operation is O(log n)
/// (neighbours() amortized: it skips tombstones along compressed links).
template <class Bits>
class block_bucket {
 public:
  /// Appends a block; only valid while filling in address order.
  void append(Bits start) {
    base_.push_back(start);
    dead_.push_back(false);
    right_.push_back(0);
    left_.push_back(0);
    ++size_;
  }
  void insert(Bits start) {
    extra_.insert(start);
    ++size_;
  }
  auto empty() const noexcept -> bool { return size_ == 0; }
  auto size() const noexcept -> std::size_t { return size_; }

  /// Returns the lowest block. Precondition: !empty().
  auto front() const -> Bits {
    if (head_ == base_.size()) return *extra_.begin();
    if (extra_.empty()) return base_[head_];
    return std::min(base_[head_], *extra_.begin());
  }
  /// Removes and returns the lowest block. Precondition: !empty().
  auto pop_front() -> Bits {
    Bits start = front();
    if (head_ < base_.size() && base_[head_] == start) {
      kill(head_++);
      skip_dead();
    } else {
      extra_.erase(extra_.begin());
    }
    --size_;
    return start;
  }
  /// Removes the blocks that start in [lo, hi] and appends them to out.
  template <class Out>
  void remove_starting_in(Bits lo, Bits hi, Out& out) {
    auto k = static_cast<std::size_t>(std::lower_bound(base_.begin() + static_cast<std::ptrdiff_t>(head_), base_.end(), lo) -
                                      base_.begin());
    for (; k < base_.size() && base_[k] <= hi; ++k) {
      if (dead_[k]) continue;
      kill(k);
      --size_;
      out.push_back(base_[k]);
    }
    skip_dead();
    for (auto it = extra_.lower_bound(lo); it != extra_.end() && *it <= hi;) {
      out.push_back(*it);
      it = extra_.erase(it);
      --size_;
    }
  }
  /// Returns the live block that starts last at or before x, and the one that
  /// starts first after x (either may be absent). O(log n) amortized: the
  /// tombstones between are skipped along links that each walk shortens, so
  /// many takes next to one place do not step over the same removed blocks
  /// again and again. Not const: the walk shortens the links.
  auto neighbours(Bits x) -> std::pair<std::optional<Bits>, std::optional<Bits>> {
    std::optional<Bits> below, above;
    auto first = base_.begin() + static_cast<std::ptrdiff_t>(head_);
    auto k = static_cast<std::size_t>(std::upper_bound(first, base_.end(), x) - base_.begin());
    if (auto j = live_before(k); j > head_) below = base_[j - 1];
    if (auto j = live_from(k); j < base_.size()) above = base_[j];
    auto it = extra_.upper_bound(x);
    if (it != extra_.end() && (!above || *it < *above)) above = *it;
    if (it != extra_.begin() && (!below || *std::prev(it) > *below)) below = *std::prev(it);
    return {below, above};
  }
  /// Removes the block that starts at `start`. Precondition: it is live.
  void erase(Bits start) {
    auto first = base_.begin() + static_cast<std::ptrdiff_t>(head_);
    auto it = std::lower_bound(first, base_.end(), start);
    auto k = static_cast<std::size_t>(it - base_.begin());
    if (it != base_.end() && *it == start && !dead_[k]) {
      kill(k);
      skip_dead();
    } else {
      extra_.erase(start);
    }
    --size_;
  }
  /// Calls f(start) for each block, in address order.
  template <class F>
  void for_each(F&& f) const {
    auto it = extra_.begin();
    for (std::size_t k = head_; k < base_.size(); ++k) {
      if (dead_[k]) continue;
      for (; it != extra_.end() && *it < base_[k]; ++it) f(*it);
      f(base_[k]);
    }
    for (; it != extra_.end(); ++it) f(*it);
  }

 private:
  void skip_dead() {
    while (head_ < base_.size() && dead_[head_]) ++head_;
  }
  // Marks base_[k] removed; its links point at its neighbours.
  void kill(std::size_t k) {
    dead_[k] = true;
    right_[k] = static_cast<std::uint32_t>(k + 1);
    left_[k] = static_cast<std::uint32_t>(k);
  }
  // Returns the first live index >= k (base_.size() if none), pointing every
  // tombstone on the way at it.
  auto live_from(std::size_t k) -> std::size_t {
    auto end = base_.size();
    std::size_t found = k;
    while (found < end && dead_[found]) found = right_[found];
    for (std::size_t j = k; j < found && dead_[j];) {
      auto next = right_[j];
      right_[j] = static_cast<std::uint32_t>(found);
      j = next;
    }
    return found;
  }
  // Returns one past the last live index < k (head_ or less if none), pointing
  // every tombstone on the way at it.
  auto live_before(std::size_t k) -> std::size_t {
    std::size_t found = k;
    while (found > head_ && dead_[found - 1]) found = left_[found - 1];
    for (std::size_t j = k; j > found && dead_[j - 1];) {
      auto next = left_[j - 1];
      left_[j - 1] = static_cast<std::uint32_t>(found);
      j = next;
    }
    return found;
  }

  std::vector<Bits> base_;
  std::vector<bool> dead_;
  // For a removed base_[k]: right_[k] is an index after k and left_[k] one past
  // an index before k, with nothing live between (each walk shortens them).
  std::vector<std::uint32_t> right_, left_;
  std::size_t head_ = 0;  // the first live base_ block (or the end): all before it are dead
  std::set<Bits> extra_;
  std::size_t size_ = 0;
};

}  // namespace detail

/// Hands out free prefixes from a free space by best fit, the choice netipx's
/// IPSet.RemoveFreePrefix makes, so that the two can be compared line by line.
///
/// The free space is kept as its canonical decomposition: the maximal prefixes
/// inside it (the minimal prefix cover of each free range). take(v, L) picks the
/// smallest such block that can hold a /L (the longest block length <= L), the
/// lowest address among equals, and carves the /L from its start; the rest of
/// the block goes back as one block of each length L, L-1, ..., down to the
/// block's length + 1. The blocks sit in one ordered bucket per length, so a
/// take costs O(W log n), W the bit width, never a rescan. take() and reserve()
/// change the allocator; the const queries (count_fitting, largest, free_space)
/// and copying may run on many threads at once while nothing takes from it, so
/// threads that take each take from their own copy.
class prefix_allocator {
 private:
  // The per-family state comes first: members below deduce their return types from it.
  template <class Bits>
  struct family {
    using bits_type = Bits;
    static constexpr int width = detail::width_of<Bits>;
    // by_length[L] holds the start of every free block of length L.
    std::array<detail::block_bucket<Bits>, width + 1> by_length;

    // Fills the buckets from the free ranges, which must come in address order.
    void append_range(Bits first, Bits last) {
      detail::for_each_block(first, last,
                             [&](Bits start, int length) { by_length[static_cast<std::size_t>(length)].append(start); });
    }
    void insert_range(Bits first, Bits last) {
      detail::for_each_block(first, last,
                             [&](Bits start, int length) { by_length[static_cast<std::size_t>(length)].insert(start); });
    }

    auto take(int length) -> std::optional<Bits> {
      for (int l = length; l >= 0; --l) {
        auto& bucket = by_length[static_cast<std::size_t>(l)];
        if (bucket.empty()) continue;
        Bits start = bucket.pop_front();
        // The block's remainder after the carved /length: one buddy of each
        // length from `length` up to l + 1.
        for (int k = length; k > l; --k) {
          by_length[static_cast<std::size_t>(k)].insert(static_cast<Bits>(start | (Bits{1} << (width - k))));
        }
        return start;
      }
      return std::nullopt;
    }

    // Takes a /length from the free block nearest to one of the targets
    // (inclusive [first, last] ranges outside the free space): of all blocks
    // that can hold it, the one whose carved /length lies closest, carved at
    // the block's end nearest the target; ties go to the smaller block, then
    // the lower address, then the earlier target. Returns the start and the
    // target. O(W t log n) amortized for t targets.
    auto take_near(int length, const std::vector<std::pair<Bits, Bits>>& targets)
        -> std::optional<std::pair<Bits, std::size_t>> {
      struct best_t {
        Bits distance, piece, block;
        int l;
        std::size_t target;
      };
      std::optional<best_t> best;
      auto consider = [&](Bits block, int l, std::size_t t) {
        Bits block_last = static_cast<Bits>(block | detail::host_mask<Bits>(l));
        const auto& [lo, hi] = targets[t];
        Bits piece = block, distance = 0;
        if (block_last < lo) {
          piece = static_cast<Bits>(block_last & detail::network_mask<Bits>(length));
          distance = static_cast<Bits>(lo - block_last);
        } else if (block > hi) {
          distance = static_cast<Bits>(block - hi);
        }
        if (!best || distance < best->distance || (distance == best->distance && l > best->l) ||
            (distance == best->distance && l == best->l && piece < best->piece)) {
          best = best_t{distance, piece, block, l, t};
        }
      };
      for (int l = length; l >= 0; --l) {
        auto& bucket = by_length[static_cast<std::size_t>(l)];
        if (bucket.empty()) continue;
        for (std::size_t t = 0; t < targets.size(); ++t) {
          auto [below, above] = bucket.neighbours(targets[t].first);
          if (below) consider(*below, l, t);
          if (above) consider(*above, l, t);
        }
      }
      if (!best) return std::nullopt;
      by_length[static_cast<std::size_t>(best->l)].erase(best->block);
      Bits block_last = static_cast<Bits>(best->block | detail::host_mask<Bits>(best->l));
      Bits piece_last = static_cast<Bits>(best->piece | detail::host_mask<Bits>(length));
      if (best->piece > best->block) insert_range(best->block, static_cast<Bits>(best->piece - 1));
      if (piece_last < block_last) insert_range(static_cast<Bits>(piece_last + 1), block_last);
      return std::pair(best->piece, best->target);
    }

    void reserve(Bits first, Bits last) {
      std::vector<std::pair<Bits, int>> hit;
      std::vector<Bits> starts;
      for (int l = 0; l <= width; ++l) {
        auto& bucket = by_length[static_cast<std::size_t>(l)];
        if (bucket.empty()) continue;
        // A block of length l overlaps [first, last] iff it starts in
        // [first rounded down to a multiple of its size, last].
        starts.clear();
        bucket.remove_starting_in(static_cast<Bits>(first & detail::network_mask<Bits>(l)), last, starts);
        for (Bits start : starts) hit.emplace_back(start, l);
      }
      for (auto [start, l] : hit) {
        Bits block_last = static_cast<Bits>(start | detail::host_mask<Bits>(l));
        if (start < first) insert_range(start, static_cast<Bits>(first - 1));
        if (last < block_last) insert_range(static_cast<Bits>(last + 1), block_last);
      }
    }

    auto count_fitting(int length) const -> uint128 {
      uint128 total = 0;
      for (int l = 0; l <= length; ++l) {
        uint128 n = by_length[static_cast<std::size_t>(l)].size();
        if (n == 0) continue;
        int shift = length - l;
        // Saturate rather than wrap: only IPv6 counts can get this large.
        if (shift >= 128 || n > (detail::uint128_max >> shift)) return detail::uint128_max;
        uint128 add = n << shift;
        if (total > detail::uint128_max - add) return detail::uint128_max;
        total += add;
      }
      return total;
    }
  };

  template <class F>
  decltype(auto) family_of(ip_version v, F&& f) {
    return v == ip_version::v4 ? f(v4_) : f(v6_);
  }
  template <class F>
  decltype(auto) family_of(ip_version v, F&& f) const {
    return v == ip_version::v4 ? f(v4_) : f(v6_);
  }

  family<std::uint32_t> v4_;
  family<uint128> v6_;

  static void check_length(const char* call, ip_version v, int length) {
    if (v == ip_version::none) throw basic_error<std::invalid_argument>(std::string(call) + ": no IP version given");
    if (length < 0 || length > bit_width(v)) {
      throw basic_error<std::invalid_argument>(std::string(call) + ": /" + std::to_string(length) +
                                               " is no IPv" + std::to_string(static_cast<int>(v)) +
                                               " prefix length (0 to " + std::to_string(bit_width(v)) + ")");
    }
  }

 public:
  /// Makes an allocator over `free` (for example pool - used). O(n log n) for n blocks.
  explicit prefix_allocator(const address_set& free) {
    for (const auto& i : free.storage().v4) v4_.append_range(i.lower(), i.upper());
    for (const auto& i : free.storage().v6) v6_.append_range(i.lower(), i.upper());
  }

  /// Takes a free /length of version v by best fit and returns it, or nullopt when
  /// no free block can hold it. Throws basic_error<std::invalid_argument> when v
  /// is none or length is outside [0, bit_width(v)]: no pool holds such a block,
  /// and an answer of "nothing free" would hide the mistake.
  auto take(ip_version v, int length) -> std::optional<prefix> {
    check_length("take", v, length);
    return family_of(v, [&](auto& f) -> std::optional<prefix> {
      auto start = f.take(length);
      if (!start) return std::nullopt;
      return prefix::containing(address::from_bits(v, *start), length);
    });
  }

  /// Takes a free /length of version v next to the ranges `near` (those of
  /// version v; outside the free space, as an owner's ranges are): of the free
  /// blocks that can hold it, the one whose /length comes closest to one of
  /// them, carved at the block's end nearest it; ties go to the smaller block
  /// (best fit), then the lower address, then the earlier range of `near`.
  /// Returns the prefix and the index in `near` of the range it is next to,
  /// or nullopt when nothing fits. With no range of version v in `near`, it
  /// is take() (best fit), and the index is near.size(). Throws as take() does.
  /// O(W |near| log n) amortized.
  auto take_near(ip_version v, int length, const std::vector<prefix>& near)
      -> std::optional<std::pair<prefix, std::size_t>> {
    check_length("take_near", v, length);
    return family_of(v, [&](auto& f) -> std::optional<std::pair<prefix, std::size_t>> {
      using bits = typename std::decay_t<decltype(f)>::bits_type;
      std::vector<std::pair<bits, bits>> targets;
      std::vector<std::size_t> index;
      for (std::size_t k = 0; k < near.size(); ++k) {
        if (near[k].version() != v) continue;
        targets.emplace_back(static_cast<bits>(near[k].network().bits()), static_cast<bits>(near[k].last().bits()));
        index.push_back(k);
      }
      if (targets.empty()) {
        auto start = f.take(length);
        if (!start) return std::nullopt;
        return std::pair(prefix::containing(address::from_bits(v, *start), length), near.size());
      }
      auto got = f.take_near(length, targets);
      if (!got) return std::nullopt;
      return std::pair(prefix::containing(address::from_bits(v, got->first), length), index[got->second]);
    });
  }

  /// Removes r from the free space (the parts of it that are free). O(W log n + k).
  void reserve(const address_range& r) {
    if (!r.is_valid()) return;
    family_of(r.version(), [&](auto& f) {
      using bits = typename std::decay_t<decltype(f)>::bits_type;
      f.reserve(static_cast<bits>(r.first().bits()), static_cast<bits>(r.last().bits()));
    });
  }
  void reserve(const prefix& p) { reserve(address_range(p)); }
  /// Removes every address of s from the free space.
  void reserve(const address_set& s) {
    s.for_each_range([&](const address_range& r) { reserve(r); });
  }

  /// Returns how many disjoint /length blocks of version v still fit in the free
  /// space, saturating at 2^128 - 1. O(W). Throws as take() does for a length v
  /// cannot have.
  auto count_fitting(ip_version v, int length) const -> uint128 {
    check_length("count_fitting", v, length);
    return family_of(v, [&](const auto& f) { return f.count_fitting(length); });
  }

  /// Returns the largest free block of version v (lowest address among equals), or nullopt.
  auto largest(ip_version v) const -> std::optional<prefix> {
    if (v == ip_version::none) return std::nullopt;
    return family_of(v, [&](const auto& f) -> std::optional<prefix> {
      for (int length = 0; length <= f.width; ++length) {
        const auto& bucket = f.by_length[static_cast<std::size_t>(length)];
        if (!bucket.empty()) return prefix::containing(address::from_bits(v, bucket.front()), length);
      }
      return std::nullopt;
    });
  }

  /// Returns the free space that is left. O(n log n).
  auto free_space() const -> address_set {
    address_set_builder b;
    auto add_all = [&](const auto& f, ip_version v) {
      for (int length = 0; length <= f.width; ++length) {
        f.by_length[static_cast<std::size_t>(length)].for_each(
            [&](auto start) { b.add(prefix::containing(address::from_bits(v, start), length)); });
      }
    };
    add_all(v4_, ip_version::v4);
    add_all(v6_, ip_version::v6);
    return b.build();
  }

};

}  // namespace cidrcheck
