#include "report.hpp"
#include "words.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/rules.hpp>

namespace cidrcheck::cli {

namespace {

// ANSI SGR sequences, as GCC colours its diagnostics.
struct palette {
  std::string_view bold, error, warning, note, hint, reset;
};
constexpr palette plain{};
constexpr palette ansi{"\x1b[1m", "\x1b[1;31m", "\x1b[1;35m", "\x1b[1;36m", "\x1b[32m", "\x1b[0m"};

// Every text from the input (file names, and names inside messages, notes and
// hints) goes out through detail::printable: one line each, no control characters.
auto location_text(const source_location& where) -> std::string {
  return where.file.empty() ? std::string("cidrcheck") : detail::printable(to_string(where));
}

class text_writer {
 public:
  text_writer(output& out, const text_style& style) : out_(out), style_(style), p_(style.colour ? ansi : plain) {}

  void finding_block(const fleet& f, const finding& x) {
    auto& buf = out_.buffer();
    auto at = locate(f, x).where;
    line_start(at);
    auto colour = x.level == severity::error ? p_.error : x.level == severity::warning ? p_.warning : p_.note;
    buf += colour;
    buf += to_string(x.level);
    buf += '[';
    buf += info(x.id).name;
    buf += "]:";
    buf += p_.reset;
    buf += ' ';
    detail::append_printable(buf, x.message);
    buf += '\n';
    for (std::size_t k = 1; k < x.ranges.size(); ++k) {
      const auto& other = f.ranges[x.ranges[k]];
      note(other.where, range_note(f, other));
    }
    if (!x.ranges.empty() && f.ranges[x.ranges.front()].origin != range_origin::declared) {
      note(at, range_note(f, f.ranges[x.ranges.front()]));
    }
    for (auto c : x.via) note(f.connections[c].where, f.describe_connection(c) + " is declared here");
    if (!x.hint.empty() && !style_.quiet) {
      buf += "  ";
      buf += p_.hint;
      buf += "hint:";
      buf += p_.reset;
      buf += ' ';
      detail::append_printable(buf, x.hint);
      buf += '\n';
    }
    out_.maybe_flush();
  }

  void removed(const fleet& f, const finding& x) {
    auto& buf = out_.buffer();
    buf += "  removed: ";
    buf += to_string(x.level);
    buf += '[';
    buf += info(x.id).name;
    buf += "]: ";
    detail::append_printable(buf, x.message);
    buf += " (was " + location_text(locate(f, x).where) + ")\n";
    out_.maybe_flush();
  }

  void summary(std::string text) {
    auto& buf = out_.buffer();
    buf += p_.bold;
    detail::append_printable(buf, text);
    buf += p_.reset;
    buf += '\n';
  }

 private:
  void line_start(const source_location& at) {
    auto& buf = out_.buffer();
    buf += p_.bold;
    buf += location_text(at);
    buf += ':';
    buf += p_.reset;
    buf += ' ';
  }
  void note(const source_location& at, const std::string& text) {
    auto& buf = out_.buffer();
    line_start(at);
    buf += p_.note;
    buf += "note:";
    buf += p_.reset;
    buf += ' ';
    detail::append_printable(buf, text);
    buf += '\n';
  }

  output& out_;
  const text_style& style_;
  const palette& p_;
};

// "; 2 suppressed; 3 in the baseline; 1 below the minimum severity", as far as any.
auto hidden_clauses(const check_report& r) -> std::string {
  std::string out;
  if (!r.suppressed.empty()) out += "; " + std::to_string(r.suppressed.size()) + " suppressed";
  if (r.baselined != 0) out += "; " + std::to_string(r.baselined) + " in the baseline";
  if (r.below_minimum != 0) out += "; " + std::to_string(r.below_minimum) + " below the minimum severity";
  return out;
}

// "; 2 input warnings, 1 input note": the load diagnostics printed on standard
// error, which the counts before it (findings) leave out; empty without any.
auto input_clause(const check_report& r) -> std::string {
  std::size_t warnings = 0, notes = 0;
  for (const auto& d : r.diagnostics) {
    if (d.level == severity::warning) ++warnings;
    if (d.level == severity::note) ++notes;
  }
  std::string out;
  if (warnings != 0) out += plural(warnings, "input warning");
  if (notes != 0) out += (out.empty() ? "" : ", ") + plural(notes, "input note");
  return out.empty() ? out : "; " + out;
}

}  // namespace

void write_text(output& out, const check_report& r, const text_style& style) {
  text_writer w(out, style);
  const fleet& f = r.shown.model;
  for (const auto& x : r.shown.findings) w.finding_block(f, x);
  if (style.quiet) return;
  if (r.removed) {
    for (const auto& x : r.removed->findings) w.removed(r.removed->model, x);
    w.summary("added " + describe_counts(count_severities(r.shown.findings)) + "; removed " +
              plural(r.removed->findings.size(), "finding") + " (against " + std::string(r.old_name) + ")" +
              hidden_clauses(r) + input_clause(r));
    return;
  }
  w.summary(describe_counts(count_severities(r.shown.findings)) + " in " + plural(f.ranges.size(), "range") + " of " +
            plural(f.owners.size(), "owner") + ", " + plural(f.connections.size(), "connection") + " (" +
            plural(r.files.size(), "file") + ")" + hidden_clauses(r) + input_clause(r));
}

}  // namespace cidrcheck::cli
