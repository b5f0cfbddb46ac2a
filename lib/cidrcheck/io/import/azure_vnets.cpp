// az network vnet list|show (JSON). az prints a virtual network's properties,
// and those of its subnets and peerings, beside its name and id; the ARM API
// (and tools that print its resources) nests them under "properties": both
// read. A virtual network is named "group/name" in lower case, as aks and the
// Terraform importer name it (azure_vnet_name()), so the three compose.

#include <cidrcheck/io/diagnostic_code.hpp>
#include "importers.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cidrcheck::detail {

namespace {

// A Connected peering, kept until every virtual network of the file is known.
struct peering {
  std::string local, remote;  // owner names
  std::string name;           // the peering's own name, for messages
  std::uint32_t node;
  source_location where;
  std::vector<imported_range> remote_space;  // remoteAddressSpace: what the peering carries
};

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
    auto group = in_.text(top->get("resourceGroup"), "resourceGroup");
    std::string key = id ? azure_vnet_name(*id) : "";
    if (key.empty() && group) key = azure_vnet_name("/resourceGroups/" + *group + "/virtualNetworks/" + *name);
    if (key.empty()) {
      in_.error(node, diag::missing_key, "virtual network " + *name + " has neither an id nor a resourceGroup");
      return;
    }
    auto p = properties(*top, "properties of virtual network " + *name);
    if (!p) return;
    auto [it, added] = owners_.emplace(key, out_.owners.size());
    if (!added) {
      in_.error(node, diag::duplicate_name, "virtual network " + key + " is listed twice in this file");
      return;
    }
    auto& o = add_owner(out_, key, owner_kind::network, "vnet", in_.where(*top->get("name")));
    auto location = in_.text(top->get("location"), "location");
    o.value.description = "Azure virtual network" + (location ? " in " + *location : "") + ", from az network vnet list";
    add_claim(o, range_role::external, claim_kind::exact,
              in_.ranges(p->at({"addressSpace", "addressPrefixes"}), "addressSpace.addressPrefixes"));
    std::vector<imported_range> subnets;
    for (auto item : in_.items(p->get("subnets"), "subnets")) {
      auto subnet = in_.object_at(item, "a subnet");
      if (!subnet) continue;
      auto sp = properties(*subnet, "properties of a subnet");
      if (!sp) continue;
      auto what = "subnet " + in_.text(subnet->get("name"), "name").value_or("without a name") + " of " + key;
      // addressPrefixes (several, or dual stack) wins over addressPrefix, as in the API.
      auto prefixes = sp->get("addressPrefixes") ? in_.ranges(sp->get("addressPrefixes"), "addressPrefixes of " + what)
                                                 : in_.ranges(sp->get("addressPrefix"), "addressPrefix of " + what);
      if (prefixes.empty() && !sp->get("addressPrefixes") && !sp->get("addressPrefix")) {
        in_.yaml().report(severity::warning, item, diag::import_unplaced, what + " has no address prefix: left out");
      }
      subnets.insert(subnets.end(), prefixes.begin(), prefixes.end());
    }
    add_claim(o, range_role::external, claim_kind::within, std::move(subnets));
    for (auto item : in_.items(p->get("virtualNetworkPeerings"), "virtualNetworkPeerings")) read_peering(item, key);
  }

  // Adds a connection per peered pair (Azure lists a peering on each side:
  // one connection for both), and a network for a remote virtual network the
  // file does not list, from the address space the peering gives for it.
  void finish() {
    std::set<std::pair<std::string, std::string>> connected;
    std::map<std::string, std::size_t> remote_only;  // owner name -> out_.owners
    for (auto& p : peerings_) {
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
          o.value.description = "Azure virtual network, known from peering " + p.name + " of " + p.local +
                                " (its remoteAddressSpace), from az network vnet list";
        }
        add_claim(out_.owners[it->second], range_role::external, claim_kind::within, std::move(p.remote_space));
      }
      if (!connected.emplace(std::min(p.local, p.remote), std::max(p.local, p.remote)).second) continue;
      imported_connection c;
      c.value.via = "peering";
      c.value.where = p.where;
      c.value.description = "Azure virtual network peering " + p.name + ", from az network vnet list";
      c.members = {{p.local, p.where}, {p.remote, p.where}};
      out_.connections.push_back(std::move(c));
    }
  }

 private:
  // The object holding a resource's settings: its "properties", or itself as az prints it.
  auto properties(const source_reader::object& o, std::string_view what) -> std::optional<source_reader::object> {
    if (auto k = o.get("properties")) return in_.object_at(*k, what);
    return o;
  }

  void read_peering(std::uint32_t item, const std::string& local) {
    auto top = in_.object_at(item, "a peering");
    if (!top) return;
    auto p = properties(*top, "properties of a peering");
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
    peerings_.push_back({local, remote, name, item, in_.where(item),
                         in_.ranges(p->at({"remoteAddressSpace", "addressPrefixes"}), "remoteAddressSpace.addressPrefixes")});
  }

  source_reader& in_;
  import_result& out_;
  std::map<std::string, std::size_t> owners_;  // owner name -> out_.owners, the networks this file lists
  std::vector<peering> peerings_;
};

}  // namespace

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
      for (auto item : in.items(list, "the list")) reader.read(item);
    } else if (n.kind == yaml_kind::mapping) {
      reader.read(root);
    } else {
      in.wrong_document(root, "a virtual network, or a list of them");
    }
  }
  reader.finish();
}

}  // namespace cidrcheck::detail
