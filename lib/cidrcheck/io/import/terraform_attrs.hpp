#pragma once
// terraform_resources' view of one resource's attribute values, shared by
// terraform_resources.cpp (networks and clusters) and
// terraform_connections.cpp (peerings, transit gateways, VPNs, routes).

#include "terraform_resources.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

// One object of attribute values (a resource's, or a nested block's) with the
// part of after_unknown that mirrors it: a mapping whose `true` leaves are the
// unknown attributes, or `true` itself when the whole object is unknown.
class terraform_resources::attrs {
 public:
  attrs(source_reader& in, std::optional<source_reader::object> values, std::optional<std::uint32_t> unknown)
      : in_(&in), values_(std::move(values)), unknown_(unknown) {}

  auto get(std::string_view key) const -> std::optional<std::uint32_t> {
    return values_ ? values_->get(key) : std::nullopt;
  }

  /// Reports whether key has no value because it is known only after apply.
  auto unknown(std::string_view key) const -> bool {
    if (get(key)) return false;
    if (is_true(unknown_)) return true;
    // A block that is partly unknown is a non-empty list or mapping of its own.
    auto u = child(unknown_, key);
    return is_true(u) || (u && in_->yaml().node(*u).kind != yaml_kind::scalar && !in_->yaml().children(*u).empty());
  }

  /// Returns the nested blocks under key (Terraform writes a block as a list
  /// of objects, or one object), each with its part of after_unknown.
  auto blocks(std::string_view key) const -> std::vector<attrs> {
    std::vector<attrs> out;
    auto k = get(key);
    if (!k) return out;
    auto u = is_true(unknown_) ? unknown_ : child(unknown_, key);
    bool list = in_->yaml().node(*k).kind == yaml_kind::sequence;
    auto items = list ? in_->items(k, key) : std::span<const std::uint32_t>(&*k, 1);
    auto unknown_items = u && in_->yaml().node(*u).kind == yaml_kind::sequence ? in_->yaml().children(*u)
                                                                               : std::span<const std::uint32_t>{};
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto o = in_->object_at(items[i], key);
      if (!o) continue;
      std::optional<std::uint32_t> item_unknown = is_true(u) ? u : std::nullopt;
      if (list && i < unknown_items.size()) item_unknown = unknown_items[i];
      if (!list) item_unknown = u;
      out.emplace_back(*in_, std::move(*o), item_unknown);
    }
    return out;
  }

  /// Returns the first block under key; absent, a block without values that
  /// is unknown wherever after_unknown says the block is.
  auto block(std::string_view key) const -> attrs {
    auto all = blocks(key);
    if (!all.empty()) return all.front();
    auto u = is_true(unknown_) ? unknown_ : child(unknown_, key);
    if (u && in_->yaml().node(*u).kind == yaml_kind::sequence) {
      auto items = in_->yaml().children(*u);
      u = items.empty() ? std::nullopt : std::optional(items.front());
    }
    return {*in_, std::nullopt, u};
  }

 private:
  auto is_true(std::optional<std::uint32_t> k) const -> bool {
    if (!k) return false;
    const auto& n = in_->yaml().node(*k);
    return n.kind == yaml_kind::scalar && !n.quoted && in_->yaml().value(*k) == "true";
  }

  // The value of key in mapping k, read without reports: after_unknown is
  // Terraform's own bookkeeping, and a shape it does not have means "known".
  auto child(std::optional<std::uint32_t> k, std::string_view key) const -> std::optional<std::uint32_t> {
    if (!k) return std::nullopt;
    const auto& n = in_->yaml().node(*k);
    if (n.kind != yaml_kind::mapping) return std::nullopt;
    auto children = in_->yaml().children(*k);
    for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
      if (in_->yaml().value(children[i]) == key) return children[i + 1];
    }
    return std::nullopt;
  }

  source_reader* in_;
  std::optional<source_reader::object> values_;
  std::optional<std::uint32_t> unknown_;
};

}  // namespace cidrcheck::detail
