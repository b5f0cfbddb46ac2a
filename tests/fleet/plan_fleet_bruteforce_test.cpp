// Plans against an independent model of operations (issue 13, "Done when"):
// on small random fleets of mixed distributions, CNIs, IPAM modes, versions,
// a VPC shared by clusters, and meshes and peerings that make conflicts, the
// plan's total cost equals the least total cost of an exhaustive search over
// the operations this file derives itself (not plan.cpp's candidates) whenever
// the plan says it is optimal; the applied plan checks clean, shared VPCs
// never split, and no cluster is replaced twice.
//
// The model, with the facts it rests on (ids of docs/migration-facts.md):
// - services, in place, for a self-managed cluster (not EKS, GKE, AKS,
//   OpenShift: eks-svc-fixed, gke-svc-fixed, aks-svc-fixed, ocp-svc-fixed):
//   with the ServiceCIDR API from 1.29 (svc-alpha-1.29 .. svc-ga-1.33; no ServiceCIDR kind before),
//   or in a maintenance window at any version (svc-noapi-window);
// - pods, in place: a Calico IPPool swap where Calico's own IPAM hands out
//   addresses (calico-migrate-order; with host-local IPAM pods take the node's
//   podCIDR instead); a Cilium pool entry appended in cluster-pool or
//   multi-pool IPAM (cilium-clusterpool-append, cilium-multipool);
//   kube-controller-manager's node IPAM on a self-managed cluster whose pods
//   take node podCIDRs (kcm-allocate, node-podcidr-immutable); EKS custom
//   networking with the VPC CNI (eks-custom-nodes). GKE keeps its default pod
//   range (gke-multipod), AKS and OpenShift only expand theirs
//   (aks-pod-expand, ocp-clusternet-expand): a replacement there;
// - pod space added without moving (grow-calico, grow-cilium; GKE additional
//   pod ranges, gke-multipod);
// - a cluster's network: a new VPC for a self-managed cluster (adobe-order),
//   a replacement for EKS, GKE, AKS and kops (eks-vpc-bound, kops-vpc-bound,
//   replace-managed); a VPC with clusters in it moves with all of them, its
//   EKS, GKE, AKS and kops members replaced into the new one;
// - a replacement cluster takes every range of the cluster at once
//   (blend-mirror), but a VPC member's network, which stays in its VPC;
// - a movable network that is not a VPC with clusters is renumbered range by
//   range; a network that is not movable never moves.
// One operation moves every range of its role on its cluster (one IPPool
// swap, one ServiceCIDR, one new VPC), so a cluster with two conflicting pod
// ranges pays for one swap. Costs are the catalog's defaults
// (data/catalog.yaml), which are judgements, not facts.

#include "../unit/random.hpp"

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

// ---------------------------------------------------------------------------
// The model.

struct model_op {
  std::string kind;
  std::vector<std::uint32_t> owners;
  std::set<std::uint32_t> ranges;        // ranges it moves
  std::set<std::uint32_t> grows;         // the clusters whose pod space it grows
  std::vector<std::uint32_t> replaces;   // clusters it replaces
  int cost = 0;
};

auto in(const std::string& value, std::initializer_list<const char*> list) -> bool {
  return std::any_of(list.begin(), list.end(), [&](const char* x) { return value == x; });
}

auto per(const std::optional<std::uint64_t>& count, int every) -> int {
  return count ? static_cast<int>(*count / static_cast<std::uint64_t>(every)) : 0;
}

// A VPC is a network of type vpc (this file's fleets use no other VPC type).
auto is_vpc_owner(const owner& o) -> bool { return o.kind == owner_kind::network && o.type == "vpc"; }

// Reports whether two owners are members of one connection, by a plain scan.
auto connected(const fleet& f, std::uint32_t a, std::uint32_t b) -> bool {
  return std::any_of(f.connections.begin(), f.connections.end(), [&](const connection& c) {
    return std::find(c.members.begin(), c.members.end(), a) != c.members.end() &&
           std::find(c.members.begin(), c.members.end(), b) != c.members.end();
  });
}

// Per owner: the VPC a cluster runs in: the one VPC its network lies in, unless
// a connection joins the two (separate networks), by a plain scan. (This
// file's fleets have one VPC and no runs_in.)
auto vpc_members(const fleet& f) -> std::vector<std::optional<std::uint32_t>> {
  std::vector<std::optional<std::uint32_t>> out(f.owners.size());
  for (std::uint32_t c = 0; c < f.owners.size(); ++c) {
    if (f.owners[c].kind != owner_kind::cluster) continue;
    for (std::uint32_t v = 0; v < f.owners.size() && !out[c]; ++v) {
      if (!is_vpc_owner(f.owners[v]) || connected(f, c, v)) continue;
      for (auto k : f.owners[c].ranges) {
        if (f.ranges[k].role != range_role::network) continue;
        for (auto j : f.owners[v].ranges) {
          if (f.ranges[k].cidr.subnet_of(f.ranges[j].cidr)) out[c] = v;
        }
      }
    }
  }
  return out;
}

auto self_managed(const owner& o) -> bool { return !in(o.type, {"eks", "gke", "aks", "openshift"}); }
auto bound_to_vpc(const owner& o) -> bool { return in(o.type, {"eks", "gke", "aks", "kops"}); }

auto services_cost(const owner& o) -> std::optional<int> {
  if (!self_managed(o)) return std::nullopt;
  int window = 4 + per(o.service_count, 50) + per(o.load_balancer_count, 5);
  if (o.kubernetes && *o.kubernetes >= kube_version{1, 29}) {
    return std::min(window, 2 + per(o.service_count, 100) + per(o.load_balancer_count, 5));
  }
  return window;
}

auto calico_ipam(const owner& o) -> bool { return o.cni == "calico" && in(o.ipam, {"", "calico-ipam"}); }
auto cilium_pools(const owner& o) -> bool { return o.cni == "cilium" && in(o.ipam, {"", "cluster-pool", "multi-pool"}); }

auto pods_cost(const owner& o) -> std::optional<int> {
  std::optional<int> best;
  auto offer = [&](int cost) { best = best ? std::min(*best, cost) : cost; };
  if (calico_ipam(o) || cilium_pools(o)) offer(3 + per(o.nodes, 50));
  bool node_podcidrs = in(o.cni, {"", "flannel"}) || (o.cni == "calico" && o.ipam == "host-local") ||
                       (o.cni == "cilium" && o.ipam == "kubernetes");
  if (self_managed(o) && node_podcidrs) offer(5 + per(o.nodes, 20));
  if (o.type == "eks" && in(o.cni, {"", "vpc-cni"}) && in(o.ipam, {"", "custom-networking"})) offer(6 + per(o.nodes, 20));
  return best;
}

auto pod_space_cost(const owner& o) -> std::optional<int> {
  if (calico_ipam(o) || cilium_pools(o) || o.type == "gke") return 1;
  return std::nullopt;
}

auto network_cost(const owner& o) -> std::optional<int> {
  if (bound_to_vpc(o)) return std::nullopt;
  return 10 + per(o.nodes, 10);
}

auto replacement_cost(const owner& o) -> int {
  return 20 + per(o.nodes, 5) + per(o.service_count, 50) + per(o.load_balancer_count, 5);
}

auto ranges_of(const fleet& f, std::uint32_t owner, range_role role) -> std::set<std::uint32_t> {
  std::set<std::uint32_t> out;
  for (auto k : f.owners[owner].ranges) {
    if (f.ranges[k].role == role) out.insert(k);
  }
  return out;
}

auto model_operations(const fleet& f, const std::vector<bool>& capacity_needed) -> std::vector<model_op> {
  auto vpc_of = vpc_members(f);
  std::vector<model_op> ops;
  for (std::uint32_t o = 0; o < f.owners.size(); ++o) {
    const auto& x = f.owners[o];
    if (x.kind == owner_kind::network) {
      if (!x.movable) continue;
      std::vector<std::uint32_t> members;
      for (std::uint32_t c = 0; c < f.owners.size(); ++c) {
        if (vpc_of[c] == o) members.push_back(c);
      }
      if (members.empty()) {
        for (auto k : x.ranges) ops.push_back({"renumber-network", {o}, {k}, {}, {}, 10});
        continue;
      }
      model_op op{"new-vpc", {o}, {x.ranges.begin(), x.ranges.end()}, {}, {}, 10};
      for (auto m : members) {
        const auto& y = f.owners[m];
        op.owners.push_back(m);
        auto networks = ranges_of(f, m, range_role::network);
        op.ranges.insert(networks.begin(), networks.end());
        if (!bound_to_vpc(y)) {
          op.cost += per(y.nodes, 10);
          continue;
        }
        op.cost += replacement_cost(y);
        op.replaces.push_back(m);
        op.ranges.insert(y.ranges.begin(), y.ranges.end());
        if (capacity_needed[m]) op.grows.insert(m);  // rebuilt with pod ranges sized for its nodes
      }
      ops.push_back(std::move(op));
      continue;
    }
    int dearest = 0;
    if (auto cost = services_cost(x); cost && !ranges_of(f, o, range_role::services).empty()) {
      ops.push_back({"services", {o}, ranges_of(f, o, range_role::services), {}, {}, *cost});
      dearest = std::max(dearest, *cost);
    }
    if (auto cost = pods_cost(x); cost && !ranges_of(f, o, range_role::pods).empty()) {
      // A moved pod range is sized for the cluster's nodes.
      ops.push_back({"pods", {o}, ranges_of(f, o, range_role::pods), {o}, {}, *cost});
      dearest = std::max(dearest, *cost);
    }
    if (auto cost = pod_space_cost(x); cost && capacity_needed[o]) {
      ops.push_back({"pod-space", {o}, {}, {o}, {}, *cost});
      dearest = std::max(dearest, *cost);
    }
    if (auto cost = network_cost(x); cost && !vpc_of[o] && !ranges_of(f, o, range_role::network).empty()) {
      ops.push_back({"new-vpc", {o}, ranges_of(f, o, range_role::network), {}, {}, *cost});
      dearest = std::max(dearest, *cost);
    }
    model_op replace{"replacement-cluster", {o}, {}, {o}, {o}, replacement_cost(x)};
    EXPECT_GT(replace.cost, dearest) << "a replacement must cost more than any in-place change of " << x.name;
    for (auto k : x.ranges) {
      if (!(vpc_of[o] && f.ranges[k].role == range_role::network)) replace.ranges.insert(k);
    }
    ops.push_back(std::move(replace));
  }
  return ops;
}

// What must change: each error pair loses a side, each range that breaks a rule
// alone moves, each cluster short of pod space grows it. Items: ranges, then
// n + owner for an owner's pod space.
struct constraints {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::vector<bool> capacity_needed;
};

auto must_change(const fleet& f, const std::vector<finding>& findings) -> constraints {
  const auto n = static_cast<std::uint32_t>(f.ranges.size());
  constraints out;
  out.capacity_needed.assign(f.owners.size(), false);
  for (const auto& x : findings) {
    if (x.level != severity::error) continue;
    switch (x.id) {
      case rule::overlap:
      case rule::overlap_internal: out.pairs.emplace_back(x.ranges[0], x.ranges[1]); break;
      case rule::pod_capacity: {
        auto owner = f.ranges[x.ranges[0]].owner;
        out.capacity_needed[owner] = true;
        out.pairs.emplace_back(n + owner, n + owner);
        break;
      }
      // Wherever the range is, these hold; a range moved to private space, sized for
      // the cluster, clears them.
      case rule::reserved_range:
      case rule::platform_reserved:
      case rule::service_range_too_large:
      case rule::service_range_too_small:
      case rule::node_mask_too_large: out.pairs.emplace_back(x.ranges[0], x.ranges[0]); break;
      default: break;  // no move clears it (service-range-count): the plan says not resolved
    }
  }
  return out;
}

auto covers(const fleet& f, const model_op& op, std::uint32_t item) -> bool {
  const auto n = static_cast<std::uint32_t>(f.ranges.size());
  if (item >= n) return op.grows.count(item - n) != 0;
  return op.ranges.count(item) != 0;
}

// The least total cost of operations clearing every constraint some operation
// can clear: branch on the first constraint not yet cleared, over every
// operation that clears it (any cover holds one of them).
class exhaustive {
 public:
  exhaustive(const fleet& f, const std::vector<model_op>& ops, const constraints& c) : f_(f), ops_(ops) {
    for (auto [a, b] : c.pairs) {
      std::vector<std::uint32_t> by;
      for (std::uint32_t j = 0; j < ops.size(); ++j) {
        if (covers(f, ops[j], a) || covers(f, ops[j], b)) by.push_back(j);
      }
      if (!by.empty()) needs_.push_back(std::move(by));
    }
  }
  auto solve() -> int {
    std::vector<bool> chosen(ops_.size(), false);
    search(chosen, 0);
    return best_;
  }
  auto best_choice() const -> const std::vector<bool>& { return best_chosen_; }

 private:
  void search(std::vector<bool>& chosen, int cost) {
    if (cost >= best_) return;
    for (const auto& by : needs_) {
      if (std::any_of(by.begin(), by.end(), [&](auto j) { return chosen[j]; })) continue;
      for (auto j : by) {
        chosen[j] = true;
        search(chosen, cost + ops_[j].cost);
        chosen[j] = false;
      }
      return;
    }
    best_ = cost;
    best_chosen_ = chosen;
  }

  const fleet& f_;
  const std::vector<model_op>& ops_;
  std::vector<std::vector<std::uint32_t>> needs_;
  int best_ = 1 << 30;
  std::vector<bool> best_chosen_;
};

// ---------------------------------------------------------------------------
// Random fleets: a VPC, clusters of mixed kinds (some inside the VPC), a peer
// network, and connections, all in 10.0.0.0/24 so that they conflict.

struct cluster_kind {
  const char* distribution;
  std::vector<std::pair<const char*, const char*>> cnis;  // (cni, ipam)
};

auto kinds() -> const std::vector<cluster_kind>& {
  static const std::vector<cluster_kind> all{
      {"kubeadm", {{"", ""}, {"calico", ""}, {"calico", "host-local"}, {"cilium", ""}, {"cilium", "kubernetes"}, {"flannel", ""}}},
      {"kops", {{"calico", ""}, {"cilium", "cluster-pool"}, {"", ""}}},
      {"k3s", {{"", ""}, {"flannel", ""}, {"cilium", "multi-pool"}}},
      {"eks", {{"", ""}, {"vpc-cni", "custom-networking"}, {"vpc-cni", "secondary-ip"}}},
      {"gke", {{"", ""}}},
      {"aks", {{"", ""}}},
      {"openshift", {{"", ""}}},
  };
  return all;
}

auto random_prefix(test::random_source& rng, int shortest) -> prefix {
  int length = shortest + static_cast<int>(rng() % static_cast<unsigned>(29 - shortest));
  return prefix::containing(address::v4(0x0a000000u + (rng() % 256)), length);
}

void add_range(fleet& f, std::uint32_t owner, range_role role, prefix cidr) {
  fleet_range r;
  r.cidr = cidr;
  r.owner = owner;
  r.role = role;
  r.where = {"f", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
  f.owners[owner].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
  f.ranges.push_back(r);
}

auto random_fleet(test::random_source& rng) -> fleet {
  fleet f;
  owner vpc;
  vpc.name = "vpc";
  vpc.kind = owner_kind::network;
  vpc.type = "vpc";
  vpc.movable = rng() % 3 != 0;
  f.owners.push_back(vpc);
  auto vpc_cidr = prefix::containing(address::v4(0x0a000000u + (rng() % 256)), 25 + static_cast<int>(rng() % 2));
  add_range(f, 0, range_role::external, vpc_cidr);
  auto clusters = 2 + rng() % 3;
  for (unsigned k = 0; k < clusters; ++k) {
    const auto& kind = kinds()[rng() % kinds().size()];
    owner o;
    o.name = "c" + std::to_string(k + 1);
    o.type = kind.distribution;
    auto [cni, ipam] = kind.cnis[rng() % kind.cnis.size()];
    o.cni = cni;
    o.ipam = ipam;
    if (rng() % 5) o.kubernetes = kube_version{1, static_cast<int>(25 + rng() % 10)};
    o.node_cidr_mask = 28;
    o.block_size = 28;
    if (rng() % 2) o.nodes = rng() % 14;
    if (rng() % 3 == 0) o.service_count = rng() % 400;
    if (rng() % 3 == 0) o.load_balancer_count = rng() % 20;
    auto index = static_cast<std::uint32_t>(f.owners.size());
    f.owners.push_back(o);
    if (rng() % 2) {
      // In the VPC: one network range inside it.
      auto at = address::v4(0x0a000000u + (rng() % 256));
      while (!vpc_cidr.contains(at)) at = address::v4(0x0a000000u + (rng() % 256));
      add_range(f, index, range_role::network, prefix::containing(at, vpc_cidr.length() + static_cast<int>(rng() % 3)));
    } else {
      // Outside it: none of its network ranges lies in the VPC (it may overlap it).
      for (unsigned j = 0, n = rng() % 3; j < n; ++j) {
        auto cidr = random_prefix(rng, 25);
        if (!cidr.subnet_of(vpc_cidr)) add_range(f, index, range_role::network, cidr);
      }
    }
    for (unsigned j = 0, n = rng() % 3; j < n; ++j) {
      // Now and then a pod range in link-local space (reserved-range).
      auto cidr = rng() % 12 == 0 ? prefix::parse("169.254.0.0/26") : random_prefix(rng, 25);
      add_range(f, index, range_role::pods, cidr);
    }
    for (unsigned j = 0, n = rng() % 8 == 0 ? 2 : rng() % 2; j < n; ++j) {
      add_range(f, index, range_role::services, random_prefix(rng, 25));
    }
  }
  if (rng() % 3) {
    owner peer;
    peer.name = "peer";
    peer.kind = owner_kind::network;
    peer.type = "office";
    peer.movable = rng() % 2 == 0;
    auto index = static_cast<std::uint32_t>(f.owners.size());
    f.owners.push_back(peer);
    for (unsigned j = 0, n = 1 + rng() % 2; j < n; ++j) add_range(f, index, range_role::external, random_prefix(rng, 26));
  }
  const auto owners = static_cast<std::uint32_t>(f.owners.size());
  for (unsigned c = 0, n = 1 + rng() % 3; c < n; ++c) {
    connection conn;
    conn.via = rng() % 2 ? "mesh" : "peering";
    std::set<std::uint32_t> members;
    while (members.size() < 2 + rng() % 2 && members.size() < owners) members.insert(rng() % owners);
    conn.members.assign(members.begin(), members.end());
    conn.routes = role_set{static_cast<std::uint8_t>(1 + rng() % 7)};
    f.connections.push_back(conn);
  }
  return f;
}

auto describe(const fleet& f) -> std::string {
  std::string out;
  for (const auto& o : f.owners) {
    out += "  " + o.name + " " + std::string(to_string(o.kind)) + " " + o.type + (o.movable ? " movable" : "");
    if (!o.cni.empty()) out += " cni " + o.cni + (o.ipam.empty() ? "" : "/" + o.ipam);
    if (o.kubernetes) out += " k8s 1." + std::to_string(o.kubernetes->minor);
    if (o.nodes) out += " nodes " + std::to_string(*o.nodes);
    if (o.service_count) out += " svc " + std::to_string(*o.service_count);
    if (o.load_balancer_count) out += " lb " + std::to_string(*o.load_balancer_count);
    out += ":";
    for (auto k : o.ranges) out += " " + std::string(to_string(f.ranges[k].role)) + "#" + std::to_string(k) + "=" + f.ranges[k].cidr.to_string();
    out += "\n";
  }
  for (const auto& c : f.connections) {
    out += "  " + c.via + " routes " + std::to_string(c.routes.bits) + ":";
    for (auto m : c.members) out += " " + f.owners[m].name;
    out += "\n";
  }
  return out;
}

auto describe(const fleet& f, const plan_result& p) -> std::string {
  std::string out;
  for (const auto& op : p.operations) {
    out += "  plan:";
    for (auto o : op.owners) out += " " + f.owners[o].name;
    out += " " + op.kind + " " + std::to_string(op.cost) + "\n";
  }
  return out;
}

auto describe(const fleet& f, const std::vector<model_op>& ops, const std::vector<bool>& chosen) -> std::string {
  std::string out;
  for (std::size_t j = 0; j < ops.size(); ++j) {
    if (!chosen[j]) continue;
    out += "  model:";
    for (auto o : ops[j].owners) out += " " + f.owners[o].name;
    out += " " + ops[j].kind + " " + std::to_string(ops[j].cost) + "\n";
  }
  return out;
}

TEST(PlanFleetBruteForce, CostEqualsTheExhaustiveMinimumOverOperations) {
  const auto& c = builtin_catalog();
  std::size_t compared = 0, nonempty = 0, complete = 0, replaced = 0, vpc_moves = 0;
  for (unsigned seed = 0; seed < 600; ++seed) {
    test::random_source rng(seed);
    auto f = random_fleet(rng);
    auto p = plan(f, c);
    auto need = must_change(f, check(f, c));
    auto ops = model_operations(f, need.capacity_needed);
    exhaustive search(f, ops, need);
    int least = search.solve();
    std::string context = "seed " + std::to_string(seed) + "\n" + describe(f) + describe(f, p) +
                          describe(f, ops, search.best_choice());
    if (p.optimal) {
      ++compared;
      // The search chooses on the operations' own costs; sharing applies only lowers them after.
      EXPECT_EQ(p.total_cost + p.shared_apply_saving, least) << context;
      EXPECT_GE(p.shared_apply_saving, 0) << context;
    }
    nonempty += p.operations.empty() ? 0 : 1;
    // No cluster is replaced twice, alone or as a VPC member.
    auto vpc_of = vpc_members(f);
    std::map<std::uint32_t, int> replacements;
    for (const auto& op : p.operations) {
      if (op.scope == operation_scope::cluster) ++replacements[op.owners.front()];
      if (op.scope == operation_scope::network && op.owners.size() > 1) {
        ++vpc_moves;
        for (std::size_t k = 1; k < op.owners.size(); ++k) {
          if (bound_to_vpc(f.owners[op.owners[k]])) ++replacements[op.owners[k]];
        }
      }
    }
    for (auto [owner, times] : replacements) EXPECT_EQ(times, 1) << f.owners[owner].name << "\n" << context;
    replaced += replacements.size();
    // A shared VPC never splits: every member's network stays inside its VPC, wherever that went.
    auto applied = apply_plan(f, p);
    for (std::uint32_t o = 0; o < f.owners.size(); ++o) {
      if (!vpc_of[o]) continue;
      for (auto k : ranges_of(f, o, range_role::network)) {
        bool inside = false;
        for (auto j : applied.owners[*vpc_of[o]].ranges) inside = inside || applied.ranges[k].cidr.subnet_of(applied.ranges[j].cidr);
        EXPECT_TRUE(inside) << f.owners[o].name << "\n" << context;
      }
    }
    if (!p.complete()) continue;
    ++complete;
    // The applied plan checks clean.
    for (const auto& x : check(applied, c)) {
      EXPECT_NE(x.level, severity::error) << x.message << "\n" << context;
    }
  }
  // The generator reaches what it is for.
  EXPECT_GT(compared, 500u);
  EXPECT_GT(nonempty, 300u);
  EXPECT_GT(complete, 300u);
  EXPECT_GT(replaced, 30u);
  EXPECT_GT(vpc_moves, 10u);
}

}  // namespace
}  // namespace cidrcheck
