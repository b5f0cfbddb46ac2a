#include <cidrcheck/io/config_loader.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

namespace fs = std::filesystem;

auto parse(std::string_view text) -> config_load_result { return parse_config(text, "c.yaml", "conf"); }

auto printed(const config_load_result& r) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) out.push_back(format_diagnostic(d));
  return out;
}

TEST(ConfigLoader, ReadsTheDocumentedFormat) {
  auto r = parse(R"(version: 1
inputs: [fleet.yaml, ../shared/fleet.d, kubectl=dc1:nodes.yaml, aws-vpcs:vpcs.json]
fail-on: warning
min-severity: warning
rules:
  latent-overlap: error
  CIDR120: off
reserved:
  - {cidr: 10.255.0.0/16, name: transit, source: plan}
  - cidr: 192.0.2.0/24
suppressions:
  - rule: overlap
    entities: [a/pods, b]
    reason: filtered
    expires: 2026-12-31
)");
  ASSERT_TRUE(r.ok()) << printed(r)[0];
  const auto& c = r.value;
  // A KIND=NAME:FILE source keeps its kind and its cluster's name; only the file is resolved.
  EXPECT_EQ(c.inputs, (std::vector<std::string>{"conf/fleet.yaml", "shared/fleet.d", "kubectl=dc1:conf/nodes.yaml",
                                                 "aws-vpcs:conf/vpcs.json"}));
  ASSERT_TRUE(c.fail_on);
  EXPECT_EQ(c.fail_on->level, severity::warning);
  EXPECT_EQ(c.min_severity, severity::warning);
  ASSERT_EQ(c.rules.size(), 2u);
  EXPECT_EQ(c.rules[0].id, rule::latent_overlap);
  EXPECT_EQ(c.rules[0].level, severity::error);
  EXPECT_EQ(c.rules[1].id, rule::well_known_default);
  EXPECT_FALSE(c.rules[1].level);
  ASSERT_EQ(c.reserved.size(), 2u);
  EXPECT_EQ(c.reserved[0].cidr, prefix::parse("10.255.0.0/16"));
  EXPECT_EQ(c.reserved[0].rule, "reserved-range");
  EXPECT_EQ(c.reserved[0].source, "plan");
  EXPECT_EQ(c.reserved[1].name, "the range reserved in c.yaml");
  EXPECT_EQ(c.reserved[1].source, "c.yaml:10:5");
  ASSERT_EQ(c.suppressions.size(), 1u);
  const auto& s = c.suppressions[0];
  EXPECT_EQ(s.id, rule::overlap);
  EXPECT_EQ(s.entities, (std::vector<entity_pattern>{{"a", range_role::pods}, {"b", std::nullopt}}));
  EXPECT_EQ(s.reason, "filtered");
  EXPECT_EQ(s.expires, (calendar_date{2026, 12, 31}));
  EXPECT_EQ(s.where, (source_location{"c.yaml", 12, 11}));
  EXPECT_EQ(s.end_column, 18u);
}

TEST(ConfigLoader, ReadsAnchorsFromExtensionFieldsAndMergeKeys) {
  auto r = parse(R"(version: 1
x-lab: &lab {cidr: 10.200.0.0/16, name: lab}
reserved:
  - *lab
  - {<<: *lab, cidr: 10.201.0.0/16}
)");
  ASSERT_TRUE(r.ok()) << printed(r).at(0);
  ASSERT_EQ(r.value.reserved.size(), 2u);
  EXPECT_EQ(r.value.reserved[1].name, "lab");
  EXPECT_EQ(r.value.reserved[1].cidr.to_string(), "10.201.0.0/16");
}

TEST(ConfigLoader, CountsLinesByLineFeedAsEditorsDo) {
  // A lone CR ends a line for YAML, not for an editor: positions are the editor's.
  auto r = parse("version: 1\rfail-on: nope\nmin-severity: nope\n");
  ASSERT_EQ(r.diagnostics.size(), 2u) << printed(r).at(0);
  EXPECT_EQ(r.diagnostics[0].where, (source_location{"c.yaml", 1, 21}));
  EXPECT_EQ(r.diagnostics[1].where, (source_location{"c.yaml", 2, 15}));
}

// Found by the config fuzzer: the reader's last error, "too many errors", had no
// file and was sorted first.
TEST(ConfigLoader, TooManyErrorsComesLastAndNamesTheFile) {
  input_limits limits;
  limits.max_errors = 2;
  auto r = parse_config("version: 1\nnope: 1\nnada: 2\nnein: 3\n", "c.yaml", "conf", limits);
  ASSERT_EQ(r.diagnostics.size(), 3u);
  EXPECT_EQ(r.diagnostics[0].where.line, 2u);
  EXPECT_EQ(r.diagnostics[1].where.line, 3u);
  EXPECT_EQ(printed(r)[2], "c.yaml: error: too many errors: stopping at the max-errors limit of 2\n");
}

TEST(ConfigLoader, HonoursTheInputLimits) {
  input_limits limits;
  limits.max_depth = 2;
  auto r = parse_config("version: 1\nreserved:\n  - {cidr: 10.200.0.0/16, name: lab}\n", "c.yaml", "conf", limits);
  ASSERT_EQ(printed(r), std::vector<std::string>{"c.yaml:3:5: error: nesting is deeper than the max-depth limit of 2 levels\n"});
}

TEST(ConfigLoader, NeverMeansNoThreshold) {
  auto r = parse("fail-on: never\n");
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r.value.fail_on);
  EXPECT_FALSE(r.value.fail_on->level);
  EXPECT_FALSE(r.value.fail_on->fails(severity::error));
}

TEST(ConfigLoader, ReportsEveryProblemInReadingOrder) {
  auto r = parse(R"(rules:
  overlap: loud
fail-on: critical
colour: always
suppressions:
  - {rule: overlap, entities: [a]}
)");
  EXPECT_EQ(printed(r), (std::vector<std::string>{
                            "c.yaml:2:12: error: a rule's setting is error, warning, note or off, not 'loud'\n",
                            "c.yaml:3:10: error: fail-on is error, warning, note or never, not 'critical'\n",
                            "c.yaml:4:1: error: unknown key 'colour' in the configuration file\n",
                            "c.yaml:6:5: error: a suppression needs 'reason', why the finding is accepted\n",
                        }));
}

TEST(ConfigLoader, TheStarterFileIsAValidConfiguration) {
  auto r = parse_config(starter_config(), ".cidrcheck.yaml", "");
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0]));
  EXPECT_EQ(r.value.fail_on->level, severity::error);
  EXPECT_TRUE(r.value.inputs.empty());
  EXPECT_TRUE(r.value.suppressions.empty());
}

TEST(ConfigLoader, AnUnreadableFileIsAnError) {
  auto r = load_config("/nonexistent/.cidrcheck.yaml");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].code, "unreadable");
}

class FindConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("cidrcheck-find-config-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "repo/.git");
    fs::create_directories(root_ / "repo/a/b");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const fs::path& p) { std::ofstream(p) << "version: 1\n"; }
  fs::path root_;
};

TEST_F(FindConfig, WalksUpToTheRepositoryRoot) {
  EXPECT_FALSE(find_config((root_ / "repo/a/b").string()));
  write(root_ / "repo/.cidrcheck.yaml");
  EXPECT_EQ(find_config((root_ / "repo/a/b").string()), std::string("../../.cidrcheck.yaml"));
  write(root_ / "repo/a/.cidrcheck.yml");
  EXPECT_EQ(find_config((root_ / "repo/a/b").string()), std::string("../.cidrcheck.yml"));
  write(root_ / "repo/a/b/.cidrcheck.yaml");
  EXPECT_EQ(find_config((root_ / "repo/a/b").string()), std::string(".cidrcheck.yaml"));
}

// Inputs of a configuration (which a pull request controls) stay in its tree:
// the repository that holds it. Each way out is an error at the input.
TEST_F(FindConfig, InputsStayInTheConfigurationsTree) {
  const auto repo = root_ / "repo";
  std::ofstream(root_ / "secret.yaml") << "token: hunter2\n";
  std::ofstream(repo / "a/fleet.yaml") << "clusters: []\n";
  fs::create_symlink(root_ / "secret.yaml", repo / "a/link.yaml");
  fs::create_directories(repo / "a/dir");
  fs::create_symlink(root_ / "secret.yaml", repo / "a/dir/x.yaml");
  auto config = repo / "a/b/.cidrcheck.yaml";
  std::ofstream(config) << "inputs:\n"
                           "  - ../fleet.yaml\n"                 // inside: read
                           "  - /proc/self/environ\n"            // absolute, out
                           "  - ../../../secret.yaml\n"          // up and out
                           "  - kubectl=x:../link.yaml\n"        // a link out, as an import
                           "  - ../dir\n"                        // a directory with a link out
                           "  - " + (repo / "a/fleet.yaml").string() + "\n";  // absolute, inside
  auto r = load_config(config.string());
  std::vector<std::string> codes, lines;
  for (const auto& d : r.diagnostics) {
    codes.push_back(d.code);
    lines.push_back(std::to_string(d.where.line) + ":" + std::to_string(d.where.column));
  }
  EXPECT_EQ(codes, std::vector<std::string>(4, "outside-configuration"));
  EXPECT_EQ(lines, (std::vector<std::string>{"3:5", "4:5", "5:5", "6:5"}));
  EXPECT_EQ(r.value.inputs.size(), 2u);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].message.find("input '/proc/self/environ' is outside " + fs::canonical(repo).string()),
            std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_NE(r.diagnostics[3].message.find("its file x.yaml leads to"), std::string::npos) << r.diagnostics[3].message;
}

TEST_F(FindConfig, StopsAtTheRepositoryRoot) {
  write(root_ / ".cidrcheck.yaml");  // above the repository: not this repository's settings
  EXPECT_FALSE(find_config((root_ / "repo/a").string()));
}

}  // namespace
}  // namespace cidrcheck
