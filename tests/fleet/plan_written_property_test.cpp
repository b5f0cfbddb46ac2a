// On random fleets read from text (every distribution, IPv4, IPv6 and
// dual-stack clusters, requested sizes, CNIs, networks with routes, plain and
// translated connections, a Tailscale policy beside one or two fleet files,
// pins, pools, YAML in several styles and JSON, names YAML must quote): no step
// of check, plan, plan --format yaml, plan --emit or import throws (the CLI's
// exit 3), and the plan as written reads back clean and checks as the plan
// said: with the ranges the applied plan gives each owner, without errors when
// the plan is complete, else with the errors it left.
//
// CIDRCHECK_WRITTEN_PLAN_FLEETS fleets (tests/CMakeLists.txt: 10,000, fewer
// under the sanitizers, where each is ~5 times slower).

#include "../unit/random.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/fleet_writer.hpp>
#include <cidrcheck/io/import.hpp>
#include <cidrcheck/io/plan_writer.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#ifndef CIDRCHECK_WRITTEN_PLAN_FLEETS
#error "tests/CMakeLists.txt sets CIDRCHECK_WRITTEN_PLAN_FLEETS"
#endif

namespace cidrcheck {
namespace {

// One random fleet as its sources: fleet files (YAML or JSON text) and
// perhaps a Tailscale policy.
struct sources {
  std::vector<std::pair<std::string, std::string>> files;  // name, text
  std::string tailnet;                                      // a policy, or empty
  std::pair<std::string, std::string> nodes;                // a cluster's Nodes (kubectl), or empty
  bool json = false;
};

// Names a writer must quote or escape, each a valid name (detail::name_problem).
// The longest name (detail::max_name_bytes), which quoted is longer than YAML's
// 1024-character limit for an implicit key.
const std::string long_name = std::string(1022, 'l') + " l";

constexpr const char* odd_names[] = {"@at",     "`tick",  "- dash", "a: b",   "#hash", "yes",    "1.5",    "no",
                                     "[list]",  "{map}",  "*star",  "&amp",   "!bang", "%pct",   "|pipe",  ">gt",
                                     "?q",      ",comma", "'sq'",   "\"dq\"", "a#b",   "tail ",  " lead",  "caf\xC3\xA9",
                                     "~",       "null",   "0x1F",   "-",      "a\\b",  "\xE2\x80\x8B" "zw"};

class generator {
 public:
  explicit generator(unsigned seed) : rng_(seed), catalog_(builtin_catalog()) {}

  auto next() -> sources {
    owners_.clear();
    clusters_.clear();
    anchors_.clear();
    fresh_anchors_.clear();
    sources out;
    out.json = pick(8) == 0;
    bool tailnet = !out.json && pick(4) == 0;
    auto files = out.json ? 1u : 1u + (pick(4) == 0 ? 1u : 0u);
    one_file_ = files == 1;
    std::vector<std::string> body(files), networks(files);
    auto clusters = 1 + pick(5);
    for (unsigned k = 0; k < clusters; ++k) add_name(true);
    auto nets = pick(3);
    for (unsigned k = 0; k < nets; ++k) add_name(false);
    style_ = pick(3);
    for (unsigned k = 0; k < clusters; ++k) body[pick(files)] += out.json ? json_cluster(k) : yaml_cluster(k);
    for (unsigned k = 0; k < nets; ++k) networks[pick(files)] += out.json ? json_network(clusters + k) : yaml_network(clusters + k);
    if (tailnet) owners_.push_back("tailscale");
    for (unsigned f = 0; f < files; ++f) {
      std::string text;
      if (out.json) {
        text = "{\"clusters\": [" + body[f] + "], \"networks\": [" + networks[f] + "]" + json_connections() + "}\n";
      } else {
        text += "x-kops: &kops {distribution: kops}\n";  // for merge keys
        if (!body[f].empty()) text += "clusters:\n" + body[f];
        if (!networks[f].empty()) text += "networks:\n" + networks[f];
        if (f == 0) text += yaml_connections() + yaml_plan();
        if (text.empty()) text = "version: 1\n";
        if (pick(10) == 0) text = crlf(text);
      }
      out.files.emplace_back("f" + std::to_string(f) + (out.json ? ".json" : ".yaml"), text);
    }
    if (tailnet) out.tailnet = policy();
    if (!out.json && pick(6) == 0) out.nodes = nodes();
    return out;
  }

 private:
  auto pick(unsigned n) -> unsigned { return rng_() % n; }
  template <std::size_t N>
  auto pick_of(const char* const (&list)[N]) -> std::string {
    return list[pick(N)];
  }

  void add_name(bool cluster) {
    std::string name = pick(6) == 0 ? pick_of(odd_names) : (cluster ? "c" : "n") + std::to_string(owners_.size());
    if (pick(200) == 0) name = long_name;
    // Names are unique; an odd name twice gets a suffix.
    if (std::find(owners_.begin(), owners_.end(), name) != owners_.end()) name += std::to_string(owners_.size());
    if (cluster) clusters_.push_back(owners_.size());
    owners_.push_back(name);
  }

  // A double-quoted YAML or JSON string (the test's own escaping, not the library's).
  static auto quoted(const std::string& text) -> std::string {
    std::string out = "\"";
    for (char c : text) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }

  // A name as YAML: plain where it is a simple word, else double-quoted.
  auto yaml_name(const std::string& name) -> std::string {
    bool simple = std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
    return simple && pick(2) == 0 ? name : quoted(name);
  }

  auto v4() -> std::string {
    static const char* const cidrs[] = {"10.0.0.0/16",   "10.1.0.0/16",   "10.0.0.0/12",    "172.20.0.0/16",
                                        "192.168.0.0/16", "10.96.0.0/12",  "10.100.0.0/16",  "100.64.0.0/13",
                                        "10.244.0.0/16", "100.96.0.0/11", "10.42.0.0/16",   "10.43.0.0/16",
                                        "10.8.0.0/20",   "10.2.0.0/24",   "172.30.0.0/16",  "10.128.0.0/14",
                                        "192.168.10.0/24", "172.31.0.0/16", "169.254.0.0/16", "8.8.8.0/24"};
    if (pick(3) == 0) {
      // Somewhere in 10.0.0.0/12, /14 to /24: overlaps among these are common.
      auto length = 14 + pick(11);
      auto bits = (0x0a000000u + (rng_() & 0x000fffffu)) & ~((1u << (32 - length)) - 1);
      return std::to_string(bits >> 24) + "." + std::to_string(bits >> 16 & 255) + "." + std::to_string(bits >> 8 & 255) +
             "." + std::to_string(bits & 255) + "/" + std::to_string(length);
    }
    return pick_of(cidrs);
  }
  auto v6() -> std::string {
    static const char* const cidrs[] = {"fd00:10:244::/56", "fd00:10:96::/112", "fd00:1::/48", "fd00:1::/56",
                                        "fd00:2::/108",     "fd7a:115c:a1e0::/48", "2001:db8::/48", "fd00::/104"};
    return pick_of(cidrs);
  }
  auto cidr(bool allow_v6 = true) -> std::string { return allow_v6 && pick(4) == 0 ? v6() : v4(); }

  // A range key's value: a CIDR, a list, a requested size, or a value written in an odd way.
  auto yaml_ranges(const std::string& indent, bool request_ok) -> std::string {
    switch (pick(12)) {
      case 0: return request_ok ? "auto" : v4();
      case 1: return request_ok ? (pick(2) ? "/20" : "ipv6/64") : v4();
      case 2: return "[" + cidr() + ", " + cidr() + "]";
      case 3: return "\n" + indent + "  - " + cidr() + "  # x.json:1:" + std::to_string(pick(9)) + "\n" + indent + "  - " + cidr();
      case 4: return "|-\n" + indent + "  " + v4();            // a block scalar
      case 5: return "\"" + v4() + "\"";
      case 6: return "[]";
      case 7: return pick(2) ? "~" : "";                       // the default
      case 8:  // an anchor, which later owners of the file may share
        if (!one_file_) return v4();
        fresh_anchors_.push_back("r" + std::to_string(anchors_.size() + fresh_anchors_.size()));
        return "&" + fresh_anchors_.back() + " " + v4();
      case 9: return anchors_.empty() ? v4() : "*" + anchors_[pick(static_cast<unsigned>(anchors_.size()))];
      default: return cidr();
    }
  }

  auto yaml_cluster(unsigned index) -> std::string {
    const std::string indent = "    ";
    std::vector<std::string> keys;
    const auto& name = owners_[clusters_[index]];
    if (pick(2)) {
      const auto& d = catalog_.distributions[pick(static_cast<unsigned>(catalog_.distributions.size()))];
      keys.push_back("distribution: " + d.name);
    }
    if (pick(3) == 0) keys.push_back(std::string("kubernetes: \"1.") + std::to_string(25 + pick(8)) + "\"");
    if (pick(5) == 0) keys.push_back(std::string("ip_family: ") + (pick(2) ? "dual" : pick(2) ? "ipv6" : "ipv4"));
    for (const char* role : {"network", "pods", "services"}) {
      if (pick(3) == 0) continue;
      keys.push_back(std::string(role) + ": " + yaml_ranges(indent, std::string(role) != "services" || pick(2)));
    }
    if (pick(3) == 0) keys.push_back("nodes: " + std::to_string(pick(2) ? 1 + pick(60) : 100 + pick(3000)));
    if (pick(4) == 0) {
      static const char* const cnis[] = {"calico", "cilium", "flannel", "vpc-cni", "weave"};
      keys.push_back("cni: " + pick_of(cnis));
    }
    if (pick(6) == 0) keys.push_back("node_cidr_mask: " + std::to_string(20 + pick(9)));
    if (pick(8) == 0) keys.push_back("dns: 10.96.0.10");
    if (pick(10) == 0) keys.push_back("description: " + quoted(pick_of(odd_names)));
    std::shuffle(keys.begin(), keys.end(), shuffler_);
    bool flow = style_ == 1 && std::none_of(keys.begin(), keys.end(), [](const std::string& k) {
      return k.find('\n') != std::string::npos;
    });
    if (flow) {
      anchors_.insert(anchors_.end(), fresh_anchors_.begin(), fresh_anchors_.end());
      fresh_anchors_.clear();
      std::string out = "  - {name: " + yaml_name(name);
      for (const auto& k : keys) out += ", " + k;
      return out + "}\n";
    }
    anchors_.insert(anchors_.end(), fresh_anchors_.begin(), fresh_anchors_.end());
    fresh_anchors_.clear();
    std::string out;
    if (keys.size() > 1 && pick(6) == 0) out += "  - <<: *kops\n    name: " + yaml_name(name) + "\n";
    else if (pick(12) == 0) out += "  - ? name\n    : " + yaml_name(name) + "\n";  // an explicit key
    else out += "  - name: " + yaml_name(name) + (pick(5) == 0 ? "   # a comment" : "") + "\n";
    for (const auto& k : keys) out += indent + k + "\n";
    return out;
  }

  auto yaml_network(unsigned index) -> std::string {
    static const char* const types[] = {"office", "vpn", "vpc", "tailscale", "docker", "onprem"};
    std::string out = "  - name: " + yaml_name(owners_[index]) + "\n    type: " + pick_of(types) + "\n";
    if (pick(4)) out += "    cidrs: " + yaml_ranges("    ", false) + "\n";
    anchors_.insert(anchors_.end(), fresh_anchors_.begin(), fresh_anchors_.end());
    fresh_anchors_.clear();
    if (pick(3) == 0) out += "    movable: true\n";
    if (pick(3) == 0 && !clusters_.empty()) {
      out += "    routes:\n";
      for (unsigned k = 0, n = 1 + pick(2); k < n; ++k) {
        out += "      - {cidr: " + v4() + (pick(2) ? ", to: " + quoted(owners_[clusters_[pick(static_cast<unsigned>(clusters_.size()))]]) : "") + "}\n";
      }
    }
    return out;
  }

  auto json_cluster(unsigned index) -> std::string {
    std::string out = std::string(index ? ", " : "") + "{\"name\": " + quoted(owners_[clusters_[index]]);
    if (pick(2)) {
      const auto& d = catalog_.distributions[pick(static_cast<unsigned>(catalog_.distributions.size()))];
      out += ", \"distribution\": \"" + d.name + "\"";
    }
    for (const char* role : {"network", "pods", "services"}) {
      switch (pick(4)) {
        case 0: break;
        case 1: out += std::string(", \"") + role + "\": [\"" + cidr() + "\", \"" + cidr() + "\"]"; break;
        case 2: out += std::string(", \"") + role + "\": \"auto\""; break;
        default: out += std::string(", \"") + role + "\": \"" + cidr() + "\"";
      }
    }
    if (pick(3) == 0) out += ", \"nodes\": " + std::to_string(100 + pick(3000));
    return out + "}";
  }

  auto json_network(unsigned index) -> std::string {
    return std::string(index == clusters_.size() ? "" : ", ") + "{\"name\": " + quoted(owners_[index]) +
           ", \"type\": \"office\", \"cidrs\": [\"" + v4() + "\"], \"movable\": " + (pick(2) ? "true" : "false") + "}";
  }

  // Random groups of owners; some translated (via nat) with global ranges for some members.
  auto connections() -> std::vector<std::vector<std::size_t>> {
    std::vector<std::vector<std::size_t>> out;
    if (owners_.size() < 2) return out;
    for (unsigned c = 0, n = pick(4); c < n; ++c) {
      std::set<std::size_t> members;
      for (unsigned k = 0, want = 2 + pick(2); k < want * 2 && members.size() < want; ++k) {
        members.insert(pick(static_cast<unsigned>(owners_.size())));
      }
      if (members.size() >= 2) out.emplace_back(members.begin(), members.end());
    }
    return out;
  }

  auto yaml_connections() -> std::string {
    auto groups = connections();
    if (groups.empty()) return "";
    std::string out = "connections:\n";
    unsigned global = 0;
    for (const auto& g : groups) {
      out += "  - between: [";
      for (std::size_t k = 0; k < g.size(); ++k) out += (k ? ", " : "") + quoted(owners_[g[k]]);
      out += "]\n";
      switch (pick(5)) {
        case 0: out += "    routes: [" + std::string(pick(2) ? "services" : "pods, network") + "]\n"; break;
        case 1:
          out += "    via: nat\n    translated:\n";
          for (auto m : g) {
            if (pick(3) == 0) continue;
            auto key = quoted(owners_[m]);
            out += (key.size() > 1000 ? "      ? " + key + "\n      " : "      " + key) + ": 100.100." +
                   std::to_string(global++ % 4) + ".0/24\n";
          }
          break;
        case 2: out += "    via: peering\n"; break;
        default: break;
      }
    }
    return out;
  }

  auto json_connections() -> std::string {
    auto groups = connections();
    if (groups.empty()) return "";
    std::string out = ", \"connections\": [";
    for (std::size_t j = 0; j < groups.size(); ++j) {
      out += std::string(j ? ", " : "") + "{\"between\": [";
      for (std::size_t k = 0; k < groups[j].size(); ++k) out += (k ? ", " : "") + quoted(owners_[groups[j][k]]);
      out += "]}";
    }
    return out + "]";
  }

  auto yaml_plan() -> std::string {
    std::string out;
    if (pick(4) == 0 && !owners_.empty()) {
      auto who = quoted(owners_[pick(static_cast<unsigned>(owners_.size()))]);
      static const char* const roles[] = {"", "/network", "/pods", "/services"};
      out += "  pin: [" + who.substr(0, who.size() - 1) + pick_of(roles) + "\"]\n";
    }
    if (pick(4) == 0) out += std::string("  pools: {pods: [") + (pick(2) ? "10.128.0.0/9" : "10.200.0.0/16, fd00:99::/48") + "]}\n";
    if (pick(6) == 0) out += "  pools: {network: [192.168.0.0/16]}\n";  // a second key: an error, exit 2
    if (pick(5) == 0) out += "  avoid: [10.0.0.0/9]\n";
    if (pick(6) == 0) out += "  headroom: 2\n";
    return out.empty() ? "" : "plan:\n" + out;
  }

  // A tailnet policy: hosts named after clusters, approved routes toward them.
  auto policy() -> std::string {
    std::string hosts, routes;
    for (unsigned k = 0, n = 1 + pick(3); k < n; ++k) {
      auto route = v4();
      if (!clusters_.empty() && pick(2)) {
        hosts += "    " + quoted(owners_[clusters_[pick(static_cast<unsigned>(clusters_.size()))]]) + ": \"" + route + "\",\n";
      }
      routes += "      \"" + route + "\": [\"tag:k8s\"],\n";
    }
    return "{\n  \"hosts\": {\n" + hosts + "  },\n  \"autoApprovers\": {\n    \"routes\": {\n" + routes + "    },\n  },\n}\n";
  }

  // `kubectl get nodes` of one cluster (named by the file, kubectl=NAME): node pod CIDRs that lie
  // in its pod range, or elsewhere (a source conflict).
  auto nodes() -> std::pair<std::string, std::string> {
    std::string items;
    auto base = pick(2) ? std::string("10.244.") : std::string("10.1.");
    for (unsigned k = 0, n = 1 + pick(4); k < n; ++k) {
      items += "- {apiVersion: v1, kind: Node, spec: {podCIDR: " + base + std::to_string(pick(8)) + ".0/24}}\n";
    }
    return {owners_[clusters_[pick(static_cast<unsigned>(clusters_.size()))]], "apiVersion: v1\nkind: List\nitems:\n" + items};
  }

  static auto crlf(const std::string& text) -> std::string {
    std::string out;
    for (char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
    return out;
  }

  test::random_source rng_;
  std::mt19937 shuffler_{7};
  const catalog& catalog_;
  std::vector<std::string> owners_;    // clusters, then networks, then the tailnet
  std::vector<std::size_t> clusters_;  // indexes into owners_
  std::vector<std::string> anchors_;   // anchors of the owners written so far (one file only)
  std::vector<std::string> fresh_anchors_;  // anchors of the owner being written
  bool one_file_ = true;
  unsigned style_ = 0;                 // 1: clusters in flow style
};

auto load(const sources& s, const std::string& overlay = {}) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  for (const auto& [name, text] : s.files) loader.add_text(text, name);
  if (!s.tailnet.empty()) loader.add_import_text(import_kind::tailscale, s.tailnet, "policy.hujson");
  if (!s.nodes.second.empty()) {
    loader.add_import_text(import_kind::kubectl, s.nodes.second, s.nodes.first + ".yaml");  // the cluster, by its file
  }
  if (!overlay.empty()) loader.add_text(overlay, "plan.yaml");
  return loader.finish();
}

// What a fleet gives each owner: its (role, CIDR, route or not) in order, by name.
auto ranges_by_owner(const fleet& f) -> std::map<std::string, std::multiset<std::string>> {
  std::map<std::string, std::multiset<std::string>> out;
  for (const auto& o : f.owners) out[o.name];
  for (const auto& r : f.ranges) {
    out[f.owners[r.owner].name].insert(f.role_name(r) + " " + r.cidr.to_string());
  }
  return out;
}

// The errors of a check, each as its rule and the owners and roles it names. (Positions differ
// between the two fleets, and so may which of two equal ranges of one owner a finding names:
// ranges_by_owner compares the CIDRs.)
auto errors_of(const fleet& f, const std::vector<finding>& findings) -> std::multiset<std::string> {
  std::multiset<std::string> out;
  for (const auto& x : findings) {
    if (x.level != severity::error) continue;
    std::vector<std::string> parts;
    for (auto k : x.ranges) parts.push_back(f.owners[f.ranges[k].owner].name + " " + f.role_name(f.ranges[k]));
    std::sort(parts.begin(), parts.end());
    std::string key(info(x.id).name);
    for (const auto& p : parts) key += " | " + p;
    out.insert(key);
  }
  return out;
}

auto dump(const sources& s) -> std::string {
  std::string out;
  for (const auto& [name, text] : s.files) out += "--- " + name + "\n" + text;
  if (!s.tailnet.empty()) out += "--- policy.hujson\n" + s.tailnet;
  if (!s.nodes.second.empty()) out += "--- " + s.nodes.first + ".yaml\n" + s.nodes.second;
  return out;
}

TEST(PlanWritten, EveryWrittenPlanReadsBackAsPlanned) {
  const auto& cat = builtin_catalog();
  generator gen(2025);
  int loaded_ok = 0, complete = 0, incomplete = 0, overlays = 0, changed = 0;
  for (int round = 0; round < CIDRCHECK_WRITTEN_PLAN_FLEETS; ++round) {
    auto s = gen.next();
    SCOPED_TRACE("fleet " + std::to_string(round) + ":\n" + dump(s));
    auto loaded = load(s);
    if (!loaded.ok()) continue;  // refused input is exit 2, and fine
    ++loaded_ok;
    const auto& f = loaded.value;
    plan_options options;
    options.fix_latent = round % 5 == 0;
    ASSERT_NO_THROW((void)check(f, cat));
    plan_result p;
    ASSERT_NO_THROW(p = plan(f, cat, options));
    ASSERT_NO_THROW((void)runbook_files(f, p, cat));  // plan --emit
    // plan --format yaml: one fleet file is patched, several sources get an overlay.
    bool overlay = s.files.size() != 1 || !s.tailnet.empty() || !s.nodes.second.empty();
    overlays += overlay ? 1 : 0;
    changed += p.changes.empty() ? 0 : 1;
    std::string text;
    ASSERT_NO_THROW(text = overlay ? write_plan_overlay(f, p) : apply_plan_to_text(s.files[0].second, s.files[0].first, f, p));
    if (s.json && !overlay) {
      ASSERT_TRUE(nlohmann::json::accept(text)) << "a JSON fleet file planned as:\n" << text;
    }
    auto again = overlay ? load(s, text) : load({{{s.files[0].first, text}}, {}, {}, s.json});
    ASSERT_TRUE(again.ok()) << "written:\n" << text << "\nread back:\n"
                            << (again.diagnostics.empty() ? "" : format_diagnostic(again.diagnostics.front()));
    auto applied = apply_plan(f, p);
    ASSERT_EQ(ranges_by_owner(again.value), ranges_by_owner(applied)) << "written:\n" << text;
    auto left = errors_of(again.value, plan_check(again.value, cat, options));
    if (p.complete()) {
      ++complete;
      ASSERT_TRUE(left.empty()) << "the plan says complete; written:\n" << text << "\nleft: " << *left.begin();
    } else {
      ++incomplete;
      ASSERT_EQ(left, errors_of(applied, p.remaining)) << "written:\n" << text;
    }
    // import -o: the fleet as a fleet file reads back as the same fleet.
    std::string imported;
    ASSERT_NO_THROW(imported = write_fleet_yaml(f, {}, loaded.suppressions));
    auto reimported = load({{{"imported.yaml", imported}}, {}, {}, false});
    ASSERT_TRUE(reimported.ok()) << imported << "\n"
                                 << (reimported.diagnostics.empty() ? "" : format_diagnostic(reimported.diagnostics.front()));
    ASSERT_EQ(ranges_by_owner(reimported.value), ranges_by_owner(f)) << imported;
  }
  // The generator must reach every path: most fleets load; plans complete and not; patches and overlays.
  EXPECT_GT(loaded_ok, CIDRCHECK_WRITTEN_PLAN_FLEETS * 6 / 10);
  EXPECT_GT(complete, loaded_ok / 4);
  EXPECT_GT(incomplete, loaded_ok / 50);
  EXPECT_GT(overlays, loaded_ok / 10);
  EXPECT_GT(changed, loaded_ok / 3);
}

}  // namespace
}  // namespace cidrcheck
