#include <cidrcheck/detail/text.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace cidrcheck::detail {
namespace {

using namespace std::string_view_literals;

TEST(Text, Utf8LengthAcceptsOnlyWellFormedSequences) {
  EXPECT_EQ(utf8_length("a"), 1u);
  EXPECT_EQ(utf8_length("\xC3\xA9"), 2u);          // é
  EXPECT_EQ(utf8_length("\xE2\x80\xA8"), 3u);      // U+2028
  EXPECT_EQ(utf8_length("\xF0\x9F\x98\x80"), 4u);  // U+1F600
  EXPECT_EQ(utf8_length("\xFF"), 0u);
  EXPECT_EQ(utf8_length("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(utf8_length("\xED\xA0\x80"), 0u);      // a surrogate
  EXPECT_EQ(utf8_length("\xF4\x90\x80\x80"), 0u);  // past U+10FFFF
  EXPECT_EQ(utf8_length("\xE2\x80"), 0u);          // cut short
  EXPECT_TRUE(valid_utf8("plain, é, 😀"));
  EXPECT_FALSE(valid_utf8("a\xFF" "b"));
}

TEST(Text, EveryInvalidByteBecomesOneReplacementCharacter) {
  EXPECT_EQ(utf8_replaced("a\xFF" "b"), "a\uFFFD" "b");
  EXPECT_EQ(utf8_replaced("\xE2\x80"), "\uFFFD\uFFFD");
  EXPECT_EQ(utf8_replaced("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_TRUE(valid_utf8(utf8_replaced("\x80\x81\xFE\xFF\xC0")));
}

TEST(Text, PrintableEscapesEveryControlCharacterAndKeepsTheRest) {
  EXPECT_EQ(printable("prod-eu, café 😀"), "prod-eu, café 😀");
  EXPECT_EQ(printable("a\nb\rc\x1b[31md\te"), "a\\x0ab\\x0dc\\x1b[31md\\x09e");
  EXPECT_EQ(printable("a\0b"sv), "a\\x00b");
  EXPECT_EQ(printable("\x7f"), "\\x7f");
  EXPECT_EQ(printable("\xC2\x85"), "\\x85");               // NEL, a C1 control
  EXPECT_EQ(printable("\xC2\x9B" "31m"), "\\x9b" "31m");    // CSI
  EXPECT_EQ(printable("\xE2\x80\xA8"), "\\u{2028}");        // LINE SEPARATOR
  EXPECT_EQ(printable("\xE2\x80\xAE"), "\\u{202e}");        // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(printable("a\xFF"), "a\uFFFD");
  // Whatever the name, the result is one line of valid UTF-8 with no control character.
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  auto shown = printable(all);
  EXPECT_TRUE(valid_utf8(shown));
  for (char c : shown) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << shown;
}

TEST(Text, NamesAreRefusedWithControlCharactersBlanksOrNothing) {
  EXPECT_FALSE(name_problem("prod-eu"));
  EXPECT_FALSE(name_problem("tailnet routes"));
  EXPECT_FALSE(name_problem("route:10.0.0.0/8"));
  EXPECT_FALSE(name_problem("café"));
  EXPECT_EQ(name_problem(""), "a name cannot be empty");
  EXPECT_EQ(name_problem("   "), "a name cannot be only blanks");
  EXPECT_EQ(name_problem("a\n::error::forged"), "a name cannot hold a control character (\\x0a at byte 2)");
  EXPECT_TRUE(name_problem("a\0b"sv));
  EXPECT_TRUE(name_problem("a\x1b[31m"));
  EXPECT_TRUE(name_problem("a\r"));
  EXPECT_TRUE(name_problem("a\t"));
  EXPECT_TRUE(name_problem("a\xC2\x85"));
  EXPECT_TRUE(name_problem("a\xE2\x80\xAE" "b"));
  EXPECT_EQ(name_problem("a\xFF"), "a name must be UTF-8");
  // At most max_name_bytes: a bound on printing names and on matching pins against them.
  EXPECT_FALSE(name_problem(std::string(max_name_bytes, 'n')));
  EXPECT_EQ(name_problem(std::string(max_name_bytes + 1, 'n')), "a name is at most 1024 bytes long, not 1025");
  EXPECT_EQ(name_problem(std::string(160'000, 'n')), "a name is at most 1024 bytes long, not 160000");
}

// A file of another format is quoted only as far as is safe: bounded, and nothing of
// what could be a secret (issue 28 item 4: /proc/self/environ in every report).
TEST(Excerpt, QuotesAtMostFortyBytesAndNothingThatLooksLikeASecret) {
  EXPECT_EQ(excerpt("Prefix"), "\"Prefix\"");
  EXPECT_EQ(excerpt("10.0.0.0/8"), "\"10.0.0.0/8\"");
  EXPECT_EQ(excerpt("fd00::/8"), "\"fd00::/8\"");
  EXPECT_EQ(excerpt(std::string(50, 'a')), "\"" + std::string(40, 'a') + "...\"");
  EXPECT_EQ(excerpt(std::string(39, 'a') + "\xc3\xa9x"), "\"" + std::string(39, 'a') + "...\"");  // cut at a character
  EXPECT_EQ(excerpt("HOME=/root"), "a text of 10 bytes");
  EXPECT_EQ(excerpt("https://user:hunter2@host"), "a text of 25 bytes");
  EXPECT_EQ(excerpt("admin:hunter2"), "a text of 13 bytes");
  EXPECT_EQ(excerpt(std::string("a\0b", 3)), "a text of 3 bytes");
  EXPECT_EQ(excerpt("x"), "\"x\"");
  EXPECT_EQ(excerpt("="), "a text of 1 byte");
}

// Issue 28, item 12: noncharacters cannot be written into XML (U+FFFE, U+FFFF) and mean nothing anywhere.
TEST(Text, NamesAreRefusedWithNoncharacters) {
  EXPECT_EQ(name_problem("a\xEF\xBF\xBE"), "a name cannot hold a Unicode noncharacter (U+FFFE at byte 2)");
  EXPECT_EQ(name_problem("\xEF\xBF\xBF"), "a name cannot hold a Unicode noncharacter (U+FFFF at byte 1)");
  EXPECT_EQ(name_problem("ab\xEF\xB7\x90"), "a name cannot hold a Unicode noncharacter (U+FDD0 at byte 3)");
  EXPECT_EQ(name_problem("\xF0\x9F\xBF\xBE"), "a name cannot hold a Unicode noncharacter (U+1FFFE at byte 1)");
  EXPECT_EQ(name_problem("\xF4\x8F\xBF\xBF"), "a name cannot hold a Unicode noncharacter (U+10FFFF at byte 1)");
  EXPECT_FALSE(name_problem("\xEF\xBF\xBD"));  // U+FFFD, the replacement character, is a character
  EXPECT_FALSE(name_problem("\xEF\xB7\xB0"));  // U+FDF0, just past the block
  for (char32_t c : {char32_t{0xFDD0}, char32_t{0xFDEF}, char32_t{0xFFFE}, char32_t{0x2FFFF}, char32_t{0x10FFFE}}) {
    EXPECT_TRUE(is_noncharacter(c)) << code_point(c);
  }
  for (char32_t c : {char32_t{0xFDCF}, char32_t{0xFDF0}, char32_t{0xFFFD}, char32_t{0x1FFFD}, char32_t{0x10000}}) {
    EXPECT_FALSE(is_noncharacter(c)) << code_point(c);
  }
}

// Issue 28, item 26: a name of blanks and zero-width characters prints as nothing.
TEST(Text, NamesThatShowNothingAreRefused) {
  const std::string nothing = "a name cannot be only blanks and zero-width characters: it would print as nothing";
  EXPECT_EQ(name_problem("\xC2\xA0"), nothing);                  // NO-BREAK SPACE
  EXPECT_EQ(name_problem("\xE2\x80\x8B"), nothing);              // ZERO WIDTH SPACE
  EXPECT_EQ(name_problem(" \xC2\xA0\xE2\x80\x8B\xE3\x80\x80"), nothing);  // and the ideographic space
  EXPECT_EQ(name_problem("\xE2\xA0\x80"), nothing);              // BRAILLE PATTERN BLANK
  EXPECT_EQ(name_problem("\xE3\x85\xA4"), nothing);              // HANGUL FILLER
  EXPECT_FALSE(name_problem("a\xE2\x80\x8B"));                   // something shows
  EXPECT_FALSE(name_problem("\xC2\xA0x"));
}

TEST(Text, TheLookOfANameDropsZeroWidthCharactersAndUnifiesBlanks) {
  EXPECT_EQ(look_of("prod-eu"), "prod-eu");
  EXPECT_EQ(look_of("prod\xE2\x80\x8B-eu"), "prod-eu");          // ZERO WIDTH SPACE
  EXPECT_EQ(look_of("prod\xC2\xAD-eu\xE2\x81\xA0"), "prod-eu");  // SOFT HYPHEN, WORD JOINER
  EXPECT_EQ(look_of("a\xC2\xA0" "b"), "a b");                   // NO-BREAK SPACE
  EXPECT_EQ(look_of("a\xE3\x80\x80" "b"), "a b");              // IDEOGRAPHIC SPACE
  EXPECT_EQ(look_of("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(code_point(0xA0), "U+00A0");
  EXPECT_EQ(code_point(0x1F600), "U+1F600");
}

}  // namespace
}  // namespace cidrcheck::detail
