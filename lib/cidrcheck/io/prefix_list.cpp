#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/prefix_list.hpp>

#include <cidrcheck/detail/huge_pages.hpp>
#include <cidrcheck/io/read_file.hpp>

#include "too_many_errors.hpp"

#include <cstring>

namespace cidrcheck {

namespace {

constexpr auto is_blank(char c) noexcept -> bool { return c == ' ' || c == '\t' || c == '\r'; }

auto error_at(std::string_view file, std::uint32_t line, std::uint32_t column, std::string code, std::string message)
    -> diagnostic {
  return {severity::error, std::move(code), std::move(message), {std::string(file), line, column}, {}};
}

}  // namespace

void parse_prefix_list(std::string_view text, std::string_view name, prefix_list& into, const list_options& options) {
  auto source = static_cast<std::uint32_t>(into.sources.size());
  into.sources.emplace_back(name);
  std::size_t errors = 0;
  for (const auto& d : into.diagnostics) errors += d.level == severity::error ? 1 : 0;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte-order mark

  std::uint32_t line_number = 0;
  const std::size_t entries_before = into.entries.size();
  detail::reserve_huge(into.entries, entries_before + text.size() / 14);  // a typical line is 14-16 bytes
  while (!text.empty()) {
    ++line_number;
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
        into.entries.push_back({*parsed, source, line_number});
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
  if (into.entries.size() == entries_before && !options.allow_empty) {
    into.diagnostics.push_back(error_at(name, 0, 0, diag::empty_input, "no CIDR in this input (empty, or only comments)"));
  }
}

auto load_prefix_lists(std::span<const std::string> paths, const list_options& options) -> prefix_list {
  prefix_list out;
  for (const auto& path : paths) {
    auto file = read_file(path, options.max_file_bytes, "max-file-bytes");
    if (!file.error.empty()) {
      out.sources.push_back(display_name(path));
      out.diagnostics.push_back(error_at(display_name(path), 0, 0, diag::unreadable, file.error));
      continue;
    }
    parse_prefix_list(file.text, display_name(path), out, options);
  }
  return out;
}

}  // namespace cidrcheck
