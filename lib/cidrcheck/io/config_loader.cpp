#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/import.hpp>

#include <cidrcheck/io/read_file.hpp>
#include "suppression_reader.hpp"
#include "yaml_document.hpp"
#include "yaml_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace cidrcheck {

namespace detail {
extern const char starter_config_yaml[];
}

namespace {

using detail::yaml_reader;

constexpr std::string_view rule_levels[] = {"error", "warning", "note", "off"};
constexpr std::string_view thresholds[] = {"error", "warning", "note", "never"};

void read_rules(yaml_reader& r, std::uint32_t node, std::vector<rule_override>& out) {
  if (r.is_null(node)) return;
  auto entries = r.mapping(node, "rules");
  if (!entries) return;
  for (const auto& e : *entries) {
    auto id = detail::read_rule(r, e.key_node, "a rule");
    auto text = r.string(e.value, "the setting of a rule");
    if (!id || !text) continue;
    if (*text == "off") {
      out.push_back({*id, std::nullopt});
    } else if (auto level = parse_severity(*text)) {
      out.push_back({*id, *level});
    } else {
      r.error(e.value, diag::invalid_value,
              "a rule's setting is error, warning, note or off, not '" + *text + "'" +
                  detail::did_you_mean(*text, rule_levels));
    }
  }
}

void read_reserved(yaml_reader& r, std::uint32_t node, const std::string& file, std::vector<catalog_block>& out) {
  if (r.is_null(node)) return;
  auto items = r.sequence(node, "reserved");
  if (!items) return;
  for (auto item : *items) {
    auto entries = r.mapping(item, "a reserved range");
    if (!entries) continue;
    r.only_keys(*entries, {"cidr", "name", "source"}, "a reserved range");
    catalog_block b;
    b.rule = "reserved-range";
    b.source = to_string(r.where(item));
    bool has_cidr = false;
    std::optional<prefix> cidr;
    for (const auto& e : *entries) {
      if (e.key == "cidr") {
        has_cidr = true;
        cidr = r.cidr(e.value, "cidr");
      } else if (e.key == "name") {
        if (auto v = r.string(e.value, "name")) b.name = *v;
      } else if (e.key == "source") {
        if (auto v = r.string(e.value, "source")) b.source = *v;
      }
    }
    if (!has_cidr) r.error(item, diag::missing_key, "a reserved range needs 'cidr'");
    if (!cidr) continue;
    b.cidr = *cidr;
    if (b.name.empty()) b.name = "the range reserved in " + file;
    out.push_back(std::move(b));
  }
}

// The tree a configuration in `directory` may read: the git working tree that
// holds it (the nearest directory upward with a `.git`, as find_config() stops
// there), else the directory itself; absolute, links resolved.
auto configuration_tree(const std::filesystem::path& directory) -> std::filesystem::path {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto start = fs::weakly_canonical(fs::absolute(directory.empty() ? fs::path(".") : directory, ec), ec);
  for (auto dir = start;; dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec)) return dir;
    if (dir == dir.parent_path()) return start;
  }
}

auto lies_in(const std::filesystem::path& root, const std::filesystem::path& p) -> bool {
  auto rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// Returns why a configuration in `directory` may not read path (nullopt: it may):
// the file it leads to, links followed, must lie in the configuration's tree. A
// pull request controls .cidrcheck.yaml, so its inputs could otherwise name any
// file the CI job can read (/proc/self/environ, ~/.aws/credentials).
auto outside_problem(const std::filesystem::path& directory, const std::filesystem::path& tree,
                     const std::string& path) -> std::optional<std::string> {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto target = fs::weakly_canonical(fs::absolute(directory / path, ec), ec);
  if (ec || !lies_in(tree, target)) return std::string("it leads to ") + target.string();
  if (fs::is_directory(target, ec)) {
    // A directory stands for its fleet files (expand_inputs()): each of them is read too.
    for (const auto& entry : fs::directory_iterator(target, ec)) {
      auto ext = entry.path().extension();
      if (ext != ".yaml" && ext != ".yml") continue;
      auto file = fs::weakly_canonical(entry.path(), ec);
      if (ec || !lies_in(tree, file)) return "its file " + entry.path().filename().string() + " leads to " + file.string();
    }
  }
  return std::nullopt;
}

void read_inputs(yaml_reader& r, std::uint32_t node, const std::filesystem::path& directory,
                 std::vector<std::string>& out) {
  auto items = r.list(node, "inputs");
  if (!items) return;
  std::optional<std::filesystem::path> tree;
  for (auto item : *items) {
    auto text = r.string(item, "an input");
    if (!text) continue;
    // KIND:FILE and KIND=NAME:FILE keep their kind and name; only the file is resolved against
    // the configuration's directory ("./aws-vpcs:x.json" would be a fleet file of that odd name).
    auto source = parse_source_spec(*text);
    std::filesystem::path p(source.path);
    auto path = p.is_absolute() ? p.string() : (directory / p).lexically_normal().string();
    if (source.path != "-") {
      if (!tree) tree = configuration_tree(directory);
      if (auto why = outside_problem(directory, *tree, source.path)) {
        r.error(item, diag::outside_configuration,
                "input '" + source.path + "' is outside " + tree->string() + ", the tree of the configuration (" +
                    *why + "): a configuration reads only files in its own tree; name the file on the command line "
                    "to read it");
        continue;
      }
    } else {
      path = source.path;
    }
    if (!source.kind) {
      out.push_back(path);
      continue;
    }
    auto spec = std::string(info(*source.kind).name);
    if (!source.cluster.empty()) spec += "=" + source.cluster;
    out.push_back(spec + ":" + path);
  }
}

auto read_threshold(yaml_reader& r, std::uint32_t node) -> std::optional<fail_threshold> {
  auto text = r.string(node, "fail-on");
  if (!text) return std::nullopt;
  auto t = fail_threshold::parse(*text);
  if (!t) {
    r.error(node, diag::invalid_value,
            "fail-on is error, warning, note or never, not '" + *text + "'" + detail::did_you_mean(*text, thresholds));
  }
  return t;
}

auto read_severity(yaml_reader& r, std::uint32_t node) -> std::optional<severity> {
  auto text = r.string(node, "min-severity");
  if (!text) return std::nullopt;
  auto s = parse_severity(*text);
  if (!s) {
    r.error(node, diag::invalid_value,
            "min-severity is error, warning or note, not '" + *text + "'" + detail::did_you_mean(*text, rule_levels));
  }
  return s;
}

}  // namespace

auto parse_config(std::string_view text, const std::string& name, std::string_view directory_text,
                  const input_limits& limits) -> config_load_result {
  const std::filesystem::path directory(directory_text);
  config_load_result out;
  out.value.file = name;
  auto doc = detail::parse_yaml(text, name, detail::yaml_limits_of(limits), out.diagnostics);
  if (!out.ok()) return out;
  yaml_reader r(doc, name, out.diagnostics, limits.max_nodes, limits.max_errors);
  for (auto root : doc.roots) {
    if (r.is_null(root)) continue;
    auto top = r.mapping(root, "a configuration file");
    if (!top) continue;
    r.only_top_level_keys(*top, {"version", "inputs", "fail-on", "min-severity", "rules", "reserved", "suppressions"},
                "the configuration file");
    for (const auto& e : *top) {
      if (e.key == "version") {
        auto v = r.integer(e.value, 0, 1'000'000, "version");
        if (v && *v != 1) {
          r.error(e.value, diag::version,
                  "unsupported configuration version " + std::to_string(*v) + "; this cidrcheck reads version 1");
        }
      } else if (e.key == "inputs") {
        read_inputs(r, e.value, directory, out.value.inputs);
      } else if (e.key == "fail-on") {
        out.value.fail_on = read_threshold(r, e.value);
      } else if (e.key == "min-severity") {
        out.value.min_severity = read_severity(r, e.value);
      } else if (e.key == "rules") {
        read_rules(r, e.value, out.value.rules);
      } else if (e.key == "reserved") {
        read_reserved(r, e.value, name, out.value.reserved);
      } else if (e.key == "suppressions") {
        detail::read_suppressions(r, e.value, out.value.suppressions);
      }
    }
  }
  // Report in reading order: by line and column (only_keys reports a mapping's keys
  // first), and what concerns the whole file (line 0: too many errors) last.
  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(), [](const diagnostic& a, const diagnostic& b) {
    return std::tuple(a.where.line == 0, a.where.line, a.where.column) <
           std::tuple(b.where.line == 0, b.where.line, b.where.column);
  });
  return out;
}

auto load_config(const std::string& path, const input_limits& limits) -> config_load_result {
  auto file = read_file(path, limits.max_file_bytes, "max-file-bytes");
  if (!file.error.empty()) {
    config_load_result out;
    out.value.file = path;
    out.diagnostics.push_back({severity::error, diag::unreadable, file.error, {path, 0, 0}, {}});
    return out;
  }
  return parse_config(file.text, path, std::filesystem::path(path).parent_path().string(), limits);
}

auto find_config(std::string_view start) -> std::optional<std::string> {
  std::error_code ec;
  auto base = std::filesystem::weakly_canonical(std::filesystem::absolute(std::filesystem::path(start), ec), ec);
  if (ec) return std::nullopt;
  for (auto dir = base;; dir = dir.parent_path()) {
    for (auto name : config_file_names) {
      auto candidate = dir / name;
      if (std::filesystem::is_regular_file(candidate, ec)) {
        auto relative = candidate.lexically_relative(base);
        return (relative.empty() ? candidate : relative).string();
      }
    }
    if (std::filesystem::exists(dir / ".git", ec) || dir == dir.parent_path()) return std::nullopt;
  }
}

auto catalog_for(const config& cfg) -> catalog {
  catalog c = builtin_catalog();
  c.blocks.insert(c.blocks.end(), cfg.reserved.begin(), cfg.reserved.end());
  return c;
}

auto starter_config() -> std::string_view { return detail::starter_config_yaml; }

}  // namespace cidrcheck
