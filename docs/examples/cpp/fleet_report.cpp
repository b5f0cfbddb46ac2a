// fleet-report [FLEET...]: what a migration tool does with cidrcheck: run the
// check and the plan exactly as `cidrcheck check` and `cidrcheck plan` run them
// (the configuration they find, its inputs when no FLEET is named, its
// reserved ranges and suppressions), then use the results as data.
#include <cidrcheck/run.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  cidrcheck::run_request request;
  request.inputs.assign(argv + 1, argv + argc);

  // Loading never throws for bad input: every problem is a diagnostic with its file:line:col.
  const auto run = cidrcheck::run_check(request);
  for (const auto& d : run.diagnostics()) std::fputs(cidrcheck::format_diagnostic(d).c_str(), stderr);
  if (run.status() == cidrcheck::run_status::no_inputs) {
    std::fputs("fleet-report: no fleet: name one, or list it under 'inputs' in .cidrcheck.yaml\n", stderr);
    return 2;
  }
  if (!run.ok()) return 2;  // the configuration or the fleet has errors

  // Findings are data: a rule, a severity, the ranges by owner and role, the addresses they share.
  for (const auto& x : run.findings()) {
    if (x.level != cidrcheck::severity::error) continue;
    std::string what = x.rule + ":";
    for (const auto& r : x.ranges) what += " " + r.owner + "/" + r.role;
    if (!x.overlap.empty()) what += " in " + x.overlap;
    std::printf("%s\n", what.c_str());
  }
  std::printf("%zu suppressed\n", run.suppressed());

  // The plan of the same fleet, judged the same way: the cheapest set of moves,
  // each carried out by the steps of its operation.
  const auto plan = cidrcheck::plan_of(run);
  for (const auto& change : plan.changes()) {
    std::printf("move %s %s: %s -> %s (%s addresses), %zu steps\n", change.range.owner.c_str(),
                change.range.role.c_str(), change.from.empty() ? "(new)" : change.from.c_str(), change.to.c_str(),
                change.addresses.c_str(), change.steps);
  }
  return plan.complete() ? 0 : 1;
}
