#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cidrcheck {

/// How much a diagnostic or finding matters. The names are SARIF's levels.
/// Ordered: note < warning < error.
enum class severity : std::uint8_t { note = 0, warning = 1, error = 2 };

/// Returns "note", "warning" or "error".
constexpr auto to_string(severity s) noexcept -> std::string_view {
  switch (s) {
    case severity::note: return "note";
    case severity::warning: return "warning";
    case severity::error: return "error";
  }
  return "error";
}

/// Parses "note", "warning" or "error".
constexpr auto parse_severity(std::string_view text) noexcept -> std::optional<severity> {
  if (text == "note") return severity::note;
  if (text == "warning") return severity::warning;
  if (text == "error") return severity::error;
  return std::nullopt;
}

/// When a run fails: at or above a severity, or never.
struct fail_threshold {
  std::optional<severity> level;  ///< nullopt: never

  /// Parses "error", "warning", "note" or "never".
  static constexpr auto parse(std::string_view text) noexcept -> std::optional<fail_threshold> {
    if (text == "never") return fail_threshold{};
    if (auto s = parse_severity(text)) return fail_threshold{*s};
    return std::nullopt;
  }
  /// Reports whether a finding of this severity fails the run.
  constexpr auto fails(severity s) const noexcept -> bool { return level && s >= *level; }
};

}  // namespace cidrcheck
