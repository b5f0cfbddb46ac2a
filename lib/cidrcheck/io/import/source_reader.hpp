#pragma once
// What every importer needs to walk an export: optional keys (exports omit
// fields and write null or "" for unset ones), CIDR lists in the forms tools
// print them, and errors at the value's position. Built on yaml_reader, so
// JSON and YAML exports read the same way.

#include "../yaml_reader.hpp"
#include "../../fleet/imported.hpp"

#include <cidrcheck/io/import.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

class source_reader {
 public:
  /// A mapping's entries, looked up by key. Keys compare exactly, or ignoring
  /// ASCII case when the export's tools disagree on it (az and ARM: dnsServiceIp, dnsServiceIP).
  class object {
   public:
    object(source_reader& in, std::uint32_t node, std::vector<yaml_reader::entry> entries, bool fold_case);
    /// Returns the value of key; absent, null and "" count as absent.
    auto get(std::string_view key) const -> std::optional<std::uint32_t>;
    /// Walks nested mappings; a step that is not a mapping is reported and ends the walk.
    auto at(std::initializer_list<std::string_view> path) const -> std::optional<std::uint32_t>;
    auto node() const -> std::uint32_t { return node_; }
    auto entries() const -> const std::vector<yaml_reader::entry>& { return entries_; }

   private:
    source_reader* in_;
    std::uint32_t node_;
    std::vector<yaml_reader::entry> entries_;
    bool fold_case_;
  };

  /// `cluster`: the name the user gave the cluster of an export that names none (or "").
  source_reader(yaml_reader& r, import_kind kind, std::string file, std::string cluster = {});

  /// The text the document was parsed from, with what parsing it again
  /// needs: for a document embedded in a string (kubeadm-config's).
  struct input_text {
    std::string_view text;
    yaml_limits limits;
    std::size_t visit_budget = 0;
    std::vector<diagnostic>* diagnostics = nullptr;
  };
  void set_input(input_text input) { input_ = input; }
  auto input() const -> const input_text& { return input_; }

  auto yaml() -> yaml_reader& { return r_; }
  auto kind() const -> import_kind { return kind_; }
  auto file() const -> const std::string& { return file_; }
  auto where(std::uint32_t k) const -> source_location { return r_.where(k); }
  /// The file's name without directory and last extension ("prod" for
  /// exports/prod.yaml, "stdin" for standard input): the cluster's name for
  /// exports that do not name one.
  auto stem() const -> std::string;
  /// The name of the cluster an export that names none describes: the one the
  /// user gave, else the file's stem, with a note at node k saying it was
  /// inferred and how to name it.
  auto cluster_name(std::uint32_t k) -> std::string;
  /// Reports whether the user named the cluster.
  auto named() const -> bool { return !cluster_.empty(); }
  /// The name the user gave the cluster, or "".
  auto cluster() const -> const std::string& { return cluster_; }

  /// Reports a document that is not the export this kind expects, at node k:
  /// "expected the output of `COMMAND`: " and what is missing.
  void wrong_document(std::uint32_t k, std::string_view expected);
  /// Returns a document's top mapping, or reports wrong_document().
  auto document(std::uint32_t root, std::string_view expected, bool fold_case = false) -> std::optional<object>;
  void error(std::uint32_t k, std::string code, std::string message) { r_.error(k, std::move(code), std::move(message)); }

  auto object_at(std::uint32_t k, std::string_view what, bool fold_case = false) -> std::optional<object>;
  /// Like object_at(), for an optional value: absent is nullopt without a report.
  auto object_at(std::optional<std::uint32_t> k, std::string_view what, bool fold_case = false)
      -> std::optional<object>;
  /// Returns a list's items; absent is an empty list.
  auto items(std::optional<std::uint32_t> k, std::string_view what) -> std::span<const std::uint32_t>;
  auto text(std::optional<std::uint32_t> k, std::string_view what) -> std::optional<std::string>;
  /// Returns the text of a key every such object has; when it is absent, reports
  /// `missing` at the object (a value of the wrong type is reported as such).
  auto required(const object& o, std::string_view key, std::string_view missing) -> std::optional<std::string>;
  /// Returns a whole number, written plainly or as a string ("110", as GKE writes some).
  auto whole(std::optional<std::uint32_t> k, std::int64_t min, std::int64_t max, std::string_view what)
      -> std::optional<std::int64_t>;
  auto flag(std::optional<std::uint32_t> k, std::string_view what) -> std::optional<bool>;
  auto address_at(std::optional<std::uint32_t> k, std::string_view what) -> std::optional<address>;
  /// Returns one CIDR; a bad one is reported at its offending character.
  auto range(std::optional<std::uint32_t> k, std::string_view what, host_bits mode = host_bits::reject)
      -> std::optional<imported_range>;
  /// Returns the CIDRs of a list, of one CIDR, or of a comma-separated scalar
  /// ("10.244.0.0/16,fd00:10:244::/56", as kubeadm and the Kubernetes flags
  /// take them). Every CIDR has its own position.
  auto ranges(std::optional<std::uint32_t> k, std::string_view what) -> std::vector<imported_range>;

 private:
  yaml_reader& r_;
  import_kind kind_;
  std::string file_;
  std::string cluster_;
  input_text input_;
};

}  // namespace cidrcheck::detail
