#pragma once
// The rules: stable ids, names, default severities and one-line summaries.

#include <cidrcheck/severity.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace cidrcheck {

/// Every rule: check() applies the fleet rules, triage() the suppression
/// rules (CIDR9xx). The values index rule_table().
enum class rule : std::uint8_t {
  overlap,
  overlap_internal,
  latent_overlap,
  reserved_range,
  documentation_range,
  shared_address_space,
  docker_bridge,
  public_range,
  platform_reserved,
  well_known_default,
  route_conflict,
  duplicate_route,
  route_in_overlay,
  global_range_overlap,
  service_range_too_large,
  service_range_too_small,
  service_range_count,
  pod_capacity,
  node_mask_too_large,
  dns_outside_service_range,
  dns_is_kubernetes_service,
  source_conflict,
  expired_suppression,
  unused_suppression,
};

/// What every report says about a rule. The id ("CIDR101") and the name
/// ("overlap") are stable forever; either is accepted wherever a rule is named.
struct rule_info {
  rule value;
  std::string_view id;
  std::string_view name;
  severity default_severity;
  std::string_view summary;
};

inline constexpr std::array<rule_info, 24> rule_table_data{{
    {rule::overlap, "CIDR101", "overlap", severity::error,
     "two owners' ranges overlap and some owner routes both"},
    {rule::overlap_internal, "CIDR102", "overlap-internal", severity::error,
     "two ranges of one owner overlap (pods and services, pods and network, ...)"},
    {rule::latent_overlap, "CIDR103", "latent-overlap", severity::note,
     "two owners' ranges overlap but no owner routes both yet; it blocks a future connection"},
    {rule::reserved_range, "CIDR110", "reserved-range", severity::error,
     "a range overlaps an IANA special-purpose block no network may use (loopback, link-local, multicast, ...)"},
    {rule::documentation_range, "CIDR111", "documentation-range", severity::warning,
     "a range overlaps a block reserved for documentation (192.0.2.0/24, 2001:db8::/32, ...)"},
    {rule::shared_address_space, "CIDR112", "shared-address-space", severity::warning,
     "a cluster range lies in 100.64.0.0/10, the space carrier NAT and tailnets (Tailscale, NetBird) use"},
    {rule::docker_bridge, "CIDR113", "docker-bridge", severity::warning,
     "a cluster range overlaps 172.17.0.0/16, Docker's default bridge on every Docker host"},
    {rule::public_range, "CIDR114", "public-range", severity::warning,
     "a cluster range lies outside private space and shadows real internet destinations"},
    {rule::platform_reserved, "CIDR115", "platform-reserved", severity::error,
     "a cluster range overlaps a block its platform reserves for itself (AKS, OpenShift OVN-Kubernetes)"},
    {rule::well_known_default, "CIDR120", "well-known-default", severity::note,
     "a cluster range equals a well-known default, which the next cluster installed with defaults will reuse"},
    {rule::route_conflict, "CIDR130", "route-conflict", severity::error,
     "a route reaches an owner other than the one it leads to, or overlaps a route to elsewhere (the more specific wins)"},
    {rule::duplicate_route, "CIDR131", "duplicate-route", severity::warning,
     "one prefix is advertised by two different routers on one network, and only one of them gets the traffic"},
    {rule::route_in_overlay, "CIDR132", "route-in-overlay", severity::error,
     "a route lies inside the network's own address space (a tailnet's 100.64.0.0/10), where it shadows its devices"},
    {rule::global_range_overlap, "CIDR133", "global-range-overlap", severity::error,
     "a member's translated (global) range on a translated connection overlaps another member's, or a range routed "
     "at a member"},
    {rule::service_range_too_large, "CIDR201", "service-range-too-large", severity::error,
     "a service range shorter than /12 (IPv4) or /108 (IPv6), which kube-apiserver refuses"},
    {rule::service_range_too_small, "CIDR202", "service-range-too-small", severity::error,
     "a service range with fewer than 8 addresses, which kube-apiserver refuses"},
    {rule::service_range_count, "CIDR203", "service-range-count", severity::error,
     "more than two service ranges, or two of one IP version (kube-apiserver takes one per version)"},
    {rule::pod_capacity, "CIDR210", "pod-capacity", severity::error,
     "the pod ranges hold fewer node blocks than the cluster has nodes (a warning above 80%)"},
    {rule::node_mask_too_large, "CIDR211", "node-mask-too-large", severity::error,
     "the node CIDR mask gives each node more space than the pod range holds"},
    {rule::dns_outside_service_range, "CIDR220", "dns-outside-service-range", severity::error,
     "the cluster DNS address is not in a service range"},
    {rule::dns_is_kubernetes_service, "CIDR221", "dns-is-kubernetes-service", severity::error,
     "the cluster DNS address is the service range's first address, which kubernetes.default takes"},
    {rule::source_conflict, "CIDR301", "source-conflict", severity::error,
     "two sources (exports, Terraform state, the fleet file) disagree on an owner's ranges"},
    {rule::expired_suppression, "CIDR901", "expired-suppression", severity::warning,
     "a suppression is past its expiry date, so the findings it hid are reported again"},
    {rule::unused_suppression, "CIDR902", "unused-suppression", severity::note,
     "a suppression matches no finding: the problem is fixed, or the suppression names the wrong rule or owners"},
}};

/// Returns every rule, in id order.
constexpr auto rule_table() noexcept -> std::span<const rule_info> { return rule_table_data; }

/// Returns the description of a rule.
constexpr auto info(rule r) noexcept -> const rule_info& { return rule_table_data[static_cast<std::size_t>(r)]; }

/// Returns the rule with this id ("CIDR101", in any case: "cidr101") or name
/// ("overlap"), or nullopt.
constexpr auto find_rule(std::string_view id_or_name) noexcept -> std::optional<rule> {
  auto same_id = [](std::string_view id, std::string_view text) {
    if (id.size() != text.size()) return false;
    for (std::size_t k = 0; k < id.size(); ++k) {
      char c = text[k] >= 'a' && text[k] <= 'z' ? static_cast<char>(text[k] - 'a' + 'A') : text[k];
      if (c != id[k]) return false;
    }
    return true;
  };
  for (const auto& r : rule_table_data) {
    if (same_id(r.id, id_or_name) || r.name == id_or_name) return r.value;
  }
  return std::nullopt;
}

}  // namespace cidrcheck
