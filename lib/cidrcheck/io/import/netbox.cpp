// NetBox's /api/ipam/prefixes/ as its REST API returns it (JSON): a page
// {"count", "next", "previous", "results"}, every page of an export in one file
// (a JSON array of pages, or one YAML document each), a plain list of prefixes,
// or one prefix (/api/ipam/prefixes/ID/). The fields are PrefixSerializer's of
// NetBox 3.x and 4.x: `site` until 4.1, `scope_type` and `scope` from 4.2.

#include "importers.hpp"
#include "netbox_prefixes.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <limits>

namespace cidrcheck::detail {

namespace {

constexpr std::string_view expected =
    "a page of /api/ipam/prefixes/ (a mapping with results), a list of such pages, or a list of prefixes";

class prefixes_reader {
 public:
  explicit prefixes_reader(source_reader& in) : in_(in) {}

  // A document: a page, a list of pages or prefixes, or one prefix.
  void document(std::uint32_t root) {
    const auto& node = in_.yaml().node(root);
    if (node.kind == yaml_kind::sequence) {
      for (auto item : in_.items(root, "the list")) {
        if (auto o = in_.object_at(item, "a page or a prefix")) page_or_prefix(*o);
      }
      return;
    }
    auto top = in_.document(root, expected);
    if (!top) return;
    if (!top->get("results") && !top->get("prefix") && !top->get("count")) {
      in_.wrong_document(root, expected);
      return;
    }
    page_or_prefix(*top);
  }

  // Warns when the pages list fewer prefixes than NetBox counted: pages are missing.
  void check_complete() {
    if (!count_) return;
    std::sort(ids_.begin(), ids_.end());
    auto listed = without_id_ + static_cast<std::size_t>(std::unique(ids_.begin(), ids_.end()) - ids_.begin());
    if (listed >= static_cast<std::size_t>(count_->first)) return;
    in_.yaml().report(severity::warning, count_->second, diag::incomplete_export,
                      "the export lists " + std::to_string(listed) + " of the " + std::to_string(count_->first) +
                          " prefixes NetBox counted: pages are missing; give every page in one file (a JSON array "
                          "of the pages), as docs/import/netbox.md shows");
  }

  std::vector<netbox_prefix> prefixes;

 private:
  void page_or_prefix(const source_reader::object& o) {
    if (!o.get("results") && !o.get("count")) {
      prefix(o);
      return;
    }
    if (auto k = o.get("count")) {
      auto count = in_.whole(k, 0, std::numeric_limits<std::int64_t>::max(), "count");
      if (count && (!count_ || *count > count_->first)) count_ = {*count, *k};
    }
    for (auto item : in_.items(o.get("results"), "results")) {
      if (auto p = in_.object_at(item, "a prefix")) prefix(*p);
    }
  }

  void prefix(const source_reader::object& o) {
    auto id = in_.whole(o.get("id"), 0, std::numeric_limits<std::int64_t>::max(), "id");
    if (id) {
      ids_.push_back(*id);
    } else {
      ++without_id_;
    }
    auto k = o.get("prefix");
    if (!k) {
      in_.error(o.node(), diag::missing_key, "a prefix object without a prefix");
      return;
    }
    auto range = in_.range(k, "prefix");
    if (!range) return;
    netbox_prefix p;
    p.range = std::move(*range);
    p.where = in_.where(o.node());
    p.id = id;
    p.vrf = vrf(o.get("vrf"));
    p.status = label(o.get("status"));
    p.role = name_of(o.get("role"), "role");
    p.tenant = name_of(o.get("tenant"), "tenant");
    if (auto type = in_.text(o.get("scope_type"), "scope_type")) {
      p.scope = netbox_scope_word(*type);
      auto scope = name_of(o.get("scope"), "scope");
      if (!scope.empty()) p.scope += (p.scope.empty() ? "" : " ") + scope;
    } else if (auto site = name_of(o.get("site"), "site"); !site.empty()) {
      p.scope = "site " + site;
    }
    p.description = in_.text(o.get("description"), "description").value_or("");
    prefixes.push_back(std::move(p));
  }

  // A nested object's name (or its display text); a plain text stands for itself.
  auto name_of(std::optional<std::uint32_t> k, std::string_view what) -> std::string {
    if (!k) return "";
    if (in_.yaml().node(*k).kind == yaml_kind::scalar) return in_.text(k, what).value_or("");
    auto o = in_.object_at(k, what);
    if (!o) return "";
    if (auto name = in_.text(o->get("name"), "name")) return *name;
    return in_.text(o->get("display"), "display").value_or("");
  }

  // A VRF as NetBox prints one (VRF.__str__, and so the CSV export): "name (rd)", or "name".
  // The brief form of NetBox's nested VRF has both.
  auto vrf(std::optional<std::uint32_t> k) -> std::string {
    if (!k || in_.yaml().node(*k).kind != yaml_kind::mapping) return name_of(k, "vrf");
    auto o = in_.object_at(k, "vrf");
    if (!o) return "";
    auto name = in_.text(o->get("name"), "name");
    if (!name) name = in_.text(o->get("display"), "display");
    if (!name) {
      // A VRF named by its id alone is still not the global table.
      auto id = in_.text(o->get("id"), "id");
      return id ? "#" + *id : "";
    }
    auto rd = in_.text(o->get("rd"), "rd");
    return rd ? *name + " (" + *rd + ")" : *name;
  }

  // A choice field ({"value": "active", "label": "Active"}): its label, as the UI and CSV show it.
  auto label(std::optional<std::uint32_t> k) -> std::string {
    if (!k) return "";
    if (in_.yaml().node(*k).kind == yaml_kind::scalar) return in_.text(k, "status").value_or("");
    auto o = in_.object_at(k, "status");
    if (!o) return "";
    if (auto text = in_.text(o->get("label"), "label")) return *text;
    return in_.text(o->get("value"), "value").value_or("");
  }

  source_reader& in_;
  std::optional<std::pair<std::int64_t, std::uint32_t>> count_;  // the largest count a page states, at its node
  std::vector<std::int64_t> ids_;
  std::size_t without_id_ = 0;
};

}  // namespace

void import_netbox(source_reader& in, const std::vector<std::uint32_t>& roots, import_result& out) {
  prefixes_reader reader(in);
  for (auto root : roots) reader.document(root);
  reader.check_complete();
  add_netbox_prefixes(std::move(reader.prefixes), "/api/ipam/prefixes/", out, *in.input().diagnostics);
}

}  // namespace cidrcheck::detail
