#pragma once
// Text from input (names, paths, descriptions) on its way out: the one UTF-8
// check, the one replacement of invalid UTF-8 that every writer uses, the one
// escaping of control characters for people and terminals, the classes of
// characters that show nothing (blanks, zero-width) or mean nothing
// (noncharacters), and the one rule for what a name may contain.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cidrcheck::detail {

/// Returns the length (1 to 4) of the well-formed UTF-8 sequence that starts
/// text (no overlong forms, no surrogates, nothing past U+10FFFF), or 0 when
/// text is empty or starts with a byte that begins no such sequence.
constexpr auto utf8_length(std::string_view text) -> std::size_t {
  if (text.empty()) return 0;
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  auto cont = [&](std::size_t k) { return k < text.size() && (b(k) & 0xC0) == 0x80; };
  unsigned char c = b(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F)) return 0;  // overlong; surrogates
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F)) return 0;
    return 4;
  }
  return 0;
}

/// Decodes the well-formed sequence of n = utf8_length(text) bytes at text's start.
constexpr auto utf8_decode(std::string_view text, std::size_t n) -> char32_t {
  auto b = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(text[k])); };
  switch (n) {
    case 1: return b(0);
    case 2: return (b(0) & 0x1F) << 6 | (b(1) & 0x3F);
    case 3: return (b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
    default: return (b(0) & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
  }
}

/// Reports whether text is well-formed UTF-8.
constexpr auto valid_utf8(std::string_view text) -> bool {
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) return false;
    k += n;
  }
  return true;
}

/// The replacement of invalid UTF-8 that every writer uses (JSON, SARIF,
/// GitLab, JUnit, text): each byte that starts no well-formed sequence becomes
/// U+FFFD, so a file name that is not UTF-8 reads the same in every report.
inline void append_utf8_replaced(std::string& out, std::string_view text) {
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++k;
    } else {
      out.append(text.substr(k, n));
      k += n;
    }
  }
}
inline auto utf8_replaced(std::string_view text) -> std::string {
  if (valid_utf8(text)) return std::string(text);
  std::string out;
  append_utf8_replaced(out, text);
  return out;
}

/// Reports whether c is a character that moves the cursor, starts a terminal
/// or workflow command, or reorders text: C0 controls (NUL, LF, CR, ESC, ...),
/// DEL, C1 controls (NEL, CSI, ...), the line and paragraph separators and the
/// bidirectional embeddings, overrides and isolates ("Trojan Source").
constexpr auto is_control(char32_t c) -> bool {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C || c == 0xFEFF;
}

/// Reports whether c is a Unicode noncharacter: U+FDD0-U+FDEF and the last two
/// code points of every plane (U+FFFE, U+FFFF, U+1FFFE, ..., U+10FFFF), which
/// Unicode keeps out of interchange. XML 1.0 and YAML do not allow U+FFFE and
/// U+FFFF in a document at all.
constexpr auto is_noncharacter(char32_t c) -> bool { return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE; }

/// Reports whether c is a character that shows nothing and takes no width:
/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt: the
/// zero-width space, joiners and non-joiner, the word joiner, the soft hyphen,
/// variation selectors, the Hangul fillers, tags, ...).
constexpr auto is_zero_width(char32_t c) -> bool {
  return c == 0x00AD || c == 0x034F || c == 0x061C || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 ||
         (c >= 0x180B && c <= 0x180F) || (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2060 && c <= 0x206F) || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF || c == 0xFFA0 ||
         (c >= 0xFFF0 && c <= 0xFFF8) || (c >= 0x1BCA0 && c <= 0x1BCA3) || (c >= 0x1D173 && c <= 0x1D17A) ||
         (c >= 0xE0000 && c <= 0xE0FFF);
}

/// Reports whether c is a blank: Unicode's White_Space (PropList.txt: space,
/// tab, line ends, NEL, no-break space, the en and em spaces and their kin,
/// the ideographic space), and U+2800, the braille blank, which shows as one.
constexpr auto is_blank(char32_t c) -> bool {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0x2800;
}

/// Returns how text looks: zero-width characters (is_zero_width) removed and
/// every blank (is_blank) a space. Two names with one look print alike; bytes
/// that are not UTF-8 are kept as they are.
inline auto look_of(std::string_view text) -> std::string {
  std::string out;
  out.reserve(text.size());
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) {
      out += text[k++];
      continue;
    }
    auto c = utf8_decode(text.substr(k), n);
    if (is_blank(c)) out += ' ';
    else if (!is_zero_width(c)) out.append(text.substr(k, n));
    k += n;
  }
  return out;
}

/// Appends text for a person or a terminal, where a line is one line: control
/// characters (is_control) become \xNN (below U+0100) or \u{NNNN}, and bytes
/// that are not UTF-8 become U+FFFD (append_utf8_replaced); everything else, other scripts included,
/// is kept. A GitHub or Azure workflow command, an ANSI escape or a forged
/// second line cannot come out of a name this way.
inline void append_printable(std::string& out, std::string_view text) {
  constexpr char hex[] = "0123456789abcdef";
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) {
      append_utf8_replaced(out, text.substr(k, 1));  // U+FFFD, as every writer replaces it
      ++k;
      continue;
    }
    auto c = utf8_decode(text.substr(k), n);
    if (!is_control(c)) {
      out.append(text.substr(k, n));
    } else if (c < 0x100) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += "\\u{";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(c >> shift) & 15];
      out += '}';
    }
    k += n;
  }
}
inline auto printable(std::string_view text) -> std::string {
  std::string out;
  out.reserve(text.size());
  append_printable(out, text);
  return out;
}

/// Returns how Unicode names a code point: "U+00A0", "U+1FFFE".
inline auto code_point(char32_t c) -> std::string {
  constexpr char hex[] = "0123456789ABCDEF";
  std::string digits;
  for (; c != 0 || digits.size() < 4; c >>= 4) digits.insert(digits.begin(), hex[c & 15]);
  return "U+" + digits;
}

/// The longest name (of a cluster, network or connection) and the longest pin
/// pattern, in bytes: far above any platform's (Kubernetes objects 253, an AWS
/// tag value 256) and a Terraform address through nested modules, and a bound
/// on what matching a pattern against names costs (docs/limits.md).
inline constexpr std::size_t max_name_bytes = 1024;

/// The most bytes of a file not in the expected format that a message quotes.
inline constexpr std::size_t excerpt_bytes = 40;

/// Returns text from a file that may not be the format it was read as (a
/// document that is no mapping, a CSV header without the expected column) as
/// a message may quote it: at most excerpt_bytes, cut at a character, in
/// quotes, with "..." when cut; or, when it could hold a secret (an `=`, a `:`
/// or `@` between words, as in KEY=VALUE, user:password or a credential URL;
/// a control character, as between /proc/self/environ's entries), no text at
/// all but its size: "a text of 2345 bytes". A CI job may be made to read a
/// file a pull request names, and its messages end up in logs and uploads.
inline auto excerpt(std::string_view text) -> std::string {
  auto secret_like = [&] {
    for (std::size_t k = 0; k < text.size(); ++k) {
      auto c = static_cast<unsigned char>(text[k]);
      if (c < 0x20 || c == 0x7f || c == '=' || c == '@') return true;
      if (c == ':' && k > 0 && k + 1 < text.size() && text[k + 1] != ' ' && text[k + 1] != ':' && text[k - 1] != ':') {
        return true;
      }
    }
    return false;
  };
  if (secret_like()) return "a text of " + std::to_string(text.size()) + " byte" + (text.size() == 1 ? "" : "s");
  std::size_t end = 0;
  while (end < text.size()) {
    auto n = utf8_length(text.substr(end));
    if (n == 0) n = 1;  // replaced by printable()
    if (end + n > excerpt_bytes) break;
    end += n;
  }
  return "\"" + printable(text.substr(0, end)) + (end < text.size() ? "...\"" : "\"");
}

/// Why text cannot be a name (of a cluster, network or connection), or
/// nullopt when it can: a name is not empty, not only blanks, at most
/// max_name_bytes long, holds no control character (is_control), no
/// noncharacter (is_noncharacter) and nothing that is not UTF-8, and shows
/// something: not only blanks and zero-width characters (is_blank,
/// is_zero_width). Names are printed in reports, annotations and on standard
/// error, written into YAML and XML, and a name's bytes separate fields in
/// fingerprints; the rule keeps all of them one visible line that every
/// format can hold.
inline auto name_problem(std::string_view text) -> std::optional<std::string> {
  if (text.empty()) return "a name cannot be empty";
  if (text.size() > max_name_bytes) {
    return "a name is at most " + std::to_string(max_name_bytes) + " bytes long, not " + std::to_string(text.size());
  }
  if (text.find_first_not_of(" \t") == std::string_view::npos) return "a name cannot be only blanks";
  bool shows = false;
  for (std::size_t k = 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) return "a name must be UTF-8";
    auto c = utf8_decode(text.substr(k), n);
    if (is_control(c)) {
      std::string shown;
      append_printable(shown, text.substr(k, n));
      return "a name cannot hold a control character (" + shown + " at byte " + std::to_string(k + 1) + ")";
    }
    if (is_noncharacter(c)) {
      return "a name cannot hold a Unicode noncharacter (" + code_point(c) + " at byte " + std::to_string(k + 1) + ")";
    }
    shows = shows || !(is_blank(c) || is_zero_width(c));
    k += n;
  }
  if (!shows) return "a name cannot be only blanks and zero-width characters: it would print as nothing";
  return std::nullopt;
}

}  // namespace cidrcheck::detail
