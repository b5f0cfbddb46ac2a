#include <cidrcheck/plan_request.hpp>

#include <cidrcheck/analysis.hpp>

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/parse_error.hpp>
#include <cidrcheck/prefix.hpp>

#include <algorithm>

namespace cidrcheck {

namespace {

auto roles_named(const std::string& word, const std::string& option) -> role_set {
  auto roles = parse_cluster_roles(word);
  if (!roles) {
    throw plan_option_error(option + ": unknown role '" + word + "' (network, pods, services or all)" +
                            detail::did_you_mean(word, cluster_role_words));
  }
  return *roles;
}

template <class F>
void for_each_role(role_set roles, F f) {
  for (auto r : {range_role::network, range_role::pods, range_role::services}) {
    if (roles.has(r)) f(r);
  }
}

auto cidr(const std::string& text, const std::string& option) -> prefix {
  try {
    return prefix::parse(text);
  } catch (const parse_error& e) {
    throw plan_option_error(option + ": " + e.what());
  }
}

// A named pool of the options, judged as the fleet file's `plan: pools:` judges one.
auto named_pool_of(const named_pool_request& x, const std::string& option, const std::vector<named_pool>& earlier)
    -> named_pool {
  named_pool out;
  if (auto why = detail::name_problem(x.name)) throw plan_option_error(option + ": " + *why);
  out.name = x.name;
  const auto what = option + " " + detail::printable(x.name);
  if (std::any_of(earlier.begin(), earlier.end(), [&](const named_pool& p) { return p.name == x.name; })) {
    throw plan_option_error(what + ": the pool is named twice");
  }
  if (x.cidrs.empty()) throw plan_option_error(what + ": a pool needs at least one CIDR");
  for (const auto& text : x.cidrs) out.cidrs.push_back(cidr(text, what));
  auto& sel = out.selector;
  for (const auto& item : x.selector) {
    const auto& key = item.first;  // not a structured binding: lambdas below capture it
    const auto& value = item.second;
    if (key == "owner") {
      if (sel.owner) throw plan_option_error(what + ": owner is given twice");
      sel.owner = value;
    } else if (key == "role") {
      auto roles = sel.roles.value_or(role_set::none());
      roles.add(roles_named(value, what + " role"));
      sel.roles = roles;
    } else if (key.empty()) {
      throw plan_option_error(what + ": a label needs a key");
    } else if (std::any_of(sel.labels.begin(), sel.labels.end(), [&](const auto& l) { return l.first == key; })) {
      throw plan_option_error(what + ": the label " + detail::printable(key) + " is given twice");
    } else {
      sel.labels.emplace_back(key, value);
    }
  }
  return out;
}

}  // namespace

auto plan_options_for(const plan_request& request) -> plan_options {
  const auto& names = request.names;
  plan_options o;
  o.check = request.checking;
  o.fix_latent = request.fix_latent;
  for (const auto& [role, text] : request.pools) {
    auto roles = roles_named(role, names.pool);
    auto pool = cidr(text, names.pool);
    for_each_role(roles, [&](range_role r) { o.settings.pools[static_cast<std::size_t>(r)].push_back(pool); });
  }
  for (const auto& x : request.named_pools) {
    o.settings.named_pools.push_back(named_pool_of(x, names.named_pool, o.settings.named_pools));
  }
  for (const auto& text : request.avoid) o.settings.avoid.push_back(cidr(text, names.avoid));
  for (const auto& p : request.pins) {
    auto pin = check_plan_pin(p);
    if (!pin.value) throw plan_option_error(names.pin + ": " + pin.error);
    o.settings.pins.push_back({std::move(*pin.value), {}});
  }
  for (const auto& [key, text] : request.costs) {
    // A role alone is the base of its in-place kinds; anything else an override,
    // whose names the fleet and its catalog judge (below).
    auto parsed = parse_cost_key(key);
    if (auto* problem = std::get_if<cost_key_problem>(&parsed)) throw plan_option_error(problem->message);
    auto cost = parse_plan_cost(key, text);
    if (!cost.value) throw plan_option_error(cost.error);
    if (is_role_cost_key(key)) {
      for_each_role(roles_named(key, names.cost),
                    [&](range_role r) { o.settings.cost[static_cast<std::size_t>(r)] = *cost.value; });
    } else {
      auto& x = std::get<cost_override>(parsed);
      x.cost = *cost.value;
      o.settings.cost_overrides.push_back(std::move(x));
    }
  }
  if (request.headroom) {
    auto headroom = parse_plan_headroom(*request.headroom);
    if (!headroom.value) throw plan_option_error(headroom.error);
    o.settings.headroom = headroom.value;
  }
  for (const auto& word : request.routes) roles_named(word, names.routes);
  return o;
}

auto what_if_connections(const fleet& f, const plan_request& request) -> std::vector<connection> {
  const auto& names = request.names;
  role_set routes = role_set::none();
  for (const auto& word : request.routes) routes.add(roles_named(word, names.routes));
  std::vector<connection> out;
  for (const auto& group : request.connect) {
    connection link;
    link.via = "what-if";
    link.routes = routes;
    for (const auto& name : group) {
      auto k = f.find_owner(name);
      if (!k) {
        std::vector<std::string_view> known;
        for (const auto& owner : f.owners) known.push_back(owner.name);
        throw plan_option_error(names.connect + " names '" + name + "', which is no cluster or network" +
                                detail::did_you_mean(name, known));
      }
      link.members.push_back(*k);
    }
    if (link.members.size() < 2) throw plan_option_error(names.connect + " needs at least two owners in each group");
    out.push_back(std::move(link));
  }
  return out;
}

auto plan_options_for(const fleet& f, const plan_request& request, const judgement& j) -> plan_options {
  auto o = plan_options_for(request);
  for (const auto& x : o.settings.cost_overrides) {
    auto problem = check_cost_names(x, j.cat);
    if (!problem) problem = check_cost_owner(x, f);
    if (problem) throw plan_option_error(problem->message);
  }
  o.connect = what_if_connections(f, request);
  o.triage = j.triage();
  return o;
}

}  // namespace cidrcheck
