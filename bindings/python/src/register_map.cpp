// The fleet map: the layout the C++ library computes, as plain data for
// cidrcheck.plot to draw with matplotlib, and the same map as SVG text.

#include "convert.hpp"
#include "fleet_model.hpp"
#include "register.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/map.hpp>
#include <cidrcheck/io/map_svg.hpp>

#include <pybind11/stl.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace cidrcheck::python {

namespace {

constexpr std::array fill_names{"network", "pods",    "services", "external", "used",
                                "free",    "free_column", "overlap", "latent", "segment", "stripe"};
constexpr std::array kind_names{"title", "caption", "legend", "segment", "stats", "row", "bar", "free", "axis"};
constexpr std::array anchor_names{"start", "middle", "end"};

auto options_from(const std::vector<prefix_like>& pools, double width, double row_height, double font_size,
                  double scale_exponent, std::size_t max_rows, const std::optional<std::string>& title) -> map_options {
  map_options o;
  for (const auto& p : pools) o.pools.push_back(p.value);
  o.width = width;
  o.row_height = row_height;
  o.font_size = font_size;
  o.scale_exponent = scale_exponent;
  o.max_rows = max_rows;
  if (title) o.title = *title;
  return o;
}

// Lays out the map with the findings `cidrcheck map` draws: judged by the configuration and suppressions.
auto layout(const fleet_model& f, const map_options& options, const config_model* cfg) -> fleet_map {
  const auto c = config_of(cfg);
  py::gil_scoped_release unlocked;
  auto verdict = analyse_fleet(c, f.read->loaded, run_request{});
  return layout_map(f.value(), verdict.found.triaged.findings, verdict.judged.cat, options);
}

// Every fill's colour and opacity, by name: one palette for the map and any other chart.
auto fills() -> py::dict {
  py::dict out;
  for (std::size_t k = 0; k < fill_names.size(); ++k) {
    auto fill = static_cast<map_fill>(k);
    out[fill_names[k]] = py::make_tuple(std::string(map_color(fill)), map_opacity(fill));
  }
  return out;
}

auto layout_dict(const fleet_map& m) -> py::dict {
  py::dict out;
  out["width"] = m.width;
  out["height"] = m.height;
  py::dict fonts;
  for (std::size_t k = 0; k < kind_names.size(); ++k) {
    auto kind = static_cast<map_text_kind>(k);
    fonts[kind_names[k]] =
        py::make_tuple(m.font_size(kind), map_font_bold(kind), std::string(map_text_color(kind)));
  }
  out["fills"] = fills();
  out["fonts"] = fonts;
  py::list rects, lines, texts;
  for (const auto& r : m.rects) {
    rects.append(py::make_tuple(r.x, r.y, r.width, r.height, fill_names[static_cast<std::size_t>(r.fill)], r.defaulted,
                                r.range ? py::object(py::int_(*r.range)) : py::none(), to_str(r.tooltip)));
  }
  for (const auto& l : m.lines) lines.append(py::make_tuple(l.x1, l.y1, l.x2, l.y2));
  for (const auto& t : m.texts) {
    texts.append(py::make_tuple(t.x, t.y, to_str(t.text), kind_names[static_cast<std::size_t>(t.kind)],
                                anchor_names[static_cast<std::size_t>(t.anchor)], t.vertical));
  }
  out["rects"] = rects;
  out["lines"] = lines;
  out["texts"] = texts;
  return out;
}

}  // namespace

void register_map(py::module_& m) {
  static_assert(fill_names.size() == static_cast<std::size_t>(map_fill::stripe) + 1, "a name for every fill");
  static_assert(kind_names.size() == static_cast<std::size_t>(map_text_kind::axis) + 1, "a name for every text kind");
  m.def(
      "map_layout",
      [](const fleet_model& f, const std::vector<prefix_like>& pools, double width, double row_height, double font_size,
         double scale_exponent, std::size_t max_rows, const std::optional<std::string>& title, const config_model* cfg) {
        return layout_dict(
            layout(f, options_from(pools, width, row_height, font_size, scale_exponent, max_rows, title), cfg));
      },
      py::arg("fleet"), py::arg("pools"), py::arg("width"), py::arg("row_height"), py::arg("font_size"),
      py::arg("scale_exponent"), py::arg("max_rows"), py::arg("title"), py::arg("config") = nullptr,
      "Returns the fleet map's layout as plain data: sizes, fills, fonts, rects, lines and texts, in pixels.");
  m.def(
      "map_svg",
      [](const fleet_model& f, const std::vector<prefix_like>& pools, double width, double row_height, double font_size,
         double scale_exponent, std::size_t max_rows, const std::optional<std::string>& title, const config_model* cfg) {
        return to_svg(
            layout(f, options_from(pools, width, row_height, font_size, scale_exponent, max_rows, title), cfg));
      },
      py::arg("fleet"), py::arg("pools"), py::arg("width"), py::arg("row_height"), py::arg("font_size"),
      py::arg("scale_exponent"), py::arg("max_rows"), py::arg("title"), py::arg("config") = nullptr,
      "Returns the fleet map as SVG text, exactly as `cidrcheck map` writes it.");
  m.attr("MAP_FILLS") = fills();
  m.attr("MAP_DEFAULTS") = py::dict(py::arg("width") = map_options{}.width, py::arg("row_height") = map_options{}.row_height,
                                    py::arg("font_size") = map_options{}.font_size,
                                    py::arg("scale_exponent") = map_options{}.scale_exponent,
                                    py::arg("max_rows") = map_options{}.max_rows);
}

}  // namespace cidrcheck::python
