// parity_dump [--config FILE | --no-config] SOURCE...: what the C++ API finds
// and plans for a fleet, as JSON, for tests/analysis/parity_test.py, which
// compares it with the CLI's JSON report and the Python package. Uses only
// the public analysis API (cidrcheck/analysis.hpp, cidrcheck/plan_request.hpp).

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/plan_request.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using nlohmann::json;
  cidrcheck::run_request request;
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--no-config") {
      request.configuration.none = true;
    } else if (arg == "--config" && k + 1 < argc) {
      request.configuration.file = argv[++k];
    } else {
      request.inputs.push_back(arg);
    }
  }
  const auto run = cidrcheck::analyse_run(request);
  json out;
  out["ok"] = run.ok();
  json diagnostics = json::array();
  for (const auto& d : run.diagnostics) diagnostics.push_back(cidrcheck::format_diagnostic(d));
  out["diagnostics"] = diagnostics;
  if (!run.ok()) {
    std::cout << out.dump() << "\n";
    return 2;
  }
  const auto& f = run.loaded.value;
  auto finding = [&](const cidrcheck::finding& x, const std::string& fp) {
    return json{{"rule", std::string(cidrcheck::info(x.id).name)},
                {"severity", std::string(cidrcheck::to_string(x.level))},
                {"message", x.message},
                {"fingerprint", fp}};
  };
  json findings = json::array(), suppressed = json::array();
  for (std::size_t k = 0; k < run.found.triaged.findings.size(); ++k) {
    findings.push_back(finding(run.found.triaged.findings[k], run.found.fingerprints[k]));
  }
  for (const auto& x : run.found.triaged.suppressed) {
    suppressed.push_back(finding(x.value, cidrcheck::fingerprint(f, x.value)));
  }
  out["findings"] = findings;
  out["suppressed"] = suppressed;

  const auto options = cidrcheck::plan_options_for(f, cidrcheck::plan_request{}, run.judged);
  const auto plan = cidrcheck::plan(f, run.judged.cat, options);
  json changes = json::array();
  for (const auto& c : plan.changes) {
    changes.push_back({{"owner", f.owners[c.owner].name},
                       {"from", c.from.is_valid() ? json(c.from.to_string()) : json(nullptr)},
                       {"to", c.to.to_string()},
                       {"cost", c.cost},
                       {"origin", c.range ? json(std::string(cidrcheck::to_string(f.ranges[*c.range].origin)))
                                          : json(nullptr)}});
  }
  out["plan"] = {{"complete", plan.complete()}, {"total_cost", plan.total_cost}, {"changes", changes}};
  std::cout << out.dump() << "\n";
  return 0;
}
