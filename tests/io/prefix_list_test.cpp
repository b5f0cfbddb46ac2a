#include <cidrcheck/io/prefix_list.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

auto parse(std::string_view text, list_options options = {}) {
  prefix_list list;
  parse_prefix_list(text, "t.txt", list, options);
  return list;
}

TEST(PrefixList, SkipsCommentsBlanksAndTolerantLineEnds) {
  auto list = parse("\xEF\xBB\xBF# header\n\n  10.0.0.0/8  # office\r\n\t2001:db8::/32\r\n10.1.0.0/16");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list.entries.size(), 3u);
  EXPECT_EQ(list.entries[0].value, prefix::parse("10.0.0.0/8"));
  EXPECT_EQ(list.entries[0].line, 3u);
  EXPECT_EQ(list.entries[1].line, 4u);
  EXPECT_EQ(list.entries[2].line, 5u);  // no newline at the end
  EXPECT_EQ(to_string(list.where(list.entries[2])), "t.txt:5:1");
}

TEST(PrefixList, ReportsEveryBadLineAtItsColumn) {
  auto list = parse("10.0.0.0/8\n   10.0.0.256/24\n10.0.0.1/24\nfoo\n");
  ASSERT_FALSE(list.ok());
  ASSERT_EQ(list.diagnostics.size(), 3u);
  EXPECT_EQ(format_diagnostic(list.diagnostics[0]),
            "t.txt:2:11: error: invalid prefix \"10.0.0.256/24\": octet out of range (at \"256/24\")\n");
  EXPECT_EQ(format_diagnostic(list.diagnostics[1]),
            "t.txt:3:1: error: invalid prefix \"10.0.0.1/24\": host bits set (did you mean 10.0.0.0/24?)\n");
  EXPECT_EQ(list.diagnostics[2].where.line, 4u);
  EXPECT_EQ(list.diagnostics[2].code, "invalid-prefix");
  EXPECT_EQ(list.entries.size(), 1u);
}

TEST(PrefixList, LenientModeMasksHostBits) {
  list_options options;
  options.mode = host_bits::mask;
  auto list = parse("10.0.0.1/24\n", options);
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list.entries[0].value, prefix::parse("10.0.0.0/24"));
}

TEST(PrefixList, AnEmptyListIsAnErrorUnlessAllowed) {
  auto list = parse("# nothing here\n\n");
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.diagnostics[0].code, "empty-input");
  list_options options;
  options.allow_empty = true;
  EXPECT_TRUE(parse("", options).ok());
}

TEST(PrefixList, StopsAfterTooManyErrors) {
  std::string text;
  for (int k = 0; k < 1000; ++k) text += "x\n";
  auto list = parse(text);
  EXPECT_EQ(list.diagnostics.size(), 51u);
  EXPECT_EQ(list.diagnostics.back().code, "too-many-errors");
}

TEST(PrefixList, EnforcesTheLineLengthLimit) {
  list_options options;
  options.max_line_bytes = 16;
  auto list = parse("10.0.0.0/8\n# a comment that is far too long\n", options);
  ASSERT_EQ(list.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(list.diagnostics[0]),
            "t.txt:2:17: error: line is longer than the max-line-bytes limit of 16 bytes\n");
}

TEST(PrefixList, ReadsSeveralFilesAsOneList) {
  std::vector<std::string> paths{CIDRCHECK_FIXTURES "/lists/basic.txt", CIDRCHECK_FIXTURES "/lists/v6.txt"};
  auto list = load_prefix_lists(paths);
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list.sources.size(), 2u);
  EXPECT_EQ(list.entries.back().source, 1u);
}

TEST(PrefixList, ReportsAMissingFile) {
  std::vector<std::string> paths{"/nonexistent/list.txt"};
  auto list = load_prefix_lists(paths);
  ASSERT_EQ(list.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(list.diagnostics[0]),
            "/nonexistent/list.txt: error: cannot open: No such file or directory\n");
}

}  // namespace
}  // namespace cidrcheck
