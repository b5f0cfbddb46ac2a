#pragma once
// The importers, one per kind: aws.cpp, gcp.cpp, azure.cpp, kops.cpp,
// kubeadm.cpp, kubectl.cpp, terraform.cpp, terraform_plan.cpp (both through
// terraform_resources.hpp; the plan's configuration in terraform_configuration.hpp), tailscale.cpp, kubectl_services.cpp,
// kubeadm_config.cpp, cilium.cpp, netbox.cpp and netbox_csv.cpp (both through
// netbox_prefixes.hpp), aws_subnets.cpp, azure_vnets.cpp. Each reads every
// document of its file into `out` and reports what it cannot read where it is.

#include "../../fleet/imported.hpp"
#include "source_reader.hpp"

#include <cstddef>
#include <cstdint>
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

/// Reads a kubeadm ClusterConfiguration (v1beta2 to v1beta4) into a new
/// cluster of `out`: its name, version, pod and service subnets and the
/// component flags that override them. Shared by kubeadm and kubeadm-config.
auto read_cluster_configuration(source_reader& in, const source_reader::object& config, import_result& out)
    -> imported_owner&;

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

/// The name an Azure virtual network has as an owner, "group/name" in lower
/// case, from a resource ID of it or of one of its subnets; "" if the ID names
/// none. Shared by the AKS, Terraform and azure-vnets importers.
auto azure_vnet_name(std::string_view id) -> std::string;

}  // namespace cidrcheck::detail
