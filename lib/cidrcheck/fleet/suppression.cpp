#include <cidrcheck/fleet/suppression.hpp>


namespace cidrcheck {

auto escape_entity_name(std::string_view name) -> std::string {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == '%') {
      out += "%25";
    } else if (c == '/') {
      out += "%2F";
    } else {
      out += c;
    }
  }
  return out;
}

auto unescape_entity_name(std::string_view text) -> std::string {
  std::string out;
  out.reserve(text.size());
  for (std::size_t k = 0; k < text.size(); ++k) {
    auto code = text.substr(k, 3);
    if (code == "%25") {
      out += '%';
      k += 2;
    } else if (code == "%2F" || code == "%2f") {
      out += '/';
      k += 2;
    } else {
      out += text[k];
    }
  }
  return out;
}

auto entity_pattern::parse(std::string_view text) -> std::optional<entity_pattern> {
  auto slash = text.rfind('/');
  std::optional<range_role> role;
  if (slash != std::string_view::npos) {
    auto word = text.substr(slash + 1);
    for (auto r : {range_role::network, range_role::pods, range_role::services}) {
      if (word == cidrcheck::to_string(r)) role = r;
    }
    if (!role) return std::nullopt;
    text = text.substr(0, slash);
  }
  if (text.empty()) return std::nullopt;
  return entity_pattern{unescape_entity_name(text), role};
}

auto entity_pattern::matches(const fleet& f, const fleet_range& r) const -> bool {
  return f.owners[r.owner].name == owner && (!role || *role == r.role);
}

auto entity_pattern::to_string() const -> std::string {
  auto name = escape_entity_name(owner);
  return role ? name + "/" + std::string(cidrcheck::to_string(*role)) : name;
}

}  // namespace cidrcheck
