#pragma once
// The contract of the runbook table's rows (runbook_table.cpp holds the table):
// a row writes the typed steps of one operation kind, reading the profiles of
// the clusters it acts on and never a distribution, CNI or IPAM name (the
// tree test tests/tree/runbook_names_test.py reads these files for names).
// One file per area: operation_services.cpp, operation_pods.cpp,
// operation_network.cpp; shared helpers here and in runbook_rows.cpp.

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/profile.hpp>
#include <cidrcheck/fleet/runbook_step.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

/// What a row reads: the fleet with the plan applied, the catalog, and the
/// operation with the plan's changes (which its `changes` index).
/// The connections each owner is a member of (indexes into fleet::connections),
/// built once for all the runbooks of a plan, so that finding the connections
/// that carry a moved range costs its owner's connections, not the fleet's.
class owner_connections {
 public:
  explicit owner_connections(const fleet& f);
  auto of(std::uint32_t owner) const -> std::span<const std::uint32_t> {
    return {ids_.data() + start_[owner], ids_.data() + start_[owner + 1]};
  }

 private:
  std::vector<std::uint32_t> start_;  // per owner, where its ids begin; one more at the end
  std::vector<std::uint32_t> ids_;
};

struct row_input {
  const fleet& planned;
  const catalog& cat;
  const plan_operation& op;
  const std::vector<plan_change>& changes;
  const owner_connections& connections;

  auto owner_of(std::uint32_t k) const -> const owner& { return planned.owners[k]; }
  auto profile(std::uint32_t k) const -> cluster_profile { return cat.profile_of(planned.owners[k]); }
};

/// A row: writes the steps of one operation into out.steps.
using runbook_row = void (*)(const row_input&, runbook& out);

/// One row of the table: the catalog's operation kind and its writer.
struct operation_row {
  std::string_view kind;
  runbook_row write;
};

/// Appends steps to a runbook: each with its owner, action and facts.
class step_writer {
 public:
  explicit step_writer(runbook& out) : out_(out) {}

  /// Adds a step; `facts` are ids of docs/migration-facts.md rows.
  auto add(std::uint32_t owner, step_action action, std::initializer_list<std::string_view> facts = {})
      -> runbook_step&;

  auto steps() -> std::vector<runbook_step>& { return out_.steps; }

 private:
  runbook& out_;
};

/// Adds a fact id to a step unless it is empty or there already.
void cite(runbook_step& s, std::string_view fact);
/// Adds the fact of a profile field to a step.
template <class T>
void cite(runbook_step& s, const sourced<T>& field) {
  cite(s, field.fact);
}

// --- the rows (operation_*.cpp) ------------------------------------------------

void service_cidr_api_row(const row_input& in, runbook& out);
void service_window_row(const row_input& in, runbook& out);
void calico_ippool_swap_row(const row_input& in, runbook& out);
void cilium_pool_append_row(const row_input& in, runbook& out);
void kcm_node_ipam_row(const row_input& in, runbook& out);
void vpc_cni_custom_networking_row(const row_input& in, runbook& out);
void add_pod_range_row(const row_input& in, runbook& out);
void aks_overlay_pod_expand_row(const row_input& in, runbook& out);
void gke_additional_pod_range_row(const row_input& in, runbook& out);
void gke_pod_range_withdraw_row(const row_input& in, runbook& out);
void new_vpc_row(const row_input& in, runbook& out);
void replacement_cluster_row(const row_input& in, runbook& out);
void renumber_network_row(const row_input& in, runbook& out);

/// The runbook of operation op, written by the table's row for its kind, with
/// the route steps of the connections that carry what it moves (runbook_table.cpp).
auto operation_runbook(const fleet& planned, const catalog& c, const plan_operation& op,
                       const std::vector<plan_change>& changes, const owner_connections& connections) -> runbook;

/// operation_runbook without its apply steps: the steps merged_runbook merges.
auto unapplied_runbook(const fleet& planned, const catalog& c, const plan_operation& op,
                       const std::vector<plan_change>& changes, const owner_connections& connections) -> runbook;

/// The runbook of a change outside any operation: a range created at a
/// requested size (or with the cluster, plan_change::created), or a DNS address
/// put back into its service range.
auto change_runbook(const fleet& planned, const catalog& c, const plan_change& change) -> runbook;

/// The route steps of an operation: for each connection that carries a moved
/// range (its `routes` holds the range's role, or a declared route leads to
/// it), the new route advertised before anything else and the old one
/// withdrawn after the runbook's last step.
void add_route_steps(const row_input& in, runbook& out);

/// Puts one apply_configuration step after each run of consecutive steps of
/// one owner that edit a configuration applied separately
/// (distribution_profile::edit_waits_for_apply; config-apply-separate): the
/// run's edits take effect together, at one apply and one roll, so the states
/// they make and the checks that hold after them move to the apply step, and a
/// need of one edit met by an earlier edit of the run is met by applying both.
void add_apply_steps(const fleet& planned, const catalog& c, runbook& out);

/// The runbook of operation k of plan p: its own (operation_runbook), or where
/// it shares one (plan_operation::merged_with) the merged runbook of it and
/// those, the same for each of them.
auto maintenance_runbook(const fleet& planned, const catalog& c, const plan_result& p, std::uint32_t k,
                         const owner_connections& connections) -> runbook;

/// How many apply_configuration steps (rolls of the cluster to apply its configuration) runbook r has.
auto applies_in(const runbook& r) -> std::size_t;

/// The step's restart of workloads (every pod, or the pods in ranges), or
/// nullptr (scale-ups and component restarts are not restarts of the workloads).
auto pod_restart(const runbook_step& s) -> const restart_workloads*;

/// How many restarts of workloads (pod_restart) runbook r has.
auto pod_restarts_in(const runbook& r) -> std::size_t;

/// One runbook for several operations on one cluster that each edit a
/// configuration applied separately (books in plan order). Each book is cut before each
/// of its applies into phases; phase k of the merged runbook is every book's
/// phase-k steps before its edits, then every book's phase-k edits, which
/// add_apply_steps applies at one roll (config-apply-separate); `books` are
/// unapplied_runbook's. Each book's steps keep their order, and its states
/// are scoped by its kind ("service-cidr-api/old-range-unused"), so what one
/// needs is still made before it by its own book, never by another book's
/// step of the same name; the merged runbook has max(applies) applies where
/// the books had their sum, and one restart where a later one covers an earlier.
/// Whether it is safe to follow is the simulator's call (the plan merges only
/// where it passes). Its kind joins the books' kinds with '+'.
auto merged_runbook(const fleet& planned, const catalog& c, std::vector<runbook> books) -> runbook;

// --- shared by the rows (runbook_rows.cpp) ---------------------------------------

/// A named object with its body (everything but apiVersion, kind and metadata).
auto object(std::string api_version, std::string kind, std::string namespace_name, std::string name, doc_map body)
    -> kube_object;
/// An object whose name the operator looks up: `hint` says what it is.
auto unnamed_object(std::string api_version, std::string kind, std::string hint, doc_map body) -> kube_object;
/// The deletion of an object; an empty name and a hint where the name is looked up.
auto deletion(std::string api_version, std::string kind, std::string namespace_name, std::string name,
              object_tool tool, bool wait, std::string hint = {}) -> delete_object;
/// A provider-side change of ranges (other: the other owner it concerns; role: what the ranges are to a cluster created).
auto resource(resource_kind what, resource_action action, std::vector<prefix> ranges,
              std::optional<std::uint32_t> other = std::nullopt, std::optional<range_role> role = std::nullopt)
    -> change_resource;

/// The changes of the operation that belong to owner k, or to anyone when k is nullopt.
auto changes_of(const row_input& in, std::optional<std::uint32_t> k = std::nullopt) -> std::vector<const plan_change*>;
/// The cluster's ranges of a role, in fleet order (the planned fleet's).
auto ranges_of(const fleet& planned, const owner& o, range_role role) -> std::vector<prefix>;
/// The tenth address of a service range: the cluster DNS address by convention (svc-dns-tenth).
auto tenth_address(const prefix& services) -> address;
/// The first address of a service range: kubernetes.default (svc-first-ip).
auto first_address(const prefix& services) -> address;
/// The smallest block holding every range given (of one family).
auto covering_block(const std::vector<prefix>& ranges) -> std::optional<prefix>;
/// The block a setting that must hold the pod range takes (pod_range_container):
/// the smallest block holding the cluster's IPv4 pod and service ranges when it
/// is at most a /8 and clear of the network, else the pod range alone if clear;
/// clear always where pods take network addresses (kops-nonmasq-network).
auto container_block(const fleet& planned, const owner& o, const cluster_profile& p) -> std::optional<prefix>;

}  // namespace cidrcheck::detail
