// Terraform state, format version 4 (Terraform 0.12 and later), as `terraform
// state pull` prints it or terraform.tfstate holds it. Every instance of a
// managed or data resource, in the root and child modules, goes to
// terraform_resources, which reads the types docs/import/terraform.md lists.

#include "importers.hpp"
#include "terraform_resources.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

namespace cidrcheck::detail {

namespace {

// An instance's index_key as Terraform writes it in an address: [0] or ["key"].
auto index_suffix(source_reader& in, std::optional<std::uint32_t> key) -> std::string {
  if (!key) return "";
  const auto& n = in.yaml().node(*key);
  if (n.kind != yaml_kind::scalar) return "";
  auto text = std::string(in.yaml().value(*key));
  return n.quoted ? "[\"" + text + "\"]" : "[" + text + "]";
}

}  // namespace

void import_terraform(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    constexpr std::string_view expected = "a state of version 4, with resources";
    auto top = in.document(root, expected);
    if (!top) continue;
    if (top->get("format_version") && (top->get("values") || top->get("planned_values"))) {
      in.error(root, diag::import_format,
               top->get("planned_values")
                   ? "this is a plan (`terraform show -json PLANFILE`): read it as terraform-plan:FILE"
                   : "this is `terraform show -json` output; cidrcheck reads the state itself, from `terraform state pull`");
      continue;
    }
    auto version_node = top->get("version");
    auto version = in.whole(version_node, 0, 1'000'000, "version");
    if (!version) {
      if (!version_node) in.wrong_document(root, expected);
      continue;
    }
    if (*version != 4) {
      in.error(*version_node, diag::import_format,
               "state version " + std::to_string(*version) +
                   " is not supported; Terraform 0.12 and later write version 4 (`terraform state pull`)");
      continue;
    }
    terraform_resources reader(in, out);
    // Instances that hold their attributes flat ("tags.Name", "secondary_cidr_blocks.0"),
    // as Terraform 0.11 wrote them and terraformer still writes them: the first one and a count.
    std::optional<std::uint32_t> first_flat;
    std::string first_flat_address;
    std::size_t flat = 0;
    for (auto item : in.items(top->get("resources"), "resources")) {
      auto r = in.object_at(item, "a resource");
      if (!r) continue;
      auto type = in.text(r->get("type"), "type").value_or("");
      auto name = in.text(r->get("name"), "name").value_or("");
      auto module = in.text(r->get("module"), "module");
      bool data = in.text(r->get("mode"), "mode") == "data";
      std::string address = (module ? *module + "." : "") + (data ? "data." : "") + type + "." + name;
      for (auto k : in.items(r->get("instances"), "instances")) {
        auto instance = in.object_at(k, "an instance");
        if (!instance) continue;
        auto instance_address = address + index_suffix(in, instance->get("index_key"));
        if (!instance->get("attributes") && instance->get("attributes_flat")) {
          if (flat++ == 0) {
            first_flat = k;
            first_flat_address = instance_address;
          }
          continue;
        }
        auto a = in.object_at(instance->get("attributes"), "attributes");
        if (!a) continue;
        reader.read({type, std::move(instance_address), k, std::move(*a), std::nullopt, std::nullopt});
      }
    }
    if (first_flat) {
      in.error(*first_flat, diag::import_format,
               first_flat_address + (flat > 1 ? " and " + std::to_string(flat - 1) + " more instance(s)" : std::string()) +
                   " hold their attributes flat (attributes_flat), as Terraform 0.11 wrote a state and terraformer "
                   "writes one; cidrcheck reads the attributes Terraform 0.12 and later write: `terraform apply "
                   "-refresh-only` rewrites the state, then `terraform state pull`");
    }
    reader.finish(root);
  }
}

}  // namespace cidrcheck::detail
