// Cilium's pod address pools, as kubectl prints them (-o yaml or -o json, a
// List or several documents):
// - CiliumPodIPPool (cilium.io/v2alpha1; cilium/cilium
//   pkg/k8s/apis/cilium.io/v2alpha1/ippool_types.go): spec.ipv4 and spec.ipv6,
//   each with cidrs (a list of CIDRs) and maskSize (the per-node block);
//   used by the multi-pool IPAM mode;
// - the cilium-config ConfigMap: `ipam` (cilium/cilium pkg/option/config.go,
//   IPAM = "ipam"; values in pkg/ipam/option/option.go: "cluster-pool",
//   "multi-pool", "kubernetes", ...) and the cluster-pool settings
//   (operator/option/config.go: cluster-pool-ipv4-cidr, cluster-pool-ipv6-cidr,
//   cluster-pool-ipv4-mask-size, cluster-pool-ipv6-mask-size), and the routing
//   mode (pkg/option/config.go, RoutingMode = "routing-mode"; before 1.15 `tunnel`).
// - the Secret cilium-clustermesh (fact mesh-cilium-clustermesh-secret): one
//   data key per remote cluster of the ClusterMesh, named by its Cilium
//   cluster name; each a connection `via: mesh` with this cluster, whose roles
//   are the catalog's `cilium-clustermesh` mesh.
// What the IPAM mode leaves unused is a warning, not a range. The objects do
// not name their cluster: the user names it (cilium=NAME:FILE), else the file does.

#include "importers.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include <map>
#include <tuple>

namespace cidrcheck::detail {

namespace {

struct cilium_objects {
  std::vector<imported_range> pools, cluster_pool;
  std::optional<int> pool_mask, pool_mask_v6, cluster_mask, cluster_mask_v6;  // the largest block (shortest prefix)
  std::optional<std::uint32_t> first_pool, cluster_pool_key;
  std::string ipam;
  std::optional<std::string> routing_mode;
  std::vector<std::pair<std::string, std::uint32_t>> mesh_peers;  // remote cluster names, their keys
  bool seen = false, settings = false;  // any object read; pools or cilium-config read
  std::map<std::string, std::pair<std::size_t, std::uint32_t>> skipped;  // by kind: how many, the first
};

void keep_largest(std::optional<int>& mask, std::optional<std::int64_t> size) {
  if (size && (!mask || *size < *mask)) mask = static_cast<int>(*size);
}

void read_pool(source_reader& in, std::uint32_t node, const source_reader::object& o, cilium_objects& out) {
  out.settings = true;
  if (!out.first_pool) out.first_pool = node;
  for (auto [family, version] : {std::pair{"ipv4", ip_version::v4}, std::pair{"ipv6", ip_version::v6}}) {
    auto spec = in.object_at(o.at({"spec", family}), family);
    if (!spec) continue;
    auto cidrs = in.ranges(spec->get("cidrs"), std::string("spec.") + family + ".cidrs");
    out.pools.insert(out.pools.end(), cidrs.begin(), cidrs.end());
    keep_largest(version == ip_version::v4 ? out.pool_mask : out.pool_mask_v6,
                 in.whole(spec->get("maskSize"), min_node_mask, max_node_mask(version),
                          std::string("spec.") + family + ".maskSize"));
  }
}

void read_config(source_reader& in, const source_reader::object& o, cilium_objects& out) {
  out.settings = true;
  auto data = in.object_at(o.get("data"), "data");
  if (!data) return;
  if (auto mode = data->get("ipam")) {
    out.ipam = in.text(mode, "ipam").value_or("");
  }
  out.routing_mode = cilium_routing_mode(in, data->get("routing-mode"), data->get("tunnel"));
  for (auto key : {"cluster-pool-ipv4-cidr", "cluster-pool-ipv6-cidr"}) {
    auto k = data->get(key);
    if (k && !out.cluster_pool_key) out.cluster_pool_key = k;
    auto ranges = in.ranges(k, key);
    out.cluster_pool.insert(out.cluster_pool.end(), ranges.begin(), ranges.end());
  }
  keep_largest(out.cluster_mask, in.whole(data->get("cluster-pool-ipv4-mask-size"), min_node_mask,
                                          max_node_mask(ip_version::v4), "cluster-pool-ipv4-mask-size"));
  keep_largest(out.cluster_mask_v6, in.whole(data->get("cluster-pool-ipv6-mask-size"), min_node_mask,
                                             max_node_mask(ip_version::v6), "cluster-pool-ipv6-mask-size"));
}

// Cilium's Helm values (cilium/cilium install/kubernetes/cilium/values.yaml):
// ipam.mode; ipam.operator.clusterPoolIPv4PodCIDRList (clusterPoolIPv4PodCIDR
// in older charts) and clusterPoolIPv4MaskSize, the IPv6 ones only with
// ipv6.enabled; routingMode (tunnel before Cilium 1.15); the ClusterMesh's
// clustermesh.config.clusters[].name, rendered into the Secret
// cilium-clustermesh only with clustermesh.config.enabled.
void read_values(source_reader& in, const source_reader::object& o, cilium_objects& out) {
  out.settings = true;
  if (auto mode = o.at({"ipam", "mode"})) out.ipam = in.text(mode, "ipam.mode").value_or("");
  out.routing_mode = cilium_routing_mode(in, o.get("routingMode"), o.get("tunnel"));
  auto ipv6_node = o.at({"ipv6", "enabled"});
  bool ipv6 = in.flag(ipv6_node, "ipv6.enabled").value_or(false);
  auto operator_values = in.object_at(o.at({"ipam", "operator"}), "ipam.operator");
  if (operator_values) {
    for (auto [list, single, v6] : {std::tuple{"clusterPoolIPv4PodCIDRList", "clusterPoolIPv4PodCIDR", false},
                                    std::tuple{"clusterPoolIPv6PodCIDRList", "clusterPoolIPv6PodCIDR", true}}) {
      auto k = operator_values->get(list) ? operator_values->get(list) : operator_values->get(single);
      if (!k) continue;
      if (v6 && !ipv6) {
        in.yaml().report(severity::warning, *k, diag::skipped,
                         std::string("ipam.operator.") + (operator_values->get(list) ? list : single) +
                             " left out: ipv6.enabled is not true, so Cilium hands out no IPv6 pod addresses");
        continue;
      }
      if (!out.cluster_pool_key) out.cluster_pool_key = k;
      auto ranges = in.ranges(k, std::string("ipam.operator.") + (operator_values->get(list) ? list : single));
      out.cluster_pool.insert(out.cluster_pool.end(), ranges.begin(), ranges.end());
    }
    keep_largest(out.cluster_mask, in.whole(operator_values->get("clusterPoolIPv4MaskSize"), 1, 32,
                                            "ipam.operator.clusterPoolIPv4MaskSize"));
    if (ipv6) {
      keep_largest(out.cluster_mask_v6, in.whole(operator_values->get("clusterPoolIPv6MaskSize"), 1, 128,
                                                 "ipam.operator.clusterPoolIPv6MaskSize"));
    }
  }
  auto clusters = o.at({"clustermesh", "config", "clusters"});
  if (!clusters) return;
  if (!in.flag(o.at({"clustermesh", "config", "enabled"}), "clustermesh.config.enabled").value_or(false)) {
    in.yaml().report(severity::note, *clusters, diag::skipped,
                     "clustermesh.config.clusters left out: clustermesh.config.enabled is not true, so the chart "
                     "writes no cilium-clustermesh Secret");
    return;
  }
  for (auto item : in.items(clusters, "clustermesh.config.clusters")) {
    auto cluster = in.object_at(item, "a ClusterMesh cluster");
    auto name_node = cluster ? cluster->get("name") : std::nullopt;
    if (auto name = in.text(name_node, "name")) out.mesh_peers.emplace_back(*name, *name_node);
  }
}

void read_object(source_reader& in, std::uint32_t node, cilium_objects& out) {
  auto o = in.object_at(node, "an object");
  if (!o) return;
  auto kind = in.text(o->get("kind"), "kind").value_or("");
  auto api = in.text(o->get("apiVersion"), "apiVersion").value_or("");
  if (kind == "List" || (kind.ends_with("List") && o->get("items"))) {
    for (auto item : in.items(o->get("items"), "items")) read_object(in, item, out);
    return;
  }
  if (kind.empty() && (o->get("ipam") || o->get("routingMode") || o->get("clustermesh") || o->get("cluster"))) {
    out.seen = true;
    read_values(in, *o, out);
  } else if (kind == "CiliumPodIPPool" && api.starts_with("cilium.io/")) {
    out.seen = true;
    read_pool(in, node, *o, out);
  } else if (kind == "ConfigMap" && in.text(o->at({"metadata", "name"}), "metadata.name") == "cilium-config") {
    out.seen = true;
    read_config(in, *o, out);
  } else if (kind == "Secret" && in.text(o->at({"metadata", "name"}), "metadata.name") == "cilium-clustermesh") {
    out.seen = true;
    // NAME holds the etcd configuration of remote cluster NAME; NAME.etcd-client.* its TLS files
    // (Cilium cluster names have no '.': lower-case letters, digits and '-').
    if (auto data = in.object_at(o->get("data"), "data")) {
      for (const auto& e : data->entries()) {
        if (e.key.find('.') == std::string::npos) out.mesh_peers.emplace_back(std::string(e.key), e.key_node);
      }
    }
  } else {
    auto& slot = out.skipped[kind.empty() ? std::string("(no kind)") : kind];
    if (slot.first++ == 0) slot.second = node;
  }
}

}  // namespace

void import_cilium(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  cilium_objects objects;
  std::optional<std::uint32_t> first_root;
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (!first_root) first_root = root;
    if (in.yaml().node(root).kind != yaml_kind::mapping) {
      in.wrong_document(root, "CiliumPodIPPools or the ConfigMap cilium-config");
      continue;
    }
    read_object(in, root, objects);
  }
  if (!objects.seen) {
    if (first_root) {
      in.wrong_document(*first_root,
                        "CiliumPodIPPools, the ConfigMap cilium-config or the Secret cilium-clustermesh (none found)");
    }
    return;
  }
  for (const auto& [kind, skipped] : objects.skipped) {
    in.yaml().report(severity::note, skipped.second, diag::skipped,
                     "skipped " + std::to_string(skipped.first) + (skipped.first == 1 ? " object" : " objects") +
                         " of kind " + kind +
                         ": cilium reads CiliumPodIPPools, the ConfigMap cilium-config and the Secret cilium-clustermesh");
  }
  // Which settings the IPAM mode uses: cluster-pool reads the cluster-pool
  // keys, multi-pool the CiliumPodIPPools; other modes neither. Without the
  // ConfigMap (or its ipam key) the mode is unknown and both are read.
  bool known = !objects.ipam.empty();
  bool use_cluster_pool = !known || objects.ipam == "cluster-pool" || objects.ipam == "cluster-pool-v2beta";
  bool use_pools = !known || objects.ipam == "multi-pool";
  if (!use_cluster_pool && !objects.cluster_pool.empty()) {
    in.yaml().report(severity::warning, *objects.cluster_pool_key, diag::skipped,
                     "cluster-pool settings left out: ipam is " + objects.ipam +
                         ", which does not read them (see the ipam key)");
    objects.cluster_pool.clear();
    objects.cluster_mask.reset();
    objects.cluster_mask_v6.reset();
  }
  if (!use_pools && !objects.pools.empty()) {
    in.yaml().report(severity::warning, *objects.first_pool, diag::skipped,
                     "CiliumPodIPPools left out: ipam is " + objects.ipam +
                         " in cilium-config, and only the multi-pool mode allocates from them");
    objects.pools.clear();
    objects.pool_mask.reset();
    objects.pool_mask_v6.reset();
  }
  auto name = in.cluster_name(*first_root);
  for (const auto& [peer, key] : objects.mesh_peers) {
    if (peer == name) continue;
    imported_connection c;
    c.value.via = "mesh";
    c.value.where = in.where(key);
    c.value.description = "Cilium ClusterMesh, from the Secret cilium-clustermesh of " + name;
    c.members = {{name, in.where(*first_root)}, {peer, in.where(key)}};
    c.mesh = "cilium-clustermesh";
    out.connections.push_back(std::move(c));
  }
  if (!objects.settings) return;  // the Secret alone says nothing of the cluster's own ranges
  auto& o = add_owner(out, name, owner_kind::cluster, "", in.where(*first_root));
  o.value.description = "Kubernetes cluster, from its Cilium IPAM settings";
  o.value.cni = "cilium";
  o.value.ipam = objects.ipam;
  o.value.routing_mode = objects.routing_mode.value_or("");
  // The cluster pool is the pod range the operator carves node blocks from;
  // CiliumPodIPPools are pools inside the pod ranges, like Calico's.
  add_claim(o, range_role::pods, claim_kind::exact, std::move(objects.cluster_pool));
  add_claim(o, range_role::pods, claim_kind::within, std::move(objects.pools));
  o.value.node_cidr_mask = objects.cluster_mask ? objects.cluster_mask : objects.pool_mask;
  o.value.node_cidr_mask_v6 = objects.cluster_mask_v6 ? objects.cluster_mask_v6 : objects.pool_mask_v6;
}

}  // namespace cidrcheck::detail
