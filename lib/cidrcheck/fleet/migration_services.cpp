// Runbooks that move or create a cluster's service range: with the ServiceCIDR
// API (operation service-cidr-api) or in a maintenance window without it
// (service-window). Where the distribution fixes the range (EKS, GKE, AKS,
// OpenShift) the catalog offers neither, and the move is a replacement-cluster
// operation (migration_network.cpp). Every fact id cited is a row of
// docs/migration-facts.md, section 1.

#include "migration.hpp"

#include <initializer_list>
#include <string>
#include <string_view>

namespace cidrcheck::detail {

namespace {

// Which ServiceCIDR API a cluster's Kubernetes serves. `unclear` is 1.27-1.28,
// where the sources disagree (svc-api-1.27-1.28); `none` is older or unknown.
enum class service_cidr_api { none, unclear, alpha, beta, ga };

auto service_cidr_stage(const owner& o) -> service_cidr_api {
  if (!o.kubernetes || *o.kubernetes < kube_version{1, 27}) return service_cidr_api::none;
  if (*o.kubernetes < kube_version{1, 29}) return service_cidr_api::unclear;
  if (*o.kubernetes < kube_version{1, 31}) return service_cidr_api::alpha;
  if (*o.kubernetes < kube_version{1, 33}) return service_cidr_api::beta;
  return service_cidr_api::ga;
}

// The networking.k8s.io version that serves ServiceCIDR at a stage; 1.27-1.28
// would be v1alpha1 if served at all (svc-api-1.27-1.28).
auto servicecidr_api_version(service_cidr_api stage) -> std::string_view {
  switch (stage) {
    case service_cidr_api::ga: return "networking.k8s.io/v1";
    case service_cidr_api::beta: return "networking.k8s.io/v1beta1";
    default: return "networking.k8s.io/v1alpha1";
  }
}

// The kubeadm configuration API a kubeadm release reads: v1beta2 until 1.21
// (v1beta1 dropped in 1.22), v1beta3 from 1.22 (v1beta2 dropped in 1.27;
// v1beta3 deprecated for v1beta4, removed "1.34 or later"), v1beta4 from 1.34
// (kadm-api-version).
auto kubeadm_api_version(const owner& o) -> std::string_view {
  if (o.kubernetes && *o.kubernetes < kube_version{1, 22}) return "kubeadm.k8s.io/v1beta2";
  if (!o.kubernetes || *o.kubernetes < kube_version{1, 34}) return "kubeadm.k8s.io/v1beta3";
  return "kubeadm.k8s.io/v1beta4";
}

auto version_text(const owner& o) -> std::string {
  return o.kubernetes ? "1." + std::to_string(o.kubernetes->minor) : std::string("of unknown version");
}

// A Kubernetes object name (DNS subdomain) for a range: "services-10-96-0-0-12";
// IPv6 colons become '-' too.
auto object_name(const prefix& p) -> std::string {
  std::string out = "services-";
  for (char c : p.to_string()) out += (c == '.' || c == ':' || c == '/') ? '-' : c;
  return out;
}

auto is_k3s(const std::string& distribution) -> bool { return distribution == "k3s" || distribution == "rke2"; }

// The addresses a service move touches: one family's range, or both families'
// of a dual-stack cluster at once (svc-dual-stack-move).
struct service_move {
  std::string from, to;  // the moved ranges as text: "10.96.0.0/12", or "10.96.0.0/12 and fd00::/112"
  // The cluster's service ranges before and after the move, one per family, in
  // the fleet's order (its first is the primary family): "10.48.0.0/12" or
  // "10.48.0.0/12,fd00::/112" (kas-flag-two, svc-fields).
  std::string old_ranges, ranges;
  std::string kept;              // the other family's range when it does not move, else empty
  bool both = false;             // both families move (svc-dual-stack-move)
  // The primary family moves. When only the secondary family of a dual-stack
  // cluster moves, kubernetes.default, the cluster DNS address and every
  // Service's spec.clusterIP stay where they are (svc-kubernetes-single-stack,
  // svc-env-primary), so the runbook has no certificate, DNS or pod-restart steps.
  bool primary = true;
  std::string old_first, first;  // kubernetes.default before and after (svc-first-ip)
  std::string old_dns, dns;      // the cluster DNS address before and after
  std::string name;              // the new ServiceCIDR object's name
};

// The cluster's service ranges as "a,b", each moved one (a change's to) given
// as it was (its from) when `before`.
auto service_ranges(const fleet& planned, const owner& o, std::initializer_list<const plan_change*> moved, bool before)
    -> std::string {
  std::string out;
  for (auto k : o.ranges) {
    const auto& r = planned.ranges[k];
    if (r.role != range_role::services) continue;
    prefix p = r.cidr;
    for (const auto* c : moved) {
      if (before && c->to == r.cidr) p = c->from;
    }
    out += (out.empty() ? "" : ",") + p.to_string();
  }
  return out;
}

// The move of one change; `second` is the other family's change when both move,
// and `c` then is the primary family's (whose addresses kubernetes.default and DNS use).
auto move_of(const fleet& planned, const owner& o, const plan_change& c, const plan_change* second = nullptr)
    -> service_move {
  service_move m;
  m.from = c.from.to_string() + (second ? " and " + second->from.to_string() : std::string());
  m.to = c.to.to_string() + (second ? " and " + second->to.to_string() : std::string());
  m.old_ranges = service_ranges(planned, o, {&c, second ? second : &c}, true);
  m.ranges = service_ranges(planned, o, {}, false);
  m.both = second != nullptr;
  if (!second) {
    bool first_range = true;
    for (auto k : o.ranges) {
      const auto& r = planned.ranges[k];
      if (r.role != range_role::services) continue;
      if (first_range) m.primary = r.cidr.version() == c.to.version();
      first_range = false;
      if (r.cidr.version() != c.to.version()) m.kept = r.cidr.to_string();
    }
  }
  m.old_first = c.from.network().next().to_string();
  m.first = c.to.network().next().to_string();
  // planned has the new DNS address already: the old one is the change's, else the convention.
  m.old_dns = c.dns_from ? c.dns_from->to_string() : dns_of(c.from);
  m.dns = c.dns_to ? c.dns_to->to_string() : dns_of(c.to);
  m.name = object_name(c.to);
  return m;
}

// kops: nonMasqueradeCIDR must hold podCIDR (kops-nonmasq-pod), older kops also
// serviceClusterIPRange (kops-nonmasq-svc), and must not overlap networkCIDR
// unless the CNI is the Amazon VPC CNI or Cilium in ENI mode (kops-nonmasq-network).
auto kops_non_masquerade_text(const fleet& planned, const owner& o, ip_version v) -> std::string {
  std::string cover = non_masquerade(planned, o, v);
  const bool exempt = o.cni == "vpc-cni" || (o.cni == "cilium" && o.ipam == "eni");
  std::string clash;
  if (auto block = prefix::try_parse(cover)) {
    if (auto network = kops_network_clash(planned, o, *block)) clash = network->to_string();
  }
  std::string rule = "spec.nonMasqueradeCIDR must hold podCIDR; older kops versions also require "
                     "serviceClusterIPRange inside it (conflicting sources), and the smallest block holding both is " +
                     cover;
  if (exempt) return rule + " (the overlap rule with networkCIDR does not apply to this CNI)";
  if (clash.empty()) return rule + ", which does not overlap networkCIDR";
  return rule + ", which overlaps networkCIDR " + clash + ": kops refuses that, so with such a kops version choose a "
         "service range that a block beside " + clash + " can hold together with podCIDR";
}

// --- files ------------------------------------------------------------------

// "a,b" as YAML list items of quoted strings (an IPv6 address of digits and
// colons would otherwise read as a YAML 1.1 sexagesimal number).
auto list_items(const std::string& csv, const std::string& indent) -> std::string {
  std::string out;
  for (std::size_t start = 0; start <= csv.size();) {
    auto end = csv.find(',', start);
    if (end == std::string::npos) end = csv.size();
    out += indent + "- \"" + csv.substr(start, end - start) + "\"\n";
    start = end + 1;
  }
  return out;
}

auto servicecidr_yaml(service_cidr_api stage, const service_move& m) -> std::string {
  return "# A second service range beside the default ServiceCIDR `kubernetes` (svc-extend, svc-fields):\n"
         "# spec.cidrs holds one CIDR per IP family, at most two, and cannot be changed later.\n"
         "apiVersion: " + std::string(servicecidr_api_version(stage)) + "\n"
         "kind: ServiceCIDR\n"
         "metadata:\n"
         "  name: " + m.name + "\n"
         "spec:\n"
         "  cidrs:\n" + list_items(m.ranges, "    ");
}

auto api_flags(service_cidr_api stage) -> std::string {
  return "# MultiCIDRServiceAllocator is off by default before 1.33 (svc-gate-alpha-1.27, svc-beta-1.31)\n"
         "--feature-gates=MultiCIDRServiceAllocator=true\n"
         "# serve the ServiceCIDR objects' API group version, off by default\n"
         "--runtime-config=" + std::string(servicecidr_api_version(stage)) + "=true\n";
}

auto range_flag(const service_move& m) -> std::string {
  return "# the service range, after every Service was recreated in it (svc-reconfigure-order step 6)\n"
         "--service-cluster-ip-range=" + m.ranges + "\n";
}

auto kube_dns_next_yaml(const service_move& m) -> std::string {
  return "# A second DNS Service at the new address, beside kube-dns at " + m.old_dns + ", so that pods\n"
         "# started before and after the move both resolve; copy spec.ports and spec.selector from\n"
         "# `kubectl -n kube-system get service kube-dns -o yaml` if they differ from the usual ones below.\n"
         "apiVersion: v1\n"
         "kind: Service\n"
         "metadata:\n"
         "  name: kube-dns-next\n"
         "  namespace: kube-system\n"
         "spec:\n"
         "  clusterIP: \"" + m.dns + "\"\n"
         "  selector:\n"
         "    k8s-app: kube-dns\n"
         "  ports:\n"
         "    - name: dns\n"
         "      port: 53\n"
         "      protocol: UDP\n"
         "    - name: dns-tcp\n"
         "      port: 53\n"
         "      protocol: TCP\n";
}

auto kubelet_config_yaml(const std::string& dns) -> std::string {
  return "# The field to change in the kubelet-config ConfigMap (key kubelet) and in each node's\n"
         "# /var/lib/kubelet/config.yaml (kadm-kubelet-cm); keep every other field as it is.\n"
         "apiVersion: kubelet.config.k8s.io/v1beta1\n"
         "kind: KubeletConfiguration\n"
         "clusterDNS:\n"
         "  - \"" + dns + "\"\n";
}

auto kubeadm_cluster_configuration(const owner& o, const service_move& m, bool new_subnet, bool old_san) -> std::string {
  std::string out =
      "# The fields to change in the ClusterConfiguration (ConfigMap kube-system/kubeadm-config, key\n"
      "# ClusterConfiguration, kadm-config-cm) and in the file given to kubeadm --config; keep every other\n"
      "# field, and keep the apiVersion the ConfigMap already has if it differs (kadm-api-version).\n"
      "apiVersion: " + std::string(kubeadm_api_version(o)) + "\n"
      "kind: ClusterConfiguration\n"
      "networking:\n"
      "  serviceSubnet: \"" + (new_subnet ? m.ranges : m.old_ranges) + "\"\n";
  if (!m.primary) return out;  // kubernetes.default stays in the primary family (svc-kubernetes-single-stack)
  out += "apiServer:\n"
         "  certSANs:\n";
  if (old_san) out += "    - \"" + m.old_first + "\"  # the old kubernetes.default address, until no pod uses it\n";
  out += "    - \"" + m.first + "\"  # the new kubernetes.default address\n";
  return out;
}

auto kubeadm_certs_sh() -> std::string {
  return "# Reissue the API server certificate on each control-plane node, one at a time (kadm-certs-keep:\n"
         "# kubeadm keeps an existing certificate unless it is moved away first). kubeadm.yaml is the\n"
         "# configuration of kubeadm-clusterconfiguration.yaml merged into the cluster's own.\n"
         "set -eu\n"
         "mkdir -p /etc/kubernetes/pki/old\n"
         "mv /etc/kubernetes/pki/apiserver.crt /etc/kubernetes/pki/apiserver.key /etc/kubernetes/pki/old/\n"
         "kubeadm init phase certs apiserver --config kubeadm.yaml\n"
         "# kube-apiserver reads its certificate at start: restart its static pod\n"
         "mv /etc/kubernetes/manifests/kube-apiserver.yaml /etc/kubernetes/\n"
         "sleep 20\n"
         "mv /etc/kubernetes/kube-apiserver.yaml /etc/kubernetes/manifests/\n"
         "# the certificate must list both kubernetes.default addresses while pods use the old one\n"
         "openssl x509 -noout -ext subjectAltName -in /etc/kubernetes/pki/apiserver.crt\n";
}

auto kops_api_yaml(service_cidr_api stage) -> std::string {
  std::string version(servicecidr_api_version(stage));
  return "# Fields to add to the kops cluster spec (kops edit cluster), as the kops story did on 1.29\n"
         "# (kops-svc-alpha): kubeAPIServer.featureGates is rendered into --feature-gates\n"
         "# (kops-feature-gates), kubeAPIServer.runtimeConfig into --runtime-config (kops-runtime-config).\n"
         "spec:\n"
         "  kubeAPIServer:\n"
         "    featureGates:\n"
         "      MultiCIDRServiceAllocator: \"true\"\n"
         "    runtimeConfig:\n"
         "      " + version + ": \"true\"\n";
}

auto kops_range_yaml(const service_move& m) -> std::string {
  return "# Field to change in the kops cluster spec (kops edit cluster); kops passes it to kube-apiserver\n"
         "# and kube-controller-manager as --service-cluster-ip-range (kops-svc-alpha).\n"
         "spec:\n"
         "  serviceClusterIPRange: \"" + m.to + "\"\n";
}

// The certificate's additional SANs in the kops cluster spec (kops-apiserver-sans).
auto kops_sans_yaml(const service_move& m) -> std::string {
  return "# Field to add to the kops cluster spec (kops edit cluster): nodeup adds these addresses to the\n"
         "# API server certificate beside the first address of the current serviceClusterIPRange\n"
         "# (kops-apiserver-sans). This is the kops.k8s.io/v1alpha2 spec that `kops edit cluster` shows;\n"
         "# kops' internal API names the field spec.api.additionalSANs. Keep any SANs the list already has.\n"
         "spec:\n"
         "  additionalSans:\n"
         "    - \"" + m.old_first + "\"\n"
         "    - \"" + m.first + "\"\n";
}

// --- steps shared by the branches --------------------------------------------

// Adds facts to a step after it was made (for facts that depend on the branch).
void cite(migration_step& s, std::initializer_list<std::string_view> ids) {
  for (auto id : ids) s.facts.push_back(migration_fact_by_id(id));
}

// The API server certificate carries both kubernetes.default addresses (svc-old-ip-in-use).
void certificate_step(const owner& o, const service_move& m, runbook_builder& out) {
  std::string verify = " Check: `openssl s_client -connect <api server>:6443 </dev/null | openssl x509 -noout "
                       "-ext subjectAltName` lists both.";
  if (o.type == "kubeadm") {
    auto& s = out.step("add both kubernetes.default addresses, " + m.old_first + " (old) and " + m.first +
                           " (new), to apiServer.certSANs in the kubeadm ClusterConfiguration (the file for kubeadm "
                           "--config and the kubeadm-config ConfigMap; networking.serviceSubnet stays " + m.old_ranges +
                           " for now), then on each control-plane node move apiserver.crt and apiserver.key away, "
                           "run `kubeadm init phase certs apiserver` and restart kube-apiserver: kubeadm keeps an "
                           "existing certificate, and it puts only the first address of the current serviceSubnet in "
                           "it, so the old address would be lost when the subnet changes." + verify,
                       {"kadm-san-first", "kadm-certs-keep", "kadm-config-cm", "kadm-api-version", "svc-first-ip",
                        "svc-old-ip-in-use"});
    s.makes = {"cert-has-both-kubernetes-ips"};
    out.file("kubeadm-clusterconfiguration.yaml", [&] { return kubeadm_cluster_configuration(o, m, false, true); });
    out.file("kubeadm-certs.sh", [] { return kubeadm_certs_sh(); });
    return;
  }
  if (o.type == "kops") {
    auto& s = out.step("add both kubernetes.default addresses, " + m.old_first + " (old) and " + m.first + " (new), "
                           "to the additional SANs of the API server certificate in the kops cluster spec "
                           "(spec.additionalSans in the kops.k8s.io/v1alpha2 spec that `kops edit cluster` shows), then `kops update cluster "
                           "--yes` and `kops rolling-update cluster --yes`: kops' nodeup puts only the first address of "
                           "the current serviceClusterIPRange in the certificate, so the roll that switches the range "
                           "would drop the old address while pods still use it." + verify +
                           " Run the check again after the roll that switches the range.",
                       {"kops-apiserver-sans", "svc-first-ip", "svc-old-ip-in-use"});
    s.makes = {"cert-has-both-kubernetes-ips"};
    out.file("kops-cluster-sans.yaml", [&] { return kops_sans_yaml(m); });
    return;
  }
  auto& s = out.step("reissue the API server certificate with both kubernetes.default addresses, " + m.old_first +
                         " (old) and " + m.first + " (new), among its subject alternative names, and restart the API "
                         "servers one at a time; pods keep the old address until restarted." + verify,
                     {"svc-first-ip", "svc-env-vars", "svc-old-ip-in-use"});
  s.makes = {"cert-has-both-kubernetes-ips"};
}

// When only the secondary family moves: Services with an address in it get one
// in the new range. A dual-stack Service keeps its primary address and is
// patched down to single-stack and back (svc-secondary-family-patch); one whose
// only family is the moved one is recreated. Makes services-recreated and
// lb-services-recreated; needs `ready`, the state in which the new range allocates.
void secondary_services_step(const owner& o, const service_move& m, ip_version v, const std::string& ready,
                             runbook_builder& out) {
  const std::string family = v == ip_version::v6 ? "IPv6" : "IPv4";
  std::string count = o.service_count ? " (of the " + std::to_string(*o.service_count) + " Services)" : std::string();
  auto& s = out.step(
      "give every Service with an address in " + m.from + count + " one in " + m.to + "; list them with `kubectl get "
      "services -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.ipFamilyPolicy} "
      "{.spec.clusterIPs}{\"\\n\"}{end}'`. A dual-stack Service (PreferDualStack or RequireDualStack) keeps its "
      "primary address: `kubectl -n NAMESPACE patch service NAME --type=merge -p "
      "'{\"spec\":{\"ipFamilyPolicy\":\"SingleStack\"}}'` makes kube-apiserver drop its " + family + " address, and "
      "patching ipFamilyPolicy back to the Service's policy allocates a new one in " + m.to + " (the Service has no " +
      family + " address between the two patches). A Service whose only family is " + family + " has its address as "
      "its primary clusterIP, which cannot change: delete it and create it without spec.clusterIP (on AWS a "
      "recreated LoadBalancer Service gets a new load balancer, so move its DNS records). kubernetes.default, "
      "kube-dns and the kept family's addresses do not change; leave headless Services alone",
      {"svc-secondary-family-patch", "svc-kubernetes-single-stack", "svc-clusterip-immutable", "svc-headless",
       "svc-lb-recreate"});
  s.needs = {ready};
  s.makes = {"services-recreated", "lb-services-recreated"};
}

// When only the secondary family moves: the pods that still hold an old address.
void secondary_pods_step(runbook_builder& out) {
  auto& s = out.step("restart the pods that read the address of a recreated Service from its environment variable "
                     "({NAME}_SERVICE_HOST is the Service's spec.clusterIP, its primary address, so only Services "
                     "whose only family moved changed it), or started before those Services were recreated and "
                     "cached their addresses; kubernetes.default and the DNS address do not change, so no other pod "
                     "needs a restart",
                     {"svc-env-vars", "svc-env-primary", "svc-kubernetes-single-stack"});
  s.needs = {"services-recreated", "flags-on-new-range"};
  s.makes = {"pods-use-new-addresses"};
}

// The retirement step every runbook ends with.
void retire_step(const owner& o, const service_move& m, bool with_api, runbook_builder& out) {
  std::string text = std::string(m.both ? "retire the old ranges " : "retire the old range ") + m.from + ": ";
  if (!m.primary) {
    // The certificate never held an address of the secondary family.
  } else if (o.type == "kubeadm") {
    text += "remove " + m.old_first + " from apiServer.certSANs (kubeadm-config and kubeadm.yaml) and reissue the "
            "certificate as in step 2; ";
  } else if (o.type == "kops") {
    text += "remove " + m.old_first + " from spec.additionalSans, then `kops update cluster --yes` and `kops "
            "rolling-update cluster --yes`; ";
  } else {
    text += "drop " + m.old_first + " from the API server certificate; ";
  }
  text += std::string("verify that no Service keeps an address in ") + (m.both ? "them" : "it") +
          ": `kubectl get services -A -o "
          "jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.clusterIPs}{\"\\n\"}{end}'` "
          "lists none in " + m.from;
  if (with_api) {
    text += std::string(", `kubectl get ipaddresses` lists none in ") + (m.both ? "them" : "it") + ", and `kubectl get servicecidr kubernetes` shows it gone "
            "or holding " + m.ranges + " (a deleted ServiceCIDR disappears once no IPAddress depends on it; one "
            "left terminating with Ready=False, reason OrphanIPAddress, names what still uses the old range)";
  }
  auto& s = out.step(text, {"svc-old-ip-in-use"});
  if (with_api) cite(s, {"svc-finalizer", "svc-out-of-range-event"});
  if (o.type == "kops" && m.primary) cite(s, {"kops-apiserver-sans"});
  s.needs = {"pods-use-new-addresses", "services-recreated"};
  if (m.primary) s.needs.push_back("dns-service-in-new-range");
  s.makes = {"old-range-unused"};
}

// The files of the step that switches the range flags: kops' cluster spec, or
// the flags of kube-apiserver and kube-controller-manager (with kubeadm, its
// final ClusterConfiguration too); k3s/RKE2 change their own server flags.
void range_switch_files(runbook_builder& out, const owner& o, const service_move& m, bool kops, bool kubeadm) {
  if (kops) {
    out.file("kops-cluster.yaml", [&] { return kops_range_yaml(m); });
  } else if (!is_k3s(o.type)) {
    out.file("kube-apiserver.flags", [&] { return range_flag(m); });
    out.file("kube-controller-manager.flags", [&] { return range_flag(m); });
    if (kubeadm) {
      out.file("kubeadm-clusterconfiguration-final.yaml", [&] { return kubeadm_cluster_configuration(o, m, true, true); });
    }
  }
}

// kops holds one service range (kops-svc-one-cidr): a fleet giving a kops
// cluster two gets one step saying so instead of a runbook; reports whether it did.
auto kops_dual_stack(const fleet& planned, const owner& o, runbook_builder& out) -> bool {
  if (o.type != "kops") return false;
  int services = 0;
  for (auto k : o.ranges) services += planned.ranges[k].role == range_role::services ? 1 : 0;
  if (services < 2) return false;
  out.step("stop: kops takes one service range (serviceClusterIPRange is parsed as a single CIDR), so a kops "
           "cluster cannot have the two service ranges the fleet gives " + o.name + "; correct "
           "the fleet, or move the cluster's one range with a plan of the corrected fleet",
           {"kops-svc-one-cidr"});
  return true;
}

// --- the branches -------------------------------------------------------------

// Declared here: the service-cidr-api runbook of 1.27-1.28 carries it as its fallback.
void window_runbook(const fleet& planned, const owner& o, const service_move& m, ip_version v, runbook_builder& out);

// Operation service-cidr-api, upstream order (svc-reconfigure-order): moves m,
// whose primary family is v, with the ServiceCIDR API of `stage`.
void api_runbook(const fleet& planned, const owner& o, const service_move& m, ip_version v, service_cidr_api stage,
                 runbook_builder& out) {
  const bool kubeadm = o.type == "kubeadm", kops = o.type == "kops";
  const std::string version(servicecidr_api_version(stage));

  // 0. k3s and RKE2: what is known.
  if (is_k3s(o.type)) {
    out.step(o.type + " documents no procedure for changing the service range of a running cluster, and its "
                       "maintainers call changing CIDRs on an existing cluster not well supported: nothing moves existing "
                       "Services (users saw them stay in the old range while kubernetes.default moved), which the steps "
                       "below do by hand. " + std::string(m.primary ? "--service-cidr (and --cluster-dns) are critical "
                       "values: change them" : "--service-cidr is a critical value: change it") + " on every server at "
                       "once when the range is switched",
                       {"k3s-no-procedure", "k3s-critical"});
  }

  // 1. The API served.
  if (stage == service_cidr_api::ga) {
    auto& s = out.step("check that the ServiceCIDR API (networking.k8s.io/v1, GA and locked on from 1.33) is served: "
                       "`kubectl get servicecidr kubernetes` shows the default ServiceCIDR holding " + m.old_ranges,
                       {"svc-ga-1.33", "svc-default-object"});
    s.makes = {"servicecidr-api-served"};
  } else {
    std::string text;
    if (stage == service_cidr_api::unclear) {
      text = "conflicting: whether Kubernetes " + version_text(o) + " serves ServiceCIDR objects at all is unclear "
             "(the v1alpha1 types are tagged as introduced in 1.27, the release notes and the task page place the "
             "feature in 1.29). Enable MultiCIDRServiceAllocator and " + version + " as below, then check that "
             "`kubectl api-resources --api-group=networking.k8s.io` lists servicecidrs; if it does not, stop here and "
             "upgrade to 1.29, or follow the service-window runbook in fallback-window/runbook.md instead. ";
    }
    text += "enable the ServiceCIDR API on every kube-apiserver, one at a time: --feature-gates="
            "MultiCIDRServiceAllocator=true and --runtime-config=" + version + "=true (" +
            (stage == service_cidr_api::beta ? "beta in 1.31-1.32, off by default" : "alpha, off by default") + ")";
    if (kops) {
      text += ": in the kops cluster spec as spec.kubeAPIServer.featureGates and runtimeConfig, as the kops story "
              "did on 1.29, then `kops update cluster --yes` and `kops rolling-update cluster --yes`";
    } else if (kubeadm) {
      text += ": in /etc/kubernetes/manifests/kube-apiserver.yaml on each control-plane node, and in "
              "apiServer.extraArgs of the kubeadm-config ConfigMap so that `kubeadm upgrade` keeps them";
    }
    text += "; then `kubectl get servicecidr kubernetes` shows the default ServiceCIDR holding " + m.old_ranges;
    auto& s = out.step(text, {"svc-default-object"});
    if (stage == service_cidr_api::beta) {
      cite(s, {"svc-beta-1.31"});
    } else if (stage == service_cidr_api::alpha) {
      cite(s, {"svc-gate-alpha-1.27", "svc-alpha-1.29"});
    } else {
      cite(s, {"svc-api-1.27-1.28", "svc-gate-alpha-1.27"});
    }
    if (kops) cite(s, {"kops-runtime-config", "kops-feature-gates", "kops-svc-alpha"});
    s.makes = {"servicecidr-api-served"};
    if (kops) {
      out.file("kops-cluster-api.yaml", [&] { return kops_api_yaml(stage); });
    } else {
      out.file("kube-apiserver-api.flags", [&] { return api_flags(stage); });
    }
    if (stage == service_cidr_api::unclear) {
      out.fallback("fallback-window", "service-window",
                   [&](runbook_builder& window) { window_runbook(planned, o, m, v, window); });
    }
  }

  // 2. Both kubernetes.default addresses in the certificate.
  if (m.primary) certificate_step(o, m, out);

  // 3. The new range served beside the old one.
  {
    std::string other = !m.kept.empty()
                            ? " and the unchanged " + m.kept + " (one CIDR per family; the "
                              "other family keeps allocating once the default ServiceCIDR, which covers it too, is "
                              "deleted)"
                            : std::string();
    auto& s = out.step("create the ServiceCIDR " + m.name + " for " + m.to + other + " (" + version + "); new Services "
                       "can be given addresses in it at once, without restarting kube-apiserver. Check: `kubectl get "
                       "servicecidr " + m.name + "` is Ready",
                       {"svc-extend", "svc-fields", "svc-reconfigure-order"});
    if (m.both) cite(s, {"svc-dual-stack-move"});
    s.needs = {"servicecidr-api-served"};
    s.makes = {"new-servicecidr-serving"};
    out.file("servicecidr.yaml", [&] { return servicecidr_yaml(stage, m); });
  }

  // 4. A second DNS Service at the new DNS address, before anything else takes it.
  if (m.primary) {
    auto& s = out.step("create a second DNS Service, kube-dns-next in kube-system, with clusterIP " + m.dns +
                           " and kube-dns's selector and ports, so that pods with either DNS address in "
                           "/etc/resolv.conf resolve until all are restarted (pods keep the DNS address they started "
                           "with; a Service's clusterIP cannot be changed, and the stories instead recreated kube-dns "
                           "and restarted every pod at once)",
                       {"svc-recreate-dns", "svc-clusterip-immutable", "svc-dns-tenth"});
    s.needs = {"new-servicecidr-serving"};
    s.makes = {"new-dns-serving"};
    out.file("kube-dns-next.yaml", [&] { return kube_dns_next_yaml(m); });
  }

  // 5. The old range stops allocating.
  {
    auto& s = out.step("mark the default ServiceCIDR for deletion: `kubectl delete servicecidr kubernetes --wait=false`. "
                       "It stays terminating while Services use " + m.from + " but hands out no new addresses, so "
                       "every Service created from now on gets one in " + m.to + ". The upstream page is written for "
                       "1.33; upstream's own migration test runs this order on the alpha and beta APIs too (the kops "
                       "story on 1.29 changed the flag first instead)",
                       {"svc-stop-allocating", "svc-finalizer", "svc-reconfigure-order", "svc-reconfigure-version"});
    s.needs = {"new-servicecidr-serving"};
    s.makes = {"old-range-not-allocating"};
  }

  // 6. Kubelets hand the new DNS address to new pods (kops, k3s and RKE2: with the flags).
  if (m.primary && !kops && !is_k3s(o.type)) {
    std::string text = "point kubelets at the new DNS address " + m.dns + " (clusterDNS): ";
    if (kubeadm) {
      text += "edit the kubelet-config ConfigMap in kube-system (key kubelet; kubelet-config-1.<minor> in older "
              "releases), then on each node `kubeadm upgrade node phase kubelet-config` (it rewrites "
              "/var/lib/kubelet/config.yaml) and restart kubelet, node by node";
    } else {
      text += "in each node's kubelet configuration, then restart kubelet, node by node";
    }
    auto& s = out.step(text, {"kadm-kubelet-cm", "svc-recreate-dns", "svc-dns-tenth"});
    s.needs = {"new-dns-serving"};
    s.makes = {"kubelets-use-new-dns"};
    if (kubeadm) out.file("kubelet-config.yaml", [&] { return kubelet_config_yaml(m.dns); });
  }

  // 7. Services recreated into the new range.
  if (!m.primary) {
    secondary_services_step(o, m, v, "old-range-not-allocating", out);
  } else {
    std::string count = o.service_count ? " (" + std::to_string(*o.service_count) + " Services)" : std::string();
    auto& s = out.step("recreate the ClusterIP Services" + count + " one by one, the ones other workloads call "
                       "first: delete and create each without spec.clusterIP (or with an address in " + m.to + "), "
                       "since a clusterIP cannot be changed; they get addresses in " + m.to + ". Leave headless "
                       "Services (clusterIP: None) alone, and kube-dns and kubernetes.default for later steps",
                       {"svc-clusterip-immutable", "svc-headless", "svc-reconfigure-order"});
    s.needs = {"old-range-not-allocating"};
    s.makes = {"services-recreated"};
  }
  if (m.primary) {
    std::string count = o.load_balancer_count ? std::to_string(*o.load_balancer_count) + " " : std::string();
    auto& s = out.step("recreate the " + count + "LoadBalancer Services too: on AWS the load balancer is not kept, so "
                       "move the DNS records to the new one (the kops story left them in the old range instead, which "
                       "keeps the old ServiceCIDR from being deleted and raises ClusterIPOutOfRange events)",
                       {"svc-lb-recreate", "svc-out-of-range-event", "svc-finalizer"});
    s.needs = {"old-range-not-allocating"};
    s.makes = {"lb-services-recreated"};
  }

  // 8. The flags.
  {
    std::string text = "switch --service-cluster-ip-range to " + m.ranges + " on kube-apiserver and kube-controller-manager";
    if (kubeadm) {
      text += ": set networking.serviceSubnet to " + m.ranges + " in the kubeadm-config ConfigMap" +
              (m.primary ? " (keeping both addresses in apiServer.certSANs)" : "") + ", so that the next `kubeadm upgrade` does not put " + m.from + " back, "
              "and edit kube-apiserver.yaml and kube-controller-manager.yaml in /etc/kubernetes/manifests on each "
              "control-plane node, one node at a time";
    } else if (kops) {
      text += ": set spec.serviceClusterIPRange to " + m.to + " in the kops cluster spec and keep spec.nonMasqueradeCIDR as it is if it still holds podCIDR (" +
              kops_non_masquerade_text(planned, o, v) + "), then `kops update cluster --yes` and "
              "`kops rolling-update cluster --yes`. The roll also gives kubelets the new cluster DNS address " + m.dns +
              ": kops fills kubelet clusterDNS with the tenth address of serviceClusterIPRange when the spec leaves it "
              "empty; if `kops get cluster -o yaml` shows spec.kubelet.clusterDNS set, set it to " + m.dns + " in "
              "the same edit (with NodeLocal DNSCache, kubelets use its local address and need no change)";
    } else if (is_k3s(o.type)) {
      text += ": --service-cidr=" + m.ranges + (m.primary ? " and --cluster-dns=" + m.dns : std::string()) +
              " in the configuration of every server, all servers restarted together (a server whose critical values "
              "differ fails to join)";
    } else {
      text += ", one API server at a time; every kube-apiserver must end with the same value";
    }
    auto& s = out.step(text, {"svc-reconfigure-order", "svc-default-object", "kas-flag-two", "kas-flag-size",
                              "kcm-svc-flag"});
    if (kubeadm) cite(s, {"kadm-config-cm", "kadm-upgrade-reverts", "kadm-manifests"});
    if (kops) cite(s, {"kops-nonmasq-pod", "kops-nonmasq-svc", "kops-nonmasq-network", "kops-cluster-dns"});
    if (is_k3s(o.type)) cite(s, {"k3s-critical"});
    s.needs = {"services-recreated", "lb-services-recreated"};
    if (m.primary) s.needs.push_back("cert-has-both-kubernetes-ips");
    s.makes = {"flags-on-new-range"};
    if (m.primary && (kops || is_k3s(o.type))) {
      cite(s, {"svc-recreate-dns"});
      s.needs.push_back("new-dns-serving");
      s.makes.push_back("kubelets-use-new-dns");
    }
    range_switch_files(out, o, m, kops, kubeadm);
  }

  // 9. kubernetes.default.
  if (m.primary) {
    auto& s = out.step("delete the kubernetes Service in default (`kubectl delete service kubernetes -n default`): it is "
                       "never updated, and kube-apiserver recreates it at " + m.first + ". Check: `kubectl get service "
                       "kubernetes -n default` shows " + m.first,
                       {"svc-kubernetes-svc-sticky", "svc-first-ip"});
    s.needs = {"flags-on-new-range"};
    s.makes = {"kubernetes-service-in-new-range"};
  }

  // 10. Pods restarted: KUBERNETES_SERVICE_HOST and resolv.conf.
  if (!m.primary) {
    secondary_pods_step(out);
  } else {
    auto& s = out.step("restart every pod (`kubectl rollout restart` of each Deployment, StatefulSet and DaemonSet; "
                       "delete bare pods): a container keeps the KUBERNETES_SERVICE_HOST (" + m.old_first + ") and the "
                       "DNS address (" + m.old_dns + ") it started with",
                       {"svc-env-vars", "svc-recreate-dns"});
    s.needs = {"kubernetes-service-in-new-range", "kubelets-use-new-dns", "services-recreated"};
    s.makes = {"pods-use-new-addresses"};
  }

  // 11. kube-dns itself at the new address.
  if (m.primary) {
    auto& s = out.step("move kube-dns to " + m.dns + ": export it (`kubectl -n kube-system get service kube-dns -o "
                       "yaml`), set spec.clusterIP and spec.clusterIPs to " + m.dns + ", then in one command delete "
                       "kube-dns-next and kube-dns and create kube-dns from the edited file (new lookups pause for "
                       "those seconds; no pod uses " + m.old_dns + " any more)",
                       {"svc-clusterip-immutable", "svc-dns-tenth", "svc-recreate-dns"});
    s.needs = {"pods-use-new-addresses"};
    s.makes = {"dns-service-in-new-range"};
  }

  // 12. Dual write off, where the gate exists.
  if (stage == service_cidr_api::ga || stage == service_cidr_api::beta) {
    auto& s = out.step("optionally turn on the DisableAllocatorDualWrite feature gate on kube-apiserver (alpha 1.31, beta "
                       "1.33, stable 1.34): kube-apiserver stops also writing the old bitmap allocator, which is only "
                       "needed while the migration is not complete",
                       {"svc-dual-write", "kas-flag-size"});
    s.needs = {m.primary ? "dns-service-in-new-range" : "pods-use-new-addresses"};
    s.makes = {"dual-write-off"};
  }

  retire_step(o, m, true, out);
}

// Operation service-window: one range at a time, so every Service is recreated
// in a window (seed 000, seed 003).
void window_runbook(const fleet& planned, const owner& o, const service_move& m, ip_version v, runbook_builder& out) {
  const bool kubeadm = o.type == "kubeadm", kops = o.type == "kops";
  {
    std::string text = o.kubernetes ? "Kubernetes " + version_text(o) + " has no ServiceCIDR API"
                                    : std::string("the Kubernetes version is unknown, so no ServiceCIDR API can be assumed");
    text += std::string(" (alpha from 1.29, unclear in 1.27-1.28): kube-apiserver serves one service range per "
                        "family, so the move is a maintenance window in which every Service ") +
            (m.primary ? "is recreated" : "with an address in " + m.from + " gets a new one") +
            " (or upgrade to 1.29 or later first and follow the service-cidr-api runbook). Zendesk avoided the window only with a forked kube-proxy and a patched "
            "kube-apiserver. Before the window, back up etcd and /etc/kubernetes";
    auto& s = out.step(text,
                       {"svc-noapi-window", "svc-noapi-zendesk", "svc-api-1.29", "kadm-flant-order"});
    s.makes = {"backup-taken"};
  }
  if (m.primary) certificate_step(o, m, out);
  {
    std::string text = "window starts: switch --service-cluster-ip-range to " + m.ranges +
                       " on kube-apiserver and kube-controller-manager";
    if (kubeadm) {
      text += std::string(" (networking.serviceSubnet in the kubeadm-config ConfigMap, ") +
              (m.primary ? "keeping both addresses in apiServer.certSANs, " : "") +
              "and the static pod manifests in /etc/kubernetes/manifests)";
    } else if (kops) {
      text += " (spec.serviceClusterIPRange in the kops cluster spec, nonMasqueradeCIDR kept if it still holds podCIDR; " +
              kops_non_masquerade_text(planned, o, v) +
              "; `kops update cluster --yes`, `kops rolling-update cluster --yes`)";
    } else if (is_k3s(o.type)) {
      text += std::string(m.primary ? " (--service-cidr and --cluster-dns" : " (--service-cidr") +
              " on every server at once, since they are critical values that must match; k3s and RKE2 document no "
              "procedure for this, and nothing moves the Services for you)";
    }
    text += ". If Services then fail with \"no free Cluster IPs\", stop kube-controller-manager and delete the "
            "RangeAllocation object of the old range from etcd, as Zendesk did";
    auto& s = out.step(text, {"svc-noapi-window", "kas-flag-two", "kas-flag-size", "svc-rangeallocation"});
    if (kubeadm) cite(s, {"kadm-config-cm", "kadm-upgrade-reverts", "kadm-manifests"});
    if (kops) cite(s, {"kops-nonmasq-pod", "kops-nonmasq-svc", "kops-nonmasq-network"});
    if (is_k3s(o.type)) cite(s, {"k3s-critical", "k3s-no-procedure"});
    s.needs = {"backup-taken"};
    if (m.primary) s.needs.push_back("cert-has-both-kubernetes-ips");
    s.makes = {"flags-on-new-range"};
    range_switch_files(out, o, m, kops, kubeadm);
  }
  if (!m.primary) {
    secondary_services_step(o, m, v, "flags-on-new-range", out);
    secondary_pods_step(out);
    return retire_step(o, m, false, out);
  }
  {
    auto& s = out.step("recreate kube-dns with clusterIP " + m.dns + " first, then delete the kubernetes Service in "
                       "default (kube-apiserver recreates it at " + m.first + "), then every other ClusterIP and "
                       "LoadBalancer Service (a clusterIP cannot be changed; on AWS a recreated LoadBalancer gets a new "
                       "load balancer); leave headless Services alone",
                       {"svc-clusterip-immutable", "svc-kubernetes-svc-sticky", "svc-headless", "svc-lb-recreate",
                        "svc-dns-tenth"});
    s.needs = {"flags-on-new-range"};
    s.makes = {"services-recreated", "dns-service-in-new-range", "kubernetes-service-in-new-range"};
  }
  {
    std::string text = "set kubelet clusterDNS to " + m.dns;
    if (kubeadm) {
      text += " in the kubelet-config ConfigMap, then on each node `kubeadm upgrade node phase kubelet-config` and "
              "restart kubelet";
    } else {
      text += " on every node and restart kubelet";
    }
    auto& s = out.step(text, {"kadm-kubelet-cm", "svc-recreate-dns"});
    s.needs = {"dns-service-in-new-range"};
    s.makes = {"kubelets-use-new-dns"};
    if (kubeadm) out.file("kubelet-config.yaml", [&] { return kubelet_config_yaml(m.dns); });
  }
  {
    auto& s = out.step("restart every pod, so that each gets the new DNS address and KUBERNETES_SERVICE_HOST " +
                           m.first + "; the window ends",
                       {"svc-env-vars", "svc-recreate-dns", "kadm-flant-order"});
    s.needs = {"kubelets-use-new-dns", "kubernetes-service-in-new-range", "services-recreated"};
    s.makes = {"pods-use-new-addresses"};
  }
  retire_step(o, m, false, out);
}

}  // namespace

void services_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  if (c.from == c.to) {
    // Only the DNS address moves back into its range.
    const std::string dns = c.dns_to ? c.dns_to->to_string() : dns_of(c.to);
    const std::string old = c.dns_from ? c.dns_from->to_string() : std::string("the old DNS address");
    auto& a = out.step("recreate the DNS Service (kube-dns) with clusterIP " + dns + " (a clusterIP cannot be changed)",
                       {"svc-clusterip-immutable", "svc-dns-tenth"});
    a.makes = {"dns-service-in-new-range"};
    auto& b = out.step("set kubelet clusterDNS to " + dns + " and restart kubelets node by node", {"kadm-kubelet-cm"});
    b.needs = {"dns-service-in-new-range"};
    b.makes = {"kubelets-use-new-dns"};
    auto& d = out.step("restart every pod: pods keep the DNS address they started with; then verify that no pod's "
                       "/etc/resolv.conf names " + old + " (`kubectl exec POD -- cat /etc/resolv.conf` on a sample)",
                       {"svc-recreate-dns"});
    d.needs = {"kubelets-use-new-dns"};
    d.makes = {"old-range-unused"};
    return;
  }
  if (kops_dual_stack(planned, o, out)) return;
  const auto m = move_of(planned, o, c);
  auto stage = service_cidr_stage(o);
  if (stage == service_cidr_api::none) return window_runbook(planned, o, m, c.to.version(), out);
  api_runbook(planned, o, m, c.to.version(), stage, out);
}

void dual_stack_services_runbook(const fleet& planned, const owner& o, const plan_change& a, const plan_change& b,
                                 runbook_builder& out) {
  if (kops_dual_stack(planned, o, out)) return;
  // The primary family is the fleet's first service range: kubernetes.default
  // and the DNS address live there (svc-first-ip).
  const plan_change* primary = &a;
  for (auto k : o.ranges) {
    const auto& r = planned.ranges[k];
    if (r.role != range_role::services) continue;
    if (r.cidr.version() == b.to.version()) primary = &b;
    break;
  }
  const plan_change& secondary = primary == &a ? b : a;
  const auto m = move_of(planned, o, *primary, &secondary);
  auto stage = service_cidr_stage(o);
  if (stage == service_cidr_api::none) return window_runbook(planned, o, m, primary->to.version(), out);
  api_runbook(planned, o, m, primary->to.version(), stage, out);
}

void services_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string to = c.to.to_string();
  const bool v6 = c.to.version() == ip_version::v6;
  const std::string dns = dns_of(c.to);
  if (o.type == "eks") {
    out.step("create " + o.name + " with kubernetesNetworkConfig." +
                 (v6 ? std::string("ipFamily=ipv6 (EKS picks the IPv6 service range itself)") : "serviceIpv4Cidr=" + to) +
                 "; it cannot be changed later",
             {"eks-svc-fixed"});
  } else if (o.type == "gke") {
    out.step("create " + o.name + " with --services-ipv4-cidr=" + to + " (unverified: that it cannot be changed later "
             "rests on a secondary source)",
             {"gke-svc-fixed"});
  } else if (o.type == "aks") {
    out.step("create " + o.name + " with --service-cidr " + to + " --dns-service-ip " + dns + "; it cannot be changed "
             "later, and no VNet subnet may be added inside it (upgrades fail)",
             {"aks-svc-fixed", "aks-svc-overlap-upgrade", "svc-dns-tenth"});
  } else if (o.type == "openshift") {
    out.step("set networking.serviceNetwork to [" + to + "] in install-config.yaml before installing " + o.name +
                 "; it cannot be changed after installation",
             {"ocp-svc-fixed"});
  } else if (o.type == "kops") {
    out.step("set spec.serviceClusterIPRange to " + to + " before `kops update cluster` creates the cluster; " +
                 kops_non_masquerade_text(planned, o, c.to.version()),
             {"kops-nonmasq-pod", "kops-nonmasq-svc", "kops-nonmasq-network"});
  } else if (o.type == "kubeadm") {
    out.step("run kubeadm init with --service-cidr=" + to + " (networking.serviceSubnet, at most 20 host bits and at "
             "least 10 addresses); cluster DNS becomes " + dns,
             {"kadm-config-cm", "kadm-svc-size", "svc-dns-tenth"});
  } else if (is_k3s(o.type)) {
    out.step("start every server of " + o.name + " with --service-cidr=" + to + " and --cluster-dns=" + dns +
                 " (critical values: all servers must match)",
             {"k3s-critical"});
  } else {
    out.step("start kube-apiserver and kube-controller-manager with --service-cluster-ip-range=" + to +
                 " and set kubelet clusterDNS to " + dns,
             {"kas-flag-two", "kas-flag-size", "svc-dns-tenth"});
  }
}

}  // namespace cidrcheck::detail
