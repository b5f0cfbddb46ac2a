#pragma once
// Accepted findings: a suppression names a rule and the entities a finding is
// about (never a line), says why, and may expire.

#include <cidrcheck/fleet/calendar_date.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/io/source_location.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// Returns an owner's name as entity ids and patterns write it: '%' as "%25"
/// and '/' as "%2F", so that the '/' before ROLE is the only one and network
/// "a/pods" (entity "a%2Fpods") is never cluster a's pods ("a/pods").
auto escape_entity_name(std::string_view name) -> std::string;
/// Reverses escape_entity_name: "%2F" (or "%2f") is '/', "%25" is '%'; any
/// other character, a '/' or a lone '%' too, stands for itself.
auto unescape_entity_name(std::string_view text) -> std::string;

/// An entity a suppression names: "OWNER", every range of a cluster or
/// network, or "OWNER/ROLE", one role of a cluster (network, pods, services).
/// OWNER may be written as escape_entity_name writes it (as entity ids are):
/// "a%2Fpods" is network "a/pods", while "a/pods" is cluster a's pods.
struct entity_pattern {
  std::string owner;
  std::optional<range_role> role;  ///< nullopt: every range of the owner

  /// Parses "OWNER" or "OWNER/ROLE", split at the last '/', OWNER unescaped
  /// (unescape_entity_name); nullopt when the owner is empty or ROLE is not
  /// network, pods or services.
  static auto parse(std::string_view text) -> std::optional<entity_pattern>;
  /// Reports whether the pattern names range r of fleet f.
  auto matches(const fleet& f, const fleet_range& r) const -> bool;
  /// Returns the text parse() reads back.
  auto to_string() const -> std::string;

  friend bool operator==(const entity_pattern&, const entity_pattern&) = default;
};

/// A finding accepted on purpose, from `.cidrcheck.yaml` or the fleet file.
/// It hides a finding of its rule when every range of the finding is named by
/// one of its entities and each of its entities names a range of the finding.
struct suppression {
  rule id = rule::overlap;
  std::vector<entity_pattern> entities;                ///< at least one
  std::string reason;                                  ///< why it is accepted; never empty
  std::optional<calendar_date> expires;  ///< the last day it applies
  source_location where;                               ///< the suppression's `rule` value
  std::uint32_t end_column = 0;                        ///< one past the end of that value
};

}  // namespace cidrcheck
