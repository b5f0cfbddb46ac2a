// The azure-vnets importer: `az network vnet list` output.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <cidrcheck/fleet/check.hpp>

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

// The members of every connection, by owner name.
auto members(const fleet_load_result& r) -> std::vector<v> {
  std::vector<v> out;
  for (const auto& c : r.value.connections) {
    v names;
    for (auto m : c.members) names.push_back(r.value.owners[m].name);
    out.push_back(names);
  }
  return out;
}

TEST(ImportAzureVnets, ReadsAddressSpacesAndSubnets) {
  auto r = load({{import_kind::azure_vnets, "azure-vnets/vnets.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // Named group/name in lower case, as aks and terraform name them; the
  // partner's network is known from the peering only.
  EXPECT_EQ(names(r), (v{"rg-network/hub-vnet", "rg-app/app-vnet", "rg-legacy/legacy-vnet", "rg-partner/partner-vnet"}));
  EXPECT_EQ(cidrs(r, "rg-app/app-vnet", range_role::external), (v{"10.101.0.0/16", "fd00:db8:deca::/48"}));
  EXPECT_EQ(owner_of(r, "rg-app/app-vnet").type, "vnet");
  EXPECT_EQ(owner_of(r, "rg-network/hub-vnet").description, "Azure virtual network in westeurope, from az network vnet list");
  EXPECT_EQ(cidrs(r, "rg-partner/partner-vnet", range_role::external), (v{"10.200.0.0/16"}));
  EXPECT_TRUE(r.value.conflicts.empty());
}

// `az network vnet subnet list`: subnets as resources of their own lie in the
// network their ID names (was: each read as a network without address space).
TEST(ImportAzureVnets, SubnetsListedApartLieInTheirNetwork) {
  auto r = load({{import_kind::azure_vnets, "azure-vnets/vnets.json"}, {import_kind::azure_vnets, "azure-vnets/app-subnets.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_EQ(cidrs(r, "rg-app/app-vnet", range_role::external), (v{"10.101.0.0/16", "fd00:db8:deca::/48"}));
  // Alone, they stand for the network's space.
  auto alone = load({{import_kind::azure_vnets, "azure-vnets/app-subnets.json"}});
  ASSERT_TRUE(alone.ok()) << printed(alone);
  EXPECT_EQ(cidrs(alone, "rg-app/app-vnet", range_role::external),
            (v{"10.101.0.0/22", "10.101.8.0/27", "10.101.64.0/18", "fd00:db8:deca:40::/64"}));
}

TEST(ImportAzureVnets, ConnectedPeeringsBecomeOneConnectionPerPair) {
  auto r = load({{import_kind::azure_vnets, "azure-vnets/vnets.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // hub-to-app and app-to-hub are one connection; legacy's peerings are Disconnected.
  EXPECT_EQ(members(r), (std::vector<v>{{"rg-network/hub-vnet", "rg-app/app-vnet"},
                                        {"rg-network/hub-vnet", "rg-partner/partner-vnet"}}));
  EXPECT_EQ(r.value.connections.front().via, "peering");
  EXPECT_EQ(r.value.connections.front().description, "Azure virtual network peering hub-to-app, from az network vnet list");
  auto notes = with_code(r, "import-inactive");
  ASSERT_EQ(notes.size(), 2u) << printed(r);
  EXPECT_EQ(notes[0].message,
            "azure-vnets: peering hub-to-legacy of rg-network/hub-vnet to rg-legacy/legacy-vnet is Disconnected, not "
            "Connected: no connection");
  EXPECT_EQ(notes[0].where, (source_location{fixtures + "azure-vnets/vnets.json", 104, 25}));
}

TEST(ImportAzureVnets, OverlappingPeeredNetworksAreAnError) {
  // Azure/ipam#376: an address space changed after the peering was made.
  auto r = load({{import_kind::azure_vnets, "azure-vnets/overlap.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  ASSERT_EQ(r.value.connections.size(), 1u);
  auto findings = check(r.value, builtin_catalog());
  auto overlap = std::find_if(findings.begin(), findings.end(), [](const finding& f) { return f.id == rule::overlap; });
  ASSERT_NE(overlap, findings.end());
  EXPECT_EQ(overlap->level, severity::error);
  EXPECT_EQ(overlap->overlap->to_prefixes().front().to_string(), "10.43.2.192/26");
}

TEST(ImportAzureVnets, UnpeeredOverlapsAreNoError) {
  // legacy-vnet overlaps nothing it is peered with: its peering is Disconnected.
  auto r = load({{import_kind::azure_vnets, "azure-vnets/vnets.json"}});
  for (const auto& f : check(r.value, builtin_catalog())) EXPECT_NE(f.level, severity::error) << f.message;
}

auto messages(const fleet_load_result& r, severity level) -> v {
  v out;
  for (const auto& d : r.diagnostics) {
    if (d.level == level) out.push_back(d.message);
  }
  return out;
}

// The routes an owner carries: "CIDR -> destination".
auto routes(const fleet_load_result& r, std::string_view owner_name) -> v {
  v out;
  for (const auto& x : r.value.ranges) {
    if (!x.is_route() || r.value.owners[x.owner].name != owner_name) continue;
    const auto& route = r.value.routes[x.route];
    out.push_back(x.cidr.to_string() + " -> " + (route.to_owner ? r.value.owners[*route.to_owner].name : "?"));
  }
  return out;
}

TEST(ImportAzureVnets, SubnetPeeringsCarryTheNamedSubnetsOnly) {
  // hub-vnet and spoke-vnet both use 10.0.0.0/16 and peer one subnet each from a space of their own.
  auto r = load({{import_kind::azure_vnets, "azure-vnets/subnet-peering.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.connections.empty());
  EXPECT_EQ(routes(r, "rg-network/hub-vnet"), (v{"10.101.0.0/26 -> rg-spoke/spoke-vnet"}));
  EXPECT_EQ(routes(r, "rg-spoke/spoke-vnet"), (v{"10.100.0.0/25 -> rg-network/hub-vnet"}));
  const auto* route = range_at(r, "rg-network/hub-vnet", "10.101.0.0/26");
  ASSERT_NE(route, nullptr);
  EXPECT_EQ(route->where, (source_location{fixtures + "azure-vnets/subnet-peering.json", 68, 11}));  // "frontend"
  // A subnet the peering names that its network does not have.
  EXPECT_EQ(messages(r, severity::warning),
            (v{"azure-vnets: subnet peering hub-to-spoke of rg-network/hub-vnet to rg-spoke/spoke-vnet: remote subnet "
               "backend is not in rg-spoke/spoke-vnet: no route to it"}));
  // The shared 10.0.0.0/16 is never routed at both networks: a latent overlap, no error.
  for (const auto& f : check(r.value, builtin_catalog())) EXPECT_NE(f.level, severity::error) << f.message;
}

// Two networks with a subnet peering between a and b (a's side only), as the REST API nests it.
auto subnet_peering(std::string_view a_subnet, std::string_view b_space, std::string_view b_subnet, bool ipv6_only)
    -> std::string {
  auto vnet = [](std::string name, std::string space, std::string subnet, std::string peering) {
    return R"({"name": ")" + name + R"(", "id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/)" +
           name + R"(", "properties": {"addressSpace": {"addressPrefixes": )" + space +
           R"(}, "subnets": [{"name": "s", "properties": {"addressPrefixes": )" + subnet +
           R"(}}], "virtualNetworkPeerings": [)" + peering + "]}}";
  };
  std::string peering = R"({"name": "a-to-b", "properties": {"peeringState": "Connected", "peerCompleteVnets": false,
      "enableOnlyIPv6Peering": )" + std::string(ipv6_only ? "true" : "false") + R"(,
      "localSubnetNames": ["s", "t"], "remoteSubnetNames": ["s"],
      "remoteVirtualNetwork": {"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/b"}}})";
  return R"({"value": [)" + vnet("a", R"(["10.1.0.0/16", "fd00:a::/48"])", std::string(a_subnet), peering) + "," +
         vnet("b", std::string(b_space), std::string(b_subnet), "") + "]}";
}

TEST(ImportAzureVnets, SubnetPeeringsOfIpv6OnlyCarryTheIpv6Prefixes) {
  auto r = load_text(import_kind::azure_vnets,
                     subnet_peering(R"(["10.1.0.0/24", "fd00:a:0:1::/64"])", R"(["10.2.0.0/16", "fd00:b::/48"])",
                                    R"(["10.2.0.0/24", "fd00:b:0:1::/64"])", true));
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(routes(r, "rg/a"), (v{"fd00:b:0:1::/64 -> rg/b"}));
  // The local subnet t is not in a.
  EXPECT_EQ(messages(r, severity::warning),
            (v{"azure-vnets: subnet peering a-to-b of rg/a to rg/b: local subnet t is not in rg/a"}));
}

TEST(ImportAzureVnets, APeeredSubnetInsideTheLocalSpaceIsAnError) {
  // b reuses a's 10.1.0.0/16, and its peered subnet lies there: a cannot tell it from its own addresses.
  auto r = load_text(import_kind::azure_vnets,
                     subnet_peering(R"(["10.1.0.0/24"])", R"(["10.1.0.0/16"])", R"(["10.1.5.0/24"])", false));
  ASSERT_TRUE(r.ok()) << printed(r);
  auto findings = check(r.value, builtin_catalog());
  auto shadow = std::find_if(findings.begin(), findings.end(), [](const finding& f) { return f.id == rule::route_in_overlay; });
  ASSERT_NE(shadow, findings.end()) << printed(r);
  EXPECT_EQ(shadow->level, severity::error);
}

TEST(ImportAzureVnets, WithoutAnIdTheGroupAndNameInLowerCaseName) {
  // Azure names are case-insensitive: group/name in lower case, as the
  // Terraform importer names azurerm_virtual_network.
  auto text = load_text(import_kind::azure_vnets,
                        R"([{"name": "Hub-VNet", "resourceGroup": "RG-Network", "addressSpace": {"addressPrefixes": ["10.100.0.0/16"]}}])");
  ASSERT_TRUE(text.ok()) << printed(text);
  EXPECT_EQ(names(text), (v{"rg-network/hub-vnet"}));
}

TEST(ImportAzureVnets, AnAksClusterInTheNetworkTakesItsAddressSpace) {
  // az network vnet show: one network, the one patty-kube's pools name.
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}, {import_kind::azure_vnets, "azure-vnets/aks-vnet.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"patty-kube"}));
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::network), (v{"10.224.0.0/12"}));
  EXPECT_TRUE(r.value.conflicts.empty());
}

TEST(ImportAzureVnets, BadInputIsReportedWhereItIs) {
  auto r = load({{import_kind::azure_vnets, "azure-vnets/bad.json"}});
  ASSERT_FALSE(r.ok());
  const std::string file = fixtures + "azure-vnets/bad.json";
  auto cidr = with_code(r, "invalid-cidr");
  ASSERT_EQ(cidr.size(), 1u) << printed(r);
  EXPECT_EQ(cidr[0].where.line, 13u);
  auto unplaced = with_code(r, "import-unplaced");
  ASSERT_EQ(unplaced.size(), 2u) << printed(r);
  EXPECT_EQ(unplaced[0].message, "azure-vnets: subnet pending of rg-broken/broken-vnet has no address prefix: left out");
  EXPECT_EQ(unplaced[0].where, (source_location{file, 15, 7}));
  EXPECT_EQ(unplaced[1].message,
            "azure-vnets: peering to-nowhere of rg-broken/broken-vnet leads to rg-other/other-vnet, which this file "
            "does not list, and gives no remoteAddressSpace: no connection");
  auto missing = with_code(r, "missing-key");
  ASSERT_EQ(missing.size(), 1u) << printed(r);
  EXPECT_EQ(missing[0].message, "azure-vnets: peering no-remote of rg-broken/broken-vnet has no remoteVirtualNetwork.id");
  EXPECT_EQ(missing[0].where, (source_location{file, 27, 7}));
  EXPECT_TRUE(r.value.connections.empty());
}

TEST(ImportAzureVnets, ATruncatedFileIsAPositionedError) {
  auto r = load({{import_kind::azure_vnets, "azure-vnets/truncated.json"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().where, (source_location{fixtures + "azure-vnets/truncated.json", 31, 14}));
  EXPECT_EQ(r.diagnostics.front().message,
            "azure-vnets: invalid JSON: while scanning a quoted scalar: found unexpected end of stream (the file ends "
            "before the document does: is it truncated?)");
}

TEST(ImportAzureVnets, AnotherToolsOutputNamesTheCommandExpected) {
  auto r = load({{import_kind::azure_vnets, "aws-vpcs/vpcs.json"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().message,
            "azure-vnets: expected the output of `az network vnet list`: a virtual network with a name");
}

}  // namespace
}  // namespace cidrcheck::test
