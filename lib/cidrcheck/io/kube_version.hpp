#pragma once
// Reading a Kubernetes version as fleet files and exports write it.

#include <cidrcheck/fleet/fleet.hpp>

#include <charconv>
#include <optional>
#include <string_view>

namespace cidrcheck::detail {

/// Parses "1.29", "v1.29", "1.29.3" or "1.27.3-gke.100" into a Kubernetes minor
/// version; anything after the minor must start with '.' or '-'.
inline auto parse_kube_version(std::string_view text) -> std::optional<kube_version> {
  if (text.starts_with('v')) text.remove_prefix(1);
  kube_version v;
  auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto [end1, ec1] = std::from_chars(text.data(), text.data() + dot, v.major);
  if (ec1 != std::errc{} || end1 != text.data() + dot) return std::nullopt;
  auto rest = text.substr(dot + 1);
  auto [end2, ec2] = std::from_chars(rest.data(), rest.data() + rest.size(), v.minor);
  if (ec2 != std::errc{} || (end2 != rest.data() + rest.size() && *end2 != '.' && *end2 != '-')) return std::nullopt;
  return v;
}

}  // namespace cidrcheck::detail
