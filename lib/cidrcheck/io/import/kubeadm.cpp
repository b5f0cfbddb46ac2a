// A kubeadm configuration file: ClusterConfiguration (kubeadm.k8s.io/v1beta2,
// v1beta3, v1beta4), alone or with the other documents of the file given to
// `kubeadm init --config` (InitConfiguration, KubeletConfiguration,
// KubeProxyConfiguration).

#include "../kube_version.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include "importers.hpp"

namespace cidrcheck::detail {

namespace {

auto kind_of(source_reader& in, const source_reader::object& doc) -> std::string {
  return in.text(doc.get("kind"), "kind").value_or("");
}

// Returns the value of a component flag in extraArgs: a mapping (v1beta3 and
// before) or a list of {name, value} (v1beta4).
auto extra_arg(source_reader& in, std::optional<std::uint32_t> args, std::string_view flag)
    -> std::optional<std::uint32_t> {
  if (!args) return std::nullopt;
  if (in.yaml().node(*args).kind == yaml_kind::mapping) {
    auto map = in.object_at(args, "extraArgs");
    return map ? map->get(flag) : std::nullopt;
  }
  for (auto item : in.items(args, "extraArgs")) {
    auto arg = in.object_at(item, "an extra argument");
    if (arg && in.text(arg->get("name"), "name") == flag) return arg->get("value");
  }
  return std::nullopt;
}

}  // namespace

auto read_cluster_configuration(source_reader& in, const source_reader::object& config, import_result& out)
    -> imported_owner& {
  // kubeadm names every cluster "kubernetes" unless told otherwise: then the
  // file's name is the better name. A name the user gives wins.
  auto name_node = config.get("clusterName");
  auto name = in.text(name_node, "clusterName");
  if (!name || *name == "kubernetes" || in.named()) name = in.cluster_name(config.node());
  auto& o = add_owner(out, *name, owner_kind::cluster, "kubeadm", in.where(config.node()));
  o.value.description = "kubeadm cluster, from its ClusterConfiguration";
  if (auto v = config.get("kubernetesVersion")) {
    auto text = in.text(v, "kubernetesVersion");
    if (text && !(o.value.kubernetes = parse_kube_version(*text))) {
      in.error(*v, diag::type, "kubernetesVersion must be a Kubernetes version, not \"" + *text + "\"");
    }
  }
  add_claim(o, range_role::pods, claim_kind::exact, in.ranges(config.at({"networking", "podSubnet"}), "podSubnet"));
  add_claim(o, range_role::services, claim_kind::exact,
            in.ranges(config.at({"networking", "serviceSubnet"}), "serviceSubnet"));
  // The components' own flags override kubeadm's fields; they must agree.
  auto manager = config.at({"controllerManager", "extraArgs"});
  add_claim(o, range_role::pods, claim_kind::exact, in.ranges(extra_arg(in, manager, "cluster-cidr"), "cluster-cidr"));
  add_claim(o, range_role::services, claim_kind::exact,
            in.ranges(extra_arg(in, config.at({"apiServer", "extraArgs"}), "service-cluster-ip-range"),
                      "service-cluster-ip-range"));
  for (auto flag : {"node-cidr-mask-size", "node-cidr-mask-size-ipv4"}) {
    if (auto mask = in.whole(extra_arg(in, manager, flag), min_node_mask, max_node_mask(ip_version::v4), flag)) {
      o.value.node_cidr_mask = static_cast<int>(*mask);
    }
  }
  if (auto mask = in.whole(extra_arg(in, manager, "node-cidr-mask-size-ipv6"), min_node_mask, max_node_mask(ip_version::v6),
                           "node-cidr-mask-size-ipv6")) {
    o.value.node_cidr_mask_v6 = static_cast<int>(*mask);
  }
  return o;
}

void import_kubeadm(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  std::optional<source_reader::object> config, kubelet, proxy;
  std::optional<std::uint32_t> first_root;
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (!first_root) first_root = root;
    auto doc = in.document(root, "a kubeadm ClusterConfiguration");
    if (!doc) continue;
    auto kind = kind_of(in, *doc);
    if (kind == "ClusterConfiguration") config = doc;
    if (kind == "KubeletConfiguration") kubelet = doc;
    if (kind == "KubeProxyConfiguration") proxy = doc;
  }
  if (!config) {
    if (first_root) in.wrong_document(*first_root, "a kubeadm ClusterConfiguration (kind: ClusterConfiguration)");
    return;
  }
  auto& o = read_cluster_configuration(in, *config, out);
  if (proxy) {
    add_claim(o, range_role::pods, claim_kind::exact, in.ranges(proxy->get("clusterCIDR"), "clusterCIDR"));
    if (auto mode = kube_proxy_mode(in, proxy->get("mode"))) o.value.kube_proxy_mode = *mode;
  }
  if (kubelet) {
    auto dns = in.items(kubelet->get("clusterDNS"), "clusterDNS");
    if (!dns.empty()) {
      if (auto a = in.address_at(dns.front(), "clusterDNS")) {
        o.value.dns = *a;
        o.value.dns_where = in.where(dns.front());
      }
    }
  }
}

}  // namespace cidrcheck::detail
