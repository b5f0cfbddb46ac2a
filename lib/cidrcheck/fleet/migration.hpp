#pragma once
// The runbook of each operation kind: the steps of a live migration, specific
// to the role, the distribution, the CNI and its IPAM mode and the Kubernetes
// version, and the files those steps apply. Each step cites facts of
// docs/migration-facts.md by id and states what it needs and makes (the
// ordering rule). One file per area: migration_services.cpp,
// migration_pods.cpp, migration_network.cpp; this header is their contract.

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// A file a runbook step applies (the step's `files` names it).
struct step_file {
  std::string name;  ///< file name inside the operation's folder: "servicecidr.yaml"
  std::string text;  ///< its content, without the header comment runbook_files adds
  std::size_t step;  ///< index of the step that applies it
};

/// A runbook to follow instead of the one it belongs to when one of that
/// runbook's steps finds the cluster cannot take it (the maintenance window
/// when a 1.27-1.28 cluster serves no ServiceCIDR objects). `plan --emit`
/// writes it as FOLDER/runbook.md, with its files, inside the operation's folder.
struct fallback_runbook {
  std::string folder;  ///< "fallback-window"
  std::string kind;    ///< the operation kind whose steps it holds: "service-window"
  std::size_t step;    ///< index of the step of the outer runbook that sends the operator here
  std::vector<migration_step> steps;
  std::vector<step_file> files;
};

/// Collects the steps of one runbook, and the files they apply when those are
/// wanted: a plan keeps only steps (and file names), `plan --emit` the files.
class runbook_builder {
 public:
  explicit runbook_builder(bool with_files) : with_files_(with_files) {}

  /// Adds a step relying on the facts with these ids (migration_fact_by_id);
  /// set its `needs` and `makes` on the step returned.
  auto step(std::string text, std::initializer_list<std::string_view> fact_ids = {}) -> migration_step&;

  /// Attaches file `name` to the last step; `make_text()` runs only when files
  /// are wanted, so plans of a million changes do not build them.
  template <class MakeText>
  void file(std::string name, MakeText&& make_text) {
    steps_.back().files.push_back(name);
    if (with_files_) files_.push_back({std::move(name), std::forward<MakeText>(make_text)(), steps_.size() - 1});
  }

  /// Attaches to the last step the fallback runbook of `kind` in `folder`,
  /// whose steps `make(builder)` writes; the step names FOLDER/runbook.md as a
  /// file it applies. `make` runs only when files are wanted. One level only:
  /// fallbacks of the fallback are dropped.
  template <class Make>
  void fallback(std::string folder, std::string kind, Make&& make) {
    steps_.back().files.push_back(folder + "/runbook.md");
    if (!with_files_) return;
    runbook_builder inner(true);
    std::forward<Make>(make)(inner);
    fallbacks_.push_back({std::move(folder), std::move(kind), steps_.size() - 1, std::move(inner.steps_),
                          std::move(inner.files_)});
  }

  auto steps() -> std::vector<migration_step>& { return steps_; }
  auto files() -> std::vector<step_file>& { return files_; }
  auto fallbacks() -> std::vector<fallback_runbook>& { return fallbacks_; }

 private:
  bool with_files_;
  std::vector<migration_step> steps_;
  std::vector<step_file> files_;
  std::vector<fallback_runbook> fallbacks_;
};

/// Writes the runbook of operation op (whose changes index into changes) into
/// out, where planned is the fleet with the whole plan applied (steps may
/// depend on where the cluster's other ranges end up).
void operation_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                       runbook_builder& out);

/// Writes the runbook of a change outside any operation (a range created at a
/// requested size, or a DNS address put back in its range) into out.
void change_runbook(const fleet& planned, const plan_change& change, runbook_builder& out);

// Shared by the areas (migration.cpp).

/// EKS, GKE or AKS: the provider fixes the cluster's ranges and network at creation.
auto is_managed(const std::string& distribution) -> bool;
/// The tenth address of a service range: the cluster DNS address by convention (svc-dns-tenth).
auto dns_of(const prefix& services) -> std::string;
/// kops' nonMasqueradeCIDR after the plan: the smallest block that holds the
/// cluster's pod and service ranges of version v.
auto non_masquerade(const fleet& planned, const owner& o, ip_version v) -> std::string;
/// kops' nonMasqueradeCIDR for a cluster whose pods move to `pods`: it must
/// hold podCIDR (kops-nonmasq-pod) and must not overlap networkCIDR except
/// with the VPC CNI or Cilium ENI (kops-nonmasq-network). non_masquerade() when
/// that block is at most a /8 and clear of the network (older kops also wants
/// serviceClusterIPRange inside, kops-nonmasq-svc), else podCIDR itself if
/// clear; nullopt when even podCIDR overlaps the network.
auto kops_non_masquerade(const fleet& planned, const owner& o, const prefix& pods) -> std::optional<prefix>;
/// The cluster's network range that block overlaps where kops refuses that
/// (kops-nonmasq-network: not with the Amazon VPC CNI or Cilium in ENI mode), if any.
auto kops_network_clash(const fleet& planned, const owner& o, const prefix& block) -> std::optional<prefix>;
/// "network 10.0.0.0/16 -> 10.1.0.0/16, pods ..." for the changes of op that belong to owner.
auto ranges_text(const fleet& planned, std::uint32_t owner, const plan_operation& op,
                 const std::vector<plan_change>& changes) -> std::string;

// The areas: a range moved (from valid) or created (from invalid), and the
// operations that take more than one change or add space.

void services_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out);
/// Both service ranges of a dual-stack cluster moved: one runbook, one new
/// ServiceCIDR and one flag value for both families (svc-dual-stack-move).
void dual_stack_services_runbook(const fleet& planned, const owner& o, const plan_change& a, const plan_change& b,
                                 runbook_builder& out);
void services_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out);

void pods_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out);
void pods_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out);
void pod_space_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                       runbook_builder& out);

void network_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out);
void network_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out);
void shared_network_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                            runbook_builder& out);
void replacement_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                         runbook_builder& out);

}  // namespace cidrcheck::detail
