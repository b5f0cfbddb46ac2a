#include "pins.hpp"

#include <cidrcheck/detail/glob.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cidrcheck::detail {

namespace {

// The distinct texts patterns of one kind are matched against, sorted forwards
// and by their reversal, for the candidates of a pattern's head and tail.
class text_index {
 public:
  // Adds a text; returns its number.
  auto add(std::string text) -> std::uint32_t {
    auto [it, added] = ids_.try_emplace(text, static_cast<std::uint32_t>(texts_.size()));
    if (added) texts_.push_back(std::move(text));
    return it->second;
  }
  void sort() {
    forward_.resize(texts_.size());
    for (std::uint32_t k = 0; k < texts_.size(); ++k) forward_[k] = k;
    backward_ = forward_;
    std::sort(forward_.begin(), forward_.end(), [&](auto a, auto b) { return texts_[a] < texts_[b]; });
    reversed_.resize(texts_.size());
    for (std::uint32_t k = 0; k < texts_.size(); ++k) reversed_[k].assign(texts_[k].rbegin(), texts_[k].rend());
    std::sort(backward_.begin(), backward_.end(), [&](auto a, auto b) { return reversed_[a] < reversed_[b]; });
  }
  auto size() const -> std::size_t { return texts_.size(); }
  auto text(std::uint32_t k) const -> const std::string& { return texts_[k]; }
  auto find(std::string_view text) const -> const std::uint32_t* {
    auto it = ids_.find(std::string(text));
    return it == ids_.end() ? nullptr : &it->second;
  }
  // The texts that begin with head, or those that end with tail, whichever are fewer.
  auto candidates(std::string_view head, std::string_view tail) const -> std::span<const std::uint32_t> {
    auto starting = range_of(forward_, texts_, head);
    std::string reversed_tail(tail.rbegin(), tail.rend());
    auto ending = range_of(backward_, reversed_, reversed_tail);
    return starting.size() <= ending.size() ? starting : ending;
  }

 private:
  // The part of `order` (sorted by keys) whose keys begin with prefix.
  static auto range_of(const std::vector<std::uint32_t>& order, const std::vector<std::string>& keys,
                       std::string_view prefix) -> std::span<const std::uint32_t> {
    auto first = std::lower_bound(order.begin(), order.end(), prefix,
                                  [&](std::uint32_t k, std::string_view p) { return std::string_view(keys[k]) < p; });
    // The keys that begin with prefix come together, from the first not below it.
    auto last = std::partition_point(first, order.end(), [&](std::uint32_t k) { return keys[k].starts_with(prefix); });
    return {first, last};
  }

  std::vector<std::string> texts_, reversed_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<std::uint32_t> forward_, backward_;  // text numbers in the order of the texts, and of their reversals
};

}  // namespace

auto match_pins(std::span<const pin_pattern> pins, const fleet& f) -> pinned_ranges {
  pinned_ranges out;
  out.pinned.assign(f.ranges.size(), false);
  out.used.assign(pins.size(), false);
  if (pins.empty()) return out;
  // Patterns without '/' are matched against owner names, those with one against "name/role".
  text_index names, roles;
  std::vector<std::uint32_t> name_of(f.ranges.size()), role_of(f.ranges.size());
  for (std::uint32_t k = 0; k < f.ranges.size(); ++k) {
    const auto& r = f.ranges[k];
    const auto& name = f.owners[r.owner].name;
    name_of[k] = names.add(name);
    role_of[k] = roles.add(name + "/" + f.role_name(r));
  }
  names.sort();
  roles.sort();
  std::vector<bool> name_matched(names.size(), false), role_matched(roles.size(), false);
  std::unordered_map<std::string_view, bool> done;  // each distinct pattern: whether it matched
  for (std::size_t p = 0; p < pins.size(); ++p) {
    std::string_view pattern = pins[p].pattern;
    if (auto seen = done.find(pattern); seen != done.end()) {
      out.used[p] = seen->second;
      continue;
    }
    bool by_role = pattern.find('/') != std::string_view::npos;
    const auto& texts = by_role ? roles : names;
    auto& matched = by_role ? role_matched : name_matched;
    bool any = false;
    auto first_star = pattern.find('*');
    if (first_star == std::string_view::npos) {
      if (const auto* k = texts.find(pattern)) any = matched[*k] = true;
    } else {
      auto head = pattern.substr(0, first_star);
      auto tail = pattern.substr(pattern.rfind('*') + 1);
      for (auto k : texts.candidates(head, tail)) {
        if (glob_match(pattern, texts.text(k))) any = matched[k] = true;
      }
    }
    done.emplace(pattern, any);
    out.used[p] = any;
  }
  for (std::uint32_t k = 0; k < f.ranges.size(); ++k) out.pinned[k] = name_matched[name_of[k]] || role_matched[role_of[k]];
  return out;
}

}  // namespace cidrcheck::detail
