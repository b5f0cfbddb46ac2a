// Runbooks that move or create a network (a VPC, a virtual network, a subnet on
// premises), one shared by several clusters, or that replace a whole cluster.

#include "migration.hpp"

#include <string>

namespace cidrcheck::detail {

void network_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  (void)planned;
  const std::string from = c.from.to_string(), to = c.to.to_string();
  if (o.kind == owner_kind::network) {
    out.step("renumber network " + o.name + " from " + from + " to " + to + " with its owners, then "
             "update every route and VPN that carries it");
    return;
  }
  out.step("create a new VPC (or virtual network) with CIDR " + to + " and its subnets", {"vpc-secondary"});
  out.step("peer the old VPC " + from + " with the new one and route both ways, so that old and new "
           "nodes reach each other during the move",
           {"aws-peering"});
  if (is_managed(o.type)) {
    // A managed cluster stays in the network it was created in: the move is a replacement cluster.
    std::string kind = o.type == "eks" ? "an EKS" : o.type == "aks" ? "an AKS" : "a GKE";
    auto& s = out.step(o.name + ", " + kind + " cluster, cannot move to another VPC: create a replacement cluster "
                       "in the new VPC with the same service and pod settings, and move workloads to it (blue/green)",
                       {"replace-managed"});
    if (o.type == "eks") s.facts.push_back(migration_fact_by_id("eks-vpc-bound"));
    out.step("move load balancers and external DNS to the new cluster, retire " + o.name +
             ", remove the peering, and delete the old VPC " + from);
    return;
  }
  out.step("create new node groups in the new VPC; cordon and drain the old nodes, one group at a time");
  out.step("move the control plane one member at a time (for self-managed etcd: add a member in the new "
           "VPC, then remove an old one), keeping quorum");
  out.step("move load balancers and external DNS to the new subnets, remove the peering, and delete the "
           "old VPC " + from);
}

void network_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  (void)planned;
  const std::string to = c.to.to_string();
  if (c.role == range_role::external) {
    out.step("number network " + o.name + " from " + to);
    return;
  }
  out.step("build " + o.name + "'s network in " + to + ": the VPC (or virtual network) CIDR and its "
           "node subnets, or the nodes' subnet on premises",
           {"vpc-secondary"});
}

void shared_network_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                            runbook_builder& out) {
  const owner& v = planned.owners[op.owners.front()];
  out.step("create the new VPC for " + v.name + " (" + ranges_text(planned, op.owners.front(), op, changes) +
               ") with subnets for every cluster in it",
           {"vpc-secondary"});
  out.step("peer the old VPC with the new one and route both ways, so that old and new nodes reach each "
           "other during the move",
           {"aws-peering"});
  for (std::size_t k = 1; k < op.owners.size(); ++k) {
    const owner& o = planned.owners[op.owners[k]];
    std::string moves = ranges_text(planned, op.owners[k], op, changes);
    if (is_managed(o.type) || o.type == "kops") {
      auto& s = out.step(o.name + " (" + o.type + ") cannot change its VPC: build its replacement in the new VPC (" +
                         moves + "), move workloads and traffic to it, retire " + o.name);
      if (o.type == "eks") s.facts.push_back(migration_fact_by_id("eks-vpc-bound"));
      if (o.type == "kops") s.facts.push_back(migration_fact_by_id("kops-vpc-bound"));
    } else {
      out.step(o.name + ": create node groups in the new subnets (" + moves + "), drain the old nodes one "
               "group at a time, then move the control plane one member at a time, keeping quorum");
    }
  }
  out.step("move load balancers and external DNS to the new subnets, remove the peering, and delete the old VPC");
}

void replacement_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                         runbook_builder& out) {
  const owner& o = planned.owners[op.owners.front()];
  auto& s = out.step("build a replacement for " + o.name + " beside it, with every range new (" +
                     ranges_text(planned, op.owners.front(), op, changes) + ")");
  if (is_managed(o.type) || o.type == "kops") s.facts.push_back(migration_fact_by_id("replace-managed"));
  if (o.type == "eks") s.facts.push_back(migration_fact_by_id("eks-vpc-bound"));
  out.step("connect the replacement where " + o.name + " is connected, deploy every workload to it, and "
           "move traffic over (DNS, load balancers), service by service");
  out.step("retire " + o.name + " once nothing reaches it; its old ranges are then free");
}

}  // namespace cidrcheck::detail
