#include "plan_overlay.hpp"

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>

namespace cidrcheck::detail {

void read_renumbering(yaml_reader& r, std::uint32_t node, std::vector<renumbering>& out) {
  if (r.is_null(node)) return;
  auto items = r.sequence(node, "renumber");
  if (!items) return;
  for (auto item : *items) {
    if (r.exhausted()) return;
    auto entries = r.mapping(item, "a renumber entry");
    if (!entries) continue;
    r.only_keys(*entries, {"owner", "role", "from", "to", "add"}, "a renumber entry");
    renumbering x;
    bool complete = true;
    // `add: CIDR` (a range an operation adds) instead of `from` and `to`.
    x.add = std::any_of(entries->begin(), entries->end(), [](const auto& e) { return e.key == "add"; });
    auto field = [&](std::string_view key, std::string& into, source_location& where) -> const yaml_reader::entry* {
      auto it = std::find_if(entries->begin(), entries->end(), [&](const auto& e) { return e.key == key; });
      if (it == entries->end()) {
        r.error(item, diag::missing_key, "a renumber entry needs " + std::string(key));
        complete = false;
        return nullptr;
      }
      if (auto text = r.string(it->value, key)) {
        into = *text;
        where = r.where(it->value);
      } else {
        complete = false;
      }
      return &*it;
    };
    field("owner", x.owner, x.owner_where);
    source_location role_where;
    auto role = field("role", x.role, role_where);
    if (!x.add) field("from", x.from, x.from_where);
    auto to = field(x.add ? "add" : "to", x.to, x.to_where);
    if (to) {
      const auto& n = r.node(to->value);
      if (n.line == n.end_line) x.to_end_column = n.end_column;
    }
    static constexpr std::string_view roles[] = {"network", "pods", "services", "cidrs", "routes", "dns"};
    if (role && complete && std::find(std::begin(roles), std::end(roles), x.role) == std::end(roles)) {
      r.error(role->value, diag::invalid_role,
              "unknown role '" + x.role + "': network, pods, services, cidrs, routes or dns" + did_you_mean(x.role, roles));
      continue;
    }
    if (!complete) continue;
    // The new value, checked where it is written.
    if (x.add && (x.role == "dns" || x.role == "routes")) {
      r.error(role->value, diag::invalid_role,
              x.role == "dns" ? "a renumber entry adds ranges, not a DNS address" : "a renumber entry adds ranges, not routes");
      continue;
    }
    bool valid = x.role == "dns" ? r.ip(to->value, "to of a renumber entry").has_value()
                                 : r.cidr(to->value, std::string(x.add ? "add" : "to") + " of a renumber entry").has_value();
    if (valid) out.push_back(std::move(x));
  }
}

namespace {

auto role_of(const std::string& word) -> range_role {
  if (word == "network") return range_role::network;
  if (word == "pods") return range_role::pods;
  if (word == "services") return range_role::services;
  return range_role::external;  // cidrs, routes
}

}  // namespace

void apply_renumbering(const std::vector<renumbering>& entries, fleet& f,
                       const std::unordered_map<std::string, std::uint32_t>& index, std::vector<diagnostic>& out) {
  auto error = [&](const source_location& where, std::string code, std::string message) {
    out.push_back({severity::error, std::move(code), "renumber: " + std::move(message), where, {}});
  };
  const std::string changed = " (did the sources change since the plan was made?)";
  for (const auto& x : entries) {
    auto it = index.find(x.owner);
    if (it == index.end()) {
      std::vector<std::string_view> names;
      for (const auto& o : f.owners) names.push_back(o.name);
      error(x.owner_where, diag::unknown_owner,
            "no cluster or network is named '" + x.owner + "'" + did_you_mean(x.owner, names) + changed);
      continue;
    }
    auto k = it->second;
    auto& o = f.owners[k];
    if (x.role == "dns") {
      auto from = address::try_parse(x.from);
      auto to = address::try_parse(x.to);
      if (!to) {
        error(x.to_where, diag::invalid_address, parse_error_message(parse_kind::address, x.to, to.error()));
      } else if (!from || !o.dns || *o.dns != *from) {
        error(x.from_where, diag::stale_renumber,
              describe_owner(o) + " has " + (o.dns ? "the DNS address " + o.dns->to_string() : "no DNS address") +
                  ", not " + x.from + changed);
      } else {
        o.dns = *to;
        o.dns_where = x.to_where;
      }
      continue;
    }
    auto to = prefix::try_parse(x.to);
    if (!to) {
      error(x.to_where, diag::invalid_prefix, parse_error_message(parse_kind::prefix, x.to, to.error()));
      continue;
    }
    auto role = role_of(x.role);
    if ((role == range_role::external) != (o.kind == owner_kind::network)) {
      error(x.from_where, diag::invalid_role,
            describe_owner(o) + " has no " + (x.role == "routes" ? x.role : x.role + " ranges"));
      continue;
    }
    fleet_range moved;
    moved.cidr = *to;
    moved.owner = k;
    moved.role = role;
    moved.where = x.to_where;
    moved.end_column = x.to_end_column;
    if (x.add) {
      o.ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
      f.ranges.push_back(moved);
      o.declared.add(role);
      continue;
    }
    bool request = x.from == "auto" || x.from.starts_with("/") || x.from.starts_with("ipv6/");
    if (request) {
      // A requested size the plan filled: the request gives way to the range.
      auto q = std::find_if(f.requests.begin(), f.requests.end(), [&](const range_request& asked) {
        std::string size = !asked.length ? "auto"
                           : asked.version == ip_version::v6 ? "ipv6/" + std::to_string(*asked.length)
                                                             : "/" + std::to_string(*asked.length);
        return asked.owner == k && asked.role == role && size == x.from;
      });
      if (q == f.requests.end()) {
        error(x.from_where, diag::stale_renumber, describe_owner(o) + " requests no " + x.role + " of " + x.from + changed);
        continue;
      }
      f.requests.erase(q);
      o.ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
      f.ranges.push_back(moved);
      o.declared.add(role);
      continue;
    }
    // The owner's range (or route) of the role whose CIDR is `from`: a route
    // stays a route, with where it leads; a range of the owner's role is one of
    // its own, never a route or a translated range of the same CIDR.
    bool route = x.role == "routes";
    auto from = prefix::try_parse(x.from);
    auto r = std::find_if(o.ranges.begin(), o.ranges.end(), [&](std::uint32_t j) {
      const auto& range = f.ranges[j];
      return from && range.role == role && range.cidr == *from && (route ? range.is_route() : range.is_plain());
    });
    if (r == o.ranges.end()) {
      error(x.from_where, diag::stale_renumber,
            describe_owner(o) + " has no " + (route ? std::string("route") : x.role + " range") + " " + x.from + changed);
      continue;
    }
    auto& range = f.ranges[*r];
    range.cidr = moved.cidr;
    range.origin = range_origin::declared;
    range.where = moved.where;
    range.end_column = moved.end_column;
    if (!route) o.declared.add(role);
  }
}

}  // namespace cidrcheck::detail
