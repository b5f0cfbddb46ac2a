// The fleet model for cidrcheck.Fleet: loading, the check, and the capacity
// questions. Results come back as plain data (dicts, lists, ints, strings).

#include "convert.hpp"
#include "fleet_model.hpp"
#include "interruptible.hpp"
#include "register.hpp"

#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>
#include <cidrcheck/io/read_file.hpp>

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

// translated: the global ranges of connection k, {owner, cidr} each (fleet_range::translation).
auto connection_record(const fleet& f, std::uint32_t k, py::list translated) -> py::dict {
  const auto& c = f.connections[k];
  py::dict out;
  out["name"] = to_str(c.name);
  out["description"] = to_str(f.describe_connection(k));
  py::list members;
  for (auto m : c.members) members.append(to_str(f.owners[m].name));
  out["members"] = members;
  out["via"] = to_str(c.via);
  py::list routes;
  for (auto role : {range_role::network, range_role::pods, range_role::services}) {
    if (c.routes.has(role)) routes.append(std::string(to_string(role)));
  }
  out["routes"] = routes;
  out["translates"] = c.translates();
  out["translated"] = std::move(translated);
  out["file"] = to_str(c.where.file);
  out["line"] = c.where.line;
  out["column"] = c.where.column;
  return out;
}

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
  for (std::uint32_t k = 0; k < f.connections.size(); ++k) out.append(connection_record(f, k, std::move(translated[k])));
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

// Reads the sources (fleet files or KIND:FILE imports) and texts as one fleet.
// A fleet of one fleet file or one text keeps that text (Plan.to_yaml()).
auto load(const std::vector<std::string>& sources, const std::vector<std::pair<std::string, std::string>>& texts,
          const input_limits& limits) -> fleet_model {
  fleet_model out;
  fleet_load_result loaded;
  {
    py::gil_scoped_release unlocked;
    fleet_loader loader(builtin_catalog(), limits);
    if (sources.size() == 1 && texts.empty() && !parse_source_spec(sources[0]).kind) {
      // Read it here to keep the text; a file that cannot be read is left to the loader to report.
      auto file = read_file(sources[0], limits.max_file_bytes, "max-file-bytes");
      if (file.error.empty()) out.source.emplace(std::move(file.text), display_name(sources[0]));
    } else if (sources.empty() && texts.size() == 1) {
      out.source.emplace(texts[0].first, texts[0].second);
    }
    if (out.source) {
      loader.add_text(out.source->first, out.source->second);
    } else {
      for (const auto& spec : sources) loader.add_source(spec);
      for (const auto& [text, name] : texts) loader.add_text(text, name);
    }
    loaded = loader.finish();
  }
  out.value = std::make_shared<const fleet>(std::move(loaded.value));
  out.files = std::move(loaded.files);
  out.diagnostics = std::move(loaded.diagnostics);
  out.suppressions = std::move(loaded.suppressions);
  return out;
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
      .def_property_readonly("ok", [](const fleet_model& f) { return !has_errors(f.diagnostics); },
                             "True when the fleet was read without errors.")
      .def_property_readonly("files",
                             [](const fleet_model& f) {
                               py::list out;
                               for (const auto& name : f.files) out.append(to_str(name));
                               return out;
                             })
      .def("diagnostics",
           [](const fleet_model& f) {
             py::list out;
             for (const auto& d : f.diagnostics) out.append(diagnostic_dict(d));
             return out;
           })
      .def("owners",
           [](const fleet_model& f) {
             py::list out;
             for (std::uint32_t k = 0; k < f.value->owners.size(); ++k) out.append(owner_record(*f.value, builtin_catalog(), k));
             return out;
           })
      .def("ranges",
           [](const fleet_model& f) {
             py::list out;
             for (std::uint32_t k = 0; k < f.value->ranges.size(); ++k) out.append(range_record(*f.value, k));
             return out;
           })
      .def("connections", [](const fleet_model& f) { return connection_records(*f.value); })
      .def("routes",
           [](const fleet_model& f) {
             py::list out;
             for (const auto& x : f.value->routes) out.append(route_record(*f.value, x));
             return out;
           })
      .def("counts",
           [](const fleet_model& f) {
             return std::make_tuple(f.value->owners.size(), f.value->ranges.size(), f.value->connections.size());
           })
      .def("check",
           [](const fleet_model& f, double capacity_warning, const config_model* cfg) {
             // Shared with the worker, which may outlive this call when Ctrl-C interrupts it.
             auto j = std::make_shared<const judgement>(judgement_of(f, cfg));
             check_options options;
             options.capacity_warning = capacity_warning;
             auto found = interruptible([model = f.value, j, options] { return analyse(*model, *j, options); });
             return analysis_dict(*f.value, found, j->suppressions);
           },
           py::arg("capacity_warning") = check_options{}.capacity_warning, py::arg("config") = nullptr,
           "The findings as `cidrcheck check` reports them: {'findings': [...], 'suppressed': [...]}.")
      .def("used_space", [](const fleet_model& f) { return used_space(*f.value); })
      .def("default_pools", [](const fleet_model& f) { return default_pools(*f.value, builtin_catalog()); })
      .def("pool_usage",
           [](const fleet_model& f, const std::vector<prefix_like>& pools) {
             py::list out;
             for (auto& p : pool_usage(*f.value, to_prefixes(pools))) out.append(py::make_tuple(p.pool, p.used, p.free));
             return out;
           },
           py::arg("pools"))
      .def("pool_summaries",
           [](const fleet_model& f, const std::vector<prefix_like>& pools, const std::vector<int>& lengths) {
             py::list out;
             for (const auto& space : pool_usage(*f.value, to_prefixes(pools))) {
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
             for (const auto& u : usage(*f.value, to_prefixes(pools), by == "role" ? usage_group::role : usage_group::owner)) {
               out.append(py::make_tuple(u.pool, to_str(u.group), to_int(u.addresses)));
             }
             return out;
           },
           py::arg("pools"), py::arg("by"))
      .def("node_capacity", [](const fleet_model& f) {
        py::list out;
        // The clusters `cidrcheck capacity` lists: those with a pod range.
        for (const auto& c : node_capacities(*f.value, builtin_catalog())) {
          const auto& o = f.value->owners[c.owner];
          py::list pods;
          for (auto r : o.ranges) {
            if (f.value->ranges[r].role == range_role::pods) pods.append(f.value->ranges[r].cidr.to_string());
          }
          py::dict d;
          d["cluster"] = to_str(o.name);
          d["pods"] = pods;
          d["version"] = c.version == ip_version::none ? py::object(py::none()) : py::int_(version_number(c.version));
          d["node_mask"] = c.version == ip_version::none ? py::object(py::none()) : py::int_(c.node_mask);
          d["node_blocks"] = c.node_blocks;
          d["nodes"] = c.nodes ? py::object(py::int_(*c.nodes)) : py::none();
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
      [](const std::string& start) -> std::optional<std::string> {
        auto found = find_config(start);
        if (!found) return std::nullopt;
        return found->string();
      },
      py::arg("start"), "Returns the .cidrcheck.yaml that applies in directory start, as `cidrcheck check` finds it.");
}

}  // namespace

auto diagnostic_dict(const diagnostic& d) -> py::dict {
  py::dict out;
  out["severity"] = std::string(to_string(d.level));
  out["code"] = d.code;
  const auto* code = find_diagnostic_code(d.code);
  out["meaning"] = code ? py::object(py::str(std::string(code->meaning))) : py::none();
  out["message"] = to_str(d.message);
  out["file"] = to_str(d.where.file);
  out["line"] = d.where.line;
  out["column"] = d.where.column;
  py::list notes;
  for (const auto& n : d.notes) notes.append(diagnostic_dict(n));
  out["notes"] = notes;
  return out;
}

auto range_record(const fleet& f, std::uint32_t k) -> py::dict {
  const auto& r = f.ranges[k];
  const auto& o = f.owners[r.owner];
  py::dict out;
  out["owner"] = to_str(o.name);
  out["owner_kind"] = to_string(o.kind);
  out["role"] = to_str(f.role_name(r));
  out["cidr"] = r.cidr.to_string();
  out["version"] = version_number(r.cidr.version());
  out["prefixlen"] = r.cidr.length();
  out["num_addresses"] = count(address_range(r.cidr));
  out["origin"] = std::string(to_string(r.origin));
  out["file"] = to_str(r.where.file);
  out["line"] = r.where.line;
  out["column"] = r.where.column;
  return out;
}

auto finding_dict(const fleet& f, const finding& x) -> py::dict {
  py::dict out;
  out["rule"] = std::string(info(x.id).name);
  out["rule_id"] = std::string(info(x.id).id);
  out["severity"] = std::string(to_string(x.level));
  out["message"] = to_str(x.message);
  out["hint"] = to_str(x.hint);
  py::list ranges;
  for (auto k : x.ranges) ranges.append(range_record(f, k));
  out["ranges"] = ranges;
  out["overlap"] = x.overlap ? py::cast(*x.overlap) : py::none();
  out["routed_at"] = x.routed_at ? py::object(to_str(f.owners[*x.routed_at].name)) : py::none();
  py::list via;
  for (auto c : x.via) via.append(to_str(f.describe_connection(c)));
  out["via"] = via;
  if (x.block) {
    py::dict block;
    block["cidr"] = x.block->cidr.to_string();
    block["name"] = to_str(x.block->name);
    block["source"] = to_str(x.block->source);
    out["block"] = block;
  } else {
    out["block"] = py::none();
  }
  // Where the finding points: its first range, or (the suppression rules) the suppression.
  const auto& where = x.ranges.empty() ? x.where : f.ranges[x.ranges.front()].where;
  out["file"] = to_str(where.file);
  out["line"] = where.line;
  out["column"] = where.column;
  return out;
}

auto judgement_of(const fleet_model& f, const config_model* cfg) -> judgement {
  return judgement_for(cfg ? cfg->value : config{}, f.suppressions);
}

auto analysis_dict(const fleet& f, const analysis& a, const std::vector<suppression>& suppressions) -> py::dict {
  const auto& t = a.triaged;
  py::list findings, suppressed;
  for (std::size_t k = 0; k < t.findings.size(); ++k) {
    auto d = finding_dict(f, t.findings[k]);
    d["fingerprint"] = a.fingerprints[k];
    findings.append(d);
  }
  for (const auto& x : t.suppressed) {
    const auto& s = suppressions[x.suppression];
    py::dict d;
    auto finding = finding_dict(f, x.value);
    finding["fingerprint"] = fingerprint(f, x.value);
    d["finding"] = finding;
    d["reason"] = to_str(s.reason);
    d["expires"] = s.expires ? py::object(py::str(to_iso_date(*s.expires))) : py::none();
    d["file"] = to_str(s.where.file);
    d["line"] = s.where.line;
    d["column"] = s.where.column;
    suppressed.append(d);
  }
  py::dict out;
  out["findings"] = findings;
  out["suppressed"] = suppressed;
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
