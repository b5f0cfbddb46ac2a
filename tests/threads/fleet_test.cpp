// The fleet model's shared objects read from several threads at once: the
// built-in catalog (from its first use on), a loaded fleet, a loaded
// configuration, one check() result and one plan() result. Every thread must
// get the answers one thread gets.
#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/map.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/fleet_writer.hpp>
#include <cidrcheck/io/map_svg.hpp>
#include <cidrcheck/io/plan_writer.hpp>
#include <cidrcheck/io/read_file.hpp>

#include "concurrently.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

using test::answers;
using test::joined;

constexpr auto text = [](const auto& x) { return x.to_string(); };
constexpr auto number = [](auto k) { return std::to_string(k); };
constexpr auto same = [](const std::string& s) { return s; };

const std::string fleet_file = CIDRCHECK_DATA "/examples/platform-fleet.yaml";
const std::string config_file = CIDRCHECK_FIXTURES "/config/settings.yaml";
constexpr calendar_date today{2025, 6, 1};

auto describe(const catalog& c) -> answers {
  answers out;
  for (const auto& d : c.distributions) {
    out.push_back("distribution " + d.name + ": " + joined(d.network, text) + "| " + joined(d.pods, text) + "| " +
                  joined(d.services, text) + "| " + (d.services_if_network_in ? text(*d.services_if_network_in) : "") +
                  " " + joined(d.services_instead, text) + "| /" + number(d.node_cidr_mask) + " /" +
                  number(d.node_cidr_mask_v6) + " | " + joined(d.reserved, text) + "| " + d.source);
  }
  for (const auto& t : c.network_types) out.push_back("network type " + t.name + ": " + joined(t.cidrs, text) + t.source);
  out.push_back("private space: " + joined(c.private_space, text));
  for (const auto& b : c.blocks) out.push_back("block " + text(b.cidr) + ": " + b.name + ", " + b.rule + ", " + b.source);
  return out;
}

auto describe(const finding& x) -> std::string {
  std::string out = std::string(info(x.id).name) + " " + std::string(to_string(x.level)) + " ranges " +
                    joined(x.ranges, number) + "via " + joined(x.via, number);
  if (x.overlap) out += " in " + text(*x.overlap);
  if (x.routed_at) out += " at " + number(*x.routed_at);
  if (x.block) out += " block " + text(x.block->cidr) + " " + x.block->name;
  return out + " at " + to_string(x.where) + ": " + x.message + " / " + x.hint;
}

void describe(const std::vector<finding>& findings, std::string_view label, answers& out) {
  for (const auto& x : findings) out.push_back(std::string(label) + ": " + describe(x));
}

void describe(const fleet& f, const plan_result& p, answers& out) {
  for (const auto& c : p.changes) {
    std::string steps;
    for (const auto& s : c.steps) steps += s.text + " {" + joined(s.facts, [](const auto& x) { return x.text; }) + "} ";
    out.push_back("change: " + f.owners[c.owner].name + " " + std::string(to_string(c.role)) + " " + text(c.from) +
                  " -> " + text(c.to) + " cost " + number(c.cost) + " because " + joined(c.reasons, same) +
                  (c.dns_to ? " dns " + text(*c.dns_to) : "") + (c.transition_safe ? " safe" : " unsafe") + ": " + steps);
  }
  for (const auto& x : p.problems) out.push_back("problem: " + x.message + " " + joined(x.ranges, number));
  out.push_back("plan: cost " + number(p.total_cost) + ", " + number(p.owners_changed) + " owners, optimal " +
                number(p.optimal) + ", complete " + number(p.complete()));
  describe(p.remaining, "remaining", out);
  for (const auto& d : p.diagnostics) out.push_back("plan diagnostic: " + format_diagnostic(d));
}

auto describe(const config& c) -> answers {
  answers out{"config " + c.file + ": " + joined(c.inputs, same)};
  out.push_back("fail-on: " + (c.fail_on && c.fail_on->level ? std::string(to_string(*c.fail_on->level)) : "never"));
  out.push_back("min-severity: " + (c.min_severity ? std::string(to_string(*c.min_severity)) : "unset"));
  for (const auto& r : c.rules) {
    out.push_back("rule " + std::string(info(r.id).name) + ": " + (r.level ? std::string(to_string(*r.level)) : "off"));
  }
  for (const auto& b : c.reserved) out.push_back("reserved " + text(b.cidr) + ": " + b.name + ", " + b.source);
  for (const auto& s : c.suppressions) {
    out.push_back("suppression " + std::string(info(s.id).name) + " " + joined(s.entities, text) + s.reason + " " +
                  (s.expires ? to_iso_date(*s.expires) : "") + " at " + to_string(s.where));
  }
  return out;
}

auto load(std::span<const std::string> sources, const catalog& c) -> fleet_load_result {
  auto loaded = load_fleet(sources, c);
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  return loaded;
}

// The first test of this file, so that when the whole executable runs in one
// process nothing has used the catalog before (ctest runs each test alone).
TEST(SharedCatalog, FirstUseFromManyThreadsGivesEachTheWholeCatalog) {
  auto file = read_file(CIDRCHECK_DATA "/catalog.yaml", std::size_t{1} << 20, "max-file-bytes");
  ASSERT_EQ(file.error, "");
  std::vector<diagnostic> problems;
  const auto reference = describe(parse_catalog(file.text, "data/catalog.yaml", problems));
  ASSERT_FALSE(has_errors(problems));

  // Every thread's first call races to initialise it.
  auto seen = test::concurrently(test::reader_threads, [](std::size_t) {
    const catalog& c = builtin_catalog();
    return std::pair{&c, describe(c)};
  });
  std::vector<answers> described;
  for (auto& [where, lines] : seen) {
    EXPECT_EQ(where, seen[0].first) << "every thread gets the one catalog";
    described.push_back(std::move(lines));
  }
  test::expect_same_answers(described, reference);
}

// What every thread computes from the one fleet and catalog: findings, a plan,
// capacity, the map and the fleet file.
auto fleet_answers(const fleet& f, const catalog& c) -> answers {
  answers out;
  auto findings = check(f, c);
  describe(findings, "finding", out);
  out.push_back("fingerprints: " + joined(fingerprints(f, findings), same));
  describe(f, plan(f, c), out);
  out.push_back("ranges: " + joined(f.ranges, [&](const fleet_range& r) { return f.describe_range(r); }));
  out.push_back("used: " + joined(used_space(f).ranges(), text));
  auto pools = default_pools(f, c);
  const int lengths[] = {16, 20, 24};
  for (const auto& space : pool_usage(f, pools)) {
    auto s = summarize_pool(space, lengths);
    out.push_back("pool " + text(s.pool) + ": " + to_decimal(s.used) + " used, " + to_decimal(s.free) +
                  " free, largest " + (s.largest_free ? text(*s.largest_free) : "none") + ", fits " +
                  joined(s.fits, [](uint128 n) { return to_decimal(n); }));
  }
  for (auto by : {usage_group::role, usage_group::owner}) {
    for (const auto& u : usage(f, pools, by)) {
      out.push_back("usage " + text(u.pool) + " " + u.group + ": " + to_decimal(u.addresses));
    }
  }
  for (std::uint32_t k = 0; k < f.owners.size(); ++k) {
    if (f.owners[k].kind != owner_kind::cluster) continue;
    auto n = node_capacity(f, c, k);
    out.push_back("capacity " + f.owners[k].name + ": " + number(n.node_blocks) + " blocks of /" + number(n.node_mask));
  }
  out.push_back("map: " + to_svg(layout_map(f, findings, c)));
  out.push_back("fleet file: " + write_fleet_yaml(f));
  return out;
}

TEST(SharedFleet, ChecksPlansAndReportsAgreeWithOneThread) {
  const catalog& c = builtin_catalog();
  const auto loaded = load(std::vector{fleet_file}, c);
  const fleet& f = loaded.value;
  const auto reference = fleet_answers(f, c);
  test::expect_same_answers(test::concurrently(test::reader_threads, [&](std::size_t) { return fleet_answers(f, c); }),
                            reference);
}

// What every thread reads from one check() result and one plan() result.
auto result_answers(const fleet& f, std::string_view fleet_text, const std::vector<finding>& findings,
                    const plan_result& p, const catalog& c) -> answers {
  answers out;
  describe(findings, "finding", out);
  out.push_back("fingerprints: " + joined(fingerprints(f, findings), same));
  auto judged = triage(f, findings, {{}, {}, today});
  describe(judged.findings, "triaged", out);
  describe(f, p, out);
  auto planned = apply_plan(f, p);
  describe(check(planned, c), "after the plan", out);
  out.push_back("planned fleet: " + write_fleet_yaml(planned));
  out.push_back("planned text: " + apply_plan_to_text(fleet_text, fleet_file, f, p));
  out.push_back("map: " + to_svg(layout_map(f, findings, c)));
  return out;
}

TEST(SharedResults, ReadingOneCheckAndOnePlanResultAgreesWithOneThread) {
  const catalog& c = builtin_catalog();
  const auto loaded = load(std::vector{fleet_file}, c);
  const fleet& f = loaded.value;
  const auto fleet_text = read_file(fleet_file, std::size_t{1} << 20, "max-file-bytes").text;
  const auto findings = check(f, c);
  const auto planned = plan(f, c);
  ASSERT_FALSE(planned.changes.empty()) << "the example needs moves for this test to read them";
  const auto reference = result_answers(f, fleet_text, findings, planned, c);
  test::expect_same_answers(test::concurrently(test::reader_threads,
                                               [&](std::size_t) {
                                                 return result_answers(f, fleet_text, findings, planned, c);
                                               }),
                            reference);
}

// What every thread makes of one loaded configuration: its catalog, the
// findings it judges, and the same file and fleet loaded again (the readers
// keep no state between calls).
auto config_answers(const config_load_result& loaded, const fleet& f) -> answers {
  const config& cfg = loaded.value;
  answers out = describe(cfg);
  auto c = catalog_for(cfg);
  auto catalog_lines = describe(c);
  out.insert(out.end(), catalog_lines.begin(), catalog_lines.end());
  auto judged = triage(f, check(f, c), {cfg.rules, cfg.suppressions, today});
  describe(judged.findings, "reported", out);
  for (const auto& s : judged.suppressed) out.push_back("suppressed by " + number(s.suppression) + ": " + describe(s.value));
  for (auto s : {severity::note, severity::warning, severity::error}) {
    out.push_back("fails on " + std::string(to_string(s)) + ": " + number(cfg.fail_on->fails(s)));
  }
  auto again = describe(load_config(config_file).value);
  out.insert(out.end(), again.begin(), again.end());
  auto reloaded = load(cfg.inputs, c);
  out.push_back("reloaded fleet: " + write_fleet_yaml(reloaded.value));
  return out;
}

TEST(SharedConfiguration, LoadedOnceReadByEveryThreadAgreesWithOneThread) {
  const auto loaded = load_config(config_file);
  ASSERT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  ASSERT_TRUE(loaded.value.fail_on.has_value());
  const auto checked = load(loaded.value.inputs, catalog_for(loaded.value));
  const auto reference = config_answers(loaded, checked.value);
  test::expect_same_answers(
      test::concurrently(test::reader_threads, [&](std::size_t) { return config_answers(loaded, checked.value); }),
      reference);
}

}  // namespace
}  // namespace cidrcheck
