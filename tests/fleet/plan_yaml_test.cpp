// `--format yaml` applies every range change of every operation, a pod range an
// operation adds included (add-pod-range, gke-additional-pod-range): the
// written fleet, patched or as an overlay, loads and checks without errors.

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/plan_writer.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <string_view>

namespace cidrcheck {
namespace {

auto load(std::initializer_list<std::pair<std::string_view, std::string>> texts) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  for (const auto& [text, name] : texts) loader.add_text(text, name);
  return loader.finish();
}

auto errors(const fleet& f) -> std::size_t {
  auto findings = plan_check(f, builtin_catalog());
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [](const finding& x) { return x.level == severity::error; }));
}

// The pod ranges of one owner, as text.
auto pods_of(const fleet& f, std::string_view name) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (auto k : f.owners[*f.find_owner(name)].ranges) {
    if (f.ranges[k].role == range_role::pods) out.push_back(f.ranges[k].cidr.to_string());
  }
  return out;
}

struct grown {
  std::string_view name;
  std::string_view yaml;
  std::string_view owner;
  std::string_view kind;
};

// Clusters short of pod space whose cheapest way out is a range added beside a healthy one.
constexpr grown cases[] = {
    {"CalicoPodsKey", R"(clusters:
  - name: batch
    distribution: kubeadm
    kubernetes: "1.32"
    cni: calico
    block_size: 24   # 256 blocks for 400 nodes
    nodes: 400
    network: 10.70.0.0/16
    pods: 10.80.0.0/16   # healthy, too small
    services: 10.81.0.0/16
)",
     "batch", "add-pod-range"},
    {"CiliumFlowOwner", R"(clusters:
  - {name: edge, distribution: kubeadm, kubernetes: "1.32", cni: cilium, nodes: 400, network: 10.70.0.0/16, pods: [10.80.0.0/16], services: 10.81.0.0/16}
)",
     "edge", "add-pod-range"},
    {"GkeAdditionalRange", R"(clusters:
  - name: web
    distribution: gke
    nodes: 400
    network: 10.70.0.0/16
    pods: 10.80.0.0/16   # the default range: 256 node /24s
    services: 10.81.0.0/20
)",
     "web", "gke-additional-pod-range"},
    {"CalicoPodsAlias", R"(x-pods: &pods [10.80.0.0/16]
clusters:
  - name: batch
    distribution: kubeadm
    kubernetes: "1.32"
    cni: calico
    block_size: 24
    nodes: 400
    network: 10.70.0.0/16
    pods: *pods
    services: 10.81.0.0/16
)",
     "batch", "add-pod-range"},
};

// GoogleTest prints a case by its name (in --gtest_list_tests and in failures)
// rather than as the bytes of the struct.
void PrintTo(const grown& c, std::ostream* os) { *os << c.name; }

TEST(PlanYamlCases, PrintByName) { EXPECT_EQ(testing::PrintToString(cases[2]), "GkeAdditionalRange"); }

class PlanYaml : public testing::TestWithParam<grown> {};

TEST_P(PlanYaml, WritesTheAddedPodRangeAndChecksClean) {
  const auto& c = GetParam();
  auto loaded = load({{c.yaml, "f.yaml"}});
  ASSERT_TRUE(loaded.ok()) << format_diagnostic(loaded.diagnostics.front());
  auto p = plan(loaded.value, builtin_catalog());
  ASSERT_TRUE(p.complete()) << p.problems.front().message;
  ASSERT_EQ(p.operations.size(), 1u);
  EXPECT_EQ(p.operations[0].kind, c.kind);
  auto planned = apply_plan(loaded.value, p);
  auto want = pods_of(planned, c.owner);
  ASSERT_EQ(want.size(), pods_of(loaded.value, c.owner).size() + 1);  // one range added, none moved

  auto text = apply_plan_to_text(c.yaml, "f.yaml", loaded.value, p);
  auto again = load({{text, "f.yaml"}});
  ASSERT_TRUE(again.ok()) << text;
  EXPECT_EQ(pods_of(again.value, c.owner), want) << text;
  EXPECT_EQ(errors(again.value), 0u) << text;
  // The rest of the file is kept: only the pods line changes or a line is added.
  auto lines = [](std::string_view t) { return std::count(t.begin(), t.end(), '\n'); };
  EXPECT_LE(lines(text) - lines(c.yaml), 1) << text;

  auto overlay = write_plan_overlay(loaded.value, p);
  EXPECT_NE(overlay.find(", add: "), std::string::npos) << overlay;
  auto beside = load({{c.yaml, "f.yaml"}, {overlay, "overlay.yaml"}});
  ASSERT_TRUE(beside.ok()) << overlay << format_diagnostic(beside.diagnostics.front());
  EXPECT_EQ(pods_of(beside.value, c.owner), want) << overlay;
  EXPECT_EQ(errors(beside.value), 0u) << overlay;
}

INSTANTIATE_TEST_SUITE_P(Grown, PlanYaml, testing::ValuesIn(cases),
                         [](const testing::TestParamInfo<grown>& p) { return std::string(p.param.name); });

TEST(PlanYamlOverlay, AddEntryNeedsAKnownOwnerAndACidr) {
  auto bad = load({{"clusters: [{name: a, network: 10.0.0.0/16}]\n", "f.yaml"},
                   {"renumber:\n  - {owner: a, role: pods, add: 10.1.0.0/33}\n  - {owner: a, role: dns, add: 10.0.0.10}\n",
                    "o.yaml"}});
  ASSERT_EQ(bad.diagnostics.size(), 2u);
  EXPECT_EQ(bad.diagnostics[0].where.line, 2u);
  EXPECT_EQ(bad.diagnostics[1].message, "a renumber entry adds ranges, not a DNS address");
}

}  // namespace
}  // namespace cidrcheck
