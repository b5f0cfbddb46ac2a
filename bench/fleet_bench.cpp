// Google Benchmark cases for the fleet model: check() and plan() alone, on fleets
// built in memory (bench/gen_fleet.py writes the same shape as YAML for
// end-to-end runs with fleet_scaling.py).

#include "inputs.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cidrcheck::bench {
namespace {

// clusters with unique /N pods, network and services in 10.0.0.0/8; networks in
// 172.16.0.0/12; one mesh of half the clusters carrying pods and services; two
// pair connections per cluster to random networks; a fraction of clusters
// (conflicts_percent) reuse another cluster's pod range, and with
// service_groups > 0 as many again share one of that many service ranges.
auto generated_fleet(std::size_t clusters, unsigned conflicts_percent = 1, std::size_t service_groups = 0,
                     std::uint64_t seed = 42) -> cidrcheck::fleet {
  rng r(seed);
  cidrcheck::fleet f;
  std::size_t networks = clusters / 10;
  int block_bits = 13;
  while (block_bits > 4 && (std::uint64_t{clusters} << block_bits) > (std::uint64_t{1} << 24)) --block_bits;
  auto add_range = [&](std::uint32_t owner_index, range_role role, std::uint32_t bits, int length) {
    fleet_range fr;
    fr.cidr = prefix::containing(address::v4(bits), length);
    fr.owner = owner_index;
    fr.role = role;
    fr.where = {"bench", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
    f.owners[owner_index].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
    f.ranges.push_back(fr);
  };
  auto add_owner = [&](std::string name, owner_kind kind, std::string type) {
    owner o;
    o.name = std::move(name);
    o.kind = kind;
    o.type = std::move(type);
    f.owners.push_back(std::move(o));
  };
  for (std::size_t k = 0; k < networks; ++k) {
    add_owner("net-" + std::to_string(k), owner_kind::network, "office");
    add_range(static_cast<std::uint32_t>(k), range_role::external, 0xac100000u + static_cast<std::uint32_t>(k << 8), 24);
  }
  for (std::size_t k = 0; k < clusters; ++k) {
    auto index = static_cast<std::uint32_t>(f.owners.size());
    add_owner("cluster-" + std::to_string(k), owner_kind::cluster, "kubeadm");
    f.owners.back().nodes = 10;
    f.owners.back().node_cidr_mask = 32 - (block_bits - 6);
    std::uint32_t base = 0x0a000000u + static_cast<std::uint32_t>(k << block_bits);
    std::size_t pods_of = r.below(100) < conflicts_percent ? static_cast<std::size_t>(r.below(clusters)) : k;
    std::size_t services_of =
        service_groups > 0 && r.below(100) < conflicts_percent ? static_cast<std::size_t>(r.below(service_groups)) : k;
    std::uint32_t services_base = 0x0a000000u + static_cast<std::uint32_t>(services_of << block_bits);
    add_range(index, range_role::pods, 0x0a000000u + static_cast<std::uint32_t>(pods_of << block_bits),
              32 - (block_bits - 1));
    add_range(index, range_role::network, base + (1u << (block_bits - 1)), 32 - (block_bits - 3));
    add_range(index, range_role::services, services_base + (1u << (block_bits - 1)) + (1u << (block_bits - 3)),
              32 - (block_bits - 4));
  }
  connection mesh;
  mesh.name = "mesh";
  mesh.routes = role_set::none();
  mesh.routes.add(range_role::pods);
  mesh.routes.add(range_role::services);
  for (std::size_t k = 0; k < clusters; k += 2) mesh.members.push_back(static_cast<std::uint32_t>(networks + k));
  f.connections.push_back(mesh);
  for (std::size_t k = 0; k < 2 * clusters; ++k) {
    connection c;
    c.members = {static_cast<std::uint32_t>(networks + r.below(clusters)), static_cast<std::uint32_t>(r.below(networks))};
    f.connections.push_back(c);
  }
  return f;
}

void check_fleet(benchmark::State& state) {
  auto clusters = static_cast<std::size_t>(state.range(0));
  auto f = generated_fleet(clusters);
  const auto& cat = builtin_catalog();
  std::size_t findings = 0;
  for (auto _ : state) {
    auto result = check(f, cat);
    findings = result.size();
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.ranges.size()));
  state.counters["ranges"] = static_cast<double>(f.ranges.size());
  state.counters["findings"] = static_cast<double>(findings);
}

BENCHMARK(check_fleet)->Name("BM_Check_Fleet")->Arg(1'000)->Arg(10'000)->Arg(40'000)->Unit(benchmark::kMillisecond);

// plan() with --fix-latent on fleets where 30% of clusters reuse a pod range and
// 30% share ten service ranges: every conflict must be resolved.
void plan_fleet(benchmark::State& state) {
  auto clusters = static_cast<std::size_t>(state.range(0));
  auto f = generated_fleet(clusters, 30, 10);
  const auto& cat = builtin_catalog();
  plan_options options;
  options.fix_latent = true;
  std::size_t changes = 0;
  for (auto _ : state) {
    auto result = plan(f, cat, options);
    changes = result.changes.size();
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.ranges.size()));
  state.counters["changes"] = static_cast<double>(changes);
}

BENCHMARK(plan_fleet)->Name("BM_Plan_Conflicts30")->Arg(1'000)->Arg(10'000)->Unit(benchmark::kMillisecond);

// The same with mixed distributions and CNIs (kubeadm, EKS, GKE, kops; Calico,
// Cilium or none) and sizes, so that every kind of operation is offered:
// replacements, ServiceCIDR moves, pool swaps, node IPAM.
void plan_fleet_mixed(benchmark::State& state) {
  auto clusters = static_cast<std::size_t>(state.range(0));
  auto f = generated_fleet(clusters, 30, 10);
  const char* distributions[] = {"kubeadm", "eks", "gke", "kops"};
  const char* cnis[] = {"", "calico", "cilium"};
  std::size_t k = 0;
  for (auto& o : f.owners) {
    if (o.kind != owner_kind::cluster) continue;
    o.type = distributions[k % 4];
    o.cni = cnis[(k / 4) % 3];
    o.kubernetes = kube_version{1, static_cast<int>(26 + k % 8)};
    o.service_count = 40 + k % 300;
    o.load_balancer_count = k % 7;
    ++k;
  }
  const auto& cat = builtin_catalog();
  plan_options options;
  options.fix_latent = true;
  std::size_t operations = 0;
  bool optimal = true;
  for (auto _ : state) {
    auto result = plan(f, cat, options);
    operations = result.operations.size();
    optimal = result.optimal;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.ranges.size()));
  state.counters["operations"] = static_cast<double>(operations);
  state.counters["optimal"] = optimal ? 1 : 0;
}

BENCHMARK(plan_fleet_mixed)->Name("BM_Plan_Conflicts30_Mixed")->Arg(1'000)->Arg(10'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cidrcheck::bench
