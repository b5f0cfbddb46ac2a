#include "migration.hpp"

#include <optional>
#include <string>

namespace cidrcheck::detail {

namespace {

// The facts the steps rely on. docs/planning.md repeats them with the same sources.
const migration_fact service_cidr_timeline{
    "the ServiceCIDR API (feature gate MultiCIDRServiceAllocator) is alpha in Kubernetes 1.27-1.30 "
    "(networking.k8s.io/v1alpha1, behind the gate and --runtime-config), beta and off by default in 1.31 and 1.32 "
    "(networking.k8s.io/v1beta1) and generally available, on by default, from 1.33 (networking.k8s.io/v1)",
    "kubernetes/website content/en/docs/reference/command-line-tools-reference/feature-gates/"
    "MultiCIDRServiceAllocator.md; kubernetes/enhancements keps/sig-network/1880-multiple-service-cidrs; "
    "https://kubernetes.io/docs/tasks/network/extend-service-ip-ranges/"};
const migration_fact service_cidr_alpha_used{
    "a kops cluster on Kubernetes 1.29 moved its service range with the alpha API: the MultiCIDRServiceAllocator "
    "gate and networking.k8s.io/v1alpha1 enabled with --runtime-config, then a v1alpha1 ServiceCIDR object",
    "seed 002 (kops against Tailscale's 100.64.0.0/10)"};
const migration_fact first_address_is_kubernetes{
    "kube-apiserver gives the first address of the service range to the kubernetes.default Service, so the API "
    "server's serving certificate must carry it",
    "kubernetes/kubernetes pkg/controlplane/apiserver/options/options.go (ServiceIPRange)"};
const migration_fact dns_is_tenth{"cluster DNS is the tenth address of the service range by convention",
                                  "kubernetes/kubernetes cmd/kubeadm/app/constants/constants.go (GetDNSIP)"};
const migration_fact cluster_ip_immutable{
    "a Service's clusterIP cannot be changed by an update; a new address means recreating the Service",
    "https://kubernetes.io/docs/reference/kubernetes-api/service-resources/service-v1/ (spec.clusterIP)"};
const migration_fact headless_has_no_ip{"a headless Service (clusterIP: None) has no cluster address to move",
                                        "https://kubernetes.io/docs/concepts/services-networking/service/#headless-services"};
const migration_fact load_balancer_address{
    "recreating a LoadBalancer Service gives it a new external address unless the address is reserved and set on "
    "the Service",
    "https://kubernetes.io/docs/concepts/services-networking/service/#loadbalancer"};
const migration_fact service_range_limit{
    "kube-apiserver refuses a service range with more than 20 host bits (/12 for IPv4, /108 for IPv6)",
    "kubernetes/kubernetes cmd/kube-apiserver/app/options/validation.go (validateMaxCIDRRange)"};
const migration_fact pod_cidr_fixed{
    "a node's spec.podCIDR is set once and cannot be changed by an update",
    "kubernetes/kubernetes pkg/apis/core/validation/validation.go (ValidateNodeUpdate)"};
const migration_fact kcm_refuses{
    "kube-controller-manager refuses to start while a node's podCIDR lies outside --cluster-cidr",
    "kubernetes/kubernetes pkg/controller/nodeipam/ipam/range_allocator.go (NewCIDRRangeAllocator, occupyCIDRs)"};
const migration_fact calico_pools{
    "Calico IP pools can be added and disabled while the cluster runs; a pod keeps its address until it is "
    "recreated, and a disabled pool hands out no new addresses",
    "https://docs.tigera.io/calico/latest/networking/ipam/migrate-pools"};
const migration_fact kops_non_masquerade{
    "in kops, nonMasqueradeCIDR must contain podCIDR and serviceClusterIPRange",
    "kubernetes/kops docs/cluster_spec.md; upup/pkg/fi/cloudup/populate_cluster_spec.go"};
const migration_fact managed_service_range{
    "EKS, GKE and AKS set the service range when the cluster is created and cannot change it afterwards",
    "https://docs.aws.amazon.com/eks/latest/APIReference/API_KubernetesNetworkConfigRequest.html; "
    "https://learn.microsoft.com/azure/aks/configure-kubenet"};
const migration_fact vpc_cidr_fixed{
    "a VPC's primary CIDR cannot be changed; moving a cluster's network means a new VPC",
    "https://docs.aws.amazon.com/vpc/latest/userguide/vpc-cidr-blocks.html"};
const migration_fact eks_vpc_fixed{
    "an EKS cluster's subnets can be changed, but only to subnets of the VPC it was created in",
    "https://docs.aws.amazon.com/eks/latest/userguide/network-reqs.html"};
const migration_fact peering_needs_disjoint{"VPC peering requires the two VPCs' CIDRs not to overlap",
                                            "https://docs.aws.amazon.com/vpc/latest/peering/vpc-peering-basics.html"};
const migration_fact kubeadm_init_ranges{
    "kubeadm init takes the service range as --service-cidr (networking.serviceSubnet, default 10.96.0.0/12) and "
    "the pod range as --pod-network-cidr (networking.podSubnet, no default: without it no node gets a podCIDR)",
    "https://kubernetes.io/docs/reference/setup-tools/kubeadm/kubeadm-init/; kubernetes/kubernetes "
    "cmd/kubeadm/app/apis/kubeadm/v1beta4/defaults.go"};
const migration_fact managed_create_flags{
    "EKS takes the service range at creation (kubernetesNetworkConfig.serviceIpv4Cidr), GKE the pod and service "
    "ranges (--cluster-ipv4-cidr, --services-ipv4-cidr), AKS both and the DNS address (--pod-cidr, --service-cidr, "
    "--dns-service-ip)",
    "https://docs.aws.amazon.com/eks/latest/APIReference/API_KubernetesNetworkConfigRequest.html; "
    "https://cloud.google.com/sdk/gcloud/reference/container/clusters/create; "
    "https://learn.microsoft.com/cli/azure/aks#az-aks-create"};
const migration_fact cilium_cluster_pool{
    "Cilium's cluster-pool IPAM cuts node blocks of clusterPoolIPv4MaskSize (default 24) from "
    "ipam.operator.clusterPoolIPv4PodCIDRList, which defaults to 10.0.0.0/8",
    "cilium/cilium install/kubernetes/cilium/values.yaml (ipam.operator); "
    "https://docs.cilium.io/en/stable/network/concepts/ipam/cluster-pool/"};
const migration_fact calico_default_pool{
    "the Calico operator creates the default IP pool from the Installation's spec.calicoNetwork.ipPools, "
    "192.168.0.0/16 unless set",
    "projectcalico/calico manifests/custom-resources.yaml; https://docs.tigera.io/calico/latest/reference/installation/api"};

enum class service_cidr_api { none, alpha, beta, ga };

// Which ServiceCIDR API a cluster's Kubernetes serves (service_cidr_timeline).
auto service_cidr_stage(const owner& o) -> service_cidr_api {
  if (!o.kubernetes || *o.kubernetes < kube_version{1, 27}) return service_cidr_api::none;
  if (*o.kubernetes < kube_version{1, 31}) return service_cidr_api::alpha;
  if (*o.kubernetes < kube_version{1, 33}) return service_cidr_api::beta;
  return service_cidr_api::ga;
}

auto step(std::string text, std::vector<migration_fact> facts = {}) -> migration_step {
  return {std::move(text), std::move(facts)};
}

// kops' nonMasqueradeCIDR after the plan: the smallest block that holds the
// cluster's pod and service ranges of the given version.
auto non_masquerade(const fleet& planned, const owner& o, ip_version v) -> std::string {
  std::optional<prefix> cover;
  for (auto k : o.ranges) {
    const auto& r = planned.ranges[k];
    if ((r.role != range_role::pods && r.role != range_role::services) || r.cidr.version() != v) continue;
    if (!cover) {
      cover = r.cidr;
      continue;
    }
    while (!cover->supernet_of(r.cidr)) cover = cover->supernet();
  }
  return cover ? cover->to_string() : std::string("a block holding the pod and service ranges");
}

auto is_managed(const std::string& distribution) -> bool {
  return distribution == "eks" || distribution == "gke" || distribution == "aks";
}

// The tenth address of a service range: the cluster DNS address by convention.
auto dns_of(const prefix& services) -> std::string {
  return address::from_bits(services.version(), services.network().bits() + 10).to_string();
}

auto services_steps(const fleet& planned, const owner& o, const plan_change& c) -> std::vector<migration_step> {
  std::vector<migration_step> out;
  const std::string from = c.from.to_string(), to = c.to.to_string();
  std::string dns = c.dns_to ? c.dns_to->to_string() : dns_of(c.to);
  std::string first = c.to.network().next().to_string();
  if (c.from == c.to) {
    out.push_back(step("set the cluster DNS address to " + dns + " (kubelet clusterDNS and the kube-dns Service's "
                       "clusterIP), then restart kubelets node by node",
                       {dns_is_tenth}));
    return out;
  }
  if (is_managed(o.type)) {
    out.push_back(step("the service range of a " + o.type + " cluster is fixed at creation: create a replacement "
                       "cluster with service range " + to + ", move workloads to it (blue/green) and retire " + o.name,
                       {managed_service_range}));
    return out;
  }
  switch (service_cidr_stage(o)) {
    case service_cidr_api::ga:
      out.push_back(step("create a ServiceCIDR object (networking.k8s.io/v1) for " + to +
                             " so that new Services can be given addresses in it",
                         {service_cidr_timeline}));
      break;
    case service_cidr_api::beta:
      out.push_back(step("enable the MultiCIDRServiceAllocator feature gate and networking.k8s.io/v1beta1 "
                         "(--runtime-config) on kube-apiserver, then create a ServiceCIDR object (networking.k8s.io/v1beta1) for " + to,
                         {service_cidr_timeline}));
      break;
    case service_cidr_api::alpha:
      out.push_back(step("enable the MultiCIDRServiceAllocator feature gate and networking.k8s.io/v1alpha1 "
                         "(--runtime-config=networking.k8s.io/v1alpha1=true) on kube-apiserver, then create a ServiceCIDR "
                         "object (networking.k8s.io/v1alpha1) for " + to,
                         {service_cidr_timeline, service_cidr_alpha_used}));
      break;
    case service_cidr_api::none:
      out.push_back(step(std::string("Kubernetes ") + (o.kubernetes ? "1." + std::to_string(o.kubernetes->minor) : "of unknown version") +
                             " has no ServiceCIDR API (alpha from 1.27, beta from 1.31, GA from 1.33): plan a "
                             "maintenance window in which every Service is recreated at once, or upgrade first",
                         {service_cidr_timeline}));
      break;
  }
  out.push_back(step("add " + first + " (the new kubernetes.default address) to the API server certificate's "
                     "subject alternative names and roll the API servers",
                     {first_address_is_kubernetes}));
  if (o.type == "kubeadm") {
    out.push_back(step("set networking.serviceSubnet to " + to + " and add " + first +
                       " to apiServer.certSANs in the kubeadm ClusterConfiguration, then regenerate the API server "
                       "certificate (kubeadm init phase certs apiserver)"));
  } else if (o.type == "kops") {
    out.push_back(step("set spec.serviceClusterIPRange to " + to + " and spec.nonMasqueradeCIDR to " +
                           non_masquerade(planned, o, c.to.version()) +
                           ", then kops update cluster --yes and kops rolling-update cluster --yes",
                       {kops_non_masquerade}));
  }
  out.push_back(step("change --service-cluster-ip-range on kube-apiserver and kube-controller-manager to " + to,
                     {service_range_limit}));
  out.push_back(step("create the DNS Service anew with clusterIP " + dns + ", set kubelet clusterDNS to " + dns +
                         " and restart kubelets node by node, so that new pods resolve through it",
                     {dns_is_tenth, cluster_ip_immutable}));
  out.push_back(step("recreate the ClusterIP Services (delete and create; the clusterIP is immutable), the ones "
                     "other workloads call first; leave headless Services alone",
                     {cluster_ip_immutable, headless_has_no_ip}));
  out.push_back(step("recreate LoadBalancer Services last, with their external address reserved and set, since "
                     "clients reach them from outside by that address",
                     {load_balancer_address}));
  out.push_back(step("delete the kubernetes Service in the default namespace so that kube-apiserver recreates it "
                     "at " + first + ", then remove the old range " + from + " (its ServiceCIDR object, if any, once "
                     "no address of it is in use)",
                     {first_address_is_kubernetes}));
  return out;
}

auto pods_steps(const fleet& planned, const owner& o, const plan_change& c) -> std::vector<migration_step> {
  std::vector<migration_step> out;
  const std::string from = c.from.to_string(), to = c.to.to_string();
  if (o.cni == "calico") {
    out.push_back(step("create a Calico IPPool for " + to + " and set disabled: true on the pool for " + from,
                       {calico_pools}));
    out.push_back(step("add " + to + " to kube-controller-manager's --cluster-cidr if it allocates node CIDRs, so "
                       "that nodes' podCIDRs and the pools agree",
                       {kcm_refuses}));
    out.push_back(step("restart workloads node by node (drain and uncordon) so that every pod gets an address "
                       "from " + to,
                       {calico_pools}));
    out.push_back(step("delete the pool for " + from + " once no pod uses it", {calico_pools}));
    return out;
  }
  if (o.type == "eks") {
    out.push_back(step("with the VPC CNI, pods take VPC addresses: add " + to + " as a secondary VPC CIDR, create "
                       "subnets and ENIConfig objects in it (custom networking), then replace the node groups"));
    return out;
  }
  if (o.type == "kops") {
    out.push_back(step("set spec.podCIDR to " + to + " and spec.nonMasqueradeCIDR to " +
                           non_masquerade(planned, o, c.to.version()),
                       {kops_non_masquerade}));
  }
  out.push_back(step("create new nodes (a new node group) while the old ones run: kube-controller-manager must "
                     "know " + to + " before they register",
                     {pod_cidr_fixed}));
  out.push_back(step("change --cluster-cidr on kube-controller-manager to " + to + " and, in the same change, "
                     "delete the Node objects of every node whose podCIDR is in " + from + " after draining it: "
                     "kube-controller-manager refuses to start while any node's podCIDR lies outside --cluster-cidr",
                     {kcm_refuses, pod_cidr_fixed}));
  out.push_back(step("drain and remove the old nodes one at a time; pods move to nodes with podCIDRs in " + to,
                     {pod_cidr_fixed}));
  return out;
}

auto network_steps(const owner& o, const plan_change& c) -> std::vector<migration_step> {
  std::vector<migration_step> out;
  const std::string from = c.from.to_string(), to = c.to.to_string();
  if (o.kind == owner_kind::network) {
    out.push_back(step("renumber network " + o.name + " from " + from + " to " + to + " with its owners, then "
                       "update every route and VPN that carries it"));
    return out;
  }
  out.push_back(step("create a new VPC (or virtual network) with CIDR " + to + " and its subnets", {vpc_cidr_fixed}));
  out.push_back(step("peer the old VPC " + from + " with the new one and route both ways, so that old and new "
                     "nodes reach each other during the move",
                     {peering_needs_disjoint}));
  if (is_managed(o.type)) {
    // A managed cluster stays in the network it was created in: the move is a replacement cluster.
    std::vector<migration_fact> facts;
    if (o.type == "eks") facts.push_back(eks_vpc_fixed);
    std::string kind = o.type == "eks" ? "an EKS" : o.type == "aks" ? "an AKS" : "a GKE";
    out.push_back(step(o.name + ", " + kind + " cluster, cannot move to another VPC: create a replacement cluster "
                           "in the new VPC with the same service and pod settings, and move workloads to it "
                           "(blue/green)",
                       facts));
    out.push_back(step("move load balancers and external DNS to the new cluster, retire " + o.name +
                       ", remove the peering, and delete the old VPC " + from));
    return out;
  }
  out.push_back(step("create new node groups in the new VPC; cordon and drain the old nodes, one group at a time"));
  out.push_back(step("move the control plane one member at a time (for self-managed etcd: add a member in the new "
                     "VPC, then remove an old one), keeping quorum"));
  out.push_back(step("move load balancers and external DNS to the new subnets, remove the peering, and delete the "
                     "old VPC " + from));
  return out;
}

// Steps for a range the plan creates (a requested size): set it where the
// cluster is built, since the distribution fixes most ranges at creation.
auto creation_steps(const fleet& planned, const owner& o, const plan_change& c) -> std::vector<migration_step> {
  std::vector<migration_step> out;
  const std::string to = c.to.to_string();
  const bool v6 = c.to.version() == ip_version::v6;
  switch (c.role) {
    case range_role::network:
      out.push_back(step("build " + o.name + "'s network in " + to + ": the VPC (or virtual network) CIDR and its "
                         "node subnets, or the nodes' subnet on premises",
                         {vpc_cidr_fixed}));
      break;
    case range_role::pods:
      if (o.type == "eks") {
        out.push_back(step("with the VPC CNI, pods take VPC addresses: add " + to + " as a secondary VPC CIDR with "
                           "subnets and ENIConfig objects (custom networking) before creating the node groups"));
      } else if (o.type == "gke" || o.type == "aks") {
        out.push_back(step("create " + o.name + " with its pod range set to " + to +
                               (o.type == "gke" ? " (--cluster-ipv4-cidr)" : " (--pod-cidr)"),
                           {managed_create_flags}));
      } else if (o.type == "kops") {
        out.push_back(step("set spec.podCIDR to " + to + " and spec.nonMasqueradeCIDR to " +
                               non_masquerade(planned, o, c.to.version()) + " before kops update cluster creates it",
                           {kops_non_masquerade}));
      } else if (o.type == "kubeadm") {
        out.push_back(step("run kubeadm init with --pod-network-cidr=" + to + " (networking.podSubnet)",
                           {kubeadm_init_ranges}));
      } else {
        out.push_back(step("start kube-controller-manager with --allocate-node-cidrs and --cluster-cidr=" + to,
                           {kcm_refuses}));
      }
      if (o.cni == "cilium") {
        auto mask = v6 ? o.node_cidr_mask_v6 : o.node_cidr_mask;
        std::string list = v6 ? "clusterPoolIPv6PodCIDRList" : "clusterPoolIPv4PodCIDRList";
        std::string size = v6 ? "clusterPoolIPv6MaskSize" : "clusterPoolIPv4MaskSize";
        out.push_back(step("install Cilium with ipam.operator." + list + "=[" + to + "]" +
                               (mask ? " and ipam.operator." + size + "=" + std::to_string(*mask) : std::string()) +
                               "; left at its default it hands out pod addresses from 10.0.0.0/8",
                           {cilium_cluster_pool}));
      } else if (o.cni == "calico") {
        out.push_back(step("install Calico with spec.calicoNetwork.ipPools[0].cidr set to " + to +
                               " in the Installation, not its default 192.168.0.0/16",
                           {calico_default_pool}));
      }
      break;
    case range_role::services: {
      const std::string dns = dns_of(c.to);
      if (o.type == "eks") {
        out.push_back(step("create " + o.name + " with kubernetesNetworkConfig." +
                               (v6 ? std::string("ipFamily=ipv6 (EKS picks the IPv6 service range itself)")
                                   : "serviceIpv4Cidr=" + to),
                           {managed_create_flags, managed_service_range}));
      } else if (o.type == "gke") {
        out.push_back(step("create " + o.name + " with --services-ipv4-cidr=" + to,
                           {managed_create_flags, managed_service_range}));
      } else if (o.type == "aks") {
        out.push_back(step("create " + o.name + " with --service-cidr " + to + " --dns-service-ip " + dns,
                           {managed_create_flags, managed_service_range, dns_is_tenth}));
      } else if (o.type == "kops") {
        out.push_back(step("set spec.serviceClusterIPRange to " + to + " and spec.nonMasqueradeCIDR to " +
                               non_masquerade(planned, o, c.to.version()) + " before kops update cluster creates it",
                           {kops_non_masquerade}));
      } else if (o.type == "kubeadm") {
        out.push_back(step("run kubeadm init with --service-cidr=" + to + " (networking.serviceSubnet); cluster DNS "
                           "becomes " + dns,
                           {kubeadm_init_ranges, dns_is_tenth}));
      } else {
        out.push_back(step("start kube-apiserver and kube-controller-manager with --service-cluster-ip-range=" + to +
                               " and set kubelet clusterDNS to " + dns,
                           {service_range_limit, dns_is_tenth}));
      }
      break;
    }
    case range_role::external:
      out.push_back(step("number network " + o.name + " from " + to));
      break;
  }
  return out;
}

// "network 10.0.0.0/16 -> 10.1.0.0/16, pods ..." for the changes of one owner.
auto ranges_text(const fleet& planned, std::uint32_t owner, const plan_operation& op, const std::vector<plan_change>& changes)
    -> std::string {
  std::string out;
  for (auto k : op.changes) {
    const auto& c = changes[k];
    if (c.owner != owner) continue;
    std::string role = c.range ? planned.role_name(planned.ranges[*c.range]) : std::string(to_string(c.role));
    out += (out.empty() ? "" : ", ") + role + " " + (c.from.is_valid() ? c.from.to_string() + " -> " : "") +
           c.to.to_string();
  }
  return out;
}

auto replacement_steps(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes)
    -> std::vector<migration_step> {
  std::vector<migration_step> out;
  const owner& o = planned.owners[op.owners.front()];
  std::vector<migration_fact> facts;
  if (is_managed(o.type)) facts = {managed_create_flags, managed_service_range};
  if (o.type == "eks") facts.push_back(eks_vpc_fixed);
  out.push_back(step("build a replacement for " + o.name + " beside it, with every range new (" +
                         ranges_text(planned, op.owners.front(), op, changes) + ")",
                     facts));
  out.push_back(step("connect the replacement where " + o.name + " is connected, deploy every workload to it, and "
                     "move traffic over (DNS, load balancers), service by service"));
  out.push_back(step("retire " + o.name + " once nothing reaches it; its old ranges are then free"));
  return out;
}

auto shared_vpc_steps(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes)
    -> std::vector<migration_step> {
  std::vector<migration_step> out;
  const owner& v = planned.owners[op.owners.front()];
  out.push_back(step("create the new VPC for " + v.name + " (" + ranges_text(planned, op.owners.front(), op, changes) +
                         ") with subnets for every cluster in it",
                     {vpc_cidr_fixed}));
  out.push_back(step("peer the old VPC with the new one and route both ways, so that old and new nodes reach each "
                     "other during the move",
                     {peering_needs_disjoint}));
  for (std::size_t k = 1; k < op.owners.size(); ++k) {
    const owner& o = planned.owners[op.owners[k]];
    std::string moves = ranges_text(planned, op.owners[k], op, changes);
    if (is_managed(o.type) || o.type == "kops") {
      std::vector<migration_fact> facts;
      if (o.type == "eks") facts.push_back(eks_vpc_fixed);
      out.push_back(step(o.name + " (" + o.type + ") cannot change its VPC: build its replacement in the new VPC (" +
                             moves + "), move workloads and traffic to it, retire " + o.name,
                         facts));
    } else {
      out.push_back(step(o.name + ": create node groups in the new subnets (" + moves + "), drain the old nodes one "
                         "group at a time, then move the control plane one member at a time, keeping quorum"));
    }
  }
  out.push_back(step("move load balancers and external DNS to the new subnets, remove the peering, and delete the "
                     "old VPC"));
  return out;
}

auto pod_space_steps(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes)
    -> std::vector<migration_step> {
  std::vector<migration_step> out;
  const owner& o = planned.owners[op.owners.front()];
  for (auto k : op.changes) {
    const std::string to = changes[k].to.to_string();
    if (op.kind == "gke-additional-pod-range") {
      out.push_back(step("add " + to + " as a secondary range of the cluster's subnet and to " + o.name +
                         " as an additional pod IPv4 range; new node pools take pod addresses from it, the existing "
                         "range stays"));
    } else if (o.cni == "cilium") {
      out.push_back(step("append " + to + " to ipam.operator.clusterPoolIPv4PodCIDRList, leaving the existing "
                         "entries as they are; nodes take blocks from it when the old entries are full",
                         {cilium_cluster_pool}));
    } else {
      out.push_back(step("create a second Calico IPPool for " + to + " beside the existing one, which stays as it "
                         "is; new pods take addresses from either",
                         {calico_pools}));
    }
  }
  return out;
}

}  // namespace

auto operation_steps(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes)
    -> std::vector<migration_step> {
  if (op.scope == operation_scope::cluster) return replacement_steps(planned, op, changes);
  if (op.scope == operation_scope::pod_space) return pod_space_steps(planned, op, changes);
  if (op.scope == operation_scope::network && op.owners.size() > 1) return shared_vpc_steps(planned, op, changes);
  std::vector<migration_step> out;
  for (auto k : op.changes) {
    auto more = migration_steps(planned, changes[k]);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

auto migration_steps(const fleet& planned, const plan_change& change) -> std::vector<migration_step> {
  const owner& o = planned.owners[change.owner];
  if (!change.from.is_valid()) return creation_steps(planned, o, change);
  switch (change.role) {
    case range_role::services: return services_steps(planned, o, change);
    case range_role::pods: return pods_steps(planned, o, change);
    case range_role::network:
    case range_role::external: return network_steps(o, change);
  }
  return {};
}

}  // namespace cidrcheck::detail
