#include <cidrcheck/fleet/plan_limits.hpp>

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <charconv>
#include <cstdlib>

namespace cidrcheck {

auto check_plan_cost(std::string_view key, std::int64_t cost) -> checked_setting<int> {
  if (cost < 0 || cost > max_plan_cost) {
    return {std::nullopt, "cost of " + std::string(key) + " must be from 0 to " + std::to_string(max_plan_cost) +
                              ", not " + std::to_string(cost)};
  }
  return {static_cast<int>(cost), {}};
}

auto parse_plan_cost(std::string_view key, std::string_view text) -> checked_setting<int> {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return {std::nullopt, "cost of " + std::string(key) + " must be from 0 to " + std::to_string(max_plan_cost) +
                              ", not " + std::string(text)};
  }
  if (ec != std::errc{} || end != text.data() + text.size()) {
    return {std::nullopt, "cost of " + std::string(key) + " must be a whole number, not '" + std::string(text) + "'"};
  }
  return check_plan_cost(key, value);
}

namespace {

constexpr std::string_view role_words[] = {"network", "pods", "services", "all"};

// The shortest text that reads back as v: 1 for 1.0, 1.25 for 1.25.
auto number_text(double v) -> std::string {
  char text[32];
  auto end = std::to_chars(std::begin(text), std::end(text), v).ptr;
  return {std::begin(text), end};
}

auto is_role(std::string_view word) -> bool {
  for (auto r : role_words) {
    if (r == word) return true;
  }
  return false;
}

}  // namespace

auto is_role_cost_key(std::string_view key) -> bool { return is_role(key); }

auto parse_cost_key(std::string_view key) -> std::variant<cost_override, cost_key_problem> {
  cost_override o;
  auto problem = [&](std::string why) {
    return cost_key_problem{diag::invalid_value, "cost of " + std::string(key) + ": " + std::move(why)};
  };
  auto colon = key.find(':');
  if (colon == std::string_view::npos) {
    if (key.empty()) return problem("the key is empty");
    o.what = std::string(key);
    return o;
  }
  auto scope = key.substr(0, colon);
  if (scope == "owner") {
    o.of = cost_override::scope::owner;
  } else if (scope == "distribution") {
    o.of = cost_override::scope::distribution;
  } else {
    return problem("'" + std::string(scope) + ":' is no scope (owner:NAME/ or distribution:NAME/)");
  }
  auto rest = key.substr(colon + 1);
  auto slash = rest.rfind('/');
  o.name = std::string(rest.substr(0, slash));
  o.what = slash == std::string_view::npos ? "*" : std::string(rest.substr(slash + 1));
  if (o.name.empty()) return problem("the " + std::string(scope) + " name is empty");
  if (o.what.empty()) return problem("nothing after '/' (a role, an operation kind, or * for every kind)");
  return o;
}

auto cost_key(const cost_override& o) -> std::string {
  if (o.of == cost_override::scope::any) return o.what;
  std::string out = (o.of == cost_override::scope::owner ? "owner:" : "distribution:") + o.name;
  // "/*" is implied unless the name holds a '/' (which the last '/' would split).
  if (o.what != "*" || o.name.find('/') != std::string::npos) out += "/" + o.what;
  return out;
}

auto check_cost_names(const cost_override& o, const catalog& c) -> std::optional<cost_key_problem> {
  if (o.what != "*" && !is_role(o.what) && !c.find_operation(o.what)) {
    std::vector<std::string_view> known(std::begin(role_words), std::end(role_words));
    std::string kinds;
    for (const auto& k : c.operations) {
      known.push_back(k.name);
      kinds += (kinds.empty() ? "" : ", ") + k.name;
    }
    return cost_key_problem{diag::unknown_value, "cost of " + cost_key(o) + ": '" + o.what +
                                                     "' is no role or operation kind (network, pods, services, all, "
                                                     "* for every kind, or one of the catalog's: " + kinds + ")" +
                                                     detail::did_you_mean(o.what, known)};
  }
  if (o.of == cost_override::scope::distribution && !c.find_distribution(o.name)) {
    std::vector<std::string_view> known;
    for (const auto& d : c.distributions) known.push_back(d.name);
    return cost_key_problem{diag::unknown_distribution, "cost of " + cost_key(o) + ": unknown distribution '" +
                                                            o.name + "'" + detail::did_you_mean(o.name, known)};
  }
  return std::nullopt;
}

auto check_cost_owner(const cost_override& o, const fleet& f) -> std::optional<cost_key_problem> {
  if (o.of != cost_override::scope::owner || f.find_owner(o.name)) return std::nullopt;
  std::vector<std::string_view> known;
  for (const auto& x : f.owners) known.push_back(x.name);
  return cost_key_problem{diag::unknown_owner, "cost of " + cost_key(o) + ": no cluster or network is named '" +
                                                   o.name + "'" + detail::did_you_mean(o.name, known)};
}

auto parse_plan_headroom(std::string_view text) -> checked_setting<double> {
  const std::string copy(text);  // strtod needs a terminated string
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !(v >= min_plan_headroom && v <= max_plan_headroom)) {
    return {std::nullopt, "headroom must be a number from " + number_text(min_plan_headroom) + " to " +
                              number_text(max_plan_headroom) + ", not " + copy};
  }
  return {v, {}};
}

auto check_plan_pin(std::string_view pattern) -> checked_setting<std::string> {
  if (pattern.size() > detail::max_name_bytes) {
    return {std::nullopt, "a pin is at most " + std::to_string(detail::max_name_bytes) + " bytes long, as a name is, not " +
                              std::to_string(pattern.size())};
  }
  return {std::string(pattern), {}};
}

}  // namespace cidrcheck
