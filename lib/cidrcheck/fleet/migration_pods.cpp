// Runbooks that move, create or add to a cluster's pod space.

#include "migration.hpp"

#include <string>

namespace cidrcheck::detail {

void pods_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  if (o.cni == "calico") {
    out.step("create a Calico IPPool for " + to + " and set disabled: true on the pool for " + from,
             {"calico-migrate-order"});
    out.step("add " + to + " to kube-controller-manager's --cluster-cidr if it allocates node CIDRs, so "
             "that nodes' podCIDRs and the pools agree",
             {"kcm-refuses"});
    out.step("restart workloads node by node (drain and uncordon) so that every pod gets an address from " + to,
             {"calico-migrate-order"});
    out.step("delete the pool for " + from + " once no pod uses it", {"calico-migrate-order"});
    return;
  }
  if (o.type == "eks") {
    out.step("with the VPC CNI, pods take VPC addresses: add " + to + " as a secondary VPC CIDR, create "
             "subnets and ENIConfig objects in it (custom networking), then replace the node groups");
    return;
  }
  if (o.type == "kops") {
    out.step("set spec.podCIDR to " + to + " and spec.nonMasqueradeCIDR to " + non_masquerade(planned, o, c.to.version()),
             {"kops-nonmasq-pod"});
  }
  out.step("create new nodes (a new node group) while the old ones run: kube-controller-manager must "
           "know " + to + " before they register",
           {"node-podcidr-immutable"});
  out.step("change --cluster-cidr on kube-controller-manager to " + to + " and, in the same change, "
           "delete the Node objects of every node whose podCIDR is in " + from + " after draining it: "
           "kube-controller-manager refuses to start while any node's podCIDR lies outside --cluster-cidr",
           {"kcm-refuses", "node-podcidr-immutable"});
  out.step("drain and remove the old nodes one at a time; pods move to nodes with podCIDRs in " + to,
           {"node-podcidr-immutable"});
}

void pods_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string to = c.to.to_string();
  const bool v6 = c.to.version() == ip_version::v6;
  if (o.type == "eks") {
    out.step("with the VPC CNI, pods take VPC addresses: add " + to + " as a secondary VPC CIDR with "
             "subnets and ENIConfig objects (custom networking) before creating the node groups",
             {"eks-custom-cfg"});
  } else if (o.type == "gke" || o.type == "aks") {
    out.step("create " + o.name + " with its pod range set to " + to +
             (o.type == "gke" ? " (--cluster-ipv4-cidr)" : " (--pod-cidr)"));
  } else if (o.type == "kops") {
    out.step("set spec.podCIDR to " + to + " and spec.nonMasqueradeCIDR to " +
                 non_masquerade(planned, o, c.to.version()) + " before kops update cluster creates it",
             {"kops-nonmasq-pod"});
  } else if (o.type == "kubeadm") {
    out.step("run kubeadm init with --pod-network-cidr=" + to + " (networking.podSubnet)", {"kadm-config-cm"});
  } else {
    out.step("start kube-controller-manager with --allocate-node-cidrs and --cluster-cidr=" + to, {"kcm-refuses"});
  }
  if (o.cni == "cilium") {
    auto mask = v6 ? o.node_cidr_mask_v6 : o.node_cidr_mask;
    std::string list = v6 ? "clusterPoolIPv6PodCIDRList" : "clusterPoolIPv4PodCIDRList";
    std::string size = v6 ? "clusterPoolIPv6MaskSize" : "clusterPoolIPv4MaskSize";
    out.step("install Cilium with ipam.operator." + list + "=[" + to + "]" +
                 (mask ? " and ipam.operator." + size + "=" + std::to_string(*mask) : std::string()) +
                 "; left at its default it hands out pod addresses from 10.0.0.0/8",
             {"cilium-clusterpool"});
  } else if (o.cni == "calico") {
    out.step("install Calico with spec.calicoNetwork.ipPools[0].cidr set to " + to +
                 " in the Installation, not its default 192.168.0.0/16",
             {"calico-default-pool"});
  }
}

void pod_space_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                       runbook_builder& out) {
  const owner& o = planned.owners[op.owners.front()];
  for (auto k : op.changes) {
    const std::string to = changes[k].to.to_string();
    if (op.kind == "gke-additional-pod-range") {
      out.step("add " + to + " as a secondary range of the cluster's subnet and to " + o.name +
                   " as an additional pod IPv4 range; new node pools take pod addresses from it, the existing "
                   "range stays",
               {"gke-cluster-ranges"});
    } else if (o.cni == "cilium") {
      out.step("append " + to + " to ipam.operator.clusterPoolIPv4PodCIDRList, leaving the existing "
               "entries as they are; nodes take blocks from it when the old entries are full",
               {"cilium-clusterpool"});
    } else {
      out.step("create a second Calico IPPool for " + to + " beside the existing one, which stays as it "
               "is; new pods take addresses from either",
               {"grow-calico"});
    }
  }
}

}  // namespace cidrcheck::detail
