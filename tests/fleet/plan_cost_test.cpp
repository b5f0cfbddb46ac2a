// Cost overrides per operation kind, owner and distribution (docs/planning.md,
// "Costs"): the key syntax, its names checked against the catalog and the
// fleet, the precedence owner > distribution > kind > role > catalog, and the
// rule that a replacement costs more than any in-place change of its cluster.

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <variant>

namespace cidrcheck {
namespace {

// An EKS cluster and a kubeadm cluster meshed over one service range: by the
// catalog, kubeadm's services move with the ServiceCIDR API at cost 2.
constexpr std::string_view mesh = R"(
clusters:
  - {name: shop, distribution: eks, kubernetes: "1.30", network: 10.20.0.0/16, services: 10.100.0.0/16}
  - {name: ops, distribution: kubeadm, kubernetes: "1.33", network: 10.30.0.0/16, pods: 10.31.0.0/16, services: 10.100.0.0/16}
connections:
  - {between: [shop, ops], via: mesh, routes: [pods, services]}
)";

auto load(std::string_view yaml) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  return loader.finish();
}

auto key(std::string_view text) -> cost_override {
  auto parsed = parse_cost_key(text);
  EXPECT_TRUE(std::holds_alternative<cost_override>(parsed)) << text;
  return std::holds_alternative<cost_override>(parsed) ? std::get<cost_override>(parsed) : cost_override{};
}

auto problem(std::string_view text) -> std::string {
  auto parsed = parse_cost_key(text);
  return std::holds_alternative<cost_key_problem>(parsed) ? std::get<cost_key_problem>(parsed).message : "";
}

// The plan's operations as "owner kind cost", and what the first one counted.
struct outcome {
  std::vector<std::string> operations;
  std::vector<std::string> counted;
};

auto plan_with(std::string_view yaml, std::vector<std::pair<std::string, std::string>> costs) -> outcome {
  auto loaded = load(yaml);
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  plan_options options;
  for (const auto& [text, cost] : costs) {
    auto o = key(text);
    o.cost = std::stoi(cost);
    options.settings.cost_overrides.push_back(o);
  }
  auto result = plan(loaded.value, builtin_catalog(), options);
  outcome out;
  for (const auto& op : result.operations) {
    out.operations.push_back(loaded.value.owners[op.owners.front()].name + " " + op.kind + " " + std::to_string(op.cost));
  }
  if (!result.operations.empty()) out.counted = result.operations.front().counted;
  return out;
}

TEST(CostKey, ReadsEveryScopeAndWhat) {
  struct {
    std::string_view text;
    cost_override::scope of;
    std::string_view name, what;
  } cases[] = {
      {"replacement-cluster", cost_override::scope::any, "", "replacement-cluster"},
      {"*", cost_override::scope::any, "", "*"},
      {"owner:prod-eu", cost_override::scope::owner, "prod-eu", "*"},  // alone: every kind
      {"owner:prod-eu/services", cost_override::scope::owner, "prod-eu", "services"},
      {"owner:team/a/pods", cost_override::scope::owner, "team/a", "pods"},  // the last '/' ends the name
      {"distribution:eks/replacement-cluster", cost_override::scope::distribution, "eks", "replacement-cluster"},
      {"distribution:eks", cost_override::scope::distribution, "eks", "*"},
  };
  for (const auto& c : cases) {
    auto o = key(c.text);
    EXPECT_EQ(o.of, c.of) << c.text;
    EXPECT_EQ(o.name, c.name) << c.text;
    EXPECT_EQ(o.what, c.what) << c.text;
  }
}

TEST(CostKey, WritesKeysThatReadBack) {
  for (std::string_view text : {"replacement-cluster", "owner:prod-eu", "owner:prod-eu/services", "owner:team/a/*",
                                "distribution:eks", "distribution:gke/pods"}) {
    EXPECT_EQ(cost_key(key(text)), text);
  }
}

TEST(CostKey, RefusesMalformedKeysWithOneMessage) {
  EXPECT_EQ(problem("region:eu"), "cost of region:eu: 'region:' is no scope (owner:NAME/ or distribution:NAME/)");
  EXPECT_EQ(problem("owner:/pods"), "cost of owner:/pods: the owner name is empty");
  EXPECT_EQ(problem("owner:a/"), "cost of owner:a/: nothing after '/' (a role, an operation kind, or * for every kind)");
  EXPECT_EQ(problem(""), "cost of : the key is empty");
}

TEST(CostKey, ChecksNamesAgainstTheCatalogAndTheFleet) {
  const auto& c = builtin_catalog();
  EXPECT_FALSE(check_cost_names(key("replacement-cluster"), c));
  EXPECT_FALSE(check_cost_names(key("owner:x/all"), c));
  EXPECT_FALSE(check_cost_names(key("distribution:eks/pods"), c));
  auto kind = check_cost_names(key("replacment-cluster"), c);
  ASSERT_TRUE(kind);
  EXPECT_EQ(kind->code, "unknown-value");
  EXPECT_TRUE(kind->message.starts_with("cost of replacment-cluster: 'replacment-cluster' is no role or operation kind"));
  EXPECT_TRUE(kind->message.ends_with(" (did you mean 'replacement-cluster'?)")) << kind->message;
  auto distribution = check_cost_names(key("distribution:ekss"), c);
  ASSERT_TRUE(distribution);
  EXPECT_EQ(distribution->message, "cost of distribution:ekss: unknown distribution 'ekss' (did you mean 'eks'?)");
  auto loaded = load(mesh);
  EXPECT_FALSE(check_cost_owner(key("owner:ops"), loaded.value));
  EXPECT_FALSE(check_cost_owner(key("services"), loaded.value));
  auto owner = check_cost_owner(key("owner:opss/pods"), loaded.value);
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->message, "cost of owner:opss/pods: no cluster or network is named 'opss' (did you mean 'ops'?)");
}

TEST(CostOverrides, KindOverrideIsCountedWithItsSetting) {
  auto p = plan_with(mesh, {{"service-cidr-api", "3"}});
  ASSERT_EQ(p.operations, std::vector<std::string>{"ops service-cidr-api 3"});
  EXPECT_EQ(p.counted.front(), "base 3 set by cost service-cidr-api instead of the catalog's 2");
}

TEST(CostOverrides, OwnerOverrideMovesTheChoiceToAnotherCluster) {
  // Every operation on ops costs 50: replacing shop (20) is now cheaper.
  auto p = plan_with(mesh, {{"owner:ops", "50"}});
  ASSERT_EQ(p.operations.size(), 1u);
  EXPECT_TRUE(p.operations[0].starts_with("shop replacement-cluster ")) << p.operations[0];
}

TEST(CostOverrides, PrecedenceIsOwnerThenDistributionThenKindThenRole) {
  // Each pair gives two settings for ops's service-cidr-api; the first listed must win
  // (and leave service-cidr-api the cheapest of ops's service kinds, so that it is chosen).
  struct {
    std::vector<std::pair<std::string, std::string>> costs;
    std::string_view want;
  } cases[] = {
      {{{"services", "9"}, {"service-cidr-api", "3"}}, "base 3 set by cost service-cidr-api"},  // kind over role
      {{{"distribution:kubeadm", "4"}, {"service-cidr-api", "3"}}, "base 4 set by cost distribution:kubeadm"},
      {{{"owner:ops/*", "5"}, {"distribution:kubeadm/service-cidr-api", "3"}}, "base 5 set by cost owner:ops"},
      {{{"owner:ops/service-cidr-api", "3"}, {"owner:ops/services", "6"}}, "base 3 set by cost owner:ops/service-cidr-api"},
      {{{"owner:ops/services", "7"}, {"owner:ops/all", "3"}}, "base 7 set by cost owner:ops/services"},
      {{{"owner:ops/all", "8"}, {"owner:ops", "3"}}, "base 8 set by cost owner:ops/all"},
  };
  for (const auto& c : cases) {
    for (bool reversed : {false, true}) {  // the order given does not matter between levels
      auto costs = c.costs;
      if (reversed) std::swap(costs[0], costs[1]);
      auto p = plan_with(mesh, costs);
      ASSERT_FALSE(p.counted.empty());
      EXPECT_TRUE(p.counted.front().starts_with(c.want)) << p.counted.front() << " for " << c.costs[0].first;
    }
  }
}

TEST(CostOverrides, EquallySpecificSettingsTheLaterWins) {
  auto p = plan_with(mesh, {{"service-cidr-api", "3"}, {"service-cidr-api", "4"}});
  ASSERT_FALSE(p.counted.empty());
  EXPECT_EQ(p.counted.front(), "base 4 set by cost service-cidr-api instead of the catalog's 2");
}

TEST(CostOverrides, ReplacementStaysAboveTheDearestInPlaceChange) {
  // ops's network (new-vpc, 10) and services (2) both conflict; its replacement,
  // set to 1, is raised to 11 and is still cheaper than 10 + 2.
  auto both = std::string(mesh) + R"(networks:
  - {name: office, type: office, cidrs: [10.30.0.0/16]}
)";
  both.replace(both.find("routes: [pods, services]}"), 25, "routes: [pods, services]}\n  - {between: [ops, office], via: vpn}");
  EXPECT_EQ(plan_with(both, {}).operations, (std::vector<std::string>{"ops new-vpc 10", "ops service-cidr-api 2"}));
  auto p = plan_with(both, {{"owner:ops/replacement-cluster", "1"}});
  ASSERT_EQ(p.operations, std::vector<std::string>{"ops replacement-cluster 11"});
  ASSERT_EQ(p.counted.size(), 2u);
  EXPECT_EQ(p.counted.front(), "base 1 set by cost owner:ops/replacement-cluster instead of the catalog's 20");
  EXPECT_EQ(p.counted.back(), "raised to 11: more than the dearest in-place change of ops");
}

TEST(CostOverrides, FleetFileKeysAreCheckedWhereWritten) {
  auto loaded = load(R"(plan:
  cost:
    replacment-cluster: 30
    owner:nobody/pods: 5
    distribution:ekss: 5
    owner:ops/services: 2000000
    owner:ops: 7
    all: 4
clusters:
  - {name: ops, distribution: kubeadm, network: 10.30.0.0/16, pods: 10.31.0.0/16, services: 10.100.0.0/16}
)");
  ASSERT_EQ(loaded.diagnostics.size(), 4u);
  std::vector<std::string> got;
  for (const auto& d : loaded.diagnostics) got.push_back(format_diagnostic(d));
  EXPECT_TRUE(got[0].starts_with("t.yaml:3:5: error: cost of replacment-cluster: 'replacment-cluster' is no role"))
      << got[0];
  EXPECT_EQ(got[1], "t.yaml:4:5: error: cost of owner:nobody/pods: no cluster or network is named 'nobody'\n");
  EXPECT_EQ(got[2], "t.yaml:5:5: error: cost of distribution:ekss: unknown distribution 'ekss' (did you mean 'eks'?)\n");
  EXPECT_EQ(got[3], "t.yaml:6:25: error: cost of owner:ops/services must be from 0 to 1000000, not 2000000\n");
}

TEST(CostOverrides, FleetFileKeysAreKeptAndFlagsWinTies) {
  auto loaded = load(std::string(mesh) + "plan:\n  cost: {all: 4, owner:ops: 7}\n");
  ASSERT_TRUE(loaded.ok()) << format_diagnostic(loaded.diagnostics.front());
  const auto& s = loaded.value.plan;
  EXPECT_EQ(s.cost[0], 4);
  EXPECT_EQ(s.cost[2], 4);
  ASSERT_EQ(s.cost_overrides.size(), 1u);
  EXPECT_EQ(cost_key(s.cost_overrides[0]), "owner:ops");
  EXPECT_EQ(s.cost_overrides[0].where.line, 8u);
  plan_options flags;
  flags.settings.cost_overrides.push_back(key("owner:ops"));
  flags.settings.cost_overrides.back().cost = 6;
  auto result = plan(loaded.value, builtin_catalog(), flags);
  ASSERT_EQ(result.operations.size(), 1u);
  EXPECT_EQ(result.operations[0].counted.front(), "base 6 set by cost owner:ops instead of the catalog's 2");
}

}  // namespace
}  // namespace cidrcheck
