#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/prefix_list.hpp>

#include <cidrcheck/io/read_file.hpp>

#include "too_many_errors.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>

namespace cidrcheck {

namespace {

constexpr auto is_blank(char c) noexcept -> bool { return c == ' ' || c == '\t' || c == '\r'; }

// The longest line of the fast path, its newline not counted: "255.255.255.255/32".
constexpr std::size_t longest_v4_line = 18;

// The fast path for the common line: a bare IPv4 CIDR, "a.b.c.d/n", then a
// newline or the end of the text, in the form prefix::try_parse accepts
// (decimal numbers of 1 to 3 digits without a leading zero; in reject mode,
// no host bits set). Returns the bytes of the line, its newline included, and
// sets key; returns 0 for any other line, which the general path then reads
// (and reports, if it is bad). The list reader's property test checks that
// the two agree. Branch-light: which of 1, 2 or 3 digits a number has is
// unpredictable from line to line, so the value is chosen, not branched to.
auto parse_v4_line(std::string_view text, host_bits mode, std::uint64_t& key) noexcept -> std::size_t {
  const char* p = text.data();
  const char* const end = p + text.size();
  // The digit at p[i] as 0..9, or 10 and more for anything else and past the end.
  auto digit = [&](std::ptrdiff_t i) -> unsigned {
    return i < end - p ? static_cast<unsigned>(static_cast<unsigned char>(p[i])) - '0' : 10u;
  };
  // Reads a number of at most `max`, then expects `separator` ('\0': a newline or the end).
  auto number = [&](unsigned max, char separator, unsigned& value) -> bool {
    const unsigned d0 = digit(0), d1 = digit(1), d2 = digit(2);
    if (d0 > 9) return false;
    const std::ptrdiff_t digits = d1 > 9 ? 1 : d2 > 9 ? 2 : 3;
    value = digits == 1 ? d0 : digits == 2 ? d0 * 10 + d1 : d0 * 100 + d1 * 10 + d2;
    if (value > max || (digits > 1 && d0 == 0)) return false;
    p += digits;
    if (separator == '\0') {
      if (p == end) return true;
      if (*p != '\n') return false;
    } else if (p == end || *p != separator) {
      return false;
    }
    ++p;
    return true;
  };
  unsigned a = 0, b = 0, c = 0, d = 0, n = 0;
  if (!number(255, '.', a) || !number(255, '.', b) || !number(255, '.', c) || !number(255, '/', d) ||
      !number(32, '\0', n)) {
    return 0;
  }
  auto network = static_cast<std::uint32_t>(a << 24 | b << 16 | c << 8 | d);
  const auto length = static_cast<int>(n);
  const auto host = detail::host_mask<std::uint32_t>(length);
  if ((network & host) != 0) {
    if (mode == host_bits::reject) return 0;
    network &= ~host;
  }
  key = prefix_keys::v4_key(network, length);
  return static_cast<std::size_t>(p - text.data());
}

auto error_at(std::string_view file, std::uint32_t line, std::uint32_t column, std::string code, std::string message)
    -> diagnostic {
  return {severity::error, std::move(code), std::move(message), {std::string(file), line, column}, {}};
}

}  // namespace

auto prefix_list::operator[](std::size_t k) const -> list_entry {
  const auto entry = static_cast<std::uint32_t>(k);
  const run& r = *std::prev(std::upper_bound(runs_.begin(), runs_.end(), entry,
                                             [](std::uint32_t e, const run& x) { return e < x.entry; }));
  const std::uint32_t offset = entry - r.entry;
  prefix value = r.version == ip_version::v4 ? prefix_keys::v4_prefix(keys_.v4[r.position + offset])
                                             : prefix_keys::v6_prefix(keys_.v6[r.position + offset]);
  return {value, r.source, r.line + offset};
}

auto prefix_list::take_keys() && -> prefix_keys {
  runs_.clear();
  return std::exchange(keys_, {});
}

void prefix_list::push_back(const prefix& p, std::uint32_t source, std::uint32_t line) {
  if (!p.is_valid()) return;
  note(p.version(), source, line);
  keys_.push_back(p);
}

void parse_prefix_list(std::string_view text, std::string_view name, prefix_list& into, const list_options& options) {
  auto source = static_cast<std::uint32_t>(into.sources.size());
  into.sources.emplace_back(name);
  std::size_t errors = 0;
  for (const auto& d : into.diagnostics) errors += d.level == severity::error ? 1 : 0;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte-order mark

  std::uint32_t line_number = 0;
  const std::size_t entries_before = into.size();
  // The most IPv4 lines the text can hold: "0.0.0.0/0\n" is 10 bytes, the last line may lack its newline.
  into.keys_.v4.reserve(into.keys_.v4.size() + (text.size() + 1) / 10);
  // The fast path's lines are never over the limit, unless it is tiny.
  const bool fast = options.max_line_bytes >= longest_v4_line;
  while (!text.empty()) {
    ++line_number;
    std::uint64_t key = 0;
    if (auto bytes = fast ? parse_v4_line(text, options.mode, key) : 0; bytes != 0) {
      into.push_back_v4(key, source, line_number);
      text.remove_prefix(bytes);
      continue;
    }
    const char* nl = static_cast<const char*>(std::memchr(text.data(), '\n', text.size()));
    std::size_t length = nl ? static_cast<std::size_t>(nl - text.data()) : text.size();
    std::string_view line = text.substr(0, length);
    text.remove_prefix(nl ? length + 1 : length);

    if (line.size() > options.max_line_bytes) {
      into.diagnostics.push_back(error_at(name, line_number, static_cast<std::uint32_t>(options.max_line_bytes + 1),
                                          diag::limit,
                                          "line is longer than the max-line-bytes limit of " +
                                              std::to_string(options.max_line_bytes) + " bytes"));
    } else {
      if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
      std::size_t begin = 0;
      while (begin < line.size() && is_blank(line[begin])) ++begin;
      std::size_t end = line.size();
      while (end > begin && is_blank(line[end - 1])) --end;
      if (begin == end) continue;
      std::string_view token = line.substr(begin, end - begin);
      auto parsed = prefix::try_parse(token, options.mode);
      if (parsed) {
        into.push_back(*parsed, source, line_number);
        continue;
      }
      std::string message;
      try {
        prefix::parse(token, options.mode);
      } catch (const parse_error& e) {
        message = e.what();  // the same message, with its did-you-mean hint
      }
      into.diagnostics.push_back(error_at(name, line_number,
                                          static_cast<std::uint32_t>(begin + parsed.error().offset + 1),
                                          diag::invalid_prefix, std::move(message)));
    }
    if (++errors >= options.max_errors) {
      into.diagnostics.push_back(detail::too_many_errors(options.max_errors, {std::string(name), line_number, 0}));
      return;
    }
  }
  if (into.size() == entries_before && !options.allow_empty) {
    into.diagnostics.push_back(error_at(name, 0, 0, diag::empty_input, "no CIDR in this input (empty, or only comments)"));
  }
}

auto load_prefix_lists(std::span<const std::string> paths, const list_options& options) -> prefix_list {
  prefix_list out;
  detail::huge_vector<char> text;
  for (const auto& path : paths) {
    if (auto error = read_file_into(path, options.max_file_bytes, "max-file-bytes", text); !error.empty()) {
      out.sources.push_back(display_name(path));
      out.diagnostics.push_back(error_at(display_name(path), 0, 0, diag::unreadable, std::move(error)));
      continue;
    }
    parse_prefix_list(std::string_view(text.data(), text.size()), display_name(path), out, options);
  }
  return out;
}

}  // namespace cidrcheck
