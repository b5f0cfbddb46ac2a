#include <cidrcheck/fleet/rule_docs.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace cidrcheck {
namespace {

TEST(Catalog, TheShippedCatalogParsesAndCitesEverySource) {
  const auto& c = builtin_catalog();
  EXPECT_GE(c.distributions.size(), 15u);
  for (const auto& d : c.distributions) EXPECT_FALSE(d.source.empty()) << d.name;
  for (const auto& t : c.network_types) EXPECT_FALSE(t.source.empty()) << t.name;
  for (const auto& b : c.blocks) {
    EXPECT_FALSE(b.source.empty()) << b.cidr.to_string();
    EXPECT_TRUE(find_rule(b.rule).has_value()) << b.rule;
  }
  ASSERT_NE(c.find_network_type("tailscale"), nullptr);
  EXPECT_EQ(c.find_network_type("tailscale")->cidrs.front(), prefix::parse("100.64.0.0/10"));
  ASSERT_NE(c.find_distribution("kops"), nullptr);
  EXPECT_EQ(c.find_distribution("kops")->pods.front(), prefix::parse("100.96.0.0/11"));
}

TEST(Catalog, HasADate) {
  // `cidrcheck --version` names it: the shipped catalog must carry one.
  EXPECT_EQ(builtin_catalog().date.size(), 10u) << builtin_catalog().date;
  std::vector<diagnostic> d;
  EXPECT_EQ(parse_catalog("date: 2026-01-31\n", "c.yaml", d).date, "2026-01-31");
  EXPECT_TRUE(d.empty());
  parse_catalog("version: 1\ndate: 2026-02-30\n", "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].where.line, 2u);
  EXPECT_EQ(d[0].where.column, 7u);
  EXPECT_NE(d[0].message.find("YYYY-MM-DD"), std::string::npos) << d[0].message;
}

TEST(Catalog, ParseErrorsArePositioned) {
  std::vector<diagnostic> d;
  parse_catalog("distributions:\n  - {name: x, pods: 10.0.0.1/8, source: s}\n", "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].where.line, 2u);
}

TEST(Rules, IdsAndNamesAreUniqueAndFindable) {
  std::set<std::string_view> ids, names;
  for (const auto& r : rule_table()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_EQ(find_rule(r.id), r.value);
    EXPECT_EQ(find_rule(r.name), r.value);
    EXPECT_EQ(&info(r.value), &r);
  }
  EXPECT_FALSE(find_rule("CIDR999").has_value());
}

TEST(Rules, EveryRuleIsDocumented) {
  std::ifstream index(CIDRCHECK_DOCS "/rules.md");
  std::stringstream text;
  text << index.rdbuf();
  for (const auto& r : rule_table()) {
    std::string row = "| " + std::string(r.id) + " | [" + std::string(r.name) + "](rules/" + std::string(r.name) + ".md) | ";
    EXPECT_NE(text.str().find(row), std::string::npos) << "docs/rules.md lacks " << row;
    std::ifstream page(CIDRCHECK_DOCS "/rules/" + std::string(r.name) + ".md");
    std::string title;
    std::getline(page, title);
    std::string expected = "# " + std::string(r.name) + " (" + std::string(r.id) + ") \u2014 " +
                           std::string(to_string(r.default_severity));
    EXPECT_TRUE(title.starts_with(expected)) << "docs/rules/" << r.name << ".md starts with: " << title;
  }
}

TEST(Rules, TheCompiledDocumentationIsThePageInDocs) {
  for (const auto& r : rule_table()) {
    std::ifstream page(CIDRCHECK_DOCS "/rules/" + std::string(r.name) + ".md", std::ios::binary);
    std::stringstream text;
    text << page.rdbuf();
    EXPECT_EQ(rule_documentation(r.value), text.str()) << r.name;
    for (auto section : {"**What.**", "**How to fix.**", "**When suppressing is legitimate.**"}) {
      EXPECT_NE(rule_documentation(r.value).find(section), std::string_view::npos) << r.name << " lacks " << section;
    }
  }
}

}  // namespace
}  // namespace cidrcheck
