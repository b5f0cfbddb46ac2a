// The JSON shortcut's contract: where it reads a text, its tree is libyaml's,
// node for node and position for position; where libyaml might read a text
// differently (or refuse it), it declines, and parse_yaml() is libyaml's.

#include "../../lib/cidrcheck/io/json_tree.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {
namespace {

auto libyaml_tree(std::string_view text, const yaml_limits& limits = {}) -> yaml_document {
  std::vector<diagnostic> d;
  auto doc = parse_yaml_with_libyaml(text, "t.json", limits, d);
  EXPECT_TRUE(d.empty()) << text << ": " << (d.empty() ? "" : d.front().message);
  return doc;
}

// Checks that the shortcut reads text, into libyaml's tree.
auto expect_same_tree(std::string_view text) -> void {
  auto shortcut = parse_plain_json(text, {});
  ASSERT_TRUE(shortcut.has_value()) << "the shortcut declined:\n" << text;
  auto reference = libyaml_tree(text);
  ASSERT_EQ(shortcut->nodes.size(), reference.nodes.size()) << text;
  for (std::size_t k = 0; k < reference.nodes.size(); ++k) {
    const auto& a = shortcut->nodes[k];
    const auto& b = reference.nodes[k];
    auto at = [&](const yaml_node& n) {
      return std::to_string(n.line) + ":" + std::to_string(n.column) + "-" + std::to_string(n.end_line) + ":" +
             std::to_string(n.end_column);
    };
    EXPECT_EQ(a.kind, b.kind) << "node " << k << " of\n" << text;
    EXPECT_EQ(a.quoted, b.quoted) << "node " << k << " of\n" << text;
    EXPECT_EQ(a.flow, b.flow) << "node " << k << " of\n" << text;
    EXPECT_EQ(at(a), at(b)) << "node " << k << " of\n" << text;
    auto k32 = static_cast<std::uint32_t>(k);
    EXPECT_EQ(shortcut->value(k32), reference.value(k32)) << "node " << k << " of\n" << text;
    auto ca = shortcut->children(k32), cb = reference.children(k32);
    EXPECT_EQ(std::vector<std::uint32_t>(ca.begin(), ca.end()), std::vector<std::uint32_t>(cb.begin(), cb.end()))
        << "node " << k << " of\n" << text;
  }
  EXPECT_EQ(shortcut->roots, reference.roots) << text;
  EXPECT_EQ(shortcut->max_depth, reference.max_depth);
}

TEST(JsonTree, ReadsJsonAsLibyamlDoes) {
  for (std::string_view text : {
           R"({"a": 1, "b": [true, false, null], "c": {"d": "e"}})",
           R"({"a":1,"b":[true,false,null],"c":{"d":"e"}})",
           "{\n  \"items\": [\n    {\"cidr\": \"10.0.0.0/8\"},\n    {\"cidr\": \"fd00::/8\"}\n  ]\n}\n",
           "{\r\n\t\"a\":\t[1,\r\n\t\t2]\r\n}\r\n",
           "\n\n   [1, 2]   \n\n",
           R"([0, -0, 12, -3.25, 1e5, 1E+5, 2.5e-3, 123456789012345678901234567890])",
           R"({"": "", "empty": [], "nothing": {}, "deep": [[[[{}]]]]})",
           R"(["\"\\\/\b\f\n\r\t", "\u00e9\u4e2d\u2028\u0000x", "caf\u00E9"])",
           "[\"caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80 \xC2\xA0\"]",
           R"({"dup": 1, "dup": 2})",
           R"({"key with spaces"   :   "v", "k2"	:"v2"})",
           "[\n\"a\"\n,\n\"b\"\n]",
           "{\"a\":\n\n  1}",
       }) {
    expect_same_tree(text);
  }
}

TEST(JsonTree, DeclinesWhatLibyamlMightReadAnotherWay) {
  std::string long_key = "{\"" + std::string(1100, 'k') + "\": 1}";
  for (std::string_view text : {
           std::string_view("a: 1\n"),                       // YAML
           std::string_view("\"a\"\n"),                      // a scalar root
           std::string_view("[1, 2] # comment\n"),           // a comment
           std::string_view("[1, 2,]"),                      // a trailing comma
           std::string_view("['a']"),                        // single quotes
           std::string_view("[a]"),                          // a plain word
           std::string_view("[01]"),                         // not a JSON number
           std::string_view("[truex]"),                      // a literal that goes on
           std::string_view("[1 2]"),                        // no comma
           std::string_view("{\"a\" 1}"),                    // no colon
           std::string_view("{\"a\"\n: 1}"),                 // a colon on the key's next line
           std::string_view(long_key),                       // a key longer than YAML's 1024 characters
           std::string_view("[1,\r2]"),                      // a lone CR
           std::string_view("\t[1]"),                        // a tab where YAML reads indentation
           std::string_view("\xEF\xBB\xBF[1]"),              // a byte-order mark
           std::string_view("[\"a\tb\"]"),                   // a raw tab in a string
           std::string_view("[\"a\x7F\"]"),                  // DEL
           std::string_view("[\"\xC2\x85\"]"),               // NEL, a line break to YAML
           std::string_view("[\"\xE2\x80\xA8\"]"),           // LS
           std::string_view("[\"\xC2\x80\"]"),               // a C1 control
           std::string_view("[\"\xEF\xBF\xBE\"]"),           // U+FFFE
           std::string_view("[\"\xC0\xAF\"]"),               // an overlong encoding
           std::string_view("[\"\xED\xA0\x80\"]"),           // a UTF-8 surrogate
           std::string_view("[\"\\ud83d\\ude00\"]"),         // a surrogate escape
           std::string_view("[\"\\x41\"]"),                  // a YAML-only escape
           std::string_view("[1]\n---\n[2]\n"),              // two documents
           std::string_view("[1] [2]"),                      // more after the root
           std::string_view("[\"unterminated"),              // a syntax error
           std::string_view("{\"a\": [1, 2}"),               // mismatched brackets
           std::string_view(""),                             // nothing
       }) {
    EXPECT_FALSE(parse_plain_json(text, {}).has_value()) << text;
  }
}

TEST(JsonTree, DeclinesATextBeyondTheLimitsSoThatLibyamlReportsThem) {
  yaml_limits depth;
  depth.max_depth = 3;
  EXPECT_TRUE(parse_plain_json("[[[1]]]", depth).has_value());
  EXPECT_FALSE(parse_plain_json("[[[[1]]]]", depth).has_value());
  yaml_limits nodes;
  nodes.max_nodes = 4;
  EXPECT_TRUE(parse_plain_json("[1, 2, 3]", nodes).has_value());
  EXPECT_FALSE(parse_plain_json("[1, 2, 3, 4]", nodes).has_value());
  yaml_limits bytes;
  bytes.max_bytes = 6;
  EXPECT_TRUE(parse_plain_json(R"(["abc", 123])", bytes).has_value());
  EXPECT_FALSE(parse_plain_json(R"(["abc", 1234])", bytes).has_value());
  // Through parse_yaml(), the limit is libyaml's diagnostic.
  std::vector<diagnostic> d;
  parse_yaml("[1, 2, 3, 4]", "t.json", nodes, d);
  ASSERT_EQ(d.size(), 1U);
  EXPECT_NE(d[0].message.find("max-nodes"), std::string::npos) << d[0].message;
}

// Random JSON documents, pretty and minified, LF and CRLF, with every kind of
// value and string character the shortcut takes: each reads as libyaml reads it.
class random_json {
 public:
  explicit random_json(std::uint32_t seed) : rng_(seed) {}

  auto document() -> std::string {
    crlf_ = pick(4) == 0;
    indent_ = pick(3) == 0 ? -1 : static_cast<int>(pick(4));
    std::string out;
    for (auto n = pick(3); n > 0; --n) out += newline();
    out += pick(2) == 0 ? "{" : "[";
    bool object = out.back() == '{';
    entries(out, object, 1);
    out += object ? "}" : "]";
    if (pick(2) == 0) out += newline();
    return out;
  }

 private:
  auto pick(std::uint32_t n) -> std::uint32_t { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng_); }
  auto newline() const -> std::string { return crlf_ ? "\r\n" : "\n"; }
  auto space(int depth) -> std::string {
    if (indent_ < 0) return pick(4) == 0 ? " " : "";
    std::string out = newline() + std::string(static_cast<std::size_t>(depth * indent_), ' ');
    if (pick(6) == 0) out += "\t";
    return out;
  }
  auto entries(std::string& out, bool object, int depth) -> void {
    auto n = depth > 4 ? 0 : pick(5);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (i > 0) out += ",";
      out += space(depth);
      if (object) out += string() + (pick(3) == 0 ? " : " : ":") + (pick(2) == 0 ? " " : "");
      value(out, depth);
    }
    if (n > 0) out += space(depth - 1);
  }
  auto value(std::string& out, int depth) -> void {
    switch (pick(8)) {
      case 0: out += "{"; entries(out, true, depth + 1); out += "}"; break;
      case 1: out += "["; entries(out, false, depth + 1); out += "]"; break;
      case 2: out += std::to_string(static_cast<int>(pick(2000)) - 1000); break;
      case 3: out += std::to_string(pick(100)) + "." + std::to_string(pick(100)) + (pick(2) ? "e-" : "E+") +
                     std::to_string(pick(30)); break;
      case 4: out += std::vector<std::string>{"true", "false", "null"}[pick(3)]; break;
      default: out += string(); break;
    }
  }
  auto string() -> std::string {
    static const std::vector<std::string> pieces = {
        "a", "Z", "0", " ", "10.0.0.0/8", "-", ":", "#", "&", "*", "!", "|", ">", "'", "{", "}", "[", "]", ",",
        "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\r", "\\b", "\\f", "\\u0041", "\\u00e9", "\\u2028", "\\uFFFD",
        "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "\xC2\xA0"};
    std::string out = "\"";
    for (auto n = pick(8); n > 0; --n) out += pieces[pick(static_cast<std::uint32_t>(pieces.size()))];
    return out + "\"";
  }

  std::mt19937 rng_;
  bool crlf_ = false;
  int indent_ = 0;
};

TEST(JsonTree, RandomDocumentsReadAsLibyamlReadsThem) {
  for (std::uint32_t seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_same_tree(random_json(seed).document());
    if (HasFailure()) return;  // one document's report is enough to debug
  }
}

}  // namespace
}  // namespace cidrcheck::detail
