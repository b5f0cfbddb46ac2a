// The kubectl-services kind: `kubectl get services -A -o json`, counted for
// the plan's effort, its cluster IPs checked against the service ranges.

#include "import_test_support.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <gtest/gtest.h>

namespace cidrcheck {
namespace {

using namespace cidrcheck::test;

const std::string lab = fixtures + "kubectl-services/lab.json";

TEST(ImportKubectlServices, CountsServicesWithAClusterIPAndLoadBalancers) {
  auto r = load({{import_kind::kubectl_services, "kubectl-services/lab.json", "lab"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto& o = owner_of(r, "lab");
  // 7 Services: a headless one and an ExternalName have no cluster IP.
  EXPECT_EQ(o.service_count, 5u);
  EXPECT_EQ(o.load_balancer_count, 2u);
  EXPECT_EQ(o.service_count_where, (source_location{lab, 4, 9}));
  EXPECT_EQ(o.load_balancer_count_where, (source_location{lab, 92, 9}));
  auto skipped = with_code(r, "skipped");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].message,
            "kubectl-services: 2 Services have no cluster IP (headless, clusterIP: None, or ExternalName): not "
            "counted in service_count, as a service range move recreates none of them");
  // No source states the service range: the cluster IPs are not checked, and a note says so.
  auto unchecked = with_code(r, "unchecked");
  ASSERT_EQ(unchecked.size(), 2u);
  EXPECT_EQ(unchecked[0].message,
            "5 IPv4 cluster IPs of cluster lab not checked: no source states its IPv4 service range (import its "
            "kubeadm-config, or state services in a fleet file)");
}

TEST(ImportKubectlServices, WarnsOfClusterIPsOutsideTheServiceRange) {
  auto r = load({{import_kind::kubeadm_config, "kubeadm-config/lab.yaml", "lab"},
                 {import_kind::kubectl_services, "kubectl-services/lab.json", "lab"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  auto outside = with_code(r, "outside-service-range");
  ASSERT_EQ(outside.size(), 1u) << printed(r);
  EXPECT_EQ(outside[0].level, severity::warning);
  EXPECT_EQ(outside[0].where, (source_location{lab, 189, 21}));
  EXPECT_EQ(outside[0].message,
            "Service billing/legacy-gateway has cluster IP 10.32.7.19, outside the service range of cluster lab "
            "(10.96.0.0/16): it keeps the range it came from in use until the Service is recreated");
  EXPECT_TRUE(with_code(r, "unchecked").empty()) << printed(r);  // the IPv6 one is inside fd00:10:96::/112
  EXPECT_EQ(owner_of(r, "lab").service_count, 5u);
}

TEST(ImportKubectlServices, AFleetFileServiceRangeChecksToo) {
  auto r = load({{import_kind::kubectl_services, "kubectl-services/lab.json", "lab"}},
                "clusters:\n  - name: lab\n    services: [10.32.0.0/16, 10.96.0.0/16]\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(with_code(r, "outside-service-range").empty()) << printed(r);
  EXPECT_EQ(with_code(r, "unchecked").size(), 1u);  // the IPv6 address of kube-dns
}

TEST(ImportKubectlServices, AFleetFileCountThatDiffersIsAWarning) {
  auto r = load({{import_kind::kubectl_services, "kubectl-services/lab.json", "lab"}},
                "clusters:\n  - name: lab\n    services: [10.0.0.0/8]\n    service_count: 40\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(owner_of(r, "lab").service_count, 40u);  // the fleet file comes first
  auto conflicts = with_code(r, diag::sources_disagree);
  ASSERT_EQ(conflicts.size(), 1u);
  EXPECT_NE(conflicts[0].message.find("the Service count of cluster lab: 40 here, 5 in"), std::string::npos)
      << conflicts[0].message;
}

TEST(ImportKubectlServices, ABadClusterIPIsAnErrorAtItsPosition) {
  auto r = load({{import_kind::kubectl_services, "kubectl-services/bad-ip.yaml", "shop"}});
  ASSERT_FALSE(r.ok());
  auto error = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                            [](const diagnostic& d) { return d.level == severity::error; });
  ASSERT_NE(error, r.diagnostics.end());
  EXPECT_EQ(error->where, (source_location{fixtures + "kubectl-services/bad-ip.yaml", 12, 16})) << printed(r);
  EXPECT_EQ(error->message, "kubectl-services: a cluster IP: invalid address \"10.96.12.300\": octet out of range (at \"300\")");
  EXPECT_EQ(std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                          [](const diagnostic& d) { return d.level == severity::error; }),
            1);  // spec.clusterIP is spec.clusterIPs[0]: read once
}

TEST(ImportKubectlServices, OtherShapes) {
  // One Service, YAML, no List; the name is the file's and a note says so.
  auto one = load_text(import_kind::kubectl_services,
                       "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n"
                       "spec: {type: LoadBalancer, clusterIP: 10.0.0.5}\n",
                       "prod.yaml");
  ASSERT_TRUE(one.ok()) << printed(one);
  EXPECT_EQ(owner_of(one, "prod").service_count, 1u);
  EXPECT_EQ(owner_of(one, "prod").load_balancer_count, 1u);
  EXPECT_EQ(with_code(one, "inferred-name").size(), 1u);
  // An empty List: no Services at all, which is a count too.
  auto empty = load_text(import_kind::kubectl_services, "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}",
                         "empty.json");
  ASSERT_TRUE(empty.ok()) << printed(empty);
  EXPECT_EQ(owner_of(empty, "empty").service_count, 0u);
  // Other kinds are named, not dropped silently.
  auto mixed = load_text(import_kind::kubectl_services,
                         "kind: List\nitems:\n- {kind: Pod, metadata: {name: a}}\n- {kind: Pod, metadata: {name: b}}\n"
                         "- {apiVersion: v1, kind: Service, metadata: {name: c}, spec: {clusterIP: 10.0.0.9}}\n", "x.yaml");
  ASSERT_TRUE(mixed.ok()) << printed(mixed);
  ASSERT_EQ(with_code(mixed, "skipped").size(), 1u);
  EXPECT_EQ(with_code(mixed, "skipped")[0].message,
            "kubectl-services: skipped 2 objects of kind Pod: kubectl-services reads Services");
  // A file of something else says what was expected.
  auto wrong = load_text(import_kind::kubectl_services, "kind: List\nitems:\n- {kind: Pod}\n", "x.yaml");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(printed(wrong).find("expected the output of `kubectl get services -A -o json`"), std::string::npos)
      << printed(wrong);
}

// k3s's Services (kubernetes, kube-dns, metrics-server, traefik behind the
// servicelb LoadBalancer): their cluster IPs are checked against the
// distribution's default service range once defaults apply (was: "not checked").
TEST(ImportKubectlServices, K3sClusterIpsAreCheckedAgainstItsDefaultServiceRange) {
  auto r = load({{import_kind::kubectl_services, "kubectl-services/k3s.json", "edge"}},
                "clusters:\n  - {name: edge, distribution: k3s}\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(owner_of(r, "edge").service_count, 4u);
  EXPECT_EQ(owner_of(r, "edge").load_balancer_count, 1u);
  EXPECT_TRUE(with_code(r, "unchecked").empty()) << printed(r);
  EXPECT_TRUE(with_code(r, "outside-service-range").empty()) << printed(r);
  // A fleet file that moved the range makes every one of them a warning.
  auto moved = load({{import_kind::kubectl_services, "kubectl-services/k3s.json", "edge"}},
                    "clusters:\n  - {name: edge, distribution: k3s, services: 10.44.0.0/16}\n");
  EXPECT_EQ(with_code(moved, "outside-service-range").size(), 4u);
}

}  // namespace
}  // namespace cidrcheck
