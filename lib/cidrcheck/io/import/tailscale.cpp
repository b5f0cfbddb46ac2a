// A Tailscale policy file (HuJSON: JSON with comments and trailing commas).
// The tailnet becomes a network named "tailscale" of type tailscale (its own
// addresses come from the catalog); each subnet route the policy names becomes
// a network of type tailscale-route, and one connection joins them all:
// whatever a subnet router advertises is reachable from the whole tailnet.
// Routes are named in autoApprovers.routes (the routes routers may advertise),
// hosts (named addresses and subnets), and the destinations of acls and grants.

#include "importers.hpp"

#include <algorithm>
#include <cctype>

namespace cidrcheck::detail {

namespace {

struct route {
  imported_range range;
  std::string alias;  // the hosts name for exactly this range, if any
  std::string from;   // where in the policy: "autoApprovers.routes", "hosts", ...
};

class policy_reader {
 public:
  explicit policy_reader(source_reader& in) : in_(in) {}

  // Adds the route text at node k names (a CIDR, or an address: one host);
  // `text` is the part of the scalar that holds it, at `offset`.
  void add(std::uint32_t k, std::string_view text, std::size_t offset, std::string from, std::string alias = {}) {
    const auto& n = in_.yaml().node(k);
    imported_range r;
    r.where = in_.where(k);
    std::string what = "a route in " + from;
    if (text.find('/') == std::string_view::npos) {
      // A bare address: Tailscale reads it as the one host.
      auto a = address::try_parse(text);
      if (!a) {
        in_.yaml().error(k, "invalid-address", what + ": " + parse_error_message(parse_kind::address, text, a.error()));
        return;
      }
      r.cidr = prefix::containing(*a, a->width());
    } else {
      // Tailscale masks host bits ("100.100.101.100/24" in its own examples).
      auto p = in_.yaml().cidr_in(k, text, offset, what, host_bits::mask);
      if (!p) return;
      r.cidr = *p;
    }
    if (n.line == n.end_line) {
      r.where.column += static_cast<std::uint32_t>((n.quoted ? 1 : 0) + offset);
      r.end_column = r.where.column + static_cast<std::uint32_t>(text.size());
    }
    routes_.push_back({std::move(r), std::move(alias), std::move(from)});
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
    add(k, host, offset, std::move(from));
  }

  auto routes() -> std::vector<route>& { return routes_; }

 private:
  source_reader& in_;
  std::vector<route> routes_;
};

}  // namespace

void import_tailscale(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    auto policy = in.document(root, "a policy file: a mapping of acls, grants, hosts, autoApprovers, ...");
    if (!policy) continue;
    policy_reader reader(in);
    if (auto approvers = in.object_at(policy->at({"autoApprovers", "routes"}), "autoApprovers.routes")) {
      for (const auto& e : approvers->entries()) reader.add(e.key_node, e.key, 0, "autoApprovers.routes");
    }
    if (auto hosts = in.object_at(policy->get("hosts"), "hosts")) {
      for (const auto& e : hosts->entries()) {
        if (auto value = in.text(e.value, "a host")) reader.add(e.value, *value, 0, "hosts", std::string(e.key));
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

    auto& tailnet = add_owner(out, "tailscale", owner_kind::network, "tailscale", in.where(root));
    tailnet.value.description = "the tailnet, from its policy file";
    // The routes that matter: not the internet (an exit node's /0), not the
    // tailnet's own addresses, and not a range inside another route (the same
    // destination as far as overlaps go). A hosts name for a range names it.
    auto& routes = reader.routes();
    auto tailnet_own = [](const prefix& p) {
      return p.subnet_of(prefix::parse("100.64.0.0/10")) || p.subnet_of(prefix::parse("fd7a:115c:a1e0::/48"));
    };
    std::erase_if(routes, [&](const route& r) { return r.range.cidr.length() == 0 || tailnet_own(r.range.cidr); });
    std::vector<route> kept;
    for (const auto& r : routes) {
      bool inside = std::any_of(routes.begin(), routes.end(), [&](const route& other) {
        return other.range.cidr != r.range.cidr && r.range.cidr.subnet_of(other.range.cidr);
      });
      if (inside) continue;
      auto same = std::find_if(kept.begin(), kept.end(), [&](const route& k) { return k.range.cidr == r.range.cidr; });
      if (same == kept.end()) {
        kept.push_back(r);
      } else if (same->alias.empty() && !r.alias.empty()) {
        same->alias = r.alias;
      }
    }
    if (kept.empty()) continue;
    imported_connection connection;
    connection.value.name = "tailnet routes";
    connection.value.via = "tailscale";
    connection.value.where = in.where(root);
    connection.value.description = "subnet routes named in the tailnet policy file";
    connection.members.emplace_back("tailscale", in.where(root));
    for (auto& r : kept) {
      auto name = "route:" + (r.alias.empty() ? r.range.cidr.to_string() : r.alias);
      auto& o = add_owner(out, name, owner_kind::network, "tailscale-route", r.range.where);
      o.value.description = "a subnet route the tailnet policy names in " + r.from;
      add_claim(o, range_role::external, claim_kind::exact, {std::move(r.range)});
      connection.members.emplace_back(name, o.value.where);
    }
    out.connections.push_back(std::move(connection));
  }
}

}  // namespace cidrcheck::detail
