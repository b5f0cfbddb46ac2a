// A plan's configuration representation (developer.hashicorp.com/terraform/internals/json-format,
// "Configuration Representation"): each module's resources with their
// `expressions`, its `module_calls` with theirs and its `outputs`. An
// expression's `references` are, in hashicorp/terraform
// internal/command/jsonconfig/expression.go, each reference followed by its
// shorter forms ("aws_subnet.a[0].id", "aws_subnet.a[0]", "aws_subnet.a";
// "module.net[\"x\"].vpc_id", "module.net[\"x\"]"); an index that is an
// expression (count.index, each.key) is not spelled: "aws_subnet.a" and
// "count.index" stand for aws_subnet.a[count.index].

#include "terraform_configuration.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <iterator>
#include <optional>

namespace cidrcheck::detail {

namespace {

// Returns the offset just past the instance key that starts at k ("[0]", "[\"a.b\"]").
auto skip_key(std::string_view text, std::size_t k) -> std::size_t {
  bool quoted = false;
  for (++k; k < text.size(); ++k) {
    if (quoted && text[k] == '\\') {
      ++k;
    } else if (text[k] == '"') {
      quoted = !quoted;
    } else if (text[k] == ']' && !quoted) {
      return k + 1;
    }
  }
  return text.size();
}

// A name of `parts` dotted words with its key and what follows:
// "aws_vpc.main[0].id" is aws_vpc.main, [0], ".id".
struct name_parts {
  std::string base, key;
  std::string_view rest;
};

auto read_name(std::string_view text, std::size_t parts) -> std::optional<name_parts> {
  std::size_t k = 0;
  for (std::size_t p = 0; p < parts; ++p) {
    if (p) {
      if (k >= text.size() || text[k] != '.') return std::nullopt;
      ++k;
    }
    auto end = std::min(text.find_first_of(".[", k), text.size());
    if (end == k) return std::nullopt;
    k = end;
  }
  name_parts out;
  out.base = std::string(text.substr(0, k));
  if (k < text.size() && text[k] == '[') {
    auto end = skip_key(text, k);
    out.key = std::string(text.substr(k, end - k));
    k = end;
  }
  out.rest = text.substr(k);
  return out;
}

auto read_resource(std::string_view text) -> std::optional<name_parts> {
  return read_name(text, text.starts_with("data.") ? 3 : 2);
}

// Reports whether a reference names a resource (a managed or data one), not a
// variable, local value, module, or count/each/path/terraform/self value.
auto is_resource(std::string_view ref) -> bool {
  for (std::string_view root : {"var.", "local.", "module.", "each.", "count.", "path.", "terraform.", "self."}) {
    if (ref.starts_with(root)) return false;
  }
  return ref.find('.') != std::string_view::npos;
}

}  // namespace

auto terraform_configuration::instance_of(const std::vector<step>& steps) -> std::string {
  std::string out;
  for (const auto& s : steps) out += (out.empty() ? "module." : ".module.") + s.name + s.key;
  return out;
}

auto terraform_configuration::module_of(const std::vector<step>& steps) -> std::string {
  std::string out;
  for (const auto& s : steps) out += (out.empty() ? "module." : ".module.") + s.name;
  return out;
}

namespace {

// Reads the module steps at the start of an instance address into `steps`;
// returns the rest ("aws_subnet.a[0]").
template <class Step>
auto read_steps(std::string_view address, std::vector<Step>& steps) -> std::string_view {
  while (address.starts_with("module.")) {
    auto p = read_name(address, 2);
    if (!p || !p->rest.starts_with(".")) break;
    steps.push_back({p->base.substr(7), p->key});
    address = p->rest.substr(1);
  }
  return address;
}

}  // namespace

terraform_configuration::terraform_configuration(source_reader& in, const source_reader::object& top)
    : in_(in), budget_(in.input().limits.max_nodes) {
  if (auto c = in.object_at(top.get("configuration"), "configuration")) walk(c->get("root_module"), "");
}

void terraform_configuration::walk(std::optional<std::uint32_t> module, const std::string& path) {
  auto m = in_.object_at(module, "a module");
  if (!m) return;
  for (auto item : in_.items(m->get("resources"), "resources")) {
    auto r = in_.object_at(item, "a resource");
    if (!r) continue;
    auto address = in_.text(r->get("address"), "address");
    auto expressions = in_.object_at(r->get("expressions"), "expressions");
    if (!address || !expressions) continue;
    auto& said = resources_[path + "|" + *address];
    said.vpc_id = references(expressions->get("vpc_id"));
    // A block is a list of expression objects (one per block written), or one object.
    auto block = expressions->get("vpc_config");
    if (block && in_.yaml().node(*block).kind == yaml_kind::sequence) {
      auto items = in_.items(block, "vpc_config");
      block = items.empty() ? std::nullopt : std::optional(items.front());
    }
    if (auto b = in_.object_at(block, "vpc_config")) said.subnet_ids = references(b->get("subnet_ids"));
    // Every attribute, and those of nested blocks one level down, for attribute_targets().
    for (const auto& e : expressions->entries()) {
      auto key = path + "|" + *address + "|" + std::string(e.key);
      if (in_.yaml().node(e.value).kind == yaml_kind::mapping) {
        attributes_[key] = references(e.value);
        if (!attributes_[key].refs.empty()) continue;
      }
      auto items = in_.yaml().node(e.value).kind == yaml_kind::sequence ? in_.items(e.value, e.key)
                                                                         : std::span<const std::uint32_t>(&e.value, 1);
      for (auto nested_node : items) {
        if (in_.yaml().node(nested_node).kind != yaml_kind::mapping) continue;
        auto nested = in_.object_at(nested_node, e.key);
        if (!nested) continue;
        for (const auto& n : nested->entries()) {
          auto more = references(n.value);
          auto& into = attributes_[key + "." + std::string(n.key)];
          if (into.refs.empty()) into.node = more.node;
          into.refs.insert(into.refs.end(), more.refs.begin(), more.refs.end());
        }
      }
    }
  }
  if (auto outputs = in_.object_at(m->get("outputs"), "outputs")) {
    for (const auto& e : outputs->entries()) {
      auto o = in_.object_at(e.value, "an output");
      if (o) outputs_[path][std::string(e.key)] = references(o->get("expression"));
    }
  }
  if (auto calls = in_.object_at(m->get("module_calls"), "module_calls")) {
    for (const auto& e : calls->entries()) {
      auto call = in_.object_at(e.value, "a module call");
      if (!call) continue;
      auto child = (path.empty() ? "" : path + ".") + "module." + std::string(e.key);
      if (auto args = in_.object_at(call->get("expressions"), "expressions")) {
        for (const auto& arg : args->entries()) arguments_[child + "|" + std::string(arg.key)] = references(arg.value);
      }
      walk(call->get("module"), child);
    }
  }
}

// An expression's "references"; an expression of another shape (a nested block's) has none.
auto terraform_configuration::references(std::optional<std::uint32_t> node) -> expression {
  expression out;
  if (!node || in_.yaml().node(*node).kind != yaml_kind::mapping) return out;
  out.node = *node;
  auto e = in_.object_at(*node, "an expression");
  for (auto item : in_.items(e ? e->get("references") : std::nullopt, "references")) {
    if (auto text = in_.text(item, "a reference")) out.refs.push_back(*text);
  }
  return out;
}

void terraform_configuration::add_instance(std::string_view address) {
  std::vector<step> steps;
  auto rest = read_steps(address, steps);
  std::vector<step> outer;
  for (const auto& s : steps) {
    calls_[instance_of(outer) + "|" + s.name].insert(s.key);
    outer.push_back(s);
  }
  if (auto p = read_resource(rest)) instances_[instance_of(steps) + "|" + p->base].insert(p->key);
}

auto terraform_configuration::vpc_id_targets(std::string_view address) -> std::set<std::string> {
  return targets(address, &resource_expressions::vpc_id);
}

auto terraform_configuration::subnet_ids_targets(std::string_view address) -> std::set<std::string> {
  return targets(address, &resource_expressions::subnet_ids);
}

auto terraform_configuration::targets(std::string_view address, expression resource_expressions::*which)
    -> targets_found {
  scope at;
  auto p = read_resource(read_steps(address, at.steps));
  if (!p) return {};
  at.self_key = p->key;
  auto it = resources_.find(module_of(at.steps) + "|" + p->base);
  targets_found found;
  if (it != resources_.end()) resolve(at, it->second.*which, found, 0);
  return found;
}

auto terraform_configuration::attribute_targets(std::string_view address, std::string_view attribute)
    -> std::set<std::string> {
  scope at;
  auto p = read_resource(read_steps(address, at.steps));
  if (!p) return {};
  at.self_key = p->key;
  auto it = attributes_.find(module_of(at.steps) + "|" + p->base + "|" + std::string(attribute));
  targets_found found;
  if (it != attributes_.end()) resolve(at, it->second, found, 0);
  return found;
}

// Takes `work` steps from the budget; past it, reports the limit at node (once).
auto terraform_configuration::spend(std::size_t work, std::uint32_t node) -> bool {
  if (exhausted_) return false;
  if (work <= budget_) {
    budget_ -= work;
    return true;
  }
  exhausted_ = true;
  in_.error(node, diag::limit,
            "following references through module arguments and outputs walks more than the max-nodes limit of " +
                std::to_string(in_.input().limits.max_nodes) + " nodes");
  return false;
}

void terraform_configuration::resolve(const scope& at, const expression& from, targets_found& found,
                                      std::size_t depth) {
  if (!spend(from.refs.size(), from.node)) return;
  if (depth > in_.input().limits.max_depth) {
    exhausted_ = true;
    in_.error(from.node, diag::limit,
              "references lead through more module arguments and outputs than the max-depth limit of " +
                  std::to_string(in_.input().limits.max_depth));
    return;
  }
  const auto& from_refs = from.refs;
  bool dynamic = std::any_of(from_refs.begin(), from_refs.end(), [](const std::string& r) {
    return r == "count.index" || r == "each.key";
  });
  // The instances a reference without a key means: the only one; under
  // count.index or each.key, the referring object's own; else all (a splat, or
  // the whole object).
  auto pick = [&](const std::set<std::string>& keys) -> std::vector<std::string> {
    if (keys.size() == 1) return {*keys.begin()};
    if (!dynamic) return {keys.begin(), keys.end()};
    if (!at.self_key.empty() && keys.contains(at.self_key)) return {at.self_key};
    return {};
  };
  // Adds what a variable or output leads to, counting each target as work.
  auto add = [&](const targets_found& more) {
    if (spend(more.size(), from.node)) found.insert(more.begin(), more.end());
  };
  std::map<std::string, std::set<std::string>> resources;                       // base -> keys written
  std::map<std::string, std::set<std::pair<std::string, std::string>>> modules;  // name -> (key, output) written
  for (const auto& ref : from_refs) {
    if (ref.starts_with("var.")) {
      auto name = std::string_view(ref).substr(4);
      add(variable(at.steps, name.substr(0, name.find_first_of(".[")), depth + 1));
    } else if (ref.starts_with("module.")) {
      auto p = read_name(ref, 2);
      if (!p) continue;
      std::string output;
      if (p->rest.starts_with(".")) output = std::string(p->rest.substr(1, p->rest.find_first_of(".[", 1) - 1));
      modules[p->base.substr(7)].emplace(p->key, output);
    } else if (is_resource(ref)) {
      if (auto p = read_resource(ref)) resources[p->base].insert(p->key);
    }
  }
  auto instance = instance_of(at.steps);
  for (const auto& [base, written] : resources) {
    auto it = instances_.find(instance + "|" + base);
    if (it == instances_.end()) continue;
    auto prefix = (instance.empty() ? "" : instance + ".") + base;
    // A keyed reference comes with its unkeyed form, which then adds nothing.
    bool keyed = written.size() > 1 || !written.begin()->empty();
    std::vector<std::string> keys;
    if (keyed) {
      std::copy_if(written.begin(), written.end(), std::back_inserter(keys),
                   [&](const std::string& k) { return !k.empty() && it->second.contains(k); });
    } else {
      keys = pick(it->second);
    }
    if (!spend(keys.size(), from.node)) return;
    for (const auto& k : keys) found.insert(prefix + k);
  }
  for (const auto& [name, forms] : modules) {
    auto it = calls_.find(instance + "|" + name);
    if (it == calls_.end()) continue;
    // module.X[k].OUT comes with module.X[k], and module.X.OUT with module.X: the longer form says which.
    bool specific = std::any_of(forms.begin(), forms.end(), [](const auto& f) { return !f.second.empty(); });
    bool keyed = std::any_of(forms.begin(), forms.end(), [](const auto& f) { return !f.first.empty(); });
    for (const auto& [key, output_name] : forms) {
      if ((specific && output_name.empty()) || (keyed && key.empty())) continue;
      auto keys = key.empty() ? pick(it->second) : std::vector<std::string>{};
      if (!key.empty() && it->second.contains(key)) keys.push_back(key);
      for (const auto& k : keys) {
        auto child = at.steps;
        child.push_back({name, k});
        if (!output_name.empty()) {
          add(output(child, output_name, depth + 1));
        } else if (auto outs = outputs_.find(module_of(child)); outs != outputs_.end()) {
          // The whole module object: what any of its outputs leads to.
          for (const auto& o : outs->second) add(output(child, o.first, depth + 1));
        }
      }
    }
  }
}

// A variable of a module instance is the argument of its call, read in the
// calling module, where count.index and each.key are the call's own.
auto terraform_configuration::variable(const std::vector<step>& steps, std::string_view name, std::size_t depth)
    -> const targets_found& {
  static const targets_found none;
  if (steps.empty()) return none;  // the root module's variables come from outside the configuration
  auto args = arguments_.find(module_of(steps) + "|" + std::string(name));
  if (args == arguments_.end()) return none;
  auto [it, added] = resolved_.try_emplace(instance_of(steps) + "|var." + std::string(name));
  if (added) {
    scope up{std::vector<step>(steps.begin(), steps.end() - 1), steps.back().key};
    targets_found found;
    resolve(up, args->second, found, depth);
    it->second = std::move(found);
  }
  return it->second;
}

// An output of a module instance, evaluated in that instance.
auto terraform_configuration::output(const std::vector<step>& steps, const std::string& name, std::size_t depth)
    -> const targets_found& {
  static const targets_found none;
  auto outs = outputs_.find(module_of(steps));
  if (outs == outputs_.end()) return none;
  auto o = outs->second.find(name);
  if (o == outs->second.end()) return none;
  auto [it, added] = resolved_.try_emplace(instance_of(steps) + "|output." + name);
  if (added) {
    targets_found found;
    resolve({steps, ""}, o->second, found, depth);
    it->second = std::move(found);
  }
  return it->second;
}

}  // namespace cidrcheck::detail
