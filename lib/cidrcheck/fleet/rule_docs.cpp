#include <cidrcheck/fleet/rule_docs.hpp>

#include "rule_pages.hpp"  // generated from docs/rules/*.md by cidrcheck_embed_text_table()

namespace cidrcheck {

namespace {

constexpr auto find_page(std::string_view name) noexcept -> std::string_view {
  for (const auto& [page, text] : detail::rule_pages) {
    if (page == name) return text;
  }
  return {};
}

// The pages are picked up by name, so a new rule needs only its page; this
// makes a missing one a build error rather than an empty `cidrcheck explain`.
constexpr auto every_rule_has_a_page() noexcept -> bool {
  for (const auto& r : rule_table_data) {
    if (find_page(r.name).empty()) return false;
  }
  return true;
}
static_assert(every_rule_has_a_page(), "a rule in rules.hpp has no page docs/rules/<name>.md");

}  // namespace

auto rule_documentation(rule r) noexcept -> std::string_view { return find_page(info(r).name); }

}  // namespace cidrcheck
