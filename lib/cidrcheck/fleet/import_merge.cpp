#include "import_merge.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <array>
#include <bitset>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <unordered_set>

namespace cidrcheck::detail {

namespace {

// A range one source states, and where; `existing` for a fleet file's range,
// which is in the fleet already.
struct candidate {
  prefix cidr;
  source_location where;
  std::uint32_t end_column = 0;
  std::optional<std::uint32_t> existing;
  std::vector<source_location> merged_from;  ///< the blocks merged into it, when more than one
};

struct claim_set {
  claim_kind kind = claim_kind::exact;
  std::vector<candidate> ranges;
};

auto to_candidates(const std::vector<imported_range>& ranges) -> std::vector<candidate> {
  std::vector<candidate> out;
  out.reserve(ranges.size());
  for (const auto& r : ranges) out.push_back({r.cidr, r.where, r.end_column, std::nullopt, {}});
  return out;
}

// Returns the ranges of one IP version, each CIDR once, in the order given.
// Most claims hold one range (a network's address space, a subnet), which
// needs no set of those seen.
auto of_version(const std::vector<candidate>& ranges, ip_version v) -> std::vector<candidate> {
  std::vector<candidate> out;
  if (ranges.size() == 1) {
    if (ranges.front().cidr.version() == v) out.push_back(ranges.front());
    return out;
  }
  std::set<prefix> seen;
  for (const auto& r : ranges) {
    if (r.cidr.version() == v && seen.insert(r.cidr).second) out.push_back(r);
  }
  return out;
}

auto cidrs(const std::vector<candidate>& ranges) -> std::vector<prefix> {
  std::vector<prefix> out;
  for (const auto& r : ranges) out.push_back(r.cidr);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The prefixes kept so far, for "does one of them contain p": a prefix is
// contained by one of a set when the set holds one of its supernets, so a
// lookup searches once per length the set holds (at most 129), O(W log n)
// however many are kept. Only the lengths present are searched: an export's
// ranges are mostly of one or two lengths, and a search is a cache miss per
// level once the set is large (at 1,000,000 kept it was half an import).
class cover {
 public:
  void add(const prefix& p) {
    kept_.insert(p);
    lengths_.set(static_cast<std::size_t>(p.length()));
  }
  auto empty() const -> bool { return kept_.empty(); }
  auto covers(const prefix& p) const -> bool {
    if (kept_.empty()) return false;
    for (int length = p.length(); length >= 0; --length) {
      if (lengths_.test(static_cast<std::size_t>(length)) &&
          kept_.count(prefix::containing(p.network(), length)) != 0) {
        return true;
      }
    }
    return false;
  }

 private:
  std::set<prefix> kept_;
  std::bitset<129> lengths_;  // the lengths kept_ holds
};


// The merge of one owner across sources: the fleet's owner (or a new one) and
// what every source claims for each role.
class owner_merge {
 public:
  owner_merge(fleet& f, std::vector<diagnostic>& diagnostics) : f_(f), diagnostics_(diagnostics) {}

  // Starts from a fleet file's owner: its ranges are the first exact claims.
  void start_existing(std::uint32_t index) {
    existing_ = index;
    value_ = f_.owners[index];
    if (value_.nodes) declared_nodes_ = {*value_.nodes, value_.nodes_where};
    for (auto k : f_.owners[index].ranges) {
      const auto& r = f_.ranges[k];
      if (r.is_route()) continue;  // a fleet file's route stays as written; imports add theirs beside it
      auto& claims = claims_[static_cast<std::size_t>(r.role)];
      if (claims.empty()) claims.push_back({claim_kind::exact, {}});
      claims.front().ranges.push_back({r.cidr, r.where, r.end_column, k, {}});
    }
  }

  // Starts from the first import of a name, which it consumes: an owner is
  // large (some 900 bytes), and each is moved, never copied, into the fleet.
  void start_new(imported_owner&& o) {
    add_nodes(o);  // the node count is decided in finish(), from every source
    value_ = std::move(o.value);
    value_.ranges.clear();
    value_.nodes.reset();
    add_claims(o);
    routes_ = std::move(o.routes);
    service_ips_ = std::move(o.service_ips);
  }

  void add(const imported_owner& o) {
    value_.declared.bits = static_cast<std::uint8_t>(value_.declared.bits | o.value.declared.bits);
    if (value_.type.empty()) {
      value_.type = o.value.type;
      value_.type_where = o.value.type_where;
    } else if (!o.value.type.empty() && o.value.type != value_.type) {
      disagree(value_.kind == owner_kind::cluster ? "the distribution" : "the type", value_.type, value_.type_where,
               o.value.type, o.value.type_where);
    }
    if (value_.description.empty()) value_.description = o.value.description;
    add_fields(o);
    add_claims(o);
    routes_.insert(routes_.end(), o.routes.begin(), o.routes.end());
    service_ips_.insert(service_ips_.end(), o.service_ips.begin(), o.service_ips.end());
  }

  // Writes the merged owner and its ranges into the fleet; false when a limit
  // stops it. Its Services' cluster IPs go to `service_ips`, for
  // check_service_ips() once defaults have filled in the service ranges.
  auto finish(const merge_limits& limits, std::unordered_map<std::string, std::uint32_t>& index,
              std::vector<std::pair<std::uint32_t, std::vector<observed_address>>>& service_ips) -> bool {
    if (declared_nodes_ && observed_nodes_ && observed_nodes_->first > declared_nodes_->first) {
      diagnostics_.push_back({severity::warning, diag::sources_disagree,
                              describe_owner(value_) + " has " + std::to_string(observed_nodes_->first) + " nodes in " +
                                  to_string(observed_nodes_->second) + ", more than the " +
                                  std::to_string(declared_nodes_->first) + " here; pod-capacity checks " +
                                  std::to_string(declared_nodes_->first),
                              declared_nodes_->second,
                              {{severity::note, "", "the node count of " + value_.name + " is " +
                                                        std::to_string(observed_nodes_->first) + " here",
                                observed_nodes_->second, {}}}});
    }
    if (declared_nodes_) {
      value_.nodes = declared_nodes_->first;
      value_.nodes_where = declared_nodes_->second;
    }
    std::uint32_t k = 0;
    if (existing_) {
      k = *existing_;
      auto ranges = std::move(f_.owners[k].ranges);
      f_.owners[k] = std::move(value_);
      f_.owners[k].ranges = std::move(ranges);
    } else {
      if (f_.owners.size() >= limits.max_owners) {
        limit_error(value_.where, "more than the max-owners limit of " + std::to_string(limits.max_owners) +
                                      " clusters and networks");
        return false;
      }
      k = static_cast<std::uint32_t>(f_.owners.size());
      index.emplace(value_.name, k);
      f_.owners.push_back(std::move(value_));
      f_.owners[k].ranges.clear();
    }
    for (std::size_t role = 0; role < claims_.size(); ++role) {
      if (!claims_[role].empty()) f_.owners[k].declared.add(static_cast<range_role>(role));
      for (auto v : {ip_version::v4, ip_version::v6}) {
        if (!resolve(k, static_cast<range_role>(role), v, limits)) return false;
      }
    }
    for (const auto& route : routes_) {
      if (!add_route(k, route, limits)) return false;
    }
    // A count of the nodes that exist says nothing about capacity when the pod
    // ranges pod-capacity counts (IPv4, else IPv6) are what those nodes were
    // given: they would always read as full.
    bool any_v4 = std::any_of(f_.owners[k].ranges.begin(), f_.owners[k].ranges.end(), [&](std::uint32_t r) {
      return f_.ranges[r].role == range_role::pods && f_.ranges[r].cidr.version() == ip_version::v4;
    });
    if (!declared_nodes_ && observed_nodes_ && !pods_from_allocations_[any_v4 ? 0 : 1]) {
      f_.owners[k].nodes = observed_nodes_->first;
      f_.owners[k].nodes_where = observed_nodes_->second;
    }
    if (!service_ips_.empty()) service_ips.emplace_back(k, std::move(service_ips_));
    return true;
  }

 private:
  void add_fields(const imported_owner& o) {
    const owner& x = o.value;
    if (x.kubernetes) {
      if (!value_.kubernetes) {
        value_.kubernetes = x.kubernetes;
      } else if (*value_.kubernetes != *x.kubernetes) {
        auto text = [](kube_version v) { return std::to_string(v.major) + "." + std::to_string(v.minor); };
        disagree("the Kubernetes version", text(*value_.kubernetes), value_.where, text(*x.kubernetes), x.where);
      }
    }
    merge_mask(value_.node_cidr_mask, x.node_cidr_mask, "the node CIDR mask", x.where);
    merge_text(value_.cni, x.cni, "the CNI", x.where);
    if (!x.runs_in.empty()) {
      if (value_.runs_in.empty()) {
        value_.runs_in = x.runs_in;
        value_.runs_in_where = x.runs_in_where;
      } else if (value_.runs_in != x.runs_in) {
        disagree("the network (runs_in)", printable(value_.runs_in), value_.runs_in_where, printable(x.runs_in),
                 x.runs_in_where);
      }
    }
    merge_text(value_.ipam, x.ipam, "the IPAM mode", x.where);
    for (const auto& label : x.labels) {
      if (auto* mine = value_.label(label.first)) {
        merge_text(*mine, label.second, "the label " + printable(label.first), x.where);
      } else {
        value_.labels.push_back(label);
      }
    }
    merge_text(value_.pool_encapsulation, x.pool_encapsulation, "the pool encapsulation", x.where);
    merge_text(value_.routing_mode, x.routing_mode, "the routing mode", x.where);
    merge_text(value_.kube_proxy_mode, x.kube_proxy_mode, "the kube-proxy mode", x.where);
    merge_count(value_.service_count, value_.service_count_where, x.service_count, x.service_count_where,
                "the Service count");
    merge_count(value_.load_balancer_count, value_.load_balancer_count_where, x.load_balancer_count,
                x.load_balancer_count_where, "the LoadBalancer count");
    merge_mask(value_.node_cidr_mask_v6, x.node_cidr_mask_v6, "the IPv6 node CIDR mask", x.where);
    merge_mask(value_.block_size, x.block_size, "the pod block size", x.where);
    merge_mask(value_.block_size_v6, x.block_size_v6, "the IPv6 pod block size", x.where);
    if (x.dns) {
      if (!value_.dns) {
        value_.dns = x.dns;
        value_.dns_where = x.dns_where;
      } else if (*value_.dns != *x.dns) {
        disagree("the DNS address", value_.dns->to_string(), value_.dns_where, x.dns->to_string(), x.dns_where);
      }
    }
    add_nodes(o);
  }

  void add_nodes(const imported_owner& o) {
    const owner& x = o.value;
    if (!x.nodes) return;
    if (o.nodes_observed) {
      if (!observed_nodes_ || *x.nodes > observed_nodes_->first) observed_nodes_ = {*x.nodes, x.nodes_where};
    } else if (!declared_nodes_) {
      declared_nodes_ = {*x.nodes, x.nodes_where};
    } else if (declared_nodes_->first != *x.nodes) {
      disagree("the node count", std::to_string(declared_nodes_->first), declared_nodes_->second,
               std::to_string(*x.nodes), x.nodes_where);
    }
  }

  void merge_text(std::string& into, const std::string& from, const std::string& what, const source_location& where) {
    if (from.empty()) return;
    if (into.empty()) {
      into = from;
    } else if (into != from) {
      disagree(what, into, value_.where, from, where);
    }
  }

  void merge_count(std::optional<std::uint64_t>& into, source_location& into_where,
                   const std::optional<std::uint64_t>& from, const source_location& from_where, const std::string& what) {
    if (!from) return;
    if (!into) {
      into = from;
      into_where = from_where;
    } else if (*into != *from) {
      disagree(what, std::to_string(*into), into_where, std::to_string(*from), from_where);
    }
  }

  void merge_mask(std::optional<int>& into, const std::optional<int>& from, const std::string& what,
                  const source_location& where) {
    if (!from) return;
    if (!into) {
      into = from;
    } else if (*into != *from) {
      disagree(what, "/" + std::to_string(*into), value_.where, "/" + std::to_string(*from), where);
    }
  }

  void disagree(const std::string& what, const std::string& first, const source_location& first_where,
                const std::string& other, const source_location& other_where) {
    diagnostics_.push_back({severity::warning, diag::sources_disagree,
                            "sources disagree on " + what + " of " + describe_owner(value_) + ": " + first + " here, " +
                                other + " in " + to_string(other_where) + "; cidrcheck uses the first",
                            first_where,
                            {{severity::note, "", what + " of " + value_.name + " is " + other + " here",
                              other_where, {}}}});
  }

  void add_claims(const imported_owner& o) {
    for (const auto& c : o.claims) {
      claims_[static_cast<std::size_t>(c.role)].push_back({c.kind, to_candidates(c.ranges)});
    }
  }

  void limit_error(const source_location& where, std::string message) {
    diagnostics_.push_back({severity::error, diag::limit, std::move(message), where, {}});
  }

  auto add_range(std::uint32_t owner_index, range_role role, const candidate& c, const merge_limits& limits)
      -> std::optional<std::uint32_t> {
    if (c.existing) return c.existing;
    if (f_.ranges.size() >= limits.max_ranges) {
      limit_error(c.where, "more than the max-ranges limit of " + std::to_string(limits.max_ranges) + " ranges");
      return std::nullopt;
    }
    fleet_range r;
    r.cidr = c.cidr;
    r.owner = owner_index;
    r.role = role;
    r.where = c.where;
    r.end_column = c.end_column;
    r.merged_from = c.merged_from;
    auto k = static_cast<std::uint32_t>(f_.ranges.size());
    f_.ranges.push_back(std::move(r));
    f_.owners[owner_index].ranges.push_back(k);
    return k;
  }

  // Adds a route the sources name: a range of the network marked as a route.
  auto add_route(std::uint32_t owner_index, const imported_route& route, const merge_limits& limits) -> bool {
    auto k = add_range(owner_index, range_role::external,
                       {route.range.cidr, route.range.where, route.range.end_column, {}, {}}, limits);
    if (!k) return false;
    fleet_route x;
    x.range = *k;
    x.to = route.to;
    x.to_where = route.range.where;
    x.advertiser = route.advertiser;
    x.from = route.from;
    f_.ranges[*k].route = static_cast<std::uint32_t>(f_.routes.size());
    f_.routes.push_back(std::move(x));
    return true;
  }

  // Decides the ranges of one role and IP version from every claim, adds them
  // to the fleet and records what disagrees.
  auto resolve(std::uint32_t owner_index, range_role role, ip_version v, const merge_limits& limits) -> bool {
    const auto& claims = claims_[static_cast<std::size_t>(role)];
    std::vector<candidate> kept;
    struct pending {
      std::vector<candidate> other;
      bool outside;
    };
    // kept[0, exact) are what the first exact claim states; additional ranges follow.
    std::vector<pending> conflicts;
    for (const auto& c : claims) {
      if (c.kind != claim_kind::exact) continue;
      auto mine = of_version(c.ranges, v);
      if (mine.empty()) continue;
      if (kept.empty()) {
        kept = std::move(mine);
      } else if (cidrs(mine) != cidrs(kept)) {
        conflicts.push_back({std::move(mine), false});
      }
    }
    auto exact = kept.size();
    cover kept_cover;
    for (const auto& c : kept) kept_cover.add(c.cidr);
    for (const auto& c : claims) {
      if (c.kind != claim_kind::additional) continue;
      for (const auto& r : of_version(c.ranges, v)) {
        if (!kept_cover.covers(r.cidr)) {
          kept.push_back(r);
          kept_cover.add(r.cidr);
        }
      }
    }
    std::vector<candidate> within;
    for (const auto& c : claims) {
      if (c.kind != claim_kind::within) continue;
      auto mine = of_version(c.ranges, v);
      if (kept.empty()) {
        within.insert(within.end(), mine.begin(), mine.end());
        continue;
      }
      std::vector<candidate> outside;
      for (const auto& r : mine) {
        if (!kept_cover.covers(r.cidr)) outside.push_back(r);
      }
      if (!outside.empty()) conflicts.push_back({std::move(outside), true});
    }
    if (kept.empty() && !within.empty()) {
      // Allocations alone: their union, merged, stands in for the ranges.
      if (role == range_role::pods) pods_from_allocations_[v == ip_version::v4 ? 0 : 1] = true;
      address_set_builder b;
      for (const auto& r : within) b.add(r.cidr);
      auto merged = b.build().prefixes();  // sorted, disjoint
      // Each merged prefix is placed at the first allocation (in reading order)
      // inside it, and keeps where every one of them was read: one binary
      // search per allocation, O(n log n).
      std::vector<std::vector<const candidate*>> inside(merged.size());
      for (const auto& c : within) {
        auto it = std::upper_bound(merged.begin(), merged.end(), c.cidr,
                                   [](const prefix& x, const prefix& y) { return x.network() < y.network(); });
        if (it == merged.begin()) continue;
        auto k = static_cast<std::size_t>(it - merged.begin()) - 1;
        if (c.cidr.subnet_of(merged[k])) inside[k].push_back(&c);
      }
      for (std::size_t k = 0; k < merged.size(); ++k) {
        const candidate& c = !inside[k].empty() ? *inside[k].front() : within.front();
        candidate range{merged[k], c.where, c.cidr == merged[k] ? c.end_column : 0, std::nullopt, {}};
        if (inside[k].size() > 1) {
          for (const auto* x : inside[k]) range.merged_from.push_back(x->where);
        }
        kept.push_back(std::move(range));
      }
    }
    std::vector<std::uint32_t> kept_indexes;
    for (const auto& c : kept) {
      auto k = add_range(owner_index, role, c, limits);
      if (!k) return false;
      kept_indexes.push_back(*k);
    }
    for (auto& p : conflicts) {
      source_conflict x;
      x.kept = kept_indexes;
      if (!p.outside) x.kept.resize(exact);
      for (const auto& c : p.other) x.other.push_back(c.cidr);
      x.other_where = p.other.front().where;
      x.outside = p.outside;
      f_.conflicts.push_back(std::move(x));
    }
    return true;
  }

  fleet& f_;
  std::vector<diagnostic>& diagnostics_;
  std::optional<std::uint32_t> existing_;
  owner value_;
  std::array<std::vector<claim_set>, 4> claims_;  // by range_role
  std::vector<imported_route> routes_;
  std::optional<std::pair<std::uint64_t, source_location>> declared_nodes_, observed_nodes_;
  std::vector<observed_address> service_ips_;
  std::array<bool, 2> pods_from_allocations_{};  // IPv4, IPv6
};

// How a linking cluster takes a linked owner's range: its role and claim kind,
// or nullopt when the range stays with its owner.
auto linked_as(const owner_link& link, const imported_range& r, claim_kind kind)
    -> std::optional<std::pair<range_role, claim_kind>> {
  if (r.label.empty()) return std::pair{range_role::network, kind};
  for (const auto& l : link.labels) {
    if (l.label == r.label) return std::pair{l.role, l.kind};
  }
  return std::nullopt;
}

// An owner in no group: one whose name another kind of owner has.
constexpr auto no_group = std::numeric_limits<std::uint32_t>::max();

// A network that names its cluster (claimed_by) is linked by that cluster: one
// an import describes, or one of the fleet files (which gets an empty import
// of its own to carry the link). Without such a cluster it stays a network, and
// a note says so.
void link_claimed(std::vector<imported_owner*>& all, std::deque<imported_owner>& extra, const fleet& f,
                  const std::unordered_map<std::string, std::uint32_t>& index, std::vector<diagnostic>& diagnostics) {
  std::unordered_map<std::string, imported_owner*> clusters;
  for (auto* o : all) {
    if (o->value.kind == owner_kind::cluster) clusters.emplace(o->value.name, o);
  }
  std::vector<imported_owner*> claiming;
  for (auto* o : all) {
    if (!o->claimed_by.empty()) claiming.push_back(o);
  }
  for (auto* o : claiming) {
    for (const auto& c : o->claimed_by) {
      auto it = clusters.find(c.owner);
      if (it == clusters.end()) {
        auto k = index.find(c.owner);
        if (k == index.end() || f.owners[k->second].kind != owner_kind::cluster) {
          diagnostics.push_back({severity::note, diag::unresolved_link,
                                 c.what + " " + o->value.name + " is tagged for cluster " + c.owner +
                                     ", which no source describes: it stays a network (import the cluster too, "
                                     "and its ranges become the cluster's network)",
                                 c.where, {}});
          continue;
        }
        imported_owner& carrier = extra.emplace_back();
        carrier.value.name = c.owner;
        carrier.value.kind = owner_kind::cluster;
        carrier.value.where = c.where;
        all.push_back(&carrier);
        it = clusters.emplace(c.owner, &carrier).first;
      }
      auto& links = it->second->links;
      bool linked = std::any_of(links.begin(), links.end(), [&](const owner_link& l) { return l.owner == o->value.name; });
      if (!linked) links.push_back({o->value.name, c.what, c.where, {}});
    }
  }
}

// Moves the ranges of linked owners to the clusters that link them.
void resolve_links(std::vector<imported_owner*>& all, merged_imports& out, std::vector<diagnostic>& diagnostics) {
  // Without links nothing moves: no table of every network's name (a cloud's
  // export has a network per entry and links none).
  if (std::none_of(all.begin(), all.end(), [](const imported_owner* o) { return !o->links.empty(); })) return;
  std::unordered_map<std::string, std::vector<imported_owner*>> networks;
  for (auto* o : all) {
    if (o->value.kind == owner_kind::network) networks[o->value.name].push_back(o);
  }
  // moved[o][claim][range]: the range went to a cluster.
  std::unordered_map<imported_owner*, std::vector<std::vector<bool>>> moved;
  for (auto* o : all) {
    for (const auto& link : o->links) {
      auto it = networks.find(link.owner);
      if (it == networks.end()) {
        diagnostics.push_back({severity::warning, diag::unresolved_link,
                               describe_owner(o->value) + " is in " + link.what + " " + link.owner +
                                   ", which no source describes: its " + link.what +
                                   "'s ranges are unknown (import them too; see docs/import.md)",
                               link.where, {}});
        continue;
      }
      auto& names = out.moved_to[link.owner];
      if (std::find(names.begin(), names.end(), o->value.name) == names.end()) names.push_back(o->value.name);
      for (auto* net : it->second) {
        auto& marks = moved[net];
        marks.resize(net->claims.size());
        for (std::size_t c = 0; c < net->claims.size(); ++c) {
          const auto& claim = net->claims[c];
          marks[c].resize(claim.ranges.size());
          // One claim per role and kind, so that what the link brings compares as a whole.
          std::map<std::pair<range_role, claim_kind>, std::vector<imported_range>> taken;
          for (std::size_t r = 0; r < claim.ranges.size(); ++r) {
            auto as = linked_as(link, claim.ranges[r], claim.kind);
            if (!as) continue;
            taken[*as].push_back(claim.ranges[r]);
            marks[c][r] = true;
          }
          for (auto& [as, ranges] : taken) add_claim(*o, as.first, as.second, std::move(ranges));
        }
      }
    }
  }
  // Linked owners keep only what no cluster took, and vanish when nothing is left.
  std::unordered_set<const imported_owner*> emptied;
  for (auto& [o, marks] : moved) {
    for (std::size_t c = 0; c < o->claims.size(); ++c) {
      auto& ranges = o->claims[c].ranges;
      std::vector<imported_range> kept;
      for (std::size_t r = 0; r < ranges.size(); ++r) {
        if (!marks[c][r]) kept.push_back(std::move(ranges[r]));
      }
      ranges = std::move(kept);
    }
    std::erase_if(o->claims, [](const range_claim& c) { return c.ranges.empty(); });
    // A network that carries routes (its route tables') stays, for them.
    if (o->claims.empty() && o->routes.empty()) {
      emptied.insert(o);
    } else {
      out.moved_to[o->value.name].push_back(o->value.name);
    }
  }
  std::erase_if(all, [&](const imported_owner* o) { return emptied.count(o) != 0; });
}

}  // namespace

auto check_service_ips(const fleet& f, std::uint32_t k, const std::vector<observed_address>& ips,
                       std::vector<diagnostic>& diagnostics) -> void {
  const owner& value = f.owners[k];
  std::array<cover, 2> services;
  std::array<std::string, 2> listed;
  for (auto r : value.ranges) {
    const auto& range = f.ranges[r];
    if (range.role != range_role::services) continue;
    std::size_t v = range.cidr.version() == ip_version::v4 ? 0U : 1U;
    services[v].add(range.cidr);
    listed[v] += (listed[v].empty() ? "" : ", ") + range.cidr.to_string();
  }
  std::array<std::size_t, 2> unchecked{};
  std::array<source_location, 2> first_unchecked;
  for (const auto& ip : ips) {
    std::size_t v = ip.ip.version() == ip_version::v4 ? 0U : 1U;
    if (services[v].empty()) {
      if (unchecked[v]++ == 0) first_unchecked[v] = ip.where;
      continue;
    }
    if (services[v].covers(prefix::containing(ip.ip, v == 0 ? 32 : 128))) continue;
    diagnostics.push_back({severity::warning, diag::outside_service_range,
                           ip.user + " has cluster IP " + ip.ip.to_string() + ", outside the service range of " +
                               describe_owner(value) + " (" + listed[v] +
                               "): it keeps the range it came from in use until the Service is recreated",
                           ip.where, {}});
  }
  for (std::size_t v = 0; v < 2; ++v) {
    if (unchecked[v] == 0) continue;
    diagnostics.push_back({severity::note, diag::unchecked,
                           std::to_string(unchecked[v]) + " IPv" + (v == 0 ? "4" : "6") + " cluster IP" +
                               (unchecked[v] == 1 ? "" : "s") + " of " + describe_owner(value) +
                               " not checked: no source states its IPv" + (v == 0 ? "4" : "6") +
                               " service range (import its kubeadm-config, or state services in a fleet file)",
                           first_unchecked[v], {}});
  }
}

auto merge_imports(std::vector<import_result> imports, fleet& f, std::unordered_map<std::string, std::uint32_t>& index,
                   const merge_limits& limits, std::vector<diagnostic>& diagnostics) -> merged_imports {
  merged_imports out;
  std::vector<imported_owner*> all;
  for (auto& r : imports) {
    for (auto& o : r.owners) all.push_back(&o);
    for (auto& c : r.connections) out.connections.push_back(std::move(c));
  }
  std::deque<imported_owner> extra;  // clusters of the fleet files that tagged networks name
  link_claimed(all, extra, f, index, diagnostics);
  std::unordered_set<std::string> parted;  // "network|part", each once
  for (const auto* o : all) {
    if (!o->part_of.empty() && parted.insert(o->part_of + "|" + o->value.name).second) {
      out.parts[o->part_of].push_back(o->value.name);
    }
  }
  resolve_links(all, out, diagnostics);

  // Owners by name, in the order first met: one group per name, found by a
  // view of the name (the owners outlive the map). The groups are one array,
  // group g's owners from start[g] in reading order, not a vector per name:
  // a cloud's export has a name per entry.
  std::vector<std::uint32_t> group_of_owner(all.size(), no_group);  // by index in `all`
  std::vector<std::uint32_t> start(1, 0);                           // start[g + 1]: group g's size, then its end
  std::vector<const imported_owner*> front;                         // by group: its first owner
  std::unordered_map<std::string_view, std::uint32_t> group_of;
  group_of.reserve(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    const auto* o = all[k];
    auto [at, added] = group_of.try_emplace(o->value.name, static_cast<std::uint32_t>(front.size()));
    if (added) {
      front.push_back(o);
      start.push_back(0);
    }
    const auto* first = front[at->second];
    if (first->value.kind != o->value.kind) {
      diagnostics.push_back({severity::error, diag::duplicate_name,
                             "'" + o->value.name + "' is a " +
                                 std::string(to_string(o->value.kind)) + " here but a " +
                                 std::string(to_string(first->value.kind)) +
                                 " in " + to_string(first->value.where),
                             o->value.where, {}});
      continue;
    }
    group_of_owner[k] = at->second;
    ++start[at->second + 1];
  }
  group_of.clear();  // its keys view the names that start_new() moves away
  for (std::size_t g = 1; g < start.size(); ++g) start[g] += start[g - 1];
  std::vector<imported_owner*> grouped(start.back());
  auto fill = start;
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (group_of_owner[k] != no_group) grouped[fill[group_of_owner[k]]++] = all[k];
  }
  auto groups = start.size() - 1;
  f.owners.reserve(f.owners.size() + groups);
  // Room for a fleet range per exact or additional range and per route the
  // imports state (each makes one at most), so that the ranges grow once.
  // Ranges within others are not counted: they make ranges only where nothing
  // states the owner's, and merged (a cluster's 100,000 subnets make a few).
  std::size_t stated = 0;
  for (const auto* o : all) {
    stated += o->routes.size();
    for (const auto& c : o->claims) stated += c.kind == claim_kind::within ? 0 : c.ranges.size();
  }
  f.ranges.reserve(f.ranges.size() + stated);
  index.reserve(index.size() + groups);  // grown once, not rehashed as each owner is added
  for (std::size_t g = 0; g < groups; ++g) {
    std::span<imported_owner* const> group(grouped.data() + start[g], grouped.data() + start[g + 1]);
    const std::string& name = group.front()->value.name;
    owner_merge m(f, diagnostics);
    auto it = index.find(name);
    if (it != index.end()) {
      const owner& existing = f.owners[it->second];
      if (existing.kind != group.front()->value.kind) {
        diagnostics.push_back({severity::error, diag::duplicate_name,
                               "'" + name + "' is a " +
                                   std::string(to_string(group.front()->value.kind)) +
                                   " here but a " + std::string(to_string(existing.kind)) +
                                   " in " + to_string(existing.where),
                               group.front()->value.where, {}});
        continue;
      }
      m.start_existing(it->second);
      for (const auto* o : group) m.add(*o);
    } else {
      m.start_new(std::move(*group.front()));
      for (std::size_t k = 1; k < group.size(); ++k) m.add(*group[k]);
    }
    if (!m.finish(limits, index, out.service_ips)) break;
  }
  return out;
}

}  // namespace cidrcheck::detail
