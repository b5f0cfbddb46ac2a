// A Tailscale policy file (HuJSON: JSON with comments and trailing commas).
// The tailnet becomes a network named "tailscale" of type tailscale (its own
// addresses come from the catalog), and every route in autoApprovers.routes a
// route of it, advertised by each router the entry approves (a tag, a user, a
// group): a route, not a range, so a route that leads to a cluster's VPC is
// that VPC seen through the tailnet, never an overlap with it. check() judges
// the routes (route-conflict, duplicate-route, route-in-overlay).
// hosts, acls and grants name destinations: one inside an approved route or the
// tailnet's own space is reached that way; any other is a warning naming it,
// since no approved route carries it. O(n log n) in the entries of the policy.
// The same kind reads what else says how a tailnet routes, in YAML:
// - the Tailscale Kubernetes operator's Connectors (tailscale.com/v1alpha1,
//   tailscale/tailscale k8s-operator/api.md): spec.subnetRouter.advertiseRoutes,
//   routes of the tailnet advertised by the Connector (spec.hostname, else its
//   name); an exit node (spec.exitNode) routes everything and is not checked;
// - Headscale's configuration (juanfont/headscale config-example.yaml):
//   `prefixes` (v4, v6; `ip_prefixes` before 0.23), the tailnet's own space
//   where a Headscale server numbers it instead of Tailscale's defaults.

#include "importers.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <cctype>
#include <map>

namespace cidrcheck::detail {

namespace {

// A CIDR or an address (one host) the policy names, and where.
struct named {
  imported_range range;
  std::string from;   // "hosts", "acls", "grants"
  std::string alias;  // the hosts name, for hosts
};

class policy_reader {
 public:
  explicit policy_reader(source_reader& in) : in_(in) {}

  // Parses the route text at node k names (a CIDR, or an address: one host);
  // `text` is the part of the scalar that holds it, at `offset`.
  auto parse(std::uint32_t k, std::string_view text, std::size_t offset, const std::string& from)
      -> std::optional<imported_range> {
    const auto& n = in_.yaml().node(k);
    imported_range r;
    r.where = in_.where(k);
    std::string what = "a route in " + from;
    if (text.find('/') == std::string_view::npos) {
      // A bare address: Tailscale reads it as the one host.
      auto a = address::try_parse(text);
      if (!a) {
        in_.yaml().error(k, diag::invalid_address, what + ": " + parse_error_message(parse_kind::address, text, a.error()));
        return std::nullopt;
      }
      r.cidr = prefix::containing(*a, a->width());
    } else {
      // Tailscale masks host bits ("100.100.101.100/24" in its own examples).
      auto p = in_.yaml().cidr_in(k, text, offset, what, host_bits::mask);
      if (!p) return std::nullopt;
      r.cidr = *p;
    }
    if (n.line == n.end_line) {
      r.where.column += static_cast<std::uint32_t>((n.quoted ? 1 : 0) + offset);
      r.end_column = r.where.column + static_cast<std::uint32_t>(text.size());
    }
    return r;
  }

  void name(std::uint32_t k, std::string_view text, std::size_t offset, std::string from, std::string alias = {}) {
    if (auto r = parse(k, text, offset, from)) destinations_.push_back({std::move(*r), std::move(from), std::move(alias)});
  }

  // An ACL destination is "HOST:PORTS"; a grant's is just HOST. Tags, groups,
  // autogroups and "*" are not addresses and are skipped, as are hosts names
  // (their values are read from hosts).
  void destination(std::uint32_t k, bool has_ports, std::string from) {
    auto text = in_.text(k, "a destination");
    if (!text) return;
    std::string_view host = *text;
    if (has_ports) {
      auto colon = host.rfind(':');
      if (colon == std::string_view::npos) return;
      host = host.substr(0, colon);
    }
    std::size_t offset = 0;
    if (host.starts_with('[') && host.ends_with(']')) {
      host = host.substr(1, host.size() - 2);
      offset = 1;
    }
    if (host.empty() || !(std::isxdigit(static_cast<unsigned char>(host.front())) || host.front() == ':')) return;
    if (!address::try_parse(host.substr(0, host.find('/')))) return;
    name(k, host, offset, std::move(from));
  }

  auto destinations() -> std::vector<named>& { return destinations_; }

 private:
  source_reader& in_;
  std::vector<named> destinations_;
};

}  // namespace

namespace {

// Connectors (a List of them, or single documents): their advertised routes.
void read_connectors(source_reader& in, std::uint32_t node, std::vector<imported_route>& routes) {
  auto o = in.object_at(node, "a Connector");
  if (!o) return;
  auto kind = in.text(o->get("kind"), "kind").value_or("");
  if (kind.ends_with("List")) {
    for (auto item : in.items(o->get("items"), "items")) read_connectors(in, item, routes);
    return;
  }
  if (kind != "Connector") {
    in.yaml().report(severity::note, node, diag::skipped,
                     "skipped an object of kind " + (kind.empty() ? std::string("(none)") : kind) +
                         ": tailscale reads Connectors, a policy file and Headscale's configuration");
    return;
  }
  auto name = in.text(o->at({"spec", "hostname"}), "spec.hostname");
  if (!name) name = in.text(o->at({"metadata", "name"}), "metadata.name");
  auto advertiser = "Connector " + name.value_or("(unnamed)");
  for (auto& r : in.ranges(o->at({"spec", "subnetRouter", "advertiseRoutes"}), "spec.subnetRouter.advertiseRoutes")) {
    routes.push_back({std::move(r), advertiser, {}, "Connector spec.subnetRouter.advertiseRoutes"});
  }
  if (auto exit = o->at({"spec", "exitNode"}); in.flag(exit, "spec.exitNode").value_or(false)) {
    in.yaml().report(severity::warning, *exit, diag::route_skipped,
                     advertiser + " is an exit node: it routes all addresses, which cidrcheck does not check");
  }
}

}  // namespace

void import_tailscale(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  const auto cgnat = prefix::parse("100.64.0.0/10");
  const auto ula = prefix::parse("fd7a:115c:a1e0::/48");
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (in.yaml().node(root).kind == yaml_kind::mapping) {
      auto top = in.object_at(root, "a document");
      if (top && top->get("kind")) {
        std::vector<imported_route> routes;
        read_connectors(in, root, routes);
        if (routes.empty()) continue;
        auto& tailnet = add_owner(out, "tailscale", owner_kind::network, "tailscale", in.where(root));
        tailnet.value.description = "the tailnet, from the Tailscale operator's Connectors";
        tailnet.routes = std::move(routes);
        continue;
      }
      if (top && top->get("server_url") && (top->get("prefixes") || top->get("ip_prefixes"))) {
        std::vector<imported_range> space;
        if (auto prefixes = in.object_at(top->get("prefixes"), "prefixes")) {
          for (auto key : {"v4", "v6"}) {
            if (auto r = in.range(prefixes->get(key), std::string("prefixes.") + key)) space.push_back(std::move(*r));
          }
        } else {
          space = in.ranges(top->get("ip_prefixes"), "ip_prefixes");
        }
        auto& tailnet = add_owner(out, "tailscale", owner_kind::network, "tailscale", in.where(root));
        tailnet.value.description = "the tailnet of the Headscale server " +
                                    in.text(top->get("server_url"), "server_url").value_or("") +
                                    ", from its configuration";
        add_claim(tailnet, range_role::external, claim_kind::exact, std::move(space));
        tailnet.value.declared.add(range_role::external);
        continue;
      }
    }
    auto policy = in.document(root, "a policy file: a mapping of acls, grants, hosts, autoApprovers, ...");
    if (!policy) continue;
    policy_reader reader(in);
    std::vector<imported_route> routes;
    if (auto approvers = in.object_at(policy->at({"autoApprovers", "routes"}), "autoApprovers.routes")) {
      for (const auto& e : approvers->entries()) {
        auto r = reader.parse(e.key_node, e.key, 0, "autoApprovers.routes");
        if (!r) continue;
        if (r->cidr.length() == 0) {
          in.yaml().add({severity::warning, diag::route_skipped,
                         "autoApprovers.routes approves " + r->cidr.to_string() +
                             ", all addresses: that is an exit node's route, which cidrcheck does not check",
                         r->where, {}});
          continue;
        }
        std::vector<std::string> who;
        for (auto item : in.items(e.value, "the approvers of a route")) {
          if (auto name = in.text(item, "an approver")) who.push_back(*name);
        }
        if (who.empty()) who.emplace_back();  // approved for nobody yet: still a route the policy names
        for (auto& advertiser : who) routes.push_back({*r, std::move(advertiser), {}, "autoApprovers.routes"});
      }
    }
    if (auto hosts = in.object_at(policy->get("hosts"), "hosts")) {
      for (const auto& e : hosts->entries()) {
        if (auto value = in.text(e.value, "a host")) reader.name(e.value, *value, 0, "hosts", std::string(e.key));
      }
    }
    for (auto item : in.items(policy->get("acls"), "acls")) {
      auto acl = in.object_at(item, "an ACL");
      if (!acl) continue;
      for (auto dst : in.items(acl->get("dst"), "dst")) reader.destination(dst, true, "acls");
    }
    for (auto item : in.items(policy->get("grants"), "grants")) {
      auto grant = in.object_at(item, "a grant");
      if (!grant) continue;
      for (auto dst : in.items(grant->get("dst"), "dst")) reader.destination(dst, false, "grants");
    }

    // A hosts name for exactly a route's prefix may name the owner it leads to.
    std::map<prefix, std::string> aliases;
    for (const auto& d : reader.destinations()) {
      if (!d.alias.empty()) aliases.emplace(d.range.cidr, d.alias);
    }
    address_set_builder approved;
    for (auto& r : routes) {
      approved.add(r.range.cidr);
      if (auto it = aliases.find(r.range.cidr); it != aliases.end()) r.to = it->second;
    }
    auto reached = approved.build();
    // Every other destination is named but not routed: say so, never drop it.
    for (const auto& d : reader.destinations()) {
      const auto& p = d.range.cidr;
      if (p.subnet_of(cgnat) || p.subnet_of(ula) || p.length() == 0 || reached.contains(p)) continue;
      in.yaml().add({severity::warning, diag::route_unplaced,
                     d.from + " names " + (d.alias.empty() ? "" : d.alias + " = ") + p.to_string() +
                           ", which no route in autoApprovers.routes covers: the tailnet reaches it only through a "
                           "route approved by hand, which the policy does not show; cidrcheck does not check it",
                     d.range.where, {}});
    }

    auto& tailnet = add_owner(out, "tailscale", owner_kind::network, "tailscale", in.where(root));
    tailnet.value.description = "the tailnet, from its policy file";
    tailnet.routes = std::move(routes);
  }
}

}  // namespace cidrcheck::detail
