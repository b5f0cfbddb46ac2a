// The runbooks of a plan and their simulation (issue 24 item 6): for a plan of
// N operations, the typed runbooks (plan_runbooks) and simulate_runbooks on
// them, timed together, with the bytes allocated at the peak, and plan() of
// the same fleets, which a plan run adds the simulation to. Its own
// executable, because it counts every allocation (operator new replaced).

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

namespace {

// Bytes allocated now and at the peak since the last reset (single-threaded bench).
std::size_t live_bytes = 0, peak_bytes = 0;

}  // namespace

// Every allocation of the process goes through these: each block carries its size in front.
auto operator new(std::size_t size) -> void* {
  auto* block = static_cast<std::size_t*>(std::malloc(size + sizeof(std::max_align_t)));
  if (block == nullptr) throw std::bad_alloc();
  *block = size;
  live_bytes += size;
  peak_bytes = std::max(peak_bytes, live_bytes);
  return reinterpret_cast<char*>(block) + sizeof(std::max_align_t);
}

void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  auto* block = reinterpret_cast<std::size_t*>(static_cast<char*>(p) - sizeof(std::max_align_t));
  live_bytes -= *block;
  std::free(block);
}

void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

namespace cidrcheck::bench {
namespace {

// N pairs of clusters, each pair sharing one range that a connection between
// them carries, so that the plan moves one side: the services (ServiceCIDR API
// or window), the pods (Calico pool swap, node IPAM) or the network, by turns,
// over kubeadm, kops and k3s of several minors. Networks are /26s in
// 10.0.0.0/9, pods /26s in 10.128.0.0/9, services /28s in 172.16.0.0/12,
// distinct but for what a pair shares.
auto paired_fleet(std::size_t pairs) -> fleet {
  fleet f;
  const char* distributions[] = {"kubeadm", "kops", "kubeadm", "k3s"};
  const char* cnis[] = {"", "calico", "flannel", "calico"};
  const int minors[] = {29, 31, 33, 30, 32};
  auto add_range = [&](std::uint32_t owner, range_role role, prefix cidr) {
    fleet_range r;
    r.cidr = cidr;
    r.owner = owner;
    r.role = role;
    r.where = {"bench", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
    f.owners[owner].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
    f.ranges.push_back(r);
  };
  auto block = [](std::uint32_t base, std::uint64_t k, int length) {
    return prefix::containing(address::v4(base + static_cast<std::uint32_t>(k << (32 - length))), length);
  };
  for (std::size_t pair = 0; pair < pairs; ++pair) {
    const auto shared = static_cast<range_role>(pair % 3);  // network, pods, services
    std::uint32_t first = static_cast<std::uint32_t>(f.owners.size());
    for (std::size_t side = 0; side < 2; ++side) {
      const std::size_t k = 2 * pair + side;
      const std::size_t own = shared == range_role::network ? 2 * pair : k;  // a shared range: the pair's first
      owner o;
      o.name = "cluster-" + std::to_string(k);
      o.kind = owner_kind::cluster;
      o.type = distributions[pair % 4];
      o.cni = cnis[pair % 4];
      o.kubernetes = kube_version{1, minors[pair % 5]};
      o.node_cidr_mask = 28;
      o.block_size = 28;
      o.service_count = 40;
      o.load_balancer_count = 1;
      f.owners.push_back(std::move(o));
      const auto index = static_cast<std::uint32_t>(f.owners.size() - 1);
      add_range(index, range_role::network, block(0x0a000000u, own, 26));
      add_range(index, range_role::pods, block(0x0a800000u, shared == range_role::pods ? 2 * pair : k, 26));
      add_range(index, range_role::services, block(0xac100000u, shared == range_role::services ? 2 * pair : k, 28));
    }
    connection c;
    c.members = {first, first + 1};
    c.routes = role_set::none();
    c.routes.add(shared);
    f.connections.push_back(c);
  }
  return f;
}

// plan_runbooks and simulate_runbooks on the plan of a paired fleet; the plan
// itself is made once, outside the timing.
void runbooks_and_simulation(benchmark::State& state) {
  const auto& cat = builtin_catalog();
  auto f = paired_fleet(static_cast<std::size_t>(state.range(0)));
  auto p = plan(f, cat);
  auto planned = apply_plan(f, p);
  simulation_context context;
  context.original = &f;
  context.planned = &planned;
  context.catalog = &cat;
  std::size_t steps = 0, failed = 0, peak = 0;
  for (auto _ : state) {
    const std::size_t before = live_bytes;
    peak_bytes = live_bytes;
    auto books = plan_runbooks(f, p, cat);
    auto results = simulate_runbooks(context, books);
    peak = peak_bytes - before;
    steps = 0;
    failed = 0;
    for (const auto& r : results) {
      steps += r.steps;
      failed += r.passed() ? 0 : 1;
    }
    benchmark::DoNotOptimize(results);
  }
  state.counters["operations"] = static_cast<double>(p.operations.size());
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["failed"] = static_cast<double>(failed);
  state.counters["peak_MB"] = static_cast<double>(peak) / 1e6;
  state.counters["peak_KB_per_op"] =
      p.operations.empty() ? 0.0 : static_cast<double>(peak) / 1e3 / static_cast<double>(p.operations.size());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p.operations.size()));
}

// simulate_runbooks alone, on runbooks made once outside the timing: the
// simulator's share of the figure above.
void simulation_only(benchmark::State& state) {
  const auto& cat = builtin_catalog();
  auto f = paired_fleet(static_cast<std::size_t>(state.range(0)));
  auto p = plan(f, cat);
  auto planned = apply_plan(f, p);
  auto books = plan_runbooks(f, p, cat);
  simulation_context context;
  context.original = &f;
  context.planned = &planned;
  context.catalog = &cat;
  std::size_t peak = 0;
  for (auto _ : state) {
    const std::size_t before = live_bytes;
    peak_bytes = live_bytes;
    auto results = simulate_runbooks(context, books);
    peak = peak_bytes - before;
    benchmark::DoNotOptimize(results);
  }
  state.counters["operations"] = static_cast<double>(p.operations.size());
  state.counters["peak_MB"] = static_cast<double>(peak) / 1e6;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p.operations.size()));
}

// plan() alone on the same fleets: a plan run (plan_fleet()) costs this, then
// the figure of BM_RunbooksAndSimulation_Pairs for simulating its runbooks.
void plan_alone(benchmark::State& state) {
  const auto& cat = builtin_catalog();
  auto f = paired_fleet(static_cast<std::size_t>(state.range(0)));
  std::size_t operations = 0;
  for (auto _ : state) {
    auto p = plan(f, cat);
    operations = p.operations.size();
    benchmark::DoNotOptimize(p);
  }
  state.counters["operations"] = static_cast<double>(operations);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * operations));
}

BENCHMARK(plan_alone)->Name("BM_Plan_Pairs")->Arg(1'000)->Arg(2'500)->Arg(5'000)->Arg(10'000)->Unit(benchmark::kMillisecond);

BENCHMARK(simulation_only)
    ->Name("BM_SimulationOnly_Pairs")
    ->Arg(1'000)
    ->Arg(2'500)
    ->Arg(5'000)
    ->Arg(10'000)
    ->Unit(benchmark::kMillisecond);

BENCHMARK(runbooks_and_simulation)
    ->Name("BM_RunbooksAndSimulation_Pairs")
    ->Arg(1'000)
    ->Arg(2'500)
    ->Arg(5'000)
    ->Arg(10'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cidrcheck::bench
