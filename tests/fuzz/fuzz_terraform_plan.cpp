// The terraform-plan importer's module resolution (terraform_configuration):
// the bytes choose a tree of module calls (count, for_each or single), each
// call's arguments, each module's outputs and its resources' vpc_id and
// subnet_ids, every expression's references drawn from what Terraform writes
// (var.X, module.M[KEY].OUT, aws_vpc.v[0].id, count.index, each.key, ...),
// with loops, splats and missing targets; the plan's instances follow from
// the tree. Random JSON almost never spells a module call, so the import
// target cannot reach this. Every input must load, or fail only with the
// resolution's limit errors at their expressions, within the fuzzer's time
// and memory limits.

#include "fuzz_target.hpp"

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void require(bool condition) {
  if (!condition) std::abort();
}

// Reads choices from the input; 0 once it is used up.
class choices {
 public:
  choices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  auto next(std::size_t n) -> std::size_t { return at_ < size_ ? data_[at_++] % n : 0; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

struct module_def {
  std::size_t parent = 0;
  std::string name;               // of its call in the parent: "m<k>"
  std::vector<std::string> keys;  // instance keys ("" for a single instance): "[0]", "[\"x\"]"
  std::string arguments, outputs, resources;  // JSON members
  std::vector<std::size_t> children;
};

auto quoted(const std::string& text) -> std::string {
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\\\"") : std::string(1, c);
  return out + "\"";
}

// A references list for an expression evaluated in module m.
auto references(choices& in, const std::vector<module_def>& modules, std::size_t m) -> std::string {
  std::vector<std::string> refs;
  auto count = 1 + in.next(4);
  for (std::size_t k = 0; k < count; ++k) {
    const auto& children = modules[m].children;
    std::string child = children.empty() ? "m9" : modules[children[in.next(children.size())]].name;
    std::string output = "o" + std::to_string(in.next(2)), var = "var.v" + std::to_string(in.next(3));
    switch (in.next(14)) {
      case 0: refs.push_back(var); break;
      case 1: refs.insert(refs.end(), {var + ".id", var}); break;
      case 2: refs.push_back("aws_vpc.v"); break;
      case 3: refs.insert(refs.end(), {"aws_vpc.v[0].id", "aws_vpc.v[0]", "aws_vpc.v"}); break;
      case 4: refs.insert(refs.end(), {"aws_vpc.v[1].id", "aws_vpc.v[1]", "aws_vpc.v"}); break;
      case 5: refs.push_back("aws_subnet.s"); break;
      case 6: refs.insert(refs.end(), {"aws_subnet.s[0].id", "aws_subnet.s[0]", "aws_subnet.s"}); break;
      case 7: refs.insert(refs.end(), {"module." + child + "." + output, "module." + child}); break;
      case 8: refs.insert(refs.end(), {"module." + child + "[0]." + output, "module." + child + "[0]"}); break;
      case 9: refs.insert(refs.end(), {"module." + child + "[\"x\"]." + output, "module." + child + "[\"x\"]"}); break;
      case 10: refs.push_back("module." + child); break;
      case 11: refs.push_back("count.index"); break;
      case 12: refs.push_back("each.key"); break;
      default: refs.push_back(in.next(2) ? "local.x" : "data.aws_vpc.d"); break;
    }
  }
  std::string out = "{\"references\": [";
  for (std::size_t k = 0; k < refs.size(); ++k) out += (k ? ", " : "") + quoted(refs[k]);
  return out + "]}";
}

auto configuration(const std::vector<module_def>& modules, std::size_t m) -> std::string {
  const auto& d = modules[m];
  std::string calls;
  for (auto c : d.children) {
    calls += std::string(calls.empty() ? "" : ", ") + quoted(modules[c].name) + ": {\"source\": \"./x\", " +
             "\"expressions\": {" + modules[c].arguments + "}, \"module\": " + configuration(modules, c) + "}";
  }
  return "{\"outputs\": {" + d.outputs + "}, \"resources\": [" + d.resources + "], \"module_calls\": {" + calls + "}}";
}

// The planned values of module m's instance at `address`, and its resource changes.
void planned(const std::vector<module_def>& modules, std::size_t m, const std::string& address, std::size_t& serial,
             std::string& values, std::string& changes) {
  auto at = [&](const std::string& resource) { return address.empty() ? resource : address + "." + resource; };
  std::string resources;
  for (std::string vpc : {"aws_vpc.v[0]", "aws_vpc.v[1]"}) {
    auto n = serial++ % 250;
    resources += std::string(resources.empty() ? "" : ", ") + "{\"address\": " + quoted(at(vpc)) +
                 ", \"type\": \"aws_vpc\", \"values\": {\"cidr_block\": \"10." + std::to_string(n) + ".0.0/16\"}}";
    auto subnet = at("aws_subnet.s[" + std::string(vpc == "aws_vpc.v[0]" ? "0" : "1") + "]");
    resources += ", {\"address\": " + quoted(subnet) + ", \"type\": \"aws_subnet\", \"values\": {\"cidr_block\": \"10." +
                 std::to_string(n) + ".1.0/24\"}}";
    changes += ", {\"address\": " + quoted(subnet) +
               ", \"change\": {\"actions\": [\"create\"], \"after_unknown\": {\"vpc_id\": true}}}";
  }
  auto cluster = at("aws_eks_cluster.c");
  resources += ", {\"address\": " + quoted(cluster) + ", \"type\": \"aws_eks_cluster\", \"values\": {\"name\": \"c" +
               std::to_string(serial++) + "\"}}";
  changes += ", {\"address\": " + quoted(cluster) +
             ", \"change\": {\"actions\": [\"create\"], \"after_unknown\": {\"vpc_config\": [{\"vpc_id\": true}]}}}";
  std::string children;
  for (auto c : modules[m].children) {
    for (const auto& key : modules[c].keys) {
      auto child = at("module." + modules[c].name + key);
      std::string inner;
      planned(modules, c, child, serial, inner, changes);
      children += std::string(children.empty() ? "" : ", ") + inner;
    }
  }
  values = "{\"address\": " + quoted(address) + ", \"resources\": [" + resources + "], \"child_modules\": [" + children + "]}";
}

auto plan_of(choices& in) -> std::string {
  std::vector<module_def> modules(1 + in.next(5));  // at most 2^4 instances of the deepest: each input stays fast
  for (std::size_t m = 1; m < modules.size(); ++m) {
    auto& d = modules[m];
    d.parent = in.next(m);
    d.name = "m" + std::to_string(m);
    switch (in.next(3)) {
      case 0: d.keys = {""}; break;
      case 1: d.keys = {"[0]", "[1]"}; break;
      default: d.keys = {"[\"x\"]", "[\"y\"]"}; break;
    }
    if (in.next(2)) d.keys.resize(1);
    modules[d.parent].children.push_back(m);
  }
  for (std::size_t m = 0; m < modules.size(); ++m) {
    auto& d = modules[m];
    for (std::size_t v = 0; v < 3; ++v) {
      if (m == 0 || in.next(4) == 0) continue;  // an argument not passed
      d.arguments += std::string(d.arguments.empty() ? "" : ", ") + "\"v" + std::to_string(v) +
                     "\": " + references(in, modules, d.parent);
    }
    for (std::size_t o = 0; o < 2; ++o) {
      d.outputs += std::string(o ? ", " : "") + "\"o" + std::to_string(o) + "\": {\"expression\": " +
                   references(in, modules, m) + "}";
    }
    d.resources = "{\"address\": \"aws_vpc.v\", \"type\": \"aws_vpc\", \"name\": \"v\", \"expressions\": {}}, "
                  "{\"address\": \"aws_subnet.s\", \"type\": \"aws_subnet\", \"name\": \"s\", \"expressions\": "
                  "{\"vpc_id\": " + references(in, modules, m) + "}}, "
                  "{\"address\": \"aws_eks_cluster.c\", \"type\": \"aws_eks_cluster\", \"name\": \"c\", \"expressions\": "
                  "{\"vpc_config\": [{\"subnet_ids\": " + references(in, modules, m) + "}]}}";
  }
  std::string values, changes;
  std::size_t serial = 0;
  planned(modules, 0, "", serial, values, changes);
  return "{\"format_version\": \"1.2\", \"planned_values\": {\"root_module\": " + values +
         "}, \"resource_changes\": [" + changes.substr(changes.empty() ? 0 : 2) +
         "], \"configuration\": {\"root_module\": " + configuration(modules, 0) + "}}";
}

auto load(const std::string& text) -> cidrcheck::fleet_load_result {
  using namespace cidrcheck;
  input_limits limits;
  limits.max_nodes = 20'000;  // small enough that the resolution's bound is reached too
  fleet_loader loader(builtin_catalog(), limits);
  loader.add_import_text(import_kind::terraform_plan, text, "plan.json");
  return loader.finish();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cidrcheck;
  choices in(data, size);
  auto text = plan_of(in);
  auto loaded = load(text);
  for (const auto& d : loaded.diagnostics) {
    require(!d.message.empty());
    // The document is generated well-formed: any error is the resolution's limit, at an expression.
    if (d.level == severity::error && d.code != "too-many-errors") require(d.code == "limit" && d.where.line > 0);
  }
  return 0;
}
