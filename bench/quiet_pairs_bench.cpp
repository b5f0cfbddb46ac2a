// check() and plan() on fleets whose overlapping pairs are mostly no finding
// (issue 28, items 3 and 7): the grouped sweep should grow with the ranges
// plus the findings, not with the pairs. Run the sizes side by side; a flat
// "ns per range" counter means linear growth. bench/quiet_pairs.py times the
// same shapes end to end, against another cidrcheck binary too.

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cidrcheck::bench {
namespace {

struct builder {
  cidrcheck::fleet f;

  auto owner_of(std::string name, owner_kind kind, std::string type) -> std::uint32_t {
    owner o;
    o.name = std::move(name);
    o.kind = kind;
    o.type = std::move(type);
    f.owners.push_back(std::move(o));
    return static_cast<std::uint32_t>(f.owners.size() - 1);
  }

  auto range(std::uint32_t owner_index, range_role role, std::uint32_t bits, int length) -> std::uint32_t {
    return range(owner_index, role, prefix::containing(address::v4(bits), length));
  }

  auto range(std::uint32_t owner_index, range_role role, prefix cidr) -> std::uint32_t {
    fleet_range r;
    r.cidr = cidr;
    r.owner = owner_index;
    r.role = role;
    r.where = {"bench", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
    f.owners[owner_index].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
    f.ranges.push_back(r);
    return static_cast<std::uint32_t>(f.ranges.size() - 1);
  }
};

// One VPC of 10.64.0.0/10 and n clusters in it (kops in a shared VPC: each
// network the VPC's own block), each with pods and services of its own in
// unique-local IPv6 space: n(n+1)/2 overlapping networks, no finding.
auto one_vpc(std::size_t n) -> cidrcheck::fleet {
  builder b;
  auto vpc = b.owner_of("vpc", owner_kind::network, "vpc");
  b.range(vpc, range_role::external, 0x0a400000u, 10);
  for (std::size_t k = 0; k < n; ++k) {
    auto c = b.owner_of("cluster-" + std::to_string(k), owner_kind::cluster, "kops");
    b.range(c, range_role::network, 0x0a400000u, 10);
    b.range(c, range_role::pods, prefix::containing(address::v6(0xfd10'0000'0000'0000ull | k << 16, 0), 64));
    b.range(c, range_role::services, prefix::containing(address::v6(0xfd20'0000'0000'0000ull | k << 16, 0), 112));
  }
  return std::move(b.f);
}

// A tailnet whose policy approves 10.0.0.0/8 n times for one router (n
// spellings of one route), and n/10 clusters inside 10/8 the route leads to.
auto twin_routes(std::size_t n) -> cidrcheck::fleet {
  builder b;
  auto tailnet = b.owner_of("tailnet", owner_kind::network, "tailscale");
  b.range(tailnet, range_role::external, 0x64400000u, 10);
  for (std::size_t k = 0; k < n; ++k) {
    auto r = b.range(tailnet, range_role::external, 0x0a000000u, 8);
    fleet_route route;
    route.range = r;
    route.advertiser = "tag:router";
    route.from = "autoApprovers.routes";
    b.f.ranges[r].route = static_cast<std::uint32_t>(b.f.routes.size());
    b.f.routes.push_back(route);
  }
  connection c;
  c.members.push_back(tailnet);
  for (std::size_t k = 0; k < n / 10; ++k) {
    auto cluster = b.owner_of("cluster-" + std::to_string(k), owner_kind::cluster, "kubeadm");
    b.range(cluster, range_role::network, 0x0a000000u + static_cast<std::uint32_t>(k << 8), 24);
    c.members.push_back(cluster);
  }
  c.routes = role_set::none();
  c.routes.add(range_role::network);
  b.f.connections.push_back(c);
  return std::move(b.f);
}

// n networks, each with one route of 10.0.0.0/8: routes of different networks
// meet only where both networks are seen, which the fleet does not model.
auto routes_of_networks(std::size_t n) -> cidrcheck::fleet {
  builder b;
  for (std::size_t k = 0; k < n; ++k) {
    auto network = b.owner_of("vpn-" + std::to_string(k), owner_kind::network, "vpn");
    b.range(network, range_role::external, prefix::containing(address::v6(0xfd30'0000'0000'0000ull | k << 16, 0), 64));
    auto r = b.range(network, range_role::external, 0x0a000000u, 8);
    fleet_route route;
    route.range = r;
    b.f.ranges[r].route = static_cast<std::uint32_t>(b.f.routes.size());
    b.f.routes.push_back(route);
  }
  return std::move(b.f);
}

// n clusters on one translated connection (Submariner Globalnet), all with the
// pod range 10.200.0.0/16 and nothing else carrying it: members never see each
// other's real ranges, so none of the n(n-1)/2 pairs is a finding.
auto globalnet(std::size_t n) -> cidrcheck::fleet {
  builder b;
  connection c;
  c.via = "globalnet";
  for (std::size_t k = 0; k < n; ++k) {
    auto cluster = b.owner_of("cluster-" + std::to_string(k), owner_kind::cluster, "kubeadm");
    b.range(cluster, range_role::pods, 0x0ac80000u, 16);
    c.members.push_back(cluster);
  }
  b.f.connections.push_back(c);
  return std::move(b.f);
}

// n networks, disjoint, nothing to fix: what plan() costs beyond check().
auto disjoint_networks(std::size_t n) -> cidrcheck::fleet {
  builder b;
  for (std::size_t k = 0; k < n; ++k) {
    auto network = b.owner_of("net-" + std::to_string(k), owner_kind::network, "office");
    b.range(network, range_role::external, 0x0a000000u + static_cast<std::uint32_t>(k << 6), 26);
  }
  return std::move(b.f);
}

template <cidrcheck::fleet (*Make)(std::size_t)>
void check_quiet(benchmark::State& state) {
  auto f = Make(static_cast<std::size_t>(state.range(0)));
  const auto& cat = builtin_catalog();
  std::size_t findings = 0;
  for (auto _ : state) {
    auto result = check(f, cat);
    findings = result.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["ranges"] = static_cast<double>(f.ranges.size());
  state.counters["findings"] = static_cast<double>(findings);
  state.counters["ns per range"] = benchmark::Counter(static_cast<double>(f.ranges.size()),
                                                      benchmark::Counter::kIsIterationInvariantRate |
                                                          benchmark::Counter::kInvert);
}

void plan_disjoint(benchmark::State& state) {
  auto f = disjoint_networks(static_cast<std::size_t>(state.range(0)));
  const auto& cat = builtin_catalog();
  std::size_t changes = 0;
  for (auto _ : state) {
    auto result = plan(f, cat, {});
    changes = result.changes.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["changes"] = static_cast<double>(changes);
  state.counters["ns per range"] = benchmark::Counter(static_cast<double>(f.ranges.size()),
                                                      benchmark::Counter::kIsIterationInvariantRate |
                                                          benchmark::Counter::kInvert);
}

BENCHMARK(check_quiet<one_vpc>)->Name("BM_Check_OneVpc")->Arg(10'000)->Arg(40'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(check_quiet<twin_routes>)->Name("BM_Check_TwinRoutes")->Arg(10'000)->Arg(40'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(check_quiet<routes_of_networks>)
    ->Name("BM_Check_RoutesOfNetworks")
    ->Arg(10'000)
    ->Arg(40'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(check_quiet<globalnet>)->Name("BM_Check_Globalnet")->Arg(10'000)->Arg(40'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(check_quiet<disjoint_networks>)
    ->Name("BM_Check_DisjointNetworks")
    ->Arg(10'000)
    ->Arg(40'000)
    ->Arg(100'000)
    ->Arg(200'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(plan_disjoint)->Name("BM_Plan_DisjointNetworks")->Arg(10'000)->Arg(40'000)->Arg(100'000)->Arg(200'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cidrcheck::bench
