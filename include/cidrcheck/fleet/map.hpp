#pragma once
// The fleet map's layout: a picture of a fleet's address space, with one row
// per owner, its ranges as bars by role, overlaps as bands across the rows and
// the free space of each pool visible. layout_map() computes the whole picture
// once, as data in pixels: what each rectangle shows, where each text goes and
// how large it is. How it looks (colours, font weights) and the SVG writer are
// the renderers' (io/map_svg.hpp); to_svg() (the CLI's `cidrcheck map`) and
// the Python bindings (matplotlib) only draw what the layout says, so their
// pictures agree.

#include <cidrcheck/error.hpp>
#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/prefix.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cidrcheck {

/// The map options layout_map() takes (`cidrcheck map --width`, Python's
/// keyword arguments): a width of 100 to 100,000 pixels, a row height and a
/// font size above 0 and at most 1,000 pixels, a scale exponent above 0 and at
/// most 1 (larger ones make the widths of large blocks overflow). Infinities,
/// NaN and anything outside are refused.
inline constexpr double min_map_width = 100, max_map_width = 100'000;
inline constexpr double max_map_text_pixels = 1'000;  ///< row_height and font_size
inline constexpr double max_map_scale_exponent = 1;

/// How a map is laid out.
struct map_options {
  /// The pools whose free space the map shows; empty: default_pools(), the
  /// private blocks the fleet uses. Ranges outside every pool are drawn too.
  std::vector<prefix> pools;
  double width = 1400;       ///< pixels; the map grows wider when its segments need it
  double row_height = 16;    ///< pixels per owner row
  double font_size = 11;     ///< pixels, of row labels; other text is scaled from it
  /// A piece of n addresses is drawn with a width proportional to n^scale_exponent
  /// (0.25: a block 16 times larger is twice as wide), so that a /24 next to a
  /// free /9 stays visible. 1 is a linear scale.
  double scale_exponent = 0.25;
  std::size_t max_rows = 400;  ///< more owners with ranges than this is an error (unreadable)
  std::string title;           ///< the first line; empty: a summary of the fleet
};

/// Thrown by layout_map() for options it cannot draw (too many rows, a bad width).
/// A cidrcheck::error and a std::invalid_argument.
class map_error : public basic_error<std::invalid_argument> {
 public:
  using basic_error::basic_error;
};

/// What a rectangle shows (a renderer picks its colour: map_color() in io/map_svg.hpp).
enum class map_fill : std::uint8_t {
  network,      ///< a cluster's network range
  pods,         ///< a cluster's pod range
  services,     ///< a cluster's service range
  external,     ///< a range of a network (office, VPN, peer, ...)
  used,         ///< summary row: space some range covers
  free,         ///< summary row: free space in a pool
  free_column,  ///< behind the owner rows: free space in a pool
  overlap,      ///< space two ranges share, where an error-level finding says so
  latent,       ///< space two ranges share, where only a warning or a note says so
  segment,      ///< the background of one stretch of address space
  stripe,       ///< every other owner row, faintly, to guide the eye along it
};

struct map_rect {
  double x = 0, y = 0, width = 0, height = 0;
  map_fill fill = map_fill::used;
  bool defaulted = false;               ///< a range filled in from a default: drawn with a dashed outline
  std::optional<std::uint32_t> range;   ///< the range a bar draws (index into fleet::ranges)
  std::string tooltip;                  ///< what it is, in words (an SVG <title>)
};

/// The kinds of text, each with its own size (fleet_map::font_size) and, in a renderer, its own weight and colour.
enum class map_text_kind : std::uint8_t { title, caption, legend, segment, stats, row, bar, free, axis };

/// The number of map_text_kind values.
inline constexpr std::size_t map_text_kind_count = static_cast<std::size_t>(map_text_kind::axis) + 1;

enum class map_anchor : std::uint8_t { start, middle, end };

struct map_text {
  double x = 0, y = 0;  ///< the anchor point on the baseline
  std::string text;
  map_text_kind kind = map_text_kind::row;
  map_anchor anchor = map_anchor::start;
  bool vertical = false;  ///< rotated a quarter turn anticlockwise (reads upwards), anchored at its end
};

/// A thin grey line: axis ticks, segment borders.
struct map_line {
  double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

/// A laid-out map: everything to draw, in pixels, y growing downwards, in drawing order.
struct fleet_map {
  double width = 0, height = 0;
  /// The font size of each kind of text in pixels, by map_text_kind: the sizes
  /// the layout estimated text widths with (map_options::font_size for rows,
  /// the other kinds scaled from it).
  std::array<double, map_text_kind_count> font_sizes{};
  std::vector<map_rect> rects;
  std::vector<map_line> lines;
  std::vector<map_text> texts;

  /// Returns the font size of a kind of text, in pixels.
  auto font_size(map_text_kind kind) const noexcept -> double { return font_sizes[static_cast<std::size_t>(kind)]; }
};

/// Lays out the map of a fleet: one segment per stretch of address space that
/// holds a pool or a range (IPv4 first), cut into pieces at every range and
/// pool boundary; one row per owner with ranges, ordered by its lowest
/// address; the overlap findings among `findings` as bands. Text widths are
/// estimated, not measured (0.62 em a character), so labels that might not fit
/// are left out; every rectangle has a tooltip. Throws map_error when more than
/// options.max_rows owners have ranges or an option is outside its range
/// (min_map_width and the others above).
auto layout_map(const fleet& f, std::span<const finding> findings, const catalog& c, const map_options& options = {})
    -> fleet_map;

}  // namespace cidrcheck
