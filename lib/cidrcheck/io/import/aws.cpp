// aws ec2 describe-vpcs and aws eks describe-cluster (JSON, as the AWS CLI prints it);
// aws_subnets.cpp reads describe-subnets.

#include "../kube_version.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include "importers.hpp"

#include <algorithm>
#include <cctype>

namespace cidrcheck::detail {

auto aws_block_in_use(const std::optional<std::string>& state) -> bool {
  if (!state) return true;
  std::string s = *state;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s == "associated" || s == "associating";
}

namespace {

// The Name tag, and the clusters a kubernetes.io/cluster/NAME tag (value
// "owned" or "shared") says the VPC belongs to. kops, eksctl and the AWS cloud
// provider tag what a cluster creates or uses that way (kubernetes/kops
// pkg/resources/aws/aws.go, HasSharedTag: "owned" is the cluster's, "shared"
// is used by it and others).
auto read_tags(source_reader& in, std::optional<std::uint32_t> tags, imported_owner& o) -> std::string {
  constexpr std::string_view cluster_tag = "kubernetes.io/cluster/";
  std::string name;
  for (auto item : in.items(tags, "Tags")) {
    auto tag = in.object_at(item, "a tag");
    if (!tag) continue;
    auto key = in.text(tag->get("Key"), "Key").value_or("");
    auto value = in.text(tag->get("Value"), "Value").value_or("");
    if (key == "Name") {
      name = value;
    } else if (key.starts_with(cluster_tag) && key.size() > cluster_tag.size() &&
               (value == "owned" || value == "shared")) {
      o.claimed_by.push_back({key.substr(cluster_tag.size()), "VPC", in.where(*tag->get("Key")), {}});
    }
  }
  return name;
}

void read_vpc(source_reader& in, std::uint32_t node, import_result& out) {
  auto vpc = in.object_at(node, "a VPC");
  if (!vpc) return;
  auto id = in.required(*vpc, "VpcId", "a VPC without a VpcId");
  if (!id) return;
  bool is_default = in.flag(vpc->get("IsDefault"), "IsDefault").value_or(false);
  auto& o = add_owner(out, *id, owner_kind::network, is_default ? "aws-default-vpc" : "vpc", in.where(node));
  add_label(o, "cloud", "aws");
  auto name = read_tags(in, vpc->get("Tags"), o);
  o.value.description = "AWS VPC" + (name.empty() ? "" : " " + name) + ", from aws ec2 describe-vpcs";
  std::vector<imported_range> blocks;
  // Reads one association of the set: its block when in use, else a note at its state.
  auto association = [&](std::uint32_t item, std::string_view what, std::string_view block_key,
                          std::string_view state_key) {
    auto a = in.object_at(item, what);
    if (!a) return;
    auto state_node = a->at({state_key, "State"});
    auto state = in.text(state_node, "State");
    auto block = a->get(block_key);
    if (!aws_block_in_use(state)) {
      auto text = in.text(block, block_key);
      in.yaml().report(severity::note, *state_node, diag::import_inactive,
                       "VPC " + *id + ": " + (block_key == "CidrBlock" ? "block " : "IPv6 block ") +
                           (text ? *text + " " : "") + "is " + *state + ", not associated: left out");
      return;
    }
    if (auto r = in.range(block, std::string(block_key) + " of VPC " + *id)) blocks.push_back(std::move(*r));
  };
  // Every block is in CidrBlockAssociationSet, the primary one too; CidrBlock
  // alone is what older CLI versions print.
  if (auto set = vpc->get("CidrBlockAssociationSet")) {
    for (auto item : in.items(set, "CidrBlockAssociationSet")) {
      association(item, "a CIDR block association", "CidrBlock", "CidrBlockState");
    }
  } else if (auto r = in.range(vpc->get("CidrBlock"), "CidrBlock of VPC " + *id)) {
    blocks.push_back(std::move(*r));
  }
  for (auto item : in.items(vpc->get("Ipv6CidrBlockAssociationSet"), "Ipv6CidrBlockAssociationSet")) {
    association(item, "an IPv6 CIDR block association", "Ipv6CidrBlock", "Ipv6CidrBlockState");
  }
  add_claim(o, range_role::external, claim_kind::exact, std::move(blocks));
}

// Returns every CIDR of a list of {cidrs: [...]} (EKS remote networks).
auto remote_cidrs(source_reader& in, std::optional<std::uint32_t> list, std::string_view what)
    -> std::vector<imported_range> {
  std::vector<imported_range> out;
  for (auto item : in.items(list, what)) {
    auto network = in.object_at(item, what);
    if (!network) continue;
    auto ranges = in.ranges(network->get("cidrs"), what);
    out.insert(out.end(), ranges.begin(), ranges.end());
  }
  return out;
}

}  // namespace

void import_aws_vpcs(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    auto top = in.document(root, "a mapping with a Vpcs list");
    if (!top) continue;
    auto vpcs = top->get("Vpcs");
    if (!vpcs) {
      in.wrong_document(root, "a mapping with a Vpcs list");
      continue;
    }
    auto items = in.items(vpcs, "Vpcs");
    out.owners.reserve(out.owners.size() + items.size());  // an owner a VPC: none moved as the list grows
    for (auto item : items) read_vpc(in, item, out);
  }
}

void import_aws_eks(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  for (auto root : roots) {
    auto top = in.document(root, "a mapping with a cluster");
    if (!top) continue;
    auto cluster = in.object_at(top->get("cluster"), "cluster");
    if (!cluster) {
      if (!top->get("cluster")) in.wrong_document(root, "a mapping with a cluster");
      continue;
    }
    auto name = in.required(*cluster, "name", "a cluster without a name");
    if (!name) continue;
    auto& o = add_owner(out, *name, owner_kind::cluster, "eks", in.where(*cluster->get("name")));
    add_label(o, "cloud", "aws");
    o.value.description = "EKS cluster, from aws eks describe-cluster";
    if (auto v = cluster->get("version")) {
      auto text = in.text(v, "version");
      if (text && !(o.value.kubernetes = parse_kube_version(*text))) {
        in.error(*v, diag::type, "version must be a Kubernetes version such as \"1.29\", not \"" + *text + "\"");
      }
    }
    std::vector<imported_range> services;
    for (auto key : {"serviceIpv4Cidr", "serviceIpv6Cidr"}) {
      if (auto r = in.range(cluster->at({"kubernetesNetworkConfig", key}), key)) services.push_back(std::move(*r));
    }
    add_claim(o, range_role::services, claim_kind::exact, std::move(services));
    // Pods take addresses of the VPC (the VPC CNI): no pod range of their own,
    // except those of hybrid nodes.
    o.value.declared.add(range_role::pods);
    add_claim(o, range_role::pods, claim_kind::exact,
              remote_cidrs(in, cluster->at({"remoteNetworkConfig", "remotePodNetworks"}), "remotePodNetworks"));
    add_claim(o, range_role::network, claim_kind::additional,
              remote_cidrs(in, cluster->at({"remoteNetworkConfig", "remoteNodeNetworks"}), "remoteNodeNetworks"));
    if (auto vpc = cluster->at({"resourcesVpcConfig", "vpcId"})) {
      if (auto id = in.text(vpc, "vpcId")) {
        o.links.push_back({*id, "VPC", in.where(*vpc), {}});
        set_runs_in(o, *id, in.where(*vpc));
      }
    }
  }
}

}  // namespace cidrcheck::detail
