#pragma once
// Importers: the files other tools export (cloud CLI output, installer
// configs, Kubernetes objects, Terraform state, a Tailscale policy), read as
// fleet sources. cidrcheck never calls an API; it reads what the user exported.
// fleet_loader::add_source() and add_import() read them (see fleet_loader.hpp).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cidrcheck {

/// A kind of exported file cidrcheck reads.
enum class import_kind : std::uint8_t {
  aws_vpcs,     ///< aws ec2 describe-vpcs
  aws_eks,      ///< aws eks describe-cluster
  gke,          ///< gcloud container clusters describe|list --format=json
  gcp_subnets,  ///< gcloud compute networks subnets describe|list --format=json
  aks,          ///< az aks show|list
  kops,         ///< kops get cluster -o yaml (as written, or completed with --full)
  kubeadm,      ///< a kubeadm configuration file (ClusterConfiguration and friends)
  kubectl,      ///< kubectl get -o yaml|json: Nodes, ServiceCIDRs, Calico IPPools
  terraform,    ///< a Terraform state file, version 4 (terraform state pull)
  tailscale,    ///< a Tailscale policy file (HuJSON)
  terraform_plan,  ///< a Terraform plan as terraform show -json PLANFILE prints it
  kubectl_services,  ///< kubectl get services -A -o json: Service counts and cluster IPs
  kubeadm_config,    ///< the kubeadm-config ConfigMap (kubectl -n kube-system get configmap kubeadm-config -o yaml)
  cilium,            ///< Cilium's CiliumPodIPPools and the cilium-config ConfigMap's cluster-pool settings
  netbox,            ///< NetBox's /api/ipam/prefixes/ (JSON): one page, or every page of an export
  netbox_csv,        ///< NetBox's CSV export of the prefix list
  aws_subnets,       ///< aws ec2 describe-subnets: subnets, grouped by VPC
  azure_vnets,       ///< az network vnet list|show: virtual networks, their subnets and peerings
  aws_peerings,      ///< aws ec2 describe-vpc-peering-connections: active peerings as connections
  aws_tgw,           ///< aws ec2 describe-transit-gateway-attachments, -route-tables, search-transit-gateway-routes
  aws_route_tables,  ///< aws ec2 describe-route-tables: routes toward peerings, transit and VPN gateways
  gcp_peerings,      ///< gcloud compute networks peerings list --format=json: ACTIVE peerings as connections
  azure_peerings,    ///< az network vnet peering list: one network's Connected peerings
  istio,             ///< Istio remote secrets (istioctl create-remote-secret): mesh connections
};

/// What the command line and the docs say about a kind.
struct import_kind_info {
  import_kind kind;
  std::string_view name;     ///< as written in KIND:FILE, "aws-vpcs"
  std::string_view command;  ///< the command that exports it
  std::string_view summary;  ///< what cidrcheck reads from it, one line
};

/// Returns every kind, in the order the docs list them.
auto import_kinds() noexcept -> std::span<const import_kind_info>;

/// Returns the description of a kind.
auto info(import_kind kind) noexcept -> const import_kind_info&;

/// Returns the kind with this name ("aws-vpcs"), or nullopt.
auto find_import_kind(std::string_view name) noexcept -> std::optional<import_kind>;

/// Reports whether a kind's exports leave the cluster unnamed, so that the
/// cluster is named after the file unless the source names it ("KIND=NAME:PATH").
auto names_cluster_after_file(import_kind kind) noexcept -> bool;

/// Reports whether NAME in "KIND=NAME:PATH" names a transit gateway route
/// table for a kind: aws-tgw, whose `search-transit-gateway-routes` output does
/// not say which table it searched.
auto names_route_table(import_kind kind) noexcept -> bool;

/// A fleet source as the command line names it: "KIND:PATH" imports PATH as
/// KIND; anything else is a fleet file. "-" (or "KIND:-") is standard input.
struct source_spec {
  std::optional<import_kind> kind;  ///< nullopt: a fleet file
  std::string path;
  /// "KIND=NAME:PATH": the cluster's name, for the kinds whose exports name
  /// none (see names_cluster_after_file()); empty when the spec gives none.
  std::string cluster;
  /// The text before the first ':' when it looks like a kind's name (lowercase
  /// letters, digits, '-') but names none ("aws-vpc" in "aws-vpc:x.json"): the
  /// spec is read as a path, and if no such file exists the error suggests the
  /// closest kind.
  std::string unknown_kind;
};

/// Splits a source spec. A spec whose text before the first ':' is a kind's
/// name, or a kind's name, '=' and a cluster name ("kubectl=dc1:pools.yaml"),
/// is an import; any other spec is a path (so "./aws-vpcs:x" reads a fleet
/// file of that name).
auto parse_source_spec(std::string_view spec) -> source_spec;

}  // namespace cidrcheck
