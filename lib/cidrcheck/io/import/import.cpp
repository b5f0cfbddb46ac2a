#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/import.hpp>

#include "../yaml_reader.hpp"
#include "importers.hpp"
#include "read_import.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <tuple>

namespace cidrcheck {

namespace {

constexpr std::array<import_kind_info, 24> kinds{{
    {import_kind::aws_vpcs, "aws-vpcs", "aws ec2 describe-vpcs",
     "the CIDR blocks of each VPC, IPv4 and IPv6, that are associated"},
    {import_kind::aws_eks, "aws-eks", "aws eks describe-cluster --name NAME",
     "the service range, the VPC, hybrid node and pod networks"},
    {import_kind::gke, "gke", "gcloud container clusters describe NAME --format=json",
     "the pod, service and control-plane ranges, the node mask, the subnet"},
    {import_kind::gcp_subnets, "gcp-subnets", "gcloud compute networks subnets list --format=json",
     "each subnet's primary, secondary and IPv6 ranges"},
    {import_kind::aks, "aks", "az aks show --resource-group GROUP --name NAME",
     "the pod and service ranges, the DNS address, the node count and subnet"},
    {import_kind::kops, "kops", "kops get cluster NAME -o yaml",
     "the network, pod and service ranges, the subnets, the DNS address"},
    {import_kind::kubeadm, "kubeadm", "the file given to kubeadm init --config",
     "the pod and service subnets, the DNS address, the node mask"},
    {import_kind::kubectl, "kubectl", "kubectl get nodes,servicecidrs -o yaml",
     "Nodes' pod CIDRs, ServiceCIDR objects, Calico IPPools and Installation"},
    {import_kind::terraform, "terraform", "terraform state pull",
     "AWS, GCP and Azure networks and subnets, EKS, GKE and AKS clusters"},
    {import_kind::tailscale, "tailscale", "the tailnet policy file (HuJSON)",
     "the subnet routes: autoApprovers, hosts, ACL and grant destinations"},
    {import_kind::terraform_plan, "terraform-plan", "terraform show -json PLANFILE",
     "the same resources as they will be after apply; values known only after apply are noted"},
      {import_kind::kubectl_services, "kubectl-services", "kubectl get services -A -o json",
     "how many Services have a cluster IP and how many are LoadBalancers; cluster IPs outside the service range"},
    {import_kind::kubeadm_config, "kubeadm-config", "kubectl -n kube-system get configmap kubeadm-config -o yaml",
     "the pod and service subnets and Kubernetes version of the ClusterConfiguration inside"},
    {import_kind::cilium, "cilium", "kubectl get ciliumpodippools -o yaml, kubectl -n kube-system get configmap cilium-config -o yaml",
     "CiliumPodIPPool CIDRs and mask sizes, cilium-config's cluster-pool ranges and mask sizes"},
    {import_kind::netbox, "netbox", "GET /api/ipam/prefixes/ of NetBox's REST API, every page in one file",
     "each prefix not inside another of its VRF, as a network; the prefixes inside, duplicates, status and role"},
    {import_kind::netbox_csv, "netbox-csv", "NetBox's prefix list: Export, All data (CSV)",
     "the same as netbox, from the prefix list's CSV export"},
    {import_kind::aws_subnets, "aws-subnets", "aws ec2 describe-subnets",
     "each subnet's IPv4 and associated IPv6 blocks, as ranges inside its VPC"},
    {import_kind::azure_vnets, "azure-vnets", "az network vnet list",
     "each virtual network's address space and subnets; Connected peerings as connections"},
    {import_kind::aws_peerings, "aws-peerings", "aws ec2 describe-vpc-peering-connections",
     "active VPC peerings as connections, each VPC with the CIDR blocks the peering lists"},
    {import_kind::aws_tgw, "aws-tgw",
     "aws ec2 describe-transit-gateway-attachments (with describe-transit-gateway-route-tables, "
     "search-transit-gateway-routes)",
     "each transit gateway route table as a connection of the attachments it serves and routes to"},
    {import_kind::aws_route_tables, "aws-route-tables", "aws ec2 describe-route-tables",
     "each VPC's routes toward a peering, transit gateway or VPN gateway"},
    {import_kind::gcp_peerings, "gcp-peerings", "gcloud compute networks peerings list --format=json",
     "ACTIVE VPC Network Peerings as connections of the two networks' subnets"},
    {import_kind::azure_peerings, "azure-peerings", "az network vnet peering list --resource-group GROUP --vnet-name NAME",
     "a virtual network's Connected peerings as connections"},
    {import_kind::istio, "istio", "istioctl create-remote-secret --name NAME",
     "the mesh the remote secrets make: a connection of the cluster they are applied to and each remote cluster"},
}};

using importer = void (*)(detail::source_reader&, const std::vector<std::uint32_t>&, detail::import_result&);

// Indexed by import_kind, like `kinds`.
constexpr std::array<importer, 24> importers{{
    detail::import_aws_vpcs,
    detail::import_aws_eks,
    detail::import_gke,
    detail::import_gcp_subnets,
    detail::import_aks,
    detail::import_kops,
    detail::import_kubeadm,
    detail::import_kubectl,
    detail::import_terraform,
    detail::import_tailscale,
    detail::import_terraform_plan,
    detail::import_kubectl_services,
    detail::import_kubeadm_config,
    detail::import_cilium,
    detail::import_netbox,
    nullptr,  // netbox-csv: CSV, not YAML; read_import() reads it with import_netbox_csv()
    detail::import_aws_subnets,
    detail::import_azure_vnets,
    detail::import_aws_peerings,
    detail::import_aws_tgw,
    detail::import_aws_route_tables,
    detail::import_gcp_peerings,
    detail::import_azure_peerings,
    detail::import_istio,
}};

auto is_kind_word(std::string_view word) -> bool {
  if (word.size() < 2) return false;
  for (char c : word) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

// Returns the 1-based line and column of a byte offset.
auto position_of(std::string_view text, std::size_t offset) -> std::pair<std::uint32_t, std::uint32_t> {
  std::uint32_t line = 1, column = 1;
  for (std::size_t k = 0; k < offset && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace

auto import_kinds() noexcept -> std::span<const import_kind_info> { return kinds; }

auto info(import_kind kind) noexcept -> const import_kind_info& { return kinds[static_cast<std::size_t>(kind)]; }

auto find_import_kind(std::string_view name) noexcept -> std::optional<import_kind> {
  for (const auto& k : kinds) {
    if (k.name == name) return k.kind;
  }
  return std::nullopt;
}

auto names_cluster_after_file(import_kind kind) noexcept -> bool {
  return kind == import_kind::kubectl || kind == import_kind::kubeadm || kind == import_kind::kubectl_services ||
         kind == import_kind::kubeadm_config || kind == import_kind::cilium || kind == import_kind::istio;
}

auto names_route_table(import_kind kind) noexcept -> bool { return kind == import_kind::aws_tgw; }

auto parse_source_spec(std::string_view spec) -> source_spec {
  source_spec out;
  auto colon = spec.find(':');
  if (colon != std::string_view::npos) {
    auto word = spec.substr(0, colon);
    auto eq = word.find('=');
    if (auto kind = find_import_kind(word.substr(0, eq)); kind && (eq == std::string_view::npos || eq + 1 < word.size())) {
      out.kind = kind;
      if (eq != std::string_view::npos) out.cluster = std::string(word.substr(eq + 1));
      out.path = std::string(spec.substr(colon + 1));
      return out;
    }
    if (is_kind_word(word)) out.unknown_kind = std::string(word);
  }
  out.path = std::string(spec);
  return out;
}

namespace detail {

auto looks_like_json(std::string_view text) -> bool {
  std::size_t k = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (k < text.size()) {
    char c = text[k];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++k;
    } else if (text.substr(k, 2) == "//") {
      k = text.find('\n', k);
      if (k == std::string_view::npos) return false;
    } else if (text.substr(k, 2) == "/*") {
      k = text.find("*/", k + 2);
      if (k == std::string_view::npos) return false;
      k += 2;
    } else {
      return c == '{' || c == '[';
    }
  }
  return false;
}

auto may_need_mending(std::string_view text, bool hujson) -> bool {
  // What prepare_json() rewrites starts with one of these, wherever it is.
  constexpr std::string_view starts[] = {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9", "\\ud", "\\uD"};
  if (hujson && text.find('/') != std::string_view::npos) return true;
  return std::any_of(std::begin(starts), std::end(starts),
                     [&](std::string_view start) { return text.find(start) != std::string_view::npos; });
}

auto prepare_json(std::string& text, bool hujson) -> std::optional<std::size_t> {
  auto hex = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  };
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) {
      if (text[k] != '\n' && text[k] != '\r') text[k] = ' ';
    }
  };
  std::size_t k = 0;
  while (k < text.size()) {
    char c = text[k];
    if (c == '"') {
      // A string: skip to its closing quote, mending surrogate escapes on the way.
      for (++k; k < text.size() && text[k] != '"' && text[k] != '\n'; ++k) {
        if (text.compare(k, 2, "\xC2\x85") == 0) {
          text.replace(k, 2, "\\N");  // NEL, which YAML counts as a line break; \N is its escape
          ++k;
          continue;
        }
        if (text.compare(k, 3, "\xE2\x80\xA8") == 0 || text.compare(k, 3, "\xE2\x80\xA9") == 0) {
          text.replace(k, 3, "\xEF\xBF\xBD");  // U+2028, U+2029: line breaks to YAML, and no 3-byte escape
          k += 2;
          continue;
        }
        if (text[k] != '\\') continue;
        if (k + 5 < text.size() && text[k + 1] == 'u' && (text[k + 2] == 'd' || text[k + 2] == 'D') &&
            std::string_view("89abcdefABCDEF").find(text[k + 3]) != std::string_view::npos && hex(text[k + 4]) &&
            hex(text[k + 5])) {
          text.replace(k + 2, 4, "FFFD");
          k += 5;
        } else {
          ++k;  // the escaped character
        }
      }
      ++k;
    } else if (hujson && c == '/' && k + 1 < text.size() && text[k + 1] == '/') {
      auto end = text.find('\n', k);
      if (end == std::string::npos) end = text.size();
      blank(k, end);
      k = end;
    } else if (hujson && c == '/' && k + 1 < text.size() && text[k + 1] == '*') {
      auto end = text.find("*/", k + 2);
      if (end == std::string::npos) return k;
      blank(k, end + 2);
      k = end + 2;
    } else {
      ++k;
    }
  }
  return std::nullopt;
}

auto read_import(import_kind kind, std::string_view input, const std::string& name, const yaml_limits& limits,
                 std::size_t visit_budget, std::vector<diagnostic>& diagnostics, const std::string& cluster)
    -> import_result {
  import_result out;
  auto first_new = diagnostics.size();
  if (!cluster.empty() && !names_cluster_after_file(kind) && !names_route_table(kind)) {
    diagnostics.push_back({severity::error, diag::usage,
                           "'" + std::string(info(kind).name) + "=" + cluster + ":' names a cluster, but " +
                               std::string(info(kind).name) +
                               " exports name their own: only the kinds of Kubernetes objects, kubeadm files and Istio "
                               "remote secrets take a name (and aws-tgw, the route table its routes are of)",
                           {name, 0, 0}, {}});
    return out;
  }
  std::string_view text = input;
  bool csv = kind == import_kind::netbox_csv;
  // HuJSON (a Tailscale policy) is JSON to looks_like_json(); the tailscale
  // kind's YAML documents (Connectors, Headscale's configuration) are not.
  bool json = !csv && looks_like_json(text);
  bool hujson = kind == import_kind::tailscale;
  std::string mended;  // a copy of the text, only where prepare_json() may change it (rarely: exports are large)
  if (json && may_need_mending(input, hujson)) {
    mended = input;
    text = mended;
    if (auto open = prepare_json(mended, hujson)) {
      auto [line, column] = position_of(text, *open);
      diagnostics.push_back({severity::error, diag::json_syntax, "invalid HuJSON: a /* comment that never ends",
                             {name, line, column}, {}});
    }
  }
  if (csv) {
    if (text.find_first_not_of(" \t\r\n", text.starts_with("\xEF\xBB\xBF") ? 3 : 0) == std::string::npos) {
      diagnostics.push_back({severity::error, diag::empty_input, "the file is empty", {name, 0, 0}, {}});
    } else {
      import_netbox_csv(text, name, limits.max_errors, diagnostics, out);
    }
  } else if (diagnostics.size() == first_new) {
    auto doc = parse_yaml(text, name, limits, diagnostics);
    if (diagnostics.size() > first_new) {
      // A syntax error: say which language, and whether the file simply stops.
      auto& d = diagnostics.back();
      if (json) {
        // JSON is all flow style, where YAML allows tabs: that hint never applies.
        if (d.message.starts_with("invalid YAML")) d.message.replace(8, 4, "JSON");
        constexpr std::string_view tabs = " (YAML does not allow tabs for indentation)";
        if (d.message.ends_with(tabs)) d.message.resize(d.message.size() - tabs.size());
      }
      auto last = text.find_last_not_of(" \t\r\n");
      auto [line, column] = position_of(text, last == std::string::npos ? 0 : last);
      if (std::tie(d.where.line, d.where.column) > std::tie(line, column)) {
        d.message += " (the file ends before the document does: is it truncated?)";
      }
    } else if (doc.roots.empty()) {
      diagnostics.push_back({severity::error, diag::empty_input, "the file is empty", {name, 0, 0}, {}});
    } else {
      yaml_reader r(doc, name, diagnostics, visit_budget, limits.max_errors);
      source_reader in(r, kind, name, cluster);
      in.set_input({text, limits, visit_budget, &diagnostics});
      importers[static_cast<std::size_t>(kind)](in, doc.roots, out);
    }
  }
  bool errors = std::any_of(diagnostics.begin() + static_cast<std::ptrdiff_t>(first_new), diagnostics.end(),
                            [](const diagnostic& d) { return d.level == severity::error; });
  if (out.owners.empty() && out.connections.empty() && !errors) {
    diagnostics.push_back({severity::warning, diag::import_empty, "the file lists nothing cidrcheck reads",
                           {name, 0, 0}, {}});
  }
  // An alias walked several times reports one problem as often: once is enough.
  std::set<std::pair<std::string, std::string>> seen;
  auto repeated = [&](const diagnostic& d) { return !seen.emplace(to_string(d.where), d.message).second; };
  diagnostics.erase(std::remove_if(diagnostics.begin() + static_cast<std::ptrdiff_t>(first_new), diagnostics.end(),
                                   repeated),
                    diagnostics.end());
  for (auto k = first_new; k < diagnostics.size(); ++k) {
    diagnostics[k].message = std::string(info(kind).name) + ": " + diagnostics[k].message;
  }
  return out;
}

}  // namespace detail

}  // namespace cidrcheck
