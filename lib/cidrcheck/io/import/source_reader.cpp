#include "source_reader.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace cidrcheck::detail {

namespace {

auto equal_folded(std::string_view a, std::string_view b) -> bool {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

}  // namespace

source_reader::object::object(source_reader& in, std::uint32_t node, std::vector<yaml_reader::entry> entries,
                              bool fold_case)
    : in_(&in), node_(node), entries_(std::move(entries)), fold_case_(fold_case) {}

auto source_reader::object::get(std::string_view key) const -> std::optional<std::uint32_t> {
  for (const auto& e : entries_) {
    if (fold_case_ ? equal_folded(e.key, key) : e.key == key) {
      const auto& n = in_->r_.node(e.value);
      if (in_->r_.is_null(e.value) || (n.kind == yaml_kind::scalar && n.quoted && n.size == 0)) return std::nullopt;
      return e.value;
    }
  }
  return std::nullopt;
}

auto source_reader::object::at(std::initializer_list<std::string_view> path) const -> std::optional<std::uint32_t> {
  const object* here = this;  // not a copy of this object's entries
  std::optional<object> inner;  // the mapping `here` points at, after the first step
  std::optional<std::uint32_t> value;
  std::size_t step = 0;
  for (auto key : path) {
    value = here->get(key);
    if (!value || ++step == path.size()) break;
    inner = in_->object_at(*value, key, fold_case_);
    if (!inner) return std::nullopt;
    here = &*inner;
  }
  return value;
}

source_reader::source_reader(yaml_reader& r, import_kind kind, std::string file, std::string cluster)
    : r_(r), kind_(kind), file_(std::move(file)), cluster_(std::move(cluster)) {}

auto source_reader::cluster_name(std::uint32_t k) -> std::string {
  if (!cluster_.empty()) return cluster_;
  auto name = stem();
  std::string kind(info(kind_).name);
  r_.report(severity::note, k, diag::inferred_name,
            "the export names no cluster: it is named '" + name + "' after the file; name it with " + kind + "=NAME:" +
                file_ + " (or cidrcheck import " + kind + " --cluster NAME)");
  return name;
}

auto source_reader::stem() const -> std::string {
  if (file_ == "<stdin>") return "stdin";
  return std::filesystem::path(file_).stem().string();
}

void source_reader::wrong_document(std::uint32_t k, std::string_view expected) {
  r_.error(k, diag::import_format,
           "expected the output of `" + std::string(info(kind_).command) + "`: " + std::string(expected));
}

auto source_reader::document(std::uint32_t root, std::string_view expected, bool fold_case) -> std::optional<object> {
  if (r_.node(root).kind != yaml_kind::mapping) {
    wrong_document(root, expected);
    return std::nullopt;
  }
  return object_at(root, "the document", fold_case);
}

auto source_reader::object_at(std::uint32_t k, std::string_view what, bool fold_case) -> std::optional<object> {
  auto entries = r_.mapping(k, what);
  if (!entries) return std::nullopt;
  return object(*this, k, std::move(*entries), fold_case);
}

auto source_reader::object_at(std::optional<std::uint32_t> k, std::string_view what, bool fold_case)
    -> std::optional<object> {
  if (!k) return std::nullopt;
  return object_at(*k, what, fold_case);
}

auto source_reader::items(std::optional<std::uint32_t> k, std::string_view what) -> std::span<const std::uint32_t> {
  if (!k) return {};
  return r_.sequence(*k, what).value_or(std::span<const std::uint32_t>{});
}

auto source_reader::text(std::optional<std::uint32_t> k, std::string_view what) -> std::optional<std::string> {
  if (!k) return std::nullopt;
  return r_.string(*k, what);
}

auto source_reader::required(const object& o, std::string_view key, std::string_view missing)
    -> std::optional<std::string> {
  auto k = o.get(key);
  if (!k) {
    r_.error(o.node(), diag::missing_key, std::string(missing));
    return std::nullopt;
  }
  return text(k, key);
}

auto source_reader::whole(std::optional<std::uint32_t> k, std::int64_t min, std::int64_t max, std::string_view what)
    -> std::optional<std::int64_t> {
  if (!k) return std::nullopt;
  const auto& n = r_.node(*k);
  if (n.kind == yaml_kind::scalar && n.quoted) {
    auto text = r_.value(*k);
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc{} && end == text.data() + text.size() && value >= min && value <= max) return value;
    r_.error(*k, diag::type, std::string(what) + " must be a whole number between " + std::to_string(min) + " and " +
                             std::to_string(max) + ", not \"" + std::string(text) + "\"");
    return std::nullopt;
  }
  return r_.integer(*k, min, max, what);
}

auto source_reader::flag(std::optional<std::uint32_t> k, std::string_view what) -> std::optional<bool> {
  if (!k) return std::nullopt;
  return r_.boolean(*k, what);
}

auto source_reader::address_at(std::optional<std::uint32_t> k, std::string_view what) -> std::optional<address> {
  if (!k) return std::nullopt;
  return r_.ip(*k, what);
}

auto source_reader::range(std::optional<std::uint32_t> k, std::string_view what, host_bits mode)
    -> std::optional<imported_range> {
  if (!k) return std::nullopt;
  auto cidr = r_.cidr(*k, what, mode);
  if (!cidr) return std::nullopt;
  const auto& n = r_.node(*k);
  imported_range out;
  out.cidr = *cidr;
  out.where = r_.where(*k);
  if (n.line == n.end_line) out.end_column = n.end_column;
  return out;
}

auto source_reader::ranges(std::optional<std::uint32_t> k, std::string_view what) -> std::vector<imported_range> {
  std::vector<imported_range> out;
  if (!k) return out;
  const auto& n = r_.node(*k);
  if (n.kind == yaml_kind::sequence) {
    for (auto item : items(k, what)) {
      if (auto r = range(item, what)) out.push_back(std::move(*r));
    }
    return out;
  }
  if (n.kind != yaml_kind::scalar || r_.value(*k).find(',') == std::string_view::npos) {
    if (auto r = range(k, what)) out.push_back(std::move(*r));
    return out;
  }
  // "a,b": each part keeps its own column, when the scalar is on one line.
  bool one_line = n.line == n.end_line;
  std::uint32_t quote = n.quoted ? 1 : 0;
  std::string_view all = r_.value(*k);
  std::size_t start = 0;
  while (start <= all.size()) {
    auto comma = all.find(',', start);
    auto end = comma == std::string_view::npos ? all.size() : comma;
    auto part = all.substr(start, end - start);
    auto lead = part.find_first_not_of(' ');
    part = lead == std::string_view::npos ? std::string_view{} : part.substr(lead, part.find_last_not_of(' ') - lead + 1);
    std::size_t offset = start + (lead == std::string_view::npos ? 0 : lead);
    if (auto cidr = r_.cidr_in(*k, part, offset, what, host_bits::reject)) {
      imported_range r;
      r.cidr = *cidr;
      r.where = r_.where(*k);
      if (one_line) {
        r.where.column += static_cast<std::uint32_t>(quote + offset);
        r.end_column = r.where.column + static_cast<std::uint32_t>(part.size());
      }
      out.push_back(std::move(r));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace cidrcheck::detail
