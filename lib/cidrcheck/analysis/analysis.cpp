#include <cidrcheck/analysis.hpp>

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/import.hpp>
#include <cidrcheck/io/plan_writer.hpp>
#include <cidrcheck/io/read_file.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace cidrcheck {

namespace {

// The configuration stage every run starts with: its diagnostics go first.
template <class Result>
auto read_configuration(const config_choice& choice, const input_limits& limits, Result& out) -> bool {
  auto cfg = load_run_config(choice, limits);
  out.diagnostics = std::move(cfg.diagnostics);
  out.cfg = std::move(cfg.value);
  if (!has_errors(out.diagnostics)) return true;
  out.status = run_status::configuration_error;
  return false;
}

void append(std::vector<diagnostic>& to, const std::vector<diagnostic>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

// Reads each source as the version has it, named "VERSION:PATH"; a source the
// version lacks is left out.
auto load_version(std::span<const std::string> sources, const catalog& c, const input_limits& limits, bool keep_text,
                  const version_reader& version, run_fleet& out) -> void {
  fleet_loader loader(c, limits);
  std::vector<diagnostic> unreadable;
  std::size_t read = 0;
  for (const auto& spec : sources) {
    // A KIND:FILE source is read at the version by its path, and imported as now, under its NAME.
    auto source = parse_source_spec(spec);
    auto name = version.name + ":" + source.path;
    auto text = version.read(source.path);
    if (!text.error.empty()) {
      unreadable.push_back({severity::error, diag::unreadable, text.error, {name, 0, 0}, {}});
      continue;
    }
    if (!text.text) continue;
    ++read;
    if (source.kind) {
      loader.add_import_text(*source.kind, *text.text, name, source.cluster);
    } else {
      if (keep_text && sources.size() == 1) out.source.text = source_text{*text.text, name};
      loader.add_text(*text.text, name);
    }
  }
  if (!unreadable.empty()) {
    out.loaded.diagnostics = std::move(unreadable);
    return;
  }
  if (read == 0) {
    out.absent = true;
    return;
  }
  out.loaded = loader.finish();
}

}  // namespace

auto locate_run_config(const config_choice& choice) -> config_location {
  config_location out;
  if (choice.file) {
    out.path = choice.file;
    return out;
  }
  if (choice.none) return out;
  const char* named = choice.environment ? std::getenv(config_environment_variable) : nullptr;
  if (named != nullptr && *named != '\0') {
    // A FIFO or a directory would block or fail the run later: say what is wrong with the variable itself.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(named, ec)) {
      out.problem = diagnostic{severity::error, diag::unreadable,
                               std::string(config_environment_variable) + " is '" + named +
                                   "', which is no readable file",
                               {}, {}};
      return out;
    }
    out.path = named;
    return out;
  }
  if (auto found = find_config(choice.start)) {
    // find_config() answers relative to start; the CLI's start "." keeps the short name.
    const std::filesystem::path path(*found);
    out.path = (path.is_relative() && choice.start != "." ? std::filesystem::path(choice.start) / path : path).string();
  }
  return out;
}

auto load_run_config(const config_choice& choice, const input_limits& limits) -> config_load_result {
  auto location = locate_run_config(choice);
  if (location.problem) {
    config_load_result out;
    out.diagnostics.push_back(std::move(*location.problem));
    return out;
  }
  if (!location.path) return {};
  return load_config(*location.path, limits);
}

auto expand_inputs(std::span<const std::string> operands, const config& cfg) -> std::vector<std::string> {
  const std::span<const std::string> given = operands.empty() ? std::span<const std::string>(cfg.inputs) : operands;
  std::vector<std::string> out;
  for (const auto& path : given) {
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_directory(path, ec)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      auto ext = entry.path().extension();
      if (entry.is_regular_file(ec) && (ext == ".yaml" || ext == ".yml")) found.push_back(entry.path().string());
    }
    // An empty directory stays in the list, so reading it reports "is a directory".
    if (found.empty()) found.push_back(path);
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

auto resolve_policy(const config& cfg, std::optional<fail_threshold> fail_on, std::optional<severity> min_severity)
    -> report_policy {
  report_policy out;
  out.fail_on = fail_on ? *fail_on : cfg.fail_on.value_or(fail_threshold{severity::error});
  out.min_severity = min_severity ? *min_severity : cfg.min_severity.value_or(severity::note);
  return out;
}

auto judgement_for(const config& cfg, std::span<const suppression> fleet_suppressions,
                   calendar_date today) -> judgement {
  judgement j{catalog_for(cfg), cfg.rules, cfg.suppressions, today};
  j.suppressions.insert(j.suppressions.end(), fleet_suppressions.begin(), fleet_suppressions.end());
  return j;
}

auto analyse(const fleet& f, const judgement& j, const check_options& options) -> analysis {
  // The overlap findings stay without text until a report reads them (findings_view);
  // the suppressed ones are few, and are reported from here.
  auto checking = options;
  checking.describe_overlaps = false;
  analysis out;
  out.triaged = triage(f, check(f, j.cat, checking), j.triage());
  if (options.describe && options.describe_overlaps && !out.triaged.suppressed.empty()) {
    const overlap_describer describer(f, j.cat);
    for (auto& x : out.triaged.suppressed) describer.describe(x.value);
  }
  out.fingerprints = fingerprints(f, out.triaged.findings);
  return out;
}

auto shown_findings(const fleet& f, const catalog& c, const analysis& found, const selection& shown) -> findings_view {
  return {found.triaged.findings, found.fingerprints, shown.indexes, std::make_shared<const overlap_describer>(f, c)};
}

auto all_findings(const fleet& f, const catalog& c, const analysis& found) -> findings_view {
  return {found.triaged.findings, found.fingerprints, std::make_shared<const overlap_describer>(f, c)};
}

auto select(std::span<const finding> findings, std::span<const std::string> fingerprints, const report_policy& policy,
            const std::unordered_set<std::string>& baseline) -> selection {
  selection out;
  for (std::size_t k = 0; k < findings.size(); ++k) {
    const auto& x = findings[k];
    if (baseline.count(fingerprints[k]) != 0) {
      ++out.baselined;
      continue;
    }
    out.fails = out.fails || policy.fail_on.fails(x.level);
    if (x.level < policy.min_severity) {
      ++out.below_minimum;
      continue;
    }
    out.indexes.push_back(static_cast<std::uint32_t>(k));
  }
  return out;
}

auto load_run_fleet(std::span<const std::string> sources, std::span<const source_text> texts, const catalog& c,
                    const input_limits& limits, bool keep_text, const version_reader* version) -> run_fleet {
  run_fleet out;
  out.source.sources.assign(sources.begin(), sources.end());
  out.source.texts.assign(texts.begin(), texts.end());
  if (version) {
    load_version(sources, c, limits, keep_text, *version, out);
    return out;
  }
  fleet_loader loader(c, limits);
  if (keep_text && texts.empty() && sources.size() == 1 && !parse_source_spec(sources[0]).kind) {
    // Read it here to keep the text; a file that cannot be read is left to the loader to report.
    auto file = read_file(sources[0], limits.max_file_bytes, "max-file-bytes");
    if (file.error.empty()) out.source.text = source_text{std::move(file.text), display_name(sources[0])};
  } else if (keep_text && sources.empty() && texts.size() == 1) {
    out.source.text = texts[0];
  }
  if (out.source.text) {
    loader.add_text(out.source.text->text, out.source.text->name);
  } else {
    for (const auto& spec : sources) loader.add_source(spec);
    for (const auto& t : texts) loader.add_text(t.text, t.name);
  }
  out.loaded = loader.finish();
  return out;
}

auto analyse_fleet(const config& cfg, const fleet_load_result& loaded, const run_request& request) -> run_verdict {
  run_verdict out;
  out.policy = resolve_policy(cfg, request.fail_on, request.min_severity);
  out.judged = judgement_for(cfg, loaded.suppressions, request.today);
  out.found = analyse(loaded.value, out.judged, request.checking);
  const std::unordered_set<std::string> baseline(request.baseline.begin(), request.baseline.end());
  out.shown = select(out.found.triaged.findings, out.found.fingerprints, out.policy, baseline);
  return out;
}

auto load_run(const run_request& request, const version_reader* version) -> run_result {
  run_result out;
  if (!read_configuration(request.configuration, request.limits, out)) return out;
  out.policy = resolve_policy(out.cfg, request.fail_on, request.min_severity);
  out.inputs = expand_inputs(request.inputs, out.cfg);
  if (out.inputs.empty()) {
    out.status = run_status::no_inputs;
    return out;
  }
  out.judged = judgement_for(out.cfg, {}, request.today);
  auto read = load_run_fleet(out.inputs, {}, out.judged.cat, request.limits, false, version);
  out.loaded = std::move(read.loaded);
  out.source = std::move(read.source);
  append(out.diagnostics, out.loaded.diagnostics);
  if (read.absent) {
    out.status = run_status::absent;
    return out;
  }
  if (!out.loaded.ok()) {
    out.status = run_status::load_error;
    return out;
  }
  out.judged.suppressions.insert(out.judged.suppressions.end(), out.loaded.suppressions.begin(),
                                 out.loaded.suppressions.end());
  out.status = run_status::done;
  return out;
}

auto analyse_run(const run_request& request, const version_reader* version) -> run_result {
  auto out = load_run(request, version);
  if (!out.ok()) return out;
  auto verdict = analyse_fleet(out.cfg, out.loaded, request);
  out.judged = std::move(verdict.judged);
  out.found = std::move(verdict.found);
  out.shown = std::move(verdict.shown);
  return out;
}

auto write_planned_yaml(const fleet_load_result& loaded, const fleet_source& source, const planned& p,
                        const input_limits& limits, const std::string& yaml_name) -> planned_yaml {
  const fleet& f = loaded.value;
  planned_yaml out;
  fleet_loader reread(p.judged.cat, limits);
  if (source.text) {
    out.text = apply_plan_to_text(source.text->text, source.text->name, f, p.result);
    reread.add_text(out.text, source.text->name);
  } else {
    // Several sources, or an import: the changes alone, which check reads beside the same sources.
    out.overlay = true;
    std::vector<std::string> header{"The changes `cidrcheck plan` proposes for the fleet read from:"};
    for (const auto& s : source.sources) header.push_back("  " + s);
    for (const auto& t : source.texts) header.push_back("  " + t.name);
    header.push_back("Check the planned fleet with the same sources and this file after them:");
    header.push_back("  cidrcheck check SOURCES... THIS-FILE");
    out.text = write_plan_overlay(f, p.result, header);
    for (const auto& s : source.sources) reread.add_source(s);
    for (const auto& t : source.texts) reread.add_text(t.text, t.name);
    reread.add_text(out.text, yaml_name);
  }
  // The written file must say what the plan says: read it back and check it.
  auto again = reread.finish();
  bool errors_left = false;
  for (const auto& x : plan_check(again.value, p.judged.cat, p.options)) {
    errors_left = errors_left || x.level == severity::error;
  }
  if (!again.ok() ||
      (p.result.complete() && errors_left && p.options.connect.empty() && p.judged.suppressions.empty())) {
    throw std::logic_error("the planned fleet file does not read back clean");
  }
  return out;
}

namespace {

// Runs every runbook of plan p of fleet f through the simulator, as plan() judges
// findings, and keeps each verdict beside its steps: on its operation, or on the
// change outside any operation that has a runbook of its own (plan_runbooks'
// order: operations, then those changes).
void simulate_plan(const fleet& f, plan_result& p, const catalog& c, const plan_options& options) {
  const auto books = plan_runbooks(f, p, c);
  const auto after = apply_plan(f, p);
  simulation_context context{&f, &after, &c, options.check, options.triage};
  auto results = simulate_runbooks(context, books);
  std::size_t next = 0;
  for (auto& op : p.operations) op.simulation = std::move(results[next++]);
  for (auto& change : p.changes) {
    if (!change.operation) change.simulation = std::move(results[next++]);
  }
}

}  // namespace

auto plan_fleet(const config& cfg, const fleet_load_result& loaded, const fleet_source& source,
                const plan_run_request& request) -> planned {
  const fleet& f = loaded.value;
  planned out;
  out.judged = judgement_for(cfg, loaded.suppressions, request.run.today);
  auto options = request.options;
  options.checking = request.run.checking;
  out.options = plan_options_for(f, options, out.judged);
  out.result = plan(f, out.judged.cat, out.options);
  simulate_plan(f, out.result, out.judged.cat, out.options);
  if (request.yaml) out.yaml = write_planned_yaml(loaded, source, out, request.run.limits, request.yaml_name);
  if (request.runbooks) out.runbooks = runbook_files(f, out.result, out.judged.cat);
  if (request.remaining) {
    // What is left, in the fleet as planned with the what-if connections.
    out.after = apply_plan(f, out.result);
    out.seen = *out.after;
    out.seen->connections.insert(out.seen->connections.end(), out.options.connect.begin(), out.options.connect.end());
    out.remaining = analyse(*out.seen, out.judged, out.options.check);
  }
  return out;
}

auto plan_run(const plan_run_request& request) -> plan_run_result {
  plan_run_result out;
  const auto& run = request.run;
  if (!read_configuration(run.configuration, run.limits, out)) return out;
  out.inputs = expand_inputs(run.inputs, out.cfg);
  if (out.inputs.empty()) {
    out.status = run_status::no_inputs;
    return out;
  }
  // The options that need no fleet are judged before it is read.
  plan_options_for(request.options);
  auto read = load_run_fleet(out.inputs, {}, catalog_for(out.cfg), run.limits, request.yaml);
  out.loaded = std::move(read.loaded);
  out.source = std::move(read.source);
  append(out.diagnostics, out.loaded.diagnostics);
  if (!out.loaded.ok()) {
    out.status = run_status::load_error;
    return out;
  }
  try {
    out.plan = plan_fleet(out.cfg, out.loaded, out.source, request);
  } catch (const plan_text_error& e) {  // a construct of the fleet file the plan cannot rewrite
    out.diagnostics.push_back({severity::error, diag::cannot_rewrite, e.what(), e.where(), {}});
    out.status = run_status::load_error;
    return out;
  }
  append(out.diagnostics, out.plan->result.diagnostics);
  out.status = run_status::done;
  return out;
}

}  // namespace cidrcheck
