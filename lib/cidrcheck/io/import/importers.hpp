#pragma once
// The importers, one per kind: aws.cpp, gcp.cpp, azure.cpp, kops.cpp,
// kubeadm.cpp, kubectl.cpp, terraform.cpp, terraform_plan.cpp (both through
// terraform_resources.hpp; the plan's configuration in terraform_configuration.hpp), tailscale.cpp, kubectl_services.cpp,
// kubeadm_config.cpp, cilium.cpp, netbox.cpp and netbox_csv.cpp (both through
// netbox_prefixes.hpp), aws_subnets.cpp, azure_vnets.cpp (also azure-peerings),
// aws_connections.cpp (aws-peerings, aws-tgw, aws-route-tables), gcp.cpp (also
// gcp-peerings), istio.cpp; cni_settings.cpp
// turns the CNI and kube-proxy settings of exports into the fleet's words. Each reads every
// document of its file into `out` and reports what it cannot read where it is.

#include "../../fleet/imported.hpp"
#include "source_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

void import_aws_vpcs(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_aws_eks(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_gke(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_gcp_subnets(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_aks(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_kops(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_kubeadm(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_kubectl(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_terraform(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_terraform_plan(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_tailscale(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_kubectl_services(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_kubeadm_config(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_cilium(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_netbox(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
/// Reads NetBox's CSV export of prefixes (not YAML, so no source_reader):
/// errors go to `diagnostics`, at most max_errors of them counting those there.
void import_netbox_csv(std::string_view text, const std::string& file, std::size_t max_errors,
                       std::vector<diagnostic>& diagnostics, import_result& out);
void import_aws_subnets(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_azure_vnets(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_aws_peerings(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_aws_tgw(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_aws_route_tables(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_gcp_peerings(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_azure_peerings(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);
void import_istio(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out);

/// Reads a kubeadm ClusterConfiguration (v1beta2 to v1beta4) into a new
/// cluster of `out`: its name, version, pod and service subnets and the
/// component flags that override them. Shared by kubeadm and kubeadm-config.
auto read_cluster_configuration(source_reader& in, const source_reader::object& config, import_result& out)
    -> imported_owner&;

/// Parses the YAML text of a string value (a ConfigMap's data entry) as
/// documents of their own and calls read(inner, roots) on them. Positions map
/// back onto the outer file: exactly for a block scalar (`|`, as kubectl
/// prints multi-line strings), to the string's start otherwise; syntax errors
/// are reported there, prefixed "in WHAT: ", and read is not called. Shared by
/// kubeadm-config (its ClusterConfiguration) and kubectl (kube-proxy's configuration).
void read_embedded(source_reader& in, std::uint32_t data, std::string_view what,
                   const std::function<void(source_reader&, const std::vector<std::uint32_t>&)>& read);

/// The name a GCP VPC network has, "PROJECT/NETWORK", from its resource path
/// or URL (".../projects/P/global/networks/N"); "" if the text is no such
/// path. Its subnets are part of it (imported_owner::part_of), and an
/// auto-mode network is an owner of that name. Shared by gcloud and Terraform.
auto gcp_network_name(std::string_view path) -> std::string;

/// The name a GCP subnet has as an owner, "PROJECT/REGION/NAME", from its
/// resource path or URL (".../projects/P/regions/R/subnetworks/N"); "" if the
/// text is no such path. Shared by the gcloud and Terraform importers and GKE's link.
auto gcp_subnet_name(std::string_view path) -> std::string;

/// The name a GCP VPC network has as an owner, "PROJECT/NAME" (as the
/// Terraform importer names a google_compute_network), from its resource path
/// or URL (".../projects/P/global/networks/N"), or from a bare network name and
/// the project; "" when neither gives a project and a name. Shared by GKE's
/// network (where the cluster runs) in the gcloud and Terraform importers.
auto gcp_network_name(std::string_view path, std::string_view project) -> std::string;

/// Reports whether an AWS CIDR block association state is one whose block is
/// in use: the API's states are associating, associated, disassociating,
/// disassociated, failing and failed (older CLI versions print them in
/// capitals); no state counts as in use. Shared by aws-vpcs and aws-subnets.
auto aws_block_in_use(const std::optional<std::string>& state) -> bool;

/// Returns a cluster's pool_encapsulation word for a Calico IPPool's ipipMode
/// and vxlanMode, or nullopt (with a note) for a mode Calico does not have or both on.
auto calico_pool_encapsulation(source_reader& in, std::optional<std::uint32_t> ipip, std::optional<std::uint32_t> vxlan)
    -> std::optional<std::string>;
/// The same for the Calico operator's IPPool `encapsulation` (IPIP, ...,
/// None); absent is nullopt without a note (the operator's default is its own).
auto calico_operator_encapsulation(source_reader& in, std::optional<std::uint32_t> value) -> std::optional<std::string>;
/// Returns Cilium's routing mode from cilium-config's `routing-mode`, else
/// from the `tunnel` key of Cilium 1.14 and before; nullopt when neither says
/// (a value Cilium does not have is noted).
auto cilium_routing_mode(source_reader& in, std::optional<std::uint32_t> routing_mode,
                         std::optional<std::uint32_t> tunnel) -> std::optional<std::string>;
/// Returns a KubeProxyConfiguration's `mode`, or nullopt when empty or absent
/// (kube-proxy's default) or not a mode (noted).
auto kube_proxy_mode(source_reader& in, std::optional<std::uint32_t> mode) -> std::optional<std::string>;
/// Keeps the first value of a cluster setting read at several places (several
/// pools); a later different value is noted at `at` and the setting cleared:
/// the cluster has no one value.
void keep_setting(source_reader& in, std::string& kept, std::optional<source_location>& kept_at,
                  const std::optional<std::string>& value, std::uint32_t at, std::string_view what);

/// The name an Azure virtual network has as an owner, "group/name" in lower
/// case, from a resource ID of it or of one of its subnets; "" if the ID names
/// none. Shared by the AKS, Terraform and azure-vnets importers.
auto azure_vnet_name(std::string_view id) -> std::string;

}  // namespace cidrcheck::detail
