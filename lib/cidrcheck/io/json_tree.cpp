#include "json_tree.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

namespace cidrcheck::detail {

namespace {

// The longest key, in bytes from its opening quote to its colon, taken here:
// libyaml drops a possible key longer than 1024 characters (YAML's limit on
// implicit keys) and reads what follows its own way.
constexpr std::size_t max_key_span = 1000;

// Returns the length of the run of plain string bytes (printable ASCII but
// '"' and '\\') that `text` starts with. Strings are most of an export, so
// the run is tested eight bytes at a time while none of them ends it, with
// the word tests for "a byte below n" and "a byte of 0x7F or more" (which may
// report a byte that is plain, never miss one that is not), then byte by byte.
auto plain_run(std::string_view text) -> std::size_t {
  constexpr std::uint64_t ones = 0x0101010101010101, highs = 0x8080808080808080;
  auto has_below = [&](std::uint64_t w, std::uint64_t n) { return ((w - ones * n) & ~w & highs) != 0; };
  std::size_t k = 0;
  for (; k + 8 <= text.size(); k += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, text.data() + k, 8);
    bool past_tilde = (((w + ones) | w) & highs) != 0;
    if (past_tilde || has_below(w, 0x20) || has_below(w ^ (ones * '"'), 1) || has_below(w ^ (ones * '\\'), 1)) break;
  }
  auto plain = [](unsigned char b) { return b >= 0x20 && b < 0x7F && b != '"' && b != '\\'; };
  while (k < text.size() && plain(static_cast<unsigned char>(text[k]))) ++k;
  return k;
}

// Reads one JSON text into a yaml_document the way parse_yaml() builds it:
// nodes in the order libyaml's events start them, a collection's children
// appended to child_index when it ends, scalars' text in order. Every method
// returns false where the text leaves plain JSON; the caller then discards
// the tree.
class plain_json_reader {
 public:
  plain_json_reader(std::string_view text, const yaml_limits& limits) : text_(text), limits_(limits) {
    doc_.max_depth = limits.max_depth;
    reserve_for_text(doc_, text.size(), limits);
  }

  auto read() -> std::optional<yaml_document> {
    if (!skip_space() || at_end() || (peek() != '{' && peek() != '[')) return std::nullopt;
    if (!read_value()) return std::nullopt;
    // Each turn reads one entry of the innermost collection, or its end; an
    // entry that is a collection opens it, and the next turns read its entries.
    while (!open_.empty()) {
      if (!skip_space() || at_end()) return std::nullopt;
      auto& top = open_.back();
      bool mapping = doc_.nodes[top.node].kind == yaml_kind::mapping;
      if (peek() == (mapping ? '}' : ']')) {
        ++at_;
        close();
        continue;
      }
      if (top.entries++ > 0) {
        if (peek() != ',') return std::nullopt;
        ++at_;
        if (!skip_space() || at_end()) return std::nullopt;
      }
      if (mapping && !read_key()) return std::nullopt;
      if (!read_value()) return std::nullopt;
    }
    if (!skip_space() || !at_end()) return std::nullopt;
    return std::move(doc_);
  }

 private:
  struct open_collection {
    std::uint32_t node;
    std::size_t first_pending;
    std::size_t entries = 0;
  };

  auto at_end() const -> bool { return at_ >= text_.size(); }
  auto peek() const -> char { return text_[at_]; }
  auto line() const -> std::uint32_t { return static_cast<std::uint32_t>(line_); }
  auto column() const -> std::uint32_t { return static_cast<std::uint32_t>(at_ - line_start_ + 1); }

  // Steps over a line break (LF or CRLF); false at a lone CR, which YAML counts as a line and editors do not.
  auto line_break() -> bool {
    if (peek() == '\r') {
      if (at_ + 1 >= text_.size() || text_[at_ + 1] != '\n') return false;
      ++at_;
    }
    ++at_;
    ++line_;
    line_start_ = at_;
    return true;
  }
  // Steps over whitespace: spaces and line breaks, and tabs inside a
  // collection (YAML's flow context) but not around the root, where a tab can
  // be YAML indentation, which libyaml refuses.
  auto skip_space() -> bool {
    bool tabs = !open_.empty();
    while (!at_end()) {
      char c = peek();
      if (c == ' ' || (tabs && c == '\t')) {
        ++at_;
      } else if (c == '\n' || c == '\r') {
        if (!line_break()) return false;
      } else {
        break;
      }
    }
    return true;
  }

  auto count_node(std::size_t bytes) -> bool {
    ++nodes_;
    bytes_ += bytes;
    return nodes_ <= limits_.max_nodes && bytes_ <= limits_.max_bytes;
  }
  auto attach(std::uint32_t k) -> void {
    if (open_.empty()) {
      doc_.roots.push_back(k);
    } else {
      pending_.push_back(k);
    }
  }
  auto add_node(yaml_kind kind, std::uint32_t line, std::uint32_t column) -> std::uint32_t {
    yaml_node n;
    n.kind = kind;
    n.line = line;
    n.column = column;
    n.end_line = this->line();
    n.end_column = this->column();
    doc_.nodes.push_back(n);
    auto k = static_cast<std::uint32_t>(doc_.nodes.size() - 1);
    attach(k);
    return k;
  }
  // Ends the innermost collection, the closing bracket just read.
  auto close() -> void {
    const auto& c = open_.back();
    auto& n = doc_.nodes[c.node];
    n.first = doc_.child_index.size();
    n.size = static_cast<std::uint32_t>(pending_.size() - c.first_pending);
    n.end_line = line();
    n.end_column = column();
    doc_.child_index.insert(doc_.child_index.end(), pending_.begin() + static_cast<std::ptrdiff_t>(c.first_pending),
                            pending_.end());
    pending_.resize(c.first_pending);
    open_.pop_back();
  }

  // A key, its colon on its line (blanks between, no line break) and the space after it; the value is next.
  auto read_key() -> bool {
    if (peek() != '"') return false;
    auto start = at_;
    if (!read_string()) return false;
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++at_;
    if (at_end() || peek() != ':' || at_ - start > max_key_span) return false;
    ++at_;
    return skip_space() && !at_end();
  }

  // A value: a string, a number, a literal, or an object or array, opened (read() reads its entries).
  auto read_value() -> bool {
    char c = peek();
    if (c == '"') return read_string();
    if (c != '{' && c != '[') return read_literal();
    if (open_.size() >= limits_.max_depth || !count_node(0)) return false;
    auto line = this->line(), column = this->column();
    ++at_;
    auto k = add_node(c == '{' ? yaml_kind::mapping : yaml_kind::sequence, line, column);
    doc_.nodes[k].flow = true;
    open_.push_back({k, pending_.size()});
    return true;
  }

  // A number, true, false or null: a plain scalar, ending where a JSON token does.
  auto read_literal() -> bool {
    auto start = at_;
    auto digits = [&] {
      auto from = at_;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++at_;
      return at_ > from;
    };
    for (std::string_view word : {"true", "false", "null"}) {
      if (text_.substr(at_, word.size()) == word) {
        at_ += word.size();
        break;
      }
    }
    if (at_ == start) {
      if (peek() == '-') ++at_;
      if (at_end()) return false;
      if (peek() == '0') {
        ++at_;
      } else if (!digits()) {
        return false;
      }
      if (!at_end() && peek() == '.') {
        ++at_;
        if (!digits()) return false;
      }
      if (!at_end() && (peek() == 'e' || peek() == 'E')) {
        ++at_;
        if (!at_end() && (peek() == '+' || peek() == '-')) ++at_;
        if (!digits()) return false;
      }
    }
    if (!at_end() && std::string_view(" \t\r\n,]}").find(peek()) == std::string_view::npos) return false;
    if (!count_node(at_ - start)) return false;
    auto line = this->line(), column = static_cast<std::uint32_t>(start - line_start_ + 1);
    auto k = add_node(yaml_kind::scalar, line, column);
    doc_.nodes[k].first = doc_.scalar_text.size();
    doc_.nodes[k].size = static_cast<std::uint32_t>(at_ - start);
    doc_.scalar_text.append(text_.substr(start, at_ - start));
    return true;
  }

  // A string, its escapes resolved: a double-quoted scalar.
  auto read_string() -> bool {
    auto line = this->line(), column = this->column();
    auto first = doc_.scalar_text.size();
    ++at_;
    for (;;) {
      auto run = at_;
      at_ += plain_run(text_.substr(at_));
      doc_.scalar_text.append(text_.substr(run, at_ - run));
      if (at_end()) return false;
      auto b = static_cast<unsigned char>(peek());
      if (b == '"') break;
      if (b == '\\') {
        if (!read_escape()) return false;
      } else if (b >= 0x80) {
        if (!read_utf8()) return false;
      } else {
        return false;  // a control character or DEL: not JSON, or not printable to YAML
      }
    }
    ++at_;
    auto length = doc_.scalar_text.size() - first;
    if (length > UINT32_MAX || !count_node(length)) return false;
    auto k = add_node(yaml_kind::scalar, line, column);
    auto& n = doc_.nodes[k];
    n.quoted = true;
    n.first = first;
    n.size = static_cast<std::uint32_t>(length);
    return true;
  }

  auto read_escape() -> bool {
    if (at_ + 1 >= text_.size()) return false;
    char e = text_[at_ + 1];
    at_ += 2;
    switch (e) {
      case '"': doc_.scalar_text += '"'; return true;
      case '\\': doc_.scalar_text += '\\'; return true;
      case '/': doc_.scalar_text += '/'; return true;
      case 'b': doc_.scalar_text += '\b'; return true;
      case 'f': doc_.scalar_text += '\f'; return true;
      case 'n': doc_.scalar_text += '\n'; return true;
      case 'r': doc_.scalar_text += '\r'; return true;
      case 't': doc_.scalar_text += '\t'; return true;
      case 'u': break;
      default: return false;
    }
    if (at_ + 4 > text_.size()) return false;
    std::uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[at_++];
      cp <<= 4;
      if (h >= '0' && h <= '9') {
        cp |= static_cast<std::uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        cp |= static_cast<std::uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        cp |= static_cast<std::uint32_t>(h - 'A' + 10);
      } else {
        return false;
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) return false;  // libyaml refuses a surrogate escape
    append_utf8(cp);
    return true;
  }

  auto append_utf8(std::uint32_t cp) -> void {
    auto& out = doc_.scalar_text;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // One UTF-8 character of a string, copied: valid, and printable to YAML
  // (no C1 control, no NEL, LS or PS, which YAML takes as line breaks, no
  // byte-order mark, no U+FFFE or U+FFFF).
  auto read_utf8() -> bool {
    auto b = static_cast<unsigned char>(peek());
    std::size_t length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    if (length == 0 || b > 0xF4 || at_ + length > text_.size()) return false;
    std::uint32_t cp = b & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i) {
      auto next = static_cast<unsigned char>(text_[at_ + i]);
      if ((next & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (next & 0x3F);
    }
    constexpr std::uint32_t shortest[] = {0, 0, 0x80, 0x800, 0x10000};
    bool printable = (cp >= 0xA0 && cp <= 0xD7FF && cp != 0x2028 && cp != 0x2029) ||
                     (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF) || (cp >= 0x10000 && cp <= 0x10FFFF);
    if (cp < shortest[length] || !printable) return false;
    doc_.scalar_text.append(text_.substr(at_, length));
    at_ += length;
    return true;
  }

  std::string_view text_;
  const yaml_limits& limits_;
  yaml_document doc_;
  std::size_t at_ = 0, line_ = 1, line_start_ = 0;
  std::size_t nodes_ = 0, bytes_ = 0;
  std::vector<open_collection> open_;
  std::vector<std::uint32_t> pending_;
};

}  // namespace

auto parse_plain_json(std::string_view text, const yaml_limits& limits) -> std::optional<yaml_document> {
  return plain_json_reader(text, limits).read();
}

}  // namespace cidrcheck::detail
