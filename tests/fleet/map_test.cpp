#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/map.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

struct mapped {
  fleet model;
  std::vector<finding> findings;
  fleet_map picture;

  auto bar_of(std::uint32_t range) const -> const map_rect& {
    auto it = std::find_if(picture.rects.begin(), picture.rects.end(), [&](const map_rect& r) { return r.range == range; });
    EXPECT_NE(it, picture.rects.end());
    return *it;
  }
  auto with_fill(map_fill fill) const -> std::vector<const map_rect*> {
    std::vector<const map_rect*> out;
    for (const auto& r : picture.rects) {
      if (r.fill == fill) out.push_back(&r);
    }
    return out;
  }
  auto texts(map_text_kind kind) const -> std::vector<std::string> {
    std::vector<std::string> out;
    for (const auto& t : picture.texts) {
      if (t.kind == kind) out.push_back(t.text);
    }
    return out;
  }
};

auto draw(std::string_view yaml, map_options options = {}) -> mapped {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  mapped m{std::move(loaded.value), {}, {}};
  m.findings = check(m.model, builtin_catalog());
  m.picture = layout_map(m.model, m.findings, builtin_catalog(), options);
  return m;
}

constexpr std::string_view mesh = R"(
networks:
  - {name: office, type: office, cidrs: [192.168.0.0/24]}
clusters:
  - {name: b, network: 10.10.0.0/16, pods: 10.20.0.0/16, services: 10.96.0.0/12}
  - {name: a, network: 10.11.0.0/16, pods: 10.21.0.0/16, services: 10.96.0.0/12}
  - {name: c, network: 10.12.0.0/16, pods: 10.20.0.0/16, services: 10.97.0.0/16}
connections:
  - [a, b]
)";

// A fleet of n clusters in a row, each with a /16 block: pods, network, services.
auto many_clusters(int n) -> std::string {
  std::string yaml = "clusters:\n";
  for (int k = 0; k < n; ++k) {
    auto o = std::to_string(k);
    yaml += "  - {name: cluster-" + o + ", network: 10." + o + ".128.0/19, pods: 10." + o + ".0.0/17, services: 10." + o +
            ".160.0/20}\n";
  }
  return yaml;
}

TEST(Map, DrawsEveryRangeOnceInItsOwnersRow) {
  auto m = draw(mesh);
  for (std::uint32_t k = 0; k < m.model.ranges.size(); ++k) {
    const auto& bar = m.bar_of(k);
    EXPECT_GT(bar.width, 0);
    EXPECT_EQ(bar.tooltip, m.model.describe_range(m.model.ranges[k]));
    EXPECT_GE(bar.x, 0);
    EXPECT_LE(bar.x + bar.width, m.picture.width);
  }
  // Rows are ordered by each owner's lowest address: b (10.10), a (10.11), c (10.12), office (192.168).
  EXPECT_EQ(m.texts(map_text_kind::row), (std::vector<std::string>{"all ranges", "b", "a", "c", "office"}));
  EXPECT_LT(m.bar_of(m.model.owners[1].ranges[0]).y, m.bar_of(m.model.owners[2].ranges[0]).y);
}

TEST(Map, ShowsRoutedOverlapsAsErrorsAndLatentOnesApart) {
  auto m = draw(mesh);
  // a and b are connected: their shared services are an error; c's pods equal b's but nothing routes both.
  const auto& services = m.bar_of(m.model.owners[2].ranges[2]);
  const auto& latent_pods = m.bar_of(m.model.owners[3].ranges[1]);
  auto covers = [](const map_rect* band, const map_rect& bar) {
    return band->x <= bar.x + 0.01 && bar.x + bar.width <= band->x + band->width + 0.01;
  };
  auto errors = m.with_fill(map_fill::overlap);
  auto latent = m.with_fill(map_fill::latent);
  EXPECT_TRUE(std::any_of(errors.begin(), errors.end(), [&](const map_rect* r) { return covers(r, services); }));
  EXPECT_TRUE(std::any_of(latent.begin(), latent.end(), [&](const map_rect* r) { return covers(r, latent_pods); }));
  EXPECT_FALSE(std::any_of(errors.begin(), errors.end(), [&](const map_rect* r) { return covers(r, latent_pods); }));
}

TEST(Map, ShowsFreeSpaceOnlyInPools) {
  auto m = draw(mesh);
  EXPECT_EQ(m.texts(map_text_kind::segment), (std::vector<std::string>{"10.0.0.0/8", "192.168.0.0/16"}));
  auto free = m.with_fill(map_fill::free);
  ASSERT_FALSE(free.empty());
  for (const auto* r : free) {
    if (!r->tooltip.empty()) {
      EXPECT_NE(r->tooltip.find("free"), std::string::npos) << r->tooltip;
    }
  }
  // With a pool that holds none of the ranges, the ranges are drawn outside it, with no free space of their own.
  map_options options;
  options.pools = {prefix::parse("172.16.0.0/12")};
  auto outside = draw(mesh, options);
  EXPECT_EQ(outside.texts(map_text_kind::segment),
            (std::vector<std::string>{"10.10.0.0-10.12.255.255", "10.20.0.0/15", "10.96.0.0/12", "172.16.0.0/12",
                                      "192.168.0.0/24"}));
  auto stats = outside.texts(map_text_kind::stats);
  EXPECT_EQ(std::count(stats.begin(), stats.end(), "outside the pools"), 4);
}

TEST(Map, LargerBlocksAreDrawnWiderButSmallOnesStayVisible) {
  auto m = draw("clusters:\n  - {name: a, network: 10.0.0.0/24, pods: 10.1.0.0/16, services: 10.2.0.0/28}\n");
  double network = m.bar_of(0).width, pods = m.bar_of(1).width, services = m.bar_of(2).width;
  EXPECT_GT(pods, network);
  EXPECT_GT(network, services);
  EXPECT_GE(services, 2.0);
  // 256 times the addresses: four times the width, with the default exponent of 1/4 (and the floor).
  EXPECT_NEAR(pods / network, 4.0, 0.5);
}

TEST(Map, LabelsNeverCoverEachOtherOrOtherBars) {
  auto m = draw(many_clusters(50) + "  - {name: late, network: 10.3.0.0/16}\n");
  // Per row (baseline), the estimated extents of bar labels and the bars must not intersect.
  std::map<double, std::vector<std::pair<double, double>>> spans;
  for (const auto& t : m.picture.texts) {
    if (t.kind != map_text_kind::bar) continue;
    double w = static_cast<double>(t.text.size()) * 0.62 * m.picture.font_size(t.kind);
    double x0 = t.anchor == map_anchor::end ? t.x - w : t.x;
    spans[t.y].emplace_back(x0, x0 + w);
  }
  ASSERT_GT(spans.size(), 40u);
  for (const auto& r : m.picture.rects) {
    if (!r.range) continue;
    double baseline = r.y - 2 + 16 * 0.72;
    for (auto [x0, x1] : spans[baseline]) {
      bool inside = r.x <= x0 && x1 <= r.x + r.width;  // a label written inside its own bar
      EXPECT_TRUE(inside || x1 <= r.x + 0.01 || r.x + r.width <= x0 + 0.01) << r.tooltip;
    }
  }
  for (auto& [y, list] : spans) {
    std::sort(list.begin(), list.end());
    for (std::size_t k = 1; k < list.size(); ++k) EXPECT_LE(list[k - 1].second, list[k].first + 0.01) << y;
  }
}

TEST(Map, RefusesMoreRowsThanReadableAndBadSizes) {
  map_options options;
  options.max_rows = 10;
  EXPECT_THROW(draw(many_clusters(11), options), map_error);
  options.max_rows = 11;
  EXPECT_NO_THROW(draw(many_clusters(11), options));
  options.width = 0;
  EXPECT_THROW(draw(mesh, options), map_error);
  EXPECT_THROW(draw(mesh, options), error);                  // the library's one base
  EXPECT_THROW(draw(mesh, options), std::invalid_argument);  // and the standard one it was
}

TEST(Map, SizesEachKindOfTextFromTheRowLabelsFontSize) {
  map_options options;
  options.font_size = 20;
  auto m = draw(mesh, options);
  EXPECT_EQ(m.picture.font_size(map_text_kind::row), 20);
  EXPECT_GT(m.picture.font_size(map_text_kind::title), 20);
  EXPECT_LT(m.picture.font_size(map_text_kind::axis), 20);
  for (auto size : m.picture.font_sizes) EXPECT_GT(size, 0);
  // Larger text, a wider picture: the layout measures labels at these sizes.
  EXPECT_GT(m.picture.width, draw(mesh).picture.width);
}

TEST(Map, GrowsWiderWhenSegmentsNeedIt) {
  map_options options;
  options.width = 100;
  auto m = draw(mesh, options);
  EXPECT_GT(m.picture.width, 100);
  for (const auto& r : m.picture.rects) EXPECT_LE(r.x + r.width, m.picture.width + 0.01);
}

}  // namespace
}  // namespace cidrcheck
