#include <cidrcheck/io/source_location.hpp>

#include <gtest/gtest.h>

namespace cidrcheck {
namespace {

TEST(SourceLocation, PrintsAsMuchAsIsKnown) {
  EXPECT_EQ(to_string(source_location{"f.yaml", 12, 11}), "f.yaml:12:11");
  EXPECT_EQ(to_string(source_location{"f.yaml", 12, 0}), "f.yaml:12");  // column unknown
  EXPECT_EQ(to_string(source_location{"f.yaml", 0, 0}), "f.yaml");      // line unknown
  EXPECT_EQ(to_string(source_location{"f.yaml", 0, 5}), "f.yaml");      // a column without a line says nothing
  EXPECT_EQ(to_string(source_location{}), "");
}

TEST(SourceLocation, OrdersByFileLineColumn) {
  EXPECT_LT((source_location{"a.yaml", 9, 9}), (source_location{"b.yaml", 1, 1}));
  EXPECT_LT((source_location{"a.yaml", 1, 9}), (source_location{"a.yaml", 2, 1}));
  EXPECT_LT((source_location{"a.yaml", 2, 1}), (source_location{"a.yaml", 2, 3}));
  EXPECT_EQ((source_location{"a.yaml", 2, 3}), (source_location{"a.yaml", 2, 3}));
}

}  // namespace
}  // namespace cidrcheck
