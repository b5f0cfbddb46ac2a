#include <cidrcheck/analysis.hpp>

#include <cidrcheck/fleet/fingerprint.hpp>

#include <algorithm>
#include <filesystem>

namespace cidrcheck {

auto load_run_config(const config_choice& choice, const input_limits& limits) -> config_load_result {
  std::optional<std::string> path = choice.file;
  if (!path && !choice.none) {
    if (auto found = find_config(choice.start)) {
      // find_config() answers relative to start; the CLI's start "." keeps the short name.
      path = (found->is_relative() && choice.start != "." ? std::filesystem::path(choice.start) / *found : *found)
                 .string();
    }
  }
  if (!path) return {};
  return load_config(*path, limits);
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
                   std::chrono::year_month_day today) -> judgement {
  judgement j{catalog_for(cfg), cfg.rules, cfg.suppressions, today};
  j.suppressions.insert(j.suppressions.end(), fleet_suppressions.begin(), fleet_suppressions.end());
  return j;
}

auto analyse(const fleet& f, const judgement& j, const check_options& options) -> analysis {
  analysis out;
  out.triaged = triage(f, check(f, j.cat, options), j.triage());
  out.fingerprints = fingerprints(f, out.triaged.findings);
  return out;
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
    out.findings.push_back(x);
    out.fingerprints.push_back(fingerprints[k]);
  }
  return out;
}

auto analyse_run(const run_request& request) -> run_result {
  run_result out;
  auto cfg = load_run_config(request.configuration, request.limits);
  out.diagnostics = std::move(cfg.diagnostics);
  out.cfg = std::move(cfg.value);
  if (has_errors(out.diagnostics)) return out;
  out.policy = resolve_policy(out.cfg, request.fail_on, request.min_severity);
  out.inputs = expand_inputs(request.inputs, out.cfg);
  if (out.inputs.empty()) return out;
  out.judged = judgement_for(out.cfg, {}, request.today);
  out.loaded = load_fleet(out.inputs, out.judged.cat, request.limits);
  out.diagnostics.insert(out.diagnostics.end(), out.loaded.diagnostics.begin(), out.loaded.diagnostics.end());
  if (!out.loaded.ok()) return out;
  out.judged.suppressions.insert(out.judged.suppressions.end(), out.loaded.suppressions.begin(),
                                 out.loaded.suppressions.end());
  out.found = analyse(out.loaded.value, out.judged, request.checking);
  out.shown = select(out.found.triaged.findings, out.found.fingerprints, out.policy, request.baseline);
  return out;
}

}  // namespace cidrcheck
