// Planning for cidrcheck.Fleet.plan(): the options as `cidrcheck plan` takes
// them, the result as plain data (the keys of `cidrcheck plan --format json`),
// the planned fleet, and the fleet file with the plan applied.

#include "convert.hpp"
#include "fleet_model.hpp"
#include "interruptible.hpp"
#include "register.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/plan_writer.hpp>
#include <cidrcheck/plan_request.hpp>

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck::python {

namespace {

// The options of Fleet.plan(), already split into simple values by fleet.py;
// the library validates them (cidrcheck/plan_request.hpp), naming them as
// Python does.
struct plan_arguments {
  std::vector<std::pair<std::string, prefix_like>> pools;
  std::vector<prefix_like> avoid;
  std::vector<std::string> pins;
  std::vector<std::pair<std::string, std::string>> costs;
  std::optional<std::string> headroom;
  std::vector<std::vector<std::string>> connect;
  std::vector<std::string> routes;
  bool fix_latent = false;
  double capacity_warning = check_options{}.capacity_warning;
};

auto request_from(const plan_arguments& a) -> plan_request {
  plan_request r;
  r.names = {"pools", "avoid", "pin", "cost", "connect", "routes"};
  for (const auto& [role, pool] : a.pools) r.pools.emplace_back(role, pool.value.to_string());
  for (const auto& p : a.avoid) r.avoid.push_back(p.value.to_string());
  r.pins = a.pins;
  r.costs = a.costs;
  r.headroom = a.headroom;
  r.connect = a.connect;
  r.routes = a.routes;
  r.fix_latent = a.fix_latent;
  r.checking.capacity_warning = a.capacity_warning;
  return r;
}

void where_dict(py::dict& d, const source_location& where) {
  d["file"] = to_str(where.file);
  d["line"] = where.line;
  d["column"] = where.column;
}

auto steps_list(const std::vector<migration_step>& list) -> py::list {
  py::list steps;
  for (const auto& s : list) {
    py::list facts;
    for (const auto& fact : s.facts) {
      py::dict fd;
      fd["id"] = to_str(fact.id);
      fd["fact"] = to_str(fact.text);
      fd["source"] = to_str(fact.source);
      fd["status"] = to_str(fact.status);
      facts.append(fd);
    }
    py::dict sd;
    sd["step"] = to_str(s.text);
    sd["relies_on"] = facts;
    py::list needs, makes, files;
    for (const auto& x : s.needs) needs.append(to_str(x));
    for (const auto& x : s.makes) makes.append(to_str(x));
    for (const auto& x : s.files) files.append(to_str(x));
    sd["needs"] = needs;
    sd["makes"] = makes;
    sd["files"] = files;
    steps.append(sd);
  }
  return steps;
}

auto change_dict(const fleet& f, const plan_change& c) -> py::dict {
  py::dict d;
  const auto& o = f.owners[c.owner];
  d["owner"] = to_str(o.name);
  d["owner_kind"] = to_string(o.kind);
  d["role"] = to_str(c.range ? f.role_name(f.ranges[*c.range]) : std::string(to_string(c.role)));
  d["from"] = c.from.is_valid() ? py::cast(c.from) : py::none();
  d["to"] = py::cast(c.to);
  d["cost"] = c.cost;
  if (c.range) {
    const auto& r = f.ranges[*c.range];
    d["origin"] = std::string(to_string(r.origin));
    where_dict(d, r.where);
  } else if (c.request) {
    d["origin"] = "new";
    where_dict(d, f.requests[*c.request].where);
  } else {
    d["origin"] = "new";  // pod space an operation adds: placed at its cluster
    where_dict(d, o.where);
  }
  d["operation"] = c.operation ? py::object(py::int_(*c.operation)) : py::none();
  d["dns_from"] = c.dns_from ? py::cast(*c.dns_from) : py::none();
  d["dns_to"] = c.dns_to ? py::cast(*c.dns_to) : py::none();
  d["transition_safe"] = c.transition_safe;
  py::list reasons;
  for (const auto& reason : c.reasons) reasons.append(to_str(reason));
  d["reasons"] = reasons;
  d["steps"] = steps_list(c.steps);
  return d;
}

auto operation_dict(const fleet& f, const plan_operation& op) -> py::dict {
  py::dict d;
  py::list owners, counted, changes;
  for (auto k : op.owners) owners.append(to_str(f.owners[k].name));
  for (const auto& x : op.counted) counted.append(to_str(x));
  for (auto k : op.changes) changes.append(k);
  d["kind"] = to_str(op.kind);
  d["changes_what"] = std::string(to_string(op.scope));
  d["owners"] = owners;
  d["cost"] = op.cost;
  d["counted"] = counted;
  d["changes"] = changes;
  d["steps"] = steps_list(op.steps);
  return d;
}



auto problem_dict(const fleet& f, const plan_problem& p) -> py::dict {
  py::dict d;
  d["rule"] = p.id ? py::object(py::str(std::string(info(*p.id).name))) : py::none();
  d["message"] = to_str(p.message);
  py::list ranges, requests;
  for (auto k : p.ranges) ranges.append(range_record(f, k));
  for (auto k : p.requests) {
    const auto& q = f.requests[k];
    py::dict r;
    r["owner"] = to_str(f.owners[q.owner].name);
    r["role"] = std::string(to_string(q.role));
    where_dict(r, q.where);
    requests.append(r);
  }
  d["ranges"] = ranges;
  d["requests"] = requests;
  return d;
}

// What Fleet.plan() computes off the GIL: the plan, the fleet as planned, and what is left.
struct planned_run {
  plan_result result;
  fleet planned, seen;
  analysis remaining;
};

// The plan as plain data: the keys of `cidrcheck plan --format json`, the
// remaining findings, the planned fleet and its file.
auto plan_dict(const fleet_model& f, planned_run run, const judgement& j) -> py::dict {
  const auto& result = run.result;
  py::dict out;
  out["complete"] = result.complete();
  out["optimal"] = result.optimal;
  out["total_cost"] = result.total_cost;
  out["owners_changed"] = result.owners_changed;
  py::list operations, changes, problems, diagnostics;
  for (const auto& op : result.operations) operations.append(operation_dict(*f.value, op));
  for (const auto& c : result.changes) changes.append(change_dict(*f.value, c));
  for (const auto& p : result.problems) problems.append(problem_dict(*f.value, p));
  for (const auto& d : result.diagnostics) diagnostics.append(diagnostic_dict(d));
  out["operations"] = operations;
  out["changes"] = changes;
  out["problems"] = problems;
  out["diagnostics"] = diagnostics;
  out["remaining"] = analysis_dict(run.seen, run.remaining, j.suppressions);
  // The planned fleet keeps the planned text, so that it can be planned and written again.
  fleet_model next{std::make_shared<const fleet>(std::move(run.planned)), f.files, {}, f.suppressions, std::nullopt};
  if (f.source) {
    next.source.emplace(apply_plan_to_text(f.source->first, f.source->second, *f.value, result), f.source->second);
  }
  out["yaml"] = next.source ? py::object(to_str(next.source->first)) : py::none();
  out["fleet"] = std::move(next);
  return out;
}

auto run_plan(const fleet_model& f, const plan_arguments& a, const config_model* cfg) -> py::dict {
  // Shared with the worker, which may outlive this call when Ctrl-C interrupts it.
  auto j = std::make_shared<const judgement>(judgement_of(f, cfg));
  // plan_option_error is a std::invalid_argument: Python sees a ValueError.
  auto options = std::make_shared<const plan_options>(plan_options_for(*f.value, request_from(a), *j));
  auto run = interruptible([model = f.value, j, options] {
    planned_run out;
    out.result = plan(*model, j->cat, *options);
    out.planned = apply_plan(*model, out.result);
    // What is left, described, in the fleet as planned with the what-if connections.
    out.seen = out.planned;
    out.seen.connections.insert(out.seen.connections.end(), options->connect.begin(), options->connect.end());
    out.remaining = analyse(out.seen, *j, options->check);
    return out;
  });
  return plan_dict(f, std::move(run), *j);
}


}  // namespace

void register_plan(py::module_& m) {
  m.def(
      "plan",
      [](const fleet_model& f, const std::vector<std::pair<std::string, prefix_like>>& pools,
         const std::vector<prefix_like>& avoid, const std::vector<std::string>& pins,
         const std::vector<std::pair<std::string, std::string>>& costs, std::optional<std::string> headroom,
         const std::vector<std::vector<std::string>>& connect, const std::vector<std::string>& routes, bool fix_latent,
         double capacity_warning, const config_model* cfg) {
        return run_plan(f, {pools, avoid, pins, costs, headroom, connect, routes, fix_latent, capacity_warning}, cfg);
      },
      py::arg("fleet"), py::arg("pools"), py::arg("avoid"), py::arg("pins"), py::arg("costs"), py::arg("headroom"),
      py::arg("connect"), py::arg("routes"), py::arg("fix_latent"), py::arg("capacity_warning"),
      py::arg("config") = nullptr,
      "Plans the cheapest renumbering, as `cidrcheck plan` does; returns the plan as plain data. Raises ValueError for "
      "bad options.");
}

}  // namespace cidrcheck::python
