#pragma once
// The catalog of well-known ranges: distribution defaults, network types that
// bring their own ranges, private space, and blocks the rules check against.
// cidrcheck ships one (data/catalog.yaml, see builtin_catalog() in
// cidrcheck/io/catalog_loader.hpp); a caller may add to it or bring its own.

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/operation.hpp>
#include <cidrcheck/fleet/profile.hpp>
#include <cidrcheck/prefix.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// What a distribution fills in when a cluster omits a range.
struct distribution_defaults {
  std::string name;
  std::vector<prefix> network, pods, services;
  /// EKS picks its service range by the VPC: when a network range lies in
  /// `services_if_network_in`, the services default is `services_instead`.
  std::optional<prefix> services_if_network_in;
  std::vector<prefix> services_instead;
  int node_cidr_mask = 24;     ///< kube-controller-manager's default
  int node_cidr_mask_v6 = 64;  ///< kube-controller-manager's default
  std::vector<prefix> reserved;  ///< blocks the platform keeps for itself (platform-reserved)
  /// The IP families its defaults serve unless a cluster says `ip_family`:
  /// "ipv4", "ipv6" or "dual"; empty means every default applies (kind: ipv4).
  std::string ip_family;
  /// The CNI its clusters run when they name none (EKS installs the Amazon VPC CNI
  /// by default), with its fact; an empty value where the catalog names none.
  sourced<std::string> cni;
  /// The IPAM mode a CNI runs on this distribution when a cluster names none,
  /// where the distribution picks another than the CNI's default (kops runs
  /// Cilium in `kubernetes` mode), each with its fact (data/catalog.yaml `cni_ipam:`).
  struct cni_ipam_default {
    std::string cni, mode, fact;
  };
  std::vector<cni_ipam_default> cni_ipam;
  std::string source;
  /// What its runbooks need to know (data/catalog.yaml `profile:`); nullopt where
  /// the catalog has none, and then every field is unknown.
  std::optional<distribution_profile> profile;
};

/// Where a CNI's IPAM mode takes pod addresses from.
enum class pod_source : std::uint8_t {
  cni,           ///< its own pool (`pods`), whatever the distribution's cluster CIDR (Cilium cluster-pool)
  distribution,  ///< the distribution's cluster CIDR; `pods` only when the distribution has none (Calico, Flannel)
  network,       ///< the cluster's network: pods have no range of their own (VPC CNI, Cilium ENI)
  none,          ///< pools configured elsewhere (Cilium multi-pool, a delegated plugin): no default to fill in
  external,      ///< written per node by a component outside the cluster's IPAM (Cilium CRD-backed): no default,
                 ///< and nothing the catalog can move (docs/migration-facts.md cilium-crd-external)
};

/// One IPAM mode of a CNI: what a cluster on it gets when it omits its pods.
struct ipam_mode {
  std::string name;
  pod_source pods_from = pod_source::distribution;
  std::vector<prefix> pods;
  /// The block one node takes from the pool (Calico blockSize, Cilium
  /// clusterPoolIPv4MaskSize); nullopt where kube-controller-manager's node mask decides.
  std::optional<int> block_size, block_size_v6;
  std::string source;
  /// What its runbooks need to know (data/catalog.yaml `profile:`); nullopt where
  /// the catalog has none, and then every field is unknown.
  std::optional<ipam_profile> profile;
};

/// A CNI and its IPAM modes, the first the default.
struct cni_defaults {
  std::string name;
  std::vector<ipam_mode> modes;  ///< never empty; modes.front() is the default
  std::string source;

  auto find_mode(std::string_view mode) const -> const ipam_mode* {
    for (const auto& m : modes) {
      if (m.name == mode) return &m;
    }
    return nullptr;
  }
};

/// The ranges a network of a known type brings when it lists none.
struct network_type {
  std::string name;
  std::vector<prefix> cidrs;
  /// Blocks inside `cidrs` that carry routes by design, translated into the
  /// network's space (Tailscale's 4via6): a route there is not route-in-overlay.
  std::vector<prefix> translated;
  /// Whether clusters run inside networks of this type (their nodes take its
  /// addresses: a cloud VPC or VNet, an on-premises prefix). A cluster no
  /// source places is placed in the one such network that holds its network
  /// range (see detail::membership_index); other types hold a cluster only
  /// when a source says so (`runs_in`).
  bool holds_clusters = false;
  std::string source;
  /// The cloud its networks are in, for the words and commands of network steps.
  sourced<cloud_kind> cloud{cloud_kind::unknown, "", false};
};

/// What a multi-cluster mesh routes between its member clusters: the roles
/// a connection `via: mesh` it imports carries (Istio's remote secrets,
/// Cilium's ClusterMesh), each resting on facts of docs/migration-facts.md.
struct mesh_kind {
  std::string name;                ///< as importers name the mesh: "istio", "cilium-clustermesh"
  role_set routes = role_set::none();
  std::vector<std::string> facts;  ///< fact ids (section 5 of docs/migration-facts.md)
  std::string source;
};

/// A well-known block and the rule (by name) that flags cluster ranges overlapping it.
struct catalog_block {
  prefix cidr;
  std::string name;
  std::string rule;
  std::string source;
};

/// What a roll of a cluster's configuration costs in a plan: the saving of each
/// apply that operations merged into one maintenance share (catalog
/// `shared_apply:`). A judgement, like an operation's cost: `why` says why.
struct shared_apply_cost {
  int cost = 1;
  std::string why;
};

struct catalog {
  /// The catalog's revision, YYYY-MM-DD: its entries and their sources as of
  /// that day (data/catalog.yaml's `date:`; `cidrcheck --version` names it).
  std::string date;
  std::vector<distribution_defaults> distributions;
  std::vector<cni_defaults> cnis;
  std::vector<network_type> network_types;
  std::vector<mesh_kind> meshes;
  std::vector<prefix> private_space;
  std::vector<catalog_block> blocks;
  /// The operations `plan` chooses among, in catalog order (ties go to the earlier).
  std::vector<operation_kind> operations;
  /// What each apply shared by merged operations saves (plan_operation::merged_with).
  shared_apply_cost shared_apply;
  /// The profiles of Kubernetes minors, in order, disjoint (data/catalog.yaml `kubernetes:`).
  std::vector<kubernetes_profile> kubernetes;

  auto find_distribution(std::string_view name) const -> const distribution_defaults* {
    for (const auto& d : distributions) {
      if (d.name == name) return &d;
    }
    return nullptr;
  }
  auto find_operation(std::string_view name) const -> const operation_kind* {
    for (const auto& k : operations) {
      if (k.name == name) return &k;
    }
    return nullptr;
  }
  auto find_cni(std::string_view name) const -> const cni_defaults* {
    for (const auto& c : cnis) {
      if (c.name == name) return &c;
    }
    return nullptr;
  }
  /// Returns the CNI a cluster runs: its `cni`, else its distribution's default
  /// (distribution_defaults::cni); "" where neither names one.
  auto cni_of(const owner& o) const -> std::string_view {
    if (!o.cni.empty()) return o.cni;
    const auto* d = find_distribution(o.type);
    return d != nullptr ? std::string_view(d->cni.value) : std::string_view();
  }
  /// Returns the IPAM mode a cluster runs: its `ipam`, else the mode its
  /// distribution runs its CNI (cni_of) in (distribution_defaults::cni_ipam), else
  /// the CNI's default; nullptr when the catalog does not know the CNI or the mode.
  auto ipam_of(const owner& o) const -> const ipam_mode* {
    const auto* cni = find_cni(cni_of(o));
    if (cni == nullptr) return nullptr;
    auto mode = ipam_name_of(o);
    return mode.empty() ? &cni->modes.front() : cni->find_mode(mode);
  }
  /// Returns the name of the IPAM mode a cluster runs as far as it or its
  /// distribution says: its `ipam`, else its distribution's mode for its CNI
  /// (distribution_defaults::cni_ipam); "" for the CNI's own default.
  auto ipam_name_of(const owner& o) const -> std::string_view {
    if (!o.ipam.empty()) return o.ipam;
    if (const auto* d = find_distribution(o.type)) {
      const auto cni = cni_of(o);
      for (const auto& x : d->cni_ipam) {
        if (x.cni == cni) return x.mode;
      }
    }
    return {};
  }
  /// Returns how a cluster's pods are numbered: its CNI (cni_of) and where its
  /// IPAM mode takes pod addresses from, by the mode's profile, else network or
  /// external where the mode's `pods_from` says so, else unknown.
  auto pod_numbering_of(const owner& o) const -> pod_numbering {
    pod_numbering out{std::string(cni_of(o)), std::string(ipam_name_of(o)), address_source::unknown};
    if (const auto* mode = ipam_of(o)) {
      if (mode->profile && mode->profile->addresses.known) {
        out.addresses = mode->profile->addresses.value;
      } else if (mode->pods_from == pod_source::network) {
        out.addresses = address_source::network;
      } else if (mode->pods_from == pod_source::external) {
        out.addresses = address_source::external;
      }
    }
    return out;
  }
  /// Reports whether operation kind k applies to owner o (applies() with o's pod numbering).
  auto offers(const operation_kind& k, const owner& o) const -> bool { return applies(k, o, pod_numbering_of(o)); }
  auto find_mesh(std::string_view name) const -> const mesh_kind* {
    for (const auto& m : meshes) {
      if (m.name == name) return &m;
    }
    return nullptr;
  }
  auto find_network_type(std::string_view name) const -> const network_type* {
    for (const auto& t : network_types) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }
  /// Returns what the catalog knows of owner o's platform: its distribution's,
  /// IPAM mode's and Kubernetes minor's profiles (nullptr where it knows none).
  auto profile_of(const owner& o) const -> cluster_profile {
    cluster_profile p;
    if (const auto* d = find_distribution(o.type); d != nullptr && d->profile) p.distribution = &*d->profile;
    if (const auto* m = ipam_of(o); m != nullptr && m->profile) p.ipam = &*m->profile;
    p.minor = o.kubernetes;
    if (o.kubernetes) {
      for (const auto& k : kubernetes) {
        if (k.from <= *o.kubernetes && (!k.to || *o.kubernetes <= *k.to)) p.kubernetes = &k;
      }
    }
    return p;
  }
  /// Returns the cloud of a network owner's type (or a cluster's distribution); unknown where the catalog does not say.
  auto cloud_of(const owner& o) const -> sourced<cloud_kind> {
    if (o.kind == owner_kind::cluster) {
      if (const auto* d = find_distribution(o.type); d != nullptr && d->profile) return d->profile->cloud;
    } else if (const auto* t = find_network_type(o.type)) {
      return t->cloud;
    }
    return {cloud_kind::unknown, "", false};
  }
  /// Returns a cluster's node CIDR mask for a version: its own, else its
  /// distribution's, else kube-controller-manager's (24 for IPv4, 64 for IPv6).
  auto node_cidr_mask(const owner& o, ip_version v) const -> int {
    const auto& own = v == ip_version::v4 ? o.node_cidr_mask : o.node_cidr_mask_v6;
    if (own) return *own;
    if (const auto* d = find_distribution(o.type)) return v == ip_version::v4 ? d->node_cidr_mask : d->node_cidr_mask_v6;
    return v == ip_version::v4 ? 24 : 64;
  }
  /// Returns the block one node of a cluster takes from its pod ranges: its
  /// own `block_size`, else its IPAM mode's (Calico 26/122, Cilium
  /// cluster-pool 24), else its node CIDR mask (node_cidr_mask).
  auto pod_block(const owner& o, ip_version v) const -> int {
    const auto& own = v == ip_version::v4 ? o.block_size : o.block_size_v6;
    if (own) return *own;
    if (const auto* mode = ipam_of(o)) {
      const auto& block = v == ip_version::v4 ? mode->block_size : mode->block_size_v6;
      if (block) return *block;
    }
    return node_cidr_mask(o, v);
  }
};

/// Returns the service ranges a cluster's distribution gives it when it omits
/// them, for its IP families (its `ip_family`, else its distribution's), given
/// the cluster's network ranges: the distribution's `services_instead` when one
/// of them lies in `services_if_network_in`, else its `services`. Empty for a
/// cluster whose distribution the catalog does not know. What apply_defaults()
/// fills in, and what `plan` derives again once it gives the cluster a network.
auto default_services(const catalog& c, const owner& o, std::span<const prefix> network) -> std::vector<prefix>;

/// Fills in what a fleet omits, from the catalog: a cluster's missing network,
/// pod or service ranges from its distribution's defaults, its pods as its
/// CNI's IPAM mode says (pod_source), only the IP families its `ip_family` (or
/// its distribution's) names, and a network's ranges from its known type.
/// Filled ranges are marked with their origin and placed at the key that
/// brought them (`distribution`, `cni` or `type`). Returns the clusters whose
/// distribution the catalog does not know (their CNI's pods still apply).
auto apply_defaults(fleet& f, const catalog& c) -> std::vector<std::uint32_t>;

}  // namespace cidrcheck
