#pragma once
// Helpers of the importer tests (tests/io/import_*_test.cpp): loading fixtures
// under tests/fixtures/import/ (see the README there) or small documents, and
// reading the loaded fleet back.

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck::test {

inline const std::string fixtures = CIDRCHECK_FIXTURES "/import/";

/// One import: its kind, its path under tests/fixtures/import/, the cluster's name (or "").
struct source {
  import_kind kind;
  std::string path;
  std::string cluster = {};
};

// Loads fixture files as one fleet, after a fleet file's text if given.
inline auto load(std::initializer_list<source> files, std::string_view fleet_text = {}) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  if (!fleet_text.empty()) loader.add_text(fleet_text, "fleet.yaml");
  for (const auto& s : files) loader.add_import(s.kind, fixtures + s.path, s.cluster);
  return loader.finish();
}

inline auto load_text(import_kind kind, std::string_view text, std::string name = "x.json") -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  loader.add_import_text(kind, text, std::move(name));
  return loader.finish();
}

// The CIDRs an owner declares in a role, in order; "<no owner>" if there is none.
inline auto cidrs(const fleet_load_result& r, std::string_view owner_name, range_role role)
    -> std::vector<std::string> {
  auto k = r.value.find_owner(owner_name);
  if (!k) return {"<no owner>"};
  std::vector<std::string> out;
  for (auto i : r.value.owners[*k].ranges) {
    const auto& x = r.value.ranges[i];
    if (x.role == role && x.origin == range_origin::declared) out.push_back(x.cidr.to_string());
  }
  return out;
}

inline auto owner_of(const fleet_load_result& r, std::string_view name) -> const owner& {
  static const owner none;
  auto k = r.value.find_owner(name);
  return k ? r.value.owners[*k] : none;
}

inline auto range_at(const fleet_load_result& r, std::string_view owner_name, std::string_view cidr)
    -> const fleet_range* {
  for (const auto& x : r.value.ranges) {
    if (r.value.owners[x.owner].name == owner_name && x.cidr.to_string() == cidr) return &x;
  }
  return nullptr;
}

inline auto codes(const fleet_load_result& r) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) out.push_back(d.code);
  return out;
}

inline auto printed(const fleet_load_result& r) -> std::string {
  std::string out;
  for (const auto& d : r.diagnostics) out += format_diagnostic(d);
  return out;
}

inline auto names(const fleet_load_result& r) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& o : r.value.owners) out.push_back(o.name);
  return out;
}

using v = std::vector<std::string>;

// Whether a diagnostic of that level says `part` (issue 16, item 9: what the importers read, name and drop).
inline auto has_diagnostic(const fleet_load_result& r, severity level, std::string_view part) -> bool {
  return std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [&](const diagnostic& d) {
    return d.level == level && d.message.find(part) != std::string::npos;
  });
}

// The diagnostics with this code.
inline auto with_code(const fleet_load_result& r, std::string_view code) -> std::vector<diagnostic> {
  std::vector<diagnostic> out;
  std::copy_if(r.diagnostics.begin(), r.diagnostics.end(), std::back_inserter(out),
               [&](const diagnostic& d) { return d.code == code; });
  return out;
}

using strings = std::vector<std::string>;

}  // namespace cidrcheck::test
