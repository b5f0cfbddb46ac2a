// fleet/runbook.hpp: the facts are docs/migration-facts.md's rows; the runbook
// table has one row per catalog operation; runbook_files writes one folder per
// operation whose runbook.md lists the steps, their commands, facts and files,
// and whose files carry the header naming their step; names from the input stay
// inert in every file and command; operations on one cluster whose edits wait
// for one apply share one runbook (one maintenance).

#include "../../lib/cidrcheck/fleet/emit.hpp"
#include "../../lib/cidrcheck/fleet/runbook_rows.hpp"

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
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
  EXPECT_NE(f.source.find("1880-multiple-service-cidrs/kep.yaml"), std::string::npos) << f.source;
  EXPECT_EQ(f.status, "verified");
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
  auto files = runbook_files(p.model, p.result, builtin_catalog());
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
  for (const auto& file : runbook_files(p.model, p.result, builtin_catalog())) {
    EXPECT_EQ(file.text.find("<b>"), std::string::npos) << file.path;
    EXPECT_EQ(file.path.find('('), std::string::npos) << file.path;
  }
}

// A step that changes a connection's routes names ten of its members and
// counts the rest: a mesh of a thousand clusters is not a thousand names on
// every such step of every runbook.
TEST(RunbookSteps, AStepNamesTenMembersOfAConnectionAndCountsTheRest) {
  std::string yaml = "clusters:\n";
  std::string members;
  for (int k = 0; k < 12; ++k) {
    const auto n = std::to_string(k);
    yaml += "  - {name: m" + n + ", distribution: kubeadm, kubernetes: \"1.33\", network: 10." + n +
            ".0.0/16, pods: 10." + std::to_string(20 + k) + ".0.0/16, services: " +
            (k < 2 ? std::string("10.96.0.0/16") : "10." + std::to_string(40 + k) + ".0.0/16") + "}\n";
    members += (k ? ", m" : "m") + n;
  }
  yaml += "connections:\n  - {name: mesh, between: [" + members + "], routes: [services]}\n";
  auto p = run(yaml);
  ASSERT_EQ(p.result.operations.size(), 1u);
  bool named = false;
  for (const auto& step : p.result.operations.front().steps) {
    if (step.text.find("connection mesh") == std::string::npos) continue;
    named = true;
    EXPECT_NE(step.text.find("(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, ... 2 more)"), std::string::npos) << step.text;
    EXPECT_EQ(step.text.find("m11"), std::string::npos) << step.text;
  }
  EXPECT_TRUE(named) << "no step names the mesh";
}

TEST(RunbookFiles, CommandsInBackticksAreCodeSpansAndNamesStayInert) {
  auto p = run(two_kubeadm);
  auto files = runbook_files(p.model, p.result, builtin_catalog());
  ASSERT_FALSE(files.empty());
  const auto& md = files.front().text;
  // Field names in backticks render as code, not as escaped backticks; commands sit in a fenced block.
  EXPECT_NE(md.find("`networking.serviceSubnet`"), std::string::npos);
  EXPECT_NE(md.find("   ```sh\n"), std::string::npos);
  EXPECT_EQ(md.find("\\`"), std::string::npos);
  // A name with one backtick leaves an odd count: that step is escaped whole.
  auto odd = run(R"(
clusters:
  - {name: "x`y", distribution: kubeadm, kubernetes: "1.33", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: z, distribution: kubeadm, kubernetes: "1.33", network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
connections:
  - {between: ["x`y", z], routes: [services]}
)");
  for (const auto& file : runbook_files(odd.model, odd.result, builtin_catalog())) {
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
  for (const auto& file : runbook_files(p.model, p.result, builtin_catalog())) {
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

// --- the runbook table -----------------------------------------------------------

auto catalog_kinds() -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& k : builtin_catalog().operations) out.push_back(k.name);
  return out;
}

// A kops cluster on its defaults whose pod and service ranges both move (kops-tailnet).
constexpr std::string_view kops_on_a_tailnet =
    "clusters:\n"
    "  - {name: prod-eu, distribution: kops, kubernetes: \"1.29\", cni: flannel, nodes: 180}\n"
    "networks:\n  - {name: tailscale, type: tailscale}\n"
    "connections:\n  - {between: [prod-eu, tailscale], via: tailscale}\n";

// Each operation's own runbook, as it is before operations are merged into one maintenance.
auto own_runbooks(const planned& p) -> std::vector<runbook> {
  auto applied = apply_plan(p.model, p.result);
  const detail::owner_connections connections(applied);
  std::vector<runbook> out;
  for (const auto& op : p.result.operations) {
    out.push_back(detail::operation_runbook(applied, builtin_catalog(), op, p.result.changes, connections));
  }
  return out;
}

auto applies_of(const runbook& book) -> std::size_t {
  return static_cast<std::size_t>(std::count_if(book.steps.begin(), book.steps.end(), [](const runbook_step& s) {
    return std::holds_alternative<apply_configuration>(s.action);
  }));
}

// Was: a kops cluster rolled after every spec edit, 10 rolls for a pod and a
// service move (kops-tailnet). Edits in a row now share one apply and one roll
// (config-apply-separate), and the checks and states of the edits hold after it.
TEST(RunbookApply, EditsOfAKopsSpecInARowShareOneApply) {
  auto p = run(kops_on_a_tailnet);
  auto books = own_runbooks(p);
  ASSERT_EQ(books.size(), 2U);
  auto merged = plan_runbooks(p.model, p.result, builtin_catalog());
  books.insert(books.end(), merged.begin(), merged.end());
  std::map<std::string, std::size_t> applies;
  for (const auto& book : books) {
    const auto profile = builtin_catalog().profile_of(p.model.owners.at(book.owners.at(0)));
    ASSERT_NE(profile.distribution, nullptr);
    for (std::size_t k = 0; k < book.steps.size(); ++k) {
      const auto& s = book.steps[k];
      if (std::holds_alternative<apply_configuration>(s.action)) {
        ++applies[book.kind];
        ASSERT_GT(k, 0U);
        EXPECT_TRUE(profile.distribution->edit_waits_for_apply(book.steps[k - 1].action)) << book.kind << " step " << k;
        continue;
      }
      if (!profile.distribution->edit_waits_for_apply(s.action)) continue;
      // An edit is followed by another edit or the apply, and carries no check of its own.
      ASSERT_LT(k + 1, book.steps.size());
      const auto& next = book.steps[k + 1].action;
      EXPECT_TRUE(std::holds_alternative<apply_configuration>(next) || profile.distribution->edit_waits_for_apply(next))
          << book.kind << " step " << k;
      EXPECT_TRUE(s.checks.empty() && s.makes.empty()) << book.kind << " step " << k;
    }
  }
  // Pods: --cluster-cidr, nonMasqueradeCIDR and kube-proxy's clusterCIDR in one apply.
  EXPECT_EQ(applies["kcm-node-ipam"], 1U);
  // Services: gates, group version and both SANs; the range; the DNS address; the old SAN dropped.
  EXPECT_EQ(applies["service-cidr-api"], 4U);
  // Both in one maintenance (plan_runbooks gives it to each of the two): the pods' apply shared with the first.
  EXPECT_EQ(applies["kcm-node-ipam+service-cidr-api"], 2U * 4U);
}

TEST(RunbookApply, TheRunbookSaysItsRollsAndItsWindowUpFront) {
  auto p = run(kops_on_a_tailnet);
  auto files = runbook_files(p.model, p.result, builtin_catalog());
  std::map<std::string, std::string> maintenance;
  for (const auto& f : files) {
    if (!f.path.ends_with("/runbook.md")) continue;
    auto at = f.text.find("\nMaintenance: ");
    maintenance[f.path] = at == std::string::npos ? "" : f.text.substr(at + 14, f.text.find('\n', at + 1) - at - 14);
  }
  EXPECT_EQ(maintenance.size(), 1U);
  EXPECT_EQ(maintenance["01-kcm-node-ipam+service-cidr-api-prod-eu/runbook.md"],
            "4 rolls of the cluster to apply its configuration (steps 12, 21, 24 and 28); every node drained from "
            "step 2 until the nodes return at step 13: a window in which workloads are down; pods restarted at step 25");
  EXPECT_EQ(maintenance_of(own_runbooks(p).at(0)),
            "1 roll of the cluster to apply its configuration (step 8); every node drained from step 2 until the "
            "nodes return at step 9: a window in which workloads are down");
}

// A kops cluster on Calico and 1.29 whose pods and services both move (seed
// 002): the pool swap rolls the cluster twice and the ServiceCIDR move four
// times, six rolls in two runbooks; in one maintenance their applies are
// shared, four rolls in one runbook, and the plan's cost counts each shared
// apply once (catalog shared_apply).
constexpr std::string_view kops_calico_on_a_tailnet =
    "clusters:\n"
    "  - {name: prod, distribution: kops, kubernetes: \"1.29\", cni: calico, nodes: 40}\n"
    "networks:\n  - {name: tailscale, type: tailscale}\n"
    "connections:\n  - {between: [prod, tailscale], via: tailscale}\n";

TEST(RunbookMaintenance, OperationsOnOneKopsClusterShareTheirApplies) {
  auto p = run(kops_calico_on_a_tailnet);
  ASSERT_EQ(p.result.operations.size(), 2U);
  const auto& pods = p.result.operations[0];
  const auto& services = p.result.operations[1];
  EXPECT_EQ(pods.kind, "calico-ippool-swap");
  EXPECT_EQ(services.kind, "service-cidr-api");
  EXPECT_EQ(pods.merged_with, std::vector<std::uint32_t>{1});
  EXPECT_EQ(services.merged_with, std::vector<std::uint32_t>{0});
  auto own = own_runbooks(p);
  EXPECT_EQ(applies_of(own[0]), 2U);
  EXPECT_EQ(applies_of(own[1]), 4U);
  auto books = plan_runbooks(p.model, p.result, builtin_catalog());
  ASSERT_EQ(books.size(), 2U);
  EXPECT_EQ(books[0].kind, "calico-ippool-swap+service-cidr-api");
  EXPECT_EQ(applies_of(books[0]), 4U);
  EXPECT_EQ(books[1].steps.size(), books[0].steps.size());
  // Every step of each runbook is in the merged one, in its order; only applies are fewer.
  auto applied = apply_plan(p.model, p.result);
  auto texts = [&](const runbook& r) {
    std::vector<std::string> out;
    for (const auto& s : render_steps(applied, r, builtin_catalog())) {
      if (s.text.find("apply the cluster spec") != 0) out.push_back(s.text.substr(0, s.text.find(" [")));
    }
    return out;
  };
  const auto merged = texts(books[0]);
  std::size_t own_steps = 0;
  for (const auto& book : own) {
    auto steps = texts(book);
    own_steps += steps.size();
    auto at = merged.begin();
    for (const auto& s : steps) {
      if (s.starts_with("restart ")) continue;  // one restart of every pod serves both (below)
      at = std::find(at, merged.end(), s);
      ASSERT_NE(at, merged.end()) << book.kind << ": " << s;
      ++at;
    }
  }
  EXPECT_EQ(merged.size(), own_steps - 1);
  // The operations carry the one runbook; the cost counts the two shared applies once each.
  EXPECT_EQ(pods.steps.size(), books[0].steps.size());
  EXPECT_EQ(services.steps.size(), books[0].steps.size());
  EXPECT_EQ(p.result.shared_apply_saving, 2 * builtin_catalog().shared_apply.cost);
  EXPECT_EQ(pods.cost + services.cost + p.result.shared_apply_saving, 3 + 2);
  EXPECT_NE(services.counted.back().find("2 applies of the cluster shared in one maintenance"), std::string::npos);
  // One folder for the maintenance.
  std::set<std::string> folders;
  for (const auto& f : runbook_files(p.model, p.result, builtin_catalog())) folders.insert(f.path.substr(0, f.path.find('/')));
  EXPECT_EQ(folders, std::set<std::string>{"01-calico-ippool-swap+service-cidr-api-prod"});
}

// A kubeadm cluster on CNI `cni` whose pods and services both sit in the tailnet's range.
auto kubeadm_on_a_tailnet(std::string_view cni) -> std::string {
  return "clusters:\n"
         "  - {name: prod, distribution: kubeadm, kubernetes: \"1.33\", cni: " + std::string(cni) +
         ", nodes: 40, network: 10.0.0.0/16, pods: 100.96.0.0/11, services: 100.64.0.0/13}\n"
         "networks:\n  - {name: tailscale, type: tailscale}\n"
         "connections:\n  - {between: [prod, tailscale], via: tailscale}\n";
}

// Two operations on one kubeadm cluster that share neither an apply nor a
// restart of the pods (kube-controller-manager's node IPAM drains the nodes,
// the ServiceCIDR move restarts the pods) keep their own runbooks.
TEST(RunbookMaintenance, OperationsThatShareNothingKeepTheirOwnRunbooks) {
  auto p = run(kubeadm_on_a_tailnet("flannel"));
  ASSERT_EQ(p.result.operations.size(), 2U);
  EXPECT_EQ(p.result.operations[0].kind, "kcm-node-ipam");
  for (const auto& op : p.result.operations) EXPECT_TRUE(op.merged_with.empty()) << op.kind;
  EXPECT_EQ(p.result.shared_apply_saving, 0);
}

// merged_runbook cuts each runbook before its applies and takes phase k of
// every runbook together: the first runbook's steps before its edits, the
// second's, then both runbooks' edits, applied at one roll.
TEST(RunbookMaintenance, PhasesOfEachRunbookAreTakenTogether) {
  auto p = run(kops_calico_on_a_tailnet);
  auto applied = apply_plan(p.model, p.result);
  const detail::owner_connections connections(applied);
  std::vector<runbook> unapplied;
  for (const auto& op : p.result.operations) {
    unapplied.push_back(detail::unapplied_runbook(applied, builtin_catalog(), op, p.result.changes, connections));
  }
  auto merged = detail::merged_runbook(applied, builtin_catalog(), unapplied);
  const auto* d = builtin_catalog().profile_of(p.model.owners.front()).distribution;
  ASSERT_NE(d, nullptr);
  // Restarts are shared (RunbookMaintenance.ARestartOfEveryPodServesBothOperations): left out here.
  auto is_restart = [](const runbook_step& s) { return std::holds_alternative<restart_workloads>(s.action); };
  for (auto& book : unapplied) std::erase_if(book.steps, is_restart);
  // Which runbook each merged step came from, in order, and where the applies are.
  std::vector<std::string> layout;
  std::size_t next[2] = {0, 0};
  for (const auto& s : merged.steps) {
    if (is_restart(s)) continue;
    if (std::holds_alternative<apply_configuration>(s.action)) {
      layout.push_back("apply");
      continue;
    }
    bool first = next[0] < unapplied[0].steps.size() && unapplied[0].steps[next[0]].action.index() == s.action.index() &&
                 unapplied[0].steps[next[0]].facts == s.facts;
    auto from = first ? 0 : 1;
    ASSERT_LT(next[from], unapplied[from].steps.size());
    ++next[from];
    layout.push_back(std::string(from == 0 ? "pods" : "services") + (d->edit_waits_for_apply(s.action) ? " edit" : ""));
  }
  EXPECT_EQ(next[0], unapplied[0].steps.size());
  EXPECT_EQ(next[1], unapplied[1].steps.size());
  // Phase 0: both runbooks' steps before their edits, then the edits, one apply.
  auto apply = std::find(layout.begin(), layout.end(), "apply");
  ASSERT_NE(apply, layout.end());
  auto first_edit = std::find_if(layout.begin(), apply, [](const std::string& x) { return x.ends_with(" edit"); });
  EXPECT_TRUE(std::all_of(layout.begin(), first_edit, [](const std::string& x) { return !x.ends_with(" edit"); }));
  EXPECT_TRUE(std::all_of(first_edit, apply, [](const std::string& x) { return x.ends_with(" edit"); }));
  EXPECT_NE(std::find(first_edit, apply, "pods edit"), apply);
  EXPECT_NE(std::find(first_edit, apply, "services edit"), apply);
  EXPECT_EQ(std::count(layout.begin(), layout.end(), "apply"), 4);
}

// The pool swap restarts the pods of the old pool and the ServiceCIDR move,
// later, every pod: in one maintenance the later restart serves both, the
// pool's check moves to it, and the old pool is deleted after it.
TEST(RunbookMaintenance, ARestartOfEveryPodServesBothOperations) {
  auto p = run(kops_calico_on_a_tailnet);
  auto restarts_pods = [](const runbook_step& s) {
    const auto* r = std::get_if<restart_workloads>(&s.action);
    return r != nullptr && (r->which == workload_selection::all_pods || r->which == workload_selection::pods_in_ranges);
  };
  auto restarts = [&](const runbook& r) { return std::count_if(r.steps.begin(), r.steps.end(), restarts_pods); };
  auto own = own_runbooks(p);
  ASSERT_EQ(own.size(), 2U);
  EXPECT_EQ(restarts(own[0]) + restarts(own[1]), 2);
  const auto merged = plan_runbooks(p.model, p.result, builtin_catalog()).at(0);
  ASSERT_EQ(restarts(merged), 1);
  auto restart = std::find_if(merged.steps.begin(), merged.steps.end(), restarts_pods);
  EXPECT_EQ(std::get<restart_workloads>(restart->action).which, workload_selection::all_pods);
  const auto old_pool = p.model.ranges[p.result.changes[p.result.operations[0].changes.front()].range.value()].cidr;
  ASSERT_FALSE(restart->checks.empty());
  EXPECT_EQ(restart->checks.back().must, expectation::none_in);
  EXPECT_EQ(restart->checks.back().ranges, std::vector<prefix>{old_pool});
  EXPECT_NE(std::find(restart->facts.begin(), restart->facts.end(), "calico-migrate-order"), restart->facts.end());
  auto pool_deleted = std::find_if(merged.steps.begin(), merged.steps.end(), [](const runbook_step& s) {
    const auto* d = std::get_if<delete_object>(&s.action);
    return d != nullptr && d->kind == "IPPool";
  });
  ASSERT_NE(pool_deleted, merged.steps.end());
  EXPECT_GT(pool_deleted, restart);
  const auto applied = apply_plan(p.model, p.result);
  const simulation_context context{&p.model, &applied, &builtin_catalog(), {}, std::nullopt};
  auto verdict = simulate_runbook(context, merged);
  EXPECT_TRUE(verdict.passed()) << summary(verdict);
}

// kubeadm applies no configuration separately, so its operations share no
// roll; a pool swap and a ServiceCIDR move on one kubeadm cluster still share
// their restart of the pods: one maintenance, every pod restarted once, and
// the same cost (only the pool swap counts restarting pods).
TEST(RunbookMaintenance, OperationsOnOneKubeadmClusterShareTheirRestart) {
  auto p = run(kubeadm_on_a_tailnet("calico"));
  ASSERT_EQ(p.result.operations.size(), 2U);
  EXPECT_EQ(p.result.operations[0].kind, "calico-ippool-swap");
  EXPECT_EQ(p.result.operations[1].kind, "service-cidr-api");
  EXPECT_EQ(p.result.operations[0].merged_with, std::vector<std::uint32_t>{1});
  auto own = own_runbooks(p);
  EXPECT_EQ(detail::pod_restarts_in(own[0]) + detail::pod_restarts_in(own[1]), 2U);
  EXPECT_EQ(applies_of(own[0]) + applies_of(own[1]), 0U);
  const auto merged = plan_runbooks(p.model, p.result, builtin_catalog()).at(0);
  EXPECT_EQ(detail::pod_restarts_in(merged), 1U);
  EXPECT_EQ(p.result.shared_apply_saving, 0);
  EXPECT_EQ(p.result.operations[0].cost + p.result.operations[1].cost, 3 + 2);
  EXPECT_NE(maintenance_of(merged).find("pods restarted at step "), std::string::npos) << maintenance_of(merged);
  const auto applied = apply_plan(p.model, p.result);
  const simulation_context context{&p.model, &applied, &builtin_catalog(), {}, std::nullopt};
  auto verdict = simulate_runbook(context, merged);
  EXPECT_TRUE(verdict.passed()) << summary(verdict);
}

// Steps that need what the dropped restart made move after the restart that
// covers it; where a step that would stay before it needs them, both restarts stay.
TEST(RunbookMaintenance, ARestartIsSharedOnlyWhereTheStepsThatNeedItCanWait) {
  auto p = run(kops_calico_on_a_tailnet);
  auto applied = apply_plan(p.model, p.result);
  auto step = [](step_action a, std::vector<std::string> needs, std::vector<std::string> makes) {
    runbook_step s;
    s.action = std::move(a);
    s.needs = std::move(needs);
    s.makes = std::move(makes);
    return s;
  };
  auto in_old_pool = restart_workloads{workload_selection::pods_in_ranges, {prefix::parse("100.96.0.0/11")}, component::cni_agent, {}};
  auto every_pod = restart_workloads{workload_selection::all_pods, {}, component::cni_agent, {}};
  auto texts = [](const runbook& r) {
    std::vector<std::string> out;
    for (const auto& s : r.steps) {
      if (const auto* m = std::get_if<manual>(&s.action)) out.push_back(m->what);
      else if (const auto* w = std::get_if<restart_workloads>(&s.action)) out.push_back(w->which == workload_selection::all_pods ? "every pod" : "old pool");
    }
    return out;
  };
  runbook pool{"a", {0}, std::nullopt,
               {step(in_old_pool, {}, {"pods-restarted"}), step(manual{"delete the pool"}, {"pods-restarted"}, {"pool-gone"})}};
  runbook services{"b", {0}, std::nullopt, {step(manual{"set DNS"}, {}, {"dns-set"}), step(every_pod, {"dns-set"}, {})}};
  auto shared = detail::merged_runbook(applied, builtin_catalog(), {pool, services});
  EXPECT_EQ(texts(shared), (std::vector<std::string>{"set DNS", "every pod", "delete the pool"}));
  EXPECT_EQ(shared.steps[1].makes, std::vector<std::string>{"a/pods-restarted"});
  // Where the restart of every pod needs the pool gone (a step of its own
  // operation: states are per operation), the pool's own restart stays.
  runbook pool_then_every_pod{"a", {0}, std::nullopt, {pool.steps[0], pool.steps[1], step(every_pod, {"pool-gone"}, {})}};
  runbook dns{"b", {0}, std::nullopt, {step(manual{"set DNS"}, {}, {"dns-set"})}};
  auto kept = detail::merged_runbook(applied, builtin_catalog(), {pool_then_every_pod, dns});
  EXPECT_EQ(texts(kept), (std::vector<std::string>{"old pool", "delete the pool", "every pod", "set DNS"}));
}

// Each operation's states are its own in a merged runbook: a step never relies
// on a state another operation's step names alike (both books here make
// "pods-restarted"; each book's need is met by its own step), and two books of
// one kind are told apart.
TEST(RunbookMaintenance, MergedOperationsKeepTheirStatesApart) {
  auto p = run(kops_calico_on_a_tailnet);
  auto applied = apply_plan(p.model, p.result);
  auto step = [](std::string what, std::vector<std::string> needs, std::vector<std::string> makes) {
    runbook_step s;
    s.action = manual{std::move(what)};
    s.needs = std::move(needs);
    s.makes = std::move(makes);
    return s;
  };
  runbook first{"swap", {0}, std::nullopt, {step("restart", {}, {"pods-restarted"}), step("delete", {"pods-restarted"}, {})}};
  runbook second{"swap", {0}, std::nullopt, {step("restart", {}, {"pods-restarted"}), step("delete", {"pods-restarted"}, {})}};
  runbook third{"move", {0}, std::nullopt, {step("check", {"pods-restarted"}, {})}};
  auto merged = detail::merged_runbook(applied, builtin_catalog(), {first, second});
  ASSERT_EQ(merged.steps.size(), 4U);
  EXPECT_EQ(merged.steps[0].makes, std::vector<std::string>{"swap/pods-restarted"});
  EXPECT_EQ(merged.steps[1].needs, std::vector<std::string>{"swap/pods-restarted"});
  EXPECT_EQ(merged.steps[2].makes, std::vector<std::string>{"swap#2/pods-restarted"});
  EXPECT_EQ(merged.steps[3].needs, std::vector<std::string>{"swap#2/pods-restarted"});
  // A book that needs a state only another book makes is no longer satisfied by it.
  auto borrowed = detail::merged_runbook(applied, builtin_catalog(), {first, third});
  std::set<std::string> made;
  bool unmet = false;
  for (const auto& s : borrowed.steps) {
    for (const auto& n : s.needs) unmet = unmet || made.count(n) == 0;
    made.insert(s.makes.begin(), s.makes.end());
  }
  EXPECT_TRUE(unmet);
  // The plan's merged runbook: every state names its operation, and every need is met.
  const auto real = plan_runbooks(p.model, p.result, builtin_catalog()).at(0);
  ASSERT_EQ(real.kind, "calico-ippool-swap+service-cidr-api");
  made.clear();
  for (const auto& s : real.steps) {
    for (const auto* states : {&s.needs, &s.makes}) {
      for (const auto& state : *states) {
        EXPECT_TRUE(state.starts_with("calico-ippool-swap/") || state.starts_with("service-cidr-api/")) << state;
      }
    }
    for (const auto& n : s.needs) EXPECT_TRUE(made.count(n)) << n;
    made.insert(s.makes.begin(), s.makes.end());
  }
}

// Was: on 1.33, where the API needs no runtime-config, the check that the API is
// served split the gate's edit from the certificate's, and kops rolled 5 times
// where 1.29 rolls 4; the certificate's edit now comes before the check.
TEST(RunbookApply, TheServiceCidrChecksNeverSplitARunOfEdits) {
  for (const char* minor : {"1.29", "1.31", "1.33", "1.34"}) {
    auto p = run(std::string("clusters:\n  - {name: k, distribution: kops, kubernetes: \"") + minor +
                 "\", cni: calico, network: 172.20.0.0/16}\nnetworks:\n  - {name: peer, type: peer, cidrs: [100.64.0.0/16]}\n"
                 "connections:\n  - {between: [k, peer], via: vpn}\n");
    auto books = own_runbooks(p);
    ASSERT_EQ(books.size(), 1U) << minor;
    EXPECT_EQ(books[0].kind, "service-cidr-api") << minor;
    EXPECT_EQ(applies_of(books[0]), 4U) << minor;
  }
}

TEST(RunbookApply, AStaticPodClusterHasNoApplyStep) {
  auto p = run(two_kubeadm);
  ASSERT_FALSE(p.result.operations.empty());
  auto books = plan_runbooks(p.model, p.result, builtin_catalog());
  for (const auto& book : books) {
    for (const auto& s : book.steps) EXPECT_FALSE(std::holds_alternative<apply_configuration>(s.action));
  }
}

TEST(RunbookTable, EveryCatalogOperationHasExactlyOneRowAndEveryRowNamesOne) {
  auto kinds = catalog_kinds();
  auto rows = runbook_rows();
  EXPECT_EQ(runbook_table_problems(kinds, rows), std::vector<std::string>{});
  EXPECT_EQ(rows.size(), kinds.size());
}

TEST(RunbookTable, TheCheckFailsOnAMissingRow) {
  auto kinds = catalog_kinds();
  std::vector<std::string_view> rows(runbook_rows().begin(), runbook_rows().end());
  rows.erase(rows.begin());
  auto problems = runbook_table_problems(kinds, rows);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "operation " + kinds.front() + " of the catalog has no runbook row");
}

TEST(RunbookTable, TheCheckFailsOnAnExtraOrRepeatedRow) {
  auto kinds = catalog_kinds();
  std::vector<std::string_view> rows(runbook_rows().begin(), runbook_rows().end());
  rows.push_back("weave-ipalloc-swap");
  rows.push_back(rows.front());
  auto problems = runbook_table_problems(kinds, rows);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0], "operation " + kinds.front() + " has 2 runbook rows");
  EXPECT_EQ(problems[1], "runbook row weave-ipalloc-swap names no operation of the catalog");
}

TEST(RunbookTable, AKindWithoutARowIsADefectNotAGuess) {
  auto p = run(two_kubeadm);
  ASSERT_FALSE(p.result.operations.empty());
  p.result.operations.front().kind = "no-such-kind";
  EXPECT_THROW((void)plan_runbooks(p.model, p.result, builtin_catalog()), error);
}

// --- files ----------------------------------------------------------------------

// Issue 28 item 17: a 301-byte owner name made a folder name over NAME_MAX.
TEST(RunbookFiles, FolderNamesStayShortAndUniqueForLongNames) {
  const std::string a(301, 'a'), b = std::string(300, 'a') + "b";
  auto p = run("clusters:\n"
               "  - {name: " + a + ", distribution: kubeadm, kubernetes: \"1.33\", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}\n"
               "  - {name: " + b + ", distribution: kubeadm, kubernetes: \"1.33\", network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}\n"
               "  - {name: c, distribution: kubeadm, kubernetes: \"1.33\", network: 10.5.0.0/16, pods: 10.6.0.0/16, services: 10.96.0.0/16}\n"
               "connections:\n  - {between: [" + a + ", " + b + ", c], routes: [services]}\n");
  std::set<std::string> folders;
  for (const auto& file : runbook_files(p.model, p.result, builtin_catalog())) {
    auto folder = file.path.substr(0, file.path.find('/'));
    EXPECT_LE(folder.size(), 100u) << folder;
    folders.insert(folder);
  }
  EXPECT_GE(folders.size(), 2u);
  std::set<std::string> owners_seen;
  for (const auto& folder : folders) owners_seen.insert(folder.substr(folder.find('-', 3) + 1));
  EXPECT_EQ(owners_seen.size(), folders.size());  // the cut names stay apart
}

// Issue 28 item 13: one operation moving two pod ranges of one cluster wrote one file name twice.
TEST(RunbookFiles, OneFilePerNamePerFolderWhenAnOperationMovesTwoRanges) {
  auto p = run(R"(
clusters:
  - {name: a, distribution: kubeadm, kubernetes: "1.33", network: 10.1.0.0/16,
     pods: [10.20.0.0/16, "fd00:20::/56"], services: [10.96.0.0/16, "fd00:96::/112"]}
  - {name: b, distribution: kubeadm, kubernetes: "1.33", network: 10.3.0.0/16,
     pods: [10.20.0.0/16, "fd00:20::/56"], services: [10.97.0.0/16, "fd00:97::/112"]}
connections:
  - {between: [a, b], routes: [pods]}
)");
  bool two = false;
  for (const auto& op : p.result.operations) two = two || op.changes.size() >= 2;
  EXPECT_TRUE(two) << "the fixture must move two ranges in one operation";
  std::set<std::string> paths;
  for (const auto& file : runbook_files(p.model, p.result, builtin_catalog())) {
    EXPECT_TRUE(paths.insert(file.path).second) << file.path;
  }
}

// A file exists only as the rendering of a step that applies it (item 3).
TEST(RunbookFiles, EveryFileIsAppliedByExactlyTheStepItsHeaderNames) {
  for (std::string_view yaml : {two_kubeadm}) {
    auto p = run(yaml);
    auto files = runbook_files(p.model, p.result, builtin_catalog());
    auto runbooks = plan_runbooks(p.model, p.result, builtin_catalog());
    auto planned = apply_plan(p.model, p.result);
    std::size_t n = 0;
    for (const auto& r : runbooks) {
      ++n;
      auto steps = render_steps(planned, r, builtin_catalog());
      for (std::size_t k = 0; k < steps.size(); ++k) {
        for (const auto& name : steps[k].files) {
          auto it = std::find_if(files.begin(), files.end(), [&](const runbook_file& f) { return f.path.ends_with("/" + name); });
          ASSERT_NE(it, files.end()) << name;
          EXPECT_NE(it->text.find(", step " + std::to_string(k + 1) + " of runbook.md applies this file"), std::string::npos)
              << name;
          EXPECT_EQ(name.substr(0, 3), (k + 1 < 10 ? "0" : "") + std::to_string(k + 1) + "-") << name;
        }
      }
    }
    EXPECT_EQ(n, p.result.operations.size());
  }
}

// The edits one apply takes effect with write one file: a kops cluster spec per
// roll, named by the run's first edit, which every edit of the run names and
// whose header names them all; its CIDR fields are strings, as kops' ClusterSpec has them.
TEST(RunbookFiles, OneClusterSpecFilePerApplyNamedByItsFirstEdit) {
  auto p = run(kops_calico_on_a_tailnet);
  auto files = runbook_files(p.model, p.result, builtin_catalog());
  auto books = plan_runbooks(p.model, p.result, builtin_catalog());
  auto planned = apply_plan(p.model, p.result);
  const auto& book = books.front();
  auto steps = render_steps(planned, book, builtin_catalog());
  std::vector<std::string> specs;  // the cluster-spec files, in order
  for (const auto& f : files) {
    if (f.path.ends_with("cluster-spec.yaml")) specs.push_back(f.path.substr(f.path.find('/') + 1));
  }
  EXPECT_EQ(specs.size(), applies_of(book));
  for (std::size_t k = 0, run_start = 0; k < book.steps.size(); ++k) {
    if (std::holds_alternative<apply_configuration>(book.steps[k].action)) {
      ASSERT_GT(k, run_start);
      const std::string name = (run_start + 1 < 10 ? "0" : "") + std::to_string(run_start + 1) + "-cluster-spec.yaml";
      EXPECT_NE(std::find(specs.begin(), specs.end(), name), specs.end()) << name;
      auto file = std::find_if(files.begin(), files.end(), [&](const runbook_file& f) { return f.path.ends_with("/" + name); });
      ASSERT_NE(file, files.end());
      for (auto j = run_start; j < k; ++j) {
        EXPECT_EQ(steps[j].files, std::vector<std::string>{name}) << "step " << j + 1;
        EXPECT_NE(file->text.find(std::to_string(j + 1)), std::string::npos) << "step " << j + 1;
      }
      if (k - run_start > 1) {
        EXPECT_NE(file->text.find(" of runbook.md apply this file"), std::string::npos);
      }
      for (const std::string key : {"nonMasqueradeCIDR", "podCIDR", "serviceClusterIPRange", "networkCIDR"}) {
        EXPECT_EQ(file->text.find(key + ":\n"), std::string::npos) << key << " is no scalar\n" << file->text;
      }
      run_start = k + 1;
      continue;
    }
    const auto* d = builtin_catalog().profile_of(p.model.owners.front()).distribution;
    if (!d->edit_waits_for_apply(book.steps[k].action)) run_start = k + 1;
  }
  // The second apply's file holds both ranges' settings, as the kops story changed them in one roll.
  auto second = std::find_if(files.begin(), files.end(), [&](const runbook_file& f) { return f.path.ends_with("/16-cluster-spec.yaml"); });
  ASSERT_NE(second, files.end());
  for (const auto* key : {"podCIDR: \"10.64.0.0/11\"", "nonMasqueradeCIDR: \"10.0.0.0/9\"", "serviceClusterIPRange: \"10.8.0.0/13\"",
                          "allocateNodeCIDRs: false"}) {
    EXPECT_NE(second->text.find(key), std::string::npos) << key << "\n" << second->text;
  }
}

// Issue 28 item 2: a legal name such as `a;touch X;$(touch Y)` ran commands from
// gcloud.sh and runbook.md. Every command line is one simple command, names quoted.
TEST(RunbookFiles, NamesNeverRunAsCommands) {
  auto p = run(R"yaml(
clusters:
  - {name: "a;touch X;$(touch Y)", distribution: gke, kubernetes: "1.33", network: 10.1.0.0/16, pods: 10.2.0.0/16,
     services: 34.118.224.0/20, nodes: 100}
  - {name: "b`id`", distribution: aks, kubernetes: "1.33", network: 10.3.0.0/16, pods: 10.2.0.0/16, services: 10.0.0.0/16}
  - {name: "c'$HOME", distribution: kops, kubernetes: "1.33", network: 172.20.0.0/16, services: 100.64.0.0/13,
     pods: 10.2.0.0/16, cni: calico}
connections:
  - {between: ["a;touch X;$(touch Y)", "b`id`", "c'$HOME"], routes: [pods]}
)yaml");
  auto planned = apply_plan(p.model, p.result);
  std::size_t commands = 0;
  for (const auto& r : plan_runbooks(p.model, p.result, builtin_catalog())) {
    for (const auto& s : render_steps(planned, r, builtin_catalog())) {
      for (const auto& c : s.commands) {
        ++commands;
        EXPECT_EQ(detail::shell_line_problem(c), std::nullopt) << c;
      }
    }
  }
  EXPECT_GT(commands, 0u);
  for (const auto& file : runbook_files(p.model, p.result, builtin_catalog())) {
    if (!file.path.ends_with(".sh")) continue;
    std::istringstream lines(file.text);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] == '#') continue;
      EXPECT_EQ(detail::shell_line_problem(line), std::nullopt) << file.path << ": " << line;
    }
  }
}

}  // namespace
}  // namespace cidrcheck
