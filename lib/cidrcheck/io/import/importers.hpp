#pragma once
// The importers, one per kind: aws.cpp, gcp.cpp, azure.cpp, kops.cpp,
// kubeadm.cpp, kubectl.cpp, terraform.cpp, terraform_plan.cpp (both through
// terraform_resources.hpp), tailscale.cpp, kubectl_services.cpp,
// kubeadm_config.cpp, cilium.cpp. Each reads every
// document of its file into `out` and reports what it cannot read where it is.

#include "../../fleet/imported.hpp"
#include "source_reader.hpp"

#include <cstdint>
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

/// Reads a kubeadm ClusterConfiguration (v1beta2 to v1beta4) into a new
/// cluster of `out`: its name, version, pod and service subnets and the
/// component flags that override them. Shared by kubeadm and kubeadm-config.
auto read_cluster_configuration(source_reader& in, const source_reader::object& config, import_result& out)
    -> imported_owner&;

/// The name a GCP subnet has as an owner, "PROJECT/REGION/NAME", from its
/// resource path or URL (".../projects/P/regions/R/subnetworks/N"); "" if the
/// text is no such path. Shared by the gcloud and Terraform importers and GKE's link.
auto gcp_subnet_name(std::string_view path) -> std::string;

/// The name an Azure virtual network has as an owner, "group/name" in lower
/// case, from a resource ID of it or of one of its subnets; "" if the ID names
/// none. Shared by the AKS and Terraform importers.
auto azure_vnet_name(std::string_view id) -> std::string;

}  // namespace cidrcheck::detail
