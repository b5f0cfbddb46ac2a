// The aws-subnets importer: `aws ec2 describe-subnets` output.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <cidrcheck/fleet/check.hpp>

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

TEST(ImportAwsSubnets, GroupsSubnetsIntoTheirVpcs) {
  auto r = load({{import_kind::aws_subnets, "aws-subnets/subnets.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(names(r), (v{"vpc-0e9801d1295ce6ff8", "vpc-0a60eb65b4a2e9c11", "vpc-07d5c4b3a2918f6e0"}));
  // Subnets alone stand in for their VPC, merged: the two /20s make one /19;
  // the IPv6-only subnet keeps its own /64.
  EXPECT_EQ(cidrs(r, "vpc-0e9801d1295ce6ff8", range_role::external),
            (v{"10.0.0.0/19", "10.1.0.0/24", "2600:1f14:a8e:4c00::/64", "2600:1f14:a8e:4c02::/64"}));
  EXPECT_EQ(cidrs(r, "vpc-0a60eb65b4a2e9c11", range_role::external), (v{"172.31.0.0/19"}));
  EXPECT_EQ(owner_of(r, "vpc-0e9801d1295ce6ff8").type, "vpc");
  // DefaultForAz subnets exist only in the default VPC.
  EXPECT_EQ(owner_of(r, "vpc-0a60eb65b4a2e9c11").type, "aws-default-vpc");
  EXPECT_EQ(owner_of(r, "vpc-0e9801d1295ce6ff8").description,
            "AWS VPC of account 111122223333, 4 subnets (shared-private-us-west-2a, shared-private-us-west-2b, "
            "shared-public-us-west-2a and 1 more), from aws ec2 describe-subnets");
  EXPECT_EQ(owner_of(r, "vpc-07d5c4b3a2918f6e0").description,
            "AWS VPC of account 444455556666, 1 subnet (partner-shared), from aws ec2 describe-subnets");
}

TEST(ImportAwsSubnets, ADisassociatedIPv6BlockIsANoteNamingIt) {
  auto r = load({{import_kind::aws_subnets, "aws-subnets/subnets.json"}});
  auto notes = with_code(r, "import-inactive");
  ASSERT_EQ(notes.size(), 1u) << printed(r);
  EXPECT_EQ(notes[0].level, severity::note);
  EXPECT_EQ(notes[0].message,
            "aws-subnets: subnet subnet-0c3d9e8f1a2b4c5d6 (shared-private-us-west-2b): IPv6 block "
            "2600:1f14:a8e:4c01::/64 is disassociated, not associated: left out");
  EXPECT_EQ(notes[0].where, (source_location{fixtures + "aws-subnets/subnets.json", 61, 34}));
  EXPECT_EQ(range_at(r, "vpc-0e9801d1295ce6ff8", "2600:1f14:a8e:4c01::/64"), nullptr);
}

TEST(ImportAwsSubnets, WithDescribeVpcsTheSubnetsLieInsideTheirVpc) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}, {import_kind::aws_subnets, "aws-subnets/subnets.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.conflicts.empty());
  // The VPC's own blocks win; the subnets only had to fit.
  EXPECT_EQ(cidrs(r, "vpc-0e9801d1295ce6ff8", range_role::external),
            (v{"10.0.0.0/16", "10.1.0.0/16", "2600:1f14:a8e:4c00::/56"}));
  EXPECT_TRUE(with_code(r, "sources-disagree").empty()) << printed(r);
  EXPECT_EQ(owner_of(r, "vpc-0a60eb65b4a2e9c11").type, "aws-default-vpc");
  for (const auto& f : check(r.value, builtin_catalog())) EXPECT_NE(f.id, rule::source_conflict) << f.message;
}

TEST(ImportAwsSubnets, ASubnetOutsideItsVpcIsASourceConflict) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}, {import_kind::aws_subnets, "aws-subnets/stray.json"}});
  ASSERT_EQ(r.value.conflicts.size(), 1u) << printed(r);
  const auto& x = r.value.conflicts.front();
  EXPECT_TRUE(x.outside);
  ASSERT_EQ(x.other.size(), 1u);
  EXPECT_EQ(x.other.front().to_string(), "10.2.0.0/24");
  EXPECT_EQ(x.other_where, (source_location{fixtures + "aws-subnets/stray.json", 15, 26}));
}

TEST(ImportAwsSubnets, RangesPointAtTheirValue) {
  auto r = load({{import_kind::aws_subnets, "aws-subnets/subnets.json"}});
  const auto* x = range_at(r, "vpc-0e9801d1295ce6ff8", "10.1.0.0/24");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->where, (source_location{fixtures + "aws-subnets/subnets.json", 79, 26}));
}

TEST(ImportAwsSubnets, BadInputIsReportedWhereItIs) {
  auto r = load({{import_kind::aws_subnets, "aws-subnets/bad.json"}});
  ASSERT_FALSE(r.ok());
  const std::string file = fixtures + "aws-subnets/bad.json";
  auto cidr = with_code(r, "invalid-cidr");
  ASSERT_EQ(cidr.size(), 1u) << printed(r);
  EXPECT_EQ(cidr[0].where.line, 5u);
  EXPECT_NE(cidr[0].message.find("CidrBlock of subnet subnet-04a1c6f2e7b9d3a10"), std::string::npos) << cidr[0].message;
  auto missing = with_code(r, "missing-key");
  ASSERT_EQ(missing.size(), 1u) << printed(r);
  EXPECT_EQ(missing[0].message, "aws-subnets: a subnet without a VpcId");
  EXPECT_EQ(missing[0].where, (source_location{file, 10, 9}));
  // A failed association and nothing else: a note for the block, a warning for the subnet.
  EXPECT_EQ(with_code(r, "import-inactive").size(), 1u);
  auto unplaced = with_code(r, "import-unplaced");
  ASSERT_EQ(unplaced.size(), 1u) << printed(r);
  EXPECT_EQ(unplaced[0].level, severity::warning);
  EXPECT_EQ(unplaced[0].message,
            "aws-subnets: subnet subnet-0f1e2d3c4b5a69788 of VPC vpc-0e9801d1295ce6ff8 has no CIDR block in use: left out");
  EXPECT_EQ(unplaced[0].where, (source_location{file, 16, 9}));
}

TEST(ImportAwsSubnets, ATruncatedFileIsAPositionedError) {
  auto r = load({{import_kind::aws_subnets, "aws-subnets/truncated.json"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().where, (source_location{fixtures + "aws-subnets/truncated.json", 25, 1}));
  EXPECT_EQ(r.diagnostics.front().message,
            "aws-subnets: invalid JSON: while parsing a flow node: did not find expected node content (the file ends "
            "before the document does: is it truncated?)");
}

TEST(ImportAwsSubnets, AnotherToolsOutputNamesTheCommandExpected) {
  auto r = load({{import_kind::aws_subnets, "aws-vpcs/vpcs.json"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().message,
            "aws-subnets: expected the output of `aws ec2 describe-subnets`: a mapping with a Subnets list");
}

TEST(ImportAwsSubnets, AnEksClusterInTheVpcTakesItsSubnets) {
  auto r = load({{import_kind::aws_subnets, "aws-subnets/eks-vpc.json"}, {import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // The VPC's ranges become the cluster's network, as with aws-vpcs: no network of its own.
  EXPECT_EQ(names(r), (v{"my-eks-cluster"}));
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::network), (v{"192.168.0.0/18"}));
}

}  // namespace
}  // namespace cidrcheck::test
