// The pod-range runbooks (lib/cidrcheck/fleet/migration_pods.cpp) on the
// fixture fleets of tests/fixtures/fleets/runbook/pods-*.yaml: each test
// names the correction of docs/migration-facts.md (section 6) it guards.

#include "runbook_fixture.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

using testing::expect_ordered;
using testing::plan_fixture;
using testing::plan_text;

auto has_fact(const migration_step& s, std::string_view id) -> bool {
  for (const auto& f : s.facts) {
    if (f.id == id) return true;
  }
  return false;
}

TEST(MigrationPods, EveryBranchFollowsTheOrderingRule) {
  for (const char* name : {"pods-calico-kops", "pods-calico-kubeadm", "pods-cilium-clusterpool", "pods-cilium-multipool",
                           "pods-kcm-kubeadm", "pods-kcm-k3s", "pods-eks-custom-networking", "pods-gke-additional",
                           "pods-add-cilium", "pods-add-calico", "pods-openshift"}) {
    SCOPED_TRACE(name);
    expect_ordered(plan_fixture(name));
  }
}

// M11: new pool, old pool disabled, pods restarted, new addresses verified, old pool deleted; the operator's way
// to disable a pool is nodeSelector "!all()".
TEST(MigrationPods, CalicoSwapFollowsUpstreamOrder) {
  auto p = plan_fixture("pods-calico-kubeadm");
  ASSERT_EQ(p.result.operations.at(0).kind, "calico-ippool-swap");
  int add = p.step_with("add an IPPool"), off = p.step_with("disable the pool"), restart = p.step_with("restart the workloads"),
      verify = p.step_with("verify that new pods"), del = p.step_with("delete the old pool");
  ASSERT_GE(add, 0);
  EXPECT_LT(add, off);
  EXPECT_LT(off, restart);
  EXPECT_LT(restart, verify);
  EXPECT_LT(verify, del);
  EXPECT_NE(p.text().find("nodeSelector: \"!all()\""), std::string::npos);
  EXPECT_NE(p.file("ippool-old-disabled.yaml").find("disabled: true"), std::string::npos);
  EXPECT_NE(p.file("ippool-new.yaml").find("cidr: " + p.result.changes.at(0).to.to_string()), std::string::npos);
  // 120 nodes in a /16: 1024 blocks of /26 are enough, so the default block size stays.
  EXPECT_NE(p.file("ippool-new.yaml").find("blockSize: 26"), std::string::npos);
}

// calico-blocks: a pool with fewer blocks than nodes gets smaller blocks.
TEST(MigrationPods, CalicoBlockSizeGivesEveryNodeABlock) {
  auto p = plan_text(R"(
networks: [{name: office, type: office, cidrs: [10.80.0.0/20]}]
clusters:
  - {name: apps, distribution: kubeadm, kubernetes: "1.31", cni: calico, nodes: 200, network: 10.70.0.0/16,
     pods: 10.80.0.0/20, services: 10.81.0.0/16}
connections: [[apps, office]]
)");
  ASSERT_EQ(p.result.operations.at(0).kind, "calico-ippool-swap");
  const auto& to = p.result.changes.at(0).to;
  auto yaml = p.file("ippool-new.yaml");
  auto at = yaml.find("blockSize: ");
  ASSERT_NE(at, std::string::npos);
  int block = std::stoi(yaml.substr(at + 11));
  EXPECT_GE(std::uint64_t{1} << (block - to.length()), 200u) << yaml;
  EXPECT_LE(block, 32);
}

// M12 and issue 14's kops claim: never "add to --cluster-cidr"; kops gets allocateNodeCIDRs: false.
TEST(MigrationPods, KopsCalicoTurnsOffNodeCidrAllocation) {
  auto p = plan_fixture("pods-calico-kops");
  auto text = p.text();
  EXPECT_EQ(text.find("add 10."), std::string::npos);
  EXPECT_EQ(text.find("to kube-controller-manager's --cluster-cidr"), std::string::npos);
  int kops = p.step_with("allocateNodeCIDRs: false");
  ASSERT_GE(kops, 0);
  EXPECT_TRUE(has_fact(p.steps()[kops], "kops-calico-seed"));
  EXPECT_LT(p.step_with("disable the pool"), kops);
  EXPECT_NE(p.file("kops-cluster-spec.yaml").find("allocateNodeCIDRs: false"), std::string::npos);
}

// Issue 14's first kops claim: nonMasqueradeCIDR never overlaps networkCIDR (10/8 with a VPC in 10/8).
TEST(MigrationPods, KopsNonMasqueradeAvoidsNetworkCidr) {
  auto p = plan_text(R"(
networks: [{name: partner, type: peer, cidrs: [100.96.0.0/12]}]
clusters:
  - {name: edge, distribution: kops, kubernetes: "1.30", cni: calico, nodes: 10, network: 10.0.0.0/16,
     services: 10.8.0.0/16}
connections: [[edge, partner]]
)");
  auto spec = p.file("kops-cluster-spec.yaml");
  ASSERT_FALSE(spec.empty());
  auto at = spec.find("nonMasqueradeCIDR: ");
  ASSERT_NE(at, std::string::npos) << spec;
  auto block = prefix::parse(spec.substr(at + 19, spec.find('\n', at) - at - 19));
  EXPECT_FALSE(block.overlaps(prefix::parse("10.0.0.0/16"))) << spec;
  EXPECT_TRUE(block.supernet_of(p.result.changes.at(0).to)) << spec;
}

// M13 and issue 14's kube-controller-manager claim: the flag moves only after every old Node object is gone, and
// nodes register again only after the flag moved; one CIDR per family.
TEST(MigrationPods, KcmFlagMovesOnlyAfterNodesLeave) {
  auto p = plan_fixture("pods-kcm-kubeadm");
  ASSERT_EQ(p.result.operations.at(0).kind, "kcm-node-ipam");
  int gone = p.step_with("delete its Node object"), flag = p.step_with("change --cluster-cidr"),
      back = p.step_with("registers again");
  ASSERT_GE(gone, 0);
  EXPECT_LT(gone, flag);
  EXPECT_LT(flag, back);
  EXPECT_EQ(p.text().find("must know"), std::string::npos);
  auto flags = p.file("kube-controller-manager.flags");
  // One CIDR per IP family: the flag line holds the new range alone.
  EXPECT_NE(flags.find("\n--cluster-cidr=" + p.result.changes.at(0).to.to_string() + "\n"), std::string::npos) << flags;
  // kubeadm: kubeadm-config too, or the next upgrade puts the old subnet back (issue 14's kubeadm claim).
  EXPECT_NE(p.file("kubeadm-clusterconfiguration.yaml").find("podSubnet: "), std::string::npos);
  EXPECT_NE(p.file("kubeadm-clusterconfiguration.yaml").find("kubeadm.k8s.io/v1beta3"), std::string::npos);
  EXPECT_GE(p.step_with("kube-proxy ConfigMap"), 0);
}

// M16: k3s changes --cluster-cidr on all servers at once and says no upstream procedure was found.
TEST(MigrationPods, K3sChangesAllServersAtOnce) {
  auto p = plan_fixture("pods-kcm-k3s");
  int prep = p.step_with("every server");
  ASSERT_GE(prep, 0);
  EXPECT_TRUE(has_fact(p.steps()[prep], "k3s-critical"));
  EXPECT_NE(p.steps()[prep].text.find("Unverified"), std::string::npos);
}

// M14: cluster-pool never edits an existing entry; the move goes through the documented multi-pool migration.
TEST(MigrationPods, CiliumClusterPoolGoesThroughMultiPool) {
  auto p = plan_fixture("pods-cilium-clusterpool");
  int migrate = p.step_with("migrate Cilium from cluster-pool to multi-pool");
  ASSERT_EQ(migrate, 0);
  EXPECT_TRUE(has_fact(p.steps()[0], "cilium-to-multipool"));
  EXPECT_NE(p.file("ciliumpodippool-default-migration.yaml").find(p.result.changes.at(0).from.to_string()),
            std::string::npos);
  EXPECT_NE(p.file("ciliumpodippool-default.yaml").find(p.result.changes.at(0).to.to_string()), std::string::npos);
  EXPECT_LT(p.step_with("set the `default` CiliumPodIPPool"), p.step_with("delete their CiliumNode"));
}

TEST(MigrationPods, CiliumMultiPoolKeepsTheMaskSize) {
  auto p = plan_fixture("pods-cilium-multipool");
  EXPECT_EQ(p.step_with("migrate Cilium"), -1);
  EXPECT_NE(p.file("ciliumpodippool-default.yaml").find("maskSize: 25"), std::string::npos);
}

// M14: Cilium in kubernetes IPAM follows kube-controller-manager.
TEST(MigrationPods, CiliumKubernetesIpamFollowsKcm) {
  auto p = plan_text(R"(
networks: [{name: vpn, type: vpn, cidrs: [10.90.0.0/16]}]
clusters:
  - {name: web, distribution: kubeadm, kubernetes: "1.32", cni: cilium, ipam: kubernetes, nodes: 8,
     network: 10.70.0.0/16, pods: 10.90.0.0/16, services: 10.91.0.0/16}
connections: [[web, vpn]]
)");
  EXPECT_TRUE(has_fact(p.steps().at(0), "cilium-kubernetes-ipam"));
  EXPECT_GE(p.step_with("change --cluster-cidr"), 0);
  EXPECT_EQ(p.step_with("CiliumPodIPPool"), -1);
}

// cilium-eni is unverified: the step says so and never edits Cilium's pools; the IPAM mode never changes.
TEST(MigrationPods, CiliumEniSaysUnverified) {
  auto p = plan_text(R"(
networks: [{name: vpn, type: vpn, cidrs: [10.90.0.0/16]}]
clusters:
  - {name: web, distribution: kubeadm, kubernetes: "1.32", cni: cilium, ipam: eni, nodes: 8,
     network: 10.70.0.0/16, pods: 10.90.0.0/16, services: 10.91.0.0/16}
connections: [[web, vpn]]
)");
  ASSERT_FALSE(p.result.operations.empty());
  EXPECT_EQ(p.steps().at(0).text.rfind("unverified", 0), 0u) << p.text();
  EXPECT_TRUE(has_fact(p.steps().at(0), "cilium-no-mode-change"));
  EXPECT_EQ(p.step_with("CiliumPodIPPool"), -1);
}

// M15 and issue 14's EKS claim: a secondary CIDR, subnets, ENIConfigs and the CNI settings, never a new VPC.
TEST(MigrationPods, EksUsesCustomNetworkingNotANewVpc) {
  auto p = plan_fixture("pods-eks-custom-networking");
  ASSERT_EQ(p.result.operations.at(0).kind, "vpc-cni-custom-networking");
  auto text = p.text();
  EXPECT_EQ(text.find("new VPC"), std::string::npos);
  EXPECT_EQ(text.find("peer"), std::string::npos);
  int assoc = p.step_with("secondary IPv4 CIDR block"), eni = p.step_with("create one ENIConfig"),
      env = p.step_with("AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG=true"), nodes = p.step_with("create new node groups"),
      drain = p.step_with("cordon, drain and terminate");
  ASSERT_GE(assoc, 0);
  EXPECT_LT(assoc, eni);
  EXPECT_LT(eni, env);
  EXPECT_LT(env, nodes);
  EXPECT_LT(nodes, drain);
  EXPECT_NE(text.find("ENI_CONFIG_LABEL_DEF"), std::string::npos);
  EXPECT_NE(text.find("--cni-custom-networking-enabled"), std::string::npos);
  EXPECT_NE(p.steps().back().text.find("association"), std::string::npos);
  EXPECT_NE(p.file("eniconfig-az1.yaml").find("apiVersion: crd.k8s.amazonaws.com/v1alpha1"), std::string::npos);
  EXPECT_NE(p.file("terraform-secondary-cidr.tf").find("aws_vpc_ipv4_cidr_block_association"), std::string::npos);
  // Every ENIConfig is applied by the step that creates them.
  for (const auto& f : p.files) {
    if (f.path.find("eniconfig-") != std::string::npos) {
      EXPECT_NE(f.text.find("step " + std::to_string(eni + 1) + " of runbook.md"), std::string::npos) << f.path;
    }
  }
}

// M16: OpenShift cannot move its pods to a disjoint range in place: the catalog
// gives it no in-place pod move, so the plan is a replacement that says why.
TEST(MigrationPods, GrowOnlyDistributionsSayReplacement) {
  auto p = plan_fixture("pods-openshift");
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations.front().kind, "replacement-cluster");
  EXPECT_NE(p.text().find("can only be expanded"), std::string::npos);
  EXPECT_TRUE(has_fact(p.steps().at(0), "ocp-clusternet-expand"));
}

// M16 and grow-gke: GKE adds a pod range by name to the subnet, then to the cluster; the old range stays.
TEST(MigrationPods, GkeAddsARangeWithoutMoving) {
  auto p = plan_fixture("pods-gke-additional");
  ASSERT_EQ(p.result.operations.at(0).kind, "gke-additional-pod-range");
  auto sh = p.file("gcloud.sh");
  auto sub = sh.find("--add-secondary-ranges="), cluster = sh.find("--additional-pod-ipv4-ranges=");
  ASSERT_NE(sub, std::string::npos);
  EXPECT_LT(sub, cluster);
}

// grow-cilium: the pool list keeps its existing entries first and unchanged.
TEST(MigrationPods, CiliumAppendKeepsExistingEntries) {
  auto p = plan_fixture("pods-add-cilium");
  auto values = p.file("cilium-values-pool.yaml");
  auto old_at = values.find("- 10.80.0.0/16"), new_at = values.find("- " + p.result.changes.at(0).to.to_string());
  ASSERT_NE(old_at, std::string::npos) << values;
  EXPECT_LT(old_at, new_at);
}

// flannel-pod-move: flanneld refuses a podCIDR outside net-conf.json's Network and reads the file only at start,
// so Network holds the new range after the old nodes left and before any node registers again.
TEST(MigrationPods, FlannelNetworkMovesBeforeNodesRegisterAgain) {
  auto p = plan_fixture("pods-kcm-kubeadm");
  const auto& steps = p.steps();
  int drained = p.step_with("delete its Node object"), flannel = p.step_with("kube-flannel-cfg"),
      back = p.step_with("start the kubelets again");
  ASSERT_GE(flannel, 0);
  EXPECT_LT(drained, flannel);
  EXPECT_LT(flannel, back);
  EXPECT_TRUE(has_fact(steps[flannel], "flannel-node-podcidr"));
  EXPECT_NE(steps[flannel].text.find("set Network in net-conf.json to " + p.result.changes.at(0).to.to_string()),
            std::string::npos);
  EXPECT_EQ(steps[back].needs, (std::vector<std::string>{"kcm-allocates-new-range", "flannel-network-new"}));
  EXPECT_EQ(p.text().find("unverified"), std::string::npos);
}

// aks-pod-expand-cmd: the expansion names the az command and its parameter, and verifies in the NodeNetworkConfigs.
TEST(MigrationPods, AksExpandGivesTheCommandAndTheCheck) {
  fleet_loader loader(builtin_catalog());
  loader.add_text(R"(
clusters:
  - {name: aks1, distribution: aks, kubernetes: "1.33", cni: azure, ipam: overlay, network: 10.70.0.0/16,
     pods: 10.244.0.0/18}
)", "t.yaml");
  auto loaded = loader.finish();
  ASSERT_TRUE(loaded.ok());
  // A plan that grows the pod range to a superset (the planner's own choice is
  // not needed to test the runbook of such a change).
  plan_result grow;
  plan_change c;
  for (std::uint32_t k = 0; k < loaded.value.ranges.size(); ++k) {
    if (loaded.value.ranges[k].role == range_role::pods) c.range = k;
  }
  ASSERT_TRUE(c.range.has_value());
  c.role = range_role::pods;
  c.from = prefix::parse("10.244.0.0/18");
  c.to = prefix::parse("10.244.0.0/16");
  grow.changes.push_back(c);
  auto files = runbook_files(loaded.value, grow);
  ASSERT_FALSE(files.empty());
  const auto& md = files.front().text;
  EXPECT_NE(md.find("`az aks update --name aks1 --resource-group <resource group> --pod-cidr 10.244.0.0/16`"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("`kubectl get nnc -A"), std::string::npos);
  EXPECT_NE(md.find("id=\"aks-pod-expand-cmd\""), std::string::npos);
}

}  // namespace
}  // namespace cidrcheck
