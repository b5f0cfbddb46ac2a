#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/severity.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace cidrcheck {
namespace {

static_assert(find_rule("CIDR101") == rule::overlap && find_rule("cidr101") == rule::overlap);

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

TEST(Rules, TheTableIsInIdOrderAndIndexedByValue) {
  auto table = rule_table();
  for (std::size_t k = 0; k < table.size(); ++k) {
    EXPECT_EQ(static_cast<std::size_t>(table[k].value), k) << table[k].name;
    if (k > 0) {
      EXPECT_LT(table[k - 1].id, table[k].id) << table[k].name;
    }
  }
  EXPECT_FALSE(find_rule("").has_value());
  EXPECT_FALSE(find_rule("Overlap").has_value());  // names are exact; only ids ignore case
}

}  // namespace
}  // namespace cidrcheck
