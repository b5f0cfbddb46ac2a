#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/map_svg.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

namespace cidrcheck {
namespace {

auto layout_of(std::string_view yaml) -> fleet_map {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok());
  return layout_map(loaded.value, check(loaded.value, builtin_catalog()), builtin_catalog());
}

auto count(std::string_view text, std::string_view needle) -> std::size_t {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

constexpr map_fill all_fills[] = {map_fill::network, map_fill::pods,    map_fill::services, map_fill::external,
                                  map_fill::used,    map_fill::free,    map_fill::free_column, map_fill::overlap,
                                  map_fill::latent,  map_fill::segment, map_fill::stripe};

TEST(MapStyle, EveryFillHasItsOwnColourAndBandsAreTranslucent) {
  std::set<std::string_view> colours;
  for (auto fill : all_fills) {
    auto c = map_color(fill);
    EXPECT_EQ(c.size(), 7u);
    EXPECT_EQ(c.front(), '#');
    colours.insert(c);
    EXPECT_GT(map_opacity(fill), 0);
    EXPECT_LE(map_opacity(fill), 1);
  }
  EXPECT_EQ(colours.size(), std::size(all_fills));
  EXPECT_LT(map_opacity(map_fill::overlap), 1);
  EXPECT_LT(map_opacity(map_fill::latent), 1);
  EXPECT_EQ(map_opacity(map_fill::pods), 1);
}

TEST(MapStyle, TitlesAreBoldAndSecondaryTextIsGrey) {
  EXPECT_TRUE(map_font_bold(map_text_kind::title));
  EXPECT_FALSE(map_font_bold(map_text_kind::row));
  EXPECT_NE(map_text_color(map_text_kind::axis), map_text_color(map_text_kind::row));
}

TEST(MapSvg, IsAStandaloneDocumentWithEscapedText) {
  auto m = layout_of("clusters:\n  - {name: \"a<b & 'c'\", pods: 10.0.0.0/16}\n");
  auto svg = to_svg(m);
  EXPECT_TRUE(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_NE(svg.find("a&lt;b &amp; &apos;c&apos;"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_EQ(count(svg, "<rect"), m.rects.size() + 1);  // and the white background
  EXPECT_EQ(count(svg, "<text"), m.texts.size());
  EXPECT_EQ(count(svg, "<line"), m.lines.size());
  EXPECT_EQ(to_svg(m), svg);  // deterministic
}

// A map built by hand: the writer draws exactly what the layout says, in the style's colours.
TEST(MapSvg, DrawsTheLayoutsSizesInTheStylesColours) {
  fleet_map m;
  m.width = 100;
  m.height = 50.5;
  m.font_sizes.fill(10);
  m.font_sizes[static_cast<std::size_t>(map_text_kind::title)] = 17.25;
  m.rects.push_back({1, 2, 30, 4, map_fill::overlap, true, std::nullopt, "x & y"});
  m.rects.push_back({0, 0, 0, 4, map_fill::pods, false, std::nullopt, {}});
  m.lines.push_back({5, 6, 5, 10});
  m.texts.push_back({3, 4, "up", map_text_kind::axis, map_anchor::end, true});
  auto svg = to_svg(m);
  EXPECT_NE(svg.find("width=\"100\" height=\"50.5\" viewBox=\"0 0 100 50.5\""), std::string::npos) << svg;
  EXPECT_NE(svg.find(" .t0{font-size:17.25px;font-weight:bold;fill:#222222}"), std::string::npos) << svg;
  EXPECT_NE(svg.find(" .t8{font-size:10px;fill:#555555}"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<rect x=\"1\" y=\"2\" width=\"30\" height=\"4\" fill=\"" + std::string(map_color(map_fill::overlap)) +
                     "\" fill-opacity=\"0.45\" stroke=\"#333333\" stroke-width=\"1\" stroke-dasharray=\"3,2\"><title>x &amp; "
                     "y</title></rect>"),
            std::string::npos)
      << svg;
  // A zero-width rectangle is drawn half a pixel wide, so it stays visible.
  EXPECT_NE(svg.find("<rect x=\"0\" y=\"0\" width=\"0.5\" height=\"4\" fill=\"#59a14f\"/>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<line x1=\"5\" y1=\"6\" x2=\"5\" y2=\"10\" stroke=\"#888888\" stroke-width=\"1\"/>"), std::string::npos);
  EXPECT_NE(svg.find("<text class=\"t8\" x=\"3\" y=\"4\" text-anchor=\"end\" transform=\"rotate(-90 3 4)\">up</text>"),
            std::string::npos)
      << svg;
}

}  // namespace
}  // namespace cidrcheck
