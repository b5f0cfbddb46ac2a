// GitHub Actions workflow commands: one annotation per finding, on the line of
// its first range. GitHub shows at most 10 annotations of each level per step
// (and 50 per job), so past that a notice says how many were left out.

#include "report.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/rules.hpp>

#include <array>

namespace cidrcheck::cli {

namespace {

constexpr std::size_t per_level_cap = 10;

// The escaping of @actions/core (toolkit packages/core/src/command.ts).
auto escape_data(std::string_view text) -> std::string {
  std::string out;
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

auto escape_property(std::string_view text) -> std::string {
  std::string out;
  for (char c : escape_data(text)) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

auto command_name(severity s) -> std::string_view {
  switch (s) {
    case severity::error: return "error";
    case severity::warning: return "warning";
    case severity::note: return "notice";
  }
  return "warning";
}

// The annotation's text: the message, the notes a text report prints, the hint.
// Names in them are printable (detail::printable): a name cannot end the
// annotation's line and start a workflow command (::stop-commands::, ::error).
auto annotation_text(const fleet& f, const finding& x) -> std::string {
  std::string text = detail::printable(x.message);
  for (std::size_t k = 1; k < x.ranges.size(); ++k) {
    const auto& r = f.ranges[x.ranges[k]];
    text += "\n" + detail::printable(to_string(r.where) + ": " + range_note(f, r));
  }
  for (auto c : x.via) {
    text += "\n" + detail::printable(to_string(f.connections[c].where) + ": " + f.describe_connection(c) + " is declared here");
  }
  if (!x.hint.empty()) text += "\nhint: " + detail::printable(x.hint);
  return text;
}

}  // namespace

void write_github(output& out, const check_report& r) {
  const fleet& f = r.shown.model;
  auto [errors, warnings, notes] = count_severities(r.shown.findings);
  // The summary notice, when one is needed, takes one of the notice slots.
  bool overflow = errors > per_level_cap || warnings > per_level_cap || notes > per_level_cap;
  std::array<std::size_t, 3> room{overflow ? per_level_cap - 1 : per_level_cap, per_level_cap, per_level_cap};
  std::size_t left_out = 0;
  auto& buf = out.buffer();
  for (const auto& x : r.shown.findings) {
    auto& left = room[static_cast<std::size_t>(x.level)];
    if (left == 0) {
      ++left_out;
      continue;
    }
    --left;
    auto at = locate(f, x);
    buf += "::";
    buf += command_name(x.level);
    buf += " file=" + escape_property(detail::printable(at.where.file));
    if (at.where.line != 0) {
      buf += ",line=" + std::to_string(at.where.line) + ",endLine=" + std::to_string(at.where.line);
      if (at.where.column != 0) {
        buf += ",col=" + std::to_string(at.where.column);
        if (at.end_column > at.where.column) buf += ",endColumn=" + std::to_string(at.end_column);
      }
    }
    buf += ",title=" + escape_property(std::string(info(x.id).name) + " (" + std::string(info(x.id).id) + ")");
    buf += "::" + escape_data(annotation_text(f, x)) + "\n";
    out.maybe_flush();
  }
  if (left_out != 0) {
    buf += "::notice title=cidrcheck::" + std::to_string(left_out) + " more finding" + (left_out == 1 ? "" : "s") +
           " not annotated: GitHub shows at most 10 errors, 10 warnings and 10 notices per step; see the SARIF "
           "report or the job summary for all of them\n";
  }
}

}  // namespace cidrcheck::cli
