#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/fleet_writer.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

const std::string fixtures = CIDRCHECK_FIXTURES "/import/";

// What a fleet says, without positions: owners with their fields and declared
// ranges, and connections by member names.
auto summary(const fleet& f) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& o : f.owners) {
    std::string line = o.name + " " + o.type + " declared=" + std::to_string(o.declared.bits);
    if (o.kubernetes) line += " k8s=" + std::to_string(o.kubernetes->minor);
    if (o.nodes) line += " nodes=" + std::to_string(*o.nodes);
    if (o.dns) line += " dns=" + o.dns->to_string();
    if (o.node_cidr_mask) line += " mask=" + std::to_string(*o.node_cidr_mask);
    if (o.node_cidr_mask_v6) line += " mask6=" + std::to_string(*o.node_cidr_mask_v6);
    if (!o.runs_in.empty()) line += " runs_in=" + o.runs_in;
    line += " [" + o.description + "]";
    for (auto k : o.ranges) {
      const auto& r = f.ranges[k];
      line += " " + std::string(to_string(r.role)) + ":" + r.cidr.to_string() +
              (r.origin == range_origin::declared ? "" : "(default)");
    }
    out.push_back(line);
  }
  for (const auto& c : f.connections) {
    std::string line = "connection " + c.name + " via " + c.via + " routes=" + std::to_string(c.routes.bits);
    for (auto m : c.members) line += " " + f.owners[m].name;
    for (const auto& p : c.withdrawn) line += " withdrawn=" + p.to_string();
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());  // the file lists networks first
  return out;
}

TEST(FleetWriter, WhatItWritesReadsBackAsTheSameFleet) {
  fleet_loader loader(builtin_catalog());
  loader.add_import(import_kind::aws_eks, fixtures + "aws-eks/my-eks-cluster.json");
  loader.add_import(import_kind::aws_vpcs, fixtures + "aws-vpcs/vpcs.json");
  loader.add_import(import_kind::kubeadm, fixtures + "kubeadm/lab.yaml");
  loader.add_import(import_kind::kubectl, fixtures + "kubectl/lab.yaml");
  loader.add_import(import_kind::tailscale, fixtures + "tailscale/policy.hujson");
  loader.add_import(import_kind::kops, fixtures + "kops/minimal-ipv6.yaml");
  loader.add_text("connections:\n  - between: [lab, tailscale]\n    via: vpn\n    routes: [pods, services]\n",
                  "fleet.yaml");
  auto first = loader.finish();
  ASSERT_TRUE(first.ok());

  auto text = write_fleet_yaml(first.value, std::vector<std::string>{"written by a test"});
  fleet_loader again(builtin_catalog());
  again.add_text(text, "written.yaml");
  auto second = again.finish();
  ASSERT_TRUE(second.ok()) << text;
  EXPECT_EQ(summary(second.value), summary(first.value)) << text;
}

TEST(FleetWriter, CniFieldsAndTranslatedRangesReadBack) {
  fleet_loader loader(builtin_catalog());
  loader.add_text(R"(clusters:
  - {name: a, cni: calico, block_size: 24, block_size_v6: 120, ip_family: dual, network: 10.0.0.0/16}
  - {name: b, network: 10.0.0.0/16}
connections:
  - between: [a, b]
    via: globalnet
    translated: {a: [242.0.0.0/16, 242.5.0.0/16], b: 242.1.0.0/16}
)", "fleet.yaml");
  auto first = loader.finish();
  ASSERT_TRUE(first.ok());
  auto text = write_fleet_yaml(first.value, std::vector<std::string>{"written by a test"});
  fleet_loader again(builtin_catalog());
  again.add_text(text, "written.yaml");
  auto second = again.finish();
  ASSERT_TRUE(second.ok()) << text;
  EXPECT_EQ(summary(second.value), summary(first.value)) << text;
  const auto& a = second.value.owners[*second.value.find_owner("a")];
  EXPECT_EQ(a.block_size, 24);
  EXPECT_EQ(a.block_size_v6, 120);
  EXPECT_EQ(a.ip_family, "dual");
  std::vector<std::string> translated;
  for (const auto& r : second.value.ranges) {
    if (r.is_translated()) translated.push_back(second.value.owners[r.owner].name + " " + r.cidr.to_string());
  }
  EXPECT_EQ(translated, (std::vector<std::string>{"a 242.0.0.0/16", "a 242.5.0.0/16", "b 242.1.0.0/16"})) << text;
}

TEST(FleetWriter, CommentsNameWhereEachValueWasRead) {
  fleet_loader loader(builtin_catalog());
  loader.add_text("clusters:\n  - name: a\n    distribution: kubeadm\n    pods: [10.244.0.0/16]\n    nodes: 3\n",
                  "f.yaml");
  auto text = write_fleet_yaml(loader.finish().value, std::vector<std::string>{"header", ""});
  EXPECT_EQ(text,
            "# header\n"
            "#\n"
            "version: 1\n"
            "clusters:\n"
            "  - name: a  # f.yaml:2:5\n"
            "    distribution: kubeadm  # f.yaml:3:19\n"
            "    pods:\n"
            "      - 10.244.0.0/16  # f.yaml:4:12\n"
            "    nodes: 3  # f.yaml:5:12\n");
}

TEST(FleetWriter, AMergedRangeNamesEveryBlockItCameFromAndRunsInReadsBack) {
  fleet_loader loader(builtin_catalog());
  loader.add_import(import_kind::aws_subnets, fixtures + "aws-subnets/subnets.json");
  loader.add_text("clusters:\n  - {name: a, network: 10.0.8.0/24, runs_in: vpc-0e9801d1295ce6ff8, pods: [], services: []}\n",
                  "f.yaml");
  auto loaded = loader.finish();
  ASSERT_TRUE(loaded.ok());
  auto text = write_fleet_yaml(loaded.value, {});
  // Two adjacent subnets of the VPC, merged into one /19, each named where it was read.
  auto subnets = fixtures + "aws-subnets/subnets.json";
  EXPECT_NE(text.find("      - 10.0.0.0/19  # " + subnets + ":7:26, " + subnets + ":48:26\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    runs_in: vpc-0e9801d1295ce6ff8  # f.yaml:2:46\n"), std::string::npos) << text;
  fleet_loader again(builtin_catalog());
  again.add_text(text, "written.yaml");
  auto read = again.finish();
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(summary(read.value), summary(loaded.value));
}

TEST(FleetWriter, LabelsAndNamedPoolsReadBack) {
  for (const char* text : {R"(networks:
  - {name: vpc, cidrs: [10.64.0.0/16], labels: {site: eu, "a b": "1.29"}}
clusters:
  - {name: a, network: 10.64.0.0/20, labels: {site: eu, cloud: aws}}
plan:
  pools:
    - 10.0.0.0/8
    - {name: eu-aws, cidrs: [10.64.0.0/12, 10.128.0.0/12], for: {site: eu, cloud: aws, owner: "prod-*", role: pods}}
    - {name: any, cidrs: [10.160.0.0/12]}
)",
                           R"(clusters:
  - {name: a, network: 10.64.0.0/20}
plan:
  pools:
    pods: [10.0.0.0/9]
    named:
      - {name: eu, cidrs: [10.128.0.0/12], for: {site: eu}}
)"}) {
    fleet_loader first(builtin_catalog());
    first.add_text(text, "in.yaml");
    auto a = first.finish();
    ASSERT_TRUE(a.ok());
    auto written = write_fleet_yaml(a.value);
    fleet_loader second(builtin_catalog());
    second.add_text(written, "out.yaml");
    auto b = second.finish();
    ASSERT_TRUE(b.ok()) << written;
    ASSERT_EQ(a.value.owners.size(), b.value.owners.size());
    for (std::size_t k = 0; k < a.value.owners.size(); ++k) EXPECT_EQ(a.value.owners[k].labels, b.value.owners[k].labels);
    for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(a.value.plan.pools[r], b.value.plan.pools[r]) << written;
    ASSERT_EQ(a.value.plan.named_pools.size(), b.value.plan.named_pools.size()) << written;
    for (std::size_t k = 0; k < a.value.plan.named_pools.size(); ++k) {
      const auto &x = a.value.plan.named_pools[k], &y = b.value.plan.named_pools[k];
      EXPECT_EQ(x.name, y.name);
      EXPECT_EQ(x.cidrs, y.cidrs);
      EXPECT_EQ(x.selector.labels, y.selector.labels);
      EXPECT_EQ(x.selector.owner, y.selector.owner);
      EXPECT_EQ(x.selector.roles.has_value(), y.selector.roles.has_value());
      if (x.selector.roles) {
        EXPECT_EQ(*x.selector.roles, *y.selector.roles) << written;
      }
    }
  }
}

TEST(FleetWriter, QuotesWhatWouldNotReadBack) {
  fleet f;
  for (const char* name : {"plain-name.example.com", "route:10.0.0.0/8", "1.29", "yes", "No", "a b", "say \"hi\"",
                           "-x", "10.0.0.0/8", "caf\xC3\xA9 \xE2\x9C\x93"}) {
    owner o;
    o.name = name;
    o.kind = owner_kind::network;
    f.owners.push_back(o);
  }
  fleet_loader loader(builtin_catalog());
  loader.add_text(write_fleet_yaml(f), "q.yaml");
  auto r = loader.finish();
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value.owners.size(), f.owners.size());
  for (std::size_t k = 0; k < f.owners.size(); ++k) EXPECT_EQ(r.value.owners[k].name, f.owners[k].name);
}

// Issue 28, item 10: a scalar that starts with an indicator ('@' and '`' are
// reserved; '&', '*', '!', '|', '>', '%', '?', ... start other tokens) is quoted;
// so is one YAML 1.1 reads as a number, a bool or null.
TEST(FleetWriter, QuotesEveryScalarThatStartsWithAnIndicator) {
  fleet f;
  for (const char* name : {"@at", "`tick", "&anchor", "*alias", "!tag", "|pipe", ">fold", "%directive", "?key",
                           ":colon", "-dash", "#hash", "'sq", "\"dq", "[list", "]close", "{map", "}close", ",comma",
                           "+1", ".5", ".inf", "0x1F", "1e3", "12:30", "y", "N", "~", "null", "a@b", "_under",
                           "/16", "ipv6/64", "auto"}) {
    owner o;
    o.name = name;
    o.kind = owner_kind::network;
    o.description = name;
    f.owners.push_back(o);
  }
  f.connections.push_back({"", {0, 1}, "", role_set::all(), {}, {}, ""});
  auto text = write_fleet_yaml(f);
  fleet_loader loader(builtin_catalog());
  loader.add_text(text, "q.yaml");
  auto r = loader.finish();
  ASSERT_TRUE(r.ok()) << text << format_diagnostic(r.diagnostics.front());
  ASSERT_EQ(r.value.owners.size(), f.owners.size());
  for (std::size_t k = 0; k < f.owners.size(); ++k) {
    EXPECT_EQ(r.value.owners[k].name, f.owners[k].name) << text;
    EXPECT_EQ(r.value.owners[k].description, f.owners[k].description) << text;
  }
  EXPECT_NE(text.find("  - name: \"@at\""), std::string::npos) << text;
  EXPECT_NE(text.find("  - name: a@b\n"), std::string::npos) << text;  // '@' inside a word stays plain
}

// Issue 28, item 11: DEL, C1 controls, U+FEFF, U+FFFE and U+FFFF (from an AWS
// Name tag in a description) are escaped; the file reads back with the same text.
TEST(FleetWriter, EscapesEveryCharacterYamlDoesNotAllowRaw) {
  fleet f;
  owner o;
  o.name = "vpc";
  o.kind = owner_kind::network;
  o.description = "del\x7f c1\xC2\x80\xC2\x9F nel\xC2\x85 bom\xEF\xBB\xBF nonchar\xEF\xBF\xBE\xEF\xBF\xBF "
                  "ls\xE2\x80\xA8 tab\t nul" + std::string(1, '\0') + " astral\xF0\x9F\xBF\xBE quote\" back\\";
  f.owners.push_back(o);
  auto text = write_fleet_yaml(f, std::vector<std::string>{"header \x7f\xC2\x80\xEF\xBF\xBF"});
  fleet_loader loader(builtin_catalog());
  loader.add_text(text, "q.yaml");
  auto r = loader.finish();
  ASSERT_TRUE(r.ok()) << text << format_diagnostic(r.diagnostics.front());
  EXPECT_EQ(r.value.owners[0].description, o.description) << text;
  EXPECT_NE(text.find("\"del\\x7F c1\\x80\\x9F nel\\N bom\\uFEFF nonchar\\uFFFE\\uFFFF ls\\L tab\\x09 nul\\x00 "),
            std::string::npos) << text;
  EXPECT_NE(text.find("# header ???\n"), std::string::npos) << text;  // a comment cannot escape: replaced
}

// A name with control characters (from an export) is written quoted, and
// refused when read back, as any such name is (issue 16: names cannot forge lines).
TEST(FleetWriter, ANameWithControlCharactersIsRefusedWhenReadBack) {
  fleet f;
  owner o;
  o.name = "tab\tand\xC2\x85next\xE2\x80\xA8line";
  o.kind = owner_kind::network;
  f.owners.push_back(o);
  fleet_loader loader(builtin_catalog());
  loader.add_text(write_fleet_yaml(f), "q.yaml");
  auto r = loader.finish();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().code, "invalid-name");
}

TEST(FleetWriter, ASourceConflictIsAComment) {
  fleet_loader loader(builtin_catalog());
  loader.add_import(import_kind::aws_vpcs, fixtures + "aws-vpcs/vpcs.json");
  loader.add_import(import_kind::terraform, fixtures + "terraform/stale.tfstate");
  auto text = write_fleet_yaml(loader.finish().value);
  EXPECT_NE(text.find("      - 10.1.0.0/16  # " + fixtures + "aws-vpcs/vpcs.json:31:34\n      # source-conflict: " +
                      fixtures + "terraform/stale.tfstate:26:27 gives 10.0.0.0/16 instead\n"),
            std::string::npos)
      << text;
}

// Every key of the fleet format survives: cni, requested sizes, movable, the
// plan settings and the suppressions read beside the fleet (issue 16, item 7).
TEST(FleetWriter, EveryKeyOfTheFleetFormatSurvives) {
  const char* text = R"(clusters:
  - name: a
    distribution: kubeadm
    kubernetes: "1.29"
    network: 10.1.0.0/16
    pods: [10.2.0.0/16, /20, ipv6/64]
    services: auto
    node_cidr_mask: 25
    nodes: 40
    cni: calico
    ipam: calico-ipam
    pool_encapsulation: vxlan-cross-subnet
    routing_mode: tunnel
    kube_proxy_mode: ipvs
    service_count: 120
    load_balancer_count: 3
    description: the first
networks:
  - {name: office, type: office, cidrs: [192.168.0.0/16], movable: true, description: hq}
connections:
  - between: [a, office]
    name: vpn-1
    via: vpn
    routes: [network, pods]
    withdrawn: [10.2.0.0/17, 192.168.4.0/24]
plan:
  pools: {pods: [10.128.0.0/9], services: [10.64.0.0/12]}
  avoid: [10.200.0.0/16]
  pin: [office, "*/network"]
  cost: {services: 2, network: 7, replacement-cluster: 40, "owner:a/pods": 4}
  headroom: 1.3
suppressions:
  - rule: overlap
    entities: [a/pods, office]
    reason: "NATed: until the move"
    expires: 2030-01-31
)";
  fleet_loader loader(builtin_catalog());
  loader.add_text(text, "f.yaml");
  auto first = loader.finish();
  ASSERT_TRUE(first.ok());
  auto written = write_fleet_yaml(first.value, {}, first.suppressions);
  fleet_loader again(builtin_catalog());
  again.add_text(written, "w.yaml");
  auto second = again.finish();
  ASSERT_TRUE(second.ok()) << written;
  EXPECT_EQ(summary(second.value), summary(first.value)) << written;
  const auto& o = second.value.owners[second.value.find_owner("a").value()];
  EXPECT_EQ(o.cni, "calico") << written;
  EXPECT_EQ(o.ipam, "calico-ipam") << written;
  EXPECT_EQ(o.pool_encapsulation, "vxlan-cross-subnet") << written;
  EXPECT_EQ(o.routing_mode, "tunnel") << written;
  EXPECT_EQ(o.kube_proxy_mode, "ipvs") << written;
  EXPECT_EQ(o.service_count, 120u) << written;
  EXPECT_EQ(o.load_balancer_count, 3u) << written;
  EXPECT_TRUE(second.value.owners[second.value.find_owner("office").value()].movable);
  ASSERT_EQ(second.value.requests.size(), first.value.requests.size()) << written;
  for (std::size_t k = 0; k < first.value.requests.size(); ++k) {
    EXPECT_EQ(second.value.requests[k].role, first.value.requests[k].role);
    EXPECT_EQ(second.value.requests[k].length, first.value.requests[k].length);
    EXPECT_EQ(second.value.requests[k].version, first.value.requests[k].version);
  }
  const auto &p1 = first.value.plan, &p2 = second.value.plan;
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(p2.pools[r], p1.pools[r]) << written;
    EXPECT_EQ(p2.cost[r], p1.cost[r]) << written;
  }
  ASSERT_EQ(p2.cost_overrides.size(), 2u) << written;
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(cost_key(p2.cost_overrides[k]), cost_key(p1.cost_overrides[k])) << written;
    EXPECT_EQ(p2.cost_overrides[k].cost, p1.cost_overrides[k].cost) << written;
  }
  EXPECT_EQ(p2.avoid, p1.avoid);
  ASSERT_EQ(p2.pins.size(), p1.pins.size());
  for (std::size_t k = 0; k < p1.pins.size(); ++k) EXPECT_EQ(p2.pins[k].pattern, p1.pins[k].pattern);
  EXPECT_EQ(p2.headroom, p1.headroom);
  ASSERT_EQ(second.suppressions.size(), 1u) << written;
  const auto& s = second.suppressions[0];
  EXPECT_EQ(s.id, rule::overlap);
  EXPECT_EQ(s.reason, "NATed: until the move");
  ASSERT_EQ(s.entities.size(), 2u);
  EXPECT_EQ(s.entities[0].to_string(), "a/pods");
  EXPECT_EQ(s.entities[1].to_string(), "office");
  EXPECT_EQ(s.expires, first.suppressions[0].expires);
}

}  // namespace
}  // namespace cidrcheck
