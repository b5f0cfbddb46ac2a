// fleet-check [FLEET...]: the findings `cidrcheck check` reports, in one call:
// the configuration (CIDRCHECK_CONFIG, else the .cidrcheck.yaml found from
// here), its inputs when no FLEET is named, rule settings, suppressions,
// fingerprints, min-severity and fail-on.
#include <cidrcheck/analysis.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  cidrcheck::run_request request;
  request.inputs.assign(argv + 1, argv + argc);
  const auto run = cidrcheck::analyse_run(request);
  for (const auto& d : run.diagnostics) std::fputs(cidrcheck::format_diagnostic(d).c_str(), stderr);
  if (run.status == cidrcheck::run_status::no_inputs) {
    std::fputs("fleet-check: no fleet: name one, or list it under 'inputs' in .cidrcheck.yaml\n", stderr);
    return 2;
  }
  if (!run.ok()) return 2;  // the configuration or the fleet has errors
  for (std::size_t k = 0; k < run.shown.findings.size(); ++k) {
    const auto& x = run.shown.findings[k];
    std::printf("%s[%s] %.12s %s\n", std::string(cidrcheck::to_string(x.level)).c_str(),
                std::string(cidrcheck::info(x.id).name).c_str(), run.shown.fingerprints[k].c_str(), x.message.c_str());
  }
  std::printf("%zu suppressed\n", run.found.triaged.suppressed.size());
  return run.shown.fails ? 1 : 0;
}
