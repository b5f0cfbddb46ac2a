#include <cidrcheck/detail/xml.hpp>
#include <cidrcheck/io/map_svg.hpp>

#include <algorithm>
#include <cstdio>

namespace cidrcheck {

auto map_color(map_fill fill) noexcept -> std::string_view {
  // Tableau 10: distinguishable, and readable for the common colour blindnesses.
  switch (fill) {
    case map_fill::network: return "#4e79a7";
    case map_fill::pods: return "#59a14f";
    case map_fill::services: return "#f28e2b";
    case map_fill::external: return "#b07aa1";
    case map_fill::used: return "#a5a5a5";
    case map_fill::free: return "#cfe8e6";
    case map_fill::free_column: return "#eaf5f4";
    case map_fill::overlap: return "#e15759";
    case map_fill::latent: return "#edc948";
    case map_fill::segment: return "#f7f7f7";
    case map_fill::stripe: return "#000000";
  }
  return "#000000";
}

auto map_opacity(map_fill fill) noexcept -> double {
  if (fill == map_fill::stripe) return 0.045;
  return fill == map_fill::overlap || fill == map_fill::latent ? 0.45 : 1.0;
}

auto map_font_bold(map_text_kind kind) noexcept -> bool {
  return kind == map_text_kind::title || kind == map_text_kind::segment;
}

auto map_text_color(map_text_kind kind) noexcept -> std::string_view {
  return kind == map_text_kind::caption || kind == map_text_kind::stats || kind == map_text_kind::axis ? "#555555"
                                                                                                       : "#222222";
}

namespace {

// Appends v with at most two decimals and no trailing zeros: "12", "12.5", "0.45".
void append_number(std::string& out, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string_view s = buf;
  while (s.ends_with('0')) s.remove_suffix(1);
  if (s.ends_with('.')) s.remove_suffix(1);
  out += s == "-0" ? "0" : s;
}

}  // namespace

auto to_svg(const fleet_map& m) -> std::string {
  std::string out;
  out.reserve(256 + m.rects.size() * 160 + m.texts.size() * 100);
  auto attr = [&](const char* name, double v) {
    out += ' ';
    out += name;
    out += "=\"";
    append_number(out, v);
    out += '"';
  };
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"";
  attr("width", m.width);
  attr("height", m.height);
  out += " viewBox=\"0 0 ";
  append_number(out, m.width);
  out += ' ';
  append_number(out, m.height);
  out += "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<style>";
  for (auto kind : {map_text_kind::title, map_text_kind::caption, map_text_kind::legend, map_text_kind::segment,
                    map_text_kind::stats, map_text_kind::row, map_text_kind::bar, map_text_kind::free, map_text_kind::axis}) {
    out += " .t";
    out += std::to_string(static_cast<int>(kind));
    out += "{font-size:";
    append_number(out, m.font_size(kind));
    out += "px";
    if (map_font_bold(kind)) out += ";font-weight:bold";
    out += ";fill:";
    out += map_text_color(kind);
    out += '}';
  }
  out += " </style>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (const auto& r : m.rects) {
    out += "<rect";
    attr("x", r.x);
    attr("y", r.y);
    attr("width", std::max(r.width, 0.5));
    attr("height", r.height);
    out += " fill=\"";
    out += map_color(r.fill);
    out += '"';
    if (map_opacity(r.fill) < 1) attr("fill-opacity", map_opacity(r.fill));
    if (r.defaulted) out += " stroke=\"#333333\" stroke-width=\"1\" stroke-dasharray=\"3,2\"";
    if (r.tooltip.empty()) {
      out += "/>\n";
    } else {
      out += "><title>";
      detail::append_xml_escaped(out, r.tooltip);
      out += "</title></rect>\n";
    }
  }
  for (const auto& l : m.lines) {
    out += "<line";
    attr("x1", l.x1);
    attr("y1", l.y1);
    attr("x2", l.x2);
    attr("y2", l.y2);
    out += " stroke=\"#888888\" stroke-width=\"1\"/>\n";
  }
  for (const auto& t : m.texts) {
    out += "<text class=\"t";
    out += std::to_string(static_cast<int>(t.kind));
    out += '"';
    attr("x", t.x);
    attr("y", t.y);
    if (t.anchor == map_anchor::middle) out += " text-anchor=\"middle\"";
    if (t.anchor == map_anchor::end) out += " text-anchor=\"end\"";
    if (t.vertical) {
      out += " transform=\"rotate(-90 ";
      append_number(out, t.x);
      out += ' ';
      append_number(out, t.y);
      out += ")\"";
    }
    out += '>';
    detail::append_xml_escaped(out, t.text);
    out += "</text>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace cidrcheck
