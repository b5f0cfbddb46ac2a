// The runbook table: one row per operation kind of data/catalog.yaml. The
// planner's chosen kind selects the row; tests/tree/runbook_table_test.py and
// RunbookTable.* require every catalog kind to have exactly one row and every
// row to name a catalog kind.

#include <cidrcheck/error.hpp>
#include <cidrcheck/fleet/runbook.hpp>

#include "runbook_rows.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace cidrcheck {

namespace detail {

namespace {

constexpr std::array table{
    operation_row{"service-cidr-api", service_cidr_api_row},
    operation_row{"service-window", service_window_row},
    operation_row{"calico-ippool-swap", calico_ippool_swap_row},
    operation_row{"cilium-pool-append", cilium_pool_append_row},
    operation_row{"kcm-node-ipam", kcm_node_ipam_row},
    operation_row{"vpc-cni-custom-networking", vpc_cni_custom_networking_row},
    operation_row{"add-pod-range", add_pod_range_row},
    operation_row{"gke-additional-pod-range", gke_additional_pod_range_row},
    operation_row{"gke-pod-range-withdraw", gke_pod_range_withdraw_row},
    operation_row{"aks-overlay-pod-expand", aks_overlay_pod_expand_row},
    operation_row{"new-vpc", new_vpc_row},
    operation_row{"replacement-cluster", replacement_cluster_row},
    operation_row{"renumber-network", renumber_network_row},
};

constexpr auto kinds = [] {
  std::array<std::string_view, table.size()> out{};
  for (std::size_t k = 0; k < table.size(); ++k) out[k] = table[k].kind;
  return out;
}();

auto row_of(std::string_view kind) -> runbook_row {
  for (const auto& row : table) {
    if (row.kind == kind) return row.write;
  }
  throw basic_error<std::out_of_range>("the runbook table has no row for operation kind '" + std::string(kind) + "'");
}

}  // namespace

auto unapplied_runbook(const fleet& planned, const catalog& c, const plan_operation& op,
                       const std::vector<plan_change>& changes, const owner_connections& connections) -> runbook {
  runbook out;
  out.kind = op.kind;
  out.owners = op.owners;
  row_input in{planned, c, op, changes, connections};
  row_of(op.kind)(in, out);
  add_route_steps(in, out);
  return out;
}

auto operation_runbook(const fleet& planned, const catalog& c, const plan_operation& op,
                       const std::vector<plan_change>& changes, const owner_connections& connections) -> runbook {
  auto out = unapplied_runbook(planned, c, op, changes, connections);
  add_apply_steps(planned, c, out);
  return out;
}

auto maintenance_runbook(const fleet& planned, const catalog& c, const plan_result& p, std::uint32_t k,
                         const owner_connections& connections) -> runbook {
  const auto& op = p.operations[k];
  if (op.merged_with.empty()) return operation_runbook(planned, c, op, p.changes, connections);
  std::vector<runbook> books;
  for (auto j : p.sharing_runbook(k)) books.push_back(unapplied_runbook(planned, c, p.operations[j], p.changes, connections));
  return merged_runbook(planned, c, std::move(books));
}

}  // namespace detail

auto runbook_rows() -> std::span<const std::string_view> { return detail::kinds; }

auto runbook_table_problems(std::span<const std::string> catalog_kinds, std::span<const std::string_view> rows)
    -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& kind : catalog_kinds) {
    auto n = std::count(rows.begin(), rows.end(), kind);
    if (n == 0) out.push_back("operation " + kind + " of the catalog has no runbook row");
    if (n > 1) out.push_back("operation " + kind + " has " + std::to_string(n) + " runbook rows");
  }
  for (auto row : rows) {
    if (std::find(catalog_kinds.begin(), catalog_kinds.end(), row) == catalog_kinds.end()) {
      out.push_back("runbook row " + std::string(row) + " names no operation of the catalog");
    }
  }
  return out;
}

}  // namespace cidrcheck
