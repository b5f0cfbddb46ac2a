// NetBox's CSV export of the prefix list (Export -> "All data (CSV)", or
// "Current view"): a header row of the table's column names (Prefix, Status,
// VRF, Tenant, Site or Scope Type and Scope, Role, Description, ...), then a
// row per prefix. CSV as Python's csv module writes it (RFC 4180): a field
// that holds a comma, a quote or a line break is quoted, a quote inside is
// doubled, rows end with CRLF or LF; a UTF-8 byte-order mark is skipped.

#include "../too_many_errors.hpp"
#include "importers.hpp"
#include "netbox_prefixes.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <map>

namespace cidrcheck::detail {

namespace {

struct csv_field {
  std::string value;
  std::uint32_t line = 0, column = 0;  ///< where the field starts: its opening quote, if quoted
  bool quoted = false;
  /// value[k] is at column + quoted + k: no doubled quote and no line break came before the field's end.
  bool verbatim = true;
};
using csv_row = std::vector<csv_field>;

constexpr std::string_view blanks = " \t\r\n";

// Removes blanks around text, and with `bullets` the depth marks ("•") older
// NetBox versions render before a child prefix (the Prefix column's template).
auto trimmed(std::string_view text, bool bullets = false) -> std::pair<std::string_view, std::size_t> {
  std::size_t from = 0;
  while (from < text.size()) {
    if (blanks.find(text[from]) != std::string_view::npos) {
      ++from;
    } else if (bullets && text.substr(from, 3) == "\xE2\x80\xA2") {
      from += 3;
    } else {
      break;
    }
  }
  auto to = text.find_last_not_of(blanks);
  if (to == std::string_view::npos || to < from) return {{}, from};
  return {text.substr(from, to + 1 - from), from};
}

// A header as the code compares it: trimmed, lower case, '_' as a blank
// ("Scope Type", "scope_type": NetBox's import format names columns by field).
auto header_key(std::string_view text) -> std::string {
  std::string out;
  for (char c : trimmed(text).first) {
    out += c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

class csv_reader {
 public:
  csv_reader(std::string_view text, std::string file, std::size_t max_errors, std::vector<diagnostic>& diagnostics)
      : text_(text), file_(std::move(file)), max_errors_(max_errors), diagnostics_(diagnostics) {
    for (const auto& d : diagnostics_) errors_ += d.level == severity::error ? 1 : 0;
    if (text_.starts_with("\xEF\xBB\xBF")) line_start_ = at_ = 3;  // a byte-order mark: not a column
  }

  // Returns the next row, or nullopt at the end of the text or when reading stops.
  auto next() -> std::optional<csv_row> {
    if (at_ >= text_.size() || stopped_) return std::nullopt;
    csv_row row;
    while (true) {
      row.push_back(field());
      if (stopped_) return std::nullopt;
      if (at_ >= text_.size()) return row;
      if (text_[at_] == ',') {
        ++at_;
        continue;
      }
      // A line break ends the row (the CR of a CRLF is consumed with it).
      if (text_[at_] == '\r') ++at_;
      ++at_;
      ++line_;
      line_start_ = at_;
      return row;
    }
  }

  auto where(std::uint32_t line, std::uint32_t column) const -> source_location { return {file_, line, column}; }
  void error(source_location at, std::string code, std::string message) {
    if (stopped_) return;
    diagnostics_.push_back({severity::error, std::move(code), std::move(message), std::move(at), {}});
    if (++errors_ >= max_errors_) {
      diagnostics_.push_back(too_many_errors(max_errors_));
      stopped_ = true;
    }
  }

 private:
  auto column() const -> std::uint32_t { return static_cast<std::uint32_t>(at_ - line_start_ + 1); }

  // Reads one field; at_ is left on the comma or line break after it, or at the end.
  auto field() -> csv_field {
    csv_field f;
    f.line = line_;
    f.column = column();
    if (at_ < text_.size() && text_[at_] == '"') {
      f.quoted = true;
      ++at_;
      while (true) {
        if (at_ >= text_.size()) {
          error(where(f.line, f.column), diag::csv_syntax,
                "invalid CSV: a quoted field that never ends (the file ends inside it)");
          stopped_ = true;
          return f;
        }
        char c = text_[at_];
        if (c == '"') {
          if (at_ + 1 < text_.size() && text_[at_ + 1] == '"') {
            f.value += '"';
            f.verbatim = false;
            at_ += 2;
            continue;
          }
          ++at_;
          break;
        }
        if (c == '\n') {
          ++line_;
          line_start_ = at_ + 1;
          f.verbatim = false;
        }
        f.value += c;
        ++at_;
      }
      if (at_ < text_.size() && text_[at_] != ',' && text_[at_] != '\n' &&
          !(text_[at_] == '\r' && (at_ + 1 == text_.size() || text_[at_ + 1] == '\n'))) {
        error(where(line_, column()), diag::csv_syntax,
              "invalid CSV: text after a field's closing quote (a quote inside a quoted field is written \"\")");
        // Read on as Python's csv module does: the text joins the field.
        f.verbatim = false;
        while (at_ < text_.size() && text_[at_] != ',' && text_[at_] != '\n') f.value += text_[at_++];
      }
      return f;
    }
    auto end = text_.find_first_of(",\n", at_);
    if (end == std::string_view::npos) end = text_.size();
    auto value = text_.substr(at_, end - at_);
    if (end < text_.size() && text_[end] == '\n' && value.ends_with('\r')) value.remove_suffix(1);
    f.value = std::string(value);
    at_ = end;
    return f;
  }

  std::string_view text_;
  std::string file_;
  std::size_t max_errors_;
  std::vector<diagnostic>& diagnostics_;
  std::size_t errors_ = 0;
  std::size_t at_ = 0, line_start_ = 0;
  std::uint32_t line_ = 1;
  bool stopped_ = false;
};

// The columns cidrcheck reads, by their header_key.
struct columns {
  std::map<std::string, std::size_t> index;
  auto find(std::string_view key) const -> std::optional<std::size_t> {
    auto it = index.find(std::string(key));
    return it == index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
  }
};

auto header_list(const csv_row& header) -> std::string {
  std::string out;
  for (const auto& f : header) {
    if (out.size() > 200) return out + ", ...";
    // A file of another format has anything in its first line (an environment's variables): quote each
    // column only as much as detail::excerpt() allows.
    out += (out.empty() ? "" : ", ") + detail::excerpt(trimmed(f.value).first);
  }
  return out;
}

}  // namespace

void import_netbox_csv(std::string_view text, const std::string& file, std::size_t max_errors,
                       std::vector<diagnostic>& diagnostics, import_result& out) {
  csv_reader in(text, file, max_errors, diagnostics);
  // Bytes that are not UTF-8 are an error at the first, as in every input (docs/limits.md).
  for (std::size_t k = 0, line = 1, line_start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0; k < text.size();) {
    auto n = utf8_length(text.substr(k));
    if (n == 0) {
      in.error(in.where(static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(k - line_start + 1)),
               diag::csv_syntax, "invalid CSV: a byte that is not UTF-8; save the export as UTF-8");
      return;
    }
    if (text[k] == '\n') {
      ++line;
      line_start = k + 1;
    }
    k += n;
  }
  auto header = in.next();
  if (!header) return;
  // Each column cidrcheck reads (the keys given to cols.find and cell below) must
  // be named once: which of two to read would be a guess.
  constexpr std::array<std::string_view, 11> read_columns{"prefix", "prefix (flat)", "vrf", "status", "role", "scope",
                                                          "scope type", "site", "tenant", "description", "id"};
  columns cols;
  for (std::size_t k = 0; k < header->size(); ++k) {
    const auto& field = (*header)[k];
    auto key = header_key(field.value);
    auto [first, fresh] = cols.index.emplace(key, k);
    if (!fresh && std::find(read_columns.begin(), read_columns.end(), key) != read_columns.end()) {
      in.error(in.where(field.line, field.column), diag::csv_syntax,
               "the header names the column " + printable(trimmed(field.value).first) + " twice (fields " +
                   std::to_string(first->second + 1) + " and " + std::to_string(k + 1) +
                   "); cidrcheck reads that column and cannot tell which of the two to read");
      return;
    }
  }
  auto prefix_column = cols.find("prefix");
  if (!prefix_column) prefix_column = cols.find("prefix (flat)");
  if (!prefix_column) {
    in.error(in.where(1, 1), diag::missing_key,
             "expected the CSV export of NetBox's prefix list (Prefixes, Export, All data (CSV)), whose header names a "
             "Prefix column; this header has: " +
                 header_list(*header) + " (column names are compared in English)");
    return;
  }
  auto cell = [&](const csv_row& row, std::string_view key) -> std::string {
    auto k = cols.find(key);
    return k ? std::string(trimmed(row[*k].value).first) : std::string();
  };

  std::vector<netbox_prefix> prefixes;
  while (auto row = in.next()) {
    if (row->size() == 1 && !row->front().quoted && trimmed(row->front().value).first.empty()) continue;  // a blank line
    const auto& first = row->front();
    if (row->size() != header->size()) {
      in.error(in.where(first.line, first.column), diag::csv_syntax,
               "invalid CSV: this row has " + std::to_string(row->size()) + " fields, the header " +
                   std::to_string(header->size()));
      continue;
    }
    const auto& f = (*row)[*prefix_column];
    auto [text_of, lead] = trimmed(f.value, true);
    // Where text_of[k] is: exact on one line, else the field's start.
    auto at = [&, lead = lead](std::size_t k) {
      auto w = in.where(f.line, f.column);
      if (f.verbatim) w.column += static_cast<std::uint32_t>((f.quoted ? 1 : 0) + lead + k);
      return w;
    };
    if (text_of.empty()) {
      in.error(at(0), diag::missing_key, "a row without a prefix");
      continue;
    }
    auto parsed = prefix::try_parse(text_of);
    if (!parsed) {
      std::string message;
      try {
        prefix::parse(text_of);
      } catch (const parse_error& e) {
        message = e.what();
      }
      in.error(at(parsed.error().offset), diag::invalid_cidr, "Prefix: " + message);
      continue;
    }
    netbox_prefix p;
    p.range.cidr = *parsed;
    p.range.where = at(0);
    if (f.verbatim) p.range.end_column = p.range.where.column + static_cast<std::uint32_t>(text_of.size());
    p.where = in.where(first.line, first.column);
    if (auto id = cell(*row, "id"); !id.empty()) {
      std::int64_t value = 0;
      auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), value);
      if (ec == std::errc{} && end == id.data() + id.size() && value >= 0) {
        p.id = value;
      } else {
        const auto& c = (*row)[*cols.find("id")];
        in.error(in.where(c.line, c.column), diag::type,
                 "ID must be a whole number, not \"" + printable(id) + "\"");
      }
    }
    p.vrf = cell(*row, "vrf");
    if (p.vrf == "Global") p.vrf.clear();  // the VRF column's text for the global table
    p.status = cell(*row, "status");
    p.role = cell(*row, "role");
    p.tenant = cell(*row, "tenant");
    if (auto scope = cell(*row, "scope"); !scope.empty()) {
      auto word = netbox_scope_word(cell(*row, "scope type"));
      p.scope = word.empty() ? scope : word + " " + scope;
    } else if (auto site = cell(*row, "site"); !site.empty()) {
      p.scope = "site " + site;
    }
    p.description = cell(*row, "description");
    prefixes.push_back(std::move(p));
  }
  add_netbox_prefixes(std::move(prefixes), "NetBox's CSV export", out, diagnostics);
}

}  // namespace cidrcheck::detail
