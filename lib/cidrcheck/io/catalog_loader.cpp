#include <cidrcheck/error.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include "kube_version.hpp"
#include "yaml_document.hpp"
#include "yaml_reader.hpp"

#include <stdexcept>
#include <tuple>

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

// --- profiles (fleet/profile.hpp) ---------------------------------------------
//
// Every profile field is written {value: WORD, fact: ID}; "unknown" is a value
// every field takes (known false), and then the fact says that no source was
// found. A field without a fact, or with a fact docs/migration-facts.md does
// not list, is an error: the catalog never says how a platform behaves without
// the row that says where that comes from.

template <class E>
struct word_of {
  std::string_view word;
  E value;
};

constexpr word_of<control_plane_config> control_plane_words[] = {
    {"static-pods", control_plane_config::static_pods}, {"cluster-spec", control_plane_config::cluster_spec},
    {"server-flags", control_plane_config::server_flags}, {"provider", control_plane_config::provider},
    {"installer", control_plane_config::installer}};
constexpr word_of<cloud_kind> cloud_words[] = {
    {"aws", cloud_kind::aws}, {"gcp", cloud_kind::gcp}, {"azure", cloud_kind::azure}, {"on-premises", cloud_kind::on_premises}};
constexpr word_of<san_method> san_words[] = {{"kubeadm-certs", san_method::kubeadm_certs},
                                             {"spec-field", san_method::spec_field},
                                             {"server-flag", san_method::server_flag},
                                             {"provider", san_method::provider}};
constexpr word_of<dns_addon_owner> dns_addon_words[] = {{"operator", dns_addon_owner::operator_owned},
                                                        {"distribution", dns_addon_owner::distribution},
                                                        {"provider", dns_addon_owner::provider}};
constexpr word_of<node_roll> node_roll_words[] = {
    {"cluster-tool", node_roll::cluster_tool}, {"node-pools", node_roll::node_pools}, {"by-hand", node_roll::by_hand}};
constexpr word_of<component> component_words[] = {
    {"kube-apiserver", component::kube_apiserver}, {"kube-controller-manager", component::kube_controller_manager},
    {"kubelet", component::kubelet},               {"kube-proxy", component::kube_proxy},
    {"cluster-dns", component::cluster_dns},       {"cni-agent", component::cni_agent},
    {"cni-operator", component::cni_operator},     {"etcd", component::etcd}};
constexpr word_of<config_store> store_words[] = {{"control-plane", config_store::control_plane},
                                                 {"kubeadm-configuration", config_store::kubeadm_configuration},
                                                 {"kubelet-configuration", config_store::kubelet_configuration},
                                                 {"kube-proxy-configuration", config_store::kube_proxy_configuration},
                                                 {"cni-configuration", config_store::cni_configuration},
                                                 {"cloud", config_store::cloud}};
constexpr word_of<changeable> changeable_words[] = {{"any-time", changeable::any_time},
                                                    {"at-creation", changeable::at_creation}};
constexpr word_of<address_source> address_words[] = {{"node-pod-cidr", address_source::node_pod_cidr},
                                                     {"cni-pool", address_source::cni_pool},
                                                     {"network", address_source::network},
                                                     {"external", address_source::external}};
// An operation's `pod_addresses` may also admit clusters whose IPAM the catalog does not know.
constexpr word_of<address_source> pod_address_words[] = {{"node-pod-cidr", address_source::node_pod_cidr},
                                                         {"cni-pool", address_source::cni_pool},
                                                         {"network", address_source::network},
                                                         {"external", address_source::external},
                                                         {"unknown", address_source::unknown}};
constexpr word_of<pool_kind> pool_words[] = {{"none", pool_kind::none},
                                             {"calico-ippool", pool_kind::calico_ippool},
                                             {"cilium-cluster-pool", pool_kind::cilium_cluster_pool},
                                             {"cilium-pod-ip-pool", pool_kind::cilium_pod_ip_pool},
                                             {"flannel-network", pool_kind::flannel_network}};
constexpr word_of<object_tool> tool_words[] = {{"kubectl", object_tool::kubectl}, {"calicoctl", object_tool::calicoctl}};
constexpr word_of<range_pickup> pickup_words[] = {{"restart-pods", range_pickup::restart_pods},
                                                  {"roll-nodes", range_pickup::roll_nodes},
                                                  {"reregister-nodes", range_pickup::reregister_nodes},
                                                  {"new-node-pools", range_pickup::new_node_pools}};
constexpr word_of<service_cidr_stage> stage_words[] = {{"none", service_cidr_stage::none},
                                                       {"alpha", service_cidr_stage::alpha},
                                                       {"beta", service_cidr_stage::beta},
                                                       {"ga", service_cidr_stage::ga}};

// Reads a word of table `words` at node k, reporting any other word with the list.
template <class E, std::size_t N>
auto read_word(yaml_reader& r, std::uint32_t k, const word_of<E> (&words)[N], std::string_view what) -> std::optional<E> {
  auto v = r.string(k, what);
  if (!v) return std::nullopt;
  for (const auto& w : words) {
    if (w.word == *v) return w.value;
  }
  std::string list;
  for (const auto& w : words) list += (list.empty() ? "" : ", ") + std::string(w.word);
  r.error(k, diag::unknown_value, std::string(what) + " must be " + list + ", not '" + *v + "'");
  return std::nullopt;
}

// Reads a fact id at node k: it must be a row of docs/migration-facts.md.
auto read_fact(yaml_reader& r, std::uint32_t k, std::string& into) -> bool {
  auto v = r.string(k, "fact");
  if (!v) return false;
  if (find_migration_fact(*v) == nullptr) {
    r.error(k, diag::unknown_fact, "fact '" + *v + "' is not a row of docs/migration-facts.md");
    return false;
  }
  into = *v;
  return true;
}

// Reads {value: ..., fact: ID} into a sourced field; `read_value` reads the
// value node unless it is "unknown". `what` names the field in messages.
template <class T, class ReadValue>
void read_sourced(yaml_reader& r, std::uint32_t node, std::string_view what, sourced<T>& into, ReadValue&& read_value) {
  auto entries = r.mapping(node, what);
  if (!entries) return;
  r.only_keys(*entries, {"value", "fact"}, what);
  bool has_value = false, has_fact = false;
  for (const auto& e : *entries) {
    if (e.key == "fact") {
      has_fact = true;
      read_fact(r, e.value, into.fact);
    } else if (e.key == "value") {
      has_value = true;
      const auto& n = r.node(e.value);
      if (n.kind == detail::yaml_kind::scalar && !n.quoted && r.value(e.value) == "unknown") {
        into.known = false;
      } else if (auto v = read_value(e.value)) {
        into.value = std::move(*v);
      }
    }
  }
  if (!has_value) r.error(node, diag::missing_key, std::string(what) + " has no value");
  if (!has_fact) r.error(node, diag::missing_key, std::string(what) + " names no fact (every profile field says where it comes from)");
}

template <class E, std::size_t N>
void read_sourced_word(yaml_reader& r, std::uint32_t node, std::string_view what, sourced<E>& into,
                       const word_of<E> (&words)[N]) {
  read_sourced(r, node, what, into, [&](std::uint32_t k) { return read_word(r, k, words, what); });
}

void read_sourced_bool(yaml_reader& r, std::uint32_t node, std::string_view what, sourced<bool>& into) {
  read_sourced(r, node, what, into, [&](std::uint32_t k) { return r.boolean(k, what); });
}

void read_sourced_text(yaml_reader& r, std::uint32_t node, std::string_view what, sourced<std::string>& into) {
  read_sourced(r, node, what, into, [&](std::uint32_t k) { return r.string(k, what); });
}

// {value: [A, B], fact: ID}: a list with one fact.
void read_sourced_strings(yaml_reader& r, std::uint32_t node, std::string_view what,
                          sourced<std::vector<std::string>>& into) {
  read_sourced(r, node, what, into, [&](std::uint32_t v) {
    std::optional<std::vector<std::string>> out;
    auto items = r.list(v, what);
    if (!items) return out;
    out.emplace();
    for (auto item : *items) {
      if (auto one = r.string(item, what)) out->push_back(*one);
    }
    return out;
  });
}

void read_sourced_components(yaml_reader& r, std::uint32_t node, std::string_view what,
                             sourced<std::vector<component>>& into) {
  read_sourced(r, node, what, into, [&](std::uint32_t v) {
    std::optional<std::vector<component>> out;
    auto items = r.list(v, what);
    if (!items) return out;
    out.emplace();
    for (auto item : *items) {
      if (auto one = read_word(r, item, component_words, what)) out->push_back(*one);
    }
    return out;
  });
}

// {from, to, value, fact} items: a value per range of Kubernetes minors.
void read_versioned(yaml_reader& r, std::uint32_t node, std::string_view what, std::vector<versioned>& into) {
  auto items = r.sequence(node, what);
  if (!items) return;
  for (auto item : *items) {
    auto entries = r.mapping(item, what);
    if (!entries) continue;
    r.only_keys(*entries, {"from", "to", "value", "fact"}, what);
    versioned v;
    bool has_fact = false;
    for (const auto& e : *entries) {
      if (e.key == "from" || e.key == "to") {
        auto text = r.string(e.value, e.key);
        if (!text) continue;
        auto parsed = detail::parse_kube_version(*text);
        if (!parsed) r.error(e.value, diag::bad_version, "'" + *text + "' is not a Kubernetes version such as 1.29");
        (e.key == "from" ? v.from : v.to) = parsed;
      } else if (e.key == "value") {
        if (auto text = r.string(e.value, "value")) v.value = *text;
      } else if (e.key == "fact") {
        has_fact = true;
        read_fact(r, e.value, v.fact);
      }
    }
    if (!has_fact) r.error(item, diag::missing_key, std::string(what) + " names no fact");
    into.push_back(std::move(v));
  }
}

void read_setting_places(yaml_reader& r, std::uint32_t node, std::vector<setting_place>& into) {
  auto items = r.sequence(node, "settings");
  if (!items) return;
  for (auto item : *items) {
    auto entries = r.mapping(item, "a setting");
    if (!entries) continue;
    r.only_keys(*entries, {"component", "setting", "store", "field", "where", "then", "when", "fact"}, "a setting");
    setting_place p;
    bool has_fact = false;
    for (const auto& e : *entries) {
      if (e.key == "component") {
        if (auto v = read_word(r, e.value, component_words, "component")) p.target = *v;
      } else if (e.key == "setting") {
        if (auto v = r.string(e.value, "setting")) p.setting = *v;
      } else if (e.key == "store") {
        if (auto v = read_word(r, e.value, store_words, "store")) p.store = *v;
      } else if (e.key == "field") {
        if (auto v = r.string(e.value, "field")) p.field = *v;
      } else if (e.key == "where") {
        if (auto v = r.string(e.value, "where")) p.where = *v;
      } else if (e.key == "then") {
        if (auto commands = r.list(e.value, "then")) {
          for (auto command : *commands) {
            if (auto v = r.string(command, "then")) p.then.push_back(*v);
          }
        }
      } else if (e.key == "when") {
        if (auto v = read_word(r, e.value, changeable_words, "when")) p.when = *v;
      } else if (e.key == "fact") {
        has_fact = true;
        read_fact(r, e.value, p.fact);
      }
    }
    if (!has_fact) r.error(item, diag::missing_key, "setting " + p.setting + " names no fact");
    into.push_back(std::move(p));
  }
}

// A profile's keys: each one required (a profile given is complete, so a
// runbook never meets a field nobody filled in; an absent profile is unknown as
// a whole), no other allowed. `optional` keys may be left out.
template <std::size_t N>
void profile_keys(yaml_reader& r, std::uint32_t node, const std::vector<yaml_reader::entry>& entries,
                  const std::string_view (&keys)[N], std::string_view what, std::string_view optional = {}) {
  for (const auto& e : entries) {
    bool known = false;
    for (auto key : keys) known = known || e.key == key;
    if (!known) r.unknown_key(e, keys, what);
  }
  for (auto key : keys) {
    bool found = key == optional;
    for (const auto& e : entries) found = found || e.key == key;
    if (!found) r.error(node, diag::missing_key, std::string(what) + " has no " + std::string(key));
  }
}

constexpr std::string_view distribution_profile_keys[] = {
    "managed", "cloud", "control_plane", "settings", "sans", "sans_field", "dns_addon", "nodes", "embeds_cni",
    "config_api", "kubelet_config_map", "restore_control_plane", "pod_range_container", "moves_network",
    "kubelet_in_server", "apply_control_plane", "nodes_command", "assigns_ipv6", "network_fields", "shares_service_range"};

void read_distribution_profile(yaml_reader& r, std::uint32_t node, distribution_profile& p) {
  auto entries = r.mapping(node, "a distribution profile");
  if (!entries) return;
  profile_keys(r, node, *entries, distribution_profile_keys, "a distribution profile");
  for (const auto& e : *entries) {
    if (e.key == "managed") read_sourced_bool(r, e.value, "managed", p.managed);
    if (e.key == "cloud") read_sourced_word(r, e.value, "cloud", p.cloud, cloud_words);
    if (e.key == "control_plane") read_sourced_word(r, e.value, "control_plane", p.control_plane, control_plane_words);
    if (e.key == "settings") read_setting_places(r, e.value, p.settings);
    if (e.key == "sans") read_sourced_word(r, e.value, "sans", p.sans, san_words);
    if (e.key == "sans_field") read_sourced_text(r, e.value, "sans_field", p.sans_field);
    if (e.key == "dns_addon") read_sourced_word(r, e.value, "dns_addon", p.dns_addon, dns_addon_words);
    if (e.key == "nodes") read_sourced_word(r, e.value, "nodes", p.nodes, node_roll_words);
    if (e.key == "embeds_cni") read_sourced_bool(r, e.value, "embeds_cni", p.embeds_cni);
    if (e.key == "config_api") read_versioned(r, e.value, "config_api", p.config_api);
    if (e.key == "kubelet_config_map") read_versioned(r, e.value, "kubelet_config_map", p.kubelet_config_map);
    if (e.key == "restore_control_plane") read_sourced_text(r, e.value, "restore_control_plane", p.restore_control_plane);
    if (e.key == "pod_range_container") read_sourced_text(r, e.value, "pod_range_container", p.pod_range_container);
    if (e.key == "moves_network") read_sourced_bool(r, e.value, "moves_network", p.moves_network);
    if (e.key == "shares_service_range") read_sourced_bool(r, e.value, "shares_service_range", p.shares_service_range);
    if (e.key == "kubelet_in_server") read_sourced_bool(r, e.value, "kubelet_in_server", p.kubelet_in_server);
    if (e.key == "apply_control_plane") read_sourced_strings(r, e.value, "apply_control_plane", p.apply_control_plane);
    if (e.key == "nodes_command") read_sourced_strings(r, e.value, "nodes_command", p.nodes_command);
    if (e.key == "assigns_ipv6") read_sourced_bool(r, e.value, "assigns_ipv6", p.assigns_ipv6);
    if (e.key == "network_fields") read_sourced_strings(r, e.value, "network_fields", p.network_fields);
  }
}

constexpr std::string_view ipam_profile_keys[] = {
    "addresses", "pool", "pool_api", "pool_tool", "pool_copies", "pickup", "restart_first", "kube_proxy_holds_pool",
    "range_field", "config_where"};

void read_ipam_profile(yaml_reader& r, std::uint32_t node, ipam_profile& p) {
  auto entries = r.mapping(node, "an IPAM profile");
  if (!entries) return;
  profile_keys(r, node, *entries, ipam_profile_keys, "an IPAM profile");
  for (const auto& e : *entries) {
    if (e.key == "addresses") read_sourced_word(r, e.value, "addresses", p.addresses, address_words);
    if (e.key == "pool") read_sourced_word(r, e.value, "pool", p.pool, pool_words);
    if (e.key == "pool_api") read_sourced_text(r, e.value, "pool_api", p.pool_api);
    if (e.key == "pool_tool") read_sourced_word(r, e.value, "pool_tool", p.pool_tool, tool_words);
    if (e.key == "pool_copies") read_sourced_strings(r, e.value, "pool_copies", p.pool_copies);
    if (e.key == "pickup") read_sourced_word(r, e.value, "pickup", p.pickup, pickup_words);
    if (e.key == "restart_first") read_sourced_components(r, e.value, "restart_first", p.restart_first);
    if (e.key == "kube_proxy_holds_pool") read_sourced_bool(r, e.value, "kube_proxy_holds_pool", p.kube_proxy_holds_pool);
    if (e.key == "range_field") read_sourced_text(r, e.value, "range_field", p.range_field);
    if (e.key == "config_where") read_sourced_text(r, e.value, "config_where", p.config_where);
  }
}

constexpr std::string_view kubernetes_profile_keys[] = {
    "from", "to", "service_cidr", "service_cidr_api", "service_cidr_gate", "runtime_config", "dual_write_gate",
    "service_ips_field"};

void read_kubernetes_profile(yaml_reader& r, std::uint32_t node, catalog& c) {
  auto entries = r.mapping(node, "a Kubernetes profile");
  if (!entries) return;
  profile_keys(r, node, *entries, kubernetes_profile_keys, "a Kubernetes profile", "to");
  kubernetes_profile k;
  bool bounds = true;
  for (const auto& e : *entries) {
    if (e.key == "from" || e.key == "to") {
      auto text = r.string(e.value, e.key);
      auto parsed = text ? detail::parse_kube_version(*text) : std::nullopt;
      if (text && !parsed) r.error(e.value, diag::bad_version, "'" + *text + "' is not a Kubernetes version such as 1.29");
      if (parsed && e.key == "from") k.from = *parsed;
      if (parsed && e.key == "to") k.to = *parsed;
      bounds = bounds && parsed.has_value();
    }
    if (e.key == "service_cidr") read_sourced_word(r, e.value, "service_cidr", k.service_cidr, stage_words);
    if (e.key == "service_cidr_api") read_sourced_text(r, e.value, "service_cidr_api", k.service_cidr_api);
    if (e.key == "service_cidr_gate") {
      read_sourced_components(r, e.value, "service_cidr_gate", k.service_cidr_gate);
    }
    if (e.key == "runtime_config") read_sourced_bool(r, e.value, "runtime_config", k.runtime_config);
    if (e.key == "dual_write_gate") read_sourced_text(r, e.value, "dual_write_gate", k.dual_write_gate);
    if (e.key == "service_ips_field") read_sourced_text(r, e.value, "service_ips_field", k.service_ips_field);
  }
  if (bounds && k.to && *k.to < k.from) r.error(node, diag::bad_version, "a Kubernetes profile ends before it starts");
  if (bounds && !c.kubernetes.empty() && !(c.kubernetes.back().to && *c.kubernetes.back().to < k.from)) {
    r.error(node, diag::bad_version, "Kubernetes profiles must be in order and disjoint");
  }
  c.kubernetes.push_back(std::move(k));
}

// A distribution's default CNI (node, name), checked once every CNI is read.
using cni_reference = std::pair<std::uint32_t, std::string>;
// A distribution's IPAM mode for a CNI (node, CNI, mode), checked once every CNI is read.
using cni_mode_reference = std::tuple<std::uint32_t, std::string, std::string>;

void read_distribution(yaml_reader& r, std::uint32_t node, catalog& c, std::vector<cni_reference>& default_cnis,
                       std::vector<cni_mode_reference>& cni_modes) {
  auto entries = r.mapping(node, "a distribution");
  if (!entries) return;
  r.only_keys(*entries,
              {"name", "network", "pods", "services", "services_if_network_in", "node_cidr_mask", "node_cidr_mask_v6",
               "reserved", "ip_family", "cni", "cni_ipam", "source", "profile"},
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
    } else if (e.key == "cni") {
      read_sourced_text(r, e.value, "cni", d.cni);
      if (!d.cni.known) r.error(e.value, diag::invalid_value, "a distribution's cni names a CNI; leave it out where none is known");
      if (d.cni.known) default_cnis.emplace_back(e.value, d.cni.value);
    } else if (e.key == "cni_ipam") {
      auto items = r.sequence(e.value, "cni_ipam");
      for (auto item : items.value_or(std::span<const std::uint32_t>{})) {
        auto x = r.mapping(item, "a cni_ipam entry");
        if (!x) continue;
        r.only_keys(*x, {"cni", "mode", "fact"}, "a cni_ipam entry");
        distribution_defaults::cni_ipam_default def;
        for (const auto& f : *x) {
          if (f.key == "cni") def.cni = r.string(f.value, "cni").value_or("");
          if (f.key == "mode") def.mode = r.string(f.value, "mode").value_or("");
          if (f.key == "fact") read_fact(r, f.value, def.fact);
        }
        if (def.cni.empty() || def.mode.empty() || def.fact.empty()) {
          r.error(item, diag::missing_key, "a cni_ipam entry names a cni, its mode and the fact that says so");
          continue;
        }
        cni_modes.emplace_back(item, def.cni, def.mode);
        d.cni_ipam.push_back(std::move(def));
      }
    } else if (e.key == "profile") {
      read_distribution_profile(r, e.value, d.profile.emplace());
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
  r.only_keys(*entries, {"name", "pods_from", "pods", "block_size", "block_size_v6", "source", "profile"}, "an IPAM mode");
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
      else if (*v == "external") m.pods_from = pod_source::external;
      else r.error(e.value, diag::invalid_value,
                   "pods_from must be cni, distribution, network, none or external, not \"" + *v + "\"");
    } else if (e.key == "pods") {
      m.pods = prefixes(r, e.value, "pods");
    } else if (e.key == "block_size") {
      if (auto v = r.integer(e.value, 1, 32, "block_size")) m.block_size = static_cast<int>(*v);
    } else if (e.key == "block_size_v6") {
      if (auto v = r.integer(e.value, 1, 128, "block_size_v6")) m.block_size_v6 = static_cast<int>(*v);
    } else if (e.key == "source") {
      if (auto v = r.string(e.value, "source")) m.source = *v;
    } else if (e.key == "profile") {
      read_ipam_profile(r, e.value, m.profile.emplace());
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
  r.only_keys(*entries, {"name", "cidrs", "translated", "cloud", "holds_clusters", "source"}, "a network type");
  network_type t;
  for (const auto& e : *entries) {
    if (e.key == "name") {
      if (auto v = r.string(e.value, "name")) t.name = *v;
    } else if (e.key == "cidrs") {
      t.cidrs = prefixes(r, e.value, "cidrs");
    } else if (e.key == "translated") {
      t.translated = prefixes(r, e.value, "translated");
    } else if (e.key == "cloud") {
      read_sourced_word(r, e.value, "cloud", t.cloud, cloud_words);
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
      for (auto item : r.sequence(e.value, "routes").value_or(std::span<const std::uint32_t>{})) {
        auto word = r.string(item, "a role");
        if (!word) continue;
        if (auto roles = parse_cluster_roles(*word)) {
          m.routes.add(*roles);
        } else {
          r.error(item, diag::unknown_value, "routes of a mesh are network, pods, services or all, not '" + *word + "'");
        }
      }
    } else if (e.key == "facts") {
      for (auto item : r.sequence(e.value, "facts").value_or(std::span<const std::uint32_t>{})) {
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
              {"name", "changes", "owners", "distributions", "not_distributions", "cni", "ipam", "families",
               "pod_addresses", "kubernetes", "cost", "per_nodes", "per_services", "per_load_balancers", "what", "why", "source"},
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
                "changes must be services, pods, pod-space, pod-expand, network or cluster, not '" + *v + "'");
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
    } else if (e.key == "families") {
      for (const auto& word : strings(r, e.value, "families")) {
        if (word == "ipv4" || word == "ipv6") {
          k.families.push_back(word == "ipv4" ? ip_version::v4 : ip_version::v6);
        } else {
          r.error(e.value, diag::unknown_value, "families lists ipv4 and ipv6, not '" + word + "'");
        }
      }
    } else if (e.key == "pod_addresses") {
      bool listed = true;  // an empty list or "unknown" would say nothing: leave the key out instead
      read_sourced(r, e.value, "pod_addresses", k.pod_addresses, [&](std::uint32_t v) {
        std::optional<std::vector<address_source>> out;
        auto items = r.list(v, "pod_addresses");
        if (!items) return out;
        listed = !items->empty();
        out.emplace();
        for (auto item : *items) {
          if (auto one = read_word(r, item, pod_address_words, "pod_addresses")) out->push_back(*one);
        }
        return out;
      });
      if (!k.pod_addresses.known || !listed) {
        r.error(e.value, diag::invalid_value, "pod_addresses lists the address sources the operation applies to; leave it out for any");
      }
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

void read_shared_apply(yaml_reader& r, std::uint32_t node, shared_apply_cost& into) {
  auto entries = r.mapping(node, "shared_apply");
  if (!entries) return;
  r.only_keys(*entries, {"cost", "why"}, "shared_apply");
  bool has_why = false;
  for (const auto& e : *entries) {
    if (e.key == "cost") {
      if (auto v = r.integer(e.value, 0, max_plan_cost, "cost")) into.cost = static_cast<int>(*v);
    } else if (auto v = r.string(e.value, "why")) {
      into.why = *v;
      has_why = true;
    }
  }
  if (!has_why) r.error(node, diag::missing_key, "shared_apply has no why (a cost says its reasoning)");
}

}  // namespace

auto parse_catalog(std::string_view text, std::string_view name, std::vector<diagnostic>& diagnostics) -> catalog {
  catalog c;
  std::vector<cni_reference> default_cnis;
  std::vector<cni_mode_reference> cni_modes;
  auto doc = detail::parse_yaml(text, name, {}, diagnostics);
  yaml_reader r(doc, std::string(name), diagnostics, 1'000'000);
  for (auto root : doc.roots) {
    auto top = r.mapping(root, "a catalog");
    if (!top) continue;
    r.only_keys(*top,
                {"version", "date", "distributions", "cnis", "network_types", "meshes", "private_space", "blocks",
                 "operations", "shared_apply", "kubernetes"},
                "the catalog");
    for (const auto& e : *top) {
      if (e.key == "shared_apply") {
        read_shared_apply(r, e.value, c.shared_apply);
        continue;
      }
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
        if (e.key == "distributions") read_distribution(r, item, c, default_cnis, cni_modes);
        if (e.key == "cnis") read_cni(r, item, c);
        if (e.key == "network_types") read_network_type(r, item, c);
        if (e.key == "meshes") read_mesh(r, item, c);
        if (e.key == "private_space") read_block(r, item, c, true);
        if (e.key == "blocks") read_block(r, item, c, false);
        if (e.key == "operations") read_operation(r, item, c);
        if (e.key == "kubernetes") read_kubernetes_profile(r, item, c);
      }
    }
  }
  for (const auto& [node, cni] : default_cnis) {
    if (c.find_cni(cni) == nullptr) r.error(node, diag::unknown_value, "cni '" + cni + "' is not a CNI of the catalog");
  }
  for (const auto& [node, cni, mode] : cni_modes) {
    const auto* known = c.find_cni(cni);
    if (known == nullptr) {
      r.error(node, diag::unknown_value, "cni '" + cni + "' is not a CNI of the catalog");
    } else if (known->find_mode(mode) == nullptr) {
      r.error(node, diag::unknown_value, "mode '" + mode + "' is not an IPAM mode of cni " + cni);
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
