#pragma once
// How check() applies the rules: thresholds, how much text findings carry, and
// the most findings a fleet may have. A light header: a run request holds these.

#include <cstddef>

namespace cidrcheck {

/// The settings of one check() of a fleet.
struct check_options {
  /// Minimum share of node capacity in use that pod-capacity warns about (0.8 = 80%).
  double capacity_warning = 0.8;
  /// Whether findings carry their message and hint. Callers that only need
  /// which rules break where (a plan's verification) save the text.
  bool describe = true;
  /// Whether the overlap findings (overlap, overlap-internal, latent-overlap)
  /// carry theirs, when describe is on. There is one per overlapping pair, so a
  /// fleet can have millions: a plan holds them as compact records and
  /// describes only the few it shows (describe_overlaps() does so for check()'s).
  bool describe_overlaps = true;
  /// The most findings a fleet may have ("max-findings"): every pair of
  /// overlapping ranges is a finding, so a few thousand owners of one range
  /// would otherwise take gigabytes. About 0.5 KB each as a run holds them
  /// (overlap findings without their text: analysis.hpp), 0.8 KB with it.
  std::size_t max_findings = 1'000'000;
};

}  // namespace cidrcheck
