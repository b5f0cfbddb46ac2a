// The tailscale importer: a Tailscale policy file (HuJSON).
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::test {
namespace {

// Tailscale policy (HuJSON)
// The routes a network carries, as "CIDR ADVERTISER -> DESTINATION".
auto routes_of(const fleet_load_result& r, std::string_view network) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& x : r.value.routes) {
    const auto& range = r.value.ranges[x.range];
    if (r.value.owners[range.owner].name != network) continue;
    out.push_back(range.cidr.to_string() + " " + x.advertiser +
                  (x.to_owner ? " -> " + r.value.owners[*x.to_owner].name : std::string()));
  }
  return out;
}

TEST(ImportTailscale, TheTailnetCarriesTheRoutesItsPolicyApproves) {
  auto r = load({{import_kind::tailscale, "tailscale/policy.hujson"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // One owner: the routes are the tailnet's, not networks of their own, and no connection is inferred.
  EXPECT_EQ(names(r), (v{"tailscale"}));
  EXPECT_EQ(owner_of(r, "tailscale").type, "tailscale");
  EXPECT_EQ(routes_of(r, "tailscale"),
            (v{"10.0.0.0/8 tag:k8s", "192.168.10.0/24 tag:office-router", "fd7a:115c:a1e0:b1a::/64 tag:k8s"}));
  EXPECT_TRUE(r.value.connections.empty());
  // The tailnet's own ranges still come from its type, beside its routes.
  std::vector<std::string> own;
  for (auto k : owner_of(r, "tailscale").ranges) {
    if (!r.value.ranges[k].is_route()) own.push_back(r.value.ranges[k].cidr.to_string());
  }
  EXPECT_EQ(own, (v{"100.64.0.0/10", "fd7a:115c:a1e0::/48"}));
}

// The Tailscale operator's Connectors advertise routes into the tailnet (was: refused as no policy).
TEST(ImportTailscale, ConnectorsAdvertiseRoutesOfTheTailnet) {
  auto r = load({{import_kind::tailscale, "tailscale/connectors.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"tailscale"}));
  EXPECT_EQ(routes_of(r, "tailscale"), (v{"10.40.0.0/14 Connector ts-prod", "192.168.0.0/14 Connector ts-prod",
                                          "10.60.0.0/16 Connector staging"}));
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "Connector ts-prod is an exit node"));
  // With the policy, the tailnet carries both: one network.
  auto both = load({{import_kind::tailscale, "tailscale/policy.hujson"}, {import_kind::tailscale, "tailscale/connectors.yaml"}});
  ASSERT_TRUE(both.ok()) << printed(both);
  EXPECT_EQ(names(both), (v{"tailscale"}));
  EXPECT_EQ(routes_of(both, "tailscale").size(), 6u);
}

// Headscale numbers the tailnet from its configuration's prefixes, not Tailscale's defaults.
TEST(ImportTailscale, HeadscalesPrefixesAreTheTailnetsSpace) {
  auto r = load({{import_kind::tailscale, "tailscale/headscale.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "tailscale", range_role::external), (v{"100.100.0.0/16", "fd7a:115c:a1e0::/48"}));
  auto old = load_text(import_kind::tailscale,
                       "server_url: http://127.0.0.1:8080\nip_prefixes:\n  - fd7a:115c:a1e0::/48\n  - 100.64.0.0/10\n",
                       "headscale.yaml");
  ASSERT_TRUE(old.ok()) << printed(old);
  EXPECT_EQ(cidrs(old, "tailscale", range_role::external), (v{"100.64.0.0/10", "fd7a:115c:a1e0::/48"}));
}

TEST(ImportTailscale, DestinationsNoApprovedRouteCoversAreWarningsNotDropped) {
  auto r = load({{import_kind::tailscale, "tailscale/policy.hujson"}});
  // 10.100.0.0/16 and the NAS lie inside approved routes; 100.101.102.103 is a
  // tailnet device; tags and "*" are no addresses. The ACL's 172.24.8.0/22 and
  // the grant's IPv6 /56 are named but routed by nothing the policy approves.
  EXPECT_EQ(printed(r),
            fixtures + "tailscale/policy.hujson:30:74: warning: tailscale: acls names 172.24.8.0/22, which no route "
                       "in autoApprovers.routes covers: the tailnet reaches it only through a route approved by hand, "
                       "which the policy does not show; cidrcheck does not check it\n" +
                fixtures + "tailscale/policy.hujson:35:24: warning: tailscale: grants names 2600:1f14:a8e:4c00::/56, "
                           "which no route in autoApprovers.routes covers: the tailnet reaches it only through a route "
                           "approved by hand, which the policy does not show; cidrcheck does not check it\n");
}

TEST(ImportTailscale, CommentsAndTrailingCommasKeepPositions) {
  auto r = load({{import_kind::tailscale, "tailscale/policy.hujson"}});
  // After a two-line /* */ comment; a route's column is the CIDR's, past the quote.
  ASSERT_FALSE(r.value.routes.empty());
  EXPECT_EQ(r.value.ranges[r.value.routes[0].range].where, (source_location{fixtures + "tailscale/policy.hujson", 22, 5}));
}

TEST(ImportTailscale, EachApproverIsARouterAndAHostsNameMayNameTheDestination) {
  auto r = load_text(import_kind::tailscale, R"({
  "hosts": {"prod-eu": "10.10.0.0/16"},
  "autoApprovers": {"routes": {
    "10.10.0.0/16": ["tag:a"],
    "10.30.0.0/16": ["tag:a", "tag:b"],
    "0.0.0.0/0": ["tag:exit"],
  }},
})");
  ASSERT_TRUE(r.ok()) << printed(r);
  // No owner prod-eu here: the hosts name is a guess that names nothing, so no destination.
  EXPECT_EQ(routes_of(r, "tailscale"), (v{"10.10.0.0/16 tag:a", "10.30.0.0/16 tag:a", "10.30.0.0/16 tag:b"}));
  EXPECT_NE(printed(r).find("0.0.0.0/0, all addresses: that is an exit node's route"), std::string::npos) << printed(r);
}

TEST(ImportTailscale, AnUnterminatedCommentIsAPositionedError) {
  auto r = load({{import_kind::tailscale, "tailscale/unterminated.hujson"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(printed(r), fixtures + "tailscale/unterminated.hujson:5:2: error: tailscale: invalid HuJSON: a /* comment "
                                   "that never ends\n");
}

TEST(ImportTailscale, SlashesInStringsAreNoComments) {
  auto r = load_text(import_kind::tailscale,
                     "{\"autoApprovers\": {\"routes\": {\"10.9.0.0/16\": []}}, // see https://tailscale.com/kb/1018\n"
                     " \"derpMap\": {\"Regions\": {\"900\": {\"Nodes\": [{\"HostName\": \"https://derp.example\"}]}}}}\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(routes_of(r, "tailscale"), (v{"10.9.0.0/16 "}));
}

}  // namespace
}  // namespace cidrcheck::test
