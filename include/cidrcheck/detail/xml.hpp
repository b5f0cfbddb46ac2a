#pragma once
// Text in XML (the SVG map, JUnit reports): the one escaping both use.

#include <cidrcheck/detail/text.hpp>

#include <string>
#include <string_view>

namespace cidrcheck::detail {

/// Appends text to out with the five XML specials escaped; control characters
/// that XML 1.0 forbids (all below 0x20 but tab, line feed and carriage
/// return) become '?'; bytes that are not UTF-8 become U+FFFD, as in every
/// writer (detail::append_utf8_replaced), since XML parsers reject them.
inline void append_xml_escaped(std::string& out, std::string_view text) {
  if (!valid_utf8(text)) {
    auto valid = utf8_replaced(text);
    append_xml_escaped(out, valid);
    return;
  }
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : c;
    }
  }
}

}  // namespace cidrcheck::detail
