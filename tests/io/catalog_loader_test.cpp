#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

TEST(Catalog, HasADate) {
  // `cidrcheck --version` names it: the shipped catalog must carry one.
  EXPECT_EQ(builtin_catalog().date.size(), 10u) << builtin_catalog().date;
  std::vector<diagnostic> d;
  EXPECT_EQ(parse_catalog("date: 2026-01-31\n", "c.yaml", d).date, "2026-01-31");
  EXPECT_TRUE(d.empty());
  parse_catalog("version: 1\ndate: 2026-02-30\n", "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].where.line, 2u);
  EXPECT_EQ(d[0].where.column, 7u);
  EXPECT_NE(d[0].message.find("YYYY-MM-DD"), std::string::npos) << d[0].message;
}

TEST(Catalog, ParseErrorsArePositioned) {
  std::vector<diagnostic> d;
  parse_catalog("distributions:\n  - {name: x, pods: 10.0.0.1/8, source: s}\n", "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].where.line, 2u);
}

TEST(Catalog, UnknownKeysAreReportedWithASuggestion) {
  std::vector<diagnostic> d;
  parse_catalog("version: 1\ndistributions:\n  - {name: x, pod: 10.0.0.0/8, source: s}\n", "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "unknown-key");
  EXPECT_EQ(d[0].where.line, 3u);
  EXPECT_NE(d[0].message.find("did you mean 'pods'"), std::string::npos) << d[0].message;
}

// A distribution's cni_ipam names a CNI and one of its modes, with a fact.
TEST(Catalog, ADistributionsCniIpamMustNameAModeOfTheCni) {
  const std::string cnis = "cnis:\n  - {name: c, ipam: [{name: a, pods_from: cni, pods: [10.0.0.0/8], source: s}], source: s}\n";
  std::vector<diagnostic> d;
  parse_catalog("distributions:\n  - name: x\n    source: s\n    cni_ipam: [{cni: c, mode: b, fact: svc-first-ip}]\n" + cnis,
                "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].where.line, 4u);
  EXPECT_NE(d[0].message.find("mode 'b' is not an IPAM mode of cni c"), std::string::npos) << d[0].message;
  d.clear();
  parse_catalog("distributions:\n  - name: x\n    source: s\n    cni_ipam: [{cni: c, mode: a}]\n" + cnis, "c.yaml", d);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("names a cni, its mode and the fact"), std::string::npos) << d[0].message;
  d.clear();
  auto c = parse_catalog("distributions:\n  - name: x\n    source: s\n    cni_ipam: [{cni: c, mode: a, fact: svc-first-ip}]\n" +
                         cnis, "c.yaml", d);
  EXPECT_TRUE(d.empty()) << d[0].message;
  ASSERT_EQ(c.distributions.at(0).cni_ipam.size(), 1u);
  EXPECT_EQ(c.distributions[0].cni_ipam[0].mode, "a");
}

TEST(Catalog, TheBuiltinCatalogIsParsedOnce) { EXPECT_EQ(&builtin_catalog(), &builtin_catalog()); }

// --- profiles: every field names a fact of docs/migration-facts.md ------------

// An IPAM profile with every key, `pool` written as given.
auto ipam_catalog(const std::string& pool) -> std::string {
  return "cnis:\n"
         "  - name: c\n"
         "    source: s\n"
         "    ipam:\n"
         "      - name: m\n"
         "        source: s\n"
         "        profile:\n"
         "          addresses: {value: cni-pool, fact: calico-migrate-order}\n"
         "          pool: " + pool + "\n"
         "          pool_api: {value: projectcalico.org/v3, fact: calico-ippool-fields}\n"
         "          pool_tool: {value: calicoctl, fact: calico-tool}\n"
         "          pool_copies: {value: [ipipMode], fact: calico-pool-copy}\n"
         "          pickup: {value: restart-pods, fact: calico-migrate-order}\n"
         "          restart_first: {value: [], fact: calico-migrate-order}\n"
         "          kube_proxy_holds_pool: {value: true, fact: calico-cluster-cidr}\n"
         "          range_field: {value: unknown, fact: prof-no-source}\n"
         "          config_where: {value: \"\", fact: calico-migrate-order}\n";
}

auto errors_of(const std::string& text) -> std::vector<diagnostic> {
  std::vector<diagnostic> d;
  parse_catalog(text, "c.yaml", d);
  return d;
}

TEST(CatalogProfiles, AFullProfileWithRealFactsLoads) {
  std::vector<diagnostic> d;
  auto c = parse_catalog(ipam_catalog("{value: calico-ippool, fact: calico-ippool-fields}"), "c.yaml", d);
  EXPECT_TRUE(d.empty()) << d.front().message;
  ASSERT_EQ(c.cnis.size(), 1u);
  const auto& p = c.cnis[0].modes[0].profile;
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->pool.value, pool_kind::calico_ippool);
  EXPECT_EQ(p->pool.fact, "calico-ippool-fields");
  EXPECT_TRUE(p->pool.known);
  EXPECT_FALSE(p->range_field.known);  // "unknown", and the fact that says nothing was found
  EXPECT_EQ(p->range_field.fact, "prof-no-source");
}

TEST(CatalogProfiles, AFieldWithoutAFactIsAnError) {
  auto d = errors_of(ipam_catalog("{value: calico-ippool}"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "missing-key");
  EXPECT_EQ(d[0].where.line, 9u);
  EXPECT_NE(d[0].message.find("names no fact"), std::string::npos) << d[0].message;
}

TEST(CatalogProfiles, AFactThePageDoesNotListIsAnError) {
  auto d = errors_of(ipam_catalog("{value: calico-ippool, fact: calico-pools-are-magic}"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "unknown-fact");
  EXPECT_EQ(d[0].where.line, 9u);
  EXPECT_NE(d[0].message.find("calico-pools-are-magic"), std::string::npos) << d[0].message;
}

TEST(CatalogProfiles, AnUnknownValueNeedsItsFactToo) {
  auto d = errors_of(ipam_catalog("{value: unknown}"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "missing-key");
}

TEST(CatalogProfiles, AWordOutsideTheFieldsWordsIsAnError) {
  auto d = errors_of(ipam_catalog("{value: weave-ipalloc, fact: calico-ippool-fields}"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "unknown-value");
  EXPECT_NE(d[0].message.find("calico-ippool"), std::string::npos) << d[0].message;  // the words it takes
}

TEST(CatalogProfiles, AProfileMissingAFieldIsAnError) {
  auto text = ipam_catalog("{value: calico-ippool, fact: calico-ippool-fields}");
  text.erase(text.find("          config_where"));
  auto d = errors_of(text);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "missing-key");
  EXPECT_NE(d[0].message.find("config_where"), std::string::npos) << d[0].message;
}

TEST(CatalogProfiles, KubernetesProfilesMustBeInOrderAndDisjoint) {
  auto minor = [](const std::string& from, const std::string& to) {
    return "  - from: \"" + from + "\"\n    to: \"" + to + "\"\n"
           "    service_cidr: {value: none, fact: svc-api-1.27-1.28}\n"
           "    service_cidr_api: {value: \"\", fact: svc-api-1.27-1.28}\n"
           "    service_cidr_gate: {value: [], fact: svc-api-1.27-1.28}\n"
           "    runtime_config: {value: false, fact: svc-api-1.27-1.28}\n"
           "    dual_write_gate: {value: none, fact: svc-dual-write}\n"
           "    service_ips_field: {value: clusterIPs, fact: svc-clusterips-1.20}\n";
  };
  EXPECT_TRUE(errors_of("kubernetes:\n" + minor("1.27", "1.28") + minor("1.29", "1.30")).empty());
  auto d = errors_of("kubernetes:\n" + minor("1.27", "1.29") + minor("1.29", "1.30"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("disjoint"), std::string::npos) << d[0].message;
}

// --- a distribution's default CNI, an operation's pod address sources ---------

TEST(CatalogDefaults, ADistributionsCniIsACatalogCniWithAFact) {
  const std::string cnis = "cnis:\n  - {name: vpc-cni, source: s, ipam: [{name: secondary-ip, pods_from: network, source: s}]}\n";
  std::vector<diagnostic> d;
  auto c = parse_catalog("distributions:\n  - {name: eks, cni: {value: vpc-cni, fact: dist-eks-cni}, source: s}\n" + cnis,
                         "c.yaml", d);
  EXPECT_TRUE(d.empty()) << d.front().message;
  EXPECT_EQ(c.distributions[0].cni.value, "vpc-cni");
  EXPECT_EQ(c.distributions[0].cni.fact, "dist-eks-cni");

  d = errors_of("distributions:\n  - {name: eks, cni: {value: weave, fact: dist-eks-cni}, source: s}\n" + cnis);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "unknown-value");
  EXPECT_EQ(d[0].where.line, 2u);
  EXPECT_EQ(d[0].where.column, 22u);  // the cni entry
  EXPECT_NE(d[0].message.find("'weave' is not a CNI of the catalog"), std::string::npos) << d[0].message;

  d = errors_of("distributions:\n  - {name: eks, cni: {value: vpc-cni}, source: s}\n" + cnis);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("names no fact"), std::string::npos) << d[0].message;

  d = errors_of("distributions:\n  - {name: eks, cni: {value: unknown, fact: prof-no-source}, source: s}\n" + cnis);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("leave it out"), std::string::npos) << d[0].message;
}

auto operation_with(const std::string& pod_addresses) -> std::string {
  return "operations:\n  - {name: k, changes: pods, pod_addresses: " + pod_addresses + ", why: w, source: s}\n";
}

TEST(CatalogDefaults, AnOperationsPodAddressesAreWordsWithAFact) {
  std::vector<diagnostic> d;
  auto c = parse_catalog(operation_with("{value: [node-pod-cidr, unknown], fact: kcm-moves-node-pods}"), "c.yaml", d);
  EXPECT_TRUE(d.empty()) << d.front().message;
  EXPECT_EQ(c.operations[0].pod_addresses.value,
            (std::vector<address_source>{address_source::node_pod_cidr, address_source::unknown}));
  d = errors_of(operation_with("{value: [vpc], fact: kcm-moves-node-pods}"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "unknown-value");
  EXPECT_NE(d[0].message.find("node-pod-cidr, cni-pool, network, external, unknown"), std::string::npos) << d[0].message;
  d = errors_of(operation_with("{value: [network]}"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("names no fact"), std::string::npos) << d[0].message;
  d = errors_of(operation_with("{value: [], fact: kcm-moves-node-pods}"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("leave it out for any"), std::string::npos) << d[0].message;
}

// `families` limits a kind to ranges of one IP version (aks-pod-expand: no IPv6 expansion).
TEST(CatalogDefaults, AnOperationsFamiliesAreIpVersions) {
  std::vector<diagnostic> d;
  auto c = parse_catalog("operations:\n  - {name: k, changes: pod-expand, families: [ipv4], why: w, source: s}\n", "c.yaml", d);
  ASSERT_TRUE(d.empty()) << d.front().message;
  EXPECT_EQ(c.operations[0].changes, operation_scope::pod_expand);
  EXPECT_TRUE(serves_family(c.operations[0], ip_version::v4));
  EXPECT_FALSE(serves_family(c.operations[0], ip_version::v6));
  d = errors_of("operations:\n  - {name: k, changes: pods, families: [v4], why: w, source: s}\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].code, "unknown-value");
  EXPECT_NE(d[0].message.find("families lists ipv4 and ipv6, not 'v4'"), std::string::npos) << d[0].message;
  EXPECT_TRUE(serves_family(operation_kind{}, ip_version::v6));  // no list: both
}

// Every fact a sourced field of the shipped catalog names is a row of the page
// (the loader refuses others; this pins that the shipped catalog went through it).
template <class T>
void expect_real_fact(const sourced<T>& field, const std::string& where) {
  EXPECT_NE(find_migration_fact(field.fact), nullptr) << where << ": '" << field.fact << "'";
}

TEST(CatalogProfiles, EveryShippedProfileFieldNamesARealFact) {
  const auto& c = builtin_catalog();
  std::size_t profiles = 0;
  for (const auto& d : c.distributions) {
    if (!d.profile) continue;
    ++profiles;
    const auto& p = *d.profile;
    for (const auto* f : {&p.sans_field, &p.restore_control_plane, &p.pod_range_container}) expect_real_fact(*f, d.name);
    for (const auto* f : {&p.managed, &p.embeds_cni, &p.moves_network, &p.shares_service_range, &p.kubelet_in_server}) expect_real_fact(*f, d.name);
    expect_real_fact(p.apply_control_plane, d.name);
    expect_real_fact(p.cloud, d.name);
    expect_real_fact(p.control_plane, d.name);
    expect_real_fact(p.sans, d.name);
    expect_real_fact(p.dns_addon, d.name);
    expect_real_fact(p.nodes, d.name);
    for (const auto& s : p.settings) EXPECT_NE(find_migration_fact(s.fact), nullptr) << d.name << " " << s.setting;
    for (const auto& v : p.config_api) EXPECT_NE(find_migration_fact(v.fact), nullptr) << d.name;
    for (const auto& v : p.kubelet_config_map) EXPECT_NE(find_migration_fact(v.fact), nullptr) << d.name;
  }
  for (const auto& cni : c.cnis) {
    for (const auto& m : cni.modes) {
      if (!m.profile) continue;
      ++profiles;
      const auto& p = *m.profile;
      auto at = cni.name + "/" + m.name;
      expect_real_fact(p.addresses, at);
      expect_real_fact(p.pool, at);
      expect_real_fact(p.pool_api, at);
      expect_real_fact(p.pool_tool, at);
      expect_real_fact(p.pickup, at);
      expect_real_fact(p.kube_proxy_holds_pool, at);
      expect_real_fact(p.range_field, at);
      expect_real_fact(p.pool_copies, at);
      expect_real_fact(p.restart_first, at);
    }
  }
  for (const auto& k : c.kubernetes) {
    ++profiles;
    auto at = "Kubernetes 1." + std::to_string(k.from.minor);
    expect_real_fact(k.service_cidr, at);
    expect_real_fact(k.service_cidr_api, at);
    expect_real_fact(k.service_cidr_gate, at);
    expect_real_fact(k.runtime_config, at);
    expect_real_fact(k.dual_write_gate, at);
    expect_real_fact(k.service_ips_field, at);
  }
  EXPECT_GE(profiles, 20u);  // the distributions, IPAM modes and minors the runbooks know
}

}  // namespace
}  // namespace cidrcheck
