#pragma once

#include <cidrcheck/address_range.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/io/source_location.hpp>
#include <cidrcheck/prefix.hpp>
#include <cidrcheck/severity.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cidrcheck {

/// A catalog block a finding is about (reserved-range, docker-bridge, ...).
struct finding_block {
  prefix cidr;
  std::string name;
  std::string source;
};

/// One result of check(): a rule broken by one range or a pair of ranges; or
/// of triage(): a suppression that expired or matched nothing.
struct finding {
  rule id = rule::overlap;
  severity level = severity::error;
  std::string message;  ///< one sentence, naming owners, roles and CIDRs
  /// The ranges involved (indexes into fleet::ranges): one, or two for the
  /// overlap rules, the one cheaper to move first (services, pods, a
  /// cluster's network, then other networks; declaration order on a tie).
  /// Empty for the suppression rules.
  std::vector<std::uint32_t> ranges;
  std::optional<address_range> overlap;    ///< the exact addresses two ranges share
  std::optional<std::uint32_t> routed_at;  ///< overlap: an owner that routes both ranges
  std::vector<std::uint32_t> via;          ///< overlap: the connections that carry them there
  /// Catalog rules: the well-known block, shared by the finding's copies (null
  /// for the rest: an inline block was a quarter of each of a million findings).
  std::shared_ptr<const finding_block> block;
  std::string hint;                        ///< the next step to fix it
  /// Where a finding without ranges points: the suppression rules name the
  /// suppression's `rule` value. Findings with ranges point at their first range.
  source_location where;
  std::uint32_t end_column = 0;  ///< one past the last column of the text at `where`, when known
};

}  // namespace cidrcheck
