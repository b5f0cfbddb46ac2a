// Runbooks that move or create a network (a VPC, a VPC network, a virtual
// network, a subnet on premises), one shared by several clusters, or that
// replace a whole cluster. The words follow the network's cloud, which the
// fleet tells by the cluster's distribution or the network's type; where it
// cannot be told, the text says "network (VPC, VNet or subnet)".

#include "migration.hpp"

#include <optional>
#include <string>

namespace cidrcheck::detail {

namespace {

enum class cloud { aws, gcp, azure, onprem, unknown };

auto cloud_of(const owner& o) -> cloud {
  const auto& t = o.type;
  if (t == "eks" || t == "aws-default-vpc" || t == "aws-vpc") return cloud::aws;
  if (t == "gke" || t == "gcp-vpc") return cloud::gcp;
  if (t == "aks" || t == "vnet" || t == "azure-vnet") return cloud::azure;
  if (t == "onprem") return cloud::onprem;
  return cloud::unknown;
}

// The cloud of an operation's owners: the first one that tells it.
auto cloud_of(const fleet& planned, const std::vector<std::uint32_t>& owners) -> cloud {
  for (auto k : owners) {
    if (auto c = cloud_of(planned.owners[k]); c != cloud::unknown) return c;
  }
  return cloud::unknown;
}

struct platform_words {
  std::string network;   // "VPC", "VPC network", ...
  std::string peering;   // how two networks are joined
  std::string fact;      // the fact behind the words
};

auto words_of(cloud c) -> platform_words {
  switch (c) {
    case cloud::aws: return {"VPC", "VPC peering (both route tables, both security groups)", "aws-peering"};
    case cloud::gcp: return {"VPC network", "VPC Network Peering (not transitive)", "gcp-words"};
    case cloud::azure: return {"virtual network (VNet)", "VNet peering", "azure-words"};
    case cloud::onprem: return {"subnet", "routes between the two subnets on the routers", ""};
    case cloud::unknown: break;
  }
  return {"network (VPC, VNet or subnet)", "peering or routes between the two networks", ""};
}

// The Terraform that creates the new network, in the cloud's own resources.
auto network_terraform(cloud c, const std::string& name, const std::string& cidr) -> std::string {
  switch (c) {
    case cloud::aws:
      return "resource \"aws_vpc\" \"" + name + "\" {\n  cidr_block = \"" + cidr + "\"\n}\n";
    case cloud::gcp:
      return "resource \"google_compute_network\" \"" + name + "\" {\n  name                    = \"" + name +
             "\"\n  auto_create_subnetworks = false\n}\n\nresource \"google_compute_subnetwork\" \"" + name +
             "\" {\n  name          = \"" + name + "\"\n  network       = google_compute_network." + name +
             ".id\n  region        = var.region\n  ip_cidr_range = \"" + cidr + "\"\n}\n";
    case cloud::azure:
      return "resource \"azurerm_virtual_network\" \"" + name + "\" {\n  name                = \"" + name +
             "\"\n  location            = var.location\n  resource_group_name = var.resource_group_name\n"
             "  address_space       = [\"" + cidr + "\"]\n}\n";
    case cloud::onprem:
    case cloud::unknown: break;
  }
  return "";
}

auto tf_name(const std::string& owner_name) -> std::string {
  std::string out;
  for (char ch : owner_name) {
    bool keep = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a'), keep = true;
    out += keep ? ch : '-';
  }
  if (out.empty() || !(out[0] >= 'a' && out[0] <= 'z')) out = "n-" + out;
  return out;
}

// Adds fact id to step s unless it is empty or already cited.
void cite(migration_step& s, std::string_view id) {
  if (id.empty()) return;
  for (const auto& f : s.facts) {
    if (f.id == id) return;
  }
  s.facts.push_back(migration_fact_by_id(id));
}

auto terraform_fact(cloud c) -> std::string_view {
  switch (c) {
    case cloud::aws: return "tf-aws-secondary";
    case cloud::gcp: return "gcp-secondary-range";
    case cloud::azure: return "azure-address-space";
    case cloud::onprem:
    case cloud::unknown: break;
  }
  return "";
}

// Creates the new network (with its Terraform where the cloud is known) and
// joins it to the old one: states "new-network-created", "networks-peered".
void new_network_steps(cloud c, const std::string& name, const std::string& from, const std::string& to,
                       const std::string& subnets_for, runbook_builder& out) {
  auto w = words_of(c);
  auto& s = out.step("create the new " + w.network + " " + to + " with subnets for " + subnets_for +
                         (c == cloud::onprem || c == cloud::unknown ? std::string()
                                                                    : " (terraform-network.tf)"),
                     {"adobe-order"});
  cite(s, terraform_fact(c));
  s.makes = {"new-network-created"};
  if (c != cloud::onprem && c != cloud::unknown) {
    out.file("terraform-network.tf", [&] { return network_terraform(c, tf_name(name) + "-new", to); });
  }
  auto& p = out.step("join the old " + w.network + " " + from + " and the new one with " + w.peering +
                         ", so that old and new nodes reach each other during the move; their ranges must not "
                         "overlap, and shared resources (security groups, firewall rules, DNS) must exist in both",
                     {"adobe-order"});
  cite(p, w.fact);
  p.needs = {"new-network-created"};
  p.makes = {"networks-peered"};
}

// An AWS, GCP or Azure network can often grow in place instead: said before the new network.
void in_place_note(cloud c, const std::string& from, const std::string& to, runbook_builder& out) {
  if (c == cloud::aws) {
    out.step("if " + from + " is a secondary CIDR block of the VPC (not its primary), the VPC can stay: associate " +
                 to + " as another secondary block, create subnets in it, move the node groups there, then delete "
                 "the old subnets and disassociate " + from + "; the primary CIDR cannot be removed, so when " + from +
                 " is the primary follow the steps below (unverified: vpc-secondary-limits)",
             {"vpc-secondary", "vpc-secondary-limits", "tf-aws-secondary"});
  } else if (c == cloud::azure) {
    out.step("unverified: a virtual network's address space is a list of blocks, so " + to + " may be added to the "
             "same VNet instead of a new one; whether a peered VNet's address space can change in place was not read",
             {"azure-address-space"});
  } else if (c == cloud::gcp) {
    out.step("a VPC network holds many subnets, each with its own primary range: " + to + " can be a new subnet of "
             "the same VPC network when nothing else in the network overlaps it",
             {"gcp-words", "gcp-secondary-range"});
  }
}

// The last step of a network move: the old network deleted once nothing holds an address in it.
void retire_network(cloud c, const std::string& from, std::vector<std::string> needs, runbook_builder& out) {
  auto w = words_of(c);
  std::string check = c == cloud::aws   ? "`aws ec2 describe-network-interfaces --filters Name=vpc-id,Values=OLD_VPC_ID` "
                                          "returns none"
                      : c == cloud::gcp ? "`gcloud compute instances list --filter=networkInterfaces.network:OLD_NETWORK` "
                                          "returns none"
                      : c == cloud::azure ? "`az network vnet show -g RESOURCE_GROUP -n OLD_VNET --query subnets[].ipConfigurations` "
                                            "lists none"
                                          : "no host, route or DHCP lease is left in " + from;
  auto& s = out.step("retire " + from + ": verify that `kubectl get nodes -o wide` lists no InternalIP in " + from +
                         " and that " + check + "; then remove the " + (c == cloud::onprem ? "routes" : "peering") +
                         ", update every route, VPN and firewall rule that carried " + from + ", and delete the old " +
                         w.network,
                     {"adobe-order"});
  s.needs = std::move(needs);
  s.makes = {"old-range-unused"};
}

// A cluster that cannot change its network (EKS, GKE, AKS; kops, bound to its
// VPC) moves by a replacement cluster: states up to "old-range-unused".
void replacement_steps(const fleet& planned, const owner& o, cloud c, const std::string& ranges, bool network_move,
                       runbook_builder& out) {
  auto w = words_of(c);
  std::string why = o.type == "kops" ? o.name + " is a kops cluster, bound to its VPC: kops refuses to change a VPC's "
                                       "CIDR or a subnet's VPC, so neither it nor its control plane moves to another "
                                       "network"
                    : is_managed(o.type) ? o.name + " (" + o.type + ") keeps the network and ranges it was created with"
                    : o.type == "openshift"
                        ? o.name + " is an OpenShift cluster: its service network cannot change and its cluster network "
                                   "can only be expanded to a larger block holding the old one, never moved"
                        : o.name + " changes every range at once";
  auto& b = out.step(why + ": build a replacement cluster beside it" +
                         (network_move ? " in the new " + w.network : std::string()) + " with " + ranges +
                         (o.type == "kops" ? " (kops-cluster-spec.yaml)" : std::string()),
                     {"replace-managed"});
  if (o.type == "kops") b.facts.push_back(migration_fact_by_id("kops-vpc-bound"));
  if (o.type == "eks") b.facts.push_back(migration_fact_by_id("eks-vpc-bound"));
  if (o.type == "openshift") {
    b.facts.push_back(migration_fact_by_id("ocp-svc-fixed"));
    b.facts.push_back(migration_fact_by_id("ocp-clusternet-expand"));
  }
  if (network_move) b.needs = {"networks-peered"};
  b.makes = {"replacement-built"};
  if (o.type == "kops") {
    out.file("kops-cluster-spec.yaml", [&] {
      std::string spec = "# fields of the replacement's cluster spec (kops create cluster, then kops edit cluster)\nspec:\n";
      for (auto k : o.ranges) {
        const auto& r = planned.ranges[k];
        if (r.cidr.version() != ip_version::v4) continue;
        if (r.role == range_role::network) spec += "  networkCIDR: " + r.cidr.to_string() + "\n";
        if (r.role == range_role::pods) spec += "  podCIDR: " + r.cidr.to_string() + "\n";
        if (r.role == range_role::services) spec += "  serviceClusterIPRange: " + r.cidr.to_string() + "\n";
      }
      std::optional<prefix> pods;
      for (auto k : o.ranges) {
        if (planned.ranges[k].role == range_role::pods && planned.ranges[k].cidr.version() == ip_version::v4) {
          pods = planned.ranges[k].cidr;
        }
      }
      auto mask = pods ? kops_non_masquerade(planned, o, *pods) : std::nullopt;
      return spec + (mask ? "  nonMasqueradeCIDR: " + mask->to_string() + "\n"
                          : "  # nonMasqueradeCIDR: a block holding podCIDR that avoids networkCIDR\n");
    });
  }
  // EKS on IPv6 chooses the service range itself and takes pod addresses from
  // the subnets (eks-ipv6-assigned): the plan's IPv6 ranges are placeholders.
  std::string assigned;
  if (o.type == "eks") {
    for (auto k : o.ranges) {
      const auto& r = planned.ranges[k];
      if (r.cidr.version() == ip_version::v6 && (r.role == range_role::services || r.role == range_role::pods)) {
        assigned += std::string(assigned.empty() ? "" : ", ") + std::string(to_string(r.role)) + " " +
                    r.cidr.to_string();
      }
    }
  }
  if (!assigned.empty()) {
    auto& a = out.step("read the IPv6 ranges EKS gave the replacement: it picks an IPv6 cluster's service range "
                       "itself, inside fc00::/7, and pods take the subnets' IPv6 addresses, so the plan's " + assigned +
                       " only stood in for them while the plan was checked. `aws eks describe-cluster --name NAME "
                       "--query cluster.kubernetesNetworkConfig.serviceIpv6Cidr` shows the service range; put it, "
                       "and the subnets' IPv6 blocks as pod ranges, in the fleet file and run `cidrcheck check` "
                       "before any traffic moves",
                       {"eks-ipv6-assigned"});
    a.needs = {"replacement-built"};
    a.makes = {"replacement-ranges-checked"};
  }
  auto& j = out.step("connect the replacement wherever " + o.name + " is connected (" + w.peering + ", VPNs, "
                     "firewall rules), deploy every workload to it, and move traffic over service by service (DNS "
                     "records, load balancers: a load balancer's targets stay in one network)",
                     {"adobe-order", "blend-mirror"});
  cite(j, w.fact);
  j.needs = {"replacement-built"};
  if (!assigned.empty()) j.needs.push_back("replacement-ranges-checked");
  j.makes = {"traffic-on-replacement"};
}

}  // namespace

void network_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  const std::string from = c.from.to_string(), to = c.to.to_string();
  const cloud cl = cloud_of(o);
  if (o.kind == owner_kind::network) {
    auto w = words_of(cl);
    auto& a = out.step("add " + to + " to network " + o.name + " beside " + from + " (a second " + w.network +
                       " range, or new subnets) and route it wherever " + from + " is routed");
    cite(a, w.fact);
    a.makes = {"new-range-routed"};
    auto& m = out.step("renumber the hosts of " + o.name + " into " + to + " group by group (DHCP scopes, static "
                       "addresses, VPN address pools), keeping " + from + " routed until the last host has moved");
    m.needs = {"new-range-routed"};
    m.makes = {"hosts-on-new-range"};
    retire_network(cl, from, {"hosts-on-new-range"}, out);
    return;
  }
  if (is_managed(o.type) || o.type == "kops") {
    replacement_steps(planned, o, cl, "network " + to, false, out);
    retire_network(cl, from, {"traffic-on-replacement"}, out);
    return;
  }
  in_place_note(cl, from, to, out);
  new_network_steps(cl, o.name, from, to, o.name + "'s nodes", out);
  auto& n = out.step("create new node groups in the new subnets and spread the cluster's shared resources (load "
                     "balancer target groups, security groups) to both networks",
                     {"adobe-order"});
  n.needs = {"networks-peered"};
  n.makes = {"new-nodes-in-new-network"};
  auto& t = out.step("send traffic to both old and new nodes, then only to the new ones; cordon and drain the old "
                     "workers one group at a time",
                     {"adobe-order"});
  t.needs = {"new-nodes-in-new-network"};
  t.makes = {"workers-in-new-network"};
  auto& cp = out.step("move the control plane one member at a time, keeping etcd quorum: add a member in the new "
                      "network, then remove an old one (the Adobe story, in a lab)",
                      {"adobe-order"});
  cp.needs = {"workers-in-new-network"};
  cp.makes = {"control-plane-in-new-network"};
  retire_network(cl, from, {"control-plane-in-new-network"}, out);
}

void network_creation_runbook(const fleet& planned, const owner& o, const plan_change& c, runbook_builder& out) {
  (void)planned;
  const std::string to = c.to.to_string();
  const cloud cl = cloud_of(o);
  if (c.role == range_role::external) {
    out.step("number network " + o.name + " from " + to);
    return;
  }
  out.step("build " + o.name + "'s " + words_of(cl).network + " in " + to + " with its node subnets" +
               (cl == cloud::onprem || cl == cloud::unknown ? std::string() : " (terraform-network.tf)"),
           {});
  cite(out.steps().back(), terraform_fact(cl));
  if (cl != cloud::onprem && cl != cloud::unknown) {
    out.file("terraform-network.tf", [&] { return network_terraform(cl, tf_name(o.name), to); });
  }
}

void shared_network_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                            runbook_builder& out) {
  const owner& v = planned.owners[op.owners.front()];
  const cloud cl = cloud_of(planned, op.owners);
  std::string from, to;
  for (auto k : op.changes) {
    if (changes[k].owner == op.owners.front()) from = changes[k].from.to_string(), to = changes[k].to.to_string();
  }
  if (to.empty()) to = ranges_text(planned, op.owners.front(), op, changes);
  new_network_steps(cl, v.name, from.empty() ? "in use" : from, to, "every cluster in it", out);
  std::vector<std::string> moved;
  for (std::size_t k = 1; k < op.owners.size(); ++k) {
    const owner& o = planned.owners[op.owners[k]];
    std::string moves = ranges_text(planned, op.owners[k], op, changes);
    std::string state = "moved-" + std::to_string(k);
    if (is_managed(o.type) || o.type == "kops") {
      replacement_steps(planned, o, cl, moves, true, out);
      auto& r = out.step("retire " + o.name + " once nothing reaches it");
      r.needs = {"traffic-on-replacement"};
      r.makes = {state};
    } else {
      auto& s = out.step(o.name + ": create node groups in the new subnets (" + moves + "), drain the old nodes one "
                         "group at a time, then move the control plane one member at a time, keeping etcd quorum",
                         {"adobe-order"});
      s.needs = {"networks-peered"};
      s.makes = {state};
    }
    moved.push_back(state);
  }
  retire_network(cl, from.empty() ? "the old range" : from, moved.empty() ? std::vector<std::string>{"networks-peered"} : moved,
                 out);
}

void replacement_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                         runbook_builder& out) {
  const owner& o = planned.owners[op.owners.front()];
  const cloud cl = cloud_of(o);
  replacement_steps(planned, o, cl, "every range new (" + ranges_text(planned, op.owners.front(), op, changes) + ")",
                    false, out);
  auto& r = out.step("retire " + o.name + ": verify that its load balancers and DNS records receive no traffic and "
                     "`kubectl get pods -A -o wide` on it shows only system pods; then delete it, which frees its "
                     "old ranges",
                     {"blend-mirror"});
  r.needs = {"traffic-on-replacement"};
  r.makes = {"old-range-unused"};
}

}  // namespace cidrcheck::detail
