#include "membership.hpp"

#include <algorithm>
#include <span>
#include <string_view>
#include <unordered_map>

namespace cidrcheck::detail {

namespace {

// A network's plain range, for "which networks hold this prefix".
struct held {
  prefix cidr;
  std::uint32_t owner;
  std::uint32_t range;
  friend auto operator<=>(const held&, const held&) = default;
};

// Calls f(entry) for every entry of `sorted` whose prefix contains p (p itself
// included): one equal_range per shorter length, so O(W log n).
template <class F>
void for_each_holder(const std::vector<held>& sorted, const prefix& p, F&& f) {
  if (sorted.empty()) return;
  for (int length = p.length(); length >= 0; --length) {
    auto outer = prefix::containing(p.network(), length);
    auto it = std::lower_bound(sorted.begin(), sorted.end(), held{outer, 0, 0});
    for (; it != sorted.end() && it->cidr == outer; ++it) {
      if (!f(*it)) return;
    }
  }
}

// Reports whether two sorted lists of connection indexes share one.
auto share_one(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) -> bool {
  const auto& small = a.size() <= b.size() ? a : b;
  const auto& large = a.size() <= b.size() ? b : a;
  return std::any_of(small.begin(), small.end(), [&](std::uint32_t c) { return std::binary_search(large.begin(), large.end(), c); });
}

}  // namespace

membership_index::membership_index(const fleet& f, const catalog& c)
    : f_(f), places_(f.owners.size()), space_(f.ranges.size(), no_space), holder_(f.ranges.size(), no_space) {
  place_clusters(c);
  assign_spaces();
}

void membership_index::place_clusters(const catalog& c) {
  // The plain ranges of networks whose type holds clusters: where a cluster no source places may run.
  std::vector<held> holders;
  for (std::uint32_t k = 0; k < f_.ranges.size(); ++k) {
    const auto& r = f_.ranges[k];
    const auto& o = f_.owners[r.owner];
    if (!r.is_plain() || o.kind != owner_kind::network) continue;
    const auto* type = c.find_network_type(o.type);
    if (type != nullptr && type->holds_clusters) holders.push_back({r.cidr, r.owner, k});
  }
  std::sort(holders.begin(), holders.end());
  // Each owner's connections, sorted: a connection joins separate networks, so
  // a cluster never runs in a network it is connected to. They are one array,
  // owner k's from connection_start[k] (as members_ is), not a vector per
  // owner: a fleet read from exports has an owner per VNet or VPC.
  std::vector<std::uint32_t> connection_start(f_.owners.size() + 1, 0);
  for (const auto& connection : f_.connections) {
    for (auto m : connection.members) ++connection_start[m + 1];
  }
  for (std::size_t k = 1; k < connection_start.size(); ++k) connection_start[k] += connection_start[k - 1];
  std::vector<std::uint32_t> connected(connection_start.back());
  auto fill = connection_start;
  for (std::uint32_t k = 0; k < f_.connections.size(); ++k) {
    for (auto m : f_.connections[k].members) connected[fill[m]++] = k;
  }
  auto connections = [&](std::uint32_t k) {
    return std::span<const std::uint32_t>(connected.data() + connection_start[k], connected.data() + connection_start[k + 1]);
  };
  for (std::uint32_t k = 0; k < f_.owners.size(); ++k) {
    const auto& o = f_.owners[k];
    auto& p = places_[k];
    if (o.kind != owner_kind::cluster) continue;
    if (!o.runs_in.empty()) {
      p.how = placement_kind::said;
      if (o.runs_in_owner && *o.runs_in_owner < f_.owners.size() &&
          f_.owners[*o.runs_in_owner].kind == owner_kind::network) {
        p.network = o.runs_in_owner;
      }
      continue;
    }
    for (auto r : o.ranges) {
      const auto& range = f_.ranges[r];
      if (range.role != range_role::network || !range.is_plain()) continue;
      for_each_holder(holders, range.cidr, [&](const held& h) {
        bool known = p.network == h.owner ||
                     std::find(p.candidates.begin(), p.candidates.end(), h.owner) != p.candidates.end();
        if (known || share_one(connections(k), connections(h.owner))) return true;
        if (!p.network) {
          p.network = h.owner;
          p.range = r;
          p.holder = h.range;
          return true;
        }
        // A second network holds it: list the first few, and stop looking.
        if (p.candidates.empty()) {
          p.candidates.push_back(*p.network);
          p.range = r;
        }
        if (p.candidates.size() < placement::shown_candidates) {
          p.candidates.push_back(h.owner);
          return true;
        }
        p.more = true;
        return false;
      });
      if (p.more) break;
    }
    if (!p.candidates.empty()) {
      p.how = placement_kind::ambiguous;
      p.network.reset();
    } else if (p.network) {
      p.how = placement_kind::inferred;
    }
  }
}

void membership_index::assign_spaces() {
  // Every network's plain ranges: a member's network range is its network's
  // space where it lies inside one of them.
  std::vector<held> spaces;
  for (std::uint32_t k = 0; k < f_.ranges.size(); ++k) {
    const auto& r = f_.ranges[k];
    if (!r.is_plain() || f_.owners[r.owner].kind != owner_kind::network) continue;
    space_[k] = r.owner;
    spaces.push_back({r.cidr, r.owner, k});
  }
  std::sort(spaces.begin(), spaces.end());
  member_start_.assign(f_.owners.size() + 1, 0);
  std::unordered_map<std::string_view, std::uint32_t> unnamed;  // runs_in names no owner has: their space numbers
  for (std::uint32_t k = 0; k < f_.owners.size(); ++k) {
    const auto& network = places_[k].network;
    if (!network && places_[k].how == placement_kind::said) {
      auto space = unnamed.try_emplace(f_.owners[k].runs_in, static_cast<std::uint32_t>(f_.owners.size() + unnamed.size()))
                       .first->second;
      for (auto r : f_.owners[k].ranges) {
        if (f_.ranges[r].role == range_role::network && f_.ranges[r].is_plain()) space_[r] = space;
      }
      continue;
    }
    if (!network) continue;
    ++member_start_[*network + 1];
    for (auto r : f_.owners[k].ranges) {
      const auto& range = f_.ranges[r];
      if (range.role != range_role::network || !range.is_plain()) continue;
      // The network's ranges containing it: one search per shorter length, for
      // (prefix, network), whose first entry has the lowest range index.
      for (int length = range.cidr.length(); length >= 0; --length) {
        auto outer = prefix::containing(range.cidr.network(), length);
        auto it = std::lower_bound(spaces.begin(), spaces.end(), held{outer, *network, 0});
        if (it != spaces.end() && it->cidr == outer && it->owner == *network) holder_[r] = std::min(holder_[r], it->range);
      }
      if (holder_[r] != no_space) space_[r] = *network;
    }
  }
  for (std::size_t k = 1; k < member_start_.size(); ++k) member_start_[k] += member_start_[k - 1];
  members_.resize(member_start_.back());
  auto fill = member_start_;
  for (std::uint32_t k = 0; k < f_.owners.size(); ++k) {
    if (const auto& network = places_[k].network) members_[fill[*network]++] = k;
  }
}

auto membership_index::members(std::uint32_t k) const -> std::span<const std::uint32_t> {
  return {members_.data() + member_start_[k], members_.data() + member_start_[k + 1]};
}

}  // namespace cidrcheck::detail
