#pragma once
// A day: when a suppression expires and the day a run judges by.

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace cidrcheck {

/// A day of the Gregorian calendar, as "YYYY-MM-DD" writes it: a suppression's
/// `expires` and the day a run judges by. Dates compare in calendar order.
/// cidrcheck's own type, not std::chrono::year_month_day, so that the public
/// headers need not include <chrono> (with <sstream> and the locales, a fifth
/// of what a user's file of the analysis API cost to compile; bench/README.md).
/// parse_iso_date() and today_utc() make only valid dates.
struct calendar_date {
  int year = 1970;
  unsigned month = 1;  ///< 1 to 12
  unsigned day = 1;    ///< 1 to the month's last

  friend auto operator<=>(const calendar_date&, const calendar_date&) = default;
};

/// Returns "YYYY-MM-DD".
auto to_iso_date(calendar_date date) -> std::string;

/// Parses "YYYY-MM-DD", a valid calendar date; nullopt otherwise.
auto parse_iso_date(std::string_view text) -> std::optional<calendar_date>;

/// Returns today's date in UTC, the day suppressions expire by.
auto today_utc() -> calendar_date;

}  // namespace cidrcheck
