#pragma once
// The configuration of a Terraform plan (`terraform show -json`'s
// "configuration"): which resource instances an expression refers to, for the
// values a plan leaves unknown until apply (a subnet's vpc_id, an EKS
// cluster's subnet_ids). An expression's "references" name resources, module
// outputs and variables; the configuration is per module, not per module
// instance, so the plan's instance addresses (module.net["a"].aws_vpc.main)
// say which instance each reference means.

#include "source_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

class terraform_configuration {
 public:
  /// Reads top's "configuration": each resource's vpc_id and
  /// vpc_config.subnet_ids expressions, each module call's arguments and each
  /// module's outputs. Shapes the format does not have are reported.
  terraform_configuration(source_reader& in, const source_reader::object& top);

  /// Adds a resource instance of the plan, by address: a reference resolves
  /// only to instances added. O(log n).
  void add_instance(std::string_view address);

  /// Returns the instances (among those added) the vpc_id expression of the
  /// instance at `address` refers to, through module arguments and outputs.
  /// Each variable and output of a module instance is resolved once, so the
  /// work is linear in the references times the instances they lead to, not
  /// exponential in the nesting of modules. That work counts against the
  /// max-nodes limit (the nodes a reader walks) and chains of arguments and
  /// outputs against max-depth: past either, an error at the expression being
  /// resolved, and from then on every answer is empty.
  auto vpc_id_targets(std::string_view address) -> std::set<std::string>;
  /// The same for its vpc_config.subnet_ids (an aws_eks_cluster's subnets).
  auto subnet_ids_targets(std::string_view address) -> std::set<std::string>;
  /// The same for any attribute, "name" or "block.name" (a nested block's,
  /// every block of that name): what a peering's peer_vpc_id or a route's
  /// transit_gateway_id refers to.
  auto attribute_targets(std::string_view address, std::string_view attribute) -> std::set<std::string>;

 private:
  struct expression {         // an expression's "references", and its node for errors
    std::vector<std::string> refs;
    std::uint32_t node = 0;
  };
  struct step {  // module.NAME[KEY], one step of a module instance's address
    std::string name, key;
  };
  struct scope {              // where an expression is evaluated
    std::vector<step> steps;  // the module instance, from the root
    std::string self_key;     // the key count.index or each.key stand for there, "" if none
  };
  struct resource_expressions {
    expression vpc_id, subnet_ids;
  };
  using targets_found = std::set<std::string>;

  void walk(std::optional<std::uint32_t> module, const std::string& path);
  auto references(std::optional<std::uint32_t> expression) -> terraform_configuration::expression;
  auto targets(std::string_view address, expression resource_expressions::*which) -> targets_found;
  void resolve(const scope& at, const expression& from, targets_found& found, std::size_t depth);
  auto variable(const std::vector<step>& steps, std::string_view name, std::size_t depth) -> const targets_found&;
  auto output(const std::vector<step>& steps, const std::string& name, std::size_t depth) -> const targets_found&;
  auto spend(std::size_t work, std::uint32_t node) -> bool;
  static auto instance_of(const std::vector<step>& steps) -> std::string;
  static auto module_of(const std::vector<step>& steps) -> std::string;

  source_reader& in_;
  std::map<std::string, resource_expressions> resources_;            // "module|aws_subnet.a" -> its expressions
  std::map<std::string, expression> attributes_;                     // "module|aws_route.a|name" -> every attribute's expression
  std::map<std::string, std::map<std::string, expression>> outputs_;  // module path -> output name -> expression
  std::map<std::string, expression> arguments_;                      // "module.a.module.b|vpc_id" -> the call's argument
  std::map<std::string, std::set<std::string>> instances_;  // "instance|aws_subnet.a" -> keys of its instances
  std::map<std::string, std::set<std::string>> calls_;      // "instance|NAME" -> keys of module.NAME's instances
  // What each variable and output of a module instance leads to, once
  // resolved: "instance|var.NAME", "instance|OUTPUT". An entry being resolved
  // is empty, so a reference that leads back to it leads nowhere.
  std::map<std::string, targets_found> resolved_;
  std::size_t budget_ = 0;  // work left before the max-nodes limit
  bool exhausted_ = false;  // a limit was hit (and reported)
};

}  // namespace cidrcheck::detail
