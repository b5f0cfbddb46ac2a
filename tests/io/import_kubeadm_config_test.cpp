// The kubeadm-config kind: the ConfigMap kubeadm keeps, whose
// data.ClusterConfiguration is a YAML document inside a YAML string.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck {
namespace {

using namespace cidrcheck::test;

TEST(ImportKubeadmConfig, ReadsTheEmbeddedV1beta4ConfigurationAtOuterPositions) {
  auto r = load({{import_kind::kubeadm_config, "kubeadm-config/lab.yaml", "lab"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto file = fixtures + "kubeadm-config/lab.yaml";
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), (strings{"10.244.0.0/16", "fd00:10:244::/56"}));
  EXPECT_EQ(cidrs(r, "lab", range_role::services), (strings{"10.96.0.0/16", "fd00:10:96::/112"}));
  // Lines and columns of the outer file, though the text was parsed on its own.
  EXPECT_EQ(range_at(r, "lab", "10.244.0.0/16")->where, (source_location{file, 28, 18}));
  EXPECT_EQ(range_at(r, "lab", "fd00:10:96::/112")->where, (source_location{file, 29, 35}));
  const auto& o = owner_of(r, "lab");
  EXPECT_EQ(o.type, "kubeadm");
  ASSERT_TRUE(o.kubernetes.has_value());
  EXPECT_EQ(o.kubernetes->minor, 31);
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.description, "kubeadm cluster, from its kubeadm-config ConfigMap");
}

TEST(ImportKubeadmConfig, ReadsV1beta3AndItsClusterName) {
  auto r = load({{import_kind::kubeadm_config, "kubeadm-config/homelab-v1beta3.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "homelab", range_role::pods), (strings{"172.20.0.0/17"}));
  EXPECT_EQ(cidrs(r, "homelab", range_role::services), (strings{"172.20.128.0/17"}));
  EXPECT_TRUE(with_code(r, "inferred-name").empty());  // clusterName says it
}

TEST(ImportKubeadmConfig, ABadCIDRInsideIsReportedOnTheOuterLine) {
  auto r = load({{import_kind::kubeadm_config, "kubeadm-config/bad-subnet.yaml", "lab"}});
  ASSERT_FALSE(r.ok());
  const auto& d = r.diagnostics.front();
  EXPECT_EQ(d.level, severity::error);
  EXPECT_EQ(d.where.file, fixtures + "kubeadm-config/bad-subnet.yaml");
  EXPECT_EQ(d.where.line, 9u);
  EXPECT_GE(d.where.column, 18u);
  EXPECT_NE(d.message.find("kubeadm-config: "), std::string::npos) << d.message;
}

TEST(ImportKubeadmConfig, ASyntaxErrorInsideIsReportedOnTheOuterLine) {
  auto r = load({{import_kind::kubeadm_config, "kubeadm-config/bad-yaml.yaml", "lab"}});
  ASSERT_FALSE(r.ok());
  const auto& d = r.diagnostics.front();
  EXPECT_NE(d.message.find("in data.ClusterConfiguration: invalid YAML"), std::string::npos) << printed(r);
  EXPECT_GE(d.where.line, 7u) << printed(r);
  EXPECT_LE(d.where.line, 9u) << printed(r);
  EXPECT_GT(d.where.column, 4u) << printed(r);  // shifted by the block's indentation
}

TEST(ImportKubeadmConfig, AJsonStringPointsAtTheString) {
  // kubectl -o json writes the text as one string with \n escapes: positions inside it are not the file's.
  auto r = load_text(import_kind::kubeadm_config,
                     "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"kubeadm-config\"},\n"
                     " \"data\": {\"ClusterConfiguration\": \"apiVersion: kubeadm.k8s.io/v1beta4\\nkind: "
                     "ClusterConfiguration\\nnetworking:\\n  podSubnet: 10.244.0.0/16\\n  serviceSubnet: 10.96.0.0/33\\n\"}}\n",
                     "lab.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().where, (source_location{"lab.json", 2, 35})) << printed(r);
}

TEST(ImportKubeadmConfig, WrongDocumentsSayWhatIsExpected) {
  auto other = load_text(import_kind::kubeadm_config, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: coredns}\ndata: {Corefile: x}\n", "x.yaml");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(printed(other).find("this ConfigMap has no data.ClusterConfiguration"), std::string::npos) << printed(other);
  auto inner = load_text(import_kind::kubeadm_config,
                         "kind: ConfigMap\ndata:\n  ClusterConfiguration: |\n    kind: InitConfiguration\n", "x.yaml");
  ASSERT_FALSE(inner.ok());
  EXPECT_EQ(inner.diagnostics.front().where.line, 4u) << printed(inner);
  EXPECT_NE(printed(inner).find("holds no kubeadm ClusterConfiguration"), std::string::npos) << printed(inner);
}

}  // namespace
}  // namespace cidrcheck
