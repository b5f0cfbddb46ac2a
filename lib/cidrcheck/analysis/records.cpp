#include <cidrcheck/records.hpp>

#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/version.hpp>

namespace cidrcheck {

namespace {

void location(record_sink& out, const source_location& where) {
  out.member("file", where.file);
  out.member("line", where.line);
  out.member("column", where.column);
}

void end_column(record_sink& out, std::uint32_t column) {
  if (column == 0) {
    out.null_member("end_column");
  } else {
    out.member("end_column", column);
  }
}

template <class Items, class Write>
void array(record_sink& out, std::string_view k, const Items& items, Write write) {
  out.key(k);
  out.begin_array();
  for (const auto& x : items) write(x);
  out.end_array();
}

void strings(record_sink& out, std::string_view k, const std::vector<std::string>& items) {
  array(out, k, items, [&](const std::string& s) { out.value(s); });
}

void owner_names(record_sink& out, std::string_view k, const fleet& f, const std::vector<std::uint32_t>& owners) {
  array(out, k, owners, [&](std::uint32_t o) { out.value(f.owners[o].name); });
}

// The members of a finding's record; the caller opens and closes the object.
void finding_members(record_sink& out, const fleet& f, const finding& x, std::string_view fingerprint,
                            bool with_via) {
  out.member("rule", info(x.id).name);
  out.member("rule_id", info(x.id).id);
  out.member("severity", to_string(x.level));
  out.member("message", x.message);
  out.member("fingerprint", fingerprint);
  out.key("overlap");
  if (x.overlap) {
    out.begin_object();
    out.member("first", x.overlap->first().to_string());
    out.member("last", x.overlap->last().to_string());
    if (auto p = x.overlap->to_prefix()) {
      out.member("cidr", p->to_string());
    } else {
      out.null_member("cidr");
    }
    out.end_object();
  } else {
    out.null();
  }
  array(out, "ranges", x.ranges, [&](std::uint32_t k) { write_range_record(out, f, k); });
  // Where the finding points: its first range, or (the suppression rules) the suppression.
  if (x.ranges.empty()) {
    location(out, x.where);
    end_column(out, x.end_column);
  } else {
    const auto& first = f.ranges[x.ranges.front()];
    location(out, first.where);
    end_column(out, first.end_column);
  }
  if (x.routed_at) {
    out.member("routed_at", f.owners[*x.routed_at].name);
  } else {
    out.null_member("routed_at");
  }
  if (with_via) {
    array(out, "via", x.via, [&](std::uint32_t c) { out.value(c); });
  } else {
    out.null_member("via");
  }
  out.key("block");
  if (x.block) {
    out.begin_object();
    out.member("cidr", x.block->cidr.to_string());
    out.member("name", x.block->name);
    out.member("source", x.block->source);
    out.end_object();
  } else {
    out.null();
  }
  out.member("hint", x.hint);
}

}  // namespace

auto change_role(const fleet& f, const plan_change& c) -> std::string {
  return c.range ? f.role_name(f.ranges[*c.range]) : std::string(to_string(c.role));
}

void write_range_record(record_sink& out, const fleet& f, std::uint32_t k) {
  const auto& r = f.ranges[k];
  const auto& o = f.owners[r.owner];
  out.begin_object();
  out.member("owner", o.name);
  out.member("owner_kind", to_string(o.kind));
  out.member("role", f.role_name(r));
  out.member("cidr", r.cidr.to_string());
  out.member("origin", to_string(r.origin));
  location(out, r.where);
  end_column(out, r.end_column);
  out.end_object();
}

void write_connection_record(record_sink& out, const fleet& f, std::uint32_t k) {
  const auto& c = f.connections[k];
  out.begin_object();
  out.member("index", k);
  if (c.name.empty()) {
    out.null_member("name");
  } else {
    out.member("name", c.name);
  }
  out.member("description", f.describe_connection(k));
  owner_names(out, "members", f, c.members);
  out.member("via", c.via);
  out.key("routes");
  out.begin_array();
  for (auto role : {range_role::network, range_role::pods, range_role::services}) {
    if (c.routes.has(role)) out.value(to_string(role));
  }
  out.end_array();
  out.key("withdrawn");
  out.begin_array();
  for (const auto& p : c.withdrawn) out.value(p.to_string());
  out.end_array();
  location(out, c.where);
  out.end_object();
}

void write_finding_record(record_sink& out, const fleet& f, const finding& x, std::string_view fingerprint,
                          bool with_via) {
  out.begin_object();
  finding_members(out, f, x, fingerprint, with_via);
  out.end_object();
}

void write_suppression_record(record_sink& out, const suppression& s) {
  out.begin_object();
  out.member("reason", s.reason);
  if (s.expires) {
    out.member("expires", to_iso_date(*s.expires));
  } else {
    out.null_member("expires");
  }
  location(out, s.where);
  out.end_object();
}

void write_suppressed_record(record_sink& out, const fleet& f, const suppressed_finding& x,
                             std::span<const suppression> suppressions, std::string_view fingerprint) {
  out.begin_object();
  finding_members(out, f, x.value, fingerprint, true);
  out.key("suppression");
  write_suppression_record(out, suppressions[x.suppression]);
  out.end_object();
}

void write_diagnostic_record(record_sink& out, const diagnostic& d) {
  out.begin_object();
  out.member("severity", to_string(d.level));
  out.member("code", d.code);
  out.member("message", d.message);
  location(out, d.where);
  if (!d.notes.empty()) {
    array(out, "notes", d.notes, [&](const diagnostic& n) { write_diagnostic_record(out, n); });
  }
  out.end_object();
}

void write_step_record(record_sink& out, const migration_step& s) {
  out.begin_object();
  out.member("step", s.text);
  strings(out, "commands", s.commands);
  array(out, "relies_on", s.facts, [&](const migration_fact& fact) {
    out.begin_object();
    out.member("id", fact.id);
    out.member("fact", fact.text);
    out.member("source", fact.source);
    out.member("status", fact.status);
    out.end_object();
  });
  strings(out, "needs", s.needs);
  strings(out, "makes", s.makes);
  strings(out, "files", s.files);
  out.end_object();
}

void write_simulation_record(record_sink& out, const simulation_result& r) {
  out.begin_object();
  out.member("passed", r.passed());
  out.member("steps", r.steps);
  array(out, "skipped", r.skipped, [&](std::size_t k) { out.value(std::uint64_t{k + 1}); });
  array(out, "failures", r.failures, [&](const simulation_failure& x) {
    out.begin_object();
    if (x.step < r.steps) {
      out.member("step", std::uint64_t{x.step + 1});
    } else {
      out.null_member("step");
    }
    out.member("check", to_string(x.check));
    if (x.rule) {
      out.member("rule", info(*x.rule).name);
      out.member("fact", info(*x.rule).fact);
    } else {
      out.null_member("rule");
      out.null_member("fact");
    }
    out.member("message", x.message);
    out.end_object();
  });
  out.end_object();
}

namespace {

void simulation_member(record_sink& out, const std::optional<simulation_result>& r) {
  if (r) {
    out.key("simulation");
    write_simulation_record(out, *r);
  } else {
    out.null_member("simulation");
  }
}

}  // namespace

void write_operation_record(record_sink& out, const fleet& f, const plan_operation& op) {
  out.begin_object();
  out.member("kind", op.kind);
  out.member("changes_what", to_string(op.scope));
  owner_names(out, "owners", f, op.owners);
  out.member("cost", op.cost);
  strings(out, "counted", op.counted);
  array(out, "changes", op.changes, [&](std::uint32_t k) { out.value(k); });
  array(out, "withdrawals", op.withdrawals, [&](const plan_withdrawal& w) {
    out.begin_object();
    out.member("connection", w.connection);
    out.member("connection_description", f.describe_connection(w.connection));
    out.member("cidr", w.cidr.to_string());
    out.end_object();
  });
  array(out, "steps", op.steps, [&](const migration_step& s) { write_step_record(out, s); });
  if (op.maintenance.empty()) {
    out.null_member("maintenance");
  } else {
    out.member("maintenance", op.maintenance);
  }
  array(out, "merged_with", op.merged_with, [&](std::uint32_t k) { out.value(k); });
  simulation_member(out, op.simulation);
  out.end_object();
}

void write_change_record(record_sink& out, const fleet& f, const plan_change& c) {
  const auto& o = f.owners[c.owner];
  out.begin_object();
  out.member("owner", o.name);
  out.member("owner_kind", to_string(o.kind));
  out.member("role", change_role(f, c));
  if (c.from.is_valid()) {
    out.member("from", c.from.to_string());
  } else {
    out.null_member("from");
  }
  out.member("to", c.to.to_string());
  out.member("cost", c.cost);
  if (c.operation) {
    out.member("operation", *c.operation);
  } else {
    out.null_member("operation");
  }
  // Where it points: the range it moves, the request it fills, or (pod space an operation adds) its owner.
  if (c.range) {
    out.member("origin", to_string(f.ranges[*c.range].origin));
    location(out, f.ranges[*c.range].where);
  } else {
    out.member("origin", "new");
    location(out, c.request ? f.requests[*c.request].where : o.where);
  }
  if (c.dns_to) {
    if (c.dns_from) {
      out.member("dns_from", c.dns_from->to_string());
    } else {
      out.null_member("dns_from");
    }
    out.member("dns_to", c.dns_to->to_string());
  } else {
    out.null_member("dns_from");
    out.null_member("dns_to");
  }
  out.member("transition_safe", c.transition_safe);
  if (!c.source.empty()) out.member("source", c.source);  // only where the plan has named pools
  strings(out, "reasons", c.reasons);
  array(out, "steps", c.steps, [&](const migration_step& s) { write_step_record(out, s); });
  simulation_member(out, c.simulation);
  out.end_object();
}

void write_problem_record(record_sink& out, const fleet& f, const plan_problem& p) {
  out.begin_object();
  if (p.id) {
    out.member("rule", info(*p.id).name);
  } else {
    out.null_member("rule");
  }
  out.member("message", p.message);
  array(out, "ranges", p.ranges, [&](std::uint32_t k) { write_range_record(out, f, k); });
  array(out, "requests", p.requests, [&](std::uint32_t k) {
    const auto& q = f.requests[k];
    out.begin_object();
    out.member("owner", f.owners[q.owner].name);
    out.member("role", to_string(q.role));
    location(out, q.where);
    out.end_object();
  });
  out.end_object();
}

void write_plan_record(record_sink& out, const fleet& f, const plan_result& p, std::span<const std::string> files) {
  out.begin_object();
  out.member("version", record_version);
  out.member("schema", plan_report_schema);
  out.key("tool");
  out.begin_object();
  out.member("name", "cidrcheck");
  out.member("version", version_string);
  out.end_object();
  out.key("summary");
  out.begin_object();
  out.member("complete", p.complete());
  out.member("optimal", p.optimal);
  out.member("operations", p.operations.size());
  out.member("changes", p.changes.size());
  out.member("owners_changed", p.owners_changed);
  out.member("total_cost", p.total_cost);
  out.member("shared_apply_saving", p.shared_apply_saving);
  out.member("problems", p.problems.size());
  out.member("runbooks_failed", p.runbooks_failed());
  array(out, "files", files, [&](const std::string& s) { out.value(s); });
  out.end_object();
  array(out, "operations", p.operations, [&](const plan_operation& op) { write_operation_record(out, f, op); });
  array(out, "changes", p.changes, [&](const plan_change& c) { write_change_record(out, f, c); });
  array(out, "problems", p.problems, [&](const plan_problem& x) { write_problem_record(out, f, x); });
  array(out, "diagnostics", p.diagnostics, [&](const diagnostic& d) { write_diagnostic_record(out, d); });
  out.end_object();
}

}  // namespace cidrcheck
