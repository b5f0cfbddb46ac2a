#include <cidrcheck/fleet/runbook.hpp>

#include "migration.hpp"

#include <cidrcheck/detail/markdown.hpp>
#include <cidrcheck/detail/text.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck {

namespace {

// A folder name from an owner's name: letters, digits, '.', '-' and '_' kept, the rest '_'.
auto folder_word(std::string_view name) -> std::string {
  std::string out;
  for (char c : name) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    out += keep ? c : '_';
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

auto two_digits(std::size_t n) -> std::string { return (n < 10 ? "0" : "") + std::to_string(n); }

auto context_of(const owner& o) -> std::string {
  std::string context = o.type;
  auto add = [&](const std::string& word) { context += (context.empty() ? "" : ", ") + word; };
  if (o.kubernetes) add("Kubernetes 1." + std::to_string(o.kubernetes->minor));
  if (!o.cni.empty()) add(o.cni + (o.ipam.empty() ? std::string() : " " + o.ipam));
  return context;
}

// A step's text as Markdown: text between pairs of backticks (commands, file
// and field names) as code spans, the rest escaped. With an odd number of
// backticks (a name from the input holding one) all of it is escaped.
auto step_markdown(std::string_view text) -> std::string {
  if (std::count(text.begin(), text.end(), '`') % 2 != 0) return detail::markdown_text(text);
  std::string out;
  bool code = false;
  for (std::size_t start = 0; start <= text.size();) {
    auto end = std::min(text.find('`', start), text.size());
    auto part = text.substr(start, end - start);
    if (!part.empty()) out += code ? detail::markdown_code_span(part) : detail::markdown_text(part);
    code = !code;
    start = end + 1;
  }
  return out;
}

// One runbook: a title naming the operation and its owners, the changes, the
// steps with the facts they cite and the files they apply, then the facts.
struct runbook_text {
  std::string folder;
  std::string title;  // plain text, for the files' header comments
  std::string markdown;
};

// `outer` names the runbook a fallback replaces and the step of it that sends
// the operator here ("service-cidr-api", 1), and is empty for every other runbook.
auto render(const fleet& planned, std::string folder, std::string kind, const std::vector<std::uint32_t>& owners,
            const std::string& changes, const std::string& cost, const std::vector<migration_step>& steps,
            const std::pair<std::string, std::size_t>& outer = {}) -> runbook_text {
  runbook_text out;
  out.folder = std::move(folder);
  std::string names, names_md;
  for (auto k : owners) {
    const owner& o = planned.owners[k];
    std::string context = context_of(o);
    names += (names.empty() ? "" : ", ") + detail::printable(o.name);
    names_md += (names_md.empty() ? "" : ", ") + detail::markdown_code_span(o.name) +
                (context.empty() ? std::string() : " (" + detail::markdown_text(context) + ")");
  }
  out.title = kind + " for " + names;
  auto& md = out.markdown;
  md += "# " + kind + ": " + names_md + "\n\n";
  if (!outer.first.empty()) {
    md += "Followed instead of the " + outer.first + " runbook in [../runbook.md](../runbook.md) when its step " +
          std::to_string(outer.second + 1) + " says so.\n\n";
  }
  md += "Changes: " + detail::markdown_text(changes) + "\n\n";
  if (!cost.empty()) md += "Cost: " + detail::markdown_text(cost) + "\n\n";
  md += "## Steps\n\n";
  std::vector<const migration_fact*> cited;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const auto& s = steps[k];
    md += std::to_string(k + 1) + ". " + step_markdown(s.text) + "\n";
    if (!s.facts.empty()) {
      md += "\n   Facts:";
      for (const auto& f : s.facts) {
        md += " [" + f.id + "](#" + f.id + ")";
        bool known = false;
        for (auto* c : cited) known = known || c->id == f.id;
        if (!known) cited.push_back(&f);
      }
      md += "\n";
    }
    if (!s.files.empty()) {
      md += "\n   Applies:";
      for (const auto& name : s.files) md += " [" + name + "](" + name + ")";
      md += "\n";
    }
    md += "\n";
  }
  if (!cited.empty()) {
    md += "\n## Facts\n\nFrom docs/migration-facts.md, where each is kept with its source and status.\n\n";
    md += "| id | fact | source | status |\n|---|---|---|---|\n";
    for (auto* f : cited) {
      md += "| <a id=\"" + f->id + "\"></a>" + f->id + " | " + f->text + " | " + f->source + " | " + f->status + " |\n";
    }
  }
  return out;
}

void add_files(std::vector<runbook_file>& out, const runbook_text& book, std::vector<detail::step_file>& files) {
  out.push_back({book.folder + "/runbook.md", book.markdown});
  for (auto& file : files) {
    std::string header = "# cidrcheck plan: " + book.title + ", step " + std::to_string(file.step + 1) +
                         " of runbook.md applies this file\n";
    out.push_back({book.folder + "/" + file.name, header + file.text});
  }
}

// The runbook of builder b (and its fallbacks, each in a folder inside its own)
// as files, in folder `folder`.
void add_runbook(std::vector<runbook_file>& out, const fleet& planned, const std::string& folder,
                 const std::string& kind, const std::vector<std::uint32_t>& owners, const std::string& changes,
                 const std::string& cost, detail::runbook_builder& b) {
  auto book = render(planned, folder, kind, owners, changes, cost, b.steps());
  add_files(out, book, b.files());
  for (auto& fallback : b.fallbacks()) {
    auto inner = render(planned, folder + "/" + fallback.folder, fallback.kind, owners, changes, "", fallback.steps,
                        {kind, fallback.step});
    add_files(out, inner, fallback.files);
  }
}

}  // namespace

auto runbook_files(const fleet& f, const plan_result& p) -> std::vector<runbook_file> {
  auto planned = apply_plan(f, p);
  std::vector<runbook_file> out;
  std::size_t n = 0;
  for (const auto& op : p.operations) {
    detail::runbook_builder b(true);
    detail::operation_runbook(planned, op, p.changes, b);
    std::string changes;
    for (auto owner : op.owners) {
      auto text = detail::ranges_text(planned, owner, op, p.changes);
      if (!text.empty()) changes += (changes.empty() ? "" : "; ") + planned.owners[owner].name + ": " + text;
    }
    std::string cost = std::to_string(op.cost);
    for (std::size_t k = 0; k < op.counted.size(); ++k) cost += (k == 0 ? " (" : ", ") + op.counted[k];
    if (!op.counted.empty()) cost += ")";
    add_runbook(out, planned, two_digits(++n) + "-" + op.kind + "-" + folder_word(planned.owners[op.owners.front()].name),
                op.kind, op.owners, changes, cost, b);
  }
  for (const auto& c : p.changes) {
    if (c.operation) continue;
    detail::runbook_builder b(true);
    detail::change_runbook(planned, c, b);
    const owner& o = planned.owners[c.owner];
    std::string kind = c.from.is_valid() ? "dns-address" : "new-range";
    std::string changes = o.name + ": " + std::string(to_string(c.role)) + " " +
                          (c.from.is_valid() ? c.from.to_string() + " -> " : "") + c.to.to_string();
    add_runbook(out, planned, two_digits(++n) + "-" + kind + "-" + folder_word(o.name), kind, {c.owner}, changes, "",
                b);
  }
  return out;
}

}  // namespace cidrcheck
