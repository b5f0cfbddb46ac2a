#include "suppression_reader.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

namespace cidrcheck::detail {

namespace {

constexpr std::string_view role_names[] = {"network", "pods", "services"};

auto read_entity(yaml_reader& r, std::uint32_t node) -> std::optional<entity_pattern> {
  auto text = r.string(node, "an entity");
  if (!text) return std::nullopt;
  if (auto p = entity_pattern::parse(*text)) return p;
  auto slash = text->rfind('/');
  std::string role = slash == std::string::npos ? "" : text->substr(slash + 1);
  r.error(node, diag::invalid_entity,
          "entity '" + *text + "' must be OWNER or OWNER/ROLE, with ROLE network, pods or services" +
              did_you_mean(role, role_names));
  return std::nullopt;
}

void read_suppression(yaml_reader& r, std::uint32_t node, std::vector<suppression>& out) {
  auto entries = r.mapping(node, "a suppression");
  if (!entries) return;
  r.only_keys(*entries, {"rule", "entities", "reason", "expires"}, "a suppression");
  suppression s;
  bool ok = true, has_rule = false, has_entities = false, has_reason = false;
  for (const auto& e : *entries) {
    if (e.key == "rule") {
      has_rule = true;
      auto id = read_rule(r, e.value, "rule");
      if (id == rule::expired_suppression || id == rule::unused_suppression) {
        r.error(e.value, diag::invalid_rule,
                "the suppression rules cannot be suppressed; set " + std::string(info(*id).name) +
                    " to off under 'rules' in .cidrcheck.yaml instead");
        id.reset();
      }
      ok = ok && id.has_value();
      if (id) s.id = *id;
      s.where = r.where(e.value);
      if (r.node(e.value).line == r.node(e.value).end_line) s.end_column = r.node(e.value).end_column;
    } else if (e.key == "entities") {
      has_entities = true;
      auto items = r.list(e.value, "entities");
      ok = ok && items.has_value();
      if (!items) continue;
      if (items->empty()) {
        r.error(e.value, diag::missing_key, "entities must name at least one OWNER or OWNER/ROLE");
        ok = false;
      }
      for (auto item : *items) {
        auto p = read_entity(r, item);
        ok = ok && p.has_value();
        if (p) s.entities.push_back(std::move(*p));
      }
    } else if (e.key == "reason") {
      has_reason = true;
      auto reason = r.string(e.value, "reason");
      if (reason && reason->find_first_not_of(" \t") == std::string::npos) {
        r.error(e.value, diag::missing_key, "reason must say why the finding is accepted, not be blank");
        reason.reset();
      }
      ok = ok && reason.has_value();
      if (reason) s.reason = *reason;
    } else if (e.key == "expires") {
      auto text = r.string(e.value, "expires");
      if (text) s.expires = parse_iso_date(*text);
      if (text && !s.expires) {
        r.error(e.value, diag::invalid_date, "expires must be a date, YYYY-MM-DD, not \"" + *text + "\"");
      }
      ok = ok && s.expires.has_value();
    }
  }
  if (!has_rule) r.error(node, diag::missing_key, "a suppression needs 'rule', the id or name of the rule it accepts");
  if (!has_entities) {
    r.error(node, diag::missing_key, "a suppression needs 'entities', the OWNER or OWNER/ROLE list a finding is about");
  }
  if (!has_reason) r.error(node, diag::missing_key, "a suppression needs 'reason', why the finding is accepted");
  if (ok && has_rule && has_entities && has_reason) out.push_back(std::move(s));
}

}  // namespace

auto read_rule(yaml_reader& r, std::uint32_t node, std::string_view what) -> std::optional<rule> {
  auto text = r.string(node, what);
  if (!text) return std::nullopt;
  if (auto id = find_rule(*text)) return id;
  std::vector<std::string_view> names;
  for (const auto& ri : rule_table()) {
    names.push_back(ri.id);
    names.push_back(ri.name);
  }
  r.error(node, diag::unknown_rule, "unknown rule '" + *text + "'" + did_you_mean(*text, names));
  return std::nullopt;
}

void read_suppressions(yaml_reader& r, std::uint32_t node, std::vector<suppression>& out) {
  if (r.is_null(node)) return;
  auto items = r.sequence(node, "suppressions");
  if (!items) return;
  for (auto item : *items) {
    if (r.exhausted()) return;
    read_suppression(r, item, out);
  }
}

}  // namespace cidrcheck::detail
