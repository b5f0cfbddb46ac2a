#pragma once
// The simulator's model of the clusters and networks one runbook touches: what
// a migration changes (flags, feature gates, Node podCIDRs, ServiceCIDRs,
// Services, the certificate, DNS, pods and what they captured at start, pools,
// routes per connection) and nothing else. simulator.cpp builds it from the
// fleet and the cluster's profile, simulator_steps.cpp executes steps on it
// (the rules), simulator_checks.cpp checks it (the invariants).

#include <cidrcheck/address.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/profile.hpp>
#include <cidrcheck/fleet/runbook_step.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck::detail::sim {

// The settings the rules read, as steps name them (the component's own flag or
// field; fleet/profile.hpp says where each is written for a distribution).
inline constexpr std::string_view service_range_flag = "--service-cluster-ip-range";
inline constexpr std::string_view cluster_cidr_flag = "--cluster-cidr";
inline constexpr std::string_view allocate_node_cidrs_flag = "--allocate-node-cidrs";
inline constexpr std::string_view cluster_dns_field = "clusterDNS";
inline constexpr std::string_view proxy_cluster_cidr_field = "clusterCIDR";
inline constexpr std::string_view service_cidr_gate = "MultiCIDRServiceAllocator";
inline constexpr std::string_view default_service_cidr = "kubernetes";
inline constexpr std::string_view listed_pool = "listed";  // the pools of a CNI configuration's range list
// VPC CNI custom networking: the agent's switch (an environment variable of its
// DaemonSet) and the object naming each zone's pod subnet (eks-custom-cfg).
inline constexpr std::string_view custom_network_variable = "AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG";
inline constexpr std::string_view eniconfig_kind = "ENIConfig";

/// A component's settings: what runs, and what was written for its next start.
struct component_state {
  std::vector<std::pair<std::string, setting_value>> running, written;
  std::vector<std::string> gates_on;     // feature gates on at the last start
  std::vector<std::string> gates_written;
  std::vector<std::string> apis;         // --runtime-config group versions served
  std::vector<std::string> apis_written;
  bool up = true;
  std::string why_down;  // set when !up
  std::optional<simulation_rule> down_rule;

  auto get(std::string_view name) const -> const setting_value*;
  auto get_written(std::string_view name) const -> const setting_value*;
  auto gate(std::string_view name) const -> bool;
  auto serves(std::string_view group_version) const -> bool;
  void write(std::string_view name, setting_value value);
  /// Writes a setting and makes the written settings run, with no restart:
  /// how a cluster starts, and what a provider changes on its own control plane.
  void set_running(std::string_view name, setting_value value);
  /// Makes what was written run (a restart reads its configuration).
  void restart();
};

/// The encapsulation of a Calico-style pool, weakest first.
enum class encapsulation : std::uint8_t { never, cross_subnet, always };

/// A pool pods take addresses from: a Calico IPPool, a Cilium pool, or the
/// node IPAM range (--cluster-cidr) where nodes carry podCIDRs.
struct pool {
  std::string name;
  prefix cidr;
  encapsulation ipip = encapsulation::never, vxlan = encapsulation::never;
  bool nat_outgoing = false;
  bool disabled = false;
  /// A VPC block for pods under custom networking: it hands out addresses only
  /// through the ENIConfig subnets created in it (eks-custom-cfg).
  bool by_eniconfig = false;
};

struct service_cidr_object {
  std::string name;
  std::vector<prefix> cidrs;
  bool finalizer = false;
  bool deleting = false;
};

enum class service_kind : std::uint8_t { cluster_ip, load_balancer, headless, kubernetes, dns };

struct service {
  std::string namespace_name, name;
  service_kind kind = service_kind::cluster_ip;
  std::vector<address> ips;  // empty for a headless Service
};

struct node {
  std::string name;
  bool control_plane = false;
  int subnet = 0;            // nodes in different subnets need encapsulation or routed pod addresses
  bool registered = true;    // the Node object exists
  bool kubelet = true;
  bool cordoned = false;
  bool marked = true;        // a control-plane node's label and NoSchedule taint
  std::vector<prefix> pod_cidrs;           // the Node object's (kube-controller-manager's)
  std::vector<prefix> cni_cidrs;           // the CNI's own per-node blocks (a CiliumNode's), where it has them
  std::optional<prefix> network_pod_cidr;  // flanneld's Network as this node's agent read it
  /// Custom networking was on when the node started (eks-custom-cfg): its pods take
  /// addresses from its zone's ENIConfig subnet, `eni_subnet`, none without one.
  bool custom_networking = false;
  std::optional<prefix> eni_subnet;
};

/// A pod, with what it captured when it started.
struct pod {
  std::string workload;  // "app", "coredns"
  std::size_t node = 0;
  std::optional<address> ip;       // nullopt: no address (not running)
  std::optional<address> api_host; // KUBERNETES_SERVICE_HOST
  std::optional<address> nameserver;
  std::string pool;                // the pool its address came from (empty: a node podCIDR)
};

/// What the operator's pod-space setup is: where pod addresses come from.
enum class pod_addresses : std::uint8_t { node_pod_cidr, pools, network };

/// One cluster of the runbook, with the fleet facts it started from.
struct cluster_world {
  std::uint32_t owner = 0;
  std::string name;  // the owner's, as written
  std::vector<prefix> retired;  // the cluster's ranges the plan gives up (what an unnamed old pool holds)
  std::vector<prefix> attached;  // pod ranges that stay the cluster's with no node numbered from them (a GKE range withdrawn)
  bool provider_control_plane = false;   // the provider runs the control plane: no flag is the operator's
  pod_addresses addresses = pod_addresses::node_pod_cidr;
  bool servicecidr_kind = false;         // the Kubernetes version has a ServiceCIDR kind at all
  bool servicecidr_default_on = false;   // MultiCIDRServiceAllocator is on by default (GA)
  std::string servicecidr_api;           // the group version that serves it at this minor
  bool flannel = false;                  // flanneld reads its Network (range_field) at start
  /// Nodes take their pod blocks from the CNI operator's pools when they start
  /// (Cilium: a CiliumNode's CIDRs), not from kube-controller-manager.
  bool node_blocks_from_pools = false;
  std::string range_field;               // the CNI configuration field naming the pod range (the IPAM profile's)
  bool calico_api_server = false;        // kubectl serves the pools' API (the profile's pool tool is kubectl)
  std::string pool_api;                  // the apiVersion of the pool objects (the IPAM profile's)
  bool kube_proxy_holds_pool = false;    // kube-proxy's clusterCIDR must hold the pools (the IPAM profile's)
  bool pods_move_at_restart = false;     // a restarted pod takes an address of any enabled pool (pickup restart-pods)
  bool sans_from_spec = false;           // a control-plane roll reissues the certificate from the spec
  bool kubelet_in_server = false;        // a server's kubelet and API server are one process (kubelet_in_server)
  bool dns_by_distribution = false;      // the distribution renders kube-dns from its settings (dns_addon_rerender)
  /// The distribution's profile, where the catalog has one: it says which
  /// edits wait for an apply_configuration step (config-apply-separate).
  const distribution_profile* distribution = nullptr;
  bool unapplied = false;                // such edits written since the last apply (configuration_applied)

  component_state apiserver, controller_manager, kubelet, kube_proxy, cni_agent;
  /// The state of a component the model runs with flags; null for the others
  /// (cluster DNS, the CNI's operator, etcd).
  auto state_of(component target) -> component_state*;
  auto state_of(component target) const -> const component_state*;
  std::vector<node> nodes;
  std::vector<pod> pods;
  std::vector<service> services;
  std::vector<service_cidr_object> service_cidrs;
  std::vector<pool> pools;
  std::vector<pool> operator_pools;      // the pools as the CNI operator read them at its last start
  std::vector<address> certificate;      // the served certificate's service addresses
  std::vector<address> extra_sans;       // configured extra SANs
  bool coredns_scaled = false;
  /// VPC CNI custom networking (eks-custom-cfg): the switch as written for the
  /// agents that start next, the pod subnets created in pod blocks (one per zone,
  /// in order) and the ENIConfigs applied. The model's zones are its node subnets:
  /// the k-th ENIConfig is the k-th zone's and names the k-th pod subnet.
  bool custom_networking_written = false;
  std::vector<prefix> pod_subnets;
  std::vector<std::string> eniconfigs;
  bool dns_at_start = false;  // CoreDNS ran when the runbook began: the dns check holds it to that
  /// The DNS address kubelets handed out at the start where no Service could
  /// answer (outside the service ranges, dns-outside-service-range): pods were
  /// without DNS already, so its silence is no loss.
  std::optional<address> dead_dns;
  /// Where the profile says each setting is stored (kubeadm's ClusterConfiguration
  /// beside the static pod flag): what the next upgrade renders the component from.
  struct place {
    component target = component::kube_apiserver;
    std::string setting;
    config_store store = config_store::control_plane;
    std::string field;
  };
  std::vector<place> places;
  /// A field of a stored configuration as the runbook left it.
  struct stored_field {
    config_store store = config_store::control_plane;
    std::string field;
    setting_value value;
  };
  std::vector<stored_field> stored;
  config_store sans_store = config_store::control_plane;  // where the extra SANs are configured
  std::string sans_field;
  std::uint64_t next_address = 1;  // allocation cursor: every address handed out is distinct
  bool default_removed = false;    // the default ServiceCIDR went without its finalizer (servicecidr_finalizer)
  bool default_recreated = false;  // and kube-apiserver recreated it from its flag (servicecidr_recreated)
  /// The network between subnets does not route pod addresses, so pods talk
  /// across subnets only encapsulated: the old pool used encapsulation (calico-encap-needed).
  bool cross_subnet_needs_encapsulation = false;
  /// A replacement cluster built beside this one (change_resource cluster create),
  /// numbered as planned; it takes this one's place when this one is removed.
  std::shared_ptr<cluster_world> replacement;
};

/// A connection (or a declared route's network) and the prefixes it carries toward the runbook's owners.
struct carried_routes {
  std::string name;                         // how messages name it: "connection vpn (a, office)"
  std::optional<std::uint32_t> connection;  // index into fleet::connections
  std::optional<std::uint32_t> route;       // index into fleet::routes
  std::uint32_t owner = 0;                  // the owner whose addresses it carries
  role_set roles = role_set::none();
  std::vector<prefix> prefixes;
};

/// An owner's network ranges in use (its VPC, subnets, a network owner's space).
struct network_world {
  std::uint32_t owner = 0;
  std::vector<prefix> in_use;
};

/// Everything one runbook touches.
struct world {
  std::vector<cluster_world> clusters;
  std::vector<network_world> networks;
  std::vector<carried_routes> routes;
  std::vector<simulation_failure> failures;

  /// Builds the model of owner's cluster as the planned fleet has it (a replacement).
  std::function<cluster_world(std::uint32_t owner)> replacement_of;
  /// Builds the model of owner's cluster as created with `ranges` for `role`
  /// (a range the plan creates at a requested size), the rest as it was.
  std::function<cluster_world(std::uint32_t owner, range_role role, const std::vector<prefix>& ranges)> created_with;

  auto cluster_of(std::uint32_t owner) -> cluster_world*;
  auto cluster_of_const(std::uint32_t owner) const -> const cluster_world*;
};

/// Reports whether any prefix of `ranges` holds a.
auto inside(const std::vector<prefix>& ranges, const address& a) -> bool;

/// The owner's ranges of a role that have an address (not only a size), in fleet f.
auto plain_ranges(const fleet& f, const owner& o, range_role role) -> std::vector<prefix>;

/// The ranges (addresses) a setting holds, or empty when it holds none.
auto ranges_of(const setting_value* value) -> std::vector<prefix>;
auto addresses_of(const setting_value* value) -> std::vector<address>;

}  // namespace cidrcheck::detail::sim

namespace cidrcheck::detail::sim {

/// Records a failure unless one of the same check and rule is already recorded
/// at an earlier step (what follows from a failure is not repeated; a later
/// one recorded first, as the fleet check records them, gives way).
void fail(std::vector<simulation_failure>& failures, std::size_t step, simulation_check check,
          std::optional<simulation_rule> rule, std::string message);
void fail(world& w, std::size_t step, simulation_check check, std::optional<simulation_rule> rule,
          std::string message);

/// Lets the controllers reach their steady state after a change: kube-apiserver's
/// default-ServiceCIDR controller, kube-controller-manager's service-cidr-controller.
void settle(cluster_world& c);

/// Executes one step on the world (the rules of simulator_steps.cpp); what the
/// step cannot do, or what it breaks at once, is recorded as a failure. Returns
/// false when the step has no machine meaning (manual, find out) and was skipped.
auto execute(world& w, const fleet& planned, std::size_t index, const runbook_step& step) -> bool;

/// Reports whether kube-controller-manager hands out node podCIDRs (node IPAM on).
auto node_ipam_on(const cluster_world& c) -> bool;

/// Starts pod p (again) on a node that can run it: a new address, and the
/// kubernetes.default and DNS addresses of now captured; no address when no
/// node can run it or none has one to give.
void start_pod(cluster_world& c, pod& p);

/// Gives a registering node a podCIDR from --cluster-cidr while node IPAM runs,
/// and lets its CNI agent read its configuration as it is written.
void assign_pod_cidr(cluster_world& c, node& n);

/// Reports whether pod p runs (has an address).
auto running(const pod& p) -> bool;

/// Something a workload reached before the runbook: the API server through its
/// KUBERNETES_SERVICE_HOST, a Service, its peers in other subnets, or clients
/// across a connection.
struct reach_target {
  std::size_t cluster = 0;  // index into world::clusters
  enum class kind : std::uint8_t { api, service, peers, carried } what = kind::api;
  std::string namespace_name, name;  // of a Service
  std::size_t route = 0;             // index into world::routes
};

/// What the workloads of the world reach now (of what they could reach): the
/// baseline each step is held to.
auto reach_baseline(const world& w) -> std::vector<reach_target>;

/// The checks after a step: control plane, reachability (against baseline),
/// certificate and DNS; failures recorded in w, but for reachability and DNS while
/// `interrupted` (a step that interrupts by design ran and not all came back).
/// Returns whether every target of the baseline is reached.
auto check_state(world& w, std::size_t step, const std::vector<reach_target>& baseline, bool interrupted) -> bool;

/// The step's own checks (runbook_step::checks), evaluated on the world.
void check_step(world& w, std::size_t step, const runbook_step& s);

/// One owner as the fleet sees it at a moment: its ranges in use, by role, and DNS address.
struct owner_projection {
  std::uint32_t owner = 0;
  std::vector<std::pair<range_role, prefix>> ranges;  // sorted
  std::optional<address> dns;
  friend auto operator==(const owner_projection&, const owner_projection&) -> bool = default;
};

/// The owners of the world as the fleet sees them now: for each, which of its
/// ranges before and after the plan something uses.
auto project(const world& w, const fleet& original, const fleet& planned) -> std::vector<owner_projection>;

/// An owner's role that a runbook moves (index into fleet::owners).
struct moved_role {
  std::uint32_t owner = 0;
  range_role role = range_role::network;
  friend auto operator<=>(const moved_role&, const moved_role&) = default;
};

/// The end state: for the roles the runbook moves (`moved`, sorted) the
/// projection is the planned fleet's and routes carry the planned ranges only,
/// for the others the original fleet's (another runbook moves them); stored
/// configuration matches what runs, control-plane nodes keep their marks.
void check_end(world& w, std::size_t steps, const fleet& original, const fleet& planned,
               const std::vector<moved_role>& moved, const std::vector<owner_projection>& now);

/// The ranges kube-apiserver allocates cluster IPs from: the ServiceCIDRs not
/// being deleted when it serves the API, else its flag's ranges.
auto serving_ranges(const cluster_world& c) -> std::vector<std::pair<prefix, const service_cidr_object*>>;

/// Reports whether kube-apiserver serves the ServiceCIDR API.
auto serves_service_cidrs(const cluster_world& c) -> bool;

}  // namespace cidrcheck::detail::sim
