#include <cidrcheck/fleet/suppression.hpp>

#include <charconv>
#include <chrono>

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

auto to_iso_date(calendar_date date) -> std::string {
  auto two = [](unsigned n) { return std::string(n < 10 ? "0" : "") + std::to_string(n); };
  return std::to_string(date.year) + "-" + two(date.month) + "-" + two(date.day);
}

auto parse_iso_date(std::string_view text) -> std::optional<calendar_date> {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto number = [&](std::size_t at, std::size_t length) -> std::optional<unsigned> {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + length, value);
    if (ec != std::errc{} || end != text.data() + at + length) return std::nullopt;
    return value;
  };
  auto y = number(0, 4), m = number(5, 2), d = number(8, 2);
  if (!y || !m || !d) return std::nullopt;
  std::chrono::year_month_day date{std::chrono::year(static_cast<int>(*y)), std::chrono::month(*m),
                                   std::chrono::day(*d)};
  if (!date.ok()) return std::nullopt;
  return calendar_date{static_cast<int>(*y), *m, *d};
}

auto today_utc() -> calendar_date {
  std::chrono::year_month_day today{std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now())};
  return {static_cast<int>(today.year()), static_cast<unsigned>(today.month()), static_cast<unsigned>(today.day())};
}

}  // namespace cidrcheck
