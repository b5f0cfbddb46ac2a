#include <cidrcheck/fleet/plan.hpp>

#include "compact_findings.hpp"
#include "runbook_rows.hpp"
#include "operation_cover.hpp"
#include "membership.hpp"
#include "pins.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace cidrcheck {

namespace {

constexpr int default_cost[3] = {10, 3, 1};  // network, pods, services
constexpr double default_headroom = 1.25;

auto role_index(range_role r) -> std::size_t {
  return r == range_role::external ? 0 : static_cast<std::size_t>(r);  // a movable network draws from the network pools
}

// The rules a move can fix by itself: the range breaks them wherever it is.
auto fixed_by_moving(rule r) -> bool {
  switch (r) {
    case rule::reserved_range:
    case rule::documentation_range:
    case rule::shared_address_space:
    case rule::docker_bridge:
    case rule::public_range:
    case rule::platform_reserved:
    case rule::well_known_default:
    case rule::service_range_too_large:
    case rule::service_range_too_small:
    case rule::pod_capacity:
    case rule::node_mask_too_large: return true;
    default: return false;
  }
}

auto is_pair_rule(rule r) -> bool {
  return r == rule::overlap || r == rule::overlap_internal || r == rule::latent_overlap;
}

// Returns ceil(log2(n)) for n >= 1.
auto bits_for(std::uint64_t n) -> int {
  int bits = 0;
  while ((std::uint64_t{1} << bits) < n && bits < 63) ++bits;
  return bits;
}

// The settings plan() works with: the file's, overridden or extended by the options'.
struct effective_settings {
  std::vector<prefix> pools[3];
  bool pools_default[3] = {false, false, false};  // the RFC 1918 / fd00::/8 default
  std::vector<named_pool> named_pools;
  std::vector<prefix> avoid;
  std::vector<pin_pattern> pins;
  int cost[3];
  bool cost_set[3] = {false, false, false};  // given in the file or as a flag: overrides the in-place kinds' base
  std::vector<cost_override> overrides;      // the file's, then the flags' (a later one wins a tie)
  double headroom;
};

auto merge_settings(const plan_settings& file, const plan_settings& flags) -> effective_settings {
  effective_settings s;
  for (std::size_t r = 0; r < 3; ++r) {
    s.pools[r] = !flags.pools[r].empty() ? flags.pools[r] : file.pools[r];
    if (s.pools[r].empty()) {
      s.pools_default[r] = true;
      // RFC 1918, and the unique-local space that IPv6 clusters use.
      for (auto text : {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fd00::/8"}) s.pools[r].push_back(prefix::parse(text));
    }
    s.cost[r] = flags.cost[r].value_or(file.cost[r].value_or(default_cost[r]));
    s.cost_set[r] = flags.cost[r].has_value() || file.cost[r].has_value();
  }
  s.named_pools = !flags.named_pools.empty() ? flags.named_pools : file.named_pools;
  s.overrides = file.cost_overrides;
  s.overrides.insert(s.overrides.end(), flags.cost_overrides.begin(), flags.cost_overrides.end());
  s.avoid = file.avoid;
  s.avoid.insert(s.avoid.end(), flags.avoid.begin(), flags.avoid.end());
  s.pins = file.pins;
  s.pins.insert(s.pins.end(), flags.pins.begin(), flags.pins.end());
  s.headroom = flags.headroom.value_or(file.headroom.value_or(default_headroom));
  return s;
}

class planner {
 public:
  planner(const fleet& f, const catalog& c, const plan_options& o)
      : c_(c), options_(o), settings_(merge_settings(f.plan, o.settings)), working_(f) {
    for (const auto& conn : o.connect) working_.connections.push_back(conn);
  }

  auto run() -> plan_result {
    // One finding per overlapping pair, held as a record: their text is made
    // only for the few the changes show.
    findings_ = detail::check_compact(working_, c_, options_.check);
    if (options_.triage) findings_.triage(working_, *options_.triage);
    mark_pins();
    decide();  // finds the shared VPCs first
    describe_reasons();
    size_changes();
    allocate();
    follow_dependent_defaults();
    fix_dns();
    follow_routes();
    finish();
    return std::move(result_);
  }

 private:
  struct move {
    std::uint32_t range;
    int length;           // the new length
    std::uint32_t operation;  // index into result_.operations
  };
  struct follow {
    std::uint32_t range;      // a member's network range
    std::uint32_t vpc_range;  // the VPC range it lies in, which moves
    std::uint32_t operation;
  };
  struct growth {
    std::uint32_t owner;
    ip_version version;
    std::uint32_t operation;
    std::optional<std::uint32_t> takes_over;  // pod-withdraw: the pod range whose pods it takes, which stays
  };
  // A pod range grown in place into the larger prefix that contains it.
  struct expansion {
    std::uint32_t range;
    prefix to;
  };

  // The reasons a change shows: the first few findings it resolves, then a count.
  static constexpr std::size_t shown_reasons = 3;
  auto reasons_of(std::uint32_t range) const -> std::vector<std::string> {
    std::vector<std::string> out;
    const auto& ids = reasons_[range];
    for (std::size_t k = 0; k < ids.size() && k < shown_reasons; ++k) out.push_back(findings_.message(ids[k]));
    if (ids.size() > shown_reasons) out.push_back("and " + std::to_string(ids.size() - shown_reasons) + " more findings");
    return out;
  }

  // Where a range the plan derives came from (plan_change::source), said only
  // where the plan has named pools, as for the ranges it allocates.
  auto derived_source(std::string text) const -> std::string {
    return settings_.named_pools.empty() ? std::string() : std::move(text);
  }

  // Gives the overlap findings that reasons_of() shows the text check() left out.
  void describe_reasons() {
    if (!options_.check.describe) return;
    std::vector<std::uint32_t> shown;
    for (const auto& ids : reasons_) {
      for (std::size_t k = 0; k < ids.size() && k < shown_reasons; ++k) shown.push_back(ids[k]);
    }
    findings_.describe(working_, c_, shown);
  }

  // A range is pinned by a pattern, or because it is a network's and the
  // network is not movable.
  void mark_pins() {
    auto [pinned, used] = detail::match_pins(settings_.pins, working_);
    pinned_ = std::move(pinned);
    for (std::uint32_t k = 0; k < working_.ranges.size(); ++k) {
      const auto& o = working_.owners[working_.ranges[k].owner];
      if (o.kind == owner_kind::network && !o.movable) pinned_[k] = true;
    }
    for (std::size_t p = 0; p < settings_.pins.size(); ++p) {
      if (used[p]) continue;
      result_.diagnostics.push_back({severity::warning, diag::unused_pin,
                                     "pin '" + settings_.pins[p].pattern + "' matches no range of the fleet",
                                     settings_.pins[p].where, {}});
    }
  }

  // An operation the plan may choose: its kind, owners, the ranges it moves, the
  // ranges that follow a moved VPC range (members of a shared VPC), and the pod
  // space it grows.
  struct candidate {
    const operation_kind* kind = nullptr;
    std::vector<std::uint32_t> owners;
    std::vector<std::uint32_t> ranges;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> follows;  // (member range, VPC range it lies in)
    std::vector<std::uint32_t> grows;                               // the clusters whose pod space it grows
    operation_cost cost;
    std::uint32_t extra_ranges = 0;  // an in-place operation's ranges past one: on a tie, fewer win
    std::optional<expansion> expands = std::nullopt;  // how it grows the pod space in `grows` in place (pod-expand)
    // pod-withdraw: the pod range whose pods move to a new range and which the
    // connections `withdrawn_on` stop carrying; it stays its cluster's.
    std::optional<std::uint32_t> withdraws = std::nullopt;
    std::vector<std::uint32_t> withdrawn_on = {};
  };

  // The cheapest kind of the given scope that applies to o (the earlier on a tie), with its cost;
  // for a range of version `family`, only kinds that serve that version.
  auto best_kind(operation_scope scope, const owner& o, std::optional<ip_version> family = std::nullopt) const
      -> std::optional<std::pair<const operation_kind*, operation_cost>> {
    std::optional<std::pair<const operation_kind*, operation_cost>> best;
    const auto pods = c_.pod_numbering_of(o);
    for (const auto& k : c_.operations) {
      if (k.changes != scope || !applies(k, o, pods)) continue;
      if (family && !serves_family(k, *family)) continue;
      auto cost = cost_of(k, o, base_override(k, o));
      if (!best || cost.total < best->second.total) best = std::pair(&k, std::move(cost));
    }
    return best;
  }

  // The base cost settings give kind k on owner o, the most specific first: an
  // owner's over a distribution's over any owner's; within each, the kind by name
  // over its role (network, pods, services: the in-place kinds) over `all` (the
  // three roles) over `*` (every kind). The per-role `cost` is the role for any
  // owner. Equally specific: the later wins (the flags come after the file).
  auto base_override(const operation_kind& k, const owner& o) const -> std::optional<cost_base> {
    const char* role = k.changes == operation_scope::services ? "services"
                       : k.changes == operation_scope::pods   ? "pods"
                       : k.changes == operation_scope::network ? "network"
                                                              : nullptr;
    std::optional<cost_base> best;
    int best_rank = 100;
    auto consider = [&](int rank, int cost, std::string setting) {
      if (rank > best_rank) return;
      best_rank = rank;
      best = cost_base{cost, std::move(setting)};
    };
    for (const auto& x : settings_.overrides) {
      int scope = 2;
      if (x.of == cost_override::scope::owner) {
        if (x.name != o.name) continue;
        scope = 0;
      } else if (x.of == cost_override::scope::distribution) {
        if (o.kind != owner_kind::cluster || x.name != o.type) continue;
        scope = 1;
      }
      int what = x.what == k.name                ? 0
                 : role && x.what == role         ? 1
                 : role && x.what == "all"        ? 2
                 : x.what == "*"                  ? 3
                                                  : -1;
      if (what >= 0) consider(scope * 4 + what, x.cost, cost_key(x));
    }
    auto r = k.changes == operation_scope::services ? 2 : k.changes == operation_scope::pods ? 1 : 0;
    if (role && settings_.cost_set[r]) consider(2 * 4 + 1, settings_.cost[r], role);
    return best;
  }

  // Offers the pod-withdraw kind for pod range k of cluster `index` where it applies:
  // k's every wanted finding is a route meeting it (none that only moving fixes),
  // and each connection that carries k can stop carrying it (not a peering: GCP
  // peerings always exchange private subnet ranges, route-gcp-peering). The new range takes
  // the pods, so it clears a lack of pod space too. Returns its cost, 0 if not offered.
  auto add_withdraw_candidate(std::uint32_t index, std::uint32_t k, bool capacity_needed) -> int {
    const auto& r = working_.ranges[k];
    if (must_move_[k] || reasons_[k].empty()) return 0;
    auto kind = best_kind(operation_scope::pod_withdraw, working_.owners[index], r.cidr.version());
    if (!kind) return 0;
    std::vector<std::uint32_t> carriers;
    for (auto c : connections_->of(index)) {
      const auto& conn = working_.connections[c];
      if (conn.translates() || !conn.routes.has(range_role::pods) || !conn.carries(r.cidr)) continue;
      if (conn.peers()) return 0;
      carriers.push_back(c);
    }
    if (carriers.empty()) return 0;
    candidate op{kind->first, {index}, {}, {}, {}, kind->second};
    op.withdraws = k;
    op.withdrawn_on = std::move(carriers);
    if (capacity_needed && r.cidr.version() == capacity_version_[index]) op.grows = {index};
    candidates_.push_back(std::move(op));
    return kind->second.total;
  }

  // Every operation the plan may choose, per owner in fleet order.
  void make_candidates(const std::vector<bool>& capacity_needed) {
    const auto n = static_cast<std::uint32_t>(working_.ranges.size());
    no_in_place_.assign(n, false);
    for (std::uint32_t index = 0; index < working_.owners.size(); ++index) {
      const auto& o = working_.owners[index];
      if (o.kind == owner_kind::network) {
        if (!members_->members(index).empty()) {
          add_vpc_candidate(index, capacity_needed);
          continue;
        }
        auto kind = best_kind(operation_scope::network, o);
        if (!kind) continue;
        for (auto k : o.ranges) {
          if (pinned_[k] || !working_.ranges[k].is_plain()) continue;  // a route follows its destination
          candidates_.push_back({kind->first, {index}, {k}, {}, {}, kind->second});
        }
        continue;
      }
      // A cluster: one in-place operation per range where a kind applies, pod space, a replacement.
      const std::size_t first = candidates_.size();
      int dearest = 0;
      for (auto k : o.ranges) {
        const auto& r = working_.ranges[k];
        if (pinned_[k] || !r.is_plain()) continue;  // translated ranges are the connection's to choose
        if (members_->holder_of(k)) continue;  // moves with the network the cluster runs in
        auto scope = r.role == range_role::services ? operation_scope::services
                     : r.role == range_role::pods   ? operation_scope::pods
                                                    : operation_scope::network;
        if (scope == operation_scope::pods) dearest = std::max(dearest, add_withdraw_candidate(index, k, capacity_needed[index]));
        auto kind = best_kind(scope, o, r.cidr.version());
        if (!kind) {
          no_in_place_[k] = true;
          continue;
        }
        dearest = std::max(dearest, kind->second.total);
        candidates_.push_back({kind->first, {index}, {k}, {}, {}, kind->second});
        // A pod range moved is sized for the cluster's nodes: it clears a lack of pod space too,
        // if it is of the IP version that lacks it (a dual-stack cluster short of IPv4 space
        // gains nothing from a larger IPv6 range).
        if (scope == operation_scope::pods && capacity_needed[index] && r.cidr.version() == capacity_version_[index]) {
          candidates_.back().grows = {index};
        }
      }
      if (capacity_needed[index]) {
        if (auto kind = best_kind(operation_scope::pod_space, o, capacity_version_[index])) {
          dearest = std::max(dearest, kind->second.total);
          candidates_.push_back({kind->first, {index}, {}, {}, {index}, kind->second});
        }
        auto kind = best_kind(operation_scope::pod_expand, o, capacity_version_[index]);
        if (auto grown = kind ? expansion_of(index) : std::nullopt) {
          dearest = std::max(dearest, kind->second.total);
          candidates_.push_back({kind->first, {index}, {}, {}, {index}, kind->second});
          candidates_.back().expands = grown;
        }
      }
      add_range_sets(first);
      if (auto kind = best_kind(operation_scope::cluster, o)) {
        candidate replace{kind->first, {index}, {}, {}, {}, kind->second};
        bool possible = true;
        for (auto k : o.ranges) {
          if (!working_.ranges[k].is_plain()) continue;  // the connection's translated ranges stay
          if (members_->holder_of(k)) continue;  // stays in the network the cluster runs in
          if (kept_by_replacement(index, k, capacity_needed[index])) continue;
          if (pinned_[k]) possible = false;
          replace.ranges.push_back(k);
        }
        if (capacity_needed[index]) replace.grows = {index};
        if (possible && !replace.ranges.empty()) {
          // A replacement costs more than any in-place change of the cluster.
          if (replace.cost.total <= dearest) {
            replace.cost.counted.push_back("raised to " + std::to_string(dearest + 1) +
                                           ": more than the dearest in-place change of " + o.name);
            replace.cost.total = dearest + 1;
          }
          candidates_.push_back(std::move(replace));
        }
      }
    }
    (void)n;
  }

  // How cluster o's pod space grows in place: its one pod range of the version
  // that lacks space, grown into the prefix that contains it and holds the
  // nodes (aks-pod-expand: a superset containing the whole range, one pod CIDR,
  // never several). None where the range is pinned, or where the grown prefix
  // meets anything but the range itself: another range of the fleet (as it is
  // now, even one the plan moves away), a well-known or reserved block the range
  // is not in already, its distribution's reserved space, or the avoided space.
  auto expansion_of(std::uint32_t owner_index) const -> std::optional<expansion> {
    const auto v = capacity_version_.at(owner_index);
    const auto& o = working_.owners[owner_index];
    std::optional<std::uint32_t> range;
    for (auto k : o.ranges) {
      const auto& r = working_.ranges[k];
      if (r.role != range_role::pods || r.cidr.version() != v) continue;
      if (range) return std::nullopt;
      range = k;
    }
    if (!range || pinned_[*range] || !working_.ranges[*range].is_plain()) return std::nullopt;
    const auto& old = working_.ranges[*range].cidr;
    const int length = pod_length_needed(owner_index, *range, v);
    if (length >= old.length()) return std::nullopt;
    const auto to = old.supernet(length);
    for (std::uint32_t k = 0; k < working_.ranges.size(); ++k) {
      if (k != *range && working_.ranges[k].cidr.overlaps(to)) return std::nullopt;
    }
    for (const auto& block : c_.blocks) {
      // A block the range already lies in was judged with it; growing adds none of its kind.
      if (block.cidr.overlaps(to) && !block.cidr.overlaps(old) && !wide_default(block)) return std::nullopt;
    }
    if (const auto* d = c_.find_distribution(o.type)) {
      for (const auto& p : d->reserved) {
        if (p.overlaps(to)) return std::nullopt;
      }
    }
    for (const auto& p : settings_.avoid) {
      if (p.overlaps(to)) return std::nullopt;
    }
    return expansion{*range, to};
  }

  // Defaults wider than a /12 (Cilium's 10.0.0.0/8) forbid no new range: they would forbid whole pools.
  static auto wide_default(const catalog_block& block) -> bool {
    return block.rule == "well-known-default" && block.cidr.length() < 12 && block.cidr.version() == ip_version::v4;
  }

  // Whether a replacement of cluster o keeps range k: only a range nothing asks to
  // change (no finding, no lack of pod space of its version) whose reuse cannot
  // overlap while old and new cluster run side by side (blend-mirror): the
  // network, as the replacement is built in the same VPC and subnets
  // (replace-scoped); pods that take their addresses from that network, which
  // hands each address out once; and the service range where the distribution
  // lets two clusters hold one (shares_service_range) and no connection carries
  // it, as only the cluster's own nodes route it (svc-virtual). Another pod
  // range of the cluster's own, or a service range no source lets two clusters
  // share, is new.
  auto kept_by_replacement(std::uint32_t owner_index, std::uint32_t k, bool capacity_needed) const -> bool {
    const auto& r = working_.ranges[k];
    if (!reasons_[k].empty()) return false;
    if (r.role == range_role::network) return true;
    if (r.role == range_role::services) {
      const auto p = c_.profile_of(working_.owners[owner_index]);
      const bool shared = p.distribution && p.distribution->shares_service_range.known &&
                          p.distribution->shares_service_range.value;
      return shared && !carried_anywhere(owner_index, r);
    }
    if (r.role != range_role::pods) return false;
    if (capacity_needed && r.cidr.version() == capacity_version_.at(owner_index)) return false;
    return c_.pod_numbering_of(working_.owners[owner_index]).addresses == address_source::network;
  }

  // Whether a connection of owner `index` carries range r to another member.
  auto carried_anywhere(std::uint32_t index, const fleet_range& r) const -> bool {
    for (auto c : connections_->of(index)) {
      const auto& conn = working_.connections[c];
      if (conn.routes.has(r.role) && conn.carries(r.cidr)) return true;
    }
    return false;
  }

  // One in-place operation moves any set of a cluster's ranges of its role at one
  // cost: one IPPool swap or pool entry and one roll of the nodes, one ServiceCIDR,
  // one --cluster-cidr change, one new VPC. Offered for each set of two or more
  // ranges that must change (only all of them past four), from the one-range
  // candidates at first.. ; a tie goes to fewer ranges, so no healthy range moves.
  void add_range_sets(std::size_t first) {
    std::map<operation_scope, std::vector<std::size_t>> by_scope;
    for (std::size_t j = first; j < candidates_.size(); ++j) {
      const auto& op = candidates_[j];
      if (op.ranges.size() == 1 && !reasons_[op.ranges.front()].empty()) by_scope[op.kind->changes].push_back(j);
    }
    for (const auto& entry : by_scope) {
      const auto& singles = entry.second;  // not a structured binding: clang 14 cannot capture one
      auto add = [&](auto&& in_set) {
        auto op = candidates_[singles.front()];
        op.ranges.clear();
        for (std::size_t b = 0; b < singles.size(); ++b) {
          if (in_set(b)) op.ranges.push_back(candidates_[singles[b]].ranges.front());
        }
        op.extra_ranges = static_cast<std::uint32_t>(op.ranges.size() - 1);
        candidates_.push_back(std::move(op));
      };
      if (singles.size() > 4) {
        add([](std::size_t) { return true; });
        continue;
      }
      for (std::uint32_t mask = 3; mask < (1u << singles.size()); ++mask) {
        if (std::popcount(mask) >= 2) add([mask](std::size_t b) { return (mask >> b & 1) != 0; });
      }
    }
  }

  // One network operation for a VPC and every cluster in it: the VPC moves to a
  // new block and each member's network keeps its place inside it; a member that
  // cannot change its VPC (EKS, GKE, AKS, kops) is replaced into the new one.
  void add_vpc_candidate(std::uint32_t vpc, const std::vector<bool>& capacity_needed) {
    const auto& v = working_.owners[vpc];
    const operation_kind* kind = c_.find_operation("new-vpc");
    if (!kind) return;
    candidate op;
    op.kind = kind;
    op.owners.push_back(vpc);
    auto base = base_override(*kind, v);
    op.cost.total = base ? base->cost : kind->cost;
    op.cost.counted.push_back("base " + std::to_string(op.cost.total) + " for the new VPC of " + v.name +
                              (base ? " set by cost " + base->setting + " instead of the catalog's " + std::to_string(kind->cost)
                                    : std::string()));
    for (auto k : v.ranges) {
      if (!working_.ranges[k].is_plain()) continue;  // its routes follow their destinations
      if (pinned_[k]) return;  // a VPC that is not ours to move (mark it movable: true)
      op.ranges.push_back(k);
    }
    for (auto m : members_->members(vpc)) {
      const auto& o = working_.owners[m];
      op.owners.push_back(m);
      if (c_.offers(*kind, o)) {
        auto scaled = cost_of(*kind, o, cost_base{0, {}});
        op.cost.total += scaled.total;
        for (std::size_t j = 1; j < scaled.counted.size(); ++j) op.cost.counted.push_back(scaled.counted[j] + " in " + o.name);
        for (auto k : o.ranges) {
          if (auto holder = members_->holder_of(k)) op.follows.emplace_back(k, *holder);
        }
        continue;
      }
      auto replace = best_kind(operation_scope::cluster, o);
      if (!replace) return;
      op.cost.total += replace->second.total;
      op.cost.counted.push_back("+" + std::to_string(replace->second.total) + " for " + o.name + "'s " +
                                replace->first->name + " (" + o.type + " cannot change its VPC)");
      if (capacity_needed[m]) op.grows.push_back(m);  // its new pod ranges are sized for its nodes
      for (auto k : o.ranges) {
        if (!working_.ranges[k].is_plain()) continue;
        if (pinned_[k]) return;
        if (auto holder = members_->holder_of(k)) {
          op.follows.emplace_back(k, *holder);
        } else {
          op.ranges.push_back(k);
        }
      }
    }
    candidates_.push_back(std::move(op));
  }

  // Chooses the operations: the least total cost such that every error pair has
  // a side an operation moves, and every range that breaks a rule alone is moved
  // (or, for a lack of pod space, the space grown).
  void decide() {
    const auto n = static_cast<std::uint32_t>(working_.ranges.size());
    const auto owners = static_cast<std::uint32_t>(working_.owners.size());
    members_.emplace(working_, c_);
    connections_.emplace(working_);
    reasons_.assign(n, {});
    must_move_.assign(n, false);
    capacity_reasons_.assign(owners, {});
    std::vector<bool> capacity_needed(owners, false);
    // Items: the ranges, then each cluster's pod space.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> constraints;
    for (std::uint32_t index = 0; index < findings_.size(); ++index) {
      const auto id = findings_.id(index);
      const auto ranges = findings_.ranges(index);
      bool wanted = findings_.level(index) == severity::error || (options_.fix_latent && id == rule::latent_overlap);
      if (!wanted) continue;
      if (is_pair_rule(id)) {
        constraints.emplace_back(ranges[0], ranges[1]);
        for (auto k : ranges) {
          reasons_[k].push_back(index);
          must_move_[k] = true;
        }
      } else if (id == rule::route_conflict) {
        // A route meets a range its network routes: that range moves, or stops being carried
        // there. Two routes of one network are the routes' to change: left as a problem.
        auto plain = std::count_if(ranges.begin(), ranges.end(), [&](auto k) { return working_.ranges[k].is_plain(); });
        if (plain != 1) continue;
        auto k = working_.ranges[ranges[0]].is_plain() ? ranges[0] : ranges[1];
        constraints.emplace_back(k, k);
        reasons_[k].push_back(index);
      } else if (id == rule::pod_capacity) {
        auto owner = working_.ranges[ranges[0]].owner;
        capacity_needed[owner] = true;
        capacity_reasons_[owner].push_back(index);
        capacity_version_.emplace(owner, node_capacity(working_, c_, owner).version);  // the version check counted
        constraints.emplace_back(n + owner, n + owner);
      } else if (fixed_by_moving(id)) {
        constraints.emplace_back(ranges[0], ranges[0]);
        reasons_[ranges[0]].push_back(index);
        must_move_[ranges[0]] = true;
      }
    }
    make_candidates(capacity_needed);
    // Weights order choices by cost, then by owners changed, then keep the
    // earlier-declared range in place (an operation on later ranges costs a hair less).
    const auto count = static_cast<std::uint32_t>(candidates_.size());
    const uint128 tie_scale = uint128{n + owners + 1} * (count + 1) + 1;
    const uint128 cost_scale = tie_scale * (uint128{count} * (owners + n + 1) + 1);
    detail::operation_problem problem;
    problem.item_start.assign(n + owners + 1, 0);
    for (std::uint32_t j = 0; j < count; ++j) {
      const auto& op = candidates_[j];
      std::uint32_t first = n + owners;
      for (auto k : op.ranges) first = std::min(first, k);
      for (auto [k, vpc] : op.follows) first = std::min(first, k);
      for (auto g : op.grows) first = std::min(first, n + g);
      problem.weights.push_back(static_cast<uint128>(op.cost.total) * cost_scale + uint128{op.owners.size() + op.extra_ranges} * tie_scale +
                                (n + owners - first));
      for (auto k : op.ranges) ++problem.item_start[k + 1];
      if (op.withdraws) ++problem.item_start[*op.withdraws + 1];
      for (auto [k, vpc] : op.follows) ++problem.item_start[k + 1];
      for (auto g : op.grows) ++problem.item_start[n + g + 1];
    }
    for (std::size_t k = 1; k < problem.item_start.size(); ++k) problem.item_start[k] += problem.item_start[k - 1];
    problem.item_ops.resize(problem.item_start.back());
    auto fill = problem.item_start;
    for (std::uint32_t j = 0; j < count; ++j) {
      const auto& op = candidates_[j];
      for (auto k : op.ranges) problem.item_ops[fill[k]++] = j;
      if (op.withdraws) problem.item_ops[fill[*op.withdraws]++] = j;
      for (auto [k, vpc] : op.follows) problem.item_ops[fill[k]++] = j;
      for (auto g : op.grows) problem.item_ops[fill[n + g]++] = j;
    }
    problem.constraints = std::move(constraints);
    auto choice = detail::choose_operations(problem);
    result_.optimal = choice.optimal;
    std::vector<bool> moving(n, false);
    for (std::uint32_t j = 0; j < count; ++j) {
      if (!choice.chosen[j]) continue;
      const auto& op = candidates_[j];
      auto at = static_cast<std::uint32_t>(result_.operations.size());
      chosen_.push_back(j);
      plan_operation p;
      p.kind = op.kind->name;
      p.scope = op.kind->changes;
      p.owners = op.owners;
      p.cost = op.cost.total;
      p.counted = op.cost.counted;
      result_.operations.push_back(std::move(p));
      for (auto k : op.ranges) {
        if (moving[k]) continue;
        moving[k] = true;
        moved_.push_back({k, working_.ranges[k].cidr.length(), at});
      }
      for (auto [k, vpc] : op.follows) {
        if (moving[k]) continue;
        moving[k] = true;
        follows_.push_back({k, vpc, at});
      }
      if (op.withdraws) {
        // Its pods move to a new range sized for the cluster's nodes; the old range stays, withdrawn.
        const auto& r = working_.ranges[*op.withdraws];
        grown_.push_back({op.owners.front(), r.cidr.version(), at, op.withdraws});
        for (auto c : op.withdrawn_on) result_.operations[at].withdrawals.push_back({c, *op.withdraws, r.cidr});
        continue;
      }
      // Pod space grows in place, or by a new range unless the operation moves (and so resizes) a pod range of that cluster.
      if (op.expands) {
        expanded_.emplace_back(*op.expands, at);
        continue;
      }
      for (auto g : op.grows) {
        bool moves_pods = std::any_of(op.ranges.begin(), op.ranges.end(), [&](auto k) {
          const auto& r = working_.ranges[k];
          return r.role == range_role::pods && r.owner == g && r.cidr.version() == capacity_version_[g];
        });
        if (!moves_pods) grown_.push_back({g, capacity_version_[g], at, std::nullopt});
      }
    }
  }

  // The length each moved range gets: its own, unless capacity needs more or a rule less.
  // A replacement creates its pod range anew, so it is sized for the cluster's nodes
  // (x headroom), not copied from the old one. A service range keeps its length: the
  // catalog does not hold the bounds a managed distribution puts on it.
  void size_changes() {
    for (auto& m : moved_) {
      const auto& r = working_.ranges[m.range];
      const bool replaced = result_.operations[m.operation].scope == operation_scope::cluster;
      if (replaced && r.role == range_role::pods && working_.owners[r.owner].nodes) {
        m.length = pod_length_needed(r.owner, m.range, r.cidr.version());
      }
      m.length = fit_length(r.owner, r.role, r.cidr.version(), m.length, m.range);
    }
  }

  // Adjusts a length to what the rules allow: a service range within kube-apiserver's
  // bounds, a pod range that holds the cluster's nodes (and at least one node block).
  auto fit_length(std::uint32_t owner_index, range_role role, ip_version v, int length,
                  std::optional<std::uint32_t> moving) const -> int {
    int width = bit_width(v);
    if (role == range_role::services) {
      length = std::max(length, v == ip_version::v4 ? 12 : 108);  // kube-apiserver's largest
      return std::min(length, width - 3);                          // and smallest (8 addresses)
    }
    if (role == range_role::pods && working_.owners[owner_index].kind == owner_kind::cluster) {
      return std::min(length, pod_length_needed(owner_index, moving, v));
    }
    return length;
  }

  // The longest pod prefix that, with the cluster's other pod ranges of the version
  // that counts, holds nodes x headroom node blocks, and holds at least one block.
  auto pod_length_needed(std::uint32_t owner_index, std::optional<std::uint32_t> moving, ip_version v) const -> int {
    const auto& o = working_.owners[owner_index];
    int mask = c_.node_cidr_mask(o, v);
    int length = mask;
    if (!o.nodes) return length;
    auto wanted = static_cast<std::uint64_t>(std::ceil(static_cast<double>(*o.nodes) * settings_.headroom));
    std::uint64_t others = 0;
    for (auto k : o.ranges) {
      const auto& r = working_.ranges[k];
      if (r.role != range_role::pods || r.cidr.version() != v || (moving && k == *moving)) continue;
      bool moves = std::any_of(moved_.begin(), moved_.end(), [&](const move& m) { return m.range == k; });
      if (!moves && mask >= r.cidr.length()) others += std::uint64_t{1} << std::min(62, mask - r.cidr.length());
    }
    if (wanted > others) length = mask - bits_for(wanted - others);
    return std::max(length, 0);
  }

  // Where new ranges may not go: every range of the fleet (so each move is
  // transition-safe), the prefixes a connection withdraws (a new range there
  // would not be carried where its owner's other ranges are), the catalog's
  // reserved blocks, the well-known defaults that would collide again, and the
  // avoided space.
  auto forbidden_space() const -> address_set {
    address_set_builder b;
    for (const auto& r : working_.ranges) b.add(r.cidr);
    for (const auto& c : working_.connections) {
      for (const auto& p : c.withdrawn) b.add(p);
    }
    for (const auto& block : c_.blocks) {
      if (wide_default(block)) continue;
      b.add(block.cidr);
    }
    for (const auto& d : c_.distributions) {
      for (const auto* list : {&d.network, &d.pods, &d.services, &d.services_instead, &d.reserved}) {
        for (const auto& p : *list) b.add(p);
      }
    }
    for (const auto& p : settings_.avoid) b.add(p);
    return b.build();
  }

  // Allocates every move and request, largest first, by best fit from the role's pools.
  void allocate() {
    auto forbidden = forbidden_space();
    // The space of the named pools is theirs: the role pools give none of it
    // to an owner no named pool serves.
    address_set_builder named_space;
    for (const auto& pool : settings_.named_pools) {
      for (const auto& p : pool.cidrs) named_space.add(p);
    }
    auto role_forbidden = forbidden | named_space.build();
    std::vector<prefix_allocator> allocators;
    for (const auto& pools : settings_.pools) {
      address_set_builder b;
      for (const auto& p : pools) b.add(p);
      allocators.emplace_back(b.build() - role_forbidden);
    }
    for (const auto& pool : settings_.named_pools) {
      address_set_builder b;
      for (const auto& p : pool.cidrs) b.add(p);
      allocators.emplace_back(b.build() - forbidden);
    }
    struct wanted {
      int length;
      ip_version version;
      range_role role;
      std::optional<std::uint32_t> move, request, grow;
    };
    std::vector<wanted> all;
    for (std::uint32_t k = 0; k < moved_.size(); ++k) {
      const auto& r = working_.ranges[moved_[k].range];
      all.push_back({moved_[k].length, r.cidr.version(), r.role, k, std::nullopt, std::nullopt});
    }
    for (std::uint32_t q = 0; q < working_.requests.size(); ++q) {
      const auto& req = working_.requests[q];
      all.push_back({request_length(req), req.version, req.role, std::nullopt, q, std::nullopt});
    }
    for (std::uint32_t g = 0; g < grown_.size(); ++g) {
      // The added range holds what the cluster's other pod ranges lack; one that takes over
      // a range's pods holds them all (the old length where the fleet does not say its nodes).
      const auto& x = grown_[g];
      int length = x.takes_over && !working_.owners[x.owner].nodes
                       ? working_.ranges[*x.takes_over].cidr.length()
                       : pod_length_needed(x.owner, x.takes_over, x.version);
      length = fit_length(x.owner, range_role::pods, x.version, length, x.takes_over);
      all.push_back({length, grown_[g].version, range_role::pods, std::nullopt, std::nullopt, g});
    }
    // A range grown in place takes its own neighbourhood (free, as expansion_of() found) before any allocation.
    for (const auto& [x, operation] : expanded_) {
      for (auto& a : allocators) a.reserve(x.to);
      auto change = range_change(x.range, x.to, operation);
      change.reasons = messages(capacity_reasons_[change.owner]);
      change.source = derived_source("grown in place into the free space beside " + change.from.to_string());
      result_.changes.push_back(std::move(change));
    }
    // Larger blocks first keeps the space compact; then moves before requests, in declaration order.
    std::stable_sort(all.begin(), all.end(), [](const wanted& a, const wanted& b) { return a.length < b.length; });
    std::map<std::uint32_t, prefix> moved_to;  // range -> its new prefix
    // The ranges that move away (their old place is no neighbour to stay next to).
    std::set<std::uint32_t> leaving;
    for (const auto& m : moved_) leaving.insert(m.range);
    for (const auto& x : follows_) leaving.insert(x.range);
    std::map<std::uint32_t, std::vector<std::pair<prefix, range_role>>> placed;  // owner -> its new ranges so far
    for (const auto& w : all) {
      std::uint32_t owner = w.move    ? working_.ranges[moved_[*w.move].range].owner
                            : w.grow  ? grown_[*w.grow].owner
                                      : working_.requests[*w.request].owner;
      auto pool = named_pool_for(owner, w.role, w.version);
      std::optional<prefix> got;
      std::string source;
      if (pool) {
        auto near = neighbours_in(owner, *pool, w.version, leaving, placed[owner]);
        auto taken = allocators[3 + *pool].take_near(w.version, w.length, near.first);
        if (taken) {
          got = taken->first;
          source = "pool " + settings_.named_pools[*pool].name;
          if (taken->second < near.first.size()) {
            const auto& n = near.first[taken->second];
            bool adjacent = got->last().next() == n.network() || n.last().next() == got->network();
            source += std::string(adjacent ? ", adjacent to " : ", nearest to ") + near.second[taken->second];
          }
        }
      } else {
        got = allocators[role_index(w.role)].take(w.version, w.length);
        if (!settings_.named_pools.empty()) {
          auto r = role_index(w.role);
          source = (settings_.pools_default[r] ? std::string("default pools")
                                               : "role pool " + std::string(to_string(static_cast<range_role>(r)))) +
                   " (no named pool matches)";
        }
      }
      if (!got) {
        exhausted(w.role, w.version, w.length, w.move ? std::optional(moved_[*w.move].range) : std::nullopt, w.request,
                  w.grow ? std::optional(grown_[*w.grow].owner) : std::nullopt, pool);
        continue;
      }
      for (auto& a : allocators) a.reserve(*got);
      placed[owner].emplace_back(*got, w.role);
      plan_change change;
      change.to = *got;
      change.role = w.role;
      if (w.move) {
        const auto& m = moved_[*w.move];
        change = range_change(m.range, *got, m.operation);
        change.reasons = reasons_of(m.range);
        moved_to.emplace(m.range, *got);
      } else if (w.grow) {
        const auto& g = grown_[*w.grow];
        change.owner = g.owner;
        change.operation = g.operation;
        if (g.takes_over) {
          change.from = working_.ranges[*g.takes_over].cidr;
          change.reasons = reasons_of(*g.takes_over);
        } else {
          change.reasons = messages(capacity_reasons_[g.owner]);
        }
      } else {
        const auto& req = working_.requests[*w.request];
        change.owner = req.owner;
        change.request = w.request;
        std::string given = "/" + std::to_string(change.to.length());
        if (!req.length) {
          change.reasons.push_back("a new range was requested (auto: " + given + ")");
        } else {
          std::string asked = "/" + std::to_string(*req.length);
          change.reasons.push_back("a new " + asked + " range was requested" +
                                   (asked == given ? std::string() : ", and " + given + " is what its rules need"));
        }
      }
      change.source = std::move(source);
      result_.changes.push_back(std::move(change));
    }
    // A member's network keeps its place in the VPC that moved.
    for (const auto& x : follows_) {
      auto it = moved_to.find(x.vpc_range);
      if (it == moved_to.end()) continue;  // the VPC found no space: reported with it
      const auto& old_vpc = working_.ranges[x.vpc_range].cidr;
      const auto& r = working_.ranges[x.range];
      auto offset = r.cidr.network().bits() - old_vpc.network().bits();
      auto change = range_change(
          x.range, prefix::containing(address::from_bits(r.cidr.version(), it->second.network().bits() + offset), r.cidr.length()),
          x.operation);
      change.reasons = reasons_of(x.range);
      const auto& vpc = working_.owners[working_.ranges[x.vpc_range].owner].name;
      if (change.reasons.empty()) change.reasons.push_back("moves with its VPC " + vpc);
      change.source = derived_source("the same place in its VPC " + vpc + "'s new range " + it->second.to_string());
      result_.changes.push_back(std::move(change));
    }
  }

  // The named pool a new range of `role` and version v for owner k comes from: the most
  // specific that serves it (most `for` keys), the first of equals; nullopt
  // when none does (the role's pools then serve it).
  // A pool serves only the IP versions of its CIDRs.
  auto named_pool_for(std::uint32_t k, range_role role, ip_version v) const -> std::optional<std::size_t> {
    std::optional<std::size_t> best;
    const auto& pools = settings_.named_pools;
    for (std::size_t p = 0; p < pools.size(); ++p) {
      if (!pool_serves(pools[p], working_.owners[k], role)) continue;
      const auto& cidrs = pools[p].cidrs;
      if (std::none_of(cidrs.begin(), cidrs.end(), [&](const prefix& c) { return c.version() == v; })) continue;
      if (!best || pools[p].selector.specificity() > pools[*best].selector.specificity()) best = p;
    }
    return best;
  }

  // The ranges a new range of owner k should sit next to in named pool p, and
  // how the output names each: the owner's ranges in the pool that stay, its
  // new ones placed so far, and the ranges of the network a cluster runs in.
  auto neighbours_in(std::uint32_t k, std::size_t p, ip_version v, const std::set<std::uint32_t>& leaving,
                     const std::vector<std::pair<prefix, range_role>>& placed) const
      -> std::pair<std::vector<prefix>, std::vector<std::string>> {
    std::pair<std::vector<prefix>, std::vector<std::string>> out;
    const auto& cidrs = settings_.named_pools[p].cidrs;
    auto in_pool = [&](const prefix& x) {
      return x.version() == v && std::any_of(cidrs.begin(), cidrs.end(), [&](const prefix& c) { return c.overlaps(x); });
    };
    const auto& o = working_.owners[k];
    std::string whose = "the " + std::string(to_string(o.kind)) + "'s ";
    for (auto r : o.ranges) {
      const auto& x = working_.ranges[r];
      if (!x.is_plain() || leaving.count(r) || !in_pool(x.cidr)) continue;
      out.first.push_back(x.cidr);
      out.second.push_back(whose + working_.role_name(x) + " " + x.cidr.to_string());
    }
    for (const auto& [x, role] : placed) {
      if (!in_pool(x)) continue;
      out.first.push_back(x);
      out.second.push_back(whose + "new " + std::string(to_string(role)) + " " + x.to_string());
    }
    if (o.kind == owner_kind::cluster && o.runs_in_owner) {
      const auto& n = working_.owners[*o.runs_in_owner];
      for (auto r : n.ranges) {
        const auto& x = working_.ranges[r];
        if (!x.is_plain() || leaving.count(r) || !in_pool(x.cidr)) continue;
        out.first.push_back(x.cidr);
        out.second.push_back("the network it runs in, " + n.name + " " + x.cidr.to_string());
      }
    }
    return out;
  }

  // The change of range k to `to` by operation op, its reasons yet to say.
  auto range_change(std::uint32_t k, const prefix& to, std::uint32_t op) const -> plan_change {
    const auto& r = working_.ranges[k];
    plan_change change;
    change.owner = r.owner;
    change.role = r.role;
    change.range = k;
    change.from = r.cidr;
    change.to = to;
    change.operation = op;
    return change;
  }

  // A default that depends on where a cluster's network lies (the catalog's
  // services_if_network_in: EKS picks another service range in a 10/8 VPC) is
  // derived again from the network the plan gives the cluster: where it
  // differs, the service range follows, in the operation that moves the
  // network (none for a network requested: the cluster is yet to be created).
  // finish() then checks the fleet with it.
  void follow_dependent_defaults() {
    std::map<std::uint32_t, std::vector<std::uint32_t>> network_changes;  // owner -> its network changes
    for (std::uint32_t k = 0; k < result_.changes.size(); ++k) {
      if (result_.changes[k].role == range_role::network) network_changes[result_.changes[k].owner].push_back(k);
    }
    std::vector<plan_change> follows;
    for (const auto& [index, changes] : network_changes) {
      const auto& o = working_.owners[index];
      if (o.kind != owner_kind::cluster) continue;
      std::vector<prefix> network;  // as planned
      for (auto k : o.ranges) {
        const auto& r = working_.ranges[k];
        if (r.role != range_role::network || !r.is_plain()) continue;
        auto moved = std::find_if(changes.begin(), changes.end(), [&](auto c) { return result_.changes[c].range == k; });
        network.push_back(moved == changes.end() ? r.cidr : result_.changes[*moved].to);
      }
      for (auto c : changes) {
        if (result_.changes[c].request) network.push_back(result_.changes[c].to);
      }
      auto services = default_services(c_, o, network);
      for (auto k : o.ranges) {
        const auto& r = working_.ranges[k];
        if (r.role != range_role::services || r.origin != range_origin::distribution_default) continue;
        bool moves = std::any_of(result_.changes.begin(), result_.changes.end(), [&](const plan_change& x) { return x.range == k; });
        auto now = std::find_if(services.begin(), services.end(), [&](const prefix& p) { return p.version() == r.cidr.version(); });
        if (moves || now == services.end() || *now == r.cidr) continue;
        plan_change change;
        change.owner = index;
        change.role = range_role::services;
        change.range = k;
        change.from = r.cidr;
        change.to = *now;
        change.operation = result_.changes[changes.front()].operation;
        change.created = !change.operation;  // the network fills a request: the cluster is created with it
        change.reasons.push_back(o.type + "'s service default for a network in " +
                                 c_.find_distribution(o.type)->services_if_network_in->to_string() +
                                 ", where the plan puts the network of " + o.name);
        change.source = derived_source(o.type + "'s service default for the cluster's new network");
        rederived_.push_back(k);
        follows.push_back(std::move(change));
      }
    }
    for (auto& c : follows) result_.changes.push_back(std::move(c));
  }

  auto messages(const std::vector<std::uint32_t>& ids) const -> std::vector<std::string> {
    std::vector<std::string> out;
    for (std::size_t k = 0; k < ids.size() && k < shown_reasons; ++k) out.push_back(findings_.message(ids[k]));
    if (ids.size() > shown_reasons) out.push_back("and " + std::to_string(ids.size() - shown_reasons) + " more findings");
    return out;
  }

  // A requested size, or for `auto` a sensible one, then fitted to the rules like a move.
  auto request_length(const range_request& q) const -> int {
    bool v4 = q.version == ip_version::v4;
    int length = v4 ? 16 : 48;  // network, and the start for services
    if (q.length) {
      length = *q.length;
    } else if (q.role == range_role::pods) {
      length = pod_length_needed(q.owner, std::nullopt, q.version);
    } else if (q.role == range_role::services) {
      length = v4 ? 16 : 112;
    }
    return fit_length(q.owner, q.role, q.version, length, std::nullopt);
  }

  void exhausted(range_role role, ip_version v, int length, std::optional<std::uint32_t> range,
                 std::optional<std::uint32_t> request, std::optional<std::uint32_t> grow = std::nullopt,
                 std::optional<std::size_t> named = std::nullopt) {
    std::string pools;
    for (const auto& p : named ? settings_.named_pools[*named].cidrs : settings_.pools[role_index(role)]) {
      if (p.version() == v) pools += (pools.empty() ? "" : ", ") + p.to_string();
    }
    plan_problem problem;
    if (request) problem.requests.push_back(*request);
    std::string what = range ? working_.role_name(working_.ranges[*range]) + " of " +
                                   working_.owners[working_.ranges[*range].owner].name
                       : grow ? "added pod range of " + working_.owners[*grow].name
                              : std::string(to_string(working_.requests[*request].role)) + " of " +
                                    working_.owners[working_.requests[*request].owner].name;
    problem.message = "no free /" + std::to_string(length) + " for the " + what +
                      (named ? " in pool " + settings_.named_pools[*named].name + " (" : " in its pools (") +
                      (pools.empty() ? "none of this IP version" : pools) +
                      ") outside the fleet's ranges and the avoided blocks" +
                      (!named && !settings_.named_pools.empty() ? " and the named pools" : "");
    if (range) problem.ranges.push_back(*range);
    result_.problems.push_back(std::move(problem));
  }

  // A moved service range takes the cluster DNS address with it (the tenth address,
  // by convention); a DNS address outside its service range is put back at the tenth.
  void fix_dns() {
    for (auto& change : result_.changes) {
      if (!change.range || change.role != range_role::services) continue;
      const auto& o = working_.owners[change.owner];
      if (o.dns && change.from.contains(*o.dns)) {
        change.dns_from = o.dns;
        change.dns_to = tenth(change.to);
      }
    }
    for (std::size_t index = 0; index < findings_.size(); ++index) {
      if (findings_.level(index) != severity::error) continue;
      const auto id = findings_.id(index);
      if (id != rule::dns_outside_service_range && id != rule::dns_is_kubernetes_service) continue;
      auto k = findings_.ranges(index).front();
      const auto& r = working_.ranges[k];
      const auto& o = working_.owners[r.owner];
      bool moving = std::any_of(result_.changes.begin(), result_.changes.end(),
                                [&](const plan_change& c) { return c.range && *c.range == k; });
      if (moving) {
        // The service range moves anyway: its DNS address goes to the new range's tenth address.
        for (auto& c : result_.changes) {
          if (c.range && *c.range == k) {
            c.dns_from = o.dns;
            c.dns_to = tenth(c.to);
            c.reasons.push_back(findings_.message(index));
          }
        }
        continue;
      }
      plan_change change;
      change.owner = r.owner;
      change.role = range_role::services;
      change.range = k;
      change.from = r.cidr;
      change.to = r.cidr;
      change.dns_from = o.dns;
      change.dns_to = tenth(r.cidr);
      change.reasons.push_back(findings_.message(index));
      result_.changes.push_back(std::move(change));
    }
  }

  // A route moves with its destination, never instead of it: a route toward an
  // owner whose range moves is rewritten to the same place in the new range, in
  // the same operation. A route wider than the moved range (it also covers
  // other space) is left as it is. O(routes x changes of its destination).
  void follow_routes() {
    if (working_.routes.empty()) return;
    auto destinations = route_destinations(working_);
    std::vector<std::vector<std::uint32_t>> moves_of(working_.owners.size());  // per owner: its moving changes
    for (std::uint32_t k = 0; k < result_.changes.size(); ++k) {
      const auto& c = result_.changes[k];
      if (c.range && c.operation && c.from.is_valid() && c.from != c.to) moves_of[c.owner].push_back(k);
    }
    std::vector<plan_change> routes;
    for (std::size_t k = 0; k < working_.routes.size(); ++k) {
      if (!destinations[k]) continue;
      const auto& route = working_.ranges[working_.routes[k].range];
      const plan_change* carrier = nullptr;  // the smallest moving range that holds the route
      for (auto m : moves_of[*destinations[k]]) {
        const auto& c = result_.changes[m];
        if (route.cidr.subnet_of(c.from) && (!carrier || carrier->from.length() < c.from.length())) carrier = &c;
      }
      if (!carrier) continue;
      auto offset = route.cidr.network().bits() - carrier->from.network().bits();
      auto length = std::max(route.cidr.length(), carrier->to.length());
      if (offset >= carrier->to.size()) continue;  // the range shrank below the route: nothing to follow
      plan_change change;
      change.owner = route.owner;
      change.role = route.role;
      change.range = working_.routes[k].range;
      change.from = route.cidr;
      change.to = prefix::containing(address::from_bits(route.cidr.version(), carrier->to.network().bits() + offset), length);
      change.operation = carrier->operation;
      const auto carried = working_.role_name(working_.ranges[*carrier->range]);
      change.reasons.push_back("the route toward " + working_.owners[*destinations[k]].name + " follows its " +
                               carried + " " + carrier->from.to_string() + " -> " + carrier->to.to_string());
      change.source = derived_source("the same place in " + working_.owners[*destinations[k]].name + "'s new " +
                                     carried + " " + carrier->to.to_string());
      routes.push_back(std::move(change));
    }
    for (auto& c : routes) result_.changes.push_back(std::move(c));
  }

  // One maintenance per cluster: the in-place operations on one cluster whose
  // runbooks apply its configuration separately (config-apply-separate) or
  // restart its pods get one runbook with their applies and restarts shared
  // (detail::merged_runbook), where it needs fewer applies or fewer restarts
  // than theirs together and the simulator passes it; each apply saved takes
  // catalog::shared_apply off their cost, the later operations' first, none
  // below 1. A restart saved changes no cost: of the kinds whose restarts a
  // merge shares, only the pod-range kinds count restarting pods (per_nodes).
  // The merged runbooks are simulated in one call.
  void merge_maintenances(const fleet& applied, const detail::owner_connections& connections) {
    std::map<std::uint32_t, std::vector<std::uint32_t>> in_place;  // cluster -> its operations, in plan order
    for (std::uint32_t k = 0; k < result_.operations.size(); ++k) {
      const auto& op = result_.operations[k];
      bool local = op.scope != operation_scope::network && op.scope != operation_scope::cluster;
      if (local && op.owners.size() == 1) in_place[op.owners.front()].push_back(k);
    }
    std::vector<std::vector<std::uint32_t>> groups;
    std::vector<runbook> books;
    std::vector<std::size_t> saved;
    for (const auto& [owner, ops] : in_place) {
      if (ops.size() < 2) continue;
      std::vector<std::uint32_t> members;
      std::vector<runbook> unapplied;
      std::size_t separate = 0, restarts = 0;
      for (auto k : ops) {
        auto book = detail::unapplied_runbook(applied, c_, result_.operations[k], result_.changes, connections);
        auto own = book;
        detail::add_apply_steps(applied, c_, own);
        auto n = detail::applies_in(own);
        auto r = detail::pod_restarts_in(own);
        if (n == 0 && r == 0) continue;
        separate += n;
        restarts += r;
        members.push_back(k);
        unapplied.push_back(std::move(book));
      }
      if (members.size() < 2) continue;
      auto merged = detail::merged_runbook(applied, c_, std::move(unapplied));
      auto n = detail::applies_in(merged);
      if (n >= separate && detail::pod_restarts_in(merged) >= restarts) continue;
      groups.push_back(std::move(members));
      books.push_back(std::move(merged));
      saved.push_back(separate > n ? separate - n : 0);
    }
    if (groups.empty()) return;
    const simulation_context context{&working_, &applied, &c_, options_.check, options_.triage};
    const auto verdicts = simulate_runbooks(context, books);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (!verdicts[g].passed()) continue;
      const auto& members = groups[g];
      for (auto k : members) {
        auto& with = result_.operations[k].merged_with;
        std::copy_if(members.begin(), members.end(), std::back_inserter(with), [k](std::uint32_t j) { return j != k; });
      }
      const int saving = static_cast<int>(saved[g]) * c_.shared_apply.cost;
      const std::string shared = std::to_string(saved[g]) + (saved[g] == 1 ? " apply" : " applies") +
                                 " of the cluster shared in one maintenance";
      int left = saving;
      for (auto k = members.rbegin(); k != members.rend() && left > 0; ++k) {
        auto& op = result_.operations[*k];
        int off = std::min(left, op.cost - 1);
        if (off <= 0) continue;
        op.cost -= off;
        left -= off;
        result_.shared_apply_saving += off;
        op.counted.push_back("-" + std::to_string(off) +
                             (off == saving ? "" : " (of " + std::to_string(saving) + ")") + " for " + shared);
      }
    }
  }

  static auto tenth(const prefix& p) -> address {
    return address::from_bits(p.version(), p.network().bits() + (p.size() > 10 ? 10 : 1));
  }

  void finish() {
    std::stable_sort(result_.changes.begin(), result_.changes.end(), [](const plan_change& a, const plan_change& b) {
      return std::make_tuple(a.owner, static_cast<int>(a.role), a.range.value_or(~0u)) <
             std::make_tuple(b.owner, static_cast<int>(b.role), b.range.value_or(~0u));
    });
    // Transition safety: every new range is free of every old one, so old and new can run side by side.
    address_set_builder old;
    for (const auto& r : working_.ranges) old.add(r.cidr);
    auto old_space = old.build();
    auto applied = apply_plan(working_, result_);
    std::set<std::uint32_t> owners;
    for (std::uint32_t k = 0; k < result_.changes.size(); ++k) {
      auto& change = result_.changes[k];
      // A range grown in place overlaps only itself: what it adds must be free.
      if (change.to != change.from) {
        change.transition_safe = change.range && change.to.supernet_of(change.from)
                                     ? !old_space.overlaps(address_set{change.to} - address_set{change.from})
                                     : !old_space.overlaps(change.to);
      }
      if (change.range || change.operation) owners.insert(change.owner);
      if (change.operation) result_.operations[*change.operation].changes.push_back(k);
    }
    const detail::owner_connections connections(applied);
    merge_maintenances(applied, connections);
    for (auto& op : result_.operations) {
      result_.total_cost += op.cost;
      for (auto owner : op.owners) owners.insert(owner);
      if (!op.changes.empty()) result_.changes[op.changes.front()].cost = op.cost;
    }
    // Steps as people read them, rendered from each typed runbook (files are
    // built by runbook_files when asked for).
    for (auto& change : result_.changes) {
      if (!change.operation) change.steps = render_steps(applied, detail::change_runbook(applied, c_, change), c_);
    }
    // An operation's steps, its table row chosen by its kind; a change that is its
    // operation's only one carries them too. A replacement or a shared VPC is one
    // runbook for all its changes; operations merged into one maintenance share theirs.
    for (std::uint32_t k = 0; k < result_.operations.size(); ++k) {
      auto& op = result_.operations[k];
      if (result_.runbook_is_earlier(k)) {
        const auto& first = result_.operations[op.merged_with.front()];
        op.steps = first.steps;
        op.maintenance = first.maintenance;
      } else {
        const auto book = detail::maintenance_runbook(applied, c_, result_, k, connections);
        op.steps = render_steps(applied, book, c_);
        op.maintenance = maintenance_of(book);
      }
      if (op.changes.size() == 1) result_.changes[op.changes.front()].steps = op.steps;
    }
    result_.owners_changed = owners.size();
    // The plan's proof: check the fleet with the plan applied; every error left is a problem.
    // Checked without messages first (they cost much on big fleets); described only if needed.
    auto lean = options_.check;
    lean.describe = false;
    result_.remaining = judged(applied, check(applied, c_, lean));
    bool errors_left = std::any_of(result_.remaining.begin(), result_.remaining.end(),
                                   [](const finding& x) { return x.level == severity::error; });
    if (errors_left && options_.check.describe) {
      result_.remaining = judged(applied, check(applied, c_, options_.check));
    }
    // Ranges the plan created sit after the input's in the applied fleet, in the
    // order of the changes that fill requests or add pod space (those have no request).
    std::vector<std::optional<std::uint32_t>> request_of_new;
    for (const auto& change : result_.changes) {
      if (change.request) request_of_new.push_back(*change.request);
      else if (!change.range && change.operation) request_of_new.push_back(std::nullopt);
    }
    const auto existing = static_cast<std::uint32_t>(working_.ranges.size());
    for (const auto& x : result_.remaining) {
      if (x.level != severity::error) continue;
      plan_problem problem;
      problem.id = x.id;
      for (auto k : x.ranges) {
        if (k < existing) {
          problem.ranges.push_back(k);
        } else if (auto q = request_of_new[k - existing]) {
          problem.requests.push_back(*q);
        }
      }
      problem.message = x.message + "; " + why_unresolved(x);
      result_.problems.push_back(std::move(problem));
    }
  }

  // The findings of fleet f as the options judge them (rule settings, suppressions).
  auto judged(const fleet& f, std::vector<finding> findings) const -> std::vector<finding> {
    if (!options_.triage) return findings;
    return triage(f, std::move(findings), *options_.triage).findings;
  }

  auto why_unresolved(const finding& x) const -> std::string {
    if (x.id == rule::global_range_overlap)
      return "the plan does not renumber translated (global) ranges: choose the member a new one by hand";
    if (!fixed_by_moving(x.id) && !is_pair_rule(x.id)) return "moving ranges cannot fix this rule";
    const auto existing = working_.ranges.size();
    auto any = [&](auto&& test) { return std::any_of(x.ranges.begin(), x.ranges.end(), [&](auto k) { return k < existing && test(k); }); };
    if (any([&](auto k) { return !working_.ranges[k].is_plain(); })) {
      return "the plan moves no route or translated (global) range by itself (a route follows the range it leads to): "
             "change it by hand";
    }
    if (any([&](auto k) { return rederived(k); })) {
      return "the service range is the distribution's default for the network the plan gives the cluster: "
             "write the cluster a service range of its own (services: CIDR), or pin its network";
    }
    bool all_pinned = std::all_of(x.ranges.begin(), x.ranges.end(), [&](auto k) { return k < existing && pinned_[k]; });
    if (all_pinned) return x.ranges.size() > 1 ? "both ranges are pinned" : "the range is pinned";
    bool none_offered = std::all_of(x.ranges.begin(), x.ranges.end(), [&](auto k) {
      return k < no_in_place_.size() && (pinned_[k] || (no_in_place_[k] && !replaceable(working_.ranges[k].owner)));
    });
    if (none_offered) {
      return "the catalog offers no operation that moves it in place on a cluster of its distribution, CNI and IPAM "
             "mode (docs/planning.md lists the operations and where each applies), and the cluster cannot be replaced "
             "while a range its replacement renumbers is pinned";
    }
    return "the range that should move found no free space (see above)";
  }

  // Whether a candidate replaces cluster `owner_index` (none does while a range it renumbers is pinned).
  auto replaceable(std::uint32_t owner_index) const -> bool {
    return std::any_of(candidates_.begin(), candidates_.end(), [&](const candidate& op) {
      return op.kind->changes == operation_scope::cluster && op.owners.front() == owner_index;
    });
  }

  auto rederived(std::uint32_t range) const -> bool {
    return std::find(rederived_.begin(), rederived_.end(), range) != rederived_.end();
  }

  const catalog& c_;
  const plan_options& options_;
  effective_settings settings_;
  fleet working_;
  detail::compact_findings findings_;
  std::vector<bool> pinned_;
  std::vector<std::vector<std::uint32_t>> reasons_;  // per range: indexes into findings_
  // Per range: a wanted finding that only moving it fixes (an overlap with a range it
  // meets directly, a rule it breaks wherever it is), not withdrawing it from a connection.
  std::vector<bool> must_move_;
  std::vector<bool> no_in_place_;  // per range: no in-place operation of the catalog applies to its owner
  std::vector<move> moved_;
  std::vector<follow> follows_;
  std::vector<growth> grown_;
  std::vector<std::pair<expansion, std::uint32_t>> expanded_;  // with the operation that grows it
  std::vector<candidate> candidates_;
  std::vector<std::uint32_t> chosen_;   // per operation of the result: its candidate
  std::optional<detail::membership_index> members_;  // which network each cluster runs in (made in decide())
  std::optional<detail::owner_connections> connections_;  // the connections each owner is a member of (made in decide())
  std::vector<std::vector<std::uint32_t>> capacity_reasons_;  // per owner: pod-capacity findings
  std::map<std::uint32_t, ip_version> capacity_version_;
  std::vector<std::uint32_t> rederived_;  // service ranges whose default follows a planned network
  plan_result result_;
};

}  // namespace

auto plan(const fleet& f, const catalog& c, const plan_options& options) -> plan_result {
  return planner(f, c, options).run();
}

auto plan_check(const fleet& f, const catalog& c, const plan_options& options) -> std::vector<finding> {
  auto findings = check(f, c, options.check);
  if (options.triage) findings = triage(f, std::move(findings), *options.triage).findings;
  return findings;
}

auto apply_plan(const fleet& f, const plan_result& p) -> fleet {
  fleet out = f;
  for (const auto& change : p.changes) {
    if (change.range) {
      auto& r = out.ranges[*change.range];
      r.cidr = change.to;
      if (change.to != change.from) r.origin = range_origin::declared;
    } else if (!change.request && change.operation) {
      // Pod space added beside the cluster's ranges (a pod-withdraw's `from` stays too).
      fleet_range r;
      r.cidr = change.to;
      r.owner = change.owner;
      r.role = change.role;
      r.where = f.owners[change.owner].where;
      out.owners[change.owner].ranges.push_back(static_cast<std::uint32_t>(out.ranges.size()));
      out.ranges.push_back(r);
    } else if (change.request) {
      const auto& req = f.requests[*change.request];
      fleet_range r;
      r.cidr = change.to;
      r.owner = change.owner;
      r.role = req.role;
      r.where = req.where;
      r.end_column = req.end_column;
      out.owners[change.owner].ranges.push_back(static_cast<std::uint32_t>(out.ranges.size()));
      out.ranges.push_back(r);
    }
    if (change.dns_to) out.owners[change.owner].dns = change.dns_to;
  }
  for (const auto& op : p.operations) {
    for (const auto& w : op.withdrawals) out.connections[w.connection].withdrawn.push_back(w.cidr);
  }
  out.requests.clear();
  return out;
}

}  // namespace cidrcheck
