#include <cidrcheck/error.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include "kube_version.hpp"
#include "yaml_document.hpp"
#include "yaml_reader.hpp"

#include <stdexcept>

namespace cidrcheck {

namespace detail {
extern const char builtin_catalog_yaml[];
}

namespace {

using detail::yaml_reader;

auto prefixes(yaml_reader& r, std::uint32_t node, std::string_view what) -> std::vector<prefix> {
  std::vector<prefix> out;
  if (auto items = r.list(node, what)) {
    for (auto k : *items) {
      if (auto p = r.cidr(k, what)) out.push_back(*p);
    }
  }
  return out;
}

void read_distribution(yaml_reader& r, std::uint32_t node, catalog& c) {
  auto entries = r.mapping(node, "a distribution");
  if (!entries) return;
  r.only_keys(*entries,
              {"name", "network", "pods", "services", "services_if_network_in", "node_cidr_mask", "node_cidr_mask_v6",
               "reserved", "ip_family", "source"},
              "a distribution");
  distribution_defaults d;
  for (const auto& e : *entries) {
    if (e.key == "name") {
      if (auto v = r.string(e.value, "name")) d.name = *v;
    } else if (e.key == "network") {
      d.network = prefixes(r, e.value, "network");
    } else if (e.key == "pods") {
      d.pods = prefixes(r, e.value, "pods");
    } else if (e.key == "services") {
      d.services = prefixes(r, e.value, "services");
    } else if (e.key == "reserved") {
      d.reserved = prefixes(r, e.value, "reserved");
    } else if (e.key == "node_cidr_mask") {
      if (auto v = r.integer(e.value, 1, 32, "node_cidr_mask")) d.node_cidr_mask = static_cast<int>(*v);
    } else if (e.key == "node_cidr_mask_v6") {
      if (auto v = r.integer(e.value, 1, 128, "node_cidr_mask_v6")) d.node_cidr_mask_v6 = static_cast<int>(*v);
    } else if (e.key == "source") {
      if (auto v = r.string(e.value, "source")) d.source = *v;
    } else if (e.key == "ip_family") {
      auto v = r.string(e.value, "ip_family");
      if (v && *v != "ipv4" && *v != "ipv6" && *v != "dual") {
        r.error(e.value, diag::invalid_value, "ip_family must be ipv4, ipv6 or dual, not \"" + *v + "\"");
      } else if (v) {
        d.ip_family = *v;
      }
    } else if (e.key == "services_if_network_in") {
      auto cond = r.mapping(e.value, "services_if_network_in");
      if (!cond) continue;
      r.only_keys(*cond, {"cidr", "services"}, "services_if_network_in");
      for (const auto& x : *cond) {
        if (x.key == "cidr") d.services_if_network_in = r.cidr(x.value, "cidr");
        if (x.key == "services") d.services_instead = prefixes(r, x.value, "services");
      }
    }
  }
  if (d.source.empty()) r.error(node, diag::missing_key, "distribution " + d.name + " has no source");
  c.distributions.push_back(std::move(d));
}

void read_ipam_mode(yaml_reader& r, std::uint32_t node, cni_defaults& cni) {
  auto entries = r.mapping(node, "an IPAM mode");
  if (!entries) return;
  r.only_keys(*entries, {"name", "pods_from", "pods", "block_size", "block_size_v6", "source"}, "an IPAM mode");
  ipam_mode m;
  for (const auto& e : *entries) {
    if (e.key == "name") {
      if (auto v = r.string(e.value, "name")) m.name = *v;
    } else if (e.key == "pods_from") {
      auto v = r.string(e.value, "pods_from");
      if (!v) continue;
      if (*v == "cni") m.pods_from = pod_source::cni;
      else if (*v == "distribution") m.pods_from = pod_source::distribution;
      else if (*v == "network") m.pods_from = pod_source::network;
      else if (*v == "none") m.pods_from = pod_source::none;
      else r.error(e.value, diag::invalid_value, "pods_from must be cni, distribution, network or none, not \"" + *v + "\"");
    } else if (e.key == "pods") {
      m.pods = prefixes(r, e.value, "pods");
    } else if (e.key == "block_size") {
      if (auto v = r.integer(e.value, 1, 32, "block_size")) m.block_size = static_cast<int>(*v);
    } else if (e.key == "block_size_v6") {
      if (auto v = r.integer(e.value, 1, 128, "block_size_v6")) m.block_size_v6 = static_cast<int>(*v);
    } else if (e.key == "source") {
      if (auto v = r.string(e.value, "source")) m.source = *v;
    }
  }
  if (m.source.empty()) r.error(node, diag::missing_key, "IPAM mode " + m.name + " of " + cni.name + " has no source");
  if (m.pods_from == pod_source::cni && m.pods.empty()) {
    r.error(node, diag::missing_key, "IPAM mode " + m.name + " of " + cni.name + " takes pods from the CNI but lists none");
  }
  cni.modes.push_back(std::move(m));
}

void read_cni(yaml_reader& r, std::uint32_t node, catalog& c) {
  auto entries = r.mapping(node, "a CNI");
  if (!entries) return;
  r.only_keys(*entries, {"name", "ipam", "source"}, "a CNI");
  cni_defaults cni;
  for (const auto& e : *entries) {
    if (e.key == "name") {
      if (auto v = r.string(e.value, "name")) cni.name = *v;
    } else if (e.key == "source") {
      if (auto v = r.string(e.value, "source")) cni.source = *v;
    }
  }
  for (const auto& e : *entries) {
    if (e.key != "ipam") continue;
    if (auto items = r.sequence(e.value, "ipam")) {
      for (auto item : *items) read_ipam_mode(r, item, cni);
    }
  }
  if (cni.source.empty()) r.error(node, diag::missing_key, "CNI " + cni.name + " has no source");
  if (cni.modes.empty()) r.error(node, diag::missing_key, "CNI " + cni.name + " lists no IPAM mode");
  if (c.find_cni(cni.name)) r.error(node, diag::duplicate, "CNI " + cni.name + " is listed twice");
  if (!cni.modes.empty()) c.cnis.push_back(std::move(cni));
}

void read_network_type(yaml_reader& r, std::uint32_t node, catalog& c) {
  auto entries = r.mapping(node, "a network type");
  if (!entries) return;
  r.only_keys(*entries, {"name", "cidrs", "translated", "holds_clusters", "source"}, "a network type");
  network_type t;
  for (const auto& e : *entries) {
    if (e.key == "name") {
      if (auto v = r.string(e.value, "name")) t.name = *v;
    } else if (e.key == "cidrs") {
      t.cidrs = prefixes(r, e.value, "cidrs");
    } else if (e.key == "translated") {
      t.translated = prefixes(r, e.value, "translated");
    } else if (e.key == "holds_clusters") {
      if (auto v = r.boolean(e.value, "holds_clusters")) t.holds_clusters = *v;
    } else if (e.key == "source") {
      if (auto v = r.string(e.value, "source")) t.source = *v;
    }
  }
  if (t.source.empty()) r.error(node, diag::missing_key, "network type " + t.name + " has no source");
  c.network_types.push_back(std::move(t));
}

void read_mesh(yaml_reader& r, std::uint32_t node, catalog& c) {
  auto entries = r.mapping(node, "a mesh");
  if (!entries) return;
  r.only_keys(*entries, {"name", "routes", "facts", "source"}, "a mesh");
  mesh_kind m;
  for (const auto& e : *entries) {
    if (e.key == "name") {
      if (auto v = r.string(e.value, "name")) m.name = *v;
    } else if (e.key == "routes") {
      for (auto item : r.sequence(e.value, "routes").value_or(std::vector<std::uint32_t>{})) {
        auto word = r.string(item, "a role");
        if (!word) continue;
        if (auto roles = parse_cluster_roles(*word)) {
          m.routes.add(*roles);
        } else {
          r.error(item, diag::unknown_value, "routes of a mesh are network, pods, services or all, not '" + *word + "'");
        }
      }
    } else if (e.key == "facts") {
      for (auto item : r.sequence(e.value, "facts").value_or(std::vector<std::uint32_t>{})) {
        if (auto v = r.string(item, "a fact id")) m.facts.push_back(*v);
      }
    } else if (e.key == "source") {
      if (auto v = r.string(e.value, "source")) m.source = *v;
    }
  }
  if (m.facts.empty()) r.error(node, diag::missing_key, "mesh " + m.name + " names no facts");
  if (c.find_mesh(m.name)) r.error(node, diag::duplicate, "mesh " + m.name + " is listed twice");
  c.meshes.push_back(std::move(m));
}

void read_block(yaml_reader& r, std::uint32_t node, catalog& c, bool private_space) {
  auto entries = r.mapping(node, "a block");
  if (!entries) return;
  if (private_space) {
    r.only_keys(*entries, {"cidr", "source"}, "a private block");
  } else {
    r.only_keys(*entries, {"cidr", "name", "rule", "source"}, "a block");
  }
  catalog_block b;
  for (const auto& e : *entries) {
    if (e.key == "cidr") {
      if (auto p = r.cidr(e.value, "cidr")) b.cidr = *p;
    } else if (e.key == "name") {
      if (auto v = r.string(e.value, "name")) b.name = *v;
    } else if (e.key == "source") {
      if (auto v = r.string(e.value, "source")) b.source = *v;
    } else if (e.key == "rule") {
      auto v = r.string(e.value, "rule");
      if (v && !find_rule(*v)) r.error(e.value, diag::unknown_rule, "unknown rule '" + *v + "'");
      if (v) b.rule = *v;
    }
  }
  if (b.source.empty()) r.error(node, diag::missing_key, "block " + b.cidr.to_string() + " has no source");
  if (private_space) {
    c.private_space.push_back(b.cidr);
  } else {
    c.blocks.push_back(std::move(b));
  }
}

auto strings(yaml_reader& r, std::uint32_t node, std::string_view what) -> std::vector<std::string> {
  std::vector<std::string> out;
  if (auto items = r.list(node, what)) {
    for (auto k : *items) {
      if (auto v = r.string(k, what)) out.push_back(*v);
    }
  }
  return out;
}

void read_operation(yaml_reader& r, std::uint32_t node, catalog& c) {
  auto entries = r.mapping(node, "an operation");
  if (!entries) return;
  r.only_keys(*entries,
              {"name", "changes", "owners", "distributions", "not_distributions", "cni", "ipam", "kubernetes", "cost",
               "per_nodes", "per_services", "per_load_balancers", "what", "why", "source"},
              "an operation");
  operation_kind k;
  bool has_changes = false;
  for (const auto& e : *entries) {
    auto text = [&](std::string& into) {
      if (auto v = r.string(e.value, e.key)) into = *v;
    };
    auto per = [&](std::uint64_t& into) {
      if (auto v = r.integer(e.value, 1, 1'000'000'000, e.key)) into = static_cast<std::uint64_t>(*v);
    };
    if (e.key == "name") {
      text(k.name);
    } else if (e.key == "changes") {
      auto v = r.string(e.value, "changes");
      if (!v) continue;
      if (auto s = parse_operation_scope(*v)) {
        k.changes = *s;
        has_changes = true;
      } else {
        r.error(e.value, diag::unknown_value,
                "changes must be services, pods, pod-space, network or cluster, not '" + *v + "'");
      }
    } else if (e.key == "owners") {
      auto v = r.string(e.value, "owners");
      if (v && *v == "network") k.owners = owner_kind::network;
      else if (v && *v != "cluster") r.error(e.value, diag::unknown_value, "owners must be cluster or network, not '" + *v + "'");
    } else if (e.key == "distributions") {
      k.distributions = strings(r, e.value, "distributions");
    } else if (e.key == "not_distributions") {
      k.not_distributions = strings(r, e.value, "not_distributions");
    } else if (e.key == "cni") {
      k.cni = strings(r, e.value, "cni");
    } else if (e.key == "ipam") {
      k.ipam = strings(r, e.value, "ipam");
    } else if (e.key == "kubernetes") {
      auto range = r.mapping(e.value, "kubernetes");
      if (!range) continue;
      r.only_keys(*range, {"from", "to"}, "kubernetes");
      for (const auto& x : *range) {
        auto v = r.string(x.value, x.key);
        if (!v) continue;
        auto parsed = detail::parse_kube_version(*v);
        if (!parsed) {
          r.error(x.value, diag::bad_version, "'" + *v + "' is not a Kubernetes version such as 1.29");
        } else {
          (x.key == "from" ? k.kubernetes_from : k.kubernetes_to) = parsed;
        }
      }
    } else if (e.key == "cost") {
      if (auto v = r.integer(e.value, 0, max_plan_cost, "cost")) k.cost = static_cast<int>(*v);
    } else if (e.key == "per_nodes") {
      per(k.per_nodes);
    } else if (e.key == "per_services") {
      per(k.per_services);
    } else if (e.key == "per_load_balancers") {
      per(k.per_load_balancers);
    } else if (e.key == "what") {
      text(k.what);
    } else if (e.key == "why") {
      text(k.why);
    } else if (e.key == "source") {
      text(k.source);
    }
  }
  if (k.name.empty()) r.error(node, diag::missing_key, "an operation has no name");
  if (!has_changes) r.error(node, diag::missing_key, "operation " + k.name + " does not say what it changes");
  if (k.why.empty()) r.error(node, diag::missing_key, "operation " + k.name + " does not say why it costs what it does");
  if (k.source.empty()) r.error(node, diag::missing_key, "operation " + k.name + " has no source");
  if (c.find_operation(k.name)) r.error(node, diag::duplicate, "operation " + k.name + " is listed twice");
  c.operations.push_back(std::move(k));
}

}  // namespace

auto parse_catalog(std::string_view text, std::string_view name, std::vector<diagnostic>& diagnostics) -> catalog {
  catalog c;
  auto doc = detail::parse_yaml(text, name, {}, diagnostics);
  yaml_reader r(doc, std::string(name), diagnostics, 1'000'000);
  for (auto root : doc.roots) {
    auto top = r.mapping(root, "a catalog");
    if (!top) continue;
    r.only_keys(*top,
                {"version", "date", "distributions", "cnis", "network_types", "meshes", "private_space", "blocks",
                 "operations"},
                "the catalog");
    for (const auto& e : *top) {
      if (e.key == "date") {
        auto date = r.string(e.value, "date");
        if (date && parse_iso_date(*date)) {
          c.date = *date;
        } else if (date) {
          r.error(e.value, diag::invalid_date, "date must be a date, YYYY-MM-DD, not \"" + *date + "\"");
        }
        continue;
      }
      auto items = e.key == "version" ? std::nullopt : r.sequence(e.value, e.key);
      if (!items) continue;
      for (auto item : *items) {
        if (e.key == "distributions") read_distribution(r, item, c);
        if (e.key == "cnis") read_cni(r, item, c);
        if (e.key == "network_types") read_network_type(r, item, c);
        if (e.key == "meshes") read_mesh(r, item, c);
        if (e.key == "private_space") read_block(r, item, c, true);
        if (e.key == "blocks") read_block(r, item, c, false);
        if (e.key == "operations") read_operation(r, item, c);
      }
    }
  }
  return c;
}

auto builtin_catalog() -> const catalog& {
  static const catalog shipped = [] {
    std::vector<diagnostic> diagnostics;
    auto c = parse_catalog(detail::builtin_catalog_yaml, "data/catalog.yaml", diagnostics);
    // The shipped catalog is tested; a problem here is a build defect, not user input.
    if (has_errors(diagnostics)) throw basic_error<std::logic_error>("the built-in catalog is invalid: " + diagnostics[0].message);
    return c;
  }();
  return shipped;
}

}  // namespace cidrcheck
