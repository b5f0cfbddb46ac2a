// The runbooks of a plan: typed (plan_runbooks), as steps for plan's reports
// (render_steps) and as the folders of `plan --emit` (runbook_files), all
// through the one renderer (runbook_render.cpp).

#include <cidrcheck/fleet/runbook.hpp>

#include <cidrcheck/detail/markdown.hpp>
#include <cidrcheck/detail/sha256.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/simulator.hpp>

#include "runbook_render.hpp"
#include "runbook_rows.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck {

namespace {

// How many bytes of an owner's name a folder name keeps: with "NN-", the
// longest kind and a hash, a folder name stays far below NAME_MAX (255).
constexpr std::size_t folder_name_bytes = 64;

// A folder name from an owner's name: letters, digits, '.', '-' and '_' kept,
// the rest '_'; a longer one cut, ending in 8 hex digits of the name's SHA-256
// so that two long names that share their start stay two folders.
auto folder_word(std::string_view name) -> std::string {
  std::string out;
  for (char c : name) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    out += keep ? c : '_';
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  if (out.size() > folder_name_bytes) {
    auto hash = detail::sha256_hex(name);
    out = out.substr(0, folder_name_bytes - 9) + "-" + hash.substr(0, 8);
  }
  return out;
}

auto two_digits(std::size_t n) -> std::string { return (n < 10 ? "0" : "") + std::to_string(n); }

// Step numbers as a runbook names them: "step 5", "steps 5, 6 and 8".
auto step_numbers(const std::vector<std::size_t>& at) -> std::string {
  std::string out = at.size() == 1 ? "step " : "steps ";
  for (std::size_t k = 0; k < at.size(); ++k) {
    out += (k == 0 ? "" : k + 1 == at.size() ? " and " : ", ") + std::to_string(at[k]);
  }
  return out;
}

auto context_of(const owner& o) -> std::string {
  std::string context = o.type;
  auto add = [&](const std::string& word) { context += (context.empty() ? "" : ", ") + word; };
  if (o.kubernetes) add("Kubernetes 1." + std::to_string(o.kubernetes->minor));
  if (!o.cni.empty()) add(o.cni + (o.ipam.empty() ? std::string() : " " + o.ipam));
  return context;
}

// A step's prose as Markdown: text between pairs of backticks (field names,
// commands we wrote) as code spans, the rest escaped; with an odd number of
// backticks (a name from the input holding one) all of it escaped.
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

// A fence longer than any run of backticks in the lines, so none closes it.
auto fence_for(const std::vector<std::string>& lines) -> std::string {
  std::size_t longest = 0;
  for (const auto& line : lines) {
    std::size_t run = 0;
    for (char c : line) {
      run = c == '`' ? run + 1 : 0;
      longest = std::max(longest, run);
    }
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

auto changes_text(const fleet& planned, const plan_change& c) -> std::string {
  std::string role = c.range ? planned.role_name(planned.ranges[*c.range]) : std::string(to_string(c.role));
  return role + " " + (c.from.is_valid() ? c.from.to_string() + " -> " : "") + c.to.to_string();
}

struct runbook_context {
  const fleet& planned;
  const catalog& cat;
  const plan_result& plan;
};

// The simulator's verdict, first thing under the title: one line when the
// runbook passed; when it failed, a section that names every failing step,
// check and rule, so that nobody follows it without knowing.
auto verdict_markdown(const std::optional<simulation_result>& result) -> std::string {
  if (!result) {
    return "Simulation: not run (plan_fleet() and plan_run() run it; these files come from a plan that did not "
           "go through them).\n\n";
  }
  const auto& r = *result;
  if (r.passed()) return "Simulation " + detail::markdown_text(summary(r)) + " (docs/simulator.md).\n\n";
  std::string md = "## DO NOT FOLLOW AS WRITTEN\n\nThe simulation found " + std::to_string(r.failures.size()) +
                   (r.failures.size() == 1 ? " failure" : " failures") +
                   " when it ran this runbook step by step (docs/simulator.md). Following it as written breaks "
                   "what each names; fix the runbook, or plan the change another way, first.\n\n";
  for (const auto& f : r.failures) {
    md += "- " + (f.step < r.steps ? "Step " + std::to_string(f.step + 1) : std::string("After the last step")) +
          ", check " + detail::markdown_code_span(to_string(f.check));
    if (f.rule) {
      md += ", rule " + detail::markdown_code_span(info(*f.rule).name) + " (fact " +
            detail::markdown_code_span(info(*f.rule).fact) + ")";
    }
    md += ": " + detail::markdown_text(f.message) + "\n";
  }
  return md + "\n";
}

auto render_markdown(const runbook_context& x, const runbook& r, const std::vector<detail::rendered_step>& steps,
                     const std::string& changes, const std::string& cost,
                     const std::optional<simulation_result>& verdict) -> std::string {
  std::string names_md;
  for (auto k : r.owners) {
    const owner& o = x.planned.owners[k];
    auto context = context_of(o);
    names_md += (names_md.empty() ? "" : ", ") + detail::markdown_code_span(o.name) +
                (context.empty() ? std::string() : " (" + detail::markdown_text(context) + ")");
  }
  std::string md = "# " + r.kind + ": " + names_md + "\n\n" + verdict_markdown(verdict);
  md += "Changes: " + detail::markdown_text(changes) + "\n\n";
  if (!cost.empty()) md += "Cost: " + detail::markdown_text(cost) + "\n\n";
  if (auto maintenance = maintenance_of(r); !maintenance.empty()) {
    md += "Maintenance: " + detail::markdown_text(maintenance) + "\n\n";
  }
  md += "Commands are one per line; words in double quotes, such as \"$NODE\", are placeholders the step says how "
        "to set. Run each step only once every step it follows is done.\n\n## Steps\n\n";
  std::vector<std::string> cited;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const auto& s = steps[k];
    const std::string marker = std::to_string(k + 1) + ". ";
    const std::string indent(marker.size(), ' ');
    md += marker + step_markdown(s.text) + "\n";
    if (!s.commands.empty()) {
      auto fence = fence_for(s.commands);
      md += "\n" + indent + fence + "sh\n";
      for (const auto& c : s.commands) md += indent + c + "\n";
      md += indent + fence + "\n";
    }
    if (!s.facts.empty()) {
      md += "\n" + indent + "Facts:";
      for (const auto& id : s.facts) {
        md += " [" + id + "](#" + id + ")";
        if (std::find(cited.begin(), cited.end(), id) == cited.end()) cited.push_back(id);
      }
      md += "\n";
    }
    if (!s.files.empty()) {
      md += "\n" + indent + "Applies:";
      for (const auto& f : s.files) md += " [" + f.name + "](" + f.name + ")";
      md += "\n";
    }
    md += "\n";
  }
  if (!cited.empty()) {
    md += "\n## Facts\n\nFrom docs/migration-facts.md, where each is kept with its source and status.\n\n";
    md += "| id | fact | source | status |\n|---|---|---|---|\n";
    for (const auto& id : cited) {
      const auto& f = migration_fact_by_id(id);
      md += "| <a id=\"" + f.id + "\"></a>" + f.id + " | " + f.text + " | " + f.source + " | " + f.status + " |\n";
    }
  }
  return md;
}

}  // namespace

auto maintenance_of(const runbook& r) -> std::string {
  std::vector<std::size_t> applies, rolls, restarts;
  std::optional<std::size_t> drained, back;
  for (std::size_t k = 0; k < r.steps.size(); ++k) {
    const auto& a = r.steps[k].action;
    if (std::holds_alternative<apply_configuration>(a)) applies.push_back(k + 1);
    if (std::holds_alternative<roll_nodes>(a)) rolls.push_back(k + 1);
    if (detail::pod_restart(r.steps[k]) != nullptr) restarts.push_back(k + 1);
    if (const auto* d = std::get_if<drain_nodes>(&a);
        d && !drained && d->nodes.which == node_selection::role::all && d->nodes.pod_cidr_outside.empty()) {
      drained = k + 1;
    }
    if (drained && std::holds_alternative<register_nodes>(a)) back = k + 1;
  }
  std::vector<std::string> parts;
  if (!applies.empty()) {
    parts.push_back(std::to_string(applies.size()) + (applies.size() == 1 ? " roll" : " rolls") +
                    " of the cluster to apply its configuration (" + step_numbers(applies) + ")");
  }
  if (!rolls.empty()) parts.push_back("nodes rolled at " + step_numbers(rolls));
  if (drained) {
    parts.push_back("every node drained from step " + std::to_string(*drained) +
                    (back ? " until the nodes return at step " + std::to_string(*back) : std::string(" on")) +
                    ": a window in which workloads are down");
  }
  if (!restarts.empty()) parts.push_back("pods restarted at " + step_numbers(restarts));
  std::string out;
  for (std::size_t k = 0; k < parts.size(); ++k) out += (k == 0 ? "" : "; ") + parts[k];
  return out;
}

auto plan_runbooks(const fleet& f, const plan_result& p, const catalog& c) -> std::vector<runbook> {
  auto planned = apply_plan(f, p);
  std::vector<runbook> out;
  out.reserve(p.operations.size());
  const detail::owner_connections connections(planned);
  for (std::uint32_t k = 0; k < p.operations.size(); ++k) {
    if (p.runbook_is_earlier(k)) {
      out.push_back(out[p.operations[k].merged_with.front()]);  // one runbook for a maintenance shared with an earlier operation
    } else {
      out.push_back(detail::maintenance_runbook(planned, c, p, k, connections));
    }
  }
  for (const auto& change : p.changes) {
    if (!change.operation) out.push_back(detail::change_runbook(planned, c, change));
  }
  return out;
}

auto render_steps(const fleet& planned, const runbook& r, const catalog& c) -> std::vector<migration_step> {
  std::vector<migration_step> out;
  out.reserve(r.steps.size());
  for (std::size_t k = 0; k < r.steps.size(); ++k) {
    auto rendered = detail::render_step(planned, c, r, k, false);
    migration_step s;
    s.text = std::move(rendered.text);
    for (const auto& id : rendered.facts) s.facts.push_back(migration_fact_by_id(id));
    s.needs = r.steps[k].needs;
    s.makes = r.steps[k].makes;
    for (auto& file : rendered.files) s.files.push_back(std::move(file.name));
    s.commands = std::move(rendered.commands);
    out.push_back(std::move(s));
  }
  return out;
}

auto runbook_files(const fleet& f, const plan_result& p, const catalog& c) -> std::vector<runbook_file> {
  auto planned = apply_plan(f, p);
  auto runbooks = plan_runbooks(f, p, c);
  runbook_context x{planned, c, p};
  std::vector<runbook_file> out;
  std::size_t n = 0;
  auto emit = [&](const runbook& r, const std::string& changes, const std::string& cost,
                  const std::optional<simulation_result>& verdict) {
    std::vector<detail::rendered_step> steps;
    for (std::size_t k = 0; k < r.steps.size(); ++k) steps.push_back(detail::render_step(planned, c, r, k, true));
    const std::string folder = two_digits(++n) + "-" + r.kind + "-" + folder_word(planned.owners[r.owners.front()].name);
    out.push_back({folder + "/runbook.md", render_markdown(x, r, steps, changes, cost, verdict)});
    std::string names;
    for (auto k : r.owners) names += (names.empty() ? "" : ", ") + detail::printable(planned.owners[k].name);
    // A file is written once; the edits of one run (one apply) all name theirs.
    std::vector<std::pair<const detail::emitted_file*, std::vector<std::size_t>>> files;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      for (const auto& file : steps[k].files) {
        auto at = std::find_if(files.begin(), files.end(), [&](const auto& seen) { return seen.first->name == file.name; });
        if (at == files.end()) {
          files.push_back({&file, {k + 1}});
        } else {
          at->second.push_back(k + 1);
        }
      }
    }
    for (const auto& [file, by] : files) {
      out.push_back({folder + "/" + file->name, "# cidrcheck plan: " + r.kind + " for " + names + ", " + step_numbers(by) +
                                                    " of runbook.md " + (by.size() == 1 ? "applies" : "apply") +
                                                    " this file\n" + file->text});
    }
  };
  std::size_t next = 0;
  for (std::uint32_t j = 0; j < p.operations.size(); ++j) {
    const auto& first = p.operations[j];
    if (p.runbook_is_earlier(j)) {
      ++next;  // written with the earlier operation it shares its runbook with
      continue;
    }
    const auto members = p.sharing_runbook(j);
    std::string changes, cost;
    for (auto m : members) {
      const auto& op = p.operations[m];
      for (auto owner : op.owners) {
        std::string text;
        for (auto k : op.changes) {
          if (p.changes[k].owner == owner) text += (text.empty() ? "" : ", ") + changes_text(planned, p.changes[k]);
        }
        if (!text.empty()) changes += (changes.empty() ? "" : "; ") + planned.owners[owner].name + ": " + text;
      }
      std::string counted;
      for (std::size_t k = 0; k < op.counted.size(); ++k) counted += (k == 0 ? " (" : ", ") + op.counted[k];
      if (!op.counted.empty()) counted += ")";
      cost += (cost.empty() ? "" : "; ") + (members.size() > 1 ? op.kind + " " : std::string()) +
              std::to_string(op.cost) + counted;
    }
    emit(runbooks[next++], changes, cost, first.simulation);
  }
  for (const auto& change : p.changes) {
    if (change.operation) continue;
    emit(runbooks[next++], planned.owners[change.owner].name + ": " + changes_text(planned, change), "",
         change.simulation);
  }
  return out;
}

}  // namespace cidrcheck
