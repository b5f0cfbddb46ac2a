// The fleet model for cidrcheck.Fleet: loading, the check, and the capacity
// questions. Results come back as plain data (dicts, lists, ints, strings).

#include "convert.hpp"
#include "fleet_model.hpp"
#include "interruptible.hpp"
#include "records.hpp"
#include "register.hpp"

#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>

#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

namespace cidrcheck::python {

namespace {

auto owner_record(const fleet& f, const catalog& c, std::uint32_t k) -> py::dict {
  const auto& o = f.owners[k];
  py::dict out;
  out["name"] = to_str(o.name);
  out["kind"] = to_string(o.kind);
  out["type"] = to_str(o.type);
  out["kubernetes"] = o.kubernetes ? py::object(py::str(std::to_string(o.kubernetes->major) + "." +
                                                        std::to_string(o.kubernetes->minor)))
                                   : py::none();
  out["nodes"] = o.nodes ? py::object(py::int_(*o.nodes)) : py::none();
  out["node_cidr_mask"] = o.kind == owner_kind::cluster ? py::object(py::int_(c.node_cidr_mask(o, ip_version::v4))) : py::none();
  // How the cluster's CNI hands out pod addresses (docs/fleet-format.md, "CNI and IPAM defaults").
  bool cluster = o.kind == owner_kind::cluster;
  const auto* mode = cluster ? c.ipam_of(o) : nullptr;
  out["cni"] = cluster && !o.cni.empty() ? py::object(to_str(o.cni)) : py::none();
  out["ipam"] = mode ? py::object(to_str(mode->name)) : !o.ipam.empty() ? py::object(to_str(o.ipam)) : py::none();
  out["block_size"] = cluster ? py::object(py::int_(c.pod_block(o, ip_version::v4))) : py::none();
  out["block_size_v6"] = cluster ? py::object(py::int_(c.pod_block(o, ip_version::v6))) : py::none();
  const auto* d = cluster ? c.find_distribution(o.type) : nullptr;
  const auto& family = !o.ip_family.empty() || !d ? o.ip_family : d->ip_family;
  out["ip_family"] = family.empty() ? py::none() : py::object(to_str(family));
  out["ranges"] = o.ranges.size();
  out["movable"] = o.movable;
  out["file"] = to_str(o.where.file);
  out["line"] = o.where.line;
  out["column"] = o.where.column;
  return out;
}

// The connections as the check reports them (records.hpp), with what a translated one translates:
// translates, and translated, the members' global ranges ({owner, cidr} each; fleet_range::translation).
auto connection_records(const fleet& f) -> py::list {
  std::vector<py::list> translated(f.connections.size());
  for (const auto& r : f.ranges) {
    if (!r.is_translated()) continue;
    py::dict d;
    d["owner"] = to_str(f.owners[r.owner].name);
    d["cidr"] = r.cidr.to_string();
    translated[r.translation].append(d);
  }
  py::list out;
  for (std::uint32_t k = 0; k < f.connections.size(); ++k) {
    auto d = python_record([&](record_sink& s) { write_connection_record(s, f, k); }).cast<py::dict>();
    d["translates"] = f.connections[k].translates();
    d["translated"] = std::move(translated[k]);
    out.append(d);
  }
  return out;
}

// A route a network carries: its prefix, the owner it leads to, who advertises it.
auto route_record(const fleet& f, const fleet_route& x) -> py::dict {
  const auto& r = f.ranges[x.range];
  auto text_or_none = [](const std::string& s) { return s.empty() ? py::object(py::none()) : py::object(to_str(s)); };
  py::dict out;
  out["network"] = to_str(f.owners[r.owner].name);
  out["cidr"] = r.cidr.to_string();
  out["to"] = x.to_owner ? py::object(to_str(f.owners[*x.to_owner].name)) : text_or_none(x.to);
  out["to_kind"] = x.to_owner ? py::object(py::str(std::string(to_string(f.owners[*x.to_owner].kind)))) : py::none();
  out["advertiser"] = text_or_none(x.advertiser);
  out["from"] = text_or_none(x.from);
  out["file"] = to_str(r.where.file);
  out["line"] = r.where.line;
  out["column"] = r.where.column;
  return out;
}

// Reads the sources (fleet files or KIND:FILE imports) and texts as one fleet, as a run reads them;
// the text of a fleet of one fleet file or one text is kept (Plan.to_yaml()).
auto load(const std::vector<std::string>& sources, const std::vector<std::pair<std::string, std::string>>& texts,
          const input_limits& limits) -> fleet_model {
  std::vector<source_text> named;
  for (const auto& [text, name] : texts) named.push_back({text, name});
  py::gil_scoped_release unlocked;
  return {std::make_shared<const run_fleet>(load_run_fleet(sources, named, builtin_catalog(), limits, true))};
}

// Checks a loaded fleet as analyse_run() checks what it reads (analyse_fleet()).
auto check_fleet(const fleet_model& f, const run_request& request, const config_model* cfg) -> py::dict {
  // Shared with the worker, which may outlive this call when Ctrl-C interrupts it.
  auto c = std::make_shared<const config>(config_of(cfg));
  auto r = std::make_shared<const run_request>(request);
  auto verdict = interruptible([read = f.read, c, r] { return analyse_fleet(*c, read->loaded, *r); });
  return report_dict(f.value(), verdict.found, verdict.shown, verdict.policy, verdict.judged);
}

// The whole run of `cidrcheck check`: (status, diagnostics, the configuration's file, the fleet or None, the report or None).
auto run_check(const std::vector<std::string>& sources, const config_choice& choice, run_request request,
               const input_limits& limits) -> py::tuple {
  request.inputs = sources;
  request.configuration = choice;
  request.limits = limits;
  auto shared = std::make_shared<const run_request>(std::move(request));
  auto run = interruptible([shared] { return analyse_run(*shared); });
  py::list diagnostics;
  for (const auto& d : run.diagnostics) diagnostics.append(diagnostic_dict(d));
  if (!run.ok()) return py::make_tuple(status_name(run.status), diagnostics, to_str(run.cfg.file), py::none(), py::none());
  auto report = report_dict(run.loaded.value, run.found, run.shown, run.policy, run.judged);
  auto read = std::make_shared<run_fleet>();
  read->loaded = std::move(run.loaded);
  read->source = std::move(run.source);
  return py::make_tuple(status_name(run.status), diagnostics, to_str(run.cfg.file),
                        py::cast(fleet_model{std::move(read)}), report);
}

auto to_prefixes(const std::vector<prefix_like>& pools) -> std::vector<prefix> {
  std::vector<prefix> out;
  for (const auto& p : pools) out.push_back(p.value);
  return out;
}

void register_model(py::module_& m) {
  py::class_<input_limits>(m, "InputLimits", "Limits on input (see docs/limits.md).")
      .def(py::init<>())
      .def_readwrite("max_file_bytes", &input_limits::max_file_bytes)
      .def_readwrite("max_depth", &input_limits::max_depth)
      .def_readwrite("max_nodes", &input_limits::max_nodes)
      .def_readwrite("max_owners", &input_limits::max_owners)
      .def_readwrite("max_ranges", &input_limits::max_ranges)
      .def_readwrite("max_errors", &input_limits::max_errors);

  py::class_<fleet_model>(m, "FleetModel", "A fleet as read by the C++ loader; use cidrcheck.Fleet.")
      .def_property_readonly("ok", [](const fleet_model& f) { return f.read->loaded.ok(); },
                             "True when the fleet was read without errors.")
      .def_property_readonly("files",
                             [](const fleet_model& f) {
                               py::list out;
                               for (const auto& name : f.read->loaded.files) out.append(to_str(name));
                               return out;
                             })
      .def("diagnostics",
           [](const fleet_model& f) {
             py::list out;
             for (const auto& d : f.read->loaded.diagnostics) out.append(diagnostic_dict(d));
             return out;
           })
      .def("owners",
           [](const fleet_model& f) {
             py::list out;
             for (std::uint32_t k = 0; k < f.value().owners.size(); ++k) out.append(owner_record(f.value(), builtin_catalog(), k));
             return out;
           })
      .def("ranges",
           [](const fleet_model& f) {
             py::list out;
             for (std::uint32_t k = 0; k < f.value().ranges.size(); ++k) {
               auto d = python_record([&](record_sink& s) { write_range_record(s, f.value(), k); }).cast<py::dict>();
               const auto& cidr = f.value().ranges[k].cidr;
               d["version"] = version_number(cidr.version());
               d["prefixlen"] = cidr.length();
               d["num_addresses"] = count(address_range(cidr));
               out.append(d);
             }
             return out;
           })
      .def("connections", [](const fleet_model& f) { return connection_records(f.value()); })
      .def("routes",
           [](const fleet_model& f) {
             py::list out;
             for (const auto& x : f.value().routes) out.append(route_record(f.value(), x));
             return out;
           })
      .def("counts",
           [](const fleet_model& f) {
             return std::make_tuple(f.value().owners.size(), f.value().ranges.size(), f.value().connections.size());
           })
      .def("check",
           [](const fleet_model& f, double capacity_warning, const config_model* cfg,
              const std::optional<std::string>& fail_on, const std::optional<std::string>& min_severity,
              const std::vector<std::string>& baseline) {
             return check_fleet(f, request_from(capacity_warning, fail_on, min_severity, baseline), cfg);
           },
           py::arg("capacity_warning") = check_options{}.capacity_warning, py::arg("config") = nullptr,
           py::arg("fail_on") = py::none(), py::arg("min_severity") = py::none(),
           py::arg("baseline") = std::vector<std::string>{},
           "The findings as `cidrcheck check` reports them, judged as analyse_run() judges them.")
      .def("used_space", [](const fleet_model& f) { return used_space(f.value()); })
      .def("default_pools", [](const fleet_model& f) { return capacity_pools(f.value(), builtin_catalog()); })
      .def("pool_usage",
           [](const fleet_model& f, const std::vector<prefix_like>& pools) {
             py::list out;
             for (auto& p : pool_usage(f.value(), to_prefixes(pools))) out.append(py::make_tuple(p.pool, p.used, p.free));
             return out;
           },
           py::arg("pools"))
      .def("pool_summaries",
           [](const fleet_model& f, const std::vector<prefix_like>& pools, const std::vector<int>& lengths) {
             py::list out;
             for (const auto& space : pool_usage(f.value(), to_prefixes(pools))) {
               auto summary = summarize_pool(space, lengths);
               py::list fits;
               for (auto n : summary.fits) fits.append(to_int(n));
               out.append(py::make_tuple(summary.pool, to_int(summary.used), to_int(summary.free),
                                         summary.largest_free ? py::cast(*summary.largest_free) : py::none(),
                                         summary.free_blocks, fits));
             }
             return out;
           },
           py::arg("pools"), py::arg("lengths"))
      .def("usage",
           [](const fleet_model& f, const std::vector<prefix_like>& pools, const std::string& by) {
             if (by != "role" && by != "owner") throw py::value_error("by must be 'role' or 'owner', not '" + by + "'");
             py::list out;
             for (const auto& u : usage(f.value(), to_prefixes(pools), by == "role" ? usage_group::role : usage_group::owner)) {
               out.append(py::make_tuple(u.pool, to_str(u.group), to_int(u.addresses)));
             }
             return out;
           },
           py::arg("pools"), py::arg("by"))
      .def("node_capacity", [](const fleet_model& f) {
        py::list out;
        // The clusters `cidrcheck capacity` lists: those with a pod range.
        for (const auto& c : node_capacities(f.value(), builtin_catalog())) {
          const auto& o = f.value().owners[c.owner];
          py::list pods;
          for (auto r : o.ranges) {
            // The pod ranges counted: those of the family counted, as `cidrcheck capacity` lists them.
            const auto& range = f.value().ranges[r];
            if (range.role == range_role::pods && range.cidr.version() == c.version) pods.append(range.cidr.to_string());
          }
          py::dict d;
          d["cluster"] = to_str(o.name);
          d["pods"] = pods;
          d["node_mask"] = c.version == ip_version::none ? py::object(py::none()) : py::int_(c.node_mask);
          d["capacity"] = c.node_blocks;
          d["nodes"] = c.nodes ? py::object(py::int_(*c.nodes)) : py::none();
          d["version"] = c.version == ip_version::none ? py::object(py::none()) : py::int_(version_number(c.version));
          out.append(d);
        }
        return out;
      });

  m.def("load_fleet", &load, py::arg("sources"), py::arg("texts"), py::arg("limits"),
        "Reads fleet files, KIND:FILE imports and texts ((text, name) pairs) as one fleet; never raises for bad input.");

  py::class_<config_model>(m, "ConfigModel", "A .cidrcheck.yaml as read; use cidrcheck.Config.")
      .def_property_readonly("ok", [](const config_model& c) { return !has_errors(c.diagnostics); })
      .def_property_readonly("file", [](const config_model& c) { return to_str(c.value.file); })
      .def_property_readonly("inputs",
                             [](const config_model& c) {
                               py::list out;
                               for (const auto& input : c.value.inputs) out.append(to_str(input));
                               return out;
                             })
      .def("diagnostics", [](const config_model& c) {
        py::list out;
        for (const auto& d : c.diagnostics) out.append(diagnostic_dict(d));
        return out;
      });
  m.def(
      "load_config",
      [](const std::string& path) {
        auto loaded = load_config(path);
        return config_model{std::move(loaded.value), std::move(loaded.diagnostics)};
      },
      py::arg("path"), "Reads a .cidrcheck.yaml; never raises for bad input.");
  m.def(
      "find_config",
      [](const std::string& start) {
        auto found = locate_run_config(choice_from(std::nullopt, false, start));
        py::list problems;
        if (found.problem) problems.append(diagnostic_dict(*found.problem));
        return py::make_tuple(found.path ? py::object(to_str(*found.path)) : py::none(), problems);
      },
      py::arg("start"),
      "Returns (the configuration file a run in directory start reads, as `cidrcheck check` finds it: "
      "CIDRCHECK_CONFIG, else the .cidrcheck.yaml upward, else None; the diagnostics of a CIDRCHECK_CONFIG that "
      "names no file).");
  m.def(
      "run_check",
      [](const std::vector<std::string>& sources, const std::optional<std::string>& config_file, bool no_config,
         const input_limits& limits, double capacity_warning, const std::optional<std::string>& fail_on,
         const std::optional<std::string>& min_severity, const std::vector<std::string>& baseline) {
        return run_check(sources, choice_from(config_file, no_config, "."),
                         request_from(capacity_warning, fail_on, min_severity, baseline), limits);
      },
      py::arg("sources"), py::arg("config_file"), py::arg("no_config"), py::arg("limits"), py::arg("capacity_warning"),
      py::arg("fail_on"), py::arg("min_severity"), py::arg("baseline"),
      "Runs `cidrcheck check` (analyse_run()): (status, diagnostics, configuration file, fleet, report).");
}

}  // namespace

// The request of a check or plan from Python's arguments: the policy and how findings are found.
auto request_from(double capacity_warning, const std::optional<std::string>& fail_on,
                  const std::optional<std::string>& min_severity, const std::vector<std::string>& baseline)
    -> run_request {
  run_request r;
  r.checking.capacity_warning = capacity_warning;
  if (fail_on) {
    auto t = fail_threshold::parse(*fail_on);
    if (!t) throw py::value_error("fail_on must be 'error', 'warning', 'note' or 'never', not '" + *fail_on + "'");
    r.fail_on = *t;
  }
  if (min_severity) {
    auto s = parse_severity(*min_severity);
    if (!s) throw py::value_error("min_severity must be 'error', 'warning' or 'note', not '" + *min_severity + "'");
    r.min_severity = *s;
  }
  r.baseline.assign(baseline.begin(), baseline.end());
  return r;
}

// A configuration choice as Python gives it: a file, none (False), or as the CLI finds one (None).
auto choice_from(const std::optional<std::string>& file, bool none, const std::string& start) -> config_choice {
  config_choice c;
  c.file = file;
  c.none = none;
  c.start = start;
  return c;
}

namespace {

// Adds to a diagnostic's record what Python adds: `meaning` (the registry's) and `notes` (always a list).
void add_meaning(py::dict d) {
  const auto* code = find_diagnostic_code(d["code"].cast<std::string>());
  d["meaning"] = code ? py::object(to_str(code->meaning)) : py::none();
  if (!d.contains("notes")) d["notes"] = py::list();
  for (auto n : d["notes"]) add_meaning(n.cast<py::dict>());
}

}  // namespace

auto diagnostic_dict(const diagnostic& d) -> py::dict {
  auto out = python_record([&](record_sink& s) { write_diagnostic_record(s, d); }).cast<py::dict>();
  add_meaning(out);
  return out;
}

auto config_of(const config_model* cfg) -> config { return cfg ? cfg->value : config{}; }

auto status_name(run_status s) -> std::string {
  switch (s) {
    case run_status::done: return "done";
    case run_status::no_inputs: return "no-inputs";
    case run_status::configuration_error: return "configuration-error";
    case run_status::load_error: return "load-error";
    case run_status::absent: return "absent";
  }
  return "done";
}

auto report_dict(const fleet& f, const analysis& found, const selection& shown, const report_policy& policy,
                 const judgement& judged) -> py::dict {
  const auto& suppressions = judged.suppressions;
  py::list findings, suppressed, connections;
  std::vector<std::uint32_t> used;
  const auto view = shown_findings(f, judged.cat, found, shown);
  for (std::size_t k = 0; k < view.size(); ++k) {
    const auto& x = view[k];
    findings.append(python_record([&](record_sink& s) { write_finding_record(s, f, x, view.fingerprint(k)); }));
    used.insert(used.end(), x.via.begin(), x.via.end());
  }
  for (const auto& x : found.triaged.suppressed) {
    suppressed.append(python_record(
        [&](record_sink& s) { write_suppressed_record(s, f, x, suppressions, fingerprint(f, x.value)); }));
    used.insert(used.end(), x.value.via.begin(), x.value.via.end());
  }
  // The connections the findings go through, each once, as the JSON report lists them.
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  for (auto c : used) connections.append(python_record([&](record_sink& s) { write_connection_record(s, f, c); }));
  py::dict out;
  out["findings"] = findings;
  out["suppressed"] = suppressed;
  out["connections"] = connections;
  out["fail_on"] = policy.fail_on.level ? py::object(py::str(std::string(to_string(*policy.fail_on.level))))
                                        : py::object(py::str("never"));
  out["min_severity"] = std::string(to_string(policy.min_severity));
  out["fails"] = shown.fails;
  out["baselined"] = shown.baselined;
  out["below_minimum"] = shown.below_minimum;
  return out;
}

void register_fleet(py::module_& m) {
  register_model(m);
  m.def(
      "node_capacity", [](prefix_like pods, int node_mask) { return node_blocks(pods.value, node_mask); },
      py::arg("pods"), py::arg("node_mask"),
      R"(Returns how many nodes a pod range can number with a node CIDR mask: one
block of /node_mask per node, 2**(node_mask - prefixlen); 0 when the mask is
shorter than the range, longer than an address, or (IPv6) more than 16 bits
longer than the range, which kube-controller-manager refuses.)");
  m.def("rules", [] {
    py::list out;
    for (const auto& r : rule_table()) {
      py::dict d;
      d["rule_id"] = std::string(r.id);
      d["rule"] = std::string(r.name);
      d["severity"] = std::string(to_string(r.default_severity));
      d["summary"] = std::string(r.summary);
      out.append(d);
    }
    return out;
  }, "Returns every rule of the check: rule_id, rule, severity and summary.");
  m.def("diagnostic_codes", [] {
    py::dict out;
    for (const auto& c : diagnostic_codes) out[py::str(std::string(c.code))] = std::string(c.meaning);
    return out;
  }, R"(Returns every diagnostic code a reader, an importer or the planner reports, with
what it means: {code: meaning}, sorted by code (docs/cli.md, "Diagnostic codes").)");
}

}  // namespace cidrcheck::python
