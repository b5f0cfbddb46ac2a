// The run API behind the compile firewall reads what analyse_run() and
// plan_fleet() make, and nothing else: each view is compared with the full result.
#include <cidrcheck/run.hpp>

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/records.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck {
namespace {

const std::string root = CIDRCHECK_ROOT;
const std::string settings = root + "/tests/fixtures/config/settings.yaml";
const std::string mesh = root + "/data/examples/mesh-shared-services.yaml";

auto request_for(std::vector<std::string> inputs) -> run_request {
  run_request r;
  r.inputs = std::move(inputs);
  r.configuration.file = settings;  // a suppression and rule settings: the judgement must apply
  r.today = calendar_date{2025, 6, 1};
  return r;
}

TEST(RunCheck, ViewsAreTheFindingsAnalyseRunShows) {
  const auto request = request_for({mesh});
  const auto full = analyse_run(request);
  const auto run = run_check(request);
  ASSERT_TRUE(run.ok());
  EXPECT_FALSE(run.failed());
  EXPECT_EQ(run.status(), full.status);
  EXPECT_EQ(run.fails(), full.shown.fails);
  EXPECT_EQ(run.suppressed(), full.found.triaged.suppressed.size());
  EXPECT_GT(run.suppressed(), 0u) << "the configuration's suppression did not apply";
  const auto& f = full.loaded.value;
  const auto shown = full.shown_findings();
  ASSERT_EQ(run.findings().size(), shown.size());
  bool overlaps = false;
  for (std::size_t k = 0; k < run.findings().size(); ++k) {
    const auto& view = run.findings()[k];
    const auto& x = shown[k];
    EXPECT_EQ(view.level, x.level);
    EXPECT_EQ(view.rule, info(x.id).name);
    EXPECT_EQ(view.fingerprint, shown.fingerprint(k));
    EXPECT_EQ(view.message, x.message);
    ASSERT_EQ(view.ranges.size(), x.ranges.size());
    for (std::size_t j = 0; j < x.ranges.size(); ++j) {
      const auto& r = f.ranges[x.ranges[j]];
      EXPECT_EQ(view.ranges[j].owner, f.owners[r.owner].name);
      EXPECT_EQ(view.ranges[j].role, f.role_name(r));
    }
    EXPECT_EQ(view.overlap.empty(), !x.overlap);
    if (x.overlap && x.overlap->to_prefix()) {
      EXPECT_EQ(view.overlap, x.overlap->to_prefix()->to_string());
      overlaps = true;
    }
  }
  EXPECT_TRUE(overlaps) << "the fleet lacks an overlap";
  EXPECT_EQ(run.result().shown.indexes, full.shown.indexes);
  EXPECT_EQ(run.request().configuration.file, settings);
}

TEST(RunCheck, TellsNothingToReadFromABrokenFleet) {
  run_request nothing;
  nothing.configuration.none = true;
  const auto none = run_check(nothing);
  EXPECT_EQ(none.status(), run_status::no_inputs);
  EXPECT_FALSE(none.ok());
  EXPECT_FALSE(none.failed());
  EXPECT_TRUE(none.diagnostics().empty());
  EXPECT_THROW((void)plan_of(none), std::invalid_argument);

  const auto broken = run_check(request_for({root + "/tests/fixtures/fleets/bad-yaml.yaml"}));
  EXPECT_EQ(broken.status(), run_status::load_error);
  EXPECT_TRUE(broken.failed());
  ASSERT_FALSE(broken.diagnostics().empty());
  EXPECT_EQ(broken.diagnostics()[0].level, severity::error);
  EXPECT_TRUE(broken.findings().empty());
  EXPECT_THROW((void)plan_of(broken), std::invalid_argument);
}

TEST(RunCheck, CopiesShareTheResultAndOutliveTheOriginal) {
  auto original = std::make_unique<checked_run>(run_check(request_for({mesh})));
  const auto* findings = original->findings().data();
  checked_run copy = *original;
  run_request nothing;
  nothing.configuration.none = true;
  checked_run assigned = run_check(nothing);
  assigned = copy;
  original.reset();  // the copies keep the result alive (ASan would see a use after free)
  EXPECT_EQ(copy.findings().data(), findings);
  EXPECT_EQ(assigned.findings().data(), findings);
  checked_run moved = std::move(copy);
  EXPECT_EQ(moved.findings().data(), findings);
}

TEST(PlanOf, ViewsAreThePlanOfTheCheckedFleetJudgedTheSameWay) {
  const auto request = request_for({mesh});
  const auto run = run_check(request);
  const auto plan = plan_of(run);
  plan_run_request same;
  same.run = request;
  const auto full = plan_fleet(run.result().cfg, run.result().loaded, run.result().source, same);
  const auto& p = full.result;
  const auto& f = run.result().loaded.value;
  EXPECT_EQ(plan.complete(), p.complete());
  EXPECT_EQ(plan.total_cost(), p.total_cost);
  EXPECT_EQ(plan.problems().size(), p.problems.size());
  EXPECT_EQ(plan.diagnostics().size(), p.diagnostics.size());
  ASSERT_EQ(plan.changes().size(), p.changes.size());
  ASSERT_FALSE(p.changes.empty()) << "the fleet needs no plan";
  for (std::size_t k = 0; k < p.changes.size(); ++k) {
    const auto& view = plan.changes()[k];
    const auto& c = p.changes[k];
    EXPECT_EQ(view.range.owner, f.owners[c.owner].name);
    EXPECT_EQ(view.range.role, change_role(f, c));
    EXPECT_EQ(view.from, c.range ? c.from.to_string() : "");
    EXPECT_EQ(view.to, c.to.to_string());
    EXPECT_EQ(view.addresses, to_decimal(c.to.size()));
    EXPECT_EQ(view.steps, steps_of(p, c).size());
    EXPECT_GT(view.steps, 0u);
  }
  ASSERT_EQ(plan.operations().size(), p.operations.size());
  for (std::size_t k = 0; k < p.operations.size(); ++k) {
    const auto& view = plan.operations()[k];
    const auto& op = p.operations[k];
    EXPECT_EQ(view.kind, op.kind);
    EXPECT_EQ(view.cost, op.cost);
    EXPECT_EQ(view.steps, op.steps.size());
    ASSERT_EQ(view.owners.size(), op.owners.size());
    for (std::size_t j = 0; j < op.owners.size(); ++j) EXPECT_EQ(view.owners[j], f.owners[op.owners[j]].name);
    EXPECT_EQ(view.changes, std::vector<std::size_t>(op.changes.begin(), op.changes.end()));
  }
  EXPECT_EQ(plan.result().result.changes.size(), p.changes.size());
}

}  // namespace
}  // namespace cidrcheck
