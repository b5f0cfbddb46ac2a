#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace {

using namespace cidrcheck;

TEST(Iostream, WritesEachValueAsItsText) {
  std::ostringstream out;
  out << address::parse("2001:db8::1") << ' ' << prefix::parse("10.0.0.0/8") << ' '
      << address_range::parse("10.0.0.1-10.0.0.9");
  EXPECT_EQ(out.str(), "2001:db8::1 10.0.0.0/8 10.0.0.1-10.0.0.9");
}

TEST(Iostream, WritesASetAsItsMinimalPrefixCover) {
  address_set_builder b;
  b.add(prefix::parse("10.0.0.0/9"));
  b.add(prefix::parse("10.128.0.0/9"));
  b.add(prefix::parse("192.168.0.0/16"));
  std::ostringstream out;
  out << b.build() << ' ' << address_set{};
  EXPECT_EQ(out.str(), "{10.0.0.0/8, 192.168.0.0/16} {}");
}

}  // namespace
