#include <cidrcheck/records.hpp>

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

const std::string root = CIDRCHECK_ROOT;

// Writes a record as compact text, keys in order: enough to compare shapes and values.
class text_sink final : public record_sink {
 public:
  void begin_object() override { open('{'); }
  void end_object() override { close('}'); }
  void begin_array() override { open('['); }
  void end_array() override { close(']'); }
  void key(std::string_view k) override {
    separate();
    out += std::string(k) + ":";
    after_key_ = true;
  }
  void value(std::string_view v) override { scalar("\"" + std::string(v) + "\""); }
  void value(std::uint64_t v) override { scalar(std::to_string(v)); }
  void value(std::int64_t v) override { scalar(std::to_string(v)); }
  void value(bool v) override { scalar(v ? "true" : "false"); }
  void null() override { scalar("null"); }
  using record_sink::value;
  std::string out;

 private:
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty() && !first_.back()) out += ',';
    if (!first_.empty()) first_.back() = false;
  }
  void scalar(const std::string& text) {
    separate();
    out += text;
  }
  void open(char c) {
    separate();
    out += c;
    first_.push_back(true);
  }
  void close(char c) {
    first_.pop_back();
    out += c;
  }
  std::vector<bool> first_;
  bool after_key_ = false;
};

// The keys of a record's top-level object, in order.
auto keys_of(const std::string& text) -> std::vector<std::string> {
  std::vector<std::string> out;
  int depth = 0;
  bool in_string = false;
  std::string word;
  for (std::size_t k = 0; k < text.size(); ++k) {
    char c = text[k];
    if (in_string) {
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (depth == 1 && (c == ',' || c == '{')) word.clear();
    if (depth == 1 && c != ',' && c != '{' && c != ':') word += c;
    if (depth == 1 && c == ':') out.push_back(word);
  }
  return out;
}

template <class Write>
auto text_of(Write write) -> std::string {
  text_sink s;
  write(s);
  return s.out;
}

auto run_of(const std::string& file) -> run_result {
  run_request r;
  r.inputs = {root + file};
  r.configuration.none = true;
  return analyse_run(r);
}

TEST(Records, EveryFindingHasTheSameKeysWithNullsForWhatDoesNotApply) {
  auto run = run_of("/data/examples/mesh-shared-services.yaml");
  ASSERT_TRUE(run.ok());
  const auto& f = run.loaded.value;
  std::vector<std::string> expected{"rule",   "rule_id", "severity",   "message",   "fingerprint", "overlap",
                                    "ranges", "file",    "line",       "column",    "end_column",  "routed_at",
                                    "via",    "block",   "hint"};
  bool overlap = false, note = false;
  for (std::size_t k = 0; k < run.found.triaged.findings.size(); ++k) {
    const auto& x = run.found.triaged.findings[k];
    auto text = text_of([&](record_sink& s) { write_finding_record(s, f, x, run.found.fingerprints[k]); });
    EXPECT_EQ(keys_of(text), expected) << text;
    if (x.id == rule::overlap) {
      overlap = true;
      EXPECT_NE(text.find("via:[0]"), std::string::npos) << text;
      EXPECT_NE(text.find("block:null"), std::string::npos) << text;
    } else {
      note = true;
      EXPECT_NE(text.find("routed_at:null"), std::string::npos) << text;
    }
  }
  EXPECT_TRUE(overlap && note);
  // A finding of another fleet (a diff's removed one): via is null, not indexes into this fleet's connections.
  auto removed = text_of([&](record_sink& s) {
    write_finding_record(s, f, run.found.triaged.findings.front(), run.found.fingerprints.front(), false);
  });
  EXPECT_NE(removed.find("via:null"), std::string::npos) << removed;
}

TEST(Records, ASuppressedFindingIsTheFindingWithItsSuppression) {
  auto run = run_of("/tests/fixtures/fleets/suppressions.yaml");
  ASSERT_TRUE(run.ok());
  ASSERT_FALSE(run.found.triaged.suppressed.empty());
  const auto& x = run.found.triaged.suppressed.front();
  const auto& f = run.loaded.value;
  auto text = text_of([&](record_sink& s) {
    write_suppressed_record(s, f, x, run.judged.suppressions, fingerprint(f, x.value));
  });
  auto keys = keys_of(text);
  ASSERT_EQ(keys.size(), 16u) << text;
  EXPECT_EQ(keys.back(), "suppression");
  const auto& s = run.judged.suppressions[x.suppression];
  EXPECT_NE(text.find("suppression:{reason:\"" + s.reason + "\",expires:"), std::string::npos) << text;
  EXPECT_EQ(keys_of(text_of([&](record_sink& out) { write_suppression_record(out, s); })),
            (std::vector<std::string>{"reason", "expires", "file", "line", "column"}));
}

TEST(Records, APlanIsTheDocumentPlanJsonPrints) {
  plan_run_request r;
  r.run.inputs = {root + "/data/examples/platform-fleet.yaml"};
  r.run.configuration.none = true;
  auto run = plan_run(r);
  ASSERT_TRUE(run.ok());
  const auto& f = run.loaded.value;
  const auto& p = run.plan->result;
  auto text = text_of([&](record_sink& s) { write_plan_record(s, f, p, run.loaded.files); });
  EXPECT_EQ(keys_of(text), (std::vector<std::string>{"version", "schema", "tool", "summary", "operations", "changes",
                                                     "problems", "diagnostics"}));
  EXPECT_NE(text.find(std::string("schema:\"") + plan_report_schema + "\""), std::string::npos);
  ASSERT_FALSE(p.changes.empty());
  for (const auto& c : p.changes) {
    auto change = text_of([&](record_sink& s) { write_change_record(s, f, c); });
    EXPECT_EQ(keys_of(change),
              (std::vector<std::string>{"owner", "owner_kind", "role", "from", "to", "cost", "operation", "origin",
                                        "file", "line", "column", "dns_from", "dns_to", "transition_safe", "reasons",
                                        "steps", "simulation"}))
        << change;
    // The change's own steps; a change of an operation is carried out by the operation's (steps_of).
    EXPECT_EQ(&steps_of(p, c), c.operation ? &p.operations[*c.operation].steps : &c.steps);
  }
  auto op = text_of([&](record_sink& s) { write_operation_record(s, f, p.operations.front()); });
  EXPECT_EQ(keys_of(op), (std::vector<std::string>{"kind", "changes_what", "owners", "cost", "counted", "changes",
                                                   "withdrawals", "steps", "maintenance", "merged_with", "simulation"}));
}

// The plan of mesh-shared-services.yaml: two service-cidr-api runbooks, with their files.
auto mesh_plan() -> plan_run_result {
  plan_run_request r;
  r.run.inputs = {root + "/data/examples/mesh-shared-services.yaml"};
  r.run.configuration.none = true;
  r.runbooks = true;
  return plan_run(r);
}

auto runbook_mds(const std::vector<runbook_file>& files) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& file : files) {
    if (file.path.ends_with("/runbook.md")) out.push_back(file.text);
  }
  return out;
}

TEST(Records, APlanRunSimulatesEveryRunbookAndEachRecordSaysItPassed) {
  auto run = mesh_plan();
  ASSERT_TRUE(run.ok());
  const auto& f = run.loaded.value;
  const auto& p = run.plan->result;
  ASSERT_EQ(p.operations.size(), 2u);
  for (const auto& op : p.operations) {
    ASSERT_TRUE(op.simulation);
    EXPECT_TRUE(op.simulation->passed()) << summary(*op.simulation);
    // The verdict is of the runbook whose steps the reports show.
    EXPECT_EQ(op.simulation->steps, op.steps.size());
    auto record = text_of([&](record_sink& s) { write_operation_record(s, f, op); });
    EXPECT_NE(record.find("simulation:{passed:true,steps:" + std::to_string(op.steps.size()) + ",skipped:["),
              std::string::npos)
        << record;
    EXPECT_NE(record.find("failures:[]}"), std::string::npos) << record;
  }
  for (const auto& c : p.changes) EXPECT_EQ(&simulation_of(p, c), &p.operations[*c.operation].simulation);
  EXPECT_EQ(p.runbooks_failed(), 0u);
  auto plan = text_of([&](record_sink& s) { write_plan_record(s, f, p, run.loaded.files); });
  EXPECT_NE(plan.find("runbooks_failed:0,"), std::string::npos) << plan;
  auto mds = runbook_mds(run.plan->runbooks);
  ASSERT_EQ(mds.size(), 2u);
  for (const auto& md : mds) {
    // The verdict comes right under the title.
    auto title_end = md.find("\n\n");
    EXPECT_EQ(md.compare(title_end + 2, 18, "Simulation passed:"), 0) << md;
    EXPECT_EQ(md.find("DO NOT FOLLOW"), std::string::npos);
  }
}

TEST(Records, ARunbookTheSimulationRefusesIsMarkedWithEachFailingStepAndRule) {
  auto run = mesh_plan();
  ASSERT_TRUE(run.ok());
  const auto& f = run.loaded.value;
  const auto& cat = run.plan->judged.cat;
  auto p = run.plan->result;
  // A hand-made wrong runbook: the first operation's without its first step (the new route).
  auto broken = plan_runbooks(f, p, cat).front();
  broken.steps.erase(broken.steps.begin());
  auto after = apply_plan(f, p);
  simulation_context context{&f, &after, &cat, run.plan->options.check, run.plan->options.triage};
  p.operations.front().simulation = simulate_runbook(context, broken);
  const auto& verdict = *p.operations.front().simulation;
  ASSERT_FALSE(verdict.passed());
  EXPECT_EQ(p.runbooks_failed(), 1u);

  auto record = text_of([&](record_sink& s) { write_simulation_record(s, verdict); });
  EXPECT_EQ(record.rfind("{passed:false,steps:" + std::to_string(verdict.steps) + ",", 0), 0u) << record;
  for (const auto& x : verdict.failures) {
    std::string step = x.step < verdict.steps ? std::to_string(x.step + 1) : "null";
    std::string rule = x.rule ? "rule:\"" + std::string(info(*x.rule).name) + "\",fact:\"" +
                                    std::string(info(*x.rule).fact) + "\""
                              : "rule:null,fact:null";
    EXPECT_NE(record.find("{step:" + step + ",check:\"" + std::string(to_string(x.check)) + "\"," + rule +
                          ",message:\"" + x.message + "\"}"),
              std::string::npos)
        << record;
  }
  auto plan = text_of([&](record_sink& s) { write_plan_record(s, f, p, run.loaded.files); });
  EXPECT_NE(plan.find("runbooks_failed:1,"), std::string::npos);

  auto mds = runbook_mds(runbook_files(f, p, cat));
  ASSERT_EQ(mds.size(), 2u);
  const auto& md = mds.front();
  auto title_end = md.find("\n\n");
  EXPECT_EQ(md.compare(title_end + 2, 27, "## DO NOT FOLLOW AS WRITTEN"), 0) << md;
  for (const auto& x : verdict.failures) {
    auto where = x.step < verdict.steps ? "- Step " + std::to_string(x.step + 1) : std::string("- After the last step");
    EXPECT_NE(md.find(where + ", check `" + std::string(to_string(x.check)) + "`"), std::string::npos) << md;
    if (x.rule) {
      EXPECT_NE(md.find("rule `" + std::string(info(*x.rule).name) + "`"), std::string::npos) << md;
    }
  }
  EXPECT_EQ(mds.back().find("DO NOT FOLLOW"), std::string::npos);  // the other runbook passed

  // Files of a plan that no plan run simulated say so rather than nothing.
  p.operations.front().simulation.reset();
  EXPECT_NE(runbook_mds(runbook_files(f, p, cat)).front().find("Simulation: not run"), std::string::npos);
}

TEST(Records, AProblemListsItsRangesAndRequestsAlways) {
  // A pool with no room: a problem without a rule; its lists are there, empty or not.
  plan_result p;
  p.problems.push_back({std::nullopt, "no room", {}, {}});
  const fleet empty;
  auto text = text_of([&](record_sink& s) { write_problem_record(s, empty, p.problems.front()); });
  EXPECT_EQ(text, "{rule:null,message:\"no room\",ranges:[],requests:[]}");
}

TEST(Records, ADiagnosticsNotesAreDiagnostics) {
  diagnostic d{severity::error, "duplicate-key", "duplicate key 'a'", {"f.yaml", 3, 1},
               {{severity::note, "", "'a' first appears here", {"f.yaml", 1, 1}, {}}}};
  EXPECT_EQ(text_of([&](record_sink& s) { write_diagnostic_record(s, d); }),
            "{severity:\"error\",code:\"duplicate-key\",message:\"duplicate key 'a'\",file:\"f.yaml\",line:3,column:1,"
            "notes:[{severity:\"note\",code:\"\",message:\"'a' first appears here\",file:\"f.yaml\",line:1,column:1}]}");
}

}  // namespace
}  // namespace cidrcheck
