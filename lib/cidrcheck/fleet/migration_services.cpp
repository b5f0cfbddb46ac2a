// Runbooks that move or create a cluster's service range.

#include "migration.hpp"

#include <string>

namespace cidrcheck::detail {

namespace {

enum class service_cidr_api { none, alpha, beta, ga };

// Which ServiceCIDR API a cluster's Kubernetes serves (svc-gate-alpha-1.27, svc-beta-1.31, svc-ga-1.33).
auto service_cidr_stage(const owner& o) -> service_cidr_api {
  if (!o.kubernetes || *o.kubernetes < kube_version{1, 27}) return service_cidr_api::none;
  if (*o.kubernetes < kube_version{1, 31}) return service_cidr_api::alpha;
  if (*o.kubernetes < kube_version{1, 33}) return service_cidr_api::beta;
  return service_cidr_api::ga;
}

auto fixed_service_range_fact(const std::string& distribution) -> std::string_view {
  if (distribution == "gke") return "gke-svc-fixed";
  if (distribution == "aks") return "aks-svc-fixed";
  return "eks-svc-fixed";
}

}  // namespace

void services_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  std::string dns = c.dns_to ? c.dns_to->to_string() : dns_of(c.to);
  std::string first = c.to.network().next().to_string();
  if (c.from == c.to) {
    out.step("set the cluster DNS address to " + dns + " (kubelet clusterDNS and the kube-dns Service's "
             "clusterIP), then restart kubelets node by node",
             {"svc-dns-tenth"});
    return;
  }
  if (is_managed(o.type)) {
    out.step("the service range of a " + o.type + " cluster is fixed at creation: create a replacement "
             "cluster with service range " + to + ", move workloads to it (blue/green) and retire " + o.name,
             {fixed_service_range_fact(o.type)});
    return;
  }
  switch (service_cidr_stage(o)) {
    case service_cidr_api::ga:
      out.step("create a ServiceCIDR object (networking.k8s.io/v1) for " + to +
                   " so that new Services can be given addresses in it",
               {"svc-ga-1.33"});
      break;
    case service_cidr_api::beta:
      out.step("enable the MultiCIDRServiceAllocator feature gate and networking.k8s.io/v1beta1 "
               "(--runtime-config) on kube-apiserver, then create a ServiceCIDR object (networking.k8s.io/v1beta1) for " + to,
               {"svc-beta-1.31"});
      break;
    case service_cidr_api::alpha:
      out.step("enable the MultiCIDRServiceAllocator feature gate and networking.k8s.io/v1alpha1 "
               "(--runtime-config=networking.k8s.io/v1alpha1=true) on kube-apiserver, then create a ServiceCIDR "
               "object (networking.k8s.io/v1alpha1) for " + to,
               {"svc-gate-alpha-1.27", "svc-alpha-1.29"});
      break;
    case service_cidr_api::none:
      out.step(std::string("Kubernetes ") + (o.kubernetes ? "1." + std::to_string(o.kubernetes->minor) : "of unknown version") +
                   " has no ServiceCIDR API (alpha from 1.27, beta from 1.31, GA from 1.33): plan a "
                   "maintenance window in which every Service is recreated at once, or upgrade first",
               {"svc-gate-alpha-1.27", "svc-ga-1.33"});
      break;
  }
  out.step("add " + first + " (the new kubernetes.default address) to the API server certificate's "
           "subject alternative names and roll the API servers",
           {"svc-first-ip"});
  if (o.type == "kubeadm") {
    out.step("set networking.serviceSubnet to " + to + " and add " + first +
             " to apiServer.certSANs in the kubeadm ClusterConfiguration, then regenerate the API server "
             "certificate (kubeadm init phase certs apiserver)");
  } else if (o.type == "kops") {
    out.step("set spec.serviceClusterIPRange to " + to + " and spec.nonMasqueradeCIDR to " +
                 non_masquerade(planned, o, c.to.version()) +
                 ", then kops update cluster --yes and kops rolling-update cluster --yes",
             {"kops-nonmasq-pod"});
  }
  out.step("change --service-cluster-ip-range on kube-apiserver and kube-controller-manager to " + to,
           {"kas-flag-size"});
  out.step("create the DNS Service anew with clusterIP " + dns + ", set kubelet clusterDNS to " + dns +
               " and restart kubelets node by node, so that new pods resolve through it",
           {"svc-dns-tenth", "svc-clusterip-immutable"});
  out.step("recreate the ClusterIP Services (delete and create; the clusterIP is immutable), the ones "
           "other workloads call first; leave headless Services alone",
           {"svc-clusterip-immutable", "svc-headless"});
  out.step("recreate LoadBalancer Services last, with their external address reserved and set, since "
           "clients reach them from outside by that address",
           {"svc-lb-recreate"});
  out.step("delete the kubernetes Service in the default namespace so that kube-apiserver recreates it "
           "at " + first + ", then remove the old range " + from + " (its ServiceCIDR object, if any, once "
           "no address of it is in use)",
           {"svc-first-ip"});
}

void services_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string to = c.to.to_string();
  const bool v6 = c.to.version() == ip_version::v6;
  const std::string dns = dns_of(c.to);
  if (o.type == "eks") {
    out.step("create " + o.name + " with kubernetesNetworkConfig." +
                 (v6 ? std::string("ipFamily=ipv6 (EKS picks the IPv6 service range itself)") : "serviceIpv4Cidr=" + to),
             {"eks-svc-fixed"});
  } else if (o.type == "gke") {
    out.step("create " + o.name + " with --services-ipv4-cidr=" + to, {"gke-svc-fixed"});
  } else if (o.type == "aks") {
    out.step("create " + o.name + " with --service-cidr " + to + " --dns-service-ip " + dns,
             {"aks-svc-fixed", "svc-dns-tenth"});
  } else if (o.type == "kops") {
    out.step("set spec.serviceClusterIPRange to " + to + " and spec.nonMasqueradeCIDR to " +
                 non_masquerade(planned, o, c.to.version()) + " before kops update cluster creates it",
             {"kops-nonmasq-pod"});
  } else if (o.type == "kubeadm") {
    out.step("run kubeadm init with --service-cidr=" + to + " (networking.serviceSubnet); cluster DNS becomes " + dns,
             {"kadm-config-cm", "svc-dns-tenth"});
  } else {
    out.step("start kube-apiserver and kube-controller-manager with --service-cluster-ip-range=" + to +
                 " and set kubelet clusterDNS to " + dns,
             {"kas-flag-size", "svc-dns-tenth"});
  }
}

}  // namespace cidrcheck::detail
