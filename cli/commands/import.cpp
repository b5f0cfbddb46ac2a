// cidrcheck import KIND FILE... | SOURCE...: write a fleet file from what other tools export.

#include "analysis.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "options.hpp"
#include "output.hpp"

#include <algorithm>
#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/fleet_writer.hpp>
#include <cidrcheck/io/import.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

auto import_description() -> std::string {
  std::string text =
      "Reads what other tools export and prints it as one fleet file (docs/fleet-format.md),\n"
      "each value followed by a comment naming the file:line:column it was read from.\n"
      "Give a KIND and its files, or sources written KIND:FILE (fleet files too); the\n"
      "same owner from several sources is merged. cidrcheck never calls an API.\n"
      "\n"
      "Kinds (docs/import.md):\n";
  std::size_t width = 0;
  for (const auto& k : import_kinds()) width = std::max(width, k.name.size() + 2);
  for (const auto& k : import_kinds()) {
    text += "  " + std::string(k.name) + std::string(width - k.name.size(), ' ') + std::string(k.command) + "\n";
  }
  text +=
      "\n"
      "Exit codes: 0 written, 1 written but sources disagree (each disagreement is a\n"
      "warning on standard error and a comment in the file), 2 an input cannot be read\n"
      "(nothing is written), 3 internal error.";
  return text;
}

}  // namespace

auto import_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "import";
  c.summary = "write a fleet file from cloud, Kubernetes, Terraform and Tailscale exports";
  c.usage = "import [OPTIONS] KIND FILE...\n       cidrcheck import [OPTIONS] KIND:FILE|FLEET...";
  c.description = import_description();
  c.options.add_options()
    ("help,h", "show this help and exit")
    ("output,o", po::value<std::string>()->value_name("FILE"),
     "write the fleet file to FILE (atomically: all of it or nothing) instead of standard output")
    ("cluster", po::value<std::string>()->value_name("NAME"),
     "the cluster the files describe, for the kinds whose exports name none (Kubernetes objects, kubeadm files; "
     "else each file's name is the cluster's; as a source: KIND=NAME:FILE)");
  add_limit_options(c.options);
  add_findings_limit_option(c.options);
  c.values.push_back({"output", {}});
  c.values.push_back({"cluster", {}});
  c.operands = operand_kind::words;
  for (const auto& k : import_kinds()) c.operand_words.emplace_back(k.name);
  return out;
}

auto run_import(std::span<const std::string> args) -> int {
  const auto c = import_interfaces().front();
  const std::string& help = c.name;
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  auto inputs = operands(vm);
  const auto output_path = vm.count("output") ? vm["output"].as<std::string>() : std::string();
  const auto limits = limits_of(vm);
  const auto checking = check_options_of(vm);
  if (inputs.empty()) throw usage_error("no sources (give a KIND and its files, or KIND:FILE)", help);

  // "import KIND FILE...", or every argument a source of its own.
  std::vector<std::string> sources;
  const auto cluster = vm.count("cluster") ? vm["cluster"].as<std::string>() : std::string();
  if (auto kind = find_import_kind(inputs.front())) {
    if (inputs.size() == 1) throw usage_error("no files of kind " + inputs.front(), help);
    if (vm.count("cluster") && (cluster.empty() || !names_cluster_after_file(*kind))) {
      throw usage_error(cluster.empty() ? "--cluster needs a name"
                                        : "--cluster names the cluster of exports that name none; " +
                                              inputs.front() + " exports name their own",
                        help);
    }
    auto named = inputs.front() + (cluster.empty() ? "" : "=" + cluster);
    for (std::size_t k = 1; k < inputs.size(); ++k) sources.push_back(named + ":" + inputs[k]);
  } else {
    if (vm.count("cluster")) {
      throw usage_error("--cluster goes with `import KIND FILE...`; name a source's cluster as KIND=NAME:FILE", help);
    }
    const auto& first = inputs.front();
    auto spec = parse_source_spec(first);
    bool bare_word = !spec.kind && first.find_first_of(":./") == std::string::npos && !std::filesystem::exists(first);
    if (bare_word) {
      std::vector<std::string_view> names;
      for (const auto& k : import_kinds()) names.push_back(k.name);
      throw usage_error("unknown kind '" + first + "'" + detail::did_you_mean(first, names), help);
    }
    sources = inputs;
  }

  refuse_input_as_output(output_path, sources, help);

  const catalog& cat = builtin_catalog();
  fleet_loader loader(cat, limits);
  for (const auto& s : sources) loader.add_source(s);
  auto loaded = loader.finish();
  for (const auto& d : loaded.diagnostics) std::cerr << format_diagnostic(d);
  if (!loaded.ok()) return exit_trouble;

  // Disagreements between sources: the findings check() reports, as warnings here.
  std::size_t conflicts = 0;
  for (const auto& x : check(loaded.value, cat, checking)) {
    if (x.id != rule::source_conflict) continue;
    ++conflicts;
    std::cerr << format_diagnostic({severity::warning, std::string(info(x.id).name), x.message + " [source-conflict]",
                                    loaded.value.ranges[x.ranges.front()].where, {}});
  }

  std::vector<std::string> header{"A fleet file written by `cidrcheck import` from:"};
  for (const auto& s : sources) header.push_back("  " + s);
  header.push_back("Each value names the file:line:column it was read from. Ranges a distribution or");
  header.push_back("network type brings are left out: `cidrcheck check` fills them in again.");
  auto text = write_fleet_yaml(loaded.value, header, loaded.suppressions);
  if (!write_output(output_path, [&](output& out) { out.write(text); })) return exit_trouble;
  return conflicts > 0 ? exit_findings : exit_ok;
}

}  // namespace cidrcheck::cli
