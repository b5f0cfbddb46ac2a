// Which overlaps check() leaves out because a cluster lies in a VPC
// (lib/cidrcheck/fleet/vpc.hpp): a cluster network and its own VPC, two cluster
// networks in one VPC; everything else that overlaps is still reported.

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace cidrcheck {
namespace {

// The overlap findings of a fleet, as "owner/role~owner/role".
auto overlaps(std::string_view yaml) -> std::vector<std::string> {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  const auto& f = loaded.value;
  std::vector<std::string> out;
  for (const auto& x : check(f, builtin_catalog())) {
    if (x.id != rule::overlap && x.id != rule::latent_overlap) continue;
    std::string pair;
    for (auto k : x.ranges) {
      pair += (pair.empty() ? "" : "~") + f.owners[f.ranges[k].owner].name + "/" + std::string(to_string(f.ranges[k].role));
    }
    out.push_back(pair);
  }
  return out;
}

struct vpc_case {
  std::string_view name;
  std::string_view networks, clusters;
  std::vector<std::string> want;
};

TEST(VpcMembership, LeavesOutOnlyAClusterNetworkInItsOwnVpc) {
  const vpc_case cases[] = {
      // the network inside its VPC, and the VPC's own CIDR as a cluster network (kops in a shared VPC)
      {"inside", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}",
       "{name: a, network: 10.50.0.0/17, pods: [], services: []}, {name: b, network: 10.50.0.0/16, pods: [], services: []}",
       {}},
      // every VPC type
      {"vnet", "{name: v, type: vnet, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.1.0/24, pods: [], services: []}", {}},
      {"gcp", "{name: v, type: gcp-vpc, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.1.0/24, pods: [], services: []}", {}},
      // a network that is no VPC
      {"office", "{name: v, type: office, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.1.0/24, pods: [], services: []}",
       {"a/network~v/external"}},
      // pods are not the network: pods inside the VPC collide with its hosts
      {"pods", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.60.0.0/16, pods: 10.50.0.0/20, services: []}",
       {"a/pods~v/external"}},
      // sticking out: a /15 around the /16
      {"wider", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.0.0/15, pods: [], services: []}",
       {"a/network~v/external"}},
      // a member and a cluster whose network only overlaps the member's from outside the VPC
      {"outsider", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}",
       "{name: a, network: 10.50.0.0/17, pods: [], services: []}, {name: b, network: 10.50.0.0/15, pods: [], services: []}",
       {"a/network~b/network", "b/network~v/external"}},
  };
  for (const auto& c : cases) {
    std::string yaml = "networks: [" + std::string(c.networks) + "]\nclusters: [" + std::string(c.clusters) +
                       "]\nconnections:\n  - {between: [v, a" + (c.clusters.find("name: b") != std::string_view::npos ? ", b" : "") +
                       "], via: peering}\n";
    EXPECT_EQ(overlaps(yaml), c.want) << c.name;
  }
}

}  // namespace
}  // namespace cidrcheck
