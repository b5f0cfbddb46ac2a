#pragma once
// The fleet map's rendering: its style (a colour and opacity per fill, a weight
// and colour per kind of text) and the SVG writer of `cidrcheck map`. The
// layout (fleet/map.hpp) says what goes where and how large; this says how it
// looks. The Python bindings hand the same style to matplotlib, so both
// pictures agree.

#include <cidrcheck/fleet/map.hpp>

#include <string>
#include <string_view>

namespace cidrcheck {

/// Returns the fill colour of a rectangle as "#rrggbb" (one palette for every renderer).
auto map_color(map_fill fill) noexcept -> std::string_view;

/// Returns the opacity of a fill in (0, 1] (bands are translucent so the bars show through).
auto map_opacity(map_fill fill) noexcept -> double;

/// Returns whether a kind of text is bold.
auto map_font_bold(map_text_kind kind) noexcept -> bool;

/// Returns the colour of a kind of text as "#rrggbb": secondary text is grey.
auto map_text_color(map_text_kind kind) noexcept -> std::string_view;

/// Returns the map as a standalone SVG 1.1 document (UTF-8 text, XML-escaped),
/// with each kind of text at the size the layout gave it (fleet_map::font_size).
auto to_svg(const fleet_map& m) -> std::string;

}  // namespace cidrcheck
