#include <cidrcheck/severity.hpp>

#include <gtest/gtest.h>

namespace {

using cidrcheck::parse_severity;
using cidrcheck::severity;

static_assert(severity::note < severity::warning && severity::warning < severity::error);
static_assert(parse_severity("warning") == severity::warning);

TEST(Severity, NamesReadBack) {
  for (auto s : {severity::note, severity::warning, severity::error}) {
    EXPECT_EQ(parse_severity(cidrcheck::to_string(s)), s) << cidrcheck::to_string(s);
  }
  EXPECT_EQ(cidrcheck::to_string(severity::error), "error");
}

TEST(Severity, RefusesOtherWords) {
  EXPECT_EQ(parse_severity("Error"), std::nullopt);  // case matters, as in SARIF
  EXPECT_EQ(parse_severity("never"), std::nullopt);
  EXPECT_EQ(parse_severity(""), std::nullopt);
}

TEST(FailThreshold, FailsAtOrAboveItsLevelAndNeverMeansNone) {
  using cidrcheck::fail_threshold;
  EXPECT_TRUE(fail_threshold{severity::warning}.fails(severity::error));
  EXPECT_TRUE(fail_threshold{severity::warning}.fails(severity::warning));
  EXPECT_FALSE(fail_threshold{severity::warning}.fails(severity::note));
  const auto never = fail_threshold::parse("never");
  ASSERT_TRUE(never);
  EXPECT_FALSE(never->level);
  EXPECT_FALSE(never->fails(severity::error));
  EXPECT_EQ(fail_threshold::parse("note")->level, severity::note);
  EXPECT_FALSE(fail_threshold::parse("critical"));
}

}  // namespace
