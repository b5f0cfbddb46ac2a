// The facts runbooks cite, read once from docs/migration-facts.md (compiled in):
// each table row "| id | fact | source | status |" whose status is one of the
// page's statuses is a fact. The page is their one source, so a runbook can
// cite only what the page lists, with the source and status it gives.

#include <cidrcheck/error.hpp>
#include <cidrcheck/fleet/runbook.hpp>

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cidrcheck {

namespace detail {
extern const char migration_facts_md[];
}  // namespace detail

namespace {

// The cells of a Markdown table row, "\|" kept as "|" inside a cell.
auto cells_of(std::string_view line) -> std::vector<std::string> {
  std::vector<std::string> out;
  if (line.size() < 2 || line.front() != '|') return out;
  std::string cell;
  for (std::size_t k = 1; k < line.size(); ++k) {
    if (line[k] == '\\' && k + 1 < line.size() && line[k + 1] == '|') {
      cell += '|';
      ++k;
    } else if (line[k] == '|') {
      auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      out.push_back(first == std::string::npos ? std::string() : cell.substr(first, last - first + 1));
      cell.clear();
    } else {
      cell += line[k];
    }
  }
  return out;
}

auto is_status(std::string_view s) -> bool {
  constexpr std::array<std::string_view, 5> statuses{"verified", "verified (seed)", "derived", "unverified",
                                                     "conflicting"};
  for (auto known : statuses) {
    if (s == known) return true;
  }
  return false;
}

struct fact_table {
  std::vector<migration_fact> facts;
  std::unordered_map<std::string, std::size_t> by_id;
};

auto read_facts() -> fact_table {
  fact_table out;
  std::string_view page(detail::migration_facts_md);
  while (!page.empty()) {
    auto end = page.find('\n');
    auto line = page.substr(0, end);
    page.remove_prefix(end == std::string_view::npos ? page.size() : end + 1);
    auto cells = cells_of(line);
    if (cells.size() != 4 || !is_status(cells[3])) continue;
    if (!out.by_id.emplace(cells[0], out.facts.size()).second) {
      throw basic_error<std::logic_error>("docs/migration-facts.md lists fact '" + cells[0] + "' twice");
    }
    out.facts.push_back({cells[0], cells[1], cells[2], cells[3]});
  }
  return out;
}

auto table() -> const fact_table& {
  static const fact_table facts = read_facts();
  return facts;
}

}  // namespace

auto migration_facts() -> const std::vector<migration_fact>& { return table().facts; }

auto find_migration_fact(std::string_view id) -> const migration_fact* {
  const auto& t = table();
  auto it = t.by_id.find(std::string(id));
  return it == t.by_id.end() ? nullptr : &t.facts[it->second];
}

auto migration_fact_by_id(std::string_view id) -> const migration_fact& {
  if (const auto* f = find_migration_fact(id)) return *f;
  throw basic_error<std::out_of_range>("no migration fact '" + std::string(id) + "' in docs/migration-facts.md");
}

}  // namespace cidrcheck
