#include <cidrcheck/fleet/operation.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace cidrcheck {
namespace {

static_assert(parse_operation_scope("pod-space") == operation_scope::pod_space);
static_assert(!parse_operation_scope("pod_space").has_value());
static_assert(parse_operation_scope("pod-expand") == operation_scope::pod_expand);
static_assert(parse_operation_scope("pod-withdraw") == operation_scope::pod_withdraw);

TEST(OperationScope, WordsReadBack) {
  for (auto s : {operation_scope::services, operation_scope::pods, operation_scope::pod_space, operation_scope::pod_expand,
                 operation_scope::pod_withdraw, operation_scope::network, operation_scope::cluster}) {
    EXPECT_EQ(parse_operation_scope(to_string(s)), s) << to_string(s);
  }
}

auto cluster(std::string type, std::string cni = {}) -> owner {
  owner o;
  o.kind = owner_kind::cluster;
  o.type = std::move(type);
  o.cni = std::move(cni);
  return o;
}

// o's pod numbering as the catalog would resolve it, here: its own CNI, addresses unknown.
auto applies(const operation_kind& k, const owner& o) -> bool { return applies(k, o, pod_numbering{o.cni, o.ipam}); }

TEST(Operation, AppliesByOwnerKindDistributionCniAndVersion) {
  operation_kind k;
  k.owners = owner_kind::cluster;
  k.distributions = {"eks"};
  EXPECT_TRUE(applies(k, cluster("eks")));
  EXPECT_FALSE(applies(k, cluster("gke")));
  owner network = cluster("eks");
  network.kind = owner_kind::network;
  EXPECT_FALSE(applies(k, network));  // another owner kind
  k.distributions.clear();
  k.not_distributions = {"gke"};
  EXPECT_FALSE(applies(k, cluster("gke")));
  k.cni = {"calico"};
  EXPECT_FALSE(applies(k, cluster("eks", "cilium")));
  EXPECT_TRUE(applies(k, cluster("eks", "calico")));
  k.kubernetes_from = kube_version{1, 29};
  EXPECT_FALSE(applies(k, cluster("eks", "calico")));  // a version bound needs a known version
  auto known = cluster("eks", "calico");
  known.kubernetes = kube_version{1, 30};
  EXPECT_TRUE(applies(k, known));
  known.kubernetes = kube_version{1, 28};
  EXPECT_FALSE(applies(k, known));
}

// The CNI compared is the one the pod numbering names (a distribution's default
// where the cluster names none), not the cluster's own field.
TEST(Operation, AppliesToTheCniThePodNumberingNames) {
  operation_kind k;
  k.cni = {"vpc-cni"};
  EXPECT_FALSE(applies(k, cluster("eks"), pod_numbering{}));
  EXPECT_TRUE(applies(k, cluster("eks"), pod_numbering{"vpc-cni", "", address_source::network}));
}

// An operation that lists address sources applies only to clusters whose pods
// take addresses from one of them; `unknown` in the list admits a cluster whose
// IPAM the catalog does not know.
TEST(Operation, AppliesOnlyToThePodAddressSourcesItLists) {
  operation_kind k;
  EXPECT_TRUE(applies(k, cluster("kubeadm"), pod_numbering{"vpc-cni", "", address_source::network}));  // empty: any
  k.pod_addresses.value = {address_source::node_pod_cidr};
  EXPECT_TRUE(applies(k, cluster("kubeadm"), pod_numbering{"flannel", "", address_source::node_pod_cidr}));
  EXPECT_FALSE(applies(k, cluster("kubeadm"), pod_numbering{"vpc-cni", "", address_source::network}));
  EXPECT_FALSE(applies(k, cluster("kubeadm"), pod_numbering{"calico", "", address_source::cni_pool}));
  EXPECT_FALSE(applies(k, cluster("kubeadm"), pod_numbering{}));
  k.pod_addresses.value.push_back(address_source::unknown);
  EXPECT_TRUE(applies(k, cluster("kubeadm"), pod_numbering{}));
  EXPECT_FALSE(applies(k, cluster("kubeadm"), pod_numbering{"vpc-cni", "", address_source::network}));
}

TEST(Operation, CostScalesWithWhatTheFleetKnowsAndSaysSo) {
  operation_kind k;
  k.cost = 2;
  k.per_nodes = 100;
  auto o = cluster("eks");
  EXPECT_EQ(cost_of(k, o).total, 2);  // node count unknown: the base alone
  o.nodes = 250;
  auto c = cost_of(k, o);
  EXPECT_EQ(c.total, 4);
  EXPECT_EQ(c.counted, (std::vector<std::string>{"base 2", "+2 for 250 nodes (1 per 100)"}));
  auto based = cost_of(k, o, cost_base{10, "services"});
  EXPECT_EQ(based.total, 12);
  EXPECT_EQ(based.counted.front(), "base 10 set by cost services instead of the catalog's 2");
}

TEST(Operation, ScalingIsCappedAtTheLargestPlanCost) {
  operation_kind k;
  k.cost = 0;
  k.per_nodes = 1;
  auto o = cluster("eks");
  o.nodes = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(cost_of(k, o).total, max_plan_cost);  // a sum of several still fits an int
}

}  // namespace
}  // namespace cidrcheck
