#include <cidrcheck/io/fleet_loader.hpp>

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/read_file.hpp>

#include "../fleet/import_merge.hpp"
#include "fleet_loader_state.hpp"
#include "too_many_errors.hpp"
#include "yaml_document.hpp"

#include <algorithm>
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

// Adds a resolved connection's translated ranges to their members, or
// reports why not: a connection that does not translate, or a name that is
// not one of its members.
auto fleet_reading::add_translated(pending_connection& p, std::uint32_t index) -> bool {
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

// Resolves every connection's member names against all owners read.
void fleet_reading::resolve_connections() {
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

// Cost keys that name an owner no source has.
void fleet_reading::check_cost_owners() {
  for (const auto& x : result.value.plan.cost_overrides) {
    if (auto problem = check_cost_owner(x, result.value)) {
      result.diagnostics.push_back({severity::error, problem->code, problem->message, x.where, {}});
    }
  }
}

// Orders diagnostics as a reader meets them: by file (in reading order), line, column.
void fleet_reading::sort_diagnostics() {
  auto rank = [&](const diagnostic& d) {
    auto it = std::find(result.files.begin(), result.files.end(), d.where.file);
    return std::make_tuple(static_cast<std::size_t>(it - result.files.begin()), d.where.line, d.where.column);
  };
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [&](const diagnostic& a, const diagnostic& b) { return rank(a) < rank(b); });
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
