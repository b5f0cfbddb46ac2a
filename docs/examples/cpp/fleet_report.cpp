// fleet-report [FLEET...]: what a migration tool does with cidrcheck: run the
// check and the plan exactly as `cidrcheck check` and `cidrcheck plan` run them
// (the configuration they find, its inputs when no FLEET is named, its
// reserved ranges and suppressions), then use the results as data.
#include <cidrcheck/analysis.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  cidrcheck::run_request request;
  request.inputs.assign(argv + 1, argv + argc);

  // Loading never throws for bad input: every problem is a diagnostic with its file:line:col.
  const auto run = cidrcheck::analyse_run(request);
  for (const auto& d : run.diagnostics) std::fputs(cidrcheck::format_diagnostic(d).c_str(), stderr);
  if (run.status == cidrcheck::run_status::no_inputs) {
    std::fputs("fleet-report: no fleet: name one, or list it under 'inputs' in .cidrcheck.yaml\n", stderr);
    return 2;
  }
  if (!run.ok()) return 2;  // the configuration or the fleet has errors
  const cidrcheck::fleet& fleet = run.loaded.value;

  // Findings are data: a rule, a severity, the ranges (indexes into fleet.ranges), a message.
  for (const auto& x : run.shown.findings) {
    if (x.level != cidrcheck::severity::error) continue;
    std::string what = std::string(cidrcheck::info(x.id).name) + ":";
    for (auto k : x.ranges) what += " " + fleet.owners[fleet.ranges[k].owner].name + "/" + fleet.role_name(fleet.ranges[k]);
    if (x.overlap) what += " in " + (x.overlap->to_prefix() ? x.overlap->to_prefix()->to_string() : x.overlap->to_string());
    std::printf("%s\n", what.c_str());
  }
  std::printf("%zu suppressed\n", run.found.triaged.suppressed.size());

  // The plan of the same fleet, judged the same way: the cheapest set of moves,
  // each carried out by the steps of its operation.
  cidrcheck::plan_run_request planning;
  planning.run = request;
  const auto planned = cidrcheck::plan_fleet(run.cfg, run.loaded, run.source, planning);
  const auto& plan = planned.result;
  for (const auto& change : plan.changes) {
    std::printf("move %s %s: %s -> %s (%s addresses), %zu steps\n", fleet.owners[change.owner].name.c_str(),
                std::string(cidrcheck::to_string(change.role)).c_str(), change.from.to_string().c_str(),
                change.to.to_string().c_str(), cidrcheck::to_decimal(change.to.size()).c_str(),
                cidrcheck::steps_of(plan, change).size());
  }
  return plan.complete() ? 0 : 1;
}
