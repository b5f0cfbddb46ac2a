#pragma once
// Which network each cluster runs in, decided once per fleet for check(),
// plan() and the loader's notes alike. A source may say it (owner::runs_in: a
// fleet file's `runs_in`, an EKS cluster's vpcId, an AKS pool's vnetSubnetID);
// where none does, the cluster runs in the one network of a type that holds
// clusters (the catalog's network types, holds_clusters) that holds its network
// range, never in one it is connected to (a connection joins separate
// networks: peering, VPN, transit, a tailnet) and never when two hold it.
//
// A cluster's network range inside a range of the network it runs in is that
// network's space: no conflict with it, nor with another member's network
// there (kops puts several clusters in one shared VPC, each with networkCIDR
// set to the VPC's own CIDR: kubernetes/kops docs/run_in_existing_vpc.md).
// The cluster's nodes route as the network does: its network ranges are
// carried, and ranges are routed at it, wherever the network's connections reach.

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/fleet.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace cidrcheck::detail {

/// How a cluster came to run in a network, or why it runs in none.
enum class placement_kind : std::uint8_t {
  none,       ///< no source says, and no network of a type that holds clusters holds its network range
  said,       ///< a source says (owner::runs_in); network is nullopt when it names no owner of the fleet
  inferred,   ///< the one network of a type that holds clusters that holds its network range
  ambiguous,  ///< two or more such networks hold it: it runs in none of them
};

/// Where a cluster runs, and what the loader's note about it names.
struct placement {
  placement_kind how = placement_kind::none;
  std::optional<std::uint32_t> network;  ///< the network owner it runs in
  /// inferred: the cluster's network range that lies in the network, and the
  /// network's range holding it (indexes into fleet::ranges); ambiguous: the
  /// range that two of them hold.
  std::uint32_t range = 0, holder = 0;
  /// ambiguous: the first networks found holding its network range (at most
  /// shown_candidates), and whether there are more.
  std::vector<std::uint32_t> candidates;
  bool more = false;

  static constexpr std::size_t shown_candidates = 3;
};

/// The network each cluster runs in and the space each range belongs to;
/// built once per fleet. O((n + m) W log n) for n ranges, m connection
/// memberships and W the address width.
class membership_index {
 public:
  membership_index(const fleet& f, const catalog& c);

  /// Returns where owner k runs (how == none for networks).
  auto place(std::uint32_t k) const -> const placement& { return places_[k]; }

  /// Returns the network whose space range k is: a network's own plain range
  /// (neither a route nor a translated range) is its network's; a cluster's
  /// plain network range that lies inside a range of the network the cluster
  /// runs in is that network's. A cluster that runs in a network no owner
  /// describes (its runs_in names none: a VPC whose blocks an import made the
  /// cluster's network) has all its plain network ranges in that network's
  /// space, numbered from f.owners.size() up, one number per name. nullopt for
  /// every other range.
  auto space_of(std::uint32_t k) const -> std::optional<std::uint32_t> {
    return space_[k] == no_space ? std::nullopt : std::optional(space_[k]);
  }

  /// Returns the range of its network that a member's network range k lies in
  /// (the lowest such index); nullopt when k is no member's network range.
  auto holder_of(std::uint32_t k) const -> std::optional<std::uint32_t> {
    return holder_[k] == no_space ? std::nullopt : std::optional(holder_[k]);
  }

  /// Reports whether an overlapping pair is no conflict: ranges of different
  /// owners in one network's space (a member's network and its network's
  /// range, or two members' networks).
  auto shared(std::uint32_t a, std::uint32_t b) const -> bool {
    return space_[a] != no_space && space_[a] == space_[b] && f_.ranges[a].owner != f_.ranges[b].owner;
  }

  /// Returns the clusters that run in network k, in owner order.
  auto members(std::uint32_t k) const -> std::span<const std::uint32_t>;

 private:
  static constexpr std::uint32_t no_space = 0xFFFF'FFFF;

  void place_clusters(const catalog& c);
  void assign_spaces();

  const fleet& f_;
  std::vector<placement> places_;         // per owner
  std::vector<std::uint32_t> space_;      // per range: the network whose space it is, or no_space
  std::vector<std::uint32_t> holder_;     // per range: the network range a member's network lies in, or no_space
  std::vector<std::uint32_t> member_start_;  // per owner + 1: offsets into members_
  std::vector<std::uint32_t> members_;    // clusters grouped by the network they run in
};

}  // namespace cidrcheck::detail
