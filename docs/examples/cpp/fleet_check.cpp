// fleet-check [FLEET...]: the findings `cidrcheck check` reports, in one call:
// the configuration (CIDRCHECK_CONFIG, else the .cidrcheck.yaml found from
// here), its inputs when no FLEET is named, rule settings, suppressions,
// fingerprints, min-severity and fail-on.
#include <cidrcheck/run.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  cidrcheck::run_request request;
  request.inputs.assign(argv + 1, argv + argc);
  const auto run = cidrcheck::run_check(request);
  for (const auto& d : run.diagnostics()) std::fputs(cidrcheck::format_diagnostic(d).c_str(), stderr);
  if (run.status() == cidrcheck::run_status::no_inputs) {
    std::fputs("fleet-check: no fleet: name one, or list it under 'inputs' in .cidrcheck.yaml\n", stderr);
    return 2;
  }
  if (!run.ok()) return 2;  // the configuration or the fleet has errors
  for (const auto& x : run.findings()) {
    std::printf("%s[%s] %.12s %s\n", std::string(cidrcheck::to_string(x.level)).c_str(), x.rule.c_str(),
                x.fingerprint.c_str(), x.message.c_str());
  }
  std::printf("%zu suppressed\n", run.suppressed());
  return run.fails() ? 1 : 0;
}
