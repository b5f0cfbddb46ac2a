// gcloud container clusters describe|list, gcloud compute networks subnets
// describe|list and gcloud compute networks peerings list, with --format=json
// (or yaml).

#include "../kube_version.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/input_limits.hpp>
#include "importers.hpp"

#include <algorithm>
#include <set>

namespace cidrcheck::detail {

namespace {

// Returns the path segment after `key/` ("projects/p/..." -> "p"), or "".
auto segment_after(std::string_view path, std::string_view key) -> std::string_view {
  std::string pattern = "/" + std::string(key) + "/";
  auto at = ("/" + std::string(path)).find(pattern);
  if (at == std::string::npos) return {};
  auto rest = path.substr(at + pattern.size() - 1);
  return rest.substr(0, rest.find('/'));
}

// Calls read for the document's one object, or for each item of a list (the
// describe and list commands).
template <class F>
void each_object(source_reader& in, std::uint32_t root, std::string_view expected, F read) {
  if (in.yaml().node(root).kind == yaml_kind::sequence) {
    for (auto item : in.items(root, "the list")) read(item);
    return;
  }
  if (in.yaml().node(root).kind != yaml_kind::mapping) {
    in.wrong_document(root, expected);
    return;
  }
  read(root);
}

void read_gke(source_reader& in, std::uint32_t node, import_result& out) {
  auto c = in.object_at(node, "a cluster");
  if (!c) return;
  auto name_node = c->get("name");
  auto name = in.text(name_node, "name");
  if (!name_node) in.wrong_document(node, "a cluster with a name");
  if (!name) return;
  auto& o = add_owner(out, *name, owner_kind::cluster, "gke", in.where(*name_node));
  add_label(o, "cloud", "gcp");
  auto location = in.text(c->get("location"), "location");
  o.value.description = "GKE cluster" + (location ? " in " + *location : "") + ", from gcloud container clusters describe";
  if (location) add_label(o, "location", *location);  // a region, or a zone for a zonal cluster
  if (auto v = c->get("currentMasterVersion")) {
    auto text = in.text(v, "currentMasterVersion");
    if (text && !(o.value.kubernetes = parse_kube_version(*text))) {
      in.error(*v, diag::type, "currentMasterVersion must be a Kubernetes version, not \"" + *text + "\"");
    }
  }
  // The pod range appears at the top and in ipAllocationPolicy: two claims,
  // which must agree.
  for (auto at : {c->get("clusterIpv4Cidr"), c->at({"ipAllocationPolicy", "clusterIpv4CidrBlock"})}) {
    if (auto r = in.range(at, "the pod range")) add_claim(o, range_role::pods, claim_kind::exact, {std::move(*r)});
  }
  std::vector<imported_range> services;
  if (auto r = in.range(c->get("servicesIpv4Cidr"), "servicesIpv4Cidr")) services.push_back(std::move(*r));
  add_claim(o, range_role::services, claim_kind::exact, std::move(services));
  services.clear();
  for (auto key : {"servicesIpv4CidrBlock", "servicesIpv6CidrBlock"}) {
    if (auto r = in.range(c->at({"ipAllocationPolicy", key}), key)) services.push_back(std::move(*r));
  }
  add_claim(o, range_role::services, claim_kind::exact, std::move(services));
  // The control plane's /28 (private clusters) lives beside the nodes' subnet.
  auto master = c->at({"privateClusterConfig", "masterIpv4CidrBlock"});
  if (!master) master = c->get("masterIpv4CidrBlock");
  if (auto r = in.range(master, "masterIpv4CidrBlock")) add_claim(o, range_role::network, claim_kind::additional, {*r});

  owner_link link;
  link.what = "subnet";
  // The subnet's secondary ranges the cluster names: its pod and service ranges
  // (which must agree with the ones above), and more pod ranges.
  for (auto [key, role] : {std::pair{"clusterSecondaryRangeName", range_role::pods},
                           std::pair{"servicesSecondaryRangeName", range_role::services}}) {
    if (auto label = in.text(c->at({"ipAllocationPolicy", key}), key)) {
      link.labels.push_back({*label, role, claim_kind::exact});
    }
  }
  for (auto item : in.items(c->at({"ipAllocationPolicy", "additionalPodRangesConfig", "podRangeNames"}),
                            "podRangeNames")) {
    if (auto label = in.text(item, "a pod range name")) link.labels.push_back({*label, range_role::pods, claim_kind::additional});
  }
  // Node pools: more pod ranges, and the node mask (the largest block any pool takes).
  // 0 stands for unset, as in the API.
  std::int64_t mask = in.whole(c->get("nodeIpv4CidrSize"), 0, 32, "nodeIpv4CidrSize").value_or(0);
  std::vector<imported_range> pool_pods;
  for (auto item : in.items(c->get("nodePools"), "nodePools")) {
    auto pool = in.object_at(item, "a node pool");
    if (!pool) continue;
    if (auto r = in.range(pool->at({"networkConfig", "podIpv4CidrBlock"}), "podIpv4CidrBlock")) {
      pool_pods.push_back(std::move(*r));
    }
    auto label = in.text(pool->at({"networkConfig", "podRange"}), "podRange");
    bool named = label && std::any_of(link.labels.begin(), link.labels.end(),
                                      [&](const link_label& l) { return l.label == *label; });
    if (label && !named) link.labels.push_back({*label, range_role::pods, claim_kind::additional});
    auto size = in.whole(pool->get("podIpv4CidrSize"), 0, 32, "podIpv4CidrSize").value_or(0);
    if (size > 0 && (mask == 0 || size < mask)) mask = size;
  }
  add_claim(o, range_role::pods, claim_kind::additional, std::move(pool_pods));
  if (mask > 0) o.value.node_cidr_mask = static_cast<int>(mask);
  if (auto count = c->get("currentNodeCount")) {
    if (auto n = in.whole(count, 0, max_declared_count, "currentNodeCount")) {
      o.value.nodes = static_cast<std::uint64_t>(*n);
      o.value.nodes_where = in.where(*count);
      o.nodes_observed = true;
    }
  }
  if (auto subnet = c->at({"networkConfig", "subnetwork"})) {
    auto path = in.text(subnet, "subnetwork");
    if (path && !(link.owner = gcp_subnet_name(*path)).empty()) {
      link.where = in.where(*subnet);
      o.links.push_back(std::move(link));
    }
  }
  // The VPC network it runs in: networkConfig.network's path, else the name
  // `network` in the project of the cluster's selfLink.
  auto self = in.text(c->get("selfLink"), "selfLink").value_or("");
  for (auto at : {c->at({"networkConfig", "network"}), c->get("network")}) {
    auto text = in.text(at, "network");
    auto network = text ? gcp_network_name(*text, segment_after(self, "projects")) : "";
    if (!network.empty()) {
      set_runs_in(o, network, in.where(*at));
      break;
    }
  }
}

void read_subnet(source_reader& in, std::uint32_t node, import_result& out) {
  auto s = in.object_at(node, "a subnet");
  if (!s) return;
  auto self = in.text(s->get("selfLink"), "selfLink");
  auto name = in.text(s->get("name"), "name");
  auto region = in.text(s->get("region"), "region").value_or("");
  auto network = in.text(s->get("network"), "network").value_or("");
  std::string owner_name = self ? gcp_subnet_name(*self) : "";
  if (owner_name.empty() && name) {
    // No selfLink: the project from the network's URL, the region's last segment.
    auto project = segment_after(network, "projects");
    auto r = std::string_view(region).substr(region.rfind('/') + 1);
    owner_name = (project.empty() ? "" : std::string(project) + "/") + (r.empty() ? "" : std::string(r) + "/") + *name;
  }
  if (owner_name.empty()) {
    in.wrong_document(node, "a subnet with a name");
    return;
  }
  auto& o = add_owner(out, owner_name, owner_kind::network, "gcp-subnet", in.where(node));
  add_label(o, "cloud", "gcp");
  add_label(o, "region", region.substr(region.rfind('/') + 1));  // the region's URL or name
  o.part_of = gcp_network_name(network);
  auto net = std::string_view(network).substr(network.rfind('/') + 1);
  o.value.description = "GCP subnet" + (net.empty() ? "" : " of network " + std::string(net)) +
                        ", from gcloud compute networks subnets list";
  std::vector<imported_range> ranges;
  for (auto key : {"ipCidrRange", "ipv6CidrRange", "externalIpv6Prefix"}) {
    if (auto r = in.range(s->get(key), key)) ranges.push_back(std::move(*r));
  }
  for (auto item : in.items(s->get("secondaryIpRanges"), "secondaryIpRanges")) {
    auto secondary = in.object_at(item, "a secondary range");
    if (!secondary) continue;
    auto label = in.text(secondary->get("rangeName"), "rangeName");
    if (auto r = in.range(secondary->get("ipCidrRange"), "ipCidrRange")) {
      r->label = label.value_or("");
      ranges.push_back(std::move(*r));
    }
  }
  add_claim(o, range_role::external, claim_kind::exact, std::move(ranges));
}

}  // namespace

auto gcp_network_name(std::string_view path) -> std::string {
  auto project = segment_after(path, "projects");
  auto name = segment_after(path, "networks");
  if (project.empty() || name.empty()) return {};
  return std::string(project) + "/" + std::string(name);
}

auto gcp_subnet_name(std::string_view path) -> std::string {
  auto project = segment_after(path, "projects");
  auto region = segment_after(path, "regions");
  auto name = segment_after(path, "subnetworks");
  if (project.empty() || region.empty() || name.empty()) return {};
  return std::string(project) + "/" + std::string(region) + "/" + std::string(name);
}

auto gcp_network_name(std::string_view path, std::string_view project) -> std::string {
  auto in_path = segment_after(path, "projects");
  auto name = segment_after(path, "networks");
  if (in_path.empty() && name.empty() && path.find('/') == std::string_view::npos) name = path;  // a bare name
  if (!in_path.empty()) project = in_path;
  if (project.empty() || name.empty()) return {};
  return std::string(project) + "/" + std::string(name);
}

void import_gke(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    each_object(in, root, "a cluster, or a list of clusters", [&](std::uint32_t k) { read_gke(in, k, out); });
  }
}

void import_gcp_subnets(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    // An owner a subnet: room for them at once, so that none is moved as the list grows.
    if (in.yaml().node(root).kind == yaml_kind::sequence) {
      out.owners.reserve(out.owners.size() + in.yaml().children(root).size());
    }
    each_object(in, root, "a subnet, or a list of subnets", [&](std::uint32_t k) { read_subnet(in, k, out); });
  }
}

// gcloud compute networks peerings list --format=json: the networks that
// have peerings, each with its `peerings` (the Network resource's
// NetworkPeering: name, network (the peer's URL), state ACTIVE or INACTIVE,
// stateDetails); older gcloud versions print the peerings themselves, each
// with a `source_network` (googlecloudsdk's peerings list command adds it).
// An ACTIVE peering joins the two networks: a connection between their
// names, PROJECT/NETWORK, which stand for their subnets (part_of).
void import_gcp_peerings(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  std::set<std::pair<std::string, std::string>> connected;
  auto peering = [&](std::uint32_t node, const std::string& local) {
    auto p = in.object_at(node, "a peering");
    if (!p) return;
    auto name = in.text(p->get("name"), "name").value_or("a peering without a name");
    auto peer_node = p->get("network");
    auto peer_url = in.text(peer_node, "network");
    auto peer = peer_url ? gcp_network_name(*peer_url) : "";
    if (peer.empty()) {
      in.error(peer_node.value_or(node), diag::invalid_value,
               "peering " + name + " of " + local + " names no peer network (network: projects/P/global/networks/N)");
      return;
    }
    auto state_node = p->get("state");
    auto state = in.text(state_node, "state");
    if (state != "ACTIVE") {
      in.yaml().report(severity::note, state_node.value_or(node), diag::import_inactive,
                       "peering " + name + " of " + local + " to " + peer + " is " + state.value_or("in no state") +
                           ", not ACTIVE: no connection");
      return;
    }
    if (!connected.emplace(std::min(local, peer), std::max(local, peer)).second) return;  // listed on both sides
    imported_connection c;
    c.value.name = name;
    c.value.via = "peering";
    c.value.where = in.where(node);
    c.value.description = "GCP VPC Network Peering, from gcloud compute networks peerings list";
    c.members = {{local, in.where(node)}, {peer, in.where(*peer_node)}};
    out.connections.push_back(std::move(c));
  };
  for (auto root : roots) {
    each_object(in, root, "networks with their peerings", [&](std::uint32_t k) {
      auto o = in.object_at(k, "a network");
      if (!o) return;
      if (auto source = o->get("source_network")) {
        auto local = gcp_network_name(in.text(source, "source_network").value_or(""));
        if (!local.empty()) peering(k, local);
        return;
      }
      auto self = in.text(o->get("selfLink"), "selfLink");
      auto local = self ? gcp_network_name(*self) : "";
      if (local.empty() || !o->get("peerings")) {
        in.wrong_document(k, "a network with a selfLink and peerings");
        return;
      }
      for (auto item : in.items(o->get("peerings"), "peerings")) peering(item, local);
    });
  }
}

}  // namespace cidrcheck::detail
