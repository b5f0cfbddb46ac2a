#include <cidrcheck/analysis.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/plan_request.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <unistd.h>

namespace cidrcheck {
namespace {

namespace fs = std::filesystem;

const std::string root = CIDRCHECK_ROOT;
const std::string settings = root + "/tests/fixtures/config/settings.yaml";
const std::string mesh = root + "/data/examples/mesh-shared-services.yaml";

auto count_rule(const std::vector<finding>& findings, rule id) -> std::size_t {
  std::size_t n = 0;
  for (const auto& x : findings) n += x.id == id ? 1 : 0;
  return n;
}

// A scratch directory, removed at the end.
struct scratch {
  fs::path path = fs::temp_directory_path() / ("cidrcheck-analysis-" + std::to_string(::getpid()));
  scratch() { fs::create_directories(path); }
  ~scratch() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
};

TEST(ReadRunConfig, NoneFileOrDiscovered) {
  config_choice no_file;
  no_file.none = true;
  auto none = load_run_config(no_file);
  EXPECT_TRUE(none.ok());
  EXPECT_TRUE(none.value.file.empty());

  config_choice named_file;
  named_file.file = settings;
  auto named = load_run_config(named_file);
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named.value.suppressions.size(), 1u);

  scratch dir;
  fs::create_directories(dir.path / ".git");
  fs::create_directories(dir.path / "sub");
  dir.write(".cidrcheck.yaml", "version: 1\nfail-on: never\n");
  config_choice discovered;
  discovered.start = (dir.path / "sub").string();
  auto found = load_run_config(discovered);
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found.value.fail_on);
  EXPECT_FALSE(found.value.fail_on->level);  // never

  config_choice bad_file;
  bad_file.file = root + "/tests/fixtures/config/bad.yaml";
  auto bad = load_run_config(bad_file);
  EXPECT_FALSE(bad.ok());
}

TEST(ExpandInputs, OperandsWinThenTheConfigurationsInputsDirectoriesExpandSorted) {
  config cfg;
  cfg.inputs = {mesh};
  const std::vector<std::string> operands{"a.yaml"};
  EXPECT_EQ(expand_inputs(operands, cfg), operands);
  EXPECT_EQ(expand_inputs({}, cfg), cfg.inputs);
  EXPECT_TRUE(expand_inputs({}, config{}).empty());

  scratch dir;
  dir.write("b.yml", "clusters: []\n");
  dir.write("a.yaml", "clusters: []\n");
  dir.write("notes.txt", "");
  const std::vector<std::string> directory{dir.path.string()};
  EXPECT_EQ(expand_inputs(directory, config{}),
            (std::vector<std::string>{(dir.path / "a.yaml").string(), (dir.path / "b.yml").string()}));
}

TEST(ResolvePolicy, GivenOverConfigurationOverDefaults) {
  config cfg;
  EXPECT_EQ(resolve_policy(cfg).fail_on.level, severity::error);
  EXPECT_EQ(resolve_policy(cfg).min_severity, severity::note);
  cfg.fail_on = fail_threshold{severity::warning};
  cfg.min_severity = severity::warning;
  EXPECT_EQ(resolve_policy(cfg).fail_on.level, severity::warning);
  EXPECT_EQ(resolve_policy(cfg).min_severity, severity::warning);
  auto given = resolve_policy(cfg, fail_threshold{std::nullopt}, severity::error);
  EXPECT_FALSE(given.fail_on.level);
  EXPECT_EQ(given.min_severity, severity::error);
}

TEST(AnalyseRun, TheConfigurationsInputsRulesReservedRangesAndSuppressionsApply) {
  run_request plain;
  plain.inputs = {mesh};
  plain.configuration.none = true;
  auto without = analyse_run(plain);
  ASSERT_TRUE(without.ok());
  EXPECT_TRUE(without.found.triaged.suppressed.empty());
  EXPECT_GT(count_rule(without.found.triaged.findings, rule::well_known_default), 0u);

  run_request configured;  // no inputs: the configuration's
  configured.configuration.file = settings;
  auto with = analyse_run(configured);
  ASSERT_TRUE(with.ok());
  ASSERT_EQ(with.inputs.size(), 1u);
  EXPECT_EQ(fs::canonical(with.inputs[0]), fs::canonical(mesh));
  EXPECT_EQ(with.policy.fail_on.level, severity::warning);
  EXPECT_EQ(with.found.triaged.suppressed.size(), 1u);               // the suppression
  EXPECT_EQ(count_rule(with.found.triaged.findings, rule::well_known_default), 0u);  // off
  EXPECT_EQ(with.found.fingerprints.size(), with.found.triaged.findings.size());
  EXPECT_EQ(with.shown.indexes.size(), with.found.triaged.findings.size());
  EXPECT_TRUE(with.shown.fails);
}

TEST(AnalyseRun, ABaselineOfTheSameRunLeavesNothingNew) {
  run_request r;
  r.inputs = {mesh};
  r.configuration.none = true;
  auto first = analyse_run(r);
  ASSERT_TRUE(first.ok());
  ASSERT_FALSE(first.found.fingerprints.empty());
  r.baseline = first.found.fingerprints;
  auto again = analyse_run(r);
  EXPECT_TRUE(again.shown.indexes.empty());
  EXPECT_EQ(again.shown.baselined, first.found.fingerprints.size());
  EXPECT_FALSE(again.shown.fails);
  // One fingerprint left out of the baseline: that finding alone is new.
  r.baseline.erase(r.baseline.begin());  // first.found.fingerprints.front()
  auto one = analyse_run(r);
  ASSERT_EQ(one.shown.indexes.size(), 1u);
  EXPECT_EQ(one.shown_findings().fingerprint(0), first.found.fingerprints.front());
}

TEST(AnalyseRun, HoldsOverlapsWithoutTextAndReportsReadThemWithIt) {
  run_request r;
  r.inputs = {mesh};
  r.configuration.none = true;
  const auto run = analyse_run(r);
  ASSERT_TRUE(run.ok());
  const auto described = check(run.loaded.value, run.judged.cat);  // check() describes every finding
  const auto shown = run.shown_findings();
  ASSERT_EQ(shown.size(), described.size());
  std::size_t overlaps = 0;
  for (std::size_t k = 0; k < shown.size(); ++k) {
    if (shown.stored(k).id != rule::overlap) continue;
    ++overlaps;
    EXPECT_TRUE(shown.stored(k).message.empty()) << "held with its text";
    const auto x = shown[k];
    EXPECT_EQ(x.message, described[shown.index(k)].message);
    EXPECT_EQ(x.hint, described[shown.index(k)].hint);
    EXPECT_FALSE(x.message.empty());
  }
  EXPECT_GT(overlaps, 0u) << "the fleet lacks an overlap";
  const auto all = run.all_findings();
  ASSERT_EQ(all.size(), described.size());
  for (std::size_t k = 0; k < all.size(); ++k) EXPECT_EQ(all[k].message, described[k].message);
}

TEST(Select, ShowsTheIndexesOfFindingsNeitherBaselinedNorBelowTheMinimum) {
  std::vector<finding> findings(4);
  findings[1].level = severity::note;
  findings[3].level = severity::warning;
  const std::vector<std::string> prints{"p0", "p1", "p2", "p3"};
  report_policy policy;
  policy.min_severity = severity::warning;
  policy.fail_on = fail_threshold{severity::error};
  const auto shown = select(findings, prints, policy, {"p2"});
  EXPECT_EQ(shown.indexes, (std::vector<std::uint32_t>{0, 3}));
  EXPECT_EQ(shown.baselined, 1u);
  EXPECT_EQ(shown.below_minimum, 1u);
  EXPECT_TRUE(shown.fails);  // finding 0, an error
  analysis found;
  found.triaged.findings = findings;
  found.fingerprints = prints;
  const findings_view view(found.triaged.findings, found.fingerprints, shown.indexes);
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(&view.stored(1), &found.triaged.findings[3]);
  EXPECT_EQ(view.fingerprint(1), "p3");
}

TEST(AnalyseRun, TheStatusSaysWhichStageStopped) {
  run_request bad_config;
  bad_config.inputs = {mesh};
  bad_config.configuration.file = root + "/tests/fixtures/config/bad.yaml";
  auto a = analyse_run(bad_config);
  EXPECT_EQ(a.status, run_status::configuration_error);
  EXPECT_FALSE(a.ok());
  EXPECT_TRUE(a.failed());
  EXPECT_FALSE(a.diagnostics.empty());
  EXPECT_TRUE(a.found.triaged.findings.empty());

  // No fleet is no failure: a front end asks for one.
  run_request nothing;
  nothing.configuration.none = true;
  auto b = analyse_run(nothing);
  EXPECT_EQ(b.status, run_status::no_inputs);
  EXPECT_FALSE(b.ok());
  EXPECT_FALSE(b.failed());
  EXPECT_TRUE(b.inputs.empty());

  run_request bad_fleet;
  bad_fleet.configuration.none = true;
  bad_fleet.inputs = {root + "/tests/fixtures/fleets/bad-yaml.yaml"};
  auto c = analyse_run(bad_fleet);
  EXPECT_EQ(c.status, run_status::load_error);
  EXPECT_TRUE(c.failed());
  EXPECT_TRUE(has_errors(c.diagnostics));
  EXPECT_TRUE(c.found.triaged.findings.empty());
}

// Sets an environment variable for one test.
struct scoped_environment {
  scoped_environment(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~scoped_environment() { ::unsetenv(name_); }
  const char* name_;
};

// Issue 25: with CIDRCHECK_CONFIG set, `cidrcheck check` read the configuration
// (4 findings, 1 suppressed, exit 1) and analyse_run() did not (6, 0, exit 0).
TEST(AnalyseRun, CidrcheckConfigNamesTheConfigurationAsForTheCli) {
  run_request named;
  named.inputs = {mesh};
  named.configuration.file = settings;
  const auto expected = analyse_run(named);
  ASSERT_TRUE(expected.ok());

  scoped_environment env(config_environment_variable, settings);
  run_request plain;
  plain.inputs = {mesh};
  const auto got = analyse_run(plain);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.cfg.file, settings);
  EXPECT_EQ(got.found.fingerprints, expected.found.fingerprints);
  EXPECT_EQ(got.found.triaged.suppressed.size(), 1u);
  EXPECT_EQ(got.shown.indexes, expected.shown.indexes);
  EXPECT_TRUE(got.shown.fails);

  // --no-config wins over it, and so does a program that opts out of the environment.
  run_request none = plain;
  none.configuration.none = true;
  EXPECT_TRUE(analyse_run(none).found.triaged.suppressed.empty());
  run_request own = plain;
  own.configuration.environment = false;
  own.configuration.start = fs::temp_directory_path().string();
  EXPECT_TRUE(analyse_run(own).cfg.file.empty());
  EXPECT_EQ(locate_run_config(plain.configuration).path, settings);
}

TEST(AnalyseRun, ACidrcheckConfigThatNamesNoRegularFileIsAConfigurationError) {
  scoped_environment env(config_environment_variable, fs::temp_directory_path().string());
  run_request r;
  r.inputs = {mesh};
  auto run = analyse_run(r);
  EXPECT_EQ(run.status, run_status::configuration_error);
  ASSERT_EQ(run.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(run.diagnostics[0]),
            "cidrcheck: error: CIDRCHECK_CONFIG is '" + fs::temp_directory_path().string() +
                "', which is no readable file\n");
}

// A scratch git working tree: a configuration's inputs may lie anywhere in it.
struct scratch_repository : scratch {
  scratch_repository() { fs::create_directories(path / ".git"); }
  auto run(const std::string& config) const -> run_result {
    write(".cidrcheck.yaml", config);
    run_request r;
    r.configuration.file = (path / ".cidrcheck.yaml").string();
    return analyse_run(r);
  }
};

auto owner_names(const fleet& f) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& o : f.owners) out.push_back(o.name);
  return out;
}

// Issue 25: `.cidrcheck.yaml` `inputs:` lost the NAME of KIND=NAME:FILE, and the
// cluster was named after its file.
TEST(AnalyseRun, NamedSourcesKeepTheirNamesThroughTheConfiguration) {
  scratch_repository repo;
  fs::copy_file(root + "/tests/fixtures/import/kubectl/one-node.yaml", repo.path / "nodes.yaml");
  auto run = repo.run("inputs: [kubectl=edge:nodes.yaml]\n");
  ASSERT_TRUE(run.ok()) << (run.diagnostics.empty() ? "" : format_diagnostic(run.diagnostics[0]));
  EXPECT_EQ(owner_names(run.loaded.value), std::vector<std::string>{"edge"});
}

// Issue 28 item 4: a configuration named /proc/self/environ, and a file not in
// the expected format was quoted (~700 bytes of it) into every report.
TEST(AnalyseRun, ConfigurationInputsStayInItsTreeAndOtherFormatsAreNotQuoted) {
  scratch_repository repo;
  auto out = repo.run("inputs: [/proc/self/environ]\n");
  EXPECT_EQ(out.status, run_status::configuration_error);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].code, "outside-configuration");

  const std::string secret = "AWS_SECRET_ACCESS_KEY=hunter2hunter2";
  repo.write("env.txt", secret + std::string(1, '\0') + "HOME=/root" + std::string(1, '\0') + std::string(800, 'x'));
  repo.write("env.yaml", secret + " PATH=/usr/bin\n");
  for (const auto* input : {"netbox-csv:env.txt", "env.yaml"}) {
    auto run = repo.run(std::string("inputs: ['") + input + "']\n");
    EXPECT_EQ(run.status, run_status::load_error) << input;
    for (const auto& d : run.diagnostics) {
      auto text = format_diagnostic(d);
      EXPECT_EQ(text.find("hunter2"), std::string::npos) << input << ": " << text;
      EXPECT_LT(text.size(), 400u) << input << ": " << text;
    }
  }
}

TEST(LoadRunFleet, AVersionReadsEachSourceAsItHasThem) {
  const std::string nodes = [] {
    std::ifstream in(root + "/tests/fixtures/import/kubectl/one-node.yaml");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  std::map<std::string, std::string> files{{"fleet.yaml", "clusters:\n  - {name: a, pods: 10.1.0.0/16}\n"},
                                           {"nodes.yaml", nodes}};
  version_reader v{"HEAD", [&](const std::string& path) {
                     source_version out;
                     if (path == "broken.yaml") out.error = "git cannot show it";
                     if (auto k = files.find(path); k != files.end()) out.text = k->second;
                     return out;
                   }};
  const catalog& cat = builtin_catalog();
  const std::vector<std::string> sources{"fleet.yaml", "kubectl=edge:nodes.yaml", "new.yaml"};
  auto read = load_run_fleet(sources, {}, cat, {}, false, &v);
  ASSERT_TRUE(read.loaded.ok()) << format_diagnostic(read.loaded.diagnostics.at(0));
  EXPECT_FALSE(read.absent);
  EXPECT_EQ(owner_names(read.loaded.value), (std::vector<std::string>{"a", "edge"}));
  EXPECT_EQ(read.loaded.files, (std::vector<std::string>{"HEAD:fleet.yaml", "HEAD:nodes.yaml"}));

  const std::vector<std::string> only_new{"new.yaml"};
  EXPECT_TRUE(load_run_fleet(only_new, {}, cat, {}, false, &v).absent);

  const std::vector<std::string> broken{"fleet.yaml", "broken.yaml"};
  auto failed = load_run_fleet(broken, {}, cat, {}, false, &v);
  ASSERT_FALSE(failed.loaded.ok());
  EXPECT_EQ(format_diagnostic(failed.loaded.diagnostics[0]), "HEAD:broken.yaml: error: git cannot show it\n");
}

auto changes_of(const plan_result& p, const fleet& f) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& c : p.changes) out.push_back(f.owners[c.owner].name + " " + c.from.to_string() + " -> " + c.to.to_string());
  return out;
}

TEST(PlanRun, PlansAsTheStagesDoWithTheConfigurationApplied) {
  plan_run_request request;
  request.run.configuration.file = settings;  // its inputs: the mesh
  request.yaml = true;
  request.runbooks = true;
  request.remaining = true;
  auto run = plan_run(request);
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(run.plan);
  const auto& p = *run.plan;
  // The suppressed overlap needs no move, and the reserved transit block is avoided: the
  // configuration's judgement, as the CLI's.
  plan_run_request plain = request;
  plain.run.configuration = {};
  plain.run.configuration.none = true;
  plain.run.inputs = {mesh};
  auto unconfigured = plan_run(plain);
  ASSERT_TRUE(unconfigured.ok());
  EXPECT_NE(changes_of(p.result, run.loaded.value), changes_of(unconfigured.plan->result, unconfigured.loaded.value));
  ASSERT_TRUE(p.yaml);
  EXPECT_FALSE(p.yaml->overlay);  // one fleet file: patched
  EXPECT_NE(p.yaml->text.find("10.96.0.0/12"), std::string::npos);
  EXPECT_FALSE(p.runbooks.empty());
  ASSERT_TRUE(p.remaining && p.after && p.seen);
  for (const auto& x : p.remaining->triaged.findings) EXPECT_NE(x.level, severity::error) << x.message;

  // The stage after loading gives the same plan for the same fleet.
  auto again = plan_fleet(run.cfg, run.loaded, run.source, request);
  EXPECT_EQ(changes_of(again.result, run.loaded.value), changes_of(p.result, run.loaded.value));
}

TEST(PlanRun, SeveralSourcesGetAnOverlayAndBadOptionsThrowBeforeReading) {
  plan_run_request request;
  request.run.configuration.none = true;
  request.run.inputs = {mesh, root + "/tests/fixtures/import/kubectl/one-node.yaml"};
  request.run.inputs[1] = "kubectl=edge:" + request.run.inputs[1];
  request.yaml = true;
  auto run = plan_run(request);
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(run.plan->yaml);
  EXPECT_TRUE(run.plan->yaml->overlay);

  plan_run_request bad = request;
  bad.options.pools = {{"pods", "10.0.0.1/8"}};
  bad.run.inputs = {"/nonexistent.yaml"};  // never read: the option is refused first
  EXPECT_THROW(plan_run(bad), plan_option_error);
}

// Plan options own what they need: options made from a judgement that is gone still triage.
TEST(PlanOptions, OutliveTheJudgementTheyWereMadeFrom) {
  auto loaded = load_fleet(std::vector<std::string>{mesh}, builtin_catalog());
  ASSERT_TRUE(loaded.ok());
  config cfg = load_config(settings).value;
  plan_options options = plan_options_for(loaded.value, plan_request{}, judgement_for(cfg, loaded.suppressions));
  ASSERT_TRUE(options.triage);
  EXPECT_EQ(options.triage->suppressions.size(), 1u);
  EXPECT_EQ(options.triage->suppressions[0].id, rule::overlap);
  EXPECT_FALSE(options.triage->overrides.empty());
}

}  // namespace
}  // namespace cidrcheck
