#include <cidrcheck/detail/glob.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

using cidrcheck::detail::glob_match;

TEST(GlobMatch, StarStandsForAnyRunOfCharacters) {
  struct {
    const char* pattern;
    const char* text;
    bool want;
  } cases[] = {
      {"prod-*", "prod-eu", true},    // trailing star
      {"prod-*", "prod-", true},      // star matches nothing
      {"*-eu", "prod-eu", true},      // leading star
      {"p*d-*u", "prod-eu", true},    // several stars
      {"prod", "prod", true},         // no star: equality
      {"prod", "prod-eu", false},     // no star: a prefix is no match
      {"prod-*", "staging-eu", false},
      {"*", "", true},                // star matches the empty text
      {"", "", true},
      {"", "x", false},
      {"a*b", "aXbXb", true},         // backtracks to the last star
      {"a*b", "aXbX", false},
  };
  for (const auto& c : cases) EXPECT_EQ(glob_match(c.pattern, c.text), c.want) << c.pattern << " vs " << c.text;
}

TEST(GlobMatch, StaysLinearOnLongTexts) {
  std::string text(100'000, 'a');
  EXPECT_FALSE(glob_match("*b", text));
  EXPECT_TRUE(glob_match("*a", text));
}

}  // namespace
