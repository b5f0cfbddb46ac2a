// fleet/runbook.hpp: the facts are docs/migration-facts.md's rows, and
// runbook_files writes one folder per operation whose runbook.md lists the
// steps, facts and files, and whose files carry the header naming their step.

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

namespace cidrcheck {
namespace {

auto page() -> std::string {
  std::ifstream in(std::string(CIDRCHECK_DOCS) + "/migration-facts.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(MigrationFacts, EveryFactRowOfThePageIsAFact) {
  // A fact row: an id cell of lower-case words, then fact, source and a status.
  std::regex row(R"(^\| ([a-z0-9][a-z0-9.-]*) \|.*\| (verified|verified \(seed\)|derived|unverified|conflicting) \|$)");
  std::set<std::string> ids;
  std::istringstream in(page());
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, row)) ids.insert(m[1]);
  }
  ASSERT_GT(ids.size(), 100u);
  EXPECT_EQ(migration_facts().size(), ids.size());
  for (const auto& id : ids) EXPECT_EQ(migration_fact_by_id(id).id, id);
}

TEST(MigrationFacts, ARowGivesTextSourceAndStatus) {
  const auto& f = migration_fact_by_id("svc-alpha-1.29");
  EXPECT_NE(f.text.find("networking.k8s.io/v1alpha1"), std::string::npos);
  EXPECT_NE(f.source.find("seed 002"), std::string::npos);
  EXPECT_EQ(f.status, "verified (seed)");
}

TEST(MigrationFacts, AnUnknownIdIsADefectNotAGuess) {
  EXPECT_THROW((void)migration_fact_by_id("no-such-fact"), std::out_of_range);
  EXPECT_THROW((void)migration_fact_by_id("no-such-fact"), error);
}

struct planned {
  fleet model;
  plan_result result;
};

auto run(std::string_view yaml) -> planned {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok());
  auto result = plan(loaded.value, builtin_catalog());
  return {std::move(loaded.value), std::move(result)};
}

constexpr std::string_view two_kubeadm = R"(
clusters:
  - {name: "a b/c", distribution: kubeadm, kubernetes: "1.33", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: d, distribution: kubeadm, kubernetes: "1.33", network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
connections:
  - {between: ["a b/c", d], routes: [services]}
)";

TEST(RunbookFiles, OneFolderPerOperationWithItsRunbook) {
  auto p = run(two_kubeadm);
  ASSERT_EQ(p.result.operations.size(), 1u);
  auto files = runbook_files(p.model, p.result);
  ASSERT_FALSE(files.empty());
  const auto& book = files.front();
  const auto& op = p.result.operations.front();
  // The folder keeps the owner's name readable but safe as one path segment.
  std::string owner = p.model.owners[op.owners.front()].name == "d" ? "d" : "a_b_c";
  EXPECT_EQ(book.path, "01-" + op.kind + "-" + owner + "/runbook.md");
  EXPECT_NE(book.text.find("## Steps"), std::string::npos);
  for (const auto& s : op.steps) {
    for (const auto& f : s.facts) EXPECT_NE(book.text.find("id=\"" + f.id + "\""), std::string::npos) << f.id;
    for (const auto& name : s.files) {
      bool emitted = false;
      for (const auto& file : files) emitted = emitted || file.path == book.path.substr(0, book.path.find('/') + 1) + name;
      EXPECT_TRUE(emitted) << name;
    }
  }
  for (const auto& file : files) {
    if (file.path.ends_with("/runbook.md")) continue;
    EXPECT_EQ(file.text.rfind("# cidrcheck plan: " + op.kind + " for ", 0), 0u) << file.path;
  }
}

TEST(RunbookFiles, NamesFromInputCannotBreakTheMarkdown) {
  auto p = run(R"(
clusters:
  - {name: "x](http://evil)<b>", distribution: kubeadm, kubernetes: "1.33", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: y, distribution: kubeadm, kubernetes: "1.33", network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
connections:
  - {between: ["x](http://evil)<b>", y], routes: [services]}
)");
  for (const auto& file : runbook_files(p.model, p.result)) {
    EXPECT_EQ(file.text.find("<b>"), std::string::npos) << file.path;
    EXPECT_EQ(file.path.find('('), std::string::npos) << file.path;
  }
}

TEST(RunbookFiles, CommandsInBackticksAreCodeSpansAndNamesStayInert) {
  auto p = run(two_kubeadm);
  auto files = runbook_files(p.model, p.result);
  ASSERT_FALSE(files.empty());
  const auto& md = files.front().text;
  // The steps quote commands in backticks: they render as code, not as escaped backticks.
  EXPECT_NE(md.find("`kubectl "), std::string::npos);
  EXPECT_EQ(md.find("\\`"), std::string::npos);
  // A name with one backtick leaves an odd count: that step is escaped whole.
  auto odd = run(R"(
clusters:
  - {name: "x`y", distribution: kubeadm, kubernetes: "1.33", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: z, distribution: kubeadm, kubernetes: "1.33", network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
connections:
  - {between: ["x`y", z], routes: [services]}
)");
  for (const auto& file : runbook_files(odd.model, odd.result)) {
    if (!file.path.ends_with("runbook.md")) continue;
    for (const auto& op : odd.result.operations) {
      if (odd.model.owners[op.owners.front()].name != "x`y") continue;
      EXPECT_NE(file.text.find("x\\`y"), std::string::npos);
    }
  }
}

TEST(RunbookFiles, EveryStepNeedsOnlyWhatAnEarlierStepMakes) {
  auto p = run(two_kubeadm);
  for (const auto& op : p.result.operations) {
    std::set<std::string> made;
    for (const auto& s : op.steps) {
      for (const auto& n : s.needs) EXPECT_TRUE(made.count(n)) << op.kind << ": '" << s.text << "' needs " << n;
      made.insert(s.makes.begin(), s.makes.end());
    }
  }
}

// markdown.hpp: '>' reads as itself in raw view ("a -> b"), and is escaped only where it would open a
// block quote: at the start of text that opens a line or a list item.
TEST(RunbookFiles, GreaterThanStaysReadableAndOpensNoQuote) {
  auto p = run(R"(
clusters:
  - {name: "> quoted", distribution: kubeadm, kubernetes: "1.33", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: d, distribution: kubeadm, kubernetes: "1.33", network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16,
     service_count: 900}
connections:
  - {between: ["> quoted", d], routes: [services]}
)");
  bool quoted = false;
  for (const auto& file : runbook_files(p.model, p.result)) {
    if (!file.path.ends_with("/runbook.md")) continue;
    EXPECT_EQ(file.text.find("&gt;"), std::string::npos) << file.path;
    EXPECT_NE(file.text.find(" -> "), std::string::npos) << file.path;
    // No line of the page opens a block quote, whichever owner it names.
    std::istringstream lines(file.text);
    for (std::string line; std::getline(lines, line);) {
      auto start = line.find_first_not_of(' ');
      if (start == std::string::npos) continue;
      EXPECT_NE(line[start], '>') << line;
      auto item = line.find(". ");
      if (item != std::string::npos && item == line.find_first_not_of("0123456789", start)) {
        EXPECT_NE(line.compare(item + 2, 1, ">"), 0) << line;
      }
    }
    quoted = quoted || file.text.find("Changes: \\> quoted:") != std::string::npos;
  }
  EXPECT_TRUE(quoted);
}

}  // namespace
}  // namespace cidrcheck
