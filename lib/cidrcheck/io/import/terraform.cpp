// Terraform state, format version 4 (Terraform 0.12 and later), as `terraform
// state pull` prints it or terraform.tfstate holds it. Read, from managed and
// data resources alike: aws_vpc, aws_default_vpc, aws_vpc_ipv4_cidr_block_association,
// aws_vpc_ipv6_cidr_block_association, aws_subnet, aws_default_subnet (a default
// VPC's subnet, adopted: the provider keeps its schema in sync with aws_subnet's,
// terraform-provider-aws resourceDefaultSubnet), google_compute_subnetwork,
// azurerm_virtual_network and azurerm_subnet. Other resources are skipped.

#include "importers.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <map>

namespace cidrcheck::detail {

namespace {

// What the state says about one VPC, gathered over its resources.
struct vpc_facts {
  std::optional<std::size_t> owner;   // index into out.owners
  bool described = false;             // an aws_vpc or aws_default_vpc is in the state
  std::vector<imported_range> blocks, associations, subnets;
  source_location first_seen;
};

class state_reader {
 public:
  state_reader(source_reader& in, import_result& out) : in_(in), out_(out) {}

  void resource(const source_reader::object& r) {
    auto type = in_.text(r.get("type"), "type").value_or("");
    auto name = in_.text(r.get("name"), "name").value_or("");
    auto module = in_.text(r.get("module"), "module");
    bool data = in_.text(r.get("mode"), "mode") == "data";
    std::string address = (module ? *module + "." : "") + (data ? "data." : "") + type + "." + name;
    for (auto item : in_.items(r.get("instances"), "instances")) {
      auto instance = in_.object_at(item, "an instance");
      if (!instance) continue;
      auto a = in_.object_at(instance->get("attributes"), "attributes");
      if (!a) continue;
      if (type == "aws_vpc" || type == "aws_default_vpc") {
        aws_vpc(*a, item, type == "aws_default_vpc", address);
      } else if (type == "aws_vpc_ipv4_cidr_block_association" || type == "aws_vpc_ipv6_cidr_block_association") {
        auto key = type == "aws_vpc_ipv4_cidr_block_association" ? "cidr_block" : "ipv6_cidr_block";
        if (auto v = vpc(*a, item)) {
          if (auto block = in_.range(a->get(key), key)) v->associations.push_back(std::move(*block));
        }
      } else if (type == "aws_subnet" || type == "aws_default_subnet") {
        if (auto v = vpc(*a, item)) {
          for (auto key : {"cidr_block", "ipv6_cidr_block"}) {
            if (auto block = in_.range(a->get(key), key)) v->subnets.push_back(std::move(*block));
          }
        }
      } else if (type == "google_compute_subnetwork") {
        gcp_subnet(*a, item, address);
      } else if (type == "azurerm_virtual_network") {
        azure_vnet(*a, item, address);
      } else if (type == "azurerm_subnet") {
        auto group = in_.text(a->get("resource_group_name"), "resource_group_name");
        auto vnet = in_.text(a->get("virtual_network_name"), "virtual_network_name");
        if (!group || !vnet) continue;
        auto& o = vnet_owner(*group, *vnet, item, address);
        add_claim(o, range_role::external, claim_kind::within, prefixes(*a));
      }
    }
  }

  // Adds the VPCs, now that every resource has been seen: an aws_vpc's blocks
  // and associations are the VPC's; associations alone are more of a VPC
  // described elsewhere; subnets lie inside.
  void finish() {
    for (auto& [id, v] : vpcs_) {
      if (!v.owner) {
        v.owner = out_.owners.size();
        auto& o = add_owner(out_, id, owner_kind::network, "vpc", v.first_seen);
        o.value.description = "AWS VPC, known from resources in Terraform state that name it";
      }
      auto& o = out_.owners[*v.owner];
      if (v.described) {
        v.blocks.insert(v.blocks.end(), v.associations.begin(), v.associations.end());
        add_claim(o, range_role::external, claim_kind::exact, std::move(v.blocks));
      } else {
        add_claim(o, range_role::external, claim_kind::additional, std::move(v.associations));
      }
      add_claim(o, range_role::external, claim_kind::within, std::move(v.subnets));
    }
  }

 private:
  auto vpc(const source_reader::object& a, std::uint32_t node) -> vpc_facts* {
    auto id = in_.text(a.get("vpc_id"), "vpc_id");
    if (!id) return nullptr;
    auto& v = vpcs_[*id];
    if (v.first_seen.file.empty()) v.first_seen = in_.where(node);
    return &v;
  }

  void aws_vpc(const source_reader::object& a, std::uint32_t node, bool is_default, const std::string& address) {
    auto id = in_.text(a.get("id"), "id");
    if (!id) return;
    auto& v = vpcs_[*id];
    v.described = true;
    if (!v.owner) {
      v.owner = out_.owners.size();
      add_owner(out_, *id, owner_kind::network, is_default ? "aws-default-vpc" : "vpc", in_.where(node));
    }
    auto tags = in_.object_at(a.get("tags"), "tags");
    auto name = tags ? in_.text(tags->get("Name"), "Name") : std::nullopt;
    out_.owners[*v.owner].value.description =
        "AWS VPC" + (name ? " " + *name : "") + ", from Terraform " + address;
    for (auto key : {"cidr_block", "ipv6_cidr_block"}) {
      if (auto block = in_.range(a.get(key), key)) v.blocks.push_back(std::move(*block));
    }
  }

  void gcp_subnet(const source_reader::object& a, std::uint32_t node, const std::string& address) {
    auto self = in_.text(a.get("self_link"), "self_link");
    std::string owner = self ? gcp_subnet_name(*self) : "";
    if (owner.empty()) {
      auto project = in_.text(a.get("project"), "project");
      auto region = in_.text(a.get("region"), "region");
      auto name = in_.text(a.get("name"), "name");
      if (!project || !region || !name) return;
      owner = *project + "/" + *region + "/" + *name;
    }
    auto& o = add_owner(out_, owner, owner_kind::network, "gcp-subnet", in_.where(node));
    o.value.description = "GCP subnet, from Terraform " + address;
    std::vector<imported_range> ranges;
    for (auto key : {"ip_cidr_range", "ipv6_cidr_range", "external_ipv6_prefix"}) {
      if (auto r = in_.range(a.get(key), key)) ranges.push_back(std::move(*r));
    }
    for (auto item : in_.items(a.get("secondary_ip_range"), "secondary_ip_range")) {
      auto secondary = in_.object_at(item, "a secondary range");
      if (!secondary) continue;
      if (auto r = in_.range(secondary->get("ip_cidr_range"), "ip_cidr_range")) {
        r->label = in_.text(secondary->get("range_name"), "range_name").value_or("");
        ranges.push_back(std::move(*r));
      }
    }
    add_claim(o, range_role::external, claim_kind::exact, std::move(ranges));
  }

  void azure_vnet(const source_reader::object& a, std::uint32_t node, const std::string& address) {
    auto group = in_.text(a.get("resource_group_name"), "resource_group_name");
    auto name = in_.text(a.get("name"), "name");
    if (!group || !name) return;
    auto& o = vnet_owner(*group, *name, node, address);
    o.value.description = "Azure virtual network, from Terraform " + address;
    add_claim(o, range_role::external, claim_kind::exact, in_.ranges(a.get("address_space"), "address_space"));
    std::vector<imported_range> subnets;
    for (auto item : in_.items(a.get("subnet"), "subnet")) {
      auto subnet = in_.object_at(item, "a subnet");
      if (!subnet) continue;
      auto more = prefixes(*subnet);
      subnets.insert(subnets.end(), more.begin(), more.end());
    }
    add_claim(o, range_role::external, claim_kind::within, std::move(subnets));
  }

  // An Azure subnet's prefixes: address_prefixes, or address_prefix (older providers).
  auto prefixes(const source_reader::object& subnet) -> std::vector<imported_range> {
    if (auto list = subnet.get("address_prefixes")) return in_.ranges(list, "address_prefixes");
    return in_.ranges(subnet.get("address_prefix"), "address_prefix");
  }

  auto vnet_owner(const std::string& group, const std::string& name, std::uint32_t node, const std::string& address)
      -> imported_owner& {
    auto key = azure_vnet_name("/resourceGroups/" + group + "/virtualNetworks/" + name);
    auto it = vnets_.find(key);
    if (it == vnets_.end()) {
      it = vnets_.emplace(key, out_.owners.size()).first;
      auto& o = add_owner(out_, key, owner_kind::network, "vnet", in_.where(node));
      o.value.description = "Azure virtual network, known from Terraform " + address;
    }
    return out_.owners[it->second];
  }

  source_reader& in_;
  import_result& out_;
  std::map<std::string, vpc_facts> vpcs_;
  std::map<std::string, std::size_t> vnets_;
};

}  // namespace

void import_terraform(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    constexpr std::string_view expected = "a state of version 4, with resources";
    auto top = in.document(root, expected);
    if (!top) continue;
    if (top->get("format_version") && top->get("values")) {
      in.error(root, diag::import_format,
               "this is `terraform show -json` output; cidrcheck reads the state itself, from `terraform state pull`");
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
    state_reader reader(in, out);
    for (auto item : in.items(top->get("resources"), "resources")) {
      if (auto r = in.object_at(item, "a resource")) reader.resource(*r);
    }
    reader.finish();
  }
}

}  // namespace cidrcheck::detail
