// The plain-list reader, and what `cidrcheck set` runs on its result.

#include "fuzz_target.hpp"

#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/io/prefix_list.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cidrcheck;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  prefix_list list;
  list_options options;
  options.max_line_bytes = 256;
  parse_prefix_list(text, "fuzz", list, options);
  for (const auto& d : list.diagnostics) {
    if (d.where.line == 0 && d.code != "empty-input" && d.code != "too-many-errors") std::abort();
  }
  std::vector<prefix> merged;
  for_each_collapsed(list.keys(), [&](const prefix& p) { merged.push_back(p); });
  address_set_builder b;
  for (std::size_t k = 0; k < list.size(); ++k) b.add(list[k].value);
  auto set = b.build();
  if (merged != set.prefixes()) std::abort();
  // The count of the compact keys against the indexed sweep of the entries.
  std::uint64_t pairs = 0;
  auto value_of = [](const list_entry& e) { return e.value; };
  for_each_overlapping_pair(list, value_of, [&](std::size_t, std::size_t) { ++pairs; });
  if (pairs != count_overlapping_pairs(list.keys())) std::abort();
  prefix_allocator free(address_set{prefix::parse("10.0.0.0/8")} - set);
  for (int k = 0; k < 4; ++k) {
    auto p = free.take(ip_version::v4, 16 + k * 4);
    if (p && set.overlaps(*p)) std::abort();
  }
  return 0;
}
