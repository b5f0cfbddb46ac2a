// The YAML writers on any names and texts (issue 28): the fleet file that
// `cidrcheck import` writes (write_fleet_yaml), the overlay and the patched
// fleet file of `plan --format yaml` (write_plan_overlay, apply_plan_to_text).
// The input, split at NUL bytes, gives a header line, then the owners' names
// and descriptions and a suppression's reason. Whatever they hold, every YAML
// a writer emits must read back to the same values: names that are valid names
// (detail::name_problem; others are refused on reading, so they are left out),
// descriptions and the reason as written (bytes that are not UTF-8 as U+FFFD,
// detail::utf8_replaced, the one replacement every writer makes), and the
// planned fleet as planned.

#include "fuzz_target.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/fleet_writer.hpp>
#include <cidrcheck/io/plan_writer.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace cidrcheck;

auto load(const std::vector<std::pair<std::string, std::string>>& texts) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  for (const auto& [name, text] : texts) loader.add_text(text, name);
  return loader.finish();
}

void require(bool ok) {
  if (!ok) std::abort();
}

// The owners' (name, description) pairs, in order, descriptions as a writer writes them.
auto owners_of(const fleet& f) -> std::vector<std::pair<std::string, std::string>> {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& o : f.owners) out.emplace_back(o.name, detail::utf8_replaced(o.description));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> texts;
  for (std::size_t start = 0; texts.size() < 24;) {
    auto end = input.find('\0', start);
    texts.emplace_back(input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  // Clusters that all share one service range and are connected: the plan moves all but one.
  fleet f;
  std::set<std::string> names;
  for (std::size_t k = 1; k < texts.size(); ++k) {
    if (detail::name_problem(texts[k]) || !names.insert(texts[k]).second) continue;
    owner o;
    o.name = texts[k];
    o.description = texts[texts.size() - k];  // any text at all
    auto index = static_cast<std::uint32_t>(f.owners.size());
    auto add = [&](range_role role, std::string_view cidr) {
      fleet_range r;
      r.cidr = prefix::parse(cidr);
      r.owner = index;
      r.role = role;
      o.ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
      f.ranges.push_back(r);
      o.declared.add(role);
    };
    add(range_role::network, prefix::containing(address::v4(0x0a000000u + (index << 16)), 16).to_string());
    add(range_role::services, "10.200.0.0/16");
    f.owners.push_back(std::move(o));
  }
  if (f.owners.size() >= 2) {
    connection c;
    for (std::uint32_t k = 0; k < f.owners.size(); ++k) c.members.push_back(k);
    c.name = f.owners[0].name;
    f.connections.push_back(c);
  }
  std::vector<suppression> suppressions;
  if (!f.owners.empty() && texts.back().find_first_not_of(" \t") != std::string::npos) {  // a reason is never blank
    suppression s;
    s.id = rule::latent_overlap;
    s.entities.push_back({f.owners[0].name, {}});
    s.reason = texts.back();
    suppressions.push_back(s);
  }
  // A fleet of no owners is refused on reading ("no clusters or networks in the input"): nothing to write.
  if (f.owners.empty()) return 0;
  const std::vector<std::string> header{texts.front()};

  // cidrcheck import: the fleet as a fleet file.
  auto written = write_fleet_yaml(f, header, suppressions);
  auto read = load({{"fuzz.yaml", written}});
  require(read.ok());
  require(owners_of(read.value) == owners_of(f));
  require(read.suppressions.size() == suppressions.size());
  if (!suppressions.empty()) require(read.suppressions[0].reason == detail::utf8_replaced(suppressions[0].reason));

  // plan --format yaml, of this file alone (patched) and of several sources (an overlay).
  auto p = plan(read.value, builtin_catalog());
  auto planned = apply_plan(read.value, p);
  auto cidrs_of = [](const fleet& x) {
    std::vector<std::string> out;
    for (const auto& r : x.ranges) out.push_back(x.owners[r.owner].name + " " + r.cidr.to_string());
    std::sort(out.begin(), out.end());
    return out;
  };
  auto patched = load({{"fuzz.yaml", apply_plan_to_text(written, "fuzz.yaml", read.value, p)}});
  require(patched.ok());
  require(cidrs_of(patched.value) == cidrs_of(planned));
  auto overlay = write_plan_overlay(read.value, p, header);
  auto beside = load({{"fuzz.yaml", written}, {"overlay.yaml", overlay}});
  require(beside.ok());
  require(cidrs_of(beside.value) == cidrs_of(planned));
  return 0;
}
