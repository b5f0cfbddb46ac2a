#pragma once
// The steps of a live migration for one planned change, specific to the role,
// the distribution, the CNI and the Kubernetes version. Each step names the
// facts it relies on, with their sources (docs/planning.md lists them all).

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>

#include <vector>

namespace cidrcheck::detail {

/// Returns the steps for change, where planned is the fleet with the whole plan
/// applied (steps may depend on where the cluster's other ranges end up).
auto migration_steps(const fleet& planned, const plan_change& change) -> std::vector<migration_step>;

/// Returns the steps of operation op (whose changes index into changes): a
/// replacement cluster's and a shared VPC's own runbook, pod space added, or
/// for an in-place move the steps of its change.
auto operation_steps(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes)
    -> std::vector<migration_step>;

}  // namespace cidrcheck::detail
