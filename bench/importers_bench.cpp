// Google Benchmark cases for the importers (issue 16, item 11): each reads an
// export of N entries and merges it into a fleet, as `cidrcheck import` does.
// Every case should grow as n log n: compare /10000 with /100000, and with
// /1000000, which runs only with CIDRCHECK_BENCH_1M=1 in the environment
// (minutes and gigabytes: not for a default run). Counters: the export's size
// (input_MB) and the memory the case touched (touched_MB: its minor page
// faults, 4 KiB each), so that memory reads as a multiple of the input.

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>

#include <benchmark/benchmark.h>

#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cidrcheck::bench {
namespace {

auto v4(std::uint32_t bits) -> std::string {
  return std::to_string(bits >> 24) + "." + std::to_string(bits >> 16 & 255) + "." + std::to_string(bits >> 8 & 255) +
         "." + std::to_string(bits & 255);
}

// The k-th block of `length` from 10.0.0.0, every second one left out, so
// that the node blocks merge into many ranges rather than one (the worst case
// of the merge). Every k gives its own block: 10.0.0.0/8 holds the first
// 131,072 /26s, and larger exports go on into 11.0.0.0/8 and up, so that an
// export of 1,000,000 is ten times one of 100,000, not one with each range
// repeated seven times.
auto block(std::size_t k, int length = 26) -> std::string {
  std::uint64_t step = std::uint64_t{1} << (32 - length);
  auto a = static_cast<std::uint32_t>(0x0a000000u + 2 * k * step);
  return v4(a) + "/" + std::to_string(length);
}

auto kubectl_nodes(std::size_t n) -> std::string {
  std::string out = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (std::size_t k = 0; k < n; ++k) {
    out += (k ? ",\n" : "\n") + std::string(R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-)") +
           std::to_string(k) + R"("}, "spec": {"podCIDR": ")" + block(k) + R"(", "podCIDRs": [")" + block(k) +
           R"("]}})";
  }
  return out + "]}\n";
}

auto kubectl_ippools(std::size_t n) -> std::string {
  std::string out = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (std::size_t k = 0; k < n; ++k) {
    out += (k ? ",\n" : "\n") +
           std::string(R"({"apiVersion": "crd.projectcalico.org/v1", "kind": "IPPool", "metadata": {"name": "pool-)") +
           std::to_string(k) + R"("}, "spec": {"cidr": ")" + block(k) + R"("}})";
  }
  return out + "]}\n";
}

auto kubectl_servicecidrs(std::size_t n) -> std::string {
  std::string out = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (std::size_t k = 0; k < n; ++k) {
    out += (k ? ",\n" : "\n") +
           std::string(R"({"apiVersion": "networking.k8s.io/v1", "kind": "ServiceCIDR", "metadata": {"name": ")") +
           (k == 0 ? std::string("kubernetes") : "extra-" + std::to_string(k)) + R"("}, "spec": {"cidrs": [")" +
           block(k) + R"("]}})";
  }
  return out + "]}\n";
}

auto aws_vpcs(std::size_t n) -> std::string {
  std::string out = R"({"Vpcs": [)";
  for (std::size_t k = 0; k < n; ++k) {
    out += (k ? ",\n" : "\n") + std::string(R"({"VpcId": "vpc-)") + std::to_string(k) + R"(", "CidrBlock": ")" +
           block(k, 28) + R"(", "Tags": [{"Key": "Name", "Value": "v)" + std::to_string(k) + R"("}]})";
  }
  return out + "]}\n";
}

auto gcp_subnets(std::size_t n) -> std::string {
  std::string out = "[";
  for (std::size_t k = 0; k < n; ++k) {
    out += (k ? ",\n" : "\n") + std::string(R"({"kind": "compute#subnetwork", "name": "s)") + std::to_string(k) +
           R"(", "ipCidrRange": ")" + block(k, 28) +
           R"(", "network": "https://www.googleapis.com/compute/v1/projects/p/global/networks/net-)" +
           std::to_string(k % 100) + R"(", "region": "https://www.googleapis.com/compute/v1/projects/p/regions/r1"})";
  }
  return out + "]\n";
}

auto kops_subnets(std::size_t n) -> std::string {
  std::string out =
      "apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: big.example.com\nspec:\n"
      "  networkCIDR: 10.0.0.0/8\n  nonMasqueradeCIDR: 100.64.0.0/10\n  subnets:\n";
  for (std::size_t k = 0; k < n; ++k) {
    out += "  - {name: s" + std::to_string(k) + ", type: Private, zone: z1, cidr: " + block(k, 28) + "}\n";
  }
  return out;
}

// A tailnet policy with `hosts` named hosts, each in one of hosts/4 subnet
// routes (/24s of 10.0.0.0/8, in autoApprovers.routes, one router each), and
// an ACL per route naming its first host.
auto tailscale_policy(std::size_t hosts) -> std::string {
  std::size_t routes = hosts / 4 + 1;
  std::string out = "// generated\n{\n\t\"hosts\": {\n";
  for (std::size_t k = 0; k < hosts; ++k) {
    auto route = static_cast<std::uint32_t>(k % routes);
    out += "\t\t\"host-" + std::to_string(k) + "\": \"" + v4((10u << 24) + (route << 8) + 1 + static_cast<std::uint32_t>(k / routes)) + "\",\n";
  }
  out += "\t},\n\t\"autoApprovers\": {\"routes\": {\n";
  for (std::size_t k = 0; k < routes; ++k) {
    out += "\t\t\"" + v4((10u << 24) + (static_cast<std::uint32_t>(k) << 8)) + "/24\": [\"tag:router-" +
           std::to_string(k) + "\"],\n";
  }
  out += "\t}},\n\t\"acls\": [\n";
  for (std::size_t k = 0; k < routes; ++k) {
    out += "\t\t{\"action\": \"accept\", \"src\": [\"group:sre\"], \"dst\": [\"" +
           v4((10u << 24) + (static_cast<std::uint32_t>(k) << 8) + 1) + ":443\"]},\n";
  }
  out += "\t],\n}\n";
  return out;
}

// `terraform show -json` of a plan that creates n resources in 100 child
// modules: VPCs (one in ten an S3 bucket, which is only counted), each with a
// resource change whose after_unknown marks its IPv6 block, so that every
// instance is looked up among n changes.
auto terraform_plan(std::size_t n) -> std::string {
  constexpr std::size_t modules = 100;
  std::string resources[modules], changes;
  for (std::size_t k = 0; k < n; ++k) {
    auto address = "module.m" + std::to_string(k % modules) + ".aws_vpc.v[" + std::to_string(k) + "]";
    bool bucket = k % 10 == 9;
    auto type = bucket ? std::string("aws_s3_bucket") : std::string("aws_vpc");
    if (bucket) address = "module.m" + std::to_string(k % modules) + ".aws_s3_bucket.b[" + std::to_string(k) + "]";
    auto& r = resources[k % modules];
    r += std::string(r.empty() ? "" : ",\n") + R"({"address": ")" + address + R"(", "mode": "managed", "type": ")" +
         type + R"(", "name": "v", "index": )" + std::to_string(k) +
         R"(, "values": {"cidr_block": ")" + block(k, 28) +
         R"(", "assign_generated_ipv6_cidr_block": true, "tags": {"Name": "v)" + std::to_string(k) + R"("}}})";
    changes += std::string(changes.empty() ? "" : ",\n") + R"({"address": ")" + address +
               R"(", "change": {"actions": ["create"], "after_unknown": {"id": true, "ipv6_cidr_block": true}}})";
  }
  std::string out = R"({"format_version": "1.2", "planned_values": {"root_module": {"child_modules": [)";
  for (std::size_t m = 0; m < modules; ++m) {
    out += std::string(m ? ",\n" : "\n") + R"({"address": "module.m)" + std::to_string(m) + R"(", "resources": [)" +
           resources[m] + "]}";
  }
  return out + "]}},\n\"resource_changes\": [" + changes + "]}\n";
}

// The minor page faults so far. Memory freed by an earlier case is handed back
// first (glibc keeps it otherwise), so that a case's faults count all it touches.
auto minor_faults() -> long {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Sets the counters of a case that read `text`: its size, and the memory it touched since `faults_before`.
void count_memory(benchmark::State& state, const std::string& text, long faults_before) {
  auto touched = static_cast<double>(minor_faults() - faults_before) * 4096.0 / static_cast<double>(state.iterations());
  state.counters["input_MB"] = static_cast<double>(text.size()) / 1e6;
  state.counters["touched_MB"] = touched / 1e6;
}

// The limits that let the largest generated exports read.
auto bench_limits() -> input_limits {
  input_limits limits;
  limits.max_file_bytes = std::size_t{1} << 30;
  limits.max_nodes = 50'000'000;
  return limits;
}

template <auto Generate>
void import_case(benchmark::State& state, import_kind kind) {
  auto n = static_cast<std::size_t>(state.range(0));
  const auto text = Generate(n);
  const auto limits = bench_limits();
  auto faults = minor_faults();
  for (auto _ : state) {
    fleet_loader loader(builtin_catalog(), limits);
    loader.add_import_text(kind, text, "export");
    auto r = loader.finish();
    if (!r.ok()) throw std::runtime_error("the generated export does not read: " + r.diagnostics.front().message);
    benchmark::DoNotOptimize(r.value.ranges.data());
  }
  count_memory(state, text, faults);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

// 10,000 and 100,000 entries; 1,000,000 too with CIDRCHECK_BENCH_1M=1.
void export_sizes(benchmark::internal::Benchmark* b) {
  b->Arg(10'000)->Arg(100'000);
  const char* large = std::getenv("CIDRCHECK_BENCH_1M");
  if (large != nullptr && std::string(large) == "1") b->Arg(1'000'000);
}

void kubectl_nodes_case(benchmark::State& s) { import_case<kubectl_nodes>(s, import_kind::kubectl); }
void kubectl_ippools_case(benchmark::State& s) { import_case<kubectl_ippools>(s, import_kind::kubectl); }
void kubectl_servicecidrs_case(benchmark::State& s) { import_case<kubectl_servicecidrs>(s, import_kind::kubectl); }
void aws_vpcs_case(benchmark::State& s) { import_case<aws_vpcs>(s, import_kind::aws_vpcs); }
void gcp_subnets_case(benchmark::State& s) { import_case<gcp_subnets>(s, import_kind::gcp_subnets); }
void kops_subnets_case(benchmark::State& s) { import_case<kops_subnets>(s, import_kind::kops); }
void tailscale_case(benchmark::State& s) { import_case<tailscale_policy>(s, import_kind::tailscale); }
void terraform_plan_case(benchmark::State& s) { import_case<terraform_plan>(s, import_kind::terraform_plan); }

#define CIDRCHECK_IMPORT_BENCH(fn, name) \
  BENCHMARK(fn)->Name(name)->Apply(export_sizes)->Unit(benchmark::kMillisecond)->Iterations(1)

CIDRCHECK_IMPORT_BENCH(kubectl_nodes_case, "BM_Import_KubectlNodes");
CIDRCHECK_IMPORT_BENCH(kubectl_ippools_case, "BM_Import_KubectlIPPools");
CIDRCHECK_IMPORT_BENCH(kubectl_servicecidrs_case, "BM_Import_KubectlServiceCIDRs");
CIDRCHECK_IMPORT_BENCH(aws_vpcs_case, "BM_Import_AwsVpcs");
CIDRCHECK_IMPORT_BENCH(gcp_subnets_case, "BM_Import_GcpSubnets");
CIDRCHECK_IMPORT_BENCH(kops_subnets_case, "BM_Import_KopsSubnets");
CIDRCHECK_IMPORT_BENCH(terraform_plan_case, "BM_Import_TerraformPlan");
// hosts: 16k and 64k are the sizes issue 16 timed (1.7 s and 47 s before the fix).
BENCHMARK(tailscale_case)
    ->Name("BM_Import_Tailscale")
    ->Arg(1'000)
    ->Arg(10'000)
    ->Arg(16'000)
    ->Arg(64'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);


// Issue 18: the kinds of inventories teams already keep.

// n Services in 10.96.0.0/12, every 100th outside it (a warning each), one in
// ten headless; checked against the service range a fleet file states.
auto kubectl_services(std::size_t n) -> std::string {
  std::string out = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (std::size_t k = 0; k < n; ++k) {
    auto ip = k % 10 == 9 ? std::string("None")
                          : v4((k % 100 == 0 ? 0x0a200000u : 0x0a600000u) + static_cast<std::uint32_t>(k % 0xfffff));
    out += (k ? ",\n" : "\n") + std::string(R"({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc-)") +
           std::to_string(k) + R"(", "namespace": "ns-)" + std::to_string(k % 50) + R"("}, "spec": {"type": ")" +
           (k % 7 == 0 ? "LoadBalancer" : "ClusterIP") + R"(", "clusterIP": ")" + ip + R"(", "clusterIPs": [")" + ip +
           R"("]}})";
  }
  return out + "]}\n";
}

// The kubeadm-config ConfigMap whose embedded ClusterConfiguration carries n
// apiServer extraArgs (v1beta4's list): the embedded text is parsed and mapped.
auto kubeadm_config(std::size_t n) -> std::string {
  std::string out = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kubeadm-config\n  namespace: kube-system\n"
                    "data:\n  ClusterConfiguration: |\n    apiVersion: kubeadm.k8s.io/v1beta4\n"
                    "    kind: ClusterConfiguration\n    networking:\n      podSubnet: 10.244.0.0/16\n"
                    "      serviceSubnet: 10.96.0.0/12\n    apiServer:\n      extraArgs:\n";
  for (std::size_t k = 0; k < n; ++k) {
    out += "      - name: flag-" + std::to_string(k) + "\n        value: \"" + std::to_string(k) + "\"\n";
  }
  return out;
}

// n CiliumPodIPPools of one /26 each, no ConfigMap (so the mode is unknown and every pool is read).
auto cilium_pools(std::size_t n) -> std::string {
  std::string out = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (std::size_t k = 0; k < n; ++k) {
    out += (k ? ",\n" : "\n") +
           std::string(R"({"apiVersion": "cilium.io/v2alpha1", "kind": "CiliumPodIPPool", "metadata": {"name": "pool-)") +
           std::to_string(k) + R"("}, "spec": {"ipv4": {"cidrs": [")" + block(k) + R"("], "maskSize": 28}}})";
  }
  return out + "]}\n";
}

void kubectl_services_case(benchmark::State& state) {
  auto n = static_cast<std::size_t>(state.range(0));
  const auto text = kubectl_services(n);
  const auto limits = bench_limits();
  auto faults = minor_faults();
  for (auto _ : state) {
    fleet_loader loader(builtin_catalog(), limits);
    loader.add_text("clusters:\n  - name: export\n    services: [10.96.0.0/12]\n", "fleet.yaml");
    loader.add_import_text(import_kind::kubectl_services, text, "export");
    auto r = loader.finish();
    if (!r.ok()) throw std::runtime_error("the generated export does not read: " + r.diagnostics.front().message);
    benchmark::DoNotOptimize(r.diagnostics.data());
  }
  count_memory(state, text, faults);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void kubeadm_config_case(benchmark::State& s) { import_case<kubeadm_config>(s, import_kind::kubeadm_config); }
void cilium_pools_case(benchmark::State& s) { import_case<cilium_pools>(s, import_kind::cilium); }

CIDRCHECK_IMPORT_BENCH(kubectl_services_case, "BM_Import_KubectlServices");
CIDRCHECK_IMPORT_BENCH(kubeadm_config_case, "BM_Import_KubeadmConfig");
CIDRCHECK_IMPORT_BENCH(cilium_pools_case, "BM_Import_CiliumPools");

}  // namespace
}  // namespace cidrcheck::bench

// NetBox's prefixes (netbox, netbox-csv): n prefixes in four routing domains
// (the global table and three VRFs), each a /20 container of 10.0.0.0/8 and
// its fifteen /24 children, one prefix in a hundred listed twice (a warning
// each). The hierarchy is a sort and a sweep: n log n.
namespace cidrcheck::bench {
namespace {

struct netbox_row {
  std::size_t id;
  std::string cidr, vrf, rd;
};

auto netbox_row_of(std::size_t k) -> netbox_row {
  static const char* const vrfs[] = {"", "blue", "green", "red"};
  std::size_t i = k % 100 == 99 ? k - 1 : k;  // the duplicate repeats the row before
  std::size_t group = i / 16, child = i % 16;
  std::size_t domain = group % 4;
  auto base = 0x0a000000u + static_cast<std::uint32_t>(group / 4 % 4096) * (1u << 12);
  auto cidr = child == 0 ? v4(base) + "/20" : v4(base + static_cast<std::uint32_t>(child) * 256u) + "/24";
  return {k + 1, cidr, vrfs[domain], domain == 0 ? "" : "65000:" + std::to_string(domain)};
}

auto netbox_prefixes(std::size_t n) -> std::string {
  std::string out = R"({"count": )" + std::to_string(n) + R"(, "next": null, "previous": null, "results": [)";
  for (std::size_t k = 0; k < n; ++k) {
    auto r = netbox_row_of(k);
    auto vrf = r.vrf.empty() ? std::string("null")
                             : R"({"id": 1, "name": ")" + r.vrf + R"(", "rd": ")" + r.rd + R"("})";
    out += (k ? ",\n" : "\n") + std::string(R"({"id": )") + std::to_string(r.id) + R"(, "prefix": ")" + r.cidr +
           R"(", "vrf": )" + vrf +
           R"(, "scope_type": "dcim.site", "scope": {"id": 3, "name": "ams1"}, "tenant": {"id": 2, "name": "Platform"},)"
           R"( "status": {"value": "active", "label": "Active"}, "role": {"id": 1, "name": "Pods"}, "description": "p)" +
           std::to_string(k) + R"("})";
  }
  return out + "]}\n";
}

auto netbox_csv(std::size_t n) -> std::string {
  std::string out = "\xEF\xBB\xBFID,Prefix,Status,VRF,Tenant,Scope,Scope Type,Role,Description\r\n";
  for (std::size_t k = 0; k < n; ++k) {
    auto r = netbox_row_of(k);
    auto vrf = r.vrf.empty() ? std::string("Global") : r.vrf + " (" + r.rd + ")";
    out += std::to_string(r.id) + "," + r.cidr + ",Active," + vrf + ",Platform,ams1,dcim.site,Pods,\"p" +
           std::to_string(k) + ", ams1\"\r\n";
  }
  return out;
}

void netbox_prefixes_case(benchmark::State& s) { import_case<netbox_prefixes>(s, import_kind::netbox); }
void netbox_csv_case(benchmark::State& s) { import_case<netbox_csv>(s, import_kind::netbox_csv); }

CIDRCHECK_IMPORT_BENCH(netbox_prefixes_case, "BM_Import_NetboxPrefixes");
CIDRCHECK_IMPORT_BENCH(netbox_csv_case, "BM_Import_NetboxCsv");

}  // namespace
}  // namespace cidrcheck::bench

namespace cidrcheck::bench {
namespace {

auto hex(std::size_t x) -> std::string {
  char text[17];
  std::snprintf(text, sizeof text, "%zx", x);
  return text;
}

// n subnets of one /26 each, 100 per VPC (so there are n / 100 VPCs to group
// them into), each with a Name tag and an associated IPv6 /64.
auto aws_subnets(std::size_t n) -> std::string {
  std::string out = R"({"Subnets": [)";
  for (std::size_t k = 0; k < n; ++k) {
    auto id = std::to_string(k);
    out += (k ? ",\n" : "\n") + std::string(R"({"SubnetId": "subnet-)") + id + R"(", "VpcId": "vpc-)" +
           std::to_string(k / 100) + R"(", "CidrBlock": ")" + block(k) +
           R"(", "Ipv6CidrBlockAssociationSet": [{"Ipv6CidrBlock": "2600:1f14:)" + hex(k % 65536) + ":" + hex(k / 65536) +
           R"(::/64", "Ipv6CidrBlockState": {"State": "associated"}}], "Tags": [{"Key": "Name", "Value": "subnet-)" +
           id + R"("}]})";
  }
  return out + "]}\n";
}

// n virtual networks of one /26 each with one subnet, each peered (Connected)
// with the next, so that n - 1 connections join them: as `az network vnet list` prints them.
auto azure_vnets(std::size_t n) -> std::string {
  auto id = [](std::size_t k) {
    return "/subscriptions/0b1f6471-1bf0-4dda-aec3-cb9272f09590/resourceGroups/rg/providers/Microsoft.Network/"
           "virtualNetworks/vnet-" + std::to_string(k);
  };
  std::string out = "[";
  for (std::size_t k = 0; k < n; ++k) {
    out += (k ? ",\n" : "\n") + std::string(R"({"name": "vnet-)") + std::to_string(k) + R"(", "id": ")" + id(k) +
           R"(", "resourceGroup": "rg", "addressSpace": {"addressPrefixes": [")" + block(k) +
           R"("]}, "subnets": [{"name": "default", "addressPrefix": ")" + block(k) + R"("}], "virtualNetworkPeerings": [)";
    if (k + 1 < n) {
      out += R"({"name": "next", "peeringState": "Connected", "remoteVirtualNetwork": {"id": ")" + id(k + 1) +
             R"("}, "remoteAddressSpace": {"addressPrefixes": [")" + block(k + 1) + R"("]}})";
    }
    out += "]}";
  }
  return out + "]\n";
}

void aws_subnets_case(benchmark::State& s) { import_case<aws_subnets>(s, import_kind::aws_subnets); }
void azure_vnets_case(benchmark::State& s) { import_case<azure_vnets>(s, import_kind::azure_vnets); }

CIDRCHECK_IMPORT_BENCH(aws_subnets_case, "BM_Import_AwsSubnets");
CIDRCHECK_IMPORT_BENCH(azure_vnets_case, "BM_Import_AzureVnets");

}  // namespace
}  // namespace cidrcheck::bench
