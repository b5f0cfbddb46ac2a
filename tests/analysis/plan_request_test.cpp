#include <cidrcheck/analysis.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/plan_request.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace cidrcheck {
namespace {

auto load(std::string_view yaml) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "fleet.yaml");
  return loader.finish();
}

constexpr std::string_view two = R"(
clusters:
  - {name: ledger, pods: 10.1.0.0/16, services: 10.2.0.0/16}
  - {name: payments, pods: 10.1.0.0/16, services: 10.3.0.0/16}
)";

auto refusal(const plan_request& r) -> std::string {
  try {
    plan_options_for(r);
  } catch (const plan_option_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(PlanRequest, TheCostCeilingIsTheFleetFilesAndItsMessageToo) {
  plan_request r;
  r.costs = {{"services", "2000000"}};
  const auto message = refusal(r);
  EXPECT_EQ(message, "cost of services must be from 0 to 1000000, not 2000000");

  // The fleet file's `plan:` section refuses the same value with the same words.
  auto loaded = load("plan:\n  cost: {services: 2000000}\nclusters: []\n");
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.diagnostics.size(), 1u);
  EXPECT_EQ(loaded.diagnostics[0].message, message);
  EXPECT_EQ(loaded.diagnostics[0].where.line, 2u);
  EXPECT_EQ(loaded.diagnostics[0].where.column, 20u);
}

TEST(PlanRequest, HeadroomHasOneRangeAndOneMessage) {
  plan_request r;
  r.headroom = "0.5";
  EXPECT_EQ(refusal(r), "headroom must be a number from 1 to 100, not 0.5");
  auto loaded = load("plan:\n  headroom: 0.5\nclusters: []\n");
  ASSERT_EQ(loaded.diagnostics.size(), 1u);
  EXPECT_EQ(loaded.diagnostics[0].message, refusal(r));
}

TEST(PlanRequest, RolesAreNamedAsTheFrontEndNamesTheOption) {
  plan_request r;
  r.pools = {{"svc", "10.0.0.0/8"}};
  EXPECT_EQ(refusal(r), "--pool: unknown role 'svc' (network, pods, services or all)");
  r.names.pool = "pools";
  EXPECT_EQ(refusal(r), "pools: unknown role 'svc' (network, pods, services or all)");
  r.pools = {{"services", "10.0.0.1/8"}};
  EXPECT_EQ(refusal(r).rfind("pools: invalid prefix \"10.0.0.1/8\": host bits set", 0), 0u) << refusal(r);
  r.pools.clear();
  r.routes = {"network", "pod"};
  EXPECT_EQ(refusal(r), "--routes: unknown role 'pod' (network, pods, services or all) (did you mean 'pods'?)");
}

TEST(PlanRequest, ValidOptionsBecomePlanOptions) {
  plan_request r;
  r.pools = {{"all", "10.64.0.0/10"}, {"services", "172.16.0.0/12"}};
  r.avoid = {"10.64.0.0/16"};
  r.pins = {"ledger/pods"};
  r.costs = {{"pods", "7"}, {"all", "2"}};
  r.headroom = "2";
  r.fix_latent = true;
  auto o = plan_options_for(r);
  EXPECT_EQ(o.settings.pools[0].size(), 1u);
  EXPECT_EQ(o.settings.pools[2].size(), 2u);
  EXPECT_EQ(o.settings.avoid.at(0).to_string(), "10.64.0.0/16");
  EXPECT_EQ(o.settings.pins.at(0).pattern, "ledger/pods");
  EXPECT_EQ(o.settings.cost[1], 2);  // the later "all" wins, as the flags are read in order
  EXPECT_EQ(o.settings.headroom, 2.0);
  EXPECT_TRUE(o.fix_latent);
  EXPECT_FALSE(o.triage);
}

// --named-pool and Python's named_pools: a pool as the fleet file's `plan: pools:` writes one.
TEST(PlanRequest, NamedPoolsBecomePoolsWithSelectors) {
  plan_request r;
  r.named_pools = {{"eu-aws", {"10.64.0.0/12", "fd00:64::/48"}, {{"site", "eu"}, {"cloud", "aws"}, {"role", "pods"},
                                                                   {"role", "services"}, {"owner", "prod-*"}}},
                   {"any", {"10.128.0.0/9"}, {}}};
  const auto o = plan_options_for(r);
  ASSERT_EQ(o.settings.named_pools.size(), 2U);
  const auto& eu = o.settings.named_pools[0];
  EXPECT_EQ(eu.name, "eu-aws");
  EXPECT_EQ(eu.cidrs, (std::vector<prefix>{prefix::parse("10.64.0.0/12"), prefix::parse("fd00:64::/48")}));
  using label = std::pair<std::string, std::string>;
  EXPECT_EQ(eu.selector.labels, (std::vector<label>{{"site", "eu"}, {"cloud", "aws"}}));
  EXPECT_EQ(eu.selector.owner, "prod-*");
  ASSERT_TRUE(eu.selector.roles.has_value());
  EXPECT_TRUE(eu.selector.roles->has(range_role::pods));
  EXPECT_TRUE(eu.selector.roles->has(range_role::services));
  EXPECT_FALSE(eu.selector.roles->has(range_role::network));
  EXPECT_EQ(eu.selector.specificity(), 4U);
  EXPECT_EQ(o.settings.named_pools[1].selector.specificity(), 0U);
}

TEST(PlanRequest, ABadNamedPoolSaysWhichAndWhy) {
  auto refused = [](named_pool_request x) {
    plan_request r;
    r.named_pools = {{"first", {"10.0.0.0/16"}, {}}, std::move(x)};
    return refusal(r);
  };
  EXPECT_EQ(refused({"first", {"10.1.0.0/16"}, {}}), "--named-pool first: the pool is named twice");
  EXPECT_EQ(refused({"eu", {}, {}}), "--named-pool eu: a pool needs at least one CIDR");
  EXPECT_EQ(refused({"", {"10.1.0.0/16"}, {}}), "--named-pool: a name cannot be empty");
  EXPECT_NE(refused({"eu", {"10.1.0.0/33"}, {}}).find("--named-pool eu: invalid prefix"), std::string::npos);
  EXPECT_EQ(refused({"eu", {"10.1.0.0/16"}, {{"role", "pod"}}}),
            "--named-pool eu role: unknown role 'pod' (network, pods, services or all) (did you mean 'pods'?)");
  EXPECT_EQ(refused({"eu", {"10.1.0.0/16"}, {{"site", "eu"}, {"site", "us"}}}),
            "--named-pool eu: the label site is given twice");
  EXPECT_EQ(refused({"eu", {"10.1.0.0/16"}, {{"owner", "a"}, {"owner", "b"}}}), "--named-pool eu: owner is given twice");
  EXPECT_EQ(refused({"eu", {"10.1.0.0/16"}, {{"", "x"}}}), "--named-pool eu: a label needs a key");
  EXPECT_EQ(refused({"e\x1bu", {"10.1.0.0/16"}, {}}).substr(0, 14), "--named-pool: ");
}

// Named pools given as options replace the fleet file's: a range the file's
// pool would serve comes from the option's.
TEST(PlanRequest, NamedPoolOptionsReplaceTheFilesNamedPools) {
  auto loaded = load(R"(
clusters:
  - {name: a, distribution: kubeadm, labels: {site: eu}, network: /20, pods: [], services: []}
plan:
  pools:
    - {name: file, cidrs: [10.64.0.0/12], for: {site: eu}}
)");
  ASSERT_TRUE(loaded.ok());
  plan_request r;
  r.named_pools = {{"flag", {"172.16.0.0/12"}, {{"site", "eu"}}}};
  auto result = plan(loaded.value, builtin_catalog(), plan_options_for(r));
  ASSERT_EQ(result.changes.size(), 1U);
  EXPECT_TRUE(prefix::parse("172.16.0.0/12").supernet_of(result.changes[0].to)) << result.changes[0].to.to_string();
  EXPECT_EQ(result.changes[0].source, "pool flag");
}

TEST(PlanRequest, CostKeysBecomeOverridesCheckedAgainstTheFleet) {
  plan_request r;
  r.costs = {{"replacement-cluster", "40"}, {"owner:payments/services", "5"}, {"services", "1"}};
  auto o = plan_options_for(r);
  EXPECT_EQ(o.settings.cost[2], 1);  // a role alone stays the role's cost
  ASSERT_EQ(o.settings.cost_overrides.size(), 2u);
  EXPECT_EQ(cost_key(o.settings.cost_overrides[1]), "owner:payments/services");
  EXPECT_EQ(o.settings.cost_overrides[1].cost, 5);
  auto loaded = load(two);
  ASSERT_TRUE(loaded.ok());
  judgement j{builtin_catalog(), {}, {}, {}};
  EXPECT_NO_THROW(plan_options_for(loaded.value, r, j));
  r.costs = {{"owner:paymets", "5"}};
  try {
    plan_options_for(loaded.value, r, j);
    ADD_FAILURE() << "an unknown owner was accepted";
  } catch (const plan_option_error& e) {
    EXPECT_EQ(std::string(e.what()), "cost of owner:paymets: no cluster or network is named 'paymets' (did you mean 'payments'?)");
  }
  r.costs = {{"region:eu", "5"}};
  EXPECT_THROW(plan_options_for(r), plan_option_error);  // the syntax needs no fleet
}

TEST(PlanRequest, WhatIfConnectionsNameOwnersOfTheFleet) {
  auto loaded = load(two);
  ASSERT_TRUE(loaded.ok());
  plan_request r;
  r.connect = {{"payments", "ledgr"}};
  try {
    what_if_connections(loaded.value, r);
    FAIL() << "accepted";
  } catch (const plan_option_error& e) {
    EXPECT_STREQ(e.what(), "--connect names 'ledgr', which is no cluster or network (did you mean 'ledger'?)");
  }
  r.connect = {{"payments"}};
  EXPECT_THROW(what_if_connections(loaded.value, r), plan_option_error);
  EXPECT_THROW(what_if_connections(loaded.value, r), error);              // the library's one base
  EXPECT_THROW(what_if_connections(loaded.value, r), std::invalid_argument);  // and the standard one it was
  r.connect = {{"payments", "ledger"}};
  r.routes = {"pods"};
  auto j = judgement_for(config{}, loaded.suppressions);
  auto o = plan_options_for(loaded.value, r, j);
  ASSERT_EQ(o.connect.size(), 1u);
  EXPECT_EQ(o.connect[0].via, "what-if");
  EXPECT_TRUE(o.connect[0].routes.has(range_role::pods));
  EXPECT_FALSE(o.connect[0].routes.has(range_role::services));
  ASSERT_TRUE(o.triage);
}

}  // namespace
}  // namespace cidrcheck
