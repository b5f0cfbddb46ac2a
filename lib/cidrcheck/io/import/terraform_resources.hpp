#pragma once
// The Terraform resources cidrcheck reads, one reader for both importers:
// `terraform` (state, terraform.cpp) and `terraform-plan` (`terraform show
// -json` of a plan, terraform_plan.cpp). Each gives the reader one resource
// instance at a time: its type, its address and its attribute values, and for
// a plan which of them are unknown until apply.

#include "importers.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

/// One resource instance as state or a plan gives it.
struct terraform_instance {
  std::string type;
  std::string address;  ///< "module.net.aws_vpc.main", "aws_subnet.private[0]"
  std::uint32_t node;   ///< the instance's position: owners start there, notes point there
  source_reader::object values;
  /// A plan's change.after_unknown for the instance: the attributes known only
  /// after apply. nullopt for state, where every value is known.
  std::optional<std::uint32_t> unknown;
  /// A plan's VPC that an unknown vpc_id refers to, by its address (a VPC the
  /// plan creates, which has no ID yet), as the plan's configuration says.
  std::optional<std::string> vpc_reference;
  /// Where the instance comes from, for owners' descriptions: "Terraform state" or "the Terraform plan".
  std::string_view from = "Terraform state";
  /// A plan's aws_eks_cluster: the subnets (by address) its vpc_config.subnet_ids
  /// refers to, as the plan's configuration says; their VPC is the cluster's
  /// when its vpc_id is known only after apply.
  std::vector<std::string> subnet_references = {};
  /// A plan's: the instances (by address) an attribute's expression refers to
  /// ("peer_vpc_id", "routing.associated_route_table_id"), as the plan's
  /// configuration says; unset for state, where every value is known.
  std::function<std::set<std::string>(std::string_view attribute)> references = {};
};

class terraform_resources {
 public:
  terraform_resources(source_reader& in, import_result& out);
  ~terraform_resources();
  terraform_resources(const terraform_resources&) = delete;
  auto operator=(const terraform_resources&) -> terraform_resources& = delete;

  /// Reads one instance. An instance of a type cidrcheck does not read is
  /// counted for finish()'s note; an attribute unknown until apply is noted at
  /// the instance, naming it, and its range left out.
  void read(const terraform_instance& r);

  /// Adds the connections the input's peerings, transit gateways, VPNs, hubs
  /// and routes make (terraform_connections.cpp), the VPCs, now that every
  /// instance has been seen, links each EKS
  /// cluster whose vpc_id is not known to the one VPC its subnets lie in (or
  /// notes why none), and notes, at `where`, the instances of types cidrcheck
  /// does not read (per type, with counts).
  void finish(std::uint32_t where);

 private:
  // What the input says about one AWS VPC, gathered over its resources.
  struct vpc_facts {
    std::optional<std::size_t> owner;  // index into out_.owners
    bool described = false;            // an aws_vpc or aws_default_vpc is in the input
    std::vector<imported_range> blocks, associations, subnets;
    std::vector<imported_route> routes;  // its route tables' routes to a peering, transit gateway or VPN
    source_location first_seen;  // where a resource first named it
    std::string_view from;       // the first naming resource's terraform_instance::from
  };
  // An EKS cluster whose vpc_id is not known: its subnets say which VPC it runs in.
  struct cluster_subnets {
    std::size_t owner;  // index into out_.owners
    std::string address;
    std::uint32_t node;
    source_location where;  // the link's: subnet_ids, else the instance
    std::vector<std::string> ids, addresses;  // subnet IDs the values give; subnets the configuration names
    bool unknown;                             // vpc_id is known only after apply (else it is not given)
  };
  class attrs;
  using vpc_entry = std::pair<const std::string, vpc_facts>;

  void aws_vpc(const attrs& a, const terraform_instance& r);
  /// Returns the VPC a subnet or association names by vpc_id (its ID, or the
  /// address of a VPC the plan creates), or notes why there is none.
  auto vpc(const attrs& a, const terraform_instance& r) -> vpc_entry*;
  void link_clusters();
  void aws_eks(const attrs& a, const terraform_instance& r);
  void gcp_network(const attrs& a, const terraform_instance& r);
  void gcp_subnet(const attrs& a, const terraform_instance& r);
  void gke(const attrs& a, const terraform_instance& r);
  void azure_vnet(const attrs& a, const terraform_instance& r);
  void aks(const attrs& a, const terraform_instance& r);
  auto azure_prefixes(const attrs& subnet, const terraform_instance& r) -> std::vector<imported_range>;
  auto vnet_owner(const std::string& group, const std::string& name, const terraform_instance& r) -> imported_owner&;
  auto cluster(const std::string& name, std::string type, std::string what, const terraform_instance& r)
      -> imported_owner&;
  void kubernetes_version(const attrs& a, std::string_view key, imported_owner& o);
  /// Notes that the instance's `what` is known only after apply.
  void unknown(const terraform_instance& r, std::string_view what);
  /// Notes an unknown range of owner o in role; a cluster's role is then
  /// declared, so that no distribution default stands in for it.
  void unknown_range(const terraform_instance& r, std::string_view what, imported_owner& o, range_role role);

  // Connections (terraform_connections.cpp): what each resource says, kept
  // by the key of what it names (an ID, or in a plan the address of the
  // instance an unknown ID refers to), made once every instance is read.
  struct links;
  /// Reads a resource of a connection type; false for other types.
  auto read_connection(const attrs& a, const terraform_instance& r) -> bool;
  void finish_connections();
  /// Returns what an attribute names: its value (an ID), or in a plan the
  /// address of the one instance its unknown value refers to. Otherwise
  /// nullopt, with a note (`what` known only after apply) when it is unknown.
  /// `reference` is the attribute's name in the configuration when it is a nested block's ("routing.x").
  auto ref(const attrs& a, const terraform_instance& r, std::string_view key, std::string_view what,
           std::string_view reference = {}) -> std::optional<std::string>;
  /// What the connections need of the networks read: a GCP network's name by
  /// its address, a GCP subnet's network (set as its part_of in finish), a
  /// virtual network's owner name by its address.
  void note_gcp_network(const std::string& address, const std::string& name);
  void note_gcp_subnet(std::size_t owner, const attrs& a, const terraform_instance& r);
  void note_azure_vnet(const std::string& address, const std::string& name);

  source_reader& in_;
  import_result& out_;
  std::map<std::string, vpc_facts> vpcs_;
  std::map<std::string, std::string> subnet_vpcs_;  // subnet ID or address -> its VPC's key in vpcs_
  std::vector<cluster_subnets> clusters_;
  std::map<std::string, std::size_t> vnets_;
  std::map<std::string, std::size_t> skipped_;  // type -> instances of it not read
  std::unique_ptr<links> links_;
};

}  // namespace cidrcheck::detail
