// Runbooks that move, create or add to a cluster's pod space. Each branch
// follows the facts it cites (docs/migration-facts.md, sections 2 and 3):
// Calico pools, Cilium IPAM modes, kube-controller-manager node IPAM, the VPC
// CNI's custom networking, GKE pod ranges, and what AKS and OpenShift allow.

#include "migration.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace cidrcheck::detail {

namespace {

// The command that shows every pod address, to check that none is left in a range.
auto pods_in(const std::string& range) -> std::string {
  return "`kubectl get pods -A -o wide` lists no pod address in " + range;
}

// The last step of a pod move: the old range is retired once nothing holds an address in it.
void retire_old_pods(runbook_builder& out, const std::string& from, std::vector<std::string> needs,
                     const std::string& extra_check, std::initializer_list<std::string_view> facts) {
  auto& s = out.step("retire " + from + ": verify that " + pods_in(from) +
                         (extra_check.empty() ? std::string() : " and that " + extra_check) +
                         "; then remove " + from + " from routes, firewall rules and NetworkPolicy ipBlocks",
                     facts);
  s.needs = std::move(needs);
  s.makes = {"old-range-unused"};
}

// Calico's block size for a pool of n nodes: the default /26 (IPv4) or /122
// (IPv6) unless the pool then has fewer blocks than nodes (calico-blocks);
// never beyond the allowed 32 or 128 (calico-ippool-fields).
auto calico_block_size(const prefix& pool, std::optional<std::uint64_t> nodes) -> int {
  const bool v6 = pool.version() == ip_version::v6;
  int size = v6 ? 122 : 26;
  const int top = v6 ? 128 : 32;
  if (!nodes) return std::max(size, pool.length());
  while (size < top && size - pool.length() < 63 && (std::uint64_t{1} << std::max(0, size - pool.length())) < *nodes) {
    ++size;
  }
  return std::max(size, pool.length());
}

auto calico_pool_yaml(const std::string& name, const prefix& cidr, int block_size, bool disabled) -> std::string {
  return "apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata:\n  name: " + name + "\nspec:\n  cidr: " +
         cidr.to_string() + "\n  blockSize: " + std::to_string(block_size) +
         "\n  natOutgoing: true\n  nodeSelector: all()\n  disabled: " + (disabled ? "true" : "false") + "\n";
}

auto pool_name(const prefix& cidr) -> std::string {
  std::string out = "pool-";
  for (char ch : cidr.to_string()) out += (ch == '.' || ch == '/' || ch == ':') ? '-' : ch;
  while (out.find("--") != std::string::npos) out.erase(out.find("--"), 1);
  if (out.back() == '-') out.pop_back();
  return out;
}

auto kops_nonmasq_text(const fleet& planned, const owner& o, const prefix& pods) -> std::string {
  if (auto block = kops_non_masquerade(planned, o, pods)) {
    return "spec.nonMasqueradeCIDR to " + block->to_string() +
           (block->length() == pods.length() ? " (podCIDR only: kops versions that also require "
                                               "serviceClusterIPRange inside it need the service range moved near it)"
                                             : std::string());
  }
  return "spec.nonMasqueradeCIDR to a block holding podCIDR that avoids networkCIDR (the smallest block holding the "
         "pod and service ranges overlaps it, which kops refuses)";
}

auto kops_nonmasq_yaml(const fleet& planned, const owner& o, const prefix& pods) -> std::string {
  auto block = kops_non_masquerade(planned, o, pods);
  return block ? "  nonMasqueradeCIDR: " + block->to_string() + "\n"
               : "  # nonMasqueradeCIDR: a block holding podCIDR that avoids networkCIDR (see runbook.md)\n";
}

// kube-controller-manager node IPAM (kubeadm, kops default, k3s/RKE2, Flannel,
// Cilium `kubernetes` IPAM): --cluster-cidr holds one range per family and
// refuses to start while a Node's podCIDR lies outside it, and a Node's
// podCIDR never changes, so the old nodes leave before the flag moves and the
// nodes register again after it.
void kcm_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  if (o.type == "kubeadm") {
    auto& s = out.step("set networking.podSubnet to " + to + " in the kubeadm-config ConfigMap (kube-system, key "
                       "ClusterConfiguration): kubeadm upgrade reads it back and would restore " + from,
                       {"kadm-config-cm", "kadm-upgrade-reverts", "kadm-config-versions"});
    s.makes = {"config-names-new-range"};
    out.file("kubeadm-clusterconfiguration.yaml", [&] {
      const bool v4 = o.kubernetes && o.kubernetes->minor >= 31;  // kadm-config-versions
      return std::string("# merge into the ClusterConfiguration key of ConfigMap kube-system/kubeadm-config\n") +
             "apiVersion: kubeadm.k8s.io/" + (v4 ? "v1beta4" : "v1beta3") +
             "\nkind: ClusterConfiguration\nnetworking:\n  podSubnet: " + to + "\n";
    });
  } else if (o.type == "kops") {
    auto& s = out.step("in the kops cluster spec set spec.podCIDR to " + to + " and " +
                           kops_nonmasq_text(planned, o, c.to) + "; do not apply it yet",
                       {"kops-nonmasq-pod", "kops-nonmasq-network", "kops-allocate"});
    s.makes = {"config-names-new-range"};
    out.file("kops-cluster-spec.yaml", [&] {
      return "# fields of `kops edit cluster` (spec)\nspec:\n  podCIDR: " + to + "\n" + kops_nonmasq_yaml(planned, o, c.to);
    });
  } else if (o.type == "k3s" || o.type == "rke2") {
    auto& s = out.step("prepare --cluster-cidr=" + to + " for the configuration of every server: it is a critical "
                       "value that all servers must share, so it changes on all servers in the same restart. "
                       "Unverified: no upstream procedure for changing it on a running cluster was found",
                       {"k3s-critical", "k3s-no-procedure"});
    s.makes = {"config-names-new-range"};
  } else {
    auto& s = out.step("prepare kube-controller-manager's new flag --cluster-cidr=" + to + ": it holds one CIDR per "
                       "IP family, so " + from + " cannot stay beside it",
                       {"kcm-one-per-family"});
    s.makes = {"config-names-new-range"};
  }
  out.file("kube-controller-manager.flags", [&] {
    return "# kube-controller-manager flag after the change (one CIDR per IP family)\n--cluster-cidr=" + to + "\n";
  });
  auto& cordon = out.step("cordon every node and plan a window: kube-controller-manager cannot hand out node ranges "
                          "from " + from + " and " + to + " at once, and new nodes joining now would get ranges in " +
                          from + " that never change",
                          {"kcm-one-per-family", "node-podcidr-immutable", "kcm-flag-when"});
  cordon.needs = {"config-names-new-range"};
  cordon.makes = {"nodes-cordoned"};
  auto& drain = out.step("for every node: drain it, stop its kubelet, then delete its Node object, until "
                         "`kubectl get nodes` is empty; a Node's podCIDR cannot be changed, only set again by "
                         "registering anew (Flant instead rewrote podCIDRs in etcd and rebooted every node)",
                         {"node-podcidr-immutable", "flant-pod-order"});
  drain.needs = {"nodes-cordoned"};
  drain.makes = {"no-node-has-old-podcidr"};
  if (o.cni == "flannel") {
    // flanneld refuses a node whose podCIDR lies outside its network, and reads
    // net-conf.json only at start (flannel-node-podcidr).
    const std::string key = c.to.version() == ip_version::v6 ? "IPv6Network" : "Network";
    auto& s = out.step("in the kube-flannel-cfg ConfigMap set " + key + " in net-conf.json to " + to + " (keep "
                       "Backend and the other keys): flanneld takes each node's range from its podCIDR and refuses "
                       "one outside " + key + ", and it reads net-conf.json only when it starts, so the flannel pods "
                       "that start with the kubelets in the next steps read " + to + ". The Flant story does not "
                       "mention this file",
                       {"flannel-netconf", "flannel-node-podcidr", "flannel-pod-move"});
    s.needs = {"no-node-has-old-podcidr"};
    s.makes = {"flannel-network-new"};
  }
  auto& flag = out.step(o.type == "kops"
                            ? "apply the spec (kops update cluster --yes) and roll the control plane "
                              "(kops rolling-update cluster --yes): kube-controller-manager's --cluster-cidr follows "
                              "podCIDR and it starts, since no Node holds a range outside it"
                        : o.type == "k3s" || o.type == "rke2"
                            ? "restart every server at once with --cluster-cidr=" + to + ": its kube-controller-manager "
                              "starts, since no Node holds a range outside it"
                            : "change --cluster-cidr to " + to + " on every kube-controller-manager" +
                                  (o.type == "kubeadm" ? " (/etc/kubernetes/manifests/kube-controller-manager.yaml)"
                                                       : std::string()) +
                                  ": it starts, since no Node holds a range outside it",
                        {"kcm-refuses", "kcm-flag-when"});
  if (o.type == "kubeadm") flag.facts.push_back(migration_fact_by_id("kadm-manifests"));
  flag.needs = {"no-node-has-old-podcidr", "config-names-new-range"};
  flag.makes = {"kcm-allocates-new-range"};
  auto& nodes = out.step("start the kubelets again (or bring up new nodes) one at a time, restarting the CNI's pod "
                         "on each: every node registers again and gets a podCIDR in " + to + "; uncordon it and "
                         "let workloads come back",
                         {"kcm-allocate", "node-podcidr-immutable"});
  nodes.needs = {"kcm-allocates-new-range"};
  if (o.cni == "flannel") nodes.needs.push_back("flannel-network-new");
  nodes.makes = {"nodes-on-new-range"};
  if (o.type == "kubeadm") {
    auto& s = out.step("set clusterCIDR to " + to + " in the kube-proxy ConfigMap (key config.conf) and restart "
                       "kube-proxy",
                       {"kadm-kube-proxy-cm"});
    s.needs = {"nodes-on-new-range"};
    s.makes = {"kube-proxy-on-new-range"};
    retire_old_pods(out, from, {"nodes-on-new-range", "kube-proxy-on-new-range"},
                    "`kubectl get nodes -o jsonpath='{.items[*].spec.podCIDRs}'` shows only ranges in " + to,
                    {"node-podcidr-immutable"});
    return;
  }
  retire_old_pods(out, from, {"nodes-on-new-range"},
                  "`kubectl get nodes -o jsonpath='{.items[*].spec.podCIDRs}'` shows only ranges in " + to,
                  {"node-podcidr-immutable"});
}

// Calico: a new pool beside the old one, the old one disabled, pods restarted,
// the new addresses checked, the old pool deleted (calico-migrate-order).
void calico_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  const int block = calico_block_size(c.to, o.nodes);
  auto& add = out.step("add an IPPool for " + to + " (blockSize " + std::to_string(block) +
                           ", at least one block per node): with the Tigera operator as a new entry of the "
                           "Installation's spec.calicoNetwork.ipPools, with manifests by applying ippool-new.yaml",
                       {"calico-migrate-order", "calico-operator", "calico-ippool-fields", "calico-blocks"});
  add.makes = {"new-pool-serving"};
  out.file("ippool-new.yaml", [&] { return calico_pool_yaml(pool_name(c.to), c.to, block, false); });
  auto& off = out.step("disable the pool holding " + from + ": with manifests apply ippool-old-disabled.yaml "
                       "(disabled: true) after setting metadata.name to that pool's name (kubectl get ippools); with "
                       "the operator set nodeSelector: \"!all()\" on its entry in the Installation. Existing pods "
                       "keep their addresses",
                       {"calico-migrate-order", "calico-disable", "calico-operator", "calico-nodeselector"});
  off.needs = {"new-pool-serving"};
  off.makes = {"old-pool-not-allocating"};
  out.file("ippool-old-disabled.yaml", [&] {
    return "# metadata.name: replace with the name of the pool whose cidr is " + from + "\n" +
           calico_pool_yaml(pool_name(c.from), c.from, calico_block_size(c.from, o.nodes), true);
  });
  if (o.type == "kops") {
    auto& s = out.step("in the kops cluster spec set spec.podCIDR to " + to + ", " +
                           kops_nonmasq_text(planned, o, c.to) +
                           " and spec.kubeControllerManager.allocateNodeCIDRs: false (Calico does the IPAM; without "
                           "it kube-controller-manager refuses to start once podCIDR moves), then kops update cluster "
                           "--yes and kops rolling-update cluster --yes",
                       {"kops-calico-seed", "kops-allocate", "kops-kcm-fields", "kcm-refuses", "kops-nonmasq-pod",
                        "kops-nonmasq-network"});
    s.needs = {"old-pool-not-allocating"};
    s.makes = {"kcm-not-allocating"};
    out.file("kops-cluster-spec.yaml", [&] {
      return "# fields of `kops edit cluster` (spec)\nspec:\n  podCIDR: " + to + "\n" + kops_nonmasq_yaml(planned, o, c.to) +
             "  kubeControllerManager:\n    allocateNodeCIDRs: false\n";
    });
  } else {
    auto& s = out.step("leave kube-controller-manager's --cluster-cidr alone: it holds one CIDR per IP family, so " +
                           to + " cannot be added to it; unverified for this distribution: Calico's own IPAM does not "
                           "use the Nodes' podCIDRs, so set --allocate-node-cidrs=false as the kops story did if "
                           "kube-controller-manager would otherwise refuse to start",
                       {"kcm-one-per-family", "kcm-refuses", "kops-calico-seed", "calico-cluster-cidr"});
    s.needs = {"old-pool-not-allocating"};
    s.makes = {"kcm-not-allocating"};
  }
  auto& roll = out.step("restart the workloads still on " + from + " (including those created before the pool was "
                        "disabled), a few at a time: scale CoreDNS and webhooks up first, then `kubectl rollout "
                        "restart` each Deployment, StatefulSet and DaemonSet",
                        {"calico-migrate-order", "kops-calico-seed"});
  roll.needs = {"old-pool-not-allocating", "kcm-not-allocating"};
  roll.makes = {"pods-restarted"};
  auto& check = out.step("verify that new pods get addresses in " + to + ": " + pods_in(from) +
                             " and new pods show addresses in " + to,
                         {"calico-migrate-order"});
  check.needs = {"pods-restarted"};
  check.makes = {"new-pool-verified"};
  auto& del = out.step("delete the old pool (kubectl delete ippool with its name; with the operator remove its entry "
                       "from the Installation)",
                       {"calico-migrate-order", "calico-operator"});
  del.needs = {"new-pool-verified"};
  del.makes = {"old-pool-deleted"};
  retire_old_pods(out, from, {"old-pool-deleted"}, "`kubectl get ippools -o wide` lists no pool for " + from,
                  {"calico-migrate-order"});
}

auto cilium_pool_yaml(const std::string& name, const std::vector<prefix>& cidrs, int mask) -> std::string {
  const bool v6 = !cidrs.empty() && cidrs.front().version() == ip_version::v6;
  std::string out = "apiVersion: cilium.io/v2alpha1\nkind: CiliumPodIPPool\nmetadata:\n  name: " + name +
                    "\nspec:\n  " + (v6 ? "ipv6" : "ipv4") + ":\n    cidrs:\n";
  for (const auto& c : cidrs) out += "      - " + c.to_string() + "\n";
  return out + "    maskSize: " + std::to_string(mask) + "\n";
}

auto cilium_mask(const owner& o, const prefix& to) -> int {
  const bool v6 = to.version() == ip_version::v6;
  auto mask = v6 ? o.node_cidr_mask_v6 : o.node_cidr_mask;
  return std::max(mask.value_or(v6 ? 64 : 24), to.length());
}

// Cilium cluster-pool cannot move pods off an entry (existing entries must not
// change, a node keeps its CIDRs), so the move goes through the documented
// migration to multi-pool, then the multi-pool steps. Multi-pool: the
// `default` pool's CIDRs changed with the documented node-group procedure.
void cilium_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  if (o.ipam == "kubernetes") {
    out.step("Cilium in kubernetes IPAM mode takes each node's range from kube-controller-manager: the move "
             "follows kube-controller-manager's node IPAM",
             {"cilium-kubernetes-ipam"});
    return kcm_runbook(planned, o, c, out);
  }
  const std::string from = c.from.to_string(), to = c.to.to_string();
  const int mask = cilium_mask(o, c.to);
  if (o.ipam == "eni") {
    auto& s = out.step("unverified: in Cilium's ENI mode pods take addresses of the VPC's subnets, like the VPC CNI; "
                       "the pod range then moves with new subnets in a secondary VPC CIDR, not in Cilium's "
                       "configuration. Cilium's IPAM mode itself must not change on a running cluster",
                       {"cilium-eni", "cilium-no-mode-change", "vpc-secondary"});
    s.makes = {"eni-path-chosen"};
    retire_old_pods(out, from, {"eni-path-chosen"}, "", {"cilium-eni"});
    return;
  }
  std::string ready = "multi-pool-running";
  if (o.ipam != "multi-pool") {
    auto& s = out.step("migrate Cilium from cluster-pool to multi-pool, the one documented IPAM mode change (no "
                       "rollback): create the `default` CiliumPodIPPool covering the CIDRs cluster-pool has "
                       "allocated, with the same mask; set ipam.mode=multi-pool with "
                       "enable-cluster-pool-to-multi-pool-migration=true and restart only the operator; wait until "
                       "every CiliumNode lists its CIDR under spec.ipam.pools.allocated; then restart the agents. "
                       "Appending " + to + " to clusterPoolIPv4PodCIDRList would add space but move no pod: nodes "
                       "keep their CIDRs and existing entries must not change",
                       {"cilium-to-multipool", "cilium-clusterpool-change", "cilium-clusterpool-append",
                        "cilium-no-mode-change"});
    s.makes = {ready};
    out.file("ciliumpodippool-default-migration.yaml",
             [&] { return cilium_pool_yaml("default", {c.from}, mask); });
    out.file("cilium-values-multipool.yaml", [&] {
      return "# Helm values for the migration; keep the rest of your values\nipam:\n  mode: multi-pool\n"
             "extraConfig:\n  enable-cluster-pool-to-multi-pool-migration: \"true\"\n";
    });
  } else {
    auto& s = out.step("Cilium runs in multi-pool mode: pools can be added and a pool's CIDRs changed", {"cilium-multipool"});
    s.makes = {ready};
  }
  auto& pool = out.step("set the `default` CiliumPodIPPool's cidrs to " + to + " (apply ciliumpodippool-default.yaml; "
                        "maskSize must stay the pool's current one, here " + std::to_string(mask) +
                        "): nodes keep the CIDRs they hold until their CiliumNode is deleted",
                        {"cilium-multipool"});
  pool.needs = {ready};
  pool.makes = {"new-range-in-pool"};
  out.file("ciliumpodippool-default.yaml", [&] { return cilium_pool_yaml("default", {c.to}, mask); });
  auto& roll = out.step("one group of nodes at a time: cordon and drain the nodes, delete their CiliumNode objects, "
                        "restart their cilium agents, uncordon; their pods come back with addresses in " + to,
                        {"cilium-multipool", "cilium-clusterpool-change"});
  roll.needs = {"new-range-in-pool"};
  roll.makes = {"nodes-on-new-range"};
  retire_old_pods(out, from, {"nodes-on-new-range"},
                  "`kubectl get ciliumnodes -o yaml` lists no CIDR in " + from + " under spec.ipam.pools.allocated",
                  {"cilium-multipool"});
}

// EKS with the VPC CNI: a pod range apart from the node subnets is custom
// networking on a secondary VPC CIDR (eks-custom-nodes), never a new VPC.
void eks_runbook(const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  const int az_len = std::min(c.to.length() + 2, c.to.version() == ip_version::v6 ? 128 : 28);
  std::vector<prefix> subnets;
  for (auto p : c.to.subnets(az_len)) {
    if (subnets.size() == 3) break;
    subnets.push_back(p);
  }
  auto& assoc = out.step("associate " + to + " with " + o.name + "'s VPC as a secondary IPv4 CIDR block "
                         "(terraform-secondary-cidr.tf, or aws ec2 associate-vpc-cidr-block); AWS suggests "
                         "100.64.0.0/10 or 198.19.0.0/16 for pods; unverified: which secondary ranges a VPC accepts "
                         "depends on its primary CIDR",
                         {"eks-custom-nodes", "vpc-secondary", "vpc-secondary-limits", "eks-secondary-ranges",
                          "tf-aws-secondary"});
  assoc.makes = {"secondary-cidr-associated"};
  out.file("terraform-secondary-cidr.tf", [&] {
    std::string tf = "resource \"aws_vpc_ipv4_cidr_block_association\" \"pods\" {\n  vpc_id     = var.vpc_id\n"
                     "  cidr_block = \"" + to + "\"\n}\n";
    for (std::size_t k = 0; k < subnets.size(); ++k) {
      auto n = std::to_string(k + 1);
      tf += "\nresource \"aws_subnet\" \"pods_az" + n + "\" {\n  vpc_id            = aws_vpc_ipv4_cidr_block_association.pods.vpc_id\n"
            "  cidr_block        = \"" + subnets[k].to_string() + "\"\n  availability_zone = var.az" + n + "\n}\n";
    }
    return tf;
  });
  auto& sub = out.step("create one subnet of " + to + " in each Availability Zone of the node subnets (terraform-secondary-cidr.tf "
                       "has three; adjust to your zones)",
                       {"eks-custom-nodes", "eks-subnets-update", "tf-aws-secondary"});
  sub.needs = {"secondary-cidr-associated"};
  sub.makes = {"pod-subnets-created"};
  auto& eni = out.step("create one ENIConfig per pod subnet, named after its zone (eniconfig-az*.yaml), before "
                       "custom networking is turned on",
                       {"eks-eniconfig-schema", "eks-eniconfig-select", "eks-custom-nodes"});
  eni.needs = {"pod-subnets-created"};
  eni.makes = {"eniconfigs-created"};
  for (std::size_t k = 0; k < subnets.size(); ++k) {
    auto n = std::to_string(k + 1);
    out.file("eniconfig-az" + n + ".yaml", [&] {
      return "# metadata.name: the zone name (the topology.kubernetes.io/zone label of the nodes) of subnet " +
             subnets[k].to_string() + "\napiVersion: crd.k8s.amazonaws.com/v1alpha1\nkind: ENIConfig\nmetadata:\n"
             "  name: az" + n + "\nspec:\n  subnet: \"<id of aws_subnet.pods_az" + n + ">\"\n  securityGroups:\n"
             "    - \"<id of the cluster security group>\"\n";
    });
  }
  auto& env = out.step("set AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG=true and "
                       "ENI_CONFIG_LABEL_DEF=topology.kubernetes.io/zone on the aws-node DaemonSet (aws-node-env.yaml): "
                       "nodes started from now take pod addresses from their zone's ENIConfig subnet",
                       {"eks-custom-cfg", "eks-eniconfig-select", "eks-custom-nodes"});
  env.needs = {"eniconfigs-created"};
  env.makes = {"custom-networking-on"};
  out.file("aws-node-env.yaml", [&] {
    return "# kubectl -n kube-system patch daemonset aws-node --patch-file aws-node-env.yaml\nspec:\n  template:\n"
           "    spec:\n      containers:\n        - name: aws-node\n          env:\n"
           "            - name: AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG\n              value: \"true\"\n"
           "            - name: ENI_CONFIG_LABEL_DEF\n              value: topology.kubernetes.io/zone\n";
  });
  auto& ng = out.step("create new node groups, with max pods computed for custom networking "
                      "(--cni-custom-networking-enabled: the primary ENI no longer serves pods)",
                      {"eks-custom-nodes"});
  ng.needs = {"custom-networking-on"};
  ng.makes = {"new-nodes-on-pod-subnets"};
  auto& drain = out.step("cordon, drain and terminate the nodes that ran before the switch, one node group at a "
                         "time; their pods come back with addresses in " + to,
                         {"eks-custom-nodes"});
  drain.needs = {"new-nodes-on-pod-subnets"};
  drain.makes = {"nodes-on-new-range"};
  retire_old_pods(out, from, {"nodes-on-new-range"},
                  "no network interface is left in " + from + "'s subnets; if " + from + " is a secondary CIDR "
                  "block, delete its subnets and remove its association (the primary CIDR cannot be removed)",
                  {"vpc-secondary-limits"});
}

// GKE: a node pool's pod range is fixed, so pods move by new node pools on an
// additional range; the cluster's default range stays (gke-multipod).
void gke_runbook(const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  const std::string range = pool_name(c.to);
  auto& sub = out.step("add " + to + " as a secondary range named " + range + " of the cluster's subnet "
                       "(gcloud.sh, or a secondary_ip_range block in Terraform)",
                       {"gcp-secondary-range", "gcloud-secondary-flag"});
  sub.makes = {"secondary-range-added"};
  auto& add = out.step("add " + range + " to " + o.name + " as an additional pod IPv4 range "
                       "(gcloud container clusters update --additional-pod-ipv4-ranges)",
                       {"gke-cluster-ranges", "gcloud-pod-ranges-flag"});
  add.needs = {"secondary-range-added"};
  add.makes = {"new-range-served"};
  out.file("gcloud.sh", [&] {
    return "gcloud compute networks subnets update SUBNET --region REGION --add-secondary-ranges=" + range + "=" + to +
           "\ngcloud container clusters update " + o.name + " --location LOCATION --additional-pod-ipv4-ranges=" + range +
           "\n";
  });
  auto& np = out.step("create new node pools (GKE assigns them the additional range with most room), then cordon "
                      "and drain the old node pools and delete them; a node pool's pod range never changes",
                      {"gke-nodepool-range", "gke-cluster-ranges"});
  np.needs = {"new-range-served"};
  np.makes = {"nodes-on-new-range"};
  retire_old_pods(out, from, {"nodes-on-new-range"},
                  "no node pool uses it; if " + from + " is the cluster's default pod range it cannot be removed "
                  "(only additional ranges can), so unverified: it stays reserved in the VPC network",
                  {"gke-multipod", "gke-pods-routable"});
}

// AKS Overlay and OpenShift only grow a pod range to a superset in place.
void grow_only_runbook(const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  const bool aks = o.type == "aks";
  if (c.to.supernet_of(c.from)) {
    auto& s = out.step(aks ? "expand the Overlay pod CIDR from " + from + " to " + to + ": `az aks update --name " +
                                 o.name + " --resource-group <resource group> --pod-cidr " + to + "` (Azure CLI "
                                 "2.48.0 or later; Linux nodes, IPv4 only; the new range must contain the old one)"
                           : "expand the cluster network from " + from + " to " + to + " with oc patch "
                             "Network.config.openshift.io cluster (OVN-Kubernetes; the host prefix stays)",
                       {aks ? "aks-pod-expand" : "ocp-clusternet-expand"});
    if (aks) s.facts.push_back(migration_fact_by_id("aks-pod-expand-cmd"));
    s.makes = {"range-expanded"};
    auto& v = out.step(aks ? "verify the expansion in the NodeNetworkConfig objects, which can lag the finished "
                             "update: `kubectl get nnc -A -o jsonpath='{range .items[*]}{.metadata.name}{\" \"}"
                             "{.status.networkContainers[0].subnetAddressSpace}{\"\\n\"}{end}'` shows " + to +
                             " for every node pool; " + from + " stays part of " + to
                           : "verify that nodes added now get pod ranges in " + to + " (kubectl get nodes -o wide); " +
                                 from + " stays part of " + to,
                       {});
    if (aks) v.facts.push_back(migration_fact_by_id("aks-pod-expand-cmd"));
    v.needs = {"range-expanded"};
    v.makes = {"old-range-unused"};
    return;
  }
  auto& s = out.step(std::string(aks ? "AKS" : "OpenShift") + " cannot move pods from " + from + " to the disjoint " +
                         to + " in place (only a larger range containing the old one): build a replacement cluster "
                         "with " + to + " and move workloads to it",
                     {aks ? "aks-pod-expand" : "ocp-clusternet-expand", "replace-managed"});
  s.makes = {"replacement-chosen"};
  retire_old_pods(out, from, {"replacement-chosen"}, "the old cluster is deleted", {});
}

}  // namespace

void pods_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  if (o.type == "aks" || o.type == "openshift") return grow_only_runbook(o, c, out);
  if (o.type == "gke") return gke_runbook(o, c, out);
  if (o.type == "eks" || o.cni == "vpc-cni") return eks_runbook(o, c, out);
  if (o.cni == "calico") return calico_runbook(planned, o, c, out);
  if (o.cni == "cilium") return cilium_runbook(planned, o, c, out);
  kcm_runbook(planned, o, c, out);
}

void pods_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string to = c.to.to_string();
  const bool v6 = c.to.version() == ip_version::v6;
  if (o.type == "eks") {
    out.step("with the VPC CNI, pods take VPC addresses: associate " + to + " as a secondary VPC CIDR with one "
             "subnet and ENIConfig per Availability Zone (custom networking) before creating the node groups",
             {"eks-custom-cfg", "eks-custom-nodes"});
  } else if (o.type == "gke" || o.type == "aks") {
    out.step("create " + o.name + " with its pod range set to " + to +
             (o.type == "gke" ? " (a secondary range of its subnet)" : " (the Overlay pod CIDR)"),
             {o.type == "gke" ? "gcp-secondary-range" : "aks-overlay"});
  } else if (o.type == "kops") {
    out.step("set spec.podCIDR to " + to + " and " + kops_nonmasq_text(planned, o, c.to) +
                 " before kops update cluster creates it",
             {"kops-nonmasq-pod", "kops-nonmasq-network"});
  } else if (o.type == "kubeadm") {
    out.step("run kubeadm init with --pod-network-cidr=" + to + " (networking.podSubnet)", {"kadm-config-cm"});
  } else {
    out.step("start kube-controller-manager with --allocate-node-cidrs and --cluster-cidr=" + to,
             {"kcm-allocate", "kcm-one-per-family"});
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
    out.step("install Calico with its pool set to " + to + " (the operator: spec.calicoNetwork.ipPools[0].cidr in the "
             "Installation), not its default 192.168.0.0/16",
             {"calico-operator", "calico-default-pool"});
  }
}

void pod_space_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                       runbook_builder& out) {
  const owner& o = planned.owners[op.owners.front()];
  std::vector<std::string> added;
  for (auto k : op.changes) {
    const auto& c = changes[k];
    const std::string to = c.to.to_string();
    const std::string state = "range-added-" + to;
    if (op.kind == "gke-additional-pod-range") {
      const std::string range = pool_name(c.to);
      auto& s = out.step("add " + to + " as secondary range " + range + " of the cluster's subnet, then to " +
                             o.name + " as an additional pod IPv4 range (gcloud.sh); new node pools take pod "
                             "addresses from it, the existing range stays",
                         {"gcp-secondary-range", "gcloud-secondary-flag", "gke-cluster-ranges",
                          "gcloud-pod-ranges-flag"});
      s.makes = {state};
      out.file("gcloud.sh", [&] {
        return "gcloud compute networks subnets update SUBNET --region REGION --add-secondary-ranges=" + range + "=" +
               to + "\ngcloud container clusters update " + o.name +
               " --location LOCATION --additional-pod-ipv4-ranges=" + range + "\n";
      });
    } else if (o.cni == "cilium" && o.ipam == "multi-pool") {
      auto& s = out.step("add " + to + " to the `default` CiliumPodIPPool's cidrs, leaving its existing CIDRs and "
                         "maskSize as they are (ciliumpodippool-default.yaml)",
                         {"cilium-multipool", "grow-cilium"});
      s.makes = {state};
      out.file("ciliumpodippool-default.yaml", [&] {
        std::vector<prefix> cidrs;
        for (auto r : o.ranges) {
          if (planned.ranges[r].role == range_role::pods && planned.ranges[r].cidr.version() == c.to.version()) {
            cidrs.push_back(planned.ranges[r].cidr);
          }
        }
        return cilium_pool_yaml("default", cidrs, cilium_mask(o, c.to));
      });
    } else if (o.cni == "cilium") {
      auto& s = out.step("append " + to + " to ipam.operator.clusterPoolIPv4PodCIDRList, leaving the existing "
                         "entries unchanged (cilium-values-pool.yaml); existing nodes keep their CIDRs",
                         {"cilium-clusterpool-append", "cilium-clusterpool-change"});
      s.makes = {state};
      out.file("cilium-values-pool.yaml", [&] {
        std::string list;
        for (auto r : o.ranges) {
          if (planned.ranges[r].role == range_role::pods && planned.ranges[r].cidr.version() == ip_version::v4) {
            list += "      - " + planned.ranges[r].cidr.to_string() + "\n";
          }
        }
        return "# Helm values: the whole list, the existing entries first and unchanged\nipam:\n  operator:\n"
               "    clusterPoolIPv4PodCIDRList:\n" + list;
      });
    } else {
      const int block = calico_block_size(c.to, std::nullopt);
      auto& s = out.step("add a second Calico IPPool for " + to + " beside the existing one, which stays as it is "
                         "(ippool-added.yaml with manifests; a new entry of the Installation's ipPools with the "
                         "operator); new pods take addresses from either",
                         {"grow-calico", "calico-ippool-fields", "calico-operator"});
      s.makes = {state};
      out.file("ippool-added.yaml", [&] { return calico_pool_yaml(pool_name(c.to), c.to, block, false); });
    }
    added.push_back(state);
  }
  auto& v = out.step("verify that the new range serves: new pods (on GKE, pods of new node pools) get addresses in it "
                     "(kubectl get pods -A -o wide), and add it wherever the old range is listed (ip-masq-agent's "
                     "nonMasqueradeCIDRs, NetworkPolicy ipBlocks, firewall rules; unverified for other than GKE)",
                     {"gke-masq"});
  v.needs = std::move(added);
  v.makes = {"new-range-verified"};
}

}  // namespace cidrcheck::detail
