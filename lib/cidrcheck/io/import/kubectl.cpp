// Kubernetes objects as `kubectl get -o yaml|json` prints them: a List (or
// NodeList, ...) of items, single objects, or several YAML documents. Read:
// Nodes (spec.podCIDRs), ServiceCIDRs (networking.k8s.io), Calico IPPools
// (crd.projectcalico.org/v1 or projectcalico.org/v3) and the Calico operator's
// Installation (operator.tigera.io/v1, spec.calicoNetwork.ipPools) or the
// tigera-operator Helm chart's values (installation.calicoNetwork.ipPools), the
// kube-proxy ConfigMap kubeadm writes (its KubeProxyConfiguration, under
// data."config.conf": kubernetes/kubernetes cmd/kubeadm/app/constants,
// KubeProxyConfigMap and KubeProxyConfigMapKey); other kinds are skipped, with
// a note per kind. The objects do not name their cluster:
// the user names it (kubectl=NAME:FILE), else the file does, and a note says so.

#include "importers.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <map>

namespace cidrcheck::detail {

namespace {

struct cluster_objects {
  std::vector<imported_range> node_pods, default_services, extra_services, pools;
  std::uint64_t nodes = 0;
  std::optional<source_location> first_node;
  std::optional<int> mask, mask_v6;  // the largest node block of each family (the shortest prefix)
  std::optional<int> block, block_v6;  // the largest Calico IPPool blockSize of each family
  std::vector<imported_range> proxy_pods;  // kube-proxy's clusterCIDR
  // The pools' encapsulation per family (IPv4, IPv6: IPIP is IPv4's alone), kube-proxy's mode.
  std::string encapsulation[2], proxy_mode;
  std::optional<source_location> encapsulation_at[2], proxy_mode_at;
  bool proxy_config = false;
  std::map<std::string, std::pair<std::size_t, std::uint32_t>> skipped;  // by kind: how many, the first
};

void read_object(source_reader& in, std::uint32_t node, cluster_objects& out);

// A Calico pool and its blockSize (IPPool spec.blockSize, an Installation's
// ipPools[].blockSize: "the CIDR size of allocation blocks", docs.tigera.io
// calico/latest/reference/resources/ippool), the largest block kept per
// family; its encapsulation, one per family (pools that differ clear it).
void add_pool(source_reader& in, std::optional<std::uint32_t> cidr, std::string_view what,
              std::optional<std::uint32_t> block_size, const std::optional<std::string>& encapsulation,
              std::uint32_t node, cluster_objects& out) {
  auto r = in.range(cidr, what);
  if (!r) return;
  std::size_t family = r->cidr.version() == ip_version::v4 ? 0 : 1;
  keep_setting(in, out.encapsulation[family], out.encapsulation_at[family], encapsulation, node,
               family == 0 ? "the IPv4 pools' encapsulation" : "the IPv6 pools' encapsulation");
  bool v4 = r->cidr.version() == ip_version::v4;
  if (auto size = in.whole(block_size, v4 ? 20 : 116, v4 ? 32 : 128, "blockSize")) {
    auto& block = v4 ? out.block : out.block_v6;
    if (!block || *size < *block) block = static_cast<int>(*size);
  }
  out.pools.push_back(std::move(*r));
}

// An Installation's calicoNetwork.ipPools (or the tigera-operator chart's
// values, which give the Installation's spec as `installation`): the operator
// creates an IPPool for each (docs.tigera.io calico/latest/networking/ipam/ippools,
// "Create multiple IP pools when installing Calico", Operator tab).
void read_installation(source_reader& in, std::uint32_t node, std::optional<std::uint32_t> pools, std::string_view key,
                       cluster_objects& out) {
  if (!pools) {
    in.yaml().report(severity::warning, node, diag::skipped,
                     "this Installation lists no " + std::string(key) + ": the operator then chooses the pool, "
                     "which this file does not say; export the IPPools (kubectl get ippools -o yaml) too");
    return;
  }
  for (auto item : in.items(pools, key)) {
    auto pool = in.object_at(item, "an IP pool");
    if (!pool) continue;
    add_pool(in, pool->get("cidr"), "cidr of an IP pool", pool->get("blockSize"),
             calico_operator_encapsulation(in, pool->get("encapsulation")), item, out);
  }
}

void read_items(source_reader& in, const source_reader::object& list, cluster_objects& out) {
  for (auto item : in.items(list.get("items"), "items")) read_object(in, item, out);
}

void read_object(source_reader& in, std::uint32_t node, cluster_objects& out) {
  auto o = in.object_at(node, "an object");
  if (!o) return;
  auto kind = in.text(o->get("kind"), "kind").value_or("");
  auto api = in.text(o->get("apiVersion"), "apiVersion").value_or("");
  if (kind == "List" || (kind.ends_with("List") && o->get("items"))) {
    read_items(in, *o, out);
  } else if (kind == "Node") {
    ++out.nodes;
    if (!out.first_node) out.first_node = in.where(node);
    auto cidrs = o->at({"spec", "podCIDRs"});
    if (!cidrs) cidrs = o->at({"spec", "podCIDR"});
    auto ranges = in.ranges(cidrs, "podCIDRs");
    for (const auto& r : ranges) {
      // A node's block is its node CIDR mask, which a fleet file holds from min_node_mask on.
      if (r.cidr.length() < min_node_mask) {
        in.error(*cidrs, diag::range,
                 "a Node's pod CIDR " + r.cidr.to_string() + " is no node block: node CIDR masks are " +
                     std::to_string(min_node_mask) + " to " + std::to_string(max_node_mask(r.cidr.version())));
        continue;
      }
      auto& mask = r.cidr.version() == ip_version::v4 ? out.mask : out.mask_v6;
      if (!mask || r.cidr.length() < *mask) mask = r.cidr.length();
    }
    out.node_pods.insert(out.node_pods.end(), ranges.begin(), ranges.end());
  } else if (kind == "ServiceCIDR" && api.starts_with("networking.k8s.io/")) {
    // The one named "kubernetes" mirrors --service-cluster-ip-range; others add to it.
    bool is_default = in.text(o->at({"metadata", "name"}), "metadata.name") == "kubernetes";
    auto ranges = in.ranges(o->at({"spec", "cidrs"}), "spec.cidrs");
    auto& into = is_default ? out.default_services : out.extra_services;
    into.insert(into.end(), ranges.begin(), ranges.end());
  } else if (kind == "IPPool" && (api.starts_with("crd.projectcalico.org/") || api.starts_with("projectcalico.org/"))) {
    // A disabled pool hands out no more addresses ("disabled: when true, Calico
    // IPAM will not assign addresses from this pool", docs.tigera.io
    // reference/resources/ippool); pods may still hold some, so say so.
    if (in.flag(o->at({"spec", "disabled"}), "spec.disabled").value_or(false)) {
      auto name = in.text(o->at({"metadata", "name"}), "metadata.name").value_or("(unnamed)");
      in.yaml().report(severity::warning, node, diag::skipped,
                       "IPPool " + name + " is disabled: left out (Calico assigns no new addresses from it; pods "
                       "that still hold some of them are not checked)");
      return;
    }
    add_pool(in, o->at({"spec", "cidr"}), "spec.cidr", o->at({"spec", "blockSize"}),
             calico_pool_encapsulation(in, o->at({"spec", "ipipMode"}), o->at({"spec", "vxlanMode"})), node, out);
  } else if (kind == "Installation" && api.starts_with("operator.tigera.io/")) {
    read_installation(in, node, o->at({"spec", "calicoNetwork", "ipPools"}), "spec.calicoNetwork.ipPools", out);
  } else if (kind.empty() && o->get("installation") && o->at({"installation", "calicoNetwork"})) {
    // The tigera-operator Helm chart's values: `installation` is the Installation's spec.
    read_installation(in, node, o->at({"installation", "calicoNetwork", "ipPools"}),
                      "installation.calicoNetwork.ipPools", out);
  } else if (kind == "ConfigMap" && in.text(o->at({"metadata", "name"}), "metadata.name") == "kube-proxy" &&
             o->at({"data", "config.conf"})) {
    out.proxy_config = true;
    read_embedded(in, *o->at({"data", "config.conf"}), "data.config.conf",
                  [&](source_reader& inner, const std::vector<std::uint32_t>& roots) {
                    for (auto root : roots) {
                      auto config = inner.object_at(root, "a KubeProxyConfiguration");
                      if (!config || inner.text(config->get("kind"), "kind") != "KubeProxyConfiguration") continue;
                      auto pods = inner.ranges(config->get("clusterCIDR"), "clusterCIDR");
                      out.proxy_pods.insert(out.proxy_pods.end(), pods.begin(), pods.end());
                      keep_setting(inner, out.proxy_mode, out.proxy_mode_at, kube_proxy_mode(inner, config->get("mode")),
                                   root, "kube-proxy's mode");
                    }
                  });
  } else {
    auto& slot = out.skipped[kind.empty() ? std::string("(no kind)") : kind];
    if (slot.first++ == 0) slot.second = node;
  }
}

}  // namespace

void import_kubectl(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  cluster_objects objects;
  std::optional<std::uint32_t> first_root;
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (!first_root) first_root = root;
    if (in.yaml().node(root).kind != yaml_kind::mapping) {
      in.wrong_document(root, "a Kubernetes object or List");
      continue;
    }
    read_object(in, root, objects);
  }
  bool any = objects.nodes > 0 || !objects.default_services.empty() || !objects.extra_services.empty() ||
             !objects.pools.empty() || objects.proxy_config;
  if (!any) {
    if (first_root) {
      in.wrong_document(*first_root, "Nodes, ServiceCIDRs, Calico IPPools, a Calico Installation or the kube-proxy ConfigMap (none found)");
    }
    return;
  }
  for (const auto& [kind, seen] : objects.skipped) {
    in.yaml().report(severity::note, seen.second, diag::skipped,
                     "skipped " + std::to_string(seen.first) + (seen.first == 1 ? " object" : " objects") +
                         " of kind " + kind +
                         ": cidrcheck reads Nodes, ServiceCIDRs, Calico IPPools, the Calico Installation and the kube-proxy "
                         "ConfigMap");
  }
  auto& o = add_owner(out, in.cluster_name(*first_root), owner_kind::cluster, "", in.where(*first_root));
  o.value.description = "Kubernetes cluster, from kubectl get";
  // Node pod CIDRs and Calico pools are allocations inside the pod ranges.
  add_claim(o, range_role::pods, claim_kind::within, std::move(objects.node_pods));
  add_claim(o, range_role::pods, claim_kind::within, std::move(objects.pools));
  add_claim(o, range_role::pods, claim_kind::exact, std::move(objects.proxy_pods));
  add_claim(o, range_role::services, claim_kind::exact, std::move(objects.default_services));
  add_claim(o, range_role::services, claim_kind::additional, std::move(objects.extra_services));
  if (objects.nodes > 0) {
    o.value.nodes = objects.nodes;
    o.value.nodes_where = *objects.first_node;
    o.nodes_observed = true;
  }
  o.value.node_cidr_mask = objects.mask;
  o.value.node_cidr_mask_v6 = objects.mask_v6;
  o.value.block_size = objects.block;
  o.value.block_size_v6 = objects.block_v6;
  // The IPv4 pools' encapsulation, else the IPv6 pools' (an IPv6-only cluster).
  o.value.pool_encapsulation = objects.encapsulation_at[0] ? objects.encapsulation[0] : objects.encapsulation[1];
  o.value.kube_proxy_mode = std::move(objects.proxy_mode);
}

}  // namespace cidrcheck::detail
