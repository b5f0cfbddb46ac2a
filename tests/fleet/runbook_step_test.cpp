// The step model's own behaviour: component names, document paths, and that a
// step is a plain value (copied and compared through its parts).

#include <cidrcheck/fleet/runbook_step.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace cidrcheck {
namespace {

TEST(RunbookStep, EveryComponentHasItsOwnName) {
  std::set<std::string_view> names;
  for (auto c : {component::kube_apiserver, component::kube_controller_manager, component::kubelet,
                 component::kube_proxy, component::cluster_dns, component::cni_agent, component::cni_operator,
                 component::etcd}) {
    EXPECT_TRUE(names.insert(to_string(c)).second) << to_string(c);
  }
  EXPECT_EQ(to_string(component::kube_controller_manager), "kube-controller-manager");
}

auto service_cidr() -> doc_node {
  doc_list cidrs{doc_node{std::string("10.48.0.0/12")}, doc_node{std::string("fd00::/112")}};
  return doc_node{doc_map{{"spec", doc_node{doc_map{{"cidrs", doc_node{cidrs}}}}}}};
}

TEST(RunbookStep, FindFollowsDottedMapKeys) {
  auto doc = service_cidr();
  const auto* cidrs = doc.find("spec.cidrs");
  ASSERT_NE(cidrs, nullptr);
  const auto* list = std::get_if<doc_list>(&cidrs->value);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ(std::get<std::string>(list->front().value), "10.48.0.0/12");
  EXPECT_EQ(doc.find(""), &doc);
}

TEST(RunbookStep, FindReturnsNullForAMissingKeyOrAPathThroughANonMap) {
  auto doc = service_cidr();
  EXPECT_EQ(doc.find("spec.cidr"), nullptr);
  EXPECT_EQ(doc.find("metadata"), nullptr);
  EXPECT_EQ(doc.find("spec.cidrs.first"), nullptr);  // a list has no keys
}

TEST(RunbookStep, FindTakesTheLastOfRepeatedKeys) {
  doc_node doc{doc_map{{"a", doc_node{std::int64_t{1}}}, {"a", doc_node{std::int64_t{2}}}}};
  ASSERT_NE(doc.find("a"), nullptr);
  EXPECT_EQ(std::get<std::int64_t>(doc.find("a")->value), 2);
}

TEST(RunbookStep, AStepHoldsItsTypedActionAndItsFacts) {
  runbook_step s;
  s.owner = 3;
  s.action = set_flag{component::kube_apiserver, "--service-cluster-ip-range",
                      std::vector<prefix>{prefix::parse("10.48.0.0/12")}, rollout::one_at_a_time};
  s.facts = {"kas-flag-two"};
  s.checks.push_back({observable::service_cidr, expectation::ready, {}, {}, "kubernetes"});
  runbook_step copy = s;
  const auto* flag = std::get_if<set_flag>(&copy.action);
  ASSERT_NE(flag, nullptr);
  EXPECT_EQ(flag->flag, "--service-cluster-ip-range");
  EXPECT_EQ(std::get<std::vector<prefix>>(flag->value).front(), prefix::parse("10.48.0.0/12"));
  EXPECT_EQ(copy.checks.front().name, "kubernetes");
  EXPECT_EQ(copy.owner, 3u);
}

}  // namespace
}  // namespace cidrcheck
