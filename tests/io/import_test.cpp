// The importers, one group of tests per kind, on the realistic exports in
// tests/fixtures/import/ (see the README there) and on small documents for the
// awkward parts; then merging sources, and the JSON text cidrcheck prepares.

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck {
namespace {

const std::string fixtures = CIDRCHECK_FIXTURES "/import/";

using source = std::pair<import_kind, std::string>;

// Loads fixture files (paths under tests/fixtures/import/) as one fleet.
auto load(std::initializer_list<source> files, std::string_view fleet_text = {}) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  if (!fleet_text.empty()) loader.add_text(fleet_text, "fleet.yaml");
  for (const auto& [kind, path] : files) loader.add_import(kind, fixtures + path);
  return loader.finish();
}

auto load_text(import_kind kind, std::string_view text, std::string name = "x.json") -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  loader.add_import_text(kind, text, std::move(name));
  return loader.finish();
}

// The CIDRs an owner declares in a role, in order; "<no owner>" if there is none.
auto cidrs(const fleet_load_result& r, std::string_view owner_name, range_role role) -> std::vector<std::string> {
  auto k = r.value.find_owner(owner_name);
  if (!k) return {"<no owner>"};
  std::vector<std::string> out;
  for (auto i : r.value.owners[*k].ranges) {
    const auto& x = r.value.ranges[i];
    if (x.role == role && x.origin == range_origin::declared) out.push_back(x.cidr.to_string());
  }
  return out;
}

auto owner_of(const fleet_load_result& r, std::string_view name) -> const owner& {
  static const owner none;
  auto k = r.value.find_owner(name);
  return k ? r.value.owners[*k] : none;
}

auto range_at(const fleet_load_result& r, std::string_view owner_name, std::string_view cidr) -> const fleet_range* {
  for (const auto& x : r.value.ranges) {
    if (r.value.owners[x.owner].name == owner_name && x.cidr.to_string() == cidr) return &x;
  }
  return nullptr;
}

auto codes(const fleet_load_result& r) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) out.push_back(d.code);
  return out;
}

auto printed(const fleet_load_result& r) -> std::string {
  std::string out;
  for (const auto& d : r.diagnostics) out += format_diagnostic(d);
  return out;
}

auto names(const fleet_load_result& r) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& o : r.value.owners) out.push_back(o.name);
  return out;
}

using v = std::vector<std::string>;

// ---------------------------------------------------------------------------
// Source specs and kinds.

TEST(SourceSpec, SplitsKindAndPath) {
  struct row {
    std::string_view spec;
    std::optional<import_kind> kind;
    std::string_view path, unknown;
  };
  for (const auto& c : {
           row{"aws-vpcs:vpcs.json", import_kind::aws_vpcs, "vpcs.json", ""},
           row{"kubectl:-", import_kind::kubectl, "-", ""},               // standard input
           row{"fleet.yaml", std::nullopt, "fleet.yaml", ""},
           row{"./aws-vpcs:x", std::nullopt, "./aws-vpcs:x", ""},         // a path that only looks like a spec
           row{"aws-vpc:x.json", std::nullopt, "aws-vpc:x.json", "aws-vpc"},  // a mistyped kind
           row{"c:x.yaml", std::nullopt, "c:x.yaml", ""},                 // one letter is no kind word
           row{"terraform:dir/a:b.tfstate", import_kind::terraform, "dir/a:b.tfstate", ""},
       }) {
    auto s = parse_source_spec(c.spec);
    EXPECT_EQ(s.kind, c.kind) << c.spec;
    EXPECT_EQ(s.path, c.path) << c.spec;
    EXPECT_EQ(s.unknown_kind, c.unknown) << c.spec;
  }
}

TEST(ImportKinds, NamesAreUniqueAndFindable) {
  for (const auto& k : import_kinds()) {
    EXPECT_EQ(find_import_kind(k.name), k.kind);
    EXPECT_EQ(&info(k.kind), &k);
    EXPECT_FALSE(k.command.empty());
  }
  EXPECT_FALSE(find_import_kind("aws").has_value());
}

TEST(ImportKinds, EveryKindIsDocumented) {
  for (const auto& k : import_kinds()) {
    std::string path = CIDRCHECK_DOCS "/import/" + std::string(k.name) + ".md";
    EXPECT_TRUE(std::ifstream(path).good()) << path;
  }
}

TEST(LoadFleet, ReadsSourceSpecs) {
  std::vector<std::string> sources{"aws-vpcs:" + fixtures + "aws-vpcs/vpcs.json"};
  auto r = load_fleet(sources, builtin_catalog());
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(r.value.owners.size(), 3u);
}

TEST(LoadFleet, AMistypedKindIsNamed) {
  std::vector<std::string> sources{"aws-vpc:nothing-here.json"};
  auto r = load_fleet(sources, builtin_catalog());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().message,
            "cannot open: No such file or directory; and 'aws-vpc' is no source kind (did you mean 'aws-vpcs'?)");
}

// ---------------------------------------------------------------------------
// aws ec2 describe-vpcs

TEST(ImportAwsVpcs, ReadsEveryAssociatedBlockIPv4AndIPv6) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"vpc-0e9801d1295ce6ff8", "vpc-0a60eb65b4a2e9c11", "vpc-0012b8e1cc0abb17d"}));
  // 100.64.0.0/16 is disassociated; the primary block is listed once.
  EXPECT_EQ(cidrs(r, "vpc-0e9801d1295ce6ff8", range_role::external),
            (v{"10.0.0.0/16", "10.1.0.0/16", "2600:1f14:a8e:4c00::/56"}));
  // Capitals, as older CLI versions print them: DISASSOCIATING is skipped too.
  EXPECT_EQ(cidrs(r, "vpc-0012b8e1cc0abb17d", range_role::external),
            (v{"192.168.0.0/16", "2600:1f18:2c41:7e00::/56"}));
  EXPECT_EQ(owner_of(r, "vpc-0a60eb65b4a2e9c11").type, "aws-default-vpc");
  EXPECT_EQ(owner_of(r, "vpc-0e9801d1295ce6ff8").description, "AWS VPC shared-services, from aws ec2 describe-vpcs");
}

TEST(ImportAwsVpcs, RangesPointAtTheirValue) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}});
  const auto* x = range_at(r, "vpc-0e9801d1295ce6ff8", "10.1.0.0/16");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->where, (source_location{fixtures + "aws-vpcs/vpcs.json", 31, 34}));
  EXPECT_EQ(x->end_column, 47u);
}

TEST(ImportAwsVpcs, OlderOutputWithOnlyCidrBlock) {
  // The aws-cli example of describe-vpcs: no association set, one VPC on one line.
  auto r = load_text(import_kind::aws_vpcs, R"({"Vpcs": [{"VpcId": "vpc-a01106c2", "CidrBlock": "10.0.0.0/16", "IsDefault": false}]})");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "vpc-a01106c2", range_role::external), (v{"10.0.0.0/16"}));
  EXPECT_EQ(r.value.ranges.front().where, (source_location{"x.json", 1, 50}));
}

TEST(ImportAwsVpcs, ATruncatedFileIsAPositionedErrorNamingTheKind) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/truncated.json"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().where, (source_location{fixtures + "aws-vpcs/truncated.json", 20, 1}));
  EXPECT_EQ(r.diagnostics.front().message,
            "aws-vpcs: invalid JSON: while parsing a flow sequence: did not find expected ',' or ']' (the file ends "
            "before the document does: is it truncated?)");
}

TEST(ImportAwsVpcs, AnotherToolsOutputNamesTheCommandExpected) {
  auto r = load({{import_kind::aws_vpcs, "aws-eks/my-eks-cluster.json"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().message,
            "aws-vpcs: expected the output of `aws ec2 describe-vpcs`: a mapping with a Vpcs list");
  EXPECT_EQ(r.diagnostics.front().where.line, 1u);
}

TEST(ImportAwsVpcs, ABadBlockIsReportedAtItsCharacter) {
  auto r = load_text(import_kind::aws_vpcs, R"({"Vpcs": [{"VpcId": "vpc-1", "CidrBlock": "10.0.0.1/16"}]})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(printed(r), "x.json:1:44: error: aws-vpcs: CidrBlock of VPC vpc-1: invalid prefix \"10.0.0.1/16\": host "
                        "bits set (did you mean 10.0.0.0/16?)\n");
}

TEST(ImportAwsVpcs, AnEmptyListImportsNothing) {
  auto r = load_text(import_kind::aws_vpcs, R"({"Vpcs": []})");
  EXPECT_EQ(codes(r), (v{"import-empty", "empty-input"}));
}

// ---------------------------------------------------------------------------
// aws eks describe-cluster

TEST(ImportAwsEks, ServiceRangeAndNoPodRangeOfItsOwn) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto& o = owner_of(r, "my-eks-cluster");
  EXPECT_EQ(o.type, "eks");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 29}));
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::services), (v{"10.100.0.0/16"}));
  // The VPC CNI: pods take VPC addresses, and no default fills pods in.
  EXPECT_TRUE(o.declared.has(range_role::pods));
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::pods), v{});
  // Its VPC is in no source: a warning at the vpcId.
  ASSERT_EQ(codes(r), (v{"unresolved-link"}));
  EXPECT_EQ(r.diagnostics.front().where.line, 19u);
}

TEST(ImportAwsEks, ItsVpcBecomesItsNetwork) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}, {import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::network), (v{"192.168.0.0/16", "2600:1f18:2c41:7e00::/56"}));
  EXPECT_FALSE(r.value.find_owner("vpc-0012b8e1cc0abb17d").has_value());
  // The network keeps the VPC export's positions.
  EXPECT_EQ(range_at(r, "my-eks-cluster", "192.168.0.0/16")->where.file, fixtures + "aws-vpcs/vpcs.json");
  EXPECT_TRUE(r.diagnostics.empty()) << printed(r);
}

TEST(ImportAwsEks, HybridNetworksAndIPv6Services) {
  auto r = load({{import_kind::aws_eks, "aws-eks/edge-hybrid.json"}});
  EXPECT_EQ(cidrs(r, "edge-hybrid", range_role::services), (v{"fd6e:2f0a:91c4::/108"}));
  EXPECT_EQ(cidrs(r, "edge-hybrid", range_role::pods), (v{"10.85.0.0/16"}));
  EXPECT_EQ(cidrs(r, "edge-hybrid", range_role::network), (v{"10.80.0.0/16", "10.81.0.0/16"}));
}

TEST(ImportAwsEks, AConnectionToTheVpcReachesTheCluster) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}, {import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}},
                "networks: [{name: office, cidrs: [192.168.0.0/24]}]\n"
                "connections: [[office, vpc-0012b8e1cc0abb17d]]\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  ASSERT_EQ(r.value.connections.size(), 1u);
  EXPECT_EQ(r.value.owners[r.value.connections[0].members[1]].name, "my-eks-cluster");
}

// ---------------------------------------------------------------------------
// gcloud container clusters describe, gcloud compute networks subnets list

TEST(ImportGke, PodServiceAndControlPlaneRangesNodeMaskAndNodes) {
  auto r = load({{import_kind::gke, "gke/prod-us.json"}});
  const auto& o = owner_of(r, "prod-us");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 29}));
  // The default pool's range and the batch pool's more.
  EXPECT_EQ(cidrs(r, "prod-us", range_role::pods), (v{"10.4.0.0/14", "10.12.0.0/16"}));
  EXPECT_EQ(cidrs(r, "prod-us", range_role::services), (v{"10.8.0.0/20"}));
  EXPECT_EQ(cidrs(r, "prod-us", range_role::network), (v{"172.16.0.32/28"}));
  // nodeIpv4CidrSize 0 is unset; the largest pool block is a /24.
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.nodes, 5u);
  EXPECT_EQ(codes(r), (v{"unresolved-link"}));
}

TEST(ImportGke, TheSubnetGivesTheNetworkAndKeepsWhatTheClusterDoesNotUse) {
  auto r = load({{import_kind::gke, "gke/prod-us.json"}, {import_kind::gcp_subnets, "gcp-subnets/subnets.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "prod-us", range_role::network), (v{"10.10.0.0/20", "172.16.0.32/28"}));
  EXPECT_EQ(cidrs(r, "prod-us", range_role::pods), (v{"10.4.0.0/14", "10.12.0.0/16"}));
  EXPECT_EQ(cidrs(r, "acme-prod/us-central1/gke-prod", range_role::external), (v{"10.20.0.0/16"}));
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_TRUE(r.diagnostics.empty()) << printed(r);
}

TEST(ImportGke, ASecondaryRangeThatDisagreesIsAConflict) {
  fleet_loader loader(builtin_catalog());
  loader.add_import(import_kind::gke, fixtures + "gke/prod-us.json");
  loader.add_import_text(import_kind::gcp_subnets, R"([{
  "name": "gke-prod", "ipCidrRange": "10.10.0.0/20",
  "selfLink": "https://www.googleapis.com/compute/v1/projects/acme-prod/regions/us-central1/subnetworks/gke-prod",
  "secondaryIpRanges": [{"rangeName": "gke-prod-us-services-c6001cf3", "ipCidrRange": "10.9.0.0/20"}]}])",
                         "subnets.json");
  auto r = loader.finish();
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  const auto& c = r.value.conflicts.front();
  EXPECT_EQ(r.value.ranges[c.kept.front()].cidr.to_string(), "10.8.0.0/20");
  EXPECT_EQ(c.other, (std::vector<prefix>{prefix::parse("10.9.0.0/20")}));
  EXPECT_EQ(c.other_where, (source_location{"subnets.json", 4, 87}));
  EXPECT_FALSE(c.outside);
}

TEST(ImportGke, AListOfClusters) {
  auto r = load_text(import_kind::gke, R"([{"name": "a", "clusterIpv4Cidr": "10.0.0.0/14"},
                                           {"name": "b", "clusterIpv4Cidr": "10.4.0.0/14"}])");
  EXPECT_EQ(names(r), (v{"a", "b"}));
}

TEST(ImportGcpSubnets, PrimarySecondaryAndIPv6Ranges) {
  auto r = load({{import_kind::gcp_subnets, "gcp-subnets/subnets.json"},
                 {import_kind::gcp_subnets, "gcp-subnets/default.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"acme-prod/us-central1/gke-prod", "acme-prod/europe-west4/tools", "acme-prod/us-central1/default"}));
  EXPECT_EQ(cidrs(r, "acme-prod/us-central1/gke-prod", range_role::external),
            (v{"10.10.0.0/20", "10.8.0.0/20", "10.4.0.0/14", "10.12.0.0/16", "10.20.0.0/16"}));
  EXPECT_EQ(cidrs(r, "acme-prod/europe-west4/tools", range_role::external), (v{"10.30.0.0/24", "fd20:6a2:4c13::/64"}));
  // gcloud's default format is YAML.
  EXPECT_EQ(range_at(r, "acme-prod/us-central1/default", "10.128.0.0/20")->where.line, 5u);
}

// ---------------------------------------------------------------------------
// az aks show

TEST(ImportAks, KubenetClusterWithTheDefaultBridge) {
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}});
  const auto& o = owner_of(r, "patty-kube");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 28}));
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::pods), (v{"10.244.0.0/16"}));
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::services), (v{"10.0.0.0/16"}));
  // Docker's own default bridge: the docker-bridge rule knows it already.
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::network), v{});
  EXPECT_EQ(o.dns, address::parse("10.0.0.10"));
  EXPECT_EQ(o.nodes, 5u);
}

TEST(ImportAks, ArmResourceWithCapitalisedKeysAndAzureCni) {
  auto r = load({{import_kind::aks, "aks/arm-azure-cni.json"}});
  const auto& o = owner_of(r, "aksansibletest");
  EXPECT_EQ(o.dns, address::parse("10.2.0.10"));  // dnsServiceIP
  EXPECT_TRUE(o.declared.has(range_role::pods));  // Azure CNI: pods take node subnet addresses
  EXPECT_EQ(cidrs(r, "aksansibletest", range_role::pods), v{});
  EXPECT_EQ(cidrs(r, "aksansibletest", range_role::network), (v{"172.18.0.0/16"}));  // a bridge of its own
  ASSERT_EQ(codes(r), (v{"unresolved-link"}));
  EXPECT_NE(r.diagnostics.front().message.find("aksansibletest/aksansibletest"), std::string::npos);
}

TEST(ImportAks, ItsVirtualNetworkFromTerraformBecomesItsNetwork) {
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}, {import_kind::terraform, "terraform/terraform.tfstate"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::network), (v{"10.224.0.0/12"}));
  EXPECT_FALSE(r.value.find_owner("cogserv-container-rg/aks-vnet").has_value());
  EXPECT_TRUE(r.value.conflicts.empty());
}

// ---------------------------------------------------------------------------
// kops

TEST(ImportKops, AsWrittenPodsAndServicesComeFromNonMasqueradeCidr) {
  auto r = load({{import_kind::kops, "kops/minimal.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "minimal.example.com", range_role::network), (v{"172.20.0.0/16"}));
  EXPECT_EQ(cidrs(r, "minimal.example.com", range_role::pods), (v{"100.96.0.0/11"}));
  EXPECT_EQ(cidrs(r, "minimal.example.com", range_role::services), (v{"100.64.0.0/13"}));
  EXPECT_EQ(range_at(r, "minimal.example.com", "100.96.0.0/11")->where.line, 26u);  // nonMasqueradeCIDR
  // Instance groups: 2 nodes and 1 control plane at most.
  EXPECT_EQ(owner_of(r, "minimal.example.com").nodes, 3u);
}

TEST(ImportKops, TheCompletedSpecAgreesWithTheWrittenOne) {
  auto r = load({{import_kind::kops, "kops/minimal.yaml"}, {import_kind::kops, "kops/completed.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_TRUE(r.diagnostics.empty()) << printed(r);
  EXPECT_EQ(owner_of(r, "minimal.example.com").dns, address::parse("100.64.0.10"));
}

TEST(ImportKops, IPv6PodsTakeSubnetPrefixes) {
  auto r = load({{import_kind::kops, "kops/minimal-ipv6.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(owner_of(r, "minimal-ipv6.example.com").declared.has(range_role::pods));
  EXPECT_EQ(cidrs(r, "minimal-ipv6.example.com", range_role::pods), v{});
  EXPECT_EQ(cidrs(r, "minimal-ipv6.example.com", range_role::services), (v{"fd00:5e4f:ce::/108"}));
  // "/64#2" is a subnet kops has yet to allocate.
  EXPECT_EQ(cidrs(r, "minimal-ipv6.example.com", range_role::network), (v{"172.20.0.0/16", "2600:1f18:2c41:7e11::/64"}));
}

TEST(ImportKops, ComponentFlagsThatDisagreeAreAConflict) {
  auto r = load_text(import_kind::kops, R"(apiVersion: kops.k8s.io/v1alpha3
kind: Cluster
metadata: {name: c.example.com}
spec:
  networking:
    networkCIDR: 10.0.0.0/16
    podCIDR: 100.96.0.0/11
    serviceClusterIPRange: 100.64.0.0/13
  kubeControllerManager:
    clusterCIDR: 100.96.0.0/12
)",
                     "c.yaml");
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  EXPECT_EQ(r.value.conflicts[0].other_where, (source_location{"c.yaml", 10, 18}));
  EXPECT_EQ(cidrs(r, "c.example.com", range_role::network), (v{"10.0.0.0/16"}));
}

TEST(ImportKops, AFileWithoutAClusterIsAnError) {
  auto r = load_text(import_kind::kops, "apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nspec: {maxSize: 2}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().code, "import-format");
}

// ---------------------------------------------------------------------------
// kubeadm

TEST(ImportKubeadm, MultiDocumentDualStackConfiguration) {
  auto r = load({{import_kind::kubeadm, "kubeadm/lab.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto& o = owner_of(r, "lab");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 30}));
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), (v{"10.244.0.0/16", "fd00:10:244::/56"}));
  EXPECT_EQ(cidrs(r, "lab", range_role::services), (v{"10.96.0.0/16", "fd00:10:96::/112"}));
  // Each part of "a,b" has its own column.
  EXPECT_EQ(range_at(r, "lab", "fd00:10:244::/56")->where, (source_location{fixtures + "kubeadm/lab.yaml", 22, 29}));
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.node_cidr_mask_v6, 64);
  EXPECT_EQ(o.dns, address::parse("10.96.0.10"));
}

TEST(ImportKubeadm, TheDefaultClusterNameGivesWayToTheFileName) {
  auto r = load({{import_kind::kubeadm, "kubeadm/homelab.yaml"}});
  EXPECT_EQ(names(r), (v{"homelab"}));
  EXPECT_EQ(owner_of(r, "homelab").node_cidr_mask, 25);  // v1beta3 extraArgs are a mapping
  EXPECT_EQ(cidrs(r, "homelab", range_role::services), v{});  // kubeadm's default comes from the catalog
}

TEST(ImportKubeadm, ABadPartOfAListPointsAtIt) {
  auto r = load_text(import_kind::kubeadm, "kind: ClusterConfiguration\nnetworking:\n  podSubnet: 10.244.0.0/16,fd00::1/64\n",
                     "k.yaml");
  ASSERT_FALSE(r.ok());
  auto error = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                            [](const diagnostic& d) { return d.level == severity::error; });
  ASSERT_NE(error, r.diagnostics.end());
  EXPECT_EQ(error->where, (source_location{"k.yaml", 3, 28}));
}

// ---------------------------------------------------------------------------
// kubectl

TEST(ImportKubectl, NodePodCidrsAloneStandForThePodRange) {
  auto r = load({{import_kind::kubectl, "kubectl/lab.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // Three /24s: merged.
  EXPECT_EQ(cidrs(r, "lab", range_role::pods),
            (v{"10.244.0.0/23", "10.244.2.0/24", "fd00:10:244::/63", "fd00:10:244:2::/64"}));
  EXPECT_EQ(cidrs(r, "lab", range_role::services), (v{"10.96.0.0/16", "fd00:10:96::/112"}));
  const auto& o = owner_of(r, "lab");
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.node_cidr_mask_v6, 64);
  // The node count of allocations alone would always read as full capacity.
  EXPECT_FALSE(o.nodes.has_value());
}

TEST(ImportKubectl, NodesInsideTheClusterCidrAgreeWithKubeadm) {
  auto r = load({{import_kind::kubeadm, "kubeadm/lab.yaml"}, {import_kind::kubectl, "kubectl/lab.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), (v{"10.244.0.0/16", "fd00:10:244::/56"}));
  EXPECT_EQ(owner_of(r, "lab").nodes, 3u);
}

TEST(ImportKubectl, ANodeOutsideTheClusterCidrIsAConflict) {
  auto r = load({{import_kind::kubeadm, "kubeadm/lab.yaml"}, {import_kind::kubectl, "kubectl/drift/lab.yaml"}});
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  const auto& c = r.value.conflicts.front();
  EXPECT_TRUE(c.outside);
  EXPECT_EQ(c.other, (std::vector<prefix>{prefix::parse("10.32.9.0/24")}));
  EXPECT_EQ(c.other_where, (source_location{fixtures + "kubectl/drift/lab.yaml", 21, 7}));
}

TEST(ImportKubectl, CalicoPoolsAndServiceCidrs) {
  auto r = load({{import_kind::kubeadm, "kubeadm/homelab.yaml"}, {import_kind::kubectl, "kubectl/homelab.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // The disabled default pool is skipped; the IPv6 pool is the only IPv6 pod range.
  EXPECT_EQ(cidrs(r, "homelab", range_role::pods), (v{"192.168.0.0/16", "fd5e:9a1f:3c2b::/48"}));
  // The default ServiceCIDR, and one that extends it.
  EXPECT_EQ(cidrs(r, "homelab", range_role::services), (v{"10.96.0.0/12", "10.112.0.0/24"}));
  EXPECT_TRUE(r.value.conflicts.empty());
}

TEST(ImportKubectl, ASingleObject) {
  auto r = load({{import_kind::kubectl, "kubectl/one-node.yaml"}});
  EXPECT_EQ(cidrs(r, "one-node", range_role::pods), (v{"10.42.0.0/24"}));
}

TEST(ImportKubectl, ObjectsOfOtherKindsOnlyAreAnError) {
  auto r = load_text(import_kind::kubectl, "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().message,
            "kubectl: expected the output of `kubectl get nodes,servicecidrs -o yaml`: Nodes, ServiceCIDRs, Calico "
            "IPPools or a Calico Installation (none found)");
}

// ---------------------------------------------------------------------------
// Terraform state

TEST(ImportTerraform, VpcsSubnetsGcpSubnetsAndAzureNetworks) {
  auto r = load({{import_kind::terraform, "terraform/terraform.tfstate"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // aws_vpc and its aws_vpc_ipv4_cidr_block_association; the subnets lie inside.
  EXPECT_EQ(cidrs(r, "vpc-0e9801d1295ce6ff8", range_role::external),
            (v{"10.0.0.0/16", "10.1.0.0/16", "2600:1f14:a8e:4c00::/56"}));
  EXPECT_EQ(owner_of(r, "vpc-0e9801d1295ce6ff8").description,
            "AWS VPC shared-services, from Terraform state module.vpc.aws_vpc.this[0]");
  EXPECT_EQ(owner_of(r, "vpc-0a60eb65b4a2e9c11").type, "aws-default-vpc");
  // A VPC the state knows only from a subnet.
  EXPECT_EQ(cidrs(r, "vpc-07f1c2b3a4d5e6f70", range_role::external), (v{"10.50.4.0/24"}));
  // An aws_default_subnet (another region's default VPC, not in the state) is read as aws_subnet is.
  EXPECT_EQ(cidrs(r, "vpc-0b2c3d4e5f6a7b8c9", range_role::external), (v{"172.31.16.0/20"}));
  EXPECT_EQ(cidrs(r, "acme-prod/us-central1/gke-prod", range_role::external),
            (v{"10.10.0.0/20", "10.4.0.0/14", "10.8.0.0/20"}));
  // azurerm_virtual_network, and an azurerm_subnet inside it.
  EXPECT_EQ(cidrs(r, "cogserv-container-rg/aks-vnet", range_role::external), (v{"10.224.0.0/12"}));
  EXPECT_TRUE(r.value.conflicts.empty());
}

TEST(ImportTerraform, AStaleStateDisagreesWithTheCloud) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}, {import_kind::terraform, "terraform/stale.tfstate"}});
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  const auto& c = r.value.conflicts.front();
  EXPECT_EQ(c.kept.size(), 2u);  // describe-vpcs, read first: 10.0.0.0/16 and 10.1.0.0/16
  EXPECT_EQ(c.other, (std::vector<prefix>{prefix::parse("10.0.0.0/16")}));
  EXPECT_EQ(c.other_where.file, fixtures + "terraform/stale.tfstate");
}

TEST(ImportTerraform, OtherShapesAreRefusedWithAHint) {
  auto show = load({{import_kind::terraform, "terraform/show.json"}});
  ASSERT_FALSE(show.ok());
  EXPECT_EQ(show.diagnostics.front().message,
            "terraform: this is `terraform show -json` output; cidrcheck reads the state itself, from `terraform "
            "state pull`");
  auto v3 = load_text(import_kind::terraform, R"({"version": 3, "modules": []})");
  ASSERT_FALSE(v3.ok());
  EXPECT_EQ(v3.diagnostics.front().where, (source_location{"x.json", 1, 13}));
}

// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
// JSON through the YAML parser: the cases where the two differ.

TEST(ImportJson, EscapesUnicodeLargeNumbersAndTabs) {
  // "\/" and "\u002d" escapes; a surrogate pair (an emoji, as Python's json
  // writes it) that YAML has no escape for; a number too large for any integer;
  // tab-indented pretty JSON.
  auto r = load_text(import_kind::aws_vpcs,
                     "{\n\t\"Vpcs\": [\n\t\t{\n\t\t\t\"VpcId\": \"vpc\\u002d1\",\n"
                     "\t\t\t\"OwnerId\": 123456789012345678901234567890,\n"
                     "\t\t\t\"Tags\": [{\"Key\": \"Name\", \"Value\": \"edge\\/\\ud83d\\ude80\"}],\n"
                     "\t\t\t\"CidrBlock\": \"10.0.0.0/16\"\n\t\t}\n\t]\n}\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  ASSERT_EQ(names(r), (v{"vpc-1"}));
  EXPECT_EQ(owner_of(r, "vpc-1").description, "AWS VPC edge/\xEF\xBF\xBD\xEF\xBF\xBD, from aws ec2 describe-vpcs");
  EXPECT_EQ(r.value.ranges.front().where, (source_location{"x.json", 7, 17}));
}

TEST(ImportJson, LineBreaksOfYamlButNotOfJsonKeepLineNumbers) {
  // U+0085 and U+2028 inside strings: JSON text, YAML line breaks.
  auto r = load_text(import_kind::aws_vpcs,
                     "{\"Vpcs\": [{\"VpcId\": \"vpc-1\", \"Tags\": [{\"Key\": \"Name\", \"Value\": "
                     "\"a\xC2\x85" "b\xE2\x80\xA8" "c\"}],\n\"CidrBlock\": \"10.0.0.0/16\"}]}");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(r.value.ranges.front().where, (source_location{"x.json", 2, 14}));
  EXPECT_EQ(owner_of(r, "vpc-1").description, "AWS VPC a\xC2\x85" "b\xEF\xBF\xBD" "c, from aws ec2 describe-vpcs");
}

TEST(ImportJson, MinifiedJsonOnOneLineKeepsColumns) {
  auto r = load_text(import_kind::aws_eks,
                     R"({"cluster":{"name":"c","kubernetesNetworkConfig":{"serviceIpv4Cidr":"10.100.0.0/16"}}})");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(r.value.ranges.front().where, (source_location{"x.json", 1, 69}));
}

// ---------------------------------------------------------------------------
// Merging sources

TEST(ImportMerge, TheFleetFileComesFirstAndADisagreementIsAConflict) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}},
                "clusters:\n  - name: my-eks-cluster\n    distribution: eks\n    services: 172.20.0.0/16\n    nodes: 40\n");
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  const auto& c = r.value.conflicts.front();
  EXPECT_EQ(r.value.ranges[c.kept.front()].where, (source_location{"fleet.yaml", 4, 15}));
  EXPECT_EQ(c.other, (std::vector<prefix>{prefix::parse("10.100.0.0/16")}));
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::services), (v{"172.20.0.0/16"}));
  // What the fleet file leaves out, the export gives.
  EXPECT_EQ(owner_of(r, "my-eks-cluster").kubernetes, (kube_version{1, 29}));
  EXPECT_EQ(owner_of(r, "my-eks-cluster").nodes, 40u);
}

TEST(ImportMerge, SourcesThatAgreeOrComplementEachOtherMerge) {
  // The fleet file knows the VPC's IPv4 block; the export adds the IPv6 one.
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}},
                "networks:\n  - name: vpc-0012b8e1cc0abb17d\n    type: vpc\n    cidrs: [192.168.0.0/16]\n    movable: true\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_EQ(cidrs(r, "vpc-0012b8e1cc0abb17d", range_role::external), (v{"192.168.0.0/16", "2600:1f18:2c41:7e00::/56"}));
  EXPECT_TRUE(owner_of(r, "vpc-0012b8e1cc0abb17d").movable);
  EXPECT_EQ(range_at(r, "vpc-0012b8e1cc0abb17d", "192.168.0.0/16")->where.file, "fleet.yaml");
}

TEST(ImportMerge, OtherFieldsThatDisagreeAreWarnings) {
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}},
                "clusters:\n  - name: patty-kube\n    distribution: kubeadm\n    dns: 10.0.0.53\n    nodes: 4\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(codes(r), (v{"source-conflict", "source-conflict", "source-conflict", "unresolved-link"}));
  EXPECT_EQ(r.diagnostics[0].message,
            "sources disagree on the distribution of cluster patty-kube: kubeadm here, aks in " + fixtures +
                "aks/patty-kube.json:46:11; cidrcheck uses the first");
  EXPECT_EQ(r.diagnostics[0].notes.size(), 1u);
  // 5 nodes exist, more than the 4 written: pod-capacity checks the 4 and says so.
  EXPECT_EQ(owner_of(r, "patty-kube").nodes, 4u);
  EXPECT_EQ(owner_of(r, "patty-kube").dns, address::parse("10.0.0.53"));
}

TEST(ImportMerge, MoreNodesPlannedThanExistAgree) {
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}}, "clusters:\n  - name: patty-kube\n    nodes: 50\n");
  EXPECT_EQ(codes(r), (v{"unresolved-link"}));
  EXPECT_EQ(owner_of(r, "patty-kube").nodes, 50u);
}

TEST(ImportMerge, AClusterAndANetworkOfOneNameIsAnError) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}},
                "clusters:\n  - name: vpc-0a60eb65b4a2e9c11\n    pods: 10.1.0.0/16\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().code, "duplicate-name");
}

TEST(ImportMerge, ImportsCountAgainstTheLimits) {
  fleet_limits limits;
  limits.max_owners = 2;
  fleet_loader loader(builtin_catalog(), limits);
  loader.add_import(import_kind::aws_vpcs, fixtures + "aws-vpcs/vpcs.json");
  auto r = loader.finish();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.value.owners.size(), 2u);
  EXPECT_EQ(r.diagnostics.front().message, "more than the max-owners limit of 2 clusters and networks");
}

// Issue 16, item 9: what the importers read, name and drop.
auto has_diagnostic(const fleet_load_result& r, severity level, std::string_view part) -> bool {
  return std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [&](const diagnostic& d) {
    return d.level == level && d.message.find(part) != std::string::npos;
  });
}

TEST(ImportKubectl, ReadsTheCalicoOperatorsInstallation) {
  auto r = load_text(import_kind::kubectl, R"(apiVersion: operator.tigera.io/v1
kind: Installation
metadata: {name: default}
spec:
  calicoNetwork:
    ipPools:
    - {name: default-ipv4-ippool, blockSize: 26, cidr: 192.168.0.0/16, encapsulation: VXLANCrossSubnet}
    - {name: v6, cidr: "fd00:10:244::/56"}
)", "dc1.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(cidrs(r, "dc1", range_role::pods), (std::vector<std::string>{"192.168.0.0/16", "fd00:10:244::/56"}));
}

TEST(ImportKubectl, AnInstallationWithoutPoolsIsAWarning) {
  auto r = load_text(import_kind::kubectl,
                     "apiVersion: operator.tigera.io/v1\nkind: Installation\nmetadata: {name: default}\nspec: {}\n"
                     "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {podCIDR: 10.244.0.0/24}\n",
                     "dc1.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "lists no spec.calicoNetwork.ipPools"));
}

TEST(ImportKubectl, SaysWhatItSkipsAndDrops) {
  auto r = load_text(import_kind::kubectl, R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, spec: {podCIDR: 10.244.0.0/24}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: old}, spec: {cidr: 10.9.0.0/16, disabled: true}}
)", "dc1.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(has_diagnostic(r, severity::note, "skipped 2 objects of kind ConfigMap"));
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "IPPool old is disabled: left out"));
}

TEST(ImportKubectl, KeepsTheLargestCalicoBlockSizePerFamily) {
  auto r = load_text(import_kind::kubectl, R"(apiVersion: v1
kind: List
items:
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: a}, spec: {cidr: 10.9.0.0/16, blockSize: 26}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: b}, spec: {cidr: 10.10.0.0/16, blockSize: 24}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: c}, spec: {cidr: "fd00:9::/48", blockSize: 122}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: d}, spec: {cidr: 10.11.0.0/16}}
)", "dc1.yaml");
  ASSERT_TRUE(r.ok());
  const auto& o = r.value.owners[*r.value.find_owner("dc1")];
  EXPECT_EQ(o.block_size, 24);  // a larger block holds fewer per pool: the conservative count
  EXPECT_EQ(o.block_size_v6, 122);
  auto bad = load_text(import_kind::kubectl, "apiVersion: projectcalico.org/v3\nkind: IPPool\n"
                                             "metadata: {name: p}\nspec: {cidr: 10.9.0.0/16, blockSize: 19}\n",
                       "dc1.yaml");
  EXPECT_FALSE(bad.ok());  // Calico accepts 20 to 32 for IPv4
}

TEST(ImportKubectl, SaysTheClusterIsNamedAfterTheFileAndTakesAName) {
  auto inferred = load_text(import_kind::kubectl, "apiVersion: crd.projectcalico.org/v1\nkind: IPPool\n"
                                                  "metadata: {name: p}\nspec: {cidr: 10.9.0.0/16}\n",
                            "exports/dc1-ippools.yaml");
  ASSERT_TRUE(inferred.ok());
  EXPECT_TRUE(inferred.value.find_owner("dc1-ippools"));
  EXPECT_TRUE(has_diagnostic(inferred, severity::note, "named 'dc1-ippools' after the file"));

  // kubectl=NAME:FILE names it: two exports of one cluster become one cluster.
  fleet_loader loader(builtin_catalog());
  loader.add_source("kubectl=dc1:" + fixtures + "kubectl/lab.yaml");
  loader.add_source("kubeadm=dc1:" + fixtures + "kubeadm/lab.yaml");
  auto named = loader.finish();
  EXPECT_TRUE(named.value.find_owner("dc1"));
  EXPECT_FALSE(named.value.find_owner("lab"));
  EXPECT_FALSE(has_diagnostic(named, severity::note, "after the file"));
  EXPECT_EQ(named.value.owners.size(), 1u);

  fleet_loader wrong(builtin_catalog());
  wrong.add_source("aws-vpcs=x:" + fixtures + "aws-vpcs/vpcs.json");
  EXPECT_FALSE(wrong.finish().ok());
}

TEST(SourceSpec, TakesAClusterName) {
  auto s = parse_source_spec("kubectl=dc1:exports/dc1-ippools.yaml");
  ASSERT_TRUE(s.kind);
  EXPECT_EQ(*s.kind, import_kind::kubectl);
  EXPECT_EQ(s.cluster, "dc1");
  EXPECT_EQ(s.path, "exports/dc1-ippools.yaml");
  EXPECT_FALSE(parse_source_spec("kubectl=:x.yaml").kind);  // no name: a path
  EXPECT_EQ(parse_source_spec("kubectl:x.yaml").cluster, "");
}

TEST(ImportAwsVpcs, AVpcTaggedForAClusterIsThatClustersNetwork) {
  const char* vpcs = R"({"Vpcs": [
  {"VpcId": "vpc-1", "CidrBlock": "172.20.0.0/16",
   "Tags": [{"Key": "Name", "Value": "minimal.example.com"},
            {"Key": "kubernetes.io/cluster/minimal.example.com", "Value": "owned"}]},
  {"VpcId": "vpc-2", "CidrBlock": "10.50.0.0/16",
   "Tags": [{"Key": "kubernetes.io/cluster/gone.example.com", "Value": "shared"}]}
]})";
  fleet_loader loader(builtin_catalog());
  loader.add_import_text(import_kind::aws_vpcs, vpcs, "vpcs.json");
  loader.add_import(import_kind::kops, fixtures + "kops/minimal.yaml");
  auto r = loader.finish();
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.value.find_owner("vpc-1")) << "linked to its cluster, not an extra network";
  EXPECT_EQ(cidrs(r, "minimal.example.com", range_role::network), (std::vector<std::string>{"172.20.0.0/16"}));
  // A cluster no source describes: the VPC stays a network, and a note says why.
  EXPECT_TRUE(r.value.find_owner("vpc-2"));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "tagged for cluster gone.example.com, which no source describes"));

  // The cluster may come from a fleet file too.
  fleet_loader with_file(builtin_catalog());
  with_file.add_text("clusters:\n  - {name: gone.example.com, distribution: kops}\n", "fleet.yaml");
  with_file.add_import_text(import_kind::aws_vpcs, vpcs, "vpcs.json");
  auto f = with_file.finish();
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f.value.find_owner("vpc-2"));
  EXPECT_EQ(cidrs(f, "gone.example.com", range_role::network), (std::vector<std::string>{"10.50.0.0/16"}));
}

TEST(ImportKops, SaysWhatItSkips) {
  auto r = load_text(import_kind::kops, R"(apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata: {name: a.example.com}
spec: {networkCIDR: 172.20.0.0/16, nonMasqueradeCIDR: 100.64.0.0/10}
---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata: {name: nodes, labels: {kops.k8s.io/cluster: other.example.com}}
spec: {maxSize: 7}
---
apiVersion: kops.k8s.io/v1alpha2
kind: Keyset
metadata: {name: ca}
)", "all.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "InstanceGroups of cluster other.example.com (7 nodes)"));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "skipped 1 document of kind Keyset"));
}

}  // namespace
}  // namespace cidrcheck
