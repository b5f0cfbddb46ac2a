#include <cidrcheck/analysis.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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
  EXPECT_EQ(with.shown.findings.size(), with.found.triaged.findings.size());
  EXPECT_TRUE(with.shown.fails);
}

TEST(AnalyseRun, ABaselineOfTheSameRunLeavesNothingNew) {
  run_request r;
  r.inputs = {mesh};
  r.configuration.none = true;
  auto first = analyse_run(r);
  ASSERT_TRUE(first.ok());
  ASSERT_FALSE(first.found.fingerprints.empty());
  r.baseline.insert(first.found.fingerprints.begin(), first.found.fingerprints.end());
  auto again = analyse_run(r);
  EXPECT_TRUE(again.shown.findings.empty());
  EXPECT_EQ(again.shown.baselined, first.found.fingerprints.size());
  EXPECT_FALSE(again.shown.fails);
  // One fingerprint left out of the baseline: that finding alone is new.
  r.baseline.erase(first.found.fingerprints.front());
  auto one = analyse_run(r);
  ASSERT_EQ(one.shown.fingerprints.size(), 1u);
  EXPECT_EQ(one.shown.fingerprints[0], first.found.fingerprints.front());
}

TEST(AnalyseRun, StopsAtTheFirstStageWithErrors) {
  run_request bad_config;
  bad_config.inputs = {mesh};
  bad_config.configuration.file = root + "/tests/fixtures/config/bad.yaml";
  auto a = analyse_run(bad_config);
  EXPECT_FALSE(a.ok());
  EXPECT_FALSE(a.diagnostics.empty());
  EXPECT_TRUE(a.found.triaged.findings.empty());

  run_request nothing;
  nothing.configuration.none = true;
  auto b = analyse_run(nothing);
  EXPECT_FALSE(b.ok());
  EXPECT_TRUE(b.inputs.empty());

  run_request bad_fleet;
  bad_fleet.configuration.none = true;
  bad_fleet.inputs = {root + "/tests/fixtures/fleets/bad-yaml.yaml"};
  auto c = analyse_run(bad_fleet);
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(has_errors(c.diagnostics));
  EXPECT_TRUE(c.found.triaged.findings.empty());
}

}  // namespace
}  // namespace cidrcheck
