#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

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

TEST(Catalog, UnknownKeysAreReportedWithASuggestion) {
  std::vector<diagnostic> d;
  parse_catalog("version: 1\ndistributions:\n  - {name: x, pod: 10.0.0.0/8, source: s}\n", "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "unknown-key");
  EXPECT_EQ(d[0].where.line, 3u);
  EXPECT_NE(d[0].message.find("did you mean 'pods'"), std::string::npos) << d[0].message;
}

TEST(Catalog, TheBuiltinCatalogIsParsedOnce) { EXPECT_EQ(&builtin_catalog(), &builtin_catalog()); }

}  // namespace
}  // namespace cidrcheck
