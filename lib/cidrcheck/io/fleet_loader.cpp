#include <cidrcheck/io/fleet_loader.hpp>

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/read_file.hpp>

#include "../fleet/import_merge.hpp"
#include "../fleet/membership.hpp"
#include "fleet_loader_state.hpp"
#include "too_many_errors.hpp"
#include "yaml_document.hpp"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>
#include <unordered_set>

namespace cidrcheck {

namespace detail {

namespace {

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

}  // namespace

auto fleet_reading::error_count() const -> std::size_t {
  return static_cast<std::size_t>(std::count_if(result.diagnostics.begin(), result.diagnostics.end(),
                                                [](const diagnostic& d) { return d.level == severity::error; }));
}

void fleet_reading::read(std::string_view text, const std::string& name) {
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

auto fleet_reading::read_whole(const std::string& path, const std::string& prefix) -> std::optional<std::string> {
  if (stopped) return std::nullopt;
  auto file = read_file(path, limits.max_file_bytes, "max-file-bytes");
  if (file.error.empty()) return std::move(file.text);
  result.files.push_back(display_name(path));
  result.diagnostics.push_back(
      {severity::error, diag::unreadable, prefix + file.error, {display_name(path), 0, 0}, {}});
  return std::nullopt;
}

auto fleet_reading::fits(std::string_view text, const std::string& name, const std::string& prefix) -> bool {
  if (text.size() <= limits.max_file_bytes) return true;
  result.diagnostics.push_back({severity::error, diag::limit,
                                prefix + "input is larger than the max-file-bytes limit of " +
                                    std::to_string(limits.max_file_bytes) + " bytes",
                                {name, 0, 0}, {}});
  return false;
}

void fleet_reading::read_import(import_kind kind, std::string_view text, const std::string& name,
                                const std::string& cluster) {
  if (stopped) return;
  result.files.push_back(name);
  import_names.insert(name);
  imports.push_back(detail::read_import(kind, text, name, detail::yaml_limits_of(limits), limits.max_nodes,
                                        result.diagnostics, cluster));
  if (error_count() >= limits.max_errors) stop(detail::too_many_errors(limits.max_errors));
}

void fleet_reading::stop(diagnostic d) {
  if (stopped) return;
  stopped = true;
  if (result.diagnostics.empty() || result.diagnostics.back().code != d.code) result.diagnostics.push_back(std::move(d));
}

// Merges the imports into the owners of the fleet files; their connections join the others.
void fleet_reading::merge_imports() {
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
    // An owner without an IPAM mode has no problem with it: its description (a string) is built only for one with.
    if (o.ipam.empty()) continue;
    if (auto why = ipam_problem(o, describe_owner(o))) {
      result.diagnostics.push_back({severity::error, diag::invalid_value, *why, o.where, {}});
    }
  }
  connections.reserve(connections.size() + merged.connections.size());
  for (auto& c : merged.connections) {
    pending_connection p;
    p.value = std::move(c.value);
    p.where = p.value.where;
    p.imported = true;
    if (!c.mesh.empty()) {
      // What a mesh routes is the catalog's (its facts), not the importer's.
      if (const auto* mesh = cat.find_mesh(c.mesh)) {
        p.value.routes = mesh->routes;
      } else {
        result.diagnostics.push_back({severity::warning, diag::unknown_value,
                                      "the catalog has no mesh '" + c.mesh + "': its connection carries every role",
                                      p.where, {}});
      }
    }
    p.names.reserve(c.members.size());
    p.name_locations.reserve(c.members.size());
    for (auto& [name, where] : c.members) {
      p.names.emplace_back(std::move(name), 0);
      p.name_locations.push_back(std::move(where));
    }
    connections.push_back(std::move(p));
  }
  moved_to = std::move(merged.moved_to);
  parts = std::move(merged.parts);
  service_ips = std::move(merged.service_ips);
}

auto fleet_reading::ipam_problem(const owner& o, const std::string& what) const -> std::optional<std::string> {
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

// Resolves the owner each route leads to. A fleet file's `to` must name an
// owner (an error suggesting the closest name otherwise); an import's is a
// guess (a Tailscale hosts name) that leaves the route's destination unknown
// when no owner has that name.
void fleet_reading::resolve_routes() {
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

// A cluster's `runs_in` must name a network. One that names no owner is a
// network no source describes (its ranges unknown), or one whose ranges an
// import gave the cluster (moved_to); from a fleet file it gets a note, since
// a mistyped name would otherwise go unnoticed (an export's link already
// warns where it names nothing).
void fleet_reading::resolve_memberships() {
  std::vector<std::string_view> network_names;
  for (std::uint32_t k = 0; k < result.value.owners.size(); ++k) {
    auto& o = result.value.owners[k];
    if (o.kind != owner_kind::cluster || o.runs_in.empty()) continue;
    if (auto it = owner_index.find(o.runs_in); it != owner_index.end()) {
      if (result.value.owners[it->second].kind == owner_kind::network) {
        o.runs_in_owner = it->second;
      } else {
        result.diagnostics.push_back({severity::error, diag::invalid_value,
                                      "cluster " + o.name + " runs in " + o.runs_in +
                                          ", which is a cluster: `runs_in` names the network a cluster's nodes are in",
                                      o.runs_in_where, {}});
      }
      continue;
    }
    if (moved_to.contains(o.runs_in) || import_names.contains(o.runs_in_where.file)) continue;
    if (network_names.empty()) {
      for (const auto& x : result.value.owners) {
        if (x.kind == owner_kind::network) network_names.push_back(x.name);
      }
    }
    result.diagnostics.push_back({severity::note, diag::membership,
                                  "cluster " + o.name + " runs in '" + detail::printable(o.runs_in) +
                                      "', which no source describes: its network ranges stand for that network's "
                                      "space, and nothing else is placed in it" +
                                      detail::did_you_mean(o.runs_in, network_names),
                                  o.runs_in_where, {}});
  }
}

// Adds a resolved connection's translated ranges to their members, or
// reports why not: a connection that does not translate, a name that is not
// one of its members, or withdrawn prefixes on a connection that translates.
auto fleet_reading::add_translated(pending_connection& p, std::uint32_t index) -> bool {
  if (p.translated_where && !p.value.translates()) {
    result.diagnostics.push_back({severity::error, diag::invalid_value,
                                  "translated ranges need a translated connection: via nat, globalnet or 4via6, "
                                  "not '" + p.value.via + "'",
                                  *p.translated_where, {}});
    return false;
  }
  if (p.withdrawn_where && p.value.translates()) {
    result.diagnostics.push_back({severity::error, diag::invalid_value,
                                  "a translated connection (via " + p.value.via +
                                      ") carries no real range, so it has none to withdraw: withdraw the route on "
                                      "the connection that carries it",
                                  *p.withdrawn_where, {}});
    return false;
  }
  if (p.translated.empty()) return true;  // most connections: no set of their members
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

namespace {

// How a message names a connection whose members are not resolved yet:
// "connection NAME (VIA)", or its member names when it has no name.
auto describe_pending(const pending_connection& p) -> std::string {
  std::string out = "connection ";
  if (!p.value.name.empty()) {
    out += p.value.name;
  } else {
    out += '[';
    for (std::size_t k = 0; k < p.names.size() && k < 3; ++k) out += (k ? ", " : "") + p.names[k].first;
    if (p.names.size() > 3) out += ", ... " + std::to_string(p.names.size() - 3) + " more";
    out += ']';
  }
  if (!p.value.via.empty() && p.value.via != p.value.name) out += " (" + p.value.via + ")";
  return out;
}

}  // namespace

// Resolves every connection's member names against all owners read.
void fleet_reading::resolve_connections() {
  std::vector<std::string_view> all_names;
  // Imported connections by how they route (via and members): one peering read
  // from both of its networks' exports, or from two exports, is one connection.
  std::set<std::pair<std::string, std::vector<std::uint32_t>>> imported_seen;
  result.value.connections.reserve(result.value.connections.size() + connections.size());  // at most one each
  for (auto& p : connections) {
    std::vector<std::uint32_t> members;
    members.reserve(p.names.size());  // a name stands for one owner, but for a network's parts or linked clusters
    bool complete = true;
    bool expanded = false;
    bool dropped = false;
    // Adds the owners a name stands for: an owner whose ranges went to the
    // clusters that link it stands for them; false when it names none.
    auto add = [&](const std::string& name) {
      if (auto moved = moved_to.find(name); moved != moved_to.end()) {
        for (const auto& to : moved->second) {
          if (auto it = owner_index.find(to); it != owner_index.end()) members.push_back(it->second);
        }
        expanded = true;
        return true;
      }
      auto it = owner_index.find(name);
      if (it == owner_index.end()) return false;
      members.push_back(it->second);
      return true;
    };
    for (std::size_t k = 0; k < p.names.size(); ++k) {
      const auto& name = p.names[k].first;
      // A network made of owners (a GCP network of its subnets) stands for them, and for itself if it is one.
      if (auto made_of = parts.find(name); made_of != parts.end()) {
        bool any = add(name);
        for (const auto& part : made_of->second) any = add(part) || any;
        expanded = true;
        if (any) continue;
      } else if (add(name)) {
        continue;
      }
      if (p.imported) {
        result.diagnostics.push_back({severity::warning, diag::unresolved_link,
                                      describe_pending(p) + " names " + name +
                                          ", which no source describes: it is left out of the connection (import "
                                          "it too; see docs/import.md)",
                                      p.name_locations[k], {}});
        dropped = true;
        continue;
      }
      if (all_names.empty()) {
        for (const auto& o : result.value.owners) all_names.push_back(o.name);
      }
      result.diagnostics.push_back({severity::error, diag::unknown_owner,
                                    "connection names '" + name + "', which is no cluster or network" +
                                        detail::did_you_mean(name, all_names),
                                    p.name_locations[k], {}});
      complete = false;
    }
    if (!complete) continue;
    // Keep the declared order (messages list members as written), without
    // repeats. Sorted, the members show whether any repeat; only then does a
    // set pick the first of each (rarely: most connections join two owners,
    // and a set of their own cost each of them allocations). The imported
    // ones compare by `sorted` below.
    auto sorted = members;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
      std::vector<std::uint32_t> distinct;
      std::unordered_set<std::uint32_t> seen;  // a connection may have a million members
      for (auto m : members) {
        if (seen.insert(m).second) distinct.push_back(m);
      }
      if (!expanded) {
        result.diagnostics.push_back({severity::warning, diag::duplicate_member, "a connection lists a member twice",
                                      p.where, {}});
      }
      members = std::move(distinct);
    }
    if (members.size() < 2 && dropped) continue;  // the warnings above say why
    if (members.size() < 2 && p.imported) {
      result.diagnostics.push_back({severity::note, diag::connection_members,
                                    describe_pending(p) + " joins one owner once its members are resolved: left out",
                                    p.where, {}});
      continue;
    }
    if (members.size() < 2) {
      result.diagnostics.push_back({severity::error, diag::connection_members,
                                    "a connection needs at least two different members", p.where, {}});
      continue;
    }
    if (p.imported) {
      if (!imported_seen.emplace(p.value.via + "|" + std::to_string(p.value.routes.bits), std::move(sorted)).second) {
        continue;
      }
    }
    p.value.members = std::move(members);
    if (!add_translated(p, static_cast<std::uint32_t>(result.value.connections.size()))) continue;
    result.value.connections.push_back(std::move(p.value));
  }
}

// Every membership no source said is stated, so that an overlap it hides is
// never silent: the network containment placed a cluster in, or the networks
// that both hold its network range (it runs in none of them). A said
// membership whose network ranges all lie outside the network is a warning.
void fleet_reading::note_memberships() {
  const auto& f = result.value;
  detail::membership_index members(f, cat);
  auto ranges_of = [&](std::uint32_t network) {  // the first few, for a message
    std::string out;
    std::size_t shown = 0;
    for (auto r : f.owners[network].ranges) {
      if (!f.ranges[r].is_plain()) continue;
      if (++shown > 3) return out + ", ...";
      out += (out.empty() ? "" : ", ") + f.ranges[r].cidr.to_string();
    }
    return out;
  };
  for (std::uint32_t k = 0; k < f.owners.size(); ++k) {
    const auto& o = f.owners[k];
    const auto& p = members.place(k);
    if (p.how == detail::placement_kind::inferred) {
      const auto& network = f.owners[*p.network];
      result.diagnostics.push_back(
          {severity::note, diag::membership,
           "cluster " + o.name + " runs in " + describe_owner(network) + ": its network " + f.ranges[p.range].cidr.to_string() +
               " lies in " + f.ranges[p.holder].cidr.to_string() + " (no source says where it runs; `runs_in: " +
               network.name + "` says it)",
           f.ranges[p.range].where, {}});
    } else if (p.how == detail::placement_kind::ambiguous) {
      std::string names;
      for (std::size_t c = 0; c < p.candidates.size(); ++c) {
        names += (c == 0 ? "" : c + 1 == p.candidates.size() && !p.more ? " and " : ", ") + f.owners[p.candidates[c]].name;
      }
      if (p.more) names += " and more";
      result.diagnostics.push_back(
          {severity::note, diag::membership,
           "network " + f.ranges[p.range].cidr.to_string() + " of cluster " + o.name + " lies in " + names +
               ", networks that each hold clusters: cidrcheck places it in none, so it overlaps them all; say which "
               "it runs in with `runs_in`",
           f.ranges[p.range].where, {}});
    } else if (p.how == detail::placement_kind::said && p.network) {
      std::optional<std::uint32_t> outside;
      bool inside = false;
      for (auto r : o.ranges) {
        if (f.ranges[r].role != range_role::network || !f.ranges[r].is_plain()) continue;
        if (members.holder_of(r)) {
          inside = true;
        } else if (!outside) {
          outside = r;
        }
      }
      auto space = ranges_of(*p.network);
      if (inside || !outside || space.empty()) continue;
      result.diagnostics.push_back(
          {severity::warning, diag::membership,
           "network " + f.ranges[*outside].cidr.to_string() + " of cluster " + o.name + " lies outside " +
               describe_owner(f.owners[*p.network]) + " (" + space + "), which it runs in: the cluster's nodes take "
               "that network's addresses, so its network range should lie in it",
           f.ranges[*outside].where,
           {{severity::note, "", "cluster " + o.name + " runs in " + f.owners[*p.network].name + " here",
             o.runs_in_where, {}}}});
    }
  }
}

// Cost keys that name an owner no source has.
void fleet_reading::check_cost_owners() {
  for (const auto& x : result.value.plan.cost_overrides) {
    if (auto problem = check_cost_owner(x, result.value)) {
      result.diagnostics.push_back({severity::error, problem->code, problem->message, x.where, {}});
    }
  }
}

// Orders diagnostics as a reader meets them: by file (in reading order), line,
// column, and those at one place in the order they were made. Each one's key
// is found once, not at each comparison (a search of the files read), and
// each diagnostic moves once: a plan may have a note per resource.
void fleet_reading::sort_diagnostics() {
  auto& all = result.diagnostics;
  std::vector<std::tuple<std::size_t, std::uint32_t, std::uint32_t, std::size_t>> keys;  // file, line, column, index
  keys.reserve(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    auto file = std::find(result.files.begin(), result.files.end(), all[k].where.file) - result.files.begin();
    keys.emplace_back(static_cast<std::size_t>(file), all[k].where.line, all[k].where.column, k);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<diagnostic> sorted;
  sorted.reserve(all.size());
  for (const auto& key : keys) sorted.push_back(std::move(all[std::get<3>(key)]));
  all = std::move(sorted);
}

// Owners whose names print alike (detail::look_of: they differ only by
// zero-width characters or the kind of blank): a warning at the later one, since
// a report names them alike. O(owners), one lookup per name.
void fleet_reading::warn_lookalike_names() {
  const auto& owners = result.value.owners;
  // A name of printable ASCII looks as it is written. Names are unique
  // (owner_index), so two names look alike only when one of them has other
  // characters; without such a name there is nothing to look up (an export's
  // names: a table of a million of them was 8% of reading them).
  auto printable_ascii = [](const std::string& name) {
    return std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
  };
  if (std::all_of(owners.begin(), owners.end(), [&](const owner& o) { return printable_ascii(o.name); })) return;
  // A printable name is its own key; the looks of the others are kept in `looks`.
  std::unordered_map<std::string_view, std::uint32_t> by_look;
  std::deque<std::string> looks;
  by_look.reserve(owners.size());
  for (std::uint32_t k = 0; k < owners.size(); ++k) {
    const auto& name = owners[k].name;
    std::string_view look = printable_ascii(name) ? std::string_view(name) : looks.emplace_back(detail::look_of(name));
    auto [it, added] = by_look.emplace(look, k);
    if (added) continue;
    const auto& first = owners[it->second];
    // The first character that one name has and the other shows as nothing or as a space.
    auto unseen = [](const std::string& text) -> std::string {
      for (std::size_t j = 0; j < text.size();) {
        auto n = std::max<std::size_t>(detail::utf8_length(std::string_view(text).substr(j)), 1);
        auto c = detail::utf8_decode(std::string_view(text).substr(j), n);
        if ((detail::is_zero_width(c) || detail::is_blank(c)) && c != ' ') return detail::code_point(c);
        j += n;
      }
      return {};
    };
    auto which = unseen(name).empty() ? unseen(first.name) : unseen(name);
    result.diagnostics.push_back({severity::warning, diag::lookalike_name,
                                  describe_owner(owners[k]) + " looks like " + describe_owner(first) + " (" +
                                      to_string(first.where) + "): the names differ only by invisible characters or "
                                      "the kind of blank (" + which + "), so reports print them alike; rename one",
                                  owners[k].where, {}});
  }
}

void fleet_reading::warn_unknown_distributions(const std::vector<std::uint32_t>& unknown) {
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

}  // namespace detail

fleet_loader::fleet_loader(const catalog& c, input_limits limits)
    : state_(std::make_unique<detail::fleet_reading>(c, limits)) {}
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
  s.warn_lookalike_names();
  s.resolve_connections();
  s.resolve_routes();
  s.resolve_memberships();
  s.warn_unknown_distributions(apply_defaults(s.result.value, s.cat));
  for (const auto& [owner, ips] : s.service_ips) detail::check_service_ips(s.result.value, owner, ips, s.result.diagnostics);
  detail::apply_renumbering(s.renumbering, s.result.value, s.owner_index, s.result.diagnostics);
  s.note_memberships();
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

void fleet_loader::add_import_text(import_kind kind, std::string_view text, std::string name,
                                   const std::string& cluster) {
  if (state_->fits(text, name, std::string(info(kind).name) + ": ")) state_->read_import(kind, text, name, cluster);
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
