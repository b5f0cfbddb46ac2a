#include <cidrcheck/detail/xml.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

auto escaped(std::string_view text) -> std::string {
  std::string out = "[";
  cidrcheck::detail::append_xml_escaped(out, text);
  return out;
}

TEST(XmlEscape, EscapesTheFiveSpecials) {
  EXPECT_EQ(escaped("<a href=\"x\">Tom & Jerry's</a>"), "[&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;");
}

TEST(XmlEscape, ReplacesForbiddenControlsKeepsTabAndLineBreaks) {
  EXPECT_EQ(escaped("a\x01" "b\x1b" "c\td\ne\rf"), "[a?b?c\td\ne\rf");
}

TEST(XmlEscape, ReplacesBytesThatAreNotUtf8) {
  EXPECT_EQ(escaped("caf\xe9"), "[caf\xEF\xBF\xBD");  // U+FFFD
  EXPECT_EQ(escaped("caf\xC3\xA9"), "[caf\xC3\xA9");  // valid UTF-8 stays
}

// Issue 28, item 12: a noncharacter in a suppression reason or a file name made JUnit,
// Checkstyle and the SVG map ill-formed XML.
TEST(XmlEscape, ReplacesNoncharacters) {
  EXPECT_EQ(escaped("a\xEF\xBF\xBE" "b\xEF\xBF\xBF"), "[a\uFFFD" "b\uFFFD");
  EXPECT_EQ(escaped("\xEF\xB7\x90\xF0\x9F\xBF\xBF"), "[\uFFFD\uFFFD");  // U+FDD0, U+1FFFF
  EXPECT_EQ(escaped("\xEF\xBF\xBD\xF0\x9F\x98\x80"), "[\uFFFD\U0001F600");  // U+FFFD and an emoji stay
}

}  // namespace
