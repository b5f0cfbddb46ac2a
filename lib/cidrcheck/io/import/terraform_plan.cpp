// A Terraform plan as `terraform show -json PLANFILE` prints it (the JSON
// output format, developer.hashicorp.com/terraform/internals/json-format):
// what the network will be after apply. Read, through terraform_resources:
// - planned_values.root_module and its child_modules at any depth: every
//   resource instance the plan leaves in place or creates, named by its
//   "address"; values known only after apply are omitted there, and the
//   instance's change.after_unknown (in resource_changes) says which;
// - prior_state.values: instances planned_values does not list (data sources
//   read while planning), unless resource_changes says the plan deletes them;
// - configuration (terraform_configuration.hpp): which VPC a vpc_id known
//   only after apply refers to, which subnets an EKS cluster's subnet_ids, and
//   what any other ID known only after apply names (a peering's VPCs, a
//   transit gateway attachment's route table).

#include "importers.hpp"
#include "terraform_configuration.hpp"
#include "terraform_resources.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include <algorithm>
#include <iterator>
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
    bool deletes = false, creates = false;
    for (auto a : in.items(change->get("actions"), "actions")) {
      auto text = in.text(a, "an action");
      deletes = deletes || text == "delete";
      creates = creates || text == "create";
    }
    c.deleted = deletes && !creates;
    out[*address] = c;
  }
  return out;
}

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
    terraform_configuration config(in, *top);
    // The plan's VPCs and subnets, by address: what an unknown vpc_id or subnet_ids may refer to.
    std::set<std::string> vpcs, subnets, planned_addresses;
    auto index = [&](std::uint32_t, const source_reader::object& r) {
      auto type = in.text(r.get("type"), "type");
      auto address = in.text(r.get("address"), "address");
      if (!address) return;
      config.add_instance(*address);
      planned_addresses.insert(*address);
      if (type == "aws_vpc" || type == "aws_default_vpc") vpcs.insert(*address);
      if (type == "aws_subnet" || type == "aws_default_subnet") subnets.insert(*address);
    };
    auto planned_values = in.object_at(planned, "planned_values");
    if (planned_values) each_resource(in, planned_values->get("root_module"), index);
    // At most an owner a resource: room for them at once, so that none is moved as the list grows.
    out.owners.reserve(out.owners.size() + planned_addresses.size());
    terraform_resources reader(in, out);
    // The addresses read, which the prior state's instances skip: kept only
    // when there is a prior state (a plan of new resources has none).
    std::set<std::string> seen;
    bool has_prior = top->get("prior_state").has_value();
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
        if (has_prior) seen.insert(*address);
        std::optional<std::uint32_t> unknown;
        if (planned_side && change != changes.end()) unknown = change->second.after_unknown;
        auto type = in.text(r.get("type"), "type").value_or("");
        std::optional<std::string> vpc;
        std::vector<std::string> cluster_subnets;
        if (planned_side && (type == "aws_subnet" || type.starts_with("aws_vpc_ipv"))) {
          // The one VPC of the plan the configuration leads to; none or several say nothing.
          auto targets = config.vpc_id_targets(*address);
          std::vector<std::string> found;
          std::ranges::set_intersection(targets, vpcs, std::back_inserter(found));
          if (found.size() == 1) vpc = found.front();
        } else if (planned_side && type == "aws_eks_cluster") {
          auto targets = config.subnet_ids_targets(*address);
          std::ranges::set_intersection(targets, subnets, std::back_inserter(cluster_subnets));
        }
        terraform_instance instance{type, *address, node, std::move(*values), unknown, vpc, from, std::move(cluster_subnets)};
        if (planned_side) {
          // What an attribute known only after apply refers to: instances of the plan.
          instance.references = [&config, &planned_addresses, at = *address](std::string_view attribute) {
            std::set<std::string> found;
            for (auto& target : config.attribute_targets(at, attribute)) {
              if (planned_addresses.contains(target)) found.insert(target);
            }
            return found;
          };
        }
        reader.read(instance);
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
