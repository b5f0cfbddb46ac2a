#include <cidrcheck/ip_version.hpp>

#include <gtest/gtest.h>

namespace {

using cidrcheck::bit_width;
using cidrcheck::ip_version;

static_assert(bit_width(ip_version::v4) == 32 && bit_width(ip_version::v6) == 128 && bit_width(ip_version::none) == 0);
// The values are the version numbers, and none sorts first (version-major ordering of addresses).
static_assert(static_cast<int>(ip_version::v4) == 4 && static_cast<int>(ip_version::v6) == 6);
static_assert(ip_version::none < ip_version::v4 && ip_version::v4 < ip_version::v6);

TEST(IpVersion, DefaultIsNone) { EXPECT_EQ(ip_version{}, ip_version::none); }

}  // namespace
