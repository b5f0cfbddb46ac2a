// Who routes to whom, from Terraform state and plans: the resources that join
// networks, read through terraform_resources (attribute names as the
// providers' documentation gives them; docs/import/terraform.md cites each):
// - AWS: aws_vpc_peering_connection and _accepter; a transit gateway's VPC
//   and VPN attachments, route tables, associations, propagations and static
//   routes; Site-to-Site VPNs and their static routes; route table entries
//   (aws_route, aws_route_table's inline routes) toward a peering, a transit
//   gateway or a VPN gateway;
// - GCP: google_compute_network_peering; HA and classic VPN tunnels, the
//   ranges a Cloud Router advertises to their peers, static routes into them;
// - Azure: azurerm_virtual_network_peering; Virtual WAN hubs and their
//   virtual network connections.
// A resource names what it joins by ID; in a plan an ID the plan creates is
// unknown, and the configuration's reference (terraform_instance::references)
// names the instance instead, as VPCs the plan creates are named by address.
// Every connection is kept by those keys until every instance is read, then
// made once: O(n log n) in the resources.

#include "terraform_attrs.hpp"
#include "terraform_resources.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace cidrcheck::detail {

namespace {

auto lower(std::string text) -> std::string {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The segment after `key` in an Azure resource ID, compared ignoring case ("" if none).
auto azure_segment(std::string_view id, std::string_view key) -> std::string {
  auto text = lower(std::string(id));
  auto at = text.find("/" + lower(std::string(key)) + "/");
  if (at == std::string::npos) return {};
  auto from = at + key.size() + 2;
  return std::string(id.substr(from, id.find('/', from) - from));
}

// An Azure virtual hub's name as an owner, "group/hub" in lower case, from its ID.
auto azure_hub_name(std::string_view id) -> std::string {
  auto group = azure_segment(id, "resourceGroups");
  auto hub = azure_segment(id, "virtualHubs");
  return group.empty() || hub.empty() ? "" : lower(group + "/" + hub);
}

// An Azure hub route table as a key, "group/hub/table" in lower case ("" if the ID names none).
auto azure_hub_table(std::string_view id) -> std::string {
  auto hub = azure_hub_name(id);
  auto table = azure_segment(id, "hubRouteTables");
  return hub.empty() || table.empty() ? "" : hub + "/" + lower(table);
}

}  // namespace

// Route tables that join what is attached to a router: an AWS transit gateway
// route table, an Azure virtual hub route table. Each member is associated
// with a table (its traffic is routed by it) or propagates its ranges into it.
struct route_table_member {
  std::string table, member;  // the table's key, the member's owner name
  source_location where;
};

struct terraform_resources::links {
  // aws_vpc_peering_connection and its accepter, by the peering's key.
  struct aws_peering {
    std::string requester, accepter;  // VPC keys
    std::optional<std::string> status;  // accept_status, when known
    bool accepted_in_input = false;     // auto_accept, or an accepter resource
    std::string address;
    std::uint32_t node = 0;
    source_location where;
    std::string_view from;
  };
  std::map<std::string, aws_peering> aws_peerings;
  // Transit gateways by key: their default route tables (key, or "" when not known).
  struct transit_gateway {
    bool associate = true, propagate = true;  // default_route_table_association/propagation "enable"
    std::string association_table, propagation_table;
  };
  std::map<std::string, transit_gateway> tgws;
  // Attachments by key: the gateway, what is attached (an owner name), defaults used.
  struct attachment {
    std::string tgw, member, address;
    bool default_association = true, default_propagation = true;
    source_location where;
  };
  std::map<std::string, attachment> attachments;
  std::vector<std::pair<std::string, std::string>> associations, propagations;  // (attachment, table)
  struct static_route {
    std::string table, attachment;
    imported_range cidr;
  };
  std::vector<static_route> tgw_routes;
  // VPNs by key: what they attach to (a VPN gateway or a transit gateway) and the customer gateway.
  struct vpn {
    std::string vpn_gateway, address, customer_gateway;
    std::vector<imported_range> ranges;  // static routes: the other side's ranges
    bool static_only = false;
    std::uint32_t node = 0;
    source_location where;
    std::string_view from;
  };
  std::map<std::string, vpn> vpns;
  std::map<std::string, std::string> vpn_gateways;  // VPN gateway key -> VPC key
  std::map<std::string, std::string> route_tables;  // route table key -> VPC key
  struct vpc_route {
    std::string table, target_kind, target;  // target_kind: peering, transit, vpn
    imported_range cidr;
    std::string from;
  };
  std::vector<vpc_route> vpc_routes;
  std::size_t default_routes = 0;  // 0.0.0.0/0 and ::/0 toward them: not read
  std::uint32_t default_route_node = 0;  // the first
  // GCP: networks by instance address -> name; subnets waiting for their network's name.
  std::map<std::string, std::string> gcp_networks;
  std::vector<std::pair<std::size_t, std::string>> gcp_subnets;  // owner index, network key
  struct gcp_peering {
    std::string network, peer, name, address;
    std::optional<std::string> state;
    std::uint32_t node = 0;
    source_location where;
    std::string_view from;
  };
  std::vector<gcp_peering> gcp_peerings;
  struct gcp_router {
    std::string network;
    std::vector<imported_range> advertised;  // custom advertised ranges
  };
  std::map<std::string, gcp_router> gcp_routers;  // by key
  std::map<std::string, std::string> gcp_gateways;  // VPN gateway key -> network key
  struct gcp_tunnel {
    std::string network, router, gateway, peer_gateway, remote, address;
    std::vector<imported_range> ranges;  // remote traffic selectors and static routes into it
    std::uint32_t node = 0;
    source_location where;
    std::string_view from;
  };
  std::map<std::string, gcp_tunnel> gcp_tunnels;
  std::vector<std::pair<std::string, imported_range>> gcp_routes;  // tunnel key, a static route's range
  // Azure: virtual networks by instance address -> owner name; peerings; hubs.
  std::map<std::string, std::string> vnets;
  struct azure_peering {
    std::string local, remote, name;
    bool complete = true;
    std::uint32_t node = 0;
    source_location where;
    std::string_view from;
  };
  std::vector<azure_peering> azure_peerings;
  std::map<std::string, std::string> hubs;  // instance address -> hub owner name
  struct hub_member {
    std::string table, hub, vnet;  // as the connection names them; table "" for the hub's default
    source_location where;
  };
  std::vector<hub_member> hub_associations, hub_propagations;
};

terraform_resources::terraform_resources(source_reader& in, import_result& out)
    : in_(in), out_(out), links_(std::make_unique<links>()) {}

terraform_resources::~terraform_resources() = default;

auto terraform_resources::ref(const attrs& a, const terraform_instance& r, std::string_view key, std::string_view what,
                              std::string_view reference) -> std::optional<std::string> {
  auto k = a.get(key);
  if (auto text = in_.text(k, key); text && !text->empty()) return text;
  if (!a.unknown(key)) return std::nullopt;
  if (r.references) {
    auto targets = r.references(reference.empty() ? key : reference);
    if (targets.size() == 1) return *targets.begin();
  }
  unknown(r, what);
  return std::nullopt;
}

namespace {

// The AWS resource a route entry or a reference targets, by the prefix of its
// ID ("pcx-", "tgw-", "vgw-") or, in a plan, the type of the instance it names.
auto aws_target_kind(std::string_view target) -> std::string_view {
  auto type_of = [&](std::string_view type) {
    return target.starts_with(type) || target.find("." + std::string(type)) != std::string_view::npos;
  };
  if (target.starts_with("pcx-") || type_of("aws_vpc_peering_connection.")) return "peering";
  if (target.starts_with("tgw-") || type_of("aws_ec2_transit_gateway.")) return "transit";
  if (target.starts_with("vgw-") || type_of("aws_vpn_gateway.")) return "vpn";
  return {};
}

}  // namespace

auto terraform_resources::read_connection(const attrs& a, const terraform_instance& r) -> bool {
  auto& l = *links_;
  // A default route says where everything else goes, not which network is
  // there: counted for one note, not read.
  auto add_vpc_route = [&](links::vpc_route route) {
    if (route.cidr.cidr.length() == 0) {
      if (l.default_routes++ == 0) l.default_route_node = r.node;
      return;
    }
    l.vpc_routes.push_back(std::move(route));
  };
  const auto& type = r.type;
  auto id_or_address = [&] { return in_.text(a.get("id"), "id").value_or(r.address); };
  if (type == "aws_vpc_peering_connection" || type == "aws_vpc_peering_connection_accepter") {
    bool accepter = type == "aws_vpc_peering_connection_accepter";
    auto key = accepter ? ref(a, r, "vpc_peering_connection_id", "vpc_peering_connection_id (the peering it accepts)")
                        : std::optional(id_or_address());
    if (!key) return true;
    auto& p = l.aws_peerings[*key];
    // The requester names its VPC and the peer's; the accepter its own VPC (vpc_id) and the requester's (peer_vpc_id).
    auto mine = ref(a, r, "vpc_id", "vpc_id");
    auto peer = ref(a, r, "peer_vpc_id", "peer_vpc_id");
    if (mine) (accepter ? p.accepter : p.requester) = *mine;
    if (peer) (accepter ? p.requester : p.accepter) = *peer;
    if (auto status = in_.text(a.get("accept_status"), "accept_status")) {
      if (!p.status || *status == "active") p.status = status;
    }
    p.accepted_in_input = p.accepted_in_input || accepter ||
                          in_.flag(a.get("auto_accept"), "auto_accept").value_or(false);
    if (p.address.empty() || !accepter) {
      p.address = r.address;
      p.node = r.node;
      p.where = in_.where(r.node);
      p.from = r.from;
    }
    return true;
  }
  if (type == "aws_ec2_transit_gateway") {
    auto& g = l.tgws[id_or_address()];
    g.associate = in_.text(a.get("default_route_table_association"), "default_route_table_association")
                      .value_or("enable") == "enable";
    g.propagate = in_.text(a.get("default_route_table_propagation"), "default_route_table_propagation")
                      .value_or("enable") == "enable";
    g.association_table = in_.text(a.get("association_default_route_table_id"), "association_default_route_table_id").value_or("");
    g.propagation_table = in_.text(a.get("propagation_default_route_table_id"), "propagation_default_route_table_id").value_or("");
    return true;
  }
  if (type == "aws_ec2_transit_gateway_vpc_attachment") {
    auto tgw = ref(a, r, "transit_gateway_id", "transit_gateway_id");
    auto vpc = ref(a, r, "vpc_id", "vpc_id (the VPC it attaches)");
    if (!tgw || !vpc) return true;
    auto& x = l.attachments[id_or_address()];
    x.tgw = *tgw;
    x.member = *vpc;
    x.address = r.address;
    x.where = in_.where(r.node);
    x.default_association = in_.flag(a.get("transit_gateway_default_route_table_association"),
                                     "transit_gateway_default_route_table_association").value_or(true);
    x.default_propagation = in_.flag(a.get("transit_gateway_default_route_table_propagation"),
                                     "transit_gateway_default_route_table_propagation").value_or(true);
    return true;
  }
  if (type == "aws_ec2_transit_gateway_route_table" || type == "aws_ec2_transit_gateway_peering_attachment") {
    return true;  // a table is known by the associations and routes that name it
  }
  if (type == "aws_ec2_transit_gateway_route_table_association" ||
      type == "aws_ec2_transit_gateway_route_table_propagation") {
    auto attachment = ref(a, r, "transit_gateway_attachment_id", "transit_gateway_attachment_id");
    auto table = ref(a, r, "transit_gateway_route_table_id", "transit_gateway_route_table_id");
    if (!attachment || !table) return true;
    (type.ends_with("association") ? l.associations : l.propagations).emplace_back(*attachment, *table);
    return true;
  }
  if (type == "aws_ec2_transit_gateway_route") {
    auto table = ref(a, r, "transit_gateway_route_table_id", "transit_gateway_route_table_id");
    auto cidr = in_.range(a.get("destination_cidr_block"), "destination_cidr_block");
    if (!table || !cidr) return true;
    if (in_.flag(a.get("blackhole"), "blackhole").value_or(false)) return true;  // it drops the traffic: no route
    if (auto attachment = ref(a, r, "transit_gateway_attachment_id", "transit_gateway_attachment_id")) {
      l.tgw_routes.push_back({*table, *attachment, std::move(*cidr)});
    }
    return true;
  }
  if (type == "aws_vpn_gateway" || type == "aws_vpn_gateway_attachment") {
    auto key = type == "aws_vpn_gateway" ? std::optional(id_or_address())
                                         : ref(a, r, "vpn_gateway_id", "vpn_gateway_id");
    if (!key) return true;
    if (auto vpc = in_.text(a.get("vpc_id"), "vpc_id"); vpc && !vpc->empty()) {
      l.vpn_gateways[*key] = *vpc;
    } else if (auto v = ref(a, r, "vpc_id", "vpc_id (the VPC it attaches to)")) {
      l.vpn_gateways[*key] = *v;
    }
    return true;
  }
  if (type == "aws_customer_gateway") return true;  // named by the VPNs that use it
  if (type == "aws_vpn_connection") {
    auto key = id_or_address();
    auto& v = l.vpns[key];
    v.address = r.address;
    v.node = r.node;
    v.where = in_.where(r.node);
    v.from = r.from;
    v.customer_gateway = in_.text(a.get("customer_gateway_id"), "customer_gateway_id").value_or("");
    v.static_only = in_.flag(a.get("static_routes_only"), "static_routes_only").value_or(false);
    // The static routes the state lists with the connection (`routes`).
    for (const auto& route : a.blocks("routes")) {
      if (auto cidr = in_.range(route.get("destination_cidr_block"), "routes.destination_cidr_block")) {
        v.ranges.push_back(std::move(*cidr));
      }
    }
    if (a.get("transit_gateway_id") || a.unknown("transit_gateway_id")) {
      // A transit gateway attachment of its own: its ID, or in a plan the connection itself.
      auto tgw = ref(a, r, "transit_gateway_id", "transit_gateway_id");
      if (!tgw) return true;
      auto attachment = in_.text(a.get("transit_gateway_attachment_id"), "transit_gateway_attachment_id").value_or(r.address);
      auto& x = l.attachments[attachment];
      x.tgw = *tgw;
      x.member = key;
      x.address = r.address;
      x.where = in_.where(r.node);
    } else if (auto vgw = ref(a, r, "vpn_gateway_id", "vpn_gateway_id (the VPC side)")) {
      v.vpn_gateway = *vgw;
    }
    return true;
  }
  if (type == "aws_vpn_connection_route") {
    auto vpn = ref(a, r, "vpn_connection_id", "vpn_connection_id");
    auto cidr = in_.range(a.get("destination_cidr_block"), "destination_cidr_block");
    if (vpn && cidr) l.vpns[*vpn].ranges.push_back(std::move(*cidr));
    return true;
  }
  if (type == "aws_route_table" || type == "aws_default_route_table") {
    auto key = id_or_address();
    if (auto vpc = ref(a, r, "vpc_id", "vpc_id (the VPC of the route table)")) l.route_tables[key] = *vpc;
    // Inline routes: `route` blocks (aws_route_table's attribute form).
    for (const auto& route : a.blocks("route")) {
      for (auto [target_key, what] : {std::pair{"vpc_peering_connection_id", "peering"},
                                      std::pair{"transit_gateway_id", "transit"}, std::pair{"gateway_id", "vpn"}}) {
        auto target = in_.text(route.get(target_key), target_key);
        if (!target || target->empty() || aws_target_kind(*target) != what) continue;
        for (auto cidr_key : {"cidr_block", "ipv6_cidr_block"}) {
          if (auto cidr = in_.range(route.get(cidr_key), std::string("route.") + cidr_key)) {
            add_vpc_route({key, std::string(what), *target, std::move(*cidr), r.address});
          }
        }
      }
    }
    return true;
  }
  if (type == "aws_route") {
    auto table = ref(a, r, "route_table_id", "route_table_id");
    if (!table) return true;
    for (auto [target_key, what] : {std::pair{"vpc_peering_connection_id", "peering"},
                                    std::pair{"transit_gateway_id", "transit"}, std::pair{"gateway_id", "vpn"}}) {
      if (!a.get(target_key) && !a.unknown(target_key)) continue;
      auto target = ref(a, r, target_key, target_key);
      if (!target || aws_target_kind(*target) != what) continue;
      for (auto cidr_key : {"destination_cidr_block", "destination_ipv6_cidr_block"}) {
        if (auto cidr = in_.range(a.get(cidr_key), cidr_key)) {
          add_vpc_route({*table, std::string(what), *target, std::move(*cidr), r.address});
        }
      }
    }
    return true;
  }
  if (type == "google_compute_network_peering") {
    auto network = ref(a, r, "network", "network");
    auto peer = ref(a, r, "peer_network", "peer_network");
    if (!network || !peer) return true;
    l.gcp_peerings.push_back({*network, *peer, in_.text(a.get("name"), "name").value_or(r.address), r.address,
                              in_.text(a.get("state"), "state"), r.node, in_.where(r.node), r.from});
    return true;
  }
  if (type == "google_compute_router") {
    auto project = in_.text(a.get("project"), "project").value_or("");
    auto region = in_.text(a.get("region"), "region").value_or("");
    auto name = in_.text(a.get("name"), "name").value_or("");
    auto& router = l.gcp_routers[r.address];
    if (auto network = ref(a, r, "network", "network")) router.network = *network;
    auto bgp = a.block("bgp");
    // Only a router in CUSTOM mode advertises ranges of its own choosing; in
    // DEFAULT mode it advertises the network's subnets, which are ranges already.
    if (in_.text(bgp.get("advertise_mode"), "bgp.advertise_mode") == "CUSTOM") {
      for (const auto& item : bgp.blocks("advertised_ip_ranges")) {
        if (auto cidr = in_.range(item.get("range"), "bgp.advertised_ip_ranges.range")) {
          router.advertised.push_back(std::move(*cidr));
        }
      }
    }
    if (!project.empty() && !region.empty() && !name.empty()) l.gcp_routers[project + "/" + region + "/" + name] = router;
    if (!name.empty()) l.gcp_routers[name] = router;
    return true;
  }
  if (type == "google_compute_ha_vpn_gateway" || type == "google_compute_vpn_gateway") {
    if (auto network = ref(a, r, "network", "network")) {
      l.gcp_gateways[r.address] = *network;
      if (auto self = in_.text(a.get("self_link"), "self_link")) l.gcp_gateways[*self] = *network;
      if (auto name = in_.text(a.get("name"), "name")) l.gcp_gateways[*name] = *network;
    }
    return true;
  }
  if (type == "google_compute_external_vpn_gateway") return true;  // named by the tunnels that use it
  if (type == "google_compute_vpn_tunnel") {
    auto key = in_.text(a.get("self_link"), "self_link").value_or(r.address);
    auto& t = l.gcp_tunnels[key];
    t.address = r.address;
    t.node = r.node;
    t.where = in_.where(r.node);
    t.from = r.from;
    for (auto gateway_key : {"vpn_gateway", "target_vpn_gateway"}) {
      if (a.get(gateway_key) || a.unknown(gateway_key)) t.gateway = ref(a, r, gateway_key, gateway_key).value_or("");
    }
    if (a.get("router") || a.unknown("router")) t.router = ref(a, r, "router", "router").value_or("");
    if (a.get("peer_gcp_gateway") || a.unknown("peer_gcp_gateway")) {
      t.peer_gateway = ref(a, r, "peer_gcp_gateway", "peer_gcp_gateway").value_or("");
    }
    // The other side: an external gateway, or a classic tunnel's peer address.
    auto external = a.get("peer_external_gateway") || a.unknown("peer_external_gateway")
                        ? ref(a, r, "peer_external_gateway", "peer_external_gateway")
                        : std::nullopt;
    auto peer_ip = in_.text(a.get("peer_ip"), "peer_ip");
    if (external) {
      auto slash = external->rfind('/');
      t.remote = slash == std::string::npos ? *external : external->substr(slash + 1);
    } else if (peer_ip) {
      t.remote = "vpn peer " + *peer_ip;
    }
    // A policy-based tunnel's selectors; route-based tunnels select everything (0.0.0.0/0), which says nothing.
    for (auto cidr : in_.ranges(a.get("remote_traffic_selector"), "remote_traffic_selector")) {
      if (cidr.cidr.length() > 0) t.ranges.push_back(std::move(cidr));
    }
    return true;
  }
  if (type == "google_compute_route") {
    auto tunnel = a.get("next_hop_vpn_tunnel") || a.unknown("next_hop_vpn_tunnel")
                      ? ref(a, r, "next_hop_vpn_tunnel", "next_hop_vpn_tunnel")
                      : std::nullopt;
    if (!tunnel) return false;  // a route elsewhere (an instance, a gateway): not a connection
    if (auto cidr = in_.range(a.get("dest_range"), "dest_range")) l.gcp_routes.emplace_back(*tunnel, std::move(*cidr));
    return true;
  }
  if (type == "azurerm_virtual_network_peering") {
    auto group = in_.text(a.get("resource_group_name"), "resource_group_name");
    auto vnet = in_.text(a.get("virtual_network_name"), "virtual_network_name");
    auto remote = ref(a, r, "remote_virtual_network_id", "remote_virtual_network_id");
    if (!group || !vnet || !remote) return true;
    l.azure_peerings.push_back({azure_vnet_name("/resourceGroups/" + *group + "/virtualNetworks/" + *vnet), *remote,
                                in_.text(a.get("name"), "name").value_or(r.address),
                                in_.flag(a.get("peer_complete_virtual_networks_enabled"),
                                         "peer_complete_virtual_networks_enabled").value_or(true),
                                r.node, in_.where(r.node), r.from});
    return true;
  }
  if (type == "azurerm_virtual_hub") {
    auto group = in_.text(a.get("resource_group_name"), "resource_group_name");
    auto name = in_.text(a.get("name"), "name");
    if (!group || !name) return true;
    auto key = lower(*group + "/" + *name);
    l.hubs[r.address] = key;
    auto& o = add_owner(out_, key, owner_kind::network, "virtual-hub", in_.where(r.node));
    o.value.description = "Azure Virtual WAN hub, from " + std::string(r.from) + " " + r.address;
    auto note = [&](std::string_view what) { unknown(r, what); };
    std::vector<imported_range> space;
    if (auto cidr = in_.range(a.get("address_prefix"), "address_prefix")) {
      space.push_back(std::move(*cidr));
    } else if (a.unknown("address_prefix")) {
      note("address_prefix");
    }
    add_claim(o, range_role::external, claim_kind::exact, std::move(space));
    o.value.declared.add(range_role::external);
    return true;
  }
  if (type == "azurerm_virtual_hub_route_table") return true;  // known by the connections that name it
  if (type == "azurerm_virtual_hub_connection") {
    auto hub = ref(a, r, "virtual_hub_id", "virtual_hub_id");
    auto vnet = ref(a, r, "remote_virtual_network_id", "remote_virtual_network_id");
    if (!hub || !vnet) return true;
    // Without a routing block, a connection is associated with the hub's
    // defaultRouteTable and propagates to it (the provider's `routing` block).
    auto routing = a.block("routing");
    auto associated = ref(routing, r, "associated_route_table_id", "routing.associated_route_table_id",
                          "routing.associated_route_table_id");
    std::vector<std::string> propagated;
    auto tables = routing.block("propagated_route_table");
    for (auto item : in_.items(tables.get("route_table_ids"), "propagated_route_table.route_table_ids")) {
      if (auto id = in_.text(item, "a route table ID")) propagated.push_back(*id);
    }
    bool defaults = !routing.get("propagated_route_table") && !tables.unknown("route_table_ids");
    auto where = in_.where(r.node);
    // An empty table stands for the hub's defaultRouteTable, resolved with the hub in finish_connections().
    l.hub_associations.push_back({associated.value_or(""), *hub, *vnet, where});
    if (defaults) propagated.emplace_back();
    for (auto& table : propagated) l.hub_propagations.push_back({table, *hub, *vnet, where});
    return true;
  }
  return false;
}

void terraform_resources::finish_connections() {
  auto& l = *links_;
  auto connect = [&](std::vector<std::pair<std::string, source_location>> members, std::string name, std::string via,
                     std::string description, source_location where) {
    imported_connection c;
    c.value.name = std::move(name);
    c.value.via = std::move(via);
    c.value.description = std::move(description);
    c.value.where = std::move(where);
    c.members = std::move(members);
    out_.connections.push_back(std::move(c));
  };

  // AWS VPC peerings: only an active one carries traffic (its state when the
  // input says; in a plan, one the plan accepts: auto_accept or an accepter).
  for (auto& [key, p] : l.aws_peerings) {
    if (p.requester.empty() || p.accepter.empty()) continue;  // noted where the VPC was unknown
    bool active = p.status ? *p.status == "active" : p.accepted_in_input;
    if (!active) {
      in_.yaml().report(severity::note, p.node, diag::import_inactive,
                        p.address + ": VPC peering " + key + " between " + p.requester + " and " + p.accepter + " is " +
                            (p.status ? *p.status : "not accepted in this input") + ", not active: no connection");
      continue;
    }
    connect({{p.requester, p.where}, {p.accepter, p.where}}, key, "peering",
            "AWS VPC peering, from " + std::string(p.from) + " " + p.address, p.where);
  }

  // Transit gateway route tables: what each attachment is associated with
  // (its own, else the gateway's default) and propagates to.
  std::vector<route_table_member> associated, propagated;
  auto default_table = [&](const std::string& tgw, bool association) -> std::string {
    auto it = l.tgws.find(tgw);
    if (it != l.tgws.end()) {
      if (!(association ? it->second.associate : it->second.propagate)) return {};
      const auto& id = association ? it->second.association_table : it->second.propagation_table;
      if (!id.empty()) return id;
    }
    return tgw + " default route table";
  };
  std::map<std::string, std::string> explicit_association;
  for (const auto& [attachment, table] : l.associations) explicit_association[attachment] = table;
  for (const auto& [key, x] : l.attachments) {
    auto it = explicit_association.find(key);
    auto table = it != explicit_association.end() ? it->second
                 : x.default_association          ? default_table(x.tgw, true)
                                                  : std::string();
    if (!table.empty()) associated.push_back({table, x.member, x.where});
    if (x.default_propagation) {
      if (auto t = default_table(x.tgw, false); !t.empty()) propagated.push_back({t, x.member, x.where});
    }
  }
  auto member_of = [&](const std::string& attachment) -> const links::attachment* {
    auto it = l.attachments.find(attachment);
    return it == l.attachments.end() ? nullptr : &it->second;
  };
  for (const auto& [attachment, table] : l.propagations) {
    if (const auto* x = member_of(attachment)) propagated.push_back({table, x->member, x->where});
  }
  for (auto& route : l.tgw_routes) {
    const auto* x = member_of(route.attachment);
    if (x == nullptr) continue;
    propagated.push_back({route.table, x->member, route.cidr.where});
    // A static route to a VPN is the other side's range; to a VPC it is a VPC's, which the VPC states itself.
    if (auto vpn = l.vpns.find(x->member); vpn != l.vpns.end()) vpn->second.ranges.push_back(route.cidr);
  }
  auto table_connections = [&](std::string_view via, std::string_view what, const std::map<std::string, std::string>& extra) {
    // One connection per table that serves someone: its associated and propagated members.
    std::map<std::string, std::vector<std::pair<std::string, source_location>>> members;
    std::set<std::string> served;
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto* list : {&associated, &propagated}) {
      for (const auto& m : *list) {
        if (list == &associated) served.insert(m.table);
        if (seen.emplace(m.table, m.member).second) members[m.table].emplace_back(m.member, m.where);
      }
    }
    for (auto& [table, list] : members) {
      if (!served.contains(table)) continue;  // no attachment's traffic uses it
      if (auto hub = extra.find(table); hub != extra.end() && seen.emplace(table, hub->second).second) {
        list.emplace_back(hub->second, list.front().second);
      }
      if (list.size() < 2) continue;
      auto where = list.front().second;
      connect(std::move(list), table, std::string(via), std::string(what) + " " + table + ", from Terraform", where);
    }
  };
  table_connections("transit", "AWS transit gateway route table", {});

  // Site-to-Site VPNs: the other side is a network of its own, known by its
  // static routes; one on a VPN gateway joins that gateway's VPC.
  for (auto& [key, v] : l.vpns) {
    if (v.address.empty()) continue;  // routes of a VPN this input does not list
    auto& o = add_owner(out_, key, owner_kind::network, "vpn", v.where);
    o.value.description = "the network behind AWS Site-to-Site VPN " + key +
                          (v.customer_gateway.empty() ? "" : " (customer gateway " + v.customer_gateway + ")") +
                          ", from " + std::string(v.from) + " " + v.address;
    if (v.ranges.empty()) {
      o.value.declared.add(range_role::external);
      in_.yaml().report(severity::note, v.node, diag::import_unknown,
                        v.address + ": the ranges behind VPN " + key +
                            (v.static_only ? " (static routes only) are in no static route of this input"
                                           : " are learned over BGP, which the input does not hold") +
                            ": the network has none");
    }
    add_claim(o, range_role::external, claim_kind::within, std::move(v.ranges));
    if (v.vpn_gateway.empty()) continue;
    auto vpc = l.vpn_gateways.find(v.vpn_gateway);
    if (vpc == l.vpn_gateways.end()) {
      in_.yaml().report(severity::warning, v.node, diag::import_unplaced,
                        v.address + ": VPN gateway " + v.vpn_gateway + " is attached to no VPC this input lists: no connection");
      continue;
    }
    connect({{vpc->second, v.where}, {key, v.where}}, key, "vpn",
            "AWS Site-to-Site VPN, from " + std::string(v.from) + " " + v.address, v.where);
  }

  // Route table entries: a route of the table's VPC toward a peering (the peer
  // VPC, when the input has the peering), a transit gateway or a VPN gateway.
  for (auto& route : l.vpc_routes) {
    auto table = l.route_tables.find(route.table);
    if (table == l.route_tables.end()) continue;  // the table's VPC is not in this input
    std::string to;
    if (auto p = l.aws_peerings.find(route.target); p != l.aws_peerings.end()) {
      to = p->second.requester == table->second ? p->second.accepter : p->second.requester;
    }
    auto& v = vpcs_.try_emplace(table->second).first->second;
    if (v.first_seen.file.empty()) {
      v.first_seen = route.cidr.where;
      v.from = "Terraform";
    }
    v.routes.push_back({route.cidr, route.target, to, route.from});
  }

  if (l.default_routes > 0) {
    in_.yaml().report(severity::note, l.default_route_node, diag::skipped,
                      std::to_string(l.default_routes) + (l.default_routes == 1 ? " default route" : " default routes") +
                          " (0.0.0.0/0, ::/0) toward a peering, transit gateway or VPN gateway not read: it says where "
                          "the rest of the traffic goes, not which network is there");
  }

  // GCP: subnets are parts of their network; peerings join two networks.
  auto gcp_network = [&](const std::string& key) {
    if (auto name = gcp_network_name(key); !name.empty()) return name;
    auto it = l.gcp_networks.find(key);
    return it == l.gcp_networks.end() ? key : it->second;
  };
  for (const auto& [owner, network] : l.gcp_subnets) out_.owners[owner].part_of = gcp_network(network);
  std::set<std::pair<std::string, std::string>> gcp_pairs;
  for (const auto& p : l.gcp_peerings) gcp_pairs.emplace(gcp_network(p.network), gcp_network(p.peer));
  std::set<std::pair<std::string, std::string>> gcp_connected;
  for (const auto& p : l.gcp_peerings) {
    auto a = gcp_network(p.network), b = gcp_network(p.peer);
    // A peering is ACTIVE once both networks peer with each other; a plan's has no state yet.
    bool active = p.state ? *p.state == "ACTIVE" : gcp_pairs.contains({b, a});
    if (!active) {
      in_.yaml().report(severity::note, p.node, diag::import_inactive,
                        p.address + ": peering " + p.name + " of " + a + " to " + b + " is " +
                            (p.state ? *p.state : "not matched by a peering back from " + b + " in this input") +
                            ", not ACTIVE: no connection");
      continue;
    }
    if (!gcp_connected.emplace(std::min(a, b), std::max(a, b)).second) continue;
    connect({{a, p.where}, {b, p.where}}, p.name, "peering",
            "GCP VPC Network Peering, from " + std::string(p.from) + " " + p.address, p.where);
  }
  // VPN tunnels: a GCP network on one side, another GCP network (HA VPN
  // between two) or a network of its own on the other.
  for (const auto& [tunnel, cidr] : l.gcp_routes) {
    auto it = l.gcp_tunnels.find(tunnel);
    if (it == l.gcp_tunnels.end()) {
      // A route names a tunnel by self link, name or address: try the address form.
      for (auto& [key, t] : l.gcp_tunnels) {
        if (t.address == tunnel || key.ends_with("/" + tunnel)) it = l.gcp_tunnels.find(key);
      }
    }
    if (it != l.gcp_tunnels.end()) it->second.ranges.push_back(cidr);
  }
  auto lookup = [](const std::map<std::string, std::string>& m, const std::string& key) -> std::string {
    if (auto it = m.find(key); it != m.end()) return it->second;
    auto slash = key.rfind('/');
    if (slash != std::string::npos) {
      if (auto it = m.find(key.substr(slash + 1)); it != m.end()) return it->second;
    }
    return {};
  };
  for (auto& [key, t] : l.gcp_tunnels) {
    auto network = lookup(l.gcp_gateways, t.gateway);
    const links::gcp_router* router = nullptr;
    if (!t.router.empty()) {
      auto it = l.gcp_routers.find(t.router);
      if (it == l.gcp_routers.end() && t.router.rfind('/') != std::string::npos) {
        it = l.gcp_routers.find(t.router.substr(t.router.rfind('/') + 1));
      }
      if (it != l.gcp_routers.end()) router = &it->second;
    }
    if (network.empty() && router != nullptr) network = router->network;
    if (network.empty()) {
      in_.yaml().report(severity::warning, t.node, diag::import_unplaced,
                        t.address + ": its VPN gateway or router is not in this input, so neither is the network it "
                                    "joins: no connection");
      continue;
    }
    network = gcp_network(network);
    if (!t.peer_gateway.empty()) {
      auto peer = lookup(l.gcp_gateways, t.peer_gateway);
      if (peer.empty()) {
        in_.yaml().report(severity::warning, t.node, diag::import_unplaced,
                          t.address + ": peer_gcp_gateway " + t.peer_gateway + " is not in this input: no connection");
        continue;
      }
      peer = gcp_network(peer);
      if (gcp_connected.emplace(std::min(network, peer), std::max(network, peer)).second) {
        connect({{network, t.where}, {peer, t.where}}, t.address, "vpn",
                "GCP HA VPN between two VPC networks, from " + std::string(t.from) + " " + t.address, t.where);
      }
      continue;
    }
    if (t.remote.empty()) {
      in_.yaml().report(severity::warning, t.node, diag::import_unplaced,
                        t.address + ": names no peer (peer_external_gateway, peer_gcp_gateway or peer_ip): no connection");
      continue;
    }
    auto& o = add_owner(out_, t.remote, owner_kind::network, "vpn", t.where);
    o.value.description = "the network behind VPN tunnel " + t.address + ", from " + std::string(t.from);
    o.value.declared.add(range_role::external);
    add_claim(o, range_role::external, claim_kind::within, std::move(t.ranges));
    // What the Cloud Router advertises to this peer: routes the peer carries toward the GCP network.
    if (router != nullptr) {
      auto router_name = t.router.substr(t.router.rfind('/') + 1);  // a self link, a path or a name
      for (const auto& cidr : router->advertised) {
        o.routes.push_back({cidr, "Cloud Router " + router_name, "", "bgp.advertised_ip_ranges"});
      }
    }
    connect({{network, t.where}, {t.remote, t.where}}, t.address, "vpn",
            "GCP Cloud VPN tunnel, from " + std::string(t.from) + " " + t.address, t.where);
  }

  // Azure peerings: a peering connects only once both networks have one
  // toward the other (Initiated until then, Connected after).
  auto vnet = [&](const std::string& key) {
    if (auto name = azure_vnet_name(key); !name.empty()) return name;
    auto it = l.vnets.find(key);
    return it == l.vnets.end() ? key : it->second;
  };
  std::set<std::pair<std::string, std::string>> azure_pairs;
  for (const auto& p : l.azure_peerings) azure_pairs.emplace(p.local, vnet(p.remote));
  std::set<std::pair<std::string, std::string>> azure_connected;
  for (const auto& p : l.azure_peerings) {
    auto remote = vnet(p.remote);
    if (!p.complete) {
      in_.yaml().report(severity::note, p.node, diag::unread_value,
                        "peering " + p.name + " of " + p.local + " peers named subnets only "
                        "(peer_complete_virtual_networks_enabled false), which cidrcheck reads from `az network vnet "
                        "list` (azure-vnets), not from Terraform: no connection");
      continue;
    }
    if (!azure_pairs.contains({remote, p.local})) {
      in_.yaml().report(severity::note, p.node, diag::import_inactive,
                        "peering " + p.name + " of " + p.local + " to " + remote + ": " + remote +
                            " has no peering back in this input, so Azure keeps it Initiated: no connection");
      continue;
    }
    if (!azure_connected.emplace(std::min(p.local, remote), std::max(p.local, remote)).second) continue;
    connect({{p.local, p.where}, {remote, p.where}}, p.name, "peering",
            "Azure virtual network peering, from " + std::string(p.from), p.where);
  }
  // Virtual WAN hubs: route tables, as a transit gateway's; the hub is in each of its tables.
  associated.clear();
  propagated.clear();
  std::map<std::string, std::string> hub_of;  // table key -> hub owner name
  auto hub_table = [&](const links::hub_member& m) {
    auto hub = azure_hub_name(m.hub);
    if (hub.empty()) hub = l.hubs.contains(m.hub) ? l.hubs.at(m.hub) : m.hub;
    auto table = m.table.empty() ? hub + "/defaultroutetable" : azure_hub_table(m.table);
    if (table.empty()) table = m.table;  // a table the plan creates, by address
    hub_of[table] = hub;
    return route_table_member{table, vnet(m.vnet), m.where};
  };
  for (const auto& m : l.hub_associations) associated.push_back(hub_table(m));
  for (const auto& m : l.hub_propagations) propagated.push_back(hub_table(m));
  // A hub the input describes (azurerm_virtual_hub) has ranges: it joins its tables.
  std::set<std::string> described_hubs;
  for (const auto& [address, hub] : l.hubs) described_hubs.insert(hub);
  std::erase_if(hub_of, [&](const auto& e) { return !described_hubs.contains(e.second); });
  table_connections("virtual-hub", "Azure virtual hub route table", hub_of);
}

void terraform_resources::note_gcp_network(const std::string& address, const std::string& name) {
  links_->gcp_networks[address] = name;
}

void terraform_resources::note_gcp_subnet(std::size_t owner, const attrs& a, const terraform_instance& r) {
  if (!a.get("network") && !a.unknown("network")) return;
  if (auto network = ref(a, r, "network", "network")) links_->gcp_subnets.emplace_back(owner, *network);
}

void terraform_resources::note_azure_vnet(const std::string& address, const std::string& name) {
  links_->vnets[address] = name;
}

}  // namespace cidrcheck::detail
