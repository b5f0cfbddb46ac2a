#include <cidrcheck/fleet/plan_limits.hpp>

#include <charconv>
#include <cstdlib>

namespace cidrcheck {

auto check_plan_cost(std::string_view role, std::int64_t cost) -> checked_setting<int> {
  if (cost < 0 || cost > max_plan_cost) {
    return {std::nullopt, "cost of " + std::string(role) + " must be from 0 to " + std::to_string(max_plan_cost) +
                              ", not " + std::to_string(cost)};
  }
  return {static_cast<int>(cost), {}};
}

auto parse_plan_cost(std::string_view role, std::string_view text) -> checked_setting<int> {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return {std::nullopt, "cost of " + std::string(role) + " must be from 0 to " + std::to_string(max_plan_cost) +
                              ", not " + std::string(text)};
  }
  if (ec != std::errc{} || end != text.data() + text.size()) {
    return {std::nullopt, "cost of " + std::string(role) + " must be a whole number, not '" + std::string(text) + "'"};
  }
  return check_plan_cost(role, value);
}

auto parse_plan_headroom(std::string_view text) -> checked_setting<double> {
  const std::string copy(text);  // strtod needs a terminated string
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !(v >= min_plan_headroom && v <= max_plan_headroom)) {
    return {std::nullopt, "headroom must be a number from 1 to 100, not " + copy};
  }
  return {v, {}};
}

}  // namespace cidrcheck
