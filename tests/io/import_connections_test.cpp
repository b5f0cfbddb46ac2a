// Connections from exports: Terraform peerings, transit gateways, VPNs, routes,
// hubs; the AWS, gcloud and az outputs of peerings and transit gateways; Istio
// remote secrets and Cilium's ClusterMesh. Each source has its fixture under
// tests/fixtures/import/ (README there). Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <cidrcheck/fleet/check.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <tuple>

namespace cidrcheck::test {
namespace {

// A connection as the test reads it: how it is named, its members by name, how it routes.
struct link {
  std::string name, via;
  std::set<std::string> members;
  friend auto operator<=>(const link&, const link&) = default;
};

auto links(const fleet_load_result& r) -> std::vector<link> {
  std::vector<link> out;
  for (const auto& c : r.value.connections) {
    link l{c.name, c.via, {}};
    for (auto m : c.members) l.members.insert(r.value.owners[m].name);
    out.push_back(std::move(l));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A finding as two fleets can share it: its rule and its ranges by owner and CIDR.
auto findings(const fleet_load_result& r) -> std::set<std::string> {
  std::set<std::string> out;
  for (const auto& x : check(r.value, builtin_catalog())) {
    std::set<std::string> ranges;
    for (auto k : x.ranges) {
      const auto& range = r.value.ranges[k];
      ranges.insert(r.value.owners[range.owner].name + " " + range.cidr.to_string());
    }
    std::string text(info(x.id).name);
    for (const auto& s : ranges) text += " | " + s;
    out.insert(text);
  }
  return out;
}

// An owner's own ranges (not its routes), as CIDRs.
auto own(const fleet_load_result& r, std::string_view owner_name) -> std::vector<std::string> {
  std::vector<std::string> out;
  auto k = r.value.find_owner(owner_name);
  if (!k) return {"<no owner>"};
  for (auto i : r.value.owners[*k].ranges) {
    if (r.value.ranges[i].is_plain()) out.push_back(r.value.ranges[i].cidr.to_string());
  }
  return out;
}

auto has_finding(const fleet_load_result& r, std::string_view rule_name, std::string_view first,
                 std::string_view second) -> bool {
  for (const auto& x : check(r.value, builtin_catalog())) {
    if (info(x.id).name != rule_name || x.ranges.size() != 2) continue;
    std::set<std::string> names;
    for (auto k : x.ranges) names.insert(r.value.owners[r.value.ranges[k].owner].name);
    if (names == std::set<std::string>{std::string(first), std::string(second)}) return true;
  }
  return false;
}

// The plan alone says the two VPCs will be peered: their overlap is an
// overlap, not a latent one, with no connection written by hand.
TEST(ImportConnections, APlanThatAddsAPeeringBetweenOverlappingVpcsGivesTheOverlap) {
  auto before = load({{import_kind::terraform_plan, "terraform-plan/peering-base.json"}});
  ASSERT_TRUE(before.ok()) << printed(before);
  EXPECT_TRUE(before.value.connections.empty());
  EXPECT_TRUE(has_finding(before, "latent-overlap", "vpc-0e9801d1295ce6ff8", "aws_vpc.payments"));
  auto r = load({{import_kind::terraform_plan, "terraform-plan/peering.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // peer_vpc_id is known only after apply: the configuration says it is aws_vpc.payments.
  EXPECT_EQ(links(r), (std::vector<link>{{"aws_vpc_peering_connection.shared_payments", "peering",
                                          {"aws_vpc.payments", "vpc-0e9801d1295ce6ff8"}}}));
  EXPECT_TRUE(has_finding(r, "overlap", "vpc-0e9801d1295ce6ff8", "aws_vpc.payments"));
  EXPECT_FALSE(has_finding(r, "latent-overlap", "vpc-0e9801d1295ce6ff8", "aws_vpc.payments"));
}

TEST(ImportConnections, APlanThatAttachesAnOverlappingVpcToATransitGatewayGivesTheOverlap) {
  auto before = load({{import_kind::terraform_plan, "terraform-plan/transit-base.json"}});
  ASSERT_TRUE(before.ok()) << printed(before);
  EXPECT_TRUE(has_finding(before, "latent-overlap", "vpc-0e9801d1295ce6ff8", "vpc-07d3c2b1a0f9e8d7c"));
  auto r = load({{import_kind::terraform_plan, "terraform-plan/transit.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // Both attachments use the gateway's default route table (association and propagation on by default).
  EXPECT_EQ(links(r), (std::vector<link>{{"tgw-rtb-06b2c1d0e9f8a7b6c", "transit",
                                          {"vpc-07d3c2b1a0f9e8d7c", "vpc-0e9801d1295ce6ff8"}}}));
  EXPECT_TRUE(has_finding(r, "overlap", "vpc-0e9801d1295ce6ff8", "vpc-07d3c2b1a0f9e8d7c"));
}

TEST(ImportConnections, TerraformStateGivesPeeringsTransitGatewaysVpnsAndRoutes) {
  auto r = load({{import_kind::terraform, "terraform/connections.tfstate"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(links(r),
            (std::vector<link>{
                {"pcx-0f9e8d7c6b5a43210", "peering", {"vpc-0d2c1b0a9f8e7d6c5", "vpc-0e9801d1295ce6ff8"}},
                {"tgw-rtb-06b2c1d0e9f8a7b6c", "transit",
                 {"vpc-07d3c2b1a0f9e8d7c", "vpc-0e9801d1295ce6ff8", "vpn-0a1b2c3d4e5f60718"}},
            }));
  // The VPN's other side is known by the transit gateway's static route toward it.
  EXPECT_EQ(own(r, "vpn-0a1b2c3d4e5f60718"), (v{"172.16.0.0/16"}));
  // Routes of the shared VPC's route table toward the peering (to the peer VPC) and the transit gateway.
  std::vector<std::tuple<std::string, std::string, std::string>> routes;
  for (const auto& route : r.value.routes) {
    routes.emplace_back(r.value.ranges[route.range].cidr.to_string(), route.advertiser, route.to);
  }
  EXPECT_EQ(routes, (std::vector<std::tuple<std::string, std::string, std::string>>{
                        {"10.2.0.0/16", "pcx-0f9e8d7c6b5a43210", "vpc-0d2c1b0a9f8e7d6c5"},
                        {"172.16.0.0/16", "tgw-0c1d2e3f4a5b6c7d8", ""}}));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "1 default route (0.0.0.0/0, ::/0)"));
  EXPECT_TRUE(has_finding(r, "overlap", "vpc-0e9801d1295ce6ff8", "vpc-07d3c2b1a0f9e8d7c"));
}

TEST(ImportConnections, TerraformStateGivesGcpPeeringsAndVpnsAndAzurePeeringsAndHubs) {
  auto r = load({{import_kind::terraform, "terraform/gcp-azure-connections.tfstate"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(links(r),
            (std::vector<link>{
                {"google_compute_vpn_tunnel.office", "vpn", {"acme-prod/us-central1/gke-prod", "berlin-office"}},
                {"hub-to-app", "peering", {"rg-app/app-vnet", "rg-network/hub-vnet"}},
                {"prod-to-shared", "peering", {"acme-prod/us-central1/gke-prod", "acme-shared/us-central1/shared-services"}},
                {"rg-wan/weu-hub/defaultroutetable", "virtual-hub", {"rg-app/app-vnet", "rg-branch/branch-vnet", "rg-wan/weu-hub"}},
            }));
  // A peering with no peering back stays Initiated: a note, no connection.
  EXPECT_TRUE(has_diagnostic(r, severity::note, "peering hub-to-branch of rg-network/hub-vnet to rg-branch/branch-vnet"));
  // The office behind the tunnel: its static route's range, and the ranges the Cloud Router advertises to it.
  EXPECT_EQ(own(r, "berlin-office"), (v{"192.168.10.0/24"}));
  std::set<std::string> advertised;
  for (const auto& route : r.value.routes) advertised.insert(r.value.ranges[route.range].cidr.to_string());
  EXPECT_EQ(advertised, (std::set<std::string>{"10.4.0.0/14", "10.8.0.0/20"}));
  // The peered subnets overlap: GCP would refuse the peering; cidrcheck says why.
  EXPECT_TRUE(has_finding(r, "overlap", "acme-prod/us-central1/gke-prod", "acme-shared/us-central1/shared-services"));
}

TEST(ImportConnections, AwsPeeringsConnectActiveOnesAndNoteTheOthers) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}, {import_kind::aws_peerings, "aws-peerings/peerings.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(links(r), (std::vector<link>{{"pcx-0f1e2d3c4b5a69780", "peering",
                                          {"vpc-0012b8e1cc0abb17d", "vpc-0e9801d1295ce6ff8"}}}));
  auto inactive = with_code(r, "import-inactive");
  EXPECT_TRUE(has_diagnostic(r, severity::note, "peering pcx-0a9b8c7d6e5f40312 between vpc-0e9801d1295ce6ff8 and "
                                                "vpc-0d2c1b0a9f8e7d6c5 is pending-acceptance, not active"));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "is failed, not active"));
  // The peering's blocks lie inside the VPCs describe-vpcs states: no conflict.
  EXPECT_TRUE(r.value.conflicts.empty());
  // Alone, the peering's blocks stand for the VPCs.
  auto alone = load({{import_kind::aws_peerings, "aws-peerings/peerings.json"}});
  EXPECT_EQ(cidrs(alone, "vpc-0e9801d1295ce6ff8", range_role::external),
            (v{"10.0.0.0/15", "2600:1f14:a8e:4c00::/56"}));
}

TEST(ImportConnections, AwsTransitGatewayTablesConnectWhatTheyServeAndRouteTo) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"},
                 {import_kind::aws_tgw, "aws-tgw/tgw.json"},
                 {import_kind::aws_tgw, "aws-tgw/routes.json", "tgw-rtb-06b2c1d0e9f8a7b6c"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(links(r), (std::vector<link>{{"tgw-rtb-06b2c1d0e9f8a7b6c", "transit",
                                          {"vpc-0012b8e1cc0abb17d", "vpc-0e9801d1295ce6ff8", "vpn-0a1b2c3d4e5f60718"}}}));
  // The VPN's side, from its static and propagated (BGP) routes.
  EXPECT_EQ(own(r, "vpn-0a1b2c3d4e5f60718"), (v{"10.20.0.0/16", "172.16.0.0/16"}));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "attachment tgw-attach-0a89069f57b8c9d0e of vpc-0d2c1b0a9f8e7d6c5 "
                                                "is pendingAcceptance"));
  // The routes' table must be named: the output does not say it.
  auto unnamed = load({{import_kind::aws_tgw, "aws-tgw/routes.json"}});
  ASSERT_FALSE(unnamed.ok());
  EXPECT_EQ(unnamed.diagnostics.front().code, "missing-key");
}

TEST(ImportConnections, AwsRouteTablesGiveEachVpcsRoutesTowardWhatJoinsIt) {
  auto r = load({{import_kind::aws_route_tables, "aws-route-tables/route-tables.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  std::set<std::tuple<std::string, std::string, std::string>> routes;
  for (const auto& route : r.value.routes) {
    const auto& range = r.value.ranges[route.range];
    routes.emplace(r.value.owners[range.owner].name, range.cidr.to_string(), route.advertiser);
  }
  EXPECT_EQ(routes, (std::set<std::tuple<std::string, std::string, std::string>>{
                        {"vpc-0e9801d1295ce6ff8", "192.168.0.0/16", "pcx-0f1e2d3c4b5a69780"},
                        {"vpc-0e9801d1295ce6ff8", "172.16.0.0/12", "tgw-0c1d2e3f4a5b6c7d8"},
                        {"vpc-0012b8e1cc0abb17d", "10.0.0.0/15", "pcx-0f1e2d3c4b5a69780"}}));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "route 10.50.0.0/16 of rtb-0d4c5b6a7f8e9d0c1 toward "
                                                "pcx-0deadbeef0000000 is blackhole"));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "1 default route"));  // toward the transit gateway; internet ones are not read
}

TEST(ImportConnections, GcpPeeringsConnectTheSubnetsOfBothNetworks) {
  auto r = load({{import_kind::gcp_subnets, "gcp-subnets/subnets.json"},
                 {import_kind::gcp_subnets, "gcp-subnets/shared.json"},
                 {import_kind::gcp_peerings, "gcp-peerings/peerings.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(links(r), (std::vector<link>{{"prod-to-shared", "peering",
                                          {"acme-prod/europe-west4/tools", "acme-prod/us-central1/gke-prod",
                                           "acme-shared/us-central1/shared-services"}}}));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "peering prod-to-partner of acme-prod/prod-vpc to "
                                                "partner-net/partner-vpc is INACTIVE"));
  // Without the subnets, the networks are unknown: a warning, not an error.
  auto alone = load({{import_kind::gcp_peerings, "gcp-peerings/peerings.json"}},
                    "networks:\n  - {name: office, cidrs: [192.168.0.0/16]}\n");
  EXPECT_TRUE(alone.ok()) << printed(alone);
  EXPECT_TRUE(alone.value.connections.empty());
  EXPECT_EQ(with_code(alone, "unresolved-link").size(), 2u);
}

TEST(ImportConnections, AzurePeeringListsReadAsTheNetworkListsPeeringsDo) {
  auto r = load({{import_kind::azure_peerings, "azure-peerings/hub-peerings.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // The hub itself is in no source here: its connections keep only their other members, and warn.
  EXPECT_TRUE(r.value.connections.empty());
  EXPECT_EQ(with_code(r, "unresolved-link").size(), 2u);
  auto both = load({{import_kind::azure_vnets, "azure-vnets/vnets.json"},
                    {import_kind::azure_peerings, "azure-peerings/hub-peerings.json"}});
  ASSERT_TRUE(both.ok()) << printed(both);
  // Each peering is in both files: one connection each.
  EXPECT_EQ(links(both), (std::vector<link>{{"", "peering", {"rg-app/app-vnet", "rg-network/hub-vnet"}},
                                            {"", "peering", {"rg-network/hub-vnet", "rg-partner/partner-vnet"}}}));
}

TEST(ImportConnections, IstioRemoteSecretsMakeAMeshOfTheRolesTheCatalogSays) {
  auto r = load({{import_kind::gke, "gke/prod-us.json"},
                 {import_kind::istio, "istio/remote-secrets.yaml", "prod-eu"}},
                "clusters:\n  - {name: prod-eu, pods: 10.4.0.0/16, services: 10.8.0.0/20}\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  ASSERT_EQ(r.value.connections.size(), 1u);  // prod-ap is in no source: a warning
  const auto& c = r.value.connections.front();
  EXPECT_EQ(c.via, "mesh");
  EXPECT_EQ(c.routes, builtin_catalog().find_mesh("istio")->routes);
  EXPECT_TRUE(c.routes.has(range_role::pods));
  EXPECT_FALSE(c.routes.has(range_role::services));
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "names prod-ap, which no source describes"));
  // Pods meet across the mesh; the equal service ranges do not (no mesh routes ClusterIPs).
  EXPECT_TRUE(has_finding(r, "overlap", "prod-eu", "prod-us"));
  for (const auto& x : check(r.value, builtin_catalog())) {
    if (info(x.id).name != "overlap") continue;
    for (auto k : x.ranges) EXPECT_NE(r.value.ranges[k].role, range_role::services);
  }
}

TEST(ImportConnections, CiliumClusterMeshSecretConnectsEachRemoteCluster) {
  auto r = load({{import_kind::cilium, "cilium/clustermesh.yaml", "mesh-east"}},
                "clusters:\n  - {name: mesh-west, pods: 10.1.128.0/17}\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(links(r), (std::vector<link>{{"", "mesh", {"mesh-east", "mesh-west"}}}));
  EXPECT_EQ(r.value.connections.front().routes, builtin_catalog().find_mesh("cilium-clustermesh")->routes);
  EXPECT_EQ(with_code(r, "unresolved-link").size(), 1u);  // mesh-south; its TLS keys are no clusters
  EXPECT_TRUE(has_finding(r, "overlap", "mesh-east", "mesh-west"));
}

// Every fact a mesh's routes rest on is a row of docs/migration-facts.md.
TEST(ImportConnections, TheCatalogsMeshesCiteFactsThatExist) {
  std::ifstream page(CIDRCHECK_DOCS "/migration-facts.md");
  std::string text((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(text.empty());
  ASSERT_FALSE(builtin_catalog().meshes.empty());
  for (const auto& m : builtin_catalog().meshes) {
    for (const auto& fact : m.facts) EXPECT_NE(text.find("| " + fact + " |"), std::string::npos) << m.name << ": " << fact;
  }
}

// The user wrote 16 connections by hand. The same multi-cloud fleet
// from its exports alone (Terraform's peering, transit gateway and VPN; the
// gcloud peering; az's peerings; Istio's remote secrets) gives the same findings.
TEST(ImportConnections, AFleetFromExportsAloneFindsWhatTheHandWrittenOneDoes) {
  auto exported = load({{import_kind::terraform, "terraform/connections.tfstate"},
                        {import_kind::aws_eks, "aws-eks/my-eks-cluster.json"},
                        {import_kind::aws_subnets, "aws-subnets/eks-vpc.json"},
                        {import_kind::gcp_subnets, "gcp-subnets/subnets.json"},
                        {import_kind::gcp_subnets, "gcp-subnets/shared.json"},
                        {import_kind::gcp_peerings, "gcp-peerings/peerings.json"},
                        {import_kind::gke, "gke/prod-us.json"},
                        {import_kind::azure_vnets, "azure-vnets/vnets.json"},
                        {import_kind::istio, "istio/remote-secrets.yaml", "my-eks-cluster"}});
  ASSERT_TRUE(exported.ok()) << printed(exported);
  fleet_loader loader(builtin_catalog());
  loader.add_file(fixtures + "connections/multicloud-by-hand.yaml");
  auto by_hand = loader.finish();
  ASSERT_TRUE(by_hand.ok()) << printed(by_hand);
  auto found = findings(exported);
  EXPECT_EQ(found, findings(by_hand));
  // Not a vacuous match: the connections carry overlaps that are errors.
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const std::string& f) { return f.starts_with("overlap |"); }));
  EXPECT_GE(exported.value.connections.size(), 5u);
}

}  // namespace
}  // namespace cidrcheck::test
