// The terraform importer: Terraform state (`terraform state pull`).
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

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

// terraformer (and Terraform 0.11, before a refresh) writes version 4 with
// attributes_flat: one error names the first such instance and counts the rest,
// rather than the file reading as empty.
TEST(ImportTerraform, FlatAttributesAreAnErrorNotAnEmptyState) {
  auto r = load({{import_kind::terraform, "terraform/terraformer.tfstate"}});
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u) << printed(r);
  EXPECT_EQ(r.diagnostics.front().code, "import-format");
  EXPECT_EQ(r.diagnostics.front().where.line, 14u);
  EXPECT_NE(r.diagnostics.front().message.find("aws_vpc.tfer--vpc-0a1b2c3d4e5f60718 and 1 more instance(s)"),
            std::string::npos);
  EXPECT_NE(r.diagnostics.front().message.find("terraform apply -refresh-only"), std::string::npos);
}

}  // namespace
}  // namespace cidrcheck::test
