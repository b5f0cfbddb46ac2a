// az network vnet list|show (JSON), and az network vnet peering list (one
// network's peerings: azure-peerings). az prints a virtual network's properties,
// and those of its subnets and peerings, beside its name and id; the ARM API
// (and tools that print its resources) nests them under "properties": both
// read. A virtual network is named "group/name" in lower case, as aks and the
// Terraform importer name it (azure_vnet_name()), so the three compose.

#include <cidrcheck/io/diagnostic_code.hpp>
#include "importers.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace cidrcheck::detail {

namespace {

// A subnet a subnet peering names, where it names it.
struct named_subnet {
  std::string name;
  std::uint32_t node;
};

// A Connected peering, kept until every virtual network of the file is known.
struct peering {
  std::string local, remote;  // owner names
  std::string name;           // the peering's own name, for messages
  std::uint32_t node;
  source_location where;
  std::vector<imported_range> remote_space;  // remoteAddressSpace: what the peering carries
  /// A subnet peering (peerCompleteVnets false) connects the subnets it names only.
  bool complete = true;
  bool ipv6_only = false;  // enableOnlyIPv6Peering: only the subnets' IPv6 prefixes
  std::vector<named_subnet> local_subnets = {}, remote_subnets = {};
};

// Azure names compare ignoring case.
auto lower(std::string text) -> std::string {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Reports whether text holds `part` (in lower case), ignoring case, without lower()'s copy of text.
auto contains_folded(std::string_view text, std::string_view part) -> bool {
  auto folded = [](char c, char p) { return std::tolower(static_cast<unsigned char>(c)) == p; };
  return std::search(text.begin(), text.end(), part.begin(), part.end(), folded) != text.end();
}

class vnet_reader {
 public:
  vnet_reader(source_reader& in, import_result& out) : in_(in), out_(out) {}

  void read(std::uint32_t node) {
    auto top = in_.object_at(node, "a virtual network");
    if (!top) return;
    if (!top->get("name")) {
      in_.wrong_document(node, "a virtual network with a name");
      return;
    }
    auto name = in_.text(top->get("name"), "name");
    if (!name) return;
    auto id = in_.text(top->get("id"), "id");
    // A subnet listed as a resource of its own (`az network vnet subnet list`,
    // type Microsoft.Network/virtualNetworks/subnets): its network's, by its ID.
    auto type = in_.text(top->get("type"), "type");
    if ((type && lower(*type) == "microsoft.network/virtualnetworks/subnets") ||
        (!type && id && contains_folded(*id, "/subnets/"))) {
      read_child_subnet(*top, *name, id.value_or(""));
      return;
    }
    auto group = in_.text(top->get("resourceGroup"), "resourceGroup");
    std::string key = id ? azure_vnet_name(*id) : "";
    if (key.empty() && group) key = azure_vnet_name("/resourceGroups/" + *group + "/virtualNetworks/" + *name);
    if (key.empty()) {
      in_.error(node, diag::missing_key, "virtual network " + *name + " has neither an id nor a resourceGroup");
      return;
    }
    std::optional<source_reader::object> nested;
    const auto* p = properties(*top, "properties of virtual network " + *name, nested);
    if (!p) return;
    auto [it, added] = owners_.emplace(key, out_.owners.size());
    if (!added) {
      in_.error(node, diag::duplicate_name, "virtual network " + key + " is listed twice in this file");
      return;
    }
    auto& o = add_owner(out_, key, owner_kind::network, "vnet", in_.where(*top->get("name")));
    add_label(o, "cloud", "azure");
    auto location = in_.text(top->get("location"), "location");
    o.value.description = "Azure virtual network" + (location ? " in " + *location : "") + ", from az network vnet list";
    if (location) add_label(o, "region", *location);  // an Azure location is a region
    add_claim(o, range_role::external, claim_kind::exact,
              in_.ranges(p->at({"addressSpace", "addressPrefixes"}), "addressSpace.addressPrefixes"));
    std::vector<imported_range> subnets;
    for (auto item : in_.items(p->get("subnets"), "subnets")) {
      auto subnet = in_.object_at(item, "a subnet");
      if (!subnet) continue;
      std::optional<source_reader::object> subnet_nested;
      const auto* sp = properties(*subnet, "properties of a subnet", subnet_nested);
      if (!sp) continue;
      auto subnet_name = in_.text(subnet->get("name"), "name");
      auto what = "subnet " + subnet_name.value_or("without a name") + " of " + key;
      // addressPrefixes (several, or dual stack) wins over addressPrefix, as in the API.
      auto prefixes = sp->get("addressPrefixes") ? in_.ranges(sp->get("addressPrefixes"), "addressPrefixes of " + what)
                                                 : in_.ranges(sp->get("addressPrefix"), "addressPrefix of " + what);
      if (prefixes.empty() && !sp->get("addressPrefixes") && !sp->get("addressPrefix")) {
        in_.yaml().report(severity::warning, item, diag::import_unplaced, what + " has no address prefix: left out");
      }
      subnets.insert(subnets.end(), prefixes.begin(), prefixes.end());
      if (subnet_name) listed_subnets_.emplace_back(key + "|" + lower(*subnet_name), std::move(prefixes));
    }
    add_claim(o, range_role::external, claim_kind::within, std::move(subnets));
    for (auto item : in_.items(p->get("virtualNetworkPeerings"), "virtualNetworkPeerings")) read_peering(item, key);
  }

  // `az network vnet peering list`: one network's peerings, named by their IDs
  // (".../virtualNetworks/LOCAL/virtualNetworkPeerings/NAME").
  void read_listed_peering(std::uint32_t item) {
    auto top = in_.object_at(item, "a peering");
    if (!top) return;
    auto id = in_.text(top->get("id"), "id");
    auto local = id ? azure_vnet_name(*id) : "";
    if (local.empty()) {
      in_.wrong_document(item, "a peering with the id of its virtual network's peering (.../virtualNetworks/NAME/virtualNetworkPeerings/PEERING)");
      return;
    }
    read_peering(item, local);
  }

  // A subnet of a network, listed apart from it: a range inside that network
  // (another source, or the network's own entry in this file, states its space).
  void read_child_subnet(const source_reader::object& subnet, const std::string& name, const std::string& id) {
    auto key = azure_vnet_name(id);
    if (key.empty()) {
      in_.error(subnet.node(), diag::missing_key, "subnet " + name + " has no id naming its virtual network");
      return;
    }
    std::optional<source_reader::object> nested;
    const auto* sp = properties(subnet, "properties of a subnet", nested);
    if (!sp) return;
    auto what = "subnet " + name + " of " + key;
    auto prefixes = sp->get("addressPrefixes") ? in_.ranges(sp->get("addressPrefixes"), "addressPrefixes of " + what)
                                               : in_.ranges(sp->get("addressPrefix"), "addressPrefix of " + what);
    if (prefixes.empty() && !sp->get("addressPrefixes") && !sp->get("addressPrefix")) {
      in_.yaml().report(severity::warning, subnet.node(), diag::import_unplaced, what + " has no address prefix: left out");
      return;
    }
    listed_subnets_.emplace_back(key + "|" + lower(name), prefixes);
    child_subnets_.emplace_back(key, in_.where(subnet.node()), std::move(prefixes));
  }

  // Adds a connection per peered pair (Azure lists a peering on each side:
  // one connection for both), and a network for a remote virtual network the
  // file does not list, from the address space the peering gives for it.
  void finish() {
    // Subnets listed apart lie in their network: this file's, or one another source describes.
    for (auto& [key, where, prefixes] : child_subnets_) {
      auto [it, added] = owners_.emplace(key, out_.owners.size());
      if (added) {
        auto& o = add_owner(out_, key, owner_kind::network, "vnet", where);
        add_label(o, "cloud", "azure");
        o.value.description = "Azure virtual network, known from its subnets, from az network vnet subnet list";
      }
      add_claim(out_.owners[it->second], range_role::external, claim_kind::within, std::move(prefixes));
    }
    std::set<std::pair<std::string_view, std::string_view>> connected;  // views of peerings_' names
    out_.connections.reserve(out_.connections.size() + peerings_.size());  // at most one a peering
    std::map<std::string, std::size_t> remote_only;  // owner name -> out_.owners
    for (auto& p : peerings_) {
      if (!p.complete && !owners_.contains(p.local)) {
        in_.yaml().report(severity::note, p.node, diag::unread_value,
                          "subnet peering " + p.name + " of " + p.local + " (peerCompleteVnets false) connects named "
                          "subnets, which this file does not list: read it from `az network vnet list` (azure-vnets): "
                          "no connection");
        continue;
      }
      if (!p.complete) {
        subnet_routes(p);
        continue;
      }
      if (!owners_.contains(p.remote)) {
        if (p.remote_space.empty()) {
          in_.yaml().report(severity::warning, p.node, diag::import_unplaced,
                            "peering " + p.name + " of " + p.local + " leads to " + p.remote +
                                ", which this file does not list, and gives no remoteAddressSpace: no connection");
          continue;
        }
        auto [it, added] = remote_only.emplace(p.remote, out_.owners.size());
        if (added) {
          auto& o = add_owner(out_, p.remote, owner_kind::network, "vnet", p.where);
          add_label(o, "cloud", "azure");
          o.value.description = "Azure virtual network, known from peering " + p.name + " of " + p.local +
                                " (its remoteAddressSpace), from az network vnet list";
        }
        add_claim(out_.owners[it->second], range_role::external, claim_kind::within, std::move(p.remote_space));
      }
      if (!connected.emplace(std::min<std::string_view>(p.local, p.remote), std::max<std::string_view>(p.local, p.remote)).second) {
        continue;
      }
      imported_connection c;
      c.value.via = "peering";
      c.value.where = p.where;
      c.value.description = "Azure virtual network peering " + p.name + ", from az network vnet list";
      c.members = {{p.local, p.where}, {p.remote, p.where}};
      out_.connections.push_back(std::move(c));
    }
  }

 private:
  // The subnets by "owner|subnet name" (lower case), a subnet listed twice
  // with its last prefixes. Built when a subnet peering first asks: most
  // files have none, and a table of every subnet's name cost them a node each.
  auto subnets() -> const std::map<std::string, std::vector<imported_range>>& {
    for (auto& [name, prefixes] : listed_subnets_) subnets_[std::move(name)] = std::move(prefixes);
    listed_subnets_.clear();
    return subnets_;
  }

  // The object holding a resource's settings: its "properties", read into
  // `nested`, or itself as az prints it (not a copy of its entries); nullptr
  // when "properties" is no mapping.
  auto properties(const source_reader::object& o, std::string_view what, std::optional<source_reader::object>& nested)
      -> const source_reader::object* {
    if (auto k = o.get("properties")) {
      nested = in_.object_at(*k, what);
      return nested ? &*nested : nullptr;
    }
    return &o;
  }

  // A subnet peering: the local network carries the remote subnets' prefixes
  // as routes toward the remote network (the remote side's peering carries the
  // local ones), so only those subnets meet. Subnets the file does not list are
  // named in a warning.
  void subnet_routes(const peering& p) {
    auto unplaced = [&](std::uint32_t node, const std::string& why) {
      in_.yaml().report(severity::warning, node, diag::import_unplaced,
                        "subnet peering " + p.name + " of " + p.local + " to " + p.remote + ": " + why);
    };
    if (p.remote_subnets.empty()) unplaced(p.node, "remoteSubnetNames names no subnet: no routes");
    for (const auto& s : p.local_subnets) {
      if (!subnets().contains(p.local + "|" + lower(s.name))) unplaced(s.node, "local subnet " + s.name + " is not in " + p.local);
    }
    auto remote_listed = owners_.find(p.remote);
    if (remote_listed == owners_.end()) {
      if (!p.remote_subnets.empty()) {
        unplaced(p.node, p.remote + ", whose subnets it peers, is not in this file: no routes");
      }
      return;
    }
    auto& local = out_.owners[owners_.at(p.local)];
    for (const auto& s : p.remote_subnets) {
      auto it = subnets().find(p.remote + "|" + lower(s.name));
      if (it == subnets().end()) {
        unplaced(s.node, "remote subnet " + s.name + " is not in " + p.remote + ": no route to it");
        continue;
      }
      for (const auto& r : it->second) {
        if (p.ipv6_only && r.cidr.version() != ip_version::v6) continue;
        local.routes.push_back({{r.cidr, in_.where(s.node), 0, {}}, "peering " + p.name, p.remote,
                                "virtualNetworkPeerings.remoteSubnetNames"});
      }
    }
  }

  void read_peering(std::uint32_t item, const std::string& local) {
    auto top = in_.object_at(item, "a peering");
    if (!top) return;
    std::optional<source_reader::object> nested;
    const auto* p = properties(*top, "properties of a peering", nested);
    if (!p) return;
    auto name = in_.text(top->get("name"), "name").value_or("without a name");
    auto id_node = p->at({"remoteVirtualNetwork", "id"});
    if (!id_node) {
      in_.error(item, diag::missing_key, "peering " + name + " of " + local + " has no remoteVirtualNetwork.id");
      return;
    }
    auto id = in_.text(id_node, "remoteVirtualNetwork.id");
    if (!id) return;
    auto remote = azure_vnet_name(*id);
    if (remote.empty()) {
      in_.error(*id_node, diag::invalid_value,
                "remoteVirtualNetwork.id of peering " + name + " names no virtual network: \"" + *id + "\"");
      return;
    }
    // Only a Connected peering carries traffic; Initiated waits for the other
    // side, Disconnected lost it (VirtualNetworkPeeringState).
    auto state_node = p->get("peeringState");
    auto state = in_.text(state_node, "peeringState");
    if (state && *state != "Connected") {
      in_.yaml().report(severity::note, *state_node, diag::import_inactive,
                        "peering " + name + " of " + local + " to " + remote + " is " + *state +
                            ", not Connected: no connection");
      return;
    }
    if (!state) {
      in_.yaml().report(severity::note, item, diag::import_inactive,
                        "peering " + name + " of " + local + " to " + remote +
                            " has no peeringState: no connection");
      return;
    }
    peering x{local, std::move(remote), std::move(name), item, in_.where(item), {}};
    // Subnet peering (VirtualNetworkPeering's peerCompleteVnets, localSubnetNames,
    // remoteSubnetNames, enableOnlyIPv6Peering); the whole networks otherwise, the default.
    x.complete = in_.flag(p->get("peerCompleteVnets"), "peerCompleteVnets").value_or(true);
    if (x.complete) {
      x.remote_space = in_.ranges(p->at({"remoteAddressSpace", "addressPrefixes"}), "remoteAddressSpace.addressPrefixes");
    } else {
      x.ipv6_only = in_.flag(p->get("enableOnlyIPv6Peering"), "enableOnlyIPv6Peering").value_or(false);
      for (auto [key, list] : {std::pair{"localSubnetNames", &x.local_subnets}, std::pair{"remoteSubnetNames", &x.remote_subnets}}) {
        for (auto k : in_.items(p->get(key), key)) {
          if (auto text = in_.text(k, "a subnet name")) list->push_back({*text, k});
        }
      }
    }
    peerings_.push_back(std::move(x));
  }

  source_reader& in_;
  import_result& out_;
  std::map<std::string, std::size_t> owners_;  // owner name -> out_.owners, the networks this file lists
  std::vector<peering> peerings_;
  // The subnets read, "owner|subnet name" (lower case) and prefixes, in
  // reading order; subnets() makes them a table, for subnet peerings only.
  std::vector<std::pair<std::string, std::vector<imported_range>>> listed_subnets_;
  std::map<std::string, std::vector<imported_range>> subnets_;  // "owner|subnet name" (lower case) -> its prefixes
  std::vector<std::tuple<std::string, source_location, std::vector<imported_range>>> child_subnets_;  // network, where, prefixes
};

}  // namespace

void import_azure_peerings(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  vnet_reader reader(in, out);
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    auto list = root;
    if (in.yaml().node(root).kind == yaml_kind::mapping) {
      auto top = in.object_at(root, "a peering");
      if (top && top->get("value")) list = *top->get("value");  // the REST API's {"value": [...]}
    }
    if (in.yaml().node(list).kind == yaml_kind::sequence) {
      for (auto item : in.items(list, "the list")) reader.read_listed_peering(item);
    } else {
      reader.read_listed_peering(root);
    }
  }
  reader.finish();
}

void import_azure_vnets(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  vnet_reader reader(in, out);
  for (auto root : roots) {
    const auto& n = in.yaml().node(root);
    // The REST API's list wraps the networks in {"value": [...]}.
    auto list = root;
    if (n.kind == yaml_kind::mapping) {
      if (auto top = in.object_at(root, "a virtual network"); top && !top->get("name") && top->get("value")) {
        list = *top->get("value");
      }
    }
    if (in.yaml().node(list).kind == yaml_kind::sequence) {
      auto items = in.items(list, "the list");
      out.owners.reserve(out.owners.size() + items.size());  // an owner a network: none moved as the list grows
      for (auto item : items) reader.read(item);
    } else if (n.kind == yaml_kind::mapping) {
      reader.read(root);
    } else {
      in.wrong_document(root, "a virtual network, or a list of them");
    }
  }
  reader.finish();
}

}  // namespace cidrcheck::detail
