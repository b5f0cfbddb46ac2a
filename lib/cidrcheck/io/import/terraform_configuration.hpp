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
  auto vpc_id_targets(std::string_view address) const -> std::set<std::string>;
  /// The same for its vpc_config.subnet_ids (an aws_eks_cluster's subnets).
  auto subnet_ids_targets(std::string_view address) const -> std::set<std::string>;
  /// The same for any attribute, "name" or "block.name" (a nested block's,
  /// every block of that name): what a peering's peer_vpc_id or a route's
  /// transit_gateway_id refers to.
  auto attribute_targets(std::string_view address, std::string_view attribute) const -> std::set<std::string>;

 private:
  using refs = std::vector<std::string>;
  struct step {  // module.NAME[KEY], one step of a module instance's address
    std::string name, key;
  };
  struct scope {              // where an expression is evaluated
    std::vector<step> steps;  // the module instance, from the root
    std::string self_key;     // the key count.index or each.key stand for there, "" if none
  };
  struct resource_refs {
    refs vpc_id, subnet_ids;
  };

  void walk(std::optional<std::uint32_t> module, const std::string& path);
  auto references(std::optional<std::uint32_t> expression) -> refs;
  auto targets(std::string_view address, refs resource_refs::*which) const -> std::set<std::string>;
  void resolve(const scope& at, const refs& from, std::set<std::string>& found, int depth) const;
  void resolve_output(const scope& child, const std::string& output, std::set<std::string>& found, int depth) const;
  static auto instance_of(const std::vector<step>& steps) -> std::string;
  static auto module_of(const std::vector<step>& steps) -> std::string;

  source_reader& in_;
  std::map<std::string, resource_refs> resources_;         // "module|aws_subnet.a" -> its expressions' references
  std::map<std::string, refs> attributes_;                 // "module|aws_route.a|name" -> every attribute's references
  std::map<std::string, std::map<std::string, refs>> outputs_;  // module path -> output name -> references
  std::map<std::string, refs> arguments_;                  // "module.a.module.b|vpc_id" -> the call's argument
  std::map<std::string, std::set<std::string>> instances_;     // "instance|aws_subnet.a" -> keys of its instances
  std::map<std::string, std::set<std::string>> calls_;         // "instance|NAME" -> keys of module.NAME's instances
  mutable std::map<std::string, std::set<std::string>> output_memo_;  // "instance|output" -> what it leads to
};

}  // namespace cidrcheck::detail
