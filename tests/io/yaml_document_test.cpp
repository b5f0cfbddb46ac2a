// The document tree's contracts: a scalar's text and a collection's children
// read through the document (value(), children()), positions by LF and bytes,
// aliases shared, the limits enforced while parsing, and what a syntax error
// leaves readable.

#include "../../lib/cidrcheck/io/yaml_document.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {
namespace {

auto parse(std::string_view text, const yaml_limits& limits = {}) -> yaml_document {
  std::vector<diagnostic> d;
  auto doc = parse_yaml(text, "t.yaml", limits, d);
  EXPECT_TRUE(d.empty()) << text << ": " << (d.empty() ? "" : d.front().message);
  return doc;
}

// The values of a mapping's entries, by key.
auto value_of(const yaml_document& doc, std::uint32_t mapping, std::string_view key) -> std::uint32_t {
  auto children = doc.children(mapping);
  for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
    if (doc.value(children[i]) == key) return children[i + 1];
  }
  ADD_FAILURE() << "no key " << key;
  return 0;
}

TEST(YamlDocument, ScalarsReadTheirTextWithQuotesAndEscapesResolved) {
  auto doc = parse("plain: a b\n"
                   "double: \"tab\\there \\u00e9 \\\"q\\\"\"\n"
                   "single: 'it''s'\n"
                   "literal: |\n  one\n  two\n"
                   "folded: >\n  one\n  two\n"
                   "empty: \"\"\n");
  auto root = doc.roots.at(0);
  EXPECT_EQ(doc.value(value_of(doc, root, "plain")), "a b");
  EXPECT_EQ(doc.value(value_of(doc, root, "double")), "tab\there \xC3\xA9 \"q\"");
  EXPECT_EQ(doc.value(value_of(doc, root, "single")), "it's");
  EXPECT_EQ(doc.value(value_of(doc, root, "literal")), "one\ntwo\n");
  EXPECT_EQ(doc.value(value_of(doc, root, "folded")), "one two\n");
  EXPECT_EQ(doc.value(value_of(doc, root, "empty")), "");
  EXPECT_FALSE(doc[value_of(doc, root, "plain")].quoted);
  for (auto key : {"double", "single", "literal", "folded", "empty"}) {
    EXPECT_TRUE(doc[value_of(doc, root, key)].quoted) << key;
  }
  // A collection has no text; a scalar has no children.
  EXPECT_EQ(doc.value(root), "");
  EXPECT_TRUE(doc.children(value_of(doc, root, "plain")).empty());
}

TEST(YamlDocument, EachCollectionsChildrenAreItsOwnInOrderHoweverDeeplyNested) {
  auto doc = parse("a: [1, [2, 3], {k: 4}]\nb:\n  - x\n  - y: z\n");
  auto root = doc.roots.at(0);
  ASSERT_EQ(doc.children(root).size(), 4u);  // key, value, key, value
  auto a = value_of(doc, root, "a");
  EXPECT_TRUE(doc[a].flow);
  auto items = doc.children(a);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(doc.value(items[0]), "1");
  ASSERT_EQ(doc[items[1]].kind, yaml_kind::sequence);
  ASSERT_EQ(doc.children(items[1]).size(), 2u);
  EXPECT_EQ(doc.value(doc.children(items[1])[0]), "2");
  EXPECT_EQ(doc.value(doc.children(items[1])[1]), "3");
  EXPECT_EQ(doc.value(value_of(doc, items[2], "k")), "4");
  auto b = value_of(doc, root, "b");
  EXPECT_FALSE(doc[b].flow);
  ASSERT_EQ(doc.children(b).size(), 2u);
  EXPECT_EQ(doc.value(doc.children(b)[0]), "x");
  EXPECT_EQ(doc.value(value_of(doc, doc.children(b)[1], "y")), "z");

  // 60 levels, each a one-item list holding the next: every level's one child is the next level.
  std::string deep = std::string(60, '[') + "leaf" + std::string(60, ']');
  auto nested = parse(deep);
  auto k = nested.roots.at(0);
  for (int level = 0; level < 60; ++level) {
    ASSERT_EQ(nested[k].kind, yaml_kind::sequence) << level;
    ASSERT_EQ(nested.children(k).size(), 1u) << level;
    k = nested.children(k)[0];
  }
  EXPECT_EQ(nested.value(k), "leaf");
}

TEST(YamlDocument, PositionsCountLinesByLfAndColumnsInBytes) {
  auto doc = parse("a:\n  b: \xC3\xA9x\n  c: [1, 2]\n");
  auto root = doc.roots.at(0);
  auto a = value_of(doc, root, "a");
  auto b = value_of(doc, a, "b");
  EXPECT_EQ(doc[b].line, 2u);
  EXPECT_EQ(doc[b].column, 6u);
  EXPECT_EQ(doc[b].end_column, 9u);  // é is two bytes
  auto c = value_of(doc, a, "c");
  EXPECT_EQ(doc[c].line, 3u);
  EXPECT_EQ(doc[c].column, 6u);
  EXPECT_EQ(doc[c].end_column, 12u);
  // A lone CR ends a line for YAML, not for an editor: the position is the editor's.
  auto cr = parse("a: 1\rb: 2\nc: 3\n");
  auto r = cr.roots.at(0);
  EXPECT_EQ(cr[value_of(cr, r, "b")].line, 1u);
  EXPECT_EQ(cr[value_of(cr, r, "b")].column, 9u);
  EXPECT_EQ(cr[value_of(cr, r, "c")].line, 2u);
  EXPECT_EQ(cr[value_of(cr, r, "c")].column, 4u);
}

TEST(YamlDocument, AnAliasIsItsAnchoredNodeNotACopy) {
  auto doc = parse("base: &b {x: 1}\nuse: *b\nname: &n text\nagain: *n\n");
  auto root = doc.roots.at(0);
  EXPECT_EQ(value_of(doc, root, "use"), value_of(doc, root, "base"));
  EXPECT_EQ(value_of(doc, root, "again"), value_of(doc, root, "name"));
  EXPECT_EQ(doc.value(value_of(doc, root, "again")), "text");
  EXPECT_EQ(doc.nodes.size(), 9u);  // the root, 4 keys, the mapping, its key and value, the scalar: aliases add none
}

TEST(YamlDocument, EveryDocumentOfAStreamIsARoot) {
  auto doc = parse("a: 1\n---\n- 2\n---\nthree\n");
  ASSERT_EQ(doc.roots.size(), 3u);
  EXPECT_EQ(doc[doc.roots[0]].kind, yaml_kind::mapping);
  EXPECT_EQ(doc.value(doc.children(doc.roots[1]).front()), "2");
  EXPECT_EQ(doc.value(doc.roots[2]), "three");
}

TEST(YamlDocument, LimitsAreEnforcedWhileParsingAliasesExpanded) {
  std::vector<diagnostic> d;
  yaml_limits shallow;
  shallow.max_depth = 3;
  parse_yaml("[[[1]]]", "t.yaml", shallow, d);
  EXPECT_TRUE(d.empty());
  parse_yaml("[[[[1]]]]", "t.yaml", shallow, d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("max-depth limit of 3"), std::string::npos) << d[0].message;

  // Each level doubles the last: 2^12 nodes expanded, from a text of a few hundred bytes.
  std::string laughs = "a0: &a0 [x, x]\n";
  for (int k = 1; k <= 12; ++k) {
    laughs += "a" + std::to_string(k) + ": &a" + std::to_string(k) + " [*a" + std::to_string(k - 1) + ", *a" +
              std::to_string(k - 1) + "]\n";
  }
  yaml_limits few;
  few.max_nodes = 1000;
  d.clear();
  parse_yaml(laughs, "t.yaml", few, d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("max-nodes limit of 1000 nodes with its aliases expanded"), std::string::npos)
      << d[0].message;

  yaml_limits little_text;
  little_text.max_bytes = 10;
  d.clear();
  parse_yaml("[abcdef, ghijkl]", "t.yaml", little_text, d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("max-file-bytes limit of 10 bytes"), std::string::npos) << d[0].message;
}

TEST(YamlDocument, WhatASyntaxErrorLeavesIsReadable) {
  std::vector<diagnostic> d;
  auto doc = parse_yaml("a:\n  - 1\n  - [2, 3]\n  - {x: 4, y\n", "t.yaml", {}, d);
  ASSERT_EQ(d.size(), 1u);
  // The collections still open when the error came end there, with what they held.
  ASSERT_EQ(doc.roots.size(), 1u);
  auto root = doc.roots[0];
  auto items = doc.children(value_of(doc, root, "a"));
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(doc.value(items[0]), "1");
  ASSERT_EQ(doc.children(items[1]).size(), 2u);
  EXPECT_EQ(doc.value(doc.children(items[1])[1]), "3");
  EXPECT_EQ(doc.value(value_of(doc, items[2], "x")), "4");
}

}  // namespace
}  // namespace cidrcheck::detail
