#include <cidrcheck/detail/markdown.hpp>

#include <gtest/gtest.h>

namespace {

using cidrcheck::detail::markdown_code_span;
using cidrcheck::detail::markdown_text;

TEST(MarkdownText, EscapesWhatOpensMarkupAndHtml) {
  EXPECT_EQ(markdown_text("*a* _b_ `c` [d](e) ~f~ |g|"), "\\*a\\* \\_b\\_ \\`c\\` \\[d\\](e) \\~f\\~ \\|g\\|");
  EXPECT_EQ(markdown_text("<script> & x"), "&lt;script> &amp; x");
}

TEST(MarkdownText, EscapesABlockQuoteOnlyAtTheStart) {
  EXPECT_EQ(markdown_text("> quote"), "\\> quote");
  EXPECT_EQ(markdown_text("  > quote"), "  \\> quote");
  EXPECT_EQ(markdown_text("a -> b"), "a -> b");
}

TEST(MarkdownText, BreaksMentionsIssueLinksAndBareUrls) {
  const std::string zwsp = "\u200B";
  EXPECT_EQ(markdown_text("@alice"), "@" + zwsp + "alice");
  EXPECT_EQ(markdown_text("#12"), "#" + zwsp + "12");
  EXPECT_EQ(markdown_text("https://x"), "https:" + zwsp + "//x");
  EXPECT_EQ(markdown_text("www.x"), "www" + zwsp + ".x");
  EXPECT_EQ(markdown_text("a@ b # c"), "a@ b # c");  // nothing follows that GitHub would link
}

TEST(MarkdownText, KeepsOneLine) { EXPECT_EQ(markdown_text("a\nb").find('\n'), std::string::npos); }

TEST(MarkdownCodeSpan, FenceIsLongerThanAnyBacktickRun) {
  EXPECT_EQ(markdown_code_span("10.0.0.0/8"), "`10.0.0.0/8`");
  EXPECT_EQ(markdown_code_span("a``b"), "```a``b```");
  EXPECT_EQ(markdown_code_span("`a"), "`` `a ``");  // a backtick at an edge: blanks inside the fence
  EXPECT_EQ(markdown_code_span("a|b", true), "`a\\|b`");  // in a table '|' would split the cell
  EXPECT_EQ(markdown_code_span("a|b"), "`a|b`");
}

}  // namespace
