#pragma once
// The migration simulator: every runbook of a plan is executed step by step
// against a model of the clusters and networks it touches, with upstream
// behaviour as rules (each resting on a fact of docs/migration-facts.md), and
// after every step the simulator checks that the control plane runs, every
// workload still reaches what it reached, every address in use is in the API
// server's certificate, DNS resolves, and the fleet at that moment has no error
// the plan did not start with (check() on the intermediate fleet); at the end,
// that the state is the planned fleet. A runbook that fails is refused with the
// step, the check and the rule that made it fail.
//
// The model (lib/cidrcheck/fleet/simulator_world.hpp) is small on purpose: two
// control-plane members and two workers in two subnets per cluster, a few
// Services and workloads, the pools, flags and objects a migration changes.
// Where upstream leaves a choice (which serving ServiceCIDR a new Service's
// address comes from), the simulator takes the one that breaks the runbook.

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/runbook_step.hpp>
#include <cidrcheck/fleet/triage.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// An upstream behaviour the simulator models. Each rests on one fact of
/// docs/migration-facts.md (simulation_rule_info::fact), which says where it
/// comes from; a failure names the rule that made the runbook fail.
enum class simulation_rule : std::uint8_t {
  servicecidr_kind,            ///< no ServiceCIDR kind before 1.29
  servicecidr_served,          ///< the ServiceCIDR API is served only with its gate and group version on
  servicecidr_finalizer,       ///< only kube-controller-manager's controller, gate on, adds and removes the finalizer
  servicecidr_recreated,       ///< a deleted default ServiceCIDR without the finalizer is recreated from the flag
  servicecidr_terminating,     ///< a ServiceCIDR being deleted allocates nothing and stays while addresses need it
  servicecidr_immutable,       ///< a ServiceCIDR's cidrs cannot change
  clusterip_immutable,         ///< a Service's cluster IP cannot change; a requested one must lie in a serving range
  clusterip_allocation,        ///< a new Service takes an address from a serving range, any of them
  kubernetes_service_sticky,   ///< kubernetes.default is recreated at the flag's first address only when deleted
  service_range_flag,          ///< --service-cluster-ip-range: at most two CIDRs, one per family
  pod_environment,             ///< a container keeps KUBERNETES_SERVICE_HOST from its start
  pod_nameserver,              ///< a pod keeps its DNS address from its start
  certificate_sans,            ///< the API server certificate names what it was issued for, nothing else
  kcm_refuses,                 ///< kube-controller-manager does not start while a Node's podCIDR lies outside --cluster-cidr
  cluster_cidr_flag,           ///< --cluster-cidr: one CIDR per family
  node_podcidr_immutable,      ///< a Node's podCIDR is set once; a new one only by registering anew
  node_ipam_allocates,         ///< a registering Node takes a podCIDR from --cluster-cidr, only while node IPAM runs
  flannel_network,             ///< flanneld refuses a podCIDR outside Network and reads Network at start
  control_plane_reregister,    ///< a re-registered control-plane node loses its label and NoSchedule taint
  pool_disabled,               ///< a disabled pool hands out no addresses; its pods keep theirs
  pool_encapsulation,          ///< pods of a pool without the old encapsulation lose cross-subnet traffic
  pool_apply_replaces,         ///< applying a pool replaces every field, so a short manifest resets the rest
  pool_in_use,                 ///< deleting a pool breaks the pods still numbered from it
  kube_proxy_cluster_cidr,     ///< kube-proxy's clusterCIDR ends holding every pool in use
  calico_tool,                 ///< projectcalico.org/v3 needs calicoctl (or the API server), never crd.projectcalico.org
  scale_before_roll,           ///< CoreDNS (and webhooks) scaled up before pods move between pools
  route_carries,               ///< clients across a connection reach only addresses its routes carry
  upgrade_reverts,             ///< a flag changed only on the running component comes back at the next upgrade
  kubelet_in_server,           ///< where one process runs both, stopping a server's kubelet stops its API server
  dns_addon_rerender,          ///< a distribution that owns kube-dns re-applies it at the address its configuration names
  operator_reads_pools,        ///< a CNI operator hands out node blocks from the pools it read when it started
  custom_networking,           ///< with VPC CNI custom networking, a node started since takes pod addresses from its ENIConfig's subnet
  configuration_applied,       ///< an edit of a separately applied configuration (a kops spec) runs only once applied
  pod_range_superset,          ///< a pod range expanded in place must contain the whole old one
};

/// A rule's name (kebab-case, stable), the fact id it rests on and what it says.
struct simulation_rule_info {
  simulation_rule value;
  std::string_view name;
  std::string_view fact;
  std::string_view summary;
};

inline constexpr std::array<simulation_rule_info, 34> simulation_rule_table_data{{
    {simulation_rule::servicecidr_kind, "servicecidr-kind", "svc-api-1.27-1.28",
     "Kubernetes before 1.29 has no ServiceCIDR kind: applying one fails"},
    {simulation_rule::servicecidr_served, "servicecidr-served", "svc-alpha-1.29",
     "kube-apiserver serves ServiceCIDRs only with MultiCIDRServiceAllocator on and, before GA, the group version "
     "enabled with --runtime-config"},
    {simulation_rule::servicecidr_finalizer, "servicecidr-finalizer", "svc-finalizer-owner",
     "only kube-controller-manager's service-cidr-controller, which runs with the gate on in kube-controller-manager, "
     "adds and removes the ServiceCIDR finalizer"},
    {simulation_rule::servicecidr_recreated, "servicecidr-recreated", "svc-no-finalizer-recreated",
     "a deleted default ServiceCIDR without the finalizer vanishes, and kube-apiserver recreates it from its current "
     "--service-cluster-ip-range"},
    {simulation_rule::servicecidr_terminating, "servicecidr-terminating", "svc-finalizer",
     "a ServiceCIDR being deleted hands out no addresses and stays until no IPAddress needs it"},
    {simulation_rule::servicecidr_immutable, "servicecidr-immutable", "svc-fields",
     "a ServiceCIDR's spec.cidrs cannot be changed after creation"},
    {simulation_rule::clusterip_immutable, "clusterip-immutable", "svc-clusterip-immutable",
     "a Service's cluster IP cannot change, and a requested one must lie in a range kube-apiserver serves"},
    {simulation_rule::clusterip_allocation, "clusterip-allocation", "svc-stop-allocating",
     "a new Service takes its address from any range that still allocates; only deleting the old one stops it"},
    {simulation_rule::kubernetes_service_sticky, "kubernetes-service-sticky", "svc-kubernetes-svc-sticky",
     "kubernetes.default keeps its address until it is deleted; kube-apiserver then recreates it at the first "
     "address of its flag"},
    {simulation_rule::service_range_flag, "service-range-flag", "kas-flag-two",
     "--service-cluster-ip-range takes at most two CIDRs, of different families, or kube-apiserver does not start"},
    {simulation_rule::pod_environment, "pod-environment", "svc-env-vars",
     "a container keeps the KUBERNETES_SERVICE_HOST it started with until it is restarted"},
    {simulation_rule::pod_nameserver, "pod-nameserver", "svc-recreate-dns",
     "a pod keeps the DNS address it started with until it is restarted"},
    {simulation_rule::certificate_sans, "certificate-sans", "kadm-san-first",
     "the API server certificate names the addresses it was issued for; a reissue names the first address of the "
     "current service range and the extra SANs configured"},
    {simulation_rule::kcm_refuses, "kcm-refuses", "kcm-refuses",
     "with node IPAM on, kube-controller-manager does not start while a Node's podCIDR lies outside --cluster-cidr"},
    {simulation_rule::cluster_cidr_flag, "cluster-cidr-flag", "kcm-one-per-family",
     "--cluster-cidr takes one CIDR per IP family, or kube-controller-manager does not start"},
    {simulation_rule::node_podcidr_immutable, "node-podcidr-immutable", "node-podcidr-immutable",
     "a Node's podCIDR is set once; a node gets a new one only by being deleted and registering again"},
    {simulation_rule::node_ipam_allocates, "node-ipam-allocates", "kcm-allocate",
     "a registering Node gets a podCIDR from --cluster-cidr only while kube-controller-manager runs node IPAM"},
    {simulation_rule::flannel_network, "flannel-network", "flannel-node-podcidr",
     "flanneld refuses a node whose podCIDR lies outside its Network, which it reads only when it starts"},
    {simulation_rule::control_plane_reregister, "control-plane-reregister", "kadm-cp-reregister",
     "a control-plane node that registers again comes back without its control-plane label and NoSchedule taint"},
    {simulation_rule::pool_disabled, "pool-disabled", "calico-disable",
     "a disabled pool hands out no new addresses; pods keep the ones they have"},
    {simulation_rule::pool_encapsulation, "pool-encapsulation", "calico-encap-needed",
     "pods numbered from a pool with weaker encapsulation than the old pool's lose traffic between subnets"},
    {simulation_rule::pool_apply_replaces, "pool-apply-replaces", "calico-disable-keep-fields",
     "applying a pool definition replaces the whole pool: fields it leaves out fall back to their defaults"},
    {simulation_rule::pool_in_use, "pool-in-use", "calico-migrate-order",
     "deleting a pool before its pods have left breaks those pods"},
    {simulation_rule::kube_proxy_cluster_cidr, "kube-proxy-cluster-cidr", "calico-cluster-cidr",
     "kube-proxy's clusterCIDR, where it has one, must hold every pool pods use, or their traffic is NATed or lost; "
     "it takes one CIDR per family, so during a move it holds one pool and the end state is held to it"},
    {simulation_rule::calico_tool, "calico-tool", "calico-tool",
     "Calico's projectcalico.org/v3 objects are applied with calicoctl unless the Calico API server serves them; "
     "crd.projectcalico.org objects are never edited"},
    {simulation_rule::scale_before_roll, "scale-before-roll", "kops-calico-scale-first",
     "CoreDNS is scaled up before pods and nodes move between pools, or name resolution breaks during the move"},
    {simulation_rule::route_carries, "route-carries", "route-order-all-kinds",
     "clients across a connection reach an address only while one of the connection's routes carries it"},
    {simulation_rule::upgrade_reverts, "upgrade-reverts", "kadm-upgrade-reverts",
     "a setting changed on the running component but not in the stored configuration comes back at the next upgrade"},
    {simulation_rule::kubelet_in_server, "kubelet-in-server", "k3s-one-process",
     "where the distribution runs kubelet and API server in one process, a server whose kubelet stops has no API "
     "server either"},
    {simulation_rule::dns_addon_rerender, "dns-addon-rerender", "dns-addon-rerender-conflict",
     "a distribution that owns kube-dns re-applies it at the DNS address its configuration names, which fails while "
     "another Service holds that address"},
    {simulation_rule::operator_reads_pools, "operator-reads-pools", "cilium-multipool-update",
     "the CNI operator hands out node blocks from the pools it read when it last started: nodes rolled before it "
     "restarts after a pool change take blocks of the old pools"},
    {simulation_rule::custom_networking, "custom-networking", "eks-custom-cfg",
     "with AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG on, a node that starts gives its pods addresses from the subnet of its "
     "zone's ENIConfig, none without one; nodes started before keep their own subnet's"},
    {simulation_rule::configuration_applied, "configuration-applied", "config-apply-separate",
     "an edit of a configuration the distribution applies with its own commands (a kops cluster spec) changes "
     "nothing that runs until they run; edits made in a row take effect together, at one apply and one roll"},
    {simulation_rule::pod_range_superset, "pod-range-superset", "aks-pod-expand",
     "a pod range expanded in place must contain the whole old one: the provider does not shrink, move or add a "
     "discontiguous pod range"},
}};

/// Every simulation rule, in enum order.
constexpr auto simulation_rule_table() noexcept -> std::span<const simulation_rule_info> {
  return simulation_rule_table_data;
}

/// Returns the rule's row of the table.
constexpr auto info(simulation_rule r) noexcept -> const simulation_rule_info& {
  return simulation_rule_table_data[static_cast<std::size_t>(r)];
}

/// What the simulator checks after every step (and at the end).
enum class simulation_check : std::uint8_t {
  step_refused,   ///< the step cannot be done as written (the API refuses it, the object does not exist)
  step_check,     ///< one of the step's own checks would not show what it says
  control_plane,  ///< kube-apiserver and kube-controller-manager run on every control-plane member
  reachability,   ///< every workload still reaches what it reached before the runbook
  certificate,    ///< every address clients use for the API server is in its certificate
  dns,            ///< the DNS address kubelets hand out, and every pod's, answer
  fleet,          ///< check() on the fleet at that moment has no error the plan did not start with
  end_state,      ///< after the last step, the state is the planned fleet
};

/// Returns the check's name in reports: "step-refused", "step-check", "control-plane",
/// "reachability", "certificate", "dns", "fleet", "end-state".
constexpr auto to_string(simulation_check c) noexcept -> std::string_view {
  switch (c) {
    case simulation_check::step_refused: return "step-refused";
    case simulation_check::step_check: return "step-check";
    case simulation_check::control_plane: return "control-plane";
    case simulation_check::reachability: return "reachability";
    case simulation_check::certificate: return "certificate";
    case simulation_check::dns: return "dns";
    case simulation_check::fleet: return "fleet";
    case simulation_check::end_state: return "end-state";
  }
  return "end-state";
}

/// Why a runbook fails: at which step, which check, and the rule behind it.
struct simulation_failure {
  /// The step after which the check failed (0-based index into the runbook's
  /// steps); the number of steps for the end state.
  std::size_t step = 0;
  simulation_check check = simulation_check::end_state;
  /// The upstream behaviour that made it fail; nullopt where the runbook
  /// simply leaves something undone (a check of the end state, or of a step).
  std::optional<simulation_rule> rule;
  std::string message;  ///< one sentence; names from the input as they were written
};

/// The result of one runbook: the failures in step order (the first failure of
/// each kind of check and rule only: what follows from it is not repeated),
/// and the steps the simulator could not execute because they have no machine
/// meaning (a manual step, something to find out), which it skipped and names.
struct simulation_result {
  std::size_t steps = 0;
  std::vector<simulation_failure> failures;
  std::vector<std::size_t> skipped;  ///< indexes of manual and find-out steps

  auto passed() const -> bool { return failures.empty(); }
};

/// Returns a failure as reports print it: "step 5 [control-plane] kcm-refuses
/// (fact kcm-refuses): kube-controller-manager does not start: ..." (steps
/// counted from 1; "end" for the end state; "-" where no rule is behind it).
auto to_string(const simulation_failure& f, std::size_t steps) -> std::string;

/// Returns what a result amounts to in one line: "passed: 14 steps simulated"
/// (", 2 skipped: steps 3, 7 have no machine meaning"), or "FAILED: 2 failures,
/// the first at step 5".
auto summary(const simulation_result& r) -> std::string;

/// What a simulation compares against: the fleet before the plan, the fleet
/// with the plan applied (apply_plan), the catalog whose profiles say how each
/// cluster is run, and how findings are found and judged, as plan() does it
/// (a suppressed finding is no error here either). The fleets and catalog must
/// outlive the calls that take the context.
struct simulation_context {
  const fleet* original = nullptr;
  const fleet* planned = nullptr;
  const cidrcheck::catalog* catalog = nullptr;
  check_options check;
  std::optional<triage_options> triage;
};

/// Runs every runbook of a plan, each from the fleet before the plan, and
/// returns one result per runbook, in order. The fleet check of each moment
/// runs check() once per owner and moment for the rules of one owner (service
/// ranges, DNS, capacity, reserved blocks), and once on the original fleet
/// with every range any runbook has in use at any moment added, for the rules
/// of pairs: an overlap needs two ranges in use at once, and the plan gives no
/// two new ranges the same space, so an error of that fleet is one a moment
/// has. O(steps + one fleet check), memory linear in the runbooks: what lets a
/// 10,000-operation plan take seconds (bench/simulator_bench.cpp). Deterministic;
/// never throws for a bad runbook (that is a failure), only limit_error from
/// check(). Thread-safe for concurrent calls on shared inputs.
auto simulate_runbooks(const simulation_context& context, std::span<const runbook> books)
    -> std::vector<simulation_result>;

/// simulate_runbooks() of one runbook.
auto simulate_runbook(const simulation_context& context, const runbook& book) -> simulation_result;

}  // namespace cidrcheck
