// The aws-vpcs importer: `aws ec2 describe-vpcs` output.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

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

TEST(ImportAwsVpcs, BlocksNotInUseAreNotesAtTheirState) {
  auto r = load({{import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}});
  std::vector<std::string> notes;
  for (const auto& d : r.diagnostics) {
    if (d.code == "import-inactive") notes.push_back(format_diagnostic(d));
  }
  const auto file = fixtures + "aws-vpcs/vpcs.json";
  EXPECT_EQ(notes, (v{file + ":40:34: note: aws-vpcs: VPC vpc-0e9801d1295ce6ff8: block 100.64.0.0/16 is disassociated, "
                             "not associated: left out\n",
                      file + ":89:34: note: aws-vpcs: VPC vpc-0012b8e1cc0abb17d: IPv6 block 2600:1f18:2c41:9a00::/56 "
                             "is DISASSOCIATING, not associated: left out\n"}));
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

}  // namespace
}  // namespace cidrcheck::test
