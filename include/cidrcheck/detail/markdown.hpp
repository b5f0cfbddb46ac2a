#pragma once
// Text from the input inside Markdown (reports, job summaries, runbooks).

#include <cidrcheck/detail/text.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace cidrcheck::detail {

// Text from the input (names inside messages, reasons, file names) as inert
// Markdown: one line with no control characters (printable); the
// characters that open emphasis, code spans, links and images, strikethrough
// and table columns backslash-escaped (CommonMark escapes any ASCII
// punctuation); '<' and '&' as entities, so no HTML, autolink or entity gets
// through; '>' backslash-escaped only where it would open a block quote (the
// first character after leading blanks, which is a line start when the text
// opens a line or a list item's content) and kept as it is elsewhere, where
// CommonMark gives it no meaning once no '<' can open a tag ("a -> b" stays
// readable in raw view); and a zero-width space after '@' before a name, after '#'
// before a number, in "://" and after "www", since GitHub links mentions,
// issue references and bare URLs after Markdown is parsed, where a backslash
// no longer counts (github/markup#1168, github/cmark-gfm#181).
inline auto markdown_text(std::string_view text) -> std::string {
  auto line = printable(text);
  std::string out;
  out.reserve(line.size());
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; };
  const auto opening = line.find_first_not_of(' ');
  for (std::size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    char next = k + 1 < line.size() ? line[k + 1] : '\0';
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '~': case '|':
        out += '\\';
        out += c;
        break;
      case '<': out += "&lt;"; break;
      case '>':
        if (k == opening) out += '\\';
        out += c;
        break;
      case '&': out += "&amp;"; break;
      case '@':
        out += c;
        if (word_char(next)) out += "\u200B";
        break;
      case '#':
        out += c;
        if (std::isdigit(static_cast<unsigned char>(next)) != 0) out += "\u200B";
        break;
      case ':':
        out += c;
        if (line.compare(k, 3, "://") == 0) out += "\u200B";
        break;
      default:
        out += c;
        if ((c == 'w' || c == 'W') && k >= 2 && (line[k - 1] | 0x20) == 'w' && (line[k - 2] | 0x20) == 'w' && next == '.') {
          out += "\u200B";
        }
    }
  }
  return out;
}

// Text from the input as a code span: a fence longer than any run of
// backticks in it, blanks inside the fence when it starts or ends with one,
// in a table '|' escaped (GFM tables split cells at '|' even in code spans).
inline auto markdown_code_span(std::string_view text, bool in_table = false) -> std::string {
  auto line = printable(text);
  std::size_t longest = 0, run = 0;
  std::string body;
  for (char c : line) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|' && in_table) body += '\\';
    body += c;
  }
  std::string fence(longest + 1, '`');
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace cidrcheck::detail
