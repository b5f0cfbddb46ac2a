#include "json_writer.hpp"
#include "report.hpp"
#include "words.hpp"

#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/records.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace cidrcheck::cli {

namespace {

auto old_text(const fleet& f, const plan_change& c) -> std::string {
  if (!c.from.is_valid()) return "(new)";
  std::string out = c.from.to_string();
  if (c.range && (f.ranges[*c.range].origin == range_origin::distribution_default ||
                  f.ranges[*c.range].origin == range_origin::cni_default)) {
    out += " (default)";
  }
  return out;
}

auto owners_text(const fleet& f, const plan_operation& op) -> std::string {
  std::string out;
  for (auto k : op.owners) out += (out.empty() ? "" : ", ") + f.owners[k].name;
  return out;
}

auto counted_text(const plan_operation& op) -> std::string {
  std::string out;
  for (const auto& part : op.counted) out += (out.empty() ? "" : ", ") + part;
  return out;
}

// The ranges of a list of changes, one per line: "role  from -> to", and the DNS address that follows.
void write_change_lines(std::string& buf, const plan_report& r, const std::vector<const plan_change*>& list,
                        bool name_owner) {
  std::size_t w_role = 3, w_from = 4;
  auto label = [&](const plan_change& c) {
    return (name_owner ? r.model.owners[c.owner].name + " " : std::string()) + change_role(r.model, c);
  };
  for (const auto* c : list) {
    w_role = std::max(w_role, label(*c).size());
    w_from = std::max(w_from, old_text(r.model, *c).size());
  }
  for (const auto* c : list) {
    std::string to = c->to == c->from ? std::string("(stays)") : c->to.to_string();
    buf += "       " + pad(label(*c), w_role) + "  " + pad(old_text(r.model, *c), w_from) + "  -> " + to + "\n";
    if (!c->source.empty()) buf += "       " + pad("", w_role) + "  from " + c->source + "\n";
    if (c->dns_to) {
      buf += "       " + pad("dns", w_role) + "  " + pad(c->dns_from ? c->dns_from->to_string() : "(none)", w_from) +
             "  -> " + c->dns_to->to_string() + "\n";
    }
  }
}

// Operation numbers as the report counts them, from 1: "2", "1 and 2", "1, 2 and 3".
auto numbers_text(const std::vector<std::uint32_t>& operations) -> std::string {
  std::string out;
  for (std::size_t k = 0; k < operations.size(); ++k) {
    out += (k == 0 ? "" : k + 1 == operations.size() ? " and " : ", ") + std::to_string(operations[k] + 1);
  }
  return out;
}

void write_changes(std::string& buf, const plan_report& r) {
  const auto& p = r.plan;
  if (!p.operations.empty()) {
    buf += "\nOperations\n";
    for (std::size_t k = 0; k < p.operations.size(); ++k) {
      const auto& op = p.operations[k];
      buf += "  " + std::to_string(k + 1) + ". " + owners_text(r.model, op) + ": " + op.kind + ", cost " +
             std::to_string(op.cost) + " (" + counted_text(op) + ")\n";
      std::vector<const plan_change*> list;
      for (auto c : op.changes) list.push_back(&p.changes[c]);
      // Owners are named when there are several: a shared VPC, or a route that follows a range.
      bool named = op.owners.size() > 1 || std::any_of(list.begin(), list.end(), [&](const plan_change* c) {
                     return c->owner != op.owners.front();
                   });
      write_change_lines(buf, r, list, named);
      for (const auto& w : op.withdrawals) {
        buf += "       withdrawn from " + detail::printable(r.model.describe_connection(w.connection)) + ": " + w.cidr.to_string() +
               " (it stays the cluster's, with no pod in it)\n";
      }
      if (!op.merged_with.empty()) {
        buf += std::string("       maintenance: one runbook with operation") + (op.merged_with.size() == 1 ? " " : "s ") +
               numbers_text(op.merged_with) + ": " + op.maintenance + "\n";
      } else if (!op.maintenance.empty()) {
        buf += "       maintenance: " + op.maintenance + "\n";
      }
    }
  }
  std::vector<const plan_change*> others;
  for (const auto& c : p.changes) {
    if (!c.operation) others.push_back(&c);
  }
  if (!others.empty()) {
    buf += "\nOther changes (requested ranges, DNS addresses put back; cost 0)\n";
    write_change_lines(buf, r, others, true);
  }
  buf += "\n";
  bool safe = std::all_of(p.changes.begin(), p.changes.end(), [](const plan_change& c) { return c.transition_safe; });
  bool grown = std::any_of(p.changes.begin(), p.changes.end(),
                           [](const plan_change& c) { return c.range && c.to != c.from && c.to.supernet_of(c.from); });
  buf += safe ? std::string("Transition: every new range is free of every old range") +
                    (grown ? " but the one it grows in place" : "") +
                    ", so old and new can run side by side during each move.\n"
              : "Transition: NOT every new range is free of the old ones; see the changes marked unsafe in --format json.\n";
  buf += p.optimal ? "Cost: the cheapest choice of operations (exact search).\n"
                   : "Cost: the search ran out of budget on a large group of conflicts; this plan is valid but may "
                     "not be the cheapest.\n";
  buf += "\nWhy\n";
  for (const auto& c : p.changes) {
    for (const auto& reason : c.reasons) {
      buf += "  " + r.model.owners[c.owner].name + " " + change_role(r.model, c) + ": " + reason + "\n";
    }
  }
}

auto context_of(const owner& o) -> std::string {
  std::string context = o.type;
  if (o.kubernetes) context += (context.empty() ? "" : ", ") + std::string("Kubernetes 1.") + std::to_string(o.kubernetes->minor);
  if (!o.cni.empty()) context += (context.empty() ? "" : ", ") + o.cni;
  if (!o.ipam.empty()) context += (context.empty() ? "" : " ") + o.ipam;
  return context.empty() ? std::string() : " (" + context + ")";
}

// Steps, each naming the facts it relies on by id (docs/migration-facts.md);
// the facts are listed after them, each once, with their status when not verified.
void write_step_list(std::string& buf, const std::vector<migration_step>& steps) {
  std::vector<const migration_fact*> facts;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    buf += "  " + std::to_string(k + 1) + ". " + steps[k].text;
    std::string labels;
    for (const auto& fact : steps[k].facts) {
      labels += (labels.empty() ? "" : ", ") + fact.id;
      auto known = std::find_if(facts.begin(), facts.end(), [&](const migration_fact* x) { return x->id == fact.id; });
      if (known == facts.end()) facts.push_back(&fact);
    }
    buf += labels.empty() ? "\n" : " [" + labels + "]\n";
    for (const auto& command : steps[k].commands) buf += "       $ " + command + "\n";
  }
  for (const auto* fact : facts) {
    buf += "     [" + fact->id + "] " + fact->text + (fact->status == "verified" ? "" : " (status: " + fact->status + ")") + "\n";
  }
}

// The simulator's verdict on a runbook, under its heading: one line when it
// passed; every failure, one a line, when it failed. Nothing when not simulated.
void write_verdict(std::string& buf, const std::optional<simulation_result>& r) {
  if (!r) return;
  buf += "  simulation " + summary(*r) + (r->passed() ? "\n" : "; DO NOT FOLLOW AS WRITTEN:\n");
  for (const auto& f : r->failures) buf += "    " + to_string(f, r->steps) + "\n";
}

void write_steps(output& out, const plan_report& r) {
  const auto& p = r.plan;
  auto& buf = out.buffer();
  buf += "\nSteps\n";
  for (std::uint32_t k = 0; k < p.operations.size(); ++k) {
    const auto& op = p.operations[k];
    if (p.runbook_is_earlier(k)) continue;  // printed with the earlier operation
    const auto members = p.sharing_runbook(k);
    std::string kinds;
    for (auto m : members) kinds += (kinds.empty() ? "" : " + ") + p.operations[m].kind;
    buf += "\n" + numbers_text(members) + ". " + owners_text(r.model, op) + ": " + kinds +
           (members.size() > 1 ? " (one maintenance)" : "") +
           (op.owners.size() == 1 ? context_of(r.model.owners[op.owners.front()]) : std::string()) + "\n";
    write_verdict(buf, op.simulation);
    write_step_list(buf, op.steps);
    out.maybe_flush();
  }
  for (const auto& c : p.changes) {
    if (c.operation) continue;
    const auto& o = r.model.owners[c.owner];
    buf += "\n" + o.name + " " + change_role(r.model, c) + " " + old_text(r.model, c) + " -> " + c.to.to_string() +
           context_of(o) + "\n";
    write_verdict(buf, c.simulation);
    write_step_list(buf, c.steps);
    out.maybe_flush();
  }
}

}  // namespace

void write_plan_text(output& out, const plan_report& r) {
  const auto& p = r.plan;
  auto& buf = out.buffer();
  std::size_t moves = static_cast<std::size_t>(std::count_if(p.changes.begin(), p.changes.end(), [](const plan_change& c) {
    return c.from.is_valid() && c.from != c.to;
  }));
  std::size_t created = static_cast<std::size_t>(
      std::count_if(p.changes.begin(), p.changes.end(), [](const plan_change& c) { return !c.from.is_valid(); }));
  if (p.changes.empty() && p.complete()) {
    buf += "Nothing to change: the fleet has no errors to plan away.\n";
    return;
  }
  std::vector<std::uint32_t> owners;
  for (const auto& c : p.changes) {
    if (std::find(owners.begin(), owners.end(), c.owner) == owners.end()) owners.push_back(c.owner);
  }
  for (const auto& op : p.operations) {
    for (auto k : op.owners) {
      if (std::find(owners.begin(), owners.end(), k) == owners.end()) owners.push_back(k);
    }
  }
  buf += "Plan: " + plural(p.operations.size(), "operation") + " (" + plural(moves, "move") +
         (created ? ", " + plural(created, "new range") : std::string()) + ") in " + plural(owners.size(), "owner") +
         ", total cost " + std::to_string(p.total_cost) +
         (p.shared_apply_saving > 0 ? " (" + std::to_string(p.total_cost + p.shared_apply_saving) +
                                          " less " + std::to_string(p.shared_apply_saving) +
                                          " for applies shared in one maintenance per cluster)"
                                    : std::string()) +
         "; ";
  buf += p.complete() ? "the fleet then checks without errors.\n"
                      : std::to_string(p.problems.size()) + " problem" + (p.problems.size() == 1 ? "" : "s") +
                            " left (see below).\n";
  if (auto failed = p.runbooks_failed()) {
    buf += plural(failed, "runbook") + " FAILED the migration simulation: do not follow " +
           (failed == 1 ? "it" : "them") + " as written (see Steps).\n";
  }
  if (!p.changes.empty() || !p.operations.empty()) write_changes(buf, r);
  if (!p.problems.empty()) {
    buf += "\nNot resolved:\n";
    for (const auto& problem : p.problems) {
      std::string where = !problem.ranges.empty()   ? to_string(r.model.ranges[problem.ranges.front()].where) + ": "
                          : !problem.requests.empty() ? to_string(r.model.requests[problem.requests.front()].where) + ": "
                                                      : "";
      buf += "  " + where + (problem.id ? "error[" + std::string(info(*problem.id).name) + "]: " : "error: ") +
             problem.message + "\n";
    }
  }
  if (!p.changes.empty() || !p.operations.empty()) write_steps(out, r);
}

void write_plan_json(output& out, const plan_report& r) {
  json_writer w(out.buffer(), 2);
  write_plan_record(w, r.model, r.plan, r.files);
  out.write("\n");
}

}  // namespace cidrcheck::cli
