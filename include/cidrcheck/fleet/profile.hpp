#pragma once
// Profiles: what a runbook needs to know about a cluster's platform, as data
// (data/catalog.yaml) with the fact behind every field. A distribution's
// profile says how its control plane is configured and where each setting
// lives; an IPAM mode's where pod addresses come from and how a pool changes;
// a Kubernetes minor's which ServiceCIDR API it serves and which gates that
// takes. Runbooks read the resolved profile of a cluster (cluster_profile)
// and never a distribution, CNI or IPAM name, so a new distribution or CNI is
// catalog rows, facts and goldens, not code.

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/runbook_step.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// A profile value and the fact it comes from (an id of docs/migration-facts.md).
/// When no source says it, `known` is false, `value` is its default, and `fact`
/// is the row that says nothing was found; a runbook then tells the operator
/// to find out instead of guessing.
template <class T>
struct sourced {
  T value{};
  std::string fact;
  bool known = true;
};

/// How a distribution's control plane is configured.
enum class control_plane_config : std::uint8_t {
  static_pods,   ///< static pod manifests on each control-plane node, and a stored cluster configuration (kubeadm)
  cluster_spec,  ///< a cluster spec a tool applies and then rolls the nodes for (kops)
  server_flags,  ///< flags (or their configuration file) of every server process (k3s, RKE2)
  provider,      ///< the provider's API; no flag is the operator's (EKS, GKE, AKS)
  installer,     ///< an installer's configuration at installation, operators afterwards (OpenShift)
  unknown,
};

/// The cloud a distribution's clusters (or a network type's networks) run in:
/// the words and commands a network step uses.
enum class cloud_kind : std::uint8_t { aws, gcp, azure, on_premises, unknown };

/// When a setting can be changed.
enum class changeable : std::uint8_t { any_time, at_creation };

/// Where an operator sets one setting of one component on a distribution:
/// kube-apiserver's --service-cluster-ip-range is kops' spec.serviceClusterIPRange,
/// k3s's --service-cidr, kubeadm's networking.serviceSubnet beside the manifest.
struct setting_place {
  component target = component::kube_apiserver;
  std::string setting;  ///< the component's flag or configuration field: "--service-cluster-ip-range", "clusterDNS"
  config_store store = config_store::control_plane;
  std::string field;    ///< where it is written in that store: "spec.serviceClusterIPRange", "--service-cidr"
  /// The object or file that holds the store, for people ("ConfigMap kube-system/kube-proxy, key config.conf");
  /// "{kubelet_config_map}" stands for the profile's ConfigMap name at the cluster's minor.
  std::string where;
  /// The commands that make the component read a changed value, in order
  /// ("kubeadm upgrade node phase kubelet-config"); "{cluster}" stands for the cluster's name.
  std::vector<std::string> then;
  changeable when = changeable::any_time;
  std::string fact;
};

/// How kube-apiserver's certificate gets more subject alternative names.
enum class san_method : std::uint8_t {
  kubeadm_certs,  ///< a list in the stored configuration, then the certificate reissued on each node (kubeadm)
  spec_field,     ///< a list in the cluster spec, applied with the next roll (kops)
  server_flag,    ///< a server flag, read at the server's restart (k3s --tls-san)
  provider,       ///< the provider's; the operator has no say
  unknown,
};

/// Who writes the cluster DNS Service.
enum class dns_addon_owner : std::uint8_t {
  operator_owned,  ///< installed once; the operator's object afterwards (kubeadm's CoreDNS)
  distribution,    ///< re-rendered by the distribution from its settings (kops add-ons, k3s manifests)
  provider,
  unknown,
};

/// How the nodes of a cluster are replaced or restarted in turn.
enum class node_roll : std::uint8_t {
  cluster_tool,  ///< the distribution's tool rolls them (kops rolling-update cluster)
  node_pools,    ///< new node groups or pools beside the old ones, then the old ones drained (EKS, GKE, AKS)
  by_hand,       ///< drain, change, restart, node by node
  unknown,
};

/// A value that depends on the Kubernetes minor version, with the inclusive
/// minors it holds for (an open end where nullopt).
struct versioned {
  std::optional<kube_version> from, to;
  std::string value;
  std::string fact;
};

/// The profile of one distribution.
struct distribution_profile {
  sourced<bool> managed;
  sourced<cloud_kind> cloud;
  sourced<control_plane_config> control_plane;
  std::vector<setting_place> settings;
  sourced<san_method> sans;
  sourced<std::string> sans_field;  ///< where the SANs list is written ("apiServer.certSANs", "--tls-san")
  sourced<dns_addon_owner> dns_addon;
  sourced<node_roll> nodes;
  /// The CNI is the distribution's own and follows its settings (k3s's
  /// embedded flannel reads --cluster-cidr): no separate CNI configuration to edit.
  sourced<bool> embeds_cni;
  std::vector<versioned> config_api;          ///< the apiVersion of its stored configuration, per minor
  std::vector<versioned> kubelet_config_map;  ///< the ConfigMap holding the kubelet's configuration, per minor
  /// The command that gives a re-registered control-plane node back the label and
  /// taint the distribution put on it ("" where nodes are replaced, not re-registered).
  sourced<std::string> restore_control_plane;
  /// A setting that must hold the pod range and must not overlap the cluster's
  /// network unless pods take network addresses (kops' spec.nonMasqueradeCIDR); "" where none.
  sourced<std::string> pod_range_container;
  /// The cluster can move to another network in place (new nodes there, then the
  /// control plane), as the Adobe story did; else a network move is a replacement.
  sourced<bool> moves_network;
  /// Two clusters may hold the same service range side by side, where nothing
  /// routes one's range to the other: a replacement then keeps the old cluster's.
  /// Unknown where the provider's sources disagree or say nothing (a new range then).
  sourced<bool> shares_service_range;
  /// Stopping a node's kubelet stops its control plane too (one process runs both).
  sourced<bool> kubelet_in_server;
  /// The commands that apply a changed control-plane configuration, in order
  /// ("kops update cluster --name={cluster} --yes"); empty where an edit takes
  /// effect by itself (a static pod manifest).
  sourced<std::vector<std::string>> apply_control_plane;
  /// The commands of the distribution's tool that roll the nodes (node_roll::cluster_tool).
  sourced<std::vector<std::string>> nodes_command;
  /// Where a cluster spec names the cluster's network and its subnets, for a
  /// replacement's spec (kops: spec.networkCIDR, spec.subnets); empty where none.
  sourced<std::vector<std::string>> network_fields;
  /// The provider picks an IPv6 cluster's service range and pod addresses
  /// itself: the plan's IPv6 ranges for it only stand in until they are read back.
  sourced<bool> assigns_ipv6;

  /// Returns where `setting` of `target` is set, or nullptr when the profile does not say.
  auto place(component target, std::string_view setting) const -> const setting_place*;
  /// An edit of the control-plane configuration takes effect only when applied
  /// by the apply_control_plane commands (kops), not by itself.
  auto applies_separately() const -> bool { return apply_control_plane.known && !apply_control_plane.value.empty(); }
  /// Step s edits the control-plane configuration where it applies separately:
  /// a flag, gate or group version the profile places there, an edit of that
  /// store, or SANs listed in the cluster spec. Such edits wait for an
  /// apply_configuration step (config-apply-separate).
  auto edit_waits_for_apply(const step_action& s) const -> bool;
};

/// Where a CNI's IPAM mode takes pod addresses from.
enum class address_source : std::uint8_t {
  node_pod_cidr,  ///< each Node's spec.podCIDRs, cut by kube-controller-manager from --cluster-cidr
  cni_pool,       ///< the CNI's own pools
  network,        ///< the provider network's subnets (VPC CNI, Cilium ENI)
  external,       ///< a per-node pool written from outside the IPAM (Cilium CRD-backed): no operation moves it
  unknown,
};

/// The resource that holds a CNI's pool of pod addresses.
enum class pool_kind : std::uint8_t {
  none,                 ///< no pool of its own (node podCIDRs or the network)
  calico_ippool,        ///< Calico IPPool (projectcalico.org/v3)
  cilium_cluster_pool,  ///< Cilium cluster-pool: the operator's CIDR list (Helm ipam.operator.clusterPoolIPv4PodCIDRList)
  cilium_pod_ip_pool,   ///< Cilium multi-pool: CiliumPodIPPool objects (cilium.io/v2alpha1)
  flannel_network,      ///< flannel's net-conf.json Network, which must hold every node's podCIDR
};

/// How nodes pick up a new pod range.
enum class range_pickup : std::uint8_t {
  restart_pods,      ///< pods restarted anywhere take addresses of the new pool (Calico IPAM)
  roll_nodes,        ///< a node takes blocks when it starts, so nodes are replaced (Cilium)
  reregister_nodes,  ///< a Node's podCIDR is set once, so nodes register anew (kube-controller-manager IPAM)
  new_node_pools,    ///< new node groups in the new subnets (VPC CNI custom networking)
  unknown,
};

/// The profile of one IPAM mode of a CNI.
struct ipam_profile {
  sourced<address_source> addresses;
  sourced<pool_kind> pool;
  sourced<std::string> pool_api;  ///< the pool resource's apiVersion, where it is an object
  sourced<object_tool> pool_tool;
  /// Fields a new pool copies from the pool it replaces (Calico: ipipMode, vxlanMode, natOutgoing).
  sourced<std::vector<std::string>> pool_copies;
  sourced<range_pickup> pickup;
  /// Components to restart after a pool changes and before nodes are drained (Cilium's operator).
  sourced<std::vector<component>> restart_first;
  /// kube-proxy's clusterCIDR must hold the pool (Calico: migrate-pools).
  sourced<bool> kube_proxy_holds_pool;
  /// Where the CNI's own configuration names the pod range, if it does (flannel's net-conf.json Network).
  sourced<std::string> range_field;
  /// The object or file holding the CNI's configuration, for people ("ConfigMap kube-system/kube-flannel-cfg,
  /// key net-conf.json", "the cilium Helm chart's values").
  sourced<std::string> config_where;
};

/// Which ServiceCIDR API a Kubernetes minor serves.
enum class service_cidr_stage : std::uint8_t { none, alpha, beta, ga };

/// The profile of a range of Kubernetes minors.
struct kubernetes_profile {
  kube_version from;
  std::optional<kube_version> to;  ///< nullopt: no end
  sourced<service_cidr_stage> service_cidr;
  sourced<std::string> service_cidr_api;  ///< "networking.k8s.io/v1beta1"; empty at stage none
  /// The components that need MultiCIDRServiceAllocator turned on (empty: on by default, or no API).
  sourced<std::vector<component>> service_cidr_gate;
  sourced<bool> runtime_config;  ///< kube-apiserver needs --runtime-config for the group version
  /// DisableAllocatorDualWrite: "off" (alpha or beta: an optional step), "on" (default), "none" (no gate).
  sourced<std::string> dual_write_gate;
  sourced<std::string> service_ips_field;  ///< "clusterIPs" from 1.20, "clusterIP" before
};

/// What the catalog knows of one cluster: its distribution's, its IPAM mode's
/// and its Kubernetes minor's profiles, each nullptr where the catalog has
/// none (an unknown distribution, CNI or version). `minor` is the cluster's.
struct cluster_profile {
  const distribution_profile* distribution = nullptr;
  const ipam_profile* ipam = nullptr;
  const kubernetes_profile* kubernetes = nullptr;
  std::optional<kube_version> minor;

  /// Returns the versioned value for this cluster's minor, or nullptr (no minor, or no entry holds it).
  auto at_minor(const std::vector<versioned>& values) const -> const versioned*;
};

// --- inline definitions --------------------------------------------------------

inline auto distribution_profile::place(component target, std::string_view setting) const -> const setting_place* {
  for (const auto& p : settings) {
    if (p.target == target && p.setting == setting) return &p;
  }
  return nullptr;
}

inline auto distribution_profile::edit_waits_for_apply(const step_action& s) const -> bool {
  if (!applies_separately()) return false;
  auto placed = [&](component target, std::string_view setting) {
    const auto* p = place(target, setting);
    return p != nullptr && p->store == config_store::control_plane;
  };
  if (const auto* f = std::get_if<set_flag>(&s)) return placed(f->target, f->flag);
  if (const auto* g = std::get_if<set_feature_gate>(&s)) {
    for (auto target : g->targets) {
      if (placed(target, "--feature-gates")) return true;
    }
    return false;
  }
  if (std::holds_alternative<enable_api>(s)) return placed(component::kube_apiserver, "--runtime-config");
  if (const auto* e = std::get_if<edit_field>(&s)) return e->store == config_store::control_plane;
  if (std::holds_alternative<reissue_certificate>(s)) return sans.known && sans.value == san_method::spec_field;
  return false;
}

inline auto cluster_profile::at_minor(const std::vector<versioned>& values) const -> const versioned* {
  if (!minor) return nullptr;
  for (const auto& v : values) {
    if ((!v.from || *v.from <= *minor) && (!v.to || *minor <= *v.to)) return &v;
  }
  return nullptr;
}

}  // namespace cidrcheck
