// `kubectl get services -A -o json` (or -o yaml): a v1 List of Services, a
// ServiceList, single Services or several YAML documents. Read: how many
// Services have a cluster IP, how many are of type LoadBalancer (the effort of
// a service move, see fleet-format.md), and every cluster IP, which
// merge_imports() checks against the cluster's service ranges. Fields as in
// kubernetes/api core/v1 types.go: spec.type, spec.clusterIP, spec.clusterIPs,
// ClusterIPNone = "None" (a headless Service). Other kinds are skipped, with a
// note per kind. The objects do not name their cluster: the user names it
// (kubectl-services=NAME:FILE), else the file does, and a note says so.

#include "importers.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include <map>

namespace cidrcheck::detail {

namespace {

struct services_seen {
  std::uint64_t services = 0, with_ip = 0, load_balancers = 0, without_ip = 0;
  std::optional<source_location> first, first_load_balancer, first_without_ip;
  std::vector<observed_address> ips;
  bool empty_list = false;  // an empty List says "no Services", which is a count too
  std::map<std::string, std::pair<std::size_t, std::uint32_t>> skipped;  // by kind: how many, the first
};

void read_service(source_reader& in, std::uint32_t node, const source_reader::object& o, services_seen& out) {
  auto ns = in.text(o.at({"metadata", "namespace"}), "metadata.namespace").value_or("default");
  auto name = in.text(o.at({"metadata", "name"}), "metadata.name").value_or("(unnamed)");
  auto user = "Service " + ns + "/" + name;
  ++out.services;
  auto type = in.text(o.at({"spec", "type"}), "spec.type").value_or("ClusterIP");
  if (type == "LoadBalancer" && out.load_balancers++ == 0) out.first_load_balancer = in.where(node);
  // spec.clusterIPs holds one address per IP family, its first equal to spec.clusterIP.
  auto list = o.at({"spec", "clusterIPs"});
  auto one = o.at({"spec", "clusterIP"});
  auto ips = list ? in.items(list, "spec.clusterIPs")
                  : one ? std::span<const std::uint32_t>(&*one, 1) : std::span<const std::uint32_t>();
  bool any = false, bad = false;
  for (auto k : ips) {
    const auto& n = in.yaml().node(k);
    if (n.kind == yaml_kind::scalar && in.yaml().value(k) == "None") continue;  // headless
    if (auto a = in.address_at(k, "a cluster IP")) {
      out.ips.push_back({*a, in.where(k), user});
      any = true;
    } else {
      bad = true;  // reported at the address
    }
  }
  if (any) {
    if (out.with_ip++ == 0) out.first = in.where(node);
  } else if (!bad && out.without_ip++ == 0) {
    out.first_without_ip = in.where(node);
  }
}

void read_object(source_reader& in, std::uint32_t node, services_seen& out) {
  auto o = in.object_at(node, "an object");
  if (!o) return;
  auto kind = in.text(o->get("kind"), "kind").value_or("");
  if (kind == "List" || (kind.ends_with("List") && o->get("items"))) {
    auto items = in.items(o->get("items"), "items");
    if (items.empty()) out.empty_list = true;
    for (auto item : items) read_object(in, item, out);
  } else if (kind == "Service" && in.text(o->get("apiVersion"), "apiVersion").value_or("v1") == "v1") {
    read_service(in, node, *o, out);
  } else {
    auto& slot = out.skipped[kind.empty() ? std::string("(no kind)") : kind];
    if (slot.first++ == 0) slot.second = node;
  }
}

}  // namespace

void import_kubectl_services(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  services_seen seen;
  std::optional<std::uint32_t> first_root;
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (!first_root) first_root = root;
    if (in.yaml().node(root).kind != yaml_kind::mapping) {
      in.wrong_document(root, "a List of Services");
      continue;
    }
    read_object(in, root, seen);
  }
  if (!seen.empty_list && seen.services == 0) {
    if (first_root) in.wrong_document(*first_root, "a List of Services (no Service found)");
    return;
  }
  for (const auto& [kind, skipped] : seen.skipped) {
    in.yaml().report(severity::note, skipped.second, diag::skipped,
                     "skipped " + std::to_string(skipped.first) + (skipped.first == 1 ? " object" : " objects") +
                         " of kind " + kind + ": kubectl-services reads Services");
  }
  if (seen.without_ip > 0) {
    in.yaml().add({severity::note, diag::skipped,
                   std::to_string(seen.without_ip) + (seen.without_ip == 1 ? " Service has" : " Services have") +
                       " no cluster IP (headless, clusterIP: None, or ExternalName): not counted in service_count, "
                       "as a service range move recreates none of them",
                   *seen.first_without_ip, {}});
  }
  auto& o = add_owner(out, in.cluster_name(*first_root), owner_kind::cluster, "", in.where(*first_root));
  o.value.description = "Kubernetes cluster, from kubectl get services";
  o.value.service_count = seen.with_ip;
  o.value.service_count_where = seen.first.value_or(in.where(*first_root));
  o.value.load_balancer_count = seen.load_balancers;
  o.value.load_balancer_count_where = seen.first_load_balancer.value_or(in.where(*first_root));
  o.service_ips = std::move(seen.ips);
}

}  // namespace cidrcheck::detail
