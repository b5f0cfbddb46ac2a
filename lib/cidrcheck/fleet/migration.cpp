#include "migration.hpp"

#include <cidrcheck/fleet/runbook.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace cidrcheck::detail {

auto runbook_builder::step(std::string text, std::initializer_list<std::string_view> fact_ids) -> migration_step& {
  migration_step s;
  s.text = std::move(text);
  for (auto id : fact_ids) s.facts.push_back(migration_fact_by_id(id));
  steps_.push_back(std::move(s));
  return steps_.back();
}

auto is_managed(const std::string& distribution) -> bool {
  return distribution == "eks" || distribution == "gke" || distribution == "aks";
}

auto dns_of(const prefix& services) -> std::string {
  return address::from_bits(services.version(), services.network().bits() + 10).to_string();
}

auto non_masquerade(const fleet& planned, const owner& o, ip_version v) -> std::string {
  std::optional<prefix> cover;
  for (auto k : o.ranges) {
    const auto& r = planned.ranges[k];
    if ((r.role != range_role::pods && r.role != range_role::services) || r.cidr.version() != v) continue;
    if (!cover) {
      cover = r.cidr;
      continue;
    }
    while (!cover->supernet_of(r.cidr)) cover = cover->supernet();
  }
  return cover ? cover->to_string() : std::string("a block holding the pod and service ranges");
}

auto kops_network_clash(const fleet& planned, const owner& o, const prefix& block) -> std::optional<prefix> {
  if (o.cni == "vpc-cni" || (o.cni == "cilium" && o.ipam == "eni")) return std::nullopt;
  for (auto k : o.ranges) {
    const auto& r = planned.ranges[k];
    if (r.role == range_role::network && r.cidr.overlaps(block)) return r.cidr;
  }
  return std::nullopt;
}

auto kops_non_masquerade(const fleet& planned, const owner& o, const prefix& pods) -> std::optional<prefix> {
  auto cover = prefix::try_parse(non_masquerade(planned, o, pods.version()));
  if (cover && cover->length() >= 8 && !kops_network_clash(planned, o, *cover)) return *cover;
  if (!kops_network_clash(planned, o, pods)) return pods;
  return std::nullopt;
}

auto ranges_text(const fleet& planned, std::uint32_t owner, const plan_operation& op,
                 const std::vector<plan_change>& changes) -> std::string {
  std::string out;
  for (auto k : op.changes) {
    const auto& c = changes[k];
    if (c.owner != owner) continue;
    std::string role = c.range ? planned.role_name(planned.ranges[*c.range]) : std::string(to_string(c.role));
    out += (out.empty() ? "" : ", ") + role + " " + (c.from.is_valid() ? c.from.to_string() + " -> " : "") +
           c.to.to_string();
  }
  return out;
}

void change_runbook(const fleet& planned, const plan_change& change, runbook_builder& out) {
  const owner& o = planned.owners[change.owner];
  const bool created = !change.from.is_valid();
  switch (change.role) {
    case range_role::services:
      return created ? services_creation_runbook(planned, o, change, out) : services_runbook(planned, o, change, out);
    case range_role::pods:
      return created ? pods_creation_runbook(planned, o, change, out) : pods_runbook(planned, o, change, out);
    case range_role::network:
    case range_role::external:
      return created ? network_creation_runbook(planned, o, change, out) : network_runbook(planned, o, change, out);
  }
}

namespace {

// The runbook of op's own ranges, without the routes that follow them.
void ranges_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                    runbook_builder& out) {
  if (op.scope == operation_scope::cluster) return replacement_runbook(planned, op, changes, out);
  if (op.scope == operation_scope::pod_space) return pod_space_runbook(planned, op, changes, out);
  if (op.scope == operation_scope::network && op.owners.size() > 1) {
    return shared_network_runbook(planned, op, changes, out);
  }
  if (op.changes.size() == 2) {
    // Both families of a dual-stack service range move in one operation: the
    // flag and a ServiceCIDR take one CIDR per family and switch once for both,
    // so the two moves are one runbook (svc-dual-stack-move).
    const auto& a = changes[op.changes[0]];
    const auto& b = changes[op.changes[1]];
    auto moves = [](const plan_change& x) {
      return x.role == range_role::services && x.from.is_valid() && x.from != x.to;
    };
    if (moves(a) && moves(b) && a.owner == b.owner && a.to.version() != b.to.version()) {
      return dual_stack_services_runbook(planned, planned.owners[a.owner], a, b, out);
    }
  }
  for (auto k : op.changes) change_runbook(planned, changes[k], out);
}

auto route_text(const fleet& planned, const plan_change& c) -> std::string {
  const auto& route = planned.routes[planned.ranges[*c.range].route];
  std::string text = "network " + planned.owners[c.owner].name;
  if (!route.advertiser.empty()) text += " (advertised by " + route.advertiser + ")";
  return text;
}

}  // namespace

void operation_runbook(const fleet& planned, const plan_operation& op, const std::vector<plan_change>& changes,
                       runbook_builder& out) {
  // Routes toward the moved ranges (plan.cpp's follow_routes): the new route is
  // in place before anything runs in the new range, the old one goes last.
  plan_operation own = op;
  std::vector<std::uint32_t> routes;
  std::erase_if(own.changes, [&](std::uint32_t k) {
    const auto& c = changes[k];
    bool route = c.range && planned.ranges[*c.range].is_route();
    if (route) routes.push_back(k);
    return route;
  });
  for (auto k : routes) {
    const auto& c = changes[k];
    out.step("on " + route_text(planned, c) + ", add the route " + c.to.to_string() + " beside " +
                 c.from.to_string() + " and have it approved where routes need approval: a route to a range " +
                 "nothing uses yet is harmless, and clients reach the new range as soon as anything runs in it",
             {"route-follows-destination"})
        .makes = {"new-route-advertised"};
  }
  ranges_runbook(planned, own, changes, out);
  bool retired = std::any_of(out.steps().begin(), out.steps().end(), [](const migration_step& s) {
    return std::find(s.makes.begin(), s.makes.end(), "old-range-unused") != s.makes.end();
  });
  for (auto k : routes) {
    const auto& c = changes[k];
    auto& step = out.step("withdraw the route " + c.from.to_string() + " from " + route_text(planned, c) +
                              " once nothing uses " + c.from.to_string() +
                              ", and verify that no client still routes it there",
                          {"route-follows-destination"});
    step.needs = {"new-route-advertised"};
    if (retired) step.needs.push_back("old-range-unused");
  }
}

}  // namespace cidrcheck::detail
