// Resource types and attributes as the providers' documentation names them
// (docs/import/terraform.md cites each page).

#include "terraform_resources.hpp"
#include "terraform_attrs.hpp"

#include "../kube_version.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include <algorithm>
#include <set>

namespace cidrcheck::detail {

namespace {

// The block GCP takes an auto-mode network's subnets from (docs/import/terraform.md cites it).
constexpr prefix gcp_auto_mode_block = prefix::containing(address::v4(0x0A80'0000), 9);  // 10.128.0.0/9

// A range attribute, or a note when it is known only after apply.
template <class Attrs, class Unknown>
auto range_or_note(source_reader& in, const Attrs& a, std::string_view key, std::string_view what, Unknown note)
    -> std::optional<imported_range> {
  if (auto r = in.range(a.get(key), what)) return r;
  if (a.unknown(key)) note(what);
  return std::nullopt;
}

}  // namespace

void terraform_resources::unknown(const terraform_instance& r, std::string_view what) {
  in_.yaml().report(severity::note, r.node, diag::import_unknown,
                    r.address + ": " + std::string(what) +
                        " is known only after apply: left out, not guessed");
}

void terraform_resources::unknown_range(const terraform_instance& r, std::string_view what, imported_owner& o,
                                        range_role role) {
  unknown(r, what);
  if (o.value.kind == owner_kind::cluster) o.value.declared.add(role);
}

void terraform_resources::read(const terraform_instance& r) {
  attrs a(in_, r.values, r.unknown);
  auto note = [&](std::string_view what) { unknown(r, what); };
  const auto& type = r.type;
  if (type == "aws_vpc" || type == "aws_default_vpc") {
    aws_vpc(a, r);
  } else if (type == "aws_vpc_ipv4_cidr_block_association" || type == "aws_vpc_ipv6_cidr_block_association") {
    auto key = type == "aws_vpc_ipv4_cidr_block_association" ? "cidr_block" : "ipv6_cidr_block";
    if (auto v = vpc(a, r)) {
      if (auto block = range_or_note(in_, a, key, key, note)) v->second.associations.push_back(std::move(*block));
    }
  } else if (type == "aws_subnet" || type == "aws_default_subnet") {
    if (auto v = vpc(a, r)) {
      for (auto key : {"cidr_block", "ipv6_cidr_block"}) {
        if (auto block = range_or_note(in_, a, key, key, note)) v->second.subnets.push_back(std::move(*block));
      }
      // What an EKS cluster's subnet_ids may name: the subnet's ID, or (in a plan) its address.
      if (auto id = in_.text(a.get("id"), "id")) subnet_vpcs_.emplace(*id, v->first);
      subnet_vpcs_.emplace(r.address, v->first);
    }
  } else if (type == "aws_eks_cluster") {
    aws_eks(a, r);
  } else if (type == "google_compute_network") {
    gcp_network(a, r);
  } else if (type == "google_compute_subnetwork") {
    gcp_subnet(a, r);
  } else if (type == "google_container_cluster") {
    gke(a, r);
  } else if (type == "azurerm_virtual_network") {
    azure_vnet(a, r);
  } else if (type == "azurerm_subnet") {
    auto group = in_.text(a.get("resource_group_name"), "resource_group_name");
    auto vnet = in_.text(a.get("virtual_network_name"), "virtual_network_name");
    if (!group || !vnet) {
      if (a.unknown("resource_group_name") || a.unknown("virtual_network_name")) {
        note("the virtual network (resource_group_name, virtual_network_name)");
      } else {
        in_.error(r.node, diag::missing_key, r.address + " names no resource_group_name and virtual_network_name");
      }
      return;
    }
    auto& o = vnet_owner(*group, *vnet, r);
    add_claim(o, range_role::external, claim_kind::within, azure_prefixes(a, r));
  } else if (type == "azurerm_kubernetes_cluster") {
    aks(a, r);
  } else if (!read_connection(a, r)) {
    ++skipped_[type];
  }
}

// Adds the VPCs: an aws_vpc's blocks and associations are the VPC's;
// associations alone are more of a VPC described elsewhere; subnets lie inside.
void terraform_resources::finish(std::uint32_t where) {
  finish_connections();
  link_clusters();
  for (auto& [id, v] : vpcs_) {
    if (!v.owner) {
      v.owner = out_.owners.size();
      auto& o = add_owner(out_, id, owner_kind::network, "vpc", v.first_seen);
      add_label(o, "cloud", "aws");
      o.value.description = "AWS VPC, known from resources in " + std::string(v.from) + " that name it";
    }
    auto& o = out_.owners[*v.owner];
    if (v.described) {
      v.blocks.insert(v.blocks.end(), v.associations.begin(), v.associations.end());
      add_claim(o, range_role::external, claim_kind::exact, std::move(v.blocks));
    } else {
      add_claim(o, range_role::external, claim_kind::additional, std::move(v.associations));
    }
    add_claim(o, range_role::external, claim_kind::within, std::move(v.subnets));
    o.routes.insert(o.routes.end(), v.routes.begin(), v.routes.end());
  }
  if (skipped_.empty()) return;
  std::size_t total = 0;
  std::string types;
  for (const auto& [type, count] : skipped_) {
    total += count;
    types += (types.empty() ? "" : ", ") + type + (count > 1 ? " (" + std::to_string(count) + ")" : "");
  }
  in_.yaml().report(severity::note, where, diag::import_skipped,
                    std::to_string(total) + (total == 1 ? " resource" : " resources") +
                        " of types cidrcheck does not read: " + types);
}

// A cluster's subnets all in one VPC place it there; subnets in several VPCs,
// or not in the input, leave it unplaced, with a note that says which.
void terraform_resources::link_clusters() {
  if (clusters_.empty()) return;
  for (const auto& c : clusters_) {
    std::set<std::string> found;
    std::string missing;
    for (const auto* names : {&c.ids, &c.addresses}) {
      for (const auto& name : *names) {
        auto it = subnet_vpcs_.find(name);
        if (it != subnet_vpcs_.end()) {
          found.insert(it->second);
        } else {
          missing += (missing.empty() ? "" : ", ") + name;
        }
      }
    }
    if (found.size() == 1 && missing.empty()) {
      // It runs in that VPC, whose blocks become its network: a VPC that
      // overlaps another still overlaps it, since the cluster says where it runs.
      out_.owners[c.owner].links.push_back({*found.begin(), "VPC", c.where, {}});
      set_runs_in(out_.owners[c.owner], *found.begin(), c.where);
      continue;
    }
    std::string why;
    if (found.size() > 1) {
      std::string vpcs;
      for (const auto& v : found) vpcs += (vpcs.empty() ? "" : ", ") + v;
      why = ", and its subnets (vpc_config.subnet_ids) lie in " + std::to_string(found.size()) + " VPCs (" + vpcs + ")";
    } else if (!missing.empty()) {
      why = ", and its subnets (vpc_config.subnet_ids) " + missing + " are not in this file with their VPC";
    } else if (!c.unknown) {
      continue;  // state without vpc_id nor subnets: nothing to say which
    }
    auto message = c.address + ": vpc_config.vpc_id (the VPC it runs in) is " +
                   (c.unknown ? "known only after apply" : "not given") + why + ": left out, not guessed";
    if (c.unknown) {
      in_.yaml().report(severity::note, c.node, diag::import_unknown, message);
    } else {
      in_.yaml().report(severity::warning, c.node, diag::import_unplaced, message);
    }
  }
}

auto terraform_resources::vpc(const attrs& a, const terraform_instance& r) -> vpc_entry* {
  auto k = a.get("vpc_id");
  auto id = in_.text(k, "vpc_id");
  if (!id && a.unknown("vpc_id") && r.vpc_reference) id = r.vpc_reference;
  if (!id) {
    if (a.unknown("vpc_id")) {
      unknown(r, "vpc_id (the VPC its range belongs to)");
    } else if (!k) {
      in_.error(r.node, diag::missing_key, r.address + " names no vpc_id");
    }
    return nullptr;
  }
  auto& entry = *vpcs_.try_emplace(*id).first;
  auto& v = entry.second;
  if (v.first_seen.file.empty()) {
    v.first_seen = in_.where(r.node);
    v.from = r.from;
  }
  return &entry;
}

void terraform_resources::aws_vpc(const attrs& a, const terraform_instance& r) {
  // A VPC the plan creates has no ID yet: its address stands for it.
  auto id = in_.text(a.get("id"), "id").value_or(r.address);
  auto& v = vpcs_[id];
  v.described = true;
  bool is_default = r.type == "aws_default_vpc";
  if (!v.owner) {
    v.owner = out_.owners.size();
    add_owner(out_, id, owner_kind::network, is_default ? "aws-default-vpc" : "vpc", in_.where(r.node));
  }
  auto& o = out_.owners[*v.owner];
  auto tags = in_.object_at(a.get("tags"), "tags");
  auto name = tags ? in_.text(tags->get("Name"), "Name") : std::nullopt;
  o.value.description = "AWS VPC" + (name ? " " + *name : "") + ", from " + std::string(r.from) + " " + r.address;
  auto note = [&](std::string_view what) { unknown(r, what); };
  if (auto block = range_or_note(in_, a, "cidr_block", "cidr_block", note)) v.blocks.push_back(std::move(*block));
  // ipv6_cidr_block is computed: unknown in every plan that creates a VPC, so
  // only a VPC that asks for an IPv6 block (Amazon's, or from a pool) is noted.
  bool wants_ipv6 = in_.flag(a.get("assign_generated_ipv6_cidr_block"), "assign_generated_ipv6_cidr_block")
                        .value_or(false) ||
                    a.get("ipv6_ipam_pool_id") || a.unknown("ipv6_ipam_pool_id");
  if (auto block = in_.range(a.get("ipv6_cidr_block"), "ipv6_cidr_block")) {
    v.blocks.push_back(std::move(*block));
  } else if (wants_ipv6 && a.unknown("ipv6_cidr_block")) {
    note("ipv6_cidr_block");
  }
}

auto terraform_resources::cluster(const std::string& name, std::string type, std::string what,
                                  const terraform_instance& r) -> imported_owner& {
  auto& o = add_owner(out_, name, owner_kind::cluster, std::move(type), in_.where(r.node));
  o.value.description = std::move(what) + ", from " + std::string(r.from) + " " + r.address;
  return o;
}

void terraform_resources::kubernetes_version(const attrs& a, std::string_view key, imported_owner& o) {
  auto v = a.get(key);
  auto text = in_.text(v, key);
  // A placeholder ("test-min_master_version", as terraform-validator's test
  // plans hold) or a channel name says no version: noted, the rest is read.
  if (text && !(o.value.kubernetes = parse_kube_version(*text))) {
    in_.yaml().report(severity::note, *v, diag::unread_value,
                      std::string(key) + " \"" + *text + "\" is no Kubernetes version such as \"1.29\": left out");
  }
}

void terraform_resources::aws_eks(const attrs& a, const terraform_instance& r) {
  auto& o = cluster(in_.text(a.get("name"), "name").value_or(r.address), "eks", "EKS cluster", r);
  add_label(o, "cloud", "aws");  // the resource names no region, as aws eks describe-cluster does not
  kubernetes_version(a, "version", o);
  auto network = a.block("kubernetes_network_config");
  // Without service_ipv4_cidr, EKS picks 10.100.0.0/16 or 172.20.0.0/16 at
  // apply (the provider's docs): unknown in the plan, noted.
  bool ipv6 = in_.text(network.get("ip_family"), "ip_family") == "ipv6";
  std::vector<imported_range> services;
  for (auto [key, wanted] : {std::pair{"service_ipv4_cidr", !ipv6}, std::pair{"service_ipv6_cidr", ipv6}}) {
    std::string what = "kubernetes_network_config." + std::string(key);
    if (auto s = in_.range(network.get(key), what)) {
      services.push_back(std::move(*s));
    } else if (wanted && network.unknown(key)) {
      unknown_range(r, what, o, range_role::services);
    }
  }
  add_claim(o, range_role::services, claim_kind::exact, std::move(services));
  // Pods take addresses of the VPC (the VPC CNI), as aws-eks reads it; hybrid
  // nodes' pod and node networks are ranges of their own.
  o.value.declared.add(range_role::pods);
  auto remote = a.block("remote_network_config");
  for (auto [key, role, kind] : {std::tuple{"remote_pod_networks", range_role::pods, claim_kind::exact},
                                 std::tuple{"remote_node_networks", range_role::network, claim_kind::additional}}) {
    std::vector<imported_range> ranges;
    for (const auto& b : remote.blocks(key)) {
      auto more = in_.ranges(b.get("cidrs"), key);
      ranges.insert(ranges.end(), more.begin(), more.end());
    }
    add_claim(o, role, kind, std::move(ranges));
  }
  auto vpc = a.block("vpc_config");
  auto k = vpc.get("vpc_id");
  auto id = in_.text(k, "vpc_id");
  if (id && !id->empty()) {
    o.links.push_back({*id, "VPC", in_.where(*k), {}});
    set_runs_in(o, *id, in_.where(*k));
    return;
  }
  // vpc_id is computed: the VPC of the subnets the cluster is given (subnet_ids, required) is it.
  cluster_subnets c{static_cast<std::size_t>(&o - out_.owners.data()), r.address, r.node, in_.where(r.node),
                    {}, r.subnet_references, vpc.unknown("vpc_id")};
  if (auto ids = vpc.get("subnet_ids")) {
    c.where = in_.where(*ids);
    for (auto item : in_.items(ids, "subnet_ids")) {
      if (auto text = in_.text(item, "a subnet ID")) c.ids.push_back(*text);
    }
  }
  if (c.ids.empty() && c.addresses.empty() && !c.unknown) return;
  clusters_.push_back(std::move(c));
}

void terraform_resources::gcp_network(const attrs& a, const terraform_instance& r) {
  // An auto-mode network (auto_create_subnetworks, true unless set false: the
  // provider's default) has GCP create a subnet in each region from the
  // auto-mode block; a network's other range of its own is the ULA /48 it
  // takes when enable_ula_internal_ipv6 is set. Its other ranges are its
  // subnets' (google_compute_subnetwork).
  auto auto_node = a.get("auto_create_subnetworks");
  bool auto_mode = in_.flag(auto_node, "auto_create_subnetworks").value_or(!a.unknown("auto_create_subnetworks"));
  bool ula = in_.flag(a.get("enable_ula_internal_ipv6"), "enable_ula_internal_ipv6").value_or(false);
  auto project = in_.text(a.get("project"), "project");
  auto name = in_.text(a.get("name"), "name");
  if (project && name) note_gcp_network(r.address, *project + "/" + *name);
  if (!auto_mode && !ula) return;
  auto& o = add_owner(out_, project && name ? *project + "/" + *name : r.address, owner_kind::network, "gcp-network",
                      in_.where(r.node));
  add_label(o, "cloud", "gcp");
  o.value.description =
      "GCP VPC network" + std::string(auto_mode ? " in auto mode" : "") + ", from " + std::string(r.from) + " " + r.address;
  std::vector<imported_range> ranges;
  if (auto_mode) {
    auto at = auto_node.value_or(r.node);
    ranges.push_back({gcp_auto_mode_block, in_.where(at), 0, {}});
    in_.yaml().report(severity::note, at, diag::import_implied,
                      r.address + ": auto_create_subnetworks is true, so GCP creates a subnet in each region from " +
                          gcp_auto_mode_block.to_string() +
                          ", the auto-mode block (cloud.google.com/vpc/docs/vpc; the provider's google_compute_network "
                          "page): claimed as the network's range");
  }
  auto note = [&](std::string_view what) { unknown(r, what); };
  if (ula) {
    if (auto range = range_or_note(in_, a, "internal_ipv6_range", "internal_ipv6_range", note)) {
      ranges.push_back(std::move(*range));
    }
  }
  add_claim(o, range_role::external, claim_kind::exact, std::move(ranges));
}

void terraform_resources::gcp_subnet(const attrs& a, const terraform_instance& r) {
  auto self = in_.text(a.get("self_link"), "self_link");
  std::string owner = self ? gcp_subnet_name(*self) : "";
  if (owner.empty()) {
    auto project = in_.text(a.get("project"), "project");
    auto region = in_.text(a.get("region"), "region");
    auto name = in_.text(a.get("name"), "name");
    owner = project && region && name ? *project + "/" + *region + "/" + *name : r.address;
  }
  auto& o = add_owner(out_, owner, owner_kind::network, "gcp-subnet", in_.where(r.node));
  add_label(o, "cloud", "gcp");
  if (auto region = in_.text(a.get("region"), "region")) add_label(o, "region", region->substr(region->rfind('/') + 1));
  o.value.description = "GCP subnet, from " + std::string(r.from) + " " + r.address;
  note_gcp_subnet(out_.owners.size() - 1, a, r);
  auto note = [&](std::string_view what) { unknown(r, what); };
  std::vector<imported_range> ranges;
  if (auto range = range_or_note(in_, a, "ip_cidr_range", "ip_cidr_range", note)) ranges.push_back(std::move(*range));
  // ipv6_cidr_range and external_ipv6_prefix are Google's choice, made at apply
  // for a dual-stack subnet; single-stack subnets have none, so unknown ones are
  // noted only when stack_type asks for IPv6.
  bool ipv6 = in_.text(a.get("stack_type"), "stack_type").value_or("IPV4_ONLY") != "IPV4_ONLY";
  for (auto key : {"ipv6_cidr_range", "external_ipv6_prefix"}) {
    if (auto range = in_.range(a.get(key), key)) {
      ranges.push_back(std::move(*range));
    } else if (ipv6 && key == std::string_view("ipv6_cidr_range") && a.unknown(key)) {
      note(key);
    }
  }
  for (const auto& secondary : a.blocks("secondary_ip_range")) {
    if (auto range = range_or_note(in_, secondary, "ip_cidr_range", "secondary_ip_range.ip_cidr_range", note)) {
      range->label = in_.text(secondary.get("range_name"), "range_name").value_or("");
      ranges.push_back(std::move(*range));
    }
  }
  add_claim(o, range_role::external, claim_kind::exact, std::move(ranges));
}

void terraform_resources::gke(const attrs& a, const terraform_instance& r) {
  auto& o = cluster(in_.text(a.get("name"), "name").value_or(r.address), "gke", "GKE cluster", r);
  add_label(o, "cloud", "gcp");
  if (auto location = in_.text(a.get("location"), "location")) add_label(o, "location", *location);  // region or zone
  kubernetes_version(a, a.get("master_version") ? "master_version" : "min_master_version", o);
  auto policy = a.block("ip_allocation_policy");
  // Each range is written at the top (computed) and in the blocks (as given):
  // claims that must agree. A size alone ("/14") is GKE's to place at apply.
  auto read = [&](range_role role, std::initializer_list<std::pair<const attrs*, std::string_view>> at,
                  std::string_view label_key, claim_kind kind) {
    bool found = false;
    std::string pending;
    for (auto [b, key] : at) {
      std::string what = (b == &a ? "" : std::string(b == &policy ? "ip_allocation_policy." : "private_cluster_config.")) +
                         std::string(key);
      auto text = in_.text(b->get(key), what);
      if (text && text->starts_with("/")) {
        pending = what + " (\"" + *text + "\", a size GKE places)";
      } else if (auto range = in_.range(b->get(key), what)) {
        add_claim(o, role, kind, {std::move(*range)});
        found = true;
      } else if (b->unknown(key) && pending.empty()) {
        pending = what;
      }
    }
    // Named secondary ranges of the subnet are the cluster's, through its
    // link: no distribution default stands in for them.
    bool labelled = !label_key.empty() && policy.get(label_key);
    if (labelled && !found) o.value.declared.add(role);
    if (!found && !labelled && !pending.empty()) unknown_range(r, pending, o, role);
  };
  read(range_role::pods, {{&a, "cluster_ipv4_cidr"}, {&policy, "cluster_ipv4_cidr_block"}},
       "cluster_secondary_range_name", claim_kind::exact);
  read(range_role::services, {{&a, "services_ipv4_cidr"}, {&policy, "services_ipv4_cidr_block"}},
       "services_secondary_range_name", claim_kind::exact);
  auto control = a.block("private_cluster_config");
  read(range_role::network, {{&control, "master_ipv4_cidr_block"}}, "", claim_kind::additional);
  owner_link link;
  link.what = "subnet";
  for (auto [key, role] : {std::pair{"cluster_secondary_range_name", range_role::pods},
                           std::pair{"services_secondary_range_name", range_role::services}}) {
    if (auto label = in_.text(policy.get(key), key)) link.labels.push_back({*label, role, claim_kind::exact});
  }
  // The subnetwork is a self link or a "projects/P/regions/R/subnetworks/N" path.
  if (auto k = a.get("subnetwork")) {
    auto path = in_.text(k, "subnetwork");
    if (path && !(link.owner = gcp_subnet_name(*path)).empty()) {
      link.where = in_.where(*k);
      o.links.push_back(std::move(link));
    } else if (path && !link.labels.empty()) {
      // A bare name ("test-subnetwork") says neither project nor region: the
      // subnet, and the secondary ranges the cluster names in it, are not found.
      in_.yaml().report(severity::note, *k, diag::unread_value,
                        r.address + ": subnetwork \"" + *path +
                            "\" is no subnet path (projects/P/regions/R/subnetworks/N): the secondary ranges it names "
                            "for pods and services are unknown, not guessed");
    }
  }
  // The network it runs in: a self link, a path, or a name in the cluster's project.
  if (auto k = a.get("network")) {
    auto text = in_.text(k, "network");
    auto network = text ? gcp_network_name(*text, in_.text(a.get("project"), "project").value_or("")) : "";
    if (!network.empty()) set_runs_in(o, network, in_.where(*k));
  }
}

void terraform_resources::azure_vnet(const attrs& a, const terraform_instance& r) {
  auto group = in_.text(a.get("resource_group_name"), "resource_group_name");
  auto name = in_.text(a.get("name"), "name");
  if (!group || !name) {
    if (a.unknown("resource_group_name") || a.unknown("name")) {
      unknown(r, "the virtual network's name (resource_group_name, name)");
    } else {
      in_.error(r.node, diag::missing_key, r.address + " names no resource_group_name and name");
    }
    return;
  }
  auto& o = vnet_owner(*group, *name, r);
  if (auto location = in_.text(a.get("location"), "location")) add_label(o, "region", *location);  // a region, as az's
  note_azure_vnet(r.address, o.value.name);
  o.value.description = "Azure virtual network, from " + std::string(r.from) + " " + r.address;
  auto note = [&](std::string_view what) { unknown(r, what); };
  auto space = in_.ranges(a.get("address_space"), "address_space");
  if (space.empty() && a.unknown("address_space")) note("address_space");
  add_claim(o, range_role::external, claim_kind::exact, std::move(space));
  std::vector<imported_range> subnets;
  for (const auto& subnet : a.blocks("subnet")) {
    auto more = azure_prefixes(subnet, r);
    subnets.insert(subnets.end(), more.begin(), more.end());
  }
  add_claim(o, range_role::external, claim_kind::within, std::move(subnets));
}

// An Azure subnet's prefixes: address_prefixes, or address_prefix (older providers).
auto terraform_resources::azure_prefixes(const attrs& subnet, const terraform_instance& r)
    -> std::vector<imported_range> {
  if (auto list = subnet.get("address_prefixes")) return in_.ranges(list, "address_prefixes");
  if (subnet.get("address_prefix")) return in_.ranges(subnet.get("address_prefix"), "address_prefix");
  if (subnet.unknown("address_prefixes")) unknown(r, "address_prefixes");
  return {};
}

auto terraform_resources::vnet_owner(const std::string& group, const std::string& name, const terraform_instance& r)
    -> imported_owner& {
  auto key = azure_vnet_name("/resourceGroups/" + group + "/virtualNetworks/" + name);
  auto it = vnets_.find(key);
  if (it == vnets_.end()) {
    it = vnets_.emplace(key, out_.owners.size()).first;
    auto& o = add_owner(out_, key, owner_kind::network, "vnet", in_.where(r.node));
    add_label(o, "cloud", "azure");
    o.value.description = "Azure virtual network, known from " + std::string(r.from) + " " + r.address;
  }
  return out_.owners[it->second];
}

void terraform_resources::aks(const attrs& a, const terraform_instance& r) {
  auto& o = cluster(in_.text(a.get("name"), "name").value_or(r.address), "aks", "AKS cluster", r);
  add_label(o, "cloud", "azure");
  if (auto location = in_.text(a.get("location"), "location")) add_label(o, "region", *location);
  kubernetes_version(a, "kubernetes_version", o);
  auto note = [&](std::string_view what) { unknown(r, what); };
  auto profile = a.block("network_profile");
  // The list forms (dual stack) win over the single ones, as in az's output;
  // each is computed, so a range is noted as unknown only when both are.
  auto pair = [&](std::string_view list, std::string_view one, range_role role) {
    auto out = profile.get(list) ? in_.ranges(profile.get(list), list) : in_.ranges(profile.get(one), one);
    if (out.empty() && profile.unknown(list) && profile.unknown(one)) {
      unknown_range(r, "network_profile." + std::string(one), o, role);
    }
    return out;
  };
  auto plugin = in_.text(profile.get("network_plugin"), "network_plugin").value_or("");
  auto mode = in_.text(profile.get("network_plugin_mode"), "network_plugin_mode").value_or("");
  // Azure CNI without overlay gives pods addresses of the node subnet: no pod
  // range of their own (and none to wait for), as aks reads it.
  bool flat = plugin == "azure" && mode != "overlay";
  if (flat) {
    o.value.declared.add(range_role::pods);
  } else {
    add_claim(o, range_role::pods, claim_kind::exact, pair("pod_cidrs", "pod_cidr", range_role::pods));
  }
  add_claim(o, range_role::services, claim_kind::exact, pair("service_cidrs", "service_cidr", range_role::services));
  if (auto dns = profile.get("dns_service_ip")) {
    if (auto address = in_.address_at(dns, "dns_service_ip")) {
      o.value.dns = *address;
      o.value.dns_where = in_.where(*dns);
    }
  }
  auto pool = a.block("default_node_pool");
  if (auto count = pool.get("node_count")) {
    if (auto n = in_.whole(count, 0, 100'000, "node_count")) {
      o.value.nodes = static_cast<std::uint64_t>(*n);
      o.value.nodes_where = in_.where(*count);
    }
  }
  if (auto k = pool.get("vnet_subnet_id")) {
    auto id = in_.text(k, "vnet_subnet_id");
    auto vnet = id ? azure_vnet_name(*id) : "";
    if (!vnet.empty()) {
      o.links.push_back({vnet, "virtual network", in_.where(*k), {}});
      set_runs_in(o, vnet, in_.where(*k));
    }
  } else if (pool.unknown("vnet_subnet_id")) {
    note("default_node_pool.vnet_subnet_id (the virtual network it runs in)");
  }
}

}  // namespace cidrcheck::detail
