#include <cidrcheck/io/plan_writer.hpp>

#include "yaml_scalar.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace cidrcheck {

namespace {

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
  // The length of the scalar node at offset, in any of YAML's forms: quoted
  // (to its closing quote, past escaped quotes and line breaks), a block scalar
  // (| or >: its header and every line below indented more than the line that
  // holds it), or plain (up to a flow indicator, a comment or the end of the line).
  auto token_length(std::size_t offset) const -> std::size_t {
    if (offset >= text_.size()) return 0;
    char q = text_[offset];
    if (q == '"' || q == '\'') {
      for (std::size_t k = offset + 1; k < text_.size(); ++k) {
        if (q == '"' && text_[k] == '\\') {
          ++k;
        } else if (text_[k] == q) {
          if (q == '\'' && k + 1 < text_.size() && text_[k + 1] == '\'') {
            ++k;  // '' is a quote inside single quotes
            continue;
          }
          return k - offset + 1;
        }
      }
      return 0;
    }
    if (q == '|' || q == '>') return below(offset, parent_indent(offset)) - offset;
    std::size_t end = offset;
    while (end < text_.size() && std::string_view(",]}\r\n#").find(text_[end]) == std::string_view::npos) ++end;
    while (end > offset && (text_[end - 1] == ' ' || text_[end - 1] == '\t')) --end;
    return end - offset;
  }

  // The offset where the line holding offset starts.
  auto line_start(std::size_t offset) const -> std::size_t {
    if (offset == 0) return 0;
    auto nl = text_.rfind('\n', offset - 1);
    return nl == std::string_view::npos ? 0 : nl + 1;
  }

  // The indentation of the line holding offset, counting a sequence entry's
  // "- " as indentation (the mapping in "  - name: a" is indented 4).
  auto line_indent(std::size_t offset) const -> std::size_t {
    std::size_t start = line_start(offset);
    std::size_t k = start;
    while (k < text_.size() && text_[k] == ' ') ++k;
    while (k < text_.size() && text_[k] == '-' && k + 1 < text_.size() && (text_[k + 1] == ' ' || text_[k + 1] == '\t')) {
      ++k;
      while (k < text_.size() && (text_[k] == ' ' || text_[k] == '\t')) ++k;
    }
    return k - start;
  }

  // The indentation a block scalar's content must exceed, for the header at
  // offset: its mapping's ("    key: |-", "  - key: |-": the "- " counts), or
  // for an entry of a block sequence ("  - |-"), the sequence's.
  auto parent_indent(std::size_t offset) const -> std::size_t {
    std::size_t start = line_start(offset);
    std::size_t k = start;
    while (k < text_.size() && text_[k] == ' ') ++k;
    while (k + 1 < text_.size() && text_[k] == '-' && (text_[k + 1] == ' ' || text_[k + 1] == '\t')) {
      std::size_t after = k + 1;
      while (after < text_.size() && (text_[after] == ' ' || text_[after] == '\t')) ++after;
      if (after == offset) break;  // the scalar is the entry itself
      k = after;
    }
    return k - start;
  }

  // The end of the text that belongs to a node starting at offset, on the
  // lines below it: the end (before its line break) of the last non-blank line
  // indented more than `indent` (or, for a sequence at the key's own
  // indentation, an entry "- "), before the first line that is not; the end of
  // offset's own line when there is none. Comment lines in between are kept.
  auto below(std::size_t offset, std::size_t indent, bool same_indent_entries = false) const -> std::size_t {
    std::size_t last = end_of_line(offset);
    std::size_t line = text_.find('\n', offset);
    while (line != std::string_view::npos) {
      std::size_t start = line + 1, spaces = 0;
      while (start + spaces < text_.size() && text_[start + spaces] == ' ') ++spaces;
      std::size_t first = start + spaces;
      if (first >= text_.size()) break;
      char c = text_[first];
      bool blank = c == '\n' || c == '\r' || c == '#';
      bool entry = same_indent_entries && spaces == indent && c == '-' &&
                   (first + 1 >= text_.size() || std::string_view(" \t\r\n").find(text_[first + 1]) != std::string_view::npos);
      if (!blank && spaces <= indent && !entry) break;
      if (!blank) last = end_of_line(first);
      line = text_.find('\n', first);
    }
    return last;
  }

 private:
  std::string_view text_;
  std::vector<std::size_t> starts_;
};

auto role_key(range_role role) -> std::string {
  return role == range_role::external ? "cidrs" : std::string(to_string(role));
}

auto is_blank(char c) -> bool { return c == ' ' || c == '\t'; }

// Characters that end an anchor or alias name (YAML: blanks, line breaks, flow indicators).
auto ends_name(char c) -> bool { return std::string_view(" \t\r\n,[]{}").find(c) != std::string_view::npos; }

// The offset past an anchor "&name" and the blanks after it at offset, or offset itself.
auto skip_anchor(std::string_view text, std::size_t offset) -> std::size_t {
  if (offset >= text.size() || text[offset] != '&') return offset;
  std::size_t k = offset + 1;
  while (k < text.size() && !ends_name(text[k])) ++k;
  while (k < text.size() && is_blank(text[k])) ++k;
  return k;
}

// The end of the flow collection whose opening bracket is at offset (quotes skipped).
auto flow_end(std::string_view text, std::size_t offset) -> std::size_t {
  int depth = 0;
  for (std::size_t k = offset; k < text.size(); ++k) {
    char c = text[k];
    if (c == '"' || c == '\'') {
      for (++k; k < text.size() && text[k] != c; ++k) {
        if (c == '"' && text[k] == '\\') ++k;
      }
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth == 0) return k + 1;
    } else if (c == '#' && k > 0 && is_blank(text[k - 1])) {
      k = text.find('\n', k);
      if (k == std::string_view::npos) return text.size();
    }
  }
  return text.size();
}

// An anchor defined in the text: its name and the text of the node it names.
struct anchor_text {
  std::string name;
  std::size_t end = 0;  // where its node's text ends
  std::string value;
};

// A key's value, located in the text from the end of the key.
struct value_span {
  std::size_t offset = 0;  // where the replacement goes (just after "key:")
  std::size_t length = 0;  // what it replaces, with the blank before a value
};

// Reports whether the text is a JSON document (or YAML written as one): its
// first character, past a byte-order mark and blanks, opens a flow collection.
// Such a file gets JSON: quoted keys and values, and no comments.
auto written_as_json(std::string_view text) -> bool {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

}  // namespace

namespace {

class plan_text_writer {
 public:
  plan_text_writer(std::string_view text, const std::string& file, const fleet& f, const plan_result& p)
      : text_(text), index_(text), file_(file), f_(f), p_(p), applied_(apply_plan(f, p)), json_(written_as_json(text)) {}

  auto run() -> std::string {
    count_uses();
    // Which (owner, role) pairs are written whole: a range filled in from a default
    // or a type, or one whose text other owners, roles or uses share (an alias).
    std::map<std::pair<std::uint32_t, range_role>, std::vector<std::uint32_t>> whole;
    std::vector<std::uint32_t> in_place_ranges;
    std::vector<std::pair<std::uint32_t, std::size_t>> in_place_requests;  // request, change
    for (std::size_t c = 0; c < p_.changes.size(); ++c) {
      const auto& change = p_.changes[c];
      if (change.range && change.to != change.from) {
        const auto& r = f_.ranges[*change.range];
        if (r.where.file != file_) continue;
        if (r.origin == range_origin::declared && sole_user(r.where, r.owner, r.role)) {
          in_place_ranges.push_back(*change.range);
        } else if (!r.is_plain()) {
          // A route is written with where it leads: only its own text can change.
          throw plan_text_error("cannot rewrite " + f_.describe_range(r) + ": its text is shared (an alias)", r.where);
        } else {
          whole[{r.owner, r.role}].push_back(*change.range);
        }
      } else if (change.request) {
        const auto& q = f_.requests[*change.request];
        if (q.where.file != file_) continue;
        if (sole_user(q.where, q.owner, q.role)) {
          in_place_requests.push_back({*change.request, c});
        } else {
          whole[{q.owner, q.role}];
        }
      } else if (change.operation && f_.owners[change.owner].where.file == file_) {
        whole[{change.owner, change.role}];  // a range an operation adds: the role is written with it
      }
      const auto& o = f_.owners[change.owner];
      if (change.dns_to && o.dns_where.file == file_ && o.dns_where.line != 0) {
        replace_node(index_.offset(o.dns_where.line, o.dns_where.column), change.dns_to->to_string());
      }
    }
    for (auto k : in_place_ranges) {
      const auto& r = f_.ranges[k];
      if (r.is_plain() && whole.contains({r.owner, r.role})) continue;
      auto end = replace_node(index_.offset(r.where.line, r.where.column), applied_cidr(k));
      keep_provenance_true(end, r.cidr.to_string());
    }
    for (auto [k, c] : in_place_requests) {
      const auto& q = f_.requests[k];
      if (whole.contains({q.owner, q.role})) continue;
      auto at = skip_anchor(text_, index_.offset(q.where.line, q.where.column));
      auto end = replace_node(at, p_.changes[c].to.to_string());
      keep_provenance_true(end, std::string(text_.substr(at, end - at)));
    }
    for (const auto& [key, moved] : whole) write_whole(key.first, key.second, moved);
    write_withdrawals();
    return apply_edits();
  }

 private:
  struct edit {
    std::size_t offset;
    std::size_t length;
    std::string text;
    bool weak = false;      // an alias written out: dropped where a stronger edit covers it
    std::size_t order = 0;  // among edits at one offset, the earlier-made comes first in the text
  };

  // Replaces the scalar node at offset (past its anchor, which stays on the new
  // value) by value, in the node's quotes if it has any, else plain: a block
  // scalar becomes a plain one. Returns where the node ends.
  auto replace_node(std::size_t offset, const std::string& value) -> std::size_t {
    auto at = skip_anchor(text_, offset);
    auto length = index_.token_length(at);
    char quote = at < text_.size() && (text_[at] == '"' || text_[at] == '\'') ? text_[at] : json_ ? '"' : '\0';
    edits_.push_back({at, length, quote ? std::string(1, quote) + value + quote : value});
    return at + length;
  }

  // A value followed by a comment naming where it was read ("# exports/a.json:12:5",
  // as `cidrcheck import` writes) no longer comes from there once planned: the
  // comment says what the value was and where that was read instead.
  void keep_provenance_true(std::size_t value_end, const std::string& was) {
    if (json_) return;  // JSON has no comments
    auto eol = index_.end_of_line(value_end);
    auto k = value_end;
    while (k < eol && is_blank(text_[k])) ++k;
    if (k >= eol || text_[k] != '#' || k == value_end) return;
    auto body = text_.substr(k + 1, eol - k - 1);
    while (!body.empty() && is_blank(body.front())) body.remove_prefix(1);
    while (!body.empty() && is_blank(body.back())) body.remove_suffix(1);
    // FILE:LINE:COLUMN, and nothing else.
    auto digits = [](std::string_view t) {
      return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    auto c2 = body.rfind(':');
    if (c2 == std::string_view::npos || !digits(body.substr(c2 + 1))) return;
    auto c1 = body.rfind(':', c2 == 0 ? 0 : c2 - 1);
    if (c1 == std::string_view::npos || c1 == 0 || !digits(body.substr(c1 + 1, c2 - c1 - 1))) return;
    if (body.find(' ') != std::string_view::npos) return;
    edits_.push_back({k, eol - k, "# planned by cidrcheck; was " + was + ", read at " + std::string(body)});
  }

  // How many times each text position is used, and by which owner and role.
  void count_uses() {
    auto add = [&](const source_location& where, std::uint32_t owner, range_role role) {
      if (where.file != file_ || where.line == 0) return;
      auto& u = uses_[{where.line, where.column}];
      if (u.count++ == 0) {
        u.owner = owner;
        u.role = role;
      } else if (u.owner != owner || u.role != role) {
        u.shared = true;
      }
    };
    for (const auto& r : f_.ranges) {
      if (r.origin == range_origin::declared) add(r.where, r.owner, r.role);
    }
    for (const auto& q : f_.requests) add(q.where, q.owner, q.role);
  }

  // True when the text at where is used once, by this owner and role only.
  auto sole_user(const source_location& where, std::uint32_t owner, range_role role) const -> bool {
    auto it = uses_.find({where.line, where.column});
    return it != uses_.end() && !it->second.shared && it->second.count == 1 && it->second.owner == owner &&
           it->second.role == role;
  }

  auto applied_cidr(std::uint32_t range) const -> std::string {
    // apply_plan keeps the ranges' order and indexes; requests are appended after them.
    return applied_.ranges[range].cidr.to_string();
  }

  // Writes every range of one role of one owner as the owner's own key: the
  // value of the key where the owner writes it, else a new key. Routes and
  // translated ranges are not the owner's ranges of a role: they stay.
  void write_whole(std::uint32_t owner_index, range_role role, const std::vector<std::uint32_t>& moved) {
    const auto& o = f_.owners[owner_index];
    std::vector<std::string> cidrs, added, kept;  // ranges an operation adds sit after the input's
    for (auto k : applied_.owners[owner_index].ranges) {
      const auto& r = applied_.ranges[k];
      if (r.role != role || !r.is_plain()) continue;
      cidrs.push_back(r.cidr.to_string());
      (k >= f_.ranges.size() ? added : kept).push_back(r.cidr.to_string());
    }
    auto list = flow_list(cidrs);
    auto r = static_cast<std::size_t>(role);
    if (o.where.file == file_ && o.layout.range_key_line[r] != 0) {
      source_location key{file_, o.layout.range_key_line[r], o.layout.range_key_end_column[r]};
      auto span = value_after_key(index_.offset(key.line, key.column), key, role_key(role));
      write_out_anchors(span.offset, span.offset + span.length);
      edits_.push_back({span.offset, span.length, " " + list});
      return;
    }
    std::vector<std::string> was;
    bool defaulted = false;
    for (auto k : moved) {
      was.push_back(f_.ranges[k].cidr.to_string());
      defaulted = defaulted || f_.ranges[k].origin != range_origin::declared;
    }
    std::string origin = !defaulted ? "the shared value"
                         : o.kind == owner_kind::cluster ? o.type + "'s default"
                                                         : "the " + o.type + " type's range";
    std::string key = json_ ? "\"" + role_key(role) + "\"" : role_key(role);
    if (o.layout.flow) {
      // Before the closing brace of {name: ..., distribution: ...}; after a trailing comma, YAML allows one.
      auto brace = index_.offset(o.layout.end.line, o.layout.end.column) - 1;
      auto last = text_.find_last_not_of(" \t\r\n", brace - 1);
      bool comma = last != std::string_view::npos && text_[last] == ',';
      edits_.push_back({brace, 0, (comma ? " " : ", ") + key + ": " + list});
      return;
    }
    std::string comment = moved.empty() ? "  # planned by cidrcheck: " + joined(added) + " added" +
                                              (kept.empty() ? std::string() : " beside the default " + joined(kept))
                                        : "  # planned by cidrcheck; was " + origin + (was.empty() ? "" : " " + joined(was));
    auto owner_at = skip_anchor(text_, index_.offset(o.where.line, o.where.column));
    // The owner's keys start where its first key does ("- ? name" included: the '?').
    std::string indent(owner_at - index_.line_start(owner_at), ' ');
    auto type_at = index_.offset(o.type_where.line, o.type_where.column);
    if (o.type_where.line != 0 && type_at >= owner_at && o.type_where.file == file_ && after_simple_key(type_at)) {
      // After the line that ends the type's value (a block scalar's last line).
      auto after = index_.end_of_line(type_at + index_.token_length(type_at));
      std::string newline = after < text_.size() && text_[after] == '\r' ? "\r\n" : "\n";  // keep CRLF files CRLF
      edits_.push_back({after, 0, newline + indent + key + ": " + list + comment});
    } else {
      // The type comes through a merge key, an explicit key (? distribution), or there is none:
      // a line of its own before the first key.
      auto eol = index_.end_of_line(owner_at);
      std::string newline = eol < text_.size() && text_[eol] == '\r' ? "\r\n" : "\n";
      edits_.push_back({owner_at, 0, key + ": " + list + comment + newline + indent});
    }
  }

  // Gives each connection of this file that the plan withdraws ranges from a
  // `withdrawn` key of its own: before the closing brace of a flow mapping, or
  // on a line of its own before the first key of a block mapping. A connection
  // in the short form ([a, b]) has no keys, and one that withdraws prefixes
  // already would need its list merged: plan_text_error.
  void write_withdrawals() {
    std::map<std::uint32_t, std::vector<std::string>> added;  // connection -> prefixes, in plan order
    for (const auto& op : p_.operations) {
      for (const auto& w : op.withdrawals) added[w.connection].push_back(w.cidr.to_string());
    }
    for (const auto& [k, cidrs] : added) {
      const auto& c = f_.connections[k];
      if (c.where.file != file_) continue;
      const std::string what = f_.describe_connection(k);
      if (!c.withdrawn.empty()) {
        throw plan_text_error("cannot add " + joined(cidrs) + " to the withdrawn prefixes " + what +
                                  " lists already: add them to its withdrawn list by hand",
                              c.where);
      }
      auto at = skip_anchor(text_, index_.offset(c.where.line, c.where.column));
      std::string key = json_ ? "\"withdrawn\"" : "withdrawn";
      if (text_[at] == '[') {
        throw plan_text_error("cannot add withdrawn prefixes to " + what + ", written in the short form [a, b]: write "
                                  "it as a mapping, {between: [a, b]}",
                              c.where);
      }
      if (text_[at] == '{') {
        auto brace = flow_end(text_, at) - 1;
        auto last = text_.find_last_not_of(" \t\r\n", brace - 1);
        bool comma = last != std::string_view::npos && text_[last] == ',';
        edits_.push_back({brace, 0, (comma ? " " : ", ") + key + ": " + flow_list(cidrs)});
        continue;
      }
      std::string indent(at - index_.line_start(at), ' ');
      auto eol = index_.end_of_line(at);
      std::string newline = eol < text_.size() && text_[eol] == '\r' ? "\r\n" : "\n";
      std::string comment = json_ ? "" : "  # planned by cidrcheck: no longer carried";
      edits_.push_back({at, 0, key + ": " + flow_list(cidrs) + comment + newline + indent});
    }
  }

  // "[a, b]", or in a JSON file ["a", "b"].
  auto flow_list(const std::vector<std::string>& items) const -> std::string {
    std::string out = "[";
    for (const auto& item : items) out += (out.size() > 1 ? ", " : "") + (json_ ? "\"" + item + "\"" : item);
    return out + "]";
  }

  static auto joined(const std::vector<std::string>& items) -> std::string {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
  }

  // Reports whether the value at offset follows "key:" on its own line (as in
  // "  distribution: kops"), not a line of an explicit key ("? distribution" then ": kops").
  auto after_simple_key(std::size_t offset) const -> bool {
    auto start = index_.line_start(offset);
    auto before = text_.substr(start, offset - start);
    auto first = before.find_first_not_of(" \t-");
    return first != std::string_view::npos && before[first] != ':' && before[first] != '?' &&
           before.find(':') != std::string_view::npos;
  }

  // The value of the key that ends at offset (written at key, named name): a
  // token, a flow collection, an alias, a block scalar, or a block sequence (or
  // nothing) on the lines below. An explicit key ("? network" with ": VALUE" on
  // the next line) is a form this writer does not rewrite: plan_text_error.
  auto value_after_key(std::size_t offset, const source_location& key, const std::string& name) const -> value_span {
    std::size_t k = offset;
    while (k < text_.size() && is_blank(text_[k])) ++k;
    if (k >= text_.size() || text_[k] != ':') {
      throw plan_text_error("cannot rewrite the key " + name + ", written as an explicit key (? " + name +
                                "): write it as " + name + ": VALUE",
                            key);
    }
    ++k;
    value_span span{k, 0};
    std::size_t v = k;
    while (v < text_.size() && is_blank(text_[v])) ++v;
    if (v < text_.size() && text_[v] == '&') v = skip_anchor(text_, v);
    if (v < text_.size() && std::string_view("#\r\n|>").find(text_[v]) == std::string_view::npos) {
      std::size_t end = (text_[v] == '[' || text_[v] == '{') ? flow_end(text_, v) : v + index_.token_length(v);
      span.length = end - k;
      return span;
    }
    // Nothing on the key's line but a comment or a block scalar's header: the
    // value is on the lines below (a block scalar or sequence), or empty.
    auto last = index_.below(v, index_.line_indent(offset), true);
    if (v < text_.size() && text_[v] == '#' && last == index_.end_of_line(v)) return span;  // keep the comment
    span.length = last - k;
    return span;
  }

  // Anchors defined in [from, to) are about to disappear with the text they
  // name: every later alias of them is written out as that text instead.
  void write_out_anchors(std::size_t from, std::size_t to) {
    for (std::size_t k = text_.find('&', from); k != std::string_view::npos && k < to; k = text_.find('&', k + 1)) {
      if (k > 0 && !is_blank(text_[k - 1]) && std::string_view(":[{,-").find(text_[k - 1]) == std::string_view::npos) {
        continue;
      }
      std::size_t n = k + 1;
      while (n < text_.size() && !ends_name(text_[n])) ++n;
      std::string name(text_.substr(k + 1, n - k - 1));
      std::size_t v = skip_anchor(text_, k);
      std::size_t end = (v < text_.size() && (text_[v] == '[' || text_[v] == '{')) ? flow_end(text_, v)
                                                                                  : v + index_.token_length(v);
      std::string value(text_.substr(v, end - v));
      if (name.empty() || value.empty()) continue;
      // Every "*name" after the anchor, until the name is anchored again.
      for (std::size_t a = text_.find(name, end); a != std::string_view::npos; a = text_.find(name, a + 1)) {
        std::size_t after = a + name.size();
        if (after < text_.size() && !ends_name(text_[after])) continue;
        if (a > 0 && text_[a - 1] == '&') break;
        if (a == 0 || text_[a - 1] != '*') continue;
        edits_.push_back({a - 1, name.size() + 1, value, true});
      }
    }
  }

  auto apply_edits() -> std::string {
    for (std::size_t k = 0; k < edits_.size(); ++k) edits_[k].order = k;
    // An alias written out inside text another edit replaces is gone with it.
    std::vector<std::pair<std::size_t, std::size_t>> strong;
    for (const auto& e : edits_) {
      if (!e.weak && e.length > 0) strong.emplace_back(e.offset, e.offset + e.length);
    }
    std::sort(strong.begin(), strong.end());
    std::vector<std::size_t> reach(strong.size());  // the furthest end among strong[0..k]
    for (std::size_t k = 0; k < strong.size(); ++k) reach[k] = std::max(strong[k].second, k ? reach[k - 1] : 0);
    std::erase_if(edits_, [&](const edit& e) {
      if (!e.weak) return false;
      auto it = std::upper_bound(strong.begin(), strong.end(), std::pair(e.offset, std::size_t(-1)));
      return it != strong.begin() && reach[static_cast<std::size_t>(it - strong.begin()) - 1] > e.offset;
    });
    // Apply from the end, so earlier offsets stay valid; at one offset, the last-made edit first.
    std::sort(edits_.begin(), edits_.end(), [](const edit& a, const edit& b) {
      return std::tie(a.offset, a.order) > std::tie(b.offset, b.order);
    });
    std::string out(text_);
    for (const auto& e : edits_) out.replace(e.offset, e.length, e.text);
    return out;
  }

  struct use {
    std::size_t count = 0;
    std::uint32_t owner = 0;
    range_role role = range_role::external;
    bool shared = false;
  };

  std::string_view text_;
  text_index index_;
  const std::string& file_;
  const fleet& f_;
  const plan_result& p_;
  fleet applied_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, use> uses_;
  std::vector<edit> edits_;
  bool json_;  // the file is JSON: quoted keys and values, no comments
};

}  // namespace

auto apply_plan_to_text(std::string_view text, const std::string& file, const fleet& f, const plan_result& p)
    -> std::string {
  return plan_text_writer(text, file, f, p).run();
}

auto write_plan_overlay(const fleet& f, const plan_result& p, std::span<const std::string> header) -> std::string {
  // `renumber:` moves and adds ranges of owners; it has no entry that changes a connection.
  auto withdraws = std::find_if(p.operations.begin(), p.operations.end(),
                                [](const plan_operation& op) { return !op.withdrawals.empty(); });
  if (withdraws != p.operations.end()) {
    const auto& w = withdraws->withdrawals.front();
    throw plan_text_error("the plan withdraws " + w.cidr.to_string() + " from " + f.describe_connection(w.connection) +
                              ", which a plan overlay cannot say: add withdrawn: [" + w.cidr.to_string() +
                              "] to that connection where it is written, or plan a fleet read from one file",
                          f.connections[w.connection].where);
  }
  std::string out;
  for (const auto& line : header) out += line.empty() ? "#\n" : "# " + detail::yaml_comment_text(line) + "\n";
  out += "version: 1\nrenumber:\n";
  auto entry = [&](const owner& o, std::string_view role, const std::string& from, const std::string& to,
                   const std::string& was) {
    out += "  - {owner: " + detail::yaml_scalar(o.name) + ", role: " + std::string(role) +
           (from.empty() ? ", add: " + detail::yaml_scalar(to)
                         : ", from: " + detail::yaml_scalar(from) + ", to: " + detail::yaml_scalar(to)) +
           "}";
    if (!was.empty()) out += "  # " + std::string(from.empty() ? "" : "was ") + detail::yaml_comment_text(was);
    out += "\n";
  };
  std::size_t entries = 0;
  for (const auto& change : p.changes) {
    const auto& o = f.owners[change.owner];
    if (change.range && change.to != change.from) {
      const auto& r = f.ranges[*change.range];
      std::string was = r.origin == range_origin::declared       ? to_string(r.where)
                        : o.kind == owner_kind::cluster           ? o.type + "'s default"
                                                                  : "the " + o.type + " type's range";
      entry(o, r.is_route() ? "routes" : role_key(r.role), r.cidr.to_string(), change.to.to_string(), was);
      ++entries;
    } else if (change.request) {
      const auto& q = f.requests[*change.request];
      std::string size = !q.length ? "auto"
                         : q.version == ip_version::v6 ? "ipv6/" + std::to_string(*q.length)
                                                       : "/" + std::to_string(*q.length);
      entry(o, role_key(q.role), size, change.to.to_string(), "requested at " + to_string(q.where));
      ++entries;
    } else if (change.operation) {
      // A range an operation adds beside the owner's own (pod space grown).
      entry(o, role_key(change.role), "", change.to.to_string(), "added by " + p.operations[*change.operation].kind);
      ++entries;
    }
    if (change.dns_to && change.dns_from && *change.dns_to != *change.dns_from) {
      entry(o, "dns", change.dns_from->to_string(), change.dns_to->to_string(),
            o.dns_where.line != 0 ? to_string(o.dns_where) : std::string("the default"));
      ++entries;
    }
  }
  if (entries == 0) out.replace(out.size() - std::string_view("renumber:\n").size(), std::string::npos, "renumber: []  # nothing to change\n");
  return out;
}

}  // namespace cidrcheck
