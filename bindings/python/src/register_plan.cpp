// Planning for cidrcheck.Fleet.plan(): the options as `cidrcheck plan` takes
// them, the result as plain data (the keys of `cidrcheck plan --format json`),
// the planned fleet, and the fleet file with the plan applied.

#include "convert.hpp"
#include "fleet_model.hpp"
#include "register.hpp"

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/plan_writer.hpp>

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck::python {

namespace {

auto roles_named(const std::string& word, const char* what) -> role_set {
  auto roles = parse_cluster_roles(word);
  if (!roles) {
    throw py::value_error(std::string(what) + ": unknown role '" + word + "' (network, pods, services or all)" +
                          detail::did_you_mean(word, cluster_role_words));
  }
  return *roles;
}

template <class F>
void for_each_role(role_set roles, F f) {
  for (auto r : {range_role::network, range_role::pods, range_role::services}) {
    if (roles.has(r)) f(static_cast<std::size_t>(r));
  }
}

auto owner_index(const fleet& f, const std::string& name) -> std::uint32_t {
  if (auto k = f.find_owner(name)) return *k;
  std::vector<std::string_view> names;
  for (const auto& o : f.owners) names.push_back(o.name);
  throw py::value_error("connect: '" + name + "' is no cluster or network" + detail::did_you_mean(name, names));
}

// The options of Fleet.plan(), already split into simple values by fleet.py.
struct plan_arguments {
  std::vector<std::pair<std::string, prefix_like>> pools;
  std::vector<prefix_like> avoid;
  std::vector<std::string> pins;
  std::vector<std::pair<std::string, int>> costs;
  std::optional<double> headroom;
  std::vector<std::vector<std::string>> connect;
  std::vector<std::string> routes;
  bool fix_latent = false;
  double capacity_warning = check_options{}.capacity_warning;
};

auto options_from(const fleet& f, const plan_arguments& a) -> plan_options {
  plan_options o;
  o.fix_latent = a.fix_latent;
  o.check.capacity_warning = a.capacity_warning;
  for (const auto& [role, pool] : a.pools) {
    for_each_role(roles_named(role, "pools"), [&](std::size_t r) { o.settings.pools[r].push_back(pool.value); });
  }
  for (const auto& p : a.avoid) o.settings.avoid.push_back(p.value);
  for (const auto& p : a.pins) o.settings.pins.push_back({p, {}});
  for (const auto& [role, cost] : a.costs) {
    if (cost < 0 || cost > 1'000'000) throw py::value_error("cost: " + role + " must be from 0 to 1000000");
    for_each_role(roles_named(role, "cost"), [&](std::size_t r) { o.settings.cost[r] = cost; });
  }
  if (a.headroom) {
    if (!(*a.headroom >= 1.0 && *a.headroom <= 100.0)) throw py::value_error("headroom must be from 1 to 100");
    o.settings.headroom = a.headroom;
  }
  role_set routes = role_set::none();
  for (const auto& word : a.routes) routes.add(roles_named(word, "routes"));
  for (const auto& group : a.connect) {
    connection link;
    link.via = "what-if";
    link.routes = routes;
    for (const auto& name : group) link.members.push_back(owner_index(f, name));
    if (link.members.size() < 2) throw py::value_error("connect: each group needs at least two owners");
    o.connect.push_back(std::move(link));
  }
  return o;
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
      fd["fact"] = to_str(fact.text);
      fd["source"] = to_str(fact.source);
      facts.append(fd);
    }
    py::dict sd;
    sd["step"] = to_str(s.text);
    sd["relies_on"] = facts;
    steps.append(sd);
  }
  return steps;
}

auto change_dict(const fleet& f, const plan_change& c) -> py::dict {
  py::dict d;
  const auto& o = f.owners[c.owner];
  d["owner"] = to_str(o.name);
  d["owner_kind"] = o.kind == owner_kind::cluster ? "cluster" : "network";
  d["role"] = to_str(c.range ? f.role_name(f.ranges[*c.range]) : std::string(to_string(c.role)));
  d["from"] = c.from.is_valid() ? py::cast(c.from) : py::none();
  d["to"] = py::cast(c.to);
  d["cost"] = c.cost;
  if (c.range) {
    const auto& r = f.ranges[*c.range];
    d["origin"] = r.origin == range_origin::declared ? "declared" : "default";
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

auto run_plan(const fleet_model& f, const plan_arguments& a, const config_model* cfg) -> py::dict {
  judgement j(f, cfg);
  auto options = options_from(*f.value, a);
  options.triage = j.options;
  plan_result result;
  fleet planned, seen;
  triage_result remaining;
  {
    py::gil_scoped_release unlocked;
    result = plan(*f.value, j.cat, options);
    planned = apply_plan(*f.value, result);
    // What is left, described, in the fleet as planned with the what-if connections.
    seen = planned;
    seen.connections.insert(seen.connections.end(), options.connect.begin(), options.connect.end());
    remaining = triage(seen, check(seen, j.cat, options.check), j.options);
  }
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
  out["remaining"] = triage_dict(seen, remaining, j.suppressions);
  // The planned fleet keeps the planned text, so that it can be planned and written again.
  fleet_model next{std::make_shared<const fleet>(std::move(planned)), f.files, {}, f.suppressions, std::nullopt};
  if (f.source) {
    next.source.emplace(apply_plan_to_text(f.source->first, f.source->second, *f.value, result), f.source->second);
  }
  out["yaml"] = next.source ? py::object(to_str(next.source->first)) : py::none();
  out["fleet"] = std::move(next);
  return out;
}

}  // namespace

void register_plan(py::module_& m) {
  m.def(
      "plan",
      [](const fleet_model& f, const std::vector<std::pair<std::string, prefix_like>>& pools,
         const std::vector<prefix_like>& avoid, const std::vector<std::string>& pins,
         const std::vector<std::pair<std::string, int>>& costs, std::optional<double> headroom,
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
