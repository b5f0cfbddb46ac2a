// The rows that move a network (a cluster's VPC with every cluster in it, or a
// network owner's range) or replace a whole cluster, and the runbooks of
// changes outside any operation. Whether a cluster can move to another network
// in place, and the cloud's words and resources, are its profile's; every fact
// id is a row of docs/migration-facts.md, section 4.

#include "runbook_rows.hpp"

#include <algorithm>
#include <string>

namespace cidrcheck::detail {

namespace {

// Only a profile that says so rules out the in-place move: where the catalog
// does not know (an unknown distribution, such as the Adobe story's
// self-managed cluster), the runbook asks before the in-place steps.
auto cannot_move_network(const cluster_profile& p) -> bool {
  return p.distribution && p.distribution->moves_network.known && !p.distribution->moves_network.value;
}

// A cluster that cannot move to another network in place is rebuilt beside
// the old one (replace-managed, kops-vpc-bound, blend-mirror); states up to
// "traffic-on-replacement".
void replacement_steps(step_writer& w, const row_input& in, std::uint32_t k, std::vector<std::string> needs,
                       bool network_move) {
  const auto p = in.profile(k);
  const auto& o = in.owner_of(k);
  std::vector<prefix> ranges;
  for (auto role : {range_role::network, range_role::pods, range_role::services}) {
    for (const auto& r : ranges_of(in.planned, o, role)) ranges.push_back(r);
  }
  auto& build = w.add(k, resource(resource_kind::cluster, resource_action::create, ranges, std::nullopt,
                                         std::nullopt),
                      {"replace-managed", "blend-mirror"});
  if (p.distribution) {
    cite(build, p.distribution->moves_network);
    cite(build, p.distribution->managed);
    if (!p.distribution->pod_range_container.value.empty()) cite(build, "kops-spec-subnets");
  }
  if (p.ipam && p.ipam->addresses.value == address_source::network) cite(build, "eks-custom-pod-range");
  build.needs = std::move(needs);
  build.makes = {"replacement-built"};
  build.why = network_move ? "it cannot move to another network in place, so its replacement is built in the new one"
                           : "the old cluster keeps what it was created with";
  if (p.ipam && p.ipam->addresses.value == address_source::network) {
    build.why += "; pods take network addresses, so its pod range is a CIDR block associated with its VPC, with "
                 "subnets there for the pods (custom networking), never a range outside every block of the VPC";
  }
  std::string ready = "replacement-built";
  if (p.distribution && p.distribution->assigns_ipv6.known && p.distribution->assigns_ipv6.value) {
    std::vector<prefix> v6;
    for (const auto& r : ranges) {
      if (r.version() == ip_version::v6) v6.push_back(r);
    }
    if (!v6.empty()) {
      auto& read = w.add(k, find_out{"replacement.ipv6", "the IPv6 ranges the provider gave the replacement (it picks "
                                                         "an IPv6 cluster's service range and pod addresses itself, "
                                                         "so the plan's IPv6 ranges only stood in for them): put them in "
                                                         "the fleet file and run `cidrcheck check` before any traffic "
                                                         "moves"},
                         {"eks-ipv6-assigned"});
      cite(read, p.distribution->assigns_ipv6);
      read.needs = {"replacement-built"};
      read.makes = {"replacement-ranges-checked"};
      ready = "replacement-ranges-checked";
    }
  }
  auto& move = w.add(k, manual{"connect the replacement wherever the old cluster is connected (peering, VPNs, firewall "
                               "rules), deploy every workload to it, and move traffic over service by service (DNS "
                               "records, load balancers: a load balancer's targets stay in one network)"},
                     {"adobe-order", "blend-mirror"});
  move.needs = {ready};
  move.makes = {"traffic-on-replacement"};
}

// The old network gone once nothing holds an address in it.
void retire_network(step_writer& w, std::uint32_t k, const std::vector<prefix>& from, std::vector<std::string> needs) {
  auto& s = w.add(k, resource(resource_kind::network, resource_action::remove, from, std::nullopt, std::nullopt),
                  {"adobe-order", "route-order-all-kinds"});
  s.needs = std::move(needs);
  s.makes = {"old-range-unused"};
  s.why = "update every route, VPN and firewall rule that carried it first";
  s.checks.push_back({observable::node_addresses, expectation::none_in, from, {}, {}});
  s.checks.push_back({observable::network_interfaces, expectation::none_in, from, {}, {}});
}

}  // namespace

void new_vpc_row(const row_input& in, runbook& out) {
  step_writer w(out);
  const auto first = in.op.owners.front();
  std::vector<prefix> from, to;
  for (const auto* c : changes_of(in, first)) {
    if (!c->from.is_valid()) continue;
    from.push_back(c->from);
    to.push_back(c->to);
  }
  const auto cloud = in.cat.cloud_of(in.owner_of(first));
  if (cloud.known && cloud.value == cloud_kind::aws && in.op.owners.size() == 1) {
    auto& alt = w.add(first, manual{"if the old range is a secondary CIDR block of the VPC (not its primary), the VPC "
                                    "can stay: associate the new range as another secondary block, create subnets in "
                                    "it, move the node groups there, then delete the old subnets and disassociate the "
                                    "old block; the primary CIDR cannot be removed, so when the old range is the "
                                    "primary, follow the steps below"},
                      {"vpc-secondary", "vpc-secondary-limits", "tf-aws-secondary"});
    alt.makes = {"in-place-ruled-out"};
  }
  auto& create = w.add(first, resource(resource_kind::network, resource_action::create, to, std::nullopt,
                                              std::nullopt),
                       {"adobe-order"});
  if (!out.steps.front().makes.empty() && out.steps.size() > 1) create.needs = {"in-place-ruled-out"};
  create.makes = {"new-network-created"};
  auto& peer = w.add(first, resource(resource_kind::peering, resource_action::create, {}, std::nullopt,
                                            std::nullopt),
                     {"adobe-order", "aws-peering", "route-order-all-kinds"});
  std::get<change_resource>(peer.action).ranges = from;
  for (const auto& t : to) std::get<change_resource>(peer.action).ranges.push_back(t);
  peer.needs = {"new-network-created"};
  peer.makes = {"networks-peered"};
  peer.why = "old and new nodes reach each other during the move";
  std::vector<std::string> moved;
  for (std::size_t n = 0; n < in.op.owners.size(); ++n) {
    const auto k = in.op.owners[n];
    if (in.owner_of(k).kind != owner_kind::cluster) continue;
    const auto p = in.profile(k);
    const std::string state = "moved-" + std::to_string(n);
    if (cannot_move_network(p)) {
      replacement_steps(w, in, k, {"networks-peered"}, true);
      auto& r = w.add(k, resource(resource_kind::cluster, resource_action::remove, {}, std::nullopt, std::nullopt),
                      {"blend-mirror"});
      r.needs = {"traffic-on-replacement"};
      r.makes = {state};
      moved.push_back(state);
      continue;
    }
    std::string ready = "networks-peered";
    if (!p.distribution || !p.distribution->moves_network.known) {
      auto& ask = w.add(k, find_out{"distribution.moves_network",
                                    "whether this cluster can move to another network in place: its workers and "
                                    "control-plane nodes rebuilt in the new network while it runs, as the Adobe "
                                    "story's self-managed cluster was; where the distribution binds a cluster to its "
                                    "network (kops, managed clusters) it cannot, and a replacement cluster in the new "
                                    "network is the way instead"},
                        {"adobe-order", "kops-vpc-bound", "replace-managed"});
      if (p.distribution) cite(ask, p.distribution->moves_network);
      ask.needs = {"networks-peered"};
      ask.makes = {"in-place-move-possible-" + std::to_string(n)};
      ready = ask.makes.front();
    }
    auto& nodes = w.add(k, resource(resource_kind::node_pool, resource_action::create, to, std::nullopt,
                                           std::nullopt),
                        {"adobe-order"});
    if (p.distribution) cite(nodes, p.distribution->moves_network);
    nodes.needs = {ready};
    nodes.makes = {"new-nodes-" + std::to_string(n)};
    nodes.why = "spread the cluster's shared resources (load balancer target groups, security groups) to both networks";
    auto& traffic = w.add(k, manual{"send traffic to both old and new nodes, then only to the new ones; cordon and drain "
                                    "the old workers one group at a time"},
                          {"adobe-order"});
    traffic.needs = {"new-nodes-" + std::to_string(n)};
    traffic.makes = {"workers-moved-" + std::to_string(n)};
    auto& cp = w.add(k, manual{"move the control plane one member at a time, keeping etcd quorum: add a member in the "
                               "new network, then remove an old one (the Adobe story did this in a lab)"},
                     {"adobe-order"});
    cp.needs = {"workers-moved-" + std::to_string(n)};
    cp.makes = {state};
    moved.push_back(state);
  }
  if (moved.empty()) moved = {"networks-peered"};
  retire_network(w, first, from, moved);
}

// A replacement keeps every range the plan does not change (replace-scoped):
// the build step names them.
void replacement_cluster_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto first = out.steps.size();
    replacement_steps(w, in, k, {}, false);
    std::vector<prefix> old, created;
    for (const auto* c : changes_of(in, k)) {
      if (c->from.is_valid()) old.push_back(c->from);
      created.push_back(c->to);
    }
    auto kept = [&](std::initializer_list<range_role> roles) {
      std::string text;
      for (auto role : roles) {
        for (const auto& r : ranges_of(in.planned, in.owner_of(k), role)) {
          if (std::find(created.begin(), created.end(), r) == created.end()) text += (text.empty() ? "" : ", ") + r.to_string();
        }
      }
      return text;
    };
    auto& build = out.steps[first];
    if (const auto shared = kept({range_role::network, range_role::pods}); !shared.empty()) {
      build.why += "; the replacement keeps " + shared +
                   ", which nothing asks to change: it is built in the same network and subnets, and shares with the "
                   "old cluster only what that network hands out one address at a time";
      cite(build, "replace-scoped");
    }
    if (const auto services = kept({range_role::services}); !services.empty()) {
      build.why += "; it keeps the service range " + services +
                   " too: no connection carries it, a cluster IP lives only in the rules of its own cluster's "
                   "nodes, and the distribution lets two clusters hold one range, so both clusters may hold it "
                   "while they run side by side";
      cite(build, "replace-scoped");
      cite(build, "svc-virtual");
      if (const auto p = in.profile(k); p.distribution) cite(build, p.distribution->shares_service_range);
    }
    auto& r = w.add(k, resource(resource_kind::cluster, resource_action::remove, old, std::nullopt, std::nullopt),
                    {"blend-mirror"});
    r.needs = {"traffic-on-replacement"};
    r.makes = {"old-range-unused"};
    r.why = "once its load balancers and DNS records receive no traffic and only system pods run on it";
    r.checks.push_back({observable::pod_addresses, expectation::none_in, old, {}, {}});
  }
}

void renumber_network_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    std::vector<prefix> from, to;
    for (const auto* c : changes_of(in, k)) {
      if (!c->from.is_valid()) continue;
      from.push_back(c->from);
      to.push_back(c->to);
    }
    if (to.empty()) continue;
    auto& add = w.add(k, resource(resource_kind::secondary_range, resource_action::associate, to, std::nullopt,
                                         std::nullopt),
                      {"route-order-all-kinds"});
    add.makes = {"new-range-routed"};
    add.why = "route it wherever the old range is routed";
    auto& hosts = w.add(k, manual{"renumber the network's hosts group by group (DHCP scopes, static addresses, VPN "
                                  "address pools), keeping the old range routed until the last host has moved"},
                        {"route-order-all-kinds"});
    hosts.needs = {"new-range-routed"};
    hosts.makes = {"hosts-on-new-range"};
    retire_network(w, k, from, {"hosts-on-new-range"});
  }
}

namespace {

void write_change_runbook(const fleet& planned, const catalog& c, const plan_change& planned_change, runbook& out) {
  auto change = planned_change;
  if (change.created) change.from = prefix{};  // no old range to leave
  out.kind = change.from.is_valid() ? "dns-address" : "new-range";
  out.owners = {change.owner};
  out.role = change.role;
  step_writer w(out);
  const auto k = change.owner;
  const auto& o = planned.owners[k];
  const auto p = c.profile_of(o);
  if (change.from.is_valid() && change.from == change.to) {
    // Only the DNS address moves back into its service range.
    const address dns = change.dns_to ? *change.dns_to : tenth_address(change.to);
    auto& a = w.add(k, recreate_services{service_selection::dns, {change.to}, dns, std::nullopt},
                    {"svc-clusterip-immutable", "svc-dns-tenth"});
    if (p.distribution) cite(a, p.distribution->dns_addon);
    a.makes = {"dns-service-in-new-range"};
    a.checks.push_back({observable::dns_service_ip, expectation::equals, {}, {dns}, {}});
    auto& b = w.add(k, set_flag{component::kubelet, "clusterDNS", std::vector<address>{dns}, rollout::one_at_a_time},
                    {"svc-recreate-dns"});
    b.needs = {"dns-service-in-new-range"};
    b.makes = {"kubelets-use-new-dns"};
    auto& d = w.add(k, restart_workloads{workload_selection::all_pods, {}, component::cni_agent, {}}, {"svc-recreate-dns"});
    d.needs = {"kubelets-use-new-dns"};
    d.makes = {"old-range-unused"};
    d.why = "pods keep the DNS address they started with";
    return;
  }
  if (change.role == range_role::external) {
    w.add(k, manual{"number the network from " + change.to.to_string()}, {});
    return;
  }
  if (change.role == range_role::network) {
    auto& s = w.add(k, resource(resource_kind::network, resource_action::create, {change.to}, std::nullopt,
                                       std::nullopt),
                    {});
    cite(s, c.cloud_of(o));
    return;
  }
  // A cluster range created at a requested size: set where the cluster is created.
  auto& s = w.add(k, resource(resource_kind::cluster, resource_action::create, {change.to}, std::nullopt,
                                     change.role),
                  {});
  if (p.distribution) {
    const auto* place = change.role == range_role::services
                            ? p.distribution->place(component::kube_apiserver, "--service-cluster-ip-range")
                            : p.distribution->place(component::kube_controller_manager, "--cluster-cidr");
    if (place) cite(s, place->fact);
    else cite(s, p.distribution->control_plane);
  } else {
    cite(s, "prof-no-source");
  }
  if (change.role == range_role::services) cite(s, "svc-dns-tenth");
}

}  // namespace

auto change_runbook(const fleet& planned, const catalog& c, const plan_change& change) -> runbook {
  runbook out;
  write_change_runbook(planned, c, change, out);
  add_apply_steps(planned, c, out);
  return out;
}

}  // namespace cidrcheck::detail
