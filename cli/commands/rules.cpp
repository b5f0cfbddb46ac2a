// cidrcheck rules | explain RULE: the rules as data, from the rule table and
// the documentation pages compiled in from docs/rules/.

#include "app.hpp"
#include "output.hpp"
#include "report/report.hpp"

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/fleet/rule_docs.hpp>
#include <cidrcheck/fleet/rules.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace po = boost::program_options;

namespace cidrcheck::cli {

auto rules_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "rules";
  c.summary = "list every rule: id, name, default severity, what it catches";
  c.usage = "rules [OPTIONS]";
  c.description =
      "Lists every rule with its stable id, its name (either is accepted wherever a rule\n"
      "is named), its default severity and what it catches. 'cidrcheck explain RULE'\n"
      "prints a rule's documentation.";
  c.options.add_options()
    ("help,h", "show this help and exit")
    ("format,f", po::value<std::string>()->value_name("FORMAT")->default_value("text"), "text or json");
  c.values.push_back({"format", {"text", "json"}});
  return out;
}

auto run_rules(std::span<const std::string> args) -> int {
  const auto c = rules_interfaces().front();
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  const auto& format = vm["format"].as<std::string>();
  output out;
  if (format == "json") {
    auto list = nlohmann::ordered_json::array();
    for (const auto& r : rule_table()) {
      list.push_back({{"id", r.id},
                      {"name", r.name},
                      {"severity", to_string(r.default_severity)},
                      {"summary", r.summary},
                      {"help_uri", rule_help_uri(r.value)}});
    }
    out.write(list.dump(2) + "\n");
  } else if (format == "text") {
    // Columns as wide as their widest entry (the headings included), two blanks apart.
    std::size_t id_width = 2, width = 4, level_width = 7;
    for (const auto& r : rule_table()) {
      id_width = std::max(id_width, r.id.size());
      width = std::max(width, r.name.size());
      level_width = std::max(level_width, to_string(r.default_severity).size());
    }
    auto row = [&](std::string_view id, std::string_view name, std::string_view level, std::string_view summary) {
      out.write(std::string(id) + std::string(id_width + 2 - id.size(), ' ') + std::string(name) +
                std::string(width + 2 - name.size(), ' ') + std::string(level) +
                std::string(level_width + 2 - level.size(), ' ') + std::string(summary) + "\n");
    };
    row("ID", "NAME", "DEFAULT", "WHAT IT CATCHES");
    for (const auto& r : rule_table()) row(r.id, r.name, to_string(r.default_severity), r.summary);
  } else {
    throw usage_error("unknown format '" + format + "' (text or json)", c.name);
  }
  return out.flush() ? exit_ok : exit_trouble;
}

auto explain_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "explain";
  c.summary = "print a rule's documentation: what, why, how to fix, when to suppress";
  c.usage = "explain RULE";
  c.description =
      "Prints the documentation of RULE (an id such as CIDR101 or a name such as\n"
      "overlap): what it catches, why it breaks routing, how to fix it and when\n"
      "suppressing it is legitimate. It is the text of docs/rules/NAME.md and of the\n"
      "rule's help in SARIF reports.";
  c.options.add_options()("help,h", "show this help and exit");
  c.operands = operand_kind::words;
  for (const auto& r : rule_table()) {
    c.operand_words.emplace_back(r.id);
    c.operand_words.emplace_back(r.name);
  }
  return out;
}

auto run_explain(std::span<const std::string> args) -> int {
  const auto c = explain_interfaces().front();
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  auto names = operands(vm);
  if (names.size() != 1) throw usage_error("explain takes one rule, an id or a name ('cidrcheck rules' lists them)", c.name);
  auto id = find_rule(names[0]);
  if (!id) {
    std::vector<std::string_view> known(c.operand_words.begin(), c.operand_words.end());
    throw usage_error("unknown rule '" + names[0] + "'" + detail::did_you_mean(names[0], known) +
                          "; 'cidrcheck rules' lists them",
                      c.name);
  }
  output out;
  out.write(rule_documentation(*id));
  return out.flush() ? exit_ok : exit_trouble;
}

}  // namespace cidrcheck::cli
