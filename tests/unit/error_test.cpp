// Every exception cidrcheck throws is a cidrcheck::error and still the standard exception it was:
// the core's here; map_error, plan_option_error and the unknown migration fact in the tests of
// their headers (fleet/map_test.cpp, analysis/plan_request_test.cpp, fleet/runbook_test.cpp).
#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/error.hpp>
#include <cidrcheck/limit_error.hpp>
#include <cidrcheck/parse_error.hpp>
#include <cidrcheck/prefix.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace cidrcheck {
namespace {

// Each error and the standard exception it has always been; catch sites written for those keep working.
template <class Error, class Std>
constexpr bool is_both = std::is_base_of_v<error, Error> && std::is_base_of_v<Std, Error> &&
                         std::is_base_of_v<basic_error<Std>, Error>;
static_assert(is_both<parse_error, std::invalid_argument>);
static_assert(is_both<bad_result_access, std::logic_error>);
static_assert(is_both<limit_error, std::length_error>);
static_assert(!std::is_base_of_v<std::exception, error>, "a mixin: one std::exception base per error");

// Returns the message of what `call` throws, caught as a cidrcheck::error; checks that it is also
// caught as Std and as std::exception with the same message.
template <class Std>
auto caught(const std::function<void()>& call) -> std::string {
  std::string message;
  try {
    call();
    ADD_FAILURE() << "nothing thrown";
  } catch (const error& e) {
    message = e.what();
  }
  try {
    call();
  } catch (const Std& e) {
    EXPECT_EQ(e.what(), message);
  }
  try {
    call();
  } catch (const std::exception& e) {
    EXPECT_EQ(e.what(), message);
  }
  return message;
}

TEST(Error, EveryValueErrorIsCaughtAsACidrcheckError) {
  EXPECT_EQ(caught<std::invalid_argument>([] { (void)prefix::parse("10.0.0.1/24"); }),
            "invalid prefix \"10.0.0.1/24\": host bits set (did you mean 10.0.0.0/24?)");
  EXPECT_NE(caught<std::invalid_argument>([] { (void)address::parse("1.2.3"); }), "");
  EXPECT_NE(caught<std::invalid_argument>([] { (void)address_range::parse("10.0.0.9-10.0.0.1"); }), "");
  EXPECT_EQ(caught<std::logic_error>([] { (void)address::try_parse("x").value(); }),
            "cidrcheck: value() called on a failed parse result");
  EXPECT_EQ(caught<std::invalid_argument>([] { (void)prefix::parse("10.0.0.0/24").subnets(33); }),
            "subnet length /33 is not in [24, 32] for 10.0.0.0/24");
  EXPECT_EQ(caught<std::invalid_argument>([] { (void)prefix::parse("10.0.0.0/24").supernet(25); }),
            "supernet length /25 is not in [0, 24] for 10.0.0.0/24");
}

TEST(Error, NamedErrorsKeepTheirDataWhenCaughtAsTheBase) {
  try {
    throw limit_error("max-findings", 3, "too many findings");
  } catch (const error& e) {
    const auto* limit = dynamic_cast<const limit_error*>(&e);
    ASSERT_NE(limit, nullptr);
    EXPECT_EQ(limit->limit(), "max-findings");
    EXPECT_EQ(limit->value(), 3u);
    EXPECT_STREQ(e.what(), "too many findings");
  }
}

}  // namespace
}  // namespace cidrcheck
