// Every importer on any bytes: the first byte picks the kind ('0' + its index in
// import_kinds(), modulo their number), the rest is the export. An export that
// loads is checked, and the fleet file `cidrcheck import` writes from it must
// read back without errors, with the same owners and ranges.

#include "fuzz_target.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/fleet_writer.hpp>
#include <cidrcheck/io/import.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cidrcheck;
  if (size == 0) return 0;
  auto kinds = import_kinds();
  auto kind = kinds[static_cast<std::uint8_t>(data[0] - '0') % kinds.size()].kind;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  input_limits limits;
  limits.max_nodes = 20'000;  // keep each input fast; the limits themselves are under test too
  limits.max_owners = 200;
  limits.max_ranges = 400;
  fleet_loader loader(builtin_catalog(), limits);
  loader.add_import_text(kind, text, "fuzz.json");
  auto loaded = loader.finish();
  for (const auto& d : loaded.diagnostics) require(!d.message.empty());
  if (!loaded.ok()) return 0;
  for (const auto& x : check(loaded.value, builtin_catalog())) require(!x.ranges.empty() && !x.message.empty());

  fleet_loader again(builtin_catalog(), limits);
  again.add_text(write_fleet_yaml(loaded.value), "imported.yaml");
  auto back = again.finish();
  require(back.ok());
  require(back.value.owners.size() == loaded.value.owners.size());
  require(back.value.ranges.size() == loaded.value.ranges.size());
  return 0;
}
