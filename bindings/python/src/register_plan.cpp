// Planning for cidrcheck.Fleet.plan() and cidrcheck.plan(): the options as
// `cidrcheck plan` takes them, run by the library's plan_fleet() and
// plan_run(); the plan as its record (the JSON of `cidrcheck plan --format
// json`), what it leaves, the planned fleet, its YAML and its runbook files.

#include "convert.hpp"
#include "fleet_model.hpp"
#include "interruptible.hpp"
#include "records.hpp"
#include "register.hpp"

#include <cidrcheck/plan_request.hpp>

#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cidrcheck::python {

namespace {

// The options of a plan, already split into simple values by fleet.py; the
// library validates them (cidrcheck/plan_request.hpp), naming them as Python does.
// A named pool as fleet.py splits it: (name, CIDRs, (key, value) pairs of its `for`).
using named_pool_arguments =
    std::tuple<std::string, std::vector<std::string>, std::vector<std::pair<std::string, std::string>>>;

struct plan_arguments {
  std::vector<std::pair<std::string, prefix_like>> pools;
  std::vector<named_pool_arguments> named_pools;
  std::vector<prefix_like> avoid;
  std::vector<std::string> pins;
  std::vector<std::pair<std::string, std::string>> costs;
  std::optional<std::string> headroom;
  std::vector<std::vector<std::string>> connect;
  std::vector<std::string> routes;
  bool fix_latent = false;
  double capacity_warning = check_options{}.capacity_warning;
};

auto request_from(const plan_arguments& a) -> plan_run_request {
  plan_run_request r;
  r.run.checking.capacity_warning = a.capacity_warning;
  auto& o = r.options;
  o.names = {"pools", "named_pools", "avoid", "pin", "cost", "connect", "routes"};
  for (const auto& [role, pool] : a.pools) o.pools.emplace_back(role, pool.value.to_string());
  for (const auto& [name, cidrs, selector] : a.named_pools) o.named_pools.push_back({name, cidrs, selector});
  for (const auto& p : a.avoid) o.avoid.push_back(p.value.to_string());
  o.pins = a.pins;
  o.costs = a.costs;
  o.headroom = a.headroom;
  o.connect = a.connect;
  o.routes = a.routes;
  o.fix_latent = a.fix_latent;
  // What Plan shows: the findings left, and (for a fleet of one text) the planned fleet's file.
  r.remaining = true;
  return r;
}

// One plan as Python sees it: the fleet it was made for, the configuration,
// and what plan_fleet() made. Immutable; shared with the worker of a long call.
struct plan_model {
  std::shared_ptr<const run_fleet> read;
  std::shared_ptr<const config> cfg;
  std::shared_ptr<const planned> plan;
  input_limits limits;

  auto value() const -> const fleet& { return read->loaded.value; }
};

// The planned fleet, to check, map or plan again: a fleet of one text keeps the planned text.
auto planned_fleet(const plan_model& p) -> fleet_model {
  auto next = std::make_shared<run_fleet>();
  next->loaded.value = *p.plan->after;
  next->loaded.files = p.read->loaded.files;
  next->loaded.suppressions = p.read->loaded.suppressions;
  if (p.plan->yaml && !p.plan->yaml->overlay) {
    next->source.text = source_text{p.plan->yaml->text, p.read->source.text->name};
  }
  return {std::move(next)};
}

auto make_plan(std::shared_ptr<const run_fleet> read, config cfg, plan_run_request request) -> plan_model {
  // plan_option_error is a std::invalid_argument: Python sees a ValueError.
  request.yaml = read->source.text.has_value();
  auto c = std::make_shared<const config>(std::move(cfg));
  auto r = std::make_shared<const plan_run_request>(std::move(request));
  auto made = interruptible([read, c, r] {
    return std::make_shared<const planned>(plan_fleet(*c, read->loaded, read->source, *r));
  });
  return {std::move(read), std::move(c), std::move(made), r->run.limits};
}

void register_plan_model(py::module_& m) {
  py::class_<plan_model>(m, "PlanModel", "A plan as made by the C++ library; use cidrcheck.Plan.")
      .def("record",
           [](const plan_model& p) {
             return python_record(
                 [&](record_sink& s) { write_plan_record(s, p.value(), p.plan->result, p.read->loaded.files); });
           },
           "The plan's record: the JSON object `cidrcheck plan --format json` prints.")
      .def("diagnostics",
           [](const plan_model& p) {
             py::list out;
             for (const auto& d : p.plan->result.diagnostics) out.append(diagnostic_dict(d));
             return out;
           },
           "The problems with the plan settings, as diagnostics with their meaning.")
      .def("remaining",
           [](const plan_model& p) {
             const auto& left = *p.plan->remaining;
             // Every finding left is shown, as check() shows them; the policy is the configuration's.
             auto policy = resolve_policy(*p.cfg);
             policy.min_severity = severity::note;
             auto shown = select(left.triaged.findings, left.fingerprints, policy);
             return report_dict(*p.plan->seen, left, shown, policy, p.plan->judged);
           },
           "The report of the planned fleet, with the what-if connections.")
      .def("fleet", &planned_fleet, "The planned fleet.")
      .def("yaml",
           [](const plan_model& p, const std::string& name) -> std::optional<std::string> {
             if (p.plan->yaml) return p.plan->yaml->text;
             if (p.read->source.sources.empty()) return std::nullopt;  // a fleet made from several texts
             return write_planned_yaml(p.read->loaded, p.read->source, *p.plan, p.limits, name).text;
           },
           py::arg("name"),
           "The planned fleet as `cidrcheck plan --format yaml` writes it, read back and checked: the fleet file "
           "patched, or an overlay named `name` for several sources; None for a fleet of several texts.")
      .def("runbooks",
           [](const plan_model& p) {
             py::list out;
             for (const auto& f : runbook_files(p.value(), p.plan->result, p.plan->judged.cat)) {
               out.append(py::make_tuple(to_str(f.path), to_str(f.text)));
             }
             return out;
           },
           "The runbook folders' files `cidrcheck plan --emit` writes: (path, text) pairs.");
}

}  // namespace

void register_plan(py::module_& m) {
  register_plan_model(m);
  m.def(
      "plan",
      [](const fleet_model& f, const std::vector<std::pair<std::string, prefix_like>>& pools,
         const std::vector<named_pool_arguments>& named_pools, const std::vector<prefix_like>& avoid,
         const std::vector<std::string>& pins, const std::vector<std::pair<std::string, std::string>>& costs,
         std::optional<std::string> headroom,
         const std::vector<std::vector<std::string>>& connect, const std::vector<std::string>& routes, bool fix_latent,
         double capacity_warning, const config_model* cfg) {
        return make_plan(f.read, config_of(cfg),
                         request_from({pools, named_pools, avoid, pins, costs, headroom, connect, routes, fix_latent,
                                       capacity_warning}));
      },
      py::arg("fleet"), py::arg("pools"), py::arg("named_pools"), py::arg("avoid"), py::arg("pins"), py::arg("costs"),
      py::arg("headroom"), py::arg("connect"), py::arg("routes"), py::arg("fix_latent"), py::arg("capacity_warning"),
      py::arg("config") = nullptr,
      "Plans the cheapest renumbering of a loaded fleet, as `cidrcheck plan` does (plan_fleet()). Raises ValueError "
      "for bad options.");
  m.def(
      "run_plan",
      [](const std::vector<std::string>& sources, const std::optional<std::string>& config_file, bool no_config,
         const input_limits& limits, const std::vector<std::pair<std::string, prefix_like>>& pools,
         const std::vector<named_pool_arguments>& named_pools, const std::vector<prefix_like>& avoid,
         const std::vector<std::string>& pins, const std::vector<std::pair<std::string, std::string>>& costs,
         std::optional<std::string> headroom,
         const std::vector<std::vector<std::string>>& connect, const std::vector<std::string>& routes, bool fix_latent,
         double capacity_warning) {
        // The configuration and the fleet are read as plan_run() reads them; the plan is made as above.
        auto request =
            request_from({pools, named_pools, avoid, pins, costs, headroom, connect, routes, fix_latent, capacity_warning});
        request.run.inputs = sources;
        request.run.configuration = choice_from(config_file, no_config, ".");
        request.run.limits = limits;
        request.yaml = true;  // the text is kept, and the planned fleet's file made, as `plan -f yaml` makes it
        auto shared = std::make_shared<const plan_run_request>(std::move(request));
        auto run = interruptible([shared] { return plan_run(*shared); });
        py::list diagnostics;
        for (const auto& d : run.diagnostics) diagnostics.append(diagnostic_dict(d));
        if (!run.ok()) return py::make_tuple(status_name(run.status), diagnostics, py::none(), py::none());
        auto read = std::make_shared<run_fleet>();
        read->loaded = std::move(run.loaded);
        read->source = std::move(run.source);
        std::shared_ptr<const run_fleet> kept = std::move(read);
        plan_model plan{kept, std::make_shared<const config>(std::move(run.cfg)),
                        std::make_shared<const planned>(std::move(*run.plan)), shared->run.limits};
        return py::make_tuple(status_name(run.status), diagnostics, py::cast(fleet_model{kept}), py::cast(plan));
      },
      py::arg("sources"), py::arg("config_file"), py::arg("no_config"), py::arg("limits"), py::arg("pools"),
      py::arg("named_pools"), py::arg("avoid"), py::arg("pins"), py::arg("costs"), py::arg("headroom"),
      py::arg("connect"), py::arg("routes"), py::arg("fix_latent"), py::arg("capacity_warning"),
      "Runs `cidrcheck plan` (plan_run()): (status, diagnostics, fleet, plan).");
}

}  // namespace cidrcheck::python
