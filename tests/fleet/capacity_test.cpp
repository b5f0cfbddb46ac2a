#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/prefix_allocator.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

auto P(std::string_view s) { return prefix::parse(s); }

auto load(std::string_view yaml) -> fleet {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  return std::move(loaded.value);
}

constexpr std::string_view two_clusters = R"(
networks:
  - {name: office, type: office, cidrs: [192.168.0.0/24]}
clusters:
  - {name: a, network: 10.0.0.0/16, pods: 10.1.0.0/16, services: 10.2.0.0/20, node_cidr_mask: 24, nodes: 200}
  - {name: b, network: 10.3.0.0/16, pods: 10.1.0.0/17, services: 10.2.16.0/20}
  - {name: v6, network: "fd00::/64", pods: ["fd00:1::/56", "10.9.0.0/24"], services: "fd00:2::/108"}
  - {name: v6only, network: "fd00:3::/64", pods: "fd00:4::/56", services: "fd00:5::/108", node_cidr_mask_v6: 72}
)";

static_assert(node_blocks(prefix::try_parse("10.0.0.0/16").value(), 24) == 256);
static_assert(node_blocks(prefix::try_parse("10.0.0.0/16").value(), 15) == 0);

TEST(NodeCapacity, CountsBlocksAsKubeControllerManagerCutsThem) {
  struct {
    std::string_view pods;
    int mask;
    std::uint64_t blocks;
  } const cases[] = {
      {"10.0.0.0/16", 24, 256},
      {"10.0.0.0/16", 16, 1},        // one node takes the whole range
      {"10.0.0.0/16", 15, 0},        // the mask is shorter than the range
      {"10.0.0.0/16", 33, 0},        // longer than an address
      {"0.0.0.0/0", 32, std::uint64_t{1} << 32},
      {"fd00::/48", 64, 1 << 16},
      {"fd00::/47", 64, 0},          // 17 bits: refused for IPv6
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.pods);
    EXPECT_EQ(node_blocks(P(c.pods), c.mask), c.blocks);
  }
}

TEST(NodeCapacity, CountsIpv4PodRangesFirstAndIpv6OnlyClustersByTheIpv6Mask) {
  auto f = load(two_clusters);
  auto a = node_capacity(f, builtin_catalog(), 1);
  EXPECT_EQ(a.version, ip_version::v4);
  EXPECT_EQ(a.node_mask, 24);
  EXPECT_EQ(a.node_blocks, 256u);
  EXPECT_EQ(a.nodes, 200u);
  EXPECT_EQ(node_capacity(f, builtin_catalog(), 2).node_blocks, 128u);  // the default /24 in a /17
  auto dual = node_capacity(f, builtin_catalog(), 3);
  EXPECT_EQ(dual.version, ip_version::v4);  // a dual-stack cluster counts its IPv4 pod ranges
  EXPECT_EQ(dual.node_blocks, 1u);
  auto v6 = node_capacity(f, builtin_catalog(), 4);
  EXPECT_EQ(v6.version, ip_version::v6);
  EXPECT_EQ(v6.node_blocks, 1u << 16);
  EXPECT_FALSE(v6.nodes);
  EXPECT_EQ(node_capacity(f, builtin_catalog(), 0).version, ip_version::none);  // a network has no pods
}

TEST(Capacity, DefaultPoolsAreThePrivateBlocksInUse) {
  auto f = load(two_clusters);
  EXPECT_EQ(default_pools(f, builtin_catalog()), (std::vector<prefix>{P("10.0.0.0/8"), P("192.168.0.0/16"), P("fc00::/7")}));
}

TEST(Capacity, PoolUsageSplitsEachPoolIntoUsedAndFree) {
  auto f = load(two_clusters);
  std::vector<prefix> pools{P("10.0.0.0/8"), P("172.16.0.0/12")};
  auto usage = pool_usage(f, pools);
  ASSERT_EQ(usage.size(), 2u);
  // Two /16 networks, the pods /16 (b's /17 lies inside it), two /20 services, v6's /24 pods.
  EXPECT_EQ(usage[0].used.size(), 3u * 65536 + 2 * 4096 + 256);
  EXPECT_EQ(usage[0].used | usage[0].free, address_set{P("10.0.0.0/8")});
  EXPECT_FALSE(usage[0].used.overlaps(usage[0].free));
  EXPECT_TRUE(usage[1].used.empty());
  EXPECT_EQ(usage[1].free, address_set{P("172.16.0.0/12")});
}

TEST(Capacity, SummarizePoolCountsWhatIsLeftAsTheAllocatorTakesIt) {
  auto f = load(two_clusters);
  std::vector<prefix> pools{P("10.0.0.0/8"), P("172.16.0.0/12"), P("fc00::/7")};
  const int lengths[] = {16, 9, 0, 64, 129};
  auto usage = pool_usage(f, pools);
  auto ten = summarize_pool(usage[0], lengths);
  EXPECT_EQ(ten.used, usage[0].used.size());
  EXPECT_EQ(ten.free, (uint128{1} << 24) - ten.used);
  EXPECT_EQ(ten.free_blocks, usage[0].free.prefixes().size());
  EXPECT_EQ(ten.largest_free, P("10.128.0.0/9"));
  // Every /16 but the four the fleet touches (10.0, 10.1, 10.2 and 10.3; 10.9.0.0/24 takes 10.9).
  EXPECT_EQ(ten.fits, (std::vector<uint128>{256 - 5, 1, 0, 0, 0}));
  // The count is what taking blocks one by one gives.
  prefix_allocator take(usage[0].free);
  std::size_t taken = 0;
  while (take.take(ip_version::v4, 16)) ++taken;
  EXPECT_EQ(uint128{taken}, ten.fits[0]);
  auto empty = summarize_pool(usage[1], lengths);
  EXPECT_EQ(empty.used, 0u);
  EXPECT_EQ(empty.largest_free, P("172.16.0.0/12"));
  EXPECT_EQ(empty.fits, (std::vector<uint128>{16, 0, 0, 0, 0}));
  auto six = summarize_pool(usage[2], lengths);
  // The fleet touches 516 /64s of fc00::/7: two /64 networks, two /56 pod ranges (256 each),
  // two /108 service ranges (one /64 each). Counts beyond 64 bits are exact.
  EXPECT_EQ(six.fits[3], (uint128{1} << 57) - 516);
}

TEST(Capacity, UsageCountsSharedAddressesOncePerGroup) {
  auto f = load(two_clusters);
  std::vector<prefix> pools{P("10.0.0.0/8")};
  auto by_role = usage(f, pools, usage_group::role);
  ASSERT_EQ(by_role.size(), 3u);
  EXPECT_EQ(by_role[0].group, "network");
  EXPECT_EQ(by_role[0].addresses, 2u * 65536);
  EXPECT_EQ(by_role[1].group, "pods");
  EXPECT_EQ(by_role[1].addresses, 65536u + 256);  // a's /16 holds b's /17: counted once
  EXPECT_EQ(by_role[2].group, "services");
  auto by_owner = usage(f, pools, usage_group::owner);
  ASSERT_EQ(by_owner.size(), 3u);
  EXPECT_EQ(by_owner[0].group, "a");
  EXPECT_EQ(by_owner[0].addresses, 2u * 65536 + 4096);
  EXPECT_EQ(by_owner[1].group, "b");  // b's pods count for b too, though a's cover them
  EXPECT_EQ(by_owner[1].addresses, 65536u + 32768 + 4096);
  EXPECT_EQ(by_owner[2].group, "v6");
  EXPECT_EQ(by_owner[2].addresses, 256u);
}

}  // namespace
}  // namespace cidrcheck
