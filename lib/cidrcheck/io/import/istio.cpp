// Istio multi-cluster remote secrets, as `istioctl create-remote-secret`
// prints them or `kubectl -n istio-system get secrets -l
// istio/multiCluster=true -o yaml` lists them (fact mesh-istio-remote-secret):
// Secrets labelled istio/multiCluster: "true", each naming one remote cluster
// by its (string)data key. Applied to a cluster, they make it and each remote
// cluster one mesh: a connection `via: mesh` whose roles are the catalog's
// `istio` mesh. The Secrets do not name the cluster they are applied to: the
// source does (istio=NAME:FILE), else the file.

#include "importers.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <map>

namespace cidrcheck::detail {

namespace {

struct remote_cluster {
  std::string name;
  std::uint32_t node;
};

void read_secret(source_reader& in, std::uint32_t node, std::vector<remote_cluster>& remotes,
                 std::map<std::string, std::pair<std::size_t, std::uint32_t>>& skipped) {
  auto o = in.object_at(node, "an object");
  if (!o) return;
  auto kind = in.text(o->get("kind"), "kind").value_or("");
  if (kind == "List" || kind == "SecretList") {
    for (auto item : in.items(o->get("items"), "items")) read_secret(in, item, remotes, skipped);
    return;
  }
  auto label = in.text(o->at({"metadata", "labels", "istio/multiCluster"}), "istio/multiCluster");
  if (kind != "Secret" || label != "true") {
    auto& slot = skipped[kind == "Secret" ? "Secret without the label istio/multiCluster: \"true\"" : kind.empty() ? "(no kind)" : kind];
    if (slot.first++ == 0) slot.second = node;
    return;
  }
  // istioctl writes stringData; kubectl get prints data (base64): the keys name the remote clusters.
  std::size_t before = remotes.size();
  for (auto key : {"stringData", "data"}) {
    auto data = in.object_at(o->get(key), key);
    if (!data) continue;
    for (const auto& e : data->entries()) remotes.push_back({std::string(e.key), e.key_node});
  }
  if (remotes.size() == before) {
    in.yaml().report(severity::warning, node, diag::skipped,
                     "remote secret " + in.text(o->at({"metadata", "name"}), "metadata.name").value_or("(unnamed)") +
                         " holds no kubeconfig (no stringData or data key): it names no remote cluster");
  }
}

}  // namespace

void import_istio(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  std::vector<remote_cluster> remotes;
  std::map<std::string, std::pair<std::size_t, std::uint32_t>> skipped;  // by kind: how many, the first
  std::optional<std::uint32_t> first_root;
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (!first_root) first_root = root;
    if (in.yaml().node(root).kind != yaml_kind::mapping) {
      in.wrong_document(root, "an Istio remote secret (a Secret labelled istio/multiCluster: \"true\")");
      continue;
    }
    read_secret(in, root, remotes, skipped);
  }
  for (const auto& [kind, seen] : skipped) {
    in.yaml().report(severity::note, seen.second, diag::skipped,
                     "skipped " + std::to_string(seen.first) + (seen.first == 1 ? " object" : " objects") + " (" + kind +
                         "): istio reads the remote secrets");
  }
  if (remotes.empty()) {
    if (first_root && skipped.empty()) in.wrong_document(*first_root, "an Istio remote secret (none found)");
    return;
  }
  auto primary = in.cluster_name(*first_root);
  in.yaml().report(severity::note, *first_root, diag::import_implied,
                   "a remote secret does not say whether the clusters share one network: taken as one network, "
                   "whose pods reach each other directly (the catalog's istio mesh); for a multi-network mesh, where "
                   "only the east-west gateways meet, write the connection in a fleet file instead");
  for (const auto& r : remotes) {
    if (r.name == primary) continue;  // a secret of the cluster itself
    imported_connection c;
    c.value.via = "mesh";
    c.value.where = in.where(r.node);
    c.value.description = "Istio multi-cluster mesh, from the remote secret of " + r.name + " applied to " + primary;
    c.members = {{primary, in.where(*first_root)}, {r.name, in.where(r.node)}};
    c.mesh = "istio";
    out.connections.push_back(std::move(c));
  }
}

}  // namespace cidrcheck::detail
