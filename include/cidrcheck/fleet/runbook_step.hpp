#pragma once
// The step model of runbooks: a runbook is a list of typed steps, each a
// value that says what changes where (which cluster, component, flag, value,
// object, nodes, route), on which facts it rests and what must hold after it.
// A machine can execute it (the migration simulator does), and one renderer
// (fleet/runbook.hpp) turns it into prose, commands and files: a file exists
// only as the rendering of the step that applies it, so a runbook cannot name
// a file no step applies, nor apply one it does not ship.
//
// Steps hold typed data only: ranges and addresses as prefix and address,
// names chosen by cidrcheck as words, names from the input as they were
// written. Quoting is the emitters' business (one per language), never the
// step's, so a name such as `a;touch X` cannot reach a shell unquoted.

#include <cidrcheck/address.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/prefix.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace cidrcheck {

/// A Kubernetes or CNI component a step configures, restarts or checks.
enum class component : std::uint8_t {
  kube_apiserver,
  kube_controller_manager,
  kubelet,
  kube_proxy,
  cluster_dns,   ///< the DNS add-on (CoreDNS behind the kube-dns Service)
  cni_agent,     ///< the CNI's per-node agent (calico-node, cilium-agent, flanneld, aws-node)
  cni_operator,  ///< the CNI's operator (cilium-operator, tigera-operator), where it has one
  etcd,
};

/// Returns the component's usual name: "kube-apiserver", "kube-controller-manager", "kubelet",
/// "kube-proxy", "cluster DNS", "CNI agent", "CNI operator", "etcd".
constexpr auto to_string(component c) noexcept -> std::string_view {
  switch (c) {
    case component::kube_apiserver: return "kube-apiserver";
    case component::kube_controller_manager: return "kube-controller-manager";
    case component::kubelet: return "kubelet";
    case component::kube_proxy: return "kube-proxy";
    case component::cluster_dns: return "cluster DNS";
    case component::cni_agent: return "CNI agent";
    case component::cni_operator: return "CNI operator";
    case component::etcd: return "etcd";
  }
  return "kube-apiserver";
}

/// A value a step sets on a flag or a configuration field: a switch, a
/// number, a word, ranges (one per IP family, or a pool list), addresses, or
/// a list of words. Strings are words cidrcheck chose or names from the input;
/// emitters quote both.
using setting_value = std::variant<bool, std::int64_t, std::string, std::vector<prefix>, std::vector<address>,
                             std::vector<std::string>>;

/// How a change reaches the members of a replicated component: one member at
/// a time (kube-apiserver behind a load balancer), or all together (values
/// every member must share, such as k3s's critical server flags).
enum class rollout : std::uint8_t { one_at_a_time, all_together };

/// Where a configuration field lives. Which stores a cluster has, and what
/// reads them, is its profile's business (fleet/profile.hpp).
enum class config_store : std::uint8_t {
  control_plane,          ///< the distribution's control-plane configuration (static pods, cluster spec, server config)
  kubeadm_configuration,  ///< kubeadm's ClusterConfiguration (ConfigMap kube-system/kubeadm-config and the --config file)
  kubelet_configuration,  ///< the KubeletConfiguration every node's kubelet reads
  kube_proxy_configuration,  ///< kube-proxy's KubeProxyConfiguration
  cni_configuration,      ///< the CNI's own configuration (Helm values, net-conf.json, the operator's Installation)
  cloud,                  ///< the provider's API for a managed cluster or a network
};

/// A configuration document as a tree: what a step applies or edits, and
/// what the emitters write (YAML for Kubernetes objects and fragments, HCL for
/// Terraform). Map keys are cidrcheck's words; scalars may come from input.
struct doc_node;
using doc_list = std::vector<doc_node>;
using doc_map = std::vector<std::pair<std::string, doc_node>>;

/// A Terraform reference (`var.vpc_id`, `aws_vpc.pods.id`): written without
/// quotes, so emitters refuse one that is not made of identifier characters,
/// dots and brackets.
struct doc_reference {
  std::string text;
  friend auto operator==(const doc_reference&, const doc_reference&) -> bool = default;
};

/// One node of a document: null, a switch, a number, a string, a reference,
/// a list or a map (keys in order). `comment` is a line written above it.
struct doc_node {
  using value_type = std::variant<std::monostate, bool, std::int64_t, std::string, doc_reference, doc_list, doc_map>;
  value_type value;
  std::string comment;

  doc_node() = default;
  /// A node holding v (a string literal is a string, an int a number), with an optional comment line.
  template <class T>
    requires std::constructible_from<value_type, T&&>
  doc_node(T&& v, std::string line = {}) : value(std::forward<T>(v)), comment(std::move(line)) {}  // NOLINT: implicit by design

  /// Returns the node at a dotted path of map keys ("spec.cidrs"), or nullptr
  /// when a key is missing or a node on the way is not a map. O(path x keys).
  auto find(std::string_view path) const -> const doc_node* {
    const doc_node* at = this;
    while (!path.empty()) {
      auto dot = path.find('.');
      auto key = path.substr(0, dot);
      path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
      const auto* map = std::get_if<doc_map>(&at->value);
      if (map == nullptr) return nullptr;
      const doc_node* next = nullptr;
      for (const auto& [k, v] : *map) {
        if (k == key) next = &v;
      }
      if (next == nullptr) return nullptr;
      at = next;
    }
    return at;
  }
};

/// A Kubernetes (or CNI) object: what `kubectl` (or the CNI's tool) applies.
/// `body` holds every top-level field but apiVersion, kind and metadata
/// (usually `spec`, or `data` for a ConfigMap).
struct kube_object {
  std::string api_version;   ///< "networking.k8s.io/v1", "projectcalico.org/v3"
  std::string kind;          ///< "ServiceCIDR", "IPPool", "Service"
  std::string namespace_name;  ///< empty for a cluster-scoped object
  std::string name;           ///< empty when the name is not known (an existing pool): see name_hint
  doc_map body;
  /// What the object is, where `name` is empty ("the pool whose cidr is 10.244.0.0/16"):
  /// the operator looks its name up.
  std::string name_hint;
};

/// The tool that manages an object kind (from the CNI's profile: a Calico
/// manifest install manages projectcalico.org/v3 with calicoctl).
enum class object_tool : std::uint8_t { kubectl, calicoctl };

/// Which nodes a node step acts on.
struct node_selection {
  enum class role : std::uint8_t { all, control_plane, workers };
  role which = role::all;
  /// Only nodes whose podCIDR lies outside these ranges (the old nodes); empty: every node of `which`.
  std::vector<prefix> pod_cidr_outside;
};

/// Which Services a recreate step acts on.
enum class service_selection : std::uint8_t {
  cluster_ip,          ///< every ClusterIP (and NodePort) Service, headless ones excepted
  load_balancer,       ///< Services of type LoadBalancer
  dns,                 ///< the cluster DNS Service (kube-dns)
  kubernetes_default,  ///< the `kubernetes` Service in `default`, which kube-apiserver recreates itself
  /// dual-stack Services whose secondary address lies in the moved range: a new
  /// one by setting ipFamilyPolicy to SingleStack and back; the primary address stays
  dual_stack_secondary,
};

/// Which workloads a restart step acts on.
enum class workload_selection : std::uint8_t {
  all_pods,        ///< every pod (Deployments, StatefulSets, DaemonSets rolled; bare pods deleted)
  pods_in_ranges,  ///< pods with an address in the step's ranges
  component,       ///< the pods of one component (the step's component)
  scale_up,        ///< no restart: only scale_up_first's Deployments scaled up, until the migration ends
};

/// What a provider-side (cloud or on-premises) change acts on.
enum class resource_kind : std::uint8_t {
  network,         ///< a VPC, VPC network, virtual network or on-premises subnet
  secondary_range, ///< a secondary CIDR block of a VPC, a subnet's secondary range, a VNet address space entry
  subnets,         ///< subnets inside a network or range (one per zone)
  peering,         ///< a peering (or routes) between two networks
  pod_range,       ///< a managed cluster's pod range (an additional GKE range, AKS Overlay's pod CIDR)
  node_pool,       ///< a node group or node pool
  cluster,         ///< a whole cluster (a replacement)
};

/// What a provider-side change does to its resource.
enum class resource_action : std::uint8_t { create, expand, associate, disassociate, remove };

/// What a check looks at. Each has one command (the renderer's), so a check
/// says what to look at and what must be seen, never how.
enum class observable : std::uint8_t {
  pod_addresses,          ///< the addresses of running pods
  service_cluster_ips,    ///< every Service's spec.clusterIPs
  ip_address_objects,     ///< IPAddress objects (ServiceCIDR API)
  service_cidr,           ///< a ServiceCIDR object (by name): its cidrs, Ready condition, or absence
  kubernetes_service_ip,  ///< the `kubernetes` Service's cluster IP
  dns_service_ip,         ///< the cluster DNS Service's cluster IP
  node_pod_cidrs,         ///< every Node's spec.podCIDRs
  node_addresses,         ///< every Node's InternalIP
  certificate_sans,       ///< the API server certificate's subject alternative names
  api_resources,          ///< the kinds the API server serves (by name: "servicecidrs")
  ip_pools,               ///< the CNI's pools (by name, or all): cidrs, disabled, encapsulation
  pool_expansion,         ///< a managed pod range as nodes see it (AKS NodeNetworkConfig)
  network_interfaces,     ///< a provider network's interfaces (what still holds addresses in it)
  routes,                 ///< the routes a connection carries
};

/// What a check must see.
enum class expectation : std::uint8_t {
  none_in,   ///< no value lies in `ranges`
  all_in,    ///< every value lies in `ranges`
  includes,  ///< the values include every one of `addresses` (or `ranges`)
  equals,    ///< the value is exactly `addresses` (or `ranges`)
  ready,     ///< the named object exists and is ready
  absent,    ///< the named object (or value) is gone
};

/// A check after a step: look at something and see something.
struct step_check {
  observable what = observable::pod_addresses;
  expectation must = expectation::none_in;
  std::vector<prefix> ranges;
  std::vector<address> addresses;
  std::string name;  ///< the object or resource looked at, where `what` needs one
};

// --- the kinds of step ------------------------------------------------------

/// Runs `component` with `flag` set to `value` ("--service-cluster-ip-range",
/// "--cluster-cidr"), through the cluster's control-plane configuration (the
/// profile says where: a static pod manifest, a kops spec field, a k3s server
/// flag); each member restarts to read it, as `rollout` says.
struct set_flag {
  component target = component::kube_apiserver;
  std::string flag;
  setting_value value;
  rollout order = rollout::one_at_a_time;
};

/// Turns a feature gate on or off on each of `targets` (--feature-gates).
struct set_feature_gate {
  std::vector<component> targets;
  std::string gate;  ///< "MultiCIDRServiceAllocator"
  bool enabled = true;
  rollout order = rollout::one_at_a_time;
};

/// Makes kube-apiserver serve an API group version that is off by default (--runtime-config).
struct enable_api {
  std::string group_version;  ///< "networking.k8s.io/v1beta1"
  rollout order = rollout::one_at_a_time;
};

/// Sets (or adds to, or removes from, for a list) one field of a stored
/// configuration; `path` is dotted ("networking.serviceSubnet",
/// "apiServer.certSANs", "clusterDNS"). What reads the store, and when, is the
/// profile's: kubeadm's configuration at the next upgrade, the kubelet's at
/// its restart.
struct edit_field {
  config_store store = config_store::control_plane;
  std::string path;
  setting_value value;
  enum class mode : std::uint8_t { set, add, remove } how = mode::set;
};

/// Applies the edits made to a configuration that takes effect only when
/// applied: the profile's apply commands (distribution_profile::
/// applies_separately: kops updates the cluster and rolls its instance groups),
/// after which each component that reads the store restarts. The runbook
/// builder puts one after each run of such edits, so edits in a row share one
/// roll, and a runbook that edits without applying fails the simulation.
struct apply_configuration {
  config_store store = config_store::control_plane;
};

/// Creates (or applies, or patches) an object with `tool`. The renderer
/// writes it as the step's file.
struct apply_object {
  kube_object object;
  object_tool tool = object_tool::kubectl;
  enum class mode : std::uint8_t { create, apply, patch } how = mode::apply;
};

/// Deletes an object; `wait` false leaves it terminating (a ServiceCIDR
/// marked for deletion stays while Services use it).
struct delete_object {
  std::string api_version, kind, namespace_name, name;
  object_tool tool = object_tool::kubectl;
  bool wait = true;
  std::string name_hint;  ///< what the object is, where `name` is empty (see kube_object::name_hint)
};

/// Deletes and recreates the selected Services (a cluster IP cannot change)
/// so that they take addresses in `into`; `cluster_ip` pins the new address
/// where one is required (the cluster DNS address). `count` is how many the
/// fleet says there are, when it knows.
struct recreate_services {
  service_selection which = service_selection::cluster_ip;
  std::vector<prefix> into;
  std::optional<address> cluster_ip;
  std::optional<std::uint64_t> count;
};

/// Reissues kube-apiserver's serving certificate so that its subject
/// alternative names include `sans` (and no longer `drop`); how is the
/// profile's (kubeadm's certs phase, kops' additionalSans, k3s's --tls-san).
struct reissue_certificate {
  std::vector<address> sans;
  std::vector<address> drop;
};

/// Cordons and drains the selected nodes.
struct drain_nodes {
  node_selection nodes;
};

/// Stops the selected nodes' kubelets and deletes their Node objects (a
/// Node's podCIDR can only be set again by registering anew).
struct remove_nodes {
  node_selection nodes;
  /// Deletes the Node objects only: the kubelets keep running (and a server's
  /// control plane with them) and register their nodes again when they next
  /// restart, as a running kubelet registers only once (kubelet-register-once).
  bool keep_kubelets = false;
};

/// Starts the selected nodes' kubelets (or new nodes), which register and
/// take new podCIDRs; `restore_control_plane` re-applies what re-registration
/// loses on control-plane nodes (the profile names the label and taint).
struct register_nodes {
  node_selection nodes;
  bool restore_control_plane = false;
};

/// Replaces or restarts the selected nodes in turn, as the profile's node
/// roll says (kops rolling-update, new node pools, node by node).
struct roll_nodes {
  node_selection nodes;
};

/// Restarts the selected workloads, a few at a time; `scale_up_first` names
/// Deployments (namespace/name) to scale up before, so that they keep serving
/// (the kops story's CoreDNS and its webhook).
struct restart_workloads {
  workload_selection which = workload_selection::all_pods;
  std::vector<prefix> ranges;  ///< for pods_in_ranges
  component target = component::cni_agent;  ///< for component
  std::vector<std::string> scale_up_first;
};

/// Adds route `cidr` to a connection (or a declared route's network) beside
/// the one it replaces, before anything runs in `cidr`.
struct advertise_route {
  prefix cidr;
  std::optional<prefix> beside;
  std::optional<std::uint32_t> connection;  ///< index into fleet::connections
  std::optional<std::uint32_t> route;       ///< index into fleet::routes (a declared route)
};

/// Withdraws route `cidr` from a connection (or a declared route's network),
/// once nothing uses it.
struct withdraw_route {
  prefix cidr;
  std::optional<std::uint32_t> connection;
  std::optional<std::uint32_t> route;
};

/// A provider-side change: a network, range, subnets, peering, pod range,
/// node pool or cluster created, expanded, associated, disassociated or
/// removed, with the ranges it concerns. The renderer writes the provider's
/// command or Terraform from the cluster's profile (its cloud).
struct change_resource {
  resource_kind what = resource_kind::network;
  resource_action action = resource_action::create;
  std::vector<prefix> ranges;
  /// The other owner a peering or replacement concerns (index into fleet::owners).
  std::optional<std::uint32_t> other;
  /// What `ranges` are to the cluster, where a cluster is created with them.
  std::optional<range_role> role;
};

/// Takes a backup (etcd and the control-plane configuration) before a change
/// that cannot be undone step by step.
struct take_backup {};

/// A step made of its checks only: look, and go on only if they hold.
struct verify {};

/// Something no source tells cidrcheck for this cluster (a profile field is
/// unknown): the step says what to find out, `field` names it, and the
/// runbook goes on only once the operator knows.
struct find_out {
  std::string field;     ///< the profile field: "control_plane.service_range"
  std::string question;  ///< what to find out, in a sentence
};

/// A human action with no machine meaning beyond its states (move traffic
/// service by service; renumber the hosts of an office group by group).
struct manual {
  std::string what;
};

/// What a step does: one of the kinds above.
using step_action = std::variant<set_flag, set_feature_gate, enable_api, edit_field, apply_configuration, apply_object, delete_object,
                                 recreate_services, reissue_certificate, drain_nodes, remove_nodes, register_nodes,
                                 roll_nodes, restart_workloads, advertise_route, withdraw_route, change_resource,
                                 take_backup, verify, find_out, manual>;

/// One step of a runbook.
///
/// `owner` is the cluster or network it acts on (index into the planned
/// fleet's owners). `facts` are ids of docs/migration-facts.md rows the step
/// rests on (migration_fact_by_id resolves them). `needs` and `makes` name
/// states of the migration ("new-range-served", "old-range-unused"): a step
/// needs only states an earlier step of the same runbook makes. `checks` must
/// hold once the step is done. `why` is the reason in a clause, for people;
/// it explains, it does not restate a fact.
struct runbook_step {
  std::uint32_t owner = 0;
  step_action action;
  std::vector<std::string> facts;
  std::vector<std::string> needs, makes;
  std::vector<step_check> checks;
  std::string why;
};

/// A runbook: the typed steps of one operation of a plan (or of one change
/// outside any operation), in order.
struct runbook {
  std::string kind;                   ///< the catalog's operation kind, or "dns-address", "new-range"
  std::vector<std::uint32_t> owners;  ///< indexes into fleet::owners
  /// For a change outside any operation: the role it creates or puts the DNS
  /// address back into (an operation's kind says what it moves).
  std::optional<range_role> role;
  std::vector<runbook_step> steps;
};

}  // namespace cidrcheck
