#include <cidrcheck/address_map.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/fleet/map.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace cidrcheck {

namespace {

// The font size of each kind of text, scaled from the row labels' base size.
auto scaled_font_size(map_text_kind kind, double base) noexcept -> double {
  switch (kind) {
    case map_text_kind::title: return base * 1.45;
    case map_text_kind::caption: return base * 0.9;
    case map_text_kind::legend: return base * 0.9;
    case map_text_kind::segment: return base;
    case map_text_kind::stats: return base * 0.85;
    case map_text_kind::row: return base;
    case map_text_kind::bar: return base * 0.82;
    case map_text_kind::free: return base * 0.82;
    case map_text_kind::axis: return base * 0.78;
  }
  return base;
}

constexpr double char_em = 0.62;  // the width of an average character, in ems (DejaVu Sans digits: 0.64)
constexpr double pad = 10;        // around the picture
constexpr double segment_gap = 14;
constexpr double gauge_height = 5;  // the linear used/free bar under a segment's stats

// Returns the number of characters of UTF-8 text (its code points).
auto char_count(std::string_view s) -> std::size_t {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xc0) != 0x80; }));
}

auto text_width(std::string_view s, map_text_kind kind, double base) -> double {
  return static_cast<double>(char_count(s)) * char_em * scaled_font_size(kind, base);
}

// Returns text cut to at most max_chars characters, ending in "…" when cut.
auto shorten(const std::string& s, std::size_t max_chars) -> std::string {
  if (char_count(s) <= max_chars || max_chars == 0) return char_count(s) <= max_chars ? s : std::string();
  std::string out;
  std::size_t chars = 0;
  for (char c : s) {
    if ((c & 0xc0) != 0x80 && ++chars == max_chars) break;
    out += c;
  }
  return out + "\u2026";
}

auto to_double(uint128 v) -> double { return static_cast<double>(v); }

// "12,345", "16.3M", "2^64": a count of addresses, short enough for a label.
auto compact_count(uint128 n) -> std::string {
  char buf[48];
  double d = to_double(n);
  if (n < 10'000) return to_decimal(n);
  if (d < 1e6) std::snprintf(buf, sizeof buf, "%.1fk", d / 1e3);
  else if (d < 1e9) std::snprintf(buf, sizeof buf, "%.1fM", d / 1e6);
  else if (d < 1e12) std::snprintf(buf, sizeof buf, "%.1fG", d / 1e9);
  else {
    int bits = 127 - detail::leading_zeros<uint128>(n);
    bool exact = (n & (n - 1)) == 0;
    std::snprintf(buf, sizeof buf, "%s2^%d", exact ? "" : "~", exact ? bits : static_cast<int>(std::lround(std::log2(d))));
  }
  return buf;
}

// "3.1%", "<0.1%", "100%".
auto percent(uint128 part, uint128 whole) -> std::string {
  if (whole == 0) return "0%";
  double p = 100.0 * to_double(part) / to_double(whole);
  char buf[16];
  if (part != 0 && p < 0.1) return "<0.1%";
  if (part != whole && p > 99.9) return ">99.9%";
  std::snprintf(buf, sizeof buf, p == std::floor(p) ? "%.0f%%" : "%.1f%%", p);
  return buf;
}

// "10.0.0.0/8", or "10.0.0.0-10.3.255.255" when the range is no single prefix.
auto range_text(const address_range& r) -> std::string {
  auto p = r.to_prefix();
  return p ? p->to_string() : r.to_string();
}

auto fill_of(range_role role) -> map_fill {
  switch (role) {
    case range_role::network: return map_fill::network;
    case range_role::pods: return map_fill::pods;
    case range_role::services: return map_fill::services;
    case range_role::external: return map_fill::external;
  }
  return map_fill::external;
}

// The worst severity of the overlap findings over a piece of space; -1 for none.
struct worst_level {
  int level = -1;
  auto operator+=(const worst_level& other) -> worst_level& {
    level = std::max(level, other.level);
    return *this;
  }
  friend bool operator==(const worst_level&, const worst_level&) = default;
};

auto is_overlap_rule(rule id) -> bool {
  return id == rule::overlap || id == rule::overlap_internal || id == rule::latent_overlap;
}

// One piece of a segment: a stretch of space with no range or pool boundary inside.
struct piece {
  address_range span;
  double x0 = 0, x1 = 0;
};

struct segment {
  address_range span;
  std::size_t first_piece = 0, piece_count = 0;
  double x0 = 0, x1 = 0;
  std::string label;
  std::vector<std::string> stats;  // from the fullest to the shortest form
  double used_share = -1;          // of the pools' part of the segment; -1 when it holds no pool
};

class map_builder {
 public:
  map_builder(const fleet& f, std::span<const finding> findings, const catalog& c, const map_options& o)
      : f_(f), findings_(findings), o_(o), pools_(o.pools.empty() ? default_pools(f, c) : o.pools) {
    // Each comparison is false for NaN, so NaN is refused with the rest.
    auto refuse = [](const char* what, double value, double low, double high, const char* unit) {
      char text[160];
      if (low > 0) {
        std::snprintf(text, sizeof text, "map %s must be %g to %g%s, not %g", what, low, high, unit, value);
      } else {
        std::snprintf(text, sizeof text, "map %s must be more than 0 and at most %g%s, not %g", what, high, unit, value);
      }
      throw map_error(text);
    };
    if (!(o.width >= min_map_width && o.width <= max_map_width)) refuse("width", o.width, min_map_width, max_map_width, " pixels");
    if (!(o.row_height > 0 && o.row_height <= max_map_text_pixels)) refuse("row height", o.row_height, 0, max_map_text_pixels, " pixels");
    if (!(o.font_size > 0 && o.font_size <= max_map_text_pixels)) refuse("font size", o.font_size, 0, max_map_text_pixels, " pixels");
    if (!(o.scale_exponent > 0 && o.scale_exponent <= max_map_scale_exponent)) {
      refuse("scale exponent", o.scale_exponent, 0, max_map_scale_exponent, "");
    }
    for (std::size_t k = 0; k < map_text_kind_count; ++k) {
      out_.font_sizes[k] = scaled_font_size(static_cast<map_text_kind>(k), o.font_size);
    }
  }

  auto run() -> fleet_map {
    collect_rows();
    if (rows_.size() > o_.max_rows) {
      throw map_error("the fleet has " + std::to_string(rows_.size()) + " owners with ranges, more than the " +
                      std::to_string(o_.max_rows) + " rows a readable map holds (max-rows)");
    }
    cut_pieces();
    place_horizontally();
    place_vertically();
    draw_header();
    draw_segments();
    draw_rows();
    draw_axis();
    out_.height = std::ceil(axis_y_ + axis_height_ + pad);
    return std::move(out_);
  }

 private:
  auto fs(map_text_kind k) const -> double { return out_.font_size(k); }
  void text(double x, double y, std::string s, map_text_kind kind, map_anchor anchor = map_anchor::start,
            bool vertical = false) {
    out_.texts.push_back({x, y, std::move(s), kind, anchor, vertical});
  }
  void rect(double x, double y, double w, double h, map_fill fill, std::string tooltip = {}) {
    out_.rects.push_back({x, y, w, h, fill, false, std::nullopt, std::move(tooltip)});
  }

  // Owners with ranges, ordered by their lowest range, then declaration.
  void collect_rows() {
    for (std::uint32_t k = 0; k < f_.owners.size(); ++k) {
      if (!f_.owners[k].ranges.empty()) rows_.push_back(k);
    }
    auto lowest = [&](std::uint32_t owner) {
      const auto& ranges = f_.owners[owner].ranges;
      return std::min_element(ranges.begin(), ranges.end(), [&](auto a, auto b) { return f_.ranges[a].cidr < f_.ranges[b].cidr; });
    };
    std::vector<prefix> first(f_.owners.size());
    for (auto k : rows_) first[k] = f_.ranges[*lowest(k)].cidr;
    std::stable_sort(rows_.begin(), rows_.end(), [&](auto a, auto b) { return first[a] < first[b]; });
  }

  // Segments: the maximal stretches of pools and ranges; pieces: cut at every boundary.
  void cut_pieces() {
    address_set_builder b;
    for (const auto& p : pools_) b.add(p);
    pool_set_ = b.build();
    used_ = used_space(f_);
    std::vector<address> cuts;
    auto cut_at = [&](const address_range& r) {
      cuts.push_back(r.first());
      if (auto next = r.last().next(); next.is_valid()) cuts.push_back(next);
    };
    for (std::uint32_t k = 0; k < f_.ranges.size(); ++k) {
      cut_at(address_range(f_.ranges[k].cidr));
      cover_.add(f_.ranges[k].cidr, {k});
    }
    for (const auto& p : pools_) cut_at(address_range(p));
    for (const auto& x : findings_) {
      if (!is_overlap_rule(x.id) || !x.overlap) continue;
      bands_.add(*x.overlap, {static_cast<int>(x.level)});
      cut_at(*x.overlap);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (const auto& span : (pool_set_ | used_).ranges()) {
      segment s;
      s.span = span;
      s.first_piece = pieces_.size();
      address start = span.first();
      auto it = std::upper_bound(cuts.begin(), cuts.end(), start);
      for (; it != cuts.end() && *it <= span.last(); ++it) {
        pieces_.push_back({address_range::make(start, it->prev()), 0, 0});
        start = *it;
      }
      pieces_.push_back({address_range::make(start, span.last()), 0, 0});
      s.piece_count = pieces_.size() - s.first_piece;
      describe_segment(s);
      segments_.push_back(std::move(s));
    }
  }

  void describe_segment(segment& s) {
    address_set_builder b;
    b.add(s.span);
    auto pool_part = b.build() & pool_set_;
    s.label = range_text(s.span);
    if (pool_part.empty()) {
      s.stats.push_back("outside the pools");
      return;
    }
    auto pool_size = pool_part.size();
    auto used = used_ & pool_part;
    s.used_share = to_double(used.size()) / to_double(pool_size);
    auto free = pool_part - used;
    std::string used_text = percent(used.size(), pool_size) + " used";
    std::string free_text = compact_count(free.size()) + " free";
    if (auto largest = prefix_allocator(free).largest(s.span.version())) {
      s.stats.push_back(used_text + " \u00b7 " + free_text + " \u00b7 largest free " + largest->to_string());
      s.stats.push_back(used_text + " \u00b7 largest free /" + std::to_string(largest->length()));
    }
    s.stats.push_back(used_text);
  }

  auto row_label(std::uint32_t owner) const -> std::string { return f_.owners[owner].name; }

  void place_horizontally() {
    double label_w = 60;
    for (auto k : rows_) label_w = std::max(label_w, text_width(row_label(k), map_text_kind::row, o_.font_size));
    label_w = std::min(label_w, 0.22 * o_.width);
    label_chars_ = static_cast<std::size_t>(label_w / (char_em * fs(map_text_kind::row)));
    plot_x0_ = pad + label_w + 8;
    double right = 2 * pad;
    auto n = segments_.size();
    // Each segment needs room for its label; the rest is shared by piece count.
    std::vector<double> min_w(n), weight(n), width(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
      min_w[k] = std::max(text_width(segments_[k].label, map_text_kind::segment, o_.font_size) + 6, 3.0 * static_cast<double>(segments_[k].piece_count));
      weight[k] = static_cast<double>(segments_[k].piece_count) + 2;
    }
    double gaps = segment_gap * static_cast<double>(n > 0 ? n - 1 : 0);
    double available = std::max(o_.width - plot_x0_ - right - gaps, std::accumulate(min_w.begin(), min_w.end(), 0.0));
    std::vector<bool> fixed(n, false);
    for (bool changed = true; changed;) {
      changed = false;
      double room = available, total = 0;
      for (std::size_t k = 0; k < n; ++k) {
        if (fixed[k]) room -= min_w[k];
        else total += weight[k];
      }
      for (std::size_t k = 0; k < n; ++k) {
        if (fixed[k]) continue;
        width[k] = room * weight[k] / total;
        if (width[k] < min_w[k]) {
          fixed[k] = changed = true;
          width[k] = min_w[k];
        }
      }
    }
    double x = plot_x0_;
    for (std::size_t k = 0; k < n; ++k) {
      auto& s = segments_[k];
      s.x0 = x;
      s.x1 = x + width[k];
      place_pieces(s);
      x = s.x1 + segment_gap;
    }
    plot_x1_ = n ? segments_.back().x1 : plot_x0_;
    out_.width = std::max(o_.width, plot_x1_ + right);
  }

  // Within a segment each piece gets a floor width plus a share by size^exponent.
  void place_pieces(const segment& s) {
    auto count = static_cast<double>(s.piece_count);
    double w = s.x1 - s.x0;
    double floor = std::min(2.0, w / count);
    double total = 0;
    std::vector<double> q(s.piece_count);
    for (std::size_t k = 0; k < s.piece_count; ++k) {
      q[k] = std::pow(to_double(pieces_[s.first_piece + k].span.size()), o_.scale_exponent);
      total += q[k];
    }
    double x = s.x0;
    for (std::size_t k = 0; k < s.piece_count; ++k) {
      auto& p = pieces_[s.first_piece + k];
      p.x0 = x;
      x += floor + (w - floor * count) * q[k] / total;
      p.x1 = k + 1 == s.piece_count ? s.x1 : x;
    }
  }

  // The piece that starts at a, and the piece that ends at a.
  auto piece_starting(address a) const -> const piece& {
    return *std::lower_bound(pieces_.begin(), pieces_.end(), a, [](const piece& p, address x) { return p.span.first() < x; });
  }
  auto piece_ending(address a) const -> const piece& {
    auto it = std::upper_bound(pieces_.begin(), pieces_.end(), a, [](address x, const piece& p) { return x < p.span.first(); });
    return *(it - 1);
  }

  void place_vertically() {
    double y = pad;
    title_y_ = y + fs(map_text_kind::title);
    y = title_y_ + 6;
    caption_y_ = y + fs(map_text_kind::caption);
    y = caption_y_ + 8;
    legend_y_ = y + fs(map_text_kind::legend);
    y = legend_y_ + 14;
    segment_y_ = y + fs(map_text_kind::segment);
    stats_y_ = segment_y_ + fs(map_text_kind::stats) + 4;
    gauge_y_ = stats_y_ + 5;
    y = gauge_y_ + gauge_height + 6;
    summary_y_ = y;
    rows_y_ = summary_y_ + o_.row_height + 6;
    axis_y_ = rows_y_ + o_.row_height * static_cast<double>(rows_.size());
  }

  void draw_header() {
    std::size_t clusters = 0, networks = 0;
    for (const auto& o : f_.owners) (o.kind == owner_kind::cluster ? clusters : networks)++;
    std::size_t errors = 0, warnings = 0, notes = 0;
    for (const auto& x : findings_) (x.level == severity::error ? errors : x.level == severity::warning ? warnings : notes)++;
    auto plural = [](std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); };
    std::string title = o_.title.empty() ? "Address map: " + plural(clusters, "cluster") + ", " + plural(networks, "network") +
                                               ", " + plural(f_.ranges.size(), "range")
                                         : o_.title;
    text(pad, title_y_, title, map_text_kind::title);
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.0f", std::pow(2.0, 1.0 / o_.scale_exponent));
    std::string caption = plural(errors, "error") + ", " + plural(warnings, "warning") + ", " + plural(notes, "note") +
                          " \u00b7 widths grow with block size: a block " + ratio +
                          " times larger is drawn twice as wide; the labels give exact CIDRs";
    if (o_.scale_exponent == 1) caption = plural(errors, "error") + ", " + plural(warnings, "warning") + ", " + plural(notes, "note") + " \u00b7 linear scale";
    text(pad, caption_y_, caption, map_text_kind::caption);
    // The legend: a swatch and a word each.
    struct item {
      map_fill fill;
      const char* label;
      bool defaulted;
    };
    const item items[] = {{map_fill::network, "network", false},       {map_fill::pods, "pods", false},
                          {map_fill::services, "services", false},     {map_fill::external, "other networks", false},
                          {map_fill::pods, "from a default", true},    {map_fill::free, "free in a pool", false},
                          {map_fill::overlap, "overlap (error)", false}, {map_fill::latent, "overlap (warning, latent)", false}};
    double x = pad, size = fs(map_text_kind::legend);
    for (const auto& i : items) {
      out_.rects.push_back({x, legend_y_ - size * 0.85, size, size, i.fill, i.defaulted, std::nullopt, {}});
      text(x + size + 4, legend_y_, i.label, map_text_kind::legend);
      x += size + 4 + text_width(i.label, map_text_kind::legend, o_.font_size) + 14;
    }
    // The picture is at least as wide as its header.
    out_.width = std::max({out_.width, x + pad, 2 * pad + text_width(title, map_text_kind::title, o_.font_size),
                           2 * pad + text_width(caption, map_text_kind::caption, o_.font_size)});
    out_.width = std::ceil(out_.width);
  }

  void draw_segments() {
    double rows_end = axis_y_;
    text(plot_x0_ - 8, summary_y_ + o_.row_height * 0.75, "all ranges", map_text_kind::row, map_anchor::end);
    for (const auto& s : segments_) {
      double w = s.x1 - s.x0;
      rect(s.x0, summary_y_, w, rows_end - summary_y_, map_fill::segment);
      text(s.x0, segment_y_, fitting(s.label, w, map_text_kind::segment), map_text_kind::segment);
      for (const auto& stat : s.stats) {
        if (text_width(stat, map_text_kind::stats, o_.font_size) <= w) {
          text(s.x0, stats_y_, stat, map_text_kind::stats);
          break;
        }
      }
      // The pools' used share on a linear scale, which the rows' compressed scale cannot show.
      if (s.used_share >= 0) {
        std::string tip = s.stats.front();
        rect(s.x0, gauge_y_, w * s.used_share, gauge_height, map_fill::used, tip);
        rect(s.x0 + w * s.used_share, gauge_y_, w * (1 - s.used_share), gauge_height, map_fill::free, tip);
      }
      for (std::size_t k = s.first_piece; k < s.first_piece + s.piece_count; ++k) draw_piece(pieces_[k], rows_end);
    }
  }

  // Returns s, shortened to fit in width, or empty.
  auto fitting(const std::string& s, double width, map_text_kind kind) const -> std::string {
    return shorten(s, static_cast<std::size_t>(std::max(0.0, width / (char_em * fs(kind)))));
  }

  void draw_piece(const piece& p, double rows_end) {
    double w = p.x1 - p.x0;
    bool used = used_.overlaps(p.span);
    auto worst = bands_.find(p.span.first());
    std::string what = range_text(p.span) + " (" + to_decimal(p.span.size()) + " addresses): ";
    if (!used) {
      if (!pool_set_.contains(p.span)) return;
      std::string tip = what + "free";
      rect(p.x0, summary_y_, w, o_.row_height, map_fill::free, tip);
      rect(p.x0, rows_y_, w, rows_end - rows_y_, map_fill::free_column, tip);
      std::string label = compact_count(p.span.size()) + " free";
      if (text_width(label, map_text_kind::free, o_.font_size) + 4 > w) label = "free";
      if (text_width(label, map_text_kind::free, o_.font_size) + 4 <= w) {
        text((p.x0 + p.x1) / 2, summary_y_ + o_.row_height * 0.72, label, map_text_kind::free, map_anchor::middle);
      }
      return;
    }
    if (worst) {
      bool error = worst->level == static_cast<int>(severity::error);
      map_fill fill = error ? map_fill::overlap : map_fill::latent;
      std::string kind = error ? "overlap" : "latent overlap";
      rect(p.x0, summary_y_, w, o_.row_height, fill, what + "shared by " + owners_at(p.span) + " (" + kind + ")");
      // The band across the rows: one rectangle for neighbouring pieces of one kind.
      if (band_ && band_->fill == fill && band_->span.last().next() == p.span.first()) {
        band_->span = address_range::make(band_->span.first(), p.span.last());
        auto& r = out_.rects[band_->rect];
        r.width = p.x1 - r.x;
        r.tooltip = range_text(band_->span) + ": " + kind;
      } else {
        band_ = band{out_.rects.size(), fill, p.span};
        rect(p.x0, rows_y_, w, rows_end - rows_y_, fill, range_text(p.span) + ": " + kind);
      }
      return;
    }
    rect(p.x0, summary_y_, w, o_.row_height, map_fill::used, what + "used by " + owners_at(p.span));
  }

  // "cluster-1 pods, cluster-7 pods": the ranges covering a piece, at most four named.
  auto owners_at(const address_range& span) const -> std::string {
    const auto* ranges = cover_.find(span.first());
    if (!ranges) return {};
    std::string out;
    std::size_t named = 0;
    for (auto k : *ranges) {
      if (named == 4) break;
      const auto& r = f_.ranges[k];
      out += (named++ ? ", " : "") + f_.owners[r.owner].name + " " + f_.role_name(r);
    }
    if (ranges->size() > named) out += " and " + std::to_string(ranges->size() - named) + " more";
    return out;
  }

  void draw_rows() {
    for (std::size_t row = 0; row < rows_.size(); ++row) {
      const owner& o = f_.owners[rows_[row]];
      double y = rows_y_ + o_.row_height * static_cast<double>(row);
      text(plot_x0_ - 8, y + o_.row_height * 0.75, shorten(row_label(rows_[row]), label_chars_), map_text_kind::row,
           map_anchor::end);
      if (row % 2 == 1) rect(pad, y, plot_x1_ - pad, o_.row_height, map_fill::stripe);
      // Larger ranges first, so a nested smaller one stays visible on top.
      std::vector<std::uint32_t> ranges = o.ranges;
      std::stable_sort(ranges.begin(), ranges.end(),
                       [&](auto a, auto b) { return f_.ranges[a].cidr.length() < f_.ranges[b].cidr.length(); });
      std::vector<bar> bars;
      for (auto k : ranges) {
        const auto& r = f_.ranges[k];
        double x0 = piece_starting(r.cidr.network()).x0, x1 = piece_ending(r.cidr.last()).x1;
        out_.rects.push_back({x0, y + 2, x1 - x0, o_.row_height - 4, fill_of(r.role), r.origin != range_origin::declared, k,
                              f_.describe_range(r)});
        bars.push_back({x0, x1, f_.role_name(r), r.cidr.to_string()});
      }
      label_row(bars, y + o_.row_height * 0.72);
    }
  }

  struct bar {
    double x0, x1;
    std::string role, cidr;
  };

  // Labels a row's bars: bars close together form a group with one label
  // ("pods 10.0.0.0/20 · services 10.0.20.0/23"), placed right of the group,
  // else left of it, else inside, within the group's segment if it can, else
  // across the empty rest of the row. A label that fits nowhere is shortened to
  // the CIDRs, then the first CIDR, then left out.
  void label_row(std::vector<bar>& bars, double baseline) {
    auto segment_at = [&](double x) -> const segment& {
      auto it = std::find_if(segments_.begin(), segments_.end(), [&](const segment& s) { return x <= s.x1; });
      return it == segments_.end() ? segments_.back() : *it;
    };
    std::sort(bars.begin(), bars.end(), [](const bar& a, const bar& b) { return a.x0 < b.x0; });
    constexpr double join = 24;  // bars closer than this share a label
    double taken = plot_x0_;      // the right end of the last bar or label placed
    for (std::size_t k = 0; k < bars.size();) {
      std::size_t end = k + 1;
      double x0 = bars[k].x0, x1 = bars[k].x1;
      while (end < bars.size() && bars[end].x0 < x1 + join) x1 = std::max(x1, bars[end++].x1);
      std::string full, cidrs;
      for (std::size_t j = k; j < end; ++j) {
        full += (j > k ? " \u00b7 " : "") + bars[j].role + " " + bars[j].cidr;
        cidrs += (j > k ? ", " : "") + bars[j].cidr;
      }
      std::vector<std::string> candidates{full, cidrs};
      if (end - k > 1) candidates.push_back(bars[k].cidr + " +" + std::to_string(end - k - 1));
      const segment& within = segment_at(x0);
      double row_next = end < bars.size() ? bars[end].x0 : plot_x1_;
      // First within the segment, then anywhere up to the neighbouring bars.
      double bounds[2][2] = {{std::max(taken, within.x0), std::min(row_next, within.x1)}, {taken, row_next}};
      bool placed = false;
      for (const auto& [before, next] : bounds) {
        for (const auto& label : candidates) {
          double w = text_width(label, map_text_kind::bar, o_.font_size);
          if (x1 + 3 + w <= next - 2) {
            text(x1 + 3, baseline, label, map_text_kind::bar);
            x1 += 3 + w;
          } else if (x0 - 3 - w >= before + 2) {
            text(x0 - 3, baseline, label, map_text_kind::bar, map_anchor::end);
          } else if (w + 4 <= x1 - x0) {
            text(x0 + 2, baseline, label, map_text_kind::bar);
          } else {
            continue;
          }
          placed = true;
          break;
        }
        if (placed) break;
      }
      taken = x1;
      k = end;
    }
  }

  // Ticks under the rows with the first address of each piece, where they do not crowd.
  void draw_axis() {
    double spacing = fs(map_text_kind::axis) * 1.3;
    double longest = 0, last_x = -1e9;
    auto tick = [&](double x, const std::string& label) {
      out_.lines.push_back({x, axis_y_, x, axis_y_ + 4});
      text(x + fs(map_text_kind::axis) * 0.35, axis_y_ + 6, label, map_text_kind::axis, map_anchor::end, true);
      longest = std::max(longest, text_width(label, map_text_kind::axis, o_.font_size));
      last_x = x;
    };
    for (const auto& s : segments_) {
      for (std::size_t k = s.first_piece; k < s.first_piece + s.piece_count; ++k) {
        if (k == s.first_piece || pieces_[k].x0 - last_x >= spacing) tick(pieces_[k].x0, pieces_[k].span.first().to_string());
      }
      if (s.x1 - last_x >= spacing) tick(s.x1, s.span.last().to_string());
    }
    axis_height_ = longest + 10;
  }

  const fleet& f_;
  std::span<const finding> findings_;
  const map_options& o_;
  std::vector<prefix> pools_;
  address_set pool_set_, used_;
  address_map<worst_level> bands_;
  struct band {
    std::size_t rect;  // index into out_.rects
    map_fill fill;
    address_range span;
  };
  std::optional<band> band_;  // the last band drawn, which the next piece may extend
  address_map<std::set<std::uint32_t>> cover_;  // the ranges over each piece of space
  std::vector<piece> pieces_;
  std::vector<segment> segments_;
  std::vector<std::uint32_t> rows_;
  std::size_t label_chars_ = 0;
  double plot_x0_ = 0, plot_x1_ = 0;
  double title_y_ = 0, caption_y_ = 0, legend_y_ = 0, segment_y_ = 0, stats_y_ = 0, summary_y_ = 0, rows_y_ = 0,
         axis_y_ = 0, axis_height_ = 0, gauge_y_ = 0;
  fleet_map out_;
};

}  // namespace

auto layout_map(const fleet& f, std::span<const finding> findings, const catalog& c, const map_options& options)
    -> fleet_map {
  return map_builder(f, findings, c, options).run();
}

}  // namespace cidrcheck
