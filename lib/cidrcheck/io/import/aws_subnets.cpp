// aws ec2 describe-subnets (JSON, as the AWS CLI prints it). Subnets are
// ranges inside their VPC, so each VPC becomes one network whose ranges the
// subnets claim `within`, as the Terraform importer reads aws_subnet: beside
// an aws-vpcs export of the same VPC, they must lie inside its blocks.

#include <cidrcheck/io/diagnostic_code.hpp>
#include "importers.hpp"

#include <map>

namespace cidrcheck::detail {

namespace {

// What the subnets of one VPC say, in reading order.
struct vpc_subnets {
  std::string id;
  source_location first_seen;
  std::vector<imported_range> blocks;
  std::vector<std::string> names;  ///< the subnets' Name tags, for the description
  std::size_t subnets = 0;
  bool is_default = false;  ///< a subnet is DefaultForAz, which only the default VPC has
  std::string account;
};

class subnet_reader {
 public:
  subnet_reader(source_reader& in, import_result& out) : in_(in), out_(out) {}

  void read(std::uint32_t node) {
    auto s = in_.object_at(node, "a subnet");
    if (!s) return;
    auto vpc_id = in_.required(*s, "VpcId", "a subnet without a VpcId");
    auto id = in_.required(*s, "SubnetId", "a subnet without a SubnetId");
    if (!vpc_id || !id) return;
    auto [it, added] = index_.emplace(*vpc_id, vpcs_.size());
    if (added) vpcs_.push_back({*vpc_id, in_.where(node), {}, {}, 0, false, {}});
    auto& v = vpcs_[it->second];
    ++v.subnets;
    if (in_.flag(s->get("DefaultForAz"), "DefaultForAz").value_or(false)) v.is_default = true;
    if (v.account.empty()) v.account = in_.text(s->get("OwnerId"), "OwnerId").value_or("");
    std::string name;
    for (auto item : in_.items(s->get("Tags"), "Tags")) {
      auto tag = in_.object_at(item, "a tag");
      if (tag && in_.text(tag->get("Key"), "Key") == "Name") name = in_.text(tag->get("Value"), "Value").value_or("");
    }
    if (!name.empty()) v.names.push_back(name);
    std::string subnet = "subnet " + *id + (name.empty() ? "" : " (" + name + ")");
    // An IPv6-only subnet has no CidrBlock (its Ipv6Native is true).
    auto before = v.blocks.size();
    bool stated = s->get("CidrBlock").has_value();
    if (auto r = in_.range(s->get("CidrBlock"), "CidrBlock of " + subnet)) v.blocks.push_back(std::move(*r));
    for (auto item : in_.items(s->get("Ipv6CidrBlockAssociationSet"), "Ipv6CidrBlockAssociationSet")) {
      auto a = in_.object_at(item, "an IPv6 CIDR block association");
      if (!a) continue;
      auto state_node = a->at({"Ipv6CidrBlockState", "State"});
      auto state = in_.text(state_node, "State");
      auto block = a->get("Ipv6CidrBlock");
      if (!aws_block_in_use(state)) {
        auto text = in_.text(block, "Ipv6CidrBlock");
        in_.yaml().report(severity::note, *state_node, diag::import_inactive,
                          subnet + ": IPv6 block " + (text ? *text + " " : "") + "is " + *state +
                              ", not associated: left out");
        continue;
      }
      stated = stated || block.has_value();
      if (auto r = in_.range(block, "Ipv6CidrBlock of " + subnet)) v.blocks.push_back(std::move(*r));
    }
    if (!stated && v.blocks.size() == before) {
      in_.yaml().report(severity::warning, node, diag::import_unplaced,
                        subnet + " of VPC " + *vpc_id + " has no CIDR block in use: left out");
    }
  }

  // Adds one network per VPC, in the order the VPCs were first met.
  void finish() {
    for (auto& v : vpcs_) {
      auto& o = add_owner(out_, v.id, owner_kind::network, v.is_default ? "aws-default-vpc" : "vpc", v.first_seen);
      add_label(o, "cloud", "aws");
      o.value.description = "AWS VPC" + (v.account.empty() ? "" : " of account " + v.account) + ", " +
                            std::to_string(v.subnets) + (v.subnets == 1 ? " subnet" : " subnets") + named(v.names) +
                            ", from aws ec2 describe-subnets";
      add_claim(o, range_role::external, claim_kind::within, std::move(v.blocks));
    }
  }

 private:
  // " (a, b, c and N more)": the first few names, so a description stays one line.
  static auto named(const std::vector<std::string>& names) -> std::string {
    constexpr std::size_t shown = 3;
    if (names.empty()) return {};
    std::string out;
    for (std::size_t k = 0; k < names.size() && k < shown; ++k) out += (k ? ", " : "") + names[k];
    if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
    return " (" + out + ")";
  }

  source_reader& in_;
  import_result& out_;
  std::vector<vpc_subnets> vpcs_;
  std::map<std::string, std::size_t> index_;  // VpcId -> vpcs_
};

}  // namespace

void import_aws_subnets(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  subnet_reader reader(in, out);
  for (auto root : roots) {
    auto top = in.document(root, "a mapping with a Subnets list");
    if (!top) continue;
    auto subnets = top->get("Subnets");
    if (!subnets) {
      in.wrong_document(root, "a mapping with a Subnets list");
      continue;
    }
    for (auto item : in.items(subnets, "Subnets")) reader.read(item);
  }
  reader.finish();
}

}  // namespace cidrcheck::detail
