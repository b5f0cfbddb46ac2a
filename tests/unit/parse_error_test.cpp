#include <cidrcheck/parse_error.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

using namespace cidrcheck;

static_assert(result<int>(7).has_value() && *result<int>(7) == 7);
static_assert(!result<int>(parse_failure{parse_errc::bad_character, 3}).has_value());
static_assert(result<int>(parse_failure{parse_errc::bad_character, 3}).error() == parse_failure{parse_errc::bad_character, 3});

TEST(ParseError, MessageNamesInputReasonAndPosition) {
  const parse_error e(parse_kind::prefix, "10.0.0.256/24", {parse_errc::octet_out_of_range, 7});
  EXPECT_STREQ(e.what(), "invalid prefix \"10.0.0.256/24\": octet out of range (at \"256/24\")");
  EXPECT_EQ(e.code(), parse_errc::octet_out_of_range);
  EXPECT_EQ(e.offset(), 7U);
  EXPECT_EQ(e.input(), "10.0.0.256/24");
  EXPECT_EQ(e.kind(), parse_kind::prefix);
}

TEST(ParseError, MessageSaysAtEndAndAddsAHint) {
  EXPECT_EQ(parse_error_message(parse_kind::address, "10.0.0", {parse_errc::too_few_octets, 6}),
            std::string("invalid address \"10.0.0\": ") + std::string(describe(parse_errc::too_few_octets)) +
                " (at end)");
  // A failure of the whole text has no position.
  EXPECT_EQ(parse_error_message(parse_kind::prefix, "10.0.0.1/24", {parse_errc::host_bits_set, 0}, "did you mean 10.0.0.0/24?"),
            std::string("invalid prefix \"10.0.0.1/24\": ") + std::string(describe(parse_errc::host_bits_set)) +
                " (did you mean 10.0.0.0/24?)");
}

TEST(ParseError, MessageEscapesAndShortensTheInput) {
  auto message = parse_error_message(parse_kind::address, std::string("1\x1b[31m") + std::string(200, 'x'),
                                     {parse_errc::bad_character, 1});
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
  EXPECT_NE(message.find("\\x1b"), std::string::npos);
  EXPECT_LT(message.size(), 160U);
}

TEST(ParseError, IsInvalidArgumentAndCidrcheckError) {
  auto raise = [] { throw parse_error(parse_kind::address, "x", {parse_errc::bad_character, 0}); };
  EXPECT_THROW(raise(), std::invalid_argument);
  EXPECT_THROW(raise(), cidrcheck::error);
}

TEST(ParseResult, ValueOfAFailureThrowsBadResultAccess) {
  const result<int> failed(parse_failure{parse_errc::empty, 0});
  EXPECT_THROW((void)failed.value(), bad_result_access);
  EXPECT_THROW((void)failed.value(), std::logic_error);
}

}  // namespace
