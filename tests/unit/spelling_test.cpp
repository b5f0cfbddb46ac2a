#include <cidrcheck/detail/spelling.hpp>

#include <gtest/gtest.h>

#include <array>
#include <string_view>

namespace cidrcheck::detail {
namespace {

constexpr std::array<std::string_view, 10> kinds{"aws-vpcs", "aws-eks",   "gke",       "gcp-subnets", "aks",
                                                 "kops",     "kubeadm",   "kubectl",   "terraform",   "tailscale"};

TEST(Spelling, EditDistanceCountsTranspositionsAsOneEdit) {
  EXPECT_EQ(edit_distance("nmae", "name"), 1u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("eks", "aks"), 1u);
}

TEST(Spelling, AWholePartOfANameIsCloserThanOneEdit) {
  // "eks" is one edit from "aks", but it names aws-eks (issue 16, item 9).
  EXPECT_EQ(closest_match("eks", kinds), "aws-eks");
  EXPECT_EQ(closest_match("vpcs", kinds), "aws-vpcs");
  EXPECT_EQ(closest_match("subnets", kinds), "gcp-subnets");
  EXPECT_EQ(did_you_mean("eks", kinds), " (did you mean 'aws-eks'?)");
}

TEST(Spelling, AKeyWrittenWithAQualifierFindsTheKey) {
  // A cluster's "kubernetes_version" is its key "kubernetes" with a word added.
  constexpr std::array<std::string_view, 4> keys{"name", "kubernetes", "services", "distribution"};
  EXPECT_EQ(did_you_mean("kubernetes_version", keys), " (did you mean 'kubernetes'?)");
  EXPECT_EQ(closest_match("service-cidr", kinds), "");
}

TEST(Spelling, ExactNamesAndSmallTyposStillWin) {
  EXPECT_EQ(closest_match("aks", kinds), "aks");
  EXPECT_EQ(closest_match("aws-vpc", kinds), "aws-vpcs");
  EXPECT_EQ(closest_match("kubctl", kinds), "kubectl");
  EXPECT_EQ(closest_match("nothing-like-it", kinds), "");
  EXPECT_TRUE(is_part_of("mask", "node_cidr_mask"));
  EXPECT_FALSE(is_part_of("mas", "node_cidr_mask"));
  EXPECT_FALSE(is_part_of("aws-eks", "aws-eks"));
}

}  // namespace
}  // namespace cidrcheck::detail
