// The plan text's simulation verdicts (cli/report/plan.cpp): every fleet of the
// goldens passes the simulator, so no golden shows a failed runbook; here a
// plan's verdicts are set by hand and the text must flag the failure in its
// header and under the runbook, with each failure on a line of its own.

#include "report/report.hpp"

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/fleet/simulator.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cidrcheck::cli {
namespace {

constexpr std::string_view fleet_text =
    "networks:\n"
    "  - {name: office, type: office, cidrs: [10.244.0.0/16]}\n"
    "clusters:\n"
    "  - {name: lab, distribution: kubeadm, kubernetes: \"1.30\", cni: flannel, nodes: 4, network: 10.70.0.0/16, "
    "pods: 10.244.0.0/16, services: 10.96.0.0/12}\n"
    "connections:\n"
    "  - [lab, office]\n";

struct rendered_plan {
  fleet model;
  plan_result plan;

  rendered_plan() {
    fleet_loader loader(builtin_catalog());
    loader.add_text(fleet_text, "t.yaml");
    auto loaded = loader.finish();
    EXPECT_TRUE(loaded.ok());
    model = std::move(loaded.value);
    plan = cidrcheck::plan(model, builtin_catalog());
  }

  auto text() const -> std::string {
    char* data = nullptr;
    std::size_t size = 0;
    std::FILE* stream = open_memstream(&data, &size);
    {
      output out(stream);
      std::vector<std::string> files;
      write_plan_text(out, plan_report{model, plan, files});
    }
    std::fclose(stream);
    std::string out(data, size);
    std::free(data);
    return out;
  }
};

TEST(PlanText, APassedRunbookSaysSoUnderItsHeading) {
  rendered_plan p;
  ASSERT_EQ(p.plan.operations.size(), 1u);
  p.plan.operations[0].simulation = simulation_result{9, {}, {}};
  const auto text = p.text();
  EXPECT_NE(text.find("  simulation passed: 9 of 9 steps simulated\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("FAILED"), std::string::npos) << text;
}

TEST(PlanText, AFailedRunbookIsFlaggedInTheHeaderAndUnderItsHeading) {
  rendered_plan p;
  ASSERT_EQ(p.plan.operations.size(), 1u);
  simulation_result failed{9, {}, {}};
  failed.failures.push_back({1, simulation_check::control_plane, simulation_rule::kcm_refuses,
                             "kube-controller-manager does not start"});
  failed.failures.push_back({9, simulation_check::end_state, std::nullopt, "lab ends using nothing"});
  p.plan.operations[0].simulation = failed;
  const auto text = p.text();
  EXPECT_NE(text.find("\n1 runbook FAILED the migration simulation: do not follow it as written (see Steps).\n"),
            std::string::npos)
      << text;
  const auto verdict = "  simulation FAILED: 2 failures, the first at step 2; DO NOT FOLLOW AS WRITTEN:\n    " +
                       to_string(failed.failures[0], 9) + "\n    " + to_string(failed.failures[1], 9) + "\n";
  EXPECT_NE(text.find(verdict), std::string::npos) << text;
}

}  // namespace
}  // namespace cidrcheck::cli
