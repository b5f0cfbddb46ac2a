// A Terraform plan as `terraform show -json PLANFILE` prints it (the JSON
// output format, developer.hashicorp.com/terraform/internals/json-format):
// what the network will be after apply. Read, through terraform_resources:
// - planned_values.root_module and its child_modules at any depth: every
//   resource instance the plan leaves in place or creates, named by its
//   "address"; values known only after apply are omitted there, and the
//   instance's change.after_unknown (in resource_changes) says which;
// - prior_state.values: instances planned_values does not list (data sources
//   read while planning), unless resource_changes says the plan deletes them;
// - configuration: which VPC a vpc_id known only after apply refers to.

#include "importers.hpp"
#include "terraform_resources.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include <algorithm>
#include <map>
#include <set>

namespace cidrcheck::detail {

namespace {

// What resource_changes says about one instance.
struct planned_change {
  std::optional<std::uint32_t> after_unknown;
  bool deleted = false;  // "delete" without "create": gone after apply
};

// Calls read(resource node, object) for every resource of a module and of its
// child modules, depth first. The nesting is bounded by the document's
// max-depth, as every nested value is.
template <class F>
void each_resource(source_reader& in, std::optional<std::uint32_t> module, F& read) {
  auto m = in.object_at(module, "a module");
  if (!m) return;
  for (auto item : in.items(m->get("resources"), "resources")) {
    if (auto r = in.object_at(item, "a resource")) read(item, *r);
  }
  for (auto child : in.items(m->get("child_modules"), "child_modules")) each_resource(in, child, read);
}

auto plan_changes(source_reader& in, const source_reader::object& top) -> std::map<std::string, planned_change> {
  std::map<std::string, planned_change> out;
  for (auto item : in.items(top.get("resource_changes"), "resource_changes")) {
    auto rc = in.object_at(item, "a resource change");
    // A deposed object's change is about an object being replaced, not the instance.
    if (!rc || rc->get("deposed")) continue;
    auto address = in.required(*rc, "address", "a resource change without an address");
    auto change = in.object_at(rc->get("change"), "change");
    if (!address || !change) continue;
    planned_change c;
    c.after_unknown = change->get("after_unknown");
    std::set<std::string> actions;
    for (auto a : in.items(change->get("actions"), "actions")) {
      if (auto text = in.text(a, "an action")) actions.insert(*text);
    }
    c.deleted = actions.contains("delete") && !actions.contains("create");
    out[*address] = c;
  }
  return out;
}


// An instance address split at its resource: "module.a[0].module.b.aws_subnet.s[1]"
// is in module instance "module.a[0].module.b", module "module.a.module.b"
// (the configuration's path, without instance keys), as "aws_subnet.s".
struct split_address {
  std::string instance;  // module instance prefix, "" for the root
  std::string module;    // the same without instance keys
  std::string resource;  // module-local, without its index
};

auto split(std::string_view address) -> split_address {
  split_address out;
  // Skips an instance key ("[0]", "[\"a.b\"]"), quotes and all; returns the offset after it.
  auto skip_key = [&](std::size_t k) {
    bool quoted = false;
    for (; k < address.size(); ++k) {
      if (address[k] == '"' && address[k - 1] != '\\') quoted = !quoted;
      if (address[k] == ']' && !quoted) return k + 1;
    }
    return k;
  };
  std::size_t k = 0;
  while (address.substr(k).starts_with("module.")) {
    auto name_end = address.find_first_of(".[", k + 7);
    if (name_end == std::string_view::npos) break;
    auto end = address[name_end] == '[' ? skip_key(name_end) : name_end;
    out.module += (out.module.empty() ? "" : ".") + std::string(address.substr(k, name_end - k));
    out.instance = std::string(address.substr(0, end));
    k = end < address.size() && address[end] == '.' ? end + 1 : end;
  }
  auto rest = address.substr(k);
  auto bracket = rest.find('[');
  out.resource = std::string(rest.substr(0, bracket));
  return out;
}

// What the plan's configuration says about where a vpc_id comes from: the
// references of each resource's vpc_id expression, of each module call's
// arguments and of each module's outputs, keyed by module path. Used for the
// instances whose vpc_id is known only after apply: the VPC they refer to is
// then one the plan creates, known by its address.
class configuration_refs {
 public:
  configuration_refs(source_reader& in, const source_reader::object& top) : in_(in) {
    if (auto c = in.object_at(top.get("configuration"), "configuration")) walk(c->get("root_module"), "");
  }

  /// Returns the address of the VPC (among `vpcs`) the instance's vpc_id refers to, if the configuration says.
  auto vpc_of(std::string_view address, const std::set<std::string>& vpcs) const -> std::optional<std::string> {
    auto at = split(address);
    return resolve(at.instance, at.module, find(resources_, at.module + "|" + at.resource), vpcs, 0);
  }

 private:
  using refs = std::vector<std::string>;

  void walk(std::optional<std::uint32_t> module, const std::string& path) {
    auto m = in_.object_at(module, "a module");
    if (!m) return;
    for (auto item : in_.items(m->get("resources"), "resources")) {
      auto r = in_.object_at(item, "a resource");
      if (!r) continue;
      auto address = in_.text(r->get("address"), "address");
      auto expressions = in_.object_at(r->get("expressions"), "expressions");
      if (address && expressions) resources_[path + "|" + *address] = references(expressions->get("vpc_id"));
    }
    if (auto outputs = in_.object_at(m->get("outputs"), "outputs")) {
      for (const auto& e : outputs->entries()) {
        auto o = in_.object_at(e.value, "an output");
        if (o) outputs_[path + "|" + std::string(e.key)] = references(o->get("expression"));
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

  // An expression's "references": ["aws_vpc.main.id", "aws_vpc.main"], ["var.vpc_id"], ...
  auto references(std::optional<std::uint32_t> expression) -> refs {
    refs out;
    if (!expression || in_.yaml().node(*expression).kind != yaml_kind::mapping) return out;
    auto e = in_.object_at(*expression, "an expression");
    for (auto item : in_.items(e ? e->get("references") : std::nullopt, "references")) {
      if (auto text = in_.text(item, "a reference")) out.push_back(*text);
    }
    return out;
  }

  static auto find(const std::map<std::string, refs>& in, const std::string& key) -> refs {
    auto it = in.find(key);
    return it == in.end() ? refs{} : it->second;
  }

  // Follows references up through module arguments (var.X) and down through
  // module outputs (module.X.Y) to an aws_vpc of the plan. The steps are
  // bounded, so a configuration that refers in circles ends.
  auto resolve(const std::string& instance, const std::string& module, const refs& from,
               const std::set<std::string>& vpcs, int depth) const -> std::optional<std::string> {
    if (depth > 64) return std::nullopt;
    auto join = [](const std::string& prefix, std::string_view rest) {
      return prefix.empty() ? std::string(rest) : prefix + "." + std::string(rest);
    };
    for (const auto& ref : from) {
      std::string_view r = ref;
      if (r.starts_with("aws_vpc.") || r.starts_with("aws_default_vpc.")) {
        if (r.ends_with(".id")) r.remove_suffix(3);
        if (auto address = join(instance, r); vpcs.contains(address)) return address;
      } else if (r.starts_with("var.") && !module.empty()) {
        // The argument of this module's call, evaluated in the calling module.
        auto name = r.substr(4, r.find('.', 4) == std::string_view::npos ? r.npos : r.find('.', 4) - 4);
        auto up_module = module.substr(0, module.rfind(".module."));
        if (up_module == module) up_module.clear();
        auto up_instance = instance.substr(0, instance.rfind(".module."));
        if (up_instance == instance) up_instance.clear();
        auto args = find(arguments_, module + "|" + std::string(name));
        if (auto found = resolve(up_instance, up_module, args, vpcs, depth + 1)) return found;
      } else if (r.starts_with("module.")) {
        // A child module's output: module.NAME.OUTPUT (a module without count or for_each).
        auto dot = r.find('.', 7);
        if (dot == std::string_view::npos) continue;
        auto child = std::string(r.substr(0, dot));
        auto output = r.substr(dot + 1);
        output = output.substr(0, output.find('.'));
        auto down_module = join(module, child);
        auto outs = find(outputs_, down_module + "|" + std::string(output));
        if (auto found = resolve(join(instance, child), down_module, outs, vpcs, depth + 1)) return found;
      }
    }
    return std::nullopt;
  }

  source_reader& in_;
  std::map<std::string, refs> resources_, arguments_, outputs_;
};

}  // namespace

void import_terraform_plan(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    constexpr std::string_view expected = "a plan, with format_version and planned_values";
    auto top = in.document(root, expected);
    if (!top) continue;
    auto planned = top->get("planned_values");
    if (!planned) {
      if (top->get("values") || (top->get("version") && top->get("resources"))) {
        in.error(root, diag::import_format,
                 "this is a state, not a plan: read `terraform state pull` as terraform:FILE, or give "
                 "`terraform show -json PLANFILE` (after `terraform plan -out PLANFILE`)");
      } else {
        in.wrong_document(root, expected);
      }
      continue;
    }
    // The format's major version changes only when a reader must refuse it (the format's page).
    if (auto k = top->get("format_version")) {
      auto version = in.text(k, "format_version");
      if (version && !(version->starts_with("0.") || version->starts_with("1."))) {
        in.error(*k, diag::import_format,
                 "plan format version " + *version + " is not supported: cidrcheck reads versions 0.x and 1.x");
        continue;
      }
    } else {
      in.wrong_document(root, expected);
      continue;
    }
    auto changes = plan_changes(in, *top);
    configuration_refs config(in, *top);
    // The plan's VPCs, by address: what an unknown vpc_id may refer to.
    std::set<std::string> vpcs;
    auto vpc_addresses = [&](std::uint32_t, const source_reader::object& r) {
      auto type = in.text(r.get("type"), "type");
      auto address = in.text(r.get("address"), "address");
      if (address && (type == "aws_vpc" || type == "aws_default_vpc")) vpcs.insert(*address);
    };
    auto planned_values = in.object_at(planned, "planned_values");
    if (planned_values) each_resource(in, planned_values->get("root_module"), vpc_addresses);
    terraform_resources reader(in, out);
    std::set<std::string> seen;
    auto read = [&](std::string_view from, bool planned_side) {
      return [&, from, planned_side](std::uint32_t node, const source_reader::object& r) {
        auto address = in.required(r, "address", "a resource without an address");
        if (!address) return;
        auto change = changes.find(*address);
        if (!planned_side && (seen.contains(*address) || (change != changes.end() && change->second.deleted))) return;
        auto values = in.object_at(r.get("values"), "values");
        if (!values) {
          if (!r.get("values")) in.error(node, diag::missing_key, *address + " has no values");
          return;
        }
        seen.insert(*address);
        std::optional<std::uint32_t> unknown;
        if (planned_side && change != changes.end()) unknown = change->second.after_unknown;
        auto type = in.text(r.get("type"), "type").value_or("");
        std::optional<std::string> vpc;
        if (planned_side && (type == "aws_subnet" || type.starts_with("aws_vpc_ipv"))) vpc = config.vpc_of(*address, vpcs);
        reader.read({type, *address, node, std::move(*values), unknown, vpc, from});
      };
    };
    auto planned_reader = read("the Terraform plan", true);
    auto prior_reader = read("the Terraform plan's prior state", false);
    if (planned_values) each_resource(in, planned_values->get("root_module"), planned_reader);
    if (auto prior = in.object_at(top->get("prior_state"), "prior_state")) {
      if (auto values = in.object_at(prior->get("values"), "values")) each_resource(in, values->get("root_module"), prior_reader);
    }
    reader.finish(root);
  }
}

}  // namespace cidrcheck::detail
