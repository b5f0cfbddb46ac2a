#include <cidrcheck/fleet/calendar_date.hpp>

#include <gtest/gtest.h>

namespace cidrcheck {
namespace {

TEST(IsoDate, ParsesAndPrintsValidDatesOnly) {
  EXPECT_EQ(parse_iso_date("2026-12-31"), (calendar_date{2026, 12, 31}));
  EXPECT_EQ(parse_iso_date("2024-02-29"), (calendar_date{2024, 2, 29}));
  EXPECT_FALSE(parse_iso_date("2023-02-29"));  // not a leap year
  EXPECT_FALSE(parse_iso_date("2026-13-01"));
  EXPECT_FALSE(parse_iso_date("2026-1-01"));
  EXPECT_FALSE(parse_iso_date("2026/01/01"));
  EXPECT_FALSE(parse_iso_date("+026-01-01"));
  EXPECT_EQ(to_iso_date(calendar_date{2026, 1, 5}), "2026-01-05");
}

TEST(CalendarDate, ComparesInCalendarOrder) {
  EXPECT_LT((calendar_date{2025, 12, 31}), (calendar_date{2026, 1, 1}));
  EXPECT_LT((calendar_date{2026, 1, 31}), (calendar_date{2026, 2, 1}));
  const auto today = today_utc();
  EXPECT_EQ(parse_iso_date(to_iso_date(today)), today);
}

}  // namespace
}  // namespace cidrcheck
