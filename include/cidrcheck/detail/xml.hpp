#pragma once
// Text in XML (the SVG map, JUnit, Checkstyle and html reports): the one escaping they use.

#include <cidrcheck/detail/text.hpp>

#include <string>
#include <string_view>

namespace cidrcheck::detail {

/// Appends text to out with the five XML specials escaped; control characters
/// that XML 1.0 forbids (all below 0x20 but tab, line feed and carriage
/// return) become '?'; Unicode noncharacters (is_noncharacter: XML 1.0's Char
/// production excludes U+FFFE and U+FFFF, and the others mean nothing) and
/// bytes that are not UTF-8 become U+FFFD, as in every writer
/// (detail::append_utf8_replaced). The result is always XML 1.0 character data.
inline void append_xml_escaped(std::string& out, std::string_view text) {
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) {
      append_utf8_replaced(out, text.substr(k, 1));
      ++k;
      continue;
    }
    auto c = utf8_decode(text.substr(k), n);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') out += '?';
        else if (is_noncharacter(c)) out += "\xEF\xBF\xBD";
        else out.append(text.substr(k, n));
    }
    k += n;
  }
}

}  // namespace cidrcheck::detail
