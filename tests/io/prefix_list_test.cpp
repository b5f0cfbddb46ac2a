#include <cidrcheck/io/prefix_list.hpp>

#include "../unit/random.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>
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
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].value, prefix::parse("10.0.0.0/8"));
  EXPECT_EQ(list[0].line, 3u);
  EXPECT_EQ(list[1].value, prefix::parse("2001:db8::/32"));
  EXPECT_EQ(list[1].line, 4u);
  EXPECT_EQ(list[2].line, 5u);  // no newline at the end
  EXPECT_EQ(to_string(list.where(list[2])), "t.txt:5:1");
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
  EXPECT_EQ(list.size(), 1u);
}

TEST(PrefixList, LenientModeMasksHostBits) {
  list_options options;
  options.mode = host_bits::mask;
  auto list = parse("10.0.0.1/24\n", options);
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list[0].value, prefix::parse("10.0.0.0/24"));
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
  EXPECT_EQ(list[list.size() - 1].source, 1u);
}

TEST(PrefixList, ReportsAMissingFile) {
  std::vector<std::string> paths{"/nonexistent/list.txt"};
  auto list = load_prefix_lists(paths);
  ASSERT_EQ(list.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(list.diagnostics[0]),
            "/nonexistent/list.txt: error: cannot open: No such file or directory\n");
}

// What the reader must make of a text, line by line, through prefix::try_parse
// alone: (prefix, line) for every CIDR, and the line of every bad or too long one. The
// reader's fast path for bare IPv4 lines must agree with it.
struct oracle_result {
  std::vector<std::pair<prefix, std::uint32_t>> entries;
  std::vector<std::uint32_t> bad_lines;
};

auto oracle(std::string_view text, host_bits mode, std::size_t max_line_bytes) -> oracle_result {
  oracle_result out;
  std::uint32_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (line.size() > max_line_bytes) {
      out.bad_lines.push_back(line_number);
      continue;
    }
    line = line.substr(0, line.find('#'));
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!line.empty() && blank(line.front())) line.remove_prefix(1);
    while (!line.empty() && blank(line.back())) line.remove_suffix(1);
    if (line.empty()) continue;
    if (auto p = prefix::try_parse(line, mode)) {
      out.entries.emplace_back(*p, line_number);
    } else {
      out.bad_lines.push_back(line_number);
    }
  }
  return out;
}

// Random lines near the fast path's form: IPv4 CIDRs with octets and lengths
// at and past their limits, leading zeros, host bits, a missing or extra
// part, CRLF, blanks, comments, IPv6, and the last line with or without its newline.
auto random_list(test::random_source& next, std::size_t lines) -> std::string {
  static const char* const numbers[] = {"0",  "1",   "9",   "10",  "00",  "01",  "007", "32",
                                        "33", "99", "128", "255", "256", "999", "1000", ""};
  static const char* const extras[] = {"", "", "", "", "\r", " ", "\t# c", "#", "x", ".", "/", "/8", ":"};
  std::string text;
  for (std::size_t k = 0; k < lines; ++k) {
    switch (next() % 8) {
      case 0: text += next() % 2 ? "2001:db8::/32" : "::/0"; break;
      case 1: text += next() % 2 ? "" : "  # a comment"; break;
      default: {
        for (int part = 0; part < 5; ++part) {
          text += next() % 3 ? std::to_string(next() % (part < 4 ? 256 : 33)) : numbers[next() % std::size(numbers)];
          if (part < 4) text += part < 3 ? (next() % 30 ? "." : "/") : (next() % 30 ? "/" : ".");
        }
        text += extras[next() % std::size(extras)];
      }
    }
    if (k + 1 < lines || next() % 2) text += '\n';
  }
  return text;
}

TEST(PrefixList, AgreesWithTryParseLineByLine) {
  test::random_source next(29);
  for (int round = 0; round < 400; ++round) {
    const auto text = random_list(next, 1 + next() % 40);
    for (auto mode : {host_bits::reject, host_bits::mask}) {
      for (std::size_t max_line : {std::size_t{64} << 10, std::size_t{17}}) {
        list_options options;
        options.mode = mode;
        options.max_errors = 1000;
        options.allow_empty = true;
        options.max_line_bytes = max_line;
        auto list = parse(text, options);
        auto want = oracle(text, mode, max_line);
        ASSERT_EQ(list.size(), want.entries.size()) << text;
        for (std::size_t k = 0; k < list.size(); ++k) {
          ASSERT_EQ(list[k].value, want.entries[k].first) << text;
          ASSERT_EQ(list[k].line, want.entries[k].second) << text;
        }
        ASSERT_EQ(list.diagnostics.size(), want.bad_lines.size()) << text;
        for (std::size_t k = 0; k < want.bad_lines.size(); ++k) {
          ASSERT_EQ(list.diagnostics[k].where.line, want.bad_lines[k]) << text;
        }
      }
    }
  }
}

// Lines and sources come back from runs: across blank lines, comments, a
// change of family and a second file, every CIDR knows where it was read.
TEST(PrefixList, RecoversEveryLineAndSourceFromItsRuns) {
  prefix_list list;
  parse_prefix_list("10.0.0.0/8\n10.1.0.0/16\n\n10.2.0.0/16\n2001:db8::/32\n10.3.0.0/16 # x\n", "a", list);
  parse_prefix_list("10.4.0.0/16\n::/0", "b", list);
  ASSERT_TRUE(list.ok());
  const std::vector<std::tuple<std::string, std::string, std::uint32_t>> want{
      {"10.0.0.0/8", "a", 1},  {"10.1.0.0/16", "a", 2},  {"10.2.0.0/16", "a", 4}, {"2001:db8::/32", "a", 5},
      {"10.3.0.0/16", "a", 6}, {"10.4.0.0/16", "b", 1}, {"::/0", "b", 2}};
  ASSERT_EQ(list.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    const auto e = list[k];
    EXPECT_EQ(e.value.to_string(), std::get<0>(want[k])) << k;
    EXPECT_EQ(list.sources[e.source], std::get<1>(want[k])) << k;
    EXPECT_EQ(e.line, std::get<2>(want[k])) << k;
  }
  EXPECT_EQ(list.keys().v4.size(), 5u);
  EXPECT_EQ(list.keys().v6.size(), 2u);

  auto keys = std::move(list).take_keys();
  EXPECT_EQ(keys.size(), 7u);
  EXPECT_EQ(prefix_keys::v4_prefix(keys.v4[4]).to_string(), "10.4.0.0/16");  // each family in input order
  EXPECT_EQ(prefix_keys::v6_prefix(keys.v6[0]).to_string(), "2001:db8::/32");
}

TEST(PrefixList, PushBackKeepsLinesOfAnyOrder) {
  prefix_list list;
  list.sources = {"x"};
  list.push_back(prefix::parse("10.0.0.0/8"), 0, 7);
  list.push_back(prefix::parse("10.0.0.0/8"), 0, 3);  // an earlier line: a new run
  list.push_back(prefix{}, 0, 4);                     // invalid: not added
  list.push_back(prefix::parse("10.0.0.0/9"), 0, 4);  // extends the run of line 3
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].line, 7u);
  EXPECT_EQ(list[1].line, 3u);
  EXPECT_EQ(list[2].line, 4u);
  EXPECT_EQ(list[2].value, prefix::parse("10.0.0.0/9"));
}

}  // namespace
}  // namespace cidrcheck
