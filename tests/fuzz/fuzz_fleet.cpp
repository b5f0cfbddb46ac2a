// The fleet loader on any bytes; on a fleet that loads, check() and plan(), and
// the planned text must read back.

#include "fuzz_target.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/plan_writer.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cidrcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  input_limits limits;
  limits.max_nodes = 20'000;  // keep each input fast; the limits themselves are under test too
  limits.max_owners = 200;
  limits.max_ranges = 400;
  fleet_loader loader(builtin_catalog(), limits);
  loader.add_text(text, "fuzz.yaml");
  auto loaded = loader.finish();
  for (const auto& d : loaded.diagnostics) {
    if (d.message.empty()) std::abort();
  }
  if (!loaded.ok()) return 0;
  auto findings = check(loaded.value, builtin_catalog());
  for (const auto& x : findings) {
    if (x.ranges.empty() || x.message.empty()) std::abort();
  }
  auto p = plan(loaded.value, builtin_catalog());
  auto planned = apply_plan_to_text(text, "fuzz.yaml", loaded.value, p);
  fleet_loader again(builtin_catalog(), limits);
  again.add_text(planned, "fuzz.yaml");
  if (!again.finish().ok()) std::abort();
  return 0;
}
