// kops Cluster specs: `kops get cluster NAME -o yaml` (as written) or with
// --full (completed with defaults); kops.k8s.io/v1alpha2, and v1alpha3, which
// moved the network fields under spec.networking. InstanceGroups in the same
// file (`kops get all -o yaml`) give the node count.

#include "../kube_version.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include "importers.hpp"

#include <map>

namespace cidrcheck::detail {

namespace {

auto is_kops(source_reader& in, const source_reader::object& doc, std::string_view kind) -> bool {
  auto api = in.text(doc.get("apiVersion"), "apiVersion").value_or("");
  return api.starts_with("kops.k8s.io/") && in.text(doc.get("kind"), "kind") == kind;
}

// A range of "everything" (0.0.0.0/0, ::/0) means no range of its own: kops
// writes clusterCIDR ::/0 when IPv6 pods take their subnets' prefixes.
auto drop_everything(std::vector<imported_range> ranges) -> std::vector<imported_range> {
  std::erase_if(ranges, [](const imported_range& r) { return r.cidr.length() == 0; });
  return ranges;
}

void read_cluster(source_reader& in, const source_reader::object& doc, import_result& out) {
  auto name_node = doc.at({"metadata", "name"});
  auto name = in.text(name_node, "metadata.name");
  if (!name_node) in.error(doc.node(), diag::missing_key, "a kops Cluster without metadata.name");
  auto spec = in.object_at(doc.get("spec"), "spec");
  if (!doc.get("spec")) in.error(doc.node(), diag::missing_key, "a kops Cluster without a spec");
  if (!name || !spec) return;
  auto& o = add_owner(out, *name, owner_kind::cluster, "kops", in.where(*name_node));
  o.value.description = "kops cluster, from kops get cluster";
  // v1alpha3 keeps the network fields under spec.networking; v1alpha2 at the top.
  auto networking = in.object_at(spec->get("networking"), "networking");
  auto field = [&](std::string_view key) -> std::optional<std::uint32_t> {
    if (auto v = spec->get(key)) return v;
    return networking ? networking->get(key) : std::nullopt;
  };
  if (auto v = field("kubernetesVersion")) {
    auto text = in.text(v, "kubernetesVersion");
    if (text && !(o.value.kubernetes = parse_kube_version(*text))) {
      in.error(*v, diag::type, "kubernetesVersion must be a Kubernetes version, not \"" + *text + "\"");
    }
  }
  auto network = in.ranges(field("networkCIDR"), "networkCIDR");
  auto more = in.ranges(field("additionalNetworkCIDRs"), "additionalNetworkCIDRs");
  network.insert(network.end(), more.begin(), more.end());
  add_claim(o, range_role::network, claim_kind::exact, std::move(network));
  // Subnets lie inside the network; kops writes "/64#1" for an IPv6 subnet it
  // has yet to allocate, which is no range yet.
  std::vector<imported_range> subnets;
  for (auto item : in.items(field("subnets"), "subnets")) {
    auto subnet = in.object_at(item, "a subnet");
    if (!subnet) continue;
    if (auto r = in.range(subnet->get("cidr"), "cidr of a subnet")) subnets.push_back(std::move(*r));
    auto v6 = subnet->get("ipv6CIDR");
    if (v6 && !in.yaml().value(*v6).starts_with("/")) {
      if (auto r = in.range(v6, "ipv6CIDR of a subnet")) subnets.push_back(std::move(*r));
    }
  }
  add_claim(o, range_role::network, claim_kind::within, std::move(subnets));
  // networkID names the existing network the cluster runs in (an AWS VPC id
  // takes its blocks from an aws-vpcs export).
  if (auto id = field("networkID")) {
    if (auto existing = in.text(id, "networkID")) {
      set_runs_in(o, *existing, in.where(*id));
      if (existing->starts_with("vpc-")) o.links.push_back({*existing, "VPC", in.where(*id), {}});
    }
  }

  // Pods and services: the spec's own fields and the components' flags, which a
  // completed spec repeats (and which must agree).
  std::size_t pod_claims = o.claims.size();
  add_claim(o, range_role::pods, claim_kind::exact, drop_everything(in.ranges(field("podCIDR"), "podCIDR")));
  for (auto component : {"kubeControllerManager", "cloudControllerManager", "kubeProxy"}) {
    add_claim(o, range_role::pods, claim_kind::exact,
              drop_everything(in.ranges(spec->at({component, "clusterCIDR"}), "clusterCIDR")));
  }
  bool has_pods = o.claims.size() > pod_claims;
  // kube-proxy's mode (KubeProxyConfig.ProxyMode, `proxyMode`, kubernetes/kops
  // pkg/apis/kops/componentconfig.go), where the spec sets it.
  if (auto mode = kube_proxy_mode(in, spec->at({"kubeProxy", "proxyMode"}))) o.value.kube_proxy_mode = *mode;
  std::size_t service_claims = o.claims.size();
  add_claim(o, range_role::services, claim_kind::exact,
            in.ranges(field("serviceClusterIPRange"), "serviceClusterIPRange"));
  add_claim(o, range_role::services, claim_kind::exact,
            in.ranges(spec->at({"kubeAPIServer", "serviceClusterIPRange"}), "serviceClusterIPRange"));
  bool has_services = o.claims.size() > service_claims;

  // As written, a spec may leave pods and services to kops, which carves them
  // from nonMasqueradeCIDR (upup/pkg/fi/cloudup populate_cluster_spec.go): pods
  // the upper half, services the first eighth; with IPv6 (::/0), pods take
  // their subnets' prefixes and services fd00:5e4f:ce::/108. With the Amazon
  // VPC CNI pods take VPC addresses.
  bool amazon_vpc = networking && (networking->get("amazonvpc") || networking->get("amazonVPC"));
  if (amazon_vpc && !has_pods) o.value.declared.add(range_role::pods);
  auto nm_node = field("nonMasqueradeCIDR");
  auto nm = in.range(nm_node, "nonMasqueradeCIDR");
  if (nm && !amazon_vpc) {
    auto derived = [&](prefix p) {
      imported_range r = *nm;
      r.cidr = p;
      r.end_column = 0;
      return std::vector<imported_range>{r};
    };
    const prefix& n = nm->cidr;
    if (n.version() == ip_version::v4 && n.length() <= 29) {
      if (!has_pods) {
        auto upper = address::from_bits(ip_version::v4, n.network().bits() + (uint128{1} << (31 - n.length())));
        add_claim(o, range_role::pods, claim_kind::exact, derived(prefix::containing(upper, n.length() + 1)));
      }
      if (!has_services) {
        add_claim(o, range_role::services, claim_kind::exact, derived(prefix::containing(n.network(), n.length() + 3)));
      }
    } else if (n.version() == ip_version::v6) {
      if (!has_pods) o.value.declared.add(range_role::pods);
      if (!has_services) add_claim(o, range_role::services, claim_kind::exact, derived(prefix::parse("fd00:5e4f:ce::/108")));
    }
  }

  auto dns = spec->at({"kubeDNS", "serverIP"});
  if (!dns) dns = spec->at({"kubelet", "clusterDNS"});
  if (auto a = in.address_at(dns, "the cluster DNS address")) {
    o.value.dns = *a;
    o.value.dns_where = in.where(*dns);
  }
}

}  // namespace

void import_kops(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  auto first = out.owners.size();
  std::map<std::string, std::pair<std::uint64_t, source_location>> nodes;  // by cluster: sum of maxSize
  std::map<std::string, std::pair<std::size_t, std::uint32_t>> skipped;      // other kinds: how many, the first
  std::map<std::string, std::uint32_t> group_node;                           // by cluster: the first maxSize
  std::optional<std::uint32_t> first_root;
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (!first_root) first_root = root;
    auto doc = in.document(root, "a kops Cluster (apiVersion kops.k8s.io/v1alpha2, kind Cluster)");
    if (!doc) continue;
    if (is_kops(in, *doc, "Cluster")) {
      read_cluster(in, *doc, out);
    } else if (is_kops(in, *doc, "InstanceGroup")) {
      auto cluster = in.text(doc->at({"metadata", "labels", "kops.k8s.io/cluster"}), "kops.k8s.io/cluster");
      auto size = doc->at({"spec", "maxSize"});
      if (auto n = in.whole(size, 0, 100'000, "maxSize")) {
        auto& slot = nodes[cluster.value_or("")];
        if (slot.first == 0) {
          slot.second = in.where(*size);
          group_node.emplace(cluster.value_or(""), *size);
        }
        slot.first += static_cast<std::uint64_t>(*n);
      }
    } else {
      auto kind = in.text(doc->get("kind"), "kind").value_or("(no kind)");
      auto& slot = skipped[kind];
      if (slot.first++ == 0) slot.second = root;
    }
  }
  if (out.owners.size() == first) {
    if (first_root) in.wrong_document(*first_root, "a kops Cluster (apiVersion kops.k8s.io/v1alpha2, kind Cluster)");
    return;
  }
  for (const auto& [kind, seen] : skipped) {
    in.yaml().report(severity::note, seen.second, diag::skipped,
                     "skipped " + std::to_string(seen.first) + (seen.first == 1 ? " document" : " documents") +
                         " of kind " + kind + ": cidrcheck reads kops Clusters and InstanceGroups");
  }
  // An instance group belongs to the cluster its label names; unlabelled ones
  // to the file's only cluster. Groups of no cluster here are said, not dropped silently.
  for (auto k = first; k < out.owners.size(); ++k) {
    auto& o = out.owners[k];
    auto it = nodes.find(o.value.name);
    if (it == nodes.end() && out.owners.size() == first + 1) it = nodes.find("");
    if (it == nodes.end()) continue;
    o.value.nodes = it->second.first;
    o.value.nodes_where = it->second.second;
    it->second.first = 0;  // used
  }
  for (const auto& [cluster, count] : nodes) {
    if (count.first == 0) continue;
    in.yaml().report(severity::warning, group_node[cluster], diag::skipped,
                     "InstanceGroups of " +
                         (cluster.empty() ? std::string("no cluster label") : "cluster " + cluster) + " (" +
                         std::to_string(count.first) +
                         " nodes) belong to no Cluster in this file: their node count is left out");
  }
}

}  // namespace cidrcheck::detail
