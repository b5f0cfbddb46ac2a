#include <cidrcheck/fleet/calendar_date.hpp>

#include <charconv>
#include <chrono>
#include <cstddef>
#include <system_error>

namespace cidrcheck {

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
