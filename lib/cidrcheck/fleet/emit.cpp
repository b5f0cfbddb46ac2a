#include "emit.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/error.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace cidrcheck::detail {

namespace {

auto is_identifier_char(char c) -> bool {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// A code point as \uXXXX (or \UXXXXXXXX), the escape YAML and HCL share.
void append_unicode_escape(std::string& out, char32_t c) {
  char buf[12];
  if (c <= 0xFFFF) {
    std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(c));
  } else {
    std::snprintf(buf, sizeof buf, "\\U%08X", static_cast<unsigned>(c));
  }
  out += buf;
}

// Code points YAML does not allow raw in a double-quoted scalar, or that
// readers treat as line breaks or byte order marks.
auto yaml_needs_escape(char32_t c) -> bool {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0xFEFF || c == 0xFFFE ||
         c == 0xFFFF;
}

// A map key as YAML: plain when it is an identifier (letters, digits, '_',
// '-', '.', '/') that no YAML 1.1 reader takes for something else, else quoted.
auto yaml_key(std::string_view key) -> std::string {
  bool plain = !key.empty() && ((key[0] >= 'a' && key[0] <= 'z') || (key[0] >= 'A' && key[0] <= 'Z'));
  for (char c : key) plain = plain && (is_identifier_char(c) || c == '.' || c == '/');
  for (std::string_view word : {"y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
                                "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL"}) {
    plain = plain && key != word;
  }
  return plain ? std::string(key) : yaml_quoted(key);
}

auto yaml_comment(std::string_view text) -> std::string { return "# " + printable(text); }

auto is_scalar(const doc_node& n) -> bool {
  return !std::holds_alternative<doc_list>(n.value) && !std::holds_alternative<doc_map>(n.value);
}

auto yaml_scalar(const doc_node& n) -> std::string {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) return "null";
        if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
        if constexpr (std::is_same_v<T, std::int64_t>) return std::to_string(v);
        if constexpr (std::is_same_v<T, std::string>) return yaml_quoted(v);
        if constexpr (std::is_same_v<T, doc_reference>) return yaml_quoted(v.text);
        if constexpr (std::is_same_v<T, doc_list>) return "[]";
        if constexpr (std::is_same_v<T, doc_map>) return "{}";
      },
      n.value);
}

auto empty_collection(const doc_node& n) -> bool {
  if (const auto* l = std::get_if<doc_list>(&n.value)) return l->empty();
  if (const auto* m = std::get_if<doc_map>(&n.value)) return m->empty();
  return false;
}

void write_yaml(std::string& out, const doc_node& n, const std::string& indent);

// A map's entries at `indent`, each key on its own line.
void write_yaml_map(std::string& out, const doc_map& map, const std::string& indent) {
  for (const auto& [key, value] : map) {
    if (!value.comment.empty()) out += indent + yaml_comment(value.comment) + "\n";
    out += indent + yaml_key(key) + ":";
    if (is_scalar(value) || empty_collection(value)) {
      out += " " + yaml_scalar(value) + "\n";
    } else {
      out += "\n";
      write_yaml(out, value, indent + "  ");
    }
  }
}

void write_yaml(std::string& out, const doc_node& n, const std::string& indent) {
  if (const auto* map = std::get_if<doc_map>(&n.value)) return write_yaml_map(out, *map, indent);
  const auto* list = std::get_if<doc_list>(&n.value);
  if (list == nullptr) {
    out += indent + yaml_scalar(n) + "\n";
    return;
  }
  for (const auto& item : *list) {
    if (!item.comment.empty()) out += indent + yaml_comment(item.comment) + "\n";
    if (is_scalar(item) || empty_collection(item)) {
      out += indent + "- " + yaml_scalar(item) + "\n";
    } else if (const auto* inner = std::get_if<doc_map>(&item.value)) {
      // "- key: value" with the other keys under it, two spaces in.
      std::string block;
      write_yaml_map(block, *inner, indent + "  ");
      out += indent + "- " + block.substr(indent.size() + 2);
    } else {
      out += indent + "-\n";
      write_yaml(out, item, indent + "  ");
    }
  }
}

auto is_shell_safe(std::string_view text) -> bool {
  if (text.empty()) return false;
  for (char c : text) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '@' ||
                c == '%' || c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-';
    if (!safe) return false;
  }
  return true;
}

auto is_variable_name(std::string_view name) -> bool {
  if (name.empty() || !(name[0] >= 'A' && name[0] <= 'Z')) return false;
  for (char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

auto hcl_quoted(std::string_view text) -> std::string {
  auto valid = utf8_replaced(text);
  std::string out = "\"";
  for (std::size_t k = 0; k < valid.size();) {
    auto n = utf8_length(std::string_view(valid).substr(k));
    auto c = utf8_decode(std::string_view(valid).substr(k), n);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (is_control(c) || c == 0x2028 || c == 0x2029) {
      append_unicode_escape(out, c);
    } else if ((c == '$' || c == '%') && k + 1 < valid.size() && valid[k + 1] == '{') {
      out += static_cast<char>(c);  // "$${" and "%%{" are a literal "${" and "%{"
      out += static_cast<char>(c);
    } else {
      out.append(valid, k, n);
    }
    k += n;
  }
  return out + "\"";
}

auto is_hcl_identifier(std::string_view text) -> bool {
  if (text.empty() || !((text[0] >= 'a' && text[0] <= 'z') || (text[0] >= 'A' && text[0] <= 'Z') || text[0] == '_')) {
    return false;
  }
  for (char c : text) {
    if (!is_identifier_char(c)) return false;
  }
  return true;
}

auto is_hcl_reference(std::string_view text) -> bool {
  for (std::size_t start = 0; start <= text.size();) {
    auto end = std::min(text.find('.', start), text.size());
    if (!is_hcl_identifier(text.substr(start, end - start))) return false;
    start = end + 1;
  }
  return true;
}

void refuse(const std::string& why) { throw basic_error<std::invalid_argument>(why); }

auto hcl_value(const doc_node& n) -> std::string {
  if (const auto* s = std::get_if<std::string>(&n.value)) return hcl_quoted(*s);
  if (const auto* r = std::get_if<doc_reference>(&n.value)) {
    if (!is_hcl_reference(r->text)) refuse("not a Terraform reference: '" + printable(r->text) + "'");
    return r->text;
  }
  if (const auto* b = std::get_if<bool>(&n.value)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(&n.value)) return std::to_string(*i);
  if (const auto* l = std::get_if<doc_list>(&n.value)) {
    std::string out = "[";
    for (std::size_t k = 0; k < l->size(); ++k) out += (k == 0 ? "" : ", ") + hcl_value((*l)[k]);
    return out + "]";
  }
  if (std::holds_alternative<std::monostate>(n.value)) return "null";
  refuse("a Terraform attribute holds a map; write it as a block");
  return "";
}

}  // namespace

// --- YAML ---------------------------------------------------------------------

auto yaml_quoted(std::string_view text) -> std::string {
  auto valid = utf8_replaced(text);
  std::string out = "\"";
  for (std::size_t k = 0; k < valid.size();) {
    auto n = utf8_length(std::string_view(valid).substr(k));
    auto c = utf8_decode(std::string_view(valid).substr(k), n);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (yaml_needs_escape(c)) {
      append_unicode_escape(out, c);
    } else {
      out.append(valid, k, n);
    }
    k += n;
  }
  return out + "\"";
}

auto to_yaml(const doc_node& document) -> std::string {
  std::string out;
  if (!document.comment.empty()) out += yaml_comment(document.comment) + "\n";
  if (is_scalar(document) || empty_collection(document)) return out + yaml_scalar(document) + "\n";
  write_yaml(out, document, "");
  return out;
}

// --- shell --------------------------------------------------------------------

auto word(std::string text) -> shell_word { return {std::move(text), false}; }
auto input_word(std::string text) -> shell_word { return {std::move(text), true}; }
auto placeholder(std::string variable, std::string meaning, std::string prefix) -> shell_word {
  return {shell_placeholder{std::move(variable), std::move(meaning), std::move(prefix)}, false};
}
auto option_word(std::string_view option, std::string_view value) -> shell_word {
  return input_word(std::string(option) + "=" + std::string(value));
}

auto shell_quoted(std::string_view text) -> std::string {
  if (is_shell_safe(text)) return std::string(text);
  // Controls (which no loaded name holds) as printable escapes, so the word stays on one line.
  auto shown = printable(text);
  std::string out = "'";
  for (char c : shown) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

auto to_shell(const shell_command& command) -> std::string {
  std::string out;
  for (const auto& w : command.words) {
    if (!out.empty()) out += ' ';
    if (const auto* p = std::get_if<shell_placeholder>(&w.text)) {
      if (!is_variable_name(p->variable)) refuse("not a shell variable name: '" + printable(p->variable) + "'");
      if (!p->prefix.empty() && !is_shell_safe(p->prefix)) refuse("not a safe prefix: '" + printable(p->prefix) + "'");
      out += p->prefix + "\"$" + p->variable + "\"";
      continue;
    }
    const auto& text = std::get<std::string>(w.text);
    if (!w.from_input && !is_shell_safe(text)) {
      refuse("a word cidrcheck writes must be safe unquoted: '" + printable(text) + "'");
    }
    out += shell_quoted(text);
  }
  return out;
}

auto shell_line_problem(std::string_view line) -> std::optional<std::string> {
  enum class state { plain, single, double_quoted } at = state::plain;
  for (std::size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return "a control character at byte " + std::to_string(k + 1);
    if (at == state::single) {
      if (c == '\'') at = state::plain;
      continue;
    }
    if (c == '$') {
      // Only "$NAME" inside double quotes: a placeholder.
      std::size_t end = k + 1;
      while (end < line.size() && ((line[end] >= 'A' && line[end] <= 'Z') || (line[end] >= '0' && line[end] <= '9') ||
                                   line[end] == '_')) {
        ++end;
      }
      if (at != state::double_quoted || end == k + 1) return "an expansion ($) at byte " + std::to_string(k + 1);
      k = end - 1;
      continue;
    }
    if (at == state::double_quoted) {
      if (c == '"') at = state::plain;
      else if (c == '`' || c == '\\') return "a substitution or escape inside double quotes at byte " + std::to_string(k + 1);
      continue;
    }
    if (c == '\\' && k + 1 < line.size() && line[k + 1] == '\'') {  // \' outside quotes: a literal quote ('\'' idiom)
      ++k;
      continue;
    }
    switch (c) {
      case '\'': at = state::single; break;
      case '"': at = state::double_quoted; break;
      case ';': case '&': case '|': case '<': case '>': case '(': case ')': case '`': case '\\': case '#': case '*':
      case '?': case '[': case '~': case '{': case '}': case '!':
        return std::string("an unquoted '") + c + "' at byte " + std::to_string(k + 1);
      default: break;
    }
  }
  if (at != state::plain) return "a quote that never ends";
  return std::nullopt;
}

// --- HCL ------------------------------------------------------------------------

auto to_hcl(const std::vector<hcl_block>& blocks) -> std::string {
  std::string out;
  for (const auto& b : blocks) {
    if (!out.empty()) out += "\n";
    if (!is_hcl_identifier(b.type)) refuse("not a Terraform block type: '" + printable(b.type) + "'");
    out += b.type;
    for (const auto& label : b.labels) {
      if (!is_hcl_identifier(label)) refuse("not a Terraform label: '" + printable(label) + "'");
      out += " \"" + label + "\"";
    }
    out += " {\n";
    std::size_t width = 0;
    for (const auto& [name, value] : b.attributes) width = std::max(width, name.size());
    for (const auto& [name, value] : b.attributes) {
      if (!is_hcl_identifier(name)) refuse("not a Terraform attribute: '" + printable(name) + "'");
      if (!value.comment.empty()) out += "  # " + printable(value.comment) + "\n";
      out += "  " + name + std::string(width - name.size(), ' ') + " = " + hcl_value(value) + "\n";
    }
    out += "}\n";
  }
  return out;
}

auto terraform_name(std::string_view name) -> std::string {
  std::string out;
  for (char ch : name) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    bool keep = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
    out += keep ? ch : '-';
  }
  if (out.empty() || !(out[0] >= 'a' && out[0] <= 'z')) out = "n-" + out;
  return out;
}

}  // namespace cidrcheck::detail
