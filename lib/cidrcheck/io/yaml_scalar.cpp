#include "yaml_scalar.hpp"

#include <cidrcheck/detail/text.hpp>

#include <algorithm>
#include <cctype>

namespace cidrcheck::detail {

namespace {

constexpr char hex_digits[] = "0123456789ABCDEF";

// The characters of a plain scalar this writer leaves unquoted: letters,
// digits and "._/@+-", which YAML reads as text in block and flow context alike.
// No ':' (inside a flow list, "between: [a, b]", libyaml reads it as a key),
// no blank, no '#', no flow indicator.
auto plain_char(char c) -> bool {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("._/@+-").find(c) != std::string_view::npos;
}

// Reports whether text reads back as itself when written plain: it starts
// with a letter, a digit, '_' or '/' (no indicator: '-', '@', '`', '&', ...,
// and no '.' or '+', which begin numbers), holds plain characters only, is not
// a number or a time (a leading digit without a '/'), and is no YAML 1.1
// bool or null ("yes", "off", "~", ...).
auto reads_back_plain(std::string_view text) -> bool {
  if (text.empty() || !std::all_of(text.begin(), text.end(), plain_char)) return false;
  char first = text.front();
  bool digit = first >= '0' && first <= '9';
  if (!(std::isalpha(static_cast<unsigned char>(first)) != 0 || digit || first == '_' || first == '/')) return false;
  if (digit && text.find('/') == std::string_view::npos) return false;
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view word : {"true", "false", "yes", "no", "on", "off", "y", "n", "null"}) {
    if (lower == word) return false;
  }
  return true;
}

void append_escape(std::string& out, char32_t c) {
  if (c < 0x100) {
    out += "\\x";
    out += hex_digits[c >> 4];
    out += hex_digits[c & 15];
    return;
  }
  bool wide = c > 0xFFFF;
  out += wide ? "\\U" : "\\u";
  for (int shift = wide ? 28 : 12; shift >= 0; shift -= 4) out += hex_digits[(c >> shift) & 15];
}

}  // namespace

auto yaml_printable(char32_t c) -> bool {
  // YAML 1.2 c-printable (section 5.1), but for the byte-order mark, which libyaml takes for one anywhere.
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF) || (c >= 0x10000 && c <= 0x10FFFF);
}

auto yaml_scalar(std::string_view text) -> std::string {
  if (reads_back_plain(text)) return std::string(text);
  std::string out = "\"";
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) {
      out += "\\uFFFD";  // a byte that is not UTF-8: replaced, as every writer replaces it
      ++k;
      continue;
    }
    auto c = utf8_decode(text.substr(k), n);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == 0x85 || c == 0x2028 || c == 0x2029) {
      out += c == 0x85 ? "\\N" : c == 0x2028 ? "\\L" : "\\P";  // line breaks to YAML, even inside quotes
    } else if (c < 0x20 || !yaml_printable(c)) {
      append_escape(out, c);  // tab, line ends, DEL, C1 controls, U+FEFF, U+FFFE, U+FFFF
    } else {
      out.append(text.substr(k, n));
    }
    k += n;
  }
  return out + "\"";
}

auto yaml_comment_text(std::string_view text) -> std::string {
  std::string out;
  out.reserve(text.size());
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    char32_t c = n == 0 ? 0 : utf8_decode(text.substr(k), n);
    // A line break would end the comment and forge a line; what YAML does not allow raw would not read.
    bool breaks = c == 0x0A || c == 0x0D || c == 0x85 || c == 0x2028 || c == 0x2029;
    if (n == 0 || breaks || c == 0x09 || !yaml_printable(c)) {
      out += '?';
    } else {
      out.append(text.substr(k, n));
    }
    k += n == 0 ? 1 : n;
  }
  return out;
}

}  // namespace cidrcheck::detail
