// az aks show|list (JSON). Keys are read ignoring case: az prints dnsServiceIp
// and vnetSubnetId, the ARM API (and tools that print its resources) dnsServiceIP
// and vnetSubnetID. Azure names are case-insensitive, so a virtual network's
// owner name, "group/name", is in lower case.

#include "../kube_version.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include "importers.hpp"

#include <algorithm>
#include <cctype>

namespace cidrcheck::detail {

namespace {

auto lower(std::string s) -> std::string {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void read_aks(source_reader& in, std::uint32_t node, import_result& out) {
  auto top = in.object_at(node, "a cluster", true);
  if (!top) return;
  auto name_node = top->get("name");
  if (!name_node || (!top->get("networkProfile") && !top->at({"properties", "networkProfile"}))) {
    in.wrong_document(node, "a cluster with a name and a networkProfile");
    return;
  }
  auto name = in.text(name_node, "name");
  if (!name) return;
  // An ARM resource keeps its settings under "properties".
  auto c = top->get("properties") ? in.object_at(top->get("properties"), "properties", true) : top;
  if (!c) return;
  auto& o = add_owner(out, *name, owner_kind::cluster, "aks", in.where(*name_node));
  add_label(o, "cloud", "azure");
  if (auto location = in.text(top->get("location"), "location")) add_label(o, "region", *location);
  auto group = in.text(top->get("resourceGroup"), "resourceGroup");
  o.value.description = "AKS cluster" + (group ? " in resource group " + *group : "") + ", from az aks show";
  auto version = c->get("currentKubernetesVersion");
  if (!version) version = c->get("kubernetesVersion");
  if (auto text = in.text(version, "kubernetesVersion")) {
    if (!(o.value.kubernetes = parse_kube_version(*text))) {
      in.error(*version, diag::type, "kubernetesVersion must be a Kubernetes version, not \"" + *text + "\"");
    }
  }
  auto profile = in.object_at(c->get("networkProfile"), "networkProfile", true);
  if (profile) {
    auto pods = profile->get("podCidrs") ? in.ranges(profile->get("podCidrs"), "podCidrs")
                                         : in.ranges(profile->get("podCidr"), "podCidr");
    auto services = profile->get("serviceCidrs") ? in.ranges(profile->get("serviceCidrs"), "serviceCidrs")
                                                 : in.ranges(profile->get("serviceCidr"), "serviceCidr");
    // Azure CNI without overlay gives pods addresses of the node subnet: no pod range of their own.
    auto plugin = lower(in.text(profile->get("networkPlugin"), "networkPlugin").value_or(""));
    auto mode = lower(in.text(profile->get("networkPluginMode"), "networkPluginMode").value_or(""));
    if (pods.empty() && plugin == "azure" && mode != "overlay") o.value.declared.add(range_role::pods);
    // Azure CNI Overlay is the catalog's azure-cni in its overlay mode, whose pod CIDR grows in place.
    if (plugin == "azure" && mode == "overlay") {
      o.value.cni = "azure-cni";
      o.value.ipam = "overlay";
    }
    add_claim(o, range_role::pods, claim_kind::exact, std::move(pods));
    add_claim(o, range_role::services, claim_kind::exact, std::move(services));
    if (auto dns = profile->get("dnsServiceIp")) {
      if (auto a = in.address_at(dns, "dnsServiceIp")) {
        o.value.dns = *a;
        o.value.dns_where = in.where(*dns);
      }
    }
    // The docker bridge is written as the bridge's address ("172.17.0.1/16").
    // The default is Docker's own, which the docker-bridge rule knows; AKS nodes
    // run containerd since Kubernetes 1.19 and the API has retired the field.
    if (auto bridge = in.range(profile->get("dockerBridgeCidr"), "dockerBridgeCidr", host_bits::mask)) {
      if (bridge->cidr != prefix::parse("172.17.0.0/16")) {
        add_claim(o, range_role::network, claim_kind::additional, {std::move(*bridge)});
      }
    }
  }
  std::uint64_t nodes = 0;
  std::optional<source_location> nodes_where;
  for (auto item : in.items(c->get("agentPoolProfiles"), "agentPoolProfiles")) {
    auto pool = in.object_at(item, "an agent pool", true);
    if (!pool) continue;
    if (auto count = pool->get("count")) {
      if (auto n = in.whole(count, 0, 100'000, "count")) {
        nodes += static_cast<std::uint64_t>(*n);
        if (!nodes_where) nodes_where = in.where(*count);
      }
    }
    auto subnet_node = pool->get("vnetSubnetId");
    auto subnet = in.text(subnet_node, "vnetSubnetId");
    auto vnet = subnet ? azure_vnet_name(*subnet) : "";
    bool linked = std::any_of(o.links.begin(), o.links.end(), [&](const owner_link& l) { return l.owner == vnet; });
    if (!vnet.empty() && !linked) o.links.push_back({vnet, "virtual network", in.where(*subnet_node), {}});
    if (!vnet.empty() && !set_runs_in(o, vnet, in.where(*subnet_node))) {
      in.yaml().report(severity::warning, *subnet_node, diag::membership,
                       "an agent pool of cluster " + printable(o.value.name) + " is in virtual network " +
                           printable(vnet) + ", not the first pool's " + printable(o.value.runs_in) +
                           ": cidrcheck places the cluster in " + printable(o.value.runs_in));
    }
  }
  if (nodes_where) {
    o.value.nodes = nodes;
    o.value.nodes_where = *nodes_where;
    o.nodes_observed = true;
  }
}

}  // namespace

auto azure_vnet_name(std::string_view id) -> std::string {
  // /subscriptions/S/resourceGroups/RG/providers/Microsoft.Network/virtualNetworks/VNET/subnets/SUBNET:
  // each part after "resourceGroups" or "virtualNetworks" (in any case) names one; the last such wins.
  auto named = [](std::string_view part, std::string_view key) {
    return std::equal(part.begin(), part.end(), key.begin(), key.end(),
                      [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  };
  std::string_view group, vnet, previous;
  for (std::size_t start = 0; start <= id.size();) {
    auto slash = std::min(id.find('/', start), id.size());
    auto part = id.substr(start, slash - start);
    if (named(previous, "resourcegroups")) group = part;
    if (named(previous, "virtualnetworks")) vnet = part;
    previous = part;
    start = slash + 1;
  }
  if (group.empty() || vnet.empty()) return {};
  return lower(std::string(group) + "/" + std::string(vnet));
}

void import_aks(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    const auto& n = in.yaml().node(root);
    if (n.kind == yaml_kind::sequence) {
      for (auto item : in.items(root, "the list")) read_aks(in, item, out);
    } else if (n.kind == yaml_kind::mapping) {
      read_aks(in, root, out);
    } else {
      in.wrong_document(root, "a cluster, or a list of clusters");
    }
  }
}

}  // namespace cidrcheck::detail
