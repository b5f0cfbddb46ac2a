// fleet-report FLEET...: what a migration tool does with cidrcheck: read a
// fleet, check it, plan the renumbering, and use the results as data.
#include <cidrcheck/cidrcheck.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> files(argv + 1, argv + argc);
  const cidrcheck::catalog& catalog = cidrcheck::builtin_catalog();

  // Loading never throws for bad input: every problem is a diagnostic with its file:line:col.
  auto loaded = cidrcheck::load_fleet(files, catalog);
  for (const auto& d : loaded.diagnostics) std::fputs(cidrcheck::format_diagnostic(d).c_str(), stderr);
  if (!loaded.ok()) return 2;
  const cidrcheck::fleet& fleet = loaded.value;

  // Findings are data: a rule, a severity, the ranges (indexes into fleet.ranges), a message.
  for (const auto& x : cidrcheck::check(fleet, catalog)) {
    if (x.level != cidrcheck::severity::error) continue;
    std::string what = std::string(cidrcheck::info(x.id).name) + ":";
    for (auto k : x.ranges) what += " " + fleet.owners[fleet.ranges[k].owner].name + "/" + fleet.role_name(fleet.ranges[k]);
    if (x.overlap) what += " in " + (x.overlap->to_prefix() ? x.overlap->to_prefix()->to_string() : x.overlap->to_string());
    std::printf("%s\n", what.c_str());
  }

  // The plan: the cheapest set of moves, each with its migration steps.
  const auto plan = cidrcheck::plan(fleet, catalog);
  for (const auto& change : plan.changes) {
    std::printf("move %s %s: %s -> %s, %zu steps\n", fleet.owners[change.owner].name.c_str(),
                std::string(cidrcheck::to_string(change.role)).c_str(), change.from.to_string().c_str(),
                change.to.to_string().c_str(), change.steps.size());
  }

  // The fleet as planned, and what is left of 10.0.0.0/8 after it.
  const auto planned = cidrcheck::apply_plan(fleet, plan);
  cidrcheck::address_set_builder used;
  for (const auto& r : planned.ranges) used.add(r.cidr);
  const cidrcheck::address_set ten{cidrcheck::prefix::parse("10.0.0.0/8")};
  cidrcheck::prefix_allocator free(ten - used.build());
  std::printf("largest free block in 10.0.0.0/8: %s\n",
              free.largest(cidrcheck::ip_version::v4)->to_string().c_str());
  return plan.complete() ? 0 : 1;
}
