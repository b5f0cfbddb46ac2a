// The .cidrcheck.yaml reader on any bytes; what it reads (rule settings,
// reserved ranges, suppressions) is then applied to a small fleet, as
// `cidrcheck check` does.

#include "fuzz_target.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void require(bool condition) {
  if (!condition) std::abort();
}

// Two clusters whose pods overlap and a network, so that suppressions and rule settings have findings to act on.
constexpr std::string_view fleet_text = R"(
clusters:
  - {name: prod-eu, distribution: kubeadm, pods: 10.244.0.0/16}
  - {name: prod-us, distribution: kubeadm, pods: 10.244.0.0/16}
networks:
  - {name: office, cidrs: 192.168.0.0/16}
connections:
  - [prod-eu, prod-us, office]
)";

auto sample_fleet() -> const cidrcheck::fleet& {
  static const auto loaded = [] {
    cidrcheck::fleet_loader loader(cidrcheck::builtin_catalog());
    loader.add_text(fleet_text, "fleet.yaml");
    return loader.finish();
  }();
  require(loaded.ok());
  return loaded.value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cidrcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = parse_config(text, "fuzz.yaml", "/fuzz");
  for (const auto& d : loaded.diagnostics) require(!d.message.empty() && d.where.file == "fuzz.yaml");
  if (!loaded.ok()) return 0;
  const auto& cfg = loaded.value;
  for (const auto& s : cfg.suppressions) require(!s.entities.empty() && !s.reason.empty());

  catalog c = builtin_catalog();
  c.blocks.insert(c.blocks.end(), cfg.reserved.begin(), cfg.reserved.end());
  const auto& f = sample_fleet();
  auto today = calendar_date{2025, 6, 1};
  auto result = triage(f, check(f, c), {cfg.rules, cfg.suppressions, today});
  for (const auto& x : result.suppressed) require(x.suppression < cfg.suppressions.size());
  return 0;
}
