// Who routes to whom in AWS, from the CLI's JSON (field names of the EC2 API
// reference, as the aws/aws-cli examples print them):
// - aws-peerings: `aws ec2 describe-vpc-peering-connections`: each active
//   peering a connection between its two VPCs, each VPC known by the CIDR
//   blocks the peering lists for it; a peering in any other state a note;
// - aws-tgw: `aws ec2 describe-transit-gateway-attachments` (each
//   attachment's association), `describe-transit-gateway-route-tables` (the
//   default tables) and `search-transit-gateway-routes` (the routes of one
//   table, named by the source: aws-tgw=TABLE:FILE, since the output does not
//   say it); one connection per route table that serves an attachment, as
//   terraform_connections.cpp makes from Terraform;
// - aws-route-tables: `aws ec2 describe-route-tables`: the routes of each VPC
//   toward a peering, a transit gateway or a VPN gateway.
// A file may hold several outputs: YAML documents, or a JSON array of them
// (`jq -s .`).

#include "importers.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <map>
#include <set>

namespace cidrcheck::detail {

namespace {

// Calls read(top) for each output of the file: a document, or each item of a top-level list.
template <class F>
void each_output(source_reader& in, const std::vector<std::uint32_t>& roots, std::string_view expected, F read) {
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    auto outputs = in.yaml().node(root).kind == yaml_kind::sequence ? in.items(root, "the outputs")
                                                                    : std::span<const std::uint32_t>(&root, 1);
    for (auto node : outputs) {
      if (auto top = in.document(node, expected)) read(*top);
    }
  }
}

// A VPC of a peering: its ID and the blocks the peering lists for it.
struct peer_vpc {
  std::string id;
  source_location where;
  std::vector<imported_range> blocks;
};

auto read_vpc_info(source_reader& in, std::optional<std::uint32_t> node, std::string_view what) -> std::optional<peer_vpc> {
  auto info = in.object_at(node, what);
  if (!info) return std::nullopt;
  auto id_node = info->get("VpcId");
  auto id = in.text(id_node, "VpcId");
  if (!id) {
    in.error(info->node(), diag::missing_key, std::string(what) + " has no VpcId");
    return std::nullopt;
  }
  peer_vpc out{*id, in.where(*id_node), {}};
  // CidrBlockSet lists every IPv4 block (CidrBlock only the first); Ipv6CidrBlockSet the IPv6 ones.
  auto set = in.items(info->get("CidrBlockSet"), "CidrBlockSet");
  if (set.empty()) {
    if (auto block = in.range(info->get("CidrBlock"), "CidrBlock")) out.blocks.push_back(std::move(*block));
  }
  for (auto item : set) {
    if (auto block = in.object_at(item, "a CIDR block")) {
      if (auto r = in.range(block->get("CidrBlock"), "CidrBlockSet.CidrBlock")) out.blocks.push_back(std::move(*r));
    }
  }
  for (auto item : in.items(info->get("Ipv6CidrBlockSet"), "Ipv6CidrBlockSet")) {
    if (auto block = in.object_at(item, "an IPv6 CIDR block")) {
      if (auto r = in.range(block->get("Ipv6CidrBlock"), "Ipv6CidrBlockSet.Ipv6CidrBlock")) out.blocks.push_back(std::move(*r));
    }
  }
  return out;
}

}  // namespace

void import_aws_peerings(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  constexpr std::string_view expected = "VpcPeeringConnections";
  std::map<std::string, std::size_t> vpcs;  // VPC ID -> out.owners
  each_output(in, roots, expected, [&](const source_reader::object& top) {
    auto list = top.get("VpcPeeringConnections");
    if (!list) {
      in.wrong_document(top.node(), "a mapping with VpcPeeringConnections");
      return;
    }
    for (auto item : in.items(list, "VpcPeeringConnections")) {
      auto p = in.object_at(item, "a VPC peering connection");
      if (!p) continue;
      auto id = in.text(p->get("VpcPeeringConnectionId"), "VpcPeeringConnectionId").value_or("a peering without an ID");
      auto status_node = p->at({"Status", "Code"});
      auto status = in.text(status_node, "Status.Code");
      auto requester = read_vpc_info(in, p->get("RequesterVpcInfo"), "RequesterVpcInfo");
      auto accepter = read_vpc_info(in, p->get("AccepterVpcInfo"), "AccepterVpcInfo");
      if (!requester || !accepter) continue;
      // Only an active peering routes (VpcPeeringConnectionStateReasonCode:
      // initiating-request, pending-acceptance, active, deleted, rejected,
      // failed, expired, provisioning, deleting).
      if (status != "active") {
        in.yaml().report(severity::note, status_node.value_or(item), diag::import_inactive,
                         "peering " + id + " between " + requester->id + " and " + accepter->id + " is " +
                             status.value_or("in no state (Status.Code)") + ", not active: no connection");
        continue;
      }
      for (auto* v : {&*requester, &*accepter}) {
        auto [it, added] = vpcs.emplace(v->id, out.owners.size());
        if (added) {
          auto& o = add_owner(out, v->id, owner_kind::network, "vpc", v->where);
          add_label(o, "cloud", "aws");
          o.value.description = "AWS VPC, known from peering " + id + ", from aws ec2 describe-vpc-peering-connections";
        }
        // The blocks the peering lists lie in the VPC: another source (describe-vpcs) may state them all.
        add_claim(out.owners[it->second], range_role::external, claim_kind::within, std::move(v->blocks));
      }
      imported_connection c;
      c.value.name = id;
      c.value.via = "peering";
      c.value.where = in.where(item);
      c.value.description = "AWS VPC peering, from aws ec2 describe-vpc-peering-connections";
      c.members = {{requester->id, requester->where}, {accepter->id, accepter->where}};
      out.connections.push_back(std::move(c));
    }
  });
}

void import_aws_tgw(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  constexpr std::string_view expected =
      "TransitGatewayAttachments, TransitGatewayRouteTables or Routes (search-transit-gateway-routes)";
  struct member {
    std::string table, resource;
    source_location where;
  };
  std::vector<member> associated, propagated;
  std::map<std::string, std::string> resources;  // attachment ID -> its resource (a VPC, a VPN, ...)
  std::map<std::string, std::string> kinds;      // resource -> ResourceType
  std::map<std::string, std::vector<imported_range>> ranges;  // a non-VPC resource -> the routes toward it
  std::set<std::string> tables;                  // tables the file names
  each_output(in, roots, expected, [&](const source_reader::object& top) {
    if (auto list = top.get("TransitGatewayAttachments")) {
      for (auto item : in.items(list, "TransitGatewayAttachments")) {
        auto a = in.object_at(item, "an attachment");
        if (!a) continue;
        auto id = in.required(*a, "TransitGatewayAttachmentId", "an attachment without TransitGatewayAttachmentId");
        auto resource = in.required(*a, "ResourceId", "an attachment without ResourceId");
        if (!id || !resource) continue;
        auto type = in.text(a->get("ResourceType"), "ResourceType").value_or("");
        resources[*id] = *resource;
        kinds[*resource] = type;
        // An attachment routes once available (TransitGatewayAttachmentState).
        auto state_node = a->get("State");
        auto state = in.text(state_node, "State");
        if (state && *state != "available") {
          in.yaml().report(severity::note, *state_node, diag::import_inactive,
                           "attachment " + *id + " of " + *resource + " is " + *state + ", not available: left out");
          continue;
        }
        auto association = in.object_at(a->get("Association"), "Association");
        if (!association) continue;  // associated with no table: it sends through none
        auto table = in.text(association->get("TransitGatewayRouteTableId"), "Association.TransitGatewayRouteTableId");
        auto assoc_state = in.text(association->get("State"), "Association.State");
        if (table && assoc_state.value_or("associated") == "associated") {
          associated.push_back({*table, *resource, in.where(item)});
          tables.insert(*table);
        }
      }
    } else if (auto table_list = top.get("TransitGatewayRouteTables")) {
      for (auto item : in.items(table_list, "TransitGatewayRouteTables")) {
        auto t = in.object_at(item, "a route table");
        if (auto id = t ? in.text(t->get("TransitGatewayRouteTableId"), "TransitGatewayRouteTableId") : std::nullopt) {
          tables.insert(*id);
        }
      }
    } else if (auto route_list = top.get("Routes")) {
      if (in.cluster().empty()) {
        in.error(top.node(), diag::missing_key,
                 "search-transit-gateway-routes does not say which route table it searched: name it in the source, "
                 "aws-tgw=TABLE:" + in.file());
        return;
      }
      const auto& table = in.cluster();
      tables.insert(table);
      for (auto item : in.items(route_list, "Routes")) {
        auto route = in.object_at(item, "a route");
        if (!route) continue;
        auto cidr = in.range(route->get("DestinationCidrBlock"), "DestinationCidrBlock");
        auto state = in.text(route->get("State"), "State");
        if (!cidr) continue;
        if (state && *state != "active") {
          in.yaml().report(severity::note, item, diag::import_inactive,
                           "route " + cidr->cidr.to_string() + " of " + table + " is " + *state + ": left out");
          continue;
        }
        for (auto target : in.items(route->get("TransitGatewayAttachments"), "TransitGatewayAttachments")) {
          auto t = in.object_at(target, "an attachment");
          auto resource = t ? in.text(t->get("ResourceId"), "ResourceId") : std::nullopt;
          if (!resource) continue;
          auto type = in.text(t->get("ResourceType"), "ResourceType").value_or("");
          kinds[*resource] = type;
          propagated.push_back({table, *resource, cidr->where});
          // A VPC states its blocks itself; what lies behind a VPN, Direct Connect gateway or peering is known by its routes.
          if (type != "vpc") ranges[*resource].push_back(*cidr);
        }
      }
    } else {
      in.wrong_document(top.node(), std::string("a mapping with ") + std::string(expected));
    }
  });
  // Owners for what is known only by routes (a VPN's, a Direct Connect gateway's other side).
  for (auto& [resource, list] : ranges) {
    auto& o = add_owner(out, resource, owner_kind::network, kinds[resource], list.front().where);
    add_label(o, "cloud", "aws");
    o.value.description = "the network behind transit gateway attachment resource " + resource + " (" + kinds[resource] +
                          "), known by the routes toward it, from aws ec2 search-transit-gateway-routes";
    add_claim(o, range_role::external, claim_kind::within, std::move(list));
  }
  // One connection per table that an attachment is associated with: every
  // attachment it serves and every one it routes to.
  std::map<std::string, std::vector<std::pair<std::string, source_location>>> members;
  std::set<std::pair<std::string, std::string>> seen;
  std::set<std::string> served;
  for (const auto* list : {&associated, &propagated}) {
    for (const auto& m : *list) {
      if (list == &associated) served.insert(m.table);
      if (seen.emplace(m.table, m.resource).second) members[m.table].emplace_back(m.resource, m.where);
    }
  }
  for (auto& [table, list] : members) {
    if (!served.contains(table) || list.size() < 2) continue;
    imported_connection c;
    c.value.name = table;
    c.value.via = "transit";
    c.value.where = list.front().second;
    c.value.description = "AWS transit gateway route table " + table + ", from the aws ec2 transit gateway outputs";
    c.members = std::move(list);
    out.connections.push_back(std::move(c));
  }
}

void import_aws_route_tables(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  std::map<std::string, std::size_t> vpcs;  // VPC ID -> out.owners
  std::size_t default_routes = 0;
  std::optional<std::uint32_t> first_default;
  each_output(in, roots, "RouteTables", [&](const source_reader::object& top) {
    auto list = top.get("RouteTables");
    if (!list) {
      in.wrong_document(top.node(), "a mapping with RouteTables");
      return;
    }
    for (auto item : in.items(list, "RouteTables")) {
      auto t = in.object_at(item, "a route table");
      if (!t) continue;
      auto vpc_node = t->get("VpcId");
      auto vpc = in.required(*t, "VpcId", "a route table without VpcId");
      auto table = in.text(t->get("RouteTableId"), "RouteTableId").value_or("a route table");
      if (!vpc) continue;
      for (auto r : in.items(t->get("Routes"), "Routes")) {
        auto route = in.object_at(r, "a route");
        if (!route) continue;
        // The targets that join networks; local, internet, NAT and endpoint routes do not.
        std::optional<std::string> target;
        for (auto key : {"VpcPeeringConnectionId", "TransitGatewayId", "GatewayId"}) {
          auto text = in.text(route->get(key), key);
          if (text && (text->starts_with("pcx-") || text->starts_with("tgw-") || text->starts_with("vgw-"))) target = text;
        }
        if (!target) continue;
        for (auto key : {"DestinationCidrBlock", "DestinationIpv6CidrBlock"}) {
          auto cidr = in.range(route->get(key), key);
          if (!cidr) continue;
          if (cidr->cidr.length() == 0) {
            if (default_routes++ == 0) first_default = r;
            continue;
          }
          auto state = in.text(route->get("State"), "State");
          if (state && *state != "active") {
            in.yaml().report(severity::note, r, diag::import_inactive,
                             "route " + cidr->cidr.to_string() + " of " + table + " toward " + *target + " is " + *state +
                                 ": left out");
            continue;
          }
          auto [it, added] = vpcs.emplace(*vpc, out.owners.size());
          if (added) {
            auto& o = add_owner(out, *vpc, owner_kind::network, "vpc", in.where(*vpc_node));
            add_label(o, "cloud", "aws");
            o.value.description = "AWS VPC, known from its route tables, from aws ec2 describe-route-tables";
          }
          out.owners[it->second].routes.push_back({std::move(*cidr), *target, "", "RouteTables.Routes"});
        }
      }
    }
  });
  if (default_routes > 0) {
    in.yaml().report(severity::note, *first_default, diag::skipped,
                     std::to_string(default_routes) + (default_routes == 1 ? " default route" : " default routes") +
                         " (0.0.0.0/0, ::/0) toward a peering, transit gateway or VPN gateway not read: it says where "
                         "the rest of the traffic goes, not which network is there");
  }
}

}  // namespace cidrcheck::detail
