#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/plan_writer.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace cidrcheck {
namespace {

auto load(std::string_view text) -> fleet {
  fleet_loader loader(builtin_catalog());
  loader.add_text(text, "f.yaml");
  auto r = loader.finish();
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0]));
  return r.value;
}

// Plans text, writes the plan into it, and checks that the result reads back
// without errors and says what the plan says.
auto planned_text(std::string_view text) -> std::string {
  auto f = load(text);
  auto p = plan(f, builtin_catalog());
  EXPECT_TRUE(p.complete());
  auto out = apply_plan_to_text(text, "f.yaml", f, p);
  auto again = load(out);
  for (const auto& x : check(again, builtin_catalog())) EXPECT_NE(x.level, severity::error) << x.message;
  auto applied = apply_plan(f, p);
  EXPECT_EQ(again.ranges.size(), applied.ranges.size());
  return out;
}

TEST(PlanWriter, ReplacesDeclaredCidrsAndKeepsEverythingElse) {
  auto out = planned_text(R"(# the fleet
clusters:
  - name: a   # first
    network: 10.1.0.0/16
    pods: [10.2.0.0/16]
    services: "10.96.0.0/16"   # quoted
  - name: b
    network: 10.3.0.0/16
    pods: [10.4.0.0/16]
    services: 10.96.0.0/16
connections:
  - [a, b]
)");
  EXPECT_NE(out.find("# the fleet\n"), std::string::npos);
  EXPECT_NE(out.find("  - name: a   # first\n"), std::string::npos);
  EXPECT_NE(out.find("services: \"10.96.0.0/16\"   # quoted"), std::string::npos);  // a keeps its range
  EXPECT_EQ(out.find("services: 10.96.0.0/16\n"), std::string::npos);            // b's moved
}

TEST(PlanWriter, WritesFilledInRangesAsNewKeysInBlockAndFlowStyle) {
  auto out = planned_text(R"(networks:
  - {name: ts, type: tailscale}
clusters:
  - name: block
    distribution: kops
  - {name: flow, distribution: kops, network: 10.50.0.0/16}
connections:
  - [block, ts]
  - [flow, ts]
)");
  EXPECT_NE(out.find("    distribution: kops\n    pods: ["), std::string::npos) << out;
  EXPECT_NE(out.find("# planned by cidrcheck; was kops's default 100.96.0.0/11"), std::string::npos) << out;
  EXPECT_NE(out.find("{name: flow, distribution: kops, network: 10.50.0.0/16, pods: ["), std::string::npos) << out;
}

TEST(PlanWriter, FillsRequestsAndKeepsCrlf) {
  auto out = planned_text("clusters:\r\n  - name: new\r\n    pods: /16\r\n    services: auto\r\n    network: \"/20\"\r\n");
  EXPECT_EQ(out.find("pods: /16"), std::string::npos) << out;
  EXPECT_EQ(out.find("\"/20\""), std::string::npos) << out;
  EXPECT_EQ(out.find("auto"), std::string::npos);
  EXPECT_EQ(out.find('\n'), out.find("\r\n") + 1);  // still CRLF
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k] == '\n') {
      EXPECT_EQ(out[k - 1], '\r');
    }
  }
}

TEST(PlanWriter, MovesTheDnsAddressWithItsServiceRange) {
  auto out = planned_text(R"(networks:
  - {name: home, type: home, cidrs: 192.168.1.0/24}
clusters:
  - name: a
    distribution: kubeadm
    network: 10.1.0.0/16
    pods: 10.2.0.0/16
    services: 192.168.0.0/16
    dns: 192.168.0.10
connections:
  - [a, home]
)");
  EXPECT_EQ(out.find("192.168.0.10"), std::string::npos) << out;
}

}  // namespace
}  // namespace cidrcheck
