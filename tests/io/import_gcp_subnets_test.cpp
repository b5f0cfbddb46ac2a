// The gcp-subnets importer: `gcloud compute networks subnets list` output.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

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

}  // namespace
}  // namespace cidrcheck::test
