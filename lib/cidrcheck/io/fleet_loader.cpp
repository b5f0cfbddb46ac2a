#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/io/read_file.hpp>

#include "../fleet/import_merge.hpp"
#include "plan_overlay.hpp"
#include "import/read_import.hpp"
#include "kube_version.hpp"
#include "suppression_reader.hpp"
#include "too_many_errors.hpp"
#include "yaml_document.hpp"
#include "yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace cidrcheck {

namespace {

using detail::yaml_reader;

// YAML also ends a line at a lone CR, NEL, LS and PS; editors, positions and
// the plan writer (which rewrites fleet files by lines) end lines only at LF.
// A fleet file with such a break is refused at it: an error at its position.
auto foreign_line_break(std::string_view text, const std::string& name) -> std::optional<diagnostic> {
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      line_start = k + 1;
    } else if (auto length = detail::yaml_only_line_break(text, k)) {
      std::string_view what = length == 1   ? "a carriage return that is not part of CRLF"
                              : length == 2 ? "a U+0085 next-line character"
                              : text[k + 2] == '\xA8' ? "a U+2028 line separator"
                                                       : "a U+2029 paragraph separator";
      return diagnostic{severity::error, diag::line_break,
                        std::string(what) + " ends a line for YAML but not for editors; end lines with LF or CRLF",
                        {name, line, static_cast<std::uint32_t>(k - line_start + 1)}, {}};
    }
  }
  return std::nullopt;
}

// A connection as written: member names are resolved once every source is read.
// A member's translated range as written, before members are resolved.
struct pending_translation {
  std::string member;
  source_location member_where;
  fleet_range range;  // cidr and where; owner and translation set when resolved
};

struct pending_connection {
  connection value;
  std::vector<std::pair<std::string, std::uint32_t>> names;  // name, node
  source_location where;
  std::vector<source_location> name_locations;
  std::vector<pending_translation> translated;
  std::optional<source_location> translated_where;  // where `translated` was written
};

}  // namespace

struct fleet_loader::state {
  const catalog& cat;
  input_limits limits;
  fleet_load_result result;
  std::vector<pending_connection> connections;
  std::unordered_map<std::string, std::uint32_t> owner_index;
  std::vector<detail::import_result> imports;  // merged in finish(), after every fleet file
  std::unordered_map<std::string, std::vector<std::string>> moved_to;  // see merged_imports
  std::vector<detail::renumbering> renumbering;                         // a plan's overlay (plan_overlay.hpp)
  bool stopped = false;  // too many errors, or a limit hit: read nothing more

  state(const catalog& c, input_limits l) : cat(c), limits(l) {}

  auto error_count() const -> std::size_t {
    return static_cast<std::size_t>(std::count_if(result.diagnostics.begin(), result.diagnostics.end(),
                                                  [](const diagnostic& d) { return d.level == severity::error; }));
  }

  void read(std::string_view text, const std::string& name) {
    if (stopped) return;
    result.files.push_back(name);
    if (auto d = foreign_line_break(text, name)) {
      result.diagnostics.push_back(std::move(*d));
      return;
    }
    auto errors_before = error_count();
    auto doc = detail::parse_yaml(text, name, detail::yaml_limits_of(limits), result.diagnostics);
    if (error_count() > errors_before) return;  // a syntax error: the partial document would only add noise
    yaml_reader reader(doc, name, result.diagnostics, limits.max_nodes, limits.max_errors);
    if (doc.roots.empty() && !has_errors(result.diagnostics)) {
      result.diagnostics.push_back({severity::error, diag::empty_input, "the file holds no YAML document", {name, 0, 0}, {}});
    }
    for (auto root : doc.roots) read_document(reader, root);
    if (error_count() >= limits.max_errors) stop(detail::too_many_errors(limits.max_errors));
  }

  // Returns a file's text; a file that cannot be read is an error (its message
  // starting with `prefix`), and nothing.
  auto read_whole(const std::string& path, const std::string& prefix) -> std::optional<std::string> {
    if (stopped) return std::nullopt;
    auto file = read_file(path, limits.max_file_bytes, "max-file-bytes");
    if (file.error.empty()) return std::move(file.text);
    result.files.push_back(display_name(path));
    result.diagnostics.push_back(
        {severity::error, diag::unreadable, prefix + file.error, {display_name(path), 0, 0}, {}});
    return std::nullopt;
  }

  // Reports whether text given directly is within max-file-bytes; if not, says so.
  auto fits(std::string_view text, const std::string& name, const std::string& prefix) -> bool {
    if (text.size() <= limits.max_file_bytes) return true;
    result.diagnostics.push_back({severity::error, diag::limit,
                                  prefix + "input is larger than the max-file-bytes limit of " +
                                      std::to_string(limits.max_file_bytes) + " bytes",
                                  {name, 0, 0}, {}});
    return false;
  }

  void read_import(import_kind kind, std::string_view text, const std::string& name, const std::string& cluster = {}) {
    if (stopped) return;
    result.files.push_back(name);
    imports.push_back(detail::read_import(kind, text, name, detail::yaml_limits_of(limits), limits.max_nodes,
                                          result.diagnostics, cluster));
    if (error_count() >= limits.max_errors) stop(detail::too_many_errors(limits.max_errors));
  }

  // Refuses a name that detail::name_problem rejects, at its value.
  static auto name_allowed(yaml_reader& r, std::uint32_t node, const std::string& name) -> bool {
    auto why = detail::name_problem(name);
    if (why) r.error(node, diag::invalid_name, "invalid name \"" + detail::printable(name) + "\": " + *why);
    return !why;
  }

  // Merges the imports into the owners of the fleet files; their connections join the others.
  void merge_imports() {
    if (imports.empty()) return;
    auto declared = result.value.owners.size();
    auto merged = detail::merge_imports(std::move(imports), result.value, owner_index,
                                        {limits.max_owners, limits.max_ranges}, result.diagnostics);
    // Names and IPAM modes an export gave its owners obey the rules the fleet file's do.
    for (auto k = declared; k < result.value.owners.size(); ++k) {
      const auto& o = result.value.owners[k];
      if (auto why = detail::name_problem(o.name)) {
        result.diagnostics.push_back({severity::error, diag::invalid_name,
                                      "invalid name \"" + detail::printable(o.name) + "\": " + *why, o.where, {}});
      }
      if (auto why = ipam_problem(o, describe_owner(o))) {
        result.diagnostics.push_back({severity::error, diag::invalid_value, *why, o.where, {}});
      }
    }
    for (auto& c : merged.connections) {
      pending_connection p;
      p.value = std::move(c.value);
      p.where = p.value.where;
      for (auto& [name, where] : c.members) {
        p.names.emplace_back(name, 0);
        p.name_locations.push_back(where);
      }
      connections.push_back(std::move(p));
    }
    moved_to = std::move(merged.moved_to);
  }

  // Reads nothing more; d says why, unless a yaml_reader already stopped for it.
  void stop(diagnostic d) {
    if (stopped) return;
    stopped = true;
    if (result.diagnostics.empty() || result.diagnostics.back().code != d.code) result.diagnostics.push_back(std::move(d));
  }

  void read_document(yaml_reader& r, std::uint32_t root) {
    if (r.is_null(root)) return;  // an empty document between "---" separators
    auto top = r.mapping(root, "a fleet file");
    if (!top) return;
    r.only_top_level_keys(*top, {"version", "networks", "clusters", "connections", "plan", "suppressions", "renumber"},
                          "the fleet file");
    for (const auto& e : *top) {
      if (e.key == "version") {
        auto v = r.integer(e.value, 0, 1'000'000, "version");
        if (v && *v != 1) r.error(e.value, diag::version, "unsupported fleet file version " + std::to_string(*v) + "; this cidrcheck reads version 1");
      } else if (e.key == "networks") {
        read_owners(r, e.value, owner_kind::network);
      } else if (e.key == "clusters") {
        read_owners(r, e.value, owner_kind::cluster);
      } else if (e.key == "connections") {
        read_connections(r, e.value);
      } else if (e.key == "plan") {
        read_plan_settings(r, e.value);
      } else if (e.key == "suppressions") {
        detail::read_suppressions(r, e.value, result.suppressions);
      } else if (e.key == "renumber") {
        detail::read_renumbering(r, e.value, renumbering);  // applied in finish(), once every source is read
      }
    }
  }

  // The `plan:` section: how `cidrcheck plan` may renumber.
  void read_plan_settings(yaml_reader& r, std::uint32_t node) {
    if (r.is_null(node)) return;
    auto entries = r.mapping(node, "plan");
    if (!entries) return;
    r.only_keys(*entries, {"pools", "avoid", "pin", "cost", "headroom"}, "plan");
    auto& settings = result.value.plan;
    settings.where = r.where(node);
    auto cidrs = [&](std::uint32_t k, const std::string& what) {
      std::vector<prefix> out;
      if (auto items = r.list(k, what)) {
        for (auto item : *items) {
          if (auto p = r.cidr(item, what)) out.push_back(*p);
        }
      }
      return out;
    };
    for (const auto& e : *entries) {
      if (e.key == "avoid") {
        auto more = cidrs(e.value, "plan avoid");
        settings.avoid.insert(settings.avoid.end(), more.begin(), more.end());
      } else if (e.key == "pin") {
        if (auto items = r.list(e.value, "plan pin")) {
          for (auto item : *items) {
            if (auto pin = r.string(item, "a pin")) settings.pins.push_back({*pin, r.where(item)});
          }
        }
      } else if (e.key == "headroom") {
        if (auto text = r.string(e.value, "plan headroom")) {
          auto headroom = parse_plan_headroom(*text);  // the limits every front end uses
          if (headroom.value) {
            settings.headroom = headroom.value;
          } else {
            r.error(e.value, diag::range, headroom.error);
          }
        }
      } else if (e.key == "pools" && r.node(e.value).kind != detail::yaml_kind::mapping) {
        auto all = cidrs(e.value, "plan pools");  // one list for every role
        for (auto& pool : settings.pools) pool.insert(pool.end(), all.begin(), all.end());
      } else if (e.key == "pools") {
        auto per_role = r.mapping(e.value, "plan pools");
        if (!per_role) continue;
        r.only_keys(*per_role, {"network", "pods", "services"}, "plan pools");
        for (const auto& x : *per_role) {
          auto role = static_cast<std::size_t>(x.key == "network" ? 0 : x.key == "pods" ? 1 : 2);
          settings.pools[role] = cidrs(x.value, "plan pools " + std::string(x.key));
        }
      } else if (e.key == "cost") {
        read_plan_costs(r, e.value, settings);
      }
    }
  }

  // `cost:` keys as `--cost` takes them (plan_limits.hpp): a role (network, pods,
  // services, all), an operation kind, owner:NAME/WHAT,
  // distribution:NAME/WHAT. Owners are checked in finish(), once every source is read.
  void read_plan_costs(yaml_reader& r, std::uint32_t node, plan_settings& settings) {
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

  // Cost keys that name an owner no source has.
  void check_cost_owners() {
    for (const auto& x : result.value.plan.cost_overrides) {
      if (auto problem = check_cost_owner(x, result.value)) {
        result.diagnostics.push_back({severity::error, problem->code, problem->message, x.where, {}});
      }
    }
  }

  void read_owners(yaml_reader& r, std::uint32_t node, owner_kind kind) {
    if (r.is_null(node)) return;
    auto items = r.sequence(node, kind == owner_kind::cluster ? "clusters" : "networks");
    if (!items) return;
    for (auto item : *items) {
      if (stopped || r.exhausted()) return;
      if (result.value.owners.size() >= limits.max_owners) {
        r.error(item, diag::limit, "more than the max-owners limit of " + std::to_string(limits.max_owners) + " clusters and networks");
        stopped = true;
        return;
      }
      read_owner(r, item, kind);
    }
  }

  void read_owner(yaml_reader& r, std::uint32_t node, owner_kind kind) {
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
    if (cluster) {
      r.only_keys(*entries, {"name", "distribution", "kubernetes", "network", "pods", "services", "node_cidr_mask",
                             "node_cidr_mask_v6", "block_size", "block_size_v6", "ip_family", "nodes", "dns", "cni",
                             "ipam", "service_count",
                             "load_balancer_count", "description"},
                  what);
    } else {
      r.only_keys(*entries, {"name", "type", "cidrs", "routes", "movable", "description"}, what);
    }
    if (!name_node) {
      if (!has_name_key) r.error(node, diag::missing_key, std::string(cluster ? "a cluster" : "a network") + " needs a name");
      return;
    }
    std::vector<std::pair<range_role, std::uint32_t>> range_lists;
    auto own_key = [&](const auto& e, range_role role) {
      // A key of the owner's own text (not one a merge key brings from an anchor before it).
      const auto& key = r.node(e.key_node);
      if (std::pair(key.line, key.column) >= std::pair(o.where.line, o.where.column) && key.line == key.end_line) {
        o.layout.range_key_line[static_cast<std::size_t>(role)] = key.line;
        o.layout.range_key_end_column[static_cast<std::size_t>(role)] = key.end_column;
      }
    };
    std::optional<std::uint32_t> routes_node, ipam_node;
    for (const auto& e : *entries) {
      if (e.key == "distribution" || e.key == "type") {
        if (auto t = r.string(e.value, e.key)) {
          o.type = *t;
          o.type_where = r.where(e.value);
          if (r.node(e.value).line == r.node(e.value).end_line) o.type_end_column = r.node(e.value).end_column;
        }
      } else if (e.key == "kubernetes") {
        if (auto t = r.string(e.value, "kubernetes")) {
          o.kubernetes = detail::parse_kube_version(*t);
          if (!o.kubernetes) r.error(e.value, diag::type, "kubernetes must be a version such as \"1.29\", not \"" + *t + "\"");
        }
      } else if (e.key == "node_cidr_mask") {
        if (auto v = r.integer(e.value, 1, 32, "node_cidr_mask")) o.node_cidr_mask = static_cast<int>(*v);
      } else if (e.key == "node_cidr_mask_v6") {
        if (auto v = r.integer(e.value, 1, 128, "node_cidr_mask_v6")) o.node_cidr_mask_v6 = static_cast<int>(*v);
      } else if (e.key == "nodes") {
        if (auto v = r.integer(e.value, 0, max_declared_count, "nodes")) {
          o.nodes = static_cast<std::uint64_t>(*v);
          o.nodes_where = r.where(e.value);
        }
      } else if (e.key == "service_count") {
        if (auto v = r.integer(e.value, 0, max_declared_count, "service_count")) {
          o.service_count = static_cast<std::uint64_t>(*v);
          o.service_count_where = r.where(e.value);
        }
      } else if (e.key == "load_balancer_count") {
        if (auto v = r.integer(e.value, 0, max_declared_count, "load_balancer_count")) {
          o.load_balancer_count = static_cast<std::uint64_t>(*v);
          o.load_balancer_count_where = r.where(e.value);
        }
      } else if (e.key == "dns") {
        if (auto a = r.ip(e.value, "dns of " + what)) {
          o.dns = *a;
          o.dns_where = r.where(e.value);
        }
      } else if (e.key == "block_size") {
        if (auto v = r.integer(e.value, 1, 32, "block_size")) o.block_size = static_cast<int>(*v);
      } else if (e.key == "block_size_v6") {
        if (auto v = r.integer(e.value, 1, 128, "block_size_v6")) o.block_size_v6 = static_cast<int>(*v);
      } else if (e.key == "ip_family") {
        auto t = r.string(e.value, "ip_family");
        if (t && *t != "ipv4" && *t != "ipv6" && *t != "dual") {
          r.error(e.value, diag::invalid_value, "ip_family of " + what + " must be ipv4, ipv6 or dual, not \"" + *t + "\"");
        } else if (t) {
          o.ip_family = *t;
        }
      } else if (e.key == "cni") {
        if (auto t = r.string(e.value, "cni")) {
          o.cni = *t;
          o.cni_where = r.where(e.value);
          if (r.node(e.value).line == r.node(e.value).end_line) o.cni_end_column = r.node(e.value).end_column;
        }
      } else if (e.key == "ipam") {
        if (auto t = r.string(e.value, "ipam")) {
          o.ipam = *t;
          ipam_node = e.value;
        }
      } else if (e.key == "movable") {
        if (auto b = r.boolean(e.value, "movable")) o.movable = *b;
      } else if (e.key == "cidrs") {
        range_lists.emplace_back(range_role::external, e.value);
        own_key(e, range_role::external);
      } else if (e.key == "routes") {
        routes_node = e.value;
      } else if (e.key == "network") {
        range_lists.emplace_back(range_role::network, e.value);
        own_key(e, range_role::network);
      } else if (e.key == "pods") {
        range_lists.emplace_back(range_role::pods, e.value);
        own_key(e, range_role::pods);
      } else if (e.key == "services") {
        range_lists.emplace_back(range_role::services, e.value);
        own_key(e, range_role::services);
      } else if (e.key == "description") {
        if (auto d = r.string(e.value, "description")) o.description = *d;
      }
    }
    if (ipam_node) check_ipam(r, *ipam_node, o, what);
    auto index = static_cast<std::uint32_t>(result.value.owners.size());
    auto [it, inserted] = owner_index.emplace(o.name, index);
    if (!inserted) {
      const auto& first = result.value.owners[it->second];
      diagnostic note{severity::note, "", "'" + o.name + "' is first declared here", first.where, {}};
      r.error(*name_node, diag::duplicate_name, "duplicate name '" + o.name + "': every cluster and network needs its own",
              {note});
      return;
    }
    result.value.owners.push_back(std::move(o));
    for (auto [role, list_node] : range_lists) read_ranges(r, list_node, index, role, what);
    if (routes_node) read_network_routes(r, *routes_node, index, what);
  }

  // An `ipam` the catalog's entry for the cluster's CNI does not list is an
  // error naming the modes it does; any value goes for a CNI it does not know.
  auto ipam_problem(const owner& o, const std::string& what) const -> std::optional<std::string> {
    const auto* cni = cat.find_cni(o.cni);
    if (o.ipam.empty() || cni == nullptr || cni->find_mode(o.ipam)) return std::nullopt;
    std::string valid;
    std::vector<std::string_view> names;
    for (const auto& m : cni->modes) {
      valid += (valid.empty() ? "" : ", ") + m.name;
      names.push_back(m.name);
    }
    return "unknown ipam '" + detail::printable(o.ipam) + "' of " + what + ": " + o.cni + "'s IPAM modes are " + valid +
           detail::did_you_mean(o.ipam, names);
  }

  void check_ipam(yaml_reader& r, std::uint32_t node, const owner& o, const std::string& what) {
    if (auto why = ipam_problem(o, what)) r.error(node, diag::invalid_value, *why);
  }

  // Whether one more range fits the max-ranges limit; past it, an error at
  // the item and nothing more is read.
  auto room_for_a_range(yaml_reader& r, std::uint32_t item) -> bool {
    if (result.value.ranges.size() < limits.max_ranges) return true;
    r.error(item, diag::limit, "more than the max-ranges limit of " + std::to_string(limits.max_ranges) + " ranges");
    stopped = true;
    return false;
  }

  // A network's `routes`: each a CIDR, or {cidr, to, advertised_by}. The
  // prefix becomes a range of the network marked as a route; `to` is
  // resolved once every source is read (resolve_routes).
  void read_network_routes(yaml_reader& r, std::uint32_t node, std::uint32_t owner_index_value,
                           const std::string& what) {
    if (stopped || r.is_null(node)) return;
    auto items = r.list(node, "routes of " + what);
    if (!items) return;
    for (auto item : *items) {
      if (!room_for_a_range(r, item)) return;
      fleet_route route;
      std::optional<std::uint32_t> cidr_node;
      if (r.node(item).kind == detail::yaml_kind::mapping) {
        auto entries = r.mapping(item, "a route");
        if (!entries) continue;
        r.only_keys(*entries, {"cidr", "to", "advertised_by"}, "a route of " + what);
        for (const auto& e : *entries) {
          if (e.key == "cidr") {
            cidr_node = e.value;
          } else if (e.key == "to") {
            if (auto t = r.string(e.value, "to")) {
              route.to = *t;
              route.to_where = r.where(e.value);
            }
          } else if (e.key == "advertised_by") {
            if (auto t = r.string(e.value, "advertised_by")) route.advertiser = *t;
          }
        }
        if (!cidr_node) {
          r.error(item, diag::missing_key, "a route of " + what + " needs 'cidr', the prefix it carries");
          continue;
        }
      } else {
        cidr_node = item;
      }
      auto cidr = r.cidr(*cidr_node, "a route of " + what);
      if (!cidr) continue;
      fleet_range fr;
      fr.cidr = *cidr;
      fr.owner = owner_index_value;
      fr.role = range_role::external;
      fr.where = r.where(*cidr_node);
      if (r.node(*cidr_node).line == r.node(*cidr_node).end_line) fr.end_column = r.node(*cidr_node).end_column;
      fr.route = static_cast<std::uint32_t>(result.value.routes.size());
      route.range = static_cast<std::uint32_t>(result.value.ranges.size());
      result.value.routes.push_back(std::move(route));
      result.value.owners[owner_index_value].ranges.push_back(static_cast<std::uint32_t>(result.value.ranges.size()));
      result.value.ranges.push_back(std::move(fr));
    }
  }

  // Resolves the owner each route leads to. A fleet file's `to` must name an
  // owner (an error suggesting the closest name otherwise); an import's is a
  // guess (a Tailscale hosts name) that leaves the route's destination unknown
  // when no owner has that name.
  void resolve_routes() {
    std::vector<std::string_view> all_names;
    for (auto& route : result.value.routes) {
      if (route.to.empty()) continue;
      auto it = owner_index.find(route.to);
      const auto& network = result.value.ranges[route.range].owner;
      // An owner whose ranges went to the one cluster that links it (a VPC to its EKS cluster) stands for it.
      if (auto moved = moved_to.find(route.to); it == owner_index.end() && moved != moved_to.end() &&
                                                  moved->second.size() == 1) {
        it = owner_index.find(moved->second.front());
      }
      if (it != owner_index.end() && it->second != network) {
        route.to_owner = it->second;
        continue;
      }
      if (!route.from.empty()) {
        route.to.clear();  // an import's guess that names no owner
        continue;
      }
      if (it != owner_index.end()) {
        result.diagnostics.push_back({severity::error, diag::route_to_itself,
                                      "a route of network " + route.to + " leads to the network itself: list the "
                                      "network's own space under `cidrs`",
                                      route.to_where, {}});
        continue;
      }
      if (all_names.empty()) {
        for (const auto& o : result.value.owners) all_names.push_back(o.name);
      }
      result.diagnostics.push_back({severity::error, diag::unknown_owner,
                                    "a route leads to '" + route.to + "', which is no cluster or network" +
                                        detail::did_you_mean(route.to, all_names),
                                    route.to_where, {}});
    }
  }

  void read_ranges(yaml_reader& r, std::uint32_t node, std::uint32_t owner_index_value, range_role role,
                   const std::string& what) {
    if (stopped || r.is_null(node)) return;  // written but empty: as if omitted, so defaults apply
    result.value.owners[owner_index_value].declared.add(role);
    std::string field = role == range_role::external ? "cidrs" : std::string(to_string(role));
    auto items = r.list(node, field + " of " + what);
    if (!items) return;
    for (auto item : *items) {
      if (!room_for_a_range(r, item)) return;
      if (read_request(r, item, owner_index_value, role, field + " of " + what)) continue;
      auto cidr = r.cidr(item, field + " of " + what);
      if (!cidr) continue;
      fleet_range fr;
      fr.cidr = *cidr;
      fr.owner = owner_index_value;
      fr.role = role;
      fr.where = r.where(item);
      if (r.node(item).line == r.node(item).end_line) fr.end_column = r.node(item).end_column;
      result.value.owners[owner_index_value].ranges.push_back(static_cast<std::uint32_t>(result.value.ranges.size()));
      result.value.ranges.push_back(std::move(fr));
    }
  }

  // A range written as a size ("/16", "ipv6/64") or "auto" is a request for
  // `cidrcheck plan` to fill. Returns false for anything else (a CIDR).
  auto read_request(yaml_reader& r, std::uint32_t item, std::uint32_t owner_index_value, range_role role,
                    const std::string& what) -> bool {
    const auto& n = r.node(item);
    if (n.kind != detail::yaml_kind::scalar) return false;
    std::string_view text = n.value;
    range_request q;
    q.owner = owner_index_value;
    q.role = role;
    q.where = r.where(item);
    if (n.line == n.end_line) q.end_column = n.end_column;
    if (text == "auto") {
      result.value.requests.push_back(q);
      return true;
    }
    if (text.starts_with("ipv6/")) {
      q.version = ip_version::v6;
      text.remove_prefix(4);
    }
    if (!text.starts_with('/')) return false;
    int length = 0;
    parse_failure failure;
    if (!detail::parse_length(text.substr(1), 1, bit_width(q.version), length, failure)) {
      r.error(item, diag::invalid_size,
              what + ": \"" + n.value + "\" is not a size: write /LENGTH (IPv4), ipv6/LENGTH or auto");
      return true;
    }
    q.length = length;
    result.value.requests.push_back(q);
    return true;
  }

  void read_connections(yaml_reader& r, std::uint32_t node) {
    if (r.is_null(node)) return;
    auto items = r.sequence(node, "connections");
    if (!items) return;
    for (auto item : *items) {
      if (stopped || r.exhausted()) return;
      pending_connection p;
      p.where = r.where(item);
      p.value.where = p.where;
      std::optional<std::uint32_t> members;
      if (r.node(item).kind == detail::yaml_kind::sequence) {
        members = item;  // the short form: just the members
      } else {
        auto entries = r.mapping(item, "a connection");
        if (!entries) continue;
        r.only_keys(*entries, {"between", "via", "routes", "translated", "name", "description"}, "a connection");
        for (const auto& e : *entries) {
          if (e.key == "between") {
            members = e.value;
          } else if (e.key == "via") {
            if (auto v = r.string(e.value, "via")) p.value.via = *v;
          } else if (e.key == "name") {
            if (auto v = r.string(e.value, "name"); v && name_allowed(r, e.value, *v)) p.value.name = *v;
          } else if (e.key == "routes") {
            read_routes(r, e.value, p.value.routes);
          } else if (e.key == "translated") {
            p.translated_where = r.where(e.key_node);
            read_translated(r, e.value, p);
          } else if (e.key == "description") {
            if (auto d = r.string(e.value, "description")) p.value.description = *d;
          }
        }
        if (!members) {
          r.error(item, diag::missing_key, "a connection needs 'between', the list of owners it connects");
          continue;
        }
      }
      auto names = r.list(*members, "between");
      if (!names) continue;
      for (auto n : *names) {
        if (auto name = r.string(n, "a connection member")) p.names.emplace_back(*name, n);
        p.name_locations.push_back(r.where(n));
      }
      connections.push_back(std::move(p));
    }
  }

  // A translated connection's `translated`: member name -> a CIDR or a list of them.
  void read_translated(yaml_reader& r, std::uint32_t node, pending_connection& p) {
    auto members = r.mapping(node, "translated");
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
        if (r.node(item).line == r.node(item).end_line) t.range.end_column = r.node(item).end_column;
        p.translated.push_back(std::move(t));
      }
    }
  }

  // Adds a resolved connection's translated ranges to their members, or
  // reports why not: a connection that does not translate, or a name that is
  // not one of its members.
  auto add_translated(pending_connection& p, std::uint32_t index) -> bool {
    if (p.translated_where && !p.value.translates()) {
      result.diagnostics.push_back({severity::error, diag::invalid_value,
                                    "translated ranges need a translated connection: via nat, globalnet or 4via6, "
                                    "not '" + p.value.via + "'",
                                    *p.translated_where, {}});
      return false;
    }
    std::unordered_set<std::uint32_t> members(p.value.members.begin(), p.value.members.end());
    // Tailscale's 4via6 routes live in the tailscale type's translated block (TailscaleViaRange).
    const auto* tailscale = p.value.via == "4via6" ? cat.find_network_type("tailscale") : nullptr;
    bool ok = true;
    for (auto& t : p.translated) {
      if (tailscale != nullptr && !tailscale->translated.empty() &&
          std::none_of(tailscale->translated.begin(), tailscale->translated.end(),
                       [&](const prefix& via) { return t.range.cidr.subnet_of(via); })) {
        result.diagnostics.push_back({severity::error, diag::invalid_value,
                                      "a 4via6 range lies in " + tailscale->translated.front().to_string() +
                                          " (Tailscale's 4via6 block), not " + t.range.cidr.to_string(),
                                      t.range.where, {}});
        ok = false;
        continue;
      }
      auto it = owner_index.find(t.member);
      if (it == owner_index.end() || !members.contains(it->second)) {
        result.diagnostics.push_back({severity::error, diag::unknown_owner,
                                      "translated names '" + t.member + "', which is no member of this connection",
                                      t.member_where, {}});
        ok = false;
        continue;
      }
      t.range.owner = it->second;
      t.range.role = range_role::external;
      t.range.translation = index;
    }
    if (!ok) return false;
    for (const auto& t : p.translated) {
      result.value.owners[t.range.owner].ranges.push_back(static_cast<std::uint32_t>(result.value.ranges.size()));
      result.value.ranges.push_back(t.range);
    }
    return true;
  }

  void read_routes(yaml_reader& r, std::uint32_t node, role_set& routes) {
    auto items = r.list(node, "routes");
    if (!items) return;
    routes = role_set::none();
    for (auto item : *items) {
      auto name = r.string(item, "a route");
      if (!name) continue;
      if (auto roles = parse_cluster_roles(*name)) {
        routes.add(*roles);
      } else {
        r.error(item, diag::unknown_role,
                "unknown route '" + *name + "': routes are network, pods, services or all" +
                    detail::did_you_mean(*name, cluster_role_words));
      }
    }
  }

  // Resolves every connection's member names against all owners read.
  void resolve_connections() {
    std::vector<std::string_view> all_names;
    for (auto& p : connections) {
      std::vector<std::uint32_t> members;
      bool complete = true;
      bool expanded = false;
      for (std::size_t k = 0; k < p.names.size(); ++k) {
        const auto& name = p.names[k].first;
        // An owner whose ranges went to the clusters that link it stands for them.
        if (auto moved = moved_to.find(name); moved != moved_to.end()) {
          for (const auto& to : moved->second) {
            if (auto it = owner_index.find(to); it != owner_index.end()) members.push_back(it->second);
          }
          expanded = true;
          continue;
        }
        auto it = owner_index.find(name);
        if (it == owner_index.end()) {
          if (all_names.empty()) {
            for (const auto& o : result.value.owners) all_names.push_back(o.name);
          }
          result.diagnostics.push_back({severity::error, diag::unknown_owner,
                                        "connection names '" + name + "', which is no cluster or network" +
                                            detail::did_you_mean(name, all_names),
                                        p.name_locations[k], {}});
          complete = false;
          continue;
        }
        members.push_back(it->second);
      }
      if (!complete) continue;
      // Keep the declared order (messages list members as written), without repeats.
      std::vector<std::uint32_t> distinct;
      std::unordered_set<std::uint32_t> seen;  // a connection may have a million members
      for (auto m : members) {
        if (seen.insert(m).second) distinct.push_back(m);
      }
      if (distinct.size() != members.size() && !expanded) {
        result.diagnostics.push_back({severity::warning, diag::duplicate_member, "a connection lists a member twice",
                                      p.where, {}});
      }
      members = std::move(distinct);
      if (members.size() < 2) {
        result.diagnostics.push_back({severity::error, diag::connection_members,
                                      "a connection needs at least two different members", p.where, {}});
        continue;
      }
      p.value.members = std::move(members);
      if (!add_translated(p, static_cast<std::uint32_t>(result.value.connections.size()))) continue;
      result.value.connections.push_back(std::move(p.value));
    }
  }

  // Orders diagnostics as a reader meets them: by file (in reading order), line, column.
  void sort_diagnostics() {
    auto rank = [&](const diagnostic& d) {
      auto it = std::find(result.files.begin(), result.files.end(), d.where.file);
      return std::make_tuple(static_cast<std::size_t>(it - result.files.begin()), d.where.line, d.where.column);
    };
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                     [&](const diagnostic& a, const diagnostic& b) { return rank(a) < rank(b); });
  }

  void warn_unknown_distributions(const std::vector<std::uint32_t>& unknown) {
    std::vector<std::string_view> known;
    for (const auto& d : cat.distributions) known.push_back(d.name);
    for (auto k : unknown) {
      const auto& o = result.value.owners[k];
      result.diagnostics.push_back({severity::warning, diag::unknown_distribution,
                                    "unknown distribution '" + o.type + "' of cluster " + o.name +
                                        ": no defaults apply" + detail::did_you_mean(o.type, known),
                                    o.type_where, {}});
    }
  }
};

fleet_loader::fleet_loader(const catalog& c, input_limits limits) : state_(std::make_unique<state>(c, limits)) {}
fleet_loader::~fleet_loader() = default;
fleet_loader::fleet_loader(fleet_loader&&) noexcept = default;
auto fleet_loader::operator=(fleet_loader&&) noexcept -> fleet_loader& = default;

void fleet_loader::add_file(const std::string& path) {
  if (auto text = state_->read_whole(path, "")) state_->read(*text, display_name(path));
}

void fleet_loader::add_text(std::string_view text, std::string name) {
  if (state_->fits(text, name, "")) state_->read(text, name);
}

auto fleet_loader::finish() -> fleet_load_result {
  auto& s = *state_;
  s.merge_imports();
  s.resolve_connections();
  s.resolve_routes();
  s.warn_unknown_distributions(apply_defaults(s.result.value, s.cat));
  detail::apply_renumbering(s.renumbering, s.result.value, s.owner_index, s.result.diagnostics);
  s.check_cost_owners();
  s.sort_diagnostics();
  if (s.result.value.owners.empty() && s.result.ok()) {
    s.result.diagnostics.push_back({severity::error, diag::empty_input, "no clusters or networks in the input", {}, {}});
  }
  return std::move(s.result);
}

void fleet_loader::add_import(import_kind kind, const std::string& path, const std::string& cluster) {
  auto prefix = std::string(info(kind).name) + ": ";
  if (auto text = state_->read_whole(path, prefix)) state_->read_import(kind, *text, display_name(path), cluster);
}

void fleet_loader::add_import_text(import_kind kind, std::string_view text, std::string name) {
  if (state_->fits(text, name, std::string(info(kind).name) + ": ")) state_->read_import(kind, text, name);
}

void fleet_loader::add_source(std::string_view spec) {
  auto source = parse_source_spec(spec);
  if (source.kind) {
    add_import(*source.kind, source.path, source.cluster);
    return;
  }
  auto errors_before = state_->result.diagnostics.size();
  add_file(source.path);
  // "aws-vpc:x.json" that names no file was meant as an import of a mistyped kind.
  auto& d = state_->result.diagnostics;
  if (!source.unknown_kind.empty() && d.size() > errors_before && d.back().code == diag::unreadable) {
    std::vector<std::string_view> names;
    for (const auto& k : import_kinds()) names.push_back(k.name);
    d.back().message += "; and '" + source.unknown_kind + "' is no source kind" +
                        detail::did_you_mean(source.unknown_kind, names);
  }
}

auto load_fleet(std::span<const std::string> sources, const catalog& c, const input_limits& limits)
    -> fleet_load_result {
  fleet_loader loader(c, limits);
  for (const auto& s : sources) loader.add_source(s);
  return loader.finish();
}

}  // namespace cidrcheck
