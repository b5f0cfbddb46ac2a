// The rows that move or add pod space: a pool swap in the CNI's own IPAM
// (calico-ippool-swap, cilium-pool-append), node IPAM of kube-controller-manager
// (kcm-node-ipam), the VPC CNI's custom networking, more space beside the
// old range (add-pod-range, gke-additional-pod-range), and a GKE range left
// attached but withdrawn from routing (gke-pod-range-withdraw). What a cluster's pods
// take addresses from, and how a pool changes, is its IPAM profile's; every
// fact id is a row of docs/migration-facts.md, sections 2 and 3.

#include "runbook_rows.hpp"

#include <string>

namespace cidrcheck::detail {

namespace {

struct pod_move {
  std::uint32_t owner = 0;
  std::vector<prefix> from, to;  // the moved ranges
  std::vector<prefix> after;     // every pod range after the operation, in fleet order
};

auto move_of(const row_input& in, std::uint32_t k) -> pod_move {
  pod_move m;
  m.owner = k;
  for (const auto* c : changes_of(in, k)) {
    if (c->role != range_role::pods) continue;
    if (c->from.is_valid()) m.from.push_back(c->from);
    m.to.push_back(c->to);
  }
  m.after = ranges_of(in.planned, in.owner_of(k), range_role::pods);
  return m;
}

// A pool's name for its range: "pool-10-48-0-0-16".
auto pool_name(const prefix& cidr) -> std::string {
  std::string out = "pool-";
  for (char ch : cidr.to_string()) out += (ch == '.' || ch == '/' || ch == ':') ? '-' : ch;
  while (out.find("--") != std::string::npos) out.erase(out.find("--"), 1);
  if (out.back() == '-') out.pop_back();
  return out;
}

// The step that says which profile field the catalog lacks, and that the
// runbook stops there.
auto unknown_step(step_writer& w, std::uint32_t k, std::string field, std::string question, std::string_view fact)
    -> runbook_step& {
  auto& s = w.add(k, find_out{std::move(field), std::move(question)}, {fact});
  return s;
}

// The last step of a pod move: no pod or Node keeps an address in the old ranges.
void retire_pods(step_writer& w, const pod_move& m, std::vector<std::string> needs,
                 std::initializer_list<std::string_view> facts, bool nodes) {
  auto& s = w.add(m.owner, verify{}, facts);
  s.needs = std::move(needs);
  s.makes = {"old-range-unused"};
  s.why = "then remove the old range from routes, firewall rules and NetworkPolicy ipBlocks";
  s.checks.push_back({observable::pod_addresses, expectation::none_in, m.from, {}, {}});
  if (nodes) s.checks.push_back({observable::node_pod_cidrs, expectation::all_in, m.after, {}, {}});
}

// kube-proxy's clusterCIDR names the pod ranges; where the pool must lie in it
// (calico-cluster-cidr) or it names the old range, it moves with them. It takes
// one CIDR per family (kube-proxy-one-cidr): the block holding that family's ranges.
auto kube_proxy_step(step_writer& w, const pod_move& m, std::vector<std::string> needs,
                     std::initializer_list<std::string_view> facts) -> runbook_step& {
  std::vector<prefix> per_family;
  for (auto v : {ip_version::v4, ip_version::v6}) {
    std::vector<prefix> family;
    for (const auto& r : m.after) {
      if (r.version() == v) family.push_back(r);
    }
    if (auto block = covering_block(family)) per_family.push_back(*block);
  }
  auto& s = w.add(m.owner, set_flag{component::kube_proxy, "clusterCIDR", per_family, rollout::one_at_a_time}, facts);
  cite(s, "kube-proxy-one-cidr");
  s.needs = std::move(needs);
  s.makes = {"kube-proxy-on-new-range"};
  return s;
}

// The setting that must hold the new pod ranges (pod_range_container, kops'
// nonMasqueradeCIDR) set to container_block's block, or a find-out step where
// every block overlaps the network.
void container_step(step_writer& w, const row_input& in, const pod_move& m, const cluster_profile& p,
                    std::vector<std::string> needs, std::string makes) {
  const auto& field = p.distribution->pod_range_container;
  auto block = container_block(in.planned, in.owner_of(m.owner), p);
  runbook_step* s = nullptr;
  if (block) {
    // One CIDR, written as a string: the setting is a scalar (kops' NonMasqueradeCIDR is a string).
    s = &w.add(m.owner, edit_field{config_store::control_plane, field.value, block->to_string()},
               {"kops-nonmasq-pod", "kops-nonmasq-network", "kops-nonmasq-svc"});
    s->why = "the smallest block holding the pod and service ranges that stays clear of the network, else the pod "
             "range alone";
  } else {
    s = &w.add(m.owner, find_out{field.value, "a block for " + field.value + " that holds the pod range and avoids "
                                             "the cluster's network: every block holding the pod range overlaps it, "
                                             "which the distribution refuses"},
               {"kops-nonmasq-network"});
  }
  cite(*s, field);
  s->needs = std::move(needs);
  s->makes = {std::move(makes)};
}

}  // namespace

// --- kube-controller-manager node IPAM -----------------------------------------

void kcm_node_ipam_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    if (m.from.empty()) continue;
    const auto p = in.profile(k);
    // The catalog offers this row to a cluster whose IPAM it does not know (no
    // CNI named, a delegated plugin): whether its pods move with the Node
    // podCIDRs is asked before anything is drained (kcm-moves-node-pods).
    std::vector<std::string> start;
    if (!p.ipam) {
      auto& ask = unknown_step(w, k, "ipam.addresses",
                               "whether this cluster's pods take their addresses from each Node's spec.podCIDR "
                               "(Flannel, host-local, Cilium's kubernetes IPAM) and not from a CNI's own pools or the "
                               "network: only then does this runbook move them; name the CNI and its IPAM mode as the "
                               "cluster's `cni:` and `ipam:` and plan again",
                               "kcm-moves-node-pods");
      ask.makes = {"pods-from-node-podcidrs"};
      start = ask.makes;
    }
    // A Node's podCIDR is set once, and kube-controller-manager refuses to start
    // while a Node holds one outside --cluster-cidr: the old Nodes leave first,
    // the flag moves, and the nodes register anew (kcm-flag-when).
    auto& cordon = w.add(k, drain_nodes{{node_selection::role::all, {}}},
                         {"kcm-one-per-family", "node-podcidr-immutable", "kcm-flag-when"});
    if (p.ipam) cite(cordon, p.ipam->addresses);
    cordon.needs = std::move(start);
    cordon.makes = {"nodes-drained"};
    cordon.why = "this is a window: kube-controller-manager hands out node ranges from one range per family, and a "
                 "node that joins now gets a range in the old one that never changes";
    // Where stopping a server's kubelet may stop its control plane (the profile
    // says so, or does not know), the servers' Node objects are deleted with
    // their kubelets running, which register them again only when they restart
    // (kubelet-register-once): with the new flag, below.
    const auto& in_server = p.distribution ? p.distribution->kubelet_in_server : sourced<bool>{false, "prof-no-source", false};
    const bool servers_stay = !in_server.known || in_server.value;
    auto& remove = w.add(k, remove_nodes{{servers_stay ? node_selection::role::workers : node_selection::role::all, {}}},
                         {"node-podcidr-immutable", "flant-pod-order"});
    remove.needs = {"nodes-drained"};
    remove.makes = {servers_stay ? "no-worker-has-old-podcidr" : "no-node-has-old-podcidr"};
    remove.why = "a Node's podCIDR is set only when it registers (Flant rewrote podCIDRs in etcd instead and rebooted "
                 "every node)";
    if (servers_stay) {
      auto& servers = w.add(k, remove_nodes{{node_selection::role::control_plane, {}}, true},
                            {"kcm-servers-stay", "kubelet-register-once", "k3s-no-procedure"});
      cite(servers, in_server);
      servers.needs = {"no-worker-has-old-podcidr"};
      servers.makes = {"no-node-has-old-podcidr"};
      servers.why = "the servers keep running, so the API stays up; no distribution documents this, so try it on a "
                    "test cluster first";
    }
    std::string cni_ready = "no-node-has-old-podcidr";
    const bool cni_field = p.ipam && !p.ipam->range_field.value.empty() &&
                           !(p.distribution && p.distribution->embeds_cni.known && p.distribution->embeds_cni.value);
    if (cni_field) {
      auto& s = w.add(k, edit_field{config_store::cni_configuration, p.ipam->range_field.value, m.after},
                      {"flannel-node-podcidr", "flannel-pod-move"});
      cite(s, p.ipam->range_field);
      s.needs = {"no-node-has-old-podcidr"};
      s.makes = {"cni-on-new-range"};
      s.why = "the CNI refuses a node range outside it and reads it only when it starts, which the nodes' CNI pods "
              "do when they register again";
      cni_ready = "cni-on-new-range";
    }
    auto& flag = w.add(k, set_flag{component::kube_controller_manager, "--cluster-cidr", m.after,
                                   rollout::one_at_a_time},
                       {"kcm-refuses", "kcm-flag-when", "kcm-one-per-family"});
    flag.needs = {"no-node-has-old-podcidr"};
    flag.makes = {"kcm-allocates-new-range"};
    flag.why = "now, and not before: no Node holds a range outside it, so kube-controller-manager starts";
    if (p.distribution && !p.distribution->pod_range_container.value.empty()) {
      container_step(w, in, m, p, {"no-node-has-old-podcidr"}, "pod-range-container-set");
    }
    // kube-proxy's clusterCIDR too while no node runs: each node's kube-proxy
    // starts with it when the node returns (and a separately applied spec
    // takes it in the same apply as the flag).
    auto& kp = kube_proxy_step(w, m, {"no-node-has-old-podcidr"}, {"kadm-kube-proxy-cm"});
    kp.why = "kube-proxy tells pod traffic from outside traffic by it";
    std::string registered = cni_ready;
    if (servers_stay) {
      // The servers first, each restarted in turn, so that one always serves.
      auto& back = w.add(k, register_nodes{{node_selection::role::control_plane, {}}, true},
                         {"kcm-allocate", "kubelet-register-once"});
      if (p.distribution) cite(back, p.distribution->restore_control_plane);
      back.needs = {"kcm-allocates-new-range", cni_ready};
      back.makes = {"servers-on-new-range"};
      back.why = "a server that restarted with the new flag in the step before has registered already";
      registered = "servers-on-new-range";
    }
    auto& reg = w.add(k, register_nodes{{servers_stay ? node_selection::role::workers : node_selection::role::all, {}},
                                        !servers_stay},
                      {"kcm-allocate", "node-podcidr-immutable"});
    if (p.distribution && !servers_stay) cite(reg, p.distribution->restore_control_plane);
    reg.needs = {"kcm-allocates-new-range", "kube-proxy-on-new-range", registered};
    reg.makes = {"nodes-on-new-range"};
    reg.why = "one at a time, restarting the CNI's pod on each: every node takes a podCIDR in the new range; uncordon "
              "it and let workloads come back";
    reg.checks.push_back({observable::node_pod_cidrs, expectation::all_in, m.after, {}, {}});
    retire_pods(w, m, {"nodes-on-new-range"}, {"node-podcidr-immutable"}, true);
  }
}

// --- Calico IP pools ------------------------------------------------------------

void calico_ippool_swap_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    if (m.from.empty()) continue;
    const auto p = in.profile(k);
    if (!p.ipam || p.ipam->pool.value != pool_kind::calico_ippool) {
      unknown_step(w, k, "ipam.pool", "which pool resource this cluster's IPAM mode takes pod addresses from: the "
                   "catalog's profile does not say it is an IP pool, so this runbook cannot swap one",
                   p.ipam ? p.ipam->pool.fact : "prof-no-source").makes = {"old-range-unused"};
      continue;
    }
    const auto& ipam = *p.ipam;
    const auto& o = in.owner_of(k);
    // 0. The pools as they are: the new one copies the old one's encapsulation and NAT.
    auto& look = w.add(k, verify{}, {"calico-pool-copy", "calico-disable-keep-fields"});
    cite(look, ipam.pool_copies);
    look.makes = {"old-pools-exported"};
    look.why = "save the pools' export: the new pool copies the old one's ipipMode, vxlanMode, natOutgoing and blockSize, and the "
               "old pool is disabled by editing this export";
    look.checks.push_back({observable::ip_pools, expectation::includes, m.from, {}, {}});
    // 1. CoreDNS (and webhooks) scaled up before anything restarts or rolls
    //    (kube-proxy's change may roll the nodes), as the kops story did.
    auto& scale = w.add(k, restart_workloads{workload_selection::scale_up, {}, component::cluster_dns,
                                             {"kube-system/coredns"}},
                        {"kops-calico-scale-first"});
    scale.needs = {"old-pools-exported"};
    scale.makes = {"dns-scaled-up"};
    scale.why = "to ride out connectivity gaps while nodes and pods move between pools; scale them back down at the end";
    // 2. kube-proxy's clusterCIDR holds the new pool before it serves a pod.
    std::string pool_ready = "dns-scaled-up";
    if (ipam.kube_proxy_holds_pool.value) {
      auto& s = kube_proxy_step(w, m, {"dns-scaled-up"}, {"calico-cluster-cidr"});
      cite(s, ipam.kube_proxy_holds_pool);
      s.why = "pods numbered from a pool outside it get their traffic NATed";
      pool_ready = "kube-proxy-on-new-range";
    }
    // 3. The new pools, checked against the old ones.
    for (std::size_t n = 0; n < m.to.size(); ++n) {
      const auto& to = m.to[n];
      doc_map spec{{"cidr", doc_node{to.to_string()}},
                   {"blockSize", doc_node{static_cast<std::int64_t>(in.cat.pod_block(o, to.version()))}},
                   {"ipipMode", doc_node{std::string("Always"), "copy ipipMode, vxlanMode and natOutgoing from the old pool"}},
                   {"vxlanMode", doc_node{std::string("Never")}},
                   {"natOutgoing", doc_node{true}},
                   {"nodeSelector", doc_node{std::string("all()")}},
                   {"disabled", doc_node{false}}};
      auto pool = object(ipam.pool_api.value, "IPPool", "", pool_name(to), {{"spec", doc_node{std::move(spec)}}});
      auto& s = w.add(k, apply_object{std::move(pool), ipam.pool_tool.value, apply_object::mode::create},
                      {"calico-migrate-order", "calico-pool-copy", "calico-encap-needed", "calico-ippool-fields",
                       "calico-operator"});
      cite(s, ipam.pool_tool);
      cite(s, ipam.pool_api);
      s.needs = {pool_ready};
      s.makes = {"new-pool-serving"};
      s.why = "set ipipMode, vxlanMode and natOutgoing in the file to the old pool's (a pool that names none gets "
              "Never and false, and pods numbered from it lose cross-subnet traffic); with the Tigera operator add "
              "the pool to the Installation's spec.calicoNetwork.ipPools instead";
      s.checks.push_back({observable::ip_pools, expectation::includes, {to}, {}, pool_name(to)});
    }
    // 4. The old pools disabled in place: every other field kept.
    for (const auto& from : m.from) {
      auto pool = object(ipam.pool_api.value, "IPPool", "", "", {{"spec", doc_node{doc_map{{"disabled", doc_node{true}}}}}});
      pool.name_hint = "the pool whose cidr is " + from.to_string();
      auto& s = w.add(k, apply_object{std::move(pool), ipam.pool_tool.value, apply_object::mode::patch},
                      {"calico-migrate-order", "calico-disable", "calico-disable-keep-fields", "calico-operator"});
      s.needs = {"new-pool-serving"};
      s.makes = {"old-pool-not-allocating"};
      s.why = "disabling stops new allocations and leaves running pods alone; patching keeps the pool's encapsulation "
              "for the pods still on it (with the Tigera operator set nodeSelector: \"!all()\" on its entry in the "
              "Installation instead)";
    }
    // 5. kube-controller-manager: node CIDR allocation off before its range moves
    //    (Calico's IPAM does not use the Nodes' podCIDRs), then the range; not
    //    where the provider runs it (its flags are not the operator's).
    std::string kcm_ready = "old-pool-not-allocating";
    if (p.distribution && p.distribution->place(component::kube_controller_manager, "--cluster-cidr") &&
        p.distribution->control_plane.value != control_plane_config::provider) {
      auto& off = w.add(k, set_flag{component::kube_controller_manager, "--allocate-node-cidrs", false,
                                    rollout::one_at_a_time},
                        {"kcm-flag-when", "kops-calico-seed", "kcm-refuses"});
      off.needs = {"old-pool-not-allocating"};
      off.makes = {"kcm-not-allocating"};
      off.why = "Calico's IPAM hands out the pod addresses; with node CIDR allocation on, kube-controller-manager "
                "refuses to start once its range moves away from the Nodes' podCIDRs";
      auto& range = w.add(k, set_flag{component::kube_controller_manager, "--cluster-cidr", m.after,
                                      rollout::one_at_a_time},
                          {"kcm-one-per-family", "calico-cluster-cidr"});
      range.needs = {"kcm-not-allocating"};
      range.makes = {"cluster-cidr-new"};
      kcm_ready = "cluster-cidr-new";
      if (!p.distribution->pod_range_container.value.empty()) {
        container_step(w, in, m, p, {"cluster-cidr-new"}, "pod-range-container-set");
        kcm_ready = "pod-range-container-set";
      }
    }
    // 6. The workloads on the old pools restarted.
    auto& roll = w.add(k, restart_workloads{workload_selection::pods_in_ranges, m.from, component::cni_agent, {}},
                       {"calico-migrate-order"});
    roll.needs = {"old-pool-not-allocating", kcm_ready};
    roll.makes = {"pods-restarted"};
    roll.why = "a few at a time, including pods created before the pool was disabled";
    roll.checks.push_back({observable::pod_addresses, expectation::none_in, m.from, {}, {}});
    // 7. The old pools deleted once nothing uses them.
    for (const auto& from : m.from) {
      auto& del = w.add(k, deletion(ipam.pool_api.value, "IPPool", "", "", ipam.pool_tool.value, true),
                        {"calico-migrate-order", "calico-operator"});
      std::get<delete_object>(del.action).name_hint = "the pool whose cidr is " + from.to_string();
      del.needs = {"pods-restarted"};
      del.makes = {"old-pool-deleted"};
      del.why = "new pods got addresses in the new pool (with the Tigera operator remove its entry from the "
                "Installation instead)";
      del.checks.push_back({observable::ip_pools, expectation::none_in, {from}, {}, {}});
    }
    retire_pods(w, m, {"old-pool-deleted"}, {"calico-migrate-order"}, false);
  }
}

// --- Cilium ---------------------------------------------------------------------

void cilium_pool_append_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    if (m.from.empty()) continue;
    const auto p = in.profile(k);
    const auto pool = p.ipam ? p.ipam->pool.value : pool_kind::none;
    if (pool != pool_kind::cilium_cluster_pool && pool != pool_kind::cilium_pod_ip_pool) {
      unknown_step(w, k, "ipam.pool", "how this cluster's IPAM mode changes its pod pool: the catalog's profile names "
                   "no pool of the CNI's own", p.ipam ? p.ipam->pool.fact : "prof-no-source").makes = {"old-range-unused"};
      continue;
    }
    const auto& o = in.owner_of(k);
    const auto mask = static_cast<std::int64_t>(in.cat.pod_block(o, m.to.front().version()));
    std::string ready = "multi-pool-running";
    if (pool == pool_kind::cilium_cluster_pool) {
      // cluster-pool cannot move a node's CIDR; the documented way is the
      // migration to multi-pool, which needs Cilium 1.20.
      auto& v = w.add(k, find_out{"cni.version", "whether the cluster runs Cilium 1.20.0 or later, the first release "
                                                  "with the cluster-pool to multi-pool migration: with an older "
                                                  "Cilium, upgrade it first or move to a new cluster"},
                      {"cilium-to-multipool", "cilium-clusterpool-change", "cilium-no-mode-change"});
      cite(v, p.ipam->pool);
      v.makes = {"cilium-version-known"};
      auto covering = object("cilium.io/v2alpha1", "CiliumPodIPPool", "", "default",
                           {{"spec", doc_node{doc_map{{m.from.front().version() == ip_version::v6 ? "ipv6" : "ipv4",
                                                      doc_node{doc_map{{"cidrs", doc_node{[&] {
                                                                          doc_list l;
                                                                          for (const auto& f : m.from) l.emplace_back(f.to_string());
                                                                          return l;
                                                                        }()}},
                                                                       {"maskSize", doc_node{mask}}}}}}}}});
      auto& c = w.add(k, apply_object{std::move(covering), object_tool::kubectl, apply_object::mode::create},
                      {"cilium-to-multipool"});
      c.needs = {"cilium-version-known"};
      c.makes = {"default-pool-covers-old"};
      c.why = "it covers the CIDRs cluster-pool has handed out, with the same mask, so nodes keep them";
      // The value of ipam.mode the documented migration sets (cilium-to-multipool).
      const std::string target_mode = "multi-pool";  // names-ok: a configuration value this row writes
      auto& mode = w.add(k, edit_field{config_store::cni_configuration, "ipam.mode", target_mode},
                         {"cilium-to-multipool"});
      mode.needs = {"default-pool-covers-old"};
      mode.makes = {"operator-migrating"};
      mode.why = "with the operator option enable-cluster-pool-to-multi-pool-migration=true; restart only the "
                 "operator, wait until every CiliumNode lists its CIDR under spec.ipam.pools.allocated, then restart "
                 "the agents. There is no way back";
      auto& agents = w.add(k, restart_workloads{workload_selection::component, {}, component::cni_agent, {}},
                           {"cilium-to-multipool"});
      agents.needs = {"operator-migrating"};
      agents.makes = {ready};
    } else {
      auto& s = w.add(k, verify{}, {"cilium-multipool"});
      cite(s, p.ipam->pool);
      s.makes = {ready};
      s.checks.push_back({observable::ip_pools, expectation::includes, m.from, {}, "default"});
    }
    // The documented pool change: the pool recreated with the new CIDRs and the
    // operator restarted before any node is drained, then the nodes in two groups.
    auto next = object("cilium.io/v2alpha1", "CiliumPodIPPool", "", "default",
                     {{"spec", doc_node{doc_map{{m.to.front().version() == ip_version::v6 ? "ipv6" : "ipv4",
                                                doc_node{doc_map{{"cidrs", doc_node{[&] {
                                                                    doc_list l;
                                                                    for (const auto& t : m.to) l.emplace_back(t.to_string());
                                                                    return l;
                                                                  }()}},
                                                                 {"maskSize", doc_node{mask}}}}}}}}});
    auto& change = w.add(k, apply_object{std::move(next), object_tool::kubectl, apply_object::mode::apply},
                         {"cilium-multipool-update", "cilium-multipool"});
    change.needs = {ready};
    change.makes = {"pool-on-new-range"};
    change.why = "in the Helm values ipam.operator.autoCreateCiliumPodIPPools too; delete the CiliumPodIPPool "
                 "`default` and apply this one: the mask size stays the pool's";
    auto& op = w.add(k, restart_workloads{workload_selection::component, {}, component::cni_operator, {}},
                     {"cilium-multipool-update"});
    cite(op, p.ipam->restart_first);
    op.needs = {"pool-on-new-range"};
    op.makes = {"operator-restarted"};
    op.why = "before any node is drained";
    auto& roll = w.add(k, roll_nodes{{node_selection::role::all, {}}}, {"cilium-multipool-update"});
    cite(roll, p.ipam->pickup);
    roll.needs = {"operator-restarted"};
    roll.makes = {"nodes-on-new-range"};
    roll.why = "in two groups: cordon a group and evict its pods to the other, delete its CiliumNodes, restart its "
               "cilium agents, uncordon; then the other group";
    retire_pods(w, m, {"nodes-on-new-range"}, {"cilium-multipool"}, false);
  }
}

// --- VPC CNI custom networking ----------------------------------------------------

void vpc_cni_custom_networking_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    if (m.from.empty()) continue;
    const auto& to = m.to.front();
    const int az_len = std::min(to.length() + 2, to.version() == ip_version::v6 ? 128 : 28);
    std::vector<prefix> subnets;
    for (auto sub : to.subnets(az_len)) {
      if (subnets.size() == 3) break;
      subnets.push_back(sub);
    }
    auto& assoc = w.add(k, resource(resource_kind::secondary_range, resource_action::associate, {to}, {}),
                        {"eks-custom-nodes", "vpc-secondary", "vpc-secondary-limits", "eks-secondary-ranges",
                         "tf-aws-secondary"});
    assoc.makes = {"secondary-cidr-associated"};
    assoc.why = "a pod range apart from the node subnets is a secondary CIDR block of the cluster's VPC; which "
                "secondary ranges a VPC accepts depends on its primary CIDR (unverified)";
    auto& sub = w.add(k, resource(resource_kind::subnets, resource_action::create, subnets, {}),
                      {"eks-custom-nodes", "eks-subnets-update", "tf-aws-secondary"});
    sub.needs = {"secondary-cidr-associated"};
    sub.makes = {"pod-subnets-created"};
    sub.why = "one per Availability Zone of the node subnets; adjust to your zones";
    for (std::size_t n = 0; n < subnets.size(); ++n) {
      auto zone = "az" + std::to_string(n + 1);
      auto eni = object("crd.k8s.amazonaws.com/v1alpha1", "ENIConfig", "", zone,
                      {{"spec", doc_node{doc_map{{"subnet", doc_node{"<id of the subnet " + subnets[n].to_string() + ">"}},
                                                 {"securityGroups",
                                                  doc_node{doc_list{doc_node{std::string("<id of the cluster security group>")}}}}}}}});
      auto& s = w.add(k, apply_object{std::move(eni), object_tool::kubectl, apply_object::mode::create},
                      {"eks-eniconfig-schema", "eks-eniconfig-select", "eks-custom-nodes"});
      s.needs = {"pod-subnets-created"};
      s.makes = {"eniconfig-" + zone};
      s.why = "named after the zone (the nodes' topology.kubernetes.io/zone label), before custom networking is on";
    }
    auto variable = [](const char* name, const char* value) {
      return doc_node{doc_map{{"name", doc_node{std::string(name)}}, {"value", doc_node{std::string(value)}}}};
    };
    doc_node container{doc_map{{"name", doc_node{std::string("aws-node")}},
                               {"env", doc_node{doc_list{variable("AWS_VPC_K8S_CNI_CUSTOM_NETWORK_CFG", "true"),
                                                         variable("ENI_CONFIG_LABEL_DEF", "topology.kubernetes.io/zone")}}}}};
    doc_node pod_spec{doc_map{{"containers", doc_node{doc_list{std::move(container)}}}}};
    doc_node templ{doc_map{{"spec", std::move(pod_spec)}}};
    auto env = object("apps/v1", "DaemonSet", "kube-system", "aws-node",
                      {{"spec", doc_node{doc_map{{"template", std::move(templ)}}}}});
    auto& on = w.add(k, apply_object{std::move(env), object_tool::kubectl, apply_object::mode::patch},
                     {"eks-custom-cfg", "eks-eniconfig-select", "eks-custom-nodes"});
    for (std::size_t n = 0; n < subnets.size(); ++n) on.needs.push_back("eniconfig-az" + std::to_string(n + 1));
    on.makes = {"custom-networking-on"};
    on.why = "nodes started from now take pod addresses from their zone's ENIConfig subnet";
    auto& roll = w.add(k, roll_nodes{{node_selection::role::workers, {}}}, {"eks-custom-nodes"});
    roll.needs = {"custom-networking-on"};
    roll.makes = {"nodes-on-new-range"};
    roll.why = "new node groups, with max pods computed for custom networking (the primary network interface no "
               "longer serves pods), then the old ones drained and terminated one group at a time";
    retire_pods(w, m, {"nodes-on-new-range"}, {"vpc-secondary-limits"}, false);
    auto& drop = w.add(k, resource(resource_kind::secondary_range, resource_action::disassociate, m.from, {}),
                       {"vpc-secondary-limits"});
    drop.needs = {"old-range-unused"};
    drop.makes = {"old-association-removed"};
    drop.why = "only if the old range is a secondary CIDR block: delete its subnets first; a VPC's primary CIDR cannot "
               "be removed";
  }
}

// --- more pod space beside the old range ----------------------------------------------

void add_pod_range_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    const auto p = in.profile(k);
    const auto pool = p.ipam ? p.ipam->pool.value : pool_kind::none;
    const auto& o = in.owner_of(k);
    // kube-proxy's clusterCIDR holds the new pool before it serves a pod (calico-cluster-cidr).
    std::vector<std::string> first;
    if (p.ipam && p.ipam->kube_proxy_holds_pool.value) {
      auto& s = kube_proxy_step(w, m, {}, {"calico-cluster-cidr"});
      cite(s, p.ipam->kube_proxy_holds_pool);
      s.why = "pods numbered from a pool outside it get their traffic NATed; it takes one CIDR per family, so it "
              "names the smallest block holding the existing pool and the new one";
      // Say what else the block holds: no source read says how kube-proxy treats it.
      std::string also;
      for (const auto& block : std::get<std::vector<prefix>>(std::get<set_flag>(s.action).value)) {
        for (auto role : {range_role::network, range_role::services}) {
          for (const auto& r : ranges_of(in.planned, o, role)) {
            if (r.overlaps(block)) also += (also.empty() ? "" : ", ") + r.to_string();
          }
        }
      }
      if (!also.empty()) {
        s.why += "; that block also holds " + also + " of this cluster, and how kube-proxy treats their traffic then "
                 "was not checked: test it first, or choose a new range next to the old one";
      }
      first = s.makes;
    }
    std::vector<std::string> added;
    for (const auto& to : m.to) {
      const std::string state = "range-added-" + to.to_string();
      runbook_step* s = nullptr;
      if (pool == pool_kind::calico_ippool) {
        doc_map spec{{"cidr", doc_node{to.to_string()}},
                     {"blockSize", doc_node{static_cast<std::int64_t>(in.cat.pod_block(o, to.version()))}},
                     {"ipipMode", doc_node{std::string("Always"), "copy ipipMode, vxlanMode and natOutgoing from the existing pool"}},
                     {"vxlanMode", doc_node{std::string("Never")}},
                     {"natOutgoing", doc_node{true}},
                     {"nodeSelector", doc_node{std::string("all()")}},
                     {"disabled", doc_node{false}}};
        auto obj = object(p.ipam->pool_api.value, "IPPool", "", pool_name(to), {{"spec", doc_node{std::move(spec)}}});
        s = &w.add(k, apply_object{std::move(obj), p.ipam->pool_tool.value, apply_object::mode::create},
                   {"grow-calico", "calico-pool-copy", "calico-encap-needed", "calico-ippool-fields"});
        cite(*s, p.ipam->pool_tool);
        s->why = "beside the existing pool, which stays as it is; new pods take addresses from either (with the Tigera "
                 "operator add it to the Installation's ipPools instead)";
      } else if (pool == pool_kind::cilium_pod_ip_pool) {
        auto obj = object("cilium.io/v2alpha1", "CiliumPodIPPool", "", "default",
                        {{"spec", doc_node{doc_map{{to.version() == ip_version::v6 ? "ipv6" : "ipv4",
                                                   doc_node{doc_map{{"cidrs", doc_node{[&] {
                                                                       doc_list l;
                                                                       for (const auto& r : m.after) {
                                                                         if (r.version() == to.version()) l.emplace_back(r.to_string());
                                                                       }
                                                                       return l;
                                                                     }()}},
                                                                    {"maskSize", doc_node{static_cast<std::int64_t>(in.cat.pod_block(o, to.version()))}}}}}}}}});
        s = &w.add(k, apply_object{std::move(obj), object_tool::kubectl, apply_object::mode::apply},
                   {"cilium-multipool", "grow-cilium"});
        s->why = "the pool's existing CIDRs and maskSize stay as they are: an in-use pool only grows";
      } else if (pool == pool_kind::cilium_cluster_pool) {
        s = &w.add(k, edit_field{config_store::cni_configuration, p.ipam->range_field.value,
                                 std::vector<prefix>{to}, edit_field::mode::add},
                   {"cilium-clusterpool-append", "cilium-clusterpool-change"});
        cite(*s, p.ipam->range_field);
        s->why = "appended, the existing entries unchanged; existing nodes keep their CIDRs";
      } else {
        s = &unknown_step(w, k, "ipam.pool", "how this cluster's IPAM mode takes a second pod range: the catalog's "
                          "profile names no pool that grows", p.ipam ? p.ipam->pool.fact : "prof-no-source");
      }
      s->needs = first;
      s->makes = {state};
      added.push_back(state);
    }
    // Pods take addresses in the new range only as they start, so what can be
    // checked now is the pools.
    auto& v = w.add(k, verify{}, {});
    v.needs = std::move(added);
    v.makes = {"new-range-verified"};
    v.why = "pods started from now may take addresses in the new range; add it wherever the old one is listed: "
            "NetworkPolicy ipBlocks, firewall rules";
    v.checks.push_back({observable::ip_pools, expectation::includes, m.to, {}, {}});
  }
}

// The pod range grown in place: the provider's update, then what the nodes see.
// Nothing moves, so no pod restarts and no route changes (aks-pod-expand).
void aks_overlay_pod_expand_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    auto& s = w.add(k, resource(resource_kind::pod_range, resource_action::expand, m.to), {"aks-pod-expand", "aks-pod-expand-cmd"});
    s.makes = {"range-expanded"};
    s.why = "the new range contains the whole old one, so every pod and node keeps its addresses";
    auto& v = w.add(k, verify{}, {"aks-pod-expand-cmd"});
    v.needs = {"range-expanded"};
    v.makes = {"new-range-verified"};
    v.why = "the update can finish before the nodes take the new range: go on once every node pool shows it";
    v.checks.push_back({observable::pool_expansion, expectation::includes, m.to, {}, {}});
  }
}

void gke_additional_pod_range_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    std::vector<std::string> added;
    for (const auto& to : m.to) {
      auto& s = w.add(k, resource(resource_kind::pod_range, resource_action::create, {to}, {}),
                      {"gcp-secondary-range", "gcloud-secondary-flag", "gke-cluster-ranges", "gcloud-pod-ranges-flag"});
      s.makes = {"range-added-" + to.to_string()};
      s.why = "a secondary range of the cluster's subnet, then an additional pod range of the cluster; new node pools "
              "take pod addresses from it, the existing range stays";
      added.push_back(s.makes.front());
    }
    auto& v = w.add(k, verify{}, {"gke-masq", "gke-nodepool-range"});
    v.needs = std::move(added);
    v.makes = {"new-range-verified"};
    v.why = "pods of node pools created from now get addresses in it, the existing ones keep theirs; add it wherever "
            "the old range is listed (ip-masq-agent's nonMasqueradeCIDRs, NetworkPolicy ipBlocks, firewall rules; "
            "unverified)";
    v.checks.push_back({observable::ip_pools, expectation::includes, m.to, {}, {}});
  }
}

// The pods moved to an additional range by new node pools; the old range stays a
// secondary range of the subnet (gke-multipod) and the connections that carry it
// stop: on a Cloud Router, custom advertisements that list the new range and not
// the old (route-gcp-cloud-router). The new route comes before any pod runs in the
// new range, the old goes once no pod uses it (route-follows-destination).
void gke_pod_range_withdraw_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    if (m.from.empty()) continue;
    const auto& to = m.to.front();
    auto& add = w.add(k, resource(resource_kind::pod_range, resource_action::create, {to}, {}),
                      {"gcp-secondary-range", "gcloud-secondary-flag", "gke-cluster-ranges", "gcloud-pod-ranges-flag"});
    add.makes = {"range-added-" + to.to_string()};
    add.why = "a secondary range of the cluster's subnet, then an additional pod range of the cluster, for the new "
              "node pools";
    std::vector<std::string> advertised;
    for (const auto& x : in.op.withdrawals) {
      if (in.planned.ranges[x.range].owner != k) continue;
      auto& s = w.add(k, advertise_route{to, x.cidr, x.connection, std::nullopt},
                      {"route-gcp-cloud-router", "route-follows-destination"});
      s.needs = {"range-added-" + to.to_string()};
      s.makes = {"new-route-advertised"};
      s.why = "a Cloud Router in custom advertisement mode advertises only the ranges it lists: list the new range "
              "(and every range still wanted) before any pod runs in it";
      s.checks.push_back({observable::routes, expectation::includes, {to}, {}, {}});
      advertised = s.makes;
    }
    auto& roll = w.add(k, resource(resource_kind::node_pool, resource_action::create, {to}, {}, range_role::pods),
                       {"gke-nodepool-range", "gke-cluster-ranges", "dist-gke-node-roll"});
    roll.needs = {"range-added-" + to.to_string()};
    roll.needs.insert(roll.needs.end(), advertised.begin(), advertised.end());
    roll.makes = {"nodes-on-new-range"};
    roll.why = "every pod moves with its node: the new pools' nodes take pod addresses in the new range only";
    retire_pods(w, m, {"nodes-on-new-range"}, {"gke-nodepool-range"}, false);
    for (const auto& x : in.op.withdrawals) {
      if (in.planned.ranges[x.range].owner != k) continue;
      auto& s = w.add(k, withdraw_route{x.cidr, x.connection, std::nullopt},
                      {"route-gcp-cloud-router", "route-gcp-subnet-shadows", "gke-multipod"});
      s.needs = {"old-range-unused"};
      s.makes = {"old-route-withdrawn"};
      s.why = "custom advertisement mode without ALL_SUBNETS, the old range left out; it stays a secondary range of "
              "the subnet (a range in use as the default cannot be removed), so hosts a router advertises inside it "
              "stay unreachable from the VPC network";
      s.checks.push_back({observable::routes, expectation::none_in, {x.cidr}, {}, {}});
    }
  }
}

}  // namespace cidrcheck::detail
