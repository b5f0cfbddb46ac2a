// Merging sources: fleet files and exports that describe the same owners.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

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

TEST(ImportMerge, ARangeFitsInsideAnyKeptRangeWhateverItsLength) {
  // The network's ranges are a /8 and a /24: a subnet inside either fits, one
  // inside neither is a conflict (the cover searches only the lengths it holds).
  fleet_loader loader(builtin_catalog());
  loader.add_text("networks:\n  - name: vpc-1\n    type: vpc\n    cidrs: [10.0.0.0/8, 192.168.1.0/24]\n", "fleet.yaml");
  loader.add_import_text(import_kind::aws_subnets, R"({"Subnets": [
    {"SubnetId": "subnet-1", "VpcId": "vpc-1", "CidrBlock": "10.5.5.0/26"},
    {"SubnetId": "subnet-2", "VpcId": "vpc-1", "CidrBlock": "192.168.1.64/26"},
    {"SubnetId": "subnet-3", "VpcId": "vpc-1", "CidrBlock": "192.168.2.0/26"}]})",
                         "subnets.json");
  auto r = loader.finish();
  ASSERT_EQ(r.value.conflicts.size(), 1u) << printed(r);
  const auto& x = r.value.conflicts.front();
  EXPECT_TRUE(x.outside);
  ASSERT_EQ(x.other.size(), 1u);
  EXPECT_EQ(x.other.front().to_string(), "192.168.2.0/26");
}

using labels = std::vector<std::pair<std::string, std::string>>;

auto labels_of(const fleet_load_result& r, std::string_view name) -> labels {
  auto k = r.value.find_owner(name);
  if (!k) return {{"<no owner>", std::string(name)}};
  return r.value.owners[*k].labels;
}

TEST(ImportLabels, ExportsSayTheirCloudAndTheRegionOrLocationTheyName) {
  EXPECT_EQ(labels_of(load({{import_kind::azure_vnets, "azure-vnets/vnets.json"}}), "rg-network/hub-vnet"),
            (labels{{"cloud", "azure"}, {"region", "westeurope"}}));
  EXPECT_EQ(labels_of(load({{import_kind::aks, "aks/patty-kube.json"}}), "patty-kube"),
            (labels{{"cloud", "azure"}, {"region", "westus"}}));
  EXPECT_EQ(labels_of(load({{import_kind::gke, "gke/prod-us.json"}}), "prod-us"),
            (labels{{"cloud", "gcp"}, {"location", "us-central1"}}));
  EXPECT_EQ(labels_of(load({{import_kind::gcp_subnets, "gcp-subnets/subnets.json"}}), "acme-prod/us-central1/gke-prod"),
            (labels{{"cloud", "gcp"}, {"region", "us-central1"}}));
  EXPECT_EQ(labels_of(load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}}), "vpc-0e9801d1295ce6ff8"),
            (labels{{"cloud", "aws"}}));
}

// Terraform's clusters and VNets say what the same resource says to az,
// gcloud and aws: the resource's location (an EKS cluster's names none).
TEST(ImportLabels, TerraformSaysTheCloudAndLocationOfItsClustersAndVNets) {
  auto plan = load({{import_kind::terraform_plan, "terraform-plan/plan.json"}});
  EXPECT_EQ(labels_of(plan, "analytics"), (labels{{"cloud", "gcp"}, {"location", "us-central1"}}));
  EXPECT_EQ(labels_of(plan, "orders"), (labels{{"cloud", "azure"}, {"region", "westeurope"}}));
  EXPECT_EQ(labels_of(plan, "payments"), (labels{{"cloud", "aws"}}));
  auto state = load({{import_kind::terraform, "terraform/terraform.tfstate"}});
  EXPECT_EQ(labels_of(state, "cogserv-container-rg/aks-vnet"), (labels{{"cloud", "azure"}, {"region", "westus"}}));
  EXPECT_EQ(labels_of(state, "acme-prod/us-central1/gke-prod"), (labels{{"cloud", "gcp"}, {"region", "us-central1"}}));
}

TEST(ImportLabels, AFleetFilesLabelsComeFirstAndAnotherValueIsAWarning) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}},
                "networks:\n  - name: vpc-0e9801d1295ce6ff8\n    type: vpc\n    cidrs: [10.0.0.0/16]\n"
                "    labels: {site: eu, cloud: amazon}\n");
  EXPECT_EQ(labels_of(r, "vpc-0e9801d1295ce6ff8"), (labels{{"site", "eu"}, {"cloud", "amazon"}}));
  auto warnings = with_code(r, "sources-disagree");
  ASSERT_EQ(warnings.size(), 1U) << printed(r);
  EXPECT_NE(warnings[0].message.find("the label cloud"), std::string::npos) << warnings[0].message;
}

TEST(ImportMerge, OtherFieldsThatDisagreeAreWarnings) {
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}},
                "clusters:\n  - name: patty-kube\n    distribution: kubeadm\n    dns: 10.0.0.53\n    nodes: 4\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(codes(r), (v{"sources-disagree", "sources-disagree", "sources-disagree", "unresolved-link"}));
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

// The first error among the diagnostics (vpcs.json's notes of blocks not in use come before).
auto first_error(const fleet_load_result& r) -> diagnostic {
  auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                         [](const diagnostic& d) { return d.level == severity::error; });
  return it == r.diagnostics.end() ? diagnostic{} : *it;
}

TEST(ImportMerge, AClusterAndANetworkOfOneNameIsAnError) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}},
                "clusters:\n  - name: vpc-0a60eb65b4a2e9c11\n    pods: 10.1.0.0/16\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(first_error(r).code, "duplicate-name");
}

TEST(ImportMerge, ImportsCountAgainstTheLimits) {
  input_limits limits;
  limits.max_owners = 2;
  fleet_loader loader(builtin_catalog(), limits);
  loader.add_import(import_kind::aws_vpcs, fixtures + "aws-vpcs/vpcs.json");
  auto r = loader.finish();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.value.owners.size(), 2u);
  EXPECT_EQ(first_error(r).message, "more than the max-owners limit of 2 clusters and networks");
}

}  // namespace
}  // namespace cidrcheck::test
