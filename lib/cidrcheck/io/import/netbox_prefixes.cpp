#include "netbox_prefixes.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <tuple>

namespace cidrcheck::detail {

namespace {

auto domain_of(const netbox_prefix& p) -> std::string {
  return p.vrf.empty() ? "the global table" : "VRF " + printable(p.vrf);
}

auto id_text(const netbox_prefix& p) -> std::string { return p.id ? "#" + std::to_string(*p.id) : ""; }

auto describe(const netbox_prefix& p, std::string_view from, std::size_t inside) -> std::string {
  std::string out = "NetBox prefix";
  if (p.id) out += " " + id_text(p);
  if (!p.description.empty()) out += " \"" + p.description + "\"";
  std::string details;
  auto add = [&](std::string_view word, const std::string& value) {
    if (value.empty()) return;
    details += (details.empty() ? "" : ", ") + std::string(word) + (word.empty() ? "" : " ") + value;
  };
  add("status", p.status);
  add("role", p.role);
  add("", p.scope);
  add("tenant", p.tenant);
  if (inside > 0) add("", std::to_string(inside) + (inside == 1 ? " prefix" : " prefixes") + " inside");
  if (!details.empty()) out += " (" + details + ")";
  return out + ", from " + std::string(from);
}

auto repeated(const netbox_prefix& again, const netbox_prefix& first, std::string message) -> diagnostic {
  return {severity::warning, diag::duplicate_prefix, std::move(message), again.range.where,
          {{severity::note, "", first.range.cidr.to_string() + " is first listed here" +
                                    (first.id ? " (" + id_text(first) + ")" : ""),
            first.range.where, {}}}};
}

}  // namespace

auto netbox_scope_word(std::string_view scope_type) -> std::string {
  // "dcim.site" -> "site"; "DCIM > Site group" -> "site group".
  auto cut = scope_type.find_last_of(".>");
  auto word = cut == std::string_view::npos ? scope_type : scope_type.substr(cut + 1);
  while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
  std::string out;
  for (char c : word) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out == "sitegroup" ? "site group" : out;
}

void add_netbox_prefixes(std::vector<netbox_prefix> prefixes, std::string_view from, import_result& out,
                         std::vector<diagnostic>& diagnostics) {
  const auto n = prefixes.size();
  std::vector<bool> skipped(n, false);

  // One NetBox object listed twice (a page given twice): read once.
  std::vector<std::size_t> by_id;
  for (std::size_t k = 0; k < n; ++k) {
    if (prefixes[k].id) by_id.push_back(k);
  }
  std::stable_sort(by_id.begin(), by_id.end(),
                   [&](std::size_t a, std::size_t b) { return *prefixes[a].id < *prefixes[b].id; });
  for (std::size_t k = 1; k < by_id.size(); ++k) {
    const auto& first = prefixes[by_id[k - 1]];
    auto& again = prefixes[by_id[k]];
    if (*again.id != *first.id) continue;
    skipped[by_id[k]] = true;
    diagnostics.push_back(repeated(again, first,
                                   "prefix " + id_text(again) + " (" + again.range.cidr.to_string() +
                                       ") is listed twice: is a page of the export given twice? cidrcheck reads it once"));
    by_id[k] = by_id[k - 1];  // a third listing names the first too
  }

  // Per domain, by CIDR: a container sorts before what it contains (network
  // first, then length), so each prefix is either inside the last prefix that
  // contained no other (the current root) or is a root itself. Equal CIDRs
  // stay in reading order, so the first of them is the one kept.
  // The sort reads compact keys (the VRF's rank among the VRFs, the CIDR, the
  // index), not the prefixes: read through indexes, a million prefixes of some
  // 300 bytes each made the comparisons 7% of the import, mostly cache misses.
  std::vector<std::string_view> vrfs;
  for (std::size_t k = 0; k < n; ++k) {
    if (!skipped[k]) vrfs.push_back(prefixes[k].vrf);
  }
  std::sort(vrfs.begin(), vrfs.end());
  vrfs.erase(std::unique(vrfs.begin(), vrfs.end()), vrfs.end());
  struct sort_key {
    std::size_t vrf;
    prefix cidr;
    std::size_t index;
  };
  std::vector<sort_key> keys;
  keys.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (skipped[k]) continue;
    auto vrf = static_cast<std::size_t>(std::lower_bound(vrfs.begin(), vrfs.end(), prefixes[k].vrf) - vrfs.begin());
    keys.push_back({vrf, prefixes[k].range.cidr, k});
  }
  std::sort(keys.begin(), keys.end(), [](const sort_key& a, const sort_key& b) {
    return std::tie(a.vrf, a.cidr, a.index) < std::tie(b.vrf, b.cidr, b.index);
  });
  std::vector<std::size_t> order;
  order.reserve(keys.size());
  for (const auto& key : keys) order.push_back(key.index);
  struct root {
    std::size_t index;
    std::vector<imported_range> inside;
  };
  std::vector<root> roots;
  std::optional<std::size_t> last;  // the previous prefix read in this sweep
  for (auto k : order) {
    const auto& p = prefixes[k];
    bool same_domain = !roots.empty() && prefixes[roots.back().index].vrf == p.vrf;
    if (same_domain && last && prefixes[*last].range.cidr == p.range.cidr) {
      diagnostics.push_back(repeated(p, prefixes[*last],
                                     "prefix " + p.range.cidr.to_string() + (p.id ? " (" + id_text(p) + ")" : "") +
                                         " is listed twice in " + domain_of(p) +
                                         ": a duplicate prefix; cidrcheck reads it once"));
      continue;  // `last` stays the first of the run
    }
    last = k;
    if (same_domain && prefixes[roots.back().index].range.cidr.supernet_of(p.range.cidr)) {
      roots.back().inside.push_back(p.range);
    } else {
      roots.push_back({k, {}});
    }
  }

  // Owners in reading order.
  std::sort(roots.begin(), roots.end(), [](const root& a, const root& b) { return a.index < b.index; });
  for (auto& r : roots) {
    const auto& p = prefixes[r.index];
    auto name = p.range.cidr.to_string();
    if (!p.vrf.empty()) name = p.vrf + "/" + name;
    auto& o = add_owner(out, std::move(name), owner_kind::network, "netbox-prefix", p.where);
    o.value.description = describe(p, from, r.inside.size());
    add_claim(o, range_role::external, claim_kind::exact, {p.range});
    add_claim(o, range_role::external, claim_kind::within, std::move(r.inside));
  }
}

}  // namespace cidrcheck::detail
