#include "yaml_reader.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include "too_many_errors.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <unordered_map>

namespace cidrcheck::detail {

// Finds a mapping's entries by key: a linear search while the mapping is small,
// as nearly all are, and a hash index once it is large (a hostile file may hold
// a million keys, and a search per key would take hours).
class yaml_reader::key_index {
 public:
  explicit key_index(const std::vector<entry>& entries) : entries_(entries) {}

  auto find(std::string_view key) -> const entry* {
    if (entries_.size() < 16) {
      auto it = std::find_if(entries_.begin(), entries_.end(), [&](const entry& e) { return e.key == key; });
      return it == entries_.end() ? nullptr : &*it;
    }
    for (; indexed_ < entries_.size(); ++indexed_) index_.emplace(entries_[indexed_].key, indexed_);
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &entries_[it->second];
  }

 private:
  const std::vector<entry>& entries_;  // grows between calls; the index catches up
  std::unordered_map<std::string_view, std::size_t> index_;
  std::size_t indexed_ = 0;
};

yaml_reader::yaml_reader(const yaml_document& doc, std::string file, std::vector<diagnostic>& out,
                         std::size_t visit_budget, std::size_t max_errors)
    : doc_(doc), file_(std::move(file)), out_(out), budget_(visit_budget), max_errors_(max_errors) {
  auto earlier = static_cast<std::size_t>(
      std::count_if(out.begin(), out.end(), [](const diagnostic& d) { return d.level == severity::error; }));
  errors_left_ = max_errors > earlier ? max_errors - earlier : 0;
  exhausted_ = errors_left_ == 0;
}

auto yaml_reader::where(std::uint32_t k) const -> source_location { return {file_, doc_[k].line, doc_[k].column}; }

void yaml_reader::report(severity level, std::uint32_t k, std::string code, std::string message,
                         std::vector<diagnostic> notes) {
  add({level, std::move(code), std::move(message), where(k), std::move(notes)});
}

void yaml_reader::add(diagnostic d) {
  if (errors_left_ == 0) return;  // stopped: one more error would only repeat the cause
  bool error = d.level == severity::error;
  out_.push_back(std::move(d));
  if (error && --errors_left_ == 0) {
    exhausted_ = true;
    out_.push_back(too_many_errors(max_errors_, {file_, 0, 0}));
  }
}

auto yaml_reader::note_at(std::uint32_t k, std::string message) const -> diagnostic {
  return {severity::note, "", std::move(message), where(k), {}};
}

auto yaml_reader::visit(std::uint32_t k) -> bool {
  if (exhausted_) return false;
  if (budget_ == 0) {
    exhausted_ = true;
    error(k, diag::limit, "walking the document visits more than the max-nodes limit of nodes (aliases count each time "
                      "they are used)");
    return false;
  }
  --budget_;
  return true;
}

auto yaml_reader::type_name(std::uint32_t k) const -> std::string {
  const auto& n = doc_[k];
  switch (n.kind) {
    case yaml_kind::sequence: return "a list";
    case yaml_kind::mapping: return "a mapping";
    case yaml_kind::scalar: break;
  }
  if (is_null(k)) return "nothing";
  // A document that is one scalar is a file of another format (any file a source
  // or a configuration names): quote it only as much as detail::excerpt() allows.
  auto text = doc_.value(k);
  if (std::find(doc_.roots.begin(), doc_.roots.end(), k) != doc_.roots.end()) return detail::excerpt(text);
  return "\"" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "..." : "") + "\"";
}

auto yaml_reader::expect(std::uint32_t k, yaml_kind kind, std::string_view what) -> bool {
  if (!visit(k)) return false;
  if (doc_[k].kind == kind) return true;
  std::string_view wanted = kind == yaml_kind::mapping ? "a mapping" : kind == yaml_kind::sequence ? "a list" : "a value";
  error(k, diag::type, std::string(what) + " must be " + std::string(wanted) + ", not " + type_name(k));
  return false;
}

auto yaml_reader::is_null(std::uint32_t k) const -> bool {
  const auto& n = doc_[k];
  if (n.kind != yaml_kind::scalar || n.quoted) return false;
  auto text = doc_.value(k);
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

void yaml_reader::merge_into(const entry& merge, std::vector<entry>& out, key_index& keys) {
  // A merged mapping may merge another in turn, and aliases let a short file chain
  // thousands of them, each a level of recursion here: the chain counts against
  // max-depth as nesting does, so that it cannot exhaust the stack.
  if (merge_depth_ == doc_.max_depth) {
    error(merge.key_node, diag::limit,
          "merge keys (<<) nest deeper than the max-depth limit of " + std::to_string(doc_.max_depth) + " levels");
    return;
  }
  ++merge_depth_;
  // A merge value is a mapping or a list of mappings; earlier ones win.
  auto k = merge.value;
  auto sources =
      doc_[k].kind == yaml_kind::sequence ? doc_.children(k) : std::span<const std::uint32_t>(&merge.value, 1);
  for (auto s : sources) {
    if (!expect(s, yaml_kind::mapping, "a merge key (<<) value")) continue;
    auto merged = mapping(s, "a merged mapping");
    if (!merged) continue;
    for (const auto& e : *merged) {
      if (keys.find(e.key) == nullptr) out.push_back(e);
    }
  }
  --merge_depth_;
}

auto yaml_reader::mapping(std::uint32_t k, std::string_view what) -> std::optional<std::vector<entry>> {
  if (!expect(k, yaml_kind::mapping, what)) return std::nullopt;
  auto children = doc_.children(k);
  std::vector<entry> out;
  out.reserve(children.size() / 2);  // an entry a key, allocated once (an export reads a mapping per object)
  key_index keys(out);
  std::vector<entry> merges;
  for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
    auto key = children[i], value = children[i + 1];
    if (!visit(key)) return std::nullopt;
    if (doc_[key].kind != yaml_kind::scalar) {
      error(key, diag::type, "keys in " + std::string(what) + " must be plain words, not " + type_name(key));
      continue;
    }
    std::string_view name = doc_.value(key);
    if (name == "<<" && !doc_[key].quoted) {
      // Two merge keys are a duplicate key like any other (YAML's merge type takes a list instead).
      if (!merges.empty()) {
        error(key, diag::duplicate_key,
              "duplicate key '<<' in " + std::string(what) + ": merge several mappings with one list, <<: [*a, *b]",
              {note_at(merges.front().key_node, "'<<' first appears here")});
        continue;
      }
      merges.push_back({name, key, value});
      continue;
    }
    if (const auto* first = keys.find(name)) {
      error(key, diag::duplicate_key, "duplicate key '" + std::string(name) + "' in " + std::string(what),
            {note_at(first->key_node, "'" + std::string(name) + "' first appears here")});
      continue;
    }
    out.push_back({name, key, value});
  }
  for (const auto& m : merges) merge_into(m, out, keys);
  return out;
}

void yaml_reader::only_keys(const std::vector<entry>& entries, std::initializer_list<std::string_view> allowed,
                            std::string_view what) {
  std::span<const std::string_view> candidates(allowed.begin(), allowed.size());
  for (const auto& e : entries) {
    if (std::find(allowed.begin(), allowed.end(), e.key) == allowed.end()) unknown_key(e, candidates, what);
  }
}

void yaml_reader::unknown_key(const entry& e, std::span<const std::string_view> known, std::string_view what) {
  error(e.key_node, diag::unknown_key,
        "unknown key '" + std::string(e.key) + "' in " + std::string(what) + did_you_mean(e.key, known));
}

void yaml_reader::only_top_level_keys(const std::vector<entry>& entries,
                                      std::initializer_list<std::string_view> allowed, std::string_view what) {
  std::vector<entry> checked;
  std::copy_if(entries.begin(), entries.end(), std::back_inserter(checked),
               [](const entry& e) { return !e.key.starts_with("x-"); });
  only_keys(checked, allowed, what);
}

auto yaml_reader::sequence(std::uint32_t k, std::string_view what) -> std::optional<std::span<const std::uint32_t>> {
  if (!expect(k, yaml_kind::sequence, what)) return std::nullopt;
  return doc_.children(k);
}

auto yaml_reader::list(std::uint32_t k, std::string_view what) -> std::optional<std::vector<std::uint32_t>> {
  if (doc_[k].kind == yaml_kind::scalar) {
    if (!visit(k)) return std::nullopt;
    if (is_null(k)) return std::vector<std::uint32_t>{};
    return std::vector<std::uint32_t>{k};
  }
  auto items = sequence(k, what);
  if (!items) return std::nullopt;
  return std::vector<std::uint32_t>(items->begin(), items->end());
}

auto yaml_reader::string(std::uint32_t k, std::string_view what) -> std::optional<std::string> {
  if (!expect(k, yaml_kind::scalar, what)) return std::nullopt;
  if (is_null(k)) {
    error(k, diag::type, std::string(what) + " must not be empty");
    return std::nullopt;
  }
  return std::string(doc_.value(k));
}

auto yaml_reader::integer(std::uint32_t k, std::int64_t min, std::int64_t max, std::string_view what)
    -> std::optional<std::int64_t> {
  if (!expect(k, yaml_kind::scalar, what)) return std::nullopt;
  auto text = doc_.value(k);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range && end == text.data() + text.size() && !doc_[k].quoted) {
    // Digits too many for 64 bits: a whole number, only too large (or too small).
    error(k, diag::range, std::string(what) + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                          ", not " + std::string(text) + (text.front() == '-' ? " (too small)" : " (too large)"));
    return std::nullopt;
  }
  if (ec != std::errc{} || end != text.data() + text.size() || doc_[k].quoted) {
    error(k, diag::type, std::string(what) + " must be a whole number, not " + type_name(k));
    return std::nullopt;
  }
  if (value < min || value > max) {
    error(k, diag::range, std::string(what) + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                          ", not " + std::string(text));
    return std::nullopt;
  }
  return value;
}

auto yaml_reader::boolean(std::uint32_t k, std::string_view what) -> std::optional<bool> {
  if (!expect(k, yaml_kind::scalar, what)) return std::nullopt;
  auto v = doc_.value(k);
  if (!doc_[k].quoted) {
    if (v == "true" || v == "True" || v == "TRUE") return true;
    if (v == "false" || v == "False" || v == "FALSE") return false;
  }
  error(k, diag::type, std::string(what) + " must be true or false, not " + type_name(k));
  return std::nullopt;
}

auto yaml_reader::cidr(std::uint32_t k, std::string_view what, host_bits mode) -> std::optional<prefix> {
  if (!expect(k, yaml_kind::scalar, what)) return std::nullopt;
  return cidr_in(k, doc_.value(k), 0, what, mode);
}

auto yaml_reader::cidr_in(std::uint32_t k, std::string_view text, std::size_t offset, std::string_view what,
                          host_bits mode) -> std::optional<prefix> {
  const auto& n = doc_[k];
  auto parsed = prefix::try_parse(text, mode);
  if (parsed) return *parsed;
  std::string message;
  try {
    prefix::parse(text, mode);
  } catch (const parse_error& e) {
    message = e.what();
  }
  // Point at the offending character: past the opening quote, if any.
  source_location at = where(k);
  if (n.line == n.end_line) at.column += static_cast<std::uint32_t>((n.quoted ? 1 : 0) + offset + parsed.error().offset);
  add({severity::error, diag::invalid_cidr, std::string(what) + ": " + message, at, {}});
  return std::nullopt;
}

auto yaml_reader::ip(std::uint32_t k, std::string_view what) -> std::optional<address> {
  if (!expect(k, yaml_kind::scalar, what)) return std::nullopt;
  const auto& n = doc_[k];
  auto text = doc_.value(k);
  auto parsed = address::try_parse(text);
  if (parsed) return *parsed;
  source_location at = where(k);
  if (n.line == n.end_line) at.column += (n.quoted ? 1 : 0) + parsed.error().offset;
  add({severity::error, diag::invalid_address,
                  std::string(what) + ": " + parse_error_message(parse_kind::address, text, parsed.error()), at, {}});
  return std::nullopt;
}

}  // namespace cidrcheck::detail
