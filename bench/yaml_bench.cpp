// YAML trees, measured tree against tree: cidrcheck's parse_yaml (libyaml's
// event API into a positioned node tree) against yaml-cpp's YAML::Load, on
// one 10,000-cluster fleet file (the shape bench/gen_fleet.py writes:
// 1,000 networks, 10,000 clusters of eight keys, a mesh of 5,000 members and
// 20,000 pair connections; about 2.7 MB). libyaml's raw event stream is
// measured too: comparing those events with yaml-cpp's finished tree is where
// an earlier "15 times faster" came from. Set CIDRCHECK_BENCH_FLEET to a file
// (bench/gen_fleet.py --clusters 10000 fleet.yaml) to measure that file instead.
//
// A benchmark-only dependency: yaml-cpp (Debian's libyaml-cpp-dev). cidrcheck
// itself reads YAML with libyaml only.

#include "yaml_document.hpp"  // lib/cidrcheck/io: private, parse_yaml()

#include <benchmark/benchmark.h>
#include <yaml-cpp/yaml.h>
#include <yaml.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

auto generated_fleet(int clusters) -> std::string {
  std::string out = "version: 1\nnetworks:\n";
  const char* types[] = {"peer", "office", "vpn"};
  const int networks = clusters / 10;
  for (int k = 0; k < networks; ++k) {
    out += "  - name: net-" + std::to_string(k) + "\n    type: " + types[k % 3] + "\n    cidrs: [172." +
           std::to_string(16 + k / 256) + "." + std::to_string(k % 256) + ".0/24]\n";
  }
  const char* distributions[] = {"kops", "kubeadm", "kubeadm", "eks"};
  out += "clusters:\n";
  for (int k = 0; k < clusters; ++k) {
    std::string b = std::to_string(k / 64) + "." + std::to_string((k % 64) * 4);
    out += "  - name: cluster-" + std::to_string(k) + "\n    distribution: " + distributions[k % 4] +
           "\n    kubernetes: \"1." + std::to_string(27 + k % 6) + "\"\n    network: [10." + b + "/25]\n" +
           "    pods: [10." + std::to_string(k / 64) + "." + std::to_string((k % 64) * 4) + ".0/23]\n" +
           "    services: [10." + b + "/26]\n    node_cidr_mask: 28\n    nodes: 17\n";
  }
  out += "connections:\n  - name: mesh\n    via: mesh\n    routes: [pods, services]\n    between:\n";
  for (int k = 1; k < clusters; k += 2) out += "      - cluster-" + std::to_string(k) + "\n";
  for (int k = 0; k < 2 * clusters; ++k) {
    out += "  - [cluster-" + std::to_string((k * 7919) % clusters) + ", net-" + std::to_string((k * 104729) % networks) +
           "]\n";
  }
  return out;
}

auto fleet_text() -> const std::string& {
  static const std::string text = [] {
    if (const char* path = std::getenv("CIDRCHECK_BENCH_FLEET")) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      return buffer.str();
    }
    return generated_fleet(10'000);
  }();
  return text;
}

// cidrcheck's tree: nodes with positions, limits counted, duplicate keys seen.
void BM_YamlTree_Cidrcheck(benchmark::State& state) {
  const auto& text = fleet_text();
  for (auto _ : state) {
    std::vector<cidrcheck::diagnostic> diagnostics;
    auto doc = cidrcheck::detail::parse_yaml(text, "fleet.yaml", {}, diagnostics);
    if (!diagnostics.empty()) state.SkipWithError("parse_yaml reported a problem");
    benchmark::DoNotOptimize(doc.nodes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_YamlTree_Cidrcheck)->Unit(benchmark::kMillisecond);

// yaml-cpp's tree: YAML::Node, the design card's first choice.
void BM_YamlTree_YamlCpp(benchmark::State& state) {
  const auto& text = fleet_text();
  for (auto _ : state) {
    auto doc = YAML::Load(text);
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_YamlTree_YamlCpp)->Unit(benchmark::kMillisecond);

// libyaml's events alone, no tree: not comparable with a tree, shown for the record.
void BM_YamlEvents_Libyaml(benchmark::State& state) {
  const auto& text = fleet_text();
  for (auto _ : state) {
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    std::size_t events = 0;
    for (bool done = false; !done;) {
      yaml_event_t event;
      if (!yaml_parser_parse(&parser, &event)) {
        state.SkipWithError("libyaml reported a problem");
        break;
      }
      done = event.type == YAML_STREAM_END_EVENT;
      yaml_event_delete(&event);
      ++events;
    }
    yaml_parser_delete(&parser);
    benchmark::DoNotOptimize(events);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_YamlEvents_Libyaml)->Unit(benchmark::kMillisecond);

}  // namespace
