#pragma once
// check()'s findings with the overlap findings held as compact records: a
// fleet has one per overlapping pair of ranges, a million on a clique of 1,415
// clusters sharing one service range, and a whole `finding` is 336 bytes. The
// planner reads them as records (rule, severity, ranges) and makes a finding
// only for the few it shows; check() makes them all, into a vector sized once.

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/check_options.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/triage.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace cidrcheck::detail {

/// Where two overlapping ranges are both routed: the owner and the connections
/// that bring them there (overlap findings' routed_at and via).
struct conflict_meeting {
  std::uint32_t owner = 0;
  std::vector<std::uint32_t> via;
};

/// One finding in 16 bytes: an overlap finding (overlap, overlap-internal,
/// latent-overlap) as its two ranges and rule, or a reference to a whole one.
struct finding_record {
  static constexpr std::uint32_t nowhere = 0xffff'ffff;
  /// A conflict's two ranges, the one to move first first; a whole finding: [0] is its index in whole.
  std::array<std::uint32_t, 2> pair{};
  std::uint32_t meeting = nowhere;  ///< a conflict routed somewhere: its index in meetings
  rule id = rule::overlap;
  severity level = severity::error;  ///< a conflict's; a whole finding keeps its own
  bool conflict = false;
};

/// check()'s findings in check()'s order, the overlap findings as records.
/// Made by check_compact(); O(1) per read, O(fleet) to make one finding.
class compact_findings {
 public:
  compact_findings() = default;
  compact_findings(std::vector<finding_record> records, std::vector<finding> whole,
                   std::vector<conflict_meeting> meetings)
      : records_(std::move(records)), whole_(std::move(whole)), meetings_(std::move(meetings)) {}

  auto size() const -> std::size_t { return records_.size(); }
  auto id(std::size_t k) const -> rule { return records_[k].id; }
  auto level(std::size_t k) const -> severity;
  auto ranges(std::size_t k) const -> std::span<const std::uint32_t>;
  /// The message of finding k: a conflict's is empty until describe() gave it one.
  auto message(std::size_t k) const -> const std::string&;

  /// Finding k of fleet f (the one checked) as check() gives it, without a
  /// conflict's message and hint.
  auto materialize(const fleet& f, std::size_t k) const -> finding;
  /// Every finding of fleet f, in order, as materialize() gives them; leaves
  /// this empty. The whole findings move; the vector is sized once.
  auto release(const fleet& f) && -> std::vector<finding>;
  /// Gives the conflicts at the given indexes the message and hint check()
  /// would have given them (describe_overlaps()); the options that made these
  /// findings must have had describe on. O(fleet + indexes).
  void describe(const fleet& f, const catalog& c, std::span<const std::uint32_t> indexes);
  /// Applies the rule settings and suppressions as triage() does, keeping
  /// what triage().findings keeps, in its order (what it hides is dropped).
  void triage(const fleet& f, const triage_options& options);

 private:
  auto conflict(const fleet& f, const finding_record& x) const -> finding;

  std::vector<finding_record> records_;
  std::vector<finding> whole_;
  std::vector<conflict_meeting> meetings_;
  std::unordered_map<std::uint32_t, finding> described_;  // conflicts describe() described, by index
};

/// check(f, c, options) as compact findings, overlaps never described.
/// Throws limit_error as check() does.
auto check_compact(const fleet& f, const catalog& c, const check_options& options) -> compact_findings;

}  // namespace cidrcheck::detail
