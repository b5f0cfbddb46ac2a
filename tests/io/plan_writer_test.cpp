#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>
#include <cidrcheck/io/plan_writer.hpp>

#include "../unit/random.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

auto load(std::string_view text) -> fleet {
  fleet_loader loader(builtin_catalog());
  loader.add_text(text, "f.yaml");
  auto r = loader.finish();
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : format_diagnostic(r.diagnostics[0]));
  return r.value;
}

// Plans text, writes the plan into it, and checks that the result reads back
// without errors and says what the plan says.
auto planned_text(std::string_view text) -> std::string {
  auto f = load(text);
  auto p = plan(f, builtin_catalog());
  EXPECT_TRUE(p.complete());
  auto out = apply_plan_to_text(text, "f.yaml", f, p);
  auto again = load(out);
  for (const auto& x : check(again, builtin_catalog())) EXPECT_NE(x.level, severity::error) << x.message;
  auto applied = apply_plan(f, p);
  EXPECT_EQ(again.ranges.size(), applied.ranges.size());
  return out;
}

TEST(PlanWriter, ReplacesDeclaredCidrsAndKeepsEverythingElse) {
  auto out = planned_text(R"(# the fleet
clusters:
  - name: a   # first
    network: 10.1.0.0/16
    pods: [10.2.0.0/16]
    services: "10.96.0.0/16"   # quoted
  - name: b
    network: 10.3.0.0/16
    pods: [10.4.0.0/16]
    services: 10.96.0.0/16
connections:
  - [a, b]
)");
  EXPECT_NE(out.find("# the fleet\n"), std::string::npos);
  EXPECT_NE(out.find("  - name: a   # first\n"), std::string::npos);
  EXPECT_NE(out.find("services: \"10.96.0.0/16\"   # quoted"), std::string::npos);  // a keeps its range
  EXPECT_EQ(out.find("services: 10.96.0.0/16\n"), std::string::npos);            // b's moved
}

TEST(PlanWriter, WritesFilledInRangesAsNewKeysInBlockAndFlowStyle) {
  auto out = planned_text(R"(networks:
  - {name: ts, type: tailscale}
clusters:
  - name: block
    distribution: kops
  - {name: flow, distribution: kops, network: 10.50.0.0/16}
connections:
  - [block, ts]
  - [flow, ts]
)");
  EXPECT_NE(out.find("    distribution: kops\n    pods: ["), std::string::npos) << out;
  EXPECT_NE(out.find("# planned by cidrcheck; was kops's default 100.96.0.0/11"), std::string::npos) << out;
  EXPECT_NE(out.find("{name: flow, distribution: kops, network: 10.50.0.0/16, pods: ["), std::string::npos) << out;
}

TEST(PlanWriter, FillsRequestsAndKeepsCrlf) {
  auto out = planned_text("clusters:\r\n  - name: new\r\n    pods: /16\r\n    services: auto\r\n    network: \"/20\"\r\n");
  EXPECT_EQ(out.find("pods: /16"), std::string::npos) << out;
  EXPECT_EQ(out.find("\"/20\""), std::string::npos) << out;
  EXPECT_EQ(out.find("auto"), std::string::npos);
  EXPECT_EQ(out.find('\n'), out.find("\r\n") + 1);  // still CRLF
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k] == '\n') {
      EXPECT_EQ(out[k - 1], '\r');
    }
  }
}

TEST(PlanWriter, MovesTheDnsAddressWithItsServiceRange) {
  auto out = planned_text(R"(networks:
  - {name: home, type: home, cidrs: 192.168.1.0/24}
clusters:
  - name: a
    distribution: kubeadm
    network: 10.1.0.0/16
    pods: 10.2.0.0/16
    services: 192.168.0.0/16
    dns: 192.168.0.10
connections:
  - [a, home]
)");
  EXPECT_EQ(out.find("192.168.0.10"), std::string::npos) << out;
}

// Documented YAML (aliases, merge keys, empty range keys) must plan and read back clean.
TEST(PlanWriter, AnAliasSharedByTwoClustersGivesTheMovedOneItsOwnValue) {
  auto out = planned_text(R"(clusters:
  - name: a
    network: 10.1.0.0/16
    pods: 10.2.0.0/16
    services: &svc 10.96.0.0/16
  - name: b
    network: 10.3.0.0/16
    pods: 10.4.0.0/16
    services: *svc
connections:
  - [a, b]
)");
  // One of the two keeps the anchored range; the other is written a range of its own.
  EXPECT_NE(out.find("&svc 10.96.0.0/16"), std::string::npos) << out;
  EXPECT_EQ(out.find("services: *svc"), std::string::npos) << out;
}

TEST(PlanWriter, AnAliasedItemInAListIsReplacedWhereTheOwnerWritesIt) {
  auto out = planned_text(R"(x-svc: &svc 10.96.0.0/16
clusters:
  - {name: a, network: 10.1.0.0/16, pods: [10.2.0.0/16], services: [*svc]}
  - name: b
    network: 10.3.0.0/16
    pods: [10.4.0.0/16]
    services:
      - *svc
connections:
  - [a, b]
)");
  EXPECT_NE(out.find("x-svc: &svc 10.96.0.0/16\n"), std::string::npos) << out;
}

TEST(PlanWriter, AnAnchorOnlyOneOwnerUsesIsPatchedWhereItIsWritten) {
  auto out = planned_text(R"(x-svc: &svc 10.96.0.0/16   # a's services
clusters:
  - name: a
    network: 10.1.0.0/16
    pods: 10.2.0.0/16
    services: *svc
  - name: b
    network: 10.3.0.0/16
    pods: 10.4.0.0/16
    services: 10.96.0.0/16
plan:
  pin: [b]
connections:
  - [a, b]
)");
  EXPECT_NE(out.find("x-svc: &svc "), std::string::npos) << out;
  EXPECT_EQ(out.find("x-svc: &svc 10.96.0.0/16"), std::string::npos) << out;  // moved, anchor kept
  EXPECT_NE(out.find("    services: *svc\n"), std::string::npos) << out;
}

TEST(PlanWriter, AMergeKeyGetsAnExplicitKeyThatWins) {
  auto out = planned_text(R"(x-defaults: &d
  distribution: kubeadm
  services: 10.96.0.0/16
clusters:
  - name: a
    <<: *d
    network: 10.1.0.0/16
    pods: 10.2.0.0/16
  - name: b
    <<: *d
    network: 10.3.0.0/16
    pods: 10.4.0.0/16
connections:
  - [a, b]
)");
  EXPECT_NE(out.find("  services: 10.96.0.0/16\n"), std::string::npos) << out;  // the defaults stay
}

TEST(PlanWriter, AnEmptyRangeKeyIsFilledWhereItIsWritten) {
  auto out = planned_text(R"(clusters:
  - name: a
    distribution: kubeadm
    network: 10.1.0.0/16
    pods: 10.2.0.0/16
    services:
  - name: b
    distribution: kubeadm
    network: 10.3.0.0/16
    pods: 10.4.0.0/16
    services: ~   # the default
  - {name: c, distribution: kubeadm, network: 10.5.0.0/16, pods: 10.6.0.0/16, services: null}
connections:
  - [a, b, c]
)");
  EXPECT_EQ(out.find("~"), std::string::npos) << out;
  EXPECT_EQ(out.find("null"), std::string::npos) << out;
}

// Random fleets written with every documented form of a range: literal, alias
// to an anchor of an x- key or of another cluster, merge key, empty key (the
// distribution's default), flow or block style. Every plan is written, read
// back, and must check clean and say what the plan says.
TEST(PlanWriterProperty, EveryDocumentedFormPlansAndReadsBackClean) {
  test::random_source rng(16);
  const char* roles[] = {"network", "pods", "services"};
  int planned = 0, shared = 0;
  for (int round = 0; round < 300; ++round) {
    std::string text = "x-pool:\n";
    std::vector<std::string> anchors;
    for (int k = 0; k < 3; ++k) {
      auto name = "x" + std::to_string(k);
      text += "  - &" + name + " 10." + std::to_string(rng() % 4) + ".0.0/16\n";
      anchors.push_back(name);
    }
    text += "x-defaults: &d\n  distribution: kubeadm\n  services: 10.96.0.0/16\n";
    text += "clusters:\n";
    auto clusters = 2 + rng() % 4;
    std::string members;
    for (unsigned c = 0; c < clusters; ++c) {
      std::vector<std::string> keys;
      bool merged = rng() % 4 == 0;
      if (merged) keys.push_back("<<: *d");
      else keys.push_back("distribution: kubeadm");
      for (int r = 0; r < 3; ++r) {
        std::string key = roles[r];
        auto literal = "10." + std::to_string(rng() % 4) + ".0.0/16";
        switch (rng() % 7) {
          case 0: keys.push_back(key + ": " + literal); break;
          case 1: keys.push_back(key + ": [" + literal + "]"); break;
          case 2: keys.push_back(key + ": *" + anchors[rng() % anchors.size()]); break;
          case 3: keys.push_back(key + ": [*" + anchors[rng() % anchors.size()] + "]"); break;
          case 4: {  // an anchor of this cluster, for the later ones
            auto name = "c" + std::to_string(c) + key;
            keys.push_back(key + ": &" + name + " " + literal);
            anchors.push_back(name);
            break;
          }
          case 5:
            if (r == 2) keys.push_back(key + (rng() % 2 ? ":" : ": ~"));  // the distribution's default
            else keys.push_back(key + ": " + literal);
            break;
          default:
            if (r != 2 || !merged) keys.push_back(key + ": " + literal);  // merged: from the defaults
        }
      }
      auto name = "c" + std::to_string(c);
      members += (members.empty() ? "" : ", ") + name;
      if (rng() % 3 == 0 && keys.front() != "<<: *d") {
        text += "  - {name: " + name;
        for (const auto& k : keys) text += ", " + (k.back() == ':' ? k + " null" : k);
        text += "}\n";
      } else {
        text += "  - name: " + name + "\n";
        for (const auto& k : keys) text += "    " + k + "\n";
      }
    }
    text += "connections:\n  - [" + members + "]\n";
    SCOPED_TRACE(text);
    auto f = load(text);
    auto p = plan(f, builtin_catalog());
    if (!p.complete()) continue;
    ++planned;
    auto out = apply_plan_to_text(text, "f.yaml", f, p);
    // How often a moved value was written through an alias, a merge key or an empty key.
    for (const auto& c : p.changes) {
      if (c.range && (f.ranges[*c.range].origin != range_origin::declared ||
                      f.ranges[*c.range].where.line <= 7)) {
        ++shared;
        break;
      }
    }
    fleet_loader loader(builtin_catalog());
    loader.add_text(out, "f.yaml");
    auto again = loader.finish();
    ASSERT_TRUE(again.ok()) << out << (again.diagnostics.empty() ? "" : format_diagnostic(again.diagnostics[0]));
    for (const auto& x : check(again.value, builtin_catalog())) ASSERT_NE(x.level, severity::error) << x.message << "\n" << out;
    auto applied = apply_plan(f, p);
    ASSERT_EQ(again.value.owners.size(), applied.owners.size());
    for (std::size_t o = 0; o < applied.owners.size(); ++o) {
      for (auto role : {range_role::network, range_role::pods, range_role::services}) {
        std::vector<prefix> want, got;
        for (auto k : applied.owners[o].ranges) {
          if (applied.ranges[k].role == role) want.push_back(applied.ranges[k].cidr);
        }
        for (auto k : again.value.owners[o].ranges) {
          if (again.value.ranges[k].role == role) got.push_back(again.value.ranges[k].cidr);
        }
        ASSERT_EQ(got, want) << applied.owners[o].name << " " << to_string(role) << "\n" << out;
      }
    }
  }
  // The property says something only if many plans moved shared or defaulted values.
  EXPECT_GT(planned, 200) << "fleets planned and written";
  EXPECT_GT(shared, 100) << "plans that moved a value of an x- anchor (lines 2-7) or a default";
}

// Issue 16, item 8: fleets of several sources get an overlay of the changes,
// which reads back beside the same sources as the planned fleet.
TEST(PlanOverlay, ReadBesideTheSourcesItIsThePlannedFleet) {
  const std::string fixtures = CIDRCHECK_FIXTURES "/import/";
  const char* mine = R"(clusters:
  - name: lab2
    distribution: kubeadm
    network: 10.10.0.0/16
    pods: [10.244.0.0/16]
    dns: 10.96.0.10
  - name: new
    pods: /16
    services: /20
connections:
  - [lab, lab2, new]
)";
  auto sources = [&](fleet_loader& loader) {
    loader.add_text(mine, "mine.yaml");
    loader.add_import(import_kind::kubeadm, fixtures + "kubeadm/lab.yaml");
  };
  fleet_loader first(builtin_catalog());
  sources(first);
  auto loaded = first.finish();
  ASSERT_TRUE(loaded.ok());
  auto p = plan(loaded.value, builtin_catalog());
  ASSERT_TRUE(p.complete());
  ASSERT_FALSE(p.changes.empty());
  auto overlay = write_plan_overlay(loaded.value, p, std::vector<std::string>{"a test"});
  EXPECT_NE(overlay.find("renumber:\n  - {owner: "), std::string::npos) << overlay;

  fleet_loader again(builtin_catalog());
  sources(again);
  again.add_text(overlay, "overlay.yaml");
  auto planned = again.finish();
  ASSERT_TRUE(planned.ok()) << overlay << format_diagnostic(planned.diagnostics.front());
  for (const auto& x : check(planned.value, builtin_catalog())) EXPECT_NE(x.level, severity::error) << x.message;
  auto applied = apply_plan(loaded.value, p);
  for (std::size_t o = 0; o < applied.owners.size(); ++o) {
    std::vector<std::string> want, got;
    for (auto k : applied.owners[o].ranges) want.push_back(applied.ranges[k].cidr.to_string());
    for (auto k : planned.value.owners[o].ranges) got.push_back(planned.value.ranges[k].cidr.to_string());
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want) << applied.owners[o].name << "\n" << overlay;
    EXPECT_EQ(planned.value.owners[o].dns, applied.owners[o].dns);
  }
  EXPECT_TRUE(planned.value.requests.empty());
}

// Issue 25, item 4: a route imported from a Tailscale policy that follows its
// moved cluster stays a route in the overlay (it became one of the tailnet's
// own ranges, overlapping the cluster: plan -f yaml exited 3).
TEST(PlanOverlay, AMovedRouteStaysARoute) {
  const char* mine = R"(clusters:
  - {name: prod, distribution: eks, network: 10.1.0.0/16, services: 10.100.0.0/16}
  - {name: other, distribution: eks, network: 10.2.0.0/16, services: 10.100.0.0/16}
connections:
  - [prod, other]
  - [prod, tailscale]
plan:
  pin: [other]
)";
  const char* policy = R"({"hosts": {"prod": "10.100.0.0/16"}, "autoApprovers": {"routes": {"10.100.0.0/16": ["tag:k8s"]}}})";
  auto sources = [&](fleet_loader& loader) {
    loader.add_text(mine, "mine.yaml");
    loader.add_import_text(import_kind::tailscale, policy, "policy.hujson");
  };
  fleet_loader first(builtin_catalog());
  sources(first);
  auto loaded = first.finish();
  ASSERT_TRUE(loaded.ok());
  auto p = plan(loaded.value, builtin_catalog());
  ASSERT_TRUE(p.complete());
  auto overlay = write_plan_overlay(loaded.value, p);
  EXPECT_NE(overlay.find("{owner: tailscale, role: routes, from: 10.100.0.0/16, to: "), std::string::npos) << overlay;
  fleet_loader again(builtin_catalog());
  sources(again);
  again.add_text(overlay, "overlay.yaml");
  auto planned = again.finish();
  ASSERT_TRUE(planned.ok()) << overlay << format_diagnostic(planned.diagnostics.front());
  for (const auto& x : check(planned.value, builtin_catalog())) EXPECT_NE(x.level, severity::error) << x.message;
  std::vector<std::string> routes;
  for (const auto& r : planned.value.ranges) {
    if (r.is_route()) routes.push_back(r.cidr.to_string() + " to " + planned.value.routes[r.route].to);
  }
  auto services = p.changes[1].to.to_string();
  EXPECT_EQ(routes, std::vector<std::string>{services + " to prod"}) << overlay;
}

TEST(PlanOverlay, AnEntryTheSourcesNoLongerMatchIsAnError) {
  fleet_loader loader(builtin_catalog());
  loader.add_text("clusters:\n  - {name: a, pods: 10.1.0.0/16}\n", "a.yaml");
  loader.add_text("renumber:\n  - {owner: a, role: pods, from: 10.9.0.0/16, to: 10.2.0.0/16}\n"
                  "  - {owner: b, role: pods, from: 10.1.0.0/16, to: 10.2.0.0/16}\n"
                  "  - {owner: a, role: pod, from: 10.1.0.0/16, to: 10.2.0.0/16}\n"
                  "  - {owner: a, role: pods, from: 10.1.0.0/16, to: 10.2.0.1/16}\n",
                  "overlay.yaml");
  auto r = loader.finish();
  ASSERT_FALSE(r.ok());
  std::vector<std::string> where;
  for (const auto& d : r.diagnostics) where.push_back(to_string(d.where) + " " + d.message);
  ASSERT_EQ(where.size(), 4u) << ::testing::PrintToString(where);
  EXPECT_NE(where[0].find("overlay.yaml:2:34 renumber: cluster a has no pods range 10.9.0.0/16"), std::string::npos)
      << where[0];
  EXPECT_NE(where[1].find("overlay.yaml:3:13 renumber: no cluster or network is named 'b'"), std::string::npos)
      << where[1];
  EXPECT_NE(where[2].find("unknown role 'pod'"), std::string::npos) << where[2];
  EXPECT_NE(where[3].find("host bits set"), std::string::npos) << where[3];
}

// Issue 28, item 8: forms of YAML that check accepts and plan -f yaml could
// not rewrite (it exited 3): a range written as a block scalar, an owner whose
// name is an explicit key.
TEST(PlanWriter, RewritesARangeWrittenAsABlockScalar) {
  // (| and > keep the final line break, which no CIDR has: check refuses those.)
  for (const char* style : {"|-", ">-"}) {
    auto out = planned_text(std::string(R"(clusters:
  - name: b
    distribution: kops
    network: 172.20.0.0/16
    pods: 100.96.0.0/16
    services: 100.64.0.0/16
  - name: a
    distribution: kops
    network: )") + style + R"(
      172.20.0.0/16
    pods:
      - )" + style + R"(
        100.97.0.0/16
    services: 100.72.0.0/16
connections:
  - [a, b]
)");
    EXPECT_EQ(out.find(style + std::string("\n")), std::string::npos) << out;
    EXPECT_NE(out.find("    distribution: kops\n    network: 10."), std::string::npos) << out;
  }
}

TEST(PlanWriter, AnOwnerNamedByAnExplicitKeyGetsItsNewKeysBesideIt) {
  auto out = planned_text(R"(clusters:
  - name: b
    distribution: kops
  - ? name
    : a
    distribution: kops
  - ? name
    : c
    ? distribution
    : kops
connections:
  - [a, b, c]
)");
  EXPECT_NE(out.find("    : a\n    distribution: kops\n    network: ["), std::string::npos) << out;
  EXPECT_NE(out.find("  - network: ["), std::string::npos) << out;  // c: before its first key, the type being explicit
}

TEST(PlanWriter, ARangeKeyWrittenAsAnExplicitKeyIsRefusedAtItsPosition) {
  const char* text = R"(x-net: &net 10.1.0.0/16
clusters:
  - name: a
    distribution: kubeadm
    ? network
    : *net
  - name: b
    distribution: kubeadm
    network: *net
connections:
  - [a, b]
plan:
  pin: [b]
)";
  auto f = load(text);
  auto p = plan(f, builtin_catalog());
  ASSERT_TRUE(p.complete());
  try {
    (void)apply_plan_to_text(text, "f.yaml", f, p);
    FAIL() << "an explicit range key was rewritten";
  } catch (const plan_text_error& e) {
    EXPECT_EQ(to_string(e.where()), "f.yaml:5:14");
    EXPECT_STREQ(e.what(), "cannot rewrite the key network, written as an explicit key (? network): write it as "
                           "network: VALUE");
  }
}

// Issue 28, item 25: a JSON fleet file gets JSON, not YAML's flow syntax.
// A GKE default pod range behind a router (issue 26): the plan adds a pod range
// and withdraws the old one from the VPN, a `withdrawn` key of the connection.
auto gke_branch(std::string_view connection) -> std::string {
  return std::string(R"(networks:
  - {name: gcp-vpc, type: gcp-vpc, cidrs: 10.10.0.0/20}
  - {name: onprem, cidrs: 192.168.0.0/16, routes: [{cidr: 10.4.0.0/16, to: branch}]}
  - {name: branch, type: office, cidrs: 10.4.0.0/16}
clusters:
  - {name: analytics, distribution: gke, runs_in: gcp-vpc, nodes: 60, network: 10.10.0.0/20, pods: 10.4.0.0/14, services: 34.118.224.0/20}
connections:
)") + std::string(connection);
}

TEST(PlanWriter, AWithdrawnRangeIsWrittenIntoItsConnection) {
  auto block = planned_text(gke_branch("  - name: cloud-vpn\n    between: [analytics, onprem]\n    routes: [pods]\n"));
  EXPECT_NE(block.find("  - withdrawn: [10.4.0.0/14]  # planned by cidrcheck: no longer carried\n    name: cloud-vpn\n"),
            std::string::npos)
      << block;
  EXPECT_NE(block.find("pods: [10.4.0.0/14, 10.10.128.0/17]"), std::string::npos) << block;  // the old range stays
  auto flow = planned_text(gke_branch("  - {between: [analytics, onprem], routes: [pods]}\n"));
  EXPECT_NE(flow.find("  - {between: [analytics, onprem], routes: [pods], withdrawn: [10.4.0.0/14]}\n"), std::string::npos)
      << flow;
}

TEST(PlanWriter, AWithdrawalItCannotWriteIsRefusedAtTheConnection) {
  for (const auto& [connection, message] : std::vector<std::pair<std::string, std::string>>{
           {"  - [analytics, onprem]\n", "written in the short form"},
           {"  - {between: [analytics, onprem], withdrawn: 10.99.0.0/16}\n", "lists already"}}) {
    auto text = gke_branch(connection);
    auto f = load(text);
    auto p = plan(f, builtin_catalog());
    ASSERT_FALSE(p.operations.empty()) << connection;
    ASSERT_FALSE(p.operations[0].withdrawals.empty()) << connection;
    try {
      (void)apply_plan_to_text(text, "f.yaml", f, p);
      FAIL() << connection;
    } catch (const plan_text_error& e) {
      EXPECT_EQ(to_string(e.where()), "f.yaml:8:5") << connection;
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)write_plan_overlay(f, p), plan_text_error) << connection;
  }
}

TEST(PlanWriter, AJsonFleetFileStaysJson) {
  const char* text = R"({"clusters": [
  {"name": "a", "distribution": "kops", "services": "100.64.0.0/13"},
  {"name": "b", "distribution": "kops", "pods": ["100.96.0.0/11"], "nodes": 10, "network": "auto"}
],
 "connections": [{"between": ["a", "b"]}]}
)";
  auto out = planned_text(text);
  EXPECT_NE(out.find(R"("services": "100.64.0.0/13", "pods": ["10.)"), std::string::npos) << out;  // a default, a new key
  EXPECT_NE(out.find(R"("network": "10.)"), std::string::npos) << out;  // the request, in its quotes
  EXPECT_NE(out.find(R"(, "services": ["10.)"), std::string::npos) << out;
  EXPECT_EQ(out.find('#'), std::string::npos) << out;                        // no comments
  EXPECT_TRUE(nlohmann::json::accept(out)) << out;
}

TEST(PlanWriter, ProvenanceCommentsOfAnImportedFileStayTrue) {
  // As `cidrcheck import` writes it: each value followed by where it was read.
  auto out = planned_text(R"(version: 1
clusters:
  - name: a  # exports/a.json:3:13
    network:
      - 10.1.0.0/16  # exports/a.json:5:20
    pods:
      - 10.2.0.0/16  # exports/a.json:6:17
    services:
      - 10.96.0.0/16  # exports/a.json:7:21
  - name: b  # exports/b.json:3:13
    network:
      - 10.3.0.0/16  # exports/b.json:5:20
    pods:
      - 10.4.0.0/16  # exports/b.json:6:17
    services:
      - 10.96.0.0/16  # exports/b.json:7:21
connections:
  - [a, b]
)");
  EXPECT_NE(out.find("# planned by cidrcheck; was 10.96.0.0/16, read at exports/"), std::string::npos) << out;
  // The moved value no longer claims to be read where the old one was; the kept one still does.
  auto count = [&](std::string_view part) {
    std::size_t n = 0;
    for (auto k = out.find(part); k != std::string::npos; k = out.find(part, k + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("planned by cidrcheck"), 1u) << out;
  EXPECT_EQ(count("- 10.96.0.0/16  # exports/"), 1u) << out;
}

}  // namespace
}  // namespace cidrcheck
