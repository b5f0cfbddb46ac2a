#include <cidrcheck/io/plan_writer.hpp>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace cidrcheck {

namespace {

struct edit {
  std::size_t offset;
  std::size_t length;
  std::string text;
  std::size_t order = 0;  // among edits at one offset, the earlier-made comes first in the text
};

class text_index {
 public:
  explicit text_index(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (std::size_t k = 0; k < text.size(); ++k) {
      if (text[k] == '\n') starts_.push_back(k + 1);
    }
  }
  // The byte offset of a 1-based line and byte column.
  auto offset(std::uint32_t line, std::uint32_t column) const -> std::size_t {
    if (line == 0 || line > starts_.size()) return text_.size();
    return std::min(text_.size(), starts_[line - 1] + (column == 0 ? 0 : column - 1));
  }
  // The offset just past the end of the line holding offset (before its newline).
  auto end_of_line(std::size_t offset) const -> std::size_t {
    auto nl = text_.find('\n', offset);
    if (nl == std::string_view::npos) return text_.size();
    return nl > offset && text_[nl - 1] == '\r' ? nl - 1 : nl;
  }
  // The length of the scalar token at offset: up to its closing quote, or for a
  // plain scalar up to a flow indicator, a comment or the end of the line.
  auto token_length(std::size_t offset) const -> std::size_t {
    if (offset >= text_.size()) return 0;
    char q = text_[offset];
    if (q == '"' || q == '\'') {
      auto close = text_.find(q, offset + 1);
      return close == std::string_view::npos ? 0 : close - offset + 1;
    }
    std::size_t end = offset;
    while (end < text_.size() && std::string_view(",]}\r\n#").find(text_[end]) == std::string_view::npos) ++end;
    while (end > offset && (text_[end - 1] == ' ' || text_[end - 1] == '\t')) --end;
    return end - offset;
  }

 private:
  std::string_view text_;
  std::vector<std::size_t> starts_;
};

auto role_key(const fleet_range& r) -> std::string {
  return r.role == range_role::external ? "cidrs" : std::string(to_string(r.role));
}

}  // namespace

auto apply_plan_to_text(std::string_view text, const std::string& file, const fleet& f, const plan_result& p)
    -> std::string {
  text_index index(text);
  std::vector<edit> edits;
  auto applied = apply_plan(f, p);
  // Ranges filled in from a default or a type: written as a new key per owner and role.
  std::map<std::pair<std::uint32_t, range_role>, std::vector<std::uint32_t>> inserted;
  for (const auto& change : p.changes) {
    if (change.range && change.to != change.from) {
      const auto& r = f.ranges[*change.range];
      if (r.where.file != file) continue;
      if (r.origin == range_origin::declared && r.end_column != 0) {
        auto at = index.offset(r.where.line, r.where.column);
        edits.push_back({at, index.offset(r.where.line, r.end_column) - at, change.to.to_string()});
      } else if (r.origin != range_origin::declared) {
        inserted[{r.owner, r.role}].push_back(*change.range);
      }
    } else if (change.request) {
      const auto& q = f.requests[*change.request];
      if (q.where.file != file) continue;
      auto at = index.offset(q.where.line, q.where.column);
      edits.push_back({at, index.token_length(at), change.to.to_string()});
    }
    const auto& o = f.owners[change.owner];
    if (change.dns_to && o.dns_where.file == file && o.dns_where.line != 0) {
      auto at = index.offset(o.dns_where.line, o.dns_where.column);
      edits.push_back({at, index.token_length(at), change.dns_to->to_string()});
    }
  }
  for (const auto& [key, moved] : inserted) {
    auto [owner_index, role] = key;
    const auto& o = f.owners[owner_index];
    // The key lists every range of the role after the plan: it replaces the default as a whole.
    std::string cidrs, was;
    for (auto k : applied.owners[owner_index].ranges) {
      if (applied.ranges[k].role == role) cidrs += (cidrs.empty() ? "" : ", ") + applied.ranges[k].cidr.to_string();
    }
    for (auto k : moved) was += (was.empty() ? "" : ", ") + f.ranges[k].cidr.to_string();
    std::string origin = o.kind == owner_kind::cluster ? o.type + "'s default" : "the " + o.type + " type's range";
    std::string k = role_key(f.ranges[moved.front()]);
    if (o.layout.flow) {
      // Before the closing brace of {name: ..., distribution: ...}.
      auto brace = index.offset(o.layout.end.line, o.layout.end.column) - 1;
      edits.push_back({brace, 0, ", " + k + ": [" + cidrs + "]"});
    } else {
      auto after = index.end_of_line(index.offset(o.type_where.line, o.type_where.column));
      std::string newline = after < text.size() && text[after] == '\r' ? "\r\n" : "\n";  // keep CRLF files CRLF
      std::string indent(o.layout.key_column > 0 ? o.layout.key_column - 1 : 0, ' ');
      edits.push_back({after, 0, newline + indent + k + ": [" + cidrs + "]  # planned by cidrcheck; was " + origin +
                                     " " + was});
    }
  }
  for (std::size_t k = 0; k < edits.size(); ++k) edits[k].order = k;
  // Apply from the end, so earlier offsets stay valid; at one offset, the last-made edit first.
  std::sort(edits.begin(), edits.end(), [](const edit& a, const edit& b) {
    return std::tie(a.offset, a.order) > std::tie(b.offset, b.order);
  });
  std::string out(text);
  for (const auto& e : edits) out.replace(e.offset, e.length, e.text);
  return out;
}

}  // namespace cidrcheck
