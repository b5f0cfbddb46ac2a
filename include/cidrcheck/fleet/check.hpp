#pragma once

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/check_options.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace cidrcheck {

/// Applies every rule to the fleet and returns the findings, sorted by the
/// location of their first range, then rule id: the same fleet always gives
/// the same findings in the same order.
///
/// Overlaps are found with one sorted sweep over all ranges, and whether an
/// overlapping pair is routed together is decided from the connections that
/// carry each range, so the cost grows with the number of ranges plus
/// connection memberships plus the number of overlapping pairs, never with
/// the square of a mesh. Thread-safe for concurrent calls on shared inputs.
/// Throws limit_error when the fleet has more than options.max_findings findings.
/// Precondition: every index in f is in range, as fleet_loader makes them.
auto check(const fleet& f, const catalog& c, const check_options& options = {}) -> std::vector<finding>;

/// The owner each route of f leads to (indexed like f.routes): its declared
/// `to`, else the owner (not the route's network) whose smallest range holds
/// the route, when exactly one owner has such a range; nullopt where neither
/// says. O(routes x W log n), W the address width.
auto route_destinations(const fleet& f) -> std::vector<std::optional<std::uint32_t>>;

/// Gives overlap findings (overlap, overlap-internal, latent-overlap) that
/// check(f, c, o) made with o.describe_overlaps off the message and hint check()
/// would have given them, one at a time as a report reads them: there is one
/// per overlapping pair, and their text was most of a check's memory. What it
/// needs of the fleet is made at the first finding it describes, O(fleet), so
/// a fleet without overlaps pays nothing; thread-safe. f and c must outlive it.
class overlap_describer {
 public:
  overlap_describer(const fleet& f, const catalog& c);
  overlap_describer(const overlap_describer&) = delete;
  auto operator=(const overlap_describer&) -> overlap_describer& = delete;
  ~overlap_describer();

  /// Gives x its text if it is an overlap finding without one; leaves any other as it is.
  void describe(finding& x) const;

 private:
  struct impl;
  const fleet& f_;
  const catalog& c_;
  mutable std::once_flag made_;
  mutable std::unique_ptr<impl> impl_;  // made at the first finding that needs it
};

/// Gives the overlap findings at the given indexes of findings the message and
/// hint check() would have given them; findings must be check(f, c, o)'s with
/// o.describe_overlaps off. Other findings are left as they are. O(fleet + indexes).
void describe_overlaps(const fleet& f, const catalog& c, std::vector<finding>& findings,
                       std::span<const std::uint32_t> indexes);

}  // namespace cidrcheck
