// The service-range runbooks (lib/cidrcheck/fleet/migration_services.cpp) on
// the fixture fleets of tests/fixtures/fleets/runbook/services-*.yaml: the
// ordering rule, and one test per claim of issue 14 and correction of
// docs/migration-facts.md section 6 that concerns the service range, each of
// which would have failed on the steps before the rewrite.

#include "runbook_fixture.hpp"

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

struct planned {
  fleet model;
  plan_result result;
  std::map<std::string, std::string> files;  // path -> text, as plan --emit writes them

  // The steps of the first operation of the given kind.
  auto steps(const std::string& kind) const -> const std::vector<migration_step>& {
    for (const auto& op : result.operations) {
      if (op.kind == kind) return op.steps;
    }
    ADD_FAILURE() << "no operation " << kind;
    static const std::vector<migration_step> none;
    return none;
  }
  // The text of the emitted file whose path ends in "/name".
  auto file(const std::string& name) const -> std::string {
    for (const auto& [path, text] : files) {
      if (path.size() > name.size() && path.ends_with("/" + name)) return text;
    }
    ADD_FAILURE() << "no file " << name;
    return {};
  }
};

auto fixture(const std::string& branch) -> std::string {
  return std::string(CIDRCHECK_FIXTURES) + "/fleets/runbook/services-" + branch + ".yaml";
}

auto run_file(const std::string& path) -> planned {
  fleet_loader loader(builtin_catalog());
  loader.add_file(path);
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << path;
  planned p{std::move(loaded.value), {}, {}};
  p.result = plan(p.model, builtin_catalog());
  EXPECT_TRUE(p.result.complete()) << path;
  for (auto& f : runbook_files(p.model, p.result)) p.files[f.path] = std::move(f.text);
  return p;
}

// Index of the first step that makes state, or -1.
auto maker(const std::vector<migration_step>& steps, const std::string& state) -> int {
  for (std::size_t k = 0; k < steps.size(); ++k) {
    for (const auto& m : steps[k].makes) {
      if (m == state) return static_cast<int>(k);
    }
  }
  return -1;
}

auto cites(const migration_step& s, const std::string& id) -> bool {
  for (const auto& f : s.facts) {
    if (f.id == id) return true;
  }
  return false;
}

auto all_text(const std::vector<migration_step>& steps) -> std::string {
  std::string out;
  for (const auto& s : steps) out += s.text + "\n";
  return out;
}

// Every fixture: each need made by an earlier step, each named file emitted,
// facts from the registry, and a last step that retires the old range.
TEST(ServiceRunbooks, OrderingRuleAndFilesOnEveryFixture) {
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(CIDRCHECK_FIXTURES) + "/fleets/runbook")) {
    auto name = entry.path().filename().string();
    if (!name.starts_with("services-")) continue;
    auto p = run_file(entry.path().string());
    for (std::size_t op = 0; op < p.result.operations.size(); ++op) {
      const auto& steps = p.result.operations[op].steps;
      std::set<std::string> made;
      for (std::size_t k = 0; k < steps.size(); ++k) {
        for (const auto& need : steps[k].needs) {
          EXPECT_TRUE(made.count(need)) << name << " step " << k + 1 << " needs " << need << " before it is made";
        }
        for (const auto& m : steps[k].makes) made.insert(m);
        for (const auto& f : steps[k].facts) EXPECT_NO_THROW(migration_fact_by_id(f.id)) << f.id;
        for (const auto& file : steps[k].files) {
          bool found = false;
          for (const auto& [path, text] : p.files) found = found || path.ends_with("/" + file);
          EXPECT_TRUE(found) << name << ": step " << k + 1 << " names " << file << ", which is not emitted";
        }
      }
      const auto& kind = p.result.operations[op].kind;
      if (kind == "service-cidr-api" || kind == "service-window") {
        ASSERT_FALSE(steps.empty());
        EXPECT_EQ(steps.back().makes, std::vector<std::string>{"old-range-unused"}) << name;
        EXPECT_NE(steps.back().text.find("kubectl get services -A"), std::string::npos) << name;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 8u);
}

// Issue 14 (I7, M1, M2): on 1.29 the plan said "no ServiceCIDR API"; the kops story used the alpha API.
TEST(ServiceRunbooks, AlphaApiOn129WithGateAndRuntimeConfig) {
  auto p = run_file(fixture("kubeadm-129"));
  const auto& steps = p.steps("service-cidr-api");
  auto text = all_text(steps);
  EXPECT_EQ(text.find("no ServiceCIDR API"), std::string::npos);
  EXPECT_NE(text.find("--runtime-config=networking.k8s.io/v1alpha1=true"), std::string::npos);
  EXPECT_NE(p.file("servicecidr.yaml").find("apiVersion: networking.k8s.io/v1alpha1\n"), std::string::npos);
  EXPECT_NE(p.file("kube-apiserver-api.flags").find("--feature-gates=MultiCIDRServiceAllocator=true\n"),
            std::string::npos);
  EXPECT_TRUE(cites(steps[0], "svc-alpha-1.29"));

  auto beta = run_file(fixture("kubeadm-131"));
  EXPECT_NE(beta.file("servicecidr.yaml").find("apiVersion: networking.k8s.io/v1beta1\n"), std::string::npos);
  EXPECT_NE(beta.file("kube-apiserver-api.flags").find("--runtime-config=networking.k8s.io/v1beta1=true\n"),
            std::string::npos);
  auto ga = run_file(fixture("kubeadm-133"));
  EXPECT_NE(ga.file("servicecidr.yaml").find("apiVersion: networking.k8s.io/v1\n"), std::string::npos);
  for (const auto& [path, unused] : ga.files) EXPECT_FALSE(path.ends_with("kube-apiserver-api.flags")) << path;
}

// 1.27-1.28: the sources conflict; the runbook says so and checks api-resources first.
TEST(ServiceRunbooks, Unclear127SaysConflictingAndChecks) {
  auto p = run_file(fixture("kubeadm-127"));
  const auto& first = p.steps("service-cidr-api").front();
  EXPECT_EQ(first.text.rfind("conflicting:", 0), 0u);
  EXPECT_NE(first.text.find("kubectl api-resources --api-group=networking.k8s.io"), std::string::npos);
  EXPECT_TRUE(cites(first, "svc-api-1.27-1.28"));
}

// Issue 14 (I8, M5, M6): upstream order — new ServiceCIDR, old one stops
// allocating, Services recreated, then the flag, then kubernetes.default.
TEST(ServiceRunbooks, UpstreamOrderFlagAfterServicesAndOldRangeStopsAllocating) {
  for (auto branch : {"kubeadm-129", "kubeadm-131", "kubeadm-133", "kops-129", "k3s"}) {
    auto p = run_file(fixture(branch));
    const auto& steps = p.steps("service-cidr-api");
    int created = maker(steps, "new-servicecidr-serving"), stopped = maker(steps, "old-range-not-allocating"),
        recreated = maker(steps, "services-recreated"), flags = maker(steps, "flags-on-new-range"),
        kubernetes = maker(steps, "kubernetes-service-in-new-range");
    ASSERT_GE(created, 0) << branch;
    EXPECT_LT(created, stopped) << branch;
    EXPECT_LT(stopped, recreated) << branch;
    EXPECT_LT(recreated, flags) << branch;
    EXPECT_LT(flags, kubernetes) << branch;
    EXPECT_NE(steps[stopped].text.find("kubectl delete servicecidr kubernetes"), std::string::npos) << branch;
  }
}

// Issue 14 (I4, M3): the certificate keeps the old kubernetes.default address until pods restarted.
TEST(ServiceRunbooks, CertificateCarriesBothKubernetesAddressesUntilTheEnd) {
  auto p = run_file(fixture("kubeadm-133"));
  const auto& steps = p.steps("service-cidr-api");
  for (auto name : {"kubeadm-clusterconfiguration.yaml", "kubeadm-clusterconfiguration-final.yaml"}) {
    auto text = p.file(name);
    EXPECT_NE(text.find("- \"10.96.0.1\" "), std::string::npos) << name;  // old first address
    EXPECT_NE(text.find("- \"10.48.0.1\" "), std::string::npos) << name;  // new first address
  }
  int cert = maker(steps, "cert-has-both-kubernetes-ips"), flags = maker(steps, "flags-on-new-range"),
      restarted = maker(steps, "pods-use-new-addresses");
  EXPECT_LT(cert, flags);
  EXPECT_LT(restarted, static_cast<int>(steps.size()) - 1);
  EXPECT_NE(steps.back().text.find("remove 10.96.0.1 from apiServer.certSANs"), std::string::npos);
}

// Issue 14 (I5): kubeadm keeps an existing certificate unless it is moved away first.
TEST(ServiceRunbooks, KubeadmCertificateMovedAwayBeforeReissue) {
  for (auto branch : {"kubeadm-125", "kubeadm-133"}) {
    auto script = run_file(fixture(branch)).file("kubeadm-certs.sh");
    auto moved = script.find("mv /etc/kubernetes/pki/apiserver.crt /etc/kubernetes/pki/apiserver.key");
    auto issued = script.find("kubeadm init phase certs apiserver");
    ASSERT_NE(moved, std::string::npos) << branch;
    EXPECT_LT(moved, issued) << branch;
  }
}

// Issue 14 (I6, M4): kubeadm-config and kubelet-config are updated, so `kubeadm upgrade` keeps the new range.
TEST(ServiceRunbooks, KubeadmConfigMapsUpdated) {
  for (auto branch : {"kubeadm-125", "kubeadm-133"}) {
    auto p = run_file(fixture(branch));
    auto final_config = p.file("kubeadm-clusterconfiguration-final.yaml");
    EXPECT_NE(final_config.find("serviceSubnet: \"10.48.0.0/12\"\n"), std::string::npos) << branch;
    EXPECT_NE(p.file("kubelet-config.yaml").find("clusterDNS:\n  - \"10.48.0.10\"\n"), std::string::npos) << branch;
    const auto& steps = p.result.operations.front().steps;
    const auto& flags = steps[maker(steps, "flags-on-new-range")];
    EXPECT_NE(flags.text.find("kubeadm-config"), std::string::npos) << branch;
    EXPECT_TRUE(cites(flags, "kadm-upgrade-reverts")) << branch;
  }
  // kubeadm 1.33 reads v1beta3 (kadm-api-version).
  EXPECT_NE(run_file(fixture("kubeadm-133")).file("kubeadm-clusterconfiguration.yaml").find("kubeadm.k8s.io/v1beta3"),
            std::string::npos);
}

// M7: pods keep the old DNS address until restarted; kubelets alone are not enough.
TEST(ServiceRunbooks, PodsRestartedAfterDnsAndKubernetesMove) {
  for (auto branch : {"kubeadm-125", "kubeadm-133", "kops-129"}) {
    auto p = run_file(fixture(branch));
    const auto& steps = p.result.operations.front().steps;
    int restart = maker(steps, "pods-use-new-addresses");
    ASSERT_GE(restart, 0) << branch;
    EXPECT_GT(restart, maker(steps, "kubelets-use-new-dns")) << branch;
    EXPECT_GT(restart, maker(steps, "kubernetes-service-in-new-range")) << branch;
    EXPECT_TRUE(cites(steps[restart], "svc-recreate-dns")) << branch;
  }
}

// M8: OpenShift's service network cannot change: a replacement, never the in-place operations.
TEST(ServiceRunbooks, OpenShiftIsAReplacement) {
  auto p = run_file(fixture("openshift"));
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].kind, "replacement-cluster");
}

// Issue 14 (I1), M10, M18: nonMasqueradeCIDR never suggested over networkCIDR.
TEST(ServiceRunbooks, KopsNonMasqueradeNeverOverlapsNetworkCidr) {
  fleet_loader loader(builtin_catalog());
  loader.add_text(R"(
networks:
  - {name: partner, type: peer, cidrs: [100.64.0.0/16]}
clusters:
  - {name: k, distribution: kops, kubernetes: "1.29", cni: calico, network: 10.0.0.0/16, pods: 10.1.0.0/16}
connections:
  - {between: [k, partner], via: vpn}
)",
                  "t.yaml");
  auto loaded = loader.finish();
  ASSERT_TRUE(loaded.ok());
  auto result = plan(loaded.value, builtin_catalog());
  ASSERT_TRUE(result.complete());
  ASSERT_EQ(result.operations.size(), 1u);
  auto text = all_text(result.operations[0].steps);
  // The block holding pods 10.1.0.0/16 and the new service range overlaps the VPC 10.0.0.0/16.
  EXPECT_NE(text.find("overlaps networkCIDR 10.0.0.0/16: kops refuses that"), std::string::npos) << text;
  EXPECT_EQ(text.find("spec.nonMasqueradeCIDR to"), std::string::npos) << text;
}

// A dual-stack cluster moving its IPv4 range keeps its IPv6 range in the new
// ServiceCIDR and in the flag: deleting the default ServiceCIDR must not stop IPv6 allocation.
TEST(ServiceRunbooks, DualStackKeepsTheOtherFamily) {
  auto p = run_file(fixture("dualstack-133"));
  EXPECT_NE(p.file("servicecidr.yaml").find("  cidrs:\n    - \"10.48.0.0/12\"\n    - \"fd00:10:96::/112\"\n"), std::string::npos)
      << p.file("servicecidr.yaml");
  EXPECT_NE(p.file("kube-apiserver.flags").find("--service-cluster-ip-range=10.48.0.0/12,fd00:10:96::/112\n"),
            std::string::npos);
  EXPECT_NE(p.file("kubeadm-clusterconfiguration.yaml").find("serviceSubnet: \"10.96.0.0/12,fd00:10:96::/112\"\n"),
            std::string::npos);
}

// Before the API (and for unknown versions): the window of seeds 000 and 003, no ServiceCIDR object.
TEST(ServiceRunbooks, WindowBeforeTheApi) {
  for (auto branch : {"kubeadm-125", "generic-unknown", "rke2-126"}) {
    auto p = run_file(fixture(branch));
    ASSERT_EQ(p.result.operations.front().kind, "service-window") << branch;
    const auto& steps = p.result.operations.front().steps;
    EXPECT_NE(steps.front().text.find("maintenance window"), std::string::npos) << branch;
    for (const auto& [path, text] : p.files) EXPECT_FALSE(path.ends_with("servicecidr.yaml")) << path;
  }
  auto rke2 = all_text(run_file(fixture("rke2-126")).result.operations.front().steps);
  EXPECT_NE(rke2.find("on every server at once"), std::string::npos);
  // k3s-no-procedure: no documented procedure, and the maintainers' word that changing CIDRs is not well supported.
  EXPECT_NE(rke2.find("document no procedure"), std::string::npos);
}

// 1.27-1.28: when the check finds no ServiceCIDR API, the window runbook is there to follow, in
// fallback-window/, linked from the step that sends the operator to it.
TEST(ServiceRunbooks, Unclear127EmitsTheWindowRunbookAsItsFallback) {
  auto p = run_file(fixture("kubeadm-127"));
  const auto& first = p.steps("service-cidr-api").front();
  EXPECT_EQ(first.files.back(), "fallback-window/runbook.md");
  std::string outer, inner, inner_folder;
  for (const auto& [path, text] : p.files) {
    if (path.ends_with("/fallback-window/runbook.md")) {
      inner = text;
      inner_folder = path.substr(0, path.size() - std::string("runbook.md").size());
    } else if (path.ends_with("/runbook.md")) {
      outer = text;
    }
  }
  ASSERT_FALSE(inner.empty());
  EXPECT_NE(outer.find("[fallback-window/runbook.md](fallback-window/runbook.md)"), std::string::npos);
  EXPECT_EQ(inner.rfind("# service-window: ", 0), 0u) << inner;
  EXPECT_NE(inner.find("Followed instead of the service-cidr-api runbook in [../runbook.md](../runbook.md) when its "
                       "step 1 says so."),
            std::string::npos);
  EXPECT_NE(inner.find("maintenance window"), std::string::npos);
  // The window's own files sit beside its runbook.md, each naming the window's step that applies it.
  auto certs = p.files.find(inner_folder + "kubeadm-certs.sh");
  ASSERT_NE(certs, p.files.end());
  EXPECT_EQ(certs->second.rfind("# cidrcheck plan: service-window for kubeadm-127, step 2 of runbook.md", 0), 0u);
  EXPECT_EQ(p.files.count(inner_folder + "servicecidr.yaml"), 0u);
}

// svc-dual-stack-move: both families of a dual-stack service range move in one operation and one
// runbook, with one ServiceCIDR and one flag value for both.
TEST(ServiceRunbooks, DualStackBothFamiliesMoveInOneRunbook) {
  auto p = run_file(fixture("dualstack-both-133"));
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].changes.size(), 2u);
  const auto& steps = p.result.operations[0].steps;
  auto text = all_text(steps);
  const std::string v4 = "10.48.0.0/12", v6 = "fd00:10:96::1:0/112";
  EXPECT_NE(p.file("servicecidr.yaml").find("  cidrs:\n    - \"" + v4 + "\"\n    - \"" + v6 + "\"\n"), std::string::npos)
      << p.file("servicecidr.yaml");
  EXPECT_NE(p.file("kube-apiserver.flags").find("--service-cluster-ip-range=" + v4 + "," + v6 + "\n"), std::string::npos);
  // Before the switch the kubeadm configuration names both old ranges, after it both new ones.
  EXPECT_NE(p.file("kubeadm-clusterconfiguration.yaml").find("serviceSubnet: \"10.96.0.0/12,fd00:10:96::/112\""),
            std::string::npos);
  EXPECT_NE(p.file("kubeadm-clusterconfiguration-final.yaml").find("serviceSubnet: \"" + v4 + "," + v6 + "\""),
            std::string::npos);
  EXPECT_NE(text.find("retire the old ranges 10.96.0.0/12 and fd00:10:96::/112"), std::string::npos);
  std::size_t servicecidrs = 0;
  for (const auto& [path, file] : p.files) servicecidrs += path.ends_with("/servicecidr.yaml") ? 1 : 0;
  EXPECT_EQ(servicecidrs, 1u);
}

// svc-kubernetes-single-stack: when only the secondary family moves, kubernetes.default, the DNS
// address and every Service's primary address stay. The runbook names no address of the moved range as
// kubernetes.default or DNS, reissues no certificate, adds no DNS Service, leaves kubelets alone, and
// gives dual-stack Services their new address by patching ipFamilyPolicy (svc-secondary-family-patch).
TEST(ServiceRunbooks, SecondaryFamilyMoveKeepsKubernetesDefaultAndDns) {
  struct branch {
    const char* name;
    const char* kind;
    const char* moved_first;  // the first address of the moved range, never kubernetes.default
  };
  for (auto b : {branch{"dualstack-secondary-133", "service-cidr-api", "fd00:10:96::1"},
                 branch{"dualstack-secondary-126", "service-window", "fd00:10:96::1"},
                 branch{"dualstack-secondary-rke2-128", "service-cidr-api", "fd00:10:96::1"},
                 branch{"dualstack-secondary-v4-130", "service-cidr-api", "10.96.0.1"}}) {
    SCOPED_TRACE(b.name);
    auto p = run_file(fixture(b.name));
    ASSERT_EQ(p.result.operations.size(), 1u);
    const auto& op = p.result.operations.front();
    ASSERT_EQ(op.kind, b.kind);
    ASSERT_EQ(op.changes.size(), 1u);
    auto text = all_text(op.steps);
    for (const auto* absent : {"kubernetes.default address", "kube-dns-next", "clusterDNS", "certSANs",
                               "--cluster-dns", "delete service kubernetes", "restart every pod"}) {
      EXPECT_EQ(text.find(absent), std::string::npos) << absent << "\n" << text;
    }
    EXPECT_EQ(text.find(std::string(b.moved_first) + " ("), std::string::npos) << text;
    EXPECT_EQ(maker(op.steps, "cert-has-both-kubernetes-ips"), -1);
    EXPECT_EQ(maker(op.steps, "new-dns-serving"), -1);
    EXPECT_NE(text.find("\"ipFamilyPolicy\":\"SingleStack\""), std::string::npos) << text;
    int services = maker(op.steps, "services-recreated"), flags = maker(op.steps, "flags-on-new-range");
    ASSERT_GE(services, 0);
    EXPECT_TRUE(cites(op.steps[static_cast<std::size_t>(services)], "svc-secondary-family-patch"));
    EXPECT_TRUE(cites(op.steps[static_cast<std::size_t>(services)], "svc-kubernetes-single-stack"));
    // With the API, Services move before the flag (svc-reconfigure-order); in the window, after it.
    if (op.kind == std::string("service-cidr-api")) {
      EXPECT_LT(services, flags);
    } else {
      EXPECT_GT(services, flags);
    }
    for (const auto& [path, file] : p.files) {
      for (const auto* absent : {"kubeadm-certs.sh", "kube-dns-next.yaml", "kubelet-config.yaml"}) {
        EXPECT_FALSE(path.ends_with(std::string("/") + absent)) << path;
      }
      EXPECT_EQ(file.find("certSANs"), std::string::npos) << path;
    }
  }
  // The kubeadm configuration after the switch names the kept IPv4 range first, then the new IPv6 one.
  auto p = run_file(fixture("dualstack-secondary-133"));
  EXPECT_NE(p.file("kubeadm-clusterconfiguration-final.yaml").find("serviceSubnet: \"10.96.0.0/12,"), std::string::npos);
}

// kops-apiserver-sans: nodeup puts only the first address of the current range in the certificate,
// so the old kubernetes.default address goes into the additional SANs before the range switches.
TEST(ServiceRunbooks, KopsCertificateKeepsTheOldAddressThroughAdditionalSans) {
  auto p = run_file(fixture("kops-129"));
  const auto& steps = p.steps("service-cidr-api");
  int cert = maker(steps, "cert-has-both-kubernetes-ips"), flags = maker(steps, "flags-on-new-range");
  ASSERT_GE(cert, 0);
  EXPECT_LT(cert, flags);
  EXPECT_TRUE(cites(steps[cert], "kops-apiserver-sans"));
  EXPECT_EQ(steps[cert].text.find("unverified"), std::string::npos);
  auto sans = p.file("kops-cluster-sans.yaml");
  // The kops.k8s.io/v1alpha2 field that `kops edit cluster` shows; spec.api.additionalSANs is the internal
  // API's, which v1alpha2's conversion overwrites from this one.
  EXPECT_NE(sans.find("spec:\n  additionalSans:\n"), std::string::npos) << sans;
  EXPECT_EQ(sans.find("  api:"), std::string::npos) << sans;
  EXPECT_NE(steps.back().text.find("from spec.additionalSans"), std::string::npos);
  // kops-cluster-dns: the roll that switches the range derives kubelet clusterDNS unless the spec pins it.
  EXPECT_TRUE(cites(steps[flags], "kops-cluster-dns"));
  EXPECT_EQ(steps[flags].text.find("unverified"), std::string::npos) << steps[flags].text;
  EXPECT_NE(steps[flags].text.find("spec.kubelet.clusterDNS"), std::string::npos) << steps[flags].text;
}

// kops-svc-one-cidr: kops parses serviceClusterIPRange as one CIDR, so a kops cluster given two
// service ranges gets no runbook that writes two into it.
TEST(ServiceRunbooks, KopsDualStackServiceRangeIsRefused) {
  auto p = testing::plan_text(R"(
networks: [{name: office, type: office, cidrs: [100.64.0.0/16]}]
clusters:
  - {name: k, distribution: kops, kubernetes: "1.33", network: 10.20.0.0/16, pods: 100.96.0.0/11,
     services: [100.64.0.0/13, "fd00:10:96::/112"]}
connections: [[k, office]]
)");
  ASSERT_FALSE(p.result.operations.empty());
  const auto& steps = p.result.operations.front().steps;
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_TRUE(cites(steps.front(), "kops-svc-one-cidr"));
  for (const auto& f : p.files) EXPECT_FALSE(f.path.ends_with("kops-cluster.yaml")) << f.path;
}

}  // namespace
}  // namespace cidrcheck
