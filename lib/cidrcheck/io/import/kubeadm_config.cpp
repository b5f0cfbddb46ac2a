// The kubeadm-config ConfigMap as `kubectl -n kube-system get configmap
// kubeadm-config -o yaml` prints it: kubeadm stores its ClusterConfiguration
// (kubeadm.k8s.io/v1beta3 or v1beta4) as YAML text under
// data.ClusterConfiguration (kubernetes/kubernetes cmd/kubeadm/app/constants:
// KubeadmConfigConfigMap = "kubeadm-config", ClusterConfigurationConfigMapKey =
// "ClusterConfiguration"). That text is parsed as a document of its own and
// read as the kubeadm kind reads it; its positions are mapped back onto the
// outer file: exactly for a block scalar (`|`, as kubectl prints multi-line
// strings), to the string's start otherwise (a JSON export's "...\n...").

#include "../yaml_reader.hpp"
#include "importers.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>
#include <functional>
#include <tuple>

namespace cidrcheck::detail {

namespace {

// Where an embedded document's text sits in the outer file.
struct embedding {
  bool block = false;           // a block scalar: text line L is outer line `line + L`
  std::uint32_t line = 0;       // the scalar's first line (its indicator's, for a block)
  std::uint32_t column = 0;     // the scalar's column
  std::uint32_t indent = 0;     // a block's indentation: text column C is outer column `indent + C`

  auto map(std::uint32_t l, std::uint32_t c) const -> std::pair<std::uint32_t, std::uint32_t> {
    if (l == 0) return {line, column};  // a diagnostic for the whole text
    return block ? std::pair{line + l, indent + c} : std::pair{line, column};
  }
};

// Returns the offset where a 1-based line starts, or nullopt past the end.
auto line_start(std::string_view text, std::uint32_t line) -> std::optional<std::size_t> {
  std::size_t k = 0;
  for (std::uint32_t l = 1; l < line; ++l) {
    k = text.find('\n', k);
    if (k == std::string_view::npos) return std::nullopt;
    ++k;
  }
  return k;
}

// Returns the indentation of a block scalar whose text starts at offset k: the
// leading blanks of its first non-empty line, as YAML detects it.
auto block_indent(std::string_view text, std::size_t k) -> std::uint32_t {
  while (k < text.size()) {
    auto end = text.find('\n', k);
    auto row = text.substr(k, end == std::string_view::npos ? std::string_view::npos : end - k);
    auto first = row.find_first_not_of(' ');
    if (first != std::string_view::npos && row[first] != '\r') return static_cast<std::uint32_t>(first);
    if (end == std::string_view::npos) break;
    k = end + 1;
  }
  return 0;
}

// Returns the ConfigMap's data.ClusterConfiguration node, reading a List's items too.
auto find_configuration(source_reader& in, std::uint32_t node, std::optional<std::uint32_t>& found,
                        std::optional<std::uint32_t>& other_configmap) -> void {
  auto o = in.object_at(node, "an object");
  if (!o) return;
  auto kind = in.text(o->get("kind"), "kind").value_or("");
  if (kind == "List" || kind == "ConfigMapList") {
    for (auto item : in.items(o->get("items"), "items")) find_configuration(in, item, found, other_configmap);
    return;
  }
  if (kind != "ConfigMap") return;
  auto data = o->at({"data", "ClusterConfiguration"});
  if (!data) {
    if (!other_configmap) other_configmap = node;
    return;
  }
  if (found) {
    in.error(node, diag::import_format, "a second kubeadm-config ConfigMap: export one cluster's per file");
    return;
  }
  found = data;
}

}  // namespace

void read_embedded(source_reader& in, std::uint32_t data, std::string_view what,
                   const std::function<void(source_reader&, const std::vector<std::uint32_t>&)>& read) {
  auto text = in.text(data, what);
  if (!text) return;
  const auto& scalar = in.yaml().node(data);
  const auto& input = in.input();
  embedding at;
  at.line = scalar.line;
  at.column = scalar.column;
  // Only a block scalar ('|' or '>' at its start) keeps the text's line breaks at the outer file's.
  auto start = line_start(input.text, scalar.line);
  if (start) *start += scalar.column - 1;
  at.block = start && *start < input.text.size() && (input.text[*start] == '|' || input.text[*start] == '>');
  if (at.block) at.indent = block_indent(input.text, line_start(input.text, scalar.line + 1).value_or(input.text.size()));

  std::vector<diagnostic> parsed;
  auto doc = parse_yaml(*text, in.file(), input.limits, parsed);
  for (auto& d : parsed) {
    std::tie(d.where.line, d.where.column) = at.map(d.where.line, d.where.column);
    d.message = "in " + std::string(what) + ": " + d.message;
    in.yaml().add(std::move(d));
  }
  if (!parsed.empty()) return;
  for (auto& n : doc.nodes) {
    std::tie(n.line, n.column) = at.map(n.line, n.column);
    if (at.block) {
      std::tie(n.end_line, n.end_column) = at.map(n.end_line, n.end_column);
    } else {
      n.end_line = 0;  // not on the scalar's line: no column span is known
    }
  }
  auto* diagnostics = input.diagnostics;
  if (!diagnostics) return;
  yaml_reader r(doc, in.file(), *diagnostics, input.visit_budget, input.limits.max_errors);
  source_reader inner(r, in.kind(), in.file(), in.cluster());
  read(inner, doc.roots);
}

void import_kubeadm_config(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  std::optional<std::uint32_t> data, other_configmap, first_root;
  for (auto root : roots) {
    if (in.yaml().is_null(root)) continue;
    if (!first_root) first_root = root;
    if (in.yaml().node(root).kind != yaml_kind::mapping) {
      in.wrong_document(root, "the ConfigMap kubeadm-config");
      continue;
    }
    find_configuration(in, root, data, other_configmap);
  }
  if (!data) {
    if (other_configmap) {
      in.error(*other_configmap, diag::import_format,
               "this ConfigMap has no data.ClusterConfiguration: expected the ConfigMap kubeadm-config of kube-system");
    } else if (first_root) {
      in.wrong_document(*first_root, "the ConfigMap kubeadm-config with data.ClusterConfiguration");
    }
    return;
  }
  read_embedded(in, *data, "data.ClusterConfiguration", [&](source_reader& inner, const std::vector<std::uint32_t>& inner_roots) {
    std::optional<source_reader::object> config;
    for (auto root : inner_roots) {
      if (inner.yaml().is_null(root)) continue;
      auto o = inner.document(root, "a kubeadm ClusterConfiguration in data.ClusterConfiguration");
      if (!o) return;
      auto kind = inner.text(o->get("kind"), "kind");
      auto api = inner.text(o->get("apiVersion"), "apiVersion").value_or("");
      if (kind != "ClusterConfiguration" || !api.starts_with("kubeadm.k8s.io/")) {
        inner.error(root, diag::import_format,
                    "data.ClusterConfiguration holds no kubeadm ClusterConfiguration (apiVersion "
                    "kubeadm.k8s.io/v1beta3 or v1beta4, kind ClusterConfiguration)");
        return;
      }
      config = o;
      break;
    }
    if (!config) {
      in.error(*data, diag::import_format, "data.ClusterConfiguration is empty");
      return;
    }
    auto& o = read_cluster_configuration(inner, *config, out);
    o.value.description = "kubeadm cluster, from its kubeadm-config ConfigMap";
  });
}

}  // namespace cidrcheck::detail
