#include "yaml_document.hpp"

#include "json_tree.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <yaml.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace cidrcheck::detail {

namespace {

struct parser_deleter {
  void operator()(yaml_parser_t* p) const {
    yaml_parser_delete(p);
    delete p;
  }
};

auto to_u32(std::size_t v) -> std::uint32_t { return static_cast<std::uint32_t>(v); }

// Where a line starts with a tab, YAML's complaint is about indentation; say so.
auto explain_tabs(std::string_view text, std::size_t line_start) -> std::string {
  for (std::size_t k = line_start; k < text.size() && (text[k] == ' ' || text[k] == '\t'); ++k) {
    if (text[k] == '\t') return " (YAML does not allow tabs for indentation)";
  }
  return {};
}

// Returns the line and column (0-based, in bytes) of a byte offset.
auto mark_of(std::string_view text, std::size_t offset) -> yaml_mark_t {
  yaml_mark_t mark{};
  mark.index = std::min(offset, text.size());
  for (std::size_t k = 0; k < mark.index; ++k) {
    if (text[k] == '\n') {
      ++mark.line;
      mark.column = 0;
    } else {
      ++mark.column;
    }
  }
  return mark;
}

}  // namespace

auto parse_yaml(std::string_view text, std::string_view name, const yaml_limits& limits,
                std::vector<diagnostic>& diagnostics) -> yaml_document {
  if (auto json = parse_plain_json(text, limits)) return std::move(*json);
  return parse_yaml_with_libyaml(text, name, limits, diagnostics);
}

auto parse_yaml_with_libyaml(std::string_view text, std::string_view name, const yaml_limits& limits,
                             std::vector<diagnostic>& diagnostics) -> yaml_document {
  yaml_document doc;
  // A byte-order mark of UTF-32 (checked first: FF FE 00 00 also starts like UTF-16's) or UTF-16.
  using namespace std::string_view_literals;
  std::string_view encoding;
  if (text.starts_with("\xFF\xFE\0\0"sv) || text.starts_with("\0\0\xFE\xFF"sv)) {
    encoding = "UTF-32";
  } else if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
    encoding = "UTF-16";
  }
  if (!encoding.empty()) {
    // libyaml would decode UTF-16, but every position here counts UTF-8 bytes.
    diagnostics.push_back({severity::error, diag::yaml_syntax,
                           "the file is " + std::string(encoding) +
                               " (its byte-order mark says so); cidrcheck reads UTF-8: convert it first (iconv -f " +
                               std::string(encoding) + " -t UTF-8)",
                           {std::string(name), 1, 1}, {}});
    return doc;
  }
  doc.max_depth = limits.max_depth;
  std::unique_ptr<yaml_parser_t, parser_deleter> parser(new yaml_parser_t);
  if (yaml_parser_initialize(parser.get()) == 0) {
    diagnostics.push_back({severity::error, diag::internal, "cannot initialise the YAML parser", {std::string(name), 0, 0}, {}});
    return doc;
  }
  yaml_parser_set_input_string(parser.get(), reinterpret_cast<const unsigned char*>(text.data()), text.size());

  // libyaml counts lines its own way (CR, LF, CRLF, NEL, LS and PS each end one)
  // and columns in characters; diagnostics and the plan writer count lines by LF,
  // as editors do, and columns in bytes. A mark becomes a byte offset first.
  // Where the text has no line break but LF and CRLF (nearly always), both
  // count the same lines and one table serves.
  std::vector<std::size_t> yaml_line_starts{0}, line_starts;
  for (std::size_t k = 0; k < text.size(); ++k) {
    auto byte = static_cast<unsigned char>(text[k]);
    if (byte == '\n') {
      yaml_line_starts.push_back(k + 1);
      if (!line_starts.empty()) line_starts.push_back(k + 1);
    } else if (auto length = yaml_only_line_break(text, k)) {
      if (line_starts.empty()) {
        line_starts.assign(yaml_line_starts.begin(), yaml_line_starts.end());
      }
      yaml_line_starts.push_back(k + length);
    }
  }
  const bool same_lines = line_starts.empty();
  // Marks arrive in increasing order, so each conversion continues from the last
  // one on the same line: linear in the text even when it is all one line (minified JSON).
  struct {
    std::size_t line = SIZE_MAX, chars = 0, at = 0;
  } last;
  auto offset_of = [&](const yaml_mark_t& mark) -> std::size_t {
    if (mark.line >= yaml_line_starts.size()) return text.size();
    std::size_t at = yaml_line_starts[mark.line], chars = 0;
    if (mark.line == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") at += 3;  // the reader skips a byte-order mark
    if (mark.line == last.line && mark.column >= last.chars) {
      at = last.at;
      chars = last.chars;
    }
    for (; chars < mark.column && at < text.size(); ++chars) {
      ++at;
      while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;  // continuation bytes
    }
    last = {mark.line, mark.column, at};
    return at;
  };
  struct position {
    std::uint32_t line, column;  // 1-based; lines by LF, columns in bytes
  };
  auto position_of = [&](const yaml_mark_t& mark) -> position {
    auto at = offset_of(mark);
    const auto& starts = same_lines ? yaml_line_starts : line_starts;
    std::size_t line = mark.line;  // where the tables agree, a mark's line is the offset's: checked, not assumed
    if (!same_lines || line >= starts.size() || starts[line] > at ||
        (line + 1 < starts.size() && starts[line + 1] <= at)) {
      line = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), at) - starts.begin()) - 1;
    }
    return {to_u32(line + 1), to_u32(at - starts[line] + 1)};
  };

  auto error_at = [&](const yaml_mark_t& mark, std::string code, std::string message) -> diagnostic {
    auto at = position_of(mark);
    return {severity::error, std::move(code), std::move(message), {std::string(name), at.line, at.column}, {}};
  };

  reserve_for_text(doc, text.size(), limits);

  // The stream's size with aliases expanded. A node's own expanded size is what
  // the totals grew by between its start and its end, so an alias adds its
  // target's in O(1).
  struct size {
    std::uint64_t nodes = 0, bytes = 0;
  };
  size total;
  std::unordered_map<std::uint32_t, size> expanded;  // per anchored node, once it is complete

  // The sequences and mappings being filled, innermost last: where their
  // children start in `pending` and the totals when they started. A
  // collection's children go to doc.child_index in one piece when it ends, so
  // that each collection's are contiguous.
  struct open_collection {
    std::uint32_t node;
    std::size_t first_pending;
    size total_at_start;
    bool anchored;
  };
  std::vector<open_collection> open;
  std::vector<std::uint32_t> pending;
  std::unordered_map<std::string, std::uint32_t> anchors;
  auto grow = [&](const yaml_event_t& e, size by, bool alias) -> bool {
    total.nodes += by.nodes;
    total.bytes += by.bytes;
    std::string via = alias ? " with its aliases expanded (each use of an alias counts again)" : "";
    if (total.nodes > limits.max_nodes) {
      diagnostics.push_back(error_at(e.start_mark, diag::limit,
                                     "the document has more than the max-nodes limit of " +
                                         std::to_string(limits.max_nodes) + " nodes" + via));
      return false;
    }
    if (total.bytes > limits.max_bytes) {
      diagnostics.push_back(error_at(e.start_mark, diag::limit,
                                     "the document holds more text than the max-file-bytes limit of " +
                                         std::to_string(limits.max_bytes) + " bytes" + via));
      return false;
    }
    return true;
  };

  // Adds node k to the innermost open collection, or makes it a document root.
  auto attach = [&](std::uint32_t k) {
    if (open.empty()) {
      doc.roots.push_back(k);
    } else {
      pending.push_back(k);
    }
  };
  auto make = [&](yaml_kind kind, const yaml_event_t& e) -> std::uint32_t {
    yaml_node n;
    n.kind = kind;
    auto start = position_of(e.start_mark), end = position_of(e.end_mark);
    n.line = start.line;
    n.column = start.column;
    n.end_line = end.line;
    n.end_column = end.column;
    doc.nodes.push_back(n);
    return to_u32(doc.nodes.size() - 1);
  };
  // Ends the innermost open collection: its children move to doc.child_index.
  auto close = [&]() -> std::uint32_t {
    const auto& c = open.back();
    auto k = c.node;
    auto from = c.first_pending;
    if (c.anchored) expanded[k] = {total.nodes - c.total_at_start.nodes, total.bytes - c.total_at_start.bytes};
    auto& n = doc.nodes[k];
    n.first = doc.child_index.size();
    n.size = to_u32(pending.size() - from);
    doc.child_index.insert(doc.child_index.end(), pending.begin() + static_cast<std::ptrdiff_t>(from), pending.end());
    pending.resize(from);
    open.pop_back();
    return k;
  };
  auto remember_anchor = [&](const yaml_char_t* anchor, std::uint32_t k) {
    if (anchor != nullptr) anchors[reinterpret_cast<const char*>(anchor)] = k;
  };

  // Reads every event; stops at the stream's end, a syntax error or a limit hit.
  auto read_events = [&]() {
    for (;;) {
      yaml_event_t e;
      if (yaml_parser_parse(parser.get(), &e) == 0) {
        const char* problem = parser->problem != nullptr ? parser->problem : "invalid YAML";
        std::string message = std::string(problem);
        if (parser->context != nullptr) message = std::string(parser->context) + ": " + message;
        if (parser->error == YAML_READER_ERROR) {
          // Encoding errors come from libyaml's reader, which knows only the byte offset.
          auto mark = mark_of(text, parser->problem_offset);
          diagnostics.push_back({severity::error, diag::yaml_syntax, "invalid YAML: " + message,
                                 {std::string(name), to_u32(mark.line + 1), to_u32(mark.column + 1)}, {}});
        } else {
          diagnostics.push_back(error_at(parser->problem_mark, diag::yaml_syntax,
                                         "invalid YAML: " + message +
                                             explain_tabs(text, parser->problem_mark.line < yaml_line_starts.size()
                                                                    ? yaml_line_starts[parser->problem_mark.line]
                                                                    : text.size())));
        }
        return;
      }
      struct event_guard {
        yaml_event_t* e;
        ~event_guard() { yaml_event_delete(e); }
      } guard{&e};

      switch (e.type) {
        case YAML_STREAM_END_EVENT:
          return;
        case YAML_DOCUMENT_START_EVENT:
          anchors.clear();  // anchors do not cross documents
          break;
        case YAML_SCALAR_EVENT: {
          size own{1, e.data.scalar.length};
          if (e.data.scalar.length > UINT32_MAX) {  // a node holds its text's length in 32 bits
            diagnostics.push_back(error_at(e.start_mark, diag::limit, "a value is longer than 4 GiB"));
            return;
          }
          if (!grow(e, own, false)) return;
          auto k = make(yaml_kind::scalar, e);
          auto& n = doc.nodes[k];
          n.first = doc.scalar_text.size();
          n.size = to_u32(e.data.scalar.length);
          doc.scalar_text.append(reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length);
          n.quoted = e.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
          if (e.data.scalar.anchor != nullptr) expanded[k] = own;
          remember_anchor(e.data.scalar.anchor, k);
          attach(k);
          break;
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
          if (open.size() >= limits.max_depth) {
            diagnostics.push_back(error_at(e.start_mark, diag::limit,
                                           "nesting is deeper than the max-depth limit of " +
                                               std::to_string(limits.max_depth) + " levels"));
            return;
          }
          bool sequence = e.type == YAML_SEQUENCE_START_EVENT;
          auto at_start = total;
          if (!grow(e, {1, 0}, false)) return;
          auto k = make(sequence ? yaml_kind::sequence : yaml_kind::mapping, e);
          doc.nodes[k].flow = sequence ? e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                                       : e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
          const auto* anchor = sequence ? e.data.sequence_start.anchor : e.data.mapping_start.anchor;
          remember_anchor(anchor, k);
          attach(k);
          open.push_back({k, pending.size(), at_start, anchor != nullptr});
          break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: {
          auto end = position_of(e.end_mark);
          auto k = close();
          doc.nodes[k].end_line = end.line;
          doc.nodes[k].end_column = end.column;
          break;
        }
        case YAML_ALIAS_EVENT: {
          auto it = anchors.find(reinterpret_cast<const char*>(e.data.alias.anchor));
          if (it == anchors.end()) {
            diagnostics.push_back(error_at(e.start_mark, diag::yaml_syntax,
                                           std::string("invalid YAML: unknown anchor '") +
                                               reinterpret_cast<const char*>(e.data.alias.anchor) + "'"));
            return;
          }
          for (const auto& c : open) {
            if (c.node == it->second) {
              diagnostics.push_back(error_at(e.start_mark, diag::yaml_syntax,
                                             "invalid YAML: an alias cannot refer to a node that contains it"));
              return;
            }
          }
          if (!grow(e, expanded.at(it->second), true)) return;
          attach(it->second);  // shared, not copied
          break;
        }
        default:
          break;
      }
    }
  };
  read_events();
  // After an error, what was parsed so far stays readable: the collections still open end where they are.
  while (!open.empty()) close();
  return doc;
}

}  // namespace cidrcheck::detail
