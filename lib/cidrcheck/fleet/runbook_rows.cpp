// What the rows share: the step writer, ranges and addresses of a cluster, the
// route steps every operation gets for the connections that carry what it
// moves, and the apply steps of a configuration applied separately.

#include "runbook_rows.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

namespace cidrcheck::detail {

auto step_writer::add(std::uint32_t owner, step_action action, std::initializer_list<std::string_view> facts)
    -> runbook_step& {
  runbook_step s;
  s.owner = owner;
  s.action = std::move(action);
  for (auto f : facts) cite(s, f);
  out_.steps.push_back(std::move(s));
  return out_.steps.back();
}

void cite(runbook_step& s, std::string_view fact) {
  if (fact.empty() || std::find(s.facts.begin(), s.facts.end(), fact) != s.facts.end()) return;
  s.facts.emplace_back(fact);
}

auto object(std::string api_version, std::string kind, std::string namespace_name, std::string name, doc_map body)
    -> kube_object {
  kube_object o;
  o.api_version = std::move(api_version);
  o.kind = std::move(kind);
  o.namespace_name = std::move(namespace_name);
  o.name = std::move(name);
  o.body = std::move(body);
  return o;
}

auto unnamed_object(std::string api_version, std::string kind, std::string hint, doc_map body) -> kube_object {
  auto o = object(std::move(api_version), std::move(kind), "", "", std::move(body));
  o.name_hint = std::move(hint);
  return o;
}

auto deletion(std::string api_version, std::string kind, std::string namespace_name, std::string name,
              object_tool tool, bool wait, std::string hint) -> delete_object {
  delete_object d;
  d.api_version = std::move(api_version);
  d.kind = std::move(kind);
  d.namespace_name = std::move(namespace_name);
  d.name = std::move(name);
  d.tool = tool;
  d.wait = wait;
  d.name_hint = std::move(hint);
  return d;
}

auto resource(resource_kind what, resource_action action, std::vector<prefix> ranges,
              std::optional<std::uint32_t> other, std::optional<range_role> role) -> change_resource {
  change_resource r;
  r.what = what;
  r.action = action;
  r.ranges = std::move(ranges);
  r.other = other;
  r.role = role;
  return r;
}

auto changes_of(const row_input& in, std::optional<std::uint32_t> k) -> std::vector<const plan_change*> {
  std::vector<const plan_change*> out;
  for (auto c : in.op.changes) {
    const auto& change = in.changes[c];
    if (change.range && in.planned.ranges[*change.range].is_route()) continue;  // add_route_steps' business
    if (!k || change.owner == *k) out.push_back(&change);
  }
  return out;
}

auto ranges_of(const fleet& planned, const owner& o, range_role role) -> std::vector<prefix> {
  std::vector<prefix> out;
  for (auto k : o.ranges) {
    const auto& r = planned.ranges[k];
    if (r.role == role && r.is_plain()) out.push_back(r.cidr);
  }
  return out;
}

auto tenth_address(const prefix& services) -> address {
  return address::from_bits(services.version(), services.network().bits() + 10);
}

auto first_address(const prefix& services) -> address { return services.network().next(); }

auto covering_block(const std::vector<prefix>& ranges) -> std::optional<prefix> {
  std::optional<prefix> cover;
  for (const auto& r : ranges) {
    if (!cover) {
      cover = r;
      continue;
    }
    if (cover->version() != r.version()) return std::nullopt;
    while (!cover->supernet_of(r)) cover = cover->supernet();
  }
  return cover;
}

auto container_block(const fleet& planned, const owner& o, const cluster_profile& p) -> std::optional<prefix> {
  auto networks = ranges_of(planned, o, range_role::network);
  const bool exempt = p.ipam && p.ipam->addresses.value == address_source::network;
  auto clear = [&](const prefix& block) {
    if (exempt) return true;
    for (const auto& n : networks) {
      if (n.overlaps(block)) return false;
    }
    return true;
  };
  std::vector<prefix> pods, both;
  for (const auto& r : ranges_of(planned, o, range_role::pods)) {
    if (r.version() == ip_version::v4) pods.push_back(r);
  }
  if (pods.empty()) return std::nullopt;
  both = pods;
  for (const auto& r : ranges_of(planned, o, range_role::services)) {
    if (r.version() == ip_version::v4) both.push_back(r);
  }
  if (auto b = covering_block(both); b && b->length() >= 8 && clear(*b)) return b;
  if (auto b = covering_block(pods); b && clear(*b)) return b;
  return std::nullopt;
}

owner_connections::owner_connections(const fleet& f) : start_(f.owners.size() + 1, 0) {
  // Counted, then filled in place: one allocation per array, in connection order per owner.
  for (const auto& conn : f.connections) {
    for (auto m : conn.members) ++start_[m + 1];
  }
  for (std::size_t k = 1; k < start_.size(); ++k) start_[k] += start_[k - 1];
  ids_.resize(start_.back());
  auto next = start_;
  for (std::uint32_t n = 0; n < f.connections.size(); ++n) {
    for (auto m : f.connections[n].members) ids_[next[m]++] = n;
  }
}

void add_route_steps(const row_input& in, runbook& out) {
  // A connection carries a moved range when its `routes` holds the range's
  // role (a VPN pushing `services`, a tunnel carrying `pods`, a peering, a
  // tailnet) or a declared route leads there; translated connections carry
  // translated ranges only (route-follows-destination).
  struct route_move {
    std::uint32_t owner;  // the network or connection member that carries it
    advertise_route add;
    withdraw_route drop;
  };
  std::vector<route_move> moves;
  for (auto k : in.op.changes) {
    const auto& c = in.changes[k];
    if (!c.from.is_valid() || c.from == c.to) continue;
    if (c.range && in.planned.ranges[*c.range].is_route()) {
      const auto& r = in.planned.ranges[*c.range];
      moves.push_back({r.owner, {c.to, c.from, std::nullopt, r.route}, {c.from, std::nullopt, r.route}});
      continue;
    }
    for (auto n : in.connections.of(c.owner)) {
      const auto& conn = in.planned.connections[n];
      // A connection that withdraws the old range never carried it; the new one is never allocated in a withdrawn prefix.
      if (conn.translates() || !conn.routes.has(c.role) || !conn.carries(c.from)) continue;
      moves.push_back({c.owner, {c.to, c.from, n, std::nullopt}, {c.from, n, std::nullopt}});
    }
  }
  if (moves.empty()) return;
  std::vector<runbook_step> first;
  for (const auto& m : moves) {
    runbook_step s;
    s.owner = m.owner;
    s.action = m.add;
    cite(s, "route-follows-destination");
    s.makes = {"new-route-advertised"};
    s.why = "a route to a range nothing uses yet is harmless, and clients reach the new range as soon as anything runs in it";
    s.checks.push_back({observable::routes, expectation::includes, {m.add.cidr}, {}, {}});
    first.push_back(std::move(s));
  }
  out.steps.insert(out.steps.begin(), first.begin(), first.end());
  const bool retired = std::any_of(out.steps.begin(), out.steps.end(), [](const runbook_step& s) {
    return std::find(s.makes.begin(), s.makes.end(), "old-range-unused") != s.makes.end();
  });
  for (const auto& m : moves) {
    runbook_step s;
    s.owner = m.owner;
    s.action = m.drop;
    cite(s, "route-follows-destination");
    s.needs = {"new-route-advertised"};
    if (retired) s.needs.push_back("old-range-unused");
    s.makes = {"old-route-withdrawn"};
    s.why = "nothing uses the old range any more";
    s.checks.push_back({observable::routes, expectation::none_in, {m.drop.cidr}, {}, {}});
    out.steps.push_back(std::move(s));
  }
}

namespace {

// Whether a step is an edit that waits for an apply of its owner's
// configuration (config-apply-separate); profiles are resolved once per run of
// steps of one owner.
class apply_waits {
 public:
  apply_waits(const fleet& planned, const catalog& c) : planned_(planned), c_(c) {}
  auto operator()(const runbook_step& s) -> bool {
    if (profiled_ != s.owner) {
      profile_ = c_.profile_of(planned_.owners[s.owner]);
      profiled_ = s.owner;
    }
    return profile_.distribution != nullptr && profile_.distribution->edit_waits_for_apply(s.action);
  }
  auto profile() const -> const cluster_profile& { return profile_; }

 private:
  const fleet& planned_;
  const catalog& c_;
  std::optional<std::uint32_t> profiled_;
  cluster_profile profile_;
};

// A runbook's steps cut before each apply: phase k is the steps up to its run
// of edits (`before`), then the run (`edits`); the last phase has no edits.
struct phase {
  std::vector<runbook_step> before, edits;
};

auto phases_of(std::vector<runbook_step> steps, apply_waits& waits) -> std::vector<phase> {
  std::vector<phase> out(1);
  for (auto& s : steps) {
    if (waits(s)) {
      out.back().edits.push_back(std::move(s));
      continue;
    }
    if (!out.back().edits.empty()) out.emplace_back();
    out.back().before.push_back(std::move(s));
  }
  return out;
}

// Whether restart b restarts every pod restart a does: every pod, or pods in
// ranges that hold a's (both of one cluster).
auto restart_covers(const runbook_step& b, const runbook_step& a) -> bool {
  const auto* x = pod_restart(a);
  const auto* y = pod_restart(b);
  if (x == nullptr || y == nullptr || a.owner != b.owner) return false;
  if (y->which == workload_selection::all_pods) return true;
  if (x->which != workload_selection::pods_in_ranges) return false;
  return std::all_of(x->ranges.begin(), x->ranges.end(), [&](const prefix& r) {
    return std::any_of(y->ranges.begin(), y->ranges.end(), [&](const prefix& z) { return r.subnet_of(z); });
  });
}

auto holds_any(const std::vector<std::string>& states, const std::vector<std::string>& wanted) -> bool {
  return std::any_of(wanted.begin(), wanted.end(),
                     [&](const std::string& w) { return std::find(states.begin(), states.end(), w) != states.end(); });
}

// One restart of a cluster's pods where a merged runbook has two and the later
// covers the earlier (restart_covers): the earlier is dropped, the later makes
// and checks what it did, and the steps between them that need what the
// earlier made (directly or through each other) move after the later one.
// Done only where no step that stays between them, nor the later restart,
// needs what the moved steps make; the plan simulates the result.
void share_restarts(std::vector<runbook_step>& steps) {
  for (std::size_t i = 0; i < steps.size();) {
    std::size_t j = i + 1;
    while (j < steps.size() && !restart_covers(steps[j], steps[i])) ++j;
    if (j == steps.size()) {
      ++i;
      continue;
    }
    std::vector<std::string> made = steps[i].makes;  // what the moved steps rely on and make
    std::vector<std::string> moved_make;
    std::vector<bool> moves(j - i, false);
    for (std::size_t k = i + 1; k < j; ++k) {
      if (!holds_any(made, steps[k].needs)) continue;
      moves[k - i] = true;
      made.insert(made.end(), steps[k].makes.begin(), steps[k].makes.end());
      moved_make.insert(moved_make.end(), steps[k].makes.begin(), steps[k].makes.end());
    }
    bool blocked = holds_any(moved_make, steps[j].needs);
    for (std::size_t k = i + 1; k < j && !blocked; ++k) blocked = !moves[k - i] && holds_any(moved_make, steps[k].needs);
    if (blocked) {
      ++i;
      continue;
    }
    auto earlier = std::move(steps[i]);
    auto later = std::move(steps[j]);
    auto& restart = std::get<restart_workloads>(later.action);
    const auto& dropped = std::get<restart_workloads>(earlier.action);
    for (const auto& d : dropped.scale_up_first) {
      if (std::find(restart.scale_up_first.begin(), restart.scale_up_first.end(), d) == restart.scale_up_first.end())
        restart.scale_up_first.push_back(d);
    }
    for (const auto& n : earlier.needs) {
      if (std::find(later.needs.begin(), later.needs.end(), n) == later.needs.end()) later.needs.push_back(n);
    }
    later.makes.insert(later.makes.end(), earlier.makes.begin(), earlier.makes.end());
    later.checks.insert(later.checks.end(), earlier.checks.begin(), earlier.checks.end());
    for (const auto& f : earlier.facts) cite(later, f);
    const std::string earlier_why = earlier.why.empty() ? "" : " (" + earlier.why + ")";
    if (dropped.which == workload_selection::pods_in_ranges) {
      std::string ranges;
      for (const auto& r : dropped.ranges) ranges += (ranges.empty() ? "" : ", ") + r.to_string();
      later.why += "; it also restarts the pods with an address in " + ranges + earlier_why +
                   ", so they need no restart of their own";
    } else {
      later.why += "; it is also the restart of every pod an earlier step would have made" + earlier_why;
    }
    std::vector<runbook_step> out;
    out.reserve(steps.size() - 1);
    std::move(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(i), std::back_inserter(out));
    std::vector<runbook_step> after;
    for (std::size_t k = i + 1; k < j; ++k) (moves[k - i] ? after : out).push_back(std::move(steps[k]));
    out.push_back(std::move(later));
    std::move(after.begin(), after.end(), std::back_inserter(out));
    std::move(steps.begin() + static_cast<std::ptrdiff_t>(j) + 1, steps.end(), std::back_inserter(out));
    steps = std::move(out);  // the step now at i is yet to be looked at
  }
}

}  // namespace

auto pod_restart(const runbook_step& s) -> const restart_workloads* {
  const auto* r = std::get_if<restart_workloads>(&s.action);
  bool pods = r != nullptr && (r->which == workload_selection::all_pods || r->which == workload_selection::pods_in_ranges);
  return pods ? r : nullptr;
}

auto applies_in(const runbook& r) -> std::size_t {
  return static_cast<std::size_t>(std::count_if(r.steps.begin(), r.steps.end(), [](const runbook_step& s) {
    return std::holds_alternative<apply_configuration>(s.action);
  }));
}

auto pod_restarts_in(const runbook& r) -> std::size_t {
  return static_cast<std::size_t>(
      std::count_if(r.steps.begin(), r.steps.end(), [](const runbook_step& s) { return pod_restart(s) != nullptr; }));
}

auto merged_runbook(const fleet& planned, const catalog& c, std::vector<runbook> books) -> runbook {
  runbook out;
  apply_waits waits(planned, c);
  std::vector<std::vector<phase>> cut;
  std::size_t count = 0;
  for (std::size_t i = 0; i < books.size(); ++i) {
    auto& b = books[i];
    // Each book's states are its own ("service-cidr-api/old-range-unused"): a
    // step must not rely on a state another operation happens to name alike.
    const bool repeated = std::any_of(books.begin(), books.begin() + static_cast<std::ptrdiff_t>(i),
                                      [&](const runbook& a) { return a.kind == b.kind; });
    const auto scope = b.kind + (repeated ? "#" + std::to_string(i + 1) : "") + "/";
    for (auto& s : b.steps) {
      for (auto* states : {&s.needs, &s.makes}) {
        for (auto& state : *states) state.insert(0, scope);
      }
    }
    out.kind += (out.kind.empty() ? "" : "+") + b.kind;
    for (auto k : b.owners) {
      if (std::find(out.owners.begin(), out.owners.end(), k) == out.owners.end()) out.owners.push_back(k);
    }
    cut.push_back(phases_of(std::move(b.steps), waits));
    count = std::max(count, cut.back().size());
  }
  for (std::size_t k = 0; k < count; ++k) {
    for (auto& phases : cut) {
      if (k < phases.size()) std::move(phases[k].before.begin(), phases[k].before.end(), std::back_inserter(out.steps));
    }
    for (auto& phases : cut) {
      if (k < phases.size()) std::move(phases[k].edits.begin(), phases[k].edits.end(), std::back_inserter(out.steps));
    }
  }
  share_restarts(out.steps);
  add_apply_steps(planned, c, out);
  return out;
}

void add_apply_steps(const fleet& planned, const catalog& c, runbook& out) {
  std::vector<runbook_step> steps;
  steps.reserve(out.steps.size() + 2);
  apply_waits waits(planned, c);
  for (std::size_t k = 0; k < out.steps.size();) {
    if (!waits(out.steps[k])) {
      steps.push_back(std::move(out.steps[k++]));
      continue;
    }
    const auto owner = out.steps[k].owner;
    runbook_step apply{owner, apply_configuration{config_store::control_plane}, {}, {}, {}, {}, {}};
    cite(apply, waits.profile().distribution->apply_control_plane);
    cite(apply, "config-apply-separate");
    for (; k < out.steps.size() && out.steps[k].owner == owner && waits(out.steps[k]); ++k) {
      auto& s = out.steps[k];
      // What an earlier edit of the run makes is there when both are applied together.
      std::erase_if(s.needs, [&](const std::string& n) {
        return std::find(apply.makes.begin(), apply.makes.end(), n) != apply.makes.end();
      });
      apply.makes.insert(apply.makes.end(), s.makes.begin(), s.makes.end());
      apply.checks.insert(apply.checks.end(), s.checks.begin(), s.checks.end());
      s.makes.clear();
      s.checks.clear();
      steps.push_back(std::move(s));
    }
    steps.push_back(std::move(apply));
  }
  out.steps = std::move(steps);
}

}  // namespace cidrcheck::detail
