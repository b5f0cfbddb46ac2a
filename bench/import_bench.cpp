// Google Benchmark cases for the importers: a generated export read through
// fleet_loader, as `cidrcheck check KIND:FILE` reads it (issue 16, item 11:
// every importer O(n log n), measured at 100,000 entries).

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cidrcheck::bench {
namespace {

auto v4(std::uint32_t bits) -> std::string {
  return std::to_string(bits >> 24) + "." + std::to_string(bits >> 16 & 255) + "." + std::to_string(bits >> 8 & 255) +
         "." + std::to_string(bits & 255);
}

// A tailnet policy with `hosts` named hosts, each in one of hosts/4 subnet
// routes (/24s of 10.0.0.0/8, in autoApprovers.routes, one router each), and
// an ACL per route naming its first host.
auto tailscale_policy(std::size_t hosts) -> std::string {
  std::size_t routes = hosts / 4 + 1;
  std::string out = "// generated\n{\n\t\"hosts\": {\n";
  for (std::size_t k = 0; k < hosts; ++k) {
    auto route = static_cast<std::uint32_t>(k % routes);
    out += "\t\t\"host-" + std::to_string(k) + "\": \"" + v4((10u << 24) + (route << 8) + 1 + static_cast<std::uint32_t>(k / routes)) + "\",\n";
  }
  out += "\t},\n\t\"autoApprovers\": {\"routes\": {\n";
  for (std::size_t k = 0; k < routes; ++k) {
    out += "\t\t\"" + v4((10u << 24) + (static_cast<std::uint32_t>(k) << 8)) + "/24\": [\"tag:router-" +
           std::to_string(k) + "\"],\n";
  }
  out += "\t}},\n\t\"acls\": [\n";
  for (std::size_t k = 0; k < routes; ++k) {
    out += "\t\t{\"action\": \"accept\", \"src\": [\"group:sre\"], \"dst\": [\"" +
           v4((10u << 24) + (static_cast<std::uint32_t>(k) << 8) + 1) + ":443\"]},\n";
  }
  out += "\t],\n}\n";
  return out;
}

void import_tailscale(benchmark::State& state) {
  auto hosts = static_cast<std::size_t>(state.range(0));
  auto text = tailscale_policy(hosts);
  fleet_limits limits;
  limits.max_file_bytes = text.size() + 1;
  limits.max_nodes = 100'000'000;
  for (auto _ : state) {
    fleet_loader loader(builtin_catalog(), limits);
    loader.add_import_text(import_kind::tailscale, text, "policy.hujson");
    auto loaded = loader.finish();
    if (!loaded.ok()) state.SkipWithError("the generated policy does not load");
    benchmark::DoNotOptimize(loaded);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(hosts));
  state.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(import_tailscale)
    ->Name("BM_Import_Tailscale")
    ->Arg(1'000)
    ->Arg(16'000)
    ->Arg(64'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cidrcheck::bench
