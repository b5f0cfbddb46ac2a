#pragma once
// Which ranges the plan's pin patterns pin (check's hints and plan's moves):
// each pattern matched once against each distinct text it can match, not once
// per range and pattern.

#include <cidrcheck/fleet/fleet.hpp>

#include <span>
#include <vector>

namespace cidrcheck::detail {

struct pinned_ranges {
  std::vector<bool> pinned;  ///< per range of the fleet: some pin pins it (as pins() says)
  std::vector<bool> used;    ///< per pin: it pins some range
};

/// Returns which ranges of f the pins pin, and which pins pin any. Equal
/// patterns are matched once; a pattern without '*' is one hash lookup per
/// name; one with a text before its first '*' (or after its last) is matched
/// only against the names that begin (or end) with it, found in sorted lists;
/// only a pattern that begins and ends with '*' is tried against every name.
/// Each match is linear (glob_match). O(T log T) for T distinct names plus the
/// candidates tried.
auto match_pins(std::span<const pin_pattern> pins, const fleet& f) -> pinned_ranges;

}  // namespace cidrcheck::detail
