#include <cidrcheck/fleet/plan.hpp>

#include "migration.hpp"
#include "vertex_cover.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <algorithm>
#include <cmath>
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
  std::vector<prefix> avoid;
  std::vector<pin_pattern> pins;
  int cost[3];
  double headroom;
};

auto merge_settings(const plan_settings& file, const plan_settings& flags) -> effective_settings {
  effective_settings s;
  for (std::size_t r = 0; r < 3; ++r) {
    s.pools[r] = !flags.pools[r].empty() ? flags.pools[r] : file.pools[r];
    if (s.pools[r].empty()) {
      // RFC 1918, and the unique-local space that IPv6 clusters use.
      for (auto text : {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fd00::/8"}) s.pools[r].push_back(prefix::parse(text));
    }
    s.cost[r] = flags.cost[r].value_or(file.cost[r].value_or(default_cost[r]));
  }
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
    findings_ = judged(working_, check(working_, c_, options_.check));
    mark_pins();
    decide();
    size_changes();
    allocate();
    fix_dns();
    finish();
    return std::move(result_);
  }

 private:
  struct move {
    std::uint32_t range;
    int length;  // the new length
  };

  // The reasons a change shows: the first few findings it resolves, then a count.
  static constexpr std::size_t shown_reasons = 3;
  auto reasons_of(std::uint32_t range) const -> std::vector<std::string> {
    std::vector<std::string> out;
    const auto& ids = reasons_[range];
    for (std::size_t k = 0; k < ids.size() && k < shown_reasons; ++k) out.push_back(findings_[ids[k]].message);
    if (ids.size() > shown_reasons) out.push_back("and " + std::to_string(ids.size() - shown_reasons) + " more findings");
    return out;
  }

  // A range is pinned by a pattern, or because it is a network's and the
  // network is not movable.
  void mark_pins() {
    pinned_.assign(working_.ranges.size(), false);
    std::vector<bool> used(settings_.pins.size(), false);
    for (std::uint32_t k = 0; k < working_.ranges.size(); ++k) {
      const auto& r = working_.ranges[k];
      const auto& o = working_.owners[r.owner];
      if (o.kind == owner_kind::network && !o.movable) pinned_[k] = true;
      for (std::size_t p = 0; p < settings_.pins.size(); ++p) {
        if (pins(settings_.pins[p], working_, r)) {
          pinned_[k] = true;
          used[p] = true;
        }
      }
    }
    for (std::size_t p = 0; p < settings_.pins.size(); ++p) {
      if (used[p]) continue;
      result_.diagnostics.push_back({severity::warning, "unused-pin",
                                     "pin '" + settings_.pins[p].pattern + "' matches no range of the fleet",
                                     settings_.pins[p].where, {}});
    }
  }

  // Chooses the ranges to move: forced ones, then a minimum-weight cover of the pairs.
  void decide() {
    const std::size_t n = working_.ranges.size();
    std::vector<bool> forced(n, false);
    reasons_.assign(n, {});
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (std::uint32_t index = 0; index < findings_.size(); ++index) {
      const auto& x = findings_[index];
      bool wanted = x.level == severity::error || (options_.fix_latent && x.id == rule::latent_overlap);
      if (!wanted) continue;
      if (is_pair_rule(x.id)) {
        edges.emplace_back(x.ranges[0], x.ranges[1]);
        for (auto k : x.ranges) reasons_[k].push_back(index);
      } else if (fixed_by_moving(x.id)) {
        forced[x.ranges[0]] = true;
        reasons_[x.ranges[0]].push_back(index);
      }
    }
    // Owners a forced move touches anyway: moving more of theirs changes no new owner.
    std::set<std::uint32_t> touched;
    for (std::uint32_t k = 0; k < n; ++k) {
      if (forced[k] && !pinned_[k]) touched.insert(working_.ranges[k].owner);
    }
    // Weights order covers by cost, then by owners changed, then keep the
    // earlier-declared range in place (moving a later one costs a hair less).
    const uint128 tie_scale = uint128{n} * n + 1;
    const uint128 cost_scale = tie_scale * (n + 1);
    std::vector<uint128> weights(n);
    for (std::uint32_t k = 0; k < n; ++k) {
      const auto& r = working_.ranges[k];
      if (pinned_[k]) {
        weights[k] = detail::pinned_weight;
        continue;
      }
      auto cost = static_cast<uint128>(settings_.cost[role_index(r.role)]);
      uint128 new_owner = touched.count(r.owner) ? 0 : 1;
      weights[k] = cost * cost_scale + new_owner * tie_scale + (n - k);
    }
    // Pairs with a forced side are resolved by that move already.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> open_edges;
    for (auto e : edges) {
      bool covered = (forced[e.first] && !pinned_[e.first]) || (forced[e.second] && !pinned_[e.second]);
      if (!covered) open_edges.push_back(e);
    }
    auto cover = detail::minimum_weight_vertex_cover(weights, open_edges);
    result_.optimal = cover.optimal;
    for (std::uint32_t k = 0; k < n; ++k) {
      if ((forced[k] || cover.in_cover[k]) && !pinned_[k]) moved_.push_back({k, working_.ranges[k].cidr.length()});
    }
  }

  // The length each moved range gets: its own, unless capacity needs more or a rule less.
  void size_changes() {
    for (auto& m : moved_) {
      const auto& r = working_.ranges[m.range];
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
  // transition-safe), the catalog's reserved blocks, the well-known defaults
  // that would collide again, and the avoided space.
  auto forbidden_space() const -> address_set {
    address_set_builder b;
    for (const auto& r : working_.ranges) b.add(r.cidr);
    for (const auto& block : c_.blocks) {
      // Defaults wider than a /12 (Cilium's 10.0.0.0/8) would forbid whole pools.
      if (block.rule == "well-known-default" && block.cidr.length() < 12 && block.cidr.version() == ip_version::v4) continue;
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
    std::vector<prefix_allocator> allocators;
    for (const auto& pools : settings_.pools) {
      address_set_builder b;
      for (const auto& p : pools) b.add(p);
      allocators.emplace_back(b.build() - forbidden);
    }
    struct wanted {
      int length;
      ip_version version;
      range_role role;
      std::optional<std::uint32_t> move, request;
    };
    std::vector<wanted> all;
    for (std::uint32_t k = 0; k < moved_.size(); ++k) {
      const auto& r = working_.ranges[moved_[k].range];
      all.push_back({moved_[k].length, r.cidr.version(), r.role, k, std::nullopt});
    }
    for (std::uint32_t q = 0; q < working_.requests.size(); ++q) {
      const auto& req = working_.requests[q];
      all.push_back({request_length(req), req.version, req.role, std::nullopt, q});
    }
    // Larger blocks first keeps the space compact; then moves before requests, in declaration order.
    std::stable_sort(all.begin(), all.end(), [](const wanted& a, const wanted& b) { return a.length < b.length; });
    for (const auto& w : all) {
      auto got = allocators[role_index(w.role)].take(w.version, w.length);
      if (!got) {
        exhausted(w.role, w.version, w.length, w.move ? std::optional(moved_[*w.move].range) : std::nullopt, w.request);
        continue;
      }
      for (auto& a : allocators) a.reserve(*got);
      plan_change change;
      change.to = *got;
      change.role = w.role;
      if (w.move) {
        const auto& m = moved_[*w.move];
        const auto& r = working_.ranges[m.range];
        change.owner = r.owner;
        change.range = m.range;
        change.from = r.cidr;
        change.cost = settings_.cost[role_index(r.role)];
        change.reasons = reasons_of(m.range);
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
      result_.changes.push_back(std::move(change));
    }
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
                 std::optional<std::uint32_t> request) {
    std::string pools;
    for (const auto& p : settings_.pools[role_index(role)]) {
      if (p.version() == v) pools += (pools.empty() ? "" : ", ") + p.to_string();
    }
    plan_problem problem;
    if (request) problem.requests.push_back(*request);
    std::string what = range ? working_.role_name(working_.ranges[*range]) + " of " +
                                   working_.owners[working_.ranges[*range].owner].name
                             : std::string(to_string(working_.requests[*request].role)) + " of " +
                                   working_.owners[working_.requests[*request].owner].name;
    problem.message = "no free /" + std::to_string(length) + " for the " + what + " in its pools (" +
                      (pools.empty() ? "none of this IP version" : pools) +
                      ") outside the fleet's ranges and the avoided blocks";
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
    for (const auto& x : findings_) {
      if (x.level != severity::error) continue;
      if (x.id != rule::dns_outside_service_range && x.id != rule::dns_is_kubernetes_service) continue;
      auto k = x.ranges.front();
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
            c.reasons.push_back(x.message);
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
      change.reasons.push_back(x.message);
      result_.changes.push_back(std::move(change));
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
    for (auto& change : result_.changes) {
      if (change.to != change.from) change.transition_safe = !old_space.overlaps(change.to);
      result_.total_cost += change.cost;
      if (change.range) owners.insert(change.owner);
      change.steps = detail::migration_steps(applied, change);
    }
    result_.owners_changed = owners.size();
    // The plan's proof: check the fleet with the plan applied; every error left is a problem.
    // Checked without messages first (they cost much on big fleets); described only if needed.
    auto lean = options_.check;
    lean.describe = false;
    result_.remaining = judged(applied, check(applied, c_, lean));
    bool errors_left = std::any_of(result_.remaining.begin(), result_.remaining.end(),
                                   [](const finding& x) { return x.level == severity::error; });
    if (errors_left && options_.check.describe) result_.remaining = judged(applied, check(applied, c_, options_.check));
    // Ranges the plan created sit after the input's in the applied fleet, in the
    // order of the changes that fill requests.
    std::vector<std::uint32_t> request_of_new;
    for (const auto& change : result_.changes) {
      if (change.request) request_of_new.push_back(*change.request);
    }
    const auto existing = static_cast<std::uint32_t>(working_.ranges.size());
    for (const auto& x : result_.remaining) {
      if (x.level != severity::error) continue;
      plan_problem problem;
      problem.id = x.id;
      for (auto k : x.ranges) {
        if (k < existing) {
          problem.ranges.push_back(k);
        } else {
          problem.requests.push_back(request_of_new[k - existing]);
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
    if (!fixed_by_moving(x.id) && !is_pair_rule(x.id)) return "moving ranges cannot fix this rule";
    const auto existing = working_.ranges.size();
    bool all_pinned = std::all_of(x.ranges.begin(), x.ranges.end(), [&](auto k) { return k < existing && pinned_[k]; });
    if (all_pinned) return x.ranges.size() > 1 ? "both ranges are pinned" : "the range is pinned";
    return "the range that should move found no free space (see above)";
  }

  const catalog& c_;
  const plan_options& options_;
  effective_settings settings_;
  fleet working_;
  std::vector<finding> findings_;
  std::vector<bool> pinned_;
  std::vector<std::vector<std::uint32_t>> reasons_;  // per range: indexes into findings_
  std::vector<move> moved_;
  plan_result result_;
};

}  // namespace

auto plan(const fleet& f, const catalog& c, const plan_options& options) -> plan_result {
  return planner(f, c, options).run();
}

auto apply_plan(const fleet& f, const plan_result& p) -> fleet {
  fleet out = f;
  for (const auto& change : p.changes) {
    if (change.range) {
      auto& r = out.ranges[*change.range];
      r.cidr = change.to;
      if (change.to != change.from) r.origin = range_origin::declared;
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
  out.requests.clear();
  return out;
}

}  // namespace cidrcheck
