// Every runbook cidrcheck emits passes the simulator (issue 24 item 4): the
// runbooks of every golden fleet (tests/fixtures/fleets/runbook and routes), of every
// cookbook fleet (data/examples), and of a random sample of two-cluster fleets
// over every distribution x CNI and IPAM mode x Kubernetes minor x shared
// range of the catalog. A failing runbook is printed with its failures, so
// this file is also how the simulator tells the runbook rows what is wrong.
// A second matrix moves two ranges of one cluster, which reaches the runbooks
// merged into one maintenance.
//
// All pass: the list of known failures this file kept while issue 24 was open
// emptied (its last entries were the planner's kcm-node-ipam choice for pods
// that take network addresses and EKS's missing default CNI), and it went with
// its guard, so any failure now fails the test.

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

// What one fleet's runbooks came to: the kinds simulated, and the failures as
// text and as their signature ("KIND CHECK RULE").
struct outcome {
  std::vector<std::string> kinds;
  std::vector<std::string> failures;
  std::vector<std::string> signatures;
};

auto simulate_fleet(const fleet& f) -> outcome {
  const auto& cat = builtin_catalog();
  auto p = plan(f, cat);
  auto planned = apply_plan(f, p);
  auto books = plan_runbooks(f, p, cat);
  simulation_context context;
  context.original = &f;
  context.planned = &planned;
  context.catalog = &cat;
  auto results = simulate_runbooks(context, books);
  outcome out;
  for (std::size_t k = 0; k < books.size(); ++k) {
    out.kinds.push_back(books[k].kind);
    for (const auto& x : results[k].failures) {
      std::string owner = books[k].owners.empty() ? std::string("?") : f.owners[books[k].owners.front()].name;
      out.failures.push_back(books[k].kind + " of " + owner + ": " + to_string(x, results[k].steps));
      out.signatures.push_back(books[k].kind + " " + std::string(to_string(x.check)) + " " +
                               (x.rule ? std::string(info(*x.rule).name) : std::string("-")));
    }
  }
  return out;
}

auto load(const std::filesystem::path& path) -> fleet {
  fleet_loader loader(builtin_catalog());
  loader.add_file(path.string());
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << path;
  return std::move(loaded.value);
}

auto yaml_files(const std::filesystem::path& dir) -> std::vector<std::filesystem::path> {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".yaml") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The outcomes of a set of fleets, each with where it comes from.
using outcomes = std::vector<std::pair<std::string, outcome>>;

auto golden_outcomes() -> outcomes {
  outcomes out;
  // The runbook fixtures, and the route fixtures whose runbooks carry routes
  // declared by a network (the declaring network owns the step).
  for (const auto* dir : {"runbook", "routes"}) {
    for (const auto& path : yaml_files(std::filesystem::path(CIDRCHECK_FIXTURES) / "fleets" / dir)) {
      out.emplace_back(path.filename().string(), simulate_fleet(load(path)));
    }
  }
  return out;
}

auto cookbook_outcomes() -> outcomes {
  outcomes out;
  for (const auto& path : yaml_files(std::filesystem::path(CIDRCHECK_DATA) / "examples")) {
    out.emplace_back(path.filename().string(), simulate_fleet(load(path)));
  }
  return out;
}

// Adds a test failure for each failure, one per signature.
void expect_all_pass(const outcomes& all) {
  std::map<std::string, std::vector<std::string>> failed;  // per signature: where and what
  for (const auto& [where, result] : all) {
    for (std::size_t k = 0; k < result.failures.size(); ++k) {
      failed[result.signatures[k]].push_back(where + ": " + result.failures[k]);
    }
  }
  for (const auto& [signature, list] : failed) {
    ADD_FAILURE() << list.size() << " failures \"" << signature << "\", such as " << list.front();
  }
}

TEST(SimulatorProperty, EveryGoldenRunbookPasses) { expect_all_pass(golden_outcomes()); }

TEST(SimulatorProperty, EveryCookbookRunbookPasses) { expect_all_pass(cookbook_outcomes()); }

// One point of the matrix: a distribution, a CNI and IPAM mode (or none), a
// Kubernetes minor and the range two clusters share.
struct point {
  std::string distribution, cni, ipam;
  int minor = 0;
  range_role shared = range_role::services;
};

auto matrix() -> std::vector<point> {
  const auto& cat = builtin_catalog();
  std::vector<std::pair<std::string, std::string>> cnis{{"", ""}};
  for (const auto& c : cat.cnis) {
    for (const auto& m : c.modes) cnis.emplace_back(c.name, m.name);
  }
  std::set<int> minors;
  for (const auto& k : cat.kubernetes) {
    for (int m = std::max(k.from.minor, 20); m <= (k.to ? k.to->minor : k.from.minor); ++m) minors.insert(m);
  }
  std::vector<point> out;
  for (const auto& d : cat.distributions) {
    for (const auto& [cni, ipam] : cnis) {
      for (int minor : minors) {
        for (auto shared : {range_role::network, range_role::pods, range_role::services}) {
          out.push_back({d.name, cni, ipam, minor, shared});
        }
      }
    }
  }
  return out;
}

// Two clusters of point p whose shared range a connection carries, so that
// the plan moves one of them; with `and_services`, their service range too, so
// that one cluster may get two operations (and one maintenance).
auto matrix_fleet(const point& p, bool and_services = false) -> fleet {
  fleet_loader loader(builtin_catalog());
  std::string yaml = "clusters:\n";
  const char* own[2][3] = {{"10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"}, {"10.11.0.0/16", "10.12.0.0/16", "10.13.0.0/16"}};
  const char* shared[3] = {"10.50.0.0/16", "10.200.0.0/16", "10.96.0.0/16"};
  const char* keys[3] = {"network", "pods", "services"};
  for (int side = 0; side < 2; ++side) {
    yaml += std::string("  - {name: ") + (side ? "b" : "a") + ", distribution: " + p.distribution +
            ", kubernetes: \"1." + std::to_string(p.minor) + "\"";
    if (!p.cni.empty()) yaml += ", cni: " + p.cni + ", ipam: " + p.ipam;
    for (int r = 0; r < 3; ++r) {
      bool both = r == static_cast<int>(p.shared) || (and_services && r == static_cast<int>(range_role::services));
      yaml += std::string(", ") + keys[r] + ": " + (both ? shared[r] : own[side][r]);
    }
    yaml += "}\n";
  }
  yaml += std::string("connections:\n  - {between: [a, b], routes: [") + keys[static_cast<int>(p.shared)] +
          (and_services ? ", services" : "") + "]}\n";
  loader.add_text(yaml, "matrix.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << yaml;
  return std::move(loaded.value);
}

// A random sample of the matrix (CIDRCHECK_SIMULATOR_SAMPLE points, 400 by
// default; 0 for all of it; CIDRCHECK_SIMULATOR_SEED to draw another), so the
// test takes seconds while every run draws the same points.
auto matrix_outcomes(bool and_services = false) -> outcomes {
  auto all = matrix();
  if (and_services) {  // the pods and the services of two clusters collide at once
    std::erase_if(all, [](const point& p) { return p.shared != range_role::pods; });
  }
  std::size_t sample = 400;
  if (const char* n = std::getenv("CIDRCHECK_SIMULATOR_SAMPLE")) sample = std::strtoull(n, nullptr, 10);
  std::uint64_t seed = 24;
  if (const char* s = std::getenv("CIDRCHECK_SIMULATOR_SEED")) seed = std::strtoull(s, nullptr, 10);
  if (sample != 0 && sample < all.size()) {
    std::mt19937_64 rng(seed);
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(sample);
  }
  outcomes out;
  for (const auto& p : all) {
    std::string where = p.distribution + " " + (p.cni.empty() ? std::string("no CNI") : p.cni + "/" + p.ipam) +
                        " 1." + std::to_string(p.minor) + " " + std::string(to_string(p.shared));
    out.emplace_back(where, simulate_fleet(matrix_fleet(p, and_services)));
  }
  return out;
}

TEST(SimulatorProperty, EveryRunbookOfTheMatrixPasses) {
  auto all = matrix_outcomes();
  expect_all_pass(all);
  // The sample reaches every kind of runbook the planner offers these fleets.
  std::map<std::string, std::size_t> kinds;
  for (const auto& [where, result] : all) {
    for (const auto& k : result.kinds) ++kinds[k];
  }
  for (const auto& [kind, count] : kinds) RecordProperty(kind, static_cast<int>(count));
  EXPECT_GE(kinds.size(), 6u) << "too few operation kinds sampled";
}

// Operations on one cluster whose runbooks apply a spec separately are merged
// into one maintenance where the planner's simulation passes it; simulated
// again here, every runbook passes, the merged ones too, and the sample
// reaches some (kinds joined with '+').
TEST(SimulatorProperty, EveryRunbookOfTheMatrixPassesWhenPodsAndServicesMoveTogether) {
  auto all = matrix_outcomes(true);
  expect_all_pass(all);
  std::size_t merged = 0;
  for (const auto& [where, result] : all) {
    merged += static_cast<std::size_t>(std::count_if(result.kinds.begin(), result.kinds.end(), [](const std::string& k) {
      return k.find('+') != std::string::npos;
    }));
  }
  RecordProperty("merged runbooks", static_cast<int>(merged));
  EXPECT_GT(merged, 0u) << "no maintenance merged in the sample";
}

}  // namespace
}  // namespace cidrcheck
