#include <cidrcheck/limit_error.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

TEST(LimitError, CarriesTheLimitsNameValueAndMessage) {
  const cidrcheck::limit_error e("max-findings", 1000, "more than the max-findings limit of 1000 findings");
  EXPECT_EQ(e.limit(), "max-findings");
  EXPECT_EQ(e.value(), 1000U);
  EXPECT_STREQ(e.what(), "more than the max-findings limit of 1000 findings");
}

TEST(LimitError, IsCaughtAsLengthErrorAndAsCidrcheckError) {
  auto raise = [] { throw cidrcheck::limit_error("max-ranges", 1, "too many"); };
  EXPECT_THROW(raise(), std::length_error);
  EXPECT_THROW(raise(), cidrcheck::error);
}

}  // namespace
