#include <cidrcheck/io/fleet_writer.hpp>

#include "yaml_scalar.hpp"

#include <cidrcheck/fleet/plan_limits.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

namespace cidrcheck {

namespace {

using detail::yaml_scalar;
auto scalar(std::string_view text) -> std::string { return yaml_scalar(text); }

auto comment(const source_location& where) -> std::string {
  return where.file.empty() ? std::string{} : "  # " + detail::yaml_comment_text(to_string(where));
}

// A range's comment: where it was read, or every block an import merged into it.
auto comment(const fleet_range& r) -> std::string {
  if (r.merged_from.empty()) return comment(r.where);
  std::string all;
  for (const auto& where : r.merged_from) all += (all.empty() ? "" : ", ") + to_string(where);
  return "  # " + detail::yaml_comment_text(all);
}

class writer {
 public:
  explicit writer(const fleet& f) : f_(f) {
    for (std::size_t k = 0; k < f.conflicts.size(); ++k) {
      if (!f.conflicts[k].kept.empty()) conflicts_[f.conflicts[k].kept.back()].push_back(k);
    }
    for (std::size_t k = 0; k < f.requests.size(); ++k) requests_[f.requests[k].owner].push_back(k);
  }

  auto run(std::span<const std::string> header, std::span<const suppression> suppressions) -> std::string {
    for (const auto& line : header) out_ += line.empty() ? "#\n" : "# " + detail::yaml_comment_text(line) + "\n";
    out_ += "version: 1\n";
    for (auto kind : {owner_kind::network, owner_kind::cluster}) {
      bool first = true;
      for (const auto& o : f_.owners) {
        if (o.kind != kind) continue;
        if (first) out_ += kind == owner_kind::network ? "networks:\n" : "clusters:\n";
        first = false;
        write_owner(o);
      }
    }
    if (!f_.connections.empty()) out_ += "connections:\n";
    // Each translated connection's ranges, in fleet order (one pass over the ranges).
    std::vector<std::vector<std::uint32_t>> translated(f_.connections.size());
    for (std::uint32_t k = 0; k < f_.ranges.size(); ++k) {
      if (f_.ranges[k].is_translated()) translated[f_.ranges[k].translation].push_back(k);
    }
    for (std::size_t k = 0; k < f_.connections.size(); ++k) write_connection(f_.connections[k], translated[k]);
    write_plan_settings(f_.plan);
    write_suppressions(suppressions);
    return std::move(out_);
  }

 private:
  void write_owner(const owner& o) {
    out_ += "  - name: " + scalar(o.name) + comment(o.where) + "\n";
    bool cluster = o.kind == owner_kind::cluster;
    if (!o.type.empty()) {
      out_ += std::string(cluster ? "    distribution: " : "    type: ") + scalar(o.type) +
              (o.type_where == o.where ? "" : comment(o.type_where)) + "\n";
    }
    if (!o.description.empty()) out_ += "    description: " + scalar(o.description) + "\n";
    if (!o.labels.empty()) out_ += "    labels: " + text_map(o.labels) + "\n";
    if (o.kubernetes) {
      out_ += "    kubernetes: \"" + std::to_string(o.kubernetes->major) + "." + std::to_string(o.kubernetes->minor) +
              "\"\n";
    }
    if (cluster) {
      for (auto role : {range_role::network, range_role::pods, range_role::services}) {
        write_ranges(o, role, std::string(to_string(role)), o.declared.has(role));
      }
      if (!o.runs_in.empty()) out_ += "    runs_in: " + scalar(o.runs_in) + comment(o.runs_in_where) + "\n";
      if (o.node_cidr_mask) out_ += "    node_cidr_mask: " + std::to_string(*o.node_cidr_mask) + "\n";
      if (o.node_cidr_mask_v6) out_ += "    node_cidr_mask_v6: " + std::to_string(*o.node_cidr_mask_v6) + "\n";
      if (o.nodes) out_ += "    nodes: " + std::to_string(*o.nodes) + comment(o.nodes_where) + "\n";
      if (o.dns) out_ += "    dns: " + scalar(o.dns->to_string()) + comment(o.dns_where) + "\n";
      if (!o.cni.empty()) out_ += "    cni: " + scalar(o.cni) + "\n";
      if (!o.ipam.empty()) out_ += "    ipam: " + scalar(o.ipam) + "\n";
      if (!o.pool_encapsulation.empty()) out_ += "    pool_encapsulation: " + scalar(o.pool_encapsulation) + "\n";
      if (!o.routing_mode.empty()) out_ += "    routing_mode: " + scalar(o.routing_mode) + "\n";
      if (!o.kube_proxy_mode.empty()) out_ += "    kube_proxy_mode: " + scalar(o.kube_proxy_mode) + "\n";
      if (o.block_size) out_ += "    block_size: " + std::to_string(*o.block_size) + "\n";
      if (o.block_size_v6) out_ += "    block_size_v6: " + std::to_string(*o.block_size_v6) + "\n";
      if (!o.ip_family.empty()) out_ += "    ip_family: " + scalar(o.ip_family) + "\n";
      if (o.service_count) {
        out_ += "    service_count: " + std::to_string(*o.service_count) + comment(o.service_count_where) + "\n";
      }
      if (o.load_balancer_count) {
        out_ += "    load_balancer_count: " + std::to_string(*o.load_balancer_count) +
                comment(o.load_balancer_count_where) + "\n";
      }
    } else {
      write_ranges(o, range_role::external, "cidrs", o.declared.names(range_role::external));
      write_routes(o);
      if (o.movable) out_ += "    movable: true\n";
    }
  }

  void write_ranges(const owner& o, range_role role, const std::string& key, bool declared) {
    std::vector<std::uint32_t> mine;
    for (auto k : o.ranges) {
      const auto& r = f_.ranges[k];
      if (r.role == role && r.origin == range_origin::declared && r.is_plain()) mine.push_back(k);
    }
    std::vector<std::size_t> asked;  // requested sizes, for `cidrcheck plan` to fill
    if (auto it = requests_.find(static_cast<std::uint32_t>(&o - f_.owners.data())); it != requests_.end()) {
      for (auto k : it->second) {
        if (f_.requests[k].role == role) asked.push_back(k);
      }
    }
    if (mine.empty() && asked.empty()) {
      if (declared) out_ += "    " + key + ": []\n";
      return;
    }
    out_ += "    " + key + ":\n";
    for (auto k : asked) {
      const auto& q = f_.requests[k];
      std::string size = !q.length ? "auto"
                         : q.version == ip_version::v6 ? "ipv6/" + std::to_string(*q.length)
                                                       : "/" + std::to_string(*q.length);
      out_ += "      - " + scalar(size) + comment(q.where) + "\n";
    }
    for (auto k : mine) {
      out_ += "      - " + scalar(f_.ranges[k].cidr.to_string()) + comment(f_.ranges[k]) + "\n";
      auto it = conflicts_.find(k);
      if (it == conflicts_.end()) continue;
      for (auto c : it->second) {
        const auto& x = f_.conflicts[c];
        std::string other;
        for (const auto& p : x.other) other += (other.empty() ? "" : ", ") + p.to_string();
        out_ += "      # source-conflict: " + to_string(x.other_where) + (x.outside ? " has " : " gives ") + other +
                (x.outside ? ", outside these\n" : " instead\n");
      }
    }
  }

  // A network's routes, each with where it leads and who advertises it.
  void write_routes(const owner& o) {
    bool first = true;
    for (auto k : o.ranges) {
      const auto& r = f_.ranges[k];
      if (!r.is_route()) continue;
      if (first) out_ += "    routes:\n";
      first = false;
      const auto& x = f_.routes[r.route];
      out_ += "      - {cidr: " + scalar(r.cidr.to_string());
      if (x.to_owner) out_ += ", to: " + scalar(f_.owners[*x.to_owner].name);
      if (!x.advertiser.empty()) out_ += ", advertised_by: " + scalar(x.advertiser);
      out_ += "}" + comment(r.where) + "\n";
    }
  }

  void write_connection(const connection& c, const std::vector<std::uint32_t>& translated) {
    out_ += "  - between: [";
    for (std::size_t k = 0; k < c.members.size(); ++k) out_ += (k ? ", " : "") + scalar(f_.owners[c.members[k]].name);
    out_ += "]" + comment(c.where) + "\n";
    if (!c.name.empty()) out_ += "    name: " + scalar(c.name) + "\n";
    if (!c.via.empty()) out_ += "    via: " + scalar(c.via) + "\n";
    if (c.routes != role_set::all()) {
      out_ += "    routes: [";
      bool first = true;
      for (auto role : {range_role::network, range_role::pods, range_role::services}) {
        if (!c.routes.has(role)) continue;
        out_ += (first ? "" : ", ") + std::string(to_string(role));
        first = false;
      }
      out_ += "]\n";
    }
    if (!c.withdrawn.empty()) {
      out_ += "    withdrawn: [";
      for (std::size_t k = 0; k < c.withdrawn.size(); ++k) out_ += (k ? ", " : "") + c.withdrawn[k].to_string();
      out_ += "]\n";
    }
    if (!translated.empty()) out_ += "    translated:\n";
    // One key per member, its ranges as a list, members in the order their first range comes.
    std::vector<std::pair<std::uint32_t, std::string>> members;
    std::map<std::uint32_t, std::size_t> slot;  // owner -> index into members
    for (auto k : translated) {
      const auto& r = f_.ranges[k];
      auto [it, added] = slot.emplace(r.owner, members.size());
      if (added) members.emplace_back(r.owner, "");
      auto& cidrs = members[it->second].second;
      cidrs += (cidrs.empty() ? "" : ", ") + scalar(r.cidr.to_string());
    }
    for (const auto& [owner, cidrs] : members) {
      // YAML limits an implicit key to 1024 characters (libyaml: a simple key); a longer name is an explicit key.
      auto key = scalar(f_.owners[owner].name);
      out_ += key.size() > 1024 ? "      ? " + key + "\n      : [" + cidrs + "]\n" : "      " + key + ": [" + cidrs + "]\n";
    }
    if (!c.description.empty()) out_ += "    description: " + scalar(c.description) + "\n";
  }

  // A flow mapping of text to text: {site: eu, cloud: aws}.
  static auto text_map(const std::vector<std::pair<std::string, std::string>>& m) -> std::string {
    std::string out = "{";
    for (const auto& [k, v] : m) out += (out.size() > 1 ? ", " : "") + scalar(k) + ": " + scalar(v);
    return out + "}";
  }

  // One named pool as a list item at `indent`.
  void write_named_pool(const named_pool& p, const std::string& indent) {
    out_ += indent + "- name: " + scalar(p.name) + comment(p.where) + "\n";
    out_ += indent + "  cidrs: [";
    for (std::size_t k = 0; k < p.cidrs.size(); ++k) out_ += (k ? ", " : "") + p.cidrs[k].to_string();
    out_ += "]\n";
    const auto& sel = p.selector;
    if (sel.specificity() == 0) return;
    std::string f = "{";
    auto add = [&](const std::string& k, const std::string& v) { f += (f.size() > 1 ? ", " : "") + k + ": " + v; };
    for (const auto& [k, v] : sel.labels) add(scalar(k), scalar(v));
    if (sel.owner) add("owner", scalar(*sel.owner));
    if (sel.roles) {
      std::string roles = "[";
      for (auto role : {range_role::network, range_role::pods, range_role::services}) {
        if (sel.roles->names(role)) roles += (roles.size() > 1 ? ", " : "") + std::string(to_string(role));
      }
      add("role", roles + "]");
    }
    out_ += indent + "  for: " + f + "}\n";
  }

  void write_plan_settings(const plan_settings& s) {
    bool any = !s.avoid.empty() || !s.pins.empty() || s.headroom || !s.cost_overrides.empty() || !s.named_pools.empty();
    for (std::size_t r = 0; r < 3; ++r) any = any || !s.pools[r].empty() || s.cost[r];
    if (!any) return;
    out_ += "plan:" + comment(s.where) + "\n";
    auto cidrs = [](const std::vector<prefix>& list) {
      std::string out = "[";
      for (const auto& p : list) out += (out.size() > 1 ? ", " : "") + p.to_string();
      return out + "]";
    };
    const char* roles[] = {"network", "pods", "services"};
    bool pools = false, cost = false;
    for (std::size_t r = 0; r < 3; ++r) {
      pools = pools || !s.pools[r].empty();
      cost = cost || s.cost[r];
    }
    cost = cost || !s.cost_overrides.empty();
    bool same = s.pools[0] == s.pools[1] && s.pools[1] == s.pools[2];
    if (!s.named_pools.empty() && same) {
      // One list: the CIDRs every role draws from, then the named pools.
      out_ += "  pools:\n";
      for (const auto& p : s.pools[0]) out_ += "    - " + p.to_string() + "\n";
      for (const auto& p : s.named_pools) write_named_pool(p, "    ");
    } else if (pools) {
      out_ += "  pools:\n";
      for (std::size_t r = 0; r < 3; ++r) {
        if (!s.pools[r].empty()) out_ += "    " + std::string(roles[r]) + ": " + cidrs(s.pools[r]) + "\n";
      }
      if (!s.named_pools.empty()) out_ += "    named:\n";
      for (const auto& p : s.named_pools) write_named_pool(p, "      ");
    }
    if (!s.avoid.empty()) out_ += "  avoid: " + cidrs(s.avoid) + "\n";
    if (!s.pins.empty()) {
      out_ += "  pin:\n";
      for (const auto& p : s.pins) out_ += "    - " + scalar(p.pattern) + comment(p.where) + "\n";
    }
    if (cost) {
      out_ += "  cost: {";
      bool first = true;
      for (std::size_t r = 0; r < 3; ++r) {
        if (!s.cost[r]) continue;
        out_ += (first ? "" : ", ") + std::string(roles[r]) + ": " + std::to_string(*s.cost[r]);
        first = false;
      }
      for (const auto& x : s.cost_overrides) {
        out_ += (first ? "" : ", ") + scalar(cost_key(x)) + ": " + std::to_string(x.cost);
        first = false;
      }
      out_ += "}\n";
    }
    if (s.headroom) {
      char text[32];
      auto [end, ec] = std::to_chars(text, text + sizeof text, *s.headroom);  // the shortest text that reads back
      out_ += "  headroom: " + std::string(text, ec == std::errc{} ? end : text) + "\n";
    }
  }

  void write_suppressions(std::span<const suppression> list) {
    if (list.empty()) return;
    out_ += "suppressions:\n";
    for (const auto& s : list) {
      out_ += "  - rule: " + std::string(info(s.id).name) + comment(s.where) + "\n";
      out_ += "    entities: [";
      for (std::size_t k = 0; k < s.entities.size(); ++k) out_ += (k ? ", " : "") + scalar(s.entities[k].to_string());
      out_ += "]\n";
      out_ += "    reason: " + scalar(s.reason) + "\n";
      if (s.expires) out_ += "    expires: " + to_iso_date(*s.expires) + "\n";
    }
  }

  const fleet& f_;
  std::map<std::uint32_t, std::vector<std::size_t>> requests_;  // by owner
  std::string out_;
  std::map<std::uint32_t, std::vector<std::size_t>> conflicts_;  // by the last kept range
};

}  // namespace

auto write_fleet_yaml(const fleet& f, std::span<const std::string> header, std::span<const suppression> suppressions)
    -> std::string {
  return writer(f).run(header, suppressions);
}

}  // namespace cidrcheck
