#pragma once
// The limits of the plan settings, defined once: the fleet file's `plan:`
// section, `cidrcheck plan`'s flags and cidrcheck.Fleet.plan() check their
// values here, so the three accept the same values and refuse the others with
// the same message (each front end adds only where: file:line:col, the
// command, or ValueError).

#include <cidrcheck/fleet/fleet.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace cidrcheck {

struct catalog;

/// The largest cost a key may be given (costs add up per plan in an int).
inline constexpr std::int64_t max_plan_cost = 1'000'000;
/// Pod ranges are sized for nodes x headroom, headroom from 1 to 100 (these two).
inline constexpr double min_plan_headroom = 1.0;
inline constexpr double max_plan_headroom = 100.0;

/// A value checked against its limit: the value, or why it is refused.
template <class T>
struct checked_setting {
  std::optional<T> value;
  std::string error;  ///< empty when value holds
};

/// Checks a cost given under a key (as written: services, owner:prod-eu/pods, ...).
auto check_plan_cost(std::string_view key, std::int64_t cost) -> checked_setting<int>;
/// Parses and checks a cost given as text (a whole number) under a key.
auto parse_plan_cost(std::string_view key, std::string_view text) -> checked_setting<int>;

/// A cost key that cannot be used: the diagnostic code (io/diagnostic_code.hpp)
/// a fleet file reports it with, and the message every front end shows.
struct cost_key_problem {
  std::string code;
  std::string message;
};

/// Reports whether a cost key is a role alone (network, pods, services, all):
/// plan_settings::cost, the base of that role's in-place kinds.
auto is_role_cost_key(std::string_view key) -> bool;
/// Reads the syntax of a cost key: WHAT, `owner:NAME/WHAT` or
/// `distribution:NAME/WHAT`, where WHAT is an operation kind, a role (network,
/// pods, services, all) or `*` (every kind); `owner:NAME` and
/// `distribution:NAME` alone mean `/*`. The last '/' ends NAME, so an owner
/// whose name holds '/' is written with its WHAT. The cost is left 0. Names
/// are checked by check_cost_names and check_cost_owner.
auto parse_cost_key(std::string_view key) -> std::variant<cost_override, cost_key_problem>;
/// Checks an override's operation kind (or role, or `*`) and distribution
/// against catalog c; nullopt when both are known.
auto check_cost_names(const cost_override& o, const catalog& c) -> std::optional<cost_key_problem>;
/// Checks an override's owner against fleet f; nullopt when f has it (or it names none).
auto check_cost_owner(const cost_override& o, const fleet& f) -> std::optional<cost_key_problem>;
/// Returns the key as written: `replacement-cluster`, `owner:prod-eu/services`, `distribution:eks`.
auto cost_key(const cost_override& o) -> std::string;
/// Parses and checks a headroom given as text (a number, as strtod reads it).
auto parse_plan_headroom(std::string_view text) -> checked_setting<double>;
/// Checks a pin pattern: at most detail::max_name_bytes long, as names are.
auto check_plan_pin(std::string_view pattern) -> checked_setting<std::string>;

}  // namespace cidrcheck
