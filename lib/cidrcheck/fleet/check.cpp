#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/limit_error.hpp>

#include "compact_findings.hpp"
#include "membership.hpp"
#include "pins.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cidrcheck {

namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

// How costly a range is to move, for ordering the two sides of a finding:
// services, then pods, then a cluster's network, then other networks.
auto move_rank(const fleet_range& r) -> int {
  switch (r.role) {
    case range_role::services: return 0;
    case range_role::pods: return 1;
    case range_role::network: return 2;
    case range_role::external: return 3;
  }
  return 3;
}

// ---------------------------------------------------------------------------
// Routing: which connections carry each range, and whether two ranges meet.

// A range's base routing class: its owner and role. All ranges of one base
// class are carried by the same connections, but for those a connection
// withdraws (routing_index::class_of).
auto base_class_of(const fleet_range& r) -> std::uint32_t { return r.owner * 4 + static_cast<std::uint32_t>(r.role); }

// Returns the smallest element common to two sorted vectors, or none.
// O(min(n, m) log max(n, m)).
auto first_common(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) -> std::uint32_t {
  const auto& small = a.size() <= b.size() ? a : b;
  const auto& large = a.size() <= b.size() ? b : a;
  for (auto x : small) {
    if (std::binary_search(large.begin(), large.end(), x)) return x;
  }
  return none;
}

// Where both ranges are routed (owner none if nowhere), and through which connections.
using meeting = detail::conflict_meeting;

// Returns the sorted union of two sorted lists.
auto merged(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) -> std::vector<std::uint32_t> {
  std::vector<std::uint32_t> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

class routing_index {
 public:
  // A cluster that runs in a network routes as the network does (membership.hpp):
  // it is reached through the network's connections, and they carry its network ranges.
  routing_index(const fleet& f, const detail::membership_index& members)
      : f_(f), carriers_(f.owners.size() * 4), memberships_(f.owners.size()), inherited_(f.owners.size()) {
    translations_.resize(f.owners.size());
    for (std::uint32_t c = 0; c < f.connections.size(); ++c) {
      const auto& conn = f.connections[c];
      if (conn.translates()) {
        // Members are seen through their translated ranges only: it carries none of their real ones.
        for (auto m : conn.members) translations_[m].push_back(c);
        continue;
      }
      for (auto m : conn.members) {
        memberships_[m].push_back(c);
        if (f.owners[m].kind == owner_kind::network) {
          carriers_[m * 4 + static_cast<std::uint32_t>(range_role::external)].push_back(c);
          continue;
        }
        for (auto role : {range_role::network, range_role::pods, range_role::services}) {
          if (conn.routes.has(role)) carriers_[m * 4 + static_cast<std::uint32_t>(role)].push_back(c);
        }
      }
    }
    for (std::uint32_t k = 0; k < f.owners.size(); ++k) {
      auto network = members.place(k).network;
      if (!network) continue;
      auto& carried = carriers_[k * 4 + static_cast<std::uint32_t>(range_role::network)];
      carried = merged(carried, carriers_[*network * 4 + static_cast<std::uint32_t>(range_role::external)]);
      std::set_difference(memberships_[*network].begin(), memberships_[*network].end(), memberships_[k].begin(),
                          memberships_[k].end(), std::back_inserter(inherited_[k]));
      memberships_[k] = merged(memberships_[k], memberships_[*network]);
    }
    refine_withdrawn();
    reach_.resize(carriers_.size(), 0);
    for (std::size_t k = 0; k < carriers_.size(); ++k) {
      for (auto c : carriers_[k]) reach_[k] += f.connections[c].members.size();
    }
  }

  // Returns range k's routing class: its base class, or the refined class of
  // the ranges of that base class that the same connections withdraw.
  auto class_of(std::uint32_t k) const -> std::uint32_t {
    return refined_.empty() ? base_class_of(f_.ranges[k]) : refined_[k];
  }

  // Gives each range that a carrier of its base class withdraws (connection::carries)
  // a class of its own base class's carriers less those, shared by the ranges
  // that lose the same ones. O(ranges x min(carriers, withdrawing connections)
  // x withdrawn prefixes); nothing when no connection withdraws a prefix.
  void refine_withdrawn() {
    std::vector<std::uint32_t> withdrawing;
    std::vector<bool> withdraws(f_.connections.size(), false);
    for (std::uint32_t c = 0; c < f_.connections.size(); ++c) {
      if (f_.connections[c].withdrawn.empty() || f_.connections[c].translates()) continue;
      withdrawing.push_back(c);
      withdraws[c] = true;
    }
    if (withdrawing.empty()) return;
    refined_.resize(f_.ranges.size());
    std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, std::uint32_t> classes;
    std::vector<std::uint32_t> lost;
    for (std::uint32_t k = 0; k < f_.ranges.size(); ++k) {
      const auto& r = f_.ranges[k];
      auto base = base_class_of(r);
      refined_[k] = base;
      if (r.is_translated()) continue;
      const auto& carriers = carriers_[base];
      lost.clear();
      auto loses = [&](std::uint32_t c) { return !f_.connections[c].carries(r.cidr); };
      if (carriers.size() <= withdrawing.size()) {
        for (auto c : carriers) {
          if (withdraws[c] && loses(c)) lost.push_back(c);
        }
      } else {
        for (auto c : withdrawing) {
          if (std::binary_search(carriers.begin(), carriers.end(), c) && loses(c)) lost.push_back(c);
        }
      }
      if (lost.empty()) continue;
      auto [at, added] = classes.try_emplace(std::pair(base, lost), static_cast<std::uint32_t>(carriers_.size()));
      if (added) {
        std::vector<std::uint32_t> kept;
        std::set_difference(carriers.begin(), carriers.end(), lost.begin(), lost.end(), std::back_inserter(kept));
        carriers_.push_back(std::move(kept));
      }
      refined_[k] = at->second;
    }
  }

  // Returns a connection that carries class c's ranges to owner v (a member), or none.
  auto carried_to(std::uint32_t c, std::uint32_t v) const -> std::uint32_t { return first_common(carriers_[c], memberships_[v]); }

  // Returns the smallest connection common to x's list and y's, preferring one
  // that neither reaches only through the network it runs in; none if none.
  auto own_common(const std::vector<std::uint32_t>& x, std::uint32_t x_owner, const std::vector<std::uint32_t>& y,
                  std::uint32_t y_owner) const -> std::uint32_t {
    auto any = first_common(x, y);
    if (any == none || (!inherits(x_owner, any) && !inherits(y_owner, any))) return any;
    if (inherited_[x_owner].empty() && inherited_[y_owner].empty()) return any;
    const auto& small = x.size() <= y.size() ? x : y;
    const auto& large = x.size() <= y.size() ? y : x;
    for (auto c : small) {
      if (!inherits(x_owner, c) && !inherits(y_owner, c) && std::binary_search(large.begin(), large.end(), c)) return c;
    }
    return any;
  }

  // Reports whether owner v reaches connection c only through the network it runs in.
  auto inherits(std::uint32_t v, std::uint32_t c) const -> bool {
    return std::binary_search(inherited_[v].begin(), inherited_[v].end(), c);
  }

  // Reports whether owners a and b are members of one connection (translated or not).
  auto connected(std::uint32_t a, std::uint32_t b) const -> bool {
    return first_common(memberships_[a], memberships_[b]) != none || translated_between(a, b) != none;
  }

  // Reports whether owner v is a member of connection c, or runs in a network that is.
  auto reaches(std::uint32_t v, std::uint32_t c) const -> bool {
    return std::binary_search(memberships_[v].begin(), memberships_[v].end(), c);
  }

  // Reports whether any connection carries ranges of class c away from their owner.
  auto carried(std::uint32_t c) const -> bool { return !carriers_[c].empty(); }

  // Returns the first translated connection owner v is a member of, or none.
  auto first_translation(std::uint32_t v) const -> std::uint32_t {
    return translations_[v].empty() ? none : translations_[v].front();
  }

  // Returns a translated connection both owners are members of, or none.
  auto translated_between(std::uint32_t a, std::uint32_t b) const -> std::uint32_t {
    return first_common(translations_[a], translations_[b]);
  }

  // Returns the first member of connection `conn` at which range r (of
  // routing class c) is routed: it owns r, or another connection carries r
  // to it; none if no member routes r. O(members x log).
  auto routed_at_member(const fleet_range& r, std::uint32_t c, const connection& conn) const -> std::uint32_t {
    for (auto m : conn.members) {
      if (r.owner == m || carried_to(c, m) != none) return m;
    }
    return none;
  }

  // Where are ranges of classes ca (owner a) and cb (owner b) both routed?
  // a itself if it can, else b, else the third owner with the smallest index,
  // so the answer is deterministic.
  auto meet(std::uint32_t ca, std::uint32_t a, std::uint32_t cb, std::uint32_t b) const -> meeting {
    // b's range is routed at a: a connection carrying it has a as a member.
    if (auto c = own_common(carriers_[cb], b, memberships_[a], a); c != none) return {a, {c}};
    if (auto c = own_common(carriers_[ca], a, memberships_[b], b); c != none) return {b, {c}};
    // A third owner v sees both: walk the members reached from the side that
    // reaches fewer, and ask whether the other side's carriers reach them too.
    bool a_smaller = reach_[ca] <= reach_[cb];
    const auto& walk = carriers_[a_smaller ? ca : cb];
    const auto& other = carriers_[a_smaller ? cb : ca];
    meeting best{none, {}};
    std::uint32_t best_walk = none, best_other = none;
    for (auto c : walk) {
      for (auto v : f_.connections[c].members) {
        if (best.owner != none && v >= best.owner) continue;
        if (auto c2 = first_common(other, memberships_[v]); c2 != none) {
          best.owner = v;
          best_walk = c;
          best_other = c2;
        }
      }
    }
    if (best.owner != none) best.via = a_smaller ? std::vector{best_walk, best_other} : std::vector{best_other, best_walk};
    return best;
  }

 private:
  const fleet& f_;
  std::vector<std::vector<std::uint32_t>> carriers_;     // per class: connections carrying it, sorted
  std::vector<std::uint32_t> refined_;                   // per range: its class, when a connection withdraws a prefix
  std::vector<std::vector<std::uint32_t>> memberships_;  // per owner: connections it belongs to, sorted
  std::vector<std::size_t> reach_;                       // per class: total members of its carriers
  std::vector<std::vector<std::uint32_t>> translations_;  // per owner: translated connections it belongs to, sorted
  std::vector<std::vector<std::uint32_t>> inherited_;     // per cluster: connections it reaches through its network, sorted
};

// ---------------------------------------------------------------------------
// The rules.

// Whether x is an overlap finding (overlap, overlap-internal, latent-overlap)
// that check() left without its text (describe_overlaps off).
auto undescribed_overlap(const finding& x) -> bool {
  return x.message.empty() && x.ranges.size() == 2 &&
         (x.id == rule::overlap || x.id == rule::overlap_internal || x.id == rule::latent_overlap);
}

class checker {
 public:
  checker(const fleet& f, const catalog& c, const check_options& o)
      : f_(f), c_(c), options_(o), members_(f, c), routing_(f, members_), pins_(detail::match_pins(f.plan.pins, f)) {}

  // The findings, the overlap findings as records (never described).
  auto run() -> detail::compact_findings {
    find_destinations();
    check_overlaps();
    for (std::uint32_t k = 0; k < f_.ranges.size(); ++k) check_catalog(k);
    for (std::uint32_t k = 0; k < f_.owners.size(); ++k) {
      if (f_.owners[k].kind == owner_kind::cluster) check_cluster(k);
    }
    for (const auto& c : f_.conflicts) check_conflict(c);
    sort_records();
    return {std::move(records_), std::move(whole_), std::move(meetings_)};
  }

  // The message and hint of an overlap finding that check() left without them.
  void describe(finding& x) const {
    if (undescribed_overlap(x)) describe_pair(x);
  }

 private:
  // Throws limit_error when one more finding would pass max-findings.
  void make_room() const {
    if (records_.size() < options_.max_findings) return;
    throw limit_error("max-findings", options_.max_findings,
                      "the fleet has more than the max-findings limit of " + std::to_string(options_.max_findings) +
                          " findings");
  }

  auto add(rule id, std::vector<std::uint32_t> ranges, std::string message, std::string hint) -> finding& {
    make_room();
    finding x;
    x.id = id;
    x.level = info(id).default_severity;
    x.ranges = std::move(ranges);
    if (options_.describe) {
      x.message = std::move(message);
      x.hint = std::move(hint);
    }
    records_.push_back({{static_cast<std::uint32_t>(whole_.size()), 0}, detail::finding_record::nowhere, id, x.level,
                        false});
    whole_.push_back(std::move(x));
    return whole_.back();
  }

  // Every overlapping pair of ranges, grouped so that the work grows with the
  // ranges plus the findings, not with the pairs that are quiet (no finding):
  // - identical prefixes form one node, and a node's ancestors (the nodes whose
  //   prefix contains it) are found with one sorted sweep and a stack, at most
  //   W per node;
  // - ranges of one node are sorted by a quiet group (quiet_group()): two of
  //   one group and of different owners are never a finding, so each range
  //   visits the other node's ranges outside its group and its own owner's
  //   within it, found by binary search;
  // - twins (routes of one network with one prefix, destination, advertiser
  //   and origin) are one entry: their pairs are quiet, and they meet every
  //   other range alike, so one visit stands for all until it finds something.
  // Quiet pairs that no grouping covers are counted; past quiet_pair_limit()
  // check() stops with a limit_error rather than run for hours.
  void check_overlaps() {
    cache_.clear();
    struct node {
      std::uint32_t begin, end;  // entries_[begin, end): one prefix
    };
    std::vector<std::uint32_t> order;
    order.reserve(f_.ranges.size());
    for (std::uint32_t k = 0; k < f_.ranges.size(); ++k) {
      if (f_.ranges[k].cidr.is_valid()) order.push_back(k);
    }
    std::vector<std::uint64_t> group(f_.ranges.size(), 0);
    for (auto k : order) group[k] = quiet_group(k);
    // Routes of one network and prefix are twins when all that decides their pairs is equal.
    using twin_fields = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::string_view, std::string_view>;
    auto twin_key = [&](std::uint32_t k) -> twin_fields {
      const auto& r = f_.ranges[k];
      if (!r.is_route()) return {k, 0, 0, {}, {}};
      const auto& x = f_.routes[r.route];
      return {none, x.to_owner.value_or(none), destination_[r.route], x.advertiser, x.from};
    };
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const auto& x = f_.ranges[a];
      const auto& y = f_.ranges[b];
      return std::tuple(x.cidr, group[a], x.owner, twin_key(a), a) < std::tuple(y.cidr, group[b], y.owner, twin_key(b), b);
    });
    // Entries: runs of twins (one range each, but for twin routes).
    entries_.clear();
    for (std::uint32_t k = 0; k < order.size(); ++k) {
      bool twin = k > 0 && f_.ranges[order[k]].is_route() && f_.ranges[order[k]].cidr == f_.ranges[order[k - 1]].cidr &&
                  group[order[k]] == group[order[k - 1]] && f_.ranges[order[k]].owner == f_.ranges[order[k - 1]].owner &&
                  twin_key(order[k]) == twin_key(order[k - 1]);
      if (twin) {
        ++entries_.back().end;
      } else {
        entries_.push_back({k, k + 1});
      }
    }
    order_ = std::move(order);
    group_ = std::move(group);
    std::vector<node> stack;
    for (std::uint32_t e = 0; e < entries_.size();) {
      node n{e, e};
      const prefix& p = cidr_of(e);
      while (n.end < entries_.size() && cidr_of(n.end) == p) ++n.end;
      e = n.end;
      while (!stack.empty() && !cidr_of(stack.back().begin).supernet_of(p)) stack.pop_back();
      for (const auto& outer : stack) visit_nodes(outer.begin, outer.end, n.begin, n.end);
      visit_within(n.begin, n.end);
      stack.push_back(n);
    }
  }

  // The group of ranges whose pairs are quiet when their owners differ, or 0:
  // - a network's space (membership.hpp): its own ranges and its members' networks;
  // - every route: routes of different networks meet only where both networks
  //   are seen, which the fleet does not model;
  // - the ranges of a member of a translated connection that nothing else
  //   carries: members see each other through their translated ranges only.
  auto quiet_group(std::uint32_t k) const -> std::uint64_t {
    constexpr std::uint64_t space = 1ull << 32, route = 2ull << 32, translated = 3ull << 32;
    const auto& r = f_.ranges[k];
    if (r.is_translated()) return 0;
    if (r.is_route()) return route;
    if (auto network = members_.space_of(k)) return space | *network;
    if (auto t = routing_.first_translation(r.owner); t != none && !routing_.carried(routing_.class_of(k))) return translated | t;
    return 0;
  }

  auto cidr_of(std::uint32_t e) const -> const prefix& { return f_.ranges[order_[entries_[e].begin]].cidr; }
  auto range_of(std::uint32_t e) const -> std::uint32_t { return order_[entries_[e].begin]; }

  // Visits the pairs of one node's entries that may be findings.
  void visit_within(std::uint32_t begin, std::uint32_t end) {
    for (auto a = begin; a < end; ++a) visit_against(a, a + 1, end);
  }

  // Visits the pairs of entries of two nodes (one contains the other) that may
  // be findings, from the node with fewer entries.
  void visit_nodes(std::uint32_t a_begin, std::uint32_t a_end, std::uint32_t b_begin, std::uint32_t b_end) {
    if (a_end - a_begin > b_end - b_begin) {
      std::swap(a_begin, b_begin);
      std::swap(a_end, b_end);
    }
    for (auto a = a_begin; a < a_end; ++a) visit_against(a, b_begin, b_end);
  }

  // Visits entry a against entries [begin, end) of one node (sorted by group,
  // owner): all outside a's group, and a's own owner's inside it.
  void visit_against(std::uint32_t a, std::uint32_t begin, std::uint32_t end) {
    auto g = group_[range_of(a)];
    if (g == 0) {
      for (auto b = begin; b < end; ++b) visit_entries(a, b);
      return;
    }
    auto by_group = [&](std::uint32_t e) { return group_[range_of(e)]; };
    auto lo = partition(begin, end, [&](std::uint32_t e) { return by_group(e) < g; });
    auto hi = partition(lo, end, [&](std::uint32_t e) { return by_group(e) <= g; });
    auto owner = f_.ranges[range_of(a)].owner;
    auto own_lo = partition(lo, hi, [&](std::uint32_t e) { return f_.ranges[range_of(e)].owner < owner; });
    auto own_hi = partition(own_lo, hi, [&](std::uint32_t e) { return f_.ranges[range_of(e)].owner <= owner; });
    for (auto b = begin; b < lo; ++b) visit_entries(a, b);
    for (auto b = own_lo; b < own_hi; ++b) visit_entries(a, b);
    for (auto b = hi; b < end; ++b) visit_entries(a, b);
  }

  // The first entry of [begin, end) for which below() is false (below() holds for a prefix of it).
  template <class Below>
  static auto partition(std::uint32_t begin, std::uint32_t end, Below below) -> std::uint32_t {
    while (begin < end) {
      auto mid = begin + (end - begin) / 2;
      if (below(mid)) {
        begin = mid + 1;
      } else {
        end = mid;
      }
    }
    return begin;
  }

  // Checks two entries: their first ranges, and only if that is a finding every
  // other pair of their twins (which would be quiet alike).
  void visit_entries(std::uint32_t a, std::uint32_t b) {
    if (a == b) return;
    const auto& x = entries_[a];
    const auto& y = entries_[b];
    if (!visit(order_[x.begin], order_[y.begin])) return;
    for (auto i = x.begin; i < x.end; ++i) {
      for (auto j = y.begin; j < y.end; ++j) {
        if (i != x.begin || j != y.begin) visit(order_[i], order_[j]);
      }
    }
  }

  // Checks one overlapping pair; returns whether it was a finding. Throws
  // limit_error past the quiet-pair limit.
  auto visit(std::uint32_t i, std::uint32_t j) -> bool {
    auto before = records_.size();
    check_pair(i, j);
    if (records_.size() > before) return true;
    if (++quiet_ > quiet_pair_limit()) {
      throw limit_error("max-findings", options_.max_findings,
                        "the fleet has more than " + std::to_string(quiet_pair_limit()) +
                            " overlapping pairs of ranges that are no finding (" +
                            std::to_string(quiet_pairs_per_finding) + " times the max-findings limit of " +
                            std::to_string(options_.max_findings) + "): cidrcheck stops rather than examine them all");
    }
    return false;
  }

  auto quiet_pair_limit() const -> std::uint64_t {
    return options_.max_findings > std::numeric_limits<std::uint64_t>::max() / quiet_pairs_per_finding
               ? std::numeric_limits<std::uint64_t>::max()
               : std::uint64_t{options_.max_findings} * quiet_pairs_per_finding;
  }

  void check_pair(std::uint32_t i, std::uint32_t j) {
    if (f_.ranges[i].is_translated() || f_.ranges[j].is_translated()) {
      check_global_pair(i, j);
      return;
    }
    if (f_.ranges[i].is_route() || f_.ranges[j].is_route()) {
      check_route_pair(i, j);
      return;
    }
    // A cluster network inside the network it runs in, or beside another member's, shares its space.
    if (members_.shared(i, j)) return;
    if (pods_in_own_network(i, j)) return;
    make_room();
    // Order the two sides: cheaper to move first, then declaration order.
    if (std::make_tuple(move_rank(f_.ranges[j]), j) < std::make_tuple(move_rank(f_.ranges[i]), i)) std::swap(i, j);
    const auto& a = f_.ranges[i];
    const auto& b = f_.ranges[j];
    detail::finding_record x{{i, j}, detail::finding_record::nowhere, rule::overlap_internal, severity::error, true};
    if (a.owner != b.owner) {
      // Keyed by the ordered pair of classes: meet() prefers the cheaper side's owner.
      auto ca = routing_.class_of(i), cb = routing_.class_of(j);
      // Members of one translated connection never see each other's real ranges: when
      // nothing else carries either range, they meet nowhere, so no finding (and no cache entry).
      bool translated = routing_.translated_between(a.owner, b.owner) != none;
      if (translated && !routing_.carried(ca) && !routing_.carried(cb)) return;
      auto key = std::uint64_t{ca} << 32 | cb;
      auto it = cache_.find(key);
      if (it == cache_.end()) {
        auto m = routing_.meet(ca, a.owner, cb, b.owner);
        it = cache_.emplace(key, m.owner == none ? detail::finding_record::nowhere : meeting_index(std::move(m))).first;
      }
      if (it->second == detail::finding_record::nowhere && translated) return;
      x.meeting = it->second;
      x.id = x.meeting == detail::finding_record::nowhere ? rule::latent_overlap : rule::overlap;
    }
    x.level = info(x.id).default_severity;
    records_.push_back(x);
  }

  // The index of meeting m in meetings_, which holds each distinct meeting once:
  // a clique has a pair of routing classes per finding, but few places they meet.
  auto meeting_index(meeting m) -> std::uint32_t {
    const auto next = static_cast<std::uint32_t>(meetings_.size());
    auto [at, added] = meeting_indexes_.try_emplace(std::pair(m.owner, m.via), next);
    if (added) meetings_.push_back(std::move(m));
    return at->second;
  }

  // -------------------------------------------------------------------------
  // Routes: a prefix a network carries toward another owner.

  void find_destinations() {
    destination_.clear();
    for (auto d : route_destinations(f_)) destination_.push_back(d.value_or(none));
  }

  // Where a route leads when it does not say (describe_range names a declared `to`).
  auto destination_text(std::uint32_t route) const -> std::string {
    auto d = destination_[route];
    if (d == none || f_.routes[route].to_owner) return "";
    return " toward " + describe_owner(f_.owners[d]) + " (it lies in its space)";
  }

  // Reports whether two routes of one network lead to different places: their
  // declared destinations differ, or, where either is not declared, their
  // advertisers differ. Unknown on both counts is no difference.
  auto lead_apart(const fleet_route& a, const fleet_route& b) const -> bool {
    if (a.to_owner && b.to_owner) return *a.to_owner != *b.to_owner;
    return !a.advertiser.empty() && !b.advertiser.empty() && a.advertiser != b.advertiser;
  }

  // A pair from the sweep of which at least one range is a route.
  void check_route_pair(std::uint32_t i, std::uint32_t j) {
    const auto& a = f_.ranges[i];
    const auto& b = f_.ranges[j];
    if (a.is_route() && b.is_route()) {
      if (a.owner == b.owner) check_two_routes(i, j);
      return;  // routes of different networks meet only where both networks are seen; not modelled
    }
    auto route = a.is_route() ? i : j;
    auto other = a.is_route() ? j : i;
    check_route_against(route, other);
  }

  void check_two_routes(std::uint32_t i, std::uint32_t j) {
    // The more specific first: it is the one that takes the traffic.
    if (f_.ranges[i].cidr.length() < f_.ranges[j].cidr.length() ||
        (f_.ranges[i].cidr.length() == f_.ranges[j].cidr.length() && j < i)) {
      std::swap(i, j);
    }
    const auto& inner = f_.ranges[i];
    const auto& outer = f_.ranges[j];
    const auto& x = f_.routes[inner.route];
    const auto& y = f_.routes[outer.route];
    const auto& network = f_.owners[inner.owner];
    if (inner.cidr == outer.cidr) {
      if (!lead_apart(x, y)) return;  // one router's route twice, or failover to one destination
      bool apart = x.to_owner && y.to_owner;
      std::string who = x.advertiser.empty() || y.advertiser.empty() ? "two routes"
                                                                     : x.advertiser + " and " + y.advertiser;
      auto& finding = add(rule::duplicate_route, {j, i},
                          describe_owner(network) + " carries " + inner.cidr.to_string() + " twice, from " + who +
                              (apart ? ", toward " + f_.owners[*y.to_owner].name + " and " +
                                           f_.owners[*x.to_owner].name
                                     : std::string()) +
                              ": only one of them gets the traffic (a subnet router that fails over takes it all)",
                          apart ? "two destinations cannot share a prefix: renumber one, or advertise it through a "
                                  "translated connection (`via: nat`, 4via6)"
                                : "if both routers reach the same network this is failover on purpose: say so with "
                                  "`to` on both routes; otherwise withdraw one");
      finding.overlap = address_range(inner.cidr);
      if (apart) finding.level = severity::error;
      return;
    }
    if (!lead_apart(x, y)) return;
    auto& finding = add(rule::route_conflict, {i, j},
                        f_.describe_range(inner) + " lies inside " + f_.describe_range(outer) +
                            ": the more specific route wins, so traffic for " + inner.cidr.to_string() + " goes" +
                            (x.advertiser.empty() ? std::string(" its way") : " to " + x.advertiser) +
                            " and never reaches " + (y.advertiser.empty() ? "the wider route's" : y.advertiser + "'s") +
                            " destination (Tailscale does not fall back to the wider route either)",
                        "if " + inner.cidr.to_string() + " is meant to go elsewhere, say so with `to`; otherwise "
                        "withdraw the more specific route, or have every router of the wider route advertise it too");
    finding.overlap = address_range(inner.cidr);
  }

  // -------------------------------------------------------------------------
  // Translated connections: each member's global ranges stand for it there.

  // A pair from the sweep of which at least one range is a translated one:
  // two members' global ranges on one connection, or a global range and a
  // range routed at some member of its connection (global-range-overlap).
  void check_global_pair(std::uint32_t i, std::uint32_t j) {
    if (!f_.ranges[i].is_translated()) std::swap(i, j);
    const auto& g = f_.ranges[i];
    const auto& r = f_.ranges[j];
    const auto& conn = f_.connections[g.translation];
    std::string clash;
    if (r.is_translated()) {
      // Global ranges of different connections meet only where both connections do: not modelled.
      if (r.translation != g.translation || r.owner == g.owner) return;
      clash = "members' global ranges must be disjoint, or translated addresses are ambiguous";
      if (j < i) std::swap(i, j);
    } else {
      auto at = routing_.routed_at_member(r, routing_.class_of(j), conn);
      if (at == none) return;
      clash = f_.owners[at].name + " routes both, so addresses there are ambiguous";
    }
    auto& x = add(rule::global_range_overlap, {i, j},
                  f_.describe_range(f_.ranges[i]) + " overlaps " + f_.describe_range(f_.ranges[j]) + ": " + clash,
                  "give each member a global range of its own, outside every range routed on either side of " +
                      f_.describe_connection(g.translation));
    const auto& a = f_.ranges[i].cidr;
    const auto& b = f_.ranges[j].cidr;
    x.overlap = address_range(a.length() >= b.length() ? a : b);
  }

  void check_route_against(std::uint32_t route_index, std::uint32_t other) {
    const auto& route = f_.ranges[route_index];
    const auto& r = f_.ranges[other];
    const auto network = route.owner;
    if (r.owner == network) {
      if (!route.cidr.subnet_of(r.cidr) || translated(network, route.cidr)) return;
      auto& x = add(rule::route_in_overlay, {route_index, other},
                    f_.describe_range(route) + " lies inside " + f_.describe_range(r) +
                        ", the network's own space: it shadows the devices numbered there",
                    "advertise the destination's real range, or reach it through a translated connection (4via6, "
                    "`via: nat`) whose space is meant for it");
      x.overlap = address_range(route.cidr);
      return;
    }
    auto destination = destination_[route.route];
    if (destination == none || destination == r.owner) return;
    auto c = routing_.carried_to(routing_.class_of(other), network);
    if (c == none) return;  // the network does not route that range: the route does not meet it
    // Longest prefix wins: the more specific of the two takes the shared addresses from the other.
    std::string outcome =
        route.cidr == r.cidr ? "both claim the same prefix, so one of them loses all of it"
        : route.cidr.subnet_of(r.cidr)
            ? "the route is more specific and takes " + route.cidr.to_string() + " away from " + f_.owners[r.owner].name
            : "the more specific " + r.cidr.to_string() + " goes to " + f_.owners[r.owner].name +
                  ", not where the route leads";
    auto& x = add(rule::route_conflict, {route_index, other},
                  f_.describe_range(route) + destination_text(route.route) + " overlaps " + f_.describe_range(r) +
                      ", which " + f_.owners[network].name + " routes through " + f_.describe_connection(c) + ": " +
                      outcome,
                  "move the " + f_.role_name(r) + " range of " + f_.owners[r.owner].name + " out of " +
                      route.cidr.to_string() + ", or narrow the route to its destination's ranges");
    x.overlap = address_range(route.cidr.length() >= r.cidr.length() ? route.cidr : r.cidr);
    x.routed_at = network;
    x.via = {c};
  }

  // Reports whether a route lies in a block the network's type translates routes into (4via6).
  auto translated(std::uint32_t network, const prefix& p) const -> bool {
    const auto* type = c_.find_network_type(f_.owners[network].type);
    if (type == nullptr) return false;
    return std::any_of(type->translated.begin(), type->translated.end(), [&](const prefix& t) { return p.subnet_of(t); });
  }

  // The message and hint of an overlap finding, from its fields.
  void describe_pair(finding& x) const {
    const auto& a = f_.ranges[x.ranges[0]];
    const auto& b = f_.ranges[x.ranges[1]];
    const std::string& a_owner = f_.owners[a.owner].name;
    std::string shared = x.overlap->to_prefix()->to_string();
    if (x.id == rule::overlap_internal) {
      x.message = f_.describe_range(a) + " overlaps " + f_.role_name(b) + " " + b.cidr.to_string() + " of the same " +
                  std::string(to_string(f_.owners[a.owner].kind)) + " in " + shared;
      x.hint = "give each role of " + a_owner + " its own space: move the " + f_.role_name(a) +
               " range (`cidrcheck plan` proposes where)";
      return;
    }
    std::string both = f_.describe_range(a) + " overlaps " + f_.describe_range(b) + " in " + shared;
    if (x.id == rule::latent_overlap) {
      x.message = both + "; nothing routes both yet, but connecting " + a_owner + " and " + f_.owners[b.owner].name +
                  " would break routing";
      x.hint = "before connecting them, move one: the " + f_.role_name(a) + " range of " + a_owner +
               " is the cheaper (`cidrcheck plan --fix-latent`)";
      return;
    }
    std::string where = f_.owners[*x.routed_at].name + " routes both";
    // Who takes part through the network it runs in, not a connection of its own.
    std::string through;
    const std::uint32_t sides[] = {*x.routed_at, a.owner, b.owner};
    for (std::size_t k = 0; k < 3; ++k) {
      auto o = sides[k];
      auto network = members_.place(o).network;
      if (!network || std::find(sides, sides + k, o) != sides + k) continue;
      if (std::any_of(x.via.begin(), x.via.end(), [&](std::uint32_t c) { return routing_.inherits(o, c); })) {
        through += (through.empty() ? " (" : ", ") + f_.owners[o].name + " runs in " + f_.owners[*network].name;
      }
    }
    if (!through.empty()) where += through + ")";
    for (std::size_t k = 0; k < x.via.size(); ++k) {
      where += (k == 0 ? ", through " : " and ") + f_.describe_connection(x.via[k]);
    }
    x.message = both + "; " + where;
    if (peering_refuses(x)) {
      x.message += "; peering refuses overlapping blocks: AWS, Google Cloud and Azure do not peer networks whose "
                   "address ranges overlap";
    }
    // The side to move: the cheaper one, unless the fleet file's plan section pins it.
    bool a_pinned = pins_.pinned[x.ranges[0]], b_pinned = pins_.pinned[x.ranges[1]];
    if (a_pinned && b_pinned) {
      x.hint = "both ranges are pinned in the plan section: unpin one to let `cidrcheck plan` move it, or stop "
               "routing one of them";
    } else if (a_pinned) {
      x.hint = "move the " + f_.role_name(b) + " range of " + f_.owners[b.owner].name + " (the " + f_.role_name(a) +
               " range of " + a_owner + " is pinned) to free space, or stop routing it (`cidrcheck plan` proposes "
               "the move)";
    } else {
      x.hint = "move the " + f_.role_name(a) + " range of " + a_owner +
               " (the cheaper side) to free space, or stop routing it (`cidrcheck plan` proposes the move)";
    }
    x.hint += runs_in_hint(a, b);
  }

  // Where a cluster's network lies in a network that could hold it but a
  // connection joins the two (so containment did not place it there): how to
  // say it runs there, if it does.
  auto runs_in_hint(const fleet_range& a, const fleet_range& b) const -> std::string {
    const fleet_range& inner = a.cidr.length() >= b.cidr.length() ? a : b;
    const fleet_range& outer = &inner == &a ? b : a;
    const owner& cluster = f_.owners[inner.owner];
    const owner& network = f_.owners[outer.owner];
    if (cluster.kind != owner_kind::cluster || inner.role != range_role::network || !inner.is_plain() ||
        network.kind != owner_kind::network || !outer.is_plain() || !outer.cidr.supernet_of(inner.cidr) ||
        !cluster.runs_in.empty() || !routing_.connected(inner.owner, outer.owner)) {
      return "";
    }
    const auto* type = c_.find_network_type(network.type);
    if (type == nullptr || !type->holds_clusters) return "";
    return "; if " + cluster.name + " runs in " + network.name + ", say so with `runs_in: " + network.name +
           "` (a connection between them says they are separate networks, so cidrcheck does not place it there)";
  }

  // Reports whether an overlap of two networks' blocks (a network's own range
  // or a cluster's network range) is brought together by a peering that joins
  // both sides (each owner, or the network it runs in): a peering the clouds
  // refuse while the blocks overlap (docs/rules/overlap.md cites them).
  // A pod range the network numbers is a block of the cluster's VPC too: custom
  // networking puts it in a secondary block (eks-custom-pod-range).
  auto peering_refuses(const finding& x) const -> bool {
    const auto& a = f_.ranges[x.ranges[0]];
    const auto& b = f_.ranges[x.ranges[1]];
    auto block = [&](const fleet_range& r) {
      if (!r.is_plain()) return false;
      if (r.role == range_role::network || r.role == range_role::external) return true;
      return r.role == range_role::pods && network_numbers_pods(r.owner);
    };
    if (!block(a) || !block(b)) return false;
    return std::any_of(x.via.begin(), x.via.end(), [&](std::uint32_t c) {
      return f_.connections[c].peers() && routing_.reaches(a.owner, c) && routing_.reaches(b.owner, c);
    });
  }

  // Pods inside a network range of their own cluster whose addresses the network
  // hands out (network_numbers_pods) are the design, not an overlap: custom
  // networking puts them in a secondary CIDR of the cluster's VPC.
  auto pods_in_own_network(std::uint32_t i, std::uint32_t j) const -> bool {
    const auto& a = f_.ranges[i];
    const auto& b = f_.ranges[j];
    if (a.owner != b.owner) return false;
    const fleet_range* pods = a.role == range_role::pods ? &a : b.role == range_role::pods ? &b : nullptr;
    const fleet_range* network = a.role == range_role::network ? &a : b.role == range_role::network ? &b : nullptr;
    if (pods == nullptr || network == nullptr || !pods->cidr.subnet_of(network->cidr)) return false;
    return network_numbers_pods(a.owner);
  }

  // Whether owner's pods take their addresses from its network (the VPC CNI, Cilium ENI).
  auto network_numbers_pods(std::uint32_t owner) const -> bool {
    return c_.pod_numbering_of(f_.owners[owner]).addresses == address_source::network;
  }

  void check_catalog(std::uint32_t k) {
    const fleet_range& r = f_.ranges[k];
    // A global range lives only on its translated connection (Submariner's GlobalCIDR is 242.0.0.0/8 by default).
    if (r.is_translated()) return;
    const owner& o = f_.owners[r.owner];
    bool cluster = o.kind == owner_kind::cluster;
    bool special = false;  // inside a reserved or documentation block: public-range would only repeat it
    for (const auto& b : c_.blocks) {
      if (!r.cidr.overlaps(b.cidr)) continue;
      auto id = find_rule(b.rule);
      if (!id) continue;
      bool any_owner = *id == rule::reserved_range || *id == rule::documentation_range;
      special = special || any_owner;
      if (*id == rule::well_known_default || (!cluster && !any_owner)) continue;
      auto& x = add(*id, {k}, f_.describe_range(r) + " overlaps " + b.name + " " + b.cidr.to_string(),
                    hint_for_block(*id, r, b));
      x.block = std::make_shared<const finding_block>(finding_block{b.cidr, b.name, b.source});
      x.overlap = address_range(r.cidr.length() >= b.cidr.length() ? r.cidr : b.cidr);
    }
    if (!cluster) return;
    // IPv6 nodes and pods use global addresses by design (EKS, GKE and AKS give them
    // the VPC's); only an IPv6 service range, which is virtual, shadows someone's.
    bool global_by_design = r.cidr.version() == ip_version::v6 && r.role != range_role::services;
    if (!special && !global_by_design && !private_space().contains(r.cidr)) {
      add(rule::public_range, {k},
          f_.describe_range(r) + " lies outside private space (RFC 1918, RFC 6598, fc00::/7), so pods cannot reach "
                                  "the real internet addresses it shadows",
          "use private space for cluster ranges unless the range is yours on the internet");
    }
    if (const auto* d = c_.find_distribution(o.type)) {
      for (const auto& reserved : d->reserved) {
        if (!r.cidr.overlaps(reserved)) continue;
        auto& x = add(rule::platform_reserved, {k},
                      f_.describe_range(r) + " overlaps " + reserved.to_string() + ", which " + o.type +
                          " reserves for itself",
                      "move the " + f_.role_name(r) + " range out of " + reserved.to_string());
        x.block = std::make_shared<const finding_block>(finding_block{reserved, o.type + " reserved range", d->source});
      }
    }
    if (auto defaults = well_known_defaults().find(r.cidr); defaults != well_known_defaults().end()) {
      add(rule::well_known_default, {k},
          f_.describe_range(r) + " is " + defaults->second + ", which the next cluster installed with defaults reuses",
          "choose a unique range now; a connection to any cluster on defaults would overlap");
    }
  }

  auto hint_for_block(rule id, const fleet_range& r, const catalog_block& b) const -> std::string {
    std::string what = "the " + f_.role_name(r) + " range of " + f_.owners[r.owner].name;
    switch (id) {
      case rule::reserved_range: return "move " + what + " out of " + b.cidr.to_string() + ", to private space";
      case rule::documentation_range: return "documentation blocks are for examples; move " + what + " to private space";
      case rule::shared_address_space:
        return "move " + what + " out of 100.64.0.0/10 before a node or laptop joins a tailnet";
      case rule::docker_bridge: return "move " + what + " out of 172.17.0.0/16, or change Docker's bip on every host";
      default: return "move " + what;
    }
  }

  void check_cluster(std::uint32_t index) {
    const owner& o = f_.owners[index];
    std::vector<std::uint32_t> services, pods;
    for (auto k : o.ranges) {
      if (f_.ranges[k].role == range_role::services) services.push_back(k);
      if (f_.ranges[k].role == range_role::pods) pods.push_back(k);
    }
    check_services(o, services);
    check_pods(o, index, pods);
    check_dns(o, services);
  }

  void check_services(const owner& o, const std::vector<std::uint32_t>& services) {
    int per_version[2] = {0, 0};
    for (auto k : services) {
      const auto& r = f_.ranges[k];
      bool v4 = r.cidr.version() == ip_version::v4;
      ++per_version[v4 ? 0 : 1];
      int largest = v4 ? 12 : 108;  // kube-apiserver: at most 20 host bits
      if (r.cidr.length() < largest) {
        add(rule::service_range_too_large, {k},
            f_.describe_range(r) + " is larger than /" + std::to_string(largest) +
                ", the largest service range kube-apiserver accepts",
            "use at most a /" + std::to_string(largest) + ", for example " +
                prefix::containing(r.cidr.network(), largest).to_string());
      }
      if (r.cidr.width() - r.cidr.length() < 3) {
        add(rule::service_range_too_small, {k},
            f_.describe_range(r) + " has fewer than 8 addresses, the least kube-apiserver accepts",
            "use at least a /" + std::to_string(r.cidr.width() - 3));
      }
    }
    if (services.size() > 2 || per_version[0] > 1 || per_version[1] > 1) {
      add(rule::service_range_count, {services[services.size() > 2 ? 2 : 1]},
          "cluster " + o.name + " has " + std::to_string(services.size()) +
              " service ranges; kube-apiserver takes one per IP version (two at most, of different versions)",
          "keep one IPv4 and one IPv6 service range; extend a service range with a ServiceCIDR object instead");
    }
  }

  void check_pods(const owner& o, std::uint32_t index, const std::vector<std::uint32_t>& pods) {
    for (auto k : pods) {
      const auto& r = f_.ranges[k];
      int mask = c_.node_cidr_mask(o, r.cidr.version());
      if (node_mask_fits(r.cidr, mask)) continue;
      if (mask < r.cidr.length() || mask > r.cidr.width()) {
        add(rule::node_mask_too_large, {k},
            "cluster " + o.name + "'s node CIDR mask /" + std::to_string(mask) + " does not fit in its " +
                f_.role_name(r) + " " + r.cidr.to_string(),
            "use a node mask of at least /" + std::to_string(r.cidr.length()) + ", or a larger pod range");
      } else {
        add(rule::node_mask_too_large, {k},
            "cluster " + o.name + "'s IPv6 node mask /" + std::to_string(mask) + " is more than 16 bits longer than " +
                r.cidr.to_string() + ", which kube-controller-manager refuses",
            "use an IPv6 node mask of at most /" + std::to_string(r.cidr.length() + 16));
      }
    }
    auto capacity = node_capacity(f_, c_, index);
    std::uint64_t blocks = capacity.node_blocks;
    // No node block at all (a pod range shorter than the node mask) is the least capacity, not none to judge.
    if (!o.nodes || pods.empty() || *o.nodes == 0) return;
    std::uint32_t first = pods.front();
    // A CNI that hands out its own blocks (Calico) gives a node at least one of them.
    bool cni_blocks = capacity.node_mask != c_.node_cidr_mask(o, capacity.version);
    std::string subject = "the pod ranges of cluster " + o.name + " hold " + std::to_string(blocks) +
                          (cni_blocks ? " " + (o.cni.empty() ? std::string("pod") : o.cni) + " blocks of /"
                                      : std::string(" node blocks of /")) +
                          std::to_string(capacity.node_mask) + (cni_blocks ? " (a node takes at least one)" : "");
    if (*o.nodes > blocks) {
      add(rule::pod_capacity, {first}, subject + ", fewer than its " + std::to_string(*o.nodes) + " nodes",
          std::string("grow the pod range (one bit more doubles it) or ") +
              (cni_blocks ? "use smaller blocks (block_size)" : "lengthen the node mask") +
              "; `cidrcheck plan` sizes it");
    } else if (static_cast<double>(*o.nodes) > options_.capacity_warning * static_cast<double>(blocks)) {
      auto& x = add(rule::pod_capacity, {first},
                    subject + "; its " + std::to_string(*o.nodes) + " nodes use " +
                        std::to_string(*o.nodes * 100 / blocks) + "% of them",
                    "grow the pod range before the cluster grows");
      x.level = severity::warning;
    }
  }

  void check_dns(const owner& o, const std::vector<std::uint32_t>& services) {
    if (!o.dns) return;
    // NodeLocal DNSCache: kubelets may send DNS to a link-local address the
    // node-local cache listens on (169.254.20.10 by default; kubernetes/kubernetes
    // cluster/addons/dns/nodelocaldns/README.md). Not an error; its upstream, the
    // cluster DNS Service, is still a service address, which the fleet does not name.
    if (o.dns->version() == ip_version::v4 && prefix::parse("169.254.0.0/16").contains(*o.dns)) {
      if (services.empty()) return;
      auto& x = add(rule::dns_outside_service_range, {services.front()},
                    "cluster " + o.name + "'s DNS address " + o.dns->to_string() +
                        " is link-local: a node-local DNS cache (NodeLocal DNSCache) listens there",
                    "the cache forwards to the cluster DNS Service (kube-dns), which must still be inside the service "
                    "range: keep its address in " + f_.ranges[services.front()].cidr.to_string());
      x.level = severity::note;
      return;
    }
    for (auto k : services) {
      const auto& r = f_.ranges[k];
      if (!r.cidr.contains(*o.dns)) continue;
      if (*o.dns == r.cidr.network().next()) {
        add(rule::dns_is_kubernetes_service, {k},
            "cluster " + o.name + "'s DNS address " + o.dns->to_string() + " is the first address of " +
                r.cidr.to_string() + ", which the kubernetes.default service takes",
            "use the tenth address, " + address::from_bits(r.cidr.version(), r.cidr.network().bits() + 10).to_string() +
                ", by convention");
      }
      return;
    }
    if (services.empty()) return;
    add(rule::dns_outside_service_range, {services.front()},
        "cluster " + o.name + "'s DNS address " + o.dns->to_string() + " is not in its service ranges",
        "kubelets send DNS to a service address: use the tenth address of a service range");
  }

  void check_conflict(const source_conflict& c) {
    const fleet_range& first = f_.ranges[c.kept.front()];
    const owner& o = f_.owners[first.owner];
    auto list = [](auto&& cidrs) {
      std::string out;
      for (const auto& p : cidrs) out += (out.empty() ? "" : ", ") + p.to_string();
      return out;
    };
    std::vector<prefix> kept;
    for (auto k : c.kept) kept.push_back(f_.ranges[k].cidr);
    std::string what = o.kind == owner_kind::cluster ? f_.role_name(first) : "ranges";
    if (c.outside) {
      add(rule::source_conflict, {c.kept.front()},
          what + " " + list(c.other) + " in " + to_string(c.other_where) + " lie outside the " + what + " " +
              list(kept) + " of " + describe_owner(o),
          "allocations (node pod CIDRs, subnets, IP pools) must lie inside their range; kube-controller-manager "
          "does not start while a node's pod CIDR is outside --cluster-cidr: fix the range, or re-export the stale source");
      return;
    }
    add(rule::source_conflict, {c.kept.front()},
        "sources disagree on the " + what + " of " + describe_owner(o) + ": " + list(kept) + " here, " +
            list(c.other) + " in " + to_string(c.other_where) + "; cidrcheck checks the first",
        "find the stale source (an old export, Terraform state behind the cloud, a hand-written value) and fix or "
        "re-export it");
  }

  auto private_space() -> const address_set& {
    if (!private_) {
      address_set_builder b;
      for (const auto& p : c_.private_space) b.add(p);
      private_ = b.build();
    }
    return *private_;
  }

  // Every distribution default and well-known default block, by range, with its names.
  auto well_known_defaults() -> const std::map<prefix, std::string>& {
    if (!defaults_) {
      std::map<prefix, std::vector<std::string>> names;
      for (const auto& d : c_.distributions) {
        for (const auto* list : {&d.network, &d.pods, &d.services, &d.services_instead}) {
          std::string role = list == &d.network ? "network" : list == &d.pods ? "pod" : "service";
          for (const auto& p : *list) names[p].push_back(d.name + "'s " + role + " default");
        }
      }
      for (const auto& b : c_.blocks) {
        if (find_rule(b.rule) == rule::well_known_default) names[b.cidr].push_back(b.name);
      }
      defaults_.emplace();
      for (auto& [p, list] : names) {
        std::string text = list.front();
        if (list.size() > 1) {
          text += " (also ";
          for (std::size_t k = 1; k < list.size() && k < 4; ++k) text += (k > 1 ? ", " : "") + list[k];
          if (list.size() > 4) text += ", ...";
          text += ')';
        }
        defaults_->emplace(p, std::move(text));
      }
    }
    return *defaults_;
  }

  // Findings in the order of their first range's place, rule and second range's
  // place (line and column), ties in the order found. Each of these is ranked
  // once, so a finding's key is 24 bytes (a clique has a million), and only the
  // 16-byte records move; the whole findings stay where they are.
  void sort_records() {
    // Dense ranks: equal values share one, and ranks compare as the values do.
    auto ranks = [](std::vector<std::uint32_t> order, auto less) {
      std::vector<std::uint32_t> rank(order.size());
      std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return less(a, b); });
      std::uint32_t next = 0;
      for (std::size_t k = 0; k < order.size(); ++k) {
        if (k > 0 && less(order[k - 1], order[k])) ++next;
        rank[order[k]] = next;
      }
      return rank;
    };
    std::vector<std::uint32_t> all(f_.ranges.size());
    for (std::uint32_t k = 0; k < all.size(); ++k) all[k] = k;
    auto where = [&](std::uint32_t k) -> const source_location& { return f_.ranges[k].where; };
    const auto place = ranks(all, [&](std::uint32_t a, std::uint32_t b) {
      return std::tuple(std::string_view(where(a).file), where(a).line, where(a).column) <
             std::tuple(std::string_view(where(b).file), where(b).line, where(b).column);
    });
    // A finding of one range has no second: line and column 0 (the last entry of all).
    all.push_back(static_cast<std::uint32_t>(f_.ranges.size()));
    auto line_column = [&](std::uint32_t k) {
      return k == f_.ranges.size() ? std::pair(0u, 0u) : std::pair(where(k).line, where(k).column);
    };
    const auto second_place =
        ranks(all, [&](std::uint32_t a, std::uint32_t b) { return line_column(a) < line_column(b); });
    std::vector<std::uint32_t> rules(rule_table_data.size());
    for (std::uint32_t k = 0; k < rules.size(); ++k) rules[k] = k;
    const auto rule_rank = ranks(rules, [](std::uint32_t a, std::uint32_t b) {
      return info(static_cast<rule>(a)).id < info(static_cast<rule>(b)).id;
    });
    struct keyed {
      std::uint64_t first;   // place of the first range, rule
      std::uint64_t second;  // the first range, place of the second
      std::uint32_t other;   // the second range
      std::uint32_t index;   // in records_: the order found
      auto operator<(const keyed& o) const -> bool {
        return std::tie(first, second, other, index) < std::tie(o.first, o.second, o.other, o.index);
      }
    };
    std::vector<keyed> keys;
    keys.reserve(records_.size());
    for (std::uint32_t k = 0; k < records_.size(); ++k) {
      const auto& x = records_[k];
      std::span<const std::uint32_t> ranges =
          x.conflict ? std::span<const std::uint32_t>(x.pair) : std::span<const std::uint32_t>(whole_[x.pair[0]].ranges);
      const std::uint32_t second = ranges.size() > 1 ? ranges[1] : static_cast<std::uint32_t>(f_.ranges.size());
      keys.push_back({std::uint64_t{place[ranges[0]]} << 8 | rule_rank[static_cast<std::size_t>(x.id)],
                      std::uint64_t{ranges[0]} << 32 | second_place[second], ranges.size() > 1 ? ranges[1] : 0u, k});
    }
    std::sort(keys.begin(), keys.end());
    std::vector<detail::finding_record> sorted;
    sorted.reserve(records_.size());
    for (const auto& key : keys) sorted.push_back(records_[key.index]);
    records_ = std::move(sorted);
  }

  // Quiet pairs examined per max-findings: the bound on the pairs no grouping covers.
  static constexpr std::uint64_t quiet_pairs_per_finding = 100;

  struct entry {
    std::uint32_t begin, end;  // order_[begin, end): twins
  };

  const fleet& f_;
  const catalog& c_;
  const check_options& options_;
  detail::membership_index members_;
  routing_index routing_;
  detail::pinned_ranges pins_;  // which ranges the plan section pins, for the hints of overlaps
  // Per pair of routing classes: where they meet, an index in meetings_, or nowhere.
  std::unordered_map<std::uint64_t, std::uint32_t> cache_;
  std::vector<meeting> meetings_;       // where the overlap records meet (each routed somewhere), each once
  std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, std::uint32_t> meeting_indexes_;  // index in meetings_
  std::vector<std::uint32_t> order_;    // ranges by prefix, quiet group, owner, twins
  std::vector<std::uint64_t> group_;    // per range: its quiet group (quiet_group())
  std::vector<entry> entries_;          // runs of twins in order_
  std::uint64_t quiet_ = 0;             // quiet pairs examined
  std::vector<detail::finding_record> records_;  // every finding, in the order found
  std::vector<finding> whole_;                    // the findings that are no overlap record
  std::optional<address_set> private_;
  std::optional<std::map<prefix, std::string>> defaults_;
  std::vector<std::uint32_t> destination_;  // per route: the owner it leads to, or none
};

}  // namespace

auto route_destinations(const fleet& f) -> std::vector<std::optional<std::uint32_t>> {
  std::vector<std::optional<std::uint32_t>> destination(f.routes.size());
  if (f.routes.empty()) return destination;
  std::vector<std::pair<prefix, std::uint32_t>> plain;  // (cidr, owner) of every range that is no route
  for (const auto& r : f.ranges) {
    if (r.is_plain()) plain.emplace_back(r.cidr, r.owner);
  }
  std::sort(plain.begin(), plain.end());
  for (std::size_t k = 0; k < f.routes.size(); ++k) {
    const auto& x = f.routes[k];
    if (x.to_owner) {
      destination[k] = *x.to_owner;
      continue;
    }
    const auto& route = f.ranges[x.range];
    for (int length = route.cidr.length(); length >= 0; --length) {
      auto holder = prefix::containing(route.cidr.network(), length);
      auto it = std::lower_bound(plain.begin(), plain.end(), std::pair{holder, std::uint32_t{0}});
      std::optional<std::uint32_t> found;
      bool ambiguous = false;
      for (; it != plain.end() && it->first == holder; ++it) {
        if (it->second == route.owner) continue;
        if (found && *found != it->second) ambiguous = true;
        found = it->second;
      }
      if (!found) continue;
      if (!ambiguous) destination[k] = found;
      break;
    }
  }
  return destination;
}

auto check(const fleet& f, const catalog& c, const check_options& options) -> std::vector<finding> {
  checker found(f, c, options);
  auto out = found.run().release(f);
  if (options.describe && options.describe_overlaps) {
    for (auto& x : out) {
      found.describe(x);
      // Built by appending, the texts hold up to twice their length, and the caller keeps them all.
      x.message.shrink_to_fit();
      x.hint.shrink_to_fit();
    }
  }
  return out;
}

struct overlap_describer::impl {
  impl(const fleet& f, const catalog& c) : describer(f, c, options) {}
  const check_options options;
  const checker describer;
};

overlap_describer::overlap_describer(const fleet& f, const catalog& c) : f_(f), c_(c) {}

overlap_describer::~overlap_describer() = default;

void overlap_describer::describe(finding& x) const {
  if (!undescribed_overlap(x)) return;
  std::call_once(made_, [this] { impl_ = std::make_unique<impl>(f_, c_); });
  impl_->describer.describe(x);
}

void describe_overlaps(const fleet& f, const catalog& c, std::vector<finding>& findings,
                       std::span<const std::uint32_t> indexes) {
  const overlap_describer describer(f, c);
  for (auto k : indexes) describer.describe(findings[k]);
}

namespace detail {

auto check_compact(const fleet& f, const catalog& c, const check_options& options) -> compact_findings {
  return checker(f, c, options).run();
}

auto compact_findings::level(std::size_t k) const -> severity {
  const auto& x = records_[k];
  return x.conflict ? x.level : whole_[x.pair[0]].level;
}

auto compact_findings::ranges(std::size_t k) const -> std::span<const std::uint32_t> {
  const auto& x = records_[k];
  return x.conflict ? std::span<const std::uint32_t>(x.pair) : std::span<const std::uint32_t>(whole_[x.pair[0]].ranges);
}

auto compact_findings::message(std::size_t k) const -> const std::string& {
  static const std::string undescribed;
  const auto& x = records_[k];
  if (!x.conflict) return whole_[x.pair[0]].message;
  auto it = described_.find(static_cast<std::uint32_t>(k));
  return it == described_.end() ? undescribed : it->second.message;
}

auto compact_findings::conflict(const fleet& f, const finding_record& x) const -> finding {
  finding out;
  out.id = x.id;
  out.level = x.level;
  out.ranges = {x.pair[0], x.pair[1]};
  const auto& a = f.ranges[x.pair[0]].cidr;
  const auto& b = f.ranges[x.pair[1]].cidr;
  out.overlap = address_range(a.length() >= b.length() ? a : b);
  if (x.meeting != finding_record::nowhere) {
    out.routed_at = meetings_[x.meeting].owner;
    out.via = meetings_[x.meeting].via;
  }
  return out;
}

auto compact_findings::materialize(const fleet& f, std::size_t k) const -> finding {
  const auto& x = records_[k];
  return x.conflict ? conflict(f, x) : whole_[x.pair[0]];
}

auto compact_findings::release(const fleet& f) && -> std::vector<finding> {
  std::vector<finding> out;
  out.reserve(records_.size());
  for (const auto& x : records_) out.push_back(x.conflict ? conflict(f, x) : std::move(whole_[x.pair[0]]));
  *this = {};
  return out;
}

void compact_findings::describe(const fleet& f, const catalog& c, std::span<const std::uint32_t> indexes) {
  const check_options options;
  const checker describer(f, c, options);
  for (auto k : indexes) {
    if (!records_[k].conflict || described_.count(k) != 0) continue;
    auto x = conflict(f, records_[k]);
    describer.describe(x);
    described_.emplace(k, std::move(x));
  }
}

}  // namespace detail

}  // namespace cidrcheck
