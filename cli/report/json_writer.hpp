#pragma once
// A streaming JSON writer for the large reports: it appends straight to the
// output buffer, so a report of a million findings allocates nothing per
// finding (building one nlohmann tree per finding spent most of its time in
// malloc). The text is byte for byte what nlohmann's dump() prints, compact or
// indented, so either can write any part of a report.

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/detail/u128.hpp>
#include <cidrcheck/records.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::cli {

class json_writer : public record_sink {
 public:
  /// Appends to out; indent 0 writes compact JSON, indent > 0 one member a line.
  /// depth is the nesting the text continues at (for a part of a larger document).
  explicit json_writer(std::string& out, int indent = 0, int depth = 0) : out_(out), indent_(indent), depth_(depth) {}

  void begin_object() override { open('{'); }
  void end_object() override { close('}'); }
  void begin_array() override { open('['); }
  void end_array() override { close(']'); }

  void key(std::string_view k) override {
    element();
    string_literal(k);
    out_ += indent_ > 0 ? ": " : ":";
    after_key_ = true;
  }
  using record_sink::value;
  void value(std::string_view v) override {
    element();
    string_literal(v);
  }
  void value(std::uint64_t v) override {
    element();
    out_ += std::to_string(v);
  }
  void value(std::int64_t v) override {
    element();
    out_ += std::to_string(v);
  }
  /// Writes a count too large for 64 bits (IPv6 address counts) exactly; JSON
  /// numbers have no size limit, though JavaScript reads them as doubles.
  void value(uint128 v) {
    element();
    out_ += to_decimal(v);
  }
  /// Writes a number given as its decimal digits (a count past 128 bits).
  void number(std::string_view digits) {
    element();
    out_ += digits;
  }
  void value(bool v) override {
    element();
    out_ += v ? "true" : "false";
  }
  void null() override {
    element();
    out_ += "null";
  }
  /// Writes key and value (the counts past 64 bits too).
  template <class T>
  void member(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

 private:
  struct level {
    std::size_t count = 0;
  };

  void open(char c) {
    element();
    out_ += c;
    levels_.push_back({});
    ++depth_;
  }
  void close(char c) {
    auto count = levels_.back().count;
    levels_.pop_back();
    --depth_;
    if (count > 0 && indent_ > 0) newline();
    out_ += c;
  }
  // Before every value or key: the separator and, when indenting, a new line.
  void element() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (levels_.empty()) return;
    if (levels_.back().count++ > 0) out_ += ',';
    if (indent_ > 0) newline();
  }
  void newline() {
    out_ += '\n';
    out_.append(static_cast<std::size_t>(indent_ * depth_), ' ');
  }
  // Quotes and escapes text as nlohmann does; bytes that are not UTF-8 become
  // U+FFFD, as detail::append_utf8_replaced does for every writer.
  void string_literal(std::string_view s) {
    constexpr char hex[] = "0123456789abcdef";
    out_ += '"';
    for (std::size_t k = 0; k < s.size();) {
      auto c = static_cast<unsigned char>(s[k]);
      if (c >= 0x80) {
        auto n = detail::utf8_length(s.substr(k));
        if (n == 0) {
          out_ += "\xEF\xBF\xBD";
          ++k;
        } else {
          out_.append(s.substr(k, n));
          k += n;
        }
        continue;
      }
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default:
          if (c < 0x20) {
            out_ += "\\u00";
            out_ += hex[c >> 4];
            out_ += hex[c & 15];
          } else {
            out_ += static_cast<char>(c);
          }
      }
      ++k;
    }
    out_ += '"';
  }
  std::string& out_;
  int indent_;
  int depth_;
  std::vector<level> levels_;
  bool after_key_ = false;
};

}  // namespace cidrcheck::cli
