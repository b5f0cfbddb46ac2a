// The runbook emitters on fuzzed names and platforms: a fleet of two clusters
// whose ranges collide, named from the input, on a distribution, CNI, IPAM mode
// and Kubernetes minor the input picks among the catalog's, planned and
// emitted with `plan --emit`'s runbook_files. Every emitted shell line (in a
// .sh file, or a runbook.md command block) must be one simple command and
// every emitted .yaml must parse, whatever the names (issue 28 item 2).

#include "fuzz_target.hpp"

#include "../../lib/cidrcheck/fleet/emit.hpp"
#include "../../lib/cidrcheck/io/yaml_document.hpp"

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

namespace {

using namespace cidrcheck;

// Reads bytes off the input: a byte, or a name up to a 0 byte (at most 300 bytes).
struct reader {
  std::string_view rest;
  auto byte() -> unsigned {
    if (rest.empty()) return 0;
    auto b = static_cast<unsigned char>(rest.front());
    rest.remove_prefix(1);
    return b;
  }
  auto name() -> std::string {
    auto end = rest.find('\0');
    auto n = std::min<std::size_t>(std::min(end, rest.size()), 300);
    std::string out(rest.substr(0, n));
    rest.remove_prefix(std::min(rest.size(), n + 1));
    return out.empty() ? "x" : out;
  }
};

[[noreturn]] void fail(const std::string& what, const std::string& where) {
  std::fprintf(stderr, "%s\n%s\n", what.c_str(), where.c_str());
  std::abort();
}

void check_shell_line(const std::string& line, const std::string& where) {
  if (line.empty() || line.front() == '#') return;
  if (auto problem = detail::shell_line_problem(line)) fail("not one command: " + *problem, where + ": " + line);
}

// The lines of every ```sh block of a runbook.md.
void check_markdown_commands(const std::string& text, const std::string& where) {
  std::size_t at = 0;
  while ((at = text.find("```sh\n", at)) != std::string::npos) {
    auto fence_start = text.rfind('\n', at);
    auto indent = at - (fence_start == std::string::npos ? 0 : fence_start + 1);
    std::size_t ticks = 0;
    while (at + ticks < text.size() && text[at + ticks] == '`') ++ticks;
    std::string fence(ticks, '`');
    auto line_start = text.find('\n', at) + 1;
    while (line_start < text.size()) {
      auto line_end = text.find('\n', line_start);
      std::string line = text.substr(line_start, line_end - line_start);
      if (line.size() >= indent) line = line.substr(indent);
      if (line == fence) break;
      check_shell_line(line, where);
      line_start = line_end + 1;
    }
    at = line_start;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& cat = builtin_catalog();
  reader in{std::string_view(reinterpret_cast<const char*>(data), size)};
  fleet f;
  for (std::uint32_t k = 0; k < 2; ++k) {
    owner o;
    o.name = in.name() + (k == 0 ? "" : "-2");
    o.kind = owner_kind::cluster;
    const auto& d = cat.distributions[in.byte() % cat.distributions.size()];
    o.type = d.name;
    const auto& cni = cat.cnis[in.byte() % cat.cnis.size()];
    o.cni = cni.name;
    o.ipam = cni.modes[in.byte() % cni.modes.size()].name;
    o.kubernetes = kube_version{1, static_cast<int>(20 + in.byte() % 16)};
    o.nodes = in.byte() % 100;
    o.service_count = in.byte();
    o.load_balancer_count = in.byte() % 8;
    const unsigned roles = 1 + in.byte() % 7;  // which of network, pods, services collide
    const char* cidrs[] = {"10.0.0.0/16", "10.244.0.0/16", "10.96.0.0/16"};
    for (unsigned r = 0; r < 3; ++r) {
      if ((roles & (1u << r)) == 0 && r != 2) continue;
      fleet_range range;
      range.cidr = prefix::parse(cidrs[r]);
      range.owner = k;
      range.role = static_cast<range_role>(r);
      o.ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
      f.ranges.push_back(range);
    }
    f.owners.push_back(std::move(o));
  }
  connection c;
  c.members = {0, 1};
  c.via = in.name();
  c.routes = role_set::all();
  f.connections.push_back(c);
  auto p = plan(f, cat);
  for (const auto& file : runbook_files(f, p, cat)) {
    if (file.path.ends_with(".sh")) {
      std::size_t start = 0;
      while (start < file.text.size()) {
        auto end = file.text.find('\n', start);
        check_shell_line(file.text.substr(start, end - start), file.path);
        start = end == std::string::npos ? file.text.size() : end + 1;
      }
    } else if (file.path.ends_with(".yaml")) {
      std::vector<diagnostic> d;
      detail::parse_yaml(file.text, file.path, {}, d);
      if (!d.empty()) fail("does not parse: " + d.front().message, file.path + "\n" + file.text);
    } else if (file.path.ends_with("runbook.md")) {
      check_markdown_commands(file.text, file.path);
    }
  }
  return 0;
}
