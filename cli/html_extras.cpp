#include "html_extras.hpp"

#include <cidrcheck/fleet/map.hpp>
#include <cidrcheck/io/map_svg.hpp>
#include <cidrcheck/limit_error.hpp>

#include <algorithm>

namespace cidrcheck::cli {

void html_extras::attach(check_report& r) const {
  r.map_svg = map_svg;
  r.map_note = map_note;
  r.plan = planned ? &*planned : nullptr;
  r.plan_note = plan_note;
}

auto wants_html(std::span<const report_target> targets) -> bool {
  return std::any_of(targets.begin(), targets.end(),
                     [](const report_target& t) { return t.format == report_format::html; });
}

auto make_html_extras(const run_result& run, const run_request& request) -> html_extras {
  html_extras out;
  const fleet& f = run.loaded.value;
  try {
    out.map_svg = to_svg(layout_map(f, run.found.triaged.findings, run.judged.cat));
  } catch (const map_error& e) {
    out.map_note = std::string("No map: ") + e.what() + " (`cidrcheck map --max-rows` draws a larger one).";
  }
  // As `cidrcheck plan` plans with no flags: the findings judged as check judges them.
  try {
    plan_run_request defaults;
    defaults.run = request;
    out.planned = plan_fleet(run.cfg, run.loaded, run.source, defaults).result;
  } catch (const limit_error& e) {
    out.plan_note = std::string("No plan: ") + e.what();
  }
  return out;
}

}  // namespace cidrcheck::cli
