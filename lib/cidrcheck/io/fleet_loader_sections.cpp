// A fleet file's sections: one reader per section (the file, a cluster, a
// network, a network's route, a connection, plan:, plan: pools), each driven
// by a key table (yaml_reader.hpp: read_keys), the one list of the section's
// keys for both unknown-key errors (with did-you-mean, in table order) and
// dispatch. suppressions: and renumber: have readers of their own
// (suppression_reader.hpp, plan_overlay.hpp).

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include "fleet_loader_state.hpp"
#include "kube_version.hpp"
#include "suppression_reader.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>

namespace cidrcheck::detail {

namespace {

using entry = yaml_reader::entry;

// Refuses a name that name_problem rejects, at its value.
auto name_allowed(yaml_reader& r, std::uint32_t node, const std::string& name) -> bool {
  auto why = name_problem(name);
  if (why) r.error(node, diag::invalid_name, "invalid name \"" + printable(name) + "\": " + *why);
  return !why;
}

// A list of CIDRs (one CIDR stands for a list of one).
auto cidr_list(yaml_reader& r, std::uint32_t node, const std::string& what) -> std::vector<prefix> {
  std::vector<prefix> out;
  if (auto items = r.list(node, what)) {
    for (auto item : *items) {
      if (auto p = r.cidr(item, what)) out.push_back(*p);
    }
  }
  return out;
}

// The end column of a node written on one line, else 0 (unknown).
auto one_line_end(const yaml_reader& r, std::uint32_t node) -> std::uint32_t {
  return r.node(node).line == r.node(node).end_line ? r.node(node).end_column : 0;
}

// A mapping of text to text (an owner's `labels:`, a pool's `for:`), in the
// order written; the mapping reports duplicate keys. Keys in `reserved` are
// refused (a pool's `for:` reads them itself).
auto text_map(yaml_reader& r, std::uint32_t node, const std::string& what)
    -> std::vector<std::pair<std::string, std::string>> {
  std::vector<std::pair<std::string, std::string>> out;
  auto entries = r.mapping(node, what);
  if (!entries) return out;
  for (const auto& e : *entries) {
    if (e.key.empty()) {
      r.error(e.key_node, diag::invalid_value, what + ": a label needs a key");
      continue;
    }
    if (e.key == "owner" || e.key == "role") {
      r.error(e.key_node, diag::invalid_value,
              what + ": '" + std::string(e.key) + "' is no label: a pool's for: reads it as the owner's name or the range's role");
      continue;
    }
    if (auto v = r.string(e.value, what + " " + std::string(e.key))) out.emplace_back(std::string(e.key), std::move(*v));
  }
  return out;
}

// ---- plan: ----------------------------------------------------------------

// `cost:` keys as `--cost` takes them (plan_limits.hpp): a role (network, pods,
// services, all), an operation kind, owner:NAME/WHAT,
// distribution:NAME/WHAT. The keys are data, so no key table; owners are
// checked in finish(), once every source is read.
void read_plan_costs(yaml_reader& r, std::uint32_t node, plan_settings& settings, const catalog& cat) {
  auto entries = r.mapping(node, "plan cost");
  if (!entries) return;
  for (const auto& x : *entries) {
    auto parsed = parse_cost_key(x.key);
    if (auto* problem = std::get_if<cost_key_problem>(&parsed)) {
      r.error(x.key_node, problem->code, problem->message);
      continue;
    }
    auto& o = std::get<cost_override>(parsed);
    if (auto problem = check_cost_names(o, cat)) {
      r.error(x.key_node, problem->code, problem->message);
      continue;
    }
    auto v = r.integer(x.value, INT64_MIN, INT64_MAX, "plan cost " + std::string(x.key));
    if (!v) continue;
    auto cost = check_plan_cost(x.key, *v);  // the limits every front end uses
    if (!cost.value) {
      r.error(x.value, diag::range, cost.error);
    } else if (is_role_cost_key(x.key)) {
      for (std::size_t role = 0; role < 3; ++role) {
        if (x.key == "all" || x.key == (role == 0 ? "network" : role == 1 ? "pods" : "services")) {
          settings.cost[role] = *cost.value;
        }
      }
    } else {
      o.cost = *cost.value;
      o.where = r.where(x.key_node);
      settings.cost_overrides.push_back(std::move(o));
    }
  }
}

struct plan_section {
  plan_settings& settings;
  const catalog& cat;
};

// `pools:` as a mapping: one list per role.
template <std::size_t Role>
void read_role_pool(plan_settings& settings, yaml_reader& r, const entry& e) {
  settings.pools[Role] = cidr_list(r, e.value, "plan pools " + std::string(e.key));
}

// A named pool: `{name, cidrs, for: {LABEL: VALUE, ..., owner: PATTERN, role: ROLE}}`.
struct named_pool_section {
  named_pool& pool;
};

void read_pool_for(named_pool_section& s, yaml_reader& r, const entry& e) {
  if (r.is_null(e.value)) return;  // `for:` empty: every owner and role
  auto entries = r.mapping(e.value, "pool " + s.pool.name + " for");
  if (!entries) return;
  std::string what = "pool " + s.pool.name + " for";
  auto& sel = s.pool.selector;
  for (const auto& x : *entries) {
    if (x.key == "owner") {
      if (auto t = r.string(x.value, what + " owner")) sel.owner = *t;
    } else if (x.key == "role") {
      role_set roles = role_set::none();
      if (auto items = r.list(x.value, what + " role")) {
        for (auto item : *items) {
          auto word = r.string(item, what + " role");
          if (!word) continue;
          auto named = parse_cluster_roles(*word);
          if (!named) {
            r.error(item, diag::invalid_role,
                    what + " role: unknown role '" + printable(*word) + "' (network, pods, services or all)" +
                        did_you_mean(*word, cluster_role_words));
            continue;
          }
          roles.add(*named);
        }
      }
      sel.roles = roles;
    } else if (x.key.empty()) {
      r.error(x.key_node, diag::invalid_value, what + ": a label needs a key");
    } else if (auto v = r.string(x.value, what + " " + std::string(x.key))) {
      sel.labels.emplace_back(std::string(x.key), std::move(*v));
    }
  }
}

constexpr key_rule<named_pool_section> named_pool_keys[] = {
    {"name", nullptr},
    {"cidrs", [](named_pool_section& s, yaml_reader& r, const entry& e) {
       s.pool.cidrs = cidr_list(r, e.value, "pool " + s.pool.name + " cidrs");
     }},
    {"for", read_pool_for},
};

// `pools:` as a list: CIDRs for every role, and named pools ({name, cidrs, for}).
void read_pool_list(plan_section& s, yaml_reader& r, std::uint32_t node) {
  auto items = r.list(node, "plan pools");
  if (!items) return;
  for (auto item : *items) {
    if (r.node(item).kind != yaml_kind::mapping) {
      if (auto p = r.cidr(item, "plan pools")) {
        for (auto& pool : s.settings.pools) pool.push_back(*p);  // one list for every role
      }
      continue;
    }
    auto entries = r.mapping(item, "a pool");
    if (!entries) continue;
    named_pool pool;
    pool.where = r.where(item);
    std::optional<std::uint32_t> name_node;
    bool has_cidrs = false;
    for (const auto& e : *entries) {
      if (e.key == "name") {
        if (auto name = r.string(e.value, "a pool's name"); name && name_allowed(r, e.value, *name)) {
          pool.name = *name;
          name_node = e.value;
        }
      }
      has_cidrs = has_cidrs || e.key == "cidrs";
    }
    report_unknown_keys(r, *entries, named_pool_keys, "a pool");
    if (!name_node) {
      if (std::none_of(entries->begin(), entries->end(), [](const entry& e) { return e.key == "name"; })) {
        r.error(item, diag::missing_key, "a pool needs a name");
      }
      continue;
    }
    if (!has_cidrs) r.error(item, diag::missing_key, "pool " + pool.name + " needs cidrs");
    auto& pools = s.settings.named_pools;
    if (auto same = std::find_if(pools.begin(), pools.end(), [&](const named_pool& p) { return p.name == pool.name; });
        same != pools.end()) {
      diagnostic note{severity::note, "", "'" + pool.name + "' is first declared here", same->where, {}};
      r.error(*name_node, diag::duplicate_name, "duplicate pool name '" + pool.name + "'", {note});
      continue;
    }
    named_pool_section section{pool};
    dispatch_keys(r, *entries, named_pool_keys, section);
    pools.push_back(std::move(pool));
  }
}

// `pools:` as a mapping: one list per role, and `named:`, a list of named pools
// (so that role pools that differ by role and named pools can be written together).
constexpr key_rule<plan_section> pool_keys[] = {
    {"network", [](plan_section& s, yaml_reader& r, const entry& e) { read_role_pool<0>(s.settings, r, e); }},
    {"pods", [](plan_section& s, yaml_reader& r, const entry& e) { read_role_pool<1>(s.settings, r, e); }},
    {"services", [](plan_section& s, yaml_reader& r, const entry& e) { read_role_pool<2>(s.settings, r, e); }},
    {"named", [](plan_section& s, yaml_reader& r, const entry& e) {
       auto items = r.sequence(e.value, "plan pools named");
       if (!items) return;
       for (auto item : *items) {
         if (r.node(item).kind != yaml_kind::mapping) {
           r.error(item, diag::type, "plan pools named: each item is a pool {name, cidrs, for}");
           return;
         }
       }
       read_pool_list(s, r, e.value);
     }},
};

void read_pools(plan_section& s, yaml_reader& r, const entry& e) {
  if (r.node(e.value).kind != yaml_kind::mapping) {
    read_pool_list(s, r, e.value);
    return;
  }
  if (auto per_role = r.mapping(e.value, "plan pools")) read_keys(r, *per_role, pool_keys, "plan pools", s);
}

void read_avoid(plan_section& s, yaml_reader& r, const entry& e) {
  auto more = cidr_list(r, e.value, "plan avoid");
  s.settings.avoid.insert(s.settings.avoid.end(), more.begin(), more.end());
}

void read_pins(plan_section& s, yaml_reader& r, const entry& e) {
  if (auto items = r.list(e.value, "plan pin")) {
    for (auto item : *items) {
      auto pin = r.string(item, "a pin");
      if (!pin) continue;
      auto checked = check_plan_pin(*pin);
      if (checked.value) {
        s.settings.pins.push_back({std::move(*checked.value), r.where(item)});
      } else {
        r.error(item, diag::range, checked.error);
      }
    }
  }
}

void read_costs(plan_section& s, yaml_reader& r, const entry& e) { read_plan_costs(r, e.value, s.settings, s.cat); }

void read_headroom(plan_section& s, yaml_reader& r, const entry& e) {
  if (auto text = r.string(e.value, "plan headroom")) {
    auto headroom = parse_plan_headroom(*text);  // the limits every front end uses
    if (headroom.value) {
      s.settings.headroom = headroom.value;
    } else {
      r.error(e.value, diag::range, headroom.error);
    }
  }
}

constexpr key_rule<plan_section> plan_keys[] = {
    {"pools", read_pools}, {"avoid", read_avoid}, {"pin", read_pins}, {"cost", read_costs}, {"headroom", read_headroom},
};

// ---- a cluster, a network -------------------------------------------------

// An owner being read: its keys fill `o`; its range lists and routes are read
// once its name is known to be new.
struct owner_section {
  owner& o;
  const std::string& what;  // "cluster NAME", for messages
  std::vector<std::pair<range_role, std::uint32_t>> range_lists;
  std::optional<std::uint32_t> routes_node, ipam_node;
};

void read_type(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto t = r.string(e.value, e.key)) {
    s.o.type = *t;
    s.o.type_where = r.where(e.value);
    if (auto end = one_line_end(r, e.value)) s.o.type_end_column = end;
  }
}

void read_kubernetes(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto t = r.string(e.value, "kubernetes")) {
    s.o.kubernetes = parse_kube_version(*t);
    if (!s.o.kubernetes) {
      r.error(e.value, diag::type, "kubernetes must be a version such as \"1.29\", not \"" + *t + "\"");
    }
  }
}

// A node mask or block size of one IP version (node_cidr_mask, block_size and their _v6).
template <std::optional<int> owner::*Field, ip_version Version>
void read_length(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto v = r.integer(e.value, min_node_mask, max_node_mask(Version), e.key)) s.o.*Field = static_cast<int>(*v);
}

// A count of nodes, Services or LoadBalancers, with where it was written.
template <std::optional<std::uint64_t> owner::*Count, source_location owner::*Where>
void read_count(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto v = r.integer(e.value, 0, max_declared_count, e.key)) {
    s.o.*Count = static_cast<std::uint64_t>(*v);
    s.o.*Where = r.where(e.value);
  }
}

void read_dns(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto a = r.ip(e.value, "dns of " + s.what)) {
    s.o.dns = *a;
    s.o.dns_where = r.where(e.value);
  }
}

void read_ip_family(owner_section& s, yaml_reader& r, const entry& e) {
  auto t = r.string(e.value, "ip_family");
  if (t && *t != "ipv4" && *t != "ipv6" && *t != "dual") {
    r.error(e.value, diag::invalid_value, "ip_family of " + s.what + " must be ipv4, ipv6 or dual, not \"" + *t + "\"");
  } else if (t) {
    s.o.ip_family = *t;
  }
}

// A word of a fixed vocabulary (pool_encapsulation, routing_mode, kube_proxy_mode).
template <std::string owner::*Field, const auto& Words>
void read_word(owner_section& s, yaml_reader& r, const entry& e) {
  auto t = r.string(e.value, e.key);
  if (!t) return;
  if (std::find(std::begin(Words), std::end(Words), *t) == std::end(Words)) {
    std::string valid;
    for (auto w : Words) valid += (valid.empty() ? "" : ", ") + std::string(w);
    r.error(e.value, diag::invalid_value,
            std::string(e.key) + " of " + s.what + " must be one of " + valid + ", not \"" + printable(*t) + "\"" +
                did_you_mean(*t, Words));
    return;
  }
  s.o.*Field = *t;
}

void read_cni(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto t = r.string(e.value, "cni")) {
    s.o.cni = *t;
    s.o.cni_where = r.where(e.value);
    if (auto end = one_line_end(r, e.value)) s.o.cni_end_column = end;
  }
}

void read_ipam(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto t = r.string(e.value, "ipam")) {
    s.o.ipam = *t;
    s.ipam_node = e.value;  // checked against the CNI once every key is read
  }
}

void read_movable(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto b = r.boolean(e.value, "movable")) s.o.movable = *b;
}

void read_description(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto d = r.string(e.value, "description")) s.o.description = *d;
}

void read_labels(owner_section& s, yaml_reader& r, const entry& e) {
  if (!r.is_null(e.value)) s.o.labels = text_map(r, e.value, "labels of " + s.what);
}

void read_routes_key(owner_section& s, yaml_reader& /*r*/, const entry& e) { s.routes_node = e.value; }

// The network a cluster runs in, by name: resolved once every source is read.
void read_runs_in(owner_section& s, yaml_reader& r, const entry& e) {
  if (auto t = r.string(e.value, "runs_in")) {
    s.o.runs_in = *t;
    s.o.runs_in_where = r.where(e.value);
  }
}

// A range list (network, pods, services, cidrs); the layout notes where its key
// is when the owner's own text writes it (not a merge key bringing it from an anchor).
template <range_role Role>
void read_range_key(owner_section& s, yaml_reader& r, const entry& e) {
  s.range_lists.emplace_back(Role, e.value);
  const auto& key = r.node(e.key_node);
  if (std::pair(key.line, key.column) >= std::pair(s.o.where.line, s.o.where.column) && key.line == key.end_line) {
    s.o.layout.range_key_line[static_cast<std::size_t>(Role)] = key.line;
    s.o.layout.range_key_end_column[static_cast<std::size_t>(Role)] = key.end_column;
  }
}

// `name` is read before the table runs: the other keys' messages name the owner.
constexpr key_rule<owner_section> cluster_keys[] = {
    {"name", nullptr},
    {"distribution", read_type},
    {"kubernetes", read_kubernetes},
    {"network", read_range_key<range_role::network>},
    {"runs_in", read_runs_in},
    {"pods", read_range_key<range_role::pods>},
    {"services", read_range_key<range_role::services>},
    {"node_cidr_mask", read_length<&owner::node_cidr_mask, ip_version::v4>},
    {"node_cidr_mask_v6", read_length<&owner::node_cidr_mask_v6, ip_version::v6>},
    {"block_size", read_length<&owner::block_size, ip_version::v4>},
    {"block_size_v6", read_length<&owner::block_size_v6, ip_version::v6>},
    {"ip_family", read_ip_family},
    {"nodes", read_count<&owner::nodes, &owner::nodes_where>},
    {"dns", read_dns},
    {"cni", read_cni},
    {"ipam", read_ipam},
    {"pool_encapsulation", read_word<&owner::pool_encapsulation, pool_encapsulation_words>},
    {"routing_mode", read_word<&owner::routing_mode, routing_mode_words>},
    {"kube_proxy_mode", read_word<&owner::kube_proxy_mode, kube_proxy_mode_words>},
    {"service_count", read_count<&owner::service_count, &owner::service_count_where>},
    {"load_balancer_count", read_count<&owner::load_balancer_count, &owner::load_balancer_count_where>},
    {"labels", read_labels},
    {"description", read_description},
};

constexpr key_rule<owner_section> network_keys[] = {
    {"name", nullptr},
    {"type", read_type},
    {"cidrs", read_range_key<range_role::external>},
    {"routes", read_routes_key},
    {"movable", read_movable},
    {"labels", read_labels},
    {"description", read_description},
};

// ---- a network's route ----------------------------------------------------

struct route_section {
  fleet_route& route;
  std::optional<std::uint32_t> cidr_node;
};

constexpr key_rule<route_section> route_keys[] = {
    {"cidr", [](route_section& s, yaml_reader&, const entry& e) { s.cidr_node = e.value; }},
    {"to",
     [](route_section& s, yaml_reader& r, const entry& e) {
       if (auto t = r.string(e.value, "to")) {
         s.route.to = *t;
         s.route.to_where = r.where(e.value);
       }
     }},
    {"advertised_by",
     [](route_section& s, yaml_reader& r, const entry& e) {
       if (auto t = r.string(e.value, "advertised_by")) s.route.advertiser = *t;
     }},
};

// ---- a connection ---------------------------------------------------------

struct connection_section {
  pending_connection& p;
  std::optional<std::uint32_t> members;
};

void read_connection_roles(connection_section& s, yaml_reader& r, const entry& e) {
  auto items = r.list(e.value, "routes");
  if (!items) return;
  auto& routes = s.p.value.routes;
  routes = role_set::none();
  for (auto item : *items) {
    auto name = r.string(item, "a route");
    if (!name) continue;
    if (auto roles = parse_cluster_roles(*name)) {
      routes.add(*roles);
    } else {
      r.error(item, diag::unknown_role,
              "unknown route '" + *name + "': routes are network, pods, services or all" +
                  did_you_mean(*name, cluster_role_words));
    }
  }
}

// `translated`: member name -> a CIDR or a list of them.
void read_translated(connection_section& s, yaml_reader& r, const entry& e) {
  s.p.translated_where = r.where(e.key_node);
  auto members = r.mapping(e.value, "translated");
  if (!members) return;
  for (const auto& m : *members) {
    std::string what = "translated ranges of " + std::string(m.key);
    auto items = r.list(m.value, what);
    if (!items) continue;
    for (auto item : *items) {
      auto cidr = r.cidr(item, what);
      if (!cidr) continue;
      pending_translation t;
      t.member = m.key;
      t.member_where = r.where(m.key_node);
      t.range.cidr = *cidr;
      t.range.where = r.where(item);
      if (auto end = one_line_end(r, item)) t.range.end_column = end;
      s.p.translated.push_back(std::move(t));
    }
  }
}

// `withdrawn`: a CIDR or a list of them, the prefixes the connection no longer carries.
void read_withdrawn(connection_section& s, yaml_reader& r, const entry& e) {
  s.p.withdrawn_where = r.where(e.key_node);
  auto items = r.list(e.value, "withdrawn");
  if (!items) return;
  for (auto item : *items) {
    if (auto cidr = r.cidr(item, "a withdrawn prefix")) s.p.value.withdrawn.push_back(*cidr);
  }
}

constexpr key_rule<connection_section> connection_keys[] = {
    {"between", [](connection_section& s, yaml_reader&, const entry& e) { s.members = e.value; }},
    {"via",
     [](connection_section& s, yaml_reader& r, const entry& e) {
       if (auto v = r.string(e.value, "via")) s.p.value.via = *v;
     }},
    {"routes", read_connection_roles},
    {"translated", read_translated},
    {"withdrawn", read_withdrawn},
    {"name",
     [](connection_section& s, yaml_reader& r, const entry& e) {
       if (auto v = r.string(e.value, "name"); v && name_allowed(r, e.value, *v)) s.p.value.name = *v;
     }},
    {"description",
     [](connection_section& s, yaml_reader& r, const entry& e) {
       if (auto d = r.string(e.value, "description")) s.p.value.description = *d;
     }},
};

// ---- the sections that add to the fleet ----------------------------------

void read_plan_settings(fleet_reading& s, yaml_reader& r, std::uint32_t node) {
  if (r.is_null(node)) return;
  auto entries = r.mapping(node, "plan");
  if (!entries) return;
  plan_section section{s.result.value.plan, s.cat};
  section.settings.where = r.where(node);
  read_keys(r, *entries, plan_keys, "plan", section);
}

// Whether one more range fits the max-ranges limit; past it, an error at
// the item and nothing more is read.
auto room_for_a_range(fleet_reading& s, yaml_reader& r, std::uint32_t item) -> bool {
  if (s.result.value.ranges.size() < s.limits.max_ranges) return true;
  r.error(item, diag::limit, "more than the max-ranges limit of " + std::to_string(s.limits.max_ranges) + " ranges");
  s.stopped = true;
  return false;
}

// A network's `routes`: each a CIDR, or {cidr, to, advertised_by}. The
// prefix becomes a range of the network marked as a route; `to` is
// resolved once every source is read (resolve_routes).
void read_network_routes(fleet_reading& s, yaml_reader& r, std::uint32_t node, std::uint32_t owner_at,
                         const std::string& what) {
  if (s.stopped || r.is_null(node)) return;
  auto items = r.list(node, "routes of " + what);
  if (!items) return;
  auto& f = s.result.value;
  for (auto item : *items) {
    if (!room_for_a_range(s, r, item)) return;
    fleet_route route;
    route_section section{route, std::nullopt};
    if (r.node(item).kind == yaml_kind::mapping) {
      auto entries = r.mapping(item, "a route");
      if (!entries) continue;
      read_keys(r, *entries, route_keys, "a route of " + what, section);
      if (!section.cidr_node) {
        r.error(item, diag::missing_key, "a route of " + what + " needs 'cidr', the prefix it carries");
        continue;
      }
    } else {
      section.cidr_node = item;
    }
    auto cidr_node = *section.cidr_node;
    auto cidr = r.cidr(cidr_node, "a route of " + what);
    if (!cidr) continue;
    fleet_range fr;
    fr.cidr = *cidr;
    fr.owner = owner_at;
    fr.role = range_role::external;
    fr.where = r.where(cidr_node);
    if (auto end = one_line_end(r, cidr_node)) fr.end_column = end;
    fr.route = static_cast<std::uint32_t>(f.routes.size());
    route.range = static_cast<std::uint32_t>(f.ranges.size());
    f.routes.push_back(std::move(route));
    f.owners[owner_at].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
    f.ranges.push_back(std::move(fr));
  }
}

// A range written as a size ("/16", "ipv6/64") or "auto" is a request for
// `cidrcheck plan` to fill. Returns false for anything else (a CIDR).
auto read_request(fleet_reading& s, yaml_reader& r, std::uint32_t item, std::uint32_t owner_at, range_role role,
                  const std::string& what) -> bool {
  const auto& n = r.node(item);
  if (n.kind != yaml_kind::scalar) return false;
  std::string_view text = r.value(item);
  range_request q;
  q.owner = owner_at;
  q.role = role;
  q.where = r.where(item);
  if (n.line == n.end_line) q.end_column = n.end_column;
  if (text == "auto") {
    s.result.value.requests.push_back(q);
    return true;
  }
  if (text.starts_with("ipv6/")) {
    q.version = ip_version::v6;
    text.remove_prefix(4);
  }
  if (!text.starts_with('/')) return false;
  int length = 0;
  parse_failure failure;
  if (!parse_length(text.substr(1), 1, bit_width(q.version), length, failure)) {
    r.error(item, diag::invalid_size,
            what + ": \"" + std::string(r.value(item)) + "\" is not a size: write /LENGTH (IPv4), ipv6/LENGTH or auto");
    return true;
  }
  q.length = length;
  s.result.value.requests.push_back(q);
  return true;
}

void read_ranges(fleet_reading& s, yaml_reader& r, std::uint32_t node, std::uint32_t owner_at, range_role role,
                 const std::string& what) {
  if (s.stopped || r.is_null(node)) return;  // written but empty: as if omitted, so defaults apply
  auto& f = s.result.value;
  f.owners[owner_at].declared.add(role);
  std::string field = role == range_role::external ? "cidrs" : std::string(to_string(role));
  auto items = r.list(node, field + " of " + what);
  if (!items) return;
  for (auto item : *items) {
    if (!room_for_a_range(s, r, item)) return;
    if (read_request(s, r, item, owner_at, role, field + " of " + what)) continue;
    auto cidr = r.cidr(item, field + " of " + what);
    if (!cidr) continue;
    fleet_range fr;
    fr.cidr = *cidr;
    fr.owner = owner_at;
    fr.role = role;
    fr.where = r.where(item);
    if (auto end = one_line_end(r, item)) fr.end_column = end;
    f.owners[owner_at].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
    f.ranges.push_back(std::move(fr));
  }
}

void read_owner(fleet_reading& s, yaml_reader& r, std::uint32_t node, owner_kind kind) {
  bool cluster = kind == owner_kind::cluster;
  auto entries = r.mapping(node, cluster ? "a cluster" : "a network");
  if (!entries) return;
  owner o;
  o.kind = kind;
  o.where = r.where(node);
  o.layout.flow = r.node(node).flow;
  o.layout.end = {o.where.file, r.node(node).end_line, r.node(node).end_column};
  if (!entries->empty()) o.layout.key_column = r.node(entries->front().key_node).column;
  std::optional<std::uint32_t> name_node;
  bool has_name_key = false;
  for (const auto& e : *entries) {
    if (e.key == "name") {
      has_name_key = true;
      if (auto name = r.string(e.value, "name"); name && name_allowed(r, e.value, *name)) {
        o.name = *name;
        name_node = e.value;
      }
    }
  }
  std::string what = std::string(to_string(kind)) + " " + (o.name.empty() ? std::string("(unnamed)") : o.name);
  auto keys = cluster ? std::span<const key_rule<owner_section>>(cluster_keys)
                       : std::span<const key_rule<owner_section>>(network_keys);
  report_unknown_keys(r, *entries, keys, what);
  if (!name_node) {
    if (!has_name_key) {
      r.error(node, diag::missing_key, std::string(cluster ? "a cluster" : "a network") + " needs a name");
    }
    return;
  }
  owner_section section{o, what, {}, std::nullopt, std::nullopt};
  dispatch_keys(r, *entries, keys, section);
  if (section.ipam_node) {
    if (auto why = s.ipam_problem(o, what)) r.error(*section.ipam_node, diag::invalid_value, *why);
  }
  auto index = static_cast<std::uint32_t>(s.result.value.owners.size());
  auto [it, inserted] = s.owner_index.emplace(o.name, index);
  if (!inserted) {
    const auto& first = s.result.value.owners[it->second];
    diagnostic note{severity::note, "", "'" + o.name + "' is first declared here", first.where, {}};
    r.error(*name_node, diag::duplicate_name,
            "duplicate name '" + o.name + "': every cluster and network needs its own", {note});
    return;
  }
  s.result.value.owners.push_back(std::move(o));
  for (auto [role, list_node] : section.range_lists) read_ranges(s, r, list_node, index, role, what);
  if (section.routes_node) read_network_routes(s, r, *section.routes_node, index, what);
}

void read_owners(fleet_reading& s, yaml_reader& r, std::uint32_t node, owner_kind kind) {
  if (r.is_null(node)) return;
  auto items = r.sequence(node, kind == owner_kind::cluster ? "clusters" : "networks");
  if (!items) return;
  for (auto item : *items) {
    if (s.stopped || r.exhausted()) return;
    if (s.result.value.owners.size() >= s.limits.max_owners) {
      r.error(item, diag::limit,
              "more than the max-owners limit of " + std::to_string(s.limits.max_owners) + " clusters and networks");
      s.stopped = true;
      return;
    }
    read_owner(s, r, item, kind);
  }
}

void read_connections(fleet_reading& s, yaml_reader& r, std::uint32_t node) {
  if (r.is_null(node)) return;
  auto items = r.sequence(node, "connections");
  if (!items) return;
  for (auto item : *items) {
    if (s.stopped || r.exhausted()) return;
    pending_connection p;
    p.where = r.where(item);
    p.value.where = p.where;
    connection_section section{p, std::nullopt};
    if (r.node(item).kind == yaml_kind::sequence) {
      section.members = item;  // the short form: just the members
    } else {
      auto entries = r.mapping(item, "a connection");
      if (!entries) continue;
      read_keys(r, *entries, connection_keys, "a connection", section);
      if (!section.members) {
        r.error(item, diag::missing_key, "a connection needs 'between', the list of owners it connects");
        continue;
      }
    }
    auto names = r.list(*section.members, "between");
    if (!names) continue;
    for (auto n : *names) {
      if (auto name = r.string(n, "a connection member")) p.names.emplace_back(*name, n);
      p.name_locations.push_back(r.where(n));
    }
    s.connections.push_back(std::move(p));
  }
}

constexpr key_rule<fleet_reading> file_keys[] = {
    {"version",
     [](fleet_reading&, yaml_reader& r, const entry& e) {
       auto v = r.integer(e.value, 0, 1'000'000, "version");
       if (v && *v != 1) {
         r.error(e.value, diag::version,
                 "unsupported fleet file version " + std::to_string(*v) + "; this cidrcheck reads version 1");
       }
     }},
    {"networks",
     [](fleet_reading& s, yaml_reader& r, const entry& e) { read_owners(s, r, e.value, owner_kind::network); }},
    {"clusters",
     [](fleet_reading& s, yaml_reader& r, const entry& e) { read_owners(s, r, e.value, owner_kind::cluster); }},
    {"connections", [](fleet_reading& s, yaml_reader& r, const entry& e) { read_connections(s, r, e.value); }},
    {"plan", [](fleet_reading& s, yaml_reader& r, const entry& e) { read_plan_settings(s, r, e.value); }},
    {"suppressions",
     [](fleet_reading& s, yaml_reader& r, const entry& e) { read_suppressions(r, e.value, s.result.suppressions); }},
    {"renumber",  // applied in finish(), once every source is read
     [](fleet_reading& s, yaml_reader& r, const entry& e) { read_renumbering(r, e.value, s.renumbering); }},
};

}  // namespace

void fleet_reading::read_document(yaml_reader& r, std::uint32_t root) {
  if (r.is_null(root)) return;  // an empty document between "---" separators
  auto top = r.mapping(root, "a fleet file");
  if (!top) return;
  read_keys(r, *top, file_keys, "the fleet file", *this, extension_keys::ignored);
}

}  // namespace cidrcheck::detail
