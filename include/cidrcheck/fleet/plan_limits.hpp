#pragma once
// The limits of the plan settings, defined once: the fleet file's `plan:`
// section, `cidrcheck plan`'s flags and cidrcheck.Fleet.plan() check their
// values here, so the three accept the same values and refuse the others with
// the same message (each front end adds only where: file:line:col, the
// command, or ValueError).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cidrcheck {

/// The largest cost a role may be given (costs add up per plan in an int).
inline constexpr std::int64_t max_plan_cost = 1'000'000;
/// Pod ranges are sized for nodes x headroom, headroom from 1 to 100.
inline constexpr double min_plan_headroom = 1.0;
inline constexpr double max_plan_headroom = 100.0;

/// A value checked against its limit: the value, or why it is refused.
template <class T>
struct checked_setting {
  std::optional<T> value;
  std::string error;  ///< empty when value holds
};

/// Checks a role's cost (role as written: network, pods, services).
auto check_plan_cost(std::string_view role, std::int64_t cost) -> checked_setting<int>;
/// Parses and checks a role's cost given as text (a whole number).
auto parse_plan_cost(std::string_view role, std::string_view text) -> checked_setting<int>;
/// Parses and checks a headroom given as text (a number, as strtod reads it).
auto parse_plan_headroom(std::string_view text) -> checked_setting<double>;

}  // namespace cidrcheck
